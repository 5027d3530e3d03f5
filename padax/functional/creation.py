"""Paddle's tensor-creation functions: to_tensor, zeros/ones/full(_like), arange, linspace, eye.

Defaults follow Paddle 3: floating results are float32 unless a dtype is
given; Python ints become int64 (int32 while 64-bit mode is off).
"""
from __future__ import annotations

import math as _pymath
from typing import Any

import numpy as np

from padax import lax
from padax.core import dtypes
from padax.core.errors import op_type_error, op_value_error
from padax.core.trace import Tracer
from padax.devices.array import Tensor
from padax.devices.put import device_put
from padax.functional._arrays import asarray, full as _full, is_array

_SCALARS = (bool, int, float, complex)


def _dtype_or(dtype: Any, default: Any) -> np.dtype:
    """Canonical dtype for a `dtype=` argument, or `default` when it is None."""
    return dtypes.canonicalize(default if dtype is None else dtypes.to_dtype(dtype))


def _concrete_int(op: str, v: Any, what: str) -> int:
    if isinstance(v, Tracer):
        raise op_type_error(op, f"{what} must be known while tracing, got a traced array "
                                f"{v.aval.str_short()}; pass it as a Python int (static_argnums)")
    try:
        return int(v)
    except TypeError:
        raise op_type_error(op, f"{what} must be an integer, got {type(v).__name__}: {v!r}") from None


def normalize_shape(op: str, shape: Any) -> tuple[int, ...]:
    """A Paddle `shape` argument (int, list/tuple of ints or 0-d Tensors, 1-D Tensor) as a tuple."""
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        shape = (shape,)
    elif isinstance(shape, Tensor):
        shape = shape.tolist() if shape.ndim else [shape.item()]
    elif isinstance(shape, Tracer):
        _concrete_int(op, shape, "shape")
    elif not isinstance(shape, (list, tuple)):
        raise op_type_error(op, f"shape must be an int, a list/tuple or a 1-D Tensor, got {type(shape).__name__}")
    out = tuple(_concrete_int(op, d, "shape entries") for d in shape)
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

    Python floats (and lists of them) become float32, ints int64 (int32
    without x64), complex complex64; numpy arrays keep their dtype. `place`
    may be a padax device; Paddle place strings are accepted and ignored.
    """
    dt = None if dtype is None else dtypes.canonicalize(dtypes.to_dtype(dtype))
    if is_array(data):
        out = data if dt is None else lax.convert_element_type(data, dt)
        if out.aval.weak_type:
            out = lax.convert_element_type(out, out.aval.dtype, weak_type=False)
        return out
    if isinstance(data, (list, tuple)) and _contains_array(data):
        from padax.functional.manipulation import stack
        parts = [to_tensor(d, dtype) for d in data]
        if dt is None:
            dt = dtypes.promote_types(*(p.dtype for p in parts))
        return stack([lax.convert_element_type(p, dt) for p in parts], 0)
    if isinstance(data, (str, bytes)) or data is None:
        raise TypeError(f"to_tensor: cannot convert {type(data).__name__} {data!r} to a Tensor")
    try:
        arr = np.asarray(data)
    except ValueError as e:
        raise TypeError(f"to_tensor: cannot convert {type(data).__name__} to a Tensor ({e})") from None
    if arr.dtype == object or arr.dtype.kind in "USOM":
        raise TypeError(f"to_tensor: cannot convert {type(data).__name__} to a Tensor: "
                        "it has no numeric dtype")
    if dt is None:
        dt = dtypes.python_scalar_dtype(data) if type(data) in _SCALARS else dtypes.dtype_of_value(data)
    device = place if hasattr(place, "platform") else None
    return device_put(np.asarray(arr, dtype=dt), device)


# ---- filled arrays ------------------------------------------------------------------------

def _fill_default_dtype(value: Any) -> np.dtype:
    if is_array(value):
        return value.aval.dtype
    if isinstance(value, bool):
        return dtypes.bool_
    if isinstance(value, complex):
        return dtypes.complex64
    return dtypes.default_float_dtype()


def full(shape: Any, fill_value: Any, dtype: Any = None, name: str | None = None) -> Any:
    """An array of `shape` filled with `fill_value` (float32 unless `dtype` or a bool/complex value says otherwise)."""
    shape = normalize_shape("full", shape)
    dt = _dtype_or(dtype, _fill_default_dtype(fill_value))
    if is_array(fill_value):
        if fill_value.aval.size != 1:
            raise op_value_error("full", f"fill_value must hold one element, got {fill_value.aval.str_short()}")
        fill_value = lax.reshape(lax.convert_element_type(fill_value, dt), ())
    return _full(shape, fill_value, dt)


def zeros(shape: Any, dtype: Any = None, name: str | None = None) -> Any:
    """An array of zeros (float32 by default)."""
    return _full(normalize_shape("zeros", shape), 0, _dtype_or(dtype, dtypes.float32))


def ones(shape: Any, dtype: Any = None, name: str | None = None) -> Any:
    """An array of ones (float32 by default)."""
    return _full(normalize_shape("ones", shape), 1, _dtype_or(dtype, dtypes.float32))


def empty(shape: Any, dtype: Any = None, name: str | None = None) -> Any:
    """Paddle's uninitialised array; arrays are immutable here, so it is zero-filled."""
    return _full(normalize_shape("empty", shape), 0, _dtype_or(dtype, dtypes.float32))


def _like(x: Any, value: Any, dtype: Any) -> Any:
    x = asarray(x)
    dt = dtypes.canonicalize(x.aval.dtype if dtype is None else dtypes.to_dtype(dtype))
    return _full(x.aval.shape, value, dt)


def zeros_like(x: Any, dtype: Any = None, name: str | None = None) -> Any:
    """Zeros with the shape (and, by default, dtype) of `x`."""
    return _like(x, 0, dtype)


def ones_like(x: Any, dtype: Any = None, name: str | None = None) -> Any:
    """Ones with the shape (and, by default, dtype) of `x`."""
    return _like(x, 1, dtype)


def empty_like(x: Any, dtype: Any = None, name: str | None = None) -> Any:
    """Paddle's uninitialised array like `x`; zero-filled here."""
    return _like(x, 0, dtype)


def full_like(x: Any, fill_value: Any, dtype: Any = None, name: str | None = None) -> Any:
    """`fill_value` with the shape (and, by default, dtype) of `x`."""
    x = asarray(x)
    dt = dtypes.canonicalize(x.aval.dtype if dtype is None else dtypes.to_dtype(dtype))
    if is_array(fill_value):
        fill_value = lax.reshape(lax.convert_element_type(fill_value, dt), ())
    return _full(x.aval.shape, fill_value, dt)


# ---- ranges -------------------------------------------------------------------------------

def _concrete_number(op: str, v: Any, what: str):
    if isinstance(v, Tracer):
        raise op_type_error(op, f"{what} must be known while tracing, got a traced array "
                                f"{v.aval.str_short()}; pass a Python number (static_argnums)")
    if isinstance(v, Tensor):
        return v.item()
    if isinstance(v, np.generic):
        return v.item()
    return v


def arange(start: Any = 0, end: Any = None, step: Any = 1, dtype: Any = None, name: str | None = None) -> Any:
    """Evenly spaced values in [start, end) (int64 for integer arguments, float32 otherwise)."""
    start = _concrete_number("arange", start, "start")
    end = _concrete_number("arange", end, "end")
    step = _concrete_number("arange", step, "step")
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


def linspace(start: Any, stop: Any, num: Any, dtype: Any = None, name: str | None = None) -> Any:
    """`num` evenly spaced values from `start` to `stop`, both included (float32 by default)."""
    start = _concrete_number("linspace", start, "start")
    stop = _concrete_number("linspace", stop, "stop")
    num = _concrete_int("linspace", _concrete_number("linspace", num, "num"), "num")
    if num < 0:
        raise op_value_error("linspace", f"num must be non-negative, got {num}")
    dt = _dtype_or(dtype, dtypes.float32)
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


def eye(num_rows: Any, num_columns: Any = None, dtype: Any = None, name: str | None = None) -> Any:
    """A 2-D array with ones on the diagonal (float32 by default)."""
    n = _concrete_int("eye", _concrete_number("eye", num_rows, "num_rows"), "num_rows")
    m = n if num_columns is None else _concrete_int("eye", _concrete_number("eye", num_columns, "num_columns"),
                                                     "num_columns")
    if n < 0 or m < 0:
        raise op_value_error("eye", f"num_rows and num_columns must be non-negative, got {n} and {m}")
    dt = _dtype_or(dtype, dtypes.float32)
    rows = lax.broadcasted_iota(dtypes.int32, (n, m), 0)
    cols = lax.broadcasted_iota(dtypes.int32, (n, m), 1)
    return lax.convert_element_type(lax.eq(rows, cols), dt)


__all__ = ["to_tensor", "full", "zeros", "ones", "empty", "zeros_like", "ones_like", "empty_like",
           "full_like", "arange", "linspace", "eye"]
