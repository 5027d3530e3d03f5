"""Layer state (BatchNorm statistics, buffers) that survives the obvious training step.

`loss, grads = value_and_grad(loss_fn)(model, x, y); model, st = opt.step(model, grads, st)`
must update BatchNorm's running statistics, eagerly, under jit, and under vmap, without the
model being returned as aux (issue: the statistics were lost on grad's copy of the model).
"""
import numpy as np
import pytest

import padax
from padax import nn
from tests.conftest import paddle_oracle
from tests.nn.oracle import copy_weights

F = nn.functional
RNG = np.random.default_rng(0)


def _net(lib):
    return lib.nn.Sequential(lib.nn.Conv2D(1, 4, 3), lib.nn.BatchNorm2D(4), lib.nn.ReLU(), lib.nn.Flatten(),
                             lib.nn.Linear(4 * 4 * 4, 3))


def _batches(n=3):
    return [(RNG.standard_normal((5, 1, 6, 6)).astype(np.float32) * (i + 1) + i,
             RNG.standard_normal((5, 3)).astype(np.float32)) for i in range(n)]


def _loss_fn(model, x, y):
    return F.mse_loss(model(x), y)


def _obvious_steps(model, batches, jit):
    """The step a new user writes: no aux, the model goes in and comes back from opt.step only."""
    opt = padax.optimizer.SGD(0.1)
    st = opt.init(model)

    def step(model, st, x, y):
        loss, grads = padax.value_and_grad(_loss_fn)(model, x, y)
        model, st = opt.step(model, grads, st)
        return model, st, loss

    step = padax.jit(step) if jit else step
    for x, y in batches:
        model, st, _ = step(model, st, padax.to_tensor(x), padax.to_tensor(y))
    return model


def _aux_steps(model, batches):
    """docs/nn_state.md's idiom: the model returned as aux of the loss."""
    opt = padax.optimizer.SGD(0.1)
    st = opt.init(model)

    @padax.jit
    def step(model, st, x, y):
        def loss_fn(m):
            return _loss_fn(m, x, y), m
        (loss, model), grads = padax.value_and_grad(loss_fn, has_aux=True)(model)
        model, st = opt.step(model, grads, st)
        return model, st, loss

    for x, y in batches:
        model, st, _ = step(model, st, padax.to_tensor(x), padax.to_tensor(y))
    return model


def test_obvious_step_keeps_batchnorm_statistics_vs_paddle():
    paddle = paddle_oracle()
    paddle.seed(0)
    p = _net(paddle)
    batches = _batches()
    models = {name: copy_weights(_net(padax), p) for name in ("jit", "eager", "aux")}
    popt = paddle.optimizer.SGD(0.1, parameters=p.parameters())
    for x, y in batches:
        loss = paddle.nn.functional.mse_loss(p(paddle.to_tensor(x)), paddle.to_tensor(y))
        loss.backward()
        popt.step()
        popt.clear_grad()
    after = {"jit": _obvious_steps(models["jit"], batches, jit=True),
             "eager": _obvious_steps(models["eager"], batches, jit=False),
             "aux": _aux_steps(models["aux"], batches)}
    want = {k: v.numpy() for k, v in p.state_dict().items()}
    assert abs(want["1._mean"]).max() > 0.1  # (the statistics moved)
    for name, m in after.items():
        got = {k: v.numpy() for k, v in m.state_dict().items()}
        for k in ("1._mean", "1._variance", "0.weight", "4.weight"):
            np.testing.assert_allclose(got[k], want[k], rtol=2e-4, atol=2e-5, err_msg=f"{name}: {k}")
    # the same numbers whichever way the step is written
    for k in ("1._mean", "1._variance"):
        np.testing.assert_array_equal(after["jit"].state_dict()[k].numpy(), after["aux"].state_dict()[k].numpy())


def test_eval_accuracy_after_obvious_training_uses_the_learned_statistics():
    """The failure the issue reports: training loss fine, eval wrong, because running stats stayed 0/1."""
    padax.seed(1)
    model = _net(padax)
    batches = _batches(4)
    model = _obvious_steps(model, batches, jit=True)
    bn = model[1]
    assert not np.allclose(bn._mean.numpy(), 0) and not np.allclose(bn._variance.numpy(), 1)


def test_jitted_forward_writes_state_back_to_the_layer_passed_in():
    bn = nn.BatchNorm1D(3)
    x = padax.to_tensor(RNG.standard_normal((8, 3)).astype(np.float32))
    f = padax.jit(lambda m, x: m(x))
    f(bn, x)
    f(bn, x)
    mu = x.numpy().mean(0)
    np.testing.assert_allclose(bn._mean.numpy(), 0.9 * 0.1 * mu + 0.1 * mu, rtol=1e-5, atol=1e-7)
    assert f._cache_size() == 1
    # ahead-of-time compiled programs do the same; the outputs are only the function's
    c = f.lower(bn, x).compile()
    before = bn._mean.numpy()
    out = c(bn, x)
    assert out.shape == (8, 3)
    np.testing.assert_allclose(bn._mean.numpy(), 0.9 * before + 0.1 * mu, rtol=1e-5, atol=1e-7)
    bn.eval()
    frozen = bn._mean.numpy()
    f(bn, x)
    np.testing.assert_array_equal(bn._mean.numpy(), frozen)


def test_grad_inside_jit_without_returning_the_model():
    bn = nn.BatchNorm1D(2)
    x = padax.to_tensor(RNG.standard_normal((6, 2)).astype(np.float32))
    g = padax.jit(lambda m, x: padax.grad(lambda m: (m(x) ** 2).sum())(m))
    grads = g(bn, x)
    assert grads.weight.shape == (2,)
    np.testing.assert_allclose(bn._mean.numpy(), 0.1 * x.numpy().mean(0), rtol=1e-5)


class _Counter(nn.Layer):
    """A user layer with a buffer updated in forward, the Paddle way."""

    def __init__(self):
        super().__init__()
        self.register_buffer("calls", padax.zeros([], "float32"))
        self.lin = nn.Linear(2, 2)

    def forward(self, x):
        self.calls = self.calls + 1
        return self.lin(x)


def test_registered_buffer_updated_in_forward_survives_every_transformation():
    m = _Counter()
    x = padax.ones([3, 2])
    padax.grad(lambda m: m(x).sum())(m)
    padax.jit(lambda m, x: m(x))(m, x)
    padax.jit(padax.grad(lambda m, x: m(x).sum()))(m, x)
    padax.vmap(lambda x: m.lin(x))(x)  # (no state touched)
    assert float(m.calls) == 3.0


def test_vmap_ensemble_updates_each_member_and_unmapped_layer_is_an_error():
    def make(k):
        with nn.rng_scope(k):
            return nn.BatchNorm1D(3)
    members = padax.vmap(make)(padax.random.split(padax.random.key(0), 2))
    x = RNG.standard_normal((8, 3)).astype(np.float32)
    xs = padax.to_tensor(np.stack([x, 2 * x + 1]))
    padax.vmap(lambda m, x: m(x))(members, xs)
    np.testing.assert_allclose(members._mean.numpy(), 0.1 * xs.numpy().mean(1), rtol=1e-5, atol=1e-7)
    # members stacked on axis 1 (in_axes=1): the update keeps that layout
    fresh = padax.vmap(make)(padax.random.split(padax.random.key(1), 2))
    members_t = padax.tree.map(lambda a: a.T, fresh)
    padax.vmap(lambda m, x: m(x), in_axes=(1, 0))(members_t, xs)
    assert members_t._mean.shape == (3, 2)
    np.testing.assert_allclose(members_t._mean.numpy(), 0.1 * xs.numpy().mean(1).T, rtol=1e-5, atol=1e-7)
    bn = nn.BatchNorm1D(3)
    with pytest.raises(ValueError, match=r"BatchNorm1D\._mean was updated with a value that differs across the "
                                         r"mapped axis.*not mapped"):
        padax.vmap(lambda m, x: m(x), in_axes=(None, 0))(bn, xs)
    np.testing.assert_array_equal(bn._mean.numpy(), 0)


def test_closed_over_layer_in_jit_keeps_its_statistics_from_every_call():
    """Paddle's stateful style compiled: a jitted function closing over a BatchNorm writes its statistics back
    after each call (the program returns them), and reads them afresh (one program for every call)."""
    bn = nn.BatchNorm1D(2)
    f = padax.jit(lambda x: bn(x).sum())
    xs = RNG.standard_normal((3, 4, 2)).astype(np.float32)
    want = np.zeros(2, np.float32)
    for x in xs:
        f(padax.to_tensor(x))
        want = 0.9 * want + 0.1 * x.mean(0)
        np.testing.assert_allclose(bn._mean.numpy(), want, rtol=1e-5, atol=1e-7)
    assert f._cache_size() == 1


def test_loop_and_branch_bodies_carry_state_or_say_it_would_be_lost():
    bn = nn.BatchNorm1D(3)
    xs = padax.to_tensor(RNG.standard_normal((4, 8, 3)).astype(np.float32))
    m, _ = padax.lax.scan(lambda m, x: (m, m(x)), bn, xs)  # carried: the returned model has the statistics
    want = np.zeros(3, np.float32)
    for x in xs.numpy():
        want = 0.9 * want + 0.1 * x.mean(0)
    np.testing.assert_allclose(m._mean.numpy(), want, rtol=1e-5, atol=1e-7)
    with pytest.raises(ValueError, match=r"cond true_fn: BatchNorm1D\._mean was updated inside the body.*no output"):
        padax.lax.cond(True, lambda m, x: m(x), lambda m, x: x, bn, xs[0])
    with pytest.raises(nn.LayerStateError, match="lives outside the transformation"):  # (closed over by the body)
        padax.jit(lambda m, xs: padax.lax.scan(lambda c, x: (c, m(x)), 0.0, xs))(bn, xs)
    bn.eval()
    padax.lax.cond(True, lambda m, x: m(x), lambda m, x: x, bn, xs[0])  # eval mode: nothing to carry


def test_checkpoint_carries_state_like_jit():
    m = nn.Sequential(nn.Linear(3, 3), nn.BatchNorm1D(3))
    x = padax.to_tensor(RNG.standard_normal((8, 3)).astype(np.float32))
    padax.grad(lambda m: padax.checkpoint(lambda m, x: m(x))(m, x).sum())(m)
    np.testing.assert_allclose(m[1]._mean.numpy(), 0.1 * m[0](x).numpy().mean(0), rtol=1e-5, atol=1e-7)
