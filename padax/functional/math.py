"""Paddle's elementwise math: arithmetic, comparisons, logic, bitwise ops, unary functions.

Binary functions apply Paddle's type promotion (Python scalars are weak)
and numpy broadcasting first (`promote_and_broadcast`), then one lax op.
Transcendental functions of integer or bool inputs compute in float32, as
Paddle does; `divide` is true division.
"""
from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from padax import lax
from padax.core import dtypes
from padax.core.errors import op_type_error
from padax.core.trace import EvalTrace, trace_state
from padax.functional._arrays import (asarray, broadcast_shapes, broadcast_to, full, is_array, promote_and_broadcast,
                                      result_dtype)

# ---- helpers ---------------------------------------------------------------------------


def _check(op: str, x: Any, pred, what: str) -> None:
    if not pred(x.aval.dtype):
        raise op_type_error(op, f"expected {what} operands, got {x.aval.str_short()}")


def _numeric(d) -> bool:
    return d != dtypes.bool_


def _int_or_bool(d) -> bool:
    return dtypes.is_integer(d) or d == dtypes.bool_


def _real(d) -> bool:
    return not dtypes.is_complex(d)


def _to_inexact(x: Any) -> Any:
    """Integers and bool compute in the default float dtype (float32)."""
    x = asarray(x)
    if not dtypes.is_inexact(x.aval.dtype):
        x = lax.convert_element_type(x, dtypes.default_float_dtype())
    return x


def _scalar_like(x: Any, value: Any) -> Any:
    """`value` as an array with x's shape and dtype."""
    return full(x.aval.shape, value, x.aval.dtype)


_PY_SCALARS = (bool, int, float, complex)
_SCALAR_KIND = {bool: 0, int: 1, float: 2}
_filled_cache: dict[tuple, Any] = {}


def _filled(shape: tuple[int, ...], value: Any, dt: np.dtype) -> Any:
    """A Python scalar at `shape`: a literal broadcast while tracing; eagerly a cached device array."""
    if type(trace_state.trace) is not EvalTrace or type(value) not in _SCALAR_KIND:
        return full(shape, value, dt)
    key = (shape, type(value), value, dt, value == 0 and builtins.str(value)[0] == "-")  # keep -0.0 apart
    t = _filled_cache.get(key)
    if t is None:
        if len(_filled_cache) > 1024:
            _filled_cache.clear()
        t = _filled_cache[key] = full(shape, value, dt)
    return t


def _operand_dtype(arr: Any, scalar: Any) -> np.dtype:
    d = arr.aval.dtype
    k = _SCALAR_KIND.get(type(scalar))
    if k is not None and k <= dtypes.kind_rank(d):
        return d  # the weak scalar adopts the array's dtype
    return result_dtype(arr, scalar)[0]


def _binary(op: str, x: Any, y: Any) -> tuple[Any, Any]:
    """Promote and broadcast two operands; a Python scalar is filled straight at the other's shape."""
    if type(y) in _PY_SCALARS and is_array(x):
        dt = _operand_dtype(x, y)
        x = asarray(x, dt)
        return x, _filled(x.aval.shape, y, dt)
    if type(x) in _PY_SCALARS and is_array(y):
        dt = _operand_dtype(y, x)
        y = asarray(y, dt)
        return _filled(y.aval.shape, x, dt), y
    return tuple(promote_and_broadcast(op, x, y))


def _float_unary(prim_fn):
    def fn(x: Any, name: str | None = None) -> Any:
        return prim_fn(_to_inexact(x))
    return fn


# ---- arithmetic -------------------------------------------------------------------------

def add(x: Any, y: Any, name: str | None = None) -> Any:
    """x + y with Paddle promotion and broadcasting (logical or for bool)."""
    x, y = _binary("add", x, y)
    return lax.add(x, y)


def subtract(x: Any, y: Any, name: str | None = None) -> Any:
    """x - y with Paddle promotion and broadcasting."""
    x, y = _binary("subtract", x, y)
    _check("subtract", x, _numeric, "numeric (not bool)")
    return lax.sub(x, y)


def multiply(x: Any, y: Any, name: str | None = None) -> Any:
    """x * y with Paddle promotion and broadcasting (logical and for bool)."""
    x, y = _binary("multiply", x, y)
    return lax.mul(x, y)


def divide(x: Any, y: Any, name: str | None = None) -> Any:
    """True division: integer and bool operands give float32."""
    x, y = _binary("divide", x, y)
    if not dtypes.is_inexact(x.aval.dtype):
        f = dtypes.default_float_dtype()
        x, y = lax.convert_element_type(x, f), lax.convert_element_type(y, f)
    return lax.div(x, y)


def _floor_div_int(x, y):
    q = lax.div(x, y)  # truncates towards zero
    if dtypes.is_unsigned(x.aval.dtype):
        return q
    r = lax.rem(x, y)
    zero = _scalar_like(r, 0)
    fix = lax.bitwise_and(lax.ne(r, zero), lax.ne(lax.lt(r, zero), lax.lt(y, zero)))
    return lax.select(fix, lax.sub(q, _scalar_like(q, 1)), q)


def floor_divide(x: Any, y: Any, name: str | None = None) -> Any:
    """Division rounded towards -inf (Python's //)."""
    x, y = _binary("floor_divide", x, y)
    _check("floor_divide", x, lambda d: _numeric(d) and _real(d), "real numeric")
    if dtypes.is_integer(x.aval.dtype):
        return _floor_div_int(x, y)
    return lax.floor(lax.div(x, y))


def remainder(x: Any, y: Any, name: str | None = None) -> Any:
    """Remainder with the sign of the divisor (Python's %, numpy's mod)."""
    x, y = _binary("remainder", x, y)
    _check("remainder", x, lambda d: _numeric(d) and _real(d), "real numeric")
    r = lax.rem(x, y)
    if dtypes.is_unsigned(x.aval.dtype):
        return r
    zero = _scalar_like(r, 0)
    fix = lax.bitwise_and(lax.ne(r, zero), lax.ne(lax.lt(r, zero), lax.lt(y, zero)))
    return lax.select(fix, lax.add(r, y), r)


mod = remainder
floor_mod = remainder


def _int_pow(x, y):
    """Integer power by square-and-multiply over the exponent's bits (negative exponents: 0, or ±1 for |x| = 1)."""
    dt = x.aval.dtype
    one, zero = _scalar_like(x, 1), _scalar_like(x, 0)
    n_iter = dt.itemsize * 8 - (0 if dtypes.is_unsigned(dt) else 1)  # the sign bit is handled below
    acc, base, e = one, x, y
    for i in builtins.range(n_iter):
        bit = lax.ne(lax.bitwise_and(e, one), zero)
        acc = lax.select(bit, lax.mul(acc, base), acc)
        if i < n_iter - 1:
            base = lax.mul(base, base)
            e = lax.shift_right_logical(e, one)
    if dtypes.is_unsigned(dt):
        return acc
    neg = lax.lt(y, zero)
    minus_one = _scalar_like(x, -1)
    odd = lax.ne(lax.bitwise_and(y, one), zero)
    special = lax.select(lax.eq(x, one), one,
                         lax.select(lax.eq(x, minus_one), lax.select(odd, minus_one, one), zero))
    return lax.select(neg, special, acc)


def pow(x: Any, y: Any, name: str | None = None) -> Any:
    """x ** y; integer powers of integers stay exact, a Python int exponent uses repeated multiplication."""
    if type(y) is int and is_array(x) and x.aval.dtype != dtypes.bool_:
        if dtypes.is_integer(x.aval.dtype) and y < 0:
            raise op_type_error("pow", f"integers to negative integer powers are not allowed "
                                       f"({x.aval.str_short()} ** {y})")
        return lax.integer_pow(x, y)
    x, y = _binary("pow", x, y)
    dt = x.aval.dtype
    if dt == dtypes.bool_:
        raise op_type_error("pow", f"expected numeric operands, got {x.aval.str_short()}")
    if dtypes.is_integer(dt):
        return _int_pow(x, y)
    return lax.pow(x, y)


def maximum(x: Any, y: Any, name: str | None = None) -> Any:
    """Elementwise maximum (NaN propagates)."""
    x, y = _binary("maximum", x, y)
    return lax.max(x, y)


def minimum(x: Any, y: Any, name: str | None = None) -> Any:
    """Elementwise minimum (NaN propagates)."""
    x, y = _binary("minimum", x, y)
    return lax.min(x, y)


def fmax(x: Any, y: Any, name: str | None = None) -> Any:
    """Elementwise maximum that ignores a NaN operand (NaN only if both are)."""
    x, y = _binary("fmax", x, y)
    if not dtypes.is_inexact(x.aval.dtype):
        return lax.max(x, y)
    m = lax.max(x, y)
    return lax.select(lax.ne(x, x), y, lax.select(lax.ne(y, y), x, m))


def fmin(x: Any, y: Any, name: str | None = None) -> Any:
    """Elementwise minimum that ignores a NaN operand (NaN only if both are)."""
    x, y = _binary("fmin", x, y)
    if not dtypes.is_inexact(x.aval.dtype):
        return lax.min(x, y)
    m = lax.min(x, y)
    return lax.select(lax.ne(x, x), y, lax.select(lax.ne(y, y), x, m))


def neg(x: Any, name: str | None = None) -> Any:
    """-x."""
    x = asarray(x)
    _check("neg", x, _numeric, "numeric (not bool)")
    return lax.neg(x)


negative = neg


def abs(x: Any, name: str | None = None) -> Any:
    """|x| (a real dtype for complex input)."""
    x = asarray(x)
    if x.aval.dtype == dtypes.bool_:
        return x
    return lax.abs(x)


def square(x: Any, name: str | None = None) -> Any:
    """x * x in x's dtype."""
    x = asarray(x)
    _check("square", x, _numeric, "numeric (not bool)")
    return lax.square(x)


def sign(x: Any, name: str | None = None) -> Any:
    """-1, 0 or 1 (x/|x| for complex) in x's dtype."""
    x = asarray(x)
    if x.aval.dtype == dtypes.bool_:
        return x
    return lax.sign(x)


exp = _float_unary(lax.exp)
expm1 = _float_unary(lax.expm1)
log = _float_unary(lax.log)
log1p = _float_unary(lax.log1p)
sqrt = _float_unary(lax.sqrt)
rsqrt = _float_unary(lax.rsqrt)
sin = _float_unary(lax.sin)
cos = _float_unary(lax.cos)
tan = _float_unary(lax.tan)
asin = _float_unary(lax.asin)
acos = _float_unary(lax.acos)
atan = _float_unary(lax.atan)
sinh = _float_unary(lax.sinh)
cosh = _float_unary(lax.cosh)
tanh = _float_unary(lax.tanh)
asinh = _float_unary(lax.asinh)
acosh = _float_unary(lax.acosh)
atanh = _float_unary(lax.atanh)
sigmoid = _float_unary(lax.logistic)
for _n, _f in [("exp", exp), ("expm1", expm1), ("log", log), ("log1p", log1p), ("sqrt", sqrt),
               ("rsqrt", rsqrt), ("sin", sin), ("cos", cos), ("tan", tan), ("asin", asin), ("acos", acos),
               ("atan", atan), ("sinh", sinh), ("cosh", cosh), ("tanh", tanh), ("asinh", asinh),
               ("acosh", acosh), ("atanh", atanh), ("sigmoid", sigmoid)]:
    _f.__name__ = _f.__qualname__ = _n
    _f.__doc__ = f"Elementwise {_n}; integer and bool inputs compute in float32."
del _n, _f


def _real_float_unary(op: str, fn):
    def wrapped(x: Any, name: str | None = None) -> Any:
        x = _to_inexact(x)
        _check(op, x, dtypes.is_floating, "real floating")
        return fn(x)
    wrapped.__name__ = wrapped.__qualname__ = op
    return wrapped


erf = _real_float_unary("erf", lax.erf)
erf.__doc__ = "The error function; integer inputs compute in float32."
erfinv = _real_float_unary("erfinv", lax.erf_inv)
erfinv.__doc__ = "Inverse of the error function on (-1, 1)."
lgamma = _real_float_unary("lgamma", lax.lgamma)
lgamma.__doc__ = "log|Gamma(x)|."
digamma = _real_float_unary("digamma", lax.digamma)
digamma.__doc__ = "The logarithmic derivative of Gamma."


def log2(x: Any, name: str | None = None) -> Any:
    """Base-2 logarithm."""
    x = _to_inexact(x)
    return lax.div(lax.log(x), _scalar_like(x, np.log(2.0)))


def log10(x: Any, name: str | None = None) -> Any:
    """Base-10 logarithm."""
    x = _to_inexact(x)
    return lax.div(lax.log(x), _scalar_like(x, np.log(10.0)))


def reciprocal(x: Any, name: str | None = None) -> Any:
    """1 / x (integer inputs compute in float32)."""
    x = _to_inexact(x)
    return lax.div(_scalar_like(x, 1), x)


def _rounding(op: str, fn):
    def wrapped(x: Any, name: str | None = None) -> Any:
        x = asarray(x)
        if not dtypes.is_inexact(x.aval.dtype):
            return x  # integers are already whole
        _check(op, x, _real, "real")
        return fn(x)
    wrapped.__name__ = wrapped.__qualname__ = op
    return wrapped


floor = _rounding("floor", lax.floor)
floor.__doc__ = "Round towards -inf (integers unchanged)."
ceil = _rounding("ceil", lax.ceil)
ceil.__doc__ = "Round towards +inf (integers unchanged)."


def _trunc(x):
    return lax.select(lax.lt(x, _scalar_like(x, 0)), lax.ceil(x), lax.floor(x))


trunc = _rounding("trunc", _trunc)
trunc.__doc__ = "Round towards zero (integers unchanged)."


def round(x: Any, decimals: int = 0, name: str | None = None) -> Any:
    """Round half away from zero, optionally to `decimals` decimal places."""
    x = asarray(x)
    if not dtypes.is_inexact(x.aval.dtype):
        return x
    _check("round", x, _real, "real")
    if decimals == 0:
        return lax.round(x, 0)
    s = _scalar_like(x, 10.0 ** decimals)
    return lax.div(lax.round(lax.mul(x, s), 0), s)


def clip(x: Any, min: Any = None, max: Any = None, name: str | None = None) -> Any:
    """Limit values to [min, max] (either bound may be None); the result keeps x's dtype."""
    x = asarray(x)
    dt = x.aval.dtype
    _check("clip", x, _real, "real")
    for bound, fn in ((min, lax.max), (max, lax.min)):
        if bound is None:
            continue
        b = lax.convert_element_type(bound, dt) if is_array(bound) else asarray(bound, dt)
        if b.aval.shape != x.aval.shape:
            broadcast_shapes("clip", x.aval.shape, b.aval.shape)  # names the op in a shape error
            if builtins.max(b.aval.ndim, x.aval.ndim) > x.aval.ndim or builtins.any(
                    d != 1 and d != e for d, e in zip(b.aval.shape[::-1], x.aval.shape[::-1])):
                raise op_type_error("clip", f"bound {b.aval.str_short()} does not broadcast to x {x.aval.str_short()}")
            b = broadcast_to(b, x.aval.shape)
        x = fn(x, b)
    return x


def scale(x: Any, scale: Any = 1.0, bias: Any = 0.0, bias_after_scale: bool = True, act: Any = None,
          name: str | None = None) -> Any:
    """scale * x + bias (or scale * (x + bias)) in x's dtype."""
    x = asarray(x)
    s = full(x.aval.shape, scale, x.aval.dtype)
    b = full(x.aval.shape, bias, x.aval.dtype)
    out = lax.add(lax.mul(x, s), b) if bias_after_scale else lax.mul(lax.add(x, b), s)
    if act is not None:
        if callable(act):
            return act(out)
        from padax.nn import functional as F
        return getattr(F, act)(out)
    return out


def atan2(x: Any, y: Any, name: str | None = None) -> Any:
    """arctan(x / y) with the quadrant taken from both signs (Paddle's order: numerator first)."""
    x, y = _binary("atan2", x, y)
    x, y = _to_inexact(x), _to_inexact(y)
    _check("atan2", x, dtypes.is_floating, "real floating")
    return lax.atan2(x, y)


def hypot(x: Any, y: Any, name: str | None = None) -> Any:
    """sqrt(x**2 + y**2) without overflow for large inputs."""
    x, y = _binary("hypot", x, y)
    x, y = lax.abs(_to_inexact(x)), lax.abs(_to_inexact(y))
    big, small = lax.max(x, y), lax.min(x, y)
    zero = _scalar_like(big, 0)
    safe = lax.select(lax.eq(big, zero), _scalar_like(big, 1), big)
    r = lax.div(small, safe)
    out = lax.mul(big, lax.sqrt(lax.add(_scalar_like(r, 1), lax.mul(r, r))))
    inf = _scalar_like(big, np.inf)
    return lax.select(lax.eq(big, inf), inf, out)


def logaddexp(x: Any, y: Any, name: str | None = None) -> Any:
    """log(exp(x) + exp(y)) computed stably."""
    x, y = _binary("logaddexp", x, y)
    x, y = _to_inexact(x), _to_inexact(y)
    m = lax.max(x, y)
    d = lax.neg(lax.abs(lax.sub(x, y)))
    out = lax.add(m, lax.log1p(lax.exp(d)))
    # equal infinities: x - y is NaN, but the answer is the infinity itself
    return lax.select(lax.bitwise_and(lax.eq(x, y), lax.eq(lax.abs(x), _scalar_like(x, np.inf))), x, out)


# ---- comparisons ---------------------------------------------------------------------------

def _compare(op: str, fn, ordered: bool):
    def wrapped(x: Any, y: Any, name: str | None = None) -> Any:
        x, y = _binary(op, x, y)
        if ordered and dtypes.is_complex(x.aval.dtype):
            raise op_type_error(op, f"complex numbers have no order, got {x.aval.str_short()}")
        return fn(x, y)
    wrapped.__name__ = wrapped.__qualname__ = op
    wrapped.__doc__ = f"Elementwise {op} after Paddle promotion and broadcasting; returns bool."
    return wrapped


equal = _compare("equal", lax.eq, False)
not_equal = _compare("not_equal", lax.ne, False)
less_than = _compare("less_than", lax.lt, True)
less_equal = _compare("less_equal", lax.le, True)
greater_than = _compare("greater_than", lax.gt, True)
greater_equal = _compare("greater_equal", lax.ge, True)


def equal_all(x: Any, y: Any, name: str | None = None) -> Any:
    """True (a 0-d bool) if x and y have the same shape and all elements are equal."""
    x, y = asarray(x), asarray(y)
    if x.aval.shape != y.aval.shape:
        return full((), False, dtypes.bool_)
    e = equal(x, y)
    return lax.reduce_and(e, tuple(builtins.range(e.aval.ndim)))


# ---- logic and bits ------------------------------------------------------------------------

def _as_bool(x: Any) -> Any:
    x = asarray(x)
    return x if x.aval.dtype == dtypes.bool_ else lax.convert_element_type(x, dtypes.bool_)


def _logical(op: str, fn):
    def wrapped(x: Any, y: Any, out: Any = None, name: str | None = None) -> Any:
        x, y = promote_and_broadcast(op, _as_bool(x), _as_bool(y))
        return fn(x, y)
    wrapped.__name__ = wrapped.__qualname__ = op
    wrapped.__doc__ = f"Elementwise {op} of the operands' truth values (nonzero is True); returns bool."
    return wrapped


logical_and = _logical("logical_and", lax.bitwise_and)
logical_or = _logical("logical_or", lax.bitwise_or)
logical_xor = _logical("logical_xor", lax.bitwise_xor)


def logical_not(x: Any, out: Any = None, name: str | None = None) -> Any:
    """Elementwise not of x's truth values; returns bool."""
    return lax.bitwise_not(_as_bool(x))


def _bitwise(op: str, fn):
    def wrapped(x: Any, y: Any, out: Any = None, name: str | None = None) -> Any:
        x, y = _binary(op, x, y)
        _check(op, x, _int_or_bool, "integer or bool")
        return fn(x, y)
    wrapped.__name__ = wrapped.__qualname__ = op
    wrapped.__doc__ = f"Elementwise {op} of integer or bool operands."
    return wrapped


bitwise_and = _bitwise("bitwise_and", lax.bitwise_and)
bitwise_or = _bitwise("bitwise_or", lax.bitwise_or)
bitwise_xor = _bitwise("bitwise_xor", lax.bitwise_xor)


def bitwise_not(x: Any, out: Any = None, name: str | None = None) -> Any:
    """Elementwise bit inversion (logical not for bool)."""
    x = asarray(x)
    _check("bitwise_not", x, _int_or_bool, "integer or bool")
    return lax.bitwise_not(x)


bitwise_invert = bitwise_not


def bitwise_left_shift(x: Any, y: Any, is_arithmetic: bool = True, out: Any = None,
                       name: str | None = None) -> Any:
    """x << y for integers."""
    x, y = _binary("bitwise_left_shift", x, y)
    _check("bitwise_left_shift", x, dtypes.is_integer, "integer")
    return lax.shift_left(x, y)


def bitwise_right_shift(x: Any, y: Any, is_arithmetic: bool = True, out: Any = None,
                        name: str | None = None) -> Any:
    """x >> y for integers: sign-filling for signed types when `is_arithmetic`, zero-filling otherwise."""
    x, y = _binary("bitwise_right_shift", x, y)
    _check("bitwise_right_shift", x, dtypes.is_integer, "integer")
    if is_arithmetic and not dtypes.is_unsigned(x.aval.dtype):
        return lax.shift_right_arithmetic(x, y)
    return lax.shift_right_logical(x, y)


# ---- classification ----------------------------------------------------------------------

def isnan(x: Any, name: str | None = None) -> Any:
    """True where x is NaN (never for integers)."""
    x = asarray(x)
    if not dtypes.is_inexact(x.aval.dtype):
        return full(x.aval.shape, False, dtypes.bool_)
    return lax.ne(x, x)


def isinf(x: Any, name: str | None = None) -> Any:
    """True where x is +inf or -inf (for complex: either part)."""
    x = asarray(x)
    dt = x.aval.dtype
    if not dtypes.is_inexact(dt):
        return full(x.aval.shape, False, dtypes.bool_)
    if dtypes.is_complex(dt):
        return lax.bitwise_or(isinf(lax.real(x)), isinf(lax.imag(x)))
    return lax.eq(lax.abs(x), _scalar_like(x, np.inf))


def isfinite(x: Any, name: str | None = None) -> Any:
    """True where x is neither NaN nor infinite."""
    x = asarray(x)
    dt = x.aval.dtype
    if not dtypes.is_inexact(dt):
        return full(x.aval.shape, True, dtypes.bool_)
    if dtypes.is_complex(dt):
        return lax.bitwise_and(isfinite(lax.real(x)), isfinite(lax.imag(x)))
    return lax.is_finite(x)


# ---- selection and casting ---------------------------------------------------------------

def where(condition: Any, x: Any = None, y: Any = None, name: str | None = None) -> Any:
    """Elementwise choice: x where condition is true, else y (all three broadcast together)."""
    if x is None or y is None:
        raise TypeError("where: x and y are both required; where(condition) alone (the indices of "
                        "nonzero elements, a data-dependent shape) is not supported")
    cond = _as_bool(condition)
    x, y = _binary("where", x, y)
    shape = broadcast_shapes("where", cond.aval.shape, x.aval.shape)
    return lax.select(broadcast_to(cond, shape), broadcast_to(x, shape), broadcast_to(y, shape))


def cast(x: Any, dtype: Any) -> Any:
    """Convert to `dtype` (nonzero -> True for bool; complex -> real drops the imaginary part)."""
    x = asarray(x)
    return lax.convert_element_type(x, dtypes.canonicalize(dtypes.to_dtype(dtype)))


def astype(x: Any, dtype: Any) -> Any:
    """Same as `cast`."""
    return cast(x, dtype)


__all__ = ["add", "subtract", "multiply", "divide", "floor_divide", "remainder", "mod", "floor_mod", "pow",
           "maximum", "minimum", "fmax", "fmin", "neg", "negative", "abs", "square", "sign", "exp", "expm1",
           "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "sin", "cos", "tan", "asin", "acos", "atan",
           "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "sigmoid", "erf", "erfinv", "lgamma",
           "digamma", "reciprocal", "floor", "ceil", "trunc", "round", "clip", "scale", "atan2", "hypot",
           "logaddexp", "equal", "not_equal", "less_than", "less_equal", "greater_than", "greater_equal",
           "equal_all", "logical_and", "logical_or", "logical_xor", "logical_not", "bitwise_and",
           "bitwise_or", "bitwise_xor", "bitwise_not", "bitwise_invert", "bitwise_left_shift",
           "bitwise_right_shift", "isnan", "isinf", "isfinite", "where", "cast", "astype"]
