"""Shape manipulation (Array API standard names, then NumPy's extras).

Shapes, axes, shifts and repeat counts must be static (Python ints) except
where noted: `roll` takes a traced shift; `repeat` with an array of counts
reads them eagerly (pass `total_repeat_length` under jit).
"""
from __future__ import annotations

import builtins
import math as _pymath
from typing import Any, Sequence

import numpy as np

from padax import lax
from padax.core.errors import op_type_error, op_value_error
from padax.core.trace import Tracer
from padax.functional import manipulation as _S
from padax.functional._arrays import canonicalize_axis
from padax.numpy import _dtypes as D
from padax.numpy._util import broadcast_shapes as _bshapes, broadcast_to as _bcast, is_array, static_int, to_array


def _arrays(op: str, arrays: Any) -> list[Any]:
    if is_array(arrays) or not isinstance(arrays, (list, tuple)):
        raise op_type_error(op, f"expected a list or tuple of arrays, got {type(arrays).__name__}")
    if not arrays:
        raise op_value_error(op, "needs at least one array")
    arrs = [to_array(a) for a in arrays]
    dt = D.result_type_of([(a.aval.dtype, False) for a in arrs])
    return [a if a.aval.dtype == dt else lax.convert_element_type(a, dt) for a in arrs]


def _int_tuple(op: str, v: Any, what: str) -> tuple[int, ...]:
    if isinstance(v, (list, tuple)):
        return tuple(static_int(op, e, what) for e in v)
    if is_array(v) and not isinstance(v, Tracer) and v.ndim == 1:
        return tuple(builtins.int(e) for e in np.asarray(v))
    return (static_int(op, v, what),)


def broadcast_to(x: Any, /, shape: Any) -> Any:
    """Broadcast x to `shape` (NumPy rules)."""
    x = to_array(x)
    shape = _int_tuple("broadcast_to", shape, "shape")
    xs = x.aval.shape
    if len(shape) < len(xs) or _bshapes("broadcast_to", xs, shape) != shape:
        raise op_value_error("broadcast_to", f"cannot broadcast {x.aval.str_short()} to shape {shape}")
    return _bcast(x, shape)


def broadcast_arrays(*arrays: Any) -> list[Any]:
    """Broadcast arrays to their common shape."""
    arrs = [to_array(a) for a in arrays]
    shape = _bshapes("broadcast_arrays", *(a.aval.shape for a in arrs))
    return [_bcast(a, shape) for a in arrs]


def broadcast_shapes(*shapes: Any) -> tuple[int, ...]:
    """The shape that arrays of the given shapes broadcast to."""
    if not shapes:
        return ()
    return _bshapes("broadcast_shapes", *(_int_tuple("broadcast_shapes", s, "shape") for s in shapes))


def concat(arrays: Sequence[Any], /, *, axis: builtins.int | None = 0) -> Any:
    """Join arrays along an existing axis (flattened first if axis is None); dtypes promote."""
    arrs = _arrays("concat", arrays)
    if axis is None:
        arrs = [lax.reshape(a, (a.aval.size,)) for a in arrs]
        axis = 0
    nd = arrs[0].aval.ndim
    if nd == 0:
        raise op_value_error("concat", "cannot concatenate 0-d arrays")
    a = canonicalize_axis("concat", static_int("concat", axis, "axis"), nd)
    ref = arrs[0].aval.shape
    for t in arrs[1:]:
        s = t.aval.shape
        if len(s) != nd or builtins.any(p != q for i, (p, q) in enumerate(zip(s, ref)) if i != a):
            raise op_value_error("concat", f"all inputs must have the same shape except on axis {a}, got "
                                           + ", ".join(str(t.aval.shape) for t in arrs))
    return lax.concatenate(arrs, a)


def concatenate(arrays: Sequence[Any], axis: builtins.int | None = 0, dtype: Any = None) -> Any:
    """NumPy's name for `concat`."""
    out = concat(arrays, axis=axis)
    return out if dtype is None else lax.convert_element_type(out, D.canonicalize(dtype))


def stack(arrays: Sequence[Any], /, *, axis: builtins.int = 0) -> Any:
    """Join equal-shaped arrays along a new axis."""
    arrs = _arrays("stack", arrays)
    ref = arrs[0].aval.shape
    if builtins.any(t.aval.shape != ref for t in arrs[1:]):
        raise op_value_error("stack", "all inputs must have the same shape, got "
                                      + ", ".join(str(t.aval.shape) for t in arrs))
    a = canonicalize_axis("stack", static_int("stack", axis, "axis"), len(ref) + 1)
    new = ref[:a] + (1,) + ref[a:]
    return lax.concatenate([lax.reshape(t, new) for t in arrs], a)


def unstack(x: Any, /, *, axis: builtins.int = 0) -> tuple[Any, ...]:
    """The slices of x along `axis`, each without that axis."""
    x = to_array(x)
    if x.aval.ndim == 0:
        raise op_value_error("unstack", "cannot unstack a 0-d array")
    return tuple(_S.unbind(x, static_int("unstack", axis, "axis")))


def expand_dims(x: Any, /, axis: Any = 0) -> Any:
    """Insert size-1 axes at the positions `axis` (an int or a tuple) of the result."""
    x = to_array(x)
    ax = _int_tuple("expand_dims", axis, "axis")
    nd = x.aval.ndim + len(ax)
    pos = sorted(canonicalize_axis("expand_dims", a, nd) for a in ax)
    if len(set(pos)) != len(pos):
        raise op_value_error("expand_dims", f"repeated axis in {axis}")
    shape = list(x.aval.shape)
    for p in pos:
        shape.insert(p, 1)
    return lax.reshape(x, tuple(shape))


def squeeze(x: Any, /, axis: Any = None) -> Any:
    """Remove size-1 axes (those of `axis`, which must have size 1; all of them if axis is None)."""
    x = to_array(x)
    shape = x.aval.shape
    if axis is None:
        dims = [i for i, d in enumerate(shape) if d == 1]
    else:
        dims = sorted({canonicalize_axis("squeeze", a, x.aval.ndim) for a in _int_tuple("squeeze", axis, "axis")})
        for d in dims:
            if shape[d] != 1:
                raise op_value_error("squeeze", f"cannot remove axis {d} of size {shape[d]} from "
                                                f"{x.aval.str_short()}")
    if not dims:
        return x
    return lax.reshape(x, tuple(d for i, d in enumerate(shape) if i not in dims))


def flip(x: Any, /, *, axis: Any = None) -> Any:
    """Reverse the order of elements along `axis` (all axes if None)."""
    x = to_array(x)
    if axis is None:
        dims = tuple(builtins.range(x.aval.ndim))
    else:
        dims = tuple(sorted({canonicalize_axis("flip", a, x.aval.ndim) for a in _int_tuple("flip", axis, "axis")}))
    return lax.rev(x, dims) if dims else x


def flipud(m: Any) -> Any:
    """Reverse along axis 0."""
    return flip(m, axis=0)


def fliplr(m: Any) -> Any:
    """Reverse along axis 1."""
    return flip(m, axis=1)


def moveaxis(x: Any, source: Any, destination: Any, /) -> Any:
    """Move axes `source` to positions `destination`, others keep their order."""
    return _S.moveaxis(to_array(x), list(_int_tuple("moveaxis", source, "source")),
                       list(_int_tuple("moveaxis", destination, "destination")))


def permute_dims(x: Any, /, axes: Sequence[builtins.int]) -> Any:
    """Permute the axes: result axis i is input axis axes[i]."""
    return _S.transpose(to_array(x), list(_int_tuple("permute_dims", axes, "axes")))


def transpose(a: Any, axes: Sequence[builtins.int] | None = None) -> Any:
    """Permute the axes (reverse them when `axes` is None)."""
    a = to_array(a)
    if axes is None:
        axes = tuple(builtins.range(a.aval.ndim))[::-1]
    return permute_dims(a, axes)


def matrix_transpose(x: Any, /) -> Any:
    """Swap the last two axes."""
    x = to_array(x)
    nd = x.aval.ndim
    if nd < 2:
        raise op_value_error("matrix_transpose", f"needs at least 2 dimensions, got {x.aval.str_short()}")
    return lax.transpose(x, tuple(builtins.range(nd - 2)) + (nd - 1, nd - 2))


def swapaxes(a: Any, axis1: builtins.int, axis2: builtins.int) -> Any:
    """Interchange two axes."""
    a = to_array(a)
    nd = a.aval.ndim
    i, j = canonicalize_axis("swapaxes", axis1, nd), canonicalize_axis("swapaxes", axis2, nd)
    perm = list(builtins.range(nd))
    perm[i], perm[j] = perm[j], perm[i]
    return lax.transpose(a, tuple(perm))


def reshape(x: Any, /, shape: Any, *, copy: builtins.bool | None = None) -> Any:
    """Reshape (row-major); one entry may be -1."""
    x = to_array(x)
    shape = list(_int_tuple("reshape", shape, "shape"))
    if shape.count(-1) > 1 or builtins.any(d < -1 for d in shape):
        raise op_value_error("reshape", f"invalid shape {tuple(shape)}")
    if -1 in shape:
        known = _pymath.prod(d for d in shape if d != -1)
        if known == 0 or x.aval.size % known:
            raise op_value_error("reshape", f"cannot reshape {x.aval.str_short()} to {tuple(shape)}")
        shape[shape.index(-1)] = x.aval.size // known
    if _pymath.prod(shape) != x.aval.size:
        raise op_value_error("reshape", f"cannot reshape {x.aval.str_short()} ({x.aval.size} elements) "
                                        f"to {tuple(shape)}")
    return lax.reshape(x, tuple(shape))


def ravel(a: Any, order: str = "C") -> Any:
    """The flattened array."""
    a = to_array(a)
    if order not in ("C", "A", "K"):
        raise NotImplementedError("ravel: only order='C' is supported")
    return lax.reshape(a, (a.aval.size,))


def _roll_axis(x: Any, shift: Any, a: builtins.int) -> Any:
    n = x.aval.shape[a]
    if n == 0:
        return x
    if isinstance(shift, Tracer) or (is_array(shift)):
        s = to_array(shift)
        s = lax.convert_element_type(s, D.int32) if s.aval.dtype != D.int32 else s
        nn = lax.broadcast_in_dim(np.int32(n), (), ())
        start = lax.rem(lax.sub(nn, lax.rem(s, nn)), nn)  # in (-n, n)
        start = lax.rem(lax.add(start, nn), nn)
        doubled = lax.concatenate([x, x], a)
        return lax.dynamic_slice_in_dim(doubled, start, n, a)
    k = builtins.int(shift) % n
    if k == 0:
        return x
    return lax.concatenate([lax.slice_in_dim(x, n - k, n, 1, a), lax.slice_in_dim(x, 0, n - k, 1, a)], a)


def roll(x: Any, /, shift: Any, *, axis: Any = None) -> Any:
    """Shift elements cyclically along `axis` (over the flattened array if None)."""
    x = to_array(x)
    if axis is None:
        flat = lax.reshape(x, (x.aval.size,))
        if isinstance(shift, (list, tuple)):
            shift = builtins.sum(shift)
        return lax.reshape(_roll_axis(flat, shift, 0), x.aval.shape)
    ax = _int_tuple("roll", axis, "axis")
    shifts = shift if isinstance(shift, (list, tuple)) else (shift,) * len(ax)
    if len(shifts) != len(ax):
        raise op_value_error("roll", f"shift {shift} and axis {axis} differ in length")
    for s, a in zip(shifts, ax):
        x = _roll_axis(x, s, canonicalize_axis("roll", a, x.aval.ndim))
    return x


def tile(x: Any, repetitions: Any, /) -> Any:
    """Repeat x `repetitions[i]` times along axis i (shorter tuples apply to the trailing axes)."""
    return _S.tile(to_array(x), list(_int_tuple("tile", repetitions, "repetitions")))


def repeat(x: Any, repeats: Any, /, *, axis: builtins.int | None = None,
           total_repeat_length: builtins.int | None = None) -> Any:
    """Repeat each element `repeats` times (an int, or one count per element along `axis`).

    Per-element counts must be concrete (eager), unless `total_repeat_length`
    fixes the output size (counts beyond it are cut, a shortfall repeats the last element).
    """
    x = to_array(x)
    if axis is None:
        x = lax.reshape(x, (x.aval.size,))
        axis = 0
    a = canonicalize_axis("repeat", static_int("repeat", axis, "axis"), builtins.max(x.aval.ndim, 1))
    if x.aval.ndim == 0:
        x = lax.reshape(x, (1,))
    n = x.aval.shape[a]
    if isinstance(repeats, (builtins.int, np.integer)) and not isinstance(repeats, builtins.bool):
        r = builtins.int(repeats)
        if r < 0:
            raise op_value_error("repeat", f"repeats must be non-negative, got {r}")
        shape = x.aval.shape
        inter = shape[:a + 1] + (r,) + shape[a + 1:]
        b = lax.broadcast_in_dim(x, inter, tuple(i if i <= a else i + 1 for i in builtins.range(len(shape))))
        return lax.reshape(b, shape[:a] + (n * r,) + shape[a + 1:])
    from padax.numpy._indexing import take
    if isinstance(repeats, Tracer):
        if total_repeat_length is None:
            raise op_type_error("repeat", "per-element repeat counts that are traced give a data-dependent "
                                          "shape; pass total_repeat_length=")
        r = to_array(repeats)
        r = _bcast(r, (n,)) if r.aval.shape != (n,) else r
        ends = lax.cumsum(lax.convert_element_type(r, D.int32), 0)
        pos = lax.iota(D.int32, total_repeat_length)
        # index of each output slot: the number of segment ends at or before it
        cmp = lax.le(lax.broadcast_in_dim(ends, (total_repeat_length, n), (1,)),
                     lax.broadcast_in_dim(pos, (total_repeat_length, n), (0,)))
        idx = lax.reduce_sum(lax.convert_element_type(cmp, D.int32), (1,))
        idx = lax.min(idx, lax.broadcast_in_dim(np.int32(n - 1), (total_repeat_length,), ()))
        return take(x, idx, axis=a)
    r = np.asarray(repeats).astype(np.int64).reshape(-1)
    if r.size == 1:
        return repeat(x, builtins.int(r[0]), axis=a)
    if r.size != n:
        raise op_value_error("repeat", f"repeats has {r.size} entries, axis {a} has size {n}")
    if (r < 0).any():
        raise op_value_error("repeat", "repeats must be non-negative")
    idx = np.repeat(np.arange(n), r)
    if total_repeat_length is not None:
        idx = np.resize(idx, total_repeat_length) if idx.size else np.zeros(total_repeat_length, np.int64)
    return take(x, to_array(idx.astype(np.int32)), axis=a)


def atleast_1d(*arys: Any) -> Any:
    """Each input with at least one dimension."""
    out = [to_array(a) for a in arys]
    out = [lax.reshape(a, (1,)) if a.aval.ndim == 0 else a for a in out]
    return out[0] if len(out) == 1 else out


def atleast_2d(*arys: Any) -> Any:
    """Each input with at least two dimensions (1-D becomes a row)."""
    out = []
    for a in arys:
        a = to_array(a)
        if a.aval.ndim < 2:
            a = lax.reshape(a, (1,) * (2 - a.aval.ndim) + a.aval.shape)
        out.append(a)
    return out[0] if len(out) == 1 else out


def atleast_3d(*arys: Any) -> Any:
    """Each input with at least three dimensions ((N,) -> (1, N, 1), (M, N) -> (M, N, 1))."""
    out = []
    for a in arys:
        a = to_array(a)
        s = a.aval.shape
        if a.aval.ndim == 0:
            a = lax.reshape(a, (1, 1, 1))
        elif a.aval.ndim == 1:
            a = lax.reshape(a, (1,) + s + (1,))
        elif a.aval.ndim == 2:
            a = lax.reshape(a, s + (1,))
        out.append(a)
    return out[0] if len(out) == 1 else out


def vstack(tup: Sequence[Any], *, dtype: Any = None) -> Any:
    """Stack rows (1-D inputs become rows)."""
    return concatenate([atleast_2d(t) for t in tup], 0, dtype)


row_stack = vstack


def hstack(tup: Sequence[Any], *, dtype: Any = None) -> Any:
    """Stack columns (concatenate along axis 1, or 0 for 1-D inputs)."""
    arrs = [atleast_1d(t) for t in tup]
    return concatenate(arrs, 0 if arrs[0].aval.ndim == 1 else 1, dtype)


def dstack(tup: Sequence[Any], *, dtype: Any = None) -> Any:
    """Stack along the third axis."""
    return concatenate([atleast_3d(t) for t in tup], 2, dtype)


def column_stack(tup: Sequence[Any]) -> Any:
    """Stack 1-D arrays as columns of a 2-D array."""
    arrs = []
    for t in tup:
        t = to_array(t)
        arrs.append(lax.reshape(t, t.aval.shape + (1,)) if t.aval.ndim < 2 else t)
    return concatenate(arrs, 1)


def _split_points(op: str, n: builtins.int, indices_or_sections: Any, exact: builtins.bool) -> list[builtins.int]:
    if isinstance(indices_or_sections, (builtins.int, np.integer)):
        k = builtins.int(indices_or_sections)
        if k <= 0:
            raise op_value_error(op, "number of sections must be positive")
        if exact and n % k:
            raise op_value_error(op, f"an axis of size {n} cannot be split into {k} equal sections")
        q, r = builtins.divmod(n, k)
        sizes = [q + 1] * r + [q] * (k - r)
        pts, acc = [], 0
        for s in sizes[:-1]:
            acc += s
            pts.append(acc)
        return pts
    return [builtins.int(i) for i in indices_or_sections]


def split(ary: Any, indices_or_sections: Any, axis: builtins.int = 0) -> list[Any]:
    """Split into equal sections (an int) or at the given indices along `axis`."""
    return _split("split", ary, indices_or_sections, axis, True)


def array_split(ary: Any, indices_or_sections: Any, axis: builtins.int = 0) -> list[Any]:
    """Like `split`, but sections may differ in size by one."""
    return _split("array_split", ary, indices_or_sections, axis, False)


def _split(op: str, ary: Any, ios: Any, axis: builtins.int, exact: builtins.bool) -> list[Any]:
    x = to_array(ary)
    a = canonicalize_axis(op, axis, x.aval.ndim)
    n = x.aval.shape[a]
    pts = _split_points(op, n, ios, exact)
    bounds = [0] + [builtins.min(builtins.max(p if p >= 0 else p + n, 0), n) for p in pts] + [n]
    out = []
    for s, e in zip(bounds[:-1], bounds[1:]):
        out.append(lax.slice_in_dim(x, s, builtins.max(s, e), 1, a))
    return out


def hsplit(ary: Any, indices_or_sections: Any) -> list[Any]:
    """Split along axis 1 (axis 0 for 1-D)."""
    x = to_array(ary)
    return split(x, indices_or_sections, 0 if x.aval.ndim == 1 else 1)


def vsplit(ary: Any, indices_or_sections: Any) -> list[Any]:
    """Split along axis 0."""
    return split(ary, indices_or_sections, 0)


def dsplit(ary: Any, indices_or_sections: Any) -> list[Any]:
    """Split along axis 2."""
    return split(ary, indices_or_sections, 2)


def rot90(m: Any, k: builtins.int = 1, axes: tuple[builtins.int, builtins.int] = (0, 1)) -> Any:
    """Rotate by 90 degrees k times in the plane of `axes` (from the first towards the second)."""
    m = to_array(m)
    k = static_int("rot90", k, "k") % 4
    a0, a1 = (canonicalize_axis("rot90", a, m.aval.ndim) for a in axes)
    if a0 == a1:
        raise op_value_error("rot90", "axes must differ")
    if k == 0:
        return m
    if k == 2:
        return flip(m, axis=(a0, a1))
    if k == 1:
        return swapaxes(flip(m, axis=a1), a0, a1)
    return flip(swapaxes(m, a0, a1), axis=a1)


def append(arr: Any, values: Any, axis: builtins.int | None = None) -> Any:
    """arr with `values` appended (both flattened when axis is None)."""
    if axis is None:
        return concat([ravel(arr), ravel(values)], axis=0)
    return concat([arr, values], axis=axis)


def pad(array: Any, pad_width: Any, mode: str = "constant", constant_values: Any = 0) -> Any:
    """Pad an array: 'constant' (with `constant_values`), 'edge', 'reflect', 'symmetric' or 'wrap'."""
    x = to_array(array)
    nd = x.aval.ndim
    pw = np.broadcast_to(np.asarray(pad_width, dtype=np.int64).reshape(-1, 2) if np.ndim(pad_width) > 0
                         else np.asarray([[pad_width, pad_width]]), (nd, 2))
    if (pw < 0).any():
        raise op_value_error("pad", "pad widths must be non-negative")
    if mode == "constant":
        cv = np.broadcast_to(np.asarray(constant_values), (nd, 2)) if np.ndim(constant_values) else None
        if cv is None:
            val = to_array(constant_values, x.aval.dtype) if not is_array(constant_values) else \
                lax.convert_element_type(constant_values, x.aval.dtype)
            return lax.pad(x, val, [(builtins.int(lo), builtins.int(hi), 0) for lo, hi in pw])
        for ax in builtins.range(nd):  # per-axis values: pad one axis at a time
            for side in (0, 1):
                cfg = [(0, 0, 0)] * nd
                cfg[ax] = (builtins.int(pw[ax, 0]), 0, 0) if side == 0 else (0, builtins.int(pw[ax, 1]), 0)
                x = lax.pad(x, to_array(cv[ax, side], x.aval.dtype), cfg)
        return x
    if mode not in ("edge", "reflect", "symmetric", "wrap"):
        raise NotImplementedError(f"pad: mode {mode!r} is not supported")
    from padax.numpy._indexing import take
    for ax in builtins.range(nd):
        lo, hi = builtins.int(pw[ax, 0]), builtins.int(pw[ax, 1])
        if lo == 0 and hi == 0:
            continue
        n = x.aval.shape[ax]
        idx = np.pad(np.arange(n), (lo, hi), mode=mode)
        x = take(x, to_array(idx.astype(np.int32)), axis=ax)
    return x


__all__ = ["broadcast_to", "broadcast_arrays", "broadcast_shapes", "concat", "concatenate", "stack", "unstack",
           "expand_dims", "squeeze", "flip", "flipud", "fliplr", "moveaxis", "permute_dims", "transpose",
           "matrix_transpose", "swapaxes", "reshape", "ravel", "roll", "tile", "repeat", "atleast_1d",
           "atleast_2d", "atleast_3d", "vstack", "row_stack", "hstack", "dstack", "column_stack", "split",
           "array_split", "hsplit", "vsplit", "dsplit", "rot90", "append", "pad"]
