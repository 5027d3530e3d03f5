"""`padax.sparse.nn.functional`: activations of sparse tensors (applied to the stored values), sparse
2-D / 3-D convolutions, 3-D max pooling and sparse attention."""
from __future__ import annotations

import math
from typing import Any

import padax
import padax.numpy as pnp
from padax.sparse._ops import _coo, _require_sparse, masked_matmul, matmul
from padax.sparse._tensor import SparseCsrTensor
from padax.sparse.nn._conv import conv2d, conv3d, max_pool3d, subm_conv2d, subm_conv3d

__all__ = ["attention", "conv2d", "conv3d", "leaky_relu", "max_pool3d", "relu", "relu6", "softmax", "subm_conv2d",
           "subm_conv2d_igemm", "subm_conv3d", "subm_conv3d_igemm"]


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
    if c.dense_dim():
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


def attention(query: Any, key: Any, value: Any, sparse_mask: Any, key_padding_mask: Any = None,
              attn_mask: Any = None, name: str | None = None) -> Any:
    """softmax(Q K^T / sqrt(d)) V with the scores computed and normalised only on a sparse (CSR) layout.

    Positions where key_padding_mask or attn_mask is 0 are left out of the softmax (Paddle's masks).
    Paddle 3.3 runs this on CUDA only; padax's is a composite of `masked_matmul`, the sparse softmax
    and `matmul`, so it runs everywhere and differentiates with respect to query, key and value.

    Args:
        query: [batch, heads, seq, head_dim].
        key: [batch, heads, seq, head_dim].
        value: [batch, heads, seq, head_dim].
        sparse_mask: SparseCsrTensor [batch * heads, seq, seq]: the layout (its values are not used).
        key_padding_mask: [batch, seq] or None.
        attn_mask: [seq, seq] or None.
        name: unused.

    Returns:
        [batch, heads, seq, head_dim].

    Examples:
        >>> import padax
        >>> q = padax.ones([1, 1, 2, 2])
        >>> mask = padax.sparse.sparse_csr_tensor([0, 1, 3], [0, 0, 1], [1., 1., 1.], [1, 2, 2])
        >>> padax.sparse.nn.functional.attention(q, q, q, mask).shape
        (1, 1, 2, 2)
    """
    query, key, value = padax.asarray(query), padax.asarray(key), padax.asarray(value)
    if query.ndim != 4 or key.shape != query.shape or value.shape[:3] != query.shape[:3]:
        raise ValueError(f"padax.sparse.nn.functional.attention: query, key, value must be [batch, heads, seq, dim] "
                         f"alike, got {list(query.shape)}, {list(key.shape)}, {list(value.shape)}")
    if not isinstance(sparse_mask, SparseCsrTensor):
        raise TypeError("padax.sparse.nn.functional.attention: sparse_mask must be a SparseCsrTensor")
    b, h, s, d = query.shape
    if sparse_mask.shape != (b * h, s, s):
        raise ValueError(f"padax.sparse.nn.functional.attention: sparse_mask must be [{b * h}, {s}, {s}], got "
                         f"{list(sparse_mask.shape)}")
    q, k, v = (t.reshape(b * h, s, t.shape[-1]) for t in (query, key, value))
    scores = masked_matmul(q, pnp.swapaxes(k, -1, -2), sparse_mask)
    vals = scores.values() / (d ** 0.5)
    if key_padding_mask is not None or attn_mask is not None:
        idx = _coo(scores).indices()
        keep = pnp.ones(vals.shape, bool)
        if key_padding_mask is not None:
            keep = keep & (padax.asarray(key_padding_mask)[idx[0] // h, idx[2]] != 0)
        if attn_mask is not None:
            keep = keep & (padax.asarray(attn_mask)[idx[1], idx[2]] != 0)
        vals = pnp.where(keep, vals, -pnp.inf)
    probs = softmax(scores._with_values(vals))
    return matmul(probs, v).reshape(b, h, s, value.shape[-1])


def subm_conv2d_igemm(x: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0, dilation: Any = 1,
                      groups: int = 1, data_format: str = "NHWC", key: str | None = None,
                      name: str | None = None) -> Any:
    """`subm_conv2d` (Paddle's implicit-GEMM CUDA variant; one computation in padax).

    Args:
        x: SparseCooTensor [N, H, W, C_in].
        weight: [kH, kW, C_in, C_out].
        bias: [C_out] or None.
        stride: must be 1.
        padding: ignored (the kernel is centred).
        dilation: int or 2 ints.
        groups: must be 1.
        data_format: must be 'NHWC'.
        key: unused.
        name: unused.

    Returns:
        SparseCooTensor [N, H, W, C_out].

    Examples:
        >>> import padax
        >>> x = padax.sparse.sparse_coo_tensor([[0, 0], [0, 0], [0, 1]], [[1.], [2.]], [1, 1, 2, 1])
        >>> padax.sparse.nn.functional.subm_conv2d_igemm(x, padax.ones([1, 3, 1, 1])).values().tolist()
        [[3.0], [3.0]]
    """
    return subm_conv2d(x, weight, bias, stride, padding, dilation, groups, data_format, key, name)


def subm_conv3d_igemm(x: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0, dilation: Any = 1,
                      groups: int = 1, data_format: str = "NDHWC", key: str | None = None,
                      name: str | None = None) -> Any:
    """`subm_conv3d` (Paddle's implicit-GEMM CUDA variant; one computation in padax).

    Args:
        x: SparseCooTensor [N, D, H, W, C_in].
        weight: [kD, kH, kW, C_in, C_out].
        bias: [C_out] or None.
        stride: must be 1.
        padding: ignored (the kernel is centred).
        dilation: int or 3 ints.
        groups: must be 1.
        data_format: must be 'NDHWC'.
        key: unused.
        name: unused.

    Returns:
        SparseCooTensor [N, D, H, W, C_out].

    Examples:
        >>> import padax
        >>> x = padax.sparse.sparse_coo_tensor([[0, 0], [0, 0], [0, 0], [0, 1]], [[1.], [2.]], [1, 1, 1, 2, 1])
        >>> padax.sparse.nn.functional.subm_conv3d_igemm(x, padax.ones([1, 1, 3, 1, 1])).values().tolist()
        [[3.0], [3.0]]
    """
    return subm_conv3d(x, weight, bias, stride, padding, dilation, groups, data_format, key, name)
