"""padax.nn.functional pools vs Paddle: max/avg/lp (ceil_mode, exclusive, divisor_override, masks),
adaptive pools and max_unpool; the max-pool gradient's tie rule; vmap and second order."""
from __future__ import annotations

import numpy as np
import pytest

import padax
import padax.nn.functional as F
from padax.test_util import check_grads
from tests.conftest import paddle_oracle
from tests.nn.functional.oracle import check, check_vmap

RNG = np.random.default_rng(0)
X = RNG.standard_normal((2, 3, 9, 8)).astype(np.float32)

POOL2D = [
    dict(kernel_size=2),
    dict(kernel_size=3, stride=2, padding=1),
    dict(kernel_size=3, stride=2, padding=1, ceil_mode=True),
    dict(kernel_size=(2, 3), stride=(2, 1), padding="SAME"),
    dict(kernel_size=3, stride=3, padding=[1, 0, 0, 1], ceil_mode=True),
]


@pytest.mark.parametrize("kw", POOL2D, ids=["k2", "padded", "ceil", "same", "asymmetric-ceil"])
def test_pool2d(kw):
    PF = paddle_oracle().nn.functional
    symmetric = kw.get("padding") not in ("SAME", [1, 0, 0, 1])   # Paddle's masked pool takes symmetric pads only

    def run(M, x):
        outs = [M.max_pool2d(x, **kw), M.avg_pool2d(x, **kw), M.avg_pool2d(x, exclusive=False, **kw)]
        return outs + list(M.max_pool2d(x, return_mask=True, **kw)) if symmetric else outs
    check(lambda x: run(F, x), lambda x: run(PF, x), [X])
    check(lambda x: (F.max_pool2d(x, data_format="NHWC", **kw), F.avg_pool2d(x, data_format="NHWC", **kw)),
          lambda x: (PF.max_pool2d(x, data_format="NHWC", **kw), PF.avg_pool2d(x, data_format="NHWC", **kw)),
          [np.moveaxis(X, 1, -1).copy()])


def test_divisor_override_and_1d_3d_lp():
    PF = paddle_oracle().nn.functional
    check(lambda x: [M(x, 3, 2, 1, exclusive=e, divisor_override=4) for M in (F.avg_pool2d,) for e in (True, False)],
          lambda x: [M(x, 3, 2, 1, exclusive=e, divisor_override=4) for M in (PF.avg_pool2d,) for e in (True, False)],
          [X])
    x1 = X[:, :, 0]
    check(lambda x: (*F.max_pool1d(x, 3, 2, 1, return_mask=True, ceil_mode=True),
                     F.avg_pool1d(x, 3, 2, 1, exclusive=False, ceil_mode=True), F.avg_pool1d(x, 2),
                     F.lp_pool1d(abs(x) + 0.1, 2, 3, 2, 1, ceil_mode=True), F.lp_pool1d(x, float("inf"), 2)),
          lambda x: (*PF.max_pool1d(x, 3, 2, 1, return_mask=True, ceil_mode=True),
                     PF.avg_pool1d(x, 3, 2, 1, exclusive=False, ceil_mode=True), PF.avg_pool1d(x, 2),
                     PF.lp_pool1d(abs(x) + 0.1, 2, 3, 2, 1, ceil_mode=True), PF.lp_pool1d(x, float("inf"), 2)),
          [x1], rtol=1e-4, atol=1e-4)
    check(lambda x: F.lp_pool2d(x, 3, 2, data_format="NHWC"), lambda x: PF.lp_pool2d(x, 3, 2, data_format="NHWC"),
          [np.abs(np.moveaxis(X, 1, -1)) + 0.1], rtol=1e-4, atol=1e-4)
    x3 = RNG.standard_normal((1, 2, 5, 6, 7)).astype(np.float32)
    check(lambda x: (*F.max_pool3d(x, 3, 2, 1, return_mask=True, ceil_mode=True),
                     F.avg_pool3d(x, 2, 2, 1, exclusive=False), F.max_pool3d(x, 2, data_format="NCDHW")),
          lambda x: (*PF.max_pool3d(x, 3, 2, 1, return_mask=True, ceil_mode=True),
                     PF.avg_pool3d(x, 2, 2, 1, exclusive=False), PF.max_pool3d(x, 2, data_format="NCDHW")), [x3])


@pytest.mark.parametrize("size", [(3, 4), (4, 4), 1, (None, 3), (5, 3)])
def test_adaptive2d(size):
    PF = paddle_oracle().nn.functional
    check(lambda x: (F.adaptive_avg_pool2d(x, size), *F.adaptive_max_pool2d(x, size, return_mask=True)),
          lambda x: (PF.adaptive_avg_pool2d(x, size), *PF.adaptive_max_pool2d(x, size, return_mask=True)), [X])


def test_adaptive_1d_3d_channel_last():
    PF = paddle_oracle().nn.functional
    x1 = X[:, :, 0]
    x3 = RNG.standard_normal((1, 2, 5, 6, 7)).astype(np.float32)
    check(lambda x, y, z: (F.adaptive_avg_pool1d(x, 5), *F.adaptive_max_pool1d(x, 3, return_mask=True),
                           F.adaptive_avg_pool3d(y, (2, 4, 3)), *F.adaptive_max_pool3d(y, (2, 4, 3), return_mask=True),
                           F.adaptive_avg_pool2d(z, (4, 3), data_format="NHWC")),
          lambda x, y, z: (PF.adaptive_avg_pool1d(x, 5), *PF.adaptive_max_pool1d(x, 3, return_mask=True),
                           PF.adaptive_avg_pool3d(y, (2, 4, 3)), *PF.adaptive_max_pool3d(y, (2, 4, 3), return_mask=True),
                           PF.adaptive_avg_pool2d(z, (4, 3), data_format="NHWC")),
          [x1, x3, np.moveaxis(X, 1, -1).copy()], diff=(0, 1, 2))


def test_max_unpool():
    paddle = paddle_oracle()
    PF = paddle.nn.functional
    o2, m2 = PF.max_pool2d(paddle.to_tensor(X), 2, return_mask=True)
    o1, m1 = PF.max_pool1d(paddle.to_tensor(X[:, :, 0]), 2, return_mask=True)
    x3 = RNG.standard_normal((1, 2, 4, 6, 4)).astype(np.float32)
    o3, m3 = PF.max_pool3d(paddle.to_tensor(x3), 2, return_mask=True)
    check(lambda a, i, b, j, c, k: (F.max_unpool2d(a, i, 2), F.max_unpool2d(a, i, 2, output_size=[9, 9]),
                                    F.max_unpool1d(b, j, 2), F.max_unpool3d(c, k, 2)),
          lambda a, i, b, j, c, k: (PF.max_unpool2d(a, i, 2), PF.max_unpool2d(a, i, 2, output_size=[9, 9]),
                                    PF.max_unpool1d(b, j, 2), PF.max_unpool3d(c, k, 2)),
          [o2.numpy(), m2.numpy(), o1.numpy(), m1.numpy(), o3.numpy(), m3.numpy()], diff=(0, 2, 4))


def test_max_pool_ties_send_the_gradient_to_the_first_maximum():
    """A window of equal values (e.g. after relu) gives its gradient to its first element, as Paddle."""
    paddle = paddle_oracle()
    x = np.zeros((1, 1, 4, 4), np.float32)
    x[0, 0, 1, 1] = x[0, 0, 1, 2] = 1.0
    check(lambda x: F.max_pool2d(x, 2, 1), lambda x: paddle.nn.functional.max_pool2d(x, 2, 1), [x])
    g = padax.grad(lambda x: F.max_pool2d(x, 2, 2).sum())(padax.zeros([1, 1, 2, 2]))
    np.testing.assert_array_equal(np.asarray(g)[0, 0], [[1, 0], [0, 0]])


def test_vmap():
    check_vmap(lambda x: (F.max_pool2d(x, 3, 2, 1, ceil_mode=True), F.avg_pool2d(x, 3, 2, 1, exclusive=False),
                          F.max_pool2d(x, 2, return_mask=True)[1], F.adaptive_max_pool2d(x, (4, 3)),
                          F.adaptive_avg_pool2d(x, (4, 3))), [X])


def test_second_order(x64):
    x = RNG.permutation(60).reshape(1, 2, 5, 6) / 60.0 + RNG.uniform(0, 0.001, (1, 2, 5, 6))
    check_grads(lambda x: F.max_pool2d(x, 3, 2, 1, ceil_mode=True), (x,), order=2, modes=("rev",))
    check_grads(lambda x: F.avg_pool2d(x, 3, 2, 1, exclusive=False) ** 2, (x,), order=2, modes=("fwd", "rev"))
    check_grads(lambda x: F.adaptive_max_pool2d(x, (2, 4)), (x,), order=2, modes=("rev",))


def test_errors():
    x = padax.ones([1, 2, 5, 5])
    with pytest.raises(ValueError, match=r"max_pool2d: x must be 4-D, got f32\[2,5,5\].*test_nn_pooling"):
        F.max_pool2d(x[0], 2)
    with pytest.raises(ValueError, match=r"max_pool2d: return_mask needs a channel-first data_format"):
        F.max_pool2d(x, 2, return_mask=True, data_format="NHWC")
    with pytest.raises(ValueError, match=r"avg_pool2d: ceil_mode must be False with padding 'VALID'"):
        F.avg_pool2d(x, 2, padding="VALID", ceil_mode=True)
    with pytest.raises(ValueError, match=r"max_pool2d: kernel_size \[7, 7\] is larger than the padded input"):
        F.max_pool2d(x, 7)
    with pytest.raises(ValueError, match=r"max_unpool2d: output_size \[20, 20\]"):
        F.max_unpool2d(padax.ones([1, 2, 2, 2]), padax.zeros([1, 2, 2, 2], dtype="int32"), 2, output_size=[20, 20])
