"""BatchNorm layers against Paddle: outputs, gradients, running statistics across jitted steps, eval mode."""
import numpy as np
import pytest

import padax
from padax import nn
from tests.conftest import paddle_oracle
from tests.nn.oracle import assert_same_run, copy_weights

RNG = np.random.default_rng(0)


def _pair(kind, *args, **kw):
    paddle = paddle_oracle()
    p = getattr(paddle.nn, kind)(*args, **kw)
    # non-trivial affine parameters, moved through state_dict
    sd = {k: v.numpy() for k, v in p.state_dict().items()}
    sd["weight"] = RNG.uniform(0.5, 1.5, sd["weight"].shape).astype(np.float32)
    sd["bias"] = RNG.standard_normal(sd["bias"].shape).astype(np.float32)
    p.set_state_dict(sd)
    return copy_weights(getattr(nn, kind)(*args, **kw), p), p


@pytest.mark.parametrize("kind,shape,kw", [
    ("BatchNorm1D", (8, 3), {}), ("BatchNorm1D", (4, 3, 5), {}), ("BatchNorm1D", (4, 5, 3), {"data_format": "NLC"}),
    ("BatchNorm2D", (4, 3, 5, 6), {}), ("BatchNorm2D", (4, 5, 6, 3), {"data_format": "NHWC"}),
    ("BatchNorm3D", (2, 3, 2, 3, 4), {}), ("BatchNorm", (4, 3, 5, 5), {}),
])
def test_forward_and_gradients_vs_paddle(kind, shape, kw):
    m, p = _pair(kind, 3, **kw)
    x = RNG.standard_normal(shape).astype(np.float32) * 2 + 1
    after = assert_same_run(m, p, [x], rtol=2e-5, atol=2e-5, params=["weight", "bias"])
    # the step also produced Paddle's running statistics (momentum 0.9, biased batch variance)
    np.testing.assert_allclose(after._mean.numpy(), p._mean.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(after._variance.numpy(), p._variance.numpy(), rtol=1e-5, atol=1e-6)
    after.eval(), p.eval()
    assert_same_run(after, p, [x], rtol=2e-5, atol=2e-5, params=["weight", "bias"])


def test_running_stats_across_jitted_steps_vs_paddle():
    paddle = paddle_oracle()
    m, p = _pair("BatchNorm2D", 3, momentum=0.8)

    @padax.jit
    def step(model, x):
        return model(x), model

    for i in range(4):
        x = RNG.standard_normal((5, 3, 4, 4)).astype(np.float32) * (i + 1) + i
        y, m = step(m, padax.to_tensor(x))
        yp = p(paddle.to_tensor(x))
        np.testing.assert_allclose(y.numpy(), yp.numpy(), rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(m._mean.numpy(), p._mean.numpy(), rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(m._variance.numpy(), p._variance.numpy(), rtol=1e-5, atol=1e-6)
    # numpy reference of the last update: biased variance
    assert step._cache_size() == 1
    m.eval(), p.eval()
    x = RNG.standard_normal((2, 3, 4, 4)).astype(np.float32)
    np.testing.assert_allclose(step(m, padax.to_tensor(x))[0].numpy(), p(paddle.to_tensor(x)).numpy(),
                               rtol=1e-5, atol=1e-5)
    assert step._cache_size() == 2  # eval mode is another static configuration


def test_numpy_reference_and_stats_formula():
    m = nn.BatchNorm1D(4, momentum=0.7, epsilon=1e-3)
    x = RNG.standard_normal((16, 4)).astype(np.float32)
    y = m(padax.to_tensor(x)).numpy()
    mu, var = x.mean(0), x.var(0)
    np.testing.assert_allclose(y, (x - mu) / np.sqrt(var + 1e-3), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(m._mean.numpy(), 0.3 * mu, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(m._variance.numpy(), 0.7 + 0.3 * var, rtol=1e-5)


def test_use_global_stats_and_functional():
    m = nn.BatchNorm2D(2, use_global_stats=True)
    x = padax.to_tensor(RNG.standard_normal((3, 2, 2, 2)).astype(np.float32))
    np.testing.assert_allclose(m(x).numpy(), x.numpy() / np.sqrt(1 + 1e-5), rtol=1e-5)
    np.testing.assert_array_equal(m._mean.numpy(), 0)  # statistics not updated
    F = nn.functional
    out = F.batch_norm(x, padax.zeros([2]), padax.ones([2]), training=False)
    np.testing.assert_allclose(out.numpy(), x.numpy() / np.sqrt(1 + 1e-5), rtol=1e-5)


def test_parameters_state_dict_and_frozen_stats():
    paddle = paddle_oracle()
    m, p = nn.BatchNorm2D(3), paddle.nn.BatchNorm2D(3)
    assert list(m.state_dict()) == list(p.state_dict()) == ["weight", "bias", "_mean", "_variance"]
    assert [n for n, _ in m.named_parameters()] == [n for n, _ in p.named_parameters()]
    assert not m.param_info("_mean").trainable and m.param_info("weight").trainable
    g = padax.grad(lambda mm: mm(padax.ones([2, 3, 2, 2])).sum())(m)
    np.testing.assert_array_equal(g._mean.numpy(), 0)
    assert repr(m) == repr(p)


def test_sync_batchnorm_cross_device_mean_under_vmap():
    x = RNG.standard_normal((4, 6, 3)).astype(np.float32)  # 4 "devices", local batch 6, 3 channels
    sync = nn.SyncBatchNorm(3, axis_name="d")
    plain = nn.BatchNorm1D(3)

    def local(m, xi):
        return m(xi), m

    ys, ms = padax.vmap(local, in_axes=(None, 0), out_axes=(0, None), axis_name="d")(sync, padax.to_tensor(x))
    ref_y, ref_m = local(plain, padax.to_tensor(x.reshape(24, 3)))
    np.testing.assert_allclose(ys.numpy().reshape(24, 3), ref_y.numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(ms._mean.numpy(), ref_m._mean.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ms._variance.numpy(), ref_m._variance.numpy(), rtol=1e-5, atol=1e-6)
    # without an axis name it is BatchNorm
    y1 = nn.SyncBatchNorm(3)(padax.to_tensor(x[0]))
    np.testing.assert_allclose(y1.numpy(), nn.BatchNorm1D(3)(padax.to_tensor(x[0])).numpy(), rtol=1e-6)
    converted = nn.SyncBatchNorm.convert_sync_batchnorm(nn.Sequential(nn.Linear(3, 3), nn.BatchNorm1D(3)))
    assert isinstance(converted[1], nn.SyncBatchNorm)


def test_bad_input_errors_name_layer_and_shapes():
    class Net(nn.Layer):
        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(nn.Linear(4, 3), nn.BatchNorm1D(3))

        def forward(self, x):
            return self.body(x)

    with pytest.raises(ValueError, match=r"model\.body\.1 \(BatchNorm1D\): BatchNorm1D input: expected rank 2 or 3"):
        Net()(padax.ones([2, 2, 2, 4]))
    with pytest.raises(ValueError, match=r"model\.body\.0 \(Linear\).*expected 4 features.*received shape \[2, 5\]"
                       r".*test_batchnorm\.py"):
        Net()(padax.ones([2, 5]))
    with pytest.raises(ValueError, match=r"model \(BatchNorm2D\): .*expected 3 features along axis 1"):
        nn.BatchNorm2D(3)(padax.ones([2, 4, 2, 2]))
    with pytest.raises(TypeError, match="floating-point"):
        nn.BatchNorm2D(3)(padax.ones([2, 3, 2, 2], dtype="int32"))
