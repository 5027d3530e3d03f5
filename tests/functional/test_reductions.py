"""reduce_sum/prod/max/min/and/or and argmax/argmin against numpy, eagerly and under jit."""
import ml_dtypes
import numpy as np
import pytest

import padax
import padax.lax as lax
from tests.conftest import assert_close, rand, tol

BF16 = ml_dtypes.bfloat16
DTYPES = [np.bool_, np.uint8, np.uint32, np.int8, np.int32, np.float32, BF16]


def put(x):
    """device_put that also takes bfloat16 host arrays (numpy reports their kind as 'V')."""
    x = np.asarray(x)
    return padax.device_put(x.astype(np.float32), dtype=BF16) if x.dtype == BF16 else padax.device_put(x)


def call(f, jit, *args):
    out = padax.jit(f)(*args) if jit else f(*args)
    return padax.tree.map(lambda t: t.numpy(), out)


def _np_reduce(kind, x, axes):
    """numpy reference in x's dtype (integer results wrap; bool sum/prod/max/min = any/all)."""
    dt = x.dtype
    if dt == np.bool_:
        fn = {"sum": np.any, "or": np.any, "max": np.any, "prod": np.all, "and": np.all, "min": np.all}[kind]
        return fn(x, axis=axes)
    if kind == "and":
        return np.bitwise_and.reduce(x, axis=axes) if axes else x
    if kind == "or":
        return np.bitwise_or.reduce(x, axis=axes) if axes else x
    if kind in ("max", "min"):
        return (np.max if kind == "max" else np.min)(x, axis=axes)
    acc = np.float64 if dt.kind == "f" or dt == BF16 else dt
    return (np.sum if kind == "sum" else np.prod)(x.astype(acc), axis=axes, dtype=acc).astype(dt)


KINDS = ["sum", "prod", "max", "min", "and", "or"]
AXES = [(), (1,), (0, 2), (0, 1, 2)]


@pytest.mark.parametrize("kind,dtype", [(k, d) for k in KINDS for d in DTYPES
                                         if k not in ("and", "or") or np.dtype(d).kind in "biu"],
                         ids=lambda v: v if isinstance(v, str) else np.dtype(v).name)
def test_reduce_values(kind, dtype):
    x = rand((2, 3, 4), dtype, low=-1.5, high=1.5) if kind == "prod" else rand((2, 3, 4), dtype)
    fn = getattr(lax, f"reduce_{kind}")
    for i, axes in enumerate(AXES):
        got = call(lambda t: fn(t, axes), i % 2 == 1, put(x))
        assert_close(got, _np_reduce(kind, x, axes), dtype=dtype, rtol=tol(dtype, 4), atol=tol(dtype, 4))


@pytest.mark.parametrize("kind", KINDS)
def test_reduce_float64_and_int64(x64, kind):
    for dtype in ([np.int64, np.uint64] if kind in ("and", "or") else [np.float64, np.int64]):
        x = rand((3, 5), dtype, low=-1.5, high=1.5)
        got = call(lambda t: getattr(lax, f"reduce_{kind}")(t, (0, 1)), True, put(x))
        assert_close(got, _np_reduce(kind, x, (0, 1)), dtype=dtype)


_IDENTITY = {
    "sum": lambda dt: 0, "prod": lambda dt: 1, "or": lambda dt: 0,
    "and": lambda dt: True if dt == np.bool_ else ~np.zeros((), dt),
    "max": lambda dt: False if dt == np.bool_ else (-np.inf if dt.kind == "f" else np.iinfo(dt).min),
    "min": lambda dt: True if dt == np.bool_ else (np.inf if dt.kind == "f" else np.iinfo(dt).max),
}


def test_complex_sum_prod():
    x = rand((3, 4), np.complex64, low=-1, high=1)
    assert_close(lax.reduce_sum(put(x), (1,)).numpy(), x.sum(axis=1), rtol=1e-5, atol=1e-5)
    assert_close(padax.jit(lambda t: lax.reduce_prod(t, (0, 1)))(put(x)).numpy(), x.prod(), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("kind", KINDS)
def test_empty_reduction_gives_identity(kind):
    dts = [np.bool_, np.uint8, np.int32] + ([] if kind in ("and", "or") else [np.float32])
    for i, dt in enumerate(map(np.dtype, dts)):
        x = np.zeros((0, 3), dt)
        got = call(lambda t: getattr(lax, f"reduce_{kind}")(t, (0,)), i % 2 == 0, put(x))
        assert_close(got, np.full((3,), _IDENTITY[kind](dt), dt), dtype=dt)


def test_reduce_0d_and_empty_output():
    assert call(lambda t: lax.reduce_sum(t, ()), False, padax.device_put(np.float32(2.5))) == 2.5
    got = call(lambda t: lax.reduce_max(t, (1,)), True, padax.device_put(np.zeros((0, 4), np.float32)))
    assert got.shape == (0,)


@pytest.mark.parametrize("jit", [False, True])
def test_reduce_max_min_propagate_nan(jit):
    x = np.array([[1.0, np.nan, 3.0], [2.0, -1.0, np.inf]], np.float32)
    t = put(x)
    assert_close(call(lambda t: lax.reduce_max(t, (1,)), jit, t), np.max(x, axis=1))
    assert_close(call(lambda t: lax.reduce_min(t, (1,)), jit, t), np.min(x, axis=1))
    assert_close(call(lambda t: lax.reduce_sum(t, (0,)), jit, t), np.sum(x, axis=0))


def test_reduce_errors_name_op_and_shape():
    t = padax.device_put(np.ones((2, 3), np.float32))
    with pytest.raises(ValueError, match=r"reduce_sum.*f32\[2,3\]"):
        lax.reduce_sum(t, (2,))
    with pytest.raises(ValueError, match=r"reduce_max.*f32\[2,3\]"):
        lax.reduce_max(t, (1, 1))
    with pytest.raises(TypeError, match=r"reduce_and.*f32\[2,3\]"):
        lax.reduce_and(t, (0,))
    with pytest.raises(TypeError, match=r"reduce_max.*c64\[2\]"):
        lax.reduce_max(put(np.ones(2, np.complex64)), (0,))
    with pytest.raises(ValueError, match=r"reduce_prod.*f32\[2,3\]"):
        padax.jit(lambda x: lax.reduce_prod(x, (5,)))(t)


# ---- argmax / argmin ----------------------------------------------------------------

def _np_arg(kind, x, axis):
    x = x.astype(np.float64) if x.dtype == BF16 else x
    return (np.argmax if kind == "max" else np.argmin)(x, axis=axis)


@pytest.mark.parametrize("kind", ["max", "min"])
@pytest.mark.parametrize("dtype", [np.bool_, np.uint8, np.int32, np.float32, BF16], ids=lambda d: np.dtype(d).name)
def test_argmax_argmin_values(kind, dtype):
    x = rand((3, 4, 5), dtype, low=-2, high=2)
    if np.dtype(dtype).kind != "b":
        x = (x // 1).astype(dtype)  # few distinct values: plenty of ties
    fn = getattr(lax, f"arg{kind}")
    for i, axis in enumerate([0, 1, 2, -1, -3]):
        got = call(lambda t: fn(t, axis, np.int32), i % 2 == 1, put(x))
        assert_close(got, _np_arg(kind, x, axis).astype(np.int32), dtype=np.int32)


@pytest.mark.parametrize("kind", ["max", "min"])
@pytest.mark.parametrize("jit", [False, True])
def test_argmax_argmin_nan_ties_inf(kind, jit):
    x = np.array([[1.0, np.nan, 3.0, np.nan],    # first NaN wins for both
                  [-np.inf, -np.inf, -np.inf, -np.inf],  # all equal to the identity -> 0
                  [np.inf, np.inf, -np.inf, -np.inf],
                  [0.0, -0.0, 0.0, 2.0],
                  [5.0, -1.0, 5.0, -1.0]], np.float32)
    fn = getattr(lax, f"arg{kind}")
    got = call(lambda t: fn(t, 1, np.int32), jit, put(x))
    assert_close(got, _np_arg(kind, x, 1).astype(np.int32))
    got = call(lambda t: fn(t, 0, np.uint8), jit, put(x.T.copy()))
    assert_close(got, _np_arg(kind, x.T, 0).astype(np.uint8))


def test_argmax_int_extremes_and_uint8_index():
    x = np.array([[np.iinfo(np.int32).min] * 3, [7, np.iinfo(np.int32).max, np.iinfo(np.int32).max]], np.int32)
    t = put(x)
    assert_close(lax.argmax(t, 1, np.uint8).numpy(), np.array([0, 1], np.uint8))
    assert_close(lax.argmin(t, 1, np.int32).numpy(), np.array([0, 0], np.int32))


def test_argmax_float64_int64_index(x64):
    x = rand((4, 6), np.float64)
    x[2, 3] = np.nan
    got = call(lambda t: lax.argmax(t, -1, np.int64), True, put(x))
    assert_close(got, np.argmax(x, axis=-1).astype(np.int64), dtype=np.int64)
    got = call(lambda t: lax.argmin(t, 0, np.int64), False, put(x))
    assert_close(got, np.argmin(x, axis=0).astype(np.int64), dtype=np.int64)


def test_argmax_index_dtype_canonicalised_without_x64():
    with padax.enable_x64(False):
        got = lax.argmax(padax.device_put(np.arange(4, dtype=np.float32)), 0, np.int64)
        assert got.dtype == np.int32 and got.numpy() == 3


def test_argmax_errors():
    t = padax.device_put(np.ones((2, 3), np.float32))
    with pytest.raises(ValueError, match=r"argmax.*f32\[2,3\]"):
        lax.argmax(t, 2, np.int32)
    with pytest.raises(ValueError, match=r"argmin.*f32\[2,3\]"):
        lax.argmin(t, -3, np.int32)
    with pytest.raises(ValueError, match=r"argmax.*f32\[0,3\] is empty"):
        lax.argmax(padax.device_put(np.ones((0, 3), np.float32)), 0, np.int32)
    with pytest.raises(TypeError, match=r"argmax.*index_dtype"):
        lax.argmax(t, 0, np.float32)
    with pytest.raises(ValueError, match=r"argmax.*uint8.*f32\[300\]"):
        lax.argmax(padax.device_put(np.ones(300, np.float32)), 0, np.uint8)
    with pytest.raises(TypeError, match=r"argmin.*c64\[2\]"):
        lax.argmin(padax.device_put(np.ones(2, np.complex64)), 0, np.int32)


@pytest.mark.parametrize("dtype", [ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2], ids=lambda d: np.dtype(d).name)
def test_float8_max_min_use_finite_identity_without_inf(dtype):
    """float8_e4m3fn has no infinity: its max/min identity must not turn into NaN."""
    x = rand((3, 4), np.float32).astype(dtype)
    t = padax.device_put(x.astype(np.float32), dtype=dtype)
    xf = x.astype(np.float32)
    assert_close(lax.reduce_max(t, (1,)).numpy(), xf.max(axis=1).astype(dtype), dtype=dtype)
    assert_close(lax.reduce_min(t, (0,)).numpy(), xf.min(axis=0).astype(dtype), dtype=dtype)
    assert_close(lax.argmax(t, 1, np.int32).numpy(), np.argmax(xf, axis=1).astype(np.int32))
    assert_close(lax.argmin(t, 0, np.int32).numpy(), np.argmin(xf, axis=0).astype(np.int32))
