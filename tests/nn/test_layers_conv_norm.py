"""Conv*/ConvTranspose*, LayerNorm/GroupNorm/InstanceNorm/LRN/RMSNorm and PReLU against Paddle with the same
weights (forward, input and parameter gradients), plus parameter layouts and default-initializer statistics."""
import numpy as np
import pytest

import padax
from padax import nn
from tests.conftest import paddle_oracle
from tests.nn.oracle import assert_same_run, copy_weights

RNG = np.random.default_rng(0)


def _x(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


CONV_CASES = [
    ("Conv1D", (3, 4, 3), dict(stride=2, padding=1), (2, 3, 9)),
    ("Conv2D", (4, 6, 3), dict(padding="same", groups=2, dilation=2), (2, 4, 7, 6)),
    ("Conv2D", (3, 4, (2, 3)), dict(padding=1, padding_mode="reflect", data_format="NHWC"), (2, 6, 5, 3)),
    ("Conv2D", (3, 4, 3), dict(padding=2, padding_mode="circular", bias_attr=False), (1, 3, 5, 5)),
    ("Conv3D", (2, 4, 2), dict(stride=(1, 2, 1), padding=[1, 0, 1, 0, 0, 1]), (1, 2, 4, 5, 3)),
    ("Conv1DTranspose", (3, 4, 3), dict(stride=2, padding=1, output_padding=1), (2, 3, 5)),
    ("Conv2DTranspose", (4, 6, 3), dict(stride=2, groups=2, dilation=1), (1, 4, 4, 3)),
    ("Conv3DTranspose", (2, 3, 2), dict(stride=2, data_format="NDHWC"), (1, 3, 2, 3, 2)),
]


@pytest.mark.parametrize("case", range(len(CONV_CASES)))
def test_conv_vs_paddle(case):
    paddle = paddle_oracle()
    name, args, kw, shape = CONV_CASES[case]
    p = getattr(paddle.nn, name)(*args, **kw)
    m = getattr(nn, name)(*args, **kw)
    assert m.weight.shape == tuple(p.weight.shape)
    assert (m.bias is None) == (p.bias is None)
    assert sorted(m.state_dict()) == sorted(p.state_dict())
    copy_weights(m, p)
    params = ["weight"] + ([] if m.bias is None else ["bias"])
    assert_same_run(m, p, [_x(*shape)], rtol=1e-4, atol=1e-4, params=params)
    assert repr(m) == repr(p)


def test_conv_layouts_and_default_init_match_paddle():
    paddle = paddle_oracle()
    m, p = nn.Conv2D(16, 32, 3, groups=2), paddle.nn.Conv2D(16, 32, 3, groups=2)
    assert m.weight.shape == (32, 8, 3, 3) == tuple(p.weight.shape)
    w = m.weight.numpy()
    std = (2.0 / (9 * 16)) ** 0.5  # Paddle: Normal(0, sqrt(2 / (in_channels * prod(kernel))))
    assert abs(w.std() - std) < 0.05 * std and abs(w.mean()) < 0.1 * std
    assert abs(w.std() - p.weight.numpy().std()) < 0.06 * std
    np.testing.assert_array_equal(m.bias.numpy(), 0)
    t, pt = nn.Conv2DTranspose(8, 12, 3, groups=4), paddle.nn.Conv2DTranspose(8, 12, 3, groups=4)
    assert t.weight.shape == (8, 3, 3, 3) == tuple(pt.weight.shape)
    limit = (6.0 / (9 * 3 + 9 * 8)) ** 0.5  # XavierUniform over [in, out/groups, k, k]
    assert abs(t.weight.numpy().max()) <= limit and t.weight.numpy().max() > 0.8 * limit
    assert abs(t.weight.numpy().std() - pt.weight.numpy().std()) < 0.1 * limit
    y = nn.Conv2DTranspose(8, 12, 3, stride=2)(padax.ones([1, 8, 4, 4]), output_size=[10, 10])
    assert y.shape == (1, 12, 10, 10)


def test_conv_numpy_and_errors():
    m = nn.Conv1D(2, 1, 2, bias=False)
    x = _x(1, 2, 5)
    w = m.weight.numpy()
    ref = np.stack([(x[0, :, i:i + 2] * w[0]).sum() for i in range(4)])[None, None]
    np.testing.assert_allclose(m(padax.to_tensor(x)).numpy(), ref, rtol=1e-5, atol=1e-6)
    model = nn.Sequential(nn.Conv2D(3, 4, 3), nn.ReLU(), nn.Conv2D(5, 2, 1))
    with pytest.raises(ValueError, match=r"model\.2 \(Conv2D\).*5 features along axis 1.*received shape \[1, 4"):
        model(padax.ones([1, 3, 6, 6]))
    with pytest.raises(ValueError, match="rank 4"):
        nn.Conv2D(3, 4, 3)(padax.ones([3, 6, 6]))
    with pytest.raises(TypeError, match="floating"):
        nn.Conv2D(3, 4, 3)(padax.ones([1, 3, 6, 6], dtype="int32"))
    with pytest.raises(ValueError, match="padding_mode"):
        nn.Conv2D(3, 4, 3, padding_mode="mirror")
    with pytest.raises(ValueError, match="groups"):
        nn.Conv2D(3, 4, 3, groups=2)


def test_conv_jit_vmap_grad():
    m = nn.Conv2D(2, 3, 3, padding=1)
    xs = padax.to_tensor(_x(4, 1, 2, 5, 5))
    batched = padax.vmap(lambda x: m(x))(xs)
    np.testing.assert_allclose(batched.numpy(), m(xs.reshape([4, 2, 5, 5])).numpy().reshape(4, 1, 3, 5, 5),
                               rtol=1e-5, atol=1e-5)
    g = padax.jit(padax.grad(lambda mm, x: (mm(x) ** 2).sum()))(m, xs[0])
    assert isinstance(g, nn.Conv2D) and g.weight.shape == (3, 2, 3, 3)
    padax.test_util.check_grads(lambda w: nn.functional.conv2d(xs[0], w, padding=1), (m.weight,), order=1,
                                modes=["rev"], atol=5e-2, rtol=5e-2)


NORM_CASES = [
    ("LayerNorm", ([3, 4],), {}, (2, 5, 3, 4)),
    ("LayerNorm", (4,), dict(bias_attr=False, epsilon=1e-3), (3, 4)),
    ("GroupNorm", (2, 6), {}, (2, 6, 3, 2)),
    ("GroupNorm", (3, 6), dict(data_format="NHWC"), (2, 3, 2, 6)),
    ("InstanceNorm1D", (3,), {}, (2, 3, 5)),
    ("InstanceNorm2D", (3,), {}, (2, 3, 4, 4)),
    ("InstanceNorm3D", (2,), {}, (2, 2, 3, 2, 3)),
    ("PReLU", (3,), dict(init=0.1), (2, 3, 4)),
    ("PReLU", (), {}, (2, 3)),
]


@pytest.mark.parametrize("case", range(len(NORM_CASES)))
def test_norm_vs_paddle(case):
    paddle = paddle_oracle()
    name, args, kw, shape = NORM_CASES[case]
    p = getattr(paddle.nn, name)(*args, **kw)
    m = getattr(nn, name)(*args, **kw)
    for k, v in p.state_dict().items():  # same keys, shapes and default values (constants)
        np.testing.assert_array_equal(m.state_dict()[k].numpy(), v.numpy(), err_msg=k)
    assert sorted(m.state_dict()) == sorted(p.state_dict())
    sd = {k: RNG.standard_normal(v.shape).astype(np.float32) for k, v in p.state_dict().items()}
    p.set_state_dict(sd)
    copy_weights(m, p)
    assert_same_run(m, p, [_x(*shape)], rtol=1e-4, atol=1e-4)
    assert repr(m) == repr(p)


def test_lrn_rmsnorm():
    paddle = paddle_oracle()
    p, m = paddle.nn.LocalResponseNorm(3, alpha=1e-2), nn.LocalResponseNorm(3, alpha=1e-2)
    assert_same_run(m, p, [_x(2, 5, 3, 3)], params=[], rtol=1e-4, atol=1e-5)
    r = nn.RMSNorm([2, 3])
    assert r.weight.shape == (6,)
    r.weight = padax.to_tensor(_x(6))
    x = _x(4, 2, 3)
    ref = x / np.sqrt((x ** 2).mean(axis=(1, 2), keepdims=True) + 1e-5) * r.weight.numpy().reshape(2, 3)
    np.testing.assert_allclose(r(padax.to_tensor(x)).numpy(), ref, rtol=1e-5, atol=1e-5)
    with pytest.raises(ValueError, match=r"trailing dimensions \[2, 3\]"):
        r(padax.ones([4, 3, 2]))
