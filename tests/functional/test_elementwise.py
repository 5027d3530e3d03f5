"""Elementwise primitives against numpy/scipy over a dtype matrix, eagerly and under jit.

Also: the edge semantics padax takes from XLA (NaN/inf, signed zero, integer
division, shifts by the bit width), result dtypes and weak types, and the
errors for mismatched or wrongly-kinded operands.
"""
import contextlib
import os
import re
import zlib

import ml_dtypes
import numpy as np
import pytest
import scipy.special as sp

import padax
import padax.lax as lax
from padax.core.abstract import ShapedArray
from padax.functional.lax import elementwise as E
from tests.conftest import FLOAT_DTYPES, INT_DTYPES, assert_close, rand, tol

BF16 = np.dtype(ml_dtypes.bfloat16)
F16, F32, F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)
C64, C128 = np.dtype(np.complex64), np.dtype(np.complex128)
SIGNED = [np.int8, np.int16, np.int32]
UNSIGNED = [np.uint8, np.uint16, np.uint32]
N = 9  # elements per random operand


# ---- helpers ---------------------------------------------------------------------------

def put(x):
    """A host array as a Tensor (bfloat16 goes through float32 because device_put rejects
    numpy's 'V' kind that ml_dtypes uses; the conversion is exact)."""
    x = np.asarray(x)
    if x.dtype == BF16:
        return lax.convert_element_type(padax.device_put(x.astype(np.float32)), BF16)
    return padax.device_put(x)


_FN = {"not": lax.bitwise_not, "and": lax.bitwise_and, "or": lax.bitwise_or,
       "xor": lax.bitwise_xor, "round": lambda x: lax.round(x, 0)}


def fn_of(name):
    """The lax wrapper of primitive `name`."""
    return _FN.get(name) or getattr(lax, name)


def widen(x):
    """A host input as the reference sees it: floats in float64, complex in complex128, ints as is."""
    if x.dtype.kind == "c":
        return x.astype(np.complex128)
    if x.dtype.kind in "biu":
        return x
    return x.astype(np.float64)


def real_of(dt):
    return F64 if np.dtype(dt) == C128 else F32


def result_dtype(in_dt, ref_out):
    """The dtype padax should return, read off the reference result's kind."""
    in_dt = np.dtype(in_dt)
    if ref_out.dtype == np.bool_:
        return np.dtype(np.bool_)
    if in_dt.kind == "c" and ref_out.dtype.kind == "f":
        return real_of(in_dt)
    if in_dt.kind != "c" and ref_out.dtype.kind == "c":
        return C128 if in_dt == F64 else C64
    return in_dt


def x64_if(dtype):
    """Enable 64-bit types for a 64-bit dtype (a no-op context otherwise)."""
    return padax.enable_x64(True) if np.dtype(dtype) in (F64, C128) else contextlib.nullcontext()


def check(fn, ref, cases, native=False, eager=True):
    """Compare `fn` with `ref` (of the widened inputs, or the raw ones if `native`) on every case
    at the output dtype's tolerance. All cases run in one jit (one XLA compile); with `eager`,
    one case, picked per test id so the dtypes take turns, also runs eagerly (each eager op is
    a compile of its own, and compiles dominate this file's run time)."""
    jitted = padax.jit(lambda groups: [fn(*g) for g in groups])([tuple(map(put, a)) for a in cases])
    runs = [("jit", args, out) for args, out in zip(cases, jitted)]
    if eager:
        k = zlib.crc32(os.environ.get("PYTEST_CURRENT_TEST", "").encode()) % len(cases)
        runs.append(("eager", cases[k], fn(*map(put, cases[k]))))
    for mode, args, out in runs:
        expect = np.asarray(ref(*(args if native else map(widen, args))))
        dt = result_dtype(args[0].dtype, expect)
        r = tol(dt)
        try:
            assert out.aval.shape == np.shape(expect) and out.aval.dtype == dt, out.aval
            assert_close(np.asarray(out), expect, dtype=dt, rtol=r, atol=r)
        except AssertionError as err:
            where = ", ".join(f"{a.dtype.name}{list(a.shape)}" for a in args)
            raise AssertionError(f"{mode} on {where}: {err}") from None


def modes(dtype=F32):
    """Ways to call a function: eagerly and jitted for float32, only jitted otherwise
    (the eager path lowers the same rules; this keeps the number of XLA compiles down)."""
    return (lambda g: g, padax.jit) if np.dtype(dtype) == F32 else (padax.jit,)


def equal(actual, expected):
    """Exact equality, NaNs equal, compared as float64/complex128 (numpy cannot see bfloat16 NaNs)."""
    a, e = np.asarray(actual), np.asarray(expected)
    wide = np.complex128 if a.dtype.kind == "c" else np.float64
    np.testing.assert_array_equal(a.astype(wide), e.astype(wide))


def ints_full_range(dt, rng, shape=(N,)):
    info = np.iinfo(dt)
    return rng.integers(info.min, info.max, size=shape, endpoint=True, dtype=np.int64).astype(dt)


def rand_nonzero(shape, dt, rng, lo, hi):
    """Random values with magnitudes in [lo, hi) and random signs."""
    mag = rand(shape, dt, rng, lo, hi)
    return np.where(rng.random(shape) < 0.5, -mag, mag).astype(dt)


def share(x, y, rng, frac=0.35):
    """y with about `frac` of its elements replaced by x's (so ties and equalities occur)."""
    return np.where(rng.random(y.shape) < frac, x, y).astype(y.dtype)


# ---- unary, floating and complex -------------------------------------------------------

def _round_afz(x):
    t = np.trunc(x)
    return np.where(np.abs(x - t) == 0.5, t + np.sign(x), np.round(x))


# name: (float64/complex128 reference, real domain (lo, hi), accepts complex, extra real points)
UNARY = {
    "neg": (np.negative, (-3, 3), True, ()),
    "sign": (np.sign, (-3, 3), True, ()),
    "abs": (np.abs, (-3, 3), True, ()),
    "floor": (np.floor, (-3, 3), False, (-1.0, 2.0)),
    "ceil": (np.ceil, (-3, 3), False, (-1.0, 2.0)),
    "round": (_round_afz, (-3, 3), False, (-1.5, 0.5, 2.5)),
    "is_finite": (np.isfinite, (-3, 3), False, (np.inf, -np.inf, np.nan)),
    "exp": (np.exp, (-5, 5), True, ()),
    "exp2": (np.exp2, (-10, 10), True, (-3.0, 0.0, 7.0)),
    "log": (np.log, (0.05, 5), True, ()),
    "expm1": (np.expm1, (-3, 3), True, (1e-3,)),
    "log1p": (np.log1p, (-0.9, 3), True, (1e-3,)),
    "tanh": (np.tanh, (-3, 3), True, ()),
    "logistic": (lambda x: 1 / (1 + np.exp(-x)), (-8, 8), True, ()),
    "sin": (np.sin, (-3, 3), True, ()),
    "cos": (np.cos, (-3, 3), True, ()),
    "tan": (np.tan, (-1.4, 1.4), True, ()),
    "asin": (np.arcsin, (-0.99, 0.99), True, (1.0, -1.0)),
    "acos": (np.arccos, (-0.99, 0.99), True, (1.0, -1.0)),
    "atan": (np.arctan, (-3, 3), True, ()),
    "sinh": (np.sinh, (-3, 3), True, ()),
    "cosh": (np.cosh, (-3, 3), True, ()),
    "asinh": (np.arcsinh, (-3, 3), True, ()),
    "acosh": (np.arccosh, (1, 5), True, (1.0,)),
    "atanh": (np.arctanh, (-0.95, 0.95), True, ()),
    "sqrt": (np.sqrt, (0, 5), True, (0.0, 4.0)),
    "rsqrt": (lambda x: 1 / np.sqrt(x), (0.05, 5), True, (4.0,)),
    "cbrt": (np.cbrt, (-3, 3), False, (-8.0, 0.0, 27.0)),
    "erf": (sp.erf, (-3, 3), False, ()),
    "erfc": (sp.erfc, (-3, 3), False, ()),
    "erf_inv": (sp.erfinv, (-0.99, 0.99), False, (0.0, 0.5, -0.999)),
    "lgamma": (sp.gammaln, (0.05, 8), False, (-2.5, -0.5, 1.0, 2.0, 3.5)),
    "digamma": (sp.digamma, (0.05, 8), False, (-2.5, -0.5, 1.0, 1.4616321)),
    "square": (np.square, (-3, 3), True, ()),
}


def _real_operand(name, dt, rng, shape=(N,)):
    _, (lo, hi), _, points = UNARY[name]
    x = rand(shape, dt, rng, lo, hi)
    if points and shape == (N,):
        x = np.concatenate([x, np.asarray(points, np.float64).astype(dt)])
    return np.asarray(x, dt)


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary(name):
    ref, _, accepts_complex, _ = UNARY[name]
    rng = np.random.default_rng(0)
    cases = [(_real_operand(name, dt, rng),) for dt in FLOAT_DTYPES]
    cases += [(_real_operand(name, F32, rng, ()),), (np.zeros((0,), F32),)]  # 0-d and empty
    if accepts_complex:
        cases += [(rand((N,), C64, rng, -1.5, 1.5),), (np.asarray(0.5 - 0.25j, C64),)]
    check(fn_of(name), ref, cases)
    with padax.enable_x64(True):
        # complex128 only where cheap to compile (real/imag/conj/abs/sign tests, binary ops)
        check(fn_of(name), ref, [(_real_operand(name, F64, rng),)], eager=False)


@pytest.mark.parametrize("name", ["real", "imag", "conj"])
def test_complex_parts(name, x64):
    ref = {"real": np.real, "imag": np.imag, "conj": np.conj}[name]
    rng = np.random.default_rng(3)
    cases = [(rand((N,), C64, rng),), (rand((2, 3), C128, rng),), (np.asarray(1 - 2j, C64),),
             (np.zeros((0,), C64),)]
    check(fn_of(name), ref, cases)


# ---- unary, integer and bool -----------------------------------------------------------

def _bits(dt):
    return np.dtype(dt).itemsize * 8


def _unsigned_view(x):
    return x.view(np.dtype(f"u{x.dtype.itemsize}"))


def _popcount(x):
    return np.bitwise_count(_unsigned_view(x)).astype(x.dtype)


def _clz(x):
    u = _unsigned_view(x).astype(np.uint64)
    lengths = np.array([int(v).bit_length() for v in u.ravel()], np.int64).reshape(x.shape)
    return (_bits(x.dtype) - lengths).astype(x.dtype)


INT_UNARY = {  # name: (numpy reference in the operand's own dtype, also on bool)
    "neg": (np.negative, False),
    "sign": (np.sign, False),
    "abs": (np.abs, False),
    "square": (np.square, False),
    "not": (np.invert, True),
    "population_count": (_popcount, False),
    "clz": (_clz, False),
}


@pytest.mark.parametrize("name", sorted(INT_UNARY))
def test_unary_int(name):
    ref, on_bool = INT_UNARY[name]
    rng = np.random.default_rng(4)
    cases = [(ints_full_range(dt, rng),) for dt in INT_DTYPES]
    cases += [(np.asarray(-5, np.int32),), (np.zeros((0,), np.uint8),)]
    if on_bool:
        cases.append((np.array([True, False, True]),))
    check(fn_of(name), ref, cases, native=True)


@pytest.mark.parametrize("y", [0, 1, 2, 3, 5, -1, -2])
def test_integer_pow(y):
    rng = np.random.default_rng(5)
    cases = [(rand_nonzero((N,), dt, rng, 0.5, 3),) for dt in FLOAT_DTYPES + [C64]]
    if y >= 0:  # integers wrap on overflow, as numpy does
        cases += [(rand((N,), dt, rng),) for dt in (np.int8, np.int32, np.uint8, np.uint32)]
        cases.append((np.array([0, 1, -1, 2], np.int16),))

    def ref(x):
        return np.power(x, y) if x.dtype.kind in "iu" else x ** y
    check(lambda x: lax.integer_pow(x, y), ref, cases)


def test_integer_pow_edges(x64):
    # x ** 0 is 1 everywhere, 0 ** 0 included
    for dt in (F32, F64, np.int32, np.uint8, C64):
        out = lax.integer_pow(put(np.array([0, 2, 3], dt)), 0)
        assert out.dtype == dt and out.numpy().tolist() == [1, 1, 1]
    got = lax.integer_pow(put(np.array([0.0, -2.0, 0.5], F32)), -1).numpy()
    np.testing.assert_array_equal(got, np.array([np.inf, -0.5, 2.0], F32))
    with pytest.raises(TypeError, match=r"integer_pow.*i32\[3\].*-1.*test_elementwise\.py"):
        lax.integer_pow(put(np.array([1, 2, 3], np.int32)), -1)
    with pytest.raises(TypeError, match="integer_pow"):
        lax.integer_pow(put(np.array([1, 2], np.uint8)), -3)


# ---- binary ---------------------------------------------------------------------------

# name: (reference, x domain, y domain, y nonzero, accepts complex, native-dtype reference)
BINARY = {
    "add": (np.add, (-3, 3), (-3, 3), False, True, False),
    "sub": (np.subtract, (-3, 3), (-3, 3), False, True, False),
    "mul": (np.multiply, (-3, 3), (-3, 3), False, True, False),
    "div": (np.divide, (-3, 3), (0.5, 3), True, True, False),
    "rem": (np.fmod, (-5, 5), (0.5, 3), True, False, False),
    "pow": (np.power, (0.1, 3), (-2, 2), False, True, False),
    "max": (np.maximum, (-3, 3), (-3, 3), False, True, False),
    "min": (np.minimum, (-3, 3), (-3, 3), False, True, False),
    "atan2": (np.arctan2, (-3, 3), (-3, 3), False, False, False),
    "nextafter": (np.nextafter, (-3, 3), (-3, 3), False, False, True),
    "complex": (lambda x, y: x + 1j * y, (-3, 3), (-3, 3), False, False, False),
    "eq": (np.equal, (-3, 3), (-3, 3), False, True, False),
    "ne": (np.not_equal, (-3, 3), (-3, 3), False, True, False),
    "lt": (np.less, (-3, 3), (-3, 3), False, True, False),
    "le": (np.less_equal, (-3, 3), (-3, 3), False, True, False),
    "gt": (np.greater, (-3, 3), (-3, 3), False, True, False),
    "ge": (np.greater_equal, (-3, 3), (-3, 3), False, True, False),
}


def _binary_operands(name, dt, rng, shape=(N,)):
    _, (xl, xh), (yl, yh), nonzero, _, _ = BINARY[name]
    x = rand(shape, dt, rng, xl, xh)
    y = rand_nonzero(shape, dt, rng, yl, yh) if nonzero else rand(shape, dt, rng, yl, yh)
    if np.dtype(dt).kind == "c":
        if name == "div":
            y = rand(shape, dt, rng, 0.5, 3)
        # equal real parts with different imaginary parts exercise the lexicographic order
        y = np.where(rng.random(shape) < 0.3, x.real + 1j * y.imag, y).astype(dt)
    return x, share(x, y, rng)


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary(name):
    ref, _, _, _, accepts_complex, native = BINARY[name]
    rng = np.random.default_rng(6)
    cases = [_binary_operands(name, dt, rng) for dt in FLOAT_DTYPES]
    cases += [_binary_operands(name, F32, rng, ()), _binary_operands(name, F32, rng, (0,))]
    if accepts_complex:
        cases += [_binary_operands(name, C64, rng, (2 * N,)), _binary_operands(name, C64, rng, ())]
    check(fn_of(name), ref, cases, native=native)
    with padax.enable_x64(True):
        cases = [_binary_operands(name, F64, rng)]
        if accepts_complex:
            cases.append(_binary_operands(name, C128, rng))
        check(fn_of(name), ref, cases, native=native, eager=False)


def _trunc_div(x, y):
    if x.dtype.kind == "u":
        return x // y
    a, b = x.astype(np.int64), y.astype(np.int64)
    return (np.sign(a) * np.sign(b) * (np.abs(a) // np.abs(b))).astype(x.dtype)


def _shift_left(x, s):
    return (_unsigned_view(x) << _unsigned_view(s)).view(x.dtype)


def _shift_right_logical(x, s):
    return (_unsigned_view(x) >> _unsigned_view(s)).view(x.dtype)


def _shift_right_arithmetic(x, s):
    signed = np.dtype(f"i{x.dtype.itemsize}")
    return (x.view(signed) >> s.astype(signed)).view(x.dtype)


INT_BINARY = {  # name: (reference in the operands' dtype, also on bool, operand kind)
    "add": (np.add, np.logical_or, "any"),
    "sub": (np.subtract, None, "any"),
    "mul": (np.multiply, np.logical_and, "any"),
    "div": (_trunc_div, None, "nonzero"),
    "rem": (np.fmod, None, "nonzero"),
    "max": (np.maximum, np.logical_or, "any"),
    "min": (np.minimum, np.logical_and, "any"),
    "and": (np.bitwise_and, np.logical_and, "any"),
    "or": (np.bitwise_or, np.logical_or, "any"),
    "xor": (np.bitwise_xor, np.logical_xor, "any"),
    "shift_left": (_shift_left, None, "shift"),
    "shift_right_arithmetic": (_shift_right_arithmetic, None, "shift"),
    "shift_right_logical": (_shift_right_logical, None, "shift"),
    "eq": (np.equal, np.equal, "any"),
    "ne": (np.not_equal, np.not_equal, "any"),
    "lt": (np.less, np.less, "any"),
    "le": (np.less_equal, np.less_equal, "any"),
    "gt": (np.greater, np.greater, "any"),
    "ge": (np.greater_equal, np.greater_equal, "any"),
}


def _int_operands(kind, dt, rng, shape=(N,)):
    x = ints_full_range(dt, rng, shape)
    if kind == "shift":
        y = rng.integers(0, _bits(dt), size=shape).astype(dt)
    else:
        y = ints_full_range(dt, rng, shape)
        if kind == "nonzero":
            y = np.where(y == 0, 1, y).astype(dt)
            small = rand(shape, dt, rng)  # small divisors give non-trivial quotients
            y = np.where(rng.random(shape) < 0.5, np.where(small == 0, 3, small), y).astype(dt)
            if np.dtype(dt).kind == "i":  # MIN / -1 overflows: covered in test_integer_division_edges
                x = np.where((x == np.iinfo(dt).min) & (y == -1), 0, x).astype(dt)
        y = share(x, y, rng)
    return x, y


@pytest.mark.parametrize("name", sorted(INT_BINARY))
def test_binary_int_and_bool(name):
    ref, bool_ref, kind = INT_BINARY[name]
    rng = np.random.default_rng(9)
    cases = [_int_operands(kind, dt, rng) for dt in INT_DTYPES]
    cases += [_int_operands(kind, np.dtype(np.int32), rng, ()), _int_operands(kind, np.uint8, rng, (0,))]
    if bool_ref is not None:
        cases += [(np.array([True, True, False, False]), np.array([True, False, True, False])),
                  (np.asarray(True), np.asarray(False))]

    def reference(x, y):
        return (bool_ref if x.dtype == np.bool_ else ref)(x, y)
    check(fn_of(name), reference, cases, native=True)


# ---- edge semantics --------------------------------------------------------------------

SPECIAL_DTYPES = FLOAT_DTYPES + [np.float64]


def _ids(dtype):
    return np.dtype(dtype).name


def _specials(x, y):
    return {"max": lax.max(x, y), "min": lax.min(x, y), "is_finite": lax.is_finite(x),
            "sign": lax.sign(x), "eq": lax.eq(x, x), "ne": lax.ne(x, x), "lt": lax.lt(x, y)}


@pytest.mark.parametrize("dtype", SPECIAL_DTYPES, ids=_ids)
def test_nan_inf_and_signed_zero(dtype):
    nan, inf = np.nan, np.inf
    x = np.array([nan, 1.0, nan, inf, -inf, -0.0, 0.0, 2.0, -inf], dtype)
    y = np.array([1.0, nan, nan, 1.0, 1.0, 1.0, 1.0, inf, nan], dtype)
    wx, wy = widen(x), widen(y)
    with x64_if(dtype):
        for f in modes(dtype):
            out = f(_specials)(put(x), put(y))
            # max/min propagate NaN (XLA's semantics; numpy's maximum/minimum agree)
            equal(out["max"], np.maximum(wx, wy))
            equal(out["min"], np.minimum(wx, wy))
            equal(out["is_finite"], np.isfinite(wx))
            # sign keeps NaN and the sign of zero: sign(-0.0) is -0.0 (numpy gives +0.0)
            equal(out["sign"], np.sign(wx))
            equal(np.signbit(out["sign"].numpy()), np.signbit(wx) & ~np.isnan(wx))
            # comparisons with NaN are false, except ne
            equal(out["eq"], ~np.isnan(wx))
            equal(out["ne"], np.isnan(wx))
            equal(out["lt"], wx < wy)


@pytest.mark.parametrize("dtype", SPECIAL_DTYPES, ids=_ids)
def test_nextafter_edges(dtype):
    nan, inf = np.nan, np.inf
    x = np.array([0.0, -0.0, 1.0, 1.0, nan, 1.0, inf, -inf, 0.0], dtype)
    y = np.array([1.0, -1.0, 0.0, 1.0, 1.0, nan, 0.0, 0.0, -0.0], dtype)
    info = ml_dtypes.finfo(dtype)
    tiny, big = float(info.smallest_subnormal), float(info.max)
    with x64_if(dtype):
        for f in modes(dtype):
            got = f(lax.nextafter)(put(x), put(y)).numpy()
            equal(got, [tiny, -tiny, 1 - float(info.epsneg), 1.0, nan, nan, big, -big, -0.0])
            assert np.signbit(got[-1])  # nextafter(x, y) is y when x == y (C semantics)


@pytest.mark.parametrize("dtype", SPECIAL_DTYPES, ids=_ids)
def test_round_halves(dtype):
    x = np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49, -0.2, 3.0], dtype)
    with x64_if(dtype):
        for f in modes(dtype):
            out = f(lambda t: (lax.round(t, 0), lax.round(t, 1)))(put(x))
            afz, even = (o.numpy() for o in out)
            assert afz.dtype == even.dtype == np.dtype(dtype)
            equal(afz, [1, 2, 3, -1, -2, -3, 0, -0.0, 3])   # half away from zero
            equal(even, [0, 2, 2, -0.0, -2, -2, 0, -0.0, 3])  # half to even
            equal(np.signbit(afz), x < 0)


@pytest.mark.parametrize("dtype", SIGNED)
def test_integer_division_truncates(dtype):
    info = np.iinfo(dtype)
    x = np.array([7, -7, 7, -7, 6, -6, 0, 1, info.max, info.min], dtype)
    y = np.array([2, 2, -2, -2, 3, -3, 5, 9, 2, 3], dtype)
    for f in modes(F32 if dtype == np.int32 else dtype):
        q, r = (o.numpy() for o in f(lambda a, b: (lax.div(a, b), lax.rem(a, b)))(put(x), put(y)))
        # C-style: the quotient truncates toward zero, the remainder has the sign of x
        equal(q[:6], [3, -3, -3, 3, 2, 2])
        equal(q, _trunc_div(x, y))
        equal(r, np.fmod(x, y))
        equal(q * y + r, x)


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.uint8, np.uint32], ids=_ids)
def test_integer_division_edges(dtype):
    # XLA defines what C leaves undefined: x / 0 is -1 (all bits set), x % 0 is x,
    # MIN / -1 wraps to MIN and MIN % -1 is 0
    info = np.iinfo(dtype)
    x = np.array([5, 0, info.max, info.min, info.min], dtype)
    y = np.array([0, 0, 0, -1 if info.min else 0, 0], dtype)
    for f in modes(F32 if dtype == np.int32 else dtype):
        q, r = (o.numpy() for o in f(lambda a, b: (lax.div(a, b), lax.rem(a, b)))(put(x), put(y)))
        equal(q, np.array([-1, -1, -1, info.min if info.min else -1, -1]).astype(dtype))
        equal(r, np.array([5, 0, info.max, 0, info.min], dtype))


@pytest.mark.parametrize("dtype", UNSIGNED, ids=_ids)
def test_sign_abs_neg_unsigned(dtype):
    x = np.array([0, 1, 200, np.iinfo(dtype).max], dtype)
    for f in modes(F32 if dtype == np.uint8 else dtype):
        s, a, n = f(lambda t: (lax.sign(t), lax.abs(t), lax.neg(t)))(put(x))
        assert s.dtype == a.dtype == n.dtype == np.dtype(dtype)
        equal(s, np.array([0, 1, 1, 1], dtype))
        equal(a, x)
        equal(n, np.negative(x))  # wraps


def test_abs_sign_complex(x64):
    for dt in (C64, C128):
        z = np.array([3 + 4j, -1j, 0, -2], dt)
        for f in modes(F32 if dt == C64 else dt):
            a, s = f(lambda t: (lax.abs(t), lax.sign(t)))(put(z))
            assert a.dtype == real_of(dt) and not a.weak_type and s.dtype == dt
            assert_close(a.numpy(), np.array([5, 1, 0, 2], real_of(dt)))
            assert_close(s.numpy(), np.array([0.6 + 0.8j, -1j, 0, -1], dt))


def _shifts(x, s):
    return (lax.shift_left(x, s), lax.shift_right_logical(x, s), lax.shift_right_arithmetic(x, s))


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=_ids)
def test_shifts_out_of_range(dtype):
    # amounts >= the bit width (or negative, read as unsigned) shift everything out:
    # 0 for left and logical shifts, the sign fill for arithmetic shifts
    bits = _bits(dtype)
    x = np.array([1, 5, np.iinfo(dtype).max, np.iinfo(dtype).min or 128], dtype)
    fill = np.where(_unsigned_view(x) >> (bits - 1) == 1, -1, 0).astype(np.int64).astype(dtype)
    for amount in (bits, bits + 3, -1 if np.dtype(dtype).kind == "i" else np.iinfo(dtype).max):
        s = np.full(4, amount).astype(dtype)
        for f in modes(F32 if dtype == np.int32 else dtype):
            left, logical, arithmetic = f(_shifts)(put(x), put(s))
            equal(left, np.zeros(4, dtype))
            equal(logical, np.zeros(4, dtype))
            equal(arithmetic, fill)


def test_shift_right_arithmetic_unsigned_replicates_top_bit():
    # the shift acts on the bit pattern: an unsigned value with the top bit set fills with ones
    x = np.array([200, 100, 255], np.uint8)
    for f in modes():
        equal(f(lax.shift_right_arithmetic)(put(x), put(np.array([1, 1, 7], np.uint8))), [228, 50, 255])


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=_ids)
def test_bit_counts_edges(dtype):
    info, bits = np.iinfo(dtype), _bits(dtype)
    x = np.array([0, 1, info.max, info.min, 2, 3], dtype)
    top_set = info.min == 0  # unsigned max has every bit set; signed min only the top one
    for f in modes(F32 if dtype == np.int32 else dtype):
        pop, clz = f(lambda t: (lax.population_count(t), lax.clz(t)))(put(x))
        assert pop.dtype == clz.dtype == np.dtype(dtype)
        equal(pop, [0, 1, bits if top_set else bits - 1, 0 if top_set else 1, 1, 2])
        equal(clz, [bits, bits - 1, 0 if top_set else 1, bits if top_set else 0, bits - 2, bits - 2])


def test_complex_from_parts(x64):
    rng = np.random.default_rng(10)
    for dt, out_dt in ((F32, C64), (F16, C64), (BF16, C64), (F64, C128)):
        x, y = rand((N,), dt, rng), rand((N,), dt, rng)
        for f in modes(dt):
            z, re, im = f(lambda a, b: (lax.complex(a, b), lax.real(lax.complex(a, b)),
                                        lax.imag(lax.complex(a, b))))(put(x), put(y))
            assert z.dtype == out_dt and re.dtype == im.dtype == real_of(out_dt)
            equal(z, widen(x) + 1j * widen(y))
            equal(re, x)
            equal(im, y)


def test_exp2_exact_at_integers(x64):
    # exp2 is pow(2, x): exact at integers even in bfloat16 (exp(x * ln2) is not)
    for dt in SPECIAL_DTYPES:
        x = np.arange(-12, 13).astype(dt)
        for f in modes(dt):
            equal(f(lax.exp2)(put(x)), 2.0 ** np.arange(-12, 13))


def test_lexicographic_complex_order():
    a = np.array([1 + 2j, 1 + 3j, -3 + 1j, 2 + 0j, 1 + 1j], C64)
    b = np.array([1 + 3j, 1 + 2j, -3 + 0j, 1 + 9j, 1 + 1j], C64)
    names = ("lt", "le", "gt", "ge", "max", "min")
    for f in modes():
        out = f(lambda p, q: [fn_of(n)(p, q) for n in names])(put(a), put(b))
        for n, o in zip(names, out):
            ref = {"lt": np.less, "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal,
                   "max": np.maximum, "min": np.minimum}[n]
            equal(o, ref(a, b))
        equal(out[4], [1 + 3j, 1 + 3j, -3 + 1j, 2, 1 + 1j])
        # NaN propagates through max/min whichever side it is on
        nan, one = put(np.array([np.nan + 0j], C64)), put(np.array([1 + 1j], C64))
        for g in (lax.max, lax.min):
            assert np.isnan(f(g)(nan, one).numpy()[0].real) and np.isnan(f(g)(one, nan).numpy()[0].real)


# ---- dtypes and weak types -------------------------------------------------------------

def test_weak_type_propagation():
    one = lax.exp(0.0)  # a Python scalar becomes a weak f32
    assert one.aval == ShapedArray((), F32, True)
    strong = put(np.float32(1.0))
    bool_ = np.dtype(np.bool_)

    def ops(w, s):
        return [lax.add(w, w), lax.lt(w, w), lax.is_finite(w), lax.complex(w, w),
                lax.abs(lax.complex(w, w)), lax.add(w, s), lax.sign(s)]
    expected = [ShapedArray((), F32, True), ShapedArray((), bool_, True), ShapedArray((), bool_, True),
                ShapedArray((), C64, True), ShapedArray((), F32, True),
                # one strong operand makes the result strong
                ShapedArray((), F32, False), ShapedArray((), F32, False)]
    for f in modes():
        assert [o.aval for o in f(ops)(one, strong)] == expected
    # a Python scalar operand of a lax wrapper takes the array's dtype and stays strong
    vec = put(np.array([1.0, 2.0], F32))
    assert lax.add(vec, 2).aval == ShapedArray((2,), F32, False)
    assert lax.mul(3, put(np.array([1, 2], np.uint8))).aval == ShapedArray((2,), np.dtype(np.uint8), False)
    equal(lax.sub(vec, 0.5), [0.5, 1.5])
    equal(padax.jit(lambda t: lax.sub(10, t))(vec), [9.0, 8.0])


def test_x64_scalars(x64):
    # Python ints become int64 with x64 on; Python floats keep Paddle's default float32
    assert lax.add(1, 2).aval == ShapedArray((), np.dtype(np.int64), True)
    assert lax.exp(1.0).aval == ShapedArray((), F32, True)
    f64 = put(np.array([1.0, 2.0]))
    assert lax.add(f64, 0.25).aval == ShapedArray((2,), F64, False)
    equal(lax.add(f64, 0.25), [1.25, 2.25])


# ---- errors ----------------------------------------------------------------------------

def test_shape_and_dtype_mismatch_errors():
    a3, a4 = put(np.zeros(3, F32)), put(np.zeros(4, F32))
    i3 = put(np.zeros(3, np.int32))
    for f in (lambda g: g, padax.jit):
        with pytest.raises(TypeError, match=r"^add: .*f32\[3\].*f32\[4\].*test_elementwise\.py"):
            f(lax.add)(a3, a4)
        with pytest.raises(TypeError, match=r"^add: .*f32\[3\].*i32\[3\].*test_elementwise\.py"):
            f(lax.add)(a3, i3)
        with pytest.raises(TypeError, match=r"^lt: .*f32\[4\].*i32\[3\]"):
            f(lax.lt)(a4, i3)


def test_wrong_kind_errors():
    i3 = put(np.arange(3, dtype=np.int32))
    f3 = put(np.zeros(3, F32))
    c3 = put(np.zeros(3, C64))
    b3 = put(np.zeros(3, bool))
    for call, op, aval in [
        (lambda: lax.exp(i3), "exp", r"i32\[3\]"),
        (lambda: lax.bitwise_and(f3, f3), "and", r"f32\[3\]"),
        (lambda: lax.bitwise_not(f3), "not", r"f32\[3\]"),
        (lambda: lax.pow(i3, i3), "pow", r"i32\[3\]"),
        (lambda: lax.rem(c3, c3), "rem", r"c64\[3\]"),
        (lambda: lax.sub(b3, b3), "sub", r"bool\[3\]"),
        (lambda: lax.real(f3), "real", r"f32\[3\]"),
        (lambda: lax.floor(c3), "floor", r"c64\[3\]"),
        (lambda: lax.shift_left(b3, b3), "shift_left", r"bool\[3\]"),
        (lambda: lax.erf_inv(i3), "erf_inv", r"i32\[3\]"),
    ]:
        with pytest.raises(TypeError, match=rf"^{op}: expected an? .*operand, got {aval}.*test_elementwise\.py"):
            call()
    with pytest.raises(TypeError, match="exp"):
        padax.jit(lax.exp)(i3)


# every primitive, the dtypes it accepts: (bool, integer, floating, complex)
_ALL, _NUM, _INEXACT, _FLOAT = "bifc", "ifc", "fc", "f"
ACCEPTS = {
    **{n: _ALL for n in ("add", "mul", "max", "min", "eq", "ne", "lt", "le", "gt", "ge")},
    **{n: _NUM for n in ("sub", "div", "neg", "sign", "abs", "square", "integer_pow")},
    "rem": "if", "pow": _INEXACT,
    **{n: _FLOAT for n in ("atan2", "nextafter", "complex", "floor", "ceil", "round", "is_finite",
                           "cbrt", "erf", "erfc", "erf_inv", "lgamma", "digamma", "polygamma", "zeta")},
    **{n: _INEXACT for n in ("exp", "exp2", "log", "expm1", "log1p", "tanh", "logistic", "sin",
                             "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh",
                             "atanh", "sqrt", "rsqrt")},
    **{n: "c" for n in ("real", "imag", "conj")},
    **{n: "bi" for n in ("and", "or", "xor", "not")},
    **{n: "i" for n in ("shift_left", "shift_right_arithmetic", "shift_right_logical",
                        "population_count", "clz")},
}
KIND_DTYPES = {"b": [np.bool_], "i": INT_DTYPES + [np.int64, np.uint64],
               "f": FLOAT_DTYPES + [np.float64], "c": [C64, C128]}


def test_every_primitive_is_covered():
    prims = set(E.unary_primitives) | set(E.binary_primitives)
    assert set(ACCEPTS) == prims
    valued = (set(UNARY) | set(INT_UNARY) | set(BINARY) | set(INT_BINARY)
              | {"real", "imag", "conj", "integer_pow", "polygamma", "zeta"})  # zeta: tests/scipy/test_special.py
    assert valued == prims


@pytest.mark.parametrize("name", sorted(ACCEPTS))
def test_accepted_dtypes(name):
    prim = E.unary_primitives.get(name) or E.binary_primitives[name]
    params = {"round": {"rounding_method": 0}, "integer_pow": {"y": 2}}.get(name, {})
    for kind, dts in KIND_DTYPES.items():
        for dt in dts:
            aval = ShapedArray((2,), np.dtype(dt), False)
            args = [aval] * (1 if name in E.unary_primitives else 2)
            if kind in ACCEPTS[name]:
                out = prim.abstract_eval(*args, **params)
                assert out.shape == (2,)
            else:
                with pytest.raises(TypeError, match=rf"^{name}: .*{re.escape(aval.str_short())}"):
                    prim.abstract_eval(*args, **params)


def test_polygamma_matches_scipy():
    n = np.array([0, 1, 2, 3, 1, 0], np.float32)
    x = np.array([0.5, 1.0, 2.5, 3.0, 7.0, 0.1], np.float32)
    got = padax.jit(padax.lax.polygamma)(n, x)
    assert_close(got, sp.polygamma(n.astype(int), x.astype(np.float64)).astype(np.float32), rtol=1e-4)
