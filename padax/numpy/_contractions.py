"""jax.numpy's matvec and vecmat (batched matrix-vector products) and einsum_path (the contraction
order numpy's optimizer picks)."""
from __future__ import annotations

from typing import Any

import numpy as np

import padax.numpy as pnp
from padax.numpy._util import is_array, to_array


def matvec(x1: Any, x2: Any, /) -> Any:
    """Matrix-vector product over the last two axes of x1 and the last of x2 (broadcast batches).

    Args:
        x1: an array of shape (..., m, n).
        x2: an array of shape (..., n).

    Returns:
        An array of shape broadcast(x1[..., :, 0], x2[..., 0]).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.matvec(pnp.array([[1, 2], [3, 4]]), pnp.array([1, 1])).tolist()
        [3, 7]
    """
    v = to_array(x2)
    return pnp.matmul(to_array(x1), pnp.expand_dims(v, axis=-1))[..., 0]


def vecmat(x1: Any, x2: Any, /) -> Any:
    """Vector-matrix product: conj(x1) times x2 over x1's last and x2's second-to-last axis.

    Args:
        x1: an array of shape (..., m) (conjugated).
        x2: an array of shape (..., m, n).

    Returns:
        An array of shape broadcast(x1[..., 0], x2[..., 0, :]).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.vecmat(pnp.array([1, 1]), pnp.array([[1, 2], [3, 4]])).tolist()
        [4, 6]
    """
    v = pnp.conj(to_array(x1))
    return pnp.matmul(pnp.expand_dims(v, axis=-2), to_array(x2))[..., 0, :]


def einsum_path(subscripts: str, *operands: Any, optimize: Any = "greedy") -> tuple[list, str]:
    """The contraction order einsum would use for these operand shapes, and a text report (numpy's planner).

    Unlike jax.numpy's (opt_einsum's `PathInfo`), the path and report come from `numpy.einsum_path`:
    the path list starts with 'einsum_path'.

    Args:
        subscripts: the einsum equation.
        *operands: the arrays (only their shapes and dtypes are used).
        optimize: 'greedy', 'optimal', True/False or an explicit path.

    Returns:
        (path, report).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.einsum_path("ij,jk,kl->il", pnp.ones((2, 3)), pnp.ones((3, 4)), pnp.ones((4, 5)))[0]
        ['einsum_path', (1, 2), (0, 1)]
    """
    shapes = [np.broadcast_to(np.zeros((), o.aval.dtype if is_array(o) else np.asarray(o).dtype),
                              o.aval.shape if is_array(o) else np.shape(o)) for o in operands]
    return np.einsum_path(subscripts, *shapes, optimize=optimize)


__all__ = ["matvec", "vecmat", "einsum_path"]
