"""Shared helpers of padax.numpy: input conversion, promotion, broadcasting, axes."""
from __future__ import annotations

import builtins
from typing import Any, Sequence

import numpy as np

from padax import lax
from padax.core.errors import input_error, op_type_error, op_value_error
from padax.core.trace import Tracer
from padax.functional import _arrays
from padax.functional._docs import example_doc
from padax.numpy import _dtypes as D
from padax.runtime.array import Tensor
from padax.runtime.put import device_put

_PY_SCALARS = (builtins.bool, builtins.int, builtins.float, builtins.complex)


def is_array(x: Any) -> bool:
    return isinstance(x, (Tensor, Tracer))


def is_scalar(x: Any) -> bool:
    return type(x) in _PY_SCALARS


def host_default_dtype(arr: np.ndarray, from_python: bool) -> np.dtype:
    """The padax dtype of host data: Python data takes the default dtypes, numpy data keeps its own."""
    dt = arr.dtype
    if from_python:
        if dt.kind == "b":
            return D.bool_
        if dt.kind in "iu":
            return D.default_int()
        if dt.kind == "f":
            return D.default_float()
        if dt.kind == "c":
            return D.default_complex()
    if dt == object or dt.kind in "USOMmV" and dt not in _SUPPORTED_V:
        raise input_error(TypeError, f"cannot convert data of dtype {dt} to a padax array")
    return D.canonicalize(dt)


_SUPPORTED_V = (D.bfloat16, D.float8_e4m3fn, D.float8_e5m2)


def _contains_array(x: Any) -> bool:
    if is_array(x):
        return True
    if isinstance(x, (list, tuple)):
        return builtins.any(_contains_array(e) for e in x)
    return False


def to_array(x: Any, dtype: Any = None) -> Any:
    """Any array-like as a padax array (Tensor or tracer); `dtype` converts.

    Python scalars and lists take the default dtypes; numpy values keep theirs
    (canonicalised for the x64 setting). Never weakly typed.
    """
    dt = None if dtype is None else D.canonicalize(dtype)
    if is_array(x):
        if dt is not None and x.aval.dtype != dt:
            return lax.convert_element_type(x, dt)
        if x.aval.weak_type:
            return lax.convert_element_type(x, x.aval.dtype)
        return x
    if isinstance(x, (list, tuple)) and _contains_array(x):
        parts = [to_array(e) for e in x]
        if dt is None:
            dt = D.result_type_of([(p.aval.dtype, False) for p in parts])
        parts = [lax.convert_element_type(p, dt) if p.aval.dtype != dt else p for p in parts]
        return lax.concatenate([lax.reshape(p, (1,) + p.aval.shape) for p in parts], 0) if parts else \
            to_array(np.zeros((0,)), dt)
    if isinstance(x, (str, bytes)) or x is None:
        raise input_error(TypeError, f"cannot convert {type(x).__name__} {x!r} to a padax array")
    from_python = not isinstance(x, (np.ndarray, np.generic))
    if not from_python:
        arr = np.asarray(x)
    elif hasattr(x, "__dlpack__") and not isinstance(x, (list, tuple)):
        arr = np.from_dlpack(x)
        from_python = False
    else:
        try:
            arr = np.asarray(x)
        except ValueError as e:
            raise input_error(TypeError, f"cannot convert {type(x).__name__} to a padax array ({e})") from None
        if arr.dtype == object and hasattr(x, "__array__"):
            arr = np.asarray(x.__array__())
    if dt is None:
        dt = host_default_dtype(arr, from_python)
    elif arr.dtype == object:
        raise input_error(TypeError, f"cannot convert {type(x).__name__} to a padax array")
    if from_python and dt.kind in "iu" and arr.dtype.kind in "iu" and arr.size:
        info = np.iinfo(dt)
        if arr.min() < info.min or arr.max() > info.max:
            raise input_error(OverflowError, f"values out of range for {dt.name}")
    return _arrays.constant(np.asarray(arr).astype(dt), dt)


def promote(*args: Any) -> list[Any]:
    """Arrays of one dtype (the padax.numpy promotion of the operands); not broadcast."""
    first = args[0]
    if is_array(first):
        a0 = first.aval
        if not a0.weak_type and builtins.all(
                is_array(a) and a.aval.dtype == a0.dtype and not a.aval.weak_type for a in args[1:]):
            return list(args)
    pairs = [D.dtype_weak(a) for a in args]
    dt = D.result_type_of(pairs)
    return [cast_to(a, dt) for a in args]


def cast_to(a: Any, dt: np.dtype) -> Any:
    if is_array(a):
        if a.aval.dtype == dt and not a.aval.weak_type:
            return a
        return lax.convert_element_type(a, dt)
    if is_scalar(a):
        if isinstance(a, builtins.int) and not isinstance(a, builtins.bool) and dt.kind in "iu":
            info = np.iinfo(dt)
            if not info.min <= a <= info.max:
                raise OverflowError(f"Python int {a} is out of range for {dt.name}")
        return _arrays.constant(a, dt)
    return to_array(a, dt)


def broadcast_shapes(op: str, *shapes: Sequence[int]) -> tuple[int, ...]:
    return _arrays.broadcast_shapes(op, *shapes)


def broadcast_to(x: Any, shape: tuple[int, ...]) -> Any:
    return _arrays.broadcast_to(x, tuple(shape))


def promote_broadcast(op: str, *args: Any) -> list[Any]:
    """Promote to one dtype and broadcast to one shape."""
    first = args[0]
    if is_array(first):
        a0 = first.aval
        if not a0.weak_type and builtins.all(
                is_array(a) and a.aval.shape == a0.shape and a.aval.dtype == a0.dtype and not a.aval.weak_type
                for a in args[1:]):
            return list(args)
    pairs = [D.dtype_weak(a) for a in args]
    dt = D.result_type_of(pairs)
    shapes = [a.aval.shape if is_array(a) else np.shape(a) for a in args]
    shape = broadcast_shapes(op, *shapes)
    out = []
    for a in args:
        if is_scalar(a):
            cast_to(a, dt)  # range check
            out.append(_arrays.full(shape, a, dt))
        else:
            out.append(broadcast_to(cast_to(a, dt), shape))
    return out


def full_like_shape(shape: tuple[int, ...], value: Any, dt: np.dtype) -> Any:
    return _arrays.full(tuple(shape), value, dt)


def scalar_like(x: Any, value: Any) -> Any:
    return _arrays.full(x.aval.shape, value, x.aval.dtype)


static_int = _arrays.static_int  # shape entries, axes and counts: integers only, never truncated


def axis(op: str, a: Any, ndim: int) -> int:
    return _arrays.canonicalize_axis(op, static_int(op, a, "axis"), ndim)


def axes(op: str, a: Any, ndim: int) -> tuple[int, ...]:
    """Array API reduction axes: None -> all, int -> one, tuple -> those (() -> none), sorted."""
    if a is None:
        return tuple(builtins.range(ndim))
    if isinstance(a, (list, tuple)):
        out = tuple(_arrays.canonicalize_axis(op, static_int(op, e, "axis"), ndim) for e in a)
    else:
        out = (_arrays.canonicalize_axis(op, static_int(op, a, "axis"), ndim),)
    if len(set(out)) != len(out):
        raise op_value_error(op, f"repeated axis in {a}")
    if ndim == 0:  # a 0-d array's axis 0 / -1 (accepted, as Paddle does): nothing to reduce over
        return ()
    return tuple(sorted(out))


def keepdims(out: Any, in_shape: tuple[int, ...], axes_: Sequence[int], keep: builtins.bool) -> Any:
    if not keep:
        return out
    return lax.reshape(out, tuple(1 if i in axes_ else d for i, d in enumerate(in_shape)))


def to_inexact(x: Any) -> Any:
    """Integers and bool as the default floating dtype (the standard leaves them unspecified)."""
    x = to_array(x)
    if D.kind(x.aval.dtype) < 2:
        return lax.convert_element_type(x, D.default_float())
    return x


def check(op: str, x: Any, pred, what: str) -> None:
    if not pred(x.aval.dtype):
        raise op_type_error(op, f"expected {what} input, got {x.aval.str_short()}")


def real_dtype(dt: np.dtype) -> np.dtype:
    return {D.complex64: D.float32, D.complex128: D.float64}.get(dt, dt)


def put_on(x: Any, device: Any) -> Any:
    """Honour a `device=` argument for eager Tensors (ignored while tracing)."""
    if device is None or not isinstance(x, Tensor):
        return x
    return device_put(x, device)


def doc_with_example(summary: str, name: str, args: Sequence[str], result: str, *, params: str | None = None,
                     returns: str | None = None) -> str:
    """The docstring of a function made by a factory: `summary`, the Args text `params` and Returns text `returns`
    (shared by the factory's products), then a doctest that calls `pnp.<name>` on `pnp.array(a)` for each literal
    `a` of `args` and shows `result` (`.tolist()`), written at the call site."""
    call = ", ".join(f"pnp.array({a})" for a in args)
    return example_doc(summary, [(f"pnp.{name}({call}).tolist()", result)], imports=("import padax.numpy as pnp",),
                       args=params, returns=returns)


def static_value(op: str, x: Any, what: str) -> np.ndarray:
    """A static (host) value of `x`: Python/numpy data or an eager Tensor, never a tracer."""
    if isinstance(x, Tracer):
        raise op_type_error(op, f"{what} must be a concrete value (not traced under jit/grad/vmap); "
                                f"got {x.aval.str_short()}")
    return np.asarray(x)


def eager_values(op: str, x: Any) -> np.ndarray:
    """Host values of x for ops whose output shape depends on them (eager only)."""
    if isinstance(x, Tracer):
        raise op_value_error(op, "needs concrete values (its result's shape depends on them); call it outside "
                                 "jit, or pass a static size= where the function takes one")
    return np.asarray(x)


def refuse_inplace(op: str) -> None:
    raise op_value_error(op, "padax arrays are immutable: pass inplace=False to get the updated array back")


def promote_inexact(*xs: Any) -> list[Any]:
    """Arrays promoted to one dtype, integers and bool as the default float."""
    out = promote(*[to_array(x) if not isinstance(x, (builtins.int, builtins.float, builtins.complex)) else x
                    for x in xs])
    return [to_inexact(o) for o in out]
