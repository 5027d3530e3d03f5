"""jax.numpy's set operations on 1-D arrays: union1d, setdiff1d, setxor1d, intersect1d (eager, or under
jit with a static size=)."""
from __future__ import annotations

import builtins
from typing import Any

import padax.numpy as pnp
from padax.numpy import _dtypes as D
from padax.numpy._util import eager_values, promote, static_int, to_array


def _first(s: Any) -> Any:
    """Mask of the first element of each run of equal values of the sorted 1-D s."""
    if s.shape[0] == 0:
        return pnp.zeros((0,), dtype=D.bool_)
    return pnp.concatenate([pnp.ones((1,), dtype=D.bool_), pnp.not_equal(s[1:], s[:-1])])


def _compact(op: str, vals: Any, keep: Any, size: Any, fill_value: Any, default_fill: Any) -> Any:
    """vals[keep] (eager), or its first `size` entries padded with the fill value (jit-able)."""
    if size is None:
        return vals[pnp.nonzero(to_array(eager_values(op, keep)))[0]] if vals.shape[0] else vals
    size = static_int(op, size, "size")
    if vals.shape[0] == 0:
        return pnp.full((size,), 0 if fill_value is None else fill_value, dtype=vals.dtype)
    idx = pnp.nonzero(keep, size=size, fill_value=0)[0]
    out = pnp.take(vals, idx, axis=0)
    valid = pnp.arange(size) < pnp.sum(keep)
    if fill_value is None:
        fill_value = default_fill(out, valid)
    return pnp.where(valid, out, pnp.astype(to_array(fill_value), vals.dtype))


def _min_valid(out: Any, valid: Any) -> Any:
    """jax's default fill of intersect1d/setxor1d: the smallest result (0 when there is none)."""
    return pnp.where(pnp.any(valid), out[0], pnp.zeros((), out.dtype))


def _zero(out: Any, valid: Any) -> Any:
    return pnp.zeros((), out.dtype)


def union1d(ar1: Any, ar2: Any, *, size: int | None = None, fill_value: Any = None) -> Any:
    """Sorted unique values that are in either array.

    Args:
        ar1, ar2: arrays (flattened).
        size: a static result length (needed under jit); pads with fill_value (default: the smallest value).
        fill_value: the padding value.

    Returns:
        A 1-D array.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.union1d(pnp.array([3, 1]), pnp.array([2, 1])).tolist()
        [1, 2, 3]
    """
    a, b = promote(pnp.ravel(to_array(ar1)), pnp.ravel(to_array(ar2)))
    return pnp.unique(pnp.concatenate([a, b]), size=size, fill_value=fill_value)


def setdiff1d(ar1: Any, ar2: Any, assume_unique: bool = False, *, size: int | None = None,
              fill_value: Any = None) -> Any:
    """Unique values of ar1 not in ar2 (sorted; with assume_unique in ar1's order).

    Args:
        ar1, ar2: arrays (flattened).
        assume_unique: ar1 has no repeated values (keeps its order).
        size: a static result length (needed under jit); pads with fill_value (default 0).
        fill_value: the padding value.

    Returns:
        A 1-D array of ar1's dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.setdiff1d(pnp.array([5, 1, 3, 1]), pnp.array([3, 4])).tolist()
        [1, 5]
    """
    a = pnp.ravel(to_array(ar1))
    b = pnp.ravel(to_array(ar2))
    s = a if assume_unique else pnp.sort(a)
    keep = pnp.isin(s, b, invert=True)
    if not assume_unique:
        keep = pnp.logical_and(keep, _first(s))
    return _compact("setdiff1d", s, keep, size, fill_value, _zero)


def setxor1d(ar1: Any, ar2: Any, assume_unique: bool = False, *, size: int | None = None,
             fill_value: Any = None) -> Any:
    """Sorted unique values that are in exactly one of the arrays.

    Args:
        ar1, ar2: arrays (flattened).
        assume_unique: both arrays have no repeated values (not needed for correctness here).
        size: a static result length (needed under jit); pads with fill_value (default: the smallest result).
        fill_value: the padding value.

    Returns:
        A 1-D array.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.setxor1d(pnp.array([1, 2, 3]), pnp.array([2, 4])).tolist()
        [1, 3, 4]
    """
    a, b = promote(pnp.ravel(to_array(ar1)), pnp.ravel(to_array(ar2)))
    c = pnp.sort(pnp.concatenate([a, b]))
    keep = pnp.logical_and(_first(c), pnp.logical_xor(pnp.isin(c, a), pnp.isin(c, b)))
    return _compact("setxor1d", c, keep, size, fill_value, _min_valid)


def intersect1d(ar1: Any, ar2: Any, assume_unique: bool = False, return_indices: bool = False, *,
                size: int | None = None, fill_value: Any = None) -> Any:
    """Sorted unique values that are in both arrays (optionally with their first indices in each).

    Args:
        ar1, ar2: arrays (flattened).
        assume_unique: both arrays have no repeated values (not needed for correctness here).
        return_indices: also return the indices of the first occurrences in ar1 and ar2.
        size: a static result length (needed under jit); pads with fill_value (default: the smallest result);
            padded indices are ar1's and ar2's sizes.
        fill_value: the padding value.

    Returns:
        A 1-D array, or (values, indices in ar1, indices in ar2) with return_indices.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.intersect1d(pnp.array([4, 1, 3, 1]), pnp.array([3, 1, 7])).tolist()
        [1, 3]
    """
    a, b = promote(pnp.ravel(to_array(ar1)), pnp.ravel(to_array(ar2)))
    order_a = pnp.argsort(a, stable=True)
    sa = pnp.take(a, order_a)
    keep = pnp.logical_and(_first(sa), pnp.isin(sa, b))
    vals = _compact("intersect1d", sa, keep, size, fill_value, _min_valid)
    if not return_indices:
        return vals
    ia = _compact("intersect1d", order_a, keep, size, a.shape[0], _zero)
    order_b = pnp.argsort(b, stable=True)
    sb = pnp.take(b, order_b)
    pos = pnp.clip(pnp.searchsorted(sb, vals, side="left"), 0, builtins.max(b.shape[0] - 1, 0))
    ib = pnp.take(order_b, pos) if b.shape[0] else pos
    if size is not None:
        ib = pnp.where(pnp.arange(vals.shape[0]) < pnp.sum(keep), ib, b.shape[0])
    return vals, ia, ib


__all__ = ["union1d", "setdiff1d", "setxor1d", "intersect1d"]
