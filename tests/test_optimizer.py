"""padax.optimizer: Paddle's update formulas as pure state transitions, schedules, gradient clipping."""
import math

import numpy as np
import pytest

import padax
from padax.optimizer import lr as lrs

_RNG = np.random.default_rng(0)


def _np_run(kind, params, grads_seq, lr, **kw):
    """Reference: Paddle's kernels written out in numpy (float64)."""
    p = {k: v.astype(np.float64) for k, v in params.items()}
    st = {k: {"m": np.zeros_like(v), "v": np.zeros_like(v), "mg": np.zeros_like(v), "mom": np.zeros_like(v),
              "acc": np.full_like(v, kw.get("initial_accumulator_value", 0.0))} for k, v in p.items()}
    for t, grads in enumerate(grads_seq, start=1):
        for k in p:
            g, s = grads[k].astype(np.float64), st[k]
            wd = kw.get("weight_decay") or 0.0
            if kind != "adamw" and wd:
                g = g + wd * p[k]
            if kind == "sgd":
                p[k] = p[k] - lr * g
            elif kind == "momentum":
                mu = kw.get("momentum", 0.9)
                s["v"] = mu * s["v"] + g
                p[k] = p[k] - lr * ((g + mu * s["v"]) if kw.get("use_nesterov") else s["v"])
            elif kind in ("adam", "adamw"):
                b1, b2, eps = kw.get("beta1", 0.9), kw.get("beta2", 0.999), kw.get("epsilon", 1e-8)
                if kind == "adamw":
                    p[k] = p[k] * (1 - lr * kw.get("weight_decay", 0.01))
                s["m"] = b1 * s["m"] + (1 - b1) * g
                s["v"] = b2 * s["v"] + (1 - b2) * g * g
                lr_t = lr * math.sqrt(1 - b2 ** t) / (1 - b1 ** t)
                p[k] = p[k] - lr_t * s["m"] / (np.sqrt(s["v"]) + eps * math.sqrt(1 - b2 ** t))
            elif kind == "adagrad":
                s["acc"] = s["acc"] + g * g
                p[k] = p[k] - lr * g / (np.sqrt(s["acc"]) + kw.get("epsilon", 1e-6))
            elif kind == "rmsprop":
                rho, eps, mu = kw.get("rho", 0.95), kw.get("epsilon", 1e-6), kw.get("momentum", 0.0)
                s["m"] = rho * s["m"] + (1 - rho) * g * g
                if kw.get("centered"):
                    s["mg"] = rho * s["mg"] + (1 - rho) * g
                    denom = np.sqrt(s["m"] - s["mg"] ** 2 + eps)
                else:
                    denom = np.sqrt(s["m"] + eps)
                s["mom"] = mu * s["mom"] + lr * g / denom
                p[k] = p[k] - s["mom"]
    return p


_CASES = [
    ("sgd", padax.optimizer.SGD, {}),
    ("sgd", padax.optimizer.SGD, {"weight_decay": 0.1}),
    ("momentum", padax.optimizer.Momentum, {"momentum": 0.8}),
    ("momentum", padax.optimizer.Momentum, {"momentum": 0.9, "use_nesterov": True, "weight_decay": 0.01}),
    ("adam", padax.optimizer.Adam, {}),
    ("adam", padax.optimizer.Adam, {"beta1": 0.5, "beta2": 0.9, "epsilon": 1e-3, "weight_decay": 0.05}),
    ("adamw", padax.optimizer.AdamW, {}),
    ("adamw", padax.optimizer.AdamW, {"weight_decay": 0.3}),
    ("adagrad", padax.optimizer.Adagrad, {"initial_accumulator_value": 0.1}),
    ("rmsprop", padax.optimizer.RMSProp, {}),
    ("rmsprop", padax.optimizer.RMSProp, {"momentum": 0.5, "centered": True}),
]


@pytest.mark.parametrize("kind,cls,kw", _CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(_CASES)])
def test_updates_match_paddles_formulas(kind, cls, kw):
    params = {"w": _RNG.standard_normal((3, 4)).astype(np.float32),
              "b": _RNG.standard_normal(4).astype(np.float32)}
    grads_seq = [{k: _RNG.standard_normal(v.shape).astype(np.float32) for k, v in params.items()}
                 for _ in range(5)]
    lr = 0.05
    opt = cls(learning_rate=lr, **kw)
    p = {k: padax.to_tensor(v) for k, v in params.items()}
    state = opt.init(p)
    step = padax.jit(opt.step)
    for grads in grads_seq:
        p, state = step(p, {k: padax.to_tensor(v) for k, v in grads.items()}, state)
    ref = _np_run(kind, params, grads_seq, lr, **kw)
    assert int(state["step"]) == 5
    for k in params:
        assert p[k].dtype == padax.float32
        np.testing.assert_allclose(p[k].numpy(), ref[k], rtol=2e-5, atol=2e-6)


def test_eager_and_jitted_steps_agree_and_train():
    # minimise ||A w - y||^2 with Adam: the loss falls by orders of magnitude
    a = _RNG.standard_normal((20, 5)).astype(np.float32)
    y = a @ np.arange(5, dtype=np.float32)
    loss = lambda w: padax.mean((padax.matmul(padax.to_tensor(a), w["w"]) - padax.to_tensor(y)) ** 2)
    opt = padax.optimizer.Adam(learning_rate=0.1)

    @padax.jit
    def train_step(w, state):
        value, g = padax.value_and_grad(loss)(w)
        w, state = opt.step(w, g, state)
        return w, state, value

    w = {"w": padax.zeros([5])}
    state = opt.init(w)
    w_eager, s_eager = opt.step(w, padax.grad(loss)(w), state)
    w1, s1, first = train_step(w, state)
    np.testing.assert_allclose(w_eager["w"].numpy(), w1["w"].numpy(), rtol=1e-6)
    for _ in range(300):
        w1, s1, value = train_step(w1, s1)
    assert float(value) < 1e-3 * float(first)


def test_schedules_host_values():
    assert [lrs.StepDecay(1.0, 2, 0.5).value(e) for e in range(5)] == [1.0, 1.0, 0.5, 0.5, 0.25]
    assert [lrs.MultiStepDecay(1.0, [1, 3], 0.1).value(e) for e in range(4)] == pytest.approx([1, .1, .1, .01])
    assert lrs.ExponentialDecay(2.0, 0.5).value(3) == 0.25
    cos = lrs.CosineAnnealingDecay(1.0, T_max=10, eta_min=0.1)
    assert cos.value(0) == 1.0 and cos.value(10) == pytest.approx(0.1) and cos.value(5) == pytest.approx(0.55)
    poly = lrs.PolynomialDecay(1.0, decay_steps=4, end_lr=0.0, power=2.0)
    assert [poly.value(e) for e in (0, 2, 4, 9)] == [1.0, 0.25, 0.0, 0.0]
    pw = lrs.PiecewiseDecay([2, 4], [1.0, 0.5, 0.1])
    assert [pw.value(e) for e in range(6)] == [1.0, 1.0, 0.5, 0.5, 0.1, 0.1]
    warm = lrs.LinearWarmup(lrs.StepDecay(1.0, 2, 0.5), warmup_steps=4, start_lr=0.0, end_lr=1.0)
    assert [warm.value(e) for e in range(8)] == [0.0, 0.25, 0.5, 0.75, 1.0, 1.0, 0.5, 0.5]


def test_schedules_traced_match_host():
    schedules = [lrs.StepDecay(1.0, 2, 0.5), lrs.MultiStepDecay(1.0, [1, 3], 0.1), lrs.ExponentialDecay(2.0, 0.9),
                 lrs.CosineAnnealingDecay(1.0, 10, 0.1), lrs.PolynomialDecay(1.0, 4, 0.0, 2.0),
                 lrs.PiecewiseDecay([2, 4], [1.0, 0.5, 0.1]),
                 lrs.LinearWarmup(lrs.ExponentialDecay(1.0, 0.5), 3, 0.1, 1.0), lrs.LinearWarmup(0.5, 3, 0.0, 0.5)]
    for s in schedules:
        traced = padax.jit(s.value)
        for e in range(8):
            assert float(traced(padax.to_tensor(np.int32(e)))) == pytest.approx(s.value(e), rel=1e-6), (s, e)


def test_optimizer_follows_its_schedule_by_step_count():
    opt = padax.optimizer.SGD(learning_rate=lrs.StepDecay(1.0, step_size=1, gamma=0.5))
    p = {"w": padax.zeros([1])}
    state = opt.init(p)
    step = padax.jit(opt.step)
    for _ in range(3):
        p, state = step(p, {"w": padax.ones([1])}, state)
    assert float(p["w"][0]) == pytest.approx(-(1.0 + 0.5 + 0.25))
    # Paddle's eager protocol: scheduler() / scheduler.step(), and lr= to drive it per epoch
    sched = lrs.StepDecay(1.0, step_size=1, gamma=0.1)
    assert sched() == 1.0
    sched.step()
    assert sched() == pytest.approx(0.1) and sched.last_epoch == 1
    p2, _ = padax.optimizer.SGD(learning_rate=sched).step(p, {"w": padax.ones([1])}, state, lr=sched())
    assert float(p2["w"][0]) == pytest.approx(float(p["w"][0]) - 0.1)


def test_gradient_clipping():
    g = {"a": padax.to_tensor(np.array([3.0, 4.0], np.float32)), "b": padax.to_tensor(np.array([12.0], np.float32))}
    by_global = padax.nn.ClipGradByGlobalNorm(6.5)(g)  # global norm 13 -> scale 0.5
    np.testing.assert_allclose(by_global["a"].numpy(), [1.5, 2.0], rtol=1e-6)
    np.testing.assert_allclose(by_global["b"].numpy(), [6.0], rtol=1e-6)
    by_norm = padax.nn.ClipGradByNorm(1.0)(g)
    np.testing.assert_allclose(by_norm["a"].numpy(), [0.6, 0.8], rtol=1e-6)
    np.testing.assert_allclose(by_norm["b"].numpy(), [1.0], rtol=1e-6)
    by_value = padax.nn.ClipGradByValue(3.5)(g)
    np.testing.assert_allclose(by_value["a"].numpy(), [3.0, 3.5])
    small = padax.nn.ClipGradByGlobalNorm(100.0)(g)
    np.testing.assert_array_equal(small["b"].numpy(), [12.0])
    opt = padax.optimizer.SGD(1.0, grad_clip=padax.nn.ClipGradByGlobalNorm(6.5))
    p = {"a": padax.zeros([2]), "b": padax.zeros([1])}
    p, _ = opt.step(p, g, opt.init(p))
    np.testing.assert_allclose(p["a"].numpy(), [-1.5, -2.0], rtol=1e-6)


def test_errors():
    with pytest.raises(TypeError, match="learning_rate"):
        padax.optimizer.Adam(learning_rate="fast")
    with pytest.raises(ValueError, match="beta1"):
        padax.optimizer.Adam(beta1=1.5)
    assert padax.optimizer.AdamW(multi_precision=True).multi_precision  # master weights: tests/amp
    opt = padax.optimizer.SGD(0.1)
    p = {"w": padax.zeros([2])}
    with pytest.raises(ValueError, match="different structures"):
        opt.step(p, {"v": padax.zeros([2])}, opt.init(p))
    with pytest.raises(ValueError, match="step_size"):
        lrs.StepDecay(0.1, 0)
    with pytest.raises(ValueError, match="len\\(values\\)"):
        lrs.PiecewiseDecay([1, 2], [0.1])


def test_incomplete_subclasses_fail_when_defined():
    with pytest.raises(TypeError, match="NoUpdate: a padax optimizer must define _update"):
        class NoUpdate(padax.optimizer.Optimizer):
            pass
    with pytest.raises(TypeError, match=r"NoValue: a learning-rate schedule must define value\(step\) or get_lr"):
        class NoValue(lrs.LRScheduler):
            pass
    from padax.runtime.sharding import Sharding
    with pytest.raises(TypeError, match="NoLayout: a Sharding must define"):
        class NoLayout(Sharding):
            @property
            def device_list(self):
                return ()


def test_scheduler_subclass_may_override_get_lr():
    """Paddle's protocol: a subclass computes the rate in get_lr() from last_epoch and base_lr."""
    class Halving(lrs.LRScheduler):
        def get_lr(self):
            return self.base_lr * 0.5 ** self.last_epoch

    s = Halving(learning_rate=1.0)
    rates = [s()]
    for _ in range(3):
        s.step()
        rates.append(s())
    assert rates == [1.0, 0.5, 0.25, 0.125] and s.value(4) == 0.0625 and s.last_epoch == 3
    opt = padax.optimizer.SGD(learning_rate=s)
    params = {"w": padax.ones([2])}
    state = opt.init(params)
    new, _ = opt.step(params, {"w": padax.ones([2])}, state)  # eagerly: the rate at the optimizer's step (0)
    np.testing.assert_allclose(new["w"].numpy(), [0.0, 0.0])
    jitted = padax.jit(lambda p, g, st, lr: opt.step(p, g, st, lr=lr))
    new, _ = jitted(params, {"w": padax.ones([2])}, state, s())
    np.testing.assert_allclose(new["w"].numpy(), [0.875, 0.875])
    with pytest.raises(TypeError, match=r"lr=scheduler\(\)"):
        padax.jit(lambda p, g, st: opt.step(p, g, st))(params, {"w": padax.ones([2])}, state)
