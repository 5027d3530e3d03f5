"""Indexed reads: take, take_along_axis, diagonal/diag/trace, unravel_index, ravel_multi_index.

Negative indices count from the end. Out-of-range indices cannot raise in a
traced program: by default (`mode='fill'`) they read NaN for floating
dtypes (the minimum for signed integers, the maximum for unsigned ones, True
for bool), as jax does; `mode='clip'` clamps them instead.
"""
from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from padax import lax
from padax.core.errors import op_type_error, op_value_error
from padax.functional._arrays import canonicalize_axis
from padax.functional.lax.indexing import GatherDimensionNumbers
from padax.numpy import _dtypes as D
from padax.numpy._util import broadcast_shapes, broadcast_to, full_like_shape, static_int, to_array


def _index_array(op: str, indices: Any, n: builtins.int, mode: str | None = None) -> Any:
    """Integer indices (int32 when possible) with negatives counted from the end; NumPy's `mode='clip'` leaves
    them to be clamped to 0, `mode='wrap'` takes every index modulo n."""
    idx = to_array(indices)
    if D.kind(idx.aval.dtype) != 1:
        raise op_type_error(op, f"indices must be integers, got {idx.aval.str_short()}")
    dt = idx.aval.dtype
    if dt.kind == "u":
        dt = D.int32 if dt.itemsize < 4 else D.canonicalize(D.int64)
    if idx.aval.dtype != dt:
        idx = lax.convert_element_type(idx, dt)
    if mode == "clip":
        return idx
    if mode == "wrap" and n > 0:
        idx = lax.rem(idx, full_like_shape(idx.aval.shape, n, dt))
    neg = lax.lt(idx, full_like_shape(idx.aval.shape, 0, dt))
    return lax.select(neg, lax.add(idx, full_like_shape(idx.aval.shape, n, dt)), idx)


def take(x: Any, indices: Any, /, *, axis: builtins.int | None = None, mode: str | None = None,
         fill_value: Any = None) -> Any:
    """Elements of x at `indices` along `axis` (of the flattened x if axis is None).

    The result has x's shape with `axis` replaced by indices' shape. `mode` says what an out-of-range index
    reads: 'fill' (the default) `fill_value` (NaN for floats), 'clip' the nearest end (negative indices clip to
    0, as NumPy), 'wrap' the index modulo the axis length.

    Args:
        x: the array to read from.
        indices: integer indices (negative ones count from the end).
        axis: the axis to index (None: the flattened x); NumPy's third positional argument.
        mode: None or 'fill', 'clip' or 'wrap' (see above).
        fill_value: what out-of-range indices read with mode 'fill' (None: NaN for inexact dtypes, the minimum of
            signed and the maximum of unsigned integers, True for bool).
        unique_indices, indices_are_sorted: jax's hints, accepted and ignored.

    Returns:
        An array of x's dtype, shape x.shape[:axis] + indices.shape + x.shape[axis + 1:].

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.take(pnp.array([10, 20, 30]), pnp.array([2, 0])).tolist()
        [30, 10]
        >>> pnp.take(pnp.array([1.0, 2.0]), pnp.array([0, 5])).tolist()  # out of range: NaN (NumPy raises)
        [1.0, nan]
        >>> pnp.take(pnp.array([[1, 2], [3, 4]]), pnp.array([1]), axis=1).tolist()
        [[2], [4]]
        >>> x, i = pnp.array([10, 20, 30]), pnp.array([-1, 4])
        >>> pnp.take(x, i, mode="clip").tolist(), pnp.take(x, i, mode="wrap").tolist()
        ([10, 30], [30, 20])
    """
    x = to_array(x)
    if axis is None:
        if x.aval.ndim > 1:
            x = lax.reshape(x, (x.aval.size,))
        axis = 0
    if x.aval.ndim == 0:
        x = lax.reshape(x, (1,))
    if mode not in (None, "fill", "clip", "wrap", "drop", "promise_in_bounds"):
        raise op_value_error("take", f"mode must be 'fill', 'clip' or 'wrap', got {mode!r}")
    a = canonicalize_axis("take", static_int("take", axis, "axis"), x.aval.ndim)
    n = x.aval.shape[a]
    idx = _index_array("take", indices, n, mode)
    shape = x.aval.shape
    k = idx.aval.ndim
    dn = GatherDimensionNumbers(
        offset_dims=tuple(builtins.range(a)) + tuple(builtins.range(a + k, len(shape) - 1 + k)),
        collapsed_slice_dims=(a,), start_index_map=(a,))
    slice_sizes = shape[:a] + (1,) + shape[a + 1:]
    if n == 0:
        out_shape = shape[:a] + idx.aval.shape + shape[a + 1:]
        return full_like_shape(out_shape, 0, x.aval.dtype)
    gather_mode = "clip" if mode == "wrap" else (mode or "fill")  # wrapped indices are in range
    return lax.gather(x, lax.reshape(idx, idx.aval.shape + (1,)), dn, slice_sizes,
                      mode=gather_mode, fill_value=fill_value)


def take_along_axis(x: Any, indices: Any, /, *, axis: builtins.int = -1, mode: str | None = None,
                    fill_value: Any = None) -> Any:
    """Pick values along `axis` at `indices` (same rank as x; other axes broadcast). Negative indices count
    from the end; an out-of-range index reads `fill_value` (NaN for floats) with the default `mode='fill'`,
    the nearest end with `mode='clip'`, as jax.numpy.

    Args:
        x: the array to read from.
        indices: integer indices of x's rank (negative ones count from the end).
        axis: the axis to index (None: the flattened x).
        mode: 'fill' (default) or 'clip' for out-of-range indices.
        fill_value: what out-of-range indices read with mode 'fill' (None: as `take`).

    Returns:
        An array of x's dtype: the broadcast shape, with indices' length along `axis`.

    Examples:
        >>> import padax.numpy as pnp
        >>> x = pnp.array([[3, 1, 2], [9, 7, 8]])
        >>> pnp.take_along_axis(x, pnp.argsort(x, axis=1), axis=1).tolist()
        [[1, 2, 3], [7, 8, 9]]
    """
    x = to_array(x)
    if axis is None:
        x = lax.reshape(x, (x.aval.size,))
        axis = 0
    nd = x.aval.ndim
    if nd == 0:
        raise op_value_error("take_along_axis", f"x must have at least one dimension, got {x.aval.str_short()}")
    a = canonicalize_axis("take_along_axis", static_int("take_along_axis", axis, "axis"), nd)
    idx = _index_array("take_along_axis", indices, x.aval.shape[a])
    if idx.aval.ndim != nd:
        raise op_value_error("take_along_axis", f"indices must have the same rank as x, got "
                                                f"{idx.aval.str_short()} and {x.aval.str_short()}")
    xs = list(x.aval.shape)
    out_shape = list(broadcast_shapes("take_along_axis", tuple(d for i, d in enumerate(xs) if i != a),
                                      tuple(d for i, d in enumerate(idx.aval.shape) if i != a)))
    out_shape.insert(a, idx.aval.shape[a])
    out_shape = tuple(out_shape)
    xs_b = tuple(out_shape[i] if i != a else xs[a] for i in builtins.range(nd))
    x = broadcast_to(x, xs_b)
    idx = broadcast_to(idx, out_shape)
    dt = idx.aval.dtype
    cols = [lax.broadcasted_iota(dt, out_shape, i) if i != a else idx for i in builtins.range(nd)]
    full = lax.concatenate([lax.reshape(c, out_shape + (1,)) for c in cols], nd)
    dn = GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=tuple(builtins.range(nd)),
                                start_index_map=tuple(builtins.range(nd)))
    if xs[a] == 0:
        return full_like_shape(out_shape, 0, x.aval.dtype)
    return lax.gather(x, full, dn, (1,) * nd, mode=mode or "fill", fill_value=fill_value)


def diagonal(a: Any, offset: builtins.int = 0, axis1: builtins.int = 0, axis2: builtins.int = 1) -> Any:
    """The `offset` diagonal of the (axis1, axis2) planes, as the last axis of the result.

    Args:
        a: an array of at least 2 dimensions.
        offset: the diagonal: 0 the main one, > 0 above, < 0 below.
        axis1, axis2: the two (different) axes of the planes.

    Returns:
        An array of a's dtype: the other axes, then the diagonal as the last axis.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.diagonal(pnp.array([[1, 2], [3, 4]])).tolist()
        [1, 4]
        >>> pnp.diagonal(pnp.array([[1, 2], [3, 4]]), offset=1).tolist()
        [2]
    """
    x = to_array(a)
    nd = x.aval.ndim
    if nd < 2:
        raise op_value_error("diagonal", f"needs at least 2 dimensions, got {x.aval.str_short()}")
    i, j = canonicalize_axis("diagonal", axis1, nd), canonicalize_axis("diagonal", axis2, nd)
    if i == j:
        raise op_value_error("diagonal", "axis1 and axis2 must differ")
    k = static_int("diagonal", offset, "offset")
    rest = [d for d in builtins.range(nd) if d not in (i, j)]
    x = lax.transpose(x, tuple(rest) + (i, j))
    n, m = x.aval.shape[-2], x.aval.shape[-1]
    r0, c0 = builtins.max(-k, 0), builtins.max(k, 0)
    length = builtins.max(builtins.min(n - r0, m - c0), 0)
    batch = x.aval.shape[:-2]
    if length == 0:
        return full_like_shape(batch + (0,), 0, x.aval.dtype)
    rows = np.arange(length) + r0
    idx = np.stack([rows, rows - r0 + c0], axis=1).astype(np.int32)
    nb = len(batch)
    dn = GatherDimensionNumbers(offset_dims=tuple(builtins.range(nb)), collapsed_slice_dims=(nb, nb + 1),
                                start_index_map=(nb, nb + 1))
    out = lax.gather(x, to_array(idx), dn, batch + (1, 1), mode="promise_in_bounds")
    # gather puts the window (batch) dims first and the index dim last
    return out


def diag(v: Any, k: builtins.int = 0) -> Any:
    """The k-th diagonal of a 2-D array, or a 2-D array with 1-D v on its k-th diagonal.

    Args:
        v: a 1-D array (to place on a diagonal) or a 2-D array (to read one).
        k: the diagonal: 0 the main one, > 0 above, < 0 below.

    Returns:
        A 2-D array of shape (n + |k|, n + |k|) for 1-D v, else the 1-D diagonal; v's dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.diag(pnp.array([1, 2])).tolist()
        [[1, 0], [0, 2]]
        >>> pnp.diag(pnp.array([[1, 2], [3, 4]])).tolist()
        [1, 4]
    """
    v = to_array(v)
    k = static_int("diag", k, "k")
    if v.aval.ndim == 2:
        return diagonal(v, k)
    if v.aval.ndim != 1:
        raise op_value_error("diag", f"expects a 1-D or 2-D array, got {v.aval.str_short()}")
    n = v.aval.shape[0] + builtins.abs(k)
    rows = lax.broadcasted_iota(D.int32, (n, n), 0)
    cols = lax.broadcasted_iota(D.int32, (n, n), 1)
    on = lax.eq(lax.add(rows, full_like_shape((n, n), k, D.int32)), cols)
    # value for (r, c) on the diagonal is v[min(r, c)]
    src = lax.min(rows, cols)
    vals = take(v, src, axis=0, mode="clip")
    return lax.select(on, vals, full_like_shape((n, n), 0, v.aval.dtype))


def diagflat(v: Any, k: builtins.int = 0) -> Any:
    """A 2-D array with the flattened v on its k-th diagonal.

    Args:
        v: an array of any shape (flattened first).
        k: the diagonal: 0 the main one, > 0 above, < 0 below.

    Returns:
        A 2-D square array of v's dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.diagflat(pnp.array([[1, 2]]), k=1).tolist()
        [[0, 1, 0], [0, 0, 2], [0, 0, 0]]
    """
    v = to_array(v)
    return diag(lax.reshape(v, (v.aval.size,)), k)


def trace(a: Any, offset: builtins.int = 0, axis1: builtins.int = 0, axis2: builtins.int = 1,
          dtype: Any = None) -> Any:
    """Sum along the `offset` diagonal of the (axis1, axis2) planes.

    Args:
        a: an array of at least 2 dimensions.
        offset: the diagonal: 0 the main one, > 0 above, < 0 below.
        axis1, axis2: the two (different) axes of the planes.
        dtype: the accumulation and result dtype (None: as `sum`).

    Returns:
        An array of the other axes' shape (0-d for a matrix).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.trace(pnp.array([[1, 2], [3, 4]])).tolist()
        5
    """
    from padax.numpy._statistical import sum as _sum  # circular: padax.numpy._statistical imports this module
    return _sum(diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype)


def unravel_index(indices: Any, shape: Any) -> tuple[Any, ...]:
    """Coordinates in an array of `shape` of flat (row-major) indices.

    Args:
        indices: an integer array of flat indices.
        shape: the array shape the indices refer to.

    Returns:
        A tuple of integer arrays, one per axis of `shape`, each of indices' shape and dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> [i.tolist() for i in pnp.unravel_index(pnp.array([5, 1]), (2, 3))]
        [[1, 0], [2, 1]]
    """
    idx = to_array(indices)
    if D.kind(idx.aval.dtype) != 1:
        raise op_type_error("unravel_index", f"indices must be integers, got {idx.aval.str_short()}")
    shape = tuple(static_int("unravel_index", d, "shape") for d in shape)
    out = []
    rem = idx
    for d in reversed(shape):
        dd = full_like_shape(idx.aval.shape, d, idx.aval.dtype)
        out.append(lax.rem(rem, dd))
        rem = lax.div(rem, dd)
    return tuple(reversed(out))


def ravel_multi_index(multi_index: Any, dims: Any, mode: str = "raise") -> Any:
    """Flat (row-major) indices of coordinates in an array of shape `dims` ('clip' or 'wrap' out-of-range).

    Args:
        multi_index: a sequence of integer arrays, one per dimension (broadcast together).
        dims: the array shape the coordinates refer to.
        mode: 'wrap' takes coordinates modulo each dimension; 'clip' (and 'raise', which cannot raise inside a
            traced program) clamps them into range.

    Returns:
        An array of default-int flat indices of the broadcast shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.ravel_multi_index((pnp.array([1, 0]), pnp.array([2, 1])), (2, 3)).tolist()
        [5, 1]
    """
    dims = tuple(static_int("ravel_multi_index", d, "dims") for d in dims)
    coords = [to_array(c) for c in multi_index]
    if len(coords) != len(dims):
        raise op_value_error("ravel_multi_index", "one coordinate array per dimension is needed")
    shape = broadcast_shapes("ravel_multi_index", *(c.aval.shape for c in coords))
    dt = D.default_int()
    out = full_like_shape(shape, 0, dt)
    for c, d in zip(coords, dims):
        c = broadcast_to(lax.convert_element_type(c, dt), shape)
        if mode == "wrap":
            dd = full_like_shape(shape, d, dt)
            c = lax.rem(lax.add(lax.rem(c, dd), dd), dd)
        else:  # 'clip' (and 'raise', which a traced program cannot do)
            c = lax.clamp(np.asarray(0, dt), c, np.asarray(d - 1, dt))
        out = lax.add(lax.mul(out, full_like_shape(shape, d, dt)), c)
    return out


__all__ = ["take", "take_along_axis", "diagonal", "diag", "diagflat", "trace", "unravel_index",
           "ravel_multi_index"]
