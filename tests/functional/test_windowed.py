"""reduce_window_sum/max/min against a loop-based numpy reference (padding, strides, dilation)."""
import ml_dtypes
import numpy as np
import pytest

import padax
import padax.lax as lax
from tests.conftest import assert_close, rand, tol

BF16 = ml_dtypes.bfloat16


def put(x):
    """device_put that also takes bfloat16 host arrays."""
    x = np.asarray(x)
    return padax.device_put(x.astype(np.float32), dtype=BF16) if x.dtype == BF16 else padax.device_put(x)


def _identity(kind, dt):
    if kind == "sum":
        return 0
    if dt == np.bool_:
        return kind == "min"
    if dt.kind == "f" or dt == BF16:
        return -np.inf if kind == "max" else np.inf
    return np.iinfo(dt).min if kind == "max" else np.iinfo(dt).max


def np_reduce_window(x, kind, wdims, strides, pads, bdil, wdil):
    """Dilate the base with the identity, pad (negative pads crop), then reduce each window."""
    dt = x.dtype
    init = _identity(kind, dt)
    base = np.full([(d - 1) * b + 1 if d else 0 for d, b in zip(x.shape, bdil)], init, dt)
    base[tuple(slice(None, None, b) for b in bdil)] = x
    padded = np.pad(base, [(max(lo, 0), max(hi, 0)) for lo, hi in pads], constant_values=init) if x.ndim else base
    padded = padded[tuple(slice(max(-lo, 0), n - max(-hi, 0)) for (lo, hi), n in zip(pads, padded.shape))]
    eff = [(w - 1) * d + 1 for w, d in zip(wdims, wdil)]
    out_shape = [0 if n < e else (n - e) // s + 1 for n, e, s in zip(padded.shape, eff, strides)]
    out = np.empty(out_shape, dt)
    for idx in np.ndindex(*out_shape):
        win = padded[tuple(slice(i * s, i * s + e, d) for i, s, e, d in zip(idx, strides, eff, wdil))]
        if dt == np.bool_:
            out[idx] = win.any() if kind in ("sum", "max") else win.all()
        elif kind == "sum":
            acc = np.float64 if dt.kind == "f" or dt == BF16 else dt
            out[idx] = win.astype(acc).sum(dtype=acc).astype(dt)
        else:
            out[idx] = win.max() if kind == "max" else win.min()
    return out


# (shape, window_dimensions, window_strides, padding, base_dilation, window_dilation)
CONFIGS = {
    "plain": ((5,), (2,), (1,), ((0, 0),), (1,), (1,)),
    "stride_pad": ((7,), (3,), (2,), ((1, 2),), (1,), (1,)),
    "dilations": ((4, 5), (2, 3), (1, 2), ((1, 0), (2, 1)), (2, 1), (1, 2)),
    "negative_pad": ((3, 4), (2, 2), (1, 1), ((0, 0), (1, -1)), (1, 1), (1, 1)),
    "window_too_big": ((3,), (5,), (1,), ((0, 0),), (1,), (1,)),
    "empty_operand": ((0, 4), (1, 2), (1, 1), ((0, 0), (0, 0)), (1, 1), (1, 1)),
    "scalar": ((), (), (), (), (), ()),
    "3d_mixed": ((3, 4, 5), (2, 1, 3), (2, 1, 1), ((0, 1), (0, 0), (1, 1)), (1, 2, 1), (1, 1, 2)),
}


def _run(kind, x, cfg, jit):
    _, wdims, strides, pads, bdil, wdil = cfg
    fn = getattr(lax, f"reduce_window_{kind}")
    f = lambda t: fn(t, wdims, strides, pads, bdil, wdil)  # noqa: E731
    return (padax.jit(f) if jit else f)(put(x)).numpy()


@pytest.mark.parametrize("kind", ["sum", "max", "min"])
@pytest.mark.parametrize("name", list(CONFIGS))
def test_configs(name, kind):
    cfg = CONFIGS[name]
    x = rand(cfg[0], np.float32)
    want = np_reduce_window(x, kind, *cfg[1:])
    for jit in (False, True):
        assert_close(_run(kind, x, cfg, jit), want)


@pytest.mark.parametrize("kind", ["sum", "max", "min"])
@pytest.mark.parametrize("dtype", [np.bool_, np.uint8, np.int32, np.int8, BF16], ids=lambda d: np.dtype(d).name)
def test_dtypes(dtype, kind):
    for i, name in enumerate(["dilations", "3d_mixed"]):
        cfg = CONFIGS[name]
        x = rand(cfg[0], dtype)
        assert_close(_run(kind, x, cfg, i == 1), np_reduce_window(x, kind, *cfg[1:]), dtype=dtype,
                     rtol=tol(dtype, 2), atol=tol(dtype, 8))


def test_float64(x64):
    cfg = CONFIGS["dilations"]
    x = rand(cfg[0], np.float64)
    for kind in ("sum", "max"):
        assert_close(_run(kind, x, cfg, True), np_reduce_window(x, kind, *cfg[1:]), dtype=np.float64)


@pytest.mark.parametrize("jit", [False, True])
def test_max_pool_2x2_stride2_nchw(jit):
    x = rand((2, 3, 4, 6), np.float32)
    f = lambda t: lax.reduce_window_max(t, (1, 1, 2, 2), (1, 1, 2, 2))  # noqa: E731
    got = (padax.jit(f) if jit else f)(put(x)).numpy()
    want = x.reshape(2, 3, 2, 2, 3, 2).max(axis=(3, 5))
    assert_close(got, want)
    avg = lax.reduce_window_sum(put(x), (1, 1, 2, 2), (1, 1, 2, 2)).numpy() / 4
    assert_close(avg, x.reshape(2, 3, 2, 2, 3, 2).mean(axis=(3, 5)))


def test_nan_propagates_in_max_and_sum():
    x = np.array([1.0, np.nan, 3.0, 4.0, -np.inf], np.float32)
    for kind in ("sum", "max", "min"):
        cfg = ((5,), (2,), (1,), ((1, 1),), (1,), (1,))
        assert_close(_run(kind, x, cfg, False), np_reduce_window(x, kind, *cfg[1:]))


@pytest.mark.parametrize("padding", ["SAME", "VALID", "same"])
def test_string_padding_matches_jax_oracle(padding):
    jax_lax = pytest.importorskip("jax.lax")
    x = rand((7, 6), np.float32)
    wdims, strides = (3, 2), (2, 4)
    want_pads = tuple(tuple(p) for p in jax_lax.padtype_to_pads(x.shape, wdims, strides, padding.upper()))
    got = lax.reduce_window_max(put(x), wdims, strides, padding).numpy()
    assert_close(got, np_reduce_window(x, "max", wdims, strides, want_pads, (1, 1), (1, 1)))
    jaxpr = padax.make_jaxpr(lambda t: lax.reduce_window_sum(t, wdims, strides, padding))(x)
    assert f"padding={want_pads}" in str(jaxpr)


def test_same_padding_with_dilation_keeps_ceil_shape():
    x = rand((5, 6), np.float32)
    out = lax.reduce_window_sum(put(x), (3, 2), (1, 2), "SAME", (2, 1), (1, 2))
    assert out.shape == (9, 3)


def test_errors_name_op_and_shape():
    t = put(np.ones((2, 3), np.float32))
    with pytest.raises(ValueError, match=r"reduce_window_sum.*window_dimensions.*f32\[2,3\]"):
        lax.reduce_window_sum(t, (2,), (1, 1), ((0, 0), (0, 0)))
    with pytest.raises(ValueError, match=r"reduce_window_max.*window_strides.*f32\[2,3\]"):
        lax.reduce_window_max(t, (1, 1), (0, 1), ((0, 0), (0, 0)))
    with pytest.raises(ValueError, match=r"reduce_window_min.*padding.*f32\[2,3\]"):
        lax.reduce_window_min(t, (1, 1), (1, 1), ((0, 0), (0, -5)))
    with pytest.raises(ValueError, match=r"reduce_window_sum.*f32\[2,3\]"):
        lax.reduce_window_sum(t, (1, 1), (1, 1), "VALID", (1,))
    with pytest.raises(TypeError, match=r"reduce_window_max.*c64\[2\]"):
        lax.reduce_window_max(put(np.ones(2, np.complex64)), (1,), (1,))
    with pytest.raises(ValueError, match="padding must be"):
        lax.reduce_window_sum(t, (1, 1), (1, 1), "FULL")


@pytest.mark.parametrize("padding", ["SAME", "VALID"])
@pytest.mark.parametrize("name", ["reduce_window_sum", "reduce_window_max", "reduce_window_min"])
def test_reduce_window_zero_stride_is_a_clear_error(name, padding):
    """'SAME' with a zero stride used to raise ZeroDivisionError from padtype_to_pads."""
    with pytest.raises(ValueError, match=rf"{name}: .*window_strides \(0, 1\).*must be positive.*f32\[4,4\]"):
        getattr(padax.lax, name)(padax.ones([4, 4]), (2, 2), (0, 1), padding)
