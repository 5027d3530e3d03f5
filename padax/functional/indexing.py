"""Basic indexing (`x[idx]`) and functional updates (`x.at[idx].set(v)` and friends).

Supported index entries: Python/numpy ints (negative count from the end),
slices with any step, None, Ellipsis, and 0-d integer arrays (Tensors or
tracers: a run-time index, read with dynamic_slice and clamped into range
as XLA does). Reads are rev + one strided slice + one dynamic_slice +
reshape. Updates write a box with dynamic_update_slice; strided and reversed
slices are handled by interior-padding the values with a mask, so no
scatter is needed. Integer-array and boolean-mask (advanced) indexing are
not supported yet and raise an IndexError.
"""
from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from padax import lax
from padax.core import dtypes
from padax.core.errors import op_value_error
from padax.functional._arrays import asarray, broadcast_shapes, broadcast_to, full, is_array

_ADVANCED_MSG = ("advanced indexing (an integer array, a list, or a boolean mask) is not supported yet "
                 "in padax; use basic indices (ints, slices, None, ..., 0-d integer Tensors), or gather / "
                 "take_along_axis / where for now")


class _Dim(NamedTuple):
    kind: str        # "int" (static), "dyn" (0-d integer array), "slice"
    start: Any       # int, or the array for "dyn"
    step: int = 1
    count: int = 1   # elements selected on this axis


def _is_int_scalar(e: Any) -> bool:
    return (isinstance(e, (int, np.integer)) and not isinstance(e, (bool, np.bool_))) or \
        (isinstance(e, np.ndarray) and e.ndim == 0 and e.dtype.kind in "iu")


def _slice_int(v: Any, what: str) -> int | None:
    if v is None:
        return None
    if is_array(v):
        if v.aval.ndim == 0 and dtypes.is_integer(v.aval.dtype):
            return int(v)  # concrete Tensors only; tracers raise a concretization error
        raise IndexError(f"slice {what} must be an integer, got {v.aval.str_short()}")
    if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
        return int(v)
    raise IndexError(f"slice {what} must be an integer or None, got {type(v).__name__}: {v!r}")


def parse_index(shape: tuple[int, ...], idx: Any) -> tuple[list[_Dim], list[int | None]]:
    """Per input axis a `_Dim`, and the output layout: input axis numbers of kept (sliced)
    axes, with None where a new axis is inserted."""
    if not isinstance(idx, tuple):
        idx = (idx,)
    for e in idx:
        if e is None or e is Ellipsis or isinstance(e, slice) or _is_int_scalar(e):
            continue
        if is_array(e):
            a = e.aval
            if a.ndim == 0 and dtypes.is_integer(a.dtype):
                continue
            if a.dtype == dtypes.bool_ or a.ndim > 0:
                raise IndexError(f"{_ADVANCED_MSG} (got an index {a.str_short()})")
            raise IndexError(f"an index must be an integer, got {a.str_short()}")
        if isinstance(e, (list, np.ndarray, bool, np.bool_)):
            raise IndexError(f"{_ADVANCED_MSG} (got {type(e).__name__} {e!r})")
        raise IndexError(f"only integers, slices (`:`), ellipsis (`...`), None and 0-d integer Tensors "
                         f"are valid indices, got {type(e).__name__}: {e!r}")
    n_ell = sum(1 for e in idx if e is Ellipsis)
    if n_ell > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    n_real = sum(1 for e in idx if e is not None and e is not Ellipsis)
    nd = len(shape)
    if n_real > nd:
        raise IndexError(f"too many indices for a Tensor of rank {nd}: {n_real} were given")
    fill = (slice(None),) * (nd - n_real)
    if n_ell:
        i = next(k for k, e in enumerate(idx) if e is Ellipsis)
        idx = idx[:i] + fill + idx[i + 1:]
    else:
        idx = idx + fill
    dims: list[_Dim] = []
    layout: list[int | None] = []
    for e in idx:
        if e is None:
            layout.append(None)
            continue
        k = len(dims)
        n = shape[k]
        if isinstance(e, slice):
            start, stop, step = (_slice_int(e.start, "start"), _slice_int(e.stop, "stop"),
                                 _slice_int(e.step, "step"))
            if step == 0:
                raise IndexError("slice step cannot be zero")
            start, stop, step = slice(start, stop, step).indices(n)
            dims.append(_Dim("slice", start, step, len(range(start, stop, step))))
            layout.append(k)
        elif _is_int_scalar(e):
            i = int(e)
            if not -n <= i < n:
                raise IndexError(f"index {i} is out of bounds for axis {k} with size {n}")
            dims.append(_Dim("int", i % n))
        else:
            dims.append(_Dim("dyn", e))
    return dims, layout


def _result_shape(dims: list[_Dim], layout: list[int | None]) -> tuple[int, ...]:
    return tuple(1 if k is None else dims[k].count for k in layout)


def getitem(x: Any, idx: Any) -> Any:
    """x[idx] for basic indices."""
    x = asarray(x)
    shape = x.aval.shape
    dims, layout = parse_index(shape, idx)
    rev = tuple(k for k, d in enumerate(dims) if d.kind == "slice" and d.step < 0 and d.count > 1)
    if rev:
        x = lax.rev(x, rev)
    starts, limits, strides = [], [], []
    for k, d in enumerate(dims):
        n = shape[k]
        if d.kind == "int":
            s, lim, st = d.start, d.start + 1, 1
        elif d.kind == "dyn":
            s, lim, st = 0, n, 1
        elif d.count == 0:
            s, lim, st = 0, 0, 1
        else:
            st = abs(d.step)
            s = d.start if k not in rev else n - 1 - d.start
            lim = s + (d.count - 1) * st + 1
        starts.append(s)
        limits.append(lim)
        strides.append(st)
    x = lax.slice(x, starts, limits, strides)
    if any(d.kind == "dyn" for d in dims):
        dstarts = [d.start if d.kind == "dyn" else 0 for d in dims]
        sizes = [1 if d.kind == "dyn" else x.aval.shape[k] for k, d in enumerate(dims)]
        x = lax.dynamic_slice(x, dstarts, sizes)
    return lax.reshape(x, _result_shape(dims, layout))


# ---- functional updates: x.at[idx].op(values) -------------------------------------------------

def _combine(mode: str, region: Any, v: Any) -> Any:
    from padax.functional import math as M
    if mode == "set":
        return v
    if mode == "add":
        return lax.add(region, v)
    if mode == "multiply":
        return lax.mul(region, v)
    if mode == "divide":
        return lax.convert_element_type(M.divide(region, v), region.aval.dtype)
    if mode == "power":
        return lax.convert_element_type(M.pow(region, v), region.aval.dtype)
    if mode == "min":
        return lax.min(region, v)
    if mode == "max":
        return lax.max(region, v)
    raise ValueError(f"unknown update mode {mode!r}")


def update(x: Any, idx: Any, values: Any, mode: str) -> Any:
    """A copy of x with x[idx] replaced by `mode`(x[idx], values); values broadcast to x[idx]'s shape."""
    op = f"at[].{mode}"
    x = asarray(x)
    shape, dt = x.aval.shape, x.aval.dtype
    dims, layout = parse_index(shape, idx)
    target = _result_shape(dims, layout)
    v = asarray(values, None if is_array(values) else dt)
    if v.aval.dtype != dt:
        v = lax.convert_element_type(v, dt)
    out_shape = broadcast_shapes(op, v.aval.shape, target)
    if out_shape != target:
        raise op_value_error(op, f"values of shape {list(v.aval.shape)} cannot be broadcast to the indexed "
                                 f"shape {list(target)}")
    v = broadcast_to(v, target)
    if any(d.count == 0 for d in dims):
        return x
    # values in box layout: drop inserted axes, size 1 on integer-indexed axes
    v = lax.reshape(v, tuple(d.count if d.kind == "slice" else 1 for d in dims))
    rev = tuple(k for k, d in enumerate(dims) if d.kind == "slice" and d.step < 0 and d.count > 1)
    if rev:
        v = lax.rev(v, rev)
    starts, spans, interior = [], [], []
    for d in dims:
        if d.kind == "slice":
            st = abs(d.step)
            lo = d.start if d.step > 0 else d.start + (d.count - 1) * d.step
            starts.append(lo)
            spans.append((d.count - 1) * st + 1)
            interior.append(st - 1)
        else:
            starts.append(d.start)
            spans.append(1)
            interior.append(0)
    strided = any(i > 0 for i in interior)
    if mode == "set" and not strided:
        return lax.dynamic_update_slice(x, v, starts)
    region = lax.dynamic_slice(x, starts, spans)
    if strided:
        config = [(0, 0, i) for i in interior]
        vp = lax.pad(v, full((), 0, dt), config)
        mask = lax.pad(full(v.aval.shape, True, dtypes.bool_), full((), False, dtypes.bool_), config)
        new = lax.select(mask, _combine(mode, region, vp), region)
    else:
        new = _combine(mode, region, v)
    return lax.dynamic_update_slice(x, new, starts)


class _IndexUpdateRef:
    """`x.at[idx]`: the pending update; call one of its methods to get the new array."""

    __slots__ = ("array", "index")

    def __init__(self, array: Any, index: Any):
        self.array = array
        self.index = index

    def __repr__(self) -> str:
        return f"_IndexUpdateRef({self.array!r}, {self.index!r})"

    def get(self, **kwargs) -> Any:
        """x[idx]."""
        return getitem(self.array, self.index)

    def set(self, values: Any, **kwargs) -> Any:
        """x with x[idx] = values."""
        return update(self.array, self.index, values, "set")

    def add(self, values: Any, **kwargs) -> Any:
        """x with x[idx] += values."""
        return update(self.array, self.index, values, "add")

    def multiply(self, values: Any, **kwargs) -> Any:
        """x with x[idx] *= values."""
        return update(self.array, self.index, values, "multiply")

    mul = multiply

    def divide(self, values: Any, **kwargs) -> Any:
        """x with x[idx] /= values (cast back to x's dtype)."""
        return update(self.array, self.index, values, "divide")

    def power(self, values: Any, **kwargs) -> Any:
        """x with x[idx] **= values."""
        return update(self.array, self.index, values, "power")

    def min(self, values: Any, **kwargs) -> Any:
        """x with x[idx] = minimum(x[idx], values)."""
        return update(self.array, self.index, values, "min")

    def max(self, values: Any, **kwargs) -> Any:
        """x with x[idx] = maximum(x[idx], values)."""
        return update(self.array, self.index, values, "max")


class _IndexUpdateHelper:
    """The object behind `x.at`; index it to name the elements to update."""

    __slots__ = ("array",)

    def __init__(self, array: Any):
        self.array = array

    def __getitem__(self, index: Any) -> _IndexUpdateRef:
        return _IndexUpdateRef(self.array, index)

    def __repr__(self) -> str:
        return f"_IndexUpdateHelper({self.array!r})"


def setitem_error(self, key: Any, value: Any) -> None:
    raise TypeError(f"padax Tensors are immutable and do not support item assignment (x[{key!r}] = ...). "
                    f"Use the functional form: x = x.at[{key!r}].set(value) (also .add, .multiply, .min, .max)")


__all__ = ["getitem", "update", "parse_index"]
