"""The dygraph tape (padax/interpreters/tape.py): stop_gradient, backward, .grad, paddle.grad, hooks, grad
modes and Paddle's errors, each checked against PaddlePaddle running the same program."""
from __future__ import annotations

import numpy as np
import pytest

import padax
from tests.conftest import paddle_oracle

RNG = np.random.default_rng(0)
X = RNG.standard_normal((4, 3)).astype(np.float32)
W = RNG.standard_normal((3, 2)).astype(np.float32)


def _both(fn):
    """Run `fn(lib)` with padax and with Paddle; returns the two results as numpy trees."""
    paddle = paddle_oracle()
    return fn(padax), fn(paddle)


def _np(t):
    return None if t is None else np.asarray(t.numpy())


def test_backward_accumulates_into_leaves_as_paddle():
    def prog(lib):
        x = lib.to_tensor(X, stop_gradient=False)
        w = lib.to_tensor(W, stop_gradient=False)
        c = lib.to_tensor(X)  # data: stop_gradient=True
        loss = (lib.tanh(lib.matmul(x * c, w)) ** 2).sum()
        loss.backward()
        first = (_np(x.grad), _np(w.grad), c.grad)
        lib.exp(w).mean().backward()  # accumulates
        return first, _np(w.grad), loss.stop_gradient, x.is_leaf, loss.is_leaf
    (ours, theirs) = _both(prog)
    for a, b in zip(ours[0][:2], theirs[0][:2]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    assert ours[0][2] is None and theirs[0][2] is None
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-5, atol=1e-6)
    assert ours[2:] == theirs[2:] == (False, True, False)


def test_higher_order_paddle_grad_as_paddle():
    def prog(lib):
        x = lib.to_tensor(X[0], stop_gradient=False)
        y = (lib.sin(x) * x ** 3).sum()
        (g1,) = lib.grad(y, x, create_graph=True)
        (g2,) = lib.grad(g1.sum(), x, create_graph=True)
        (g3,) = lib.grad(g2.sum(), x)
        return _np(g1), _np(g2), _np(g3), g1.stop_gradient, g3.stop_gradient, x.grad
    ours, theirs = _both(prog)
    for a, b in zip(ours[:3], theirs[:3]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)
    assert ours[3:] == theirs[3:] == (False, True, None)


def test_paddle_grad_options():
    def prog(lib):
        x = lib.to_tensor(X, stop_gradient=False)
        z = lib.to_tensor(W, stop_gradient=False)
        h = x * 2
        y = (h * h).sum()
        gh, gz = lib.grad([y], [h, z], grad_outputs=[lib.to_tensor(3.0)], retain_graph=True, allow_unused=True)
        (gx,) = lib.grad(y, x, no_grad_vars=[h], allow_unused=True)
        return _np(gh), gz, gx
    ours, theirs = _both(prog)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-6)
    assert ours[1] is None and theirs[1] is None
    assert ours[2] is None and theirs[2] is None


def test_hooks_and_retain_grads():
    def prog(lib):
        x = lib.to_tensor(X, stop_gradient=False)
        h = x * 2
        h.register_hook(lambda g: g * 10)
        seen = []
        x.register_hook(lambda g: seen.append(_np(g)))
        k = lib.exp(h)
        k.retain_grads()
        k.sum().backward()
        return _np(x.grad), seen[0], _np(k.grad)
    ours, theirs = _both(prog)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-5)


def test_hook_handle_removes_the_hook():
    x = padax.to_tensor([1.0, 2.0], stop_gradient=False)
    handle = x.register_hook(lambda g: g * 0)
    assert handle.remove()
    (x * 3).sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]


def test_grad_modes_as_context_managers_and_decorators():
    x = padax.to_tensor([1.0], stop_gradient=False)
    with padax.no_grad():
        assert not padax.is_grad_enabled() and (x * 2).stop_gradient
        with padax.enable_grad():
            assert not (x * 2).stop_gradient
    assert padax.is_grad_enabled()

    @padax.no_grad()
    def f(v):
        return v * 2

    @padax.no_grad
    def g(v):
        return v * 2
    assert f(x).stop_gradient and g(x).stop_gradient and not (x * 2).stop_gradient
    with padax.set_grad_enabled(False):
        assert (x * 2).stop_gradient
    assert x.detach().stop_gradient and not x.stop_gradient


def test_second_backward_and_unused_input_raise_as_paddle():
    paddle = paddle_oracle()
    for lib, released in ((padax, padax.interpreters.tape.GraphReleasedError), (paddle, SystemError)):
        x = lib.to_tensor([1.0, 2.0], stop_gradient=False)
        y = (x * x).sum()
        y.backward()
        with pytest.raises(released, match="retain_graph=True"):
            y.backward()
        with pytest.raises(SystemError):
            y.backward()
        z = lib.to_tensor([3.0], stop_gradient=False)
        with pytest.raises(ValueError, match="1-th input does not appear in the backward graph"):
            lib.grad((x * 2).sum(), [x, z])
        with pytest.raises(ValueError, match="can't use inplace strategy"):
            x.add_(lib.to_tensor([1.0, 1.0]))


def test_retain_graph_allows_a_second_backward():
    x = padax.to_tensor([1.0, 2.0], stop_gradient=False)
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    assert x.grad.tolist() == [4.0, 8.0]


def test_clear_grad_and_gradient():
    x = padax.to_tensor([1.0, 2.0], stop_gradient=False)
    (x * x).sum().backward()
    assert x.gradient().tolist() == [2.0, 4.0]
    x.clear_grad()
    assert x.grad.tolist() == [0.0, 0.0]  # zeros, as Paddle's default
    x.clear_grad(set_to_zero=False)
    assert x.grad is None


def test_recording_reaches_through_jit_and_functional_grad():
    w = padax.to_tensor(W, stop_gradient=False)
    f = padax.jit(lambda a: padax.tanh(a @ w))  # closes over a Tensor that needs a gradient
    x = padax.to_tensor(X, stop_gradient=False)
    f(x).sum().backward()
    expected_w = padax.grad(lambda v: padax.tanh(padax.to_tensor(X) @ v).sum())(padax.to_tensor(W))
    np.testing.assert_allclose(w.grad.numpy(), expected_w.numpy(), rtol=1e-5)
    assert x.grad is not None and x.grad.shape == x.shape
    # the functional transforms differentiate as before, recorded or not
    g = padax.grad(lambda v: (v * w).sum())(padax.to_tensor(W))
    np.testing.assert_allclose(g.numpy(), W, rtol=1e-6)


def test_plain_tensors_are_not_recorded():
    a = padax.to_tensor(X)
    b = a * 2 + 1
    assert type(b) is padax.Tensor and b.stop_gradient and b.grad is None


def test_tape_code_inside_vmap_jit_and_functional_grad():
    """The two styles in one program: paddle.grad inside vmap (per-example gradients), under jit, and a
    functional padax.grad of a function that differentiates with the tape (create_graph) inside."""
    def per_example(x):
        x.stop_gradient = False
        (g,) = padax.grad((padax.sin(x) * x ** 2).sum(), x)
        return g
    expected = np.cos(X) * X ** 2 + 2 * X * np.sin(X)
    np.testing.assert_allclose(padax.vmap(per_example)(padax.to_tensor(X)).numpy(), expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(padax.jit(padax.vmap(per_example))(padax.to_tensor(X)).numpy(), expected, rtol=1e-5,
                               atol=1e-6)

    def f(x):
        x.stop_gradient = False
        (g,) = padax.grad((x ** 3).sum(), x, create_graph=True)
        return g.sum()
    np.testing.assert_allclose(padax.grad(f)(padax.to_tensor(X[0])).numpy(), 6 * X[0], rtol=1e-5)
