"""padax.nn.functional normalisations vs Paddle (rms_norm, which Paddle runs on GPU only, vs numpy)."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import padax
import padax.nn.functional as F
from padax.test_util import check_grads
from tests.conftest import paddle_oracle
from tests.nn.functional.oracle import check, check_vmap

RNG = np.random.default_rng(0)


def f32(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


X = f32(2, 6, 5, 4)
XL = np.moveaxis(X, 1, -1).copy()
C6 = f32(6)


def test_layer_and_group_norm():
    PF = paddle_oracle().nn.functional
    w, b = f32(20), f32(20)
    ones = np.ones(6, np.float32)
    check(lambda x, w, b, c, d, e: (F.layer_norm(x, [5, 4], w, b), F.layer_norm(x, 4, epsilon=1e-3),
                                    F.group_norm(x, 3, 1e-5, c, d), F.group_norm(x, 6, weight=e)),
          lambda x, w, b, c, d, e: (PF.layer_norm(x, [5, 4], w, b), PF.layer_norm(x, 4, epsilon=1e-3),
                                    PF.group_norm(x, 3, 1e-5, c, d), PF.group_norm(x, 6, weight=e)),
          [X, w, b, C6, C6[::-1].copy(), ones], diff=(0, 1, 2, 3, 4, 5), rtol=1e-4, atol=1e-4)
    # Paddle's group_norm gradient of x is wrong when no weight needs a gradient (finite differences
    # of its own forward disagree): padax's equals the one with a weight of ones
    g0 = padax.grad(lambda x: (F.group_norm(x, 3) * X).sum())(padax.to_tensor(X))
    g1 = padax.grad(lambda x: (F.group_norm(x, 3, weight=ones) * X).sum())(padax.to_tensor(X))
    np.testing.assert_allclose(np.asarray(g0), np.asarray(g1), rtol=1e-6, atol=1e-6)
    check(lambda x, c: (F.group_norm(x, 2, 1e-5, c, c, data_format="NHWC"),
                        F.group_norm(x[:, :, 0], 3, weight=c, data_format="NLC")),
          lambda x, c: (PF.group_norm(x, 2, 1e-5, c, c, data_format="NHWC"),
                        PF.group_norm(x[:, :, 0], 3, weight=c, data_format="NLC")),
          [XL, C6], diff=(0, 1), rtol=1e-4, atol=1e-4)


def test_instance_lrn_normalize():
    PF = paddle_oracle().nn.functional
    check(lambda x, w, b: (F.instance_norm(x, weight=w, bias=b), F.instance_norm(x[:, :, 0], data_format="NCL"),
                           F.local_response_norm(x, 3), F.local_response_norm(x[:, :, 0], 5),
                           F.normalize(x), F.normalize(x, p=1, axis=-1), F.normalize(x, p=3, axis=2),
                           F.normalize(x, p=float("inf"))),
          lambda x, w, b: (PF.instance_norm(x, weight=w, bias=b), PF.instance_norm(x[:, :, 0], data_format="NCL"),
                           PF.local_response_norm(x, 3), PF.local_response_norm(x[:, :, 0], 5),
                           PF.normalize(x), PF.normalize(x, p=1, axis=-1), PF.normalize(x, p=3, axis=2),
                           PF.normalize(x, p=float("inf"))),
          [X, C6, C6[::-1].copy()], diff=(0, 1, 2), rtol=1e-4, atol=1e-4)
    check(lambda x, z: (F.local_response_norm(x, 4, alpha=0.1, beta=0.5, k=2.0, data_format="NHWC"),
                        F.normalize(z, axis=-1)),
          lambda x, z: (PF.local_response_norm(x, 4, alpha=0.1, beta=0.5, k=2.0, data_format="NHWC"),
                        PF.normalize(z, axis=-1)), [XL, np.zeros((2, 3), np.float32)], diff=(0, 1), rtol=1e-4,
          atol=1e-4)


def test_rms_norm_against_numpy():
    w = f32(5, 4)
    out, inv = F.rms_norm(padax.to_tensor(X), [5, 4], padax.to_tensor(w), eps=1e-6)
    ms = (X.astype(np.float64) ** 2).mean(axis=(2, 3), keepdims=True)
    np.testing.assert_allclose(np.asarray(out), X / np.sqrt(ms + 1e-6) * w, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(np.asarray(inv), (1 / np.sqrt(ms + 1e-6)).reshape(-1), rtol=1e-5)
    assert inv.dtype == np.float32 and inv.shape == (12,)
    lo = F.rms_norm(padax.to_tensor(X.astype(ml_dtypes.bfloat16)), 4)[0]
    assert lo.dtype == ml_dtypes.bfloat16


def test_low_precision_and_vmap():
    x16 = X.astype(np.float16)
    y = F.layer_norm(padax.to_tensor(x16), 4)
    assert y.dtype == np.float16
    ref = (X - X.mean(-1, keepdims=True)) / np.sqrt(X.var(-1, keepdims=True) + 1e-5)
    np.testing.assert_allclose(np.asarray(y).astype(np.float32), ref, rtol=5e-3, atol=5e-3)
    check_vmap(lambda x, w: (F.layer_norm(x, 4), F.group_norm(x, 3, weight=w), F.instance_norm(x, weight=w),
                             F.local_response_norm(x, 3), F.normalize(x), F.rms_norm(x, [4])[0]), [X, C6],
               batched=(0, 1), rtol=1e-4, atol=1e-4)


def test_second_order(x64):
    x = RNG.standard_normal((2, 4, 3))
    check_grads(lambda x: F.layer_norm(x, 3), (x,), order=2, modes=("rev",))
    check_grads(lambda x: F.group_norm(x, 2, weight=np.arange(4.0), data_format="NCL"), (x,), order=2,
                modes=("fwd",))
    check_grads(lambda x: F.normalize(x, axis=-1), (x,), order=2, modes=("rev",))


def test_errors():
    with pytest.raises(ValueError, match=r"layer_norm: normalized_shape \[3\] must be the trailing dimensions of x "
                                         r"f32\[2,6,5,4\]"):
        F.layer_norm(padax.to_tensor(X), 3)
    with pytest.raises(ValueError, match=r"group_norm: num_groups=4 must divide the 6 channels .*test_nn_norm"):
        F.group_norm(padax.to_tensor(X), 4)
    with pytest.raises(ValueError, match=r"instance_norm: data_format must be one of"):
        F.instance_norm(padax.to_tensor(X), data_format="NHWC")
