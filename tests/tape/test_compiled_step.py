"""A whole tape-style train step (forward, `loss.backward()`, `opt.step()`, `opt.clear_grad()`) under `padax.jit`
or `padax.jit.to_static` compiles into one program that updates the parameters and optimizer state each call,
with the eager tape's numbers; and a to_static model trained by an eager loop."""
from __future__ import annotations

import numpy as np
import pytest

import padax
import padax.nn as nn
from tests.conftest import paddle_oracle

RNG = np.random.default_rng(2)
X = RNG.standard_normal((16, 5)).astype(np.float32)
Y = RNG.standard_normal((16, 1)).astype(np.float32)


def _setup(opt_cls=padax.optimizer.Adam, **kw):
    padax.seed(3)
    model = nn.Sequential(nn.Linear(5, 8, bias_attr=False), nn.BatchNorm1D(8), nn.ReLU(), nn.Linear(8, 1))
    opt = opt_cls(parameters=model.parameters(), **kw)
    return model, opt


def _step_fn(model, opt):
    def train_step(x, y):
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss
    return train_step


@pytest.mark.parametrize("compile_with", ["jit", "to_static"])
def test_compiled_step_equals_the_eager_tape(compile_with):
    model_e, opt_e = _setup(learning_rate=0.05)
    model_c, opt_c = _setup(learning_rate=0.05)
    eager = _step_fn(model_e, opt_e)
    wrap = padax.jit if compile_with == "jit" else padax.jit.to_static
    compiled = wrap(_step_fn(model_c, opt_c))
    x, y = padax.to_tensor(X), padax.to_tensor(Y)
    for _ in range(4):
        le, lc = float(eager(x, y)), float(compiled(x, y))
        np.testing.assert_allclose(lc, le, rtol=1e-5)
    for a, b in zip(model_c.state_dict().values(), model_e.state_dict().values()):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-6)
    assert all(p.grad is None and p.is_leaf for p in model_c.parameters())
    jf = getattr(compiled, "_padax_jit", compiled)
    assert jf._cache_size() == 1  # one program for every call


def test_scheduler_steps_between_compiled_calls_are_seen():
    sched = padax.optimizer.lr.StepDecay(0.1, step_size=1, gamma=0.5)
    model_e, opt_e = _setup(padax.optimizer.SGD, learning_rate=sched)
    sched_c = padax.optimizer.lr.StepDecay(0.1, step_size=1, gamma=0.5)
    model_c, opt_c = _setup(padax.optimizer.SGD, learning_rate=sched_c)
    eager, compiled = _step_fn(model_e, opt_e), padax.jit(_step_fn(model_c, opt_c))
    x, y = padax.to_tensor(X), padax.to_tensor(Y)
    for _ in range(3):
        np.testing.assert_allclose(float(compiled(x, y)), float(eager(x, y)), rtol=1e-5)
        sched.step()
        sched_c.step()
    for a, b in zip(model_c.parameters(), model_e.parameters()):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-7)


def test_gradient_accumulated_by_a_compiled_backward_is_kept():
    model, _ = _setup()

    @padax.jit
    def accumulate(x, y):
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        return loss
    x, y = padax.to_tensor(X), padax.to_tensor(Y)
    accumulate(x, y)
    accumulate(x, y)  # the program is retraced once: .grad now exists and is added to
    grads = [p.grad.numpy() for p in model.parameters() if not p.stop_gradient]
    model2, _ = _setup()
    for _ in range(2):
        ((model2(x) - y) ** 2).mean().backward()
    expected = [p.grad.numpy() for p in model2.parameters() if not p.stop_gradient]
    assert len(grads) == len(expected) == 5
    for a, b in zip(grads, expected):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-7)


def test_to_static_model_trained_by_an_eager_loop_matches_paddle():
    paddle = paddle_oracle()
    init = [RNG.standard_normal(s).astype(np.float32) * 0.4 for s in ((5, 3), (3,))]

    def run(lib):
        net = lib.nn.Linear(5, 3)
        net.weight.set_value(init[0])
        net.bias.set_value(init[1])
        static_net = lib.jit.to_static(net)
        opt = lib.optimizer.Momentum(learning_rate=0.1, momentum=0.9, parameters=net.parameters())
        losses = []
        for _ in range(3):
            loss = lib.tanh(static_net(lib.to_tensor(X))).mean()
            loss.backward()
            opt.step()
            opt.clear_grad()
            losses.append(float(loss))
        return losses, net.weight.numpy()
    ours, theirs = run(padax), run(paddle)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-5)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-5, atol=1e-6)


def test_parameters_and_state_are_donated_and_shared_buffers_copied():
    model, opt = _setup(padax.optimizer.Momentum, learning_rate=0.1, momentum=0.9)
    step = padax.jit(_step_fn(model, opt))
    x, y = padax.to_tensor(X), padax.to_tensor(Y)
    w = model[0].weight
    kept = w.clone()  # shares w's buffer: the first call gets a copy, so kept stays readable
    start = kept.numpy()
    step(x, y)
    step(x, y)
    np.testing.assert_array_equal(kept.numpy(), start)
    where = w._buf.unsafe_buffer_pointer()
    step(x, y)
    assert w._buf.unsafe_buffer_pointer() == where  # donated: the update was written into the same memory
    assert not np.allclose(w.numpy(), start)
