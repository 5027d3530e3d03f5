"""jax.numpy's orderings beyond sort: sort_complex, lexsort, partition and argpartition."""
from __future__ import annotations

from typing import Any

import padax.numpy as pnp
from padax import lax
from padax.core.errors import op_value_error
from padax.numpy import _dtypes as D
from padax.numpy._util import static_int, to_array


def sort_complex(a: Any) -> Any:
    """Sort by real part, then imaginary part; the result is complex.

    Args:
        a: 1-D (or N-D: sorted along the last axis) array.

    Returns:
        A complex array of a's shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.sort_complex(pnp.array([1 + 2j, 1 - 1j, 0 + 5j])).tolist()
        [5j, (1-1j), (1+2j)]
    """
    aa = to_array(a)
    if D.kind(aa.dtype) < 3:
        cdt = D.complex128 if aa.dtype == D.float64 else D.default_complex()
        aa = pnp.astype(aa, cdt)
    return pnp.sort(aa, axis=-1)


def lexsort(keys: Any, axis: int = -1) -> Any:
    """Indices that sort by the last key, then the one before, ... (a stable sort).

    Args:
        keys: a sequence of arrays of one shape, or a 2-D array whose rows are the keys.
        axis: the axis to sort along.

    Returns:
        An int64 array of indices of the keys' shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.lexsort([pnp.array([3, 1, 2]), pnp.array([1, 1, 0])]).tolist()
        [2, 1, 0]
    """
    ks = [to_array(k) for k in keys] if isinstance(keys, (list, tuple)) else list(pnp.unstack(to_array(keys)))
    if not ks:
        raise op_value_error("lexsort", "needs at least one key")
    shape = ks[0].shape
    if any(k.shape != shape for k in ks):
        raise op_value_error("lexsort", f"all keys must have one shape, got {[k.shape for k in ks]}")
    if len(shape) == 0:
        return pnp.zeros((), D.int64)
    ax = axis % len(shape)
    iota = lax.broadcasted_iota(D.int64, shape, ax)
    out = lax.sort(tuple(ks[::-1]) + (iota,), dimension=ax, is_stable=True, num_keys=len(ks))
    return out[-1]


def _kth(op: str, kth: Any, n: int) -> int:
    k = static_int(op, kth, "kth")
    if not -n <= k < n:
        raise op_value_error(op, f"kth {k} is out of range for an axis of length {n}")
    return k % n


def partition(a: Any, kth: int, axis: int = -1) -> Any:
    """Partially sort: the kth element in its sorted place, smaller ones (ascending) before, larger after.

    Args:
        a: an array.
        kth: the index that ends in its sorted position.
        axis: the axis to partition along.

    Returns:
        An array of a's shape: the first kth + 1 entries ascending, the rest descending (as jax).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.partition(pnp.array([5, 1, 4, 2, 3]), 2).tolist()
        [1, 2, 3, 5, 4]
    """
    aa = pnp.moveaxis(to_array(a), axis, -1)
    n = aa.shape[-1]
    k = _kth("partition", kth, n)
    s = pnp.sort(aa, axis=-1)
    out = pnp.concatenate([s[..., :k + 1], pnp.flip(s[..., k + 1:], axis=-1)], axis=-1)
    return pnp.moveaxis(out, -1, axis)


def argpartition(a: Any, kth: int, axis: int = -1) -> Any:
    """Indices that partition a (see `partition`): the kth smallest's index at position kth.

    Args:
        a: an array.
        kth: the position that holds the index of the kth smallest element.
        axis: the axis to partition along.

    Returns:
        An int64 array of a's shape: indices of the kth + 1 smallest (ascending), then the others in index
        order (as jax).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.argpartition(pnp.array([5, 1, 4, 2, 3]), 1).tolist()
        [1, 3, 0, 2, 4]
    """
    aa = pnp.moveaxis(to_array(a), axis, -1)
    n = aa.shape[-1]
    k = _kth("argpartition", kth, n)
    order = pnp.argsort(aa, axis=-1, stable=True)
    bottom = order[..., :k + 1]
    rank = pnp.argsort(order, axis=-1, stable=True)  # the sorted position of each index
    rest = pnp.argsort(pnp.astype(rank <= k, D.int32), axis=-1, stable=True)[..., :n - k - 1]
    return pnp.moveaxis(pnp.concatenate([bottom, rest], axis=-1), -1, axis)


__all__ = ["sort_complex", "lexsort", "partition", "argpartition"]
