"""jax.numpy's diagonals and triangles of existing arrays: fill_diagonal, diag_indices_from,
tril_indices_from/triu_indices_from and mask_indices."""
from __future__ import annotations

import builtins
from typing import Any, Callable

import numpy as np

import padax.numpy as pnp
from padax import lax
from padax.core.errors import op_value_error
from padax.core.trace import Tracer
from padax.numpy._util import refuse_inplace, to_array


def _square_nd(op: str, a: Any) -> None:
    s = a.aval.shape
    if len(s) < 2:
        raise op_value_error(op, f"the array must be at least 2-D, got {a.aval.str_short()}")
    if len(s) > 2 and builtins.any(d != s[0] for d in s[1:]):
        raise op_value_error(op, f"all dimensions must have equal length, got {a.aval.str_short()}")


def fill_diagonal(a: Any, val: Any, wrap: builtins.bool = False, *, inplace: builtins.bool = True) -> Any:
    """a with its main diagonal set to `val` (functional: pass inplace=False, as jax.numpy requires).

    Args:
        a: an array of rank >= 2 (all dimensions equal when rank > 2).
        val: a scalar or array; its flattened values repeat along the diagonal.
        wrap: for tall 2-D arrays, continue the diagonal after every `cols + 1` rows (numpy's wrap).
        inplace: must be False (padax arrays are immutable).

    Returns:
        A new array of a's shape and dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.fill_diagonal(pnp.zeros((3, 3)), pnp.array([1.0, 2.0, 3.0]), inplace=False).tolist()
        [[1.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 3.0]]
    """
    if inplace:
        refuse_inplace("fill_diagonal")
    a = to_array(a)
    _square_nd("fill_diagonal", a)
    shape = a.aval.shape
    size = builtins.int(np.prod(shape))
    if len(shape) == 2:
        step, end = shape[1] + 1, (None if wrap else shape[1] * shape[1])
    else:
        step, end = 1 + builtins.int(np.cumprod(shape[:-1]).sum()), None
    flat = np.arange(size)[:end:step]
    if flat.size == 0:
        return a
    v = pnp.ravel(to_array(val, a.aval.dtype))
    if v.aval.shape[0] == 0:
        return a
    v = pnp.take(v, np.arange(flat.size) % v.aval.shape[0])
    return lax.reshape(pnp.ravel(a).at[flat].set(v), shape)


def diag_indices_from(arr: Any) -> tuple[Any, ...]:
    """Indices of the main diagonal of `arr` (rank >= 2, all dimensions equal).

    Args:
        arr: an array of rank >= 2 with all dimensions equal.

    Returns:
        A tuple of arr.ndim int64 arrays, each `arange(n)`.

    Examples:
        >>> import padax.numpy as pnp
        >>> [i.tolist() for i in pnp.diag_indices_from(pnp.zeros((2, 2)))]
        [[0, 1], [0, 1]]
    """
    a = to_array(arr)
    _square_nd("diag_indices_from", a)
    return pnp.diag_indices(a.aval.shape[0], a.aval.ndim)


def _tri_from(op: str, arr: Any, k: builtins.int, lower: builtins.bool) -> tuple[Any, Any]:
    a = to_array(arr)
    if a.aval.ndim != 2:
        raise op_value_error(op, f"only 2-D inputs are accepted, got {a.aval.str_short()}")
    fn = pnp.tril_indices if lower else pnp.triu_indices
    return fn(a.aval.shape[0], k=k, m=a.aval.shape[1])


def tril_indices_from(arr: Any, k: builtins.int = 0) -> tuple[Any, Any]:
    """Row and column indices of the lower triangle (on and below diagonal `k`) of the 2-D `arr`.

    Args:
        arr: a 2-D array (only its shape is used).
        k: the diagonal offset (positive: above the main diagonal).

    Returns:
        (rows, cols), two int64 arrays.

    Examples:
        >>> import padax.numpy as pnp
        >>> [i.tolist() for i in pnp.tril_indices_from(pnp.zeros((2, 3)))]
        [[0, 1, 1], [0, 0, 1]]
    """
    return _tri_from("tril_indices_from", arr, k, True)


def triu_indices_from(arr: Any, k: builtins.int = 0) -> tuple[Any, Any]:
    """Row and column indices of the upper triangle (on and above diagonal `k`) of the 2-D `arr`.

    Args:
        arr: a 2-D array (only its shape is used).
        k: the diagonal offset (positive: above the main diagonal).

    Returns:
        (rows, cols), two int64 arrays.

    Examples:
        >>> import padax.numpy as pnp
        >>> [i.tolist() for i in pnp.triu_indices_from(pnp.zeros((2, 3)), k=1)]
        [[0, 0, 1], [1, 2, 2]]
    """
    return _tri_from("triu_indices_from", arr, k, False)


def mask_indices(n: builtins.int, mask_func: Callable, k: builtins.int = 0, *,
                 size: builtins.int | None = None) -> tuple[Any, Any]:
    """Indices where `mask_func(ones((n, n)), k)` is nonzero (e.g. mask_func=triu gives the upper triangle).

    Args:
        n: the side of the square.
        mask_func: a function like tril/triu taking (array, k).
        k: passed to mask_func.
        size: a static count of indices to return (needed under jit), as nonzero's.

    Returns:
        (rows, cols), two int64 arrays.

    Examples:
        >>> import padax.numpy as pnp
        >>> [i.tolist() for i in pnp.mask_indices(2, pnp.triu)]
        [[0, 0, 1], [0, 1, 1]]
    """
    mask = mask_func(pnp.ones((n, n)), k)
    if size is None and not isinstance(mask, Tracer):  # eager: the indices are read on the host
        return tuple(to_array(i.astype(np.int64)) for i in np.nonzero(np.asarray(mask)))
    return pnp.nonzero(mask, size=size)


__all__ = ["fill_diagonal", "diag_indices_from", "tril_indices_from", "triu_indices_from", "mask_indices"]
