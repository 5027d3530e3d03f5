"""Distances and similarities: pairwise_distance, pdist, cosine_similarity."""
from __future__ import annotations

from typing import Any

import numpy as np

from padax.core.errors import op_value_error
from padax.functional import math as M, reduction as R
from padax.functional._arrays import asarray, broadcast_shapes, broadcast_to, canonicalize_axis, result_dtype
from padax.functional.indexed import take_axis
from padax.nn.functional._util import float_array, vector_norm


def _pair(op: str, x: Any, y: Any) -> tuple[Any, Any]:
    x, y = float_array(op, x, "x"), float_array(op, y, "y")
    dt, _ = result_dtype(x, y)
    return M.cast(x, dt), M.cast(y, dt)


def pairwise_distance(x: Any, y: Any, p: float = 2.0, epsilon: float = 1e-06, keepdim: bool = False,
                      name: str | None = None) -> Any:
    """||x - y + epsilon||_p along the last axis (x and y broadcast).

    Args:
        x, y: broadcastable Tensors [N, D] (or [D]).
        p: the order of the norm.
        epsilon: added to x - y.
        keepdim: keep the last axis with size 1.

    Returns:
        The distances [N] ([N, 1] with keepdim).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.pairwise_distance(padax.to_tensor([[0.0, 0.0]]), padax.to_tensor([[3.0, 4.0]]), epsilon=0.0).tolist()
        [5.0]
        >>> F.pairwise_distance(padax.to_tensor([[0.0, 0.0]]), padax.to_tensor([[3.0, 4.0]]), p=float("inf")).tolist()
        [4.0]
    """
    x, y = _pair("pairwise_distance", x, y)
    d = M.add(M.subtract(x, y), epsilon) if epsilon else M.subtract(x, y)
    return vector_norm(d, float(p), -1, keepdim)


def pdist(x: Any, p: float = 2.0, name: str | None = None) -> Any:
    """The p-norm distances between the rows of a 2-D x, for every pair i < j in row-major order.

    Args:
        x: a 2-D Tensor [N, M].
        p: the order of the norm.

    Returns:
        A 1-D Tensor of the N * (N - 1) / 2 distances.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.pdist(padax.to_tensor([[0.0, 0.0], [3.0, 4.0], [0.0, 1.0]])).tolist()
        [5.0, 1.0, 4.2426]
    """
    op = "pdist"
    x = float_array(op, x, "x")
    if x.aval.ndim != 2:
        raise op_value_error(op, f"x must be 2-D, got {x.aval.str_short()}")
    n = x.aval.shape[0]
    i, j = np.triu_indices(n, 1)
    a = take_axis(x, asarray(i.astype(np.int32)), 0)
    b = take_axis(x, asarray(j.astype(np.int32)), 0)
    return vector_norm(M.subtract(a, b), float(p), -1)


def cosine_similarity(x1: Any, x2: Any, axis: int = 1, eps: float = 1e-08) -> Any:
    """sum(x1 * x2) / sqrt(max(sum(x1**2) * sum(x2**2), eps**2)) along `axis` (x1, x2 broadcast).

    Args:
        x1, x2: broadcastable Tensors.
        axis: the axis reduced.
        eps: a lower bound on the product of the norms.

    Returns:
        The similarities, the broadcast shape without `axis`.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.cosine_similarity(padax.to_tensor([[1.0, 0.0], [1.0, 1.0]]), padax.to_tensor([[1.0, 1.0]])).tolist()
        [0.7071, 1.0]
    """
    op = "cosine_similarity"
    x1, x2 = _pair(op, x1, x2)
    shape = broadcast_shapes(op, x1.aval.shape, x2.aval.shape)
    x1, x2 = broadcast_to(x1, shape), broadcast_to(x2, shape)
    a = canonicalize_axis(op, axis, len(shape))
    w12 = R.sum(M.multiply(x1, x2), axis=a)
    w1 = R.sum(M.square(x1), axis=a)
    w2 = R.sum(M.square(x2), axis=a)
    return M.divide(w12, M.sqrt(M.maximum(M.multiply(w1, w2), eps * eps)))

