"""jax.numpy's shape helpers: block (an array assembled from nested blocks), resize, rollaxis and
trim_zeros (leading/trailing zeros cropped, eagerly)."""
from __future__ import annotations

import builtins
from typing import Any, Sequence

import numpy as np

import padax.numpy as pnp
from padax import lax
from padax.core.errors import op_type_error, op_value_error
from padax.numpy._util import axis as _axis, eager_values, is_array, static_value, to_array


def _block_depth(x: Any, where: str) -> tuple[builtins.int, builtins.int]:
    """(list nesting depth, largest leaf ndim) of a block() argument; tuples and ragged depths are errors."""
    if isinstance(x, tuple):
        raise op_type_error("block", f"{where} is a tuple; block takes nested lists only")
    if isinstance(x, list):
        if not x:
            raise op_value_error("block", f"{where} is an empty list")
        found = [_block_depth(e, f"{where}[{i}]") for i, e in enumerate(x)]
        depths = {d for d, _ in found}
        if len(depths) != 1:
            raise op_value_error("block", f"list depths are mismatched under {where}")
        return 1 + found[0][0], builtins.max(m for _, m in found)
    return 0, np.ndim(x) if not is_array(x) else x.aval.ndim


def block(arrays: Any) -> Any:
    """One array assembled from nested lists of blocks (innermost lists join along the last axis).

    Args:
        arrays: nested lists of arrays/scalars; depth d joins the innermost lists along axis -1, the next
            along -2, ...; every block is first lifted to the same rank with leading 1s.

    Returns:
        The assembled array (dtypes promote).

    Examples:
        >>> import padax.numpy as pnp
        >>> a, b = pnp.ones((2, 2)), pnp.zeros((2, 1))
        >>> pnp.block([[a, b], [pnp.zeros((1, 3))]]).tolist()
        [[1.0, 1.0, 0.0], [1.0, 1.0, 0.0], [0.0, 0.0, 0.0]]
    """
    depth, leaf_nd = _block_depth(arrays, "arrays")
    nd = builtins.max(depth, leaf_nd)

    def build(x: Any, level: builtins.int) -> Any:
        if isinstance(x, list):
            return pnp.concatenate([build(e, level + 1) for e in x], axis=-(depth - level))
        a = to_array(x)
        return lax.reshape(a, (1,) * (nd - a.aval.ndim) + a.aval.shape)

    return build(arrays, 0)


def resize(a: Any, new_shape: Any) -> Any:
    """An array of `new_shape` filled with a's flattened elements, repeated cyclically.

    Args:
        a: an array.
        new_shape: an int or a tuple of ints (static).

    Returns:
        An array of new_shape and a's dtype (zeros if a or the result is empty).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.resize(pnp.array([1, 2, 3]), (2, 4)).tolist()
        [[1, 2, 3, 1], [2, 3, 1, 2]]
    """
    shape = (new_shape,) if isinstance(new_shape, (builtins.int, np.integer)) else tuple(new_shape)
    shape = tuple(builtins.int(static_value("resize", s, "new_shape")) for s in shape)
    if builtins.any(s < 0 for s in shape):
        raise op_value_error("resize", f"new_shape must be non-negative, got {shape}")
    x = pnp.ravel(to_array(a))
    size = builtins.int(np.prod(shape, dtype=np.int64))
    if x.aval.size == 0 or size == 0:
        return pnp.zeros(shape, dtype=x.aval.dtype)
    return lax.reshape(pnp.take(x, np.arange(size) % x.aval.size), shape)


def rollaxis(a: Any, axis: builtins.int, start: builtins.int = 0) -> Any:
    """a with `axis` moved to sit before position `start` (numpy's older form of moveaxis).

    Args:
        a: an array.
        axis: the axis to move.
        start: the position before which it goes (in the original numbering).

    Returns:
        a with its axes reordered.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.rollaxis(pnp.zeros((2, 3, 4)), 2).shape, pnp.rollaxis(pnp.zeros((2, 3, 4)), 0, 2).shape
        ((4, 2, 3), (3, 2, 4))
    """
    x = to_array(a)
    nd = x.aval.ndim
    ax = _axis("rollaxis", axis, nd)
    if not -nd <= start <= nd:
        raise op_value_error("rollaxis", f"start={start} must be in [{-nd}, {nd}]")
    if start < 0:
        start += nd
    if start > ax:
        start -= 1
    return pnp.moveaxis(x, ax, start)


def trim_zeros(filt: Any, trim: str = "fb", axis: int | Sequence[int] | None = None) -> Any:
    """Drop leading ('f') and/or trailing ('b') zeros (eager only: the result's shape depends on the values).

    Args:
        filt: an array.
        trim: 'f', 'b' or 'fb' (both).
        axis: the axes to trim (None: all); a slice is trimmed where it is all zero.

    Returns:
        The trimmed array (a view of filt's values).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.trim_zeros(pnp.array([0, 0, 1, 2, 0])).tolist()
        [1, 2]
    """
    fa = to_array(filt)
    host = eager_values("trim_zeros", fa) != 0
    if not isinstance(trim, str):
        raise op_type_error("trim_zeros", f"trim must be a str ('f', 'b' or 'fb'), got {type(trim).__name__}")
    trim = trim.lower()
    if not set(trim) <= {"f", "b"}:
        raise op_value_error("trim_zeros", f"trim must be 'f', 'b' or 'fb', got {trim!r}")
    axes = builtins.range(fa.ndim) if axis is None else [axis] if isinstance(axis, builtins.int) else axis
    index = [slice(None)] * fa.ndim
    for ax in axes:
        ax = builtins.int(ax) % fa.ndim
        other = tuple(i for i in builtins.range(fa.ndim) if i != ax)
        nz = np.flatnonzero(host.any(axis=other) if other else host)
        if nz.size == 0:
            index[ax] = slice(0, 0)
            continue
        start = builtins.int(nz[0]) if "f" in trim else 0
        stop = builtins.int(nz[-1]) + 1 if "b" in trim else fa.shape[ax]
        index[ax] = slice(start, stop)
    return fa[tuple(index)]


__all__ = ["block", "resize", "rollaxis", "trim_zeros"]
