"""Adamax, Adadelta, NAdam, RAdam, Lamb, ASGD, Rprop: jitted steps against Paddle (float64), step by step."""
import numpy as np
import pytest

import padax
from tests.conftest import paddle_oracle

_RNG = np.random.default_rng(0)
X0 = {"w": _RNG.normal(size=(3, 4)), "b": _RNG.normal(size=(4,))}
GRADS = [{k: _RNG.normal(size=v.shape) for k, v in X0.items()} for _ in range(5)]
# Rprop: repeat signs for a while so the step sizes both grow and shrink
GRADS_RPROP = [{k: np.sign(X0[k]) * (1 + 0.1 * i) * (-1 if i in (3, 6) else 1) for k in X0} for i in range(8)]


def _paddle_run(name, grads, kw):
    paddle = paddle_oracle()
    params = {k: paddle.create_parameter(list(v.shape), "float64",
                                         default_initializer=paddle.nn.initializer.Assign(v)) for k, v in X0.items()}
    opt = getattr(paddle.optimizer, name)(parameters=list(params.values()), **kw)
    out = []
    for g in grads:
        loss = sum((params[k] * paddle.to_tensor(g[k])).sum() for k in params)
        loss.backward()
        opt.step()
        opt.clear_grad()
        out.append({k: p.numpy().copy() for k, p in params.items()})
    return out


_CASES = [
    ("Adamax", {}), ("Adamax", {"learning_rate": 0.05, "beta1": 0.8, "beta2": 0.9, "epsilon": 1e-3}),
    ("Adamax", {"learning_rate": 0.05, "weight_decay": 0.1}),
    ("Adadelta", {"learning_rate": 0.5}), ("Adadelta", {"learning_rate": 1.0, "rho": 0.8, "epsilon": 1e-3}),
    ("NAdam", {}), ("NAdam", {"learning_rate": 0.05, "beta1": 0.8, "momentum_decay": 0.01, "weight_decay": 0.1}),
    ("RAdam", {"learning_rate": 0.1}), ("RAdam", {"learning_rate": 0.1, "beta2": 0.6}),
    ("Lamb", {}), ("Lamb", {"learning_rate": 0.05, "lamb_weight_decay": 0.0}),
    ("Lamb", {"learning_rate": 0.05, "lamb_weight_decay": 0.0, "always_adapt": True}),
    ("ASGD", {"learning_rate": 0.1}), ("ASGD", {"learning_rate": 0.1, "batch_num": 3}),
    ("Rprop", {"learning_rate": 0.01}), ("Rprop", {"learning_rate": 0.3, "etas": (0.3, 1.5),
                                                   "learning_rate_range": (0.1, 0.6)}),
]


@pytest.mark.parametrize("name,kw", _CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(_CASES)])
def test_matches_paddle_step_by_step(name, kw, x64):
    grads = GRADS_RPROP if name == "Rprop" else GRADS
    ref = _paddle_run(name, grads, kw)
    opt = getattr(padax.optimizer, name)(**kw)
    params = {k: padax.to_tensor(v) for k, v in X0.items()}
    state = opt.init(params)
    step = padax.jit(opt.step)
    for i, g in enumerate(grads):
        g = {k: padax.to_tensor(v) for k, v in g.items()}
        params, state = step(params, g, state)
        for k in params:
            np.testing.assert_allclose(np.asarray(params[k]), ref[i][k], rtol=1e-5, atol=1e-6,  # Paddle keeps lr and beta powers in float32
                                       err_msg=f"{name} step {i + 1} {k}")


def test_lamb_exclude_from_weight_decay_sees_param_names():
    net = padax.nn.Linear(3, 2)
    names = []

    def exclude(info):
        names.append(info.name)
        return info.name is not None and "b_" in info.name

    opt = padax.optimizer.Lamb(learning_rate=0.1, lamb_weight_decay=0.5, exclude_from_weight_decay_fn=exclude)
    grads = padax.tree_util.tree_map(padax.zeros_like, net)
    new, _ = opt.step(net, grads, opt.init(net))
    assert len(names) == 2 and all(n is not None for n in names)
    # zero gradients: only the decay (through the trust ratio) moves the weight; the excluded bias stays
    assert not np.allclose(np.asarray(new.weight), np.asarray(net.weight))
    np.testing.assert_array_equal(np.asarray(new.bias), np.asarray(net.bias))


def test_bad_arguments():
    with pytest.raises(ValueError, match="beta1"):
        padax.optimizer.Adamax(beta1=1.0)
    with pytest.raises(ValueError, match="batch_num"):
        padax.optimizer.ASGD(batch_num=0)
    with pytest.raises(ValueError, match="etas"):
        padax.optimizer.Rprop(etas=(1.5, 1.2))
    assert padax.optimizer.Lamb(multi_precision=True).multi_precision  # master weights: tests/amp
