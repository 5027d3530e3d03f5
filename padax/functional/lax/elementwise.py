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

import enum
from typing import Callable

import numpy as np

from padax.core import ad_util, dtypes
from padax.core.abstract import ShapedArray, get_aval
from padax.core.ad_util import Zero, defjvp, defjvp_with_output, deflinear, defzero_jvp, is_undefined
from padax.core.errors import op_type_error
from padax.core.primitive import Primitive
from padax.functional._arrays import asarray, full, is_array, static_int
from padax.functional._docs import LAX_IMPORTS, example_doc
from padax.functional.lax.structural import batch_size, bdim_to_front, select_n_p


# dtype-kind predicates used to validate operands
def _any(d):
    return True


def elementwise_batch_rule(prim):
    """Batch rule for elementwise primitives: batched operands' axes moved to the front,
    unbatched ones broadcast (scalars-as-params are unaffected)."""
    def rule(args, dims, **params):
        size = batch_size(args, dims)
        ranks = [get_aval(x).ndim - (d is not None) for x, d in zip(args, dims)]
        if all(d == dims[0] for d in dims) and len(set(ranks)) == 1:
            return prim.bind(*args, **params), dims[0]
        xs = [bdim_to_front(x, d, size) for x, d in zip(args, dims)]
        return prim.bind(*xs, **params), 0
    prim.batch_rule = rule
    return rule


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

_PY_SCALARS = (bool, int, float, complex)  # (this module later shadows `complex`, `max`, ...)

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
polygamma_p = binop("polygamma", _floating)  # polygamma(n, x): n-th derivative of digamma, n integral
zeta_p = binop("zeta", _floating)  # Hurwitz zeta(x, q) = sum_n (n + q)**-x, x > 1
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
    """Host arrays become arrays; a Python scalar takes the other operand's dtype and shape."""
    if not is_array(x) and not isinstance(x, _PY_SCALARS):
        x = asarray(x)
    if not is_array(y) and not isinstance(y, _PY_SCALARS):
        y = asarray(y)
    if is_array(x):
        return x, y if is_array(y) else full(x.aval.shape, y, x.aval.dtype)
    if is_array(y):
        return full(y.aval.shape, x, y.aval.dtype), y
    return asarray(x), asarray(y)


# name -> (what it computes, an example call, the example's result): the wrappers' docstrings
_EXAMPLES: dict[str, tuple[str, str, str]] = {
    "neg": ("-x", "lax.neg(padax.to_tensor([1.0, -2.0])).tolist()", "[-1.0, 2.0]"),
    "sign": ("The sign of x: -1, 0 or 1 (keeps -0.0 and NaN)", "lax.sign(padax.to_tensor([-3.0, 0.0, 2.0])).tolist()",
             "[-1.0, 0.0, 1.0]"),
    "abs": ("|x|; the modulus (a real array) for complex x", "lax.abs(padax.to_tensor([-1.5, 3 + 4j])).tolist()",
            "[1.5, 5.0]"),
    "floor": ("The largest integer <= x, as a float", "lax.floor(padax.to_tensor([-1.5, 1.5])).tolist()",
              "[-2.0, 1.0]"),
    "ceil": ("The smallest integer >= x, as a float", "lax.ceil(padax.to_tensor([-1.5, 1.5])).tolist()",
             "[-1.0, 2.0]"),
    "is_finite": ("Whether x is neither infinite nor NaN (a bool array)",
                  "lax.is_finite(padax.to_tensor([1.0, float('inf'), float('nan')])).tolist()",
                  "[True, False, False]"),
    "exp": ("e ** x", "lax.exp(padax.to_tensor([0.0, 1.0])).tolist()", "[1.0, 2.71828]"),
    "exp2": ("2 ** x", "lax.exp2(padax.to_tensor([0.0, 3.0])).tolist()", "[1.0, 8.0]"),
    "log": ("The natural logarithm", "lax.log(padax.to_tensor([1.0, 100.0])).tolist()", "[0.0, 4.60517]"),
    "expm1": ("e ** x - 1, accurate for small x",
              "lax.expm1(padax.to_tensor([0.0, 1e-10], dtype='float64')).tolist()", "[0.0, 1.00000000005e-10]"),
    "log1p": ("log(1 + x), accurate for small x",
              "lax.log1p(padax.to_tensor([0.0, 1e-10], dtype='float64')).tolist()", "[0.0, 9.9999999995e-11]"),
    "tanh": ("The hyperbolic tangent", "lax.tanh(padax.to_tensor([0.0, 1.0])).tolist()", "[0.0, 0.76159]"),
    "logistic": ("The logistic sigmoid 1 / (1 + e ** -x)", "lax.logistic(padax.to_tensor([0.0, 2.0])).tolist()",
                 "[0.5, 0.88080]"),
    "sin": ("The sine (radians)", "lax.sin(padax.to_tensor([0.0, 1.0])).tolist()", "[0.0, 0.84147]"),
    "cos": ("The cosine (radians)", "lax.cos(padax.to_tensor([0.0, 1.0])).tolist()", "[1.0, 0.54030]"),
    "tan": ("The tangent (radians)", "lax.tan(padax.to_tensor([0.0, 1.0])).tolist()", "[0.0, 1.55741]"),
    "asin": ("The inverse sine", "lax.asin(padax.to_tensor([0.0, 1.0])).tolist()", "[0.0, 1.57080]"),
    "acos": ("The inverse cosine", "lax.acos(padax.to_tensor([1.0, 0.0])).tolist()", "[0.0, 1.57080]"),
    "atan": ("The inverse tangent", "lax.atan(padax.to_tensor([0.0, 1.0])).tolist()", "[0.0, 0.78540]"),
    "sinh": ("The hyperbolic sine", "lax.sinh(padax.to_tensor([0.0, 1.0])).tolist()", "[0.0, 1.17520]"),
    "cosh": ("The hyperbolic cosine", "lax.cosh(padax.to_tensor([0.0, 1.0])).tolist()", "[1.0, 1.54308]"),
    "asinh": ("The inverse hyperbolic sine", "lax.asinh(padax.to_tensor([0.0, 1.0])).tolist()", "[0.0, 0.88137]"),
    "acosh": ("The inverse hyperbolic cosine (x >= 1)", "lax.acosh(padax.to_tensor([1.0, 2.0])).tolist()",
              "[0.0, 1.31696]"),
    "atanh": ("The inverse hyperbolic tangent (|x| < 1)", "lax.atanh(padax.to_tensor([0.0, 0.5])).tolist()",
              "[0.0, 0.54931]"),
    "sqrt": ("The square root", "lax.sqrt(padax.to_tensor([4.0, 2.0])).tolist()", "[2.0, 1.41421]"),
    "rsqrt": ("The reciprocal square root 1 / sqrt(x)", "lax.rsqrt(padax.to_tensor([4.0, 0.25])).tolist()",
              "[0.5, 2.0]"),
    "cbrt": ("The real cube root (negative for negative x)", "lax.cbrt(padax.to_tensor([8.0, -27.0])).tolist()",
             "[2.0, -3.0]"),
    "erf": ("The error function", "lax.erf(padax.to_tensor([0.0, 1.0])).tolist()", "[0.0, 0.84270]"),
    "erfc": ("The complementary error function 1 - erf(x)", "lax.erfc(padax.to_tensor([0.0, 1.0])).tolist()",
             "[1.0, 0.15730]"),
    "erf_inv": ("The inverse error function on (-1, 1)", "lax.erf_inv(padax.to_tensor([0.0, 0.5])).tolist()",
                "[0.0, 0.47694]"),
    "lgamma": ("log |Gamma(x)|", "lax.lgamma(padax.to_tensor([3.0, 5.0])).tolist()  # log 2, log 24",
               "[0.69315, 3.17805]"),
    "digamma": ("The digamma function, the derivative of lgamma", "lax.digamma(padax.to_tensor([1.0, 2.0])).tolist()",
                "[-0.57722, 0.42278]"),
    "square": ("x * x", "lax.square(padax.to_tensor([3, -4])).tolist()", "[9, 16]"),
    "real": ("The real part of a complex array (a real array)",
             "lax.real(padax.to_tensor([1 + 2j, 3 - 4j])).tolist()", "[1.0, 3.0]"),
    "imag": ("The imaginary part of a complex array (a real array)",
             "lax.imag(padax.to_tensor([1 + 2j, 3 - 4j])).tolist()", "[2.0, -4.0]"),
    "conj": ("The complex conjugate", "lax.conj(padax.to_tensor([1 + 2j, 3 - 4j])).tolist()", "[(1-2j), (3+4j)]"),
    "not": ("Bitwise NOT of integers, logical NOT of bools",
            "lax.bitwise_not(padax.to_tensor([0, 5])).tolist(), lax.bitwise_not(padax.to_tensor([True])).tolist()",
            "([-1, -6], [False])"),
    "population_count": ("The number of set bits of each integer",
                         "lax.population_count(padax.to_tensor([0, 7, 255])).tolist()", "[0, 3, 8]"),
    "clz": ("The number of leading zero bits of each integer",
            "lax.clz(padax.to_tensor([1, 256], dtype='int32')).tolist()", "[31, 23]"),
    "add": ("x + y", "lax.add(padax.to_tensor([1.0, 2.0]), padax.to_tensor([10.0, 20.0])).tolist()", "[11.0, 22.0]"),
    "sub": ("x - y", "lax.sub(padax.to_tensor([5, 7]), padax.to_tensor([2, 9])).tolist()", "[3, -2]"),
    "mul": ("x * y", "lax.mul(padax.to_tensor([2.0, 3.0]), 4.0).tolist()", "[8.0, 12.0]"),
    "div": ("x / y; integers truncate toward zero (C-style, not floor division)",
            "lax.div(padax.to_tensor([7, -7]), 2).tolist()", "[3, -3]"),
    "rem": ("The remainder of x / y with x's sign (C's fmod, not Python's %)",
            "lax.rem(padax.to_tensor([7, -7]), 3).tolist()", "[1, -1]"),
    "pow": ("x ** y for floating or complex operands",
            "lax.pow(padax.to_tensor([2.0, 9.0]), padax.to_tensor([3.0, 0.5])).tolist()", "[8.0, 3.0]"),
    "max": ("The larger of x and y (NaN if either is NaN)",
            "lax.max(padax.to_tensor([1.0, 5.0]), padax.to_tensor([3.0, 2.0])).tolist()", "[3.0, 5.0]"),
    "min": ("The smaller of x and y (NaN if either is NaN)",
            "lax.min(padax.to_tensor([1.0, 5.0]), padax.to_tensor([3.0, 2.0])).tolist()", "[1.0, 2.0]"),
    "atan2": ("arctan(x / y) in [-pi, pi], the signs of both picking the quadrant",
              "lax.atan2(padax.to_tensor([1.0, 1.0]), padax.to_tensor([1.0, -1.0])).tolist()",
              "[0.78540, 2.35619]"),
    "nextafter": ("The next representable float after x in the direction of y",
                  "lax.nextafter(padax.to_tensor([1.0]), padax.to_tensor([2.0])).tolist()", "[1.0000001192092896]"),
    "complex": ("x + i*y from two real arrays (float32 gives complex64, float64 complex128)",
                "lax.complex(padax.to_tensor([1.0]), padax.to_tensor([2.0])).tolist()", "[(1+2j)]"),
    "polygamma": ("polygamma(n, x): the n-th derivative of digamma at x (n integral, as a float)",
                  "lax.polygamma(padax.to_tensor([1.0, 1.0]), padax.to_tensor([1.0, 2.0])).tolist()",
                  "[1.64493, 0.64493]"),
    "zeta": ("zeta(x, q): the Hurwitz zeta function, the sum over k >= 0 of (k + q) ** -x (x > 1)",
             "lax.zeta(padax.to_tensor([2.0]), padax.to_tensor([1.0])).tolist()  # pi**2 / 6", "[1.64493]"),
    "eq": ("x == y (a bool array)", "lax.eq(padax.to_tensor([1, 2]), padax.to_tensor([1, 3])).tolist()",
           "[True, False]"),
    "ne": ("x != y (a bool array)", "lax.ne(padax.to_tensor([1, 2]), padax.to_tensor([1, 3])).tolist()",
           "[False, True]"),
    "lt": ("x < y (a bool array)", "lax.lt(padax.to_tensor([1, 2]), padax.to_tensor([1, 3])).tolist()",
           "[False, True]"),
    "le": ("x <= y (a bool array)", "lax.le(padax.to_tensor([1, 4]), padax.to_tensor([1, 3])).tolist()",
           "[True, False]"),
    "gt": ("x > y (a bool array)", "lax.gt(padax.to_tensor([1, 4]), padax.to_tensor([1, 3])).tolist()",
           "[False, True]"),
    "ge": ("x >= y (a bool array)", "lax.ge(padax.to_tensor([1, 2]), padax.to_tensor([1, 3])).tolist()",
           "[True, False]"),
    "and": ("Bitwise AND of integers, logical AND of bools",
            "lax.bitwise_and(padax.to_tensor([12, 10]), padax.to_tensor([10, 6])).tolist()", "[8, 2]"),
    "or": ("Bitwise OR of integers, logical OR of bools",
           "lax.bitwise_or(padax.to_tensor([12, 10]), padax.to_tensor([10, 6])).tolist()", "[14, 14]"),
    "xor": ("Bitwise XOR of integers, logical XOR of bools",
            "lax.bitwise_xor(padax.to_tensor([12, 10]), padax.to_tensor([10, 6])).tolist()", "[6, 12]"),
    "shift_left": ("x << y (0 once y reaches the bit width)",
                   "lax.shift_left(padax.to_tensor([1, 3]), padax.to_tensor([4, 1])).tolist()", "[16, 6]"),
    "shift_right_arithmetic": ("x >> y, filling with the sign bit",
                               "lax.shift_right_arithmetic(padax.to_tensor([-16, 16]), 2).tolist()", "[-4, 4]"),
    "shift_right_logical": ("x >> y, filling with zeros (on the bit pattern: negative integers turn positive)",
                            "lax.shift_right_logical(padax.to_tensor([-16, 16], dtype='int8'), 2).tolist()",
                            "[60, 4]"),
}

_UNARY_ARGS = "x: an array (or a Python scalar)."
_BINARY_ARGS = ("x, y: arrays of equal shape and dtype (no broadcasting or promotion at this level);\n"
                "            either may be a Python scalar, which takes the other operand's dtype and shape.")


def _document(fn: Callable, prim: Primitive, public_name: str, args: str) -> Callable:
    """Name `fn` and give it a docstring with an example, from `_EXAMPLES`."""
    what, call, result = _EXAMPLES[prim.name]
    fn.__name__ = fn.__qualname__ = public_name
    fn.__doc__ = example_doc(f"{what}, elementwise (lax level).", [(call, result)], imports=LAX_IMPORTS, args=args,
                             returns="An array of the operands' shape (of their dtype unless said above).")
    return fn


_PUBLIC_NAMES = {"and": "bitwise_and", "or": "bitwise_or", "xor": "bitwise_xor", "not": "bitwise_not"}


def _binary_fn(prim: Primitive):
    def fn(x, y):
        x, y = _operands(x, y)
        return prim.bind(x, y)
    return _document(fn, prim, _PUBLIC_NAMES.get(prim.name, prim.name), _BINARY_ARGS)


def _unary_fn(prim: Primitive):
    def fn(x):
        return prim.bind(asarray(x))
    return _document(fn, prim, _PUBLIC_NAMES.get(prim.name, prim.name), _UNARY_ARGS)


add, sub, mul, div, rem, pow, max, min, atan2, nextafter, complex, polygamma, zeta = (
    _binary_fn(p) for p in (add_p, sub_p, mul_p, div_p, rem_p, pow_p, max_p, min_p, atan2_p,
                            nextafter_p, complex_p, polygamma_p, zeta_p))
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


class RoundingMethod(enum.IntEnum):
    """How `round` breaks ties (jax.lax.RoundingMethod's names and values).

    Args:
        value: 0 (AWAY_FROM_ZERO) or 1 (TO_NEAREST_EVEN).

    Returns:
        The RoundingMethod member (an int, so plain 0 and 1 work wherever a member does).

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> x, method = padax.to_tensor([2.5]), lax.RoundingMethod
        >>> lax.round(x, method.TO_NEAREST_EVEN).tolist(), lax.round(x, method.AWAY_FROM_ZERO).tolist()
        ([2.0], [3.0])
    """
    AWAY_FROM_ZERO = 0
    TO_NEAREST_EVEN = 1


def round(x, rounding_method: int = RoundingMethod.AWAY_FROM_ZERO):
    """Round half away from zero (0, RoundingMethod.AWAY_FROM_ZERO) or half to even (1, TO_NEAREST_EVEN).

    Args:
        x: a floating array.
        rounding_method: a RoundingMethod or its int value.

    Returns:
        An array of x's shape and dtype.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> x = padax.to_tensor([0.5, 1.5, -2.5])
        >>> lax.round(x).tolist()
        [1.0, 2.0, -3.0]
        >>> lax.round(x, lax.RoundingMethod.TO_NEAREST_EVEN).tolist()
        [0.0, 2.0, -2.0]
    """
    return round_p.bind(asarray(x), rounding_method=int(rounding_method))


def integer_pow(x, y: int):
    """x ** y for a static Python int y, by repeated multiplication (exact for integers).

    Args:
        x: a numeric array.
        y: a static Python int (non-negative for integer dtypes).

    Returns:
        An array of x's shape and dtype.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> lax.integer_pow(padax.to_tensor([2.0, 3.0]), 3).tolist()
        [8.0, 27.0]
        >>> lax.integer_pow(padax.to_tensor([2.0, 4.0]), -1).tolist()
        [0.5, 0.25]
    """
    return integer_pow_p.bind(asarray(x), y=static_int("integer_pow", y, "y"))



# ---- differentiation and batching ----------------------------------------------------------
# jvp rules are written with the lax wrappers above, so they differentiate again (any order).

def _mul(a, b):
    return mul_p.bind(a, b)


def _cst(x, value):
    """A constant shaped and typed like x."""
    a = get_aval(x)
    return full(a.shape, value, a.dtype)


def _trunc_div(x, y):
    q = div_p.bind(x, y)
    return select_n_p_bind(lt_p.bind(q, _cst(q, 0)), floor_p.bind(q), ceil_p.bind(q))


def select_n_p_bind(pred, on_false, on_true):
    return select_n_p.bind(pred, on_false, on_true)


# linear ops
def _add_transpose(ct, x, y):
    if type(ct) is Zero:
        return [None, None]
    return [ct if is_undefined(x) else None, ct if is_undefined(y) else None]


def _sub_transpose(ct, x, y):
    if type(ct) is Zero:
        return [None, None]
    return [ct if is_undefined(x) else None, neg_p.bind(ct) if is_undefined(y) else None]


def _mul_transpose(ct, x, y):
    if type(ct) is Zero:
        return [None, None]
    if is_undefined(x) and is_undefined(y):
        raise TypeError("mul: cannot transpose a product of two linear inputs (not linear)")
    if is_undefined(x):
        return [_mul(ct, y), None]
    return [None, _mul(x, ct)]


def _div_transpose(ct, x, y):
    if type(ct) is Zero:
        return [None, None]
    if is_undefined(y):
        raise TypeError("div: cannot transpose with respect to the denominator (not linear)")
    return [div_p.bind(ct, y), None]


deflinear(neg_p, lambda ct, x: [neg_p.bind(ct) if type(ct) is not Zero else None])
deflinear(real_p, lambda ct, x: [complex_p.bind(ct, _cst(ct, 0)) if type(ct) is not Zero else None])
deflinear(imag_p, lambda ct, x: [complex_p.bind(_cst(ct, 0), neg_p.bind(ct)) if type(ct) is not Zero else None])
deflinear(conj_p, lambda ct, x: [conj_p.bind(ct) if type(ct) is not Zero else None])
deflinear(complex_p, lambda ct, x, y: [real_p.bind(ct), neg_p.bind(imag_p.bind(ct))] if type(ct) is not Zero
          else [None, None])

defjvp(add_p, lambda t, x, y: t, lambda t, x, y: t)
add_p.transpose_rule = _add_transpose
ad_util.jaxval_adders[ShapedArray] = add_p.bind  # how the differentiation machinery adds tangents
defjvp(sub_p, lambda t, x, y: t, lambda t, x, y: neg_p.bind(t))
sub_p.transpose_rule = _sub_transpose
defjvp(mul_p, lambda t, x, y: _mul(t, y), lambda t, x, y: _mul(x, t))
mul_p.transpose_rule = _mul_transpose
defjvp_with_output(div_p, lambda t, out, x, y: div_p.bind(t, y),
                   lambda t, out, x, y: neg_p.bind(_mul(t, div_p.bind(out, y))))
div_p.transpose_rule = _div_transpose
defjvp(rem_p, lambda t, x, y: t, lambda t, x, y: neg_p.bind(_mul(t, _trunc_div(x, y))))


def _pow_dx(t, out, x, y):
    # y * x**(y-1), and 0 where y == 0 (x**0 is constant; 0 * 0**-1 would be NaN at x == 0)
    dx = _mul(y, pow_p.bind(x, sub_p.bind(y, _cst(y, 1))))
    return _mul(t, select_n_p_bind(eq_p.bind(y, _cst(y, 0)), dx, _cst(dx, 0)))


def _pow_dy(t, out, x, y):
    safe_log = log_p.bind(select_n_p_bind(eq_p.bind(x, _cst(x, 0)), x, _cst(x, 1)))
    return _mul(t, _mul(out, safe_log))


defjvp_with_output(pow_p, _pow_dx, _pow_dy)


def _balanced_share(t, out, x, y):
    """x's share of max/min's tangent, as jax: 1 where x alone equals the result, 0.5 where both do
    (a tie), 0 where it does not (so neither operand gets one where the result is NaN)."""
    w = select_n_p_bind(eq_p.bind(y, out), _cst(t, 1), _cst(t, 0.5))
    return _mul(t, select_n_p_bind(eq_p.bind(x, out), _cst(t, 0), w))


for _p in (max_p, min_p):
    defjvp_with_output(_p, _balanced_share, lambda t, out, x, y: _balanced_share(t, out, y, x))


def _atan2_dx(t, x, y):
    return _mul(t, div_p.bind(y, add_p.bind(_mul(x, x), _mul(y, y))))


def _atan2_dy(t, x, y):
    return _mul(t, neg_p.bind(div_p.bind(x, add_p.bind(_mul(x, x), _mul(y, y)))))


defjvp(atan2_p, _atan2_dx, _atan2_dy)

for _p in (sign_p, floor_p, ceil_p, round_p, is_finite_p, nextafter_p, eq_p, ne_p, lt_p, le_p, gt_p, ge_p,
           and_p, or_p, xor_p, not_p, shift_left_p, shift_right_arithmetic_p, shift_right_logical_p,
           population_count_p, clz_p):
    defzero_jvp(_p)


def _abs_jvp(t, x):
    a = get_aval(x)
    if dtypes.is_complex(a.dtype):
        # d|x| = Re(conj(x) t) / |x|, and 0 at x = 0 (|x| read as 1 there, as jax does, instead of 0/0 = NaN)
        out = abs_p.bind(x)
        safe = select_n_p_bind(eq_p.bind(out, _cst(out, 0)), out, _cst(out, 1))
        return div_p.bind(real_p.bind(_mul(conj_p.bind(x), t)), safe)
    return _mul(t, sign_p.bind(x))


defjvp(abs_p, _abs_jvp)
defjvp_with_output(exp_p, lambda t, out, x: _mul(t, out))
defjvp_with_output(exp2_p, lambda t, out, x: _mul(t, _mul(out, _cst(out, np.log(2.0)))))
defjvp(log_p, lambda t, x: div_p.bind(t, x))
defjvp_with_output(expm1_p, lambda t, out, x: _mul(t, add_p.bind(out, _cst(out, 1))))
defjvp(log1p_p, lambda t, x: div_p.bind(t, add_p.bind(x, _cst(x, 1))))
defjvp_with_output(tanh_p, lambda t, out, x: _mul(_mul(t, add_p.bind(_cst(out, 1), out)), sub_p.bind(_cst(out, 1), out)))
defjvp_with_output(logistic_p, lambda t, out, x: _mul(t, _mul(out, sub_p.bind(_cst(out, 1), out))))
defjvp(sin_p, lambda t, x: _mul(t, cos_p.bind(x)))
defjvp(cos_p, lambda t, x: neg_p.bind(_mul(t, sin_p.bind(x))))
defjvp_with_output(tan_p, lambda t, out, x: _mul(t, add_p.bind(_cst(out, 1), _mul(out, out))))
defjvp(asin_p, lambda t, x: _mul(t, rsqrt_p.bind(sub_p.bind(_cst(x, 1), _mul(x, x)))))
defjvp(acos_p, lambda t, x: neg_p.bind(_mul(t, rsqrt_p.bind(sub_p.bind(_cst(x, 1), _mul(x, x))))))
defjvp(atan_p, lambda t, x: div_p.bind(t, add_p.bind(_cst(x, 1), _mul(x, x))))
defjvp(sinh_p, lambda t, x: _mul(t, cosh_p.bind(x)))
defjvp(cosh_p, lambda t, x: _mul(t, sinh_p.bind(x)))
defjvp(asinh_p, lambda t, x: _mul(t, rsqrt_p.bind(add_p.bind(_mul(x, x), _cst(x, 1)))))
# acosh, atanh and cbrt use jax's formulas, so derivatives at the domain edges (x = 1, x = 0) agree
defjvp(acosh_p, lambda t, x: _mul(t, rsqrt_p.bind(sub_p.bind(_mul(x, x), _cst(x, 1)))))
defjvp(atanh_p, lambda t, x: _mul(div_p.bind(_cst(x, 1), add_p.bind(_cst(x, 1), x)),
                                  div_p.bind(t, sub_p.bind(_cst(x, 1), x))))
defjvp_with_output(sqrt_p, lambda t, out, x: _mul(t, div_p.bind(_cst(out, 0.5), out)))
defjvp_with_output(rsqrt_p, lambda t, out, x: _mul(t, _mul(_cst(out, -0.5), div_p.bind(out, x))))
defjvp_with_output(cbrt_p, lambda t, out, x: _mul(t, _mul(_cst(out, 1 / 3), integer_pow_p.bind(out, y=-2))))
defjvp(erf_p, lambda t, x: _mul(t, _mul(_cst(x, 2 / np.sqrt(np.pi)), exp_p.bind(neg_p.bind(_mul(x, x))))))
defjvp(erfc_p, lambda t, x: _mul(t, _mul(_cst(x, -2 / np.sqrt(np.pi)), exp_p.bind(neg_p.bind(_mul(x, x))))))
defjvp_with_output(erf_inv_p, lambda t, out, x: _mul(t, _mul(_cst(out, np.sqrt(np.pi) / 2),
                                                              exp_p.bind(_mul(out, out)))))
defjvp(lgamma_p, lambda t, x: _mul(t, digamma_p.bind(x)))
defjvp(digamma_p, lambda t, x: _mul(t, polygamma_p.bind(_cst(x, 1), x)))
defjvp(square_p, lambda t, x: _mul(t, _mul(_cst(x, 2), x)))


def _integer_pow_jvp(t, x, *, y):
    if y == 0:
        return _mul(t, _cst(t, 0))
    return _mul(t, _mul(_cst(x, y), integer_pow_p.bind(x, y=y - 1) if y != 1 else _cst(x, 1)))


defjvp(integer_pow_p, _integer_pow_jvp)
defjvp(polygamma_p, None, lambda t, n, x: _mul(t, polygamma_p.bind(add_p.bind(n, _cst(n, 1)), x)))


def _zeta_dx(t, x, q):
    raise TypeError("zeta(x, q): the derivative with respect to x is not implemented (only with respect to q)")


defjvp(zeta_p, _zeta_dx, lambda t, x, q: _mul(t, neg_p.bind(_mul(x, zeta_p.bind(add_p.bind(x, _cst(x, 1)), q)))))

for _p in list(unary_primitives.values()) + list(binary_primitives.values()):
    elementwise_batch_rule(_p)

__all__ = ["RoundingMethod", "polygamma", "zeta", "add", "sub", "mul", "div", "rem", "pow", "max", "min", "atan2", "nextafter", "complex",
           "eq", "ne", "lt", "le", "gt", "ge", "bitwise_and", "bitwise_or", "bitwise_xor",
           "shift_left", "shift_right_arithmetic", "shift_right_logical", "neg", "sign", "abs",
           "floor", "ceil", "round", "is_finite", "exp", "exp2", "log", "expm1", "log1p", "tanh",
           "logistic", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh",
           "acosh", "atanh", "sqrt", "rsqrt", "cbrt", "erf", "erfc", "erf_inv", "lgamma", "digamma",
           "square", "integer_pow", "real", "imag", "conj", "bitwise_not", "population_count", "clz"]


# Taylor mode (padax.transforms.collapsed) may apply these primitives' Taylor rules pointwise: smooth
# wherever they are defined, so their rules have no host-side checks
for _p in (exp_p, exp2_p, expm1_p, log_p, log1p_p, sin_p, cos_p, sinh_p, cosh_p, tanh_p, logistic_p, tan_p, sqrt_p,
           rsqrt_p, cbrt_p, integer_pow_p, square_p, asin_p, acos_p, atan_p, asinh_p, acosh_p, atanh_p, erf_p, erfc_p,
           lgamma_p, digamma_p, erf_inv_p, neg_p, add_p, sub_p, mul_p, div_p, pow_p, atan2_p):
    _p.taylor_pointwise = True
