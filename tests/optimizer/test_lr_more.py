"""The schedules added after the first set, against Paddle's own schedulers (host) and traced under jit."""
import math

import numpy as np
import pytest

import padax
from padax.optimizer import lr as lrs
from tests.conftest import paddle_oracle

_CASES = [
    ("NoamDecay", dict(d_model=16, warmup_steps=5, learning_rate=2.0)),
    ("NaturalExpDecay", dict(learning_rate=0.5, gamma=0.1)),
    ("InverseTimeDecay", dict(learning_rate=0.5, gamma=0.2)),
    ("LambdaDecay", dict(learning_rate=0.5, lr_lambda=lambda e: 0.9 ** e)),
    ("MultiplicativeDecay", dict(learning_rate=0.5, lr_lambda=lambda e: 0.95 if e % 2 else 0.9)),
    ("LinearLR", dict(learning_rate=0.5, total_steps=10, start_factor=0.2, end_factor=0.9)),
    ("OneCycleLR", dict(max_learning_rate=1.0, total_steps=30)),
    ("OneCycleLR", dict(max_learning_rate=1.0, total_steps=30, anneal_strategy="linear", three_phase=True,
                        phase_pct=0.2, end_learning_rate=0.01)),
    ("CyclicLR", dict(base_learning_rate=0.1, max_learning_rate=1.0, step_size_up=4, step_size_down=6)),
    ("CyclicLR", dict(base_learning_rate=0.1, max_learning_rate=1.0, step_size_up=3, mode="triangular2")),
    ("CyclicLR", dict(base_learning_rate=0.1, max_learning_rate=1.0, step_size_up=3, mode="exp_range",
                      exp_gamma=0.9)),
    ("CosineAnnealingWarmRestarts", dict(learning_rate=0.5, T_0=4, eta_min=0.01)),
    ("CosineAnnealingWarmRestarts", dict(learning_rate=0.5, T_0=3, T_mult=2)),
    ("PolynomialDecay", dict(learning_rate=0.5, decay_steps=7, cycle=True, power=0.5, end_lr=0.01)),
]
_STEPS = 30
_HOST_ONLY = {"MultiplicativeDecay"}


@pytest.mark.parametrize("name,kw", _CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(_CASES)])
def test_matches_paddle_and_traced(name, kw):
    paddle = paddle_oracle()
    ours, ref = getattr(lrs, name)(**kw), getattr(paddle.optimizer.lr, name)(**kw)
    got, want = [], []
    for _ in range(_STEPS):
        got.append(ours())
        want.append(ref())
        ours.step()
        ref.step()
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-15)
    if name in _HOST_ONLY:
        with pytest.raises(TypeError, match="lr=scheduler"):
            padax.jit(ours.value)(padax.to_tensor(3))
        return
    traced = padax.jit(padax.vmap(ours.value))(padax.arange(_STEPS))
    np.testing.assert_allclose(np.asarray(traced), want, rtol=2e-5, atol=1e-7)


def test_linear_warmup_state_dict_is_paddles():
    """An inner schedule is stepped past the warmup and its state kept under 'LinearWarmup_LR', as Paddle."""
    paddle = paddle_oracle()
    states = []
    for mod in (lrs, paddle.optimizer.lr):
        sched = mod.LinearWarmup(mod.CosineAnnealingDecay(0.5, T_max=10), warmup_steps=3, start_lr=0.0, end_lr=0.5)
        for _ in range(6):
            sched.step()
        resumed = mod.LinearWarmup(mod.CosineAnnealingDecay(0.5, T_max=10), warmup_steps=3, start_lr=0.0, end_lr=0.5)
        resumed.set_state_dict(sched.state_dict())
        resumed.step()
        states.append((sched.state_dict(), resumed(), resumed.state_dict()))
    (ours, our_lr, our_resumed), (theirs, their_lr, their_resumed) = states
    assert ours["LinearWarmup_LR"]["last_epoch"] == 3 and our_resumed["LinearWarmup_LR"]["last_epoch"] == 4
    for a, b in ((ours, theirs), (our_resumed, their_resumed)):
        assert a.keys() == b.keys() and a["LinearWarmup_LR"].keys() == b["LinearWarmup_LR"].keys()
        assert a["last_epoch"] == b["last_epoch"]
        np.testing.assert_allclose([a["last_lr"], a["LinearWarmup_LR"]["last_lr"]],
                                   [b["last_lr"], b["LinearWarmup_LR"]["last_lr"]], rtol=1e-12)
    np.testing.assert_allclose(our_lr, their_lr, rtol=1e-12)


def test_reduce_on_plateau_matches_paddle():
    paddle = paddle_oracle()
    metrics = [1.0, 0.9, 0.95, 0.94, 0.96, 0.97, 0.8, 0.81, 0.82, 0.83, 0.84, 0.85, 0.86]
    for kw in (dict(patience=2), dict(patience=1, cooldown=2, factor=0.5, min_lr=0.02),
               dict(mode="max", threshold_mode="abs", threshold=0.05, patience=1)):
        ours, ref = lrs.ReduceOnPlateau(0.1, **kw), paddle.optimizer.lr.ReduceOnPlateau(0.1, **kw)
        got, want = [], []
        for m in metrics:
            ours.step(m)
            ref.step(m)
            got.append(ours())
            want.append(ref())
        assert got == pytest.approx(want, rel=1e-12)
        assert len(set(got)) > 1  # the rate did change
    resumed = lrs.ReduceOnPlateau(0.1, patience=2)
    resumed.set_state_dict(ours.state_dict())
    assert resumed() == ours() and resumed.best == ours.best


def test_reduce_on_plateau_with_an_optimizer():
    sched = lrs.ReduceOnPlateau(0.5, patience=0)
    opt = padax.optimizer.SGD(learning_rate=sched)
    params = {"w": padax.to_tensor([1.0])}
    state = opt.init(params)
    p, state = opt.step(params, {"w": padax.to_tensor([1.0])}, state)  # eager: the current rate
    np.testing.assert_allclose(np.asarray(p["w"]), [0.5])
    with pytest.raises(TypeError, match="lr=scheduler"):
        padax.jit(opt.step)(params, {"w": padax.to_tensor([1.0])}, state)
    sched.step(1.0)
    sched.step(2.0)
    p, _ = padax.jit(opt.step)(params, {"w": padax.to_tensor([1.0])}, state, lr=sched())
    np.testing.assert_allclose(np.asarray(p["w"]), [0.95])


def test_warm_restarts_period_boundaries_traced():
    s = lrs.CosineAnnealingWarmRestarts(1.0, T_0=2, T_mult=3)
    steps = np.arange(200)
    host = np.array([s.value(int(i)) for i in steps])
    traced = np.asarray(padax.jit(padax.vmap(s.value))(padax.to_tensor(steps)))
    np.testing.assert_allclose(traced, host, rtol=1e-5, atol=1e-6)
    assert host[2] == 1.0 and host[8] == 1.0 and host[26] == 1.0  # restarts at 2, 2 + 6, 2 + 6 + 18
    assert math.isclose(host[5], (1 + math.cos(math.pi * 3 / 6)) / 2)


def test_bad_arguments():
    with pytest.raises(ValueError, match="T_mult"):
        lrs.CosineAnnealingWarmRestarts(0.1, T_0=2, T_mult=0)
    with pytest.raises(ValueError, match="past total_steps"):
        lrs.OneCycleLR(0.1, total_steps=3).value(4)
    with pytest.raises(TypeError, match="lr_lambda"):
        lrs.LambdaDecay(0.1, lr_lambda=3)
    with pytest.raises(ValueError, match="factor"):
        lrs.ReduceOnPlateau(0.1, factor=2.0)


@pytest.mark.parametrize("name,kw,error", [  # arguments Paddle refuses and padax accepted (some truncated silently)
    ("StepDecay", dict(learning_rate=0.1, step_size=2.5), TypeError),
    ("StepDecay", dict(learning_rate=0.1, step_size=2, gamma=1.5), ValueError),
    ("MultiStepDecay", dict(learning_rate=0.1, milestones=[2, 2]), ValueError),
    ("MultiStepDecay", dict(learning_rate=0.1, milestones=[2, 3], gamma=1.0), ValueError),
    ("ExponentialDecay", dict(learning_rate=0.1, gamma=1.5), ValueError),
    ("PolynomialDecay", dict(learning_rate=0.1, decay_steps=5, power=-1.0), ValueError),
    ("LinearWarmup", dict(learning_rate=0.1, warmup_steps=2, start_lr=0.2, end_lr=0.1), ValueError),
    ("LinearWarmup", dict(learning_rate="0.1", warmup_steps=2, start_lr=0.0, end_lr=0.1), TypeError),
    ("CosineAnnealingDecay", dict(learning_rate=0.1, T_max=2.5), TypeError),
    ("CyclicLR", dict(base_learning_rate=-1.0, max_learning_rate=0.1, step_size_up=2), ValueError),
])
def test_refuses_what_paddle_refuses(name, kw, error):
    paddle = paddle_oracle()
    with pytest.raises(Exception):
        getattr(paddle.optimizer.lr, name)(**kw)
    with pytest.raises(error, match=name):
        getattr(lrs, name)(**kw)


def test_subclass_state_keys_protocol_as_paddle():
    """A Paddle-style subclass names extra state in state_keys(); state_dict/set_state_dict (set_dict) carry it."""
    paddle = paddle_oracle()
    out, classes = [], []
    for mod in (lrs, paddle.optimizer.lr):
        class Halving(mod.LRScheduler):
            def __init__(self, learning_rate):
                self.halvings = 0
                super().__init__(learning_rate)

            def get_lr(self):
                return self.base_lr * 0.5 ** self.halvings

            def state_keys(self):
                self.keys = ["last_epoch", "last_lr", "halvings"]

        sched = Halving(1.0)
        sched.halvings = 2
        sched.step()
        resumed = Halving(1.0)
        resumed.set_dict(sched.state_dict())
        resumed.step()
        out.append((sched.state_dict(), resumed(), resumed.halvings, resumed.last_epoch))
        classes.append(Halving)
    assert out[0] == out[1] == ({"last_epoch": 1, "last_lr": 0.25, "halvings": 2}, 0.25, 2, 2)
    with pytest.raises(KeyError, match="halvings"):
        classes[0](1.0).set_state_dict({"last_epoch": 1, "last_lr": 0.5})
