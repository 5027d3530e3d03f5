"""Paddle's elementwise math: arithmetic, comparisons, logic, bitwise ops, unary functions.

Binary functions apply Paddle's type promotion (Python scalars are weak)
and numpy broadcasting first (`promote_and_broadcast`), then one lax op.
Transcendental functions of integer or bool inputs compute in float32, as
Paddle does; `divide` is true division.
"""
from __future__ import annotations

import builtins
from typing import Any, Callable

import numpy as np

from padax.core import dtypes
from padax.core.errors import op_type_error, op_value_error
from padax.core.trace import EvalTrace, Tracer, trace_state
from padax.functional import lax_api as lax, manipulation as _manipulation, search as _search
from padax.functional._arrays import (
    asarray,
    broadcast_shapes,
    broadcast_to,
    canonicalize_axis,
    full,
    is_array,
    promote_and_broadcast,
    result_dtype,
    static_int,
)
from padax.functional._checks import arg as _arg, write_out
from padax.functional._docs import example_doc
from padax.functional._fast import twin
from padax.functional.lax import elementwise as E
from padax.runtime import backend as _backend
from padax.runtime.array import Tensor

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
_backend.on_client_reset(_filled_cache.clear)  # cached fills live on the old client/default device


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
    tx = type(x)
    if tx is type(y) and (tx is Tensor or isinstance(x, Tracer)) and x.aval.dtype == y.aval.dtype \
            and x.aval.shape == y.aval.shape:
        return x, y  # the common case: nothing to promote or broadcast
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
    def compute(x):
        return prim_fn(_to_inexact(x))
    fast = twin(compute, prim_fn.__name__)

    def fn(x: Any, name: str | None = None, *, out: Any = None) -> Any:
        if type(x) is Tensor and out is None:
            return fast.call(x)  # (eager, on a Tensor: the compiled twin; see padax/functional/_fast.py)
        if out is not None:
            return write_out(out, fn(x=x, name=name), prim_fn.__name__)
        return compute(x)
    return fn


# ---- arithmetic -------------------------------------------------------------------------

def _add(x: Any, y: Any) -> Any:
    x, y = _binary("add", x, y)
    return E.add_p.bind(x, y)


def _subtract(x: Any, y: Any) -> Any:
    x, y = _binary("subtract", x, y)
    _check("subtract", x, _numeric, "numeric (not bool)")
    return E.sub_p.bind(x, y)


def _multiply(x: Any, y: Any) -> Any:
    x, y = _binary("multiply", x, y)
    return E.mul_p.bind(x, y)


# compiled twins of the binary ops for two Tensors (eager; see padax/functional/_fast.py)
add_tensors = twin(_add, "add")
subtract_tensors = twin(_subtract, "subtract")
multiply_tensors = twin(_multiply, "multiply")


def add(x: Any, y: Any, name: str | None = None, *, alpha: Any = 1, out: Any = None) -> Any:
    """x + alpha * y with Paddle promotion and broadcasting (logical or for bool).

    Args:
        x, y: Tensors or Python numbers, promoted and broadcast together as in Paddle.
        alpha: the factor y is multiplied by before the addition (default 1).
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Returns:
        A Tensor of the broadcast shape in the promoted dtype.

    Examples:
        >>> import padax
        >>> padax.add(padax.to_tensor([1.0, 2.0]), padax.to_tensor([10.0, 20.0])).tolist()
        [11.0, 22.0]
        >>> padax.add(padax.to_tensor([1, 2]), 1).tolist()
        [2, 3]
    """
    if type(x) is Tensor and type(y) is Tensor and alpha == 1 and out is None:
        return add_tensors.call(x, y)
    if out is not None:
        return write_out(out, add(x=x, y=y, name=name, alpha=alpha), "add")
    if alpha != 1:
        y = multiply(y, alpha)
    return _add(x, y)


def subtract(x: Any, y: Any, name: str | None = None, *, alpha: Any = 1, out: Any = None) -> Any:
    """x - alpha * y with Paddle promotion and broadcasting.

    Args:
        x, y: Tensors or Python numbers, promoted and broadcast together as in Paddle. Not bool.
        alpha: the factor y is multiplied by before the subtraction (default 1).
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Returns:
        A Tensor of the broadcast shape in the promoted dtype.

    Examples:
        >>> import padax
        >>> padax.subtract(padax.to_tensor([5.0, 3.0]), padax.to_tensor([1.0, 4.0])).tolist()
        [4.0, -1.0]
    """
    if type(x) is Tensor and type(y) is Tensor and alpha == 1 and out is None:
        return subtract_tensors.call(x, y)
    if out is not None:
        return write_out(out, subtract(x=x, y=y, name=name, alpha=alpha), "subtract")
    if alpha != 1:
        y = multiply(y, alpha)
    return _subtract(x, y)


def multiply(x: Any, y: Any, name: str | None = None, *, out: Any = None) -> Any:
    """x * y with Paddle promotion and broadcasting (logical and for bool).

    Args:
        x, y: Tensors or Python numbers, promoted and broadcast together as in Paddle.
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Returns:
        A Tensor of the broadcast shape in the promoted dtype.

    Examples:
        >>> import padax
        >>> padax.multiply(padax.to_tensor([[1.0], [2.0]]), padax.to_tensor([3.0, 4.0])).tolist()
        [[3.0, 4.0], [6.0, 8.0]]
    """
    if type(x) is Tensor and type(y) is Tensor and out is None:
        return multiply_tensors.call(x, y)
    if out is not None:
        return write_out(out, multiply(x=x, y=y, name=name), "multiply")
    return _multiply(x, y)


def divide(x: Any, y: Any, name: str | None = None, *, rounding_mode: str | None = None, out: Any = None) -> Any:
    """True division (integer and bool operands give float32); rounding_mode='trunc' rounds the quotient
    towards zero and 'floor' towards -inf, keeping integer operands integer.

    Args:
        x, y: dividend and divisor, Tensors or Python numbers, promoted and broadcast together.
        rounding_mode: None (true division), 'trunc' or 'floor'.
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Returns:
        A Tensor of the broadcast shape: the default float dtype (float32) for integer or bool operands when
        rounding_mode is None, the promoted dtype otherwise.

    Examples:
        >>> import padax
        >>> x, y = padax.to_tensor([7.0, -7.0]), padax.to_tensor([2.0, 2.0])
        >>> padax.divide(x, y).tolist()
        [3.5, -3.5]
        >>> padax.divide(x, y, rounding_mode='floor').tolist()
        [3.0, -4.0]
        >>> padax.divide(x, y, rounding_mode='trunc').tolist()
        [3.0, -3.0]
    """
    if out is not None:
        return write_out(out, divide(x=x, y=y, name=name, rounding_mode=rounding_mode), "divide")
    if rounding_mode is not None:
        if rounding_mode == "floor":
            return floor_divide(x, y)
        if rounding_mode != "trunc":
            raise op_value_error("divide", f"rounding_mode must be None, 'trunc' or 'floor', got {rounding_mode!r}")
        x, y = _binary("divide", x, y)
        return lax.div(x, y) if not dtypes.is_inexact(x.aval.dtype) else trunc(lax.div(x, y))
    if type(x) is Tensor and type(y) is Tensor:
        return divide_tensors.call(x, y)
    return _true_divide(x, y)


def _true_divide(x: Any, y: Any) -> Any:
    x, y = _binary("divide", x, y)
    if not dtypes.is_inexact(x.aval.dtype):
        f = dtypes.default_float_dtype()
        x, y = lax.convert_element_type(x, f), lax.convert_element_type(y, f)
    return lax.div(x, y)


divide_tensors = twin(_true_divide, "divide")


def _floor_div_int(x, y):
    q = lax.div(x, y)  # truncates towards zero
    if dtypes.is_unsigned(x.aval.dtype):
        return q
    r = lax.rem(x, y)
    zero = _scalar_like(r, 0)
    fix = lax.bitwise_and(lax.ne(r, zero), lax.ne(lax.lt(r, zero), lax.lt(y, zero)))
    return lax.select(fix, lax.sub(q, _scalar_like(q, 1)), q)


def float_divmod(a: Any, b: Any) -> tuple[Any, Any]:
    """Python's float floor division and modulo (numpy's, Paddle's): (a - fmod(a, b)) / b stepped down where
    the remainder's sign differs from b's, then rounded, so 1.0 // 0.1 is 9.0 and -1.0 // inf is -1.0;
    the remainder takes the divisor's sign. A zero b gives a / b and NaN."""
    zero, one = _scalar_like(a, 0), _scalar_like(a, 1)

    def signed_zero(like):
        return lax.select(signbit(like), lax.neg(zero), zero)
    mod = lax.rem(a, b)
    div = lax.div(lax.sub(a, mod), b)
    fix = lax.bitwise_and(lax.ne(mod, zero), lax.ne(lax.lt(b, zero), lax.lt(mod, zero)))
    mod = lax.select(fix, lax.add(mod, b), mod)
    div = lax.select(fix, lax.sub(div, one), div)
    # exact zero remainders take the divisor's sign; subtracting (mod - mod), a +0 that carries mod's tangent,
    # keeps that sign and the slope d/da = 1 there (a constant zero would cut the gradient at a = 0)
    mod = lax.select(lax.eq(mod, zero), lax.sub(signed_zero(b), lax.sub(lax.stop_gradient(mod), mod)), mod)
    floordiv = lax.floor(div)
    floordiv = lax.select(lax.gt(lax.sub(div, floordiv), _scalar_like(a, 0.5)), lax.add(floordiv, one), floordiv)
    q = lax.div(a, b)
    floordiv = lax.select(lax.eq(div, zero), signed_zero(q), floordiv)
    bz = lax.eq(b, zero)
    return lax.select(bz, q, floordiv), lax.select(bz, _scalar_like(a, np.nan), mod)


def floor_divide(x: Any, y: Any, name: str | None = None, *, out: Any = None) -> Any:
    """Division rounded towards -inf (Python's //).

    Args:
        x, y: dividend and divisor, real numeric Tensors or Python numbers, promoted and broadcast together.
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Returns:
        A Tensor of the broadcast shape in the promoted dtype.

    Examples:
        >>> import padax
        >>> padax.floor_divide(padax.to_tensor([7, -7]), padax.to_tensor([2, 2])).tolist()
        [3, -4]
    """
    if out is not None:
        return write_out(out, floor_divide(x=x, y=y, name=name), "floor_divide")
    x, y = _binary("floor_divide", x, y)
    _check("floor_divide", x, lambda d: _numeric(d) and _real(d), "real numeric")
    if dtypes.is_integer(x.aval.dtype):
        return _floor_div_int(x, y)
    return float_divmod(x, y)[0]


def remainder(x: Any, y: Any, name: str | None = None, *, out: Any = None) -> Any:
    """Remainder with the sign of the divisor (Python's %, numpy's mod).

    Args:
        x, y: dividend and divisor, real numeric Tensors or Python numbers, promoted and broadcast together.
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Returns:
        A Tensor of the broadcast shape in the promoted dtype.

    Examples:
        >>> import padax
        >>> x, y = padax.to_tensor([7.0, -7.0]), padax.to_tensor([2.0, 2.0])
        >>> padax.remainder(x, y).tolist()
        [1.0, 1.0]
    """
    if out is not None:
        return write_out(out, remainder(x=x, y=y, name=name), "remainder")
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


def pow(x: Any, y: Any, name: str | None = None, *, out: Any = None) -> Any:
    """x ** y; integer powers of integers stay exact, a Python int exponent uses repeated multiplication.

    Args:
        x: the base Tensor (not bool).
        y: the exponent: a Python number or a Tensor broadcast with x; integer bases need non-negative
            integer exponents.
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Returns:
        A Tensor of the broadcast shape in the promoted dtype.

    Examples:
        >>> import padax
        >>> padax.pow(padax.to_tensor([1.0, 2.0, 3.0]), 2).tolist()
        [1.0, 4.0, 9.0]
        >>> padax.pow(padax.to_tensor([2, 3]), padax.to_tensor([3, 2])).tolist()
        [8, 9]
    """
    if out is not None:
        return write_out(out, pow(x=x, y=y, name=name), "pow")
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


def maximum(x: Any, y: Any, name: str | None = None, *, out: Any = None) -> Any:
    """Elementwise maximum (NaN propagates).

    Args:
        x, y: Tensors or Python numbers, promoted and broadcast together as in Paddle.
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Returns:
        A Tensor of the broadcast shape in the promoted dtype.

    Examples:
        >>> import padax
        >>> padax.maximum(padax.to_tensor([1.0, 5.0]), padax.to_tensor([3.0, 2.0])).tolist()
        [3.0, 5.0]
    """
    if out is not None:
        return write_out(out, maximum(x=x, y=y, name=name), "maximum")
    x, y = _binary("maximum", x, y)
    return lax.max(x, y)


def minimum(x: Any, y: Any, name: str | None = None, *, out: Any = None) -> Any:
    """Elementwise minimum (NaN propagates).

    Args:
        x, y: Tensors or Python numbers, promoted and broadcast together as in Paddle.
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Returns:
        A Tensor of the broadcast shape in the promoted dtype.

    Examples:
        >>> import padax
        >>> padax.minimum(padax.to_tensor([1.0, 5.0]), padax.to_tensor([3.0, 2.0])).tolist()
        [1.0, 2.0]
    """
    if out is not None:
        return write_out(out, minimum(x=x, y=y, name=name), "minimum")
    x, y = _binary("minimum", x, y)
    return lax.min(x, y)


def fmax(x: Any, y: Any, name: str | None = None) -> Any:
    """Elementwise maximum that ignores a NaN operand (NaN only if both are).

    Args:
        x, y: Tensors or Python numbers, promoted and broadcast together as in Paddle.

    Returns:
        A Tensor of the broadcast shape in the promoted dtype.

    Examples:
        >>> import padax
        >>> padax.fmax(padax.to_tensor([1.0, float('nan')]), padax.to_tensor([float('nan'), 2.0])).tolist()
        [1.0, 2.0]
    """
    x, y = _binary("fmax", x, y)
    if not dtypes.is_inexact(x.aval.dtype):
        return lax.max(x, y)
    # x where it wins, ties it or y is NaN: the whole gradient goes to the operand picked, as in Paddle
    return lax.select(lax.bitwise_or(lax.ge(x, y), lax.ne(y, y)), x, y)


def fmin(x: Any, y: Any, name: str | None = None) -> Any:
    """Elementwise minimum that ignores a NaN operand (NaN only if both are).

    Args:
        x, y: Tensors or Python numbers, promoted and broadcast together as in Paddle.

    Returns:
        A Tensor of the broadcast shape in the promoted dtype.

    Examples:
        >>> import padax
        >>> padax.fmin(padax.to_tensor([1.0, float('nan')]), padax.to_tensor([float('nan'), 2.0])).tolist()
        [1.0, 2.0]
    """
    x, y = _binary("fmin", x, y)
    if not dtypes.is_inexact(x.aval.dtype):
        return lax.min(x, y)
    # x where it wins, ties it or y is NaN: the whole gradient goes to the operand picked, as in Paddle
    return lax.select(lax.bitwise_or(lax.le(x, y), lax.ne(y, y)), x, y)


def neg(x: Any, name: str | None = None) -> Any:
    """-x.

    Args:
        x: a numeric (not bool) Tensor.

    Returns:
        A Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> padax.neg(padax.to_tensor([1.0, -2.0])).tolist()
        [-1.0, 2.0]
    """
    x = _arg("neg", x, "x")
    _check("neg", x, _numeric, "numeric (not bool)")
    return lax.neg(x)


negative = neg


def abs(x: Any, name: str | None = None, *, out: Any = None) -> Any:
    """|x| (a real dtype for complex input).

    Args:
        x: the input Tensor.
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Returns:
        A Tensor of x's shape and dtype (the matching real dtype for complex x).

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([-1.5, 0.0, 2.5])
        >>> padax.abs(x).tolist()
        [1.5, 0.0, 2.5]
    """
    if out is not None:
        return write_out(out, abs(x=x, name=name), "abs")
    x = _arg("abs", x, "x")
    if x.aval.dtype == dtypes.bool_:
        return x
    return lax.abs(x)


def square(x: Any, name: str | None = None) -> Any:
    """x * x in x's dtype.

    Args:
        x: a numeric (not bool) Tensor.

    Returns:
        A Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([-1.5, 0.0, 2.5])
        >>> padax.square(x).tolist()
        [2.25, 0.0, 6.25]
    """
    x = _arg("square", x, "x")
    _check("square", x, _numeric, "numeric (not bool)")
    return lax.square(x)


def sign(x: Any, name: str | None = None, *, out: Any = None) -> Any:
    """-1, 0 or 1 (x/|x| for complex) in x's dtype.

    Args:
        x: the input Tensor.
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Returns:
        A Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([-1.5, 0.0, 2.5])
        >>> padax.sign(x).tolist()
        [-1.0, 0.0, 1.0]
    """
    if out is not None:
        return write_out(out, sign(x=x, name=name), "sign")
    x = _arg("sign", x, "x")
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


# Each factory-made unary function's summary and docstring example: name -> (summary, input, expected
# padax.<name>(padax.to_tensor(input)).tolist()), checked by doctest.
_UNARY_DOCS = {
    "exp": ("e to the power x", "[0.0, 1.0]", "[1.0, 2.7183]"),
    "expm1": ("exp(x) - 1, accurate for small x", "[0.0, 1.0]", "[0.0, 1.7183]"),
    "log": ("Natural logarithm", "[1.0, 2.718282]", "[0.0, 1.0]"),
    "log1p": ("log(1 + x), accurate for small x", "[0.0, 1.0]", "[0.0, 0.6931]"),
    "sqrt": ("Square root", "[4.0, 9.0]", "[2.0, 3.0]"),
    "rsqrt": ("1 / sqrt(x)", "[4.0, 0.25]", "[0.5, 2.0]"),
    "sin": ("Sine (radians)", "[0.0, 1.5707964]", "[0.0, 1.0]"),
    "cos": ("Cosine (radians)", "[0.0, 3.1415927]", "[1.0, -1.0]"),
    "tan": ("Tangent (radians)", "[0.0, 0.7853982]", "[0.0, 1.0]"),
    "asin": ("Inverse sine, in radians", "[0.0, 1.0]", "[0.0, 1.5708]"),
    "acos": ("Inverse cosine, in radians", "[1.0, 0.0]", "[0.0, 1.5708]"),
    "atan": ("Inverse tangent, in radians", "[0.0, 1.0]", "[0.0, 0.7854]"),
    "sinh": ("Hyperbolic sine", "[0.0, 1.0]", "[0.0, 1.1752]"),
    "cosh": ("Hyperbolic cosine", "[0.0, 1.0]", "[1.0, 1.5431]"),
    "tanh": ("Hyperbolic tangent", "[0.0, 1.0]", "[0.0, 0.7616]"),
    "asinh": ("Inverse hyperbolic sine", "[0.0, 1.0]", "[0.0, 0.8814]"),
    "acosh": ("Inverse hyperbolic cosine (x >= 1)", "[1.0, 2.0]", "[0.0, 1.317]"),
    "atanh": ("Inverse hyperbolic tangent (|x| < 1)", "[0.0, 0.5]", "[0.0, 0.5493]"),
    "sigmoid": ("The logistic function 1 / (1 + exp(-x))", "[0.0, 2.0]", "[0.5, 0.8808]"),
    "erf": ("The error function", "[0.0, 1.0]", "[0.0, 0.8427]"),
    "erfinv": ("Inverse of the error function", "[0.0, 0.5]", "[0.0, 0.4769]"),
    "lgamma": ("log|Gamma(x)|", "[0.5, 3.0]", "[0.5724, 0.6931]"),
    "digamma": ("The logarithmic derivative of Gamma", "[1.0, 2.0]", "[-0.5772, 0.4228]"),
    "floor": ("Round towards -inf", "[1.5, -1.5]", "[1.0, -2.0]"),
    "ceil": ("Round towards +inf", "[1.5, -1.5]", "[2.0, -1.0]"),
    "trunc": ("Round towards zero", "[1.7, -1.7]", "[1.0, -1.0]"),
}


# The Args and Returns text of each family of factory-made functions, for `example_doc`.
_OUT_ARG = "out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one)."
_FLOAT_UNARY_ARGS = ("x: the input Tensor.\n        " + _OUT_ARG,
                     "A Tensor of x's shape in x's floating or complex dtype (float32 for integer and bool x).")
_REAL_FLOAT_UNARY_ARGS = ("x: a real Tensor (integer and bool inputs compute in float32).",
                          "A floating Tensor of x's shape (float32 for integer and bool x).")
_ROUNDING_ARGS = ("x: a real Tensor.\n        " + _OUT_ARG, "A Tensor of x's shape and dtype.")
_BINARY_XY = "x, y: Tensors or Python numbers, promoted and broadcast together as in Paddle."
_COMPARE_ARGS = (_BINARY_XY + "\n        " + _OUT_ARG, "A bool Tensor of the broadcast shape.")
_LOGICAL_ARGS = ("x, y: Tensors or Python numbers of any dtype (nonzero is True), broadcast together.\n        "
                 + _OUT_ARG, "A bool Tensor of the broadcast shape.")
_BITWISE_ARGS = ("x, y: integer or bool Tensors or Python ints, promoted and broadcast together.\n        "
                 + _OUT_ARG,
                 "A Tensor of the broadcast shape in the promoted dtype.")


def _document_unary(fn, name: str, note: str, args_returns: tuple[str, str]) -> None:
    """Docstring of a factory-made unary function: its table row plus `note` and its family's Args/Returns."""
    summary, x, expected = _UNARY_DOCS[name]
    args, returns = args_returns
    fn.__doc__ = example_doc(f"{summary}, elementwise; {note}.",
                             [(f"padax.{name}(padax.to_tensor({x})).tolist()", expected)], args=args, returns=returns)


for _n, _f in [("exp", exp), ("expm1", expm1), ("log", log), ("log1p", log1p), ("sqrt", sqrt),
               ("rsqrt", rsqrt), ("sin", sin), ("cos", cos), ("tan", tan), ("asin", asin), ("acos", acos),
               ("atan", atan), ("sinh", sinh), ("cosh", cosh), ("tanh", tanh), ("asinh", asinh),
               ("acosh", acosh), ("atanh", atanh), ("sigmoid", sigmoid)]:
    _f.__name__ = _f.__qualname__ = _n
    _document_unary(_f, _n, "integer and bool inputs compute in float32", _FLOAT_UNARY_ARGS)
del _n, _f


def _real_float_unary(op: str, fn):
    def wrapped(x: Any, name: str | None = None) -> Any:
        x = _to_inexact(x)
        _check(op, x, dtypes.is_floating, "real floating")
        return fn(x)
    wrapped.__name__ = wrapped.__qualname__ = op
    return wrapped


erf = _real_float_unary("erf", lax.erf)
_document_unary(erf, "erf", "integer inputs compute in float32", _REAL_FLOAT_UNARY_ARGS)
erfinv = _real_float_unary("erfinv", lax.erf_inv)
_document_unary(erfinv, "erfinv", "defined on (-1, 1)", _REAL_FLOAT_UNARY_ARGS)
lgamma = _real_float_unary("lgamma", lax.lgamma)
_document_unary(lgamma, "lgamma", "integer inputs compute in float32", _REAL_FLOAT_UNARY_ARGS)
def _digamma(x):
    """digamma with its poles at +-0 as infinities (-inf at +0, +inf at -0), as Paddle and scipy give them."""
    zero = lax.eq(x, _scalar_like(x, 0))
    pole = lax.select(lax.lt(lax.div(_scalar_like(x, 1), x), _scalar_like(x, 0)), _scalar_like(x, np.inf),
                      _scalar_like(x, -np.inf))
    return lax.select(zero, pole, lax.digamma(x))


digamma = _real_float_unary("digamma", _digamma)
_document_unary(digamma, "digamma", "-inf at 0, NaN at the negative integers", _REAL_FLOAT_UNARY_ARGS)


def log2(x: Any, name: str | None = None, *, out: Any = None) -> Any:
    """Base-2 logarithm.

    Args:
        x: the input Tensor (integer and bool inputs compute in float32).
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Returns:
        A floating Tensor of x's shape.

    Examples:
        >>> import padax
        >>> padax.log2(padax.to_tensor([1.0, 8.0])).tolist()
        [0.0, 3.0]
    """
    if out is not None:
        return write_out(out, log2(x=x, name=name), "log2")
    x = _to_inexact(x)
    return lax.div(lax.log(x), _scalar_like(x, np.log(2.0)))


def log10(x: Any, name: str | None = None, *, out: Any = None) -> Any:
    """Base-10 logarithm.

    Args:
        x: the input Tensor (integer and bool inputs compute in float32).
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Returns:
        A floating Tensor of x's shape.

    Examples:
        >>> import padax
        >>> padax.log10(padax.to_tensor([1.0, 1000.0])).tolist()
        [0.0, 3.0]
    """
    if out is not None:
        return write_out(out, log10(x=x, name=name), "log10")
    x = _to_inexact(x)
    return lax.div(lax.log(x), _scalar_like(x, np.log(10.0)))


def reciprocal(x: Any, name: str | None = None) -> Any:
    """1 / x (integer inputs compute in float32).

    Args:
        x: the input Tensor (integer and bool inputs compute in float32).

    Returns:
        A floating Tensor of x's shape.

    Examples:
        >>> import padax
        >>> padax.reciprocal(padax.to_tensor([2.0, 0.5])).tolist()
        [0.5, 2.0]
    """
    x = _to_inexact(x)
    return lax.div(_scalar_like(x, 1), x)


def _rounding(op: str, fn):
    def wrapped(x: Any, name: str | None = None, *, out: Any = None) -> Any:
        if out is not None:
            return write_out(out, wrapped(x=x, name=name), op)
        x = asarray(x)
        if not dtypes.is_inexact(x.aval.dtype):
            return x  # integers are already whole
        _check(op, x, _real, "real")
        return fn(x)
    wrapped.__name__ = wrapped.__qualname__ = op
    return wrapped


floor = _rounding("floor", lax.floor)
_document_unary(floor, "floor", "integers are returned unchanged", _ROUNDING_ARGS)
ceil = _rounding("ceil", lax.ceil)
_document_unary(ceil, "ceil", "integers are returned unchanged", _ROUNDING_ARGS)


def _trunc(x):
    return lax.select(lax.lt(x, _scalar_like(x, 0)), lax.ceil(x), lax.floor(x))


trunc = _rounding("trunc", _trunc)
_document_unary(trunc, "trunc", "integers are returned unchanged", _ROUNDING_ARGS)


def round(x: Any, decimals: int = 0, name: str | None = None, *, out: Any = None) -> Any:
    """Round half to even (as Paddle and numpy do), optionally to `decimals` decimal places;
    complex numbers round their real and imaginary parts; integers are returned unchanged.

    Args:
        x: the input Tensor.
        decimals: the number of decimal places to keep (negative: round to tens, hundreds, ...).
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Returns:
        A Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> padax.round(padax.to_tensor([0.5, 1.5, 2.567])).tolist()
        [0.0, 2.0, 3.0]
        >>> padax.round(padax.to_tensor([2.567]), decimals=2).tolist()
        [2.57]
    """
    if out is not None:
        return write_out(out, round(x=x, decimals=decimals, name=name), "round")
    x = _arg("round", x, "x")
    if not dtypes.is_inexact(x.aval.dtype):
        return x
    if dtypes.is_complex(x.aval.dtype):
        return lax.complex(round(lax.real(x), decimals), round(lax.imag(x), decimals))
    if decimals == 0:
        return lax.round(x, 1)
    s = _scalar_like(x, 10.0 ** decimals)
    return lax.div(lax.round(lax.mul(x, s), 1), s)


def clip(x: Any, min: Any = None, max: Any = None, name: str | None = None, *, out: Any = None) -> Any:
    """Limit values to [min, max] (either bound may be None); the result keeps x's dtype (an int32/int64 x
    with a float bound gives float32, as in Paddle).

    Args:
        x: a real Tensor.
        min, max: the lower and upper bounds: Python numbers, or Tensors broadcastable to x's shape; None
            leaves that side open.
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Returns:
        A Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([-1.5, 0.0, 2.5])
        >>> padax.clip(x, min=-1.0, max=1.0).tolist()
        [-1.0, 0.0, 1.0]
    """
    if out is not None:
        return write_out(out, clip(x=x, min=min, max=max, name=name), "clip")
    x = _arg("clip", x, "x")
    _check("clip", x, _real, "real")
    numbers = (int, float, np.integer, np.floating)
    if isinstance(min, numbers) and isinstance(max, numbers) and min > max:  # as Paddle (numpy would give max)
        raise op_value_error("clip", f"max must be greater than or equal to min, got min={min}, max={max}")
    if x.aval.dtype in (dtypes.int32, dtypes.int64) and builtins.any(
            isinstance(b, float) or (is_array(b) and dtypes.is_inexact(b.aval.dtype)) for b in (min, max)):
        x = lax.convert_element_type(x, dtypes.float32)  # Paddle clips an int32/int64 x by a float bound in float32
    dt = x.aval.dtype
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
        # inside [min, max] (bounds included) x passes through with its whole gradient, as in Paddle;
        # a NaN x stays NaN with a zero gradient
        x = lax.select(lax.ge(x, b) if fn is lax.max else lax.le(x, b), x, fn(x, b))
    return x


def activation_by_name(name: str) -> Callable[[Any], Any]:
    """The activation of padax.nn.functional called `name` (Paddle's `act=` strings). padax.nn is a floor
    up: padax/_battery_aliases.py installs the lookup when padax is imported."""
    raise RuntimeError("padax.nn's activations are not installed (import padax first)")


def scale(x: Any, scale: Any = 1.0, bias: Any = 0.0, bias_after_scale: bool = True, act: Any = None,
          name: str | None = None) -> Any:
    """scale * x + bias (or scale * (x + bias)) in x's dtype.

    Args:
        x: the input Tensor.
        scale: the multiplier (a number or a 0-d Tensor).
        bias: the added term.
        bias_after_scale: True computes scale * x + bias, False scale * (x + bias).
        act: an activation applied to the result: a callable, or the name of a padax.nn.functional
            function such as 'relu'; None for none.

    Returns:
        A Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> padax.scale(padax.to_tensor([1.0, 2.0]), scale=2.0, bias=1.0).tolist()
        [3.0, 5.0]
        >>> padax.scale(padax.to_tensor([1.0, 2.0]), scale=2.0, bias=1.0, bias_after_scale=False).tolist()
        [4.0, 6.0]
    """
    x = _arg("scale", x, "x")
    s = full(x.aval.shape, scale, x.aval.dtype)
    b = full(x.aval.shape, bias, x.aval.dtype)
    out = lax.add(lax.mul(x, s), b) if bias_after_scale else lax.mul(lax.add(x, b), s)
    if act is not None:
        if callable(act):
            return act(out)
        return activation_by_name(act)(out)
    return out


def atan2(x: Any, y: Any, name: str | None = None) -> Any:
    """arctan(x / y) with the quadrant taken from both signs (Paddle's order: numerator first); integer
    operands compute in float64, as Paddle's kernel does.

    Args:
        x: the numerator (the sine side), a real Tensor or number.
        y: the denominator (the cosine side), broadcast with x.

    Returns:
        Angles in radians in [-pi, pi], of the broadcast shape; float64 for integer operands.

    Examples:
        >>> import padax
        >>> padax.atan2(padax.to_tensor([1.0, -1.0]), padax.to_tensor([1.0, 0.0])).tolist()
        [0.7854, -1.5708]
    """
    x, y = _binary("atan2", x, y)
    if not dtypes.is_inexact(x.aval.dtype):
        f64 = dtypes.canonicalize(dtypes.float64)
        x, y = lax.convert_element_type(x, f64), lax.convert_element_type(y, f64)
    _check("atan2", x, dtypes.is_floating, "real floating")
    return lax.atan2(x, y)


def hypot(x: Any, y: Any, name: str | None = None) -> Any:
    """sqrt(x**2 + y**2) without overflow for large inputs.

    Args:
        x, y: Tensors or Python numbers, promoted and broadcast together as in Paddle.

    Returns:
        A floating Tensor of the broadcast shape (float32 for integer operands).

    Examples:
        >>> import padax
        >>> padax.hypot(padax.to_tensor([3.0, 5.0]), padax.to_tensor([4.0, 12.0])).tolist()
        [5.0, 13.0]
    """
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
    """log(exp(x) + exp(y)) computed stably.

    Args:
        x, y: Tensors or Python numbers, promoted and broadcast together as in Paddle.

    Returns:
        A floating Tensor of the broadcast shape (float32 for integer operands).

    Examples:
        >>> import padax
        >>> padax.logaddexp(padax.to_tensor([0.0, 100.0]), padax.to_tensor([0.0, 100.0])).tolist()
        [0.6931, 100.6931]
    """
    x, y = _binary("logaddexp", x, y)
    x, y = _to_inexact(x), _to_inexact(y)
    m = lax.max(x, y)
    d = lax.neg(lax.abs(lax.sub(x, y)))
    out = lax.add(m, lax.log1p(lax.exp(d)))
    # equal infinities: x - y is NaN, but the answer is the infinity itself
    return lax.select(lax.bitwise_and(lax.eq(x, y), lax.eq(lax.abs(x), _scalar_like(x, np.inf))), x, out)


# Each factory-made binary function's docstring example: name -> (x, y, expected
# padax.<name>(padax.to_tensor(x), padax.to_tensor(y)).tolist()), checked by doctest.
_BINARY_DOCS = {
    "equal": ("[1, 2, 3]", "[1, 0, 3]", "[True, False, True]"),
    "not_equal": ("[1, 2, 3]", "[1, 0, 3]", "[False, True, False]"),
    "less_than": ("[1, 2, 3]", "[2, 2, 2]", "[True, False, False]"),
    "less_equal": ("[1, 2, 3]", "[2, 2, 2]", "[True, True, False]"),
    "greater_than": ("[1, 2, 3]", "[2, 2, 2]", "[False, False, True]"),
    "greater_equal": ("[1, 2, 3]", "[2, 2, 2]", "[False, True, True]"),
    "logical_and": ("[True, True, False]", "[True, False, False]", "[True, False, False]"),
    "logical_or": ("[True, True, False]", "[True, False, False]", "[True, True, False]"),
    "logical_xor": ("[True, True, False]", "[True, False, False]", "[False, True, False]"),
    "bitwise_and": ("[12, 10]", "[10, 6]", "[8, 2]"),
    "bitwise_or": ("[12, 10]", "[10, 6]", "[14, 14]"),
    "bitwise_xor": ("[12, 10]", "[10, 6]", "[6, 12]"),
}


def _document_binary(fn, name: str, summary: str, args_returns: tuple[str, str]) -> None:
    """Docstring of a factory-made binary function: `summary`, its family's Args/Returns and its table row's
    example."""
    x, y, expected = _BINARY_DOCS[name]
    args, returns = args_returns
    fn.__doc__ = example_doc(summary, [(f"padax.{name}(padax.to_tensor({x}), padax.to_tensor({y})).tolist()",
                                        expected)], args=args, returns=returns)


# ---- comparisons ---------------------------------------------------------------------------

def _compare(op: str, fn, ordered: bool):
    def wrapped(x: Any, y: Any, name: str | None = None, *, out: Any = None) -> Any:
        if out is not None:
            return write_out(out, wrapped(x=x, y=y, name=name), op)
        x, y = _binary(op, x, y)
        if ordered and dtypes.is_complex(x.aval.dtype):
            raise op_type_error(op, f"complex numbers have no order, got {x.aval.str_short()}")
        return fn(x, y)
    wrapped.__name__ = wrapped.__qualname__ = op
    _document_binary(wrapped, op, f"Elementwise {op} after Paddle promotion and broadcasting; returns bool.",
                     _COMPARE_ARGS)
    return wrapped


equal = _compare("equal", lax.eq, False)
not_equal = _compare("not_equal", lax.ne, False)
less_than = _compare("less_than", lax.lt, True)
less_equal = _compare("less_equal", lax.le, True)
greater_than = _compare("greater_than", lax.gt, True)
greater_equal = _compare("greater_equal", lax.ge, True)


def equal_all(x: Any, y: Any, name: str | None = None) -> Any:
    """True (a 0-d bool) if x and y have the same shape and all elements are equal.

    Args:
        x, y: the Tensors to compare (a shape mismatch gives False, not an error).

    Returns:
        A 0-d bool Tensor.

    Examples:
        >>> import padax
        >>> bool(padax.equal_all(padax.to_tensor([1, 2]), padax.to_tensor([1, 2])))
        True
        >>> bool(padax.equal_all(padax.to_tensor([1, 2]), padax.to_tensor([1, 3])))
        False
    """
    x, y = _arg("equal_all", x, "x"), _arg("equal_all", y, "y")
    if x.aval.shape != y.aval.shape:
        return full((), False, dtypes.bool_)
    e = equal(x, y)
    return lax.reduce_and(e, tuple(builtins.range(e.aval.ndim)))


# ---- logic and bits ------------------------------------------------------------------------

def _as_bool(x: Any) -> Any:
    x = asarray(x)
    return x if x.aval.dtype == dtypes.bool_ else lax.convert_element_type(x, dtypes.bool_)


def _logical(op: str, fn):
    def wrapped(x: Any, y: Any, name: str | None = None, *, out: Any = None) -> Any:
        if out is not None:
            return write_out(out, wrapped(x=x, y=y, name=name), op)
        x, y = promote_and_broadcast(op, _as_bool(x), _as_bool(y))
        return fn(x, y)
    wrapped.__name__ = wrapped.__qualname__ = op
    _document_binary(wrapped, op, f"Elementwise {op} of the operands' truth values (nonzero is True); returns bool.",
                     _LOGICAL_ARGS)
    return wrapped


logical_and = _logical("logical_and", lax.bitwise_and)
logical_or = _logical("logical_or", lax.bitwise_or)
logical_xor = _logical("logical_xor", lax.bitwise_xor)


def logical_not(x: Any, name: str | None = None, *, out: Any = None) -> Any:
    """Elementwise not of x's truth values; returns bool.

    Args:
        x: a Tensor of any dtype (nonzero is True).
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Returns:
        A bool Tensor of x's shape.

    Examples:
        >>> import padax
        >>> padax.logical_not(padax.to_tensor([True, False])).tolist()
        [False, True]
    """
    if out is not None:
        return write_out(out, logical_not(x=x, name=name), "logical_not")
    return lax.bitwise_not(_as_bool(x))


def _bitwise(op: str, fn):
    def wrapped(x: Any, y: Any, out: Any = None, name: str | None = None) -> Any:
        if out is not None:
            return write_out(out, wrapped(x=x, y=y, name=name), op)
        x, y = _binary(op, x, y)
        _check(op, x, _int_or_bool, "integer or bool")
        return fn(x, y)
    wrapped.__name__ = wrapped.__qualname__ = op
    _document_binary(wrapped, op, f"Elementwise {op} of integer or bool operands.", _BITWISE_ARGS)
    return wrapped


bitwise_and = _bitwise("bitwise_and", lax.bitwise_and)
bitwise_or = _bitwise("bitwise_or", lax.bitwise_or)
bitwise_xor = _bitwise("bitwise_xor", lax.bitwise_xor)


def bitwise_not(x: Any, out: Any = None, name: str | None = None) -> Any:
    """Elementwise bit inversion (logical not for bool).

    Args:
        x: an integer or bool Tensor.
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Returns:
        A Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> padax.bitwise_not(padax.to_tensor([0, 5, -1])).tolist()
        [-1, -6, 0]
    """
    if out is not None:
        return write_out(out, bitwise_not(x=x, name=name), "bitwise_not")
    x = _arg("bitwise_not", x, "x")
    _check("bitwise_not", x, _int_or_bool, "integer or bool")
    return lax.bitwise_not(x)


bitwise_invert = bitwise_not


def bitwise_left_shift(x: Any, y: Any, is_arithmetic: bool = True, out: Any = None,
                       name: str | None = None) -> Any:
    """x << y for integers.

    Args:
        x: an integer Tensor.
        y: the shift amounts, broadcast with x.
        is_arithmetic: no effect for a left shift (kept for Paddle's signature).
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Returns:
        A Tensor of the broadcast shape in the promoted dtype.

    Examples:
        >>> import padax
        >>> padax.bitwise_left_shift(padax.to_tensor([1, 3]), padax.to_tensor([2, 1])).tolist()
        [4, 6]
    """
    if out is not None:
        result = bitwise_left_shift(
            x=x, y=y, is_arithmetic=is_arithmetic, name=name)
        return write_out(out, result, "bitwise_left_shift")
    x, y = _binary("bitwise_left_shift", x, y)
    _check("bitwise_left_shift", x, dtypes.is_integer, "integer")
    return lax.shift_left(x, y)


def bitwise_right_shift(x: Any, y: Any, is_arithmetic: bool = True, out: Any = None,
                        name: str | None = None) -> Any:
    """x >> y for integers: sign-filling for signed types when `is_arithmetic`, zero-filling otherwise.

    Args:
        x: an integer Tensor.
        y: the shift amounts, broadcast with x.
        is_arithmetic: True fills with the sign bit for signed dtypes; False fills with zeros.
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Returns:
        A Tensor of the broadcast shape in the promoted dtype.

    Examples:
        >>> import padax
        >>> padax.bitwise_right_shift(padax.to_tensor([8, -8]), padax.to_tensor([2, 2])).tolist()
        [2, -2]
    """
    if out is not None:
        result = bitwise_right_shift(
            x=x, y=y, is_arithmetic=is_arithmetic, name=name)
        return write_out(out, result, "bitwise_right_shift")
    x, y = _binary("bitwise_right_shift", x, y)
    _check("bitwise_right_shift", x, dtypes.is_integer, "integer")
    if is_arithmetic and not dtypes.is_unsigned(x.aval.dtype):
        return lax.shift_right_arithmetic(x, y)
    return lax.shift_right_logical(x, y)


# ---- classification ----------------------------------------------------------------------

def isnan(x: Any, name: str | None = None) -> Any:
    """True where x is NaN (never for integers).

    Args:
        x: the input Tensor.

    Returns:
        A bool Tensor of x's shape.

    Examples:
        >>> import padax
        >>> padax.isnan(padax.to_tensor([1.0, float('nan'), float('inf')])).tolist()
        [False, True, False]
    """
    x = _arg("isnan", x, "x")
    if not dtypes.is_inexact(x.aval.dtype):
        return full(x.aval.shape, False, dtypes.bool_)
    return lax.ne(x, x)


def isinf(x: Any, name: str | None = None) -> Any:
    """True where x is +inf or -inf (for complex: either part).

    Args:
        x: the input Tensor.

    Returns:
        A bool Tensor of x's shape.

    Examples:
        >>> import padax
        >>> padax.isinf(padax.to_tensor([1.0, float('nan'), float('-inf')])).tolist()
        [False, False, True]
    """
    x = _arg("isinf", x, "x")
    dt = x.aval.dtype
    if not dtypes.is_inexact(dt):
        return full(x.aval.shape, False, dtypes.bool_)
    if dtypes.is_complex(dt):
        return lax.bitwise_or(isinf(lax.real(x)), isinf(lax.imag(x)))
    return lax.eq(lax.abs(x), _scalar_like(x, np.inf))


def isfinite(x: Any, name: str | None = None) -> Any:
    """True where x is neither NaN nor infinite.

    Args:
        x: the input Tensor.

    Returns:
        A bool Tensor of x's shape.

    Examples:
        >>> import padax
        >>> padax.isfinite(padax.to_tensor([1.0, float('nan'), float('inf')])).tolist()
        [True, False, False]
    """
    x = _arg("isfinite", x, "x")
    dt = x.aval.dtype
    if not dtypes.is_inexact(dt):
        return full(x.aval.shape, True, dtypes.bool_)
    if dtypes.is_complex(dt):
        return lax.bitwise_and(isfinite(lax.real(x)), isfinite(lax.imag(x)))
    return lax.is_finite(x)


# ---- more elementwise functions ----------------------------------------------------------------

def positive(x: Any, name: str | None = None) -> Any:
    """+x (x itself; bool is rejected as in Paddle).

    Args:
        x: a numeric (not bool) Tensor.

    Returns:
        x itself.

    Examples:
        >>> import padax
        >>> padax.positive(padax.to_tensor([-1.0, 2.0])).tolist()
        [-1.0, 2.0]
    """
    x = _arg("positive", x, "x")
    _check("positive", x, _numeric, "numeric (not bool)")
    return x


def exp2(x: Any, name: str | None = None) -> Any:
    """2 ** x (integer inputs compute in float32).

    Args:
        x: the exponents (integer and bool inputs compute in float32).

    Returns:
        A floating Tensor of x's shape.

    Examples:
        >>> import padax
        >>> padax.exp2(padax.to_tensor([0.0, 3.0, -1.0])).tolist()
        [1.0, 8.0, 0.5]
    """
    return lax.exp2(_to_inexact(x))


def _real_float(op: str, x: Any) -> Any:
    x = _to_inexact(x)
    _check(op, x, dtypes.is_floating, "real floating")
    return x


def rad2deg(x: Any, name: str | None = None) -> Any:
    """Radians to degrees (integers give float32).

    Args:
        x: angles in radians, a real Tensor.

    Returns:
        A floating Tensor of x's shape (float32 for integer input).

    Examples:
        >>> import padax
        >>> import math
        >>> padax.rad2deg(padax.to_tensor([math.pi, math.pi / 2])).tolist()
        [180.0, 90.0]
    """
    x = _real_float("rad2deg", x)
    return lax.mul(x, _scalar_like(x, 180.0 / np.pi))


def deg2rad(x: Any, name: str | None = None) -> Any:
    """Degrees to radians (integers give float32).

    Args:
        x: angles in degrees, a real Tensor.

    Returns:
        A floating Tensor of x's shape (float32 for integer input).

    Examples:
        >>> import padax
        >>> padax.deg2rad(padax.to_tensor([180.0, 90.0])).tolist()
        [3.1416, 1.5708]
    """
    x = _real_float("deg2rad", x)
    return lax.mul(x, _scalar_like(x, np.pi / 180.0))


def frac(x: Any, name: str | None = None, *, out: Any = None) -> Any:
    """The fractional part x - trunc(x), with x's sign (0 for integers).

    Args:
        x: a real numeric Tensor.
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Returns:
        A Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([-1.5, 0.0, 2.5])
        >>> padax.frac(x).tolist()
        [-0.5, 0.0, 0.5]
    """
    if out is not None:
        return write_out(out, frac(x=x, name=name), "frac")
    x = _arg("frac", x, "x")
    _check("frac", x, lambda d: _numeric(d) and _real(d), "real numeric")
    if not dtypes.is_inexact(x.aval.dtype):
        return _scalar_like(x, 0)
    return lax.sub(x, _trunc(x))


def sgn(x: Any, name: str | None = None) -> Any:
    """sign for real x; x / |x| for complex x (0 at 0).

    Args:
        x: a real or complex Tensor.

    Returns:
        A Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> padax.sgn(padax.to_tensor([3 + 4j, 0j])).tolist()
        [(0.6+0.8j), 0j]
        >>> padax.sgn(padax.to_tensor([-2.0, 0.0])).tolist()
        [-1.0, 0.0]
    """
    x = _arg("sgn", x, "x")
    if not dtypes.is_complex(x.aval.dtype):
        return sign(x)
    a = lax.abs(x)
    zero = lax.eq(a, _scalar_like(a, 0))
    safe = lax.select(zero, _scalar_like(a, 1), a)
    out = lax.div(x, lax.complex(safe, _scalar_like(safe, 0)))
    return lax.select(zero, _scalar_like(x, 0), out)


def signbit(x: Any, name: str | None = None) -> Any:
    """True where the sign bit is set (negative numbers, -0.0, and NaNs with the bit set).

    Args:
        x: a real Tensor.

    Returns:
        A bool Tensor of x's shape.

    Examples:
        >>> import padax
        >>> padax.signbit(padax.to_tensor([-1.0, -0.0, 2.0])).tolist()
        [True, True, False]
    """
    x = _arg("signbit", x, "x")
    dt = x.aval.dtype
    _check("signbit", x, _real, "real")
    if dt == dtypes.bool_ or dtypes.is_unsigned(dt):
        return full(x.aval.shape, False, dtypes.bool_)
    if dtypes.is_integer(dt):
        return lax.lt(x, _scalar_like(x, 0))
    ut = {2: dtypes.int16, 4: dtypes.int32, 8: dtypes.int64, 1: dtypes.int8}[dt.itemsize]
    bits = lax.bitcast_convert_type(x, ut)
    return lax.lt(bits, full(x.aval.shape, 0, ut))


def copysign(x: Any, y: Any, name: str | None = None) -> Any:
    """|x| with the sign of y (including the sign of -0.0); integers stay integers, as in Paddle.

    Args:
        x: the magnitudes.
        y: the signs, broadcast with x.

    Returns:
        A Tensor of the broadcast shape: the promoted dtype for signed integers, floating otherwise.

    Examples:
        >>> import padax
        >>> padax.copysign(padax.to_tensor([1.0, 2.0]), padax.to_tensor([-1.0, 1.0])).tolist()
        [-1.0, 2.0]
    """
    x, y = _binary("copysign", x, y)
    if dtypes.is_integer(x.aval.dtype) and not dtypes.is_unsigned(x.aval.dtype):
        a = lax.abs(x)
        return lax.select(lax.lt(y, _scalar_like(y, 0)), lax.neg(a), a)
    x, y = _to_inexact(x), _to_inexact(y)
    _check("copysign", x, dtypes.is_floating, "real floating")
    a = lax.abs(x)
    return lax.select(signbit(y), lax.neg(a), a)


def ldexp(x: Any, y: Any, name: str | None = None) -> Any:
    """x * 2 ** y for integer exponents y (float32 for integer x).

    Args:
        x: the mantissas (integer inputs compute in float32).
        y: the exponents, an integer Tensor broadcast with x.

    Returns:
        A floating Tensor of the broadcast shape.

    Examples:
        >>> import padax
        >>> padax.ldexp(padax.to_tensor([1.0, 3.0]), padax.to_tensor([2, 1])).tolist()
        [4.0, 6.0]
    """
    y = _arg("ldexp", y, "y")
    if not dtypes.is_integer(y.aval.dtype):
        raise op_type_error("ldexp", f"y must be an integer Tensor, got {y.aval.str_short()}")
    x = _to_inexact(x)
    x, yf = _binary("ldexp", x, lax.convert_element_type(y, x.aval.dtype))
    return lax.mul(x, lax.exp2(yf))


def nextafter(x: Any, y: Any, name: str | None = None) -> Any:
    """The next representable float after x in the direction of y.

    Args:
        x: the start values.
        y: the directions, broadcast with x.

    Returns:
        A floating Tensor of the broadcast shape.

    Examples:
        >>> import padax
        >>> bool(padax.nextafter(padax.to_tensor([1.0]), padax.to_tensor([2.0]))[0] > 1.0)
        True
    """
    x, y = _binary("nextafter", x, y)
    x, y = _to_inexact(x), _to_inexact(y)
    return lax.nextafter(x, y)


def polygamma(x: Any, n: int, name: str | None = None) -> Any:
    """The n-th derivative of digamma at x.

    Args:
        x: a real Tensor (integer inputs compute in float32).
        n: the order of the derivative, a non-negative int (0 gives digamma).

    Returns:
        A floating Tensor of x's shape.

    Examples:
        >>> import padax
        >>> padax.polygamma(padax.to_tensor([1.0, 2.0]), 1).tolist()
        [1.6449, 0.6449]
    """
    x = _real_float("polygamma", x)
    return lax.polygamma(_scalar_like(x, int(n)), x)


def sinc(x: Any, name: str | None = None) -> Any:
    """sin(pi x) / (pi x), 1 at 0.

    Args:
        x: the input Tensor (integer and bool inputs compute in float32).

    Returns:
        A floating Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> padax.sinc(padax.to_tensor([0.0, 0.5])).tolist()
        [1.0, 0.6366]
    """
    x = _to_inexact(x)
    dt = x.aval.dtype
    if dt in (dtypes.float16, dtypes.bfloat16):  # pi * x rounds badly in 8/11-bit mantissas
        x = lax.convert_element_type(x, dtypes.float32)
    zero = lax.eq(x, _scalar_like(x, 0))
    px = lax.mul(x, _scalar_like(x, np.pi))
    safe = lax.select(zero, _scalar_like(x, 1), px)
    return lax.convert_element_type(lax.select(zero, _scalar_like(x, 1), lax.div(lax.sin(safe), safe)), dt)


def stanh(x: Any, scale_a: float = 0.67, scale_b: float = 1.7159, name: str | None = None) -> Any:
    """scale_b * tanh(scale_a * x).

    Args:
        x: the input Tensor (integer and bool inputs compute in float32).
        scale_a: the factor applied to x inside tanh.
        scale_b: the factor applied to tanh's result.

    Returns:
        A floating Tensor of x's shape.

    Examples:
        >>> import padax
        >>> padax.stanh(padax.to_tensor([0.0, 1.0]), scale_a=1.0, scale_b=2.0).tolist()
        [0.0, 1.5232]
    """
    x = _to_inexact(x)
    return lax.mul(_scalar_like(x, scale_b), lax.tanh(lax.mul(_scalar_like(x, scale_a), x)))


def logit(x: Any, eps: float | None = None, name: str | None = None) -> Any:
    """log(x / (1 - x)); with eps, x is first clipped to [eps, 1 - eps].

    Args:
        x: probabilities, a real Tensor (integer inputs compute in float32).
        eps: None, or the margin: x is clipped to [eps, 1 - eps] first.

    Returns:
        A floating Tensor of x's shape.

    Examples:
        >>> import padax
        >>> padax.logit(padax.to_tensor([0.25, 0.5])).tolist()
        [-1.0986, 0.0]
        >>> padax.logit(padax.to_tensor([0.0]), eps=0.1).tolist()
        [-2.1972]
    """
    x = _real_float("logit", x)
    if eps is not None:
        x = lax.clamp(full((), eps, x.aval.dtype), x, full((), 1.0 - eps, x.aval.dtype))
    return lax.log(lax.div(x, lax.sub(_scalar_like(x, 1), x)))


def lerp(x: Any, y: Any, weight: Any, name: str | None = None) -> Any:
    """x + weight * (y - x), all three broadcast together.

    Args:
        x: the start values.
        y: the end values.
        weight: the interpolation weight, a number or a Tensor; all three are broadcast together.

    Returns:
        A floating Tensor of the broadcast shape.

    Examples:
        >>> import padax
        >>> padax.lerp(padax.to_tensor([0.0, 10.0]), padax.to_tensor([10.0, 20.0]), 0.25).tolist()
        [2.5, 12.5]
    """
    x, y, w = promote_and_broadcast("lerp", _to_inexact(x), _to_inexact(y), weight)
    if not dtypes.is_inexact(x.aval.dtype):
        x, y, w = (lax.convert_element_type(v, dtypes.default_float_dtype()) for v in (x, y, w))
    return lax.add(x, lax.mul(w, lax.sub(y, x)))


def nan_to_num(x: Any, nan: float = 0.0, posinf: float | None = None, neginf: float | None = None,
               name: str | None = None) -> Any:
    """x with NaN, +inf and -inf replaced (by 0 and the dtype's largest/lowest finite values by default).

    Args:
        x: the input Tensor (integers are returned unchanged).
        nan: the value that replaces NaN.
        posinf: the value that replaces +inf (None: the dtype's largest finite value).
        neginf: the value that replaces -inf (None: the dtype's lowest finite value).

    Returns:
        A Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([float('nan'), float('inf'), -float('inf'), 1.0])
        >>> padax.nan_to_num(x, nan=0.0, posinf=9.0, neginf=-9.0).tolist()
        [0.0, 9.0, -9.0, 1.0]
    """
    x = _arg("nan_to_num", x, "x")
    dt = x.aval.dtype
    if not dtypes.is_inexact(dt):
        return x
    if dtypes.is_complex(dt):
        re = nan_to_num(lax.real(x), nan, posinf, neginf)
        im = nan_to_num(lax.imag(x), nan, posinf, neginf)
        return lax.complex(re, im)
    info = dtypes.finfo(dt)
    hi = float(info.max) if posinf is None else posinf
    lo = float(info.min) if neginf is None else neginf
    out = lax.select(lax.ne(x, x), _scalar_like(x, nan), x)
    out = lax.select(lax.eq(x, _scalar_like(x, np.inf)), _scalar_like(x, hi), out)
    return lax.select(lax.eq(x, _scalar_like(x, -np.inf)), _scalar_like(x, lo), out)


def heaviside(x: Any, y: Any, name: str | None = None) -> Any:
    """0 where x < 0, y where x == 0, 1 where x > 0 (NaN where x is NaN).

    Args:
        x: the real numeric input.
        y: the values taken where x == 0, broadcast with x.

    Returns:
        A Tensor of the broadcast shape in the promoted dtype.

    Examples:
        >>> import padax
        >>> padax.heaviside(padax.to_tensor([-1.0, 0.0, 2.0]), padax.to_tensor([0.5])).tolist()
        [0.0, 0.5, 1.0]
    """
    x, y = _binary("heaviside", x, y)
    _check("heaviside", x, lambda d: _numeric(d) and _real(d), "real numeric")
    zero, one = _scalar_like(x, 0), _scalar_like(x, 1)
    out = lax.select(lax.lt(x, zero), zero, lax.select(lax.gt(x, zero), one, y))
    if dtypes.is_inexact(x.aval.dtype):
        out = lax.select(lax.ne(x, x), x, out)
    return out


def _euclid_steps(dt: np.dtype) -> int:
    # Euclid's algorithm needs at most ~1.44 * bits + 2 steps (consecutive Fibonacci numbers are worst)
    return int(np.ceil(1.4405 * dt.itemsize * 8)) + 2


def gcd(x: Any, y: Any, name: str | None = None) -> Any:
    """Greatest common divisor of integers (non-negative; gcd(0, 0) = 0).

    Args:
        x, y: integer Tensors or Python ints, broadcast together.

    Returns:
        A non-negative integer Tensor of the broadcast shape.

    Examples:
        >>> import padax
        >>> x, y = padax.to_tensor([12, 18]), padax.to_tensor([8, 4])
        >>> padax.gcd(x, y).tolist()
        [4, 2]
    """
    x, y = _binary("gcd", x, y)
    _check("gcd", x, dtypes.is_integer, "integer")
    a, b = lax.abs(x) if not dtypes.is_unsigned(x.aval.dtype) else x, \
        lax.abs(y) if not dtypes.is_unsigned(y.aval.dtype) else y
    zero, one = _scalar_like(a, 0), _scalar_like(a, 1)
    for _ in builtins.range(_euclid_steps(a.aval.dtype)):
        nz = lax.ne(b, zero)
        r = lax.rem(a, lax.select(nz, b, one))
        a, b = lax.select(nz, b, a), lax.select(nz, r, b)
    return a


def lcm(x: Any, y: Any, name: str | None = None) -> Any:
    """Least common multiple of integers (non-negative; 0 if either is 0).

    Args:
        x, y: integer Tensors or Python ints, broadcast together.

    Returns:
        A non-negative integer Tensor of the broadcast shape.

    Examples:
        >>> import padax
        >>> x, y = padax.to_tensor([12, 18]), padax.to_tensor([8, 4])
        >>> padax.lcm(x, y).tolist()
        [24, 36]
    """
    x, y = _binary("lcm", x, y)
    _check("lcm", x, dtypes.is_integer, "integer")
    g = gcd(x, y)
    zero = _scalar_like(g, 0)
    safe = lax.select(lax.eq(g, zero), _scalar_like(g, 1), g)
    out = lax.mul(lax.div(x, safe), y)
    out = out if dtypes.is_unsigned(out.aval.dtype) else lax.abs(out)
    return lax.select(lax.eq(g, zero), zero, out)


def isclose(x: Any, y: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False,
            name: str | None = None) -> Any:
    """|x - y| <= atol + rtol * |y| elementwise (equal infinities are close; NaNs only with equal_nan).

    Args:
        x, y: Tensors or Python numbers, promoted and broadcast together as in Paddle.
        rtol: the relative tolerance (scaled by |y|).
        atol: the absolute tolerance.
        equal_nan: whether two NaNs count as close.

    Returns:
        A bool Tensor of the broadcast shape.

    Examples:
        >>> import padax
        >>> padax.isclose(padax.to_tensor([1.0, 1.0]), padax.to_tensor([1.0 + 1e-9, 1.1])).tolist()
        [True, False]
    """
    x, y = _binary("isclose", x, y)
    dt = x.aval.dtype
    if not dtypes.is_inexact(dt):
        if dt == dtypes.bool_:
            return lax.eq(x, y)
        f = dtypes.float64 if dt.itemsize == 8 and dtypes.x64_enabled() else dtypes.float32
        x, y = lax.convert_element_type(x, f), lax.convert_element_type(y, f)
    diff = lax.abs(lax.sub(x, y))
    tol = lax.add(_scalar_like(diff, atol), lax.mul(_scalar_like(diff, rtol), lax.abs(y)))
    out = lax.le(diff, tol)
    out = lax.bitwise_or(out, lax.eq(x, y))  # equal infinities
    if not dtypes.is_inexact(dt):
        return out
    fin = lax.bitwise_and(isfinite(x), isfinite(y))
    out = lax.bitwise_and(out, lax.bitwise_or(fin, lax.eq(x, y)))
    if equal_nan:
        out = lax.bitwise_or(out, lax.bitwise_and(isnan(x), isnan(y)))
    return out


def allclose(x: Any, y: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False,
             name: str | None = None) -> Any:
    """True (a 0-d bool Tensor) if isclose holds everywhere.

    Args:
        x, y: Tensors or Python numbers, promoted and broadcast together as in Paddle.
        rtol: the relative tolerance (scaled by |y|).
        atol: the absolute tolerance.
        equal_nan: whether two NaNs count as close.

    Returns:
        A 0-d bool Tensor.

    Examples:
        >>> import padax
        >>> bool(padax.allclose(padax.to_tensor([1.0, 2.0]), padax.to_tensor([1.0, 2.0 + 1e-7])))
        True
    """
    c = isclose(x, y, rtol, atol, equal_nan)
    return lax.reduce_and(c, tuple(builtins.range(c.aval.ndim)))


def isneginf(x: Any, name: str | None = None) -> Any:
    """True where x is -inf.

    Args:
        x: the input Tensor.

    Returns:
        A bool Tensor of x's shape.

    Examples:
        >>> import padax
        >>> padax.isneginf(padax.to_tensor([-float('inf'), float('inf'), 0.0])).tolist()
        [True, False, False]
    """
    x = _arg("isneginf", x, "x")
    if not dtypes.is_floating(x.aval.dtype):
        return full(x.aval.shape, False, dtypes.bool_)
    return lax.eq(x, _scalar_like(x, -np.inf))


def isposinf(x: Any, name: str | None = None) -> Any:
    """True where x is +inf.

    Args:
        x: the input Tensor.

    Returns:
        A bool Tensor of x's shape.

    Examples:
        >>> import padax
        >>> padax.isposinf(padax.to_tensor([-float('inf'), float('inf'), 0.0])).tolist()
        [False, True, False]
    """
    x = _arg("isposinf", x, "x")
    if not dtypes.is_floating(x.aval.dtype):
        return full(x.aval.shape, False, dtypes.bool_)
    return lax.eq(x, _scalar_like(x, np.inf))


def isreal(x: Any, name: str | None = None) -> Any:
    """True where the imaginary part is zero (everywhere for real dtypes).

    Args:
        x: the input Tensor.

    Returns:
        A bool Tensor of x's shape.

    Examples:
        >>> import padax
        >>> padax.isreal(padax.to_tensor([1 + 0j, 1 + 2j])).tolist()
        [True, False]
    """
    x = _arg("isreal", x, "x")
    if not dtypes.is_complex(x.aval.dtype):
        return full(x.aval.shape, True, dtypes.bool_)
    im = lax.imag(x)
    return lax.eq(im, _scalar_like(im, 0))


def real(x: Any, name: str | None = None) -> Any:
    """The real part (x itself for real dtypes).

    Args:
        x: the input Tensor.

    Returns:
        A Tensor of x's shape in the matching real dtype (x itself for real dtypes).

    Examples:
        >>> import padax
        >>> padax.real(padax.to_tensor([1 + 2j, 3 - 4j])).tolist()
        [1.0, 3.0]
    """
    x = _arg("real", x, "x")
    return lax.real(x) if dtypes.is_complex(x.aval.dtype) else x


def imag(x: Any, name: str | None = None) -> Any:
    """The imaginary part (zeros for real dtypes).

    Args:
        x: the input Tensor.

    Returns:
        A Tensor of x's shape in the matching real dtype (x's dtype for real x).

    Examples:
        >>> import padax
        >>> padax.imag(padax.to_tensor([1 + 2j, 3 - 4j])).tolist()
        [2.0, -4.0]
    """
    x = _arg("imag", x, "x")
    return lax.imag(x) if dtypes.is_complex(x.aval.dtype) else _scalar_like(x, 0)


def conj(x: Any, name: str | None = None) -> Any:
    """The complex conjugate (x itself for real dtypes).

    Args:
        x: the input Tensor.

    Returns:
        A Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> padax.conj(padax.to_tensor([1 + 2j])).tolist()
        [(1-2j)]
    """
    x = _arg("conj", x, "x")
    return lax.conj(x) if dtypes.is_complex(x.aval.dtype) else x


def angle(x: Any, name: str | None = None) -> Any:
    """The argument of complex x; for real x, pi where negative and 0 otherwise (float32 for integers).

    Args:
        x: a real or complex Tensor.

    Returns:
        A real floating Tensor of x's shape (radians).

    Examples:
        >>> import padax
        >>> padax.angle(padax.to_tensor([1j, -1.0 + 0j])).tolist()
        [1.5708, 3.1416]
    """
    x = _arg("angle", x, "x")
    if dtypes.is_complex(x.aval.dtype):
        return lax.atan2(lax.imag(x), lax.real(x))
    x = _to_inexact(x)
    return lax.select(lax.lt(x, _scalar_like(x, 0)), _scalar_like(x, np.pi), _scalar_like(x, 0))


def is_empty(x: Any, name: str | None = None) -> Any:
    """True (a 0-d bool Tensor) if x has no elements.

    Args:
        x: the input Tensor.

    Returns:
        A 0-d bool Tensor.

    Examples:
        >>> import padax
        >>> bool(padax.is_empty(padax.zeros([0, 3])))
        True
    """
    x = _arg("is_empty", x, "x")
    return full((), x.aval.size == 0, dtypes.bool_)


def is_tensor(x: Any) -> bool:
    """Whether x is a padax Tensor (or a traced one).

    Args:
        x: any object.

    Returns:
        A Python bool.

    Examples:
        >>> import padax
        >>> padax.is_tensor(padax.ones([2])), padax.is_tensor([1.0])
        (True, False)
    """
    return is_array(x)


def is_complex(x: Any) -> bool:
    """Whether x has a complex dtype.

    Args:
        x: a Tensor (or anything padax.to_tensor accepts).

    Returns:
        A Python bool.

    Examples:
        >>> import padax
        >>> padax.is_complex(padax.to_tensor([1j])), padax.is_complex(padax.ones([1]))
        (True, False)
    """
    return dtypes.is_complex(asarray(x).aval.dtype)


def is_floating_point(x: Any) -> bool:
    """Whether x has a real floating dtype.

    Args:
        x: a Tensor (or anything padax.to_tensor accepts).

    Returns:
        A Python bool.

    Examples:
        >>> import padax
        >>> padax.is_floating_point(padax.ones([1])), padax.is_floating_point(padax.to_tensor([1]))
        (True, False)
    """
    return dtypes.is_floating(asarray(x).aval.dtype)


def is_integer(x: Any) -> bool:
    """Whether x has an integer dtype.

    Args:
        x: a Tensor (or anything padax.to_tensor accepts).

    Returns:
        A Python bool.

    Examples:
        >>> import padax
        >>> padax.is_integer(padax.to_tensor([1])), padax.is_integer(padax.ones([1]))
        (True, False)
    """
    return dtypes.is_integer(asarray(x).aval.dtype)


def add_n(inputs: Any, name: str | None = None) -> Any:
    """The elementwise sum of a list of Tensors (of equal shape and dtype).

    Args:
        inputs: a non-empty list or tuple of Tensors of one shape and dtype (a single Tensor is returned as is).

    Returns:
        A Tensor of that shape and dtype.

    Examples:
        >>> import padax
        >>> padax.add_n([padax.ones([2]), padax.ones([2]), padax.to_tensor([1.0, 2.0])]).tolist()
        [3.0, 4.0]
    """
    if is_array(inputs):
        return inputs
    if not isinstance(inputs, (list, tuple)) or not inputs:
        raise op_type_error("add_n", f"inputs must be a non-empty list of Tensors, got {inputs!r}")
    arrs = [asarray(a) for a in inputs]
    ref = arrs[0].aval
    for a in arrs[1:]:
        if a.aval.shape != ref.shape or a.aval.dtype != ref.dtype:
            raise op_type_error("add_n", "all inputs must have the same shape and dtype, got "
                                         + ", ".join(t.aval.str_short() for t in arrs))
    out = arrs[0]
    for a in arrs[1:]:
        out = lax.add(out, a)
    return out


def diff(x: Any, n: int = 1, axis: int = -1, prepend: Any = None, append: Any = None,
         name: str | None = None, *, out: Any = None) -> Any:
    """n-th forward difference along `axis` (not_equal for bool), after concatenating prepend/append.

    Args:
        x: a Tensor with at least one axis.
        n: how many times to take the difference (non-negative).
        axis: the axis to difference along.
        prepend, append: values joined to x along `axis` before and after it first (a number is one slice);
            cast to x's dtype. None for none.
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Returns:
        A Tensor of x's dtype (bool for bool), n shorter along `axis` than x with prepend/append.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([1.0, 4.0, 9.0, 16.0])
        >>> padax.diff(x).tolist()
        [3.0, 5.0, 7.0]
        >>> padax.diff(x, n=2).tolist()
        [2.0, 2.0]
    """
    if out is not None:
        return write_out(out, diff(x=x, n=n, axis=axis, prepend=prepend, append=append, name=name), "diff")
    x = _arg("diff", x, "x")
    if x.aval.ndim == 0:
        raise op_value_error("diff", f"x must have at least one axis, got {x.aval.str_short()}")
    a = canonicalize_axis("diff", axis, x.aval.ndim)
    parts = []
    for extra in (prepend, append):
        if extra is None:
            parts.append(None)
            continue
        e = asarray(extra)
        if e.aval.ndim == 0:
            shape = list(x.aval.shape)
            shape[a] = 1
            e = broadcast_to(e, tuple(shape))
        parts.append(lax.convert_element_type(e, x.aval.dtype))
    seq = [p for p in (parts[0], x, parts[1]) if p is not None]
    if len(seq) > 1:
        x = _manipulation.concat(seq, a)
    n = static_int("diff", n, "n")  # 1.5 is refused, not truncated
    if n < 0:
        raise op_value_error("diff", f"n must be non-negative, got {n}")
    for _ in builtins.range(n):
        m = x.aval.shape[a]
        if m == 0:
            break
        hi = lax.slice_in_dim(x, 1, m, 1, a)
        lo = lax.slice_in_dim(x, 0, m - 1, 1, a)
        x = lax.ne(hi, lo) if x.aval.dtype == dtypes.bool_ else lax.sub(hi, lo)
    return x


def increment(x: Any, value: float = 1.0, name: str | None = None) -> Any:
    """x + value in x's dtype (Paddle's in-place counter op, functional here).

    Args:
        x: the input Tensor.
        value: the amount added.

    Returns:
        A Tensor of x's shape and dtype (x itself is unchanged).

    Examples:
        >>> import padax
        >>> padax.increment(padax.to_tensor([1.0]), value=2.0).tolist()
        [3.0]
    """
    x = _arg("increment", x, "x")
    return lax.add(x, _scalar_like(x, value))


def _trapezoid_parts(op: str, y: Any, x: Any, dx: Any, axis: int):
    y = _to_inexact(y)
    if y.aval.ndim == 0:
        raise op_value_error(op, f"y must have at least one axis, got {y.aval.str_short()}")
    a = canonicalize_axis(op, axis, y.aval.ndim)
    n = y.aval.shape[a]
    if x is not None and dx is not None:
        raise op_value_error(op, "give x or dx, not both")
    lo = lax.slice_in_dim(y, 0, builtins.max(n - 1, 0), 1, a)
    hi = lax.slice_in_dim(y, builtins.min(1, n), n, 1, a)
    avg = lax.mul(lax.add(lo, hi), _scalar_like(lo, 0.5))
    if x is not None:
        xv = lax.convert_element_type(asarray(x), y.aval.dtype)
        if xv.aval.ndim == 1:
            if xv.aval.shape[0] != n:
                raise op_value_error(op, f"x {xv.aval.str_short()} must have the length {n} of axis {a} of y")
            shape = [1] * y.aval.ndim
            shape[a] = n
            xv = lax.reshape(xv, tuple(shape))
        d = lax.sub(lax.slice_in_dim(xv, builtins.min(1, n), n, 1, a),
                    lax.slice_in_dim(xv, 0, builtins.max(n - 1, 0), 1, a))
        return multiply(avg, d), a
    return lax.mul(avg, _scalar_like(avg, 1.0 if dx is None else dx)), a


def trapezoid(y: Any, x: Any = None, dx: float | None = None, axis: int = -1, name: str | None = None) -> Any:
    """Integral of y along `axis` by the trapezoidal rule (sample points x, or spacing dx, default 1).

    Args:
        y: the values to integrate (integer inputs compute in float32).
        x: the sample points: 1-D with y's length along `axis`, or y's shape; None for even spacing.
        dx: the spacing when x is None (default 1); give x or dx, not both.
        axis: the axis to integrate along.

    Returns:
        A floating Tensor: y's shape without `axis`.

    Examples:
        >>> import padax
        >>> float(padax.trapezoid(padax.to_tensor([0.0, 1.0, 4.0]), dx=1.0))
        3.0
        >>> float(padax.trapezoid(padax.to_tensor([0.0, 1.0, 4.0]), x=padax.to_tensor([0.0, 1.0, 3.0])))
        5.5
    """
    parts, a = _trapezoid_parts("trapezoid", y, x, dx, axis)
    return lax.reduce_sum(parts, (a,))


def cumulative_trapezoid(y: Any, x: Any = None, dx: float | None = None, axis: int = -1,
                         name: str | None = None) -> Any:
    """Running trapezoidal integral of y along `axis` (one element shorter than y there).

    Args:
        y: the values to integrate (integer inputs compute in float32).
        x: the sample points: 1-D with y's length along `axis`, or y's shape; None for even spacing.
        dx: the spacing when x is None (default 1); give x or dx, not both.
        axis: the axis to integrate along.

    Returns:
        A floating Tensor of y's shape, one shorter along `axis`.

    Examples:
        >>> import padax
        >>> padax.cumulative_trapezoid(padax.to_tensor([0.0, 1.0, 4.0])).tolist()
        [0.5, 3.0]
    """
    parts, a = _trapezoid_parts("cumulative_trapezoid", y, x, dx, axis)
    return lax.cumsum(parts, a) if parts.aval.shape[a] else parts


def frexp(x: Any, name: str | None = None) -> tuple[Any, Any]:
    """(mantissa, exponent) with x = mantissa * 2 ** exponent and 0.5 <= |mantissa| < 1 (0, inf, NaN
    give themselves and exponent 0); the exponent has x's dtype, as in Paddle.

    Args:
        x: a real Tensor (integer inputs compute in float32).

    Returns:
        A tuple (mantissa, exponent) of two Tensors of x's shape and floating dtype.

    Examples:
        >>> import padax
        >>> m, e = padax.frexp(padax.to_tensor([8.0, 0.75]))
        >>> m.tolist(), e.tolist()
        ([0.5, 0.75], [4.0, 0.0])
    """
    x = _real_float("frexp", x)
    f = dtypes.float64 if x.aval.dtype == dtypes.float64 else dtypes.float32
    xf = lax.convert_element_type(x, f)
    a = lax.abs(xf)
    special = lax.bitwise_or(lax.eq(a, _scalar_like(a, 0)), lax.bitwise_not(lax.is_finite(xf)))
    safe = lax.select(special, _scalar_like(a, 1), a)
    e = lax.add(lax.floor(lax.div(lax.log(safe), _scalar_like(safe, np.log(2.0)))), _scalar_like(safe, 1))
    # correct log rounding at powers of two: bring |m| into [0.5, 1)
    for _ in builtins.range(2):
        m = lax.div(safe, lax.exp2(e))
        e = lax.select(lax.ge(m, _scalar_like(m, 1)), lax.add(e, _scalar_like(e, 1)),
                       lax.select(lax.lt(m, _scalar_like(m, 0.5)), lax.sub(e, _scalar_like(e, 1)), e))
    # exp2 of a very negative exponent underflows: split the division in two steps
    half = lax.floor(lax.div(e, _scalar_like(e, 2)))
    m = lax.div(lax.div(xf, lax.exp2(half)), lax.exp2(lax.sub(e, half)))
    m = lax.select(special, xf, m)
    e = lax.select(special, _scalar_like(e, 0), e)
    return lax.convert_element_type(m, x.aval.dtype), lax.convert_element_type(e, x.aval.dtype)


def gammaln(x: Any, name: str | None = None) -> Any:
    """log|Gamma(x)| (the same as lgamma).

    Args:
        x: a real Tensor (integer inputs compute in float32).

    Returns:
        A floating Tensor of x's shape.

    Examples:
        >>> import padax
        >>> padax.gammaln(padax.to_tensor([0.5, 5.0])).tolist()
        [0.5724, 3.1781]
    """
    return lgamma(x)


_MAX_MULTIGAMMA_P = 100_000


def multigammaln(x: Any, p: int, name: str | None = None) -> Any:
    """The log of the multivariate gamma function of dimension p.

    Args:
        x: a real Tensor (integer inputs compute in float32).
        p: the dimension, a positive int.

    Returns:
        A floating Tensor of x's shape.

    Examples:
        >>> import padax
        >>> float(padax.multigammaln(padax.to_tensor(3.0), 2))
        1.5502
    """
    x = _real_float("multigammaln", x)
    p = int(p)
    if not 1 <= p <= _MAX_MULTIGAMMA_P:
        raise op_value_error("multigammaln", f"p must be a positive integer of at most {_MAX_MULTIGAMMA_P} (one "
                                             f"lgamma term each), got {p}")
    out = _scalar_like(x, p * (p - 1) / 4.0 * np.log(np.pi))
    for j in builtins.range(p):
        out = lax.add(out, lax.lgamma(lax.sub(x, _scalar_like(x, j / 2.0))))
    return out


def renorm(x: Any, p: float, axis: int, max_norm: float, name: str | None = None) -> Any:
    """x with every slice along `axis` whose p-norm exceeds max_norm scaled down to norm max_norm.

    Args:
        x: a real Tensor (integer inputs compute in float32).
        p: the order of the norm (float('inf') for the largest magnitude).
        axis: the axis that indexes the slices; each slice x[..., i, ...] is normed over all other axes.
        max_norm: the largest norm a slice may keep.

    Returns:
        A floating Tensor of x's shape.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[3.0, 4.0], [0.3, 0.4]])
        >>> padax.renorm(x, p=2.0, axis=0, max_norm=1.0).tolist()
        [[0.6, 0.8], [0.3, 0.4]]
    """
    x = _real_float("renorm", x)
    a = canonicalize_axis("renorm", axis, x.aval.ndim)
    others = tuple(d for d in builtins.range(x.aval.ndim) if d != a)
    ax = lax.abs(x)
    if p == np.inf:
        norm = lax.reduce_max(ax, others)
    else:
        norm = lax.pow(lax.reduce_sum(lax.pow(ax, _scalar_like(ax, p)), others),
                       full(lax.reduce_sum(ax, others).aval.shape, 1.0 / p, x.aval.dtype))
    norm = lax.broadcast_in_dim(norm, x.aval.shape, (a,))
    big = lax.gt(norm, _scalar_like(norm, max_norm))
    scale_ = lax.div(_scalar_like(norm, max_norm), lax.add(norm, _scalar_like(norm, 1e-7)))
    return lax.mul(x, lax.select(big, scale_, _scalar_like(norm, 1)))


# ---- selection and casting ---------------------------------------------------------------

def where(condition: Any, x: Any = None, y: Any = None, name: str | None = None, *, out: Any = None) -> Any:
    """Elementwise choice: x where condition is true, else y (all three broadcast together).
    With condition alone: nonzero(condition, as_tuple=True) (eager only: a data-dependent shape).

    Args:
        condition: the selector (bool, or any dtype with nonzero as True).
        x, y: the values taken where condition is true and false; Tensors or numbers, broadcast with
            condition. Give both or neither.
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Returns:
        A Tensor of the broadcast shape in x's and y's promoted dtype; with condition alone, a tuple of
        int64 index Tensors (one per axis).

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([-1.0, 2.0, -3.0])
        >>> padax.where(x > 0, x, padax.zeros_like(x)).tolist()
        [0.0, 2.0, 0.0]
    """
    if out is not None:
        return write_out(out, where(condition=condition, x=x, y=y, name=name), "where")
    if x is None and y is None:
        return _search.nonzero(condition, as_tuple=True)
    if x is None or y is None:
        raise op_type_error("where", "give both x and y, or neither (where(condition) is nonzero(condition, "
                                     "as_tuple=True))")
    cond = _as_bool(condition)
    x, y = _binary("where", x, y)
    shape = broadcast_shapes("where", cond.aval.shape, x.aval.shape)
    return lax.select(broadcast_to(cond, shape), broadcast_to(x, shape), broadcast_to(y, shape))


def cast(x: Any, dtype: Any) -> Any:
    """Convert to `dtype` (nonzero -> True for bool; complex -> real drops the imaginary part).

    Args:
        x: the input Tensor.
        dtype: the target dtype: a padax or numpy dtype, or its name such as 'int32'.

    Returns:
        A Tensor of x's shape in `dtype`.

    Examples:
        >>> import padax
        >>> padax.cast(padax.to_tensor([1.7, -1.7]), 'int32').tolist()
        [1, -1]
        >>> padax.cast(padax.to_tensor([1, 0]), padax.bool).tolist()
        [True, False]
    """
    x = _arg("cast", x, "x")
    return lax.convert_element_type(x, dtypes.canonicalize(dtypes.to_dtype(dtype)))


def astype(x: Any, dtype: Any) -> Any:
    """Same as `cast`.

    Args:
        x: the input Tensor.
        dtype: the target dtype: a padax or numpy dtype, or its name such as 'int32'.

    Returns:
        A Tensor of x's shape in `dtype`.

    Examples:
        >>> import padax
        >>> padax.astype(padax.to_tensor([1.5, 2.5]), 'int64').dtype
        dtype('int64')
    """
    return cast(x, dtype)


# ---- Paddle's aliases ----------------------------------------------------------------------


def true_divide(input: Any, other: Any, *, out: Any = None) -> Any:  # noqa: A002  (Paddle's names)
    """True division, as `divide` (integer operands give float32).

    Args:
        input, other: the dividend and divisor, promoted and broadcast together.
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Returns:
        A Tensor of the broadcast shape (float32 for integer or bool operands).

    Examples:
        >>> import padax
        >>> padax.true_divide(padax.to_tensor([1, 3]), padax.to_tensor([2, 2])).tolist()
        [0.5, 1.5]
    """
    return divide(input, other, out=out)


mul, sub, div = multiply, subtract, divide
eq, ne, lt, le, gt, ge = equal, not_equal, less_than, less_equal, greater_than, greater_equal
greater, less, clamp = greater_than, less_than, clip


__all__ = ["true_divide", "mul", "sub", "div", "eq", "ne", "lt", "le", "gt", "ge", "greater", "less", "clamp",
           "add", "subtract", "multiply", "divide", "floor_divide", "remainder", "mod", "floor_mod", "pow",
           "maximum", "minimum", "fmax", "fmin", "neg", "negative", "abs", "square", "sign", "exp", "expm1",
           "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "sin", "cos", "tan", "asin", "acos", "atan",
           "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "sigmoid", "erf", "erfinv", "lgamma",
           "digamma", "reciprocal", "floor", "ceil", "trunc", "round", "clip", "scale", "atan2", "hypot",
           "logaddexp", "equal", "not_equal", "less_than", "less_equal", "greater_than", "greater_equal",
           "equal_all", "logical_and", "logical_or", "logical_xor", "logical_not", "bitwise_and",
           "bitwise_or", "bitwise_xor", "bitwise_not", "bitwise_invert", "bitwise_left_shift",
           "bitwise_right_shift", "isnan", "isinf", "isfinite", "where", "cast", "astype", "positive", "exp2",
           "rad2deg", "deg2rad", "frac", "sgn", "signbit", "copysign", "ldexp", "nextafter", "polygamma", "sinc",
           "stanh", "logit", "lerp", "nan_to_num", "heaviside", "gcd", "lcm", "isclose", "allclose", "isneginf",
           "isposinf", "isreal", "real", "imag", "conj", "angle", "is_empty", "is_tensor", "is_complex",
           "is_floating_point", "is_integer", "add_n", "diff", "increment", "trapezoid",
           "cumulative_trapezoid", "frexp", "gammaln", "multigammaln", "renorm"]
