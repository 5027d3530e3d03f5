"""cumsum/cumprod/cummax/cummin against numpy's accumulate, eagerly and under jit."""
import ml_dtypes
import numpy as np
import pytest

import padax
import padax.lax as lax
from padax.functional.lax.cumulative import cumsum_p
from tests.conftest import assert_close, rand, tol

BF16 = ml_dtypes.bfloat16
_UFUNC = {"sum": np.add, "prod": np.multiply, "max": np.maximum, "min": np.minimum}


def put(x):
    """device_put that also takes bfloat16 host arrays."""
    x = np.asarray(x)
    return padax.device_put(x.astype(np.float32), dtype=BF16) if x.dtype == BF16 else padax.device_put(x)


def call(f, jit, *args):
    return (padax.jit(f)(*args) if jit else f(*args)).numpy()


def np_cum(kind, x, axis, reverse=False):
    """Sequential numpy reference: float inputs accumulate in float64, integers wrap in their dtype."""
    dt = x.dtype
    work = x.astype(np.float64) if dt.kind == "f" or dt == BF16 else x
    if dt == np.bool_:
        work = x
        uf = np.logical_or if kind == "max" else np.logical_and
    else:
        uf = _UFUNC[kind]
    if reverse:
        work = np.flip(work, axis)
    out = uf.accumulate(work, axis=axis, dtype=work.dtype)
    if reverse:
        out = np.flip(out, axis)
    return out.astype(dt)


def _tolerances(kind, dtype, x):
    if np.dtype(dtype).kind not in "fV":
        return {}
    r = tol(dtype, 4)
    # running sums can cancel: absolute error scales with the largest partial sum
    return {"rtol": r, "atol": r * 4 * (float(np.max(np.abs(x.astype(np.float64)))) if x.size else 1.0)}


@pytest.mark.parametrize("kind", ["sum", "prod", "max", "min"])
@pytest.mark.parametrize("dtype", [np.float32, BF16, np.int32, np.uint8, np.int8], ids=lambda d: np.dtype(d).name)
def test_cumulative_values(kind, dtype):
    x = rand((3, 7), dtype, low=-2, high=2)
    fn = getattr(lax, f"cum{kind}")
    for i, (axis, reverse) in enumerate([(0, False), (1, True), (-1, False), (-2, True)]):
        got = call(lambda t: fn(t, axis, reverse), i % 2 == 0, put(x))
        assert_close(got, np_cum(kind, x, axis % 2, reverse), dtype=dtype, **_tolerances(kind, dtype, x))


@pytest.mark.parametrize("n", [1, 2, 5, 33])
@pytest.mark.parametrize("reverse", [False, True])
def test_lengths_across_scan_steps(n, reverse):
    """Lengths around powers of two exercise every step of the log-depth scan."""
    xi = rand((2, n), np.int32, low=-50, high=50)
    xf = rand((n, 2), np.float32)
    for kind in ("sum", "max", "min"):
        fn = getattr(lax, f"cum{kind}")
        assert_close(call(lambda t: fn(t, 1, reverse), True, put(xi)), np_cum(kind, xi, 1, reverse))
        assert_close(call(lambda t: fn(t, 0, reverse), False, put(xf)), np_cum(kind, xf, 0, reverse),
                     **_tolerances(kind, np.float32, xf))


def test_integer_overflow_wraps():
    x = np.full((6,), 100, np.uint8)
    assert_close(lax.cumsum(put(x), 0).numpy(), np_cum("sum", x, 0))
    y = np.array([7, 11, 13, 17, 19, 23, 29], np.int32) * 1000
    assert_close(lax.cumprod(put(y), 0).numpy(), np_cum("prod", y, 0))


@pytest.mark.parametrize("jit", [False, True])
def test_nan_and_inf(jit):
    x = np.array([[1.0, np.nan, 3.0, -np.inf], [np.inf, -1.0, np.inf, 2.0]], np.float32)
    for kind in ("sum", "prod", "max", "min"):
        for reverse in (False, True):
            got = call(lambda t: getattr(lax, f"cum{kind}")(t, 1, reverse), jit, put(x))
            with np.errstate(invalid="ignore"):
                assert_close(got, np_cum(kind, x, 1, reverse))


def test_bool_cummax_cummin():
    x = np.array([[False, True, False, True], [True, True, False, False]])
    assert_close(lax.cummax(put(x), 1).numpy(), np.logical_or.accumulate(x, axis=1))
    assert_close(padax.jit(lambda t: lax.cummin(t, 1, True))(put(x)).numpy(),
                 np.flip(np.logical_and.accumulate(np.flip(x, 1), axis=1), 1))


def test_complex_cumsum_cumprod():
    x = rand((5,), np.complex64, low=-1, high=1)
    assert_close(lax.cumsum(put(x), 0).numpy(), np.cumsum(x), rtol=1e-5, atol=1e-5)
    assert_close(lax.cumprod(put(x), 0, reverse=True).numpy(), np.cumprod(x[::-1])[::-1], rtol=1e-5, atol=1e-5)


def test_float64_int64(x64):
    x = rand((4, 9), np.float64)
    assert_close(call(lambda t: lax.cumsum(t, 1), True, put(x)), np.cumsum(x, axis=1), dtype=np.float64)
    assert_close(call(lambda t: lax.cumprod(t, 0, True), False, put(x)), np_cum("prod", x, 0, True), dtype=np.float64)
    xi = rand((9,), np.int64) * (2 ** 40)
    assert_close(lax.cummax(put(xi), 0).numpy(), np.maximum.accumulate(xi), dtype=np.int64)
    assert_close(lax.cumsum(put(xi), 0).numpy(), np.cumsum(xi), dtype=np.int64)


def test_empty_and_unit_axes():
    x = np.zeros((0, 3), np.float32)
    for kind in ("sum", "prod", "max", "min"):
        fn = getattr(lax, f"cum{kind}")
        assert fn(put(x), 0).numpy().shape == (0, 3)
        assert padax.jit(lambda t: fn(t, 1, True))(put(x)).numpy().shape == (0, 3)


def test_abstract_eval_keeps_shape_dtype_and_weak_type():
    out = padax.make_jaxpr(lambda v: lax.cumsum(v, 0))(np.ones((3, 2), np.int8))
    assert out.out_avals[0].str_short() == "i8[3,2]"
    weak = padax.make_jaxpr(lambda v: lax.cummax(lax.broadcast(v, (4,)), 0))(1.0)
    assert weak.out_avals[0].weak_type


def test_errors_name_op_and_shape():
    t = put(np.ones((2, 3), np.float32))
    with pytest.raises(ValueError, match=r"cumsum.*f32\[2,3\]"):
        lax.cumsum(t, 2)
    with pytest.raises(ValueError, match=r"cummax.*f32\[2,3\]"):
        lax.cummax(t, -3)
    with pytest.raises(ValueError, match=r"cumprod.*f32\[\]"):
        lax.cumprod(put(np.float32(1)), 0)
    with pytest.raises(TypeError, match=r"cumsum.*bool\[3\]"):
        lax.cumsum(put(np.ones(3, bool)), 0)
    with pytest.raises(TypeError, match=r"cummin.*c64\[3\]"):
        lax.cummin(put(np.ones(3, np.complex64)), 0)
    with pytest.raises(ValueError, match=r"cumsum.*f32\[2,3\]"):
        padax.jit(lambda x: cumsum_p.bind(x, axis=4, reverse=False))(t)
