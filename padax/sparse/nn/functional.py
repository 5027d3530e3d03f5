"""`padax.sparse.nn.functional`: activations of sparse tensors (applied to the stored values), sparse
3-D convolutions and max pooling."""
from __future__ import annotations

import math
from typing import Any

import padax.numpy as pnp
from padax.sparse._ops import _coo, _require_sparse
from padax.sparse.nn._conv import conv3d, max_pool3d, subm_conv3d

__all__ = ["conv3d", "leaky_relu", "max_pool3d", "relu", "relu6", "softmax", "subm_conv3d"]


def relu(x: Any, name: str | None = None) -> Any:
    """max(x, 0) of each stored value of a sparse tensor (the pattern is kept).

    Args:
        x: a SparseCooTensor or SparseCsrTensor.
        name: unused (Paddle's).

    Returns:
        A sparse tensor of x's layout.

    Examples:
        >>> import padax
        >>> x = padax.sparse.sparse_coo_tensor([[0, 1]], [-1., 2.], [2])
        >>> padax.sparse.nn.functional.relu(x).values().tolist()
        [0.0, 2.0]
    """
    _require_sparse("nn.functional.relu", x)
    return x._with_values(pnp.maximum(x.values(), pnp.zeros((), x.dtype)))


def relu6(x: Any, name: str | None = None) -> Any:
    """min(max(x, 0), 6) of each stored value.

    Args:
        x: a sparse tensor.
        name: unused.

    Returns:
        A sparse tensor of x's layout.

    Examples:
        >>> import padax
        >>> x = padax.sparse.sparse_coo_tensor([[0, 1]], [-1., 8.], [2])
        >>> padax.sparse.nn.functional.relu6(x).values().tolist()
        [0.0, 6.0]
    """
    _require_sparse("nn.functional.relu6", x)
    return x._with_values(pnp.clip(x.values(), 0, 6).astype(x.dtype))


def leaky_relu(x: Any, negative_slope: float = 0.01, name: str | None = None) -> Any:
    """x if x >= 0 else negative_slope * x, for each stored value.

    Args:
        x: a sparse tensor.
        negative_slope: the slope for negative values.
        name: unused.

    Returns:
        A sparse tensor of x's layout.

    Examples:
        >>> import padax
        >>> x = padax.sparse.sparse_coo_tensor([[0, 1]], [-2., 2.], [2])
        >>> padax.sparse.nn.functional.leaky_relu(x, 0.5).values().tolist()
        [-1.0, 2.0]
    """
    _require_sparse("nn.functional.leaky_relu", x)
    v = x.values()
    return x._with_values(pnp.where(v >= 0, v, v * negative_slope).astype(x.dtype))


def softmax(x: Any, axis: int = -1, name: str | None = None) -> Any:
    """Softmax along the last axis over the stored entries only (missing entries are not -inf but absent).

    Each row (all indices but the last) is normalised over its stored values; the pattern is kept.

    Args:
        x: a sparse tensor without dense dims (COO or CSR).
        axis: must be -1.
        name: unused.

    Returns:
        A sparse tensor of x's layout and pattern.

    Examples:
        >>> import padax
        >>> x = padax.sparse.sparse_coo_tensor([[0, 0, 1], [0, 2, 1]], [1., 1., 5.], [2, 3])
        >>> padax.sparse.nn.functional.softmax(x).values().tolist()
        [0.5, 0.5, 1.0]
    """
    _require_sparse("nn.functional.softmax", x)
    if axis not in (-1, x.ndim - 1):
        raise ValueError(f"padax.sparse.nn.functional.softmax: only axis=-1 is supported (Paddle's), got {axis}")
    c = _coo(x)
    if c.dense_dim:
        raise ValueError("padax.sparse.nn.functional.softmax: x must have no dense dims")
    idx, v = c.indices(), c.values()
    lead = x.shape[:-1]
    groups = math.prod(lead)
    gid = pnp.zeros((v.shape[0],), "int64")
    stride = 1
    for i in reversed(range(len(lead))):
        gid = gid + idx[i] * stride
        stride *= lead[i]
    mx = pnp.full((groups,), -pnp.inf, v.dtype).at[gid].max(v)
    e = pnp.exp(v - mx[gid])
    den = pnp.zeros((groups,), v.dtype).at[gid].add(e)
    return x._with_values(e / den[gid])
