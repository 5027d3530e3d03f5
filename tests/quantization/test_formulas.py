"""Quantization formulas against PaddlePaddle where its CPU kernels run them (observers' scales, fake-quant
values, weight_quantize), otherwise against numpy references of Paddle's documented formulas."""
import numpy as np
import pytest

import padax
from padax import nn
from padax.nn import quant as Q
from padax.quantization import PTQ, QAT, QuantConfig, QuantizedConv2D, observers as O, quanters as QT


def _rng(seed=0):
    return np.random.default_rng(seed)


def _ties(shape, seed=0, scale=3.0):
    """Data whose max is exactly `scale` and with values on rounding ties (x / scale * 127 = k + 0.5)."""
    x = _rng(seed).uniform(-scale, scale, shape).astype(np.float32)
    flat = x.reshape(-1)
    flat[0] = scale
    flat[1:5] = (np.array([0.5, 1.5, -2.5, 63.5]) * scale / 127).astype(np.float32)
    return x


def test_moving_average_fake_quanter_matches_paddle():
    paddle = pytest.importorskip("paddle")
    from paddle.quantization.quanters import FakeQuanterWithAbsMaxObserver as PQ
    pq = PQ(moving_rate=0.8)._instance(None)
    pq.train()
    q = QT.FakeQuanterWithAbsMaxObserver(moving_rate=0.8)._instance(None)
    for step in range(4):
        x = _ties((6, 5), seed=step, scale=1.0 + step)
        out_p = pq(paddle.to_tensor(x)).numpy()
        out = q(padax.to_tensor(x)).numpy()
        for mine, theirs in ((q._scale, pq._scale), (q._state, pq._state), (q._accum, pq._accum)):
            np.testing.assert_allclose(mine.numpy(), theirs.numpy(), rtol=1e-6)
        np.testing.assert_allclose(out, out_p, rtol=1e-6, atol=1e-7)
    pq.eval()
    q.eval()
    x = _ties((6, 5), seed=9, scale=7.0)  # beyond the scale: clipped
    np.testing.assert_allclose(q(padax.to_tensor(x)).numpy(), pq(paddle.to_tensor(x)).numpy(), rtol=1e-6,
                               atol=1e-7)
    np.testing.assert_array_equal(q._scale.numpy(), pq._scale.numpy())  # eval does not update


def test_absmax_observer_matches_paddle():
    paddle = pytest.importorskip("paddle")
    from paddle.quantization.observers import AbsmaxObserver as PO
    po = PO(quant_bits=8)._instance(None)
    o = O.AbsmaxObserver(quant_bits=8)._instance(None)
    for s in range(3):
        x = _rng(s).standard_normal((4, 7)).astype(np.float32) * (s + 1)
        po(paddle.to_tensor(x))
        o(padax.to_tensor(x))
    np.testing.assert_allclose(o.scales().numpy(), po.scales().numpy(), rtol=1e-7)
    assert o.bit_length() == po.bit_length() == 8 and o.quant_axis() == po.quant_axis() == -1


def test_groupwise_observer_matches_paddle():
    paddle = pytest.importorskip("paddle")
    from paddle.quantization.observers import GroupWiseWeightObserver as PG
    w = _rng(3).standard_normal((256, 6)).astype(np.float32)
    w[:128, 2] = 0.0  # an all-zero group: scale 1e-8
    po = PG()._instance(None)  # (Paddle's factory drops its group_size argument: compare at the default 128)
    o = O.GroupWiseWeightObserver()._instance(None)
    po(paddle.to_tensor(w))
    o(padax.to_tensor(w))
    np.testing.assert_allclose(o.scales().numpy(), po.scales().numpy(), rtol=1e-7)


@pytest.mark.parametrize("axis,shape", [(0, (4, 3, 3, 3)), (1, (6, 5))])
def test_channel_wise_fake_quant_matches_paddle(axis, shape):
    paddle = pytest.importorskip("paddle")
    from paddle.nn.quant.quant_layers import FakeQuantChannelWiseAbsMax
    w = _ties(shape, seed=4)
    p = FakeQuantChannelWiseAbsMax(channel_num=shape[axis], quant_axis=axis, quant_on_weight=True)
    expect = p(paddle.to_tensor(w)).numpy()
    q = QT.FakeQuanterChannelWiseAbsMaxObserver(quant_axis=axis)._instance(None)
    np.testing.assert_allclose(q(padax.to_tensor(w)).numpy(), expect, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(q.scales().numpy(), p._scale.numpy(), rtol=1e-7)
    obs = O.AbsMaxChannelWiseWeightObserver()._instance(nn.Linear(shape[0], shape[1]) if axis == 1 else
                                                         nn.Conv2D(3, 4, 3))
    obs(padax.to_tensor(w))
    np.testing.assert_allclose(obs.scales().numpy(), p._scale.numpy(), rtol=1e-7)


def test_straight_through_gradient():
    x = padax.to_tensor(_ties((3, 4), seed=5))
    c = padax.to_tensor(_rng(6).standard_normal((3, 4)).astype(np.float32))
    for q in (QT.FakeQuanterWithAbsMaxObserver()._instance(None),
              QT.FakeQuanterChannelWiseAbsMaxObserver(quant_axis=1)._instance(None)):
        g = padax.grad(lambda v, qq: (qq(v) * c).sum(), argnums=(0, 1))(x, q)[0]  # q: an argument (its state)
        np.testing.assert_array_equal(g.numpy(), c.numpy())


def test_weight_quantize_matches_paddle():
    paddle = pytest.importorskip("paddle")
    from paddle.nn.quant import weight_quantize as pwq
    w = _rng(7).standard_normal((64, 32)).astype(np.float16)
    for gs in (-1, 64):
        pq, ps = pwq(paddle.to_tensor(w), algo="llm.int8", arch=80, group_size=gs)
        q, s = Q.weight_quantize(padax.to_tensor(w), algo="llm.int8", group_size=gs)
        np.testing.assert_array_equal(q.numpy(), pq.numpy())
        np.testing.assert_allclose(s.numpy(), ps.numpy().reshape(s.shape), rtol=1e-6)
        for algo in ("weight_only_int8", "weight_only_int4"):
            # Paddle's CPU kernel interleaves the rows for its CUDA layout; the scales are layout-free
            pq, ps = pwq(paddle.to_tensor(w), algo=algo, arch=80, group_size=gs)
            q, s = Q.weight_quantize(padax.to_tensor(w), algo=algo, group_size=gs)
            assert q.shape == tuple(pq.shape) and q.dtype == np.int8 and s.dtype == np.float16
            np.testing.assert_allclose(s.numpy().astype(np.float32), ps.numpy().reshape(s.shape).astype(np.float32),
                                       rtol=1e-3)


def _np_quant(w, bound, gs):
    k, n = w.shape
    a = np.abs(w) if gs == -1 else np.abs(w).reshape(k // gs, gs, n)
    scale = (a.max(0) if gs == -1 else a.max(1)) / bound
    full = scale[None] if gs == -1 else np.repeat(scale, gs, axis=0)
    v = w / full
    q = np.clip(np.sign(v) * np.floor(np.abs(v) + 0.5), -bound, bound)
    return q, scale, q * full


@pytest.mark.parametrize("algo,bound", [("weight_only_int8", 127), ("weight_only_int4", 7)])
@pytest.mark.parametrize("gs", [-1, 64])
def test_weight_only_round_trip_and_linear(algo, bound, gs):
    w = _rng(8).standard_normal((128, 16)).astype(np.float32)
    q, s = Q.weight_quantize(padax.to_tensor(w), algo=algo, group_size=gs)
    ref_q, ref_s, ref_w = _np_quant(w, bound, gs)
    np.testing.assert_allclose(s.numpy(), ref_s, rtol=1e-6)
    deq = Q.weight_dequantize(q, s, algo=algo, group_size=gs).numpy()
    np.testing.assert_allclose(deq, ref_w, rtol=1e-6, atol=1e-7)
    if bound == 127:
        np.testing.assert_array_equal(q.numpy(), ref_q.T)
    else:  # two output channels per byte
        assert q.shape == (8, 128)
    x = _rng(9).standard_normal((3, 128)).astype(np.float32)
    b = _rng(10).standard_normal(16).astype(np.float32)
    y = Q.weight_only_linear(padax.to_tensor(x), q, padax.to_tensor(b), s,
                             weight_dtype="int4" if bound == 7 else "int8", group_size=gs)
    np.testing.assert_allclose(y.numpy(), x @ ref_w + b, rtol=1e-5, atol=1e-5)


def test_llm_int8_linear_formula():
    w = _rng(11).standard_normal((32, 8)).astype(np.float32)
    x = _rng(12).standard_normal((5, 32)).astype(np.float32)
    x[:, 3] *= 10.0  # outlier features
    x[2, 17] = -7.0
    q, s = Q.weight_quantize(padax.to_tensor(w), algo="llm.int8")
    y = Q.llm_int8_linear(padax.to_tensor(x), q, None, s, threshold=6.0).numpy()
    wq = q.numpy().astype(np.float64)  # [n, k]
    ws = s.numpy().astype(np.float64)
    outl = (np.abs(x) >= 6.0).any(0)
    xi = np.where(outl, 0.0, x).astype(np.float64)
    sx = np.abs(xi).max(1, keepdims=True)
    v = xi / sx * 127
    xq = np.clip(np.sign(v) * np.floor(np.abs(v) + 0.5), -127, 127)
    ref = (xq @ wq.T) * (sx / 127) * ws + np.where(outl, x, 0.0) @ (wq * ws[:, None]).T
    np.testing.assert_allclose(y, ref, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(y, x @ w, rtol=0.05, atol=0.3)  # and close to the float matmul
    with pytest.raises(ValueError, match="weight_scale is required"):
        Q.llm_int8_linear(padax.to_tensor(x), q)


def test_weight_quantize_errors():
    with pytest.raises(ValueError, match="algo must be one of"):
        Q.weight_quantize(padax.ones([4, 4]), algo="int2")
    with pytest.raises(ValueError, match="group_size must be -1, 64 or 128"):
        Q.weight_quantize(padax.ones([4, 4]), group_size=32)
    with pytest.raises(ValueError, match="n = 3 must be even"):
        Q.weight_quantize(padax.ones([4, 3]), algo="weight_only_int4")


class _ConvNet(nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2D(2, 4, 3, padding=1, stride=2)
        self.fc = nn.Linear(4 * 3 * 3, 3)

    def forward(self, x):
        return self.fc(padax.flatten(nn.functional.relu(self.conv(x)), 1))


def _int8_convnet(seed, shape):
    padax.seed(seed)
    model = _ConvNet().eval()
    x = padax.to_tensor(_rng(seed).standard_normal(shape).astype(np.float32))
    ptq = PTQ(QuantConfig(activation=O.AbsmaxObserver(), weight=O.AbsMaxChannelWiseWeightObserver()))
    q = ptq.quantize(model)
    q(x)
    return model, x, ptq.convert(q)


def test_int8_conv_equals_the_dequantized_float_conv():
    model, x, int8 = _int8_convnet(2, (4, 2, 6, 6))
    conv = int8.conv
    assert isinstance(conv, QuantizedConv2D) and conv.weight.dtype == np.int8 and conv.weight_scale.shape == (4,)
    sa = float(conv.activation_scale)
    assert sa == pytest.approx(float(padax.abs(x).max()))
    xq = np.clip(np.round(x.numpy() / sa * 127), -127, 127)  # no exact ties in random data
    x_deq = padax.to_tensor((xq * sa / 127).astype(np.float32))
    w_deq = padax.to_tensor((conv.weight.numpy() * conv.weight_scale.numpy()[:, None, None, None] / 127)
                            .astype(np.float32))
    ref = nn.functional.conv2d(x_deq, w_deq, model.conv.bias, stride=2, padding=1)
    np.testing.assert_allclose(conv(x).numpy(), ref.numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(int8(x).numpy(), model(x).numpy(), atol=0.05)


def test_qat_model_matches_paddle_qat():
    paddle = pytest.importorskip("paddle")
    from paddle.quantization import QAT as PQAT, QuantConfig as PConfig
    from paddle.quantization.quanters import FakeQuanterWithAbsMaxObserver as PQ
    paddle.seed(0)
    pm = paddle.nn.Sequential(paddle.nn.Linear(6, 8), paddle.nn.ReLU(), paddle.nn.Linear(8, 3))
    m = nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 3))
    m.set_state_dict({k: v.numpy() for k, v in pm.state_dict().items()})
    pq = PQAT(PConfig(activation=PQ(moving_rate=0.9), weight=PQ(moving_rate=0.9))).quantize(pm)

    q = QAT(QuantConfig(activation=QT.FakeQuanterWithAbsMaxObserver(moving_rate=0.9),
                        weight=QT.FakeQuanterWithAbsMaxObserver(moving_rate=0.9))).quantize(m)
    assert list(q.state_dict()) == list(pq.state_dict())  # Paddle's names: weights move between the two
    for step in range(3):
        x = _rng(20 + step).standard_normal((5, 6)).astype(np.float32) * (1 + step)
        np.testing.assert_allclose(q(padax.to_tensor(x)).numpy(), pq(paddle.to_tensor(x)).numpy(), rtol=1e-5,
                                   atol=1e-5)
    for k, v in pq.state_dict().items():
        np.testing.assert_allclose(q.state_dict()[k].numpy(), v.numpy(), rtol=1e-6, err_msg=k)


def test_int8_conv_paths_agree(monkeypatch):
    from padax.quantization import layers
    _, x, int8 = _int8_convnet(3, (2, 2, 6, 6))
    conv = int8.conv
    fast = conv(x).numpy()
    monkeypatch.setattr(layers, "INT8_CONV_CPU_FLOAT32", False)
    jaxpr = str(padax.make_jaxpr(lambda v: conv(v))(x))
    assert "preferred_element_type=int32" in jaxpr
    np.testing.assert_array_equal(conv(x).numpy(), fast)  # the int32 accumulator: the same integers
