"""Indexing (`x[idx]`) and functional updates (`x.at[idx].set(v)` and friends), with numpy's rules.

Basic indices: Python/numpy ints (negative count from the end), slices with
any step, None, Ellipsis, and 0-d integer arrays (Tensors or tracers: a
run-time index, read with dynamic_slice and clamped into range as XLA does).
Reads are rev + one strided slice + one dynamic_slice + reshape; updates
write a box with dynamic_update_slice (strided slices interior-pad a mask).

Advanced indices (integer arrays, lists, boolean masks) follow numpy: the
integer arrays broadcast together, and their dimensions replace the indexed
axes in place when the advanced indices are adjacent, or go first when a
slice, None or Ellipsis separates them. A boolean mask becomes the integer
arrays of its nonzero positions, so it must be concrete (an eager Tensor or
a numpy array); under jit use `padax.where` / `padax.masked_fill`, or
`x.at[mask].set(scalar)`, which is a select and works everywhere.

Out-of-range integer indices follow jax, the same eagerly and compiled (there
is no error channel inside a compiled program): reads clamp them into range
(`x[11]` of a 10-element x is x[9]; `x.at[i].get(mode='fill', fill_value=v)`
reads v instead) and `.at[...]` updates drop them (`mode='clip'` clamps).
Padax's named ops (`gather`, `take_along_axis`, ...) still raise IndexError
for concrete out-of-range indices, as Paddle does. Advanced reads are one gather; updates
are one scatter into the flattened array (`add` accumulates repeated
indices; for `set` with repeated indices one of the values wins).
"""
from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from padax.core import dtypes
from padax.core.errors import input_error, op_value_error
from padax.core.source_info import user_location
from padax.core.trace import Tracer
from padax.functional import creation as _creation, lax_api as lax, math as _math
from padax.functional._arrays import asarray, broadcast_shapes, broadcast_to, full, is_array
from padax.functional._fast import twin
from padax.functional.lax.indexing import GatherDimensionNumbers, GatherScatterMode, ScatterDimensionNumbers
from padax.runtime.array import Tensor

_MASK_MSG = ("boolean mask indexing gives a result whose shape depends on the mask's values, so the mask "
             "must be concrete (an eager Tensor or a numpy array), but got a traced {aval}. Under "
             "jit/vmap/grad use padax.where(mask, x, other) or padax.masked_fill(x, mask, value) to keep "
             "shapes static (x.at[mask].set(scalar) also works)")


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
        raise input_error(IndexError, f"slice {what} must be an integer, got {v.aval.str_short()}")
    if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
        return int(v)
    raise input_error(IndexError, f"slice {what} must be an integer or None, got {type(v).__name__}: {v!r}")


def parse_index(shape: tuple[int, ...], idx: Any, oob: str = "raise") -> tuple[list[_Dim], list[int | None]]:
    """Per input axis a `_Dim`, and the output layout: input axis numbers of kept (sliced)
    axes, with None where a new axis is inserted.

    A static integer index out of range (after counting negatives from the end) raises
    IndexError (`oob="raise"`), is clamped into range ("clip", jax's reads) or is kept as
    it is ("keep": the caller drops the update).
    """
    if not isinstance(idx, tuple):
        idx = (idx,)
    for e in idx:
        if e is None or e is Ellipsis or isinstance(e, slice) or _is_int_scalar(e):
            continue
        if is_array(e):
            a = e.aval
            if a.ndim == 0 and dtypes.is_integer(a.dtype):
                continue
            raise input_error(
                IndexError, f"an index must be an integer (or an integer or boolean array), got {a.str_short()}")
        raise input_error(IndexError, f"only integers, slices (`:`), ellipsis (`...`), None and 0-d integer "
                                      f"Tensors are valid indices, got {type(e).__name__}: {e!r}")
    n_ell = sum(1 for e in idx if e is Ellipsis)
    if n_ell > 1:
        raise input_error(IndexError, "an index can only have a single ellipsis ('...')")
    n_real = sum(1 for e in idx if e is not None and e is not Ellipsis)
    nd = len(shape)
    if n_real > nd:
        raise input_error(IndexError, f"too many indices for a Tensor of rank {nd}: {n_real} were given")
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
                raise input_error(IndexError, "slice step cannot be zero")
            start, stop, step = slice(start, stop, step).indices(n)
            dims.append(_Dim("slice", start, step, len(range(start, stop, step))))
            layout.append(k)
        elif _is_int_scalar(e):
            i = int(e)
            if not -n <= i < n and (oob == "raise" or n == 0):
                raise input_error(IndexError, f"index {i} is out of bounds for axis {k} with size {n}")
            i = i + n if i < 0 else i
            dims.append(_Dim("int", min(max(i, 0), n - 1) if oob == "clip" else i))
        else:
            dims.append(_Dim("dyn", e))
    return dims, layout


def _result_shape(dims: list[_Dim], layout: list[int | None]) -> tuple[int, ...]:
    return tuple(1 if k is None else dims[k].count for k in layout)


def getitem(x: Any, idx: Any, mode: Any = None, fill_value: Any = None) -> Any:
    """x[idx] with numpy's basic and advanced indexing rules and jax's out-of-range reads:
    indices past the ends are clamped into range (mode None or 'clip'; 'promise_in_bounds'
    may assume they are not), or read `fill_value` (mode 'fill'; NaN for inexact dtypes)."""
    if type(idx) is int and type(x) is Tensor and mode is None and fill_value is None:
        return _int_getitem.call(x, idx)  # (the compiled twin; see padax/functional/_fast.py)
    return _getitem_python(x, idx, mode, fill_value)


def _getitem_python(x: Any, idx: Any, mode: Any = None, fill_value: Any = None) -> Any:
    """getitem without the twin: what the twin compiles, and what runs when it cannot."""
    x = asarray(x)
    idx = idx if isinstance(idx, tuple) else (idx,)
    if GatherScatterMode.from_any(mode, GatherScatterMode.CLIP) is GatherScatterMode.FILL_OR_DROP:
        if any(_is_advanced(e) or _is_int_scalar(e) or is_array(e) for e in idx):
            return advanced_getitem(x, idx, mode="fill", fill_value=fill_value, oob="keep")
        return basic_getitem(x, idx)
    if any(_is_advanced(e) for e in idx):
        return advanced_getitem(x, idx, oob="clip")
    return basic_getitem(x, idx)


def _getitem(x: Any, idx: Any) -> Any:
    return _getitem_python(x, idx)


_int_getitem = twin(_getitem, "getitem", static_argnums=(1,))


def basic_getitem(x: Any, idx: tuple) -> Any:
    """x[idx] for basic indices (ints, slices, None, Ellipsis, 0-d integer arrays); indices past
    the ends are clamped into range."""
    shape = x.aval.shape
    dims, layout = parse_index(shape, idx, oob="clip")
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


# ---- advanced indexing ---------------------------------------------------------------------------

class _BoolScalar(NamedTuple):
    value: bool


def _is_advanced(e: Any) -> bool:
    if isinstance(e, (bool, np.bool_, list, tuple)):
        return True
    if isinstance(e, np.ndarray):
        return e.ndim > 0 or e.dtype == np.bool_
    if is_array(e):
        return e.aval.ndim > 0 or e.aval.dtype == dtypes.bool_
    return False


def _contains_array(e: Any) -> bool:
    if is_array(e):
        return True
    return isinstance(e, (list, tuple)) and any(_contains_array(v) for v in e)


def _as_index_value(e: Any) -> Any:
    """One index entry as a slice/None/Ellipsis/int, a numpy array, a padax array or a _BoolScalar."""
    if e is None or e is Ellipsis or isinstance(e, slice):
        return e
    if isinstance(e, (bool, np.bool_)):
        return _BoolScalar(bool(e))
    if isinstance(e, (list, tuple)):
        if _contains_array(e):
            e = _creation.to_tensor(e)
        else:
            arr = np.asarray(e)
            if arr.dtype == object:
                raise input_error(IndexError, f"an index list must hold integers or booleans, got {e!r}")
            if arr.size == 0 and arr.dtype.kind == "f":
                arr = arr.astype(np.int32)  # numpy: an empty list is an empty integer index
            e = arr
    if isinstance(e, np.ndarray):
        if e.dtype == np.bool_ and e.ndim == 0:
            return _BoolScalar(bool(e))
        if e.dtype != np.bool_ and e.dtype.kind not in "iu":
            raise input_error(
                IndexError, f"arrays used as indices must be of integer (or boolean) type, got {e.dtype.name}")
        return e
    if is_array(e):
        a = e.aval
        if a.dtype == dtypes.bool_:
            if isinstance(e, Tracer):
                raise input_error(IndexError, _MASK_MSG.format(aval=a.str_short()) + user_location())
            if a.ndim == 0:
                return _BoolScalar(bool(e))
            return np.asarray(e)
        if not dtypes.is_integer(a.dtype):
            raise input_error(
                IndexError, f"arrays used as indices must be of integer (or boolean) type, got {a.str_short()}")
        return e
    if _is_int_scalar(e):
        return int(e)
    raise input_error(IndexError, f"only integers, slices (`:`), ellipsis (`...`), None, integer or boolean arrays are "
                                  f"valid indices, got {type(e).__name__}: {e!r}")


def _index_dtype_for(n: int) -> np.dtype:
    if n < 2 ** 31:
        return dtypes.int32
    if not dtypes.x64_enabled():
        raise input_error(IndexError, f"an axis of size {n} needs 64-bit indices; enable x64 (padax.enable_x64)")
    return dtypes.int64


def normalize_index(e: Any, n: int, axis: int, op: str | None = None, oob: str = "raise") -> tuple[Any, bool]:
    """An integer index (array) for an axis of size n with negatives counted from the end.

    Concrete indices (numpy values, eager Tensors) come back as a numpy array (second result
    True), out-of-range ones raising IndexError (`oob="raise"`), clamped ("clip") or kept for the
    caller's gather/scatter mode to fill or drop ("keep"); traced ones come back traced (False),
    still possibly out of range, for the caller's gather/scatter mode to clamp or drop.
    """
    it = _index_dtype_for(n)
    if isinstance(e, Tracer):
        if not dtypes.is_integer(e.aval.dtype):
            raise input_error(
                IndexError, f"{op + ': ' if op else ''}indices must be integers, got {e.aval.str_short()}")
        if e.aval.dtype != it:
            e = lax.convert_element_type(e, it)
        if dtypes.is_unsigned(e.aval.dtype):
            return e, False
        neg = lax.lt(e, full(e.aval.shape, 0, it))
        return lax.select(neg, lax.add(e, full(e.aval.shape, n, it)), e), False
    v = np.asarray(e)
    if v.dtype.kind not in "iu":
        raise input_error(IndexError, f"{op + ': ' if op else ''}indices must be integers, got {v.dtype.name}")
    if v.size and oob == "raise":
        lo, hi = int(v.min()), int(v.max())
        if lo < -n or hi >= n:
            bad = lo if lo < -n else hi
            where = f"{op}: " if op else ""
            raise input_error(IndexError, f"{where}index {bad} is out of bounds for axis {axis} with size {n}")
    v = np.where(v < 0, v + n, v)
    if oob == "clip":
        v = np.clip(v, 0, max(n - 1, 0))
    return v.astype(it), True


def _expand_index(shape: tuple[int, ...], idx: tuple) -> tuple[tuple[int, ...], list[tuple[str, Any]]]:
    """Rewrite an index with advanced entries as one entry per axis of a reshaped array.

    Returns the shape with size-1 axes inserted (for None and boolean scalars) and per axis
    ("slice", slice) or ("adv", integer index). Boolean arrays become their nonzero positions.
    """
    entries = [_as_index_value(e) for e in idx]

    def consumed(e):
        if e is None or e is Ellipsis or isinstance(e, _BoolScalar):
            return 0
        if isinstance(e, np.ndarray) and e.dtype == np.bool_:
            return e.ndim
        return 1

    if sum(1 for e in entries if e is Ellipsis) > 1:
        raise input_error(IndexError, "an index can only have a single ellipsis ('...')")
    n_used = sum(consumed(e) for e in entries)
    nd = len(shape)
    if n_used > nd:
        raise input_error(IndexError, f"too many indices for a Tensor of rank {nd}: {n_used} were given")
    fill = [slice(None)] * (nd - n_used)
    if any(e is Ellipsis for e in entries):
        i = next(k for k, e in enumerate(entries) if e is Ellipsis)
        entries = entries[:i] + fill + entries[i + 1:]
    else:
        entries = entries + fill
    new_shape: list[int] = []
    items: list[tuple[str, Any]] = []
    k = 0  # the next axis of the original shape
    for e in entries:
        if e is None:
            new_shape.append(1)
            items.append(("slice", slice(None)))
        elif isinstance(e, _BoolScalar):
            new_shape.append(1)
            items.append(("adv", np.zeros(1 if e.value else 0, np.int32)))
        elif isinstance(e, np.ndarray) and e.dtype == np.bool_:
            if e.shape != tuple(shape[k:k + e.ndim]):
                raise input_error(IndexError, f"boolean index of shape {list(e.shape)} does not match the indexed "
                                              f"axes {list(shape[k:k + e.ndim])} (axes {k}..{k + e.ndim - 1}) of a "
                                              f"Tensor of shape {list(shape)}")
            for pos in np.nonzero(e):
                new_shape.append(shape[k])
                items.append(("adv", pos.astype(np.int32)))
                k += 1
        elif isinstance(e, slice):
            new_shape.append(shape[k])
            items.append(("slice", e))
            k += 1
        else:
            new_shape.append(shape[k])
            items.append(("adv", e))
            k += 1
    return tuple(new_shape), items


def advanced_getitem(x: Any, idx: tuple, mode: str = "clip", fill_value: Any = None, oob: str = "raise") -> Any:
    """x[idx] for an index with advanced entries: slices first, then one gather.

    `mode` says what out-of-range indices do ('clip' clamps, 'fill' gives `fill_value`);
    `oob` what concrete ones do first (see normalize_index).
    """
    new_shape, items = _expand_index(x.aval.shape, idx)
    if new_shape != x.aval.shape:
        x = lax.reshape(x, new_shape)
    if any(k == "slice" and s != slice(None) for k, s in items):
        x = basic_getitem(x, tuple(s if k == "slice" else slice(None) for k, s in items))
    shape = x.aval.shape
    adv = [(i, e) for i, (k, e) in enumerate(items) if k == "adv"]
    positions = [i for i, _ in adv]
    norm = [normalize_index(e, shape[i], i, oob=oob) for i, e in adv]
    try:
        bshape = broadcast_shapes("index", *(np.shape(v) if static else v.aval.shape for v, static in norm))
    except ValueError:
        raise input_error(IndexError, "shape mismatch: indexing arrays could not be broadcast together with shapes "
                         + " ".join(str(list(np.shape(v) if s else v.aval.shape)) for v, s in norm)) from None
    rest = [d for d in range(len(shape)) if d not in positions]
    out_shape = bshape + tuple(shape[d] for d in rest)
    if any(shape[p] == 0 for p in positions) and int(np.prod(bshape)) > 0:
        raise input_error(IndexError, f"cannot take elements from an empty axis (Tensor shape {list(shape)})")
    if int(np.prod(out_shape, dtype=np.int64)) == 0:
        out = full(out_shape, 0, x.aval.dtype)
    else:
        if all(s for _, s in norm):
            ind = asarray(np.stack([np.broadcast_to(v, bshape) for v, _ in norm], -1))
            in_range = all(v.size == 0 or (v.min() >= 0 and v.max() < shape[i]) for (v, _), i in zip(norm, positions))
            gmode = "promise_in_bounds" if in_range else mode
        else:
            it = max((v.dtype if s else v.aval.dtype for v, s in norm), key=lambda d: np.dtype(d).itemsize)
            cols = [broadcast_to(asarray(v, it), bshape) for v, _ in norm]
            ind = lax.concatenate([lax.reshape(c, bshape + (1,)) for c in cols], len(bshape))
            gmode = mode
        nb = len(bshape)
        dn = GatherDimensionNumbers(offset_dims=tuple(range(nb, nb + len(rest))),
                                    collapsed_slice_dims=tuple(sorted(positions)),
                                    start_index_map=tuple(positions))
        sizes = tuple(1 if d in positions else shape[d] for d in range(len(shape)))
        out = lax.gather(x, ind, dn, sizes, mode=gmode,
                         fill_value=fill_value if gmode == "fill" else None)
    p0 = positions[0]
    if positions == list(range(p0, p0 + len(positions))) and p0 > 0:
        nb = len(bshape)
        perm = list(range(nb, nb + p0)) + list(range(nb)) + list(range(nb + p0, nb + len(rest)))
        out = lax.transpose(out, tuple(perm))
    return out


def _single_mask(x: Any, idx: tuple) -> Any:
    """The boolean mask when the whole index is one mask over leading axes (else None)."""
    if len(idx) != 1:
        return None
    m = idx[0]
    if isinstance(m, (list, tuple)) and not _contains_array(m):
        m = np.asarray(m)
    if isinstance(m, np.ndarray) and m.dtype == np.bool_ and m.ndim > 0:
        m = asarray(m)
    if is_array(m) and m.aval.dtype == dtypes.bool_ and m.aval.ndim > 0:
        if m.aval.shape == x.aval.shape[:m.aval.ndim]:
            return m
        raise input_error(
            IndexError, f"boolean index of shape {list(m.aval.shape)} does not match the leading axes of a "
                        f"Tensor of shape {list(x.aval.shape)}")
    return None


_SCATTERS = {"set": lax.scatter, "add": lax.scatter_add, "multiply": lax.scatter_mul,
             "min": lax.scatter_min, "max": lax.scatter_max}


def advanced_update(x: Any, idx: tuple, values: Any, mode: str, clip: bool = False) -> Any:
    """x.at[idx].<mode>(values) for an index with advanced entries: one scatter into the flat array.

    Updates at out-of-range indices are dropped (or, with `clip`, land on the nearest element).
    """
    op = f"at[].{mode}"
    shape, dt = x.aval.shape, x.aval.dtype
    v = asarray(values, None if is_array(values) else dt)
    if v.aval.dtype != dt:
        v = lax.convert_element_type(v, dt)
    mask = _single_mask(x, idx)
    if mask is not None and v.aval.size == 1:
        # x.at[mask].op(scalar): an elementwise select, static shapes even under jit
        m = lax.broadcast_in_dim(mask, shape, tuple(range(mask.aval.ndim)))
        vb = broadcast_to(lax.reshape(v, ()), shape)
        return lax.select(m, _combine(mode, x, vb), x)
    size = int(np.prod(shape, dtype=np.int64))
    pdt = _index_dtype_for(size + 1)
    flat_pos = lax.reshape(lax.iota(pdt, size), shape)
    pos = (advanced_getitem(flat_pos, idx, mode="clip", oob="clip") if clip
           else advanced_getitem(flat_pos, idx, mode="fill", fill_value=size, oob="keep"))
    target = pos.aval.shape
    try:
        ok = broadcast_shapes(op, v.aval.shape, target) == target
    except ValueError:
        ok = False
    if not ok:
        raise op_value_error(op, f"values of shape {list(v.aval.shape)} cannot be broadcast to the indexed "
                                 f"shape {list(target)}")
    if pos.aval.size == 0:
        return x
    v = broadcast_to(v, target)
    flat = lax.reshape(x, (size,))
    ind = lax.reshape(pos, target + (1,))
    dn = ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
                                 scatter_dims_to_operand_dims=(0,))
    if mode in _SCATTERS:
        out = _SCATTERS[mode](flat, ind, v, dn, mode="drop")
    else:  # divide, power: read, combine, write back
        gdn = GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(0,), start_index_map=(0,))
        region = lax.gather(flat, ind, gdn, (1,), mode="clip")
        out = lax.scatter(flat, ind, _combine(mode, region, v), dn, mode="drop")
    return lax.reshape(out, shape)


# ---- functional updates: x.at[idx].op(values) -------------------------------------------------

def _combine(mode: str, region: Any, v: Any) -> Any:
    if mode == "set":
        return v
    if mode == "add":
        return lax.add(region, v)
    if mode == "multiply":
        return lax.mul(region, v)
    if mode == "divide":
        return lax.convert_element_type(_math.divide(region, v), region.aval.dtype)
    if mode == "power":
        return lax.convert_element_type(_math.pow(region, v), region.aval.dtype)
    if mode == "min":
        return lax.min(region, v)
    if mode == "max":
        return lax.max(region, v)
    raise ValueError(f"unknown update mode {mode!r}")


def update(x: Any, idx: Any, values: Any, mode: str, scatter_mode: Any = None) -> Any:
    """A copy of x with x[idx] replaced by `mode`(x[idx], values); values broadcast to x[idx]'s shape.

    As in jax, updates at indices past the ends are dropped (`scatter_mode` None, 'drop' or
    'promise_in_bounds') or clamped into range ('clip').
    """
    op = f"at[].{mode}"
    x = asarray(x)
    idx = idx if isinstance(idx, tuple) else (idx,)
    clip = GatherScatterMode.from_any(scatter_mode, GatherScatterMode.FILL_OR_DROP) is GatherScatterMode.CLIP
    if any(_is_advanced(e) for e in idx):
        return advanced_update(x, idx, values, mode, clip)
    shape, dt = x.aval.shape, x.aval.dtype
    dims, layout = parse_index(shape, idx, oob="clip" if clip else "keep")
    target = _result_shape(dims, layout)
    v = asarray(values, None if is_array(values) else dt)
    if v.aval.dtype != dt:
        v = lax.convert_element_type(v, dt)
    out_shape = broadcast_shapes(op, v.aval.shape, target)
    if out_shape != target:
        raise op_value_error(op, f"values of shape {list(v.aval.shape)} cannot be broadcast to the indexed "
                                 f"shape {list(target)}")
    v = broadcast_to(v, target)
    if any(d.count == 0 for d in dims) or any(d.kind == "int" and not 0 <= d.start < n
                                              for d, n in zip(dims, shape)):
        return x  # nothing selected, or a static index out of range: the update is dropped
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
    in_range = None if clip else _dynamic_in_range(dims, shape)
    if mode == "set" and not strided and in_range is None:
        return lax.dynamic_update_slice(x, v, starts)
    region = lax.dynamic_slice(x, starts, spans)
    if strided:
        config = [(0, 0, i) for i in interior]
        vp = lax.pad(v, full((), 0, dt), config)
        mask = lax.pad(full(v.aval.shape, True, dtypes.bool_), full((), False, dtypes.bool_), config)
        new = lax.select(mask, _combine(mode, region, vp), region)
    else:
        new = _combine(mode, region, v)
    if in_range is not None:  # an out-of-range run-time index writes the window back unchanged
        new = lax.select(broadcast_to(in_range, new.aval.shape), new, region)
    return lax.dynamic_update_slice(x, new, starts)


def _dynamic_in_range(dims: list[_Dim], shape: tuple[int, ...]) -> Any:
    """Whether every run-time integer index lies in its axis (negatives counted from the end);
    None when there are none."""
    ok = None
    for d, n in zip(dims, shape):
        if d.kind != "dyn":
            continue
        i = asarray(d.start)
        lo = full((), -n, i.aval.dtype) if not dtypes.is_unsigned(i.aval.dtype) else full((), 0, i.aval.dtype)
        inside = lax.bitwise_and(lax.ge(i, lo), lax.lt(i, full((), n, i.aval.dtype)))
        ok = inside if ok is None else lax.bitwise_and(ok, inside)
    return ok


class _IndexUpdateRef:
    """`x.at[idx]`: the pending update; call one of its methods to get the new array."""

    __slots__ = ("array", "index")

    def __init__(self, array: Any, index: Any):
        self.array = array
        self.index = index

    def __repr__(self) -> str:
        return f"_IndexUpdateRef({self.array!r}, {self.index!r})"

    def get(self, *, indices_are_sorted: bool = False, unique_indices: bool = False, mode: Any = None,
            fill_value: Any = None, out_sharding: Any = None) -> Any:
        """x[idx]; out-of-range indices are clamped (mode 'clip', the default) or read `fill_value` ('fill')."""
        return getitem(self.array, self.index, mode, fill_value)

    def set(self, values: Any, *, indices_are_sorted: bool = False, unique_indices: bool = False,
            mode: Any = None, out_sharding: Any = None) -> Any:
        """x with x[idx] = values (updates at out-of-range indices are dropped; mode='clip' clamps them)."""
        return update(self.array, self.index, values, "set", mode)

    def add(self, values: Any, *, indices_are_sorted: bool = False, unique_indices: bool = False,
            mode: Any = None, out_sharding: Any = None) -> Any:
        """x with x[idx] += values."""
        return update(self.array, self.index, values, "add", mode)

    def multiply(self, values: Any, *, indices_are_sorted: bool = False, unique_indices: bool = False,
                 mode: Any = None, out_sharding: Any = None) -> Any:
        """x with x[idx] *= values."""
        return update(self.array, self.index, values, "multiply", mode)

    mul = multiply

    def divide(self, values: Any, *, indices_are_sorted: bool = False, unique_indices: bool = False,
               mode: Any = None, out_sharding: Any = None) -> Any:
        """x with x[idx] /= values (cast back to x's dtype)."""
        return update(self.array, self.index, values, "divide", mode)

    def power(self, values: Any, *, indices_are_sorted: bool = False, unique_indices: bool = False,
              mode: Any = None, out_sharding: Any = None) -> Any:
        """x with x[idx] **= values."""
        return update(self.array, self.index, values, "power", mode)

    def min(self, values: Any, *, indices_are_sorted: bool = False, unique_indices: bool = False,
            mode: Any = None, out_sharding: Any = None) -> Any:
        """x with x[idx] = minimum(x[idx], values)."""
        return update(self.array, self.index, values, "min", mode)

    def max(self, values: Any, *, indices_are_sorted: bool = False, unique_indices: bool = False,
            mode: Any = None, out_sharding: Any = None) -> Any:
        """x with x[idx] = maximum(x[idx], values)."""
        return update(self.array, self.index, values, "max", mode)


class _IndexUpdateHelper:
    """The object behind `x.at`; index it to name the elements to update."""

    __slots__ = ("array",)

    def __init__(self, array: Any):
        self.array = array

    def __getitem__(self, index: Any) -> _IndexUpdateRef:
        return _IndexUpdateRef(self.array, index)

    def __repr__(self) -> str:
        return f"_IndexUpdateHelper({self.array!r})"


__all__ = ["getitem", "update", "parse_index", "basic_getitem", "advanced_getitem", "advanced_update",
           "normalize_index"]
