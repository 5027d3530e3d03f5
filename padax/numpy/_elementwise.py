"""Elementwise functions of the Array API standard, plus NumPy's aliases and extras.

Binary functions promote with padax.numpy's rules (see `_dtypes`) and
broadcast, then apply lax ops; everything is differentiable and vmappable.
Transcendental functions of integer or bool inputs compute in the default
floating dtype. `round` rounds half to even (as NumPy and the standard).
"""
from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from padax import lax
from padax.core.errors import op_type_error, op_value_error
from padax.functional import math as _M
from padax.functional.lax.control import while_loop
from padax.numpy import _dtypes as D
from padax.numpy._util import (
    broadcast_shapes,
    broadcast_to,
    check,
    doc_with_example,
    is_array,
    is_scalar,
    promote_broadcast,
    scalar_like,
    to_array,
    to_inexact,
)


def _real(d) -> bool:
    return D.kind(d) < 3


def _numeric(d) -> bool:
    return d != D.bool_


def _int_or_bool(d) -> bool:
    return D.kind(d) <= 1


def _unary(name: str, prim, doc: str, example: tuple[str, str], real_only: builtins.bool = False):
    """`name`(x) = prim(x) in a floating dtype; `example` is (input list, expected output) of its doctest."""
    def fn(x: Any, /) -> Any:
        x = to_inexact(x)
        if real_only:
            check(name, x, _real, "real")
        return prim(x)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc_with_example(
        doc, name, example[:-1], example[-1],
        params=("x: an array, Python scalar or nested sequence" + (" of real numbers" if real_only else "")
                + "; integer and bool inputs are computed in the default float dtype."),
        returns="An array of x's shape in x's floating (or complex) dtype.")
    return fn


exp = _unary("exp", lax.exp, "e ** x.", ('[0.0, 1.0]', '[1.0, 2.7183]'))
expm1 = _unary("expm1", lax.expm1, "exp(x) - 1, accurate near 0.", ('[0.0, 1e-10]', '[0.0, 1e-10]'))
log = _unary("log", lax.log, "Natural logarithm.", ('[1.0, 2.718281828]', '[0.0, 1.0]'))
log1p = _unary("log1p", lax.log1p, "log(1 + x), accurate near 0.", ('[0.0, 1e-10]', '[0.0, 1e-10]'))
sqrt = _unary("sqrt", lax.sqrt, "Square root.", ('[4.0, 2.0]', '[2.0, 1.4142]'))
sin = _unary("sin", lax.sin, "Sine.", ('[0.0, pnp.pi / 2]', '[0.0, 1.0]'))
cos = _unary("cos", lax.cos, "Cosine.", ('[0.0, pnp.pi]', '[1.0, -1.0]'))
tan = _unary("tan", lax.tan, "Tangent.", ('[0.0, pnp.pi / 4]', '[0.0, 1.0]'))
asin = _unary("asin", lax.asin, "Inverse sine.", ('[0.0, 1.0]', '[0.0, 1.5708]'))
acos = _unary("acos", lax.acos, "Inverse cosine.", ('[1.0, 0.0]', '[0.0, 1.5708]'))
atan = _unary("atan", lax.atan, "Inverse tangent.", ('[0.0, 1.0]', '[0.0, 0.7854]'))
sinh = _unary("sinh", lax.sinh, "Hyperbolic sine.", ('[0.0, 1.0]', '[0.0, 1.1752]'))
cosh = _unary("cosh", lax.cosh, "Hyperbolic cosine.", ('[0.0, 1.0]', '[1.0, 1.5431]'))
tanh = _unary("tanh", lax.tanh, "Hyperbolic tangent.", ('[0.0, 1.0]', '[0.0, 0.7616]'))
asinh = _unary("asinh", lax.asinh, "Inverse hyperbolic sine.", ('[0.0, 1.0]', '[0.0, 0.8814]'))
acosh = _unary("acosh", lax.acosh, "Inverse hyperbolic cosine.", ('[1.0, 2.0]', '[0.0, 1.317]'))
atanh = _unary("atanh", lax.atanh, "Inverse hyperbolic tangent.", ('[0.0, 0.5]', '[0.0, 0.5493]'))
exp2 = _unary("exp2", lax.exp2, "2 ** x.", ('[3.0, -1.0]', '[8.0, 0.5]'))
cbrt = _unary("cbrt", lax.cbrt, "Real cube root.", ('[27.0, -8.0]', '[3.0, -2.0]'), real_only=True)


def _log_base(x: Any, base: builtins.float) -> Any:
    """log(x) / log(base); a complex log's parts are divided separately, so log(0j) stays -inf+0j (a complex
    division would make the imaginary part NaN)."""
    x = to_inexact(x)
    out = lax.log(x)
    if D.kind(x.aval.dtype) < 3:
        return lax.div(out, scalar_like(out, np.log(base)))
    re, im = lax.real(out), lax.imag(out)
    c = scalar_like(re, np.log(base))
    return lax.complex(lax.div(re, c), lax.div(im, c))


def log2(x: Any, /) -> Any:
    """Base-2 logarithm.

    Args:
        x: an array, Python scalar or nested sequence; integer and bool inputs are computed in the default
            float dtype.

    Returns:
        An array of x's shape in a floating (or complex) dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.log2(pnp.array([8.0, 0.5])).tolist()
        [3.0, -1.0]
    """
    return _log_base(x, 2.0)


def log10(x: Any, /) -> Any:
    """Base-10 logarithm.

    Args:
        x: an array, Python scalar or nested sequence; integer and bool inputs are computed in the default
            float dtype.

    Returns:
        An array of x's shape in a floating (or complex) dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.log10(pnp.array([1000.0, 0.1])).tolist()
        [3.0, -1.0]
    """
    return _log_base(x, 10.0)


def reciprocal(x: Any, /) -> Any:
    """1 / x.

    Args:
        x: an array, Python scalar or nested sequence; integer and bool inputs are computed in the default
            float dtype.

    Returns:
        An array of x's shape in a floating (or complex) dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.reciprocal(pnp.array([2.0, -0.5])).tolist()
        [0.5, -2.0]
    """
    x = to_inexact(x)
    return lax.div(scalar_like(x, 1), x)


# ---- arithmetic ------------------------------------------------------------------------------

def add(x1: Any, x2: Any, /) -> Any:
    """x1 + x2 (logical or for bool).

    Args:
        x1, x2: arrays, array-likes or Python scalars; promoted to a common dtype and broadcast.

    Returns:
        An array of the broadcast shape in the promoted dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.add(pnp.array([1, 2]), pnp.array([10, 20])).tolist()
        [11, 22]
    """
    a, b = promote_broadcast("add", x1, x2)
    return lax.add(a, b)


def subtract(x1: Any, x2: Any, /) -> Any:
    """x1 - x2.

    Args:
        x1, x2: numeric (not bool) arrays, array-likes or Python scalars; promoted to a common dtype and broadcast.

    Returns:
        An array of the broadcast shape in the promoted dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.subtract(pnp.array([5.0, 1.0]), 2.0).tolist()
        [3.0, -1.0]
    """
    a, b = promote_broadcast("subtract", x1, x2)
    check("subtract", a, _numeric, "numeric (not bool)")
    return lax.sub(a, b)


def multiply(x1: Any, x2: Any, /) -> Any:
    """x1 * x2 (logical and for bool).

    Args:
        x1, x2: arrays, array-likes or Python scalars; promoted to a common dtype and broadcast.

    Returns:
        An array of the broadcast shape in the promoted dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.multiply(pnp.array([1, 2, 3]), 2).tolist()
        [2, 4, 6]
    """
    a, b = promote_broadcast("multiply", x1, x2)
    return lax.mul(a, b)


def divide(x1: Any, x2: Any, /) -> Any:
    """True division; integer and bool operands give the default floating dtype.

    Args:
        x1, x2: arrays, array-likes or Python scalars; promoted to a common dtype and broadcast.

    Returns:
        A floating (or complex) array of the broadcast shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.divide(pnp.array([1, 3]), 2).tolist()
        [0.5, 1.5]
        >>> pnp.divide(pnp.array([1, 3]), 2).dtype  # the default float (NumPy: float64)
        dtype('float32')
    """
    a, b = promote_broadcast("divide", x1, x2)
    if D.kind(a.aval.dtype) < 2:
        f = D.default_float()
        a, b = lax.convert_element_type(a, f), lax.convert_element_type(b, f)
    return lax.div(a, b)


true_divide = divide


def floor_divide(x1: Any, x2: Any, /) -> Any:
    """Division rounded towards -inf (Python's //).

    Args:
        x1, x2: real numeric arrays, array-likes or Python scalars; promoted to a common dtype and broadcast.

    Returns:
        An array of the broadcast shape in the promoted dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.floor_divide(pnp.array([7, -7]), 2).tolist()
        [3, -4]
        >>> pnp.floor_divide(pnp.array([7.5, -7.5]), 2.0).tolist()
        [3.0, -4.0]
    """
    a, b = promote_broadcast("floor_divide", x1, x2)
    check("floor_divide", a, lambda d: _numeric(d) and _real(d), "real numeric")
    if D.kind(a.aval.dtype) == 1:
        return _M.floor_divide(a, b)
    return _M.float_divmod(a, b)[0]


def _nonzero_divisor(b: Any) -> Any:
    """An integer divisor with its zeros read as 1, so that x % 0 is 0 (as in NumPy and jax), not XLA's x."""
    return lax.select(lax.eq(b, scalar_like(b, 0)), scalar_like(b, 1), b)


def remainder(x1: Any, x2: Any, /) -> Any:
    """Remainder with the divisor's sign (Python's %).

    Args:
        x1, x2: real numeric arrays, array-likes or Python scalars; promoted to a common dtype and broadcast.

    Returns:
        An array of the broadcast shape in the promoted dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.remainder(pnp.array([7, -7]), 3).tolist()
        [1, 2]
        >>> pnp.remainder(pnp.array([7.0, -7.0]), -3.0).tolist()
        [-2.0, -1.0]
    """
    a, b = promote_broadcast("remainder", x1, x2)
    check("remainder", a, lambda d: _numeric(d) and _real(d), "real numeric")
    if D.kind(a.aval.dtype) == 1:
        return _M.remainder(a, _nonzero_divisor(b))
    return _M.float_divmod(a, b)[1]


mod = remainder


def divmod(x1: Any, x2: Any, /) -> tuple[Any, Any]:
    """(floor_divide(x1, x2), remainder(x1, x2)).

    Args:
        x1, x2: real numeric arrays, array-likes or Python scalars; promoted to a common dtype and broadcast.

    Returns:
        A tuple (quotient, remainder) of arrays of the broadcast shape and promoted dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> q, r = pnp.divmod(pnp.array([7, -7]), 3)
        >>> q.tolist(), r.tolist()
        ([2, -3], [1, 2])
    """
    return floor_divide(x1, x2), remainder(x1, x2)


def fmod(x1: Any, x2: Any, /) -> Any:
    """Remainder with the dividend's sign (C's fmod).

    Args:
        x1, x2: real numeric arrays, array-likes or Python scalars; promoted to a common dtype and broadcast.

    Returns:
        An array of the broadcast shape in the promoted dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.fmod(pnp.array([7, -7]), 3).tolist()
        [1, -1]
    """
    a, b = promote_broadcast("fmod", x1, x2)
    check("fmod", a, lambda d: _numeric(d) and _real(d), "real numeric")
    return lax.rem(a, _nonzero_divisor(b) if D.kind(a.aval.dtype) == 1 else b)


def pow(x1: Any, x2: Any, /) -> Any:
    """x1 ** x2; integer powers of integers are exact, a Python int exponent multiplies repeatedly.

    Args:
        x1: the base; an array, array-like or Python scalar (not bool).
        x2: the exponent; a Python int exponent keeps x1's dtype; integers need non-negative exponents.

    Returns:
        An array of the broadcast shape in the promoted dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.pow(pnp.array([2, 3]), 3).tolist()
        [8, 27]
        >>> pnp.pow(pnp.array([4.0, 9.0]), 0.5).tolist()
        [2.0, 3.0]
    """
    if type(x2) is builtins.int and is_array(x1) and D.kind(x1.aval.dtype) >= 1:
        if D.kind(x1.aval.dtype) == 1 and x2 < 0:
            raise op_value_error("pow", "integers to negative integer powers are not allowed")
        return lax.integer_pow(to_array(x1), x2)
    a, b = promote_broadcast("pow", x1, x2)
    check("pow", a, _numeric, "numeric (not bool)")
    return _M.pow(a, b)


power = pow


def float_power(x1: Any, x2: Any, /) -> Any:
    """x1 ** x2 computed in the widest available float (or complex) dtype.

    Args:
        x1, x2: arrays, array-likes or Python scalars; promoted to a common dtype and broadcast.

    Returns:
        An array of the broadcast shape in float64 (complex128 for complex input; float32/complex64 when x64 is off).

    Examples:
        >>> import padax.numpy as pnp
        >>> y = pnp.float_power(pnp.array([2, 3]), 2)
        >>> y.tolist(), y.dtype
        ([4.0, 9.0], dtype('float64'))
    """
    a, b = promote_broadcast("float_power", x1, x2)
    dt = D.canonicalize(D.complex128 if D.kind(a.aval.dtype) == 3 else D.float64)
    return lax.pow(lax.convert_element_type(a, dt), lax.convert_element_type(b, dt))


def maximum(x1: Any, x2: Any, /) -> Any:
    """Elementwise maximum (NaN propagates).

    Args:
        x1, x2: real arrays, array-likes or Python scalars; promoted to a common dtype and broadcast.

    Returns:
        An array of the broadcast shape in the promoted dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.maximum(pnp.array([1.0, 5.0, pnp.nan]), pnp.array([3.0, 2.0, 0.0])).tolist()
        [3.0, 5.0, nan]
    """
    a, b = promote_broadcast("maximum", x1, x2)
    check("maximum", a, _real, "real")
    return lax.max(a, b)


def minimum(x1: Any, x2: Any, /) -> Any:
    """Elementwise minimum (NaN propagates).

    Args:
        x1, x2: real arrays, array-likes or Python scalars; promoted to a common dtype and broadcast.

    Returns:
        An array of the broadcast shape in the promoted dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.minimum(pnp.array([1.0, 5.0, pnp.nan]), pnp.array([3.0, 2.0, 0.0])).tolist()
        [1.0, 2.0, nan]
    """
    a, b = promote_broadcast("minimum", x1, x2)
    check("minimum", a, _real, "real")
    return lax.min(a, b)


def fmax(x1: Any, x2: Any, /) -> Any:
    """Elementwise maximum ignoring a NaN operand.

    Args:
        x1, x2: arrays, array-likes or Python scalars; promoted to a common dtype and broadcast.

    Returns:
        An array of the broadcast shape in the promoted dtype (NaN only where both are NaN).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.fmax(pnp.array([1.0, 5.0, pnp.nan]), pnp.array([3.0, 2.0, 0.0])).tolist()
        [3.0, 5.0, 0.0]
    """
    a, b = promote_broadcast("fmax", x1, x2)
    return _M.fmax(a, b)


def fmin(x1: Any, x2: Any, /) -> Any:
    """Elementwise minimum ignoring a NaN operand.

    Args:
        x1, x2: arrays, array-likes or Python scalars; promoted to a common dtype and broadcast.

    Returns:
        An array of the broadcast shape in the promoted dtype (NaN only where both are NaN).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.fmin(pnp.array([1.0, 5.0, pnp.nan]), pnp.array([3.0, 2.0, 0.0])).tolist()
        [1.0, 2.0, 0.0]
    """
    a, b = promote_broadcast("fmin", x1, x2)
    return _M.fmin(a, b)


def negative(x: Any, /) -> Any:
    """-x.

    Args:
        x: a numeric (not bool) array, Python scalar or nested sequence.

    Returns:
        An array of x's shape and dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.negative(pnp.array([1, -2])).tolist()
        [-1, 2]
    """
    x = to_array(x)
    check("negative", x, _numeric, "numeric (not bool)")
    return lax.neg(x)


def positive(x: Any, /) -> Any:
    """+x (x itself).

    Args:
        x: a numeric (not bool) array, Python scalar or nested sequence.

    Returns:
        x as an array (same shape and dtype).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.positive(pnp.array([1, -2])).tolist()
        [1, -2]
    """
    x = to_array(x)
    check("positive", x, _numeric, "numeric (not bool)")
    return x


def abs(x: Any, /) -> Any:
    """|x| (real dtype for complex input).

    Args:
        x: an array, Python scalar or nested sequence.

    Returns:
        An array of x's shape; x's dtype, or the matching real dtype for complex x.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.abs(pnp.array([-1.5, 2.0])).tolist()
        [1.5, 2.0]
        >>> pnp.abs(pnp.array([3 + 4j])).tolist()
        [5.0]
    """
    x = to_array(x)
    if x.aval.dtype == D.bool_ or D.kind(x.aval.dtype) == 1 and x.aval.dtype.kind == "u":
        return x
    return lax.abs(x)


absolute = abs


def fabs(x: Any, /) -> Any:
    """|x| for real inputs, in a floating dtype.

    Args:
        x: a real array, Python scalar or nested sequence (integers and bool: the default float).

    Returns:
        A floating array of x's shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.fabs(pnp.array([-2, 3])).tolist()
        [2.0, 3.0]
    """
    x = to_inexact(x)
    check("fabs", x, _real, "real")
    return lax.abs(x)


def square(x: Any, /) -> Any:
    """x * x.

    Args:
        x: an array, Python scalar or nested sequence.

    Returns:
        An array of x's shape and dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.square(pnp.array([-3, 2])).tolist()
        [9, 4]
    """
    x = to_array(x)
    if x.aval.dtype == D.bool_:
        return x
    return lax.square(x)


def sign(x: Any, /) -> Any:
    """-1, 0 or 1 (x / |x| for complex).

    Args:
        x: an array, Python scalar or nested sequence.

    Returns:
        An array of x's shape and dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.sign(pnp.array([-2.0, 0.0, 3.0])).tolist()
        [-1.0, 0.0, 1.0]
    """
    x = to_array(x)
    if x.aval.dtype == D.bool_:
        return x
    return lax.sign(x)


def signbit(x: Any, /) -> Any:
    """True where the sign bit is set (also for -0.0 and negative NaNs).

    Args:
        x: a real array, Python scalar or nested sequence.

    Returns:
        A bool array of x's shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.signbit(pnp.array([-1.0, -0.0, 0.0, 2.0])).tolist()
        [True, True, False, False]
    """
    x = to_array(x)
    dt = x.aval.dtype
    check("signbit", x, _real, "real")
    if dt == D.bool_ or dt.kind == "u":
        return lax.broadcast_in_dim(np.bool_(False), x.aval.shape, ())
    if D.kind(dt) == 1:
        return lax.lt(x, scalar_like(x, 0))
    idt = {1: D.int8, 2: D.int16, 4: D.int32, 8: D.int64}[dt.itemsize]
    bits = lax.bitcast_convert_type(x, idt)
    return lax.lt(bits, scalar_like(bits, 0))


def copysign(x1: Any, x2: Any, /) -> Any:
    """|x1| with the sign of x2 (from its sign bit).

    Args:
        x1, x2: arrays, array-likes or Python scalars of real numbers; promoted to a common dtype (integer and
            bool: the default float) and broadcast.

    Returns:
        A floating array of the broadcast shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.copysign(pnp.array([1.0, 2.0]), pnp.array([-0.0, 3.0])).tolist()
        [-1.0, 2.0]
    """
    a, b = promote_broadcast("copysign", x1, x2)
    if D.kind(a.aval.dtype) < 2:
        a, b = to_inexact(a), to_inexact(b)
    check("copysign", a, _real, "real")
    m = lax.abs(a)
    return lax.select(signbit(b), lax.neg(m), m)


def hypot(x1: Any, x2: Any, /) -> Any:
    """sqrt(x1**2 + x2**2) without undue overflow.

    Args:
        x1, x2: arrays, array-likes or Python scalars of real numbers; promoted to a common dtype (integer and
            bool: the default float) and broadcast.

    Returns:
        A floating array of the broadcast shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.hypot(pnp.array([3.0, 5.0]), pnp.array([4.0, 12.0])).tolist()
        [5.0, 13.0]
    """
    a, b = promote_broadcast("hypot", x1, x2)
    a, b = to_inexact(a), to_inexact(b)
    check("hypot", a, _real, "real")
    out = _M.hypot(a, b)
    inf = scalar_like(out, np.inf)
    either_inf = lax.bitwise_or(lax.eq(lax.abs(a), inf), lax.eq(lax.abs(b), inf))
    return lax.select(either_inf, inf, out)  # inf even when the other operand is NaN


def logaddexp(x1: Any, x2: Any, /) -> Any:
    """log(exp(x1) + exp(x2)), computed stably.

    Args:
        x1, x2: arrays, array-likes or Python scalars of real numbers; promoted to a common dtype (integer and
            bool: the default float) and broadcast.

    Returns:
        A floating array of the broadcast shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.logaddexp(pnp.array([0.0, 100.0]), pnp.array([0.0, 100.0])).tolist()
        [0.6931, 100.6931]
    """
    a, b = promote_broadcast("logaddexp", x1, x2)
    a, b = to_inexact(a), to_inexact(b)
    check("logaddexp", a, _real, "real")
    return _M.logaddexp(a, b)


def logaddexp2(x1: Any, x2: Any, /) -> Any:
    """log2(2**x1 + 2**x2), computed stably.

    Args:
        x1, x2: arrays, array-likes or Python scalars of real numbers; promoted to a common dtype (integer and
            bool: the default float) and broadcast.

    Returns:
        A floating array of the broadcast shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.logaddexp2(pnp.array([1.0, 3.0]), pnp.array([1.0, 3.0])).tolist()
        [2.0, 4.0]
    """
    a, b = promote_broadcast("logaddexp2", x1, x2)
    a, b = to_inexact(a), to_inexact(b)
    check("logaddexp2", a, _real, "real")
    ln2 = scalar_like(a, np.log(2.0))
    return lax.div(_M.logaddexp(lax.mul(a, ln2), lax.mul(b, ln2)), ln2)


def atan2(x1: Any, x2: Any, /) -> Any:
    """The angle of the point (x2, x1): arctan(x1 / x2) in the right quadrant.

    Args:
        x1: the y coordinates; a real array, array-like or Python scalar.
        x2: the x coordinates; promoted with x1 (integers and bool: the default float) and broadcast.

    Returns:
        A floating array of the broadcast shape, angles in radians in [-pi, pi].

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.atan2(pnp.array([1.0, 1.0]), pnp.array([1.0, -1.0])).tolist()
        [0.7854, 2.3562]
    """
    a, b = promote_broadcast("atan2", x1, x2)
    a, b = to_inexact(a), to_inexact(b)
    check("atan2", a, _real, "real")
    return lax.atan2(a, b)


def nextafter(x1: Any, x2: Any, /) -> Any:
    """The next representable value after x1 towards x2.

    Args:
        x1, x2: arrays, array-likes or Python scalars of real numbers; promoted to a common dtype (integer and
            bool: the default float) and broadcast.

    Returns:
        A floating array of the broadcast shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> x = pnp.nextafter(pnp.array([1.0], dtype=pnp.float64), 2.0)
        >>> (x - 1.0).tolist()
        [2.220446049250313e-16]
    """
    a, b = promote_broadcast("nextafter", x1, x2)
    a, b = to_inexact(a), to_inexact(b)
    check("nextafter", a, _real, "real")
    return lax.nextafter(a, b)


def ldexp(x1: Any, x2: Any, /) -> Any:
    """x1 * 2 ** x2 (x2 integer).

    Args:
        x1: the mantissas; integers and bool are computed in the default float dtype.
        x2: integer exponents; broadcast with x1.

    Returns:
        An array of the broadcast shape in x1's floating dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.ldexp(pnp.array([1.0, 3.0]), pnp.array([3, -1])).tolist()
        [8.0, 1.5]
    """
    a = to_inexact(x1)
    b = to_array(x2)
    if D.kind(b.aval.dtype) != 1:
        raise op_type_error("ldexp", f"exponents must be integers, got {b.aval.str_short()}")
    shape = broadcast_shapes("ldexp", a.aval.shape, b.aval.shape)
    a = broadcast_to(a, shape)
    e = broadcast_to(lax.convert_element_type(b, a.aval.dtype), shape)
    return lax.mul(a, lax.exp2(e))


def heaviside(x1: Any, x2: Any, /) -> Any:
    """0 where x1 < 0, x2 where x1 == 0, 1 where x1 > 0 (NaN stays NaN); real inputs, in a floating dtype
    (integers and bool give the default float, as jax.numpy).

    Args:
        x1: the real values whose sign decides.
        x2: the value taken where x1 == 0; broadcast and promoted with x1.

    Returns:
        A floating array of the broadcast shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.heaviside(pnp.array([-1.0, 0.0, 2.0]), 0.5).tolist()
        [0.0, 0.5, 1.0]
    """
    a, b = promote_broadcast("heaviside", x1, x2)
    a, b = to_inexact(a), to_inexact(b)
    check("heaviside", a, _real, "real")
    zero, one = scalar_like(a, 0), scalar_like(a, 1)
    out = lax.select(lax.lt(a, zero), zero, lax.select(lax.gt(a, zero), one, b))
    return lax.select(lax.ne(a, a), a, out)


# ---- rounding -----------------------------------------------------------------------------------

def _rounding(name: str, fn, doc: str, example: tuple[str, str] | None = None):
    def wrapped(x: Any, /) -> Any:
        x = to_array(x)
        if D.kind(x.aval.dtype) < 2:
            return x
        check(name, x, _real, "real")
        return fn(x)
    wrapped.__name__ = wrapped.__qualname__ = name
    wrapped.__doc__ = doc if example is None else doc_with_example(
        doc, name, example[:-1], example[-1], params="x: an array or array-like of real numbers.",
        returns="An array of x's shape and dtype (integer and bool inputs come back unchanged).")
    return wrapped


def _trunc(x):
    return lax.select(lax.lt(x, scalar_like(x, 0)), lax.ceil(x), lax.floor(x))


floor = _rounding("floor", lax.floor, "Round towards -inf (integers unchanged).", ('[-1.5, 1.5]', '[-2.0, 1.0]'))
ceil = _rounding("ceil", lax.ceil, "Round towards +inf (integers unchanged).", ('[-1.5, 1.5]', '[-1.0, 2.0]'))
trunc = _rounding("trunc", _trunc, "Round towards zero (integers unchanged).", ('[-1.5, 1.5]', '[-1.0, 1.0]'))
fix = trunc


def rint(x: Any, /) -> Any:
    """Round to the nearest integer, halves to even (complex: real and imaginary parts separately).

    Args:
        x: an array, Python scalar or nested sequence; integer and bool inputs are computed in the default
            float dtype.

    Returns:
        An array of x's shape in a floating (or complex) dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.rint(pnp.array([0.5, 1.5, 2.5, -0.7])).tolist()
        [0.0, 2.0, 2.0, -1.0]
        >>> pnp.rint(pnp.array([3])).dtype  # integers give the default float (NumPy: float64)
        dtype('float32')
    """
    x = to_inexact(x)  # integers and bool give the default float, as NumPy and jax.numpy
    if D.kind(x.aval.dtype) == 3:
        return lax.complex(lax.round(lax.real(x), 1), lax.round(lax.imag(x), 1))
    return lax.round(x, 1)


def round(x: Any, /, decimals: builtins.int = 0) -> Any:
    """Round to the nearest integer (or to `decimals` places), halves to even; complex parts separately.

    Args:
        x: an array, Python scalar or nested sequence.
        decimals: the number of decimal places (negative: round to tens, hundreds, ...).

    Returns:
        An array of x's shape and dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.round(pnp.array([0.5, 1.5, 2.5])).tolist()
        [0.0, 2.0, 2.0]
        >>> pnp.round(pnp.array([1.234, 5.678]), decimals=1).tolist()
        [1.2, 5.7]
    """
    x = to_array(x)
    dt = x.aval.dtype
    if D.kind(dt) < 2:
        if decimals >= 0 or dt == D.bool_:
            return x
        f = lax.convert_element_type(x, D.default_float())
        s = scalar_like(f, 10.0 ** (-decimals))
        return lax.convert_element_type(lax.mul(lax.round(lax.div(f, s), 1), s), dt)
    if D.kind(dt) == 3:
        return lax.complex(round(lax.real(x), decimals=decimals), round(lax.imag(x), decimals=decimals))
    if decimals == 0:
        return lax.round(x, 1)
    s = scalar_like(x, 10.0 ** decimals)
    return lax.div(lax.round(lax.mul(x, s), 1), s)


around = round


# ---- complex parts ---------------------------------------------------------------------------

def conj(x: Any, /) -> Any:
    """Complex conjugate (real inputs unchanged).

    Args:
        x: an array, Python scalar or nested sequence.

    Returns:
        An array of x's shape and dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.conj(pnp.array([1 + 2j, 3 - 1j])).tolist()
        [(1-2j), (3+1j)]
    """
    x = to_array(x)
    return lax.conj(x) if D.kind(x.aval.dtype) == 3 else x


conjugate = conj


def real(x: Any, /) -> Any:
    """Real part (real inputs unchanged). On a Tensor, `x.real()` is a method, as in Paddle (NumPy: a property).

    Args:
        x: an array, Python scalar or nested sequence.

    Returns:
        An array of x's shape; the matching real dtype for complex x.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.real(pnp.array([1 + 2j, 3 - 1j])).tolist()
        [1.0, 3.0]
    """
    x = to_array(x)
    return lax.real(x) if D.kind(x.aval.dtype) == 3 else x


def imag(x: Any, /) -> Any:
    """Imaginary part (zeros for real inputs). On a Tensor, `x.imag()` is a method, as in Paddle (NumPy: a
    property).

    Args:
        x: an array, Python scalar or nested sequence.

    Returns:
        An array of x's shape; the matching real dtype for complex x (zeros of x's dtype otherwise).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.imag(pnp.array([1 + 2j, 3 - 1j])).tolist()
        [2.0, -1.0]
    """
    x = to_array(x)
    if D.kind(x.aval.dtype) == 3:
        return lax.imag(x)
    return lax.broadcast_in_dim(np.zeros((), x.aval.dtype), x.aval.shape, ())


def angle(z: Any, deg: builtins.bool = False) -> Any:
    """The argument of complex z (0 or pi for reals), in radians or degrees.

    Args:
        z: an array, Python scalar or nested sequence (integers and bool: the default float).
        deg: give degrees instead of radians.

    Returns:
        A real floating array of z's shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.angle(pnp.array([1j, -1.0])).tolist()
        [1.5708, 3.1416]
        >>> pnp.angle(pnp.array([1 + 1j]), deg=True).tolist()
        [45.0]
    """
    z = to_inexact(z)
    if D.kind(z.aval.dtype) == 3:
        out = lax.atan2(lax.imag(z), lax.real(z))
    else:
        out = lax.atan2(scalar_like(z, 0), z)
    return lax.mul(out, scalar_like(out, 180.0 / np.pi)) if deg else out


# ---- comparisons -----------------------------------------------------------------------------

def _compare(name: str, fn, ordered: builtins.bool, example: tuple[str, str, str]):
    def wrapped(x1: Any, x2: Any, /) -> Any:
        a, b = promote_broadcast(name, x1, x2)
        if ordered and D.kind(a.aval.dtype) == 3:
            raise op_type_error(name, f"complex numbers have no order, got {a.aval.str_short()}")
        return fn(a, b)
    wrapped.__name__ = wrapped.__qualname__ = name
    wrapped.__doc__ = doc_with_example(
        f"Elementwise x1 {name.replace('_', ' ')} x2, as bool.", name, example[:-1], example[-1],
        params=("x1, x2: arrays, array-likes or Python scalars; promoted to a common dtype and broadcast"
                + (" (complex operands are rejected: they have no order)." if ordered else ".")),
        returns="A bool array of the broadcast shape.")
    return wrapped


equal = _compare("equal", lax.eq, False, ('[1, 2, 3]', '2', '[False, True, False]'))
not_equal = _compare("not_equal", lax.ne, False, ('[1, 2, 3]', '2', '[True, False, True]'))
less = _compare("less", lax.lt, True, ('[1, 2, 3]', '2', '[True, False, False]'))
less_equal = _compare("less_equal", lax.le, True, ('[1, 2, 3]', '2', '[True, True, False]'))
greater = _compare("greater", lax.gt, True, ('[1, 2, 3]', '2', '[False, False, True]'))
greater_equal = _compare("greater_equal", lax.ge, True, ('[1, 2, 3]', '2', '[False, True, True]'))


# ---- logic and bits ----------------------------------------------------------------------------

def _as_bool(x: Any) -> Any:
    x = to_array(x)
    return x if x.aval.dtype == D.bool_ else lax.ne(x, scalar_like(x, 0))


def _logical(name: str, fn, example: tuple[str, str, str]):
    def wrapped(x1: Any, x2: Any, /) -> Any:
        a, b = _as_bool(x1), _as_bool(x2)
        shape = broadcast_shapes(name, a.aval.shape, b.aval.shape)
        return fn(broadcast_to(a, shape), broadcast_to(b, shape))
    wrapped.__name__ = wrapped.__qualname__ = name
    wrapped.__doc__ = doc_with_example(
        f"Elementwise {name} of truth values.", name, example[:-1], example[-1],
        params="x1, x2: arrays or array-likes of any dtype (nonzero counts as True); broadcast together.",
        returns="A bool array of the broadcast shape.")
    return wrapped


logical_and = _logical("logical_and", lax.bitwise_and,
                       ('[True, True, False]', '[True, False, False]', '[True, False, False]'))
logical_or = _logical("logical_or", lax.bitwise_or,
                      ('[True, True, False]', '[True, False, False]', '[True, True, False]'))
logical_xor = _logical("logical_xor", lax.bitwise_xor,
                       ('[True, True, False]', '[True, False, False]', '[False, True, False]'))


def logical_not(x: Any, /) -> Any:
    """Elementwise not of truth values.

    Args:
        x: an array or array-like of any dtype (nonzero counts as True).

    Returns:
        A bool array of x's shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.logical_not(pnp.array([True, False])).tolist()
        [False, True]
        >>> pnp.logical_not(pnp.array([0, 3])).tolist()
        [True, False]
    """
    return lax.bitwise_not(_as_bool(x))


def _bitwise(name: str, fn, example: tuple[str, str, str]):
    def wrapped(x1: Any, x2: Any, /) -> Any:
        a, b = promote_broadcast(name, x1, x2)
        check(name, a, _int_or_bool, "integer or bool")
        return fn(a, b)
    wrapped.__name__ = wrapped.__qualname__ = name
    wrapped.__doc__ = doc_with_example(
        f"Elementwise {name} of integer or bool operands.", name, example[:-1], example[-1],
        params="x1, x2: integer or bool arrays or Python scalars; promoted to a common dtype and broadcast.",
        returns="An array of the broadcast shape in the promoted dtype.")
    return wrapped


bitwise_and = _bitwise("bitwise_and", lax.bitwise_and, ('[12, 10]', '6', '[4, 2]'))
bitwise_or = _bitwise("bitwise_or", lax.bitwise_or, ('[12, 10]', '6', '[14, 14]'))
bitwise_xor = _bitwise("bitwise_xor", lax.bitwise_xor, ('[12, 10]', '6', '[10, 12]'))


def bitwise_invert(x: Any, /) -> Any:
    """~x for integers (not for bool).

    Args:
        x: an integer or bool array, Python scalar or nested sequence.

    Returns:
        An array of x's shape and dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.bitwise_invert(pnp.array([0, 5])).tolist()
        [-1, -6]
        >>> pnp.bitwise_invert(pnp.array([0, 5], dtype=pnp.uint8)).tolist()
        [255, 250]
    """
    x = to_array(x)
    check("bitwise_invert", x, _int_or_bool, "integer or bool")
    return lax.bitwise_not(x)


invert = bitwise_not = bitwise_invert


def bitwise_left_shift(x1: Any, x2: Any, /) -> Any:
    """x1 << x2 (integers; x2 must be non-negative).

    Args:
        x1, x2: integer arrays, array-likes or Python scalars; promoted to a common dtype and broadcast.

    Returns:
        An integer array of the broadcast shape in the promoted dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.bitwise_left_shift(pnp.array([1, 3]), 2).tolist()
        [4, 12]
    """
    a, b = promote_broadcast("bitwise_left_shift", x1, x2)
    check("bitwise_left_shift", a, lambda d: D.kind(d) == 1, "integer")
    return lax.shift_left(a, b)


def bitwise_right_shift(x1: Any, x2: Any, /) -> Any:
    """x1 >> x2 (sign-filling for signed integers).

    Args:
        x1, x2: integer arrays, array-likes or Python scalars; promoted to a common dtype and broadcast.

    Returns:
        An integer array of the broadcast shape in the promoted dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.bitwise_right_shift(pnp.array([16, -16]), 2).tolist()
        [4, -4]
    """
    a, b = promote_broadcast("bitwise_right_shift", x1, x2)
    check("bitwise_right_shift", a, lambda d: D.kind(d) == 1, "integer")
    if a.aval.dtype.kind == "u":
        return lax.shift_right_logical(a, b)
    return lax.shift_right_arithmetic(a, b)


left_shift = bitwise_left_shift
right_shift = bitwise_right_shift


def bitwise_count(x: Any, /) -> Any:
    """The number of 1 bits in |x| (uint8 result, as NumPy).

    Args:
        x: an integer or bool array, Python scalar or nested sequence.

    Returns:
        A uint8 array of x's shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.bitwise_count(pnp.array([7, -8, 255])).tolist()
        [3, 1, 8]
    """
    x = to_array(x)
    check("bitwise_count", x, _int_or_bool, "integer or bool")
    if x.aval.dtype == D.bool_:
        return lax.convert_element_type(x, D.uint8)
    if x.aval.dtype.kind == "i":
        x = lax.abs(x)
    return lax.convert_element_type(lax.population_count(x), D.uint8)


# ---- classification -----------------------------------------------------------------------------

def isnan(x: Any, /) -> Any:
    """True where x is NaN (either part for complex).

    Args:
        x: an array, Python scalar or nested sequence.

    Returns:
        A bool array of x's shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.isnan(pnp.array([1.0, pnp.nan, pnp.inf])).tolist()
        [False, True, False]
    """
    x = to_array(x)
    if D.kind(x.aval.dtype) < 2:
        return lax.broadcast_in_dim(np.bool_(False), x.aval.shape, ())
    return lax.ne(x, x)


def isinf(x: Any, /) -> Any:
    """True where x is infinite (either part for complex).

    Args:
        x: an array, Python scalar or nested sequence.

    Returns:
        A bool array of x's shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.isinf(pnp.array([1.0, pnp.nan, -pnp.inf])).tolist()
        [False, False, True]
    """
    return _M.isinf(to_array(x))


def isfinite(x: Any, /) -> Any:
    """True where x is neither infinite nor NaN.

    Args:
        x: an array, Python scalar or nested sequence.

    Returns:
        A bool array of x's shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.isfinite(pnp.array([1.0, pnp.nan, pnp.inf])).tolist()
        [True, False, False]
    """
    return _M.isfinite(to_array(x))


def isposinf(x: Any, /) -> Any:
    """True where x is +inf.

    Args:
        x: an array, Python scalar or nested sequence.

    Returns:
        A bool array of x's shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.isposinf(pnp.array([1.0, pnp.inf, -pnp.inf])).tolist()
        [False, True, False]
    """
    x = to_array(x)
    if D.kind(x.aval.dtype) < 2:
        return isnan(x)
    return lax.eq(x, scalar_like(x, np.inf))


def isneginf(x: Any, /) -> Any:
    """True where x is -inf.

    Args:
        x: an array, Python scalar or nested sequence.

    Returns:
        A bool array of x's shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.isneginf(pnp.array([1.0, pnp.inf, -pnp.inf])).tolist()
        [False, False, True]
    """
    x = to_array(x)
    if D.kind(x.aval.dtype) < 2:
        return isnan(x)
    return lax.eq(x, scalar_like(x, -np.inf))


def isreal(x: Any, /) -> Any:
    """True where the imaginary part is zero.

    Args:
        x: an array, Python scalar or nested sequence.

    Returns:
        A bool array of x's shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.isreal(pnp.array([1 + 0j, 1 + 2j])).tolist()
        [True, False]
    """
    x = to_array(x)
    if D.kind(x.aval.dtype) < 3:
        return lax.broadcast_in_dim(np.bool_(True), x.aval.shape, ())
    im = lax.imag(x)
    return lax.eq(im, scalar_like(im, 0))


def iscomplex(x: Any, /) -> Any:
    """True where the imaginary part is nonzero.

    Args:
        x: an array, Python scalar or nested sequence.

    Returns:
        A bool array of x's shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.iscomplex(pnp.array([1 + 0j, 1 + 2j])).tolist()
        [False, True]
    """
    return lax.bitwise_not(isreal(x))


def iscomplexobj(x: Any) -> builtins.bool:
    """Whether x has a complex dtype.

    Args:
        x: an array, dtype-carrying value or Python scalar (only its dtype is looked at).

    Returns:
        A Python bool.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.iscomplexobj(pnp.array([1 + 0j])), pnp.iscomplexobj(pnp.array([1.0]))
        (True, False)
    """
    return D.kind(D.dtype_weak(x)[0]) == 3


def isrealobj(x: Any) -> builtins.bool:
    """Whether x does not have a complex dtype.

    Args:
        x: an array, dtype-carrying value or Python scalar (only its dtype is looked at).

    Returns:
        A Python bool.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.isrealobj(pnp.array([1 + 0j])), pnp.isrealobj(pnp.array([1.0]))
        (False, True)
    """
    return not iscomplexobj(x)


# ---- clip and friends ------------------------------------------------------------------------------

def _bound(b: Any, dt: np.dtype, lower: builtins.bool) -> Any:
    """A clip bound in x's dtype; Python numbers beyond an integer dtype's range are clamped into it."""
    if is_scalar(b) and dt.kind in "iu" and not isinstance(b, builtins.bool):
        info = np.iinfo(dt)
        if isinstance(b, builtins.float):
            if np.isnan(b):
                return None
            if np.isinf(b):
                b = info.min if b < 0 else info.max
            b = builtins.int(np.ceil(b) if lower else np.floor(b))
        b = builtins.min(builtins.max(b, builtins.int(info.min)), builtins.int(info.max))
    return to_array(b, dt)


def clip(x: Any, /, min: Any = None, max: Any = None) -> Any:
    """Limit x to [min, max] (either may be None); keeps x's dtype, broadcasts with the bounds.

    Args:
        x: a real array, Python scalar or nested sequence.
        min, max: the lower and upper bounds (scalars or arrays broadcast with x; None: no bound); cast to x's dtype.

    Returns:
        An array of x's dtype and the broadcast shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.clip(pnp.array([-2, 0, 5, 9]), 0, 6).tolist()
        [0, 0, 5, 6]
        >>> pnp.clip(pnp.array([-2.0, 9.0]), max=1.5).tolist()
        [-2.0, 1.5]
    """
    x = to_array(x)
    dt = x.aval.dtype
    check("clip", x, _real, "real")
    for b, fn, lower in ((min, lax.max, True), (max, lax.min, False)):
        if b is None:
            continue
        bb = _bound(b, dt, lower)
        if bb is None:
            continue
        shape = broadcast_shapes("clip", x.aval.shape, bb.aval.shape)
        x = fn(broadcast_to(x, shape), broadcast_to(bb, shape))
    return x


def nan_to_num(x: Any, copy: builtins.bool = True, nan: Any = 0.0, posinf: Any = None, neginf: Any = None) -> Any:
    """Replace NaN by `nan` and infinities by `posinf`/`neginf` (default: the dtype's extremes).

    Args:
        x: an array, Python scalar or nested sequence.
        copy: accepted for NumPy compatibility (padax arrays are immutable, so no effect).
        nan: the value replacing NaN.
        posinf, neginf: the values replacing +inf and -inf (None: the dtype's largest and lowest finite value).

    Returns:
        An array of x's shape and dtype (complex: both parts replaced).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.nan_to_num(pnp.array([pnp.nan, 1.0, -pnp.inf]), neginf=-9.0).tolist()
        [0.0, 1.0, -9.0]
    """
    x = to_array(x)
    dt = x.aval.dtype
    if D.kind(dt) < 2:
        return x
    if D.kind(dt) == 3:
        return lax.complex(nan_to_num(lax.real(x), nan=nan, posinf=posinf, neginf=neginf),
                           nan_to_num(lax.imag(x), nan=nan, posinf=posinf, neginf=neginf))
    info = D.finfo(dt)
    hi = info.max if posinf is None else posinf
    lo = info.min if neginf is None else neginf
    out = lax.select(lax.ne(x, x), scalar_like(x, nan), x)
    out = lax.select(lax.eq(out, scalar_like(x, np.inf)), scalar_like(x, hi), out)
    return lax.select(lax.eq(out, scalar_like(x, -np.inf)), scalar_like(x, lo), out)


def sinc(x: Any, /) -> Any:
    """sin(pi x) / (pi x), 1 at 0.

    Args:
        x: an array, Python scalar or nested sequence; integer and bool inputs are computed in the default
            float dtype.

    Returns:
        An array of x's shape in a floating (or complex) dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.sinc(pnp.array([0.0, 0.5, -0.5])).tolist()
        [1.0, 0.6366, 0.6366]
    """
    x = to_inexact(x)
    zero = lax.eq(x, scalar_like(x, 0))
    safe = lax.select(zero, scalar_like(x, 1), x)
    px = lax.mul(safe, scalar_like(x, np.pi))
    return lax.select(zero, scalar_like(x, 1), lax.div(lax.sin(px), px))


def deg2rad(x: Any, /) -> Any:
    """Degrees to radians.

    Args:
        x: an array, Python scalar or nested sequence; integer and bool inputs are computed in the default
            float dtype.

    Returns:
        An array of x's shape in a floating dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.deg2rad(pnp.array([180.0, 90.0])).tolist()
        [3.1416, 1.5708]
    """
    x = to_inexact(x)
    return lax.mul(x, scalar_like(x, np.pi / 180.0))


def rad2deg(x: Any, /) -> Any:
    """Radians to degrees.

    Args:
        x: an array, Python scalar or nested sequence; integer and bool inputs are computed in the default
            float dtype.

    Returns:
        An array of x's shape in a floating dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.rad2deg(pnp.array([pnp.pi, pnp.pi / 2])).tolist()
        [180.0, 90.0]
    """
    x = to_inexact(x)
    return lax.mul(x, scalar_like(x, 180.0 / np.pi))


radians = deg2rad
degrees = rad2deg


def _gcd_loop(a: Any, b: Any) -> Any:
    zero = scalar_like(a, 0)

    def cond(c):
        return lax.reduce_or(lax.ne(c[1], zero), tuple(builtins.range(a.aval.ndim)))

    def body(c):
        x, y = c
        nz = lax.ne(y, zero)
        safe = lax.select(nz, y, scalar_like(y, 1))
        return lax.select(nz, y, x), lax.select(nz, lax.rem(x, safe), zero)
    return while_loop(cond, body, (lax.abs(a), lax.abs(b)))[0]


def gcd(x1: Any, x2: Any, /) -> Any:
    """Greatest common divisor of integers (|gcd|, gcd(0, 0) = 0).

    Args:
        x1, x2: integer arrays, array-likes or Python scalars; promoted to a common dtype and broadcast.

    Returns:
        A non-negative integer array of the broadcast shape in the promoted dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.gcd(pnp.array([12, -18, 0]), pnp.array([8, 12, 0])).tolist()
        [4, 6, 0]
    """
    a, b = promote_broadcast("gcd", x1, x2)
    check("gcd", a, lambda d: D.kind(d) == 1, "integer")
    return _gcd_loop(a, b)


def lcm(x1: Any, x2: Any, /) -> Any:
    """Least common multiple of integers (0 if either is 0).

    Args:
        x1, x2: integer arrays, array-likes or Python scalars; promoted to a common dtype and broadcast.

    Returns:
        A non-negative integer array of the broadcast shape in the promoted dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.lcm(pnp.array([4, -6, 0]), pnp.array([6, 4, 5])).tolist()
        [12, 12, 0]
    """
    a, b = promote_broadcast("lcm", x1, x2)
    check("lcm", a, lambda d: D.kind(d) == 1, "integer")
    g = _gcd_loop(a, b)
    zero = scalar_like(g, 0)
    safe = lax.select(lax.eq(g, zero), scalar_like(g, 1), g)
    return lax.select(lax.eq(g, zero), zero, lax.abs(lax.mul(lax.div(a, safe), b)))


def modf(x: Any, /) -> tuple[Any, Any]:
    """(fractional part, integral part), both with x's sign.

    Args:
        x: an array, Python scalar or nested sequence; integer and bool inputs are computed in the default
            float dtype.

    Returns:
        A tuple (fractional, integral) of floating arrays of x's shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> frac, whole = pnp.modf(pnp.array([2.5, -1.25]))
        >>> frac.tolist(), whole.tolist()
        ([0.5, -0.25], [2.0, -1.0])
    """
    x = to_inexact(x)
    i = _trunc(x)
    return lax.sub(x, i), i


def frexp(x: Any, /) -> tuple[Any, Any]:
    """(mantissa, exponent) with x = mantissa * 2**exponent, 0.5 <= |mantissa| < 1; the exponent is
    int32, as numpy's and jax's.

    Args:
        x: a real array, Python scalar or nested sequence (integers and bool: the default float).

    Returns:
        A tuple (mantissa of x's floating dtype, int32 exponent), both of x's shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> m, e = pnp.frexp(pnp.array([8.0, 0.75]))
        >>> m.tolist(), e.tolist()
        ([0.5, 0.75], [4, 0])
    """
    x = to_inexact(x)
    check("frexp", x, _real, "real")
    m, e = _M.frexp(x)
    return m, lax.convert_element_type(e, D.int32)


__all__ = ["frexp", "exp", "expm1", "log", "log1p", "sqrt", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh",
           "tanh", "asinh", "acosh", "atanh", "exp2", "cbrt", "log2", "log10", "reciprocal", "add", "subtract",
           "multiply", "divide", "true_divide", "floor_divide", "remainder", "mod", "divmod", "fmod", "pow",
           "power", "float_power", "maximum", "minimum", "fmax", "fmin", "negative", "positive", "abs",
           "absolute", "fabs", "square", "sign", "signbit", "copysign", "hypot", "logaddexp", "logaddexp2",
           "atan2", "nextafter", "ldexp", "heaviside", "floor", "ceil", "trunc", "fix", "rint", "round",
           "around", "conj", "conjugate", "real", "imag", "angle", "equal", "not_equal", "less", "less_equal",
           "greater", "greater_equal", "logical_and", "logical_or", "logical_xor", "logical_not", "bitwise_and",
           "bitwise_or", "bitwise_xor", "bitwise_invert", "bitwise_not", "invert", "bitwise_left_shift",
           "bitwise_right_shift", "left_shift", "right_shift", "bitwise_count", "isnan", "isinf", "isfinite",
           "isposinf", "isneginf", "isreal", "iscomplex", "iscomplexobj", "isrealobj", "clip", "nan_to_num",
           "sinc", "deg2rad", "rad2deg", "radians", "degrees", "gcd", "lcm", "modf"]
