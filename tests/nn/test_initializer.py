"""Initializers: statistics, Paddle's formulas and exact structured values, defaults per layer, ParamAttr."""
import math

import numpy as np
import pytest

import padax
from padax import nn
from padax.nn import initializer as I
from tests.conftest import paddle_oracle

KEY = padax.random.key(0)


def _stats(init, shape):
    v = init(shape, key=KEY).numpy().astype(np.float64)
    return v, v.mean(), v.std()


def test_random_initializer_statistics():
    shape = (400, 500)
    fan_in, fan_out = 400, 500
    v, m, s = _stats(I.Normal(1.0, 2.0), shape)
    assert abs(m - 1) < 0.02 and abs(s - 2) < 0.02
    v, m, s = _stats(I.Uniform(-2, 3), shape)
    assert v.min() >= -2 and v.max() < 3 and abs(m - 0.5) < 0.02
    v, m, s = _stats(I.TruncatedNormal(0.5, 1.0, a=-1.0, b=1.5), shape)
    assert v.min() >= -1.0 and v.max() <= 1.5
    limit = math.sqrt(6 / (fan_in + fan_out))
    v, m, s = _stats(I.XavierUniform(), shape)
    assert v.max() <= limit and v.min() >= -limit and abs(s - limit / math.sqrt(3)) < 0.01 * limit
    v, m, s = _stats(I.XavierNormal(gain=2.0), shape)
    assert abs(s - 2 * math.sqrt(2 / (fan_in + fan_out))) < 0.01
    v, m, s = _stats(I.KaimingNormal(), shape)
    assert abs(s - math.sqrt(2) / math.sqrt(fan_in)) < 0.002
    v, m, s = _stats(I.KaimingNormal(mode="fan_out", nonlinearity="leaky_relu", negative_slope=0.2), shape)
    assert abs(s - math.sqrt(2 / 1.04) / math.sqrt(fan_out)) < 0.002
    v, m, s = _stats(I.KaimingUniform(), (64, 32, 3, 3))
    limit = math.sqrt(2) * math.sqrt(3 / (32 * 9))
    assert v.max() <= limit and v.min() >= -limit and abs(s - limit / math.sqrt(3)) < 0.02 * limit


def test_same_key_same_values_and_global_seed():
    np.testing.assert_array_equal(I.Normal()((3, 4), key=KEY).numpy(), I.Normal()((3, 4), key=KEY).numpy())
    padax.seed(5)
    a = nn.Linear(4, 3).weight.numpy()
    padax.seed(5)
    np.testing.assert_array_equal(nn.Linear(4, 3).weight.numpy(), a)
    with nn.rng_scope(KEY):
        b = nn.Linear(4, 3).weight.numpy()
    with nn.rng_scope(KEY):
        np.testing.assert_array_equal(nn.Linear(4, 3).weight.numpy(), b)


def test_calculate_gain_matches_paddle():
    paddle = paddle_oracle()
    for name in ["sigmoid", "linear", "conv2d", "tanh", "relu", "selu"]:
        assert I.calculate_gain(name) == pytest.approx(paddle.nn.initializer.calculate_gain(name))
    assert I.calculate_gain("leaky_relu", 0.3) == pytest.approx(paddle.nn.initializer.calculate_gain("leaky_relu", 0.3))
    with pytest.raises(ValueError, match="nonlinearity"):
        I.calculate_gain("bogus")


@pytest.mark.parametrize("shape,groups", [((4, 3, 3), 1), ((6, 2, 4, 4), 2), ((2, 2, 3, 3, 3), 1)])
def test_dirac_matches_paddle(shape, groups):
    paddle = paddle_oracle()
    p = paddle.create_parameter(list(shape), "float32",
                                default_initializer=paddle.nn.initializer.Dirac(groups))
    np.testing.assert_array_equal(I.Dirac(groups)(shape).numpy(), p.numpy())


def test_bilinear_constant_assign_match_paddle():
    paddle = paddle_oracle()
    p = paddle.create_parameter([2, 2, 4, 4], "float32", default_initializer=paddle.nn.initializer.Bilinear())
    np.testing.assert_allclose(I.Bilinear()((2, 2, 4, 4)).numpy(), p.numpy(), rtol=1e-6)
    np.testing.assert_array_equal(I.Constant(2.5)((2, 3)).numpy(), np.full((2, 3), 2.5, np.float32))
    val = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_array_equal(I.Assign(val)((2, 3)).numpy(), val)
    with pytest.raises(ValueError, match="Assign"):
        I.Assign(val)((4, 4))


def test_orthogonal():
    for shape in [(6, 4), (4, 6), (3, 2, 2)]:
        w = I.Orthogonal(gain=2.0)(shape, key=KEY).numpy().reshape(shape[0], -1)
        small = w @ w.T if shape[0] <= w.shape[1] else w.T @ w
        np.testing.assert_allclose(small, 4 * np.eye(small.shape[0]), atol=1e-5)
    with pytest.raises(ValueError, match="2 or more"):
        I.Orthogonal()((3,))


def test_paddle_default_initializers_per_layer():
    """Linear/Bilinear/Embedding weights: XavierUniform; biases: zeros; BatchNorm: ones, zeros, 0, 1."""
    paddle = paddle_oracle()
    padax.seed(0)
    ours = nn.Linear(300, 200).weight.numpy()
    theirs = paddle.nn.Linear(300, 200).weight.numpy()
    limit = math.sqrt(6 / 500)
    for w in (ours, theirs):
        assert np.abs(w).max() <= limit and abs(w.std() - limit / math.sqrt(3)) < 0.01 * limit
    emb = nn.Embedding(1000, 50).weight.numpy()
    assert abs(emb.std() - paddle.nn.Embedding(1000, 50).weight.numpy().std()) < 0.003
    bil = nn.Bilinear(20, 30, 40).weight.numpy()
    assert abs(bil.std() - paddle.nn.Bilinear(20, 30, 40).weight.numpy().std()) < 0.003
    bn = nn.BatchNorm2D(3)
    for name, value in (("weight", 1), ("bias", 0), ("_mean", 0), ("_variance", 1)):
        np.testing.assert_array_equal(getattr(bn, name).numpy(), value)


def test_param_attr_and_global_initializer():
    lin = nn.Linear(3, 2, weight_attr=padax.ParamAttr(initializer=I.Constant(0.5), learning_rate=0.1,
                                                       trainable=False, name="w0"),
                    bias_attr=I.Constant(1.0))
    np.testing.assert_array_equal(lin.weight.numpy(), 0.5)
    np.testing.assert_array_equal(lin.bias.numpy(), 1.0)
    info = lin.param_info("weight")
    assert (info.name, info.learning_rate, info.trainable) == ("w0", 0.1, False)
    assert lin.param_info("bias").name.startswith("linear_")
    I.set_global_initializer(I.Constant(3.0), I.Constant(4.0))
    try:
        g = nn.Linear(2, 2)
        np.testing.assert_array_equal(g.weight.numpy(), 3.0)
        np.testing.assert_array_equal(g.bias.numpy(), 4.0)
        np.testing.assert_array_equal(nn.Linear(2, 2, weight_attr=I.Constant(1.0)).weight.numpy(), 1.0)
    finally:
        I.set_global_initializer(None, None)
    assert float(abs(nn.Linear(2, 2).bias).sum()) == 0
    with pytest.raises(TypeError, match="learning_rate"):
        padax.ParamAttr(learning_rate="x")
    assert I.Normal(0, 1) == I.Normal(0.0, 1.0) and I.Normal(0, 1) != I.Normal(0, 2)


def test_initializer_on_a_tensor_and_low_precision():
    w = padax.zeros([3, 4], dtype="float16")
    out = I.XavierNormal()(w, key=KEY)
    assert out.shape == (3, 4) and out.dtype == padax.float16
