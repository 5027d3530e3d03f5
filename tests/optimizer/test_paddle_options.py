"""Optimizer options checked against Paddle: amsgrad, AdamW's per-parameter hooks, RAdam in float32,
float32 moments for float16 parameters, parameter groups over ParamAttr rates, float64 clipping."""
import numpy as np
import pytest

import padax
from tests.conftest import paddle_oracle

_RNG = np.random.default_rng(7)
X0 = {"a": _RNG.normal(size=()), "b": _RNG.normal(size=(3,)), "c": _RNG.normal(size=(2, 3))}
GRADS = [{k: _RNG.normal(size=v.shape) for k, v in X0.items()} for _ in range(6)]


def _paddle_run(name, kw, dtype):
    paddle = paddle_oracle()
    params = {k: paddle.create_parameter(list(v.shape), dtype, default_initializer=paddle.nn.initializer.Assign(
        v.astype(dtype))) for k, v in X0.items()}
    opt = getattr(paddle.optimizer, name)(parameters=list(params.values()), **kw)
    out = []
    for g in GRADS:
        sum((params[k] * paddle.to_tensor(g[k].astype(dtype))).sum() for k in params).backward()
        opt.step()
        opt.clear_grad()
        out.append({k: p.numpy().copy() for k, p in params.items()})
    return out


_CASES = [  # (name, kwargs, dtype, rtol): each failed before its fix; float32 runs follow Paddle's float64 run
    ("Adam", {"learning_rate": 0.1, "amsgrad": True}, "float64", 1e-10),
    ("AdamW", {"learning_rate": 0.1, "amsgrad": True, "weight_decay": 0.3}, "float64", 1e-7),  # lr in float32
    ("RAdam", {"learning_rate": 0.1}, "float32", 1e-6),  # rho_t crosses 5 at step 6
    ("Adam", {"learning_rate": 0.1}, "float32", 1e-6),  # float32 bias corrections were 1e-5 off
    ("NAdam", {"learning_rate": 0.1}, "float32", 1e-6),
    ("SGD", {"learning_rate": 0.1, "grad_clip": "global"}, "float64", 1e-13),
]


@pytest.mark.parametrize("name,kw,dtype,rtol", _CASES, ids=[f"{c[0]}-{c[2]}-{i}" for i, c in enumerate(_CASES)])
def test_matches_paddle_step_by_step(name, kw, dtype, rtol):
    paddle = paddle_oracle()
    ours_kw = dict(kw)
    if kw.get("grad_clip") == "global":
        kw = dict(kw, grad_clip=paddle.nn.ClipGradByGlobalNorm(0.5))
        ours_kw["grad_clip"] = padax.nn.ClipGradByGlobalNorm(0.5)
    ref = _paddle_run(name, kw, "float64")
    opt = getattr(padax.optimizer, name)(**ours_kw)
    params = {k: padax.to_tensor(v.astype(dtype)) for k, v in X0.items()}
    state = opt.init(params)
    step = padax.jit(opt.step)
    for i, g in enumerate(GRADS):
        params, state = step(params, {k: padax.to_tensor(v.astype(dtype)) for k, v in g.items()}, state)
        for k in params:
            np.testing.assert_allclose(np.asarray(params[k]), ref[i][k], rtol=rtol, atol=rtol / 10,
                                       err_msg=f"{name} step {i + 1} {k}")
    if kw.get("amsgrad"):
        assert np.all(np.asarray(state["moment2_max"]["c"]) >= np.asarray(state["moment2"]["c"]))


def test_adamw_apply_decay_param_fun_and_lr_ratio():
    paddle = paddle_oracle()
    ref = paddle.nn.Linear(3, 2)
    net = padax.nn.Linear(3, 2)
    net.weight, net.bias = padax.to_tensor(ref.weight.numpy()), padax.to_tensor(ref.bias.numpy())
    decay_weights_only = lambda name: name is not None and name.endswith(".w_0")  # noqa: E731
    popt = paddle.optimizer.AdamW(0.1, parameters=ref.parameters(), weight_decay=0.5,
                                  apply_decay_param_fun=decay_weights_only)
    opt = padax.optimizer.AdamW(0.1, weight_decay=0.5, apply_decay_param_fun=decay_weights_only)
    state = opt.init(net)
    step = padax.jit(opt.step)
    for gw, gb in ((g["c"].T, g["b"][:2]) for g in GRADS[:3]):
        ((ref.weight * paddle.to_tensor(gw.astype("float32"))).sum()
         + (ref.bias * paddle.to_tensor(gb.astype("float32"))).sum()).backward()
        popt.step()
        popt.clear_grad()
        grads = padax.tree_util.tree_map(padax.zeros_like, net)
        grads.weight, grads.bias = padax.to_tensor(gw.astype("float32")), padax.to_tensor(gb.astype("float32"))
        net, state = step(net, grads, state)
    np.testing.assert_allclose(np.asarray(net.weight), ref.weight.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.asarray(net.bias), ref.bias.numpy(), rtol=1e-5, atol=1e-6)
    # lr_ratio (Paddle runs it on GPU only): a ratio of 0.5 is the same as half the rate
    w, g = padax.to_tensor([1.0, -2.0]), padax.to_tensor([0.3, 0.1])
    half = padax.optimizer.AdamW(0.1, lr_ratio=lambda info: 0.5)
    plain = padax.optimizer.AdamW(0.05)
    np.testing.assert_allclose(np.asarray(half.step(w, g, half.init(w))[0]),
                               np.asarray(plain.step(w, g, plain.init(w))[0]), rtol=1e-7)


@pytest.mark.parametrize("name,kw", [("Adam", {}), ("AdamW", {}), ("SGD", {"multi_precision": True})])
def test_float16_parameters_update_in_float32(name, kw):
    """Paddle keeps Adam's moments in float32 for float16 parameters and updates in float32; small gradients
    (whose squares underflow float16) blew the step up before."""
    x0 = np.array([0.5, -1.0, 2.0], np.float32)
    grads = [np.array([1e-3, -2e-3, 5e-4], np.float32) * (i + 1) for i in range(4)]
    opt = getattr(padax.optimizer, name)(learning_rate=0.01, **kw)
    ref_opt = getattr(padax.optimizer, name)(learning_rate=0.01)
    p = padax.to_tensor(x0).astype("float16")
    q = p.astype("float32")
    state, ref_state = opt.init(p), ref_opt.init(q)
    for g in grads:
        g16 = padax.to_tensor(g).astype("float16")
        p, state = opt.step(p, g16, state)
        q, ref_state = ref_opt.step(q, g16.astype("float32"), ref_state)
        if not kw.get("multi_precision"):
            q = q.astype("float16").astype("float32")  # no master copy: the float16 parameter is the state
    assert p.dtype == padax.float16
    assert all(v.dtype == padax.float32 for k, v in state.items() if k != "step")
    np.testing.assert_allclose(np.asarray(p.astype("float32")), np.asarray(q.astype("float16").astype("float32")))


def test_group_rate_replaces_param_attr_rate():
    """Paddle sets a grouped parameter's rate multiplier to the group's learning_rate (default 1.0)."""
    paddle = paddle_oracle()
    got = []
    for group in ({}, {"learning_rate": 0.5}):
        lin = paddle.nn.Linear(2, 2, weight_attr=paddle.ParamAttr(learning_rate=2.0))
        popt = paddle.optimizer.SGD(0.1, parameters=[dict(group, params=lin.parameters())])
        net = padax.nn.Linear(2, 2, weight_attr=padax.ParamAttr(learning_rate=2.0))
        net.weight, net.bias = padax.to_tensor(lin.weight.numpy()), padax.to_tensor(lin.bias.numpy())
        opt = padax.optimizer.SGD(0.1, parameters=[dict(group, params=net.parameters())])
        lin(paddle.ones([1, 2])).sum().backward()
        popt.step()
        new, _ = opt.step(net, padax.grad(lambda m: m(padax.ones([1, 2])).sum())(net), opt.init(net))
        np.testing.assert_allclose(np.asarray(new.weight), lin.weight.numpy(), rtol=1e-6)
        got.append(float(np.asarray(net.weight)[0, 0] - np.asarray(new.weight)[0, 0]))
    np.testing.assert_allclose(got, [0.1, 0.05], rtol=1e-5)


@pytest.mark.parametrize("name,kw", [
    ("Adam", {"epsilon": -1.0}), ("Adamax", {"epsilon": -1.0}), ("NAdam", {"epsilon": -1.0}),
    ("NAdam", {"learning_rate": -1.0}), ("RAdam", {"epsilon": -1.0}), ("RMSProp", {"epsilon": -1.0}),
    ("RMSProp", {"momentum": -1.0}), ("Rprop", {"learning_rate": 0.5, "learning_rate_range": (0.01, 0.2)}),
])
def test_refuses_what_paddle_refuses(name, kw):
    paddle = paddle_oracle()
    kw = dict({"learning_rate": 0.1}, **kw)
    with pytest.raises(ValueError):
        getattr(paddle.optimizer, name)(parameters=[paddle.create_parameter([2], "float32")], **kw)
    with pytest.raises(ValueError, match=name):
        getattr(padax.optimizer, name)(**kw)
