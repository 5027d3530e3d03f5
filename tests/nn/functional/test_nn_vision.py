"""padax.nn.functional resampling and rearrangement vs Paddle: interpolate/upsample (every mode,
align_corners, align_mode, scale_factor, data formats), grid_sample, affine_grid, pixel and channel
shuffles, pad/zeropad2d, unfold/fold."""
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


X3, X4, X5 = f32(2, 3, 6), f32(2, 3, 5, 7), f32(1, 2, 3, 4, 5)
SIZES = {3: [9], 4: [9, 4], 5: [4, 6, 9]}
LINEAR = {"linear": X3, "bilinear": X4, "trilinear": X5}


def _variants(mode: str, nd: int):
    """(kwargs) for each size / scale and corner convention Paddle supports for the mode."""
    out = []
    for sz in (dict(size=SIZES[nd]), dict(scale_factor=2), dict(scale_factor=0.6), dict(scale_factor=1.7)):
        if mode in ("linear", "bilinear", "trilinear"):
            out += [dict(sz, align_corners=False, align_mode=0), dict(sz, align_corners=False, align_mode=1),
                    dict(sz, align_corners=True)]
        elif mode == "bicubic":
            out += [dict(sz, align_corners=False), dict(sz, align_corners=True)]
        else:
            out.append(sz)
    return out


@pytest.mark.parametrize("mode,x", [("nearest", X4), ("nearest", X5), ("bilinear", X4), ("bicubic", X4),
                                    ("linear", X3), ("trilinear", X5)],
                         ids=["nearest2d", "nearest3d", "bilinear", "bicubic", "linear", "trilinear"])
def test_interpolate(mode, x):
    PF = paddle_oracle().nn.functional
    vs = _variants(mode, x.ndim)
    check(lambda x: [F.interpolate(x, mode=mode, **kw) for kw in vs],
          lambda x: [PF.interpolate(x, mode=mode, **kw) for kw in vs], [x], rtol=1e-4, atol=1e-4)


def test_interpolate_antialias():
    """antialias widens the bilinear/bicubic filters by the shrink factor (rows and columns here shrink,
    keep or grow), with and without align_corners and from a scale_factor."""
    PF = paddle_oracle().nn.functional
    x = f32(2, 3, 9, 8)
    vs = [dict(mode=m, size=[4, 8], align_corners=ac) for m in ("bilinear", "bicubic") for ac in (False, True)]
    vs += [dict(mode="bicubic", scale_factor=[0.3, 1.5]), dict(mode="bilinear", size=[1, 3])]
    check(lambda x: [F.interpolate(x, antialias=True, **kw) for kw in vs],
          lambda x: [PF.interpolate(x, antialias=True, **kw) for kw in vs], [x], rtol=1e-4, atol=1e-5)


def test_interpolate_uint8_images_truncate():
    """Integer images are resampled in float32 and truncated, as Paddle (a float32 rounding apart,
    a value at an integer boundary can truncate one lower or higher)."""
    paddle = paddle_oracle()
    x = RNG.integers(0, 255, (1, 2, 4, 5)).astype(np.uint8)
    check(lambda x: F.interpolate(x, scale_factor=1.5), lambda x: paddle.nn.functional.interpolate(x, scale_factor=1.5),
          [x], diff=())
    got = np.asarray(F.interpolate(x, size=[7, 6], mode="bilinear"))
    want = paddle.nn.functional.interpolate(paddle.to_tensor(x), size=[7, 6], mode="bilinear").numpy()
    assert got.dtype == np.uint8 and np.abs(got.astype(int) - want).max() <= 1


def test_interpolate_area_formats_and_upsample():
    PF = paddle_oracle().nn.functional
    xl = np.moveaxis(X4, 1, -1).copy()

    def run(M, x3, x4, xl):
        return (M.interpolate(x4, size=[3, 5], mode="area"), M.interpolate(x3, size=[4], mode="area"),
                M.interpolate(xl, scale_factor=[1.5, 0.5], mode="bilinear", data_format="NHWC"),
                M.interpolate(xl, size=[3, 9], data_format="NHWC"),
                M.upsample(x4, size=[8, 8], mode="bicubic", align_corners=True),
                M.interpolate(x4, scale_factor=1.7, mode="bilinear", recompute_scale_factor=True))
    check(lambda *a: run(F, *a), lambda *a: run(PF, *a), [X3, X4, xl], diff=(0, 1, 2), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
def test_grid_sample(mode):
    PF = paddle_oracle().nn.functional
    x, g = f32(2, 3, 5, 6), RNG.uniform(-1.3, 1.3, (2, 4, 7, 2)).astype(np.float32)
    cases = [(pm, ac) for pm in ("zeros", "border", "reflection") for ac in (True, False)]
    check(lambda x, g: [F.grid_sample(x, g, mode, pm, ac) for pm, ac in cases],
          lambda x, g: [PF.grid_sample(x, g, mode, pm, ac) for pm, ac in cases], [x, g],
          diff=(0, 1) if mode == "bilinear" else (0,), rtol=1e-4, atol=1e-4)


def test_grid_sample_3d_and_affine_grid():
    PF = paddle_oracle().nn.functional
    g5 = RNG.uniform(-1.2, 1.2, (1, 2, 3, 4, 3)).astype(np.float32)

    def run(M, x5, g5, t2, t3):
        return (*[M.grid_sample(x5, g5, "bilinear", pm, False) for pm in ("zeros", "border", "reflection")],
                *[M.affine_grid(t2, [2, 3, 4, 5], ac) for ac in (True, False)],
                *[M.affine_grid(t3, [2, 3, 2, 4, 5], ac) for ac in (True, False)])
    check(lambda *a: run(F, *a), lambda *a: run(PF, *a), [X5, g5, f32(2, 2, 3), f32(2, 3, 4)], diff=(0, 1, 2, 3),
          rtol=1e-4, atol=1e-4)


def test_shuffles_pad_unfold_fold():
    PF = paddle_oracle().nn.functional
    x8, xu, x = f32(2, 8, 3, 4), f32(2, 2, 4, 6), f32(2, 3, 7, 6)
    patches = [dict(kernel_sizes=2), dict(kernel_sizes=[3, 2], strides=2, paddings=1),
               dict(kernel_sizes=2, strides=[1, 2], paddings=[2, 1], dilations=2)]

    def run(M, x8, xu, x):
        shuffles = []
        for df in ("NCHW", "NHWC"):
            a, b = (x8, xu) if df == "NCHW" else (x8.transpose([0, 2, 3, 1]), xu.transpose([0, 2, 3, 1]))
            shuffles += [M.pixel_shuffle(a, 2, df), M.channel_shuffle(a, 4, df), M.pixel_unshuffle(b, 2, df)]
        pads = [M.pad(x, [1, 2, 0, 1], mode=m, value=0.5) for m in ("constant", "reflect", "replicate", "circular")]
        pads += [M.pad(x[:, :, 0], [2, 1], mode="reflect", data_format="NLC"), M.zeropad2d(x, [1, 2, 0, 1]),
                 M.pad(x, [1, 2, 0, 1, 1, 1, 0, 0], value=3.0), M.pad(x, [1, 0, 2, 1], mode="replicate",
                                                                   data_format="NHWC")]
        cols = [M.unfold(x, **kw) for kw in patches]
        folds = [M.fold(c, [7, 6], **kw) for c, kw in zip(cols, patches)]
        return shuffles + pads + cols + folds
    check(lambda *a: run(F, *a), lambda *a: run(PF, *a), [x8, xu, x], diff=(0, 1, 2))


def test_unfold_asymmetric_paddings():
    """[top, left, bottom, right] as Paddle's unfold (Paddle's fold reads only the first two, so
    padax's fold, the adjoint of unfold, is checked through that identity)."""
    PF = paddle_oracle().nn.functional
    x = f32(2, 3, 7, 6)
    kw = dict(kernel_sizes=2, strides=[1, 2], paddings=[1, 0, 2, 1], dilations=2)
    cols = check(lambda x: F.unfold(x, **kw), lambda x: PF.unfold(x, **kw), [x])[0]
    y = RNG.standard_normal(cols.shape).astype(np.float32)
    lhs = float(np.sum(cols * y))
    rhs = float(np.sum(np.asarray(F.fold(padax.to_tensor(y), [7, 6], **kw)) * x))
    np.testing.assert_allclose(lhs, rhs, rtol=1e-4)


def test_vmap():
    g = RNG.uniform(-1, 1, (2, 3, 4, 2)).astype(np.float32)
    check_vmap(lambda x, g: (F.interpolate(x, scale_factor=1.5, mode="bicubic"), F.grid_sample(x, g),
                             F.pixel_shuffle(F.pad(x, [0, 0, 0, 0, 1, 0], mode="constant"), 2), F.unfold(x, 2),
                             F.interpolate(x, size=[3, 3], mode="area")), [X4[:, :3, :4, :4].copy(), g],
               batched=(0, 1), rtol=1e-4, atol=1e-4)


def test_second_order(x64):
    x = RNG.standard_normal((1, 2, 3, 4))
    g = RNG.uniform(-0.9, 0.9, (1, 2, 3, 2))
    check_grads(lambda x: F.interpolate(x, scale_factor=1.5, mode="bicubic"), (x,), order=2, modes=("rev",))
    check_grads(lambda x, g: F.grid_sample(x, g, padding_mode="border"), (x, g), order=2, modes=("rev",),
                atol=1e-4, rtol=1e-4, eps=1e-5)
    check_grads(lambda x: F.fold(F.unfold(x, 2, paddings=1), [3, 4], 2, paddings=1), (x,), order=2, modes=("fwd",))


def test_errors():
    x = padax.ones([1, 2, 4, 4])
    with pytest.raises(ValueError, match="antialias"):
        F.interpolate(padax.ones([1, 1, 4, 4]), size=[2, 2], antialias=True)
    with pytest.raises(ValueError, match=r"interpolate: mode 'linear' needs a 3-D x, got f32\[1,2,4,4\].*test_nn_vision"):
        F.interpolate(x, size=[3], mode="linear")
    with pytest.raises(ValueError, match="interpolate: align_corners can only be set"):
        F.interpolate(x, size=[3, 3], align_corners=True)
    with pytest.raises(ValueError, match="interpolate: give only one of size and scale_factor"):
        F.interpolate(x, size=[3, 3], scale_factor=2)
    with pytest.raises(ValueError, match=r"grid_sample: x must be \[N, C, H, W\]"):
        F.grid_sample(x, padax.ones([1, 3, 3, 3]))
    with pytest.raises(ValueError, match=r"pixel_shuffle: the 2 channels of x f32\[1,2,4,4\] must be divisible"):
        F.pixel_shuffle(x, 2)
    with pytest.raises(ValueError, match=r"fold: x f32\[1,8,5\] must have 3 x 3 = 9 columns"):
        F.fold(padax.ones([1, 8, 5]), [4, 4], 2)


def test_pixel_shuffle_zero_factor_is_a_clear_error():
    import padax.nn.functional as F
    with pytest.raises(ValueError, match="pixel_shuffle: upscale_factor must be a positive int, got 0"):
        F.pixel_shuffle(padax.ones([1, 1, 4, 4]), 0)
    with pytest.raises(ValueError, match="pixel_unshuffle: downscale_factor must be a positive int, got 0"):
        F.pixel_unshuffle(padax.ones([1, 1, 4, 4]), 0)
