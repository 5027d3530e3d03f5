"""Paddle's tensor-creation functions: to_tensor, zeros/ones/full(_like), arange, linspace, logspace,
eye, meshgrid, diag/diagflat/diag_embed, tril/triu and their indices, complex, polar.

Defaults follow Paddle 3: floating results take the default float dtype
(float32 unless `padax.set_default_dtype` changed it) unless a dtype is
given; Python ints become int64.
"""
from __future__ import annotations

import builtins
import math as _pymath
from typing import Any

import numpy as np

from padax.core import dtypes
from padax.core.abstract import ShapedArray, check_aval_size
from padax.core.errors import op_type_error, op_value_error
from padax.core.trace import Tracer
from padax.functional import lax_api as lax, manipulation as _manipulation
from padax.functional._arrays import (
    asarray as _asarray,
    canonicalize_axis,
    full as _full,
    is_array,
    promote_and_broadcast,
    static_int,
)
from padax.functional._checks import arg as _arg, placed, write_out
from padax.functional._rebind import rebind
from padax.interpreters import tape
from padax.runtime.array import Tensor
from padax.runtime.put import check_integer_range, device_put

_SCALARS = (bool, int, float, builtins.complex)


def _dtype_or(dtype: Any, default: Any) -> np.dtype:
    """Canonical dtype for a `dtype=` argument, or `default` when it is None."""
    return dtypes.canonicalize(default if dtype is None else dtypes.to_dtype(dtype))


def _concrete_int(op: str, v: Any, what: str) -> int:
    return static_int(op, v, what)


def normalize_shape(op: str, shape: Any) -> tuple[int, ...]:
    """A Paddle `shape` argument (int, list/tuple of ints or 0-d Tensors, 1-D Tensor) as a tuple."""
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        shape = (shape,)
    elif isinstance(shape, Tensor):
        if not dtypes.is_integer(shape.aval.dtype):
            raise op_type_error(op, f"shape must hold integers, got a Tensor {shape.aval.str_short()}")
        shape = shape.tolist() if shape.ndim else [shape.item()]
    elif isinstance(shape, Tracer):
        static_int(op, shape, "shape")
    elif not isinstance(shape, (list, tuple)):
        raise op_type_error(op, f"shape must be an int, a list/tuple or a 1-D Tensor, got {type(shape).__name__}")
    out = tuple(static_int(op, d, "each shape entry") for d in shape)
    if any(d < 0 for d in out):
        raise op_value_error(op, f"shape {list(out)} has a negative dimension")
    return out


# ---- to_tensor ------------------------------------------------------------------------

def _contains_array(data: Any) -> bool:
    if is_array(data):
        return True
    if isinstance(data, (list, tuple)):
        return any(_contains_array(d) for d in data)
    return False


def to_tensor(data: Any, dtype: Any = None, place: Any = None, stop_gradient: bool = True) -> Any:
    """Make a Tensor from a Python scalar, nested list, numpy array or Tensor.

    Python floats (and lists of them) take the default float dtype (float32),
    ints int64, complex numbers its complex type; numpy arrays keep their dtype. `place`
    may be a padax device; Paddle place strings are accepted and ignored.

    Args:
        data: a Python scalar, (nested) list/tuple (may hold Tensors, which are stacked), numpy array or Tensor.
        dtype: the result dtype (name, numpy dtype or padax dtype); None infers it as described above.
        place: a padax device to put the result on; Paddle place strings and None leave it on the default one.
        stop_gradient: False makes the result a leaf that needs a gradient (the tape: `loss.backward()` fills
            its `.grad`); the functional transforms differentiate any input either way.

    Returns:
        A Tensor (a Tensor input of the right dtype comes back as it is, made strong-typed; with
        stop_gradient=False, or from a Tensor that needs a gradient, a new Tensor object).

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1, 2], [3, 4]])
        >>> x.shape, x.dtype
        ((2, 2), dtype('int64'))
        >>> padax.to_tensor([1.0, 2.0]).dtype
        dtype('float32')
        >>> padax.to_tensor(3.0, dtype='float64').tolist()
        3.0
    """
    out = _to_tensor(data, dtype, place)
    if out is data or tape.is_tracked(out):  # a new Tensor, as Paddle's copy (an in-place update of one
        out = tape.plain(out) if isinstance(out, Tracer) else Tensor(out._buf, out.aval)  # leaves the other)
    return tape.mark_leaf(out) if not stop_gradient else out


def _to_tensor(data: Any, dtype: Any, place: Any) -> Any:
    dt = None if dtype is None else dtypes.canonicalize(dtypes.to_dtype(dtype))
    if is_array(data):
        out = data if dt is None else lax.convert_element_type(data, dt)
        if out.aval.weak_type:
            out = lax.convert_element_type(out, out.aval.dtype, weak_type=False)
        return out
    if isinstance(data, (list, tuple)) and _contains_array(data):
        parts = [_to_tensor(d, dtype, None) for d in data]
        if dt is None:
            dt = dtypes.promote_types(*(p.dtype for p in parts))
        return _manipulation.stack([lax.convert_element_type(p, dt) for p in parts], 0)
    if isinstance(data, (str, bytes)) or data is None:
        raise op_type_error("to_tensor", f"cannot convert {type(data).__name__} {data!r} to a Tensor")
    try:
        arr = np.asarray(data)
    except ValueError as e:
        raise op_type_error("to_tensor", f"cannot convert {type(data).__name__} to a Tensor ({e})") from None
    if arr.dtype == object and _has_huge_int(data):
        raise OverflowError(f"to_tensor: a Python int in the data is out of range for int64 "
                            f"[{-2 ** 63}, {2 ** 63 - 1}]")
    if arr.dtype == object or arr.dtype.kind in "USOM":
        raise op_type_error("to_tensor", f"cannot convert {type(data).__name__} to a Tensor: it has no numeric dtype")
    if dt is None:
        dt = dtypes.python_scalar_dtype(data) if type(data) in _SCALARS else dtypes.dtype_of_value(data)
    check_integer_range("to_tensor", arr, dt)
    device = place if hasattr(place, "platform") else None
    return device_put(np.asarray(arr, dtype=dt), device)


def _has_huge_int(data: Any) -> bool:
    """Whether nested Python data holds an int beyond int64 (numpy then makes an object array)."""
    if isinstance(data, (list, tuple)):
        return builtins.any(_has_huge_int(d) for d in data)
    return isinstance(data, int) and not isinstance(data, bool) and not -2 ** 63 <= data < 2 ** 63


# ---- filled arrays ------------------------------------------------------------------------

def _fill_default_dtype(value: Any) -> np.dtype:
    if is_array(value):
        return value.aval.dtype
    if isinstance(value, bool):
        return dtypes.bool_
    if isinstance(value, builtins.complex):
        return dtypes.default_complex_dtype()
    return dtypes.default_float_dtype()


def full(shape: Any, fill_value: Any, dtype: Any = None, name: str | None = None, *, out: Any = None,
         device: Any = None, requires_grad: bool = False, pin_memory: bool = False) -> Any:
    """An array of `shape` filled with `fill_value` (the default float dtype unless `dtype` or a bool/complex
    value says otherwise), on `device` (default: the default device).

    Args:
        shape: an int, a list/tuple of ints (or 0-d Tensors) or a 1-D integer Tensor; static.
        fill_value: a Python scalar or a one-element Tensor.
        dtype: the result dtype; None: bool for a bool value, the default complex dtype for a complex one,
            the Tensor's dtype for a Tensor value, else the default float dtype.
        out, requires_grad, pin_memory: Paddle's keywords; `out` must be None (Tensors are immutable),
            the other two are accepted and ignored (use stop_gradient/grad transforms instead).
        device: where to place the result (a padax device or a device string); None: the default device.

    Returns:
        A Tensor of `shape`.

    Examples:
        >>> import padax
        >>> padax.full([2, 2], 7.0).tolist()
        [[7.0, 7.0], [7.0, 7.0]]
        >>> padax.full([3], 1, dtype='int32').tolist()
        [1, 1, 1]
    """
    if out is not None:
        result = full(
            shape=shape, fill_value=fill_value, dtype=dtype, name=name, device=device, requires_grad=requires_grad,
            pin_memory=pin_memory)
        return write_out(out, result, "full")
    return placed(_full_value(shape, fill_value, dtype), device)


def _check_fill(op: str, fill_value: Any) -> None:
    numeric = (int, float, builtins.complex, np.generic, np.ndarray, list, tuple)
    if not is_array(fill_value) and not isinstance(fill_value, numeric):
        raise op_type_error(op, f"fill_value must be a number or a Tensor, got {type(fill_value).__name__}: "
                                f"{fill_value!r}")


def _full_value(shape: Any, fill_value: Any, dtype: Any) -> Any:
    shape = normalize_shape("full", shape)
    _check_fill("full", fill_value)
    dt = _dtype_or(dtype, _fill_default_dtype(fill_value))
    if is_array(fill_value):
        if fill_value.aval.size != 1:
            raise op_value_error("full", f"fill_value must hold one element, got {fill_value.aval.str_short()}")
        fill_value = lax.reshape(lax.convert_element_type(fill_value, dt), ())
    return _full(shape, fill_value, dt)


def zeros(shape: Any, dtype: Any = None, name: str | None = None, *, out: Any = None, device: Any = None,
          requires_grad: bool = False, pin_memory: bool = False) -> Any:
    """An array of zeros (the default float dtype unless given).

    Args:
        shape: an int, a list/tuple of ints (or 0-d Tensors) or a 1-D integer Tensor; static.
        dtype: the result dtype; None: the default float dtype.
        out, requires_grad, pin_memory: Paddle's keywords; `out` must be None (Tensors are immutable),
            the other two are accepted and ignored (use stop_gradient/grad transforms instead).
        device: where to place the result (a padax device or a device string); None: the default device.

    Returns:
        A Tensor of `shape` filled with 0.

    Examples:
        >>> import padax
        >>> padax.zeros([2, 3]).tolist()
        [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
        >>> padax.zeros([2], dtype='int64').tolist()
        [0, 0]
    """
    if out is not None:
        result = zeros(
            shape=shape, dtype=dtype, name=name, device=device, requires_grad=requires_grad, pin_memory=pin_memory)
        return write_out(out, result, "zeros")
    return placed(_full(normalize_shape("zeros", shape), 0, _dtype_or(dtype, dtypes.default_float_dtype())), device)


def ones(shape: Any, dtype: Any = None, name: str | None = None, *, out: Any = None, device: Any = None,
         requires_grad: bool = False, pin_memory: bool = False) -> Any:
    """An array of ones (the default float dtype unless given).

    Args:
        shape: an int, a list/tuple of ints (or 0-d Tensors) or a 1-D integer Tensor; static.
        dtype: the result dtype; None: the default float dtype.
        out, requires_grad, pin_memory: Paddle's keywords; `out` must be None (Tensors are immutable),
            the other two are accepted and ignored (use stop_gradient/grad transforms instead).
        device: where to place the result (a padax device or a device string); None: the default device.

    Returns:
        A Tensor of `shape` filled with 1.

    Examples:
        >>> import padax
        >>> padax.ones([2, 2]).tolist()
        [[1.0, 1.0], [1.0, 1.0]]
    """
    if out is not None:
        result = ones(
            shape=shape, dtype=dtype, name=name, device=device, requires_grad=requires_grad, pin_memory=pin_memory)
        return write_out(out, result, "ones")
    return placed(_full(normalize_shape("ones", shape), 1, _dtype_or(dtype, dtypes.default_float_dtype())), device)


def empty(shape: Any, dtype: Any = None, name: str | None = None, *, out: Any = None, device: Any = None,
          requires_grad: bool = False, pin_memory: bool = False) -> Any:
    """Paddle's uninitialised array; arrays are immutable here, so it is zero-filled.

    Args:
        shape: an int, a list/tuple of ints (or 0-d Tensors) or a 1-D integer Tensor; static.
        dtype: the result dtype; None: the default float dtype.
        out, requires_grad, pin_memory: Paddle's keywords; `out` must be None (Tensors are immutable),
            the other two are accepted and ignored (use stop_gradient/grad transforms instead).
        device: where to place the result (a padax device or a device string); None: the default device.

    Returns:
        A zero-filled Tensor of `shape`.

    Examples:
        >>> import padax
        >>> x = padax.empty([2, 3])
        >>> x.shape, x.dtype
        ((2, 3), dtype('float32'))
    """
    if out is not None:
        result = empty(
            shape=shape, dtype=dtype, name=name, device=device, requires_grad=requires_grad, pin_memory=pin_memory)
        return write_out(out, result, "empty")
    return placed(_full(normalize_shape("empty", shape), 0, _dtype_or(dtype, dtypes.default_float_dtype())), device)


def _like(x: Any, value: Any, dtype: Any, device: Any) -> Any:
    x = _asarray(x)
    dt = dtypes.canonicalize(x.aval.dtype if dtype is None else dtypes.to_dtype(dtype))
    return placed(_full(x.aval.shape, value, dt), device)


def zeros_like(x: Any, dtype: Any = None, name: str | None = None, *, device: Any = None,
               requires_grad: bool = False, pin_memory: bool = False) -> Any:
    """Zeros with the shape (and, by default, dtype) of `x`.

    Args:
        x: a Tensor or array-like whose shape is used.
        dtype: the result dtype; None: x's dtype.
        device: where to place the result (a padax device or a device string); None: the default device.
        requires_grad, pin_memory: accepted for Paddle compatibility and ignored.

    Returns:
        A Tensor of x's shape filled with 0.

    Examples:
        >>> import padax
        >>> padax.zeros_like(padax.to_tensor([[1, 2, 3]])).tolist()
        [[0, 0, 0]]
    """
    return _like(x, 0, dtype, device)


def ones_like(x: Any, dtype: Any = None, name: str | None = None, *, device: Any = None,
              requires_grad: bool = False, pin_memory: bool = False) -> Any:
    """Ones with the shape (and, by default, dtype) of `x`.

    Args:
        x: a Tensor or array-like whose shape is used.
        dtype: the result dtype; None: x's dtype.
        device: where to place the result (a padax device or a device string); None: the default device.
        requires_grad, pin_memory: accepted for Paddle compatibility and ignored.

    Returns:
        A Tensor of x's shape filled with 1.

    Examples:
        >>> import padax
        >>> padax.ones_like(padax.to_tensor([1.0, 2.0])).tolist()
        [1.0, 1.0]
    """
    return _like(x, 1, dtype, device)


def empty_like(x: Any, dtype: Any = None, name: str | None = None, *, device: Any = None,
               requires_grad: bool = False, pin_memory: bool = False) -> Any:
    """Paddle's uninitialised array like `x`; zero-filled here.

    Args:
        x: a Tensor or array-like whose shape is used.
        dtype: the result dtype; None: x's dtype.
        device: where to place the result (a padax device or a device string); None: the default device.
        requires_grad, pin_memory: accepted for Paddle compatibility and ignored.

    Returns:
        A zero-filled Tensor of x's shape.

    Examples:
        >>> import padax
        >>> padax.empty_like(padax.ones([2, 2], dtype='float64')).dtype
        dtype('float64')
    """
    return _like(x, 0, dtype, device)


def full_like(x: Any, fill_value: Any, dtype: Any = None, name: str | None = None, *, device: Any = None,
              requires_grad: bool = False, pin_memory: bool = False) -> Any:
    """`fill_value` with the shape (and, by default, dtype) of `x`.

    Args:
        x: the Tensor whose shape is used.
        fill_value: a Python scalar or a one-element Tensor, cast to the result dtype.
        dtype: the result dtype; None: x's dtype.
        device: where to place the result (a padax device or a device string); None: the default device.
        requires_grad, pin_memory: accepted for Paddle compatibility and ignored.

    Returns:
        A Tensor of x's shape filled with fill_value.

    Examples:
        >>> import padax
        >>> padax.full_like(padax.to_tensor([1.0, 2.0]), 0.5).tolist()
        [0.5, 0.5]
    """
    x = _arg("full_like", x, "x")
    _check_fill("full_like", fill_value)
    dt = dtypes.canonicalize(x.aval.dtype if dtype is None else dtypes.to_dtype(dtype))
    if is_array(fill_value):
        fill_value = lax.reshape(lax.convert_element_type(fill_value, dt), ())
    return placed(_full(x.aval.shape, fill_value, dt), device)


# ---- ranges -------------------------------------------------------------------------------

def _concrete_number(op: str, v: Any, what: str):
    if isinstance(v, Tracer):
        raise op_type_error(op, f"{what} must be known while tracing, got a traced array "
                                f"{v.aval.str_short()}; pass a Python number (static_argnums)")
    if isinstance(v, Tensor):
        return v.item()
    if isinstance(v, np.generic):
        return v.item()
    if v is not None and not isinstance(v, (int, float, builtins.complex)):
        raise op_type_error(op, f"{what} must be a number, got {type(v).__name__}: {v!r}")
    return v


def _finite_bounds(op: str, **values: Any) -> None:
    """arange/range count their values from the bounds: an infinite or NaN bound has no count."""
    for what, v in values.items():
        if v is not None and not _pymath.isfinite(abs(v)):
            raise op_value_error(op, f"{what} must be finite, got {v}")


def arange(start: Any = 0, end: Any = None, step: Any = 1, dtype: Any = None, name: str | None = None, *,
           out: Any = None, device: Any = None, requires_grad: bool = False, pin_memory: bool = False) -> Any:
    """Evenly spaced values in [start, end) (int64 for integer arguments, the default float dtype otherwise).

    Args:
        start: the first value; with `end` None it is the end and the range starts at 0.
        end: the (exclusive) end.
        step: the non-zero spacing.
        dtype: the result dtype; None: int64 if start, end and step are all ints, else the default float dtype.
        out, requires_grad, pin_memory: Paddle's keywords; `out` must be None (Tensors are immutable),
            the other two are accepted and ignored (use stop_gradient/grad transforms instead).
        device: where to place the result (a padax device or a device string); None: the default device.

    Returns:
        A 1-D Tensor of ceil((end - start) / step) values (empty if that is not positive). start, end and
        step must be concrete (Python numbers or eager Tensors).

    Examples:
        >>> import padax
        >>> padax.arange(5).tolist()
        [0, 1, 2, 3, 4]
        >>> padax.arange(1.0, 2.0, 0.25).tolist()
        [1.0, 1.25, 1.5, 1.75]
        >>> padax.arange(5).dtype
        dtype('int64')
    """
    if out is not None:
        result = arange(
            start=start, end=end, step=step, dtype=dtype, name=name, device=device, requires_grad=requires_grad,
            pin_memory=pin_memory)
        return write_out(out, result, "arange")
    return placed(_arange(start, end, step, dtype), device)


def range(start: Any = 0, end: Any = None, step: Any = 1, dtype: Any = None, *, out: Any = None,  # noqa: A001
          device: Any = None, requires_grad: bool = False, name: str | None = None) -> Any:
    """Paddle's `range`: values from start to end *inclusive* in steps of `step` (`range(0, 4)` has 5 values;
    one argument is the end, from 0), in the default float dtype unless `dtype` is given.

    Args:
        start: the first value; with `end` None it is the end and the range starts at 0.
        end: the last value, included when the steps land on it.
        step: the non-zero spacing.
        dtype: the result dtype; None: the default float dtype (even for int arguments, as in Paddle).
        out, requires_grad: `out` must be None (Tensors are immutable); requires_grad is ignored.
        device: where to place the result (a padax device or a device string); None: the default device.

    Returns:
        A 1-D Tensor of floor((end - start) / step) + 1 values (empty if that is not positive).

    Examples:
        >>> import padax
        >>> padax.range(0, 6, 2).tolist()
        [0.0, 2.0, 4.0, 6.0]
    """
    if out is not None:
        result = range(
            start=start, end=end, step=step, dtype=dtype, device=device, requires_grad=requires_grad, name=name)
        return write_out(out, result, "range")
    if end is None:
        start, end = 0, start
    start, end, step = (_concrete_number("range", v, w) for v, w in ((start, "start"), (end, "end"), (step, "step")))
    _finite_bounds("range", start=start, end=end, step=step)
    if step == 0:
        raise op_value_error("range", "step must not be 0")
    n = builtins.max(int(_pymath.floor((end - start) / step)) + 1, 0)
    end_excl = start + (n - 0.5) * step  # n values: half a step past the last one
    return placed(_arange(start, end_excl, step, _dtype_or(dtype, dtypes.default_float_dtype())), device)


def _arange(start: Any, end: Any, step: Any, dtype: Any) -> Any:
    start = _concrete_number("arange", start, "start")
    end = _concrete_number("arange", end, "end")
    step = _concrete_number("arange", step, "step")
    _finite_bounds("arange", start=start, end=end, step=step)
    if end is None:
        start, end = 0, start
    if step == 0:
        raise op_value_error("arange", "step must not be 0")
    if dtype is None:
        all_int = all(isinstance(v, (int, np.integer)) for v in (start, end, step))
        dt = dtypes.default_int_dtype() if all_int else dtypes.default_float_dtype()
    else:
        dt = dtypes.canonicalize(dtypes.to_dtype(dtype))
    n = max(int(_pymath.ceil((end - start) / step)), 0)
    if dtypes.is_integer(dt):
        idx = lax.iota(dt, n)
        out = lax.add(lax.mul(idx, _full((n,), int(step), dt)), _full((n,), int(start), dt))
        return out
    # floats: count in the target dtype's precision (at least float32)
    work = dt if dt in (dtypes.float32, dtypes.float64) or dtypes.is_complex(dt) else dtypes.float32
    idx = lax.convert_element_type(lax.iota(dtypes.int32, n), work)
    out = lax.add(lax.mul(idx, _full((n,), step, work)), _full((n,), start, work))
    return lax.convert_element_type(out, dt)


def linspace(start: Any, stop: Any, num: Any, dtype: Any = None, name: str | None = None, *, out: Any = None,
             device: Any = None, requires_grad: bool = False) -> Any:
    """`num` evenly spaced values from `start` to `stop`, both included (the default float dtype unless given).

    Args:
        start, stop: the first and last values (concrete Python numbers or eager Tensors).
        num: the number of values (non-negative).
        dtype: the result dtype; None: the default float dtype (integer dtypes round towards -inf).
        out, requires_grad: `out` must be None (Tensors are immutable); requires_grad is ignored.
        device: where to place the result (a padax device or a device string); None: the default device.

    Returns:
        A 1-D Tensor of `num` values.

    Examples:
        >>> import padax
        >>> padax.linspace(0.0, 1.0, 5).tolist()
        [0.0, 0.25, 0.5, 0.75, 1.0]
    """
    if out is not None:
        result = linspace(
            start=start, stop=stop, num=num, dtype=dtype, name=name, device=device, requires_grad=requires_grad)
        return write_out(out, result, "linspace")
    return placed(_linspace(start, stop, num, dtype), device)


def _linspace(start: Any, stop: Any, num: Any, dtype: Any) -> Any:
    start = _concrete_number("linspace", start, "start")
    stop = _concrete_number("linspace", stop, "stop")
    num = _concrete_int("linspace", _concrete_number("linspace", num, "num"), "num")
    if num < 0:
        raise op_value_error("linspace", f"num must be non-negative, got {num}")
    dt = _dtype_or(dtype, dtypes.default_float_dtype())
    work = dtypes.float64 if (dt == dtypes.float64 or (dtypes.is_integer(dt) and dt.itemsize == 8)) else dtypes.float32
    work = dtypes.canonicalize(work)
    if num == 1:
        return _full((1,), start, dt)
    idx = lax.convert_element_type(lax.iota(dtypes.int32, num), work)
    step = (stop - start) / max(num - 1, 1)
    out = lax.add(lax.mul(idx, _full((num,), step, work)), _full((num,), start, work))
    if num > 1:  # the last point is exactly `stop`
        last = lax.eq(lax.iota(dtypes.int32, num), _full((num,), num - 1, dtypes.int32))
        out = lax.select(last, _full((num,), stop, work), out)
    if dtypes.is_integer(dt):
        out = lax.floor(out)  # as numpy: integer results round towards -inf
    return lax.convert_element_type(out, dt)


def eye(num_rows: Any, num_columns: Any = None, dtype: Any = None, name: str | None = None, *, out: Any = None,
        device: Any = None, requires_grad: bool = False, pin_memory: bool = False) -> Any:
    """A 2-D array with ones on the diagonal (the default float dtype unless given).

    Args:
        num_rows: the number of rows.
        num_columns: the number of columns; None: num_rows.
        dtype: the result dtype; None: the default float dtype.
        out, requires_grad, pin_memory: Paddle's keywords; `out` must be None (Tensors are immutable),
            the other two are accepted and ignored (use stop_gradient/grad transforms instead).
        device: where to place the result (a padax device or a device string); None: the default device.

    Returns:
        A [num_rows, num_columns] Tensor.

    Examples:
        >>> import padax
        >>> padax.eye(2).tolist()
        [[1.0, 0.0], [0.0, 1.0]]
        >>> padax.eye(2, 3).tolist()
        [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
    """
    if out is not None:
        result = eye(
            num_rows=num_rows, num_columns=num_columns, dtype=dtype, name=name, device=device,
            requires_grad=requires_grad, pin_memory=pin_memory)
        return write_out(out, result, "eye")
    return placed(_eye(num_rows, num_columns, dtype), device)


def _eye(num_rows: Any, num_columns: Any, dtype: Any) -> Any:
    n = _concrete_int("eye", _concrete_number("eye", num_rows, "num_rows"), "num_rows")
    m = n if num_columns is None else _concrete_int("eye", _concrete_number("eye", num_columns, "num_columns"),
                                                     "num_columns")
    if n < 0 or m < 0:
        raise op_value_error("eye", f"num_rows and num_columns must be non-negative, got {n} and {m}")
    dt = _dtype_or(dtype, dtypes.default_float_dtype())
    rows = lax.broadcasted_iota(dtypes.int32, (n, m), 0)
    cols = lax.broadcasted_iota(dtypes.int32, (n, m), 1)
    return lax.convert_element_type(lax.eq(rows, cols), dt)


def logspace(start: Any, stop: Any, num: Any, base: Any = 10.0, dtype: Any = None, name: str | None = None) -> Any:
    """`num` values base ** linspace(start, stop, num) (the default float dtype unless given).

    Args:
        start, stop: the first and last exponents.
        num: the number of values.
        base: the base of the powers.
        dtype: the result dtype; None: the default float dtype (integer dtypes round towards -inf).

    Returns:
        A 1-D Tensor of `num` values.

    Examples:
        >>> import padax
        >>> padax.logspace(0.0, 3.0, 4).tolist()
        [1.0, 10.0, 100.0, 1000.0]
        >>> padax.logspace(0.0, 3.0, 4, base=2.0).tolist()
        [1.0, 2.0, 4.0, 8.0]
    """
    dt = _dtype_or(dtype, dtypes.default_float_dtype())
    work = dtypes.canonicalize(dtypes.float64) if dt == dtypes.float64 else dtypes.float32
    e = _linspace(start, stop, num, work)
    b = _concrete_number("logspace", base, "base")
    out = lax.pow(_full(e.aval.shape, b, work), e)
    if dtypes.is_integer(dt):
        out = lax.floor(out)
    return lax.convert_element_type(out, dt)


def meshgrid(*args: Any, **kwargs: Any) -> list[Any]:
    """Coordinate grids from 1-D Tensors (a list or varargs), 'ij' indexing: out[i] varies along axis i.

    Args:
        *args: 0-D or 1-D Tensors, given separately or as one list/tuple.
        **kwargs: Paddle's `name`; ignored.

    Returns:
        A list of len(args) Tensors, each of shape [len(args[0]), len(args[1]), ...] and its input's dtype.

    Examples:
        >>> import padax
        >>> gx, gy = padax.meshgrid(padax.to_tensor([1, 2, 3]), padax.to_tensor([10, 20]))
        >>> gx.tolist()
        [[1, 1], [2, 2], [3, 3]]
        >>> gy.tolist()
        [[10, 20], [10, 20], [10, 20]]
    """
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        args = tuple(args[0])
    arrs = [_asarray(a) for a in args]
    for a in arrs:
        if a.aval.ndim > 1:
            raise op_value_error("meshgrid", f"inputs must be 0-D or 1-D, got {a.aval.str_short()}")
    shape = tuple(a.aval.size for a in arrs)
    return [lax.broadcast_in_dim(lax.reshape(a, (a.aval.size,)), shape, (i,)) for i, a in enumerate(arrs)]


def _tri_mask(shape: tuple[int, ...], k: int, lower: bool) -> Any:
    n, m = shape[-2:]
    rows = lax.broadcasted_iota(dtypes.int32, (n, m), 0)
    cols = lax.broadcasted_iota(dtypes.int32, (n, m), 1)
    d = lax.sub(cols, rows)
    kk = _full((n, m), int(k), dtypes.int32)
    mask = lax.le(d, kk) if lower else lax.ge(d, kk)
    return lax.broadcast_in_dim(mask, shape, (len(shape) - 2, len(shape) - 1))


def _tri(op: str, x: Any, diagonal: Any, lower: bool) -> Any:
    x = _asarray(x)
    if x.aval.ndim < 2:
        raise op_value_error(op, f"x must have at least 2 axes, got {x.aval.str_short()}")
    k = _concrete_int(op, _concrete_number(op, diagonal, "diagonal"), "diagonal")
    mask = _tri_mask(x.aval.shape, k, lower)
    return lax.select(mask, x, _full(x.aval.shape, 0, x.aval.dtype))


def tril(x: Any, diagonal: int = 0, name: str | None = None, *, out: Any = None) -> Any:
    """The lower triangle of the last two axes (entries above `diagonal` zeroed).

    Args:
        x: a Tensor with at least 2 axes (leading axes are a batch).
        diagonal: the last diagonal kept: 0 the main one, > 0 above it, < 0 below it.
        out: must be None (Tensors are immutable).

    Returns:
        A Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
        >>> padax.tril(x).tolist()
        [[1, 0, 0], [4, 5, 0], [7, 8, 9]]
        >>> padax.tril(x, diagonal=-1).tolist()
        [[0, 0, 0], [4, 0, 0], [7, 8, 0]]
    """
    if out is not None:
        return write_out(out, tril(x=x, diagonal=diagonal, name=name), "tril")
    return _tri("tril", x, diagonal, True)


def triu(x: Any, diagonal: int = 0, name: str | None = None, *, out: Any = None) -> Any:
    """The upper triangle of the last two axes (entries below `diagonal` zeroed).

    Args:
        x: a Tensor with at least 2 axes (leading axes are a batch).
        diagonal: the first diagonal kept: 0 the main one, > 0 above it, < 0 below it.
        out: must be None (Tensors are immutable).

    Returns:
        A Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
        >>> padax.triu(x).tolist()
        [[1, 2, 3], [0, 5, 6], [0, 0, 9]]
        >>> padax.triu(x, diagonal=1).tolist()
        [[0, 2, 3], [0, 0, 6], [0, 0, 0]]
    """
    if out is not None:
        return write_out(out, triu(x=x, diagonal=diagonal, name=name), "triu")
    return _tri("triu", x, diagonal, False)


def _tri_indices(op: str, row: Any, col: Any, offset: Any, dtype: Any, lower: bool) -> Any:
    n = _concrete_int(op, _concrete_number(op, row, "row"), "row")
    m = n if col is None else _concrete_int(op, _concrete_number(op, col, "col"), "col")
    k = _concrete_int(op, _concrete_number(op, offset, "offset"), "offset")
    if n < 0 or m < 0:
        raise op_value_error(op, f"row and col must be non-negative, got {n} and {m}")
    dt = _dtype_or(dtype, dtypes.int64)
    if not dtypes.is_integer(dt):
        raise op_type_error(op, f"dtype must be an integer type, got {dt.name}")
    r, c = np.tril_indices(n, k, m) if lower else np.triu_indices(n, k, m)
    return _asarray(np.stack([r, c]).astype(dt))


def tril_indices(row: int, col: int, offset: int = 0, dtype: Any = "int64") -> Any:
    """The [2, N] (row, col) coordinates of the lower triangle of a row x col matrix, row by row.

    Args:
        row, col: the matrix's number of rows and columns.
        offset: the last diagonal included: 0 the main one, > 0 above it, < 0 below it.
        dtype: an integer dtype for the result.

    Returns:
        A [2, N] Tensor: row indices, then column indices.

    Examples:
        >>> import padax
        >>> padax.tril_indices(3, 3).tolist()
        [[0, 1, 1, 2, 2, 2], [0, 0, 1, 0, 1, 2]]
    """
    return _tri_indices("tril_indices", row, col, offset, dtype, True)


def triu_indices(row: int, col: int | None = None, offset: int = 0, dtype: Any = "int64") -> Any:
    """The [2, N] (row, col) coordinates of the upper triangle of a row x col matrix, row by row.

    Args:
        row: the matrix's number of rows.
        col: its number of columns; None: row.
        offset: the first diagonal included: 0 the main one, > 0 above it, < 0 below it.
        dtype: an integer dtype for the result.

    Returns:
        A [2, N] Tensor: row indices, then column indices.

    Examples:
        >>> import padax
        >>> padax.triu_indices(3, 3, 1).tolist()
        [[0, 0, 1], [1, 2, 2]]
    """
    return _tri_indices("triu_indices", row, col, offset, dtype, False)


def _diag_matrix(op: str, v: Any, offset: int, padding_value: Any) -> Any:
    """[..., n] -> [..., N, N] (N = n + |offset|) with v on the offset diagonal and padding elsewhere."""
    n = v.aval.shape[-1]
    lead = v.aval.shape[:-1]
    N = n + builtins.abs(offset)
    nd = len(lead)
    cfg = [(0, 0, 0)] * nd + [(0, builtins.abs(offset), 0)]
    vp = lax.pad(v, _full((), 0, v.aval.dtype), cfg)  # [..., N]
    shape = lead + (N, N)
    # entry (i, j) with j - i == offset holds v[i] (offset >= 0) or v[j] (offset < 0)
    src = nd if offset >= 0 else nd + 1
    vals = lax.broadcast_in_dim(vp, shape, tuple(builtins.range(nd)) + (src,))
    rows = lax.broadcasted_iota(dtypes.int32, shape, nd)
    cols = lax.broadcasted_iota(dtypes.int32, shape, nd + 1)
    on = lax.eq(lax.sub(cols, rows), _full(shape, int(offset), dtypes.int32))
    pad_v = lax.convert_element_type(padding_value, v.aval.dtype) if is_array(padding_value) else padding_value
    return lax.select(on, vals, _full(shape, pad_v, v.aval.dtype))


def diag(x: Any, offset: int = 0, padding_value: Any = 0, name: str | None = None) -> Any:
    """A 1-D x becomes a square matrix with x on the `offset` diagonal (padding_value elsewhere); a 2-D x
    gives its `offset` diagonal.

    Args:
        x: a 0-D, 1-D or 2-D Tensor (0-D is treated as 1-D).
        offset: which diagonal: 0 the main one, > 0 above it, < 0 below it.
        padding_value: the off-diagonal value when building a matrix from a 1-D x.

    Returns:
        For a 1-D x of length n, an [n + |offset|, n + |offset|] matrix; for a 2-D x, a 1-D Tensor. x's dtype.

    Examples:
        >>> import padax
        >>> padax.diag(padax.to_tensor([1, 2])).tolist()
        [[1, 0], [0, 2]]
        >>> padax.diag(padax.to_tensor([[1, 2], [3, 4]])).tolist()
        [1, 4]
        >>> padax.diag(padax.to_tensor([1, 2]), offset=1).tolist()
        [[0, 1, 0], [0, 0, 2], [0, 0, 0]]
    """
    x = _arg("diag", x, "x")
    offset = _concrete_int("diag", _concrete_number("diag", offset, "offset"), "offset")
    if x.aval.ndim == 0:
        x = lax.reshape(x, (1,))
    if x.aval.ndim == 1:
        return _diag_matrix("diag", x, offset, padding_value)
    if x.aval.ndim == 2:
        return _manipulation.diagonal(x, offset, 0, 1)
    raise op_value_error("diag", f"x must be 0-D, 1-D or 2-D, got {x.aval.str_short()}")


def diagflat(x: Any, offset: int = 0, name: str | None = None) -> Any:
    """A square matrix with the flattened x on the `offset` diagonal.

    Args:
        x: a Tensor of any shape (flattened first).
        offset: which diagonal: 0 the main one, > 0 above it, < 0 below it.

    Returns:
        An [N, N] Tensor of x's dtype with N = x.size + |offset|, zeros elsewhere.

    Examples:
        >>> import padax
        >>> padax.diagflat(padax.to_tensor([[1, 2], [3, 4]])).shape
        (4, 4)
    """
    x = _arg("diagflat", x, "x")
    offset = _concrete_int("diagflat", _concrete_number("diagflat", offset, "offset"), "offset")
    return _diag_matrix("diagflat", lax.reshape(x, (x.aval.size,)), offset, 0)


def diag_embed(input: Any, offset: int = 0, dim1: int = -2, dim2: int = -1, name: str | None = None) -> Any:
    """Matrices with input's last axis on their `offset` diagonal, placed at output axes dim1 and dim2.

    Args:
        input: a Tensor with at least 1 axis; its last axis holds the diagonals.
        offset: which diagonal: 0 the main one, > 0 above it, < 0 below it.
        dim1, dim2: the two different output axes of each matrix (of a result with one more axis than input).

    Returns:
        A Tensor of input's dtype with input's leading axes and two new axes of size n + |offset|.

    Examples:
        >>> import padax
        >>> padax.diag_embed(padax.to_tensor([[1.0, 2.0], [3.0, 4.0]])).tolist()
        [[[1.0, 0.0], [0.0, 2.0]], [[3.0, 0.0], [0.0, 4.0]]]
    """
    x = _asarray(input)
    if x.aval.ndim == 0:
        raise op_value_error("diag_embed", f"input must have at least 1 axis, got {x.aval.str_short()}")
    offset = _concrete_int("diag_embed", _concrete_number("diag_embed", offset, "offset"), "offset")
    nd = x.aval.ndim + 1
    d1, d2 = canonicalize_axis("diag_embed", dim1, nd), canonicalize_axis("diag_embed", dim2, nd)
    if d1 == d2:
        raise op_value_error("diag_embed", f"dim1 and dim2 must differ, got {dim1} and {dim2}")
    m = _diag_matrix("diag_embed", x, offset, 0)  # [..., N, N] with rows at nd-2, cols at nd-1
    rest = iter(builtins.range(nd - 2))
    perm = [nd - 2 if d == d1 else nd - 1 if d == d2 else next(rest) for d in builtins.range(nd)]
    return lax.transpose(m, tuple(perm))


def complex(real: Any, imag: Any, name: str | None = None, *, out: Any = None) -> Any:
    """real + 1j * imag from two real Tensors (broadcast; float32 -> complex64, float64 -> complex128).

    Args:
        real, imag: real Tensors (broadcast together; other real dtypes are computed in float32).
        out: must be None (Tensors are immutable).

    Returns:
        A complex64 or complex128 Tensor of the broadcast shape.

    Examples:
        >>> import padax
        >>> padax.complex(padax.to_tensor([1.0, 2.0]), padax.to_tensor([0.5, -1.0])).tolist()
        [(1+0.5j), (2-1j)]
    """
    if out is not None:
        return write_out(out, complex(real=real, imag=imag, name=name), "complex")
    re, im = promote_and_broadcast("complex", real, imag)
    dt = re.aval.dtype
    if dtypes.is_complex(dt):
        raise op_type_error("complex", f"real and imag must be real, got {re.aval.str_short()}")
    if dt not in (dtypes.float32, dtypes.float64):
        re, im = lax.convert_element_type(re, dtypes.float32), lax.convert_element_type(im, dtypes.float32)
    return lax.complex(re, im)


def polar(abs: Any, angle: Any, name: str | None = None, *, out: Any = None) -> Any:
    """abs * (cos(angle) + 1j * sin(angle)).

    Args:
        abs: the magnitudes (a real floating Tensor).
        angle: the angles in radians (broadcast with abs).
        out: must be None (Tensors are immutable).

    Returns:
        A complex64 or complex128 Tensor of the broadcast shape.

    Examples:
        >>> import padax
        >>> import math
        >>> z = padax.polar(padax.to_tensor([2.0]), padax.to_tensor([math.pi / 2]))
        >>> padax.round(z.real(), decimals=4).tolist(), z.imag().tolist()
        ([0.0], [2.0])
    """
    if out is not None:
        return write_out(out, polar(abs=abs, angle=angle, name=name), "polar")
    r, t = promote_and_broadcast("polar", abs, angle)
    if not dtypes.is_floating(r.aval.dtype):
        raise op_type_error("polar", f"abs and angle must be real floating, got {r.aval.str_short()}")
    if r.aval.dtype not in (dtypes.float32, dtypes.float64):
        r, t = lax.convert_element_type(r, dtypes.float32), lax.convert_element_type(t, dtypes.float32)
    return lax.complex(lax.mul(r, lax.cos(t)), lax.mul(r, lax.sin(t)))


def vander(x: Any, n: int | None = None, increasing: bool = False, name: str | None = None) -> Any:
    """The Vandermonde matrix of the 1-D x: columns x**(n-1), ..., x**0 (or increasing powers).

    Args:
        x: a 1-D Tensor.
        n: the number of columns; None: len(x).
        increasing: whether powers increase from left to right (default False: they decrease).

    Returns:
        A [len(x), n] Tensor of x's dtype (bool x is computed as int64).

    Examples:
        >>> import padax
        >>> padax.vander(padax.to_tensor([1.0, 2.0, 3.0])).tolist()
        [[1.0, 1.0, 1.0], [4.0, 2.0, 1.0], [9.0, 3.0, 1.0]]
        >>> padax.vander(padax.to_tensor([1.0, 2.0, 3.0]), n=2, increasing=True).tolist()
        [[1.0, 1.0], [1.0, 2.0], [1.0, 3.0]]
    """
    x = _arg("vander", x, "x")
    if x.aval.ndim != 1:
        raise op_value_error("vander", f"x must be 1-D, got {x.aval.str_short()}")
    m = x.aval.shape[0] if n is None else _concrete_int("vander", n, "n")
    if m < 0:
        raise op_value_error("vander", f"n must be non-negative, got {m}")
    if not dtypes.is_inexact(x.aval.dtype) and not dtypes.is_integer(x.aval.dtype):
        x = lax.convert_element_type(x, dtypes.default_int_dtype())
    k = x.aval.shape[0]
    check_aval_size("vander", ShapedArray((k, m), x.aval.dtype))  # (a huge n: an error now, not a long loop)
    cols = [_full((k, 1), 1, x.aval.dtype)]
    xc = lax.reshape(x, (k, 1))
    for _ in builtins.range(1, m):
        cols.append(lax.mul(cols[-1], xc))
    cols = cols[:m]
    if not increasing:
        cols = cols[::-1]
    return lax.concatenate(cols, 1) if cols else _full((k, 0), 0, x.aval.dtype)


def assign(x: Any, output: Any = None) -> Any:
    """A Tensor with x's values; with `output`, output is rebound to them (cast to its dtype) and returned.
    A Python number goes through numpy, as in Paddle: a float gives float64, an int int64, shape [1].

    Args:
        x: a Tensor, numpy array, nested list or Python number.
        output: an existing Tensor to update in place (padax rebinds the object; no buffer is written).

    Returns:
        A Tensor with x's values (`output` itself when given).

    Examples:
        >>> import padax
        >>> padax.assign([[1.0, 2.0]]).tolist()
        [[1.0, 2.0]]
        >>> padax.assign(padax.to_tensor([3, 4])).tolist()
        [3, 4]
    """
    if type(x) in (float, int):
        value = to_tensor(np.asarray([x]))
    else:
        value = to_tensor(x)
    if output is not None:  # (Paddle's assign gives output x's shape and keeps output's dtype)
        dt = output.aval.dtype
        return rebind(output, value if value.aval.dtype == dt else lax.convert_element_type(value, dt),
                      "assign(..., output=)", same_shape=False)
    return value


def as_tensor(data: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False,
              pin_memory: bool = False) -> Any:
    """A Tensor of `data` (as to_tensor; a Tensor of the right dtype is returned as it is), on `device`.

    Args:
        data: a Python scalar, (nested) list, numpy array or Tensor.
        dtype: the result dtype; None infers it as to_tensor does.
        device: where to place the result (a padax device or a device string); None: the default device.
        requires_grad, pin_memory: accepted for Paddle compatibility and ignored.

    Returns:
        A Tensor.

    Examples:
        >>> import padax
        >>> import numpy as np
        >>> padax.as_tensor(np.array([1, 2], dtype=np.int32)).dtype
        dtype('int32')
    """
    return placed(to_tensor(data, dtype), device)


def asarray(obj: Any, *, dtype: Any = None, device: Any = None, copy: bool | None = None,
            requires_grad: bool = False) -> Any:
    """A Tensor of `obj` (as to_tensor); Tensors are immutable, so `copy` never matters.

    Args:
        obj: a Python scalar, (nested) list, numpy array or Tensor.
        dtype: the result dtype; None infers it as to_tensor does.
        device: where to place the result (a padax device or a device string); None: the default device.
        copy: accepted for the array-API signature; it changes nothing here.
        requires_grad: accepted for Paddle compatibility and ignored.

    Returns:
        A Tensor.

    Examples:
        >>> import padax
        >>> padax.asarray([1.5, 2.5]).tolist()
        [1.5, 2.5]
        >>> padax.asarray([1, 2], dtype='float64').dtype
        dtype('float64')
    """
    return placed(to_tensor(obj, dtype), device)


def from_numpy(ndarray: np.ndarray) -> Any:
    """A Tensor with the numpy array's values, shape and dtype (a copy: Tensors never share host memory).

    Args:
        ndarray: a numpy.ndarray (other types are rejected with TypeError).

    Returns:
        A Tensor with the array's shape and dtype.

    Examples:
        >>> import padax
        >>> import numpy as np
        >>> padax.from_numpy(np.arange(3, dtype=np.float64)).tolist()
        [0.0, 1.0, 2.0]
    """
    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"from_numpy: expected a numpy.ndarray, got {type(ndarray).__name__}")
    return to_tensor(ndarray)


def clone(x: Any, name: str | None = None) -> Any:
    """x itself: Tensors are immutable, so a copy is never needed.

    Args:
        x: a Tensor.

    Returns:
        x (the same immutable Tensor).

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([1.0, 2.0])
        >>> padax.clone(x).tolist()
        [1.0, 2.0]
    """
    return _arg("clone", x, "x")


__all__ = ["assign", "as_tensor", "asarray", "from_numpy", "range", "clone", "to_tensor", "full", "zeros", "ones",
           "empty", "zeros_like", "ones_like", "empty_like",
           "full_like", "arange", "linspace", "eye", "logspace", "meshgrid", "tril", "triu", "tril_indices",
           "triu_indices", "diag", "diagflat", "diag_embed", "complex", "polar", "vander"]
