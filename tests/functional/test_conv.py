"""conv_general_dilated against jax.lax (oracle) and a numpy loop, eagerly and under jit."""
import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
import pytest
from jax import lax as jlax

import padax
import padax.lax as lax
from tests.conftest import assert_close, rand, tol

BF16 = ml_dtypes.bfloat16


def put(x):
    """device_put that also takes bfloat16 host arrays (numpy reports their kind as 'V')."""
    x = np.asarray(x)
    return padax.device_put(x.astype(np.float32), dtype=BF16) if x.dtype == BF16 else padax.device_put(x)


def call(f, jit, *args):
    out = padax.jit(f)(*args) if jit else f(*args)
    return out.numpy()


def jax_oracle(f, *args):
    """jax.lax on the platform padax runs on (so both use the same default conv algorithms)."""
    with jax.default_device(jax.devices(PLATFORM)[0]):
        return np.asarray(f(*(jnp.asarray(a) for a in args)))


PLATFORM = padax.default_device().platform
# float32 tolerance: accelerators may run f32 convolutions with TF32 inputs by default
F32_TOL = 1e-5 if PLATFORM == "cpu" else 1e-2


# lhs shape, rhs shape, keyword arguments (shared by padax and jax)
CASES = {
    "1d_nwc_same_stride": ((2, 9, 3), (3, 3, 4), dict(
        window_strides=(2,), padding="SAME", dimension_numbers=("NWC", "WIO", "NWC"))),
    "1d_default_layout": ((2, 3, 8), (4, 3, 2), dict(window_strides=(1,), padding="VALID")),
    "2d_nchw_explicit_pad_rhs_dilation": ((2, 3, 7, 6), (4, 3, 3, 2), dict(
        window_strides=(1, 2), padding=((1, 2), (0, 1)), rhs_dilation=(2, 1),
        dimension_numbers=("NCHW", "OIHW", "NCHW"))),
    "2d_nhwc_hwio_lhs_dilation": ((1, 5, 4, 2), (3, 3, 2, 4), dict(
        window_strides=(1, 1), padding=((2, 2), (1, 1)), lhs_dilation=(2, 2),
        dimension_numbers=("NHWC", "HWIO", "NHWC"))),
    "2d_same_lower": ((1, 2, 6, 5), (2, 2, 2, 4), dict(window_strides=(2, 2), padding="SAME_LOWER")),
    "2d_depthwise_groups": ((2, 4, 6, 6), (8, 1, 3, 3), dict(
        window_strides=(1, 1), padding="SAME", feature_group_count=4)),
    "2d_feature_groups": ((1, 6, 5, 5), (4, 3, 2, 2), dict(
        window_strides=(1, 1), padding="VALID", feature_group_count=2)),
    "2d_batch_groups": ((4, 3, 5, 5), (6, 3, 2, 2), dict(
        window_strides=(1, 1), padding="VALID", batch_group_count=2)),
    "2d_mixed_layouts": ((2, 5, 3, 6), (2, 3, 4, 3), dict(
        window_strides=(1, 1), padding="SAME", dimension_numbers=("NHCW", "HIOW", "NWHC"))),
    "2d_negative_padding": ((1, 1, 8, 8), (1, 1, 3, 3), dict(window_strides=(1, 1), padding=((-1, 0), (0, -2)))),
    "3d_ncdhw": ((1, 2, 5, 4, 4), (3, 2, 2, 3, 2), dict(
        window_strides=(1, 2, 1), padding="SAME", rhs_dilation=(2, 1, 1),
        dimension_numbers=("NCDHW", "OIDHW", "NCDHW"))),
    "3d_ndhwc": ((1, 4, 4, 3, 2), (2, 2, 2, 2, 3), dict(
        window_strides=(2, 1, 1), padding="VALID", dimension_numbers=("NDHWC", "DHWIO", "NDHWC"))),
}


def _inputs(case, dtype):
    lshape, rshape, kw = CASES[case]
    lo, hi = (-3, 3) if dtype != np.int32 else (-1, 1)
    return rand(lshape, dtype, low=lo, high=hi), rand(rshape, dtype, np.random.default_rng(1), low=lo, high=hi), kw


@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("case", list(CASES))
def test_conv_float32_matches_jax(case, jit):
    x, w, kw = _inputs(case, np.float32)
    out = call(lambda a, b: lax.conv_general_dilated(a, b, **kw), jit, put(x), put(w))
    expected = jax_oracle(lambda a, b: jlax.conv_general_dilated(a, b, **kw), x, w)
    assert_close(out, expected, np.float32, rtol=F32_TOL, atol=F32_TOL * 10)


@pytest.mark.parametrize("case,dtype", [
    ("1d_nwc_same_stride", np.int32), ("2d_nchw_explicit_pad_rhs_dilation", np.int32),
    ("1d_nwc_same_stride", BF16), ("2d_depthwise_groups", BF16), ("3d_ncdhw", BF16)])
def test_conv_other_dtypes_match_jax(case, dtype):
    x, w, kw = _inputs(case, dtype)
    for jit in (False, True):
        out = call(lambda a, b: lax.conv_general_dilated(a, b, **kw), jit, put(x), put(w))
        expected = jax_oracle(lambda a, b: jlax.conv_general_dilated(a, b, **kw), x, w)
        assert_close(out, expected, dtype, rtol=tol(dtype, 4), atol=tol(dtype, 16))


def _np_conv2d_nchw(x, w, stride, pad):
    """Direct-loop reference for a plain NCHW/OIHW convolution."""
    x = np.pad(x.astype(np.float64), ((0, 0), (0, 0), pad[0], pad[1]))
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    oh, ow = (h - kh) // stride[0] + 1, (wd - kw) // stride[1] + 1
    out = np.zeros((n, o, oh, ow))
    for i in range(oh):
        for j in range(ow):
            patch = x[:, :, i * stride[0]:i * stride[0] + kh, j * stride[1]:j * stride[1] + kw]
            out[:, :, i, j] = np.einsum("nchw,ochw->no", patch, w.astype(np.float64))
    return out


def test_conv_matches_numpy_loop():
    x, w = rand((2, 3, 6, 7), np.float32), rand((4, 3, 3, 2), np.float32, np.random.default_rng(1))
    out = lax.conv(put(x), put(w), (2, 1), ((1, 1), (0, 1))).numpy()
    assert_close(out, _np_conv2d_nchw(x, w, (2, 1), ((1, 1), (0, 1))).astype(np.float32), np.float32,
                 rtol=F32_TOL, atol=F32_TOL)


def test_conv_dimension_numbers_object_and_none():
    x, w = rand((1, 2, 5, 5), np.float32), rand((3, 2, 2, 2), np.float32)
    dn = lax.conv_dimension_numbers(x.shape, w.shape, ("NCHW", "OIHW", "NCHW"))
    assert dn == lax.ConvDimensionNumbers((0, 1, 2, 3), (0, 1, 2, 3), (0, 1, 2, 3))
    a = lax.conv_general_dilated(put(x), put(w), (1, 1), "VALID", dimension_numbers=dn).numpy()
    b = lax.conv_general_dilated(put(x), put(w), (1, 1), "VALID").numpy()
    np.testing.assert_array_equal(a, b)
    nhwc = lax.conv_dimension_numbers((1, 5, 5, 2), (2, 2, 2, 3), ("NHWC", "HWIO", "NHWC"))
    assert nhwc == lax.ConvDimensionNumbers((0, 3, 1, 2), (3, 2, 0, 1), (0, 3, 1, 2))


@pytest.mark.parametrize("in_dtype,pref", [(np.int8, np.int32), (BF16, np.float32), (np.float16, np.float32)])
def test_conv_preferred_element_type(in_dtype, pref):
    x = rand((1, 8, 5, 5), in_dtype, low=-4, high=4)
    w = rand((2, 8, 3, 3), in_dtype, np.random.default_rng(1), low=-4, high=4)
    for jit in (False, True):
        out = call(lambda a, b: lax.conv_general_dilated(a, b, (1, 1), "SAME", preferred_element_type=pref),
                   jit, put(x), put(w))
        assert out.dtype == np.dtype(pref)
        expected = jax_oracle(lambda a, b: jlax.conv_general_dilated(
            a, b, (1, 1), "SAME", preferred_element_type=pref), x, w)
        assert_close(out, expected, pref, rtol=F32_TOL, atol=F32_TOL * 10)


def test_conv_complex64():
    x, w = rand((1, 2, 4, 4), np.complex64), rand((2, 2, 2, 2), np.complex64, np.random.default_rng(1))
    out = lax.conv_general_dilated(put(x), put(w), (1, 1), "VALID").numpy()
    expected = jax_oracle(lambda a, b: jlax.conv_general_dilated(a, b, (1, 1), "VALID"), x, w)
    assert_close(out, expected, np.complex64, rtol=F32_TOL, atol=F32_TOL * 10)


def test_conv_float64(x64):
    x, w = rand((1, 2, 5, 5), np.float64), rand((3, 2, 3, 3), np.float64, np.random.default_rng(1))
    out = lax.conv(put(x), put(w), (1, 1), "VALID").numpy()
    assert out.dtype == np.float64
    assert_close(out, _np_conv2d_nchw(x, w, (1, 1), ((0, 0), (0, 0))), np.float64)


def test_conv_empty_output_and_jaxpr():
    x, w = put(np.ones((1, 1, 2, 2), np.float32)), put(np.ones((1, 1, 3, 3), np.float32))
    assert lax.conv(x, w, (1, 1), "VALID").shape == (1, 1, 0, 0)
    text = str(padax.make_jaxpr(lambda a, b: lax.conv(a, b, (1, 1), "SAME"))(x, w))
    assert "conv_general_dilated" in text and "f32[1,1,2,2]" in text and "padding=((1, 1), (1, 1))" in text


# ---- errors -------------------------------------------------------------------------------

def test_conv_errors():
    x, w = put(np.ones((1, 4, 5, 5), np.float32)), put(np.ones((2, 3, 3, 3), np.float32))
    with pytest.raises(TypeError, match=r"conv_general_dilated: lhs feature size 4 divided by feature_group_count "
                                        r"1 must equal the rhs input feature size 3 \(lhs f32\[1,4,5,5\], "
                                        r"rhs f32\[2,3,3,3\]\)"):
        lax.conv(x, w, (1, 1), "VALID")
    w4 = put(np.ones((3, 2, 3, 3), np.float32))
    with pytest.raises(TypeError, match="rhs output feature size 3 must be a multiple of feature_group_count 2"):
        lax.conv_general_dilated(x, w4, (1, 1), "VALID", feature_group_count=2)
    with pytest.raises(TypeError, match="lhs and rhs must have the same dtype"):
        lax.conv(x, put(np.ones((2, 4, 3, 3), np.int32)), (1, 1), "VALID")
    with pytest.raises(ValueError, match="must have the same rank"):
        lax.conv(x, put(np.ones((2, 4, 3), np.float32)), (1, 1), "VALID")
    w_ok = put(np.ones((2, 4, 3, 3), np.float32))
    with pytest.raises(ValueError, match=r"window_strides \(1,\) must have one entry per spatial dimension \(2\)"):
        lax.conv(x, w_ok, (1,), ((0, 0), (0, 0)))
    with pytest.raises(ValueError, match=r"window_strides \(0, 1\) must be positive"):
        lax.conv(x, w_ok, (0, 1), "VALID")
    with pytest.raises(ValueError, match="must contain 'N' and 'C' exactly once"):
        lax.conv_general_dilated(x, w_ok, (1, 1), "VALID", dimension_numbers=("NHWX", "OIHW", "NCHW"))
    with pytest.raises(ValueError, match="same spatial dimensions"):
        lax.conv_general_dilated(x, w_ok, (1, 1), "VALID", dimension_numbers=("NCHW", "OIHX", "NCHW"))
    with pytest.raises(ValueError, match="string padding is not supported with lhs_dilation"):
        lax.conv_general_dilated(x, w_ok, (1, 1), "SAME", lhs_dilation=(2, 2))
    with pytest.raises(ValueError, match="unknown padding 'FULL'"):
        lax.conv(x, w_ok, (1, 1), "FULL")
    with pytest.raises(ValueError, match="at most one of feature_group_count and batch_group_count"):
        lax.conv_general_dilated(put(np.ones((2, 4, 5, 5), np.float32)), put(np.ones((4, 2, 3, 3), np.float32)),
                                 (1, 1), "VALID", feature_group_count=2, batch_group_count=2)
    with pytest.raises(TypeError, match="preferred_element_type int32 is not compatible"):
        lax.conv(x, w_ok, (1, 1), "VALID", preferred_element_type=np.int32)


def test_conv_error_under_jit_names_user_line():
    def f(a, b):
        return lax.conv(a, b, (1, 1), "VALID")
    with pytest.raises(TypeError, match=r"conv_general_dilated: .*test_conv\.py:\d+"):
        padax.jit(f)(put(np.ones((1, 4, 5, 5), np.float32)), put(np.ones((2, 3, 3, 3), np.float32)))


@pytest.mark.parametrize("padding", ["SAME", "SAME_LOWER", "VALID", [(0, 0), (0, 0)]])
@pytest.mark.parametrize("strides,rhs_dil", [((0, 0), (1, 1)), ((1, 0), (1, 1)), ((1, 1), (0, 1))])
def test_conv_zero_stride_or_dilation_is_a_clear_error(padding, strides, rhs_dil):
    """String padding with a zero stride used to raise ZeroDivisionError from padtype_to_pads."""
    x, w = padax.ones([1, 1, 4, 4]), padax.ones([1, 1, 2, 2])
    with pytest.raises(ValueError, match=r"conv_general_dilated: .*must be positive.*test_conv.py"):
        padax.lax.conv_general_dilated(x, w, strides, padding, rhs_dilation=rhs_dil)
    with pytest.raises(ValueError, match=r"padtype_to_pads: window_strides \(0,\) must be positive"):
        padax.lax.padtype_to_pads((4,), (2,), (0,), "SAME")
