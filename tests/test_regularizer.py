"""padax.regularizer: L1Decay/L2Decay as an optimizer's weight_decay and per parameter (ParamAttr)."""
import numpy as np
import pytest

import padax
from padax.regularizer import L1Decay, L2Decay
from tests.conftest import paddle_oracle

_RNG = np.random.default_rng(1)
W0 = _RNG.normal(size=(3, 2))
GRADS = [_RNG.normal(size=(3, 2)) for _ in range(3)]


@pytest.mark.parametrize("reg", [L1Decay(0.3), L2Decay(0.3)])
def test_momentum_with_regularizer_matches_paddle(reg, x64):
    paddle = paddle_oracle()
    w = paddle.create_parameter([3, 2], "float64", default_initializer=paddle.nn.initializer.Assign(W0))
    preg = getattr(paddle.regularizer, type(reg).__name__)(reg.coeff)
    popt = paddle.optimizer.Momentum(learning_rate=0.1, momentum=0.8, parameters=[w], weight_decay=preg)
    opt = padax.optimizer.Momentum(learning_rate=0.1, momentum=0.8, weight_decay=reg)
    params = {"w": padax.to_tensor(W0)}
    state = opt.init(params)
    for g in GRADS:
        (w * paddle.to_tensor(g)).sum().backward()
        popt.step()
        popt.clear_grad()
        params, state = padax.jit(opt.step)(params, {"w": padax.to_tensor(g)}, state)
        np.testing.assert_allclose(np.asarray(params["w"]), w.numpy(), rtol=1e-6, atol=1e-7)


def test_param_attr_regularizer_replaces_the_optimizers():
    net = padax.nn.Linear(3, 2, weight_attr=padax.ParamAttr(regularizer=L1Decay(0.5)))
    grads = padax.tree_util.tree_map(padax.zeros_like, net)
    new, _ = padax.optimizer.SGD(learning_rate=0.1, weight_decay=L2Decay(2.0)).step(net, grads, {"step": 0})
    w, b = np.asarray(net.weight), np.asarray(net.bias)
    np.testing.assert_allclose(np.asarray(new.weight), w - 0.1 * 0.5 * np.sign(w), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(new.bias), b - 0.1 * 2.0 * b, rtol=1e-6)


def test_float_weight_decay_is_l2_and_bad_types_fail():
    opt = padax.optimizer.SGD(learning_rate=1.0, weight_decay=0.5)
    p, _ = opt.step({"w": padax.to_tensor([2.0])}, {"w": padax.to_tensor([0.0])}, opt.init({"w": padax.zeros([1])}))
    np.testing.assert_allclose(np.asarray(p["w"]), [1.0])
    with pytest.raises(TypeError, match="L1Decay/L2Decay"):
        padax.optimizer.SGD(weight_decay="0.1")
    with pytest.raises(TypeError, match="coeff"):
        L1Decay("a")
