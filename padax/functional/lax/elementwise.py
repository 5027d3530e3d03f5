"""Elementwise primitives: unary math, binary arithmetic, comparisons, logic, bitwise.

Operands of a binary primitive must already have equal shapes and dtypes
(broadcasting and promotion happen in the Paddle-level API above). The
result is weakly typed only if every operand is.

Semantics follow XLA where numpy has no single answer: integer div/rem
truncate toward zero (C-style, rem == np.fmod), max/min propagate NaN,
sign(-0.0) is -0.0, and shifts by >= the bit width give 0 (or the sign fill
for shift_right_arithmetic, which shifts the bit pattern even of unsigned types).
"""
from __future__ import annotations

from typing import Callable

from padax.core import dtypes
from padax.core.abstract import ShapedArray
from padax.core.errors import op_type_error
from padax.core.primitive import Primitive
from padax.functional._arrays import asarray, full, is_array

# dtype-kind predicates used to validate operands
def _any(d):
    return True


def _numeric(d):
    return d != dtypes.bool_


def _inexact(d):
    return dtypes.is_inexact(d)


def _floating(d):
    return dtypes.is_floating(d)


def _int_or_bool(d):
    return dtypes.is_integer(d) or d == dtypes.bool_


def _integer(d):
    return dtypes.is_integer(d)


def _signed_or_inexact(d):
    return d != dtypes.bool_ and not dtypes.is_unsigned(d)


def _int_or_floating(d):
    return dtypes.is_integer(d) or dtypes.is_floating(d)


def _complex(d):
    return dtypes.is_complex(d)


# how kind errors name each kind ("expected <this> operand"), article included
_KIND_NAMES = {_any: "an", _numeric: "a numeric", _inexact: "a floating or complex",
               _floating: "a floating", _int_or_bool: "an integer or bool", _integer: "an integer",
               _signed_or_inexact: "a signed or floating", _int_or_floating: "an integer or floating",
               _complex: "a complex"}

unary_primitives: dict[str, Primitive] = {}
binary_primitives: dict[str, Primitive] = {}


def _check_kind(name: str, aval: ShapedArray, accepts: Callable) -> None:
    if not accepts(aval.dtype):
        raise op_type_error(name, f"expected {_KIND_NAMES[accepts]} operand, got {aval.str_short()}")


def unop(name: str, accepts: Callable = _inexact, result_dtype: Callable | None = None) -> Primitive:
    """Define a unary elementwise primitive: shape preserved, dtype kept or mapped."""
    prim = Primitive(name)

    @prim.def_abstract_eval
    def _abstract(x: ShapedArray, **params) -> ShapedArray:
        _check_kind(name, x, accepts)
        dt = x.dtype if result_dtype is None else result_dtype(x.dtype)
        return ShapedArray(x.shape, dt, x.weak_type)

    unary_primitives[name] = prim
    return prim


def binop(name: str, accepts: Callable = _numeric, result_dtype: Callable | None = None) -> Primitive:
    """Define a binary elementwise primitive over equal shapes and dtypes."""
    prim = Primitive(name)

    @prim.def_abstract_eval
    def _abstract(x: ShapedArray, y: ShapedArray, **params) -> ShapedArray:
        if x.shape != y.shape or x.dtype != y.dtype:
            raise op_type_error(name, f"operands must have equal shapes and dtypes, got "
                                      f"{x.str_short()} and {y.str_short()}")
        _check_kind(name, x, accepts)
        dt = x.dtype if result_dtype is None else result_dtype(x.dtype)
        return ShapedArray(x.shape, dt, x.weak_type and y.weak_type)

    binary_primitives[name] = prim
    return prim


def _to_bool(d):
    return dtypes.bool_


def _real_part(d):
    return {dtypes.complex64: dtypes.float32, dtypes.complex128: dtypes.float64}.get(d, d)


# -- arithmetic --------------------------------------------------------------------
add_p = binop("add", _any)
sub_p = binop("sub")
mul_p = binop("mul", _any)
div_p = binop("div")
rem_p = binop("rem", _int_or_floating)  # complex remainder has no meaning (and crashes XLA:CPU)
pow_p = binop("pow", _inexact)
max_p = binop("max", _any)
min_p = binop("min", _any)
atan2_p = binop("atan2", _floating)
nextafter_p = binop("nextafter", _floating)
complex_p = binop("complex", _floating, lambda d: dtypes.complex128 if d == dtypes.float64 else dtypes.complex64)

neg_p = unop("neg", _numeric)
sign_p = unop("sign", _numeric)
abs_p = unop("abs", _numeric, _real_part)
floor_p = unop("floor", _floating)
ceil_p = unop("ceil", _floating)
round_p = unop("round", _floating)  # param rounding_method: 0 away from zero, 1 to nearest even
is_finite_p = unop("is_finite", _floating, _to_bool)
exp_p = unop("exp")
exp2_p = unop("exp2")
log_p = unop("log")
expm1_p = unop("expm1")
log1p_p = unop("log1p")
tanh_p = unop("tanh")
logistic_p = unop("logistic")
sin_p = unop("sin")
cos_p = unop("cos")
tan_p = unop("tan")
asin_p = unop("asin")
acos_p = unop("acos")
atan_p = unop("atan")
sinh_p = unop("sinh")
cosh_p = unop("cosh")
asinh_p = unop("asinh")
acosh_p = unop("acosh")
atanh_p = unop("atanh")
sqrt_p = unop("sqrt")
rsqrt_p = unop("rsqrt")
cbrt_p = unop("cbrt", _floating)
erf_p = unop("erf", _floating)
erfc_p = unop("erfc", _floating)
erf_inv_p = unop("erf_inv", _floating)
lgamma_p = unop("lgamma", _floating)
digamma_p = unop("digamma", _floating)
square_p = unop("square", _numeric)
integer_pow_p = unop("integer_pow", _numeric)  # param y: int (>= 0 for integer dtypes)
real_p = unop("real", _complex, _real_part)
imag_p = unop("imag", _complex, _real_part)
conj_p = unop("conj", _complex)


@integer_pow_p.def_abstract_eval
def _integer_pow_abstract(x: ShapedArray, *, y: int) -> ShapedArray:
    _check_kind("integer_pow", x, _numeric)
    if y < 0 and dtypes.is_integer(x.dtype):
        # 1/x**n truncates to 0 (and x=0 divides by zero): reject, as numpy does
        raise op_type_error("integer_pow", f"an integer operand {x.str_short()} cannot be raised "
                                           f"to the negative power {y}")
    return ShapedArray(x.shape, x.dtype, x.weak_type)

# -- comparisons ---------------------------------------------------------------------
# Complex numbers are ordered lexicographically by (real, imag), as in numpy; max/min
# use the same order.
eq_p = binop("eq", _any, _to_bool)
ne_p = binop("ne", _any, _to_bool)
lt_p = binop("lt", _any, _to_bool)
le_p = binop("le", _any, _to_bool)
gt_p = binop("gt", _any, _to_bool)
ge_p = binop("ge", _any, _to_bool)

# -- logic and bits (logical on bool, bitwise on integers) --------------------------------
and_p = binop("and", _int_or_bool)
or_p = binop("or", _int_or_bool)
xor_p = binop("xor", _int_or_bool)
not_p = unop("not", _int_or_bool)
shift_left_p = binop("shift_left", _integer)
shift_right_arithmetic_p = binop("shift_right_arithmetic", _integer)
shift_right_logical_p = binop("shift_right_logical", _integer)
population_count_p = unop("population_count", _integer)
clz_p = unop("clz", _integer)


# ---- lax-level wrappers -------------------------------------------------------------
# Operands may be arrays or Python scalars; a scalar takes the other operand's dtype.
# Shapes must already match (no broadcasting at this level, as in jax.lax).

def _operands(x, y):
    if is_array(x):
        return x, y if is_array(y) else full(x.aval.shape, y, x.aval.dtype)
    if is_array(y):
        return full(y.aval.shape, x, y.aval.dtype), y
    return asarray(x), asarray(y)


def _binary_fn(prim: Primitive):
    def fn(x, y):
        x, y = _operands(x, y)
        return prim.bind(x, y)
    fn.__name__ = prim.name
    fn.__doc__ = f"Elementwise `{prim.name}` of two arrays of equal shape and dtype (lax level)."
    return fn


def _unary_fn(prim: Primitive):
    def fn(x):
        return prim.bind(asarray(x))
    fn.__name__ = prim.name
    fn.__doc__ = f"Elementwise `{prim.name}` (lax level)."
    return fn


add, sub, mul, div, rem, pow, max, min, atan2, nextafter, complex = (
    _binary_fn(p) for p in (add_p, sub_p, mul_p, div_p, rem_p, pow_p, max_p, min_p, atan2_p,
                            nextafter_p, complex_p))
eq, ne, lt, le, gt, ge = (_binary_fn(p) for p in (eq_p, ne_p, lt_p, le_p, gt_p, ge_p))
bitwise_and, bitwise_or, bitwise_xor = (_binary_fn(p) for p in (and_p, or_p, xor_p))
shift_left, shift_right_arithmetic, shift_right_logical = (
    _binary_fn(p) for p in (shift_left_p, shift_right_arithmetic_p, shift_right_logical_p))
(neg, sign, abs, floor, ceil, is_finite, exp, exp2, log, expm1, log1p, tanh, logistic, sin, cos, tan,
 asin, acos, atan, sinh, cosh, asinh, acosh, atanh, sqrt, rsqrt, cbrt, erf, erfc, erf_inv, lgamma,
 digamma, square, real, imag, conj, bitwise_not, population_count, clz) = (
    _unary_fn(p) for p in (neg_p, sign_p, abs_p, floor_p, ceil_p, is_finite_p, exp_p, exp2_p, log_p,
                           expm1_p, log1p_p, tanh_p, logistic_p, sin_p, cos_p, tan_p, asin_p, acos_p,
                           atan_p, sinh_p, cosh_p, asinh_p, acosh_p, atanh_p, sqrt_p, rsqrt_p, cbrt_p,
                           erf_p, erfc_p, erf_inv_p, lgamma_p, digamma_p, square_p, real_p, imag_p,
                           conj_p, not_p, population_count_p, clz_p))


def round(x, rounding_method: int = 0):
    """Round half away from zero (0) or half to even (1)."""
    return round_p.bind(asarray(x), rounding_method=int(rounding_method))


def integer_pow(x, y: int):
    """x ** y for a static Python int y, by repeated multiplication (exact for integers)."""
    return integer_pow_p.bind(asarray(x), y=int(y))


__all__ = ["add", "sub", "mul", "div", "rem", "pow", "max", "min", "atan2", "nextafter", "complex",
           "eq", "ne", "lt", "le", "gt", "ge", "bitwise_and", "bitwise_or", "bitwise_xor",
           "shift_left", "shift_right_arithmetic", "shift_right_logical", "neg", "sign", "abs",
           "floor", "ceil", "round", "is_finite", "exp", "exp2", "log", "expm1", "log1p", "tanh",
           "logistic", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh",
           "acosh", "atanh", "sqrt", "rsqrt", "cbrt", "erf", "erfc", "erf_inv", "lgamma", "digamma",
           "square", "integer_pow", "real", "imag", "conj", "bitwise_not", "population_count", "clz"]
