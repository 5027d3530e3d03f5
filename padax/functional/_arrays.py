"""Shared helpers of the op library: array checks, scalar conversion, promotion, broadcasting.

Paddle-level functions call `promote_and_broadcast(op, x, y)` first: it
applies Paddle's type promotion (Python scalars are weak) and numpy
broadcasting, so the primitives below only ever see equal shapes and dtypes.
"""
from __future__ import annotations

import operator
from typing import Any, Sequence

import numpy as np

from padax.config import config
from padax.core import ad_util, dtypes
from padax.core.abstract import ShapedArray, check_aval_size, get_aval
from padax.core.errors import input_error, op_type_error, op_value_error
from padax.core.trace import EvalTrace, Tracer, trace_state
from padax.runtime import backend as _backend
from padax.runtime.array import Tensor
from padax.runtime.put import device_put, host_to_tensor

_SCALARS = (bool, int, float, complex)
_const_cache: dict[tuple, Tensor] = {}
config.on_change(lambda name, value: _const_cache.clear())  # 32-bit mode changes what a dtype means
_backend.on_client_reset(_const_cache.clear)  # cached constants live on the old client/default device


def is_array(x: Any) -> bool:
    return isinstance(x, (Tensor, Tracer))


aval_of = get_aval  # (the op library's historical name for core's get_aval)


def dtype_weak(x: Any) -> tuple[np.dtype, bool]:
    """The (dtype, weak) pair `x` promotes as at the Paddle level: Python and numpy scalars are weak
    (np.float64(1) counts as a Python float, np.int32(2) as a Python int), as in Paddle's Tensor ops."""
    if isinstance(x, np.generic):
        return dtypes.weak_dtype_of_kind(dtypes.kind_rank(dtypes.canonicalize(x.dtype))), True
    a = get_aval(x)
    return a.dtype, a.weak_type


def constant(value: Any, dtype: np.dtype, weak_type: bool = False) -> Any:
    """A scalar or host array as an array of `dtype`, for use as an operand.

    Eagerly this is a (cached, for scalars) device array. While tracing it is
    the current trace's array for the value (a no-op convert of the literal or
    constant), so callers can always read `.aval` and pass it to lax wrappers.
    """
    if type(trace_state.trace) is EvalTrace:
        if isinstance(value, _SCALARS) or (isinstance(value, np.generic)):
            # -0.0 == 0.0 hashes alike: keep the sign of zero in the key
            key = (type(value), value, dtype, weak_type, value == 0 and str(value)[0] == "-")
            t = _const_cache.get(key)
            if t is None:
                if len(_const_cache) > 4096:
                    _const_cache.clear()
                # the buffer itself carries the weak type: jit's C++ signature check reads it there
                host = np.asarray(value, dtype=dtypes.canonicalize(dtype))
                t = host_to_tensor(host, ShapedArray((), host.dtype, weak_type))
                _const_cache[key] = t
            return t
        return device_put(np.asarray(value, dtype=dtype))
    from padax.functional.lax.structural import convert_element_type_p  # cycle: lax.structural imports this at load
    dtype = np.dtype(dtype)  # callers may pass a scalar type (np.int32): avals hold dtype objects
    return convert_element_type_p.bind(np.asarray(value, dtype=dtype), new_dtype=dtype, weak_type=weak_type)


def full(shape: tuple[int, ...], value: Any, dtype: np.dtype) -> Any:
    """An array of `shape` filled with a scalar: one host->device copy eagerly,
    a literal broadcast in the program while tracing."""
    if is_array(value) or np.ndim(value) > 0:
        return broadcast_to(asarray(value, dtype), tuple(shape))
    if not shape:
        t = constant(value, dtype)  # (a new object over the cached buffer: the caller may update it in place)
        return Tensor(t._buf, t.aval) if type(t) is Tensor else t
    if type(trace_state.trace) is EvalTrace:
        check_aval_size("full", ShapedArray(tuple(shape), np.dtype(dtype)))
        return device_put(np.full(shape, value, dtype=dtype))
    from padax.functional.lax.structural import broadcast_in_dim  # cycle: lax.structural imports this at load
    return broadcast_in_dim(np.asarray(value, dtype), tuple(shape), ())


ad_util.aval_zeros_likers[ShapedArray] = lambda aval: full(aval.shape, 0, aval.dtype)  # AD's zeros


def asarray(x: Any, dtype: np.dtype | None = None) -> Any:
    """Tensor/tracer pass-through (cast when `dtype` differs); host values become arrays."""
    if isinstance(x, (Tensor, Tracer)):
        if dtype is None or x.aval.dtype == dtype:
            return x
        from padax.functional.lax.structural import convert_element_type  # cycle: lax.structural imports this at load
        return convert_element_type(x, dtype)
    if isinstance(x, _SCALARS) and not isinstance(x, np.generic):
        dt = dtypes.python_scalar_dtype(x) if dtype is None else dtype
        return constant(x, dt, weak_type=dtype is None)
    if isinstance(x, (np.ndarray, np.generic, list, tuple)):
        arr = np.asarray(x)
        if arr.dtype.kind in "OUS":  # objects, strings, bytes: no numeric value
            raise input_error(TypeError, f"cannot convert {type(x).__name__} {x!r} to an array")
        dt = dtypes.dtype_of_value(x) if dtype is None else dtype
        return constant(arr.astype(dt), dt)
    raise input_error(TypeError, f"expected an array, Python scalar or numpy value, got {type(x).__name__}: {x!r}")


def result_dtype(*args: Any) -> tuple[np.dtype, bool]:
    """Paddle promotion over arrays and scalars: Python and numpy scalars are weak, and a 0-d
    array beside a higher-rank array of its kind (ints, floats, complex) takes that array's dtype
    (Paddle's rule for 0-d tensors: float32[n] + float64 0-d -> float32, int32[n] + float64 0-d -> float64)."""
    pairs = [dtype_weak(a) for a in args]
    if len(args) > 1:
        ranks = [np.ndim(a) if not is_array(a) else len(a.aval.shape) for a in args]
        kinds = {dtypes.kind_rank(d) for (d, w), r in zip(pairs, ranks) if not w and r > 0}
        if kinds:
            pairs = [(d, True) if not w and r == 0 and dtypes.kind_rank(d) in kinds else (d, w)
                     for (d, w), r in zip(pairs, ranks)]
    return dtypes.result_type(*pairs)


def broadcast_shapes(op: str, *shapes: Sequence[int]) -> tuple[int, ...]:
    ndim = max(len(s) for s in shapes)
    out = []
    for i in range(ndim):
        size = 1
        for s in shapes:
            d = s[i - ndim + len(s)] if i - ndim + len(s) >= 0 else 1
            if d != 1:
                if size != 1 and d != size:
                    raise op_value_error(op, "shapes " + ", ".join(str(tuple(s)) for s in shapes)
                                         + " cannot be broadcast together")
                size = d
        out.append(size)
    return tuple(out)


def broadcast_to(x: Any, shape: tuple[int, ...]) -> Any:
    """numpy-style broadcast of an array to `shape` (trailing alignment)."""
    from padax.functional.lax.structural import broadcast_in_dim, reshape  # cycle: lax.structural imports this at load
    xs = get_aval(x).shape
    if xs == shape:
        return x
    lead = len(shape) - len(xs)
    if lead < 0:
        raise op_value_error("broadcast_to", f"cannot broadcast shape {xs} to {shape}")
    # drop size-1 dims that get expanded, then broadcast_in_dim
    keep = [i for i, d in enumerate(xs) if d == shape[lead + i]]
    for i, d in enumerate(xs):
        if d != 1 and d != shape[lead + i]:
            raise op_value_error("broadcast_to", f"cannot broadcast shape {xs} to {shape}")
    if len(keep) != len(xs):
        x = reshape(x, tuple(xs[i] for i in keep))
    return broadcast_in_dim(x, shape, tuple(lead + i for i in keep))


def promote_and_broadcast(op: str, *args: Any, dtype: np.dtype | None = None) -> list[Any]:
    """Promote to one dtype (or `dtype`) and broadcast to one shape."""
    if dtype is None:
        first = args[0]
        if isinstance(first, (Tensor, Tracer)):
            a0 = first.aval
            if all(isinstance(a, (Tensor, Tracer)) and a.aval.shape == a0.shape and a.aval.dtype == a0.dtype
                   for a in args[1:]):
                return list(args)  # the hot path: nothing to do
        dtype, _ = result_dtype(*args)
    arrays = [asarray(a, dtype) for a in args]
    shape = broadcast_shapes(op, *(a.aval.shape for a in arrays))
    return [broadcast_to(a, shape) for a in arrays]


def static_int(op: str, v: Any, what: str) -> int:
    """A Python int for a shape entry, axis or count: ints, numpy integers and concrete integer
    Tensors of one element. Floats (2.5), bools and traced arrays are refused, never truncated."""
    if isinstance(v, Tracer):
        raise op_type_error(op, f"{what} must be static, got a traced array {v.aval.str_short()}; "
                                "pass Python ints (static_argnums for jit arguments)")
    if isinstance(v, (bool, np.bool_)):
        raise op_type_error(op, f"{what} must be an integer, got a bool ({v})")
    if isinstance(v, Tensor):
        if not dtypes.is_integer(v.aval.dtype) or v.aval.size != 1:
            raise op_type_error(op, f"{what} must be an integer, got a Tensor {v.aval.str_short()}")
        return int(v.item())
    try:
        return operator.index(v)
    except TypeError:
        raise op_type_error(op, f"{what} must be an integer, got {type(v).__name__}: {v!r}") from None


def static_ints(op: str, values: Any, what: str) -> tuple[int, ...]:
    """A tuple of Python ints (shape, axes, strides) by `static_int`: 1.5 is refused, never truncated."""
    return tuple(static_int(op, v, what) for v in values)


def canonicalize_axis(op: str, axis: int, ndim: int) -> int:
    a = axis if type(axis) is int else static_int(op, axis, "axis")
    if not -max(ndim, 1) <= a < max(ndim, 1):
        raise op_value_error(op, f"axis {axis} is out of range for an array of rank {ndim}")
    return a % max(ndim, 1)


def canonicalize_axes(op: str, axis: Any, ndim: int) -> tuple[int, ...]:
    """None -> all axes; int or sequence -> sorted non-negative tuple."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (list, tuple)):
        axes = tuple(canonicalize_axis(op, a, ndim) for a in axis)
    else:
        axes = (canonicalize_axis(op, axis, ndim),)
    if len(set(axes)) != len(axes):
        raise op_value_error(op, f"repeated axis in {axis}")
    return tuple(sorted(axes))


def check_dtype(op: str, x: Any, pred, what: str) -> None:
    if not pred(x.aval.dtype):
        raise op_type_error(op, f"expected {what}, got {x.aval.str_short()}")
