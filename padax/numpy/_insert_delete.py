"""jax.numpy's insert and delete: entries added or removed along an axis (a new array; padax arrays
are immutable)."""
from __future__ import annotations

import builtins
from typing import Any

import numpy as np

import padax.numpy as pnp
from padax import lax
from padax.core.errors import op_type_error, op_value_error
from padax.numpy._util import axis as _axis, static_value, to_array


def _axis_positions(op: str, obj: Any, n: builtins.int) -> np.ndarray:
    if isinstance(obj, slice):
        return np.arange(*obj.indices(n))
    idx = static_value(op, obj, "obj")
    if idx.dtype == np.bool_:
        return idx
    if idx.dtype.kind not in "iu":
        raise op_type_error(op, f"obj must be integer, boolean or a slice, got dtype {idx.dtype}")
    return idx.astype(np.int64)


def delete(arr: Any, obj: Any, axis: builtins.int | None = None, *,
           assume_unique_indices: builtins.bool = False) -> Any:
    """arr without the entries `obj` along `axis` (flattened if axis is None).

    Args:
        arr: an array.
        obj: an int, a slice, an integer array or a boolean mask of the axis' length (static values).
        axis: the axis; None deletes from the flattened array.
        assume_unique_indices: accepted as jax does (indices are static here, duplicates are harmless).

    Returns:
        An array with the entries removed (same dtype).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.delete(pnp.array([1, 2, 3, 4]), [0, 2]).tolist()
        [2, 4]
        >>> pnp.delete(pnp.arange(6).reshape(2, 3), 1, axis=1).tolist()
        [[0, 2], [3, 5]]
    """
    a = to_array(arr)
    if axis is None:
        a, ax = pnp.ravel(a), 0
    else:
        ax = _axis("delete", axis, a.aval.ndim)
    n = a.aval.shape[ax]
    idx = _axis_positions("delete", obj, n)
    keep = np.ones(n, np.bool_)
    if idx.dtype == np.bool_:
        if idx.shape != (n,):
            raise op_value_error("delete", f"a boolean obj must have shape ({n},), got {idx.shape}")
        keep &= ~idx
    else:
        if idx.size and (idx.min() < -n or idx.max() >= n):
            raise op_value_error("delete", f"index out of bounds for axis {ax} of size {n}: {idx.tolist()}")
        keep[idx % builtins.max(n, 1)] = False
    return pnp.take(a, np.nonzero(keep)[0], axis=ax)


def insert(arr: Any, obj: Any, values: Any, axis: builtins.int | None = None) -> Any:
    """arr with `values` inserted before the positions `obj` along `axis` (flattened if axis is None).

    Args:
        arr: an array.
        obj: an int, a slice or a sequence of ints (static), positions in the input before which to insert.
        values: broadcast to the inserted block; cast to arr's dtype.
        axis: the axis; None inserts into the flattened array.

    Returns:
        An array of arr's dtype, longer along `axis`.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.insert(pnp.array([1, 2, 3]), 1, 9).tolist()
        [1, 9, 2, 3]
        >>> pnp.insert(pnp.array([[1, 2], [3, 4]]), [0, 2], 0, axis=1).tolist()
        [[0, 1, 2, 0], [0, 3, 4, 0]]
    """
    a = to_array(arr)
    if axis is None:
        a, ax = pnp.ravel(a), 0
    else:
        ax = _axis("insert", axis, a.aval.ndim)
    n, nd = a.aval.shape[ax], a.aval.ndim
    idx = _axis_positions("insert", obj, n)
    if idx.ndim > 1:
        raise op_value_error("insert", f"obj must be a scalar or 1-D, got an index array of shape {idx.shape}")
    if idx.dtype == np.bool_:
        idx = np.nonzero(idx)[0]
    if idx.size and (idx.min() < -n or idx.max() > n):
        raise op_value_error("insert", f"index out of bounds for axis {ax} of size {n}: {idx.tolist()}")
    idx = np.where(idx < 0, idx + n, idx)
    vals = to_array(values, a.aval.dtype)
    if vals.aval.ndim < nd:
        vals = lax.reshape(vals, (1,) * (nd - vals.aval.ndim) + vals.aval.shape)
    if idx.size == 1 and not isinstance(obj, slice):
        if idx.ndim == 0:
            vals = pnp.moveaxis(vals, 0, ax)
        numnew = vals.aval.shape[ax] if vals.aval.ndim == nd else 1
        new_pos = builtins.int(idx.reshape(())) + np.arange(numnew)
    else:
        numnew = idx.size
        order = np.argsort(idx, kind="stable")
        new_pos = idx.copy()
        new_pos[order] += np.arange(numnew)
        new_pos = new_pos.astype(np.int64)
    shape = a.aval.shape[:ax] + (numnew,) + a.aval.shape[ax + 1:]
    vals = pnp.broadcast_to(vals, shape)
    perm = np.empty(n + numnew, np.int64)
    old = np.ones(n + numnew, np.bool_)
    old[new_pos] = False
    perm[old] = np.arange(n)
    perm[new_pos] = n + np.arange(numnew)
    return pnp.take(pnp.concatenate([a, vals], axis=ax), perm, axis=ax)


__all__ = ["delete", "insert"]
