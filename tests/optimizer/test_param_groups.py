"""Paddle's parameter groups: per-group rate multipliers, weight decay and hyperparameters, against Paddle."""
import numpy as np
import pytest

import padax
from padax.regularizer import L1Decay
from tests.conftest import paddle_oracle

_RNG = np.random.default_rng(3)
W = {"a.w": _RNG.normal(size=(3, 4)), "a.b": _RNG.normal(size=(4,)), "b.w": _RNG.normal(size=(4, 2)),
     "b.b": _RNG.normal(size=(2,))}
GRADS = [{k: _RNG.normal(size=v.shape) for k, v in W.items()} for _ in range(3)]


def _nets():
    net = padax.nn.Sequential(padax.nn.Linear(3, 4), padax.nn.Linear(4, 2))
    for layer, key in zip(net, "ab"):
        layer.weight = padax.to_tensor(W[f"{key}.w"])
        layer.bias = padax.to_tensor(W[f"{key}.b"])
    return net


@pytest.mark.parametrize("name,groups", [
    ("Adam", [{"learning_rate": 0.5, "beta1": 0.5}, {"weight_decay": 0.3}]),
    ("Momentum", [{"weight_decay": L1Decay(0.2), "momentum": 0.5}, {"learning_rate": 2.0}]),
    ("AdamW", [{"weight_decay": 0.5}, {}]),
])
def test_groups_match_paddle(name, groups, x64):
    paddle = paddle_oracle()
    pnet = paddle.nn.Sequential(paddle.nn.Linear(3, 4), paddle.nn.Linear(4, 2))
    pnet.to(dtype="float64")
    for layer, key in zip(pnet, "ab"):
        layer.weight.set_value(W[f"{key}.w"])
        layer.bias.set_value(W[f"{key}.b"])
    pgroups = [dict(g, params=layer.parameters()) for g, layer in zip(groups, pnet)]
    if name == "Momentum":
        pgroups[0]["weight_decay"] = paddle.regularizer.L1Decay(0.2)
    popt = getattr(paddle.optimizer, name)(learning_rate=0.1, parameters=pgroups)
    net = _nets()
    opt = getattr(padax.optimizer, name)(learning_rate=0.1,
                                         parameters=[dict(g, params=layer.parameters()) for g, layer in zip(groups, net)])
    state = opt.init(net)
    step = padax.jit(opt.step)
    for g in GRADS:
        loss = sum((getattr(pnet[i], attr) * paddle.to_tensor(g[f"{k}.{attr[0]}"])).sum()
                   for i, k in enumerate("ab") for attr in ("weight", "bias"))
        loss.backward()
        popt.step()
        popt.clear_grad()
        grads = padax.tree_util.tree_map(padax.zeros_like, net)
        for i, k in enumerate("ab"):
            grads[i].weight = padax.to_tensor(g[f"{k}.w"])
            grads[i].bias = padax.to_tensor(g[f"{k}.b"])
        net, state = step(net, grads, state)
        for i, k in enumerate("ab"):
            np.testing.assert_allclose(np.asarray(net[i].weight), pnet[i].weight.numpy(), rtol=1e-5, atol=1e-7)
            np.testing.assert_allclose(np.asarray(net[i].bias), pnet[i].bias.numpy(), rtol=1e-5, atol=1e-7)


def test_only_grouped_parameters_move_and_errors():
    net = padax.nn.Sequential(padax.nn.Linear(2, 2), padax.nn.Linear(2, 2))
    opt = padax.optimizer.SGD(learning_rate=1.0, parameters=[{"params": net[1].parameters()}])
    grads = padax.tree_util.tree_map(padax.ones_like, net)
    new, _ = opt.step(net, grads, opt.init(net))
    np.testing.assert_array_equal(np.asarray(new[0].weight), np.asarray(net[0].weight))
    np.testing.assert_allclose(np.asarray(new[1].weight), np.asarray(net[1].weight) - 1, rtol=1e-6)
    with pytest.raises(ValueError, match="more than one parameter group"):
        padax.optimizer.SGD(parameters=[{"params": net[0].parameters()}, {"params": net[0].parameters()}])
    with pytest.raises(ValueError, match="sets 'beta9'"):
        bad = padax.optimizer.Adam(parameters=[{"params": net[0].parameters(), "beta9": 0.1}])
        bad.init(net)
    other = padax.nn.Linear(2, 2)
    with pytest.raises(ValueError, match="not leaves of the params"):
        padax.optimizer.SGD(parameters=[{"params": other.parameters()}]).init(net)


def test_groups_clip_on_their_own_and_replace_param_attr_regularizers():
    """As Paddle: a global norm is taken per group (a group may bring its own grad_clip), and a grouped
    parameter's decay is the group's (or the optimizer's), not its ParamAttr regularizer."""
    paddle = paddle_oracle()

    def pair(m, reg=None):
        init = m.nn.initializer.Constant
        return m.nn.Linear(2, 2, weight_attr=m.ParamAttr(regularizer=reg, initializer=init(1.0)),
                           bias_attr=m.ParamAttr(initializer=init(0.0)))

    nets = {m: [pair(m), pair(m, m.regularizer.L2Decay(0.5))] for m in (paddle, padax)}
    got = {}
    for m in (paddle, padax):
        a, b = nets[m]
        groups = [{"params": a.parameters(), "grad_clip": m.nn.ClipGradByValue(0.1)},
                  {"params": b.parameters(), "weight_decay": 0.2}]
        opt = m.optimizer.SGD(1.0, parameters=groups, grad_clip=m.nn.ClipGradByGlobalNorm(1.0))
        loss = lambda n: n[0](m.ones([1, 2])).sum() + 3 * n[1](m.ones([1, 2])).sum()  # noqa: E731
        if m is paddle:
            loss(nets[m]).backward()
            opt.step()
            got[m] = [n.weight.numpy() for n in nets[m]]
        else:
            new, _ = opt.step(nets[m], padax.grad(loss)(nets[m]), opt.init(nets[m]))
            got[m] = [np.asarray(n.weight) for n in new]
    for ours, theirs in zip(got[padax], got[paddle]):
        np.testing.assert_allclose(ours, theirs, rtol=1e-6)
    # group b: its own global norm (sqrt(6) * 3 -> 1) and decay 0.2 (not the ParamAttr's 0.5)
    np.testing.assert_allclose(got[padax][1], 1 - 3 / np.sqrt(54) - 0.2, rtol=1e-6)
