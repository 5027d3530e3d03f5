"""padax.nn.functional convolutions vs Paddle: values and gradients of x, weight and bias."""
from __future__ import annotations

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


def _last(x):
    return np.moveaxis(x, 1, -1).copy()


CONV2D = [  # (kwargs, groups)
    dict(stride=2, padding=1),
    dict(padding="same", dilation=2),
    dict(padding=[1, 2, 0, 1], groups=2, dilation=(2, 1)),
    dict(padding="valid", stride=(2, 3)),
    dict(padding=[[0, 0], [0, 0], [1, 0], [2, 1]], groups=4),
]


@pytest.mark.parametrize("kw", CONV2D, ids=["stride", "same-dilated", "per-side-groups", "valid", "pairs-depthwise"])
def test_conv2d(kw):
    PF = paddle_oracle().nn.functional
    g = kw.get("groups", 1)
    x, w, b = f32(2, 4, 9, 8), f32(6 if g != 4 else 8, 4 // g, 3, 3), None
    b = f32(w.shape[0])
    pads = kw.get("padding")
    both = (lambda x, w, b: (F.conv2d(x, w, b, **kw), F.conv2d(x, w, None, **kw)),
            lambda x, w, b: (PF.conv2d(x, w, b, **kw), PF.conv2d(x, w, None, **kw)))
    check(*both, [x, w, b], diff=(0, 1, 2), rtol=1e-4, atol=1e-4)
    if not (isinstance(pads, list) and isinstance(pads[0], list)):   # pairs are given in the NCHW order
        check(lambda x, w, b: F.conv2d(x, w, b, data_format="NHWC", **kw),
              lambda x, w, b: PF.conv2d(x, w, b, data_format="NHWC", **kw), [_last(x), w, b], diff=(0, 1),
              rtol=1e-4, atol=1e-4)


def test_conv1d_and_conv3d():
    PF = paddle_oracle().nn.functional
    x1, w1 = f32(2, 4, 11), f32(4, 2, 3)
    check(lambda x, w: (F.conv1d(x, w, stride=2, padding=[1, 2], groups=2),
                        F.conv1d(x, w, padding="same", dilation=2, groups=2)),
          lambda x, w: (PF.conv1d(x, w, stride=2, padding=[1, 2], groups=2),
                        PF.conv1d(x, w, padding="same", dilation=2, groups=2)), [x1, w1], diff=(0, 1), rtol=1e-4,
          atol=1e-4)
    check(lambda x, w: F.conv1d(x, w, padding=1, data_format="NLC"),
          lambda x, w: PF.conv1d(x, w, padding=1, data_format="NLC"), [_last(x1), f32(3, 4, 3)], diff=(0, 1),
          rtol=1e-4, atol=1e-4)
    x3, w3, b3 = f32(1, 2, 5, 6, 4), f32(3, 2, 3, 2, 2), f32(3)
    check(lambda x, w, b: (F.conv3d(x, w, b, stride=(1, 2, 1), padding=1),
                           F.conv3d(x, w, b, padding="same")),
          lambda x, w, b: (PF.conv3d(x, w, b, stride=(1, 2, 1), padding=1),
                           PF.conv3d(x, w, b, padding="same")), [x3, w3, b3], diff=(0, 1, 2), rtol=1e-4, atol=1e-4)
    check(lambda x, w: F.conv3d(x, w, padding=[1, 0, 0, 1, 1, 1], data_format="NDHWC"),
          lambda x, w: PF.conv3d(x, w, padding=[1, 0, 0, 1, 1, 1], data_format="NDHWC"), [_last(x3), w3],
          diff=(0, 1), rtol=1e-4, atol=1e-4)


TRANSPOSE2D = [
    dict(stride=2, padding=1, output_padding=1),
    dict(padding="same", stride=2),
    dict(stride=3, output_size=[28, 25]),
    dict(groups=2, stride=2, dilation=2, padding=[1, 0, 2, 1]),
]


@pytest.mark.parametrize("kw", TRANSPOSE2D, ids=["output_padding", "same", "output_size", "groups-dilated"])
def test_conv2d_transpose(kw):
    PF = paddle_oracle().nn.functional
    g = kw.get("groups", 1)
    x, w, b = f32(2, 4, 9, 8), f32(4, 3, 3, 3), f32(3 * g)
    check(lambda x, w, b: F.conv2d_transpose(x, w, b, **kw), lambda x, w, b: PF.conv2d_transpose(x, w, b, **kw),
          [x, w, b], diff=(0, 1, 2), rtol=1e-4, atol=1e-4)
    if g == 1:
        check(lambda x, w: F.conv2d_transpose(x, w, data_format="NHWC", **kw),
              lambda x, w: PF.conv2d_transpose(x, w, data_format="NHWC", **kw), [_last(x), w], diff=(0, 1),
              rtol=1e-4, atol=1e-4)


def test_conv1d_and_conv3d_transpose():
    PF = paddle_oracle().nn.functional
    x1, w1 = f32(2, 4, 7), f32(4, 3, 3)
    check(lambda x, w: (F.conv1d_transpose(x, w, stride=2, padding=1, output_padding=1),
                        F.conv1d_transpose(x, w, stride=2, groups=2, dilation=2),
                        F.conv1d_transpose(x, w, stride=3, output_size=22)),
          lambda x, w: (PF.conv1d_transpose(x, w, stride=2, padding=1, output_padding=1),
                        PF.conv1d_transpose(x, w, stride=2, groups=2, dilation=2),
                        PF.conv1d_transpose(x, w, stride=3, output_size=22)), [x1, w1], diff=(0, 1), rtol=1e-4,
          atol=1e-4)
    x3, w3 = f32(1, 2, 3, 4, 3), f32(2, 2, 2, 3, 2)
    check(lambda x, w: (F.conv3d_transpose(x, w, stride=2, padding=[0, 1, 1, 0, 0, 1]),
                        F.conv3d_transpose(x, w, padding="same", stride=(1, 2, 2))),
          lambda x, w: (PF.conv3d_transpose(x, w, stride=2, padding=[0, 1, 1, 0, 0, 1]),
                        PF.conv3d_transpose(x, w, padding="same", stride=(1, 2, 2))), [x3, w3], diff=(0, 1),
          rtol=1e-4, atol=1e-4)


def test_vmap_over_inputs_and_weights():
    x, w, wt = f32(2, 3, 6, 5), f32(4, 3, 3, 3), f32(3, 2, 2, 2)
    check_vmap(lambda x, w: F.conv2d(x, w, padding=1, stride=2), [x, w], batched=(0, 1), rtol=1e-4, atol=1e-4)
    check_vmap(lambda x, w: F.conv2d_transpose(x, w, stride=2, data_format="NHWC"), [_last(x), wt], batched=(1,),
               rtol=1e-4, atol=1e-4)


def test_second_order(x64):
    x, w = RNG.standard_normal((1, 2, 4, 3)), RNG.standard_normal((2, 1, 2, 2))
    check_grads(lambda x, w: F.conv2d_transpose(x, w, stride=2, padding=1, groups=2, output_padding=1), (x, w),
                order=2, modes=("rev",))


def test_errors_name_the_op_and_shapes():
    x, w = padax.ones([2, 4, 5, 5]), padax.ones([6, 3, 3, 3])
    with pytest.raises(ValueError, match=r"conv2d: weight's in_channels/groups 3 .* 4 input channels .*test_nn_conv"):
        F.conv2d(x, w)
    with pytest.raises(ValueError, match=r"conv2d: x and weight must be 4-D"):
        F.conv2d(padax.ones([4, 5, 5]), w)
    with pytest.raises(ValueError, match=r"conv2d: data_format must be 'NCHW' or 'NHWC'"):
        F.conv2d(x, padax.ones([6, 4, 3, 3]), data_format="NCL")
    with pytest.raises(ValueError, match=r"conv2d: padding \[1, 2, 3\]"):
        F.conv2d(x, padax.ones([6, 4, 3, 3]), padding=[1, 2, 3])
    with pytest.raises(ValueError, match=r"conv2d_transpose: output_size \[20, 20\] must lie in \[9, 11\)"):
        F.conv2d_transpose(x, padax.ones([4, 2, 3, 3]), stride=2, padding=1, output_size=[20, 20])
    with pytest.raises(TypeError, match=r"conv1d: x and weight must have the same dtype"):
        F.conv1d(padax.ones([1, 2, 4]), padax.ones([1, 2, 2], dtype="float64"))
