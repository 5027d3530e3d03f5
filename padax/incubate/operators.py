"""Paddle's `paddle.incubate` operators: the masked softmaxes of attention (fused kernels in Paddle, a
composition here that XLA fuses) and graph_send_recv (padax.geometric.send_u_recv under its old name)."""
from __future__ import annotations

from typing import Any

import numpy as np

import padax
from padax.core.errors import op_value_error
from padax.geometric import send_u_recv
from padax.nn.functional import softmax

__all__ = ["graph_send_recv", "softmax_mask_fuse", "softmax_mask_fuse_upper_triangle"]


def _float4d(op: str, x: Any, what: str = "x") -> Any:
    x = padax.asarray(x)
    if x.ndim != 4 or not padax.is_floating_point(x):
        raise op_value_error(op, f"{what} must be a 4-D floating Tensor [batch, heads, seq_q, seq_k], got "
                                 f"{x.dtype}{list(x.shape)}")
    return x


def softmax_mask_fuse(x: Any, mask: Any, name: str | None = None) -> Any:
    """softmax(x + mask) over the last axis: attention scores with an additive mask (0 to keep, a large
    negative value to drop), computed in float32 for float16/bfloat16 inputs and returned in x's dtype.

    Args:
        x: [batch, heads, seq_q, seq_k] scores.
        mask: [batch, 1, seq_q, seq_k] (broadcast over the heads), x's dtype.

    Returns:
        The probabilities, x's shape and dtype.

    Examples:
        >>> import padax
        >>> x = padax.zeros([1, 1, 1, 2])
        >>> padax.incubate.softmax_mask_fuse(x, padax.to_tensor([[[[0.0, -1e4]]]])).tolist()
        [[[[1.0, 0.0]]]]
    """
    op = "softmax_mask_fuse"
    x, mask = _float4d(op, x), _float4d(op, mask, "mask")
    if mask.shape[1] != 1 or mask.shape[0] != x.shape[0] or tuple(mask.shape[2:]) != tuple(x.shape[2:]):
        raise op_value_error(op, f"mask must be [batch, 1, seq_q, seq_k] = [{x.shape[0]}, 1, {x.shape[2]}, "
                                 f"{x.shape[3]}] for x {list(x.shape)}, got {list(mask.shape)}")
    return softmax(x.astype("float32") + mask.astype("float32"), axis=-1).astype(x.dtype)


def softmax_mask_fuse_upper_triangle(x: Any) -> Any:
    """softmax over the last axis with the upper triangle masked out: row i attends to columns 0..i only
    (the causal mask of a decoder), in float32 for float16/bfloat16 inputs.

    Args:
        x: [batch, heads, seq, seq] scores.

    Returns:
        The probabilities, x's shape and dtype.

    Examples:
        >>> import padax
        >>> padax.incubate.softmax_mask_fuse_upper_triangle(padax.zeros([1, 1, 2, 2])).tolist()
        [[[[1.0, 0.0], [0.5, 0.5]]]]
    """
    op = "softmax_mask_fuse_upper_triangle"
    x = _float4d(op, x)
    if x.shape[2] != x.shape[3]:
        raise op_value_error(op, f"x must be square in its last two axes, got {list(x.shape)}")
    keep = padax.to_tensor(np.tril(np.ones(x.shape[2:], dtype=bool)))
    scores = padax.where(keep, x.astype("float32"), padax.full([], -np.inf, "float32"))
    return softmax(scores, axis=-1).astype(x.dtype)


def graph_send_recv(x: Any, src_index: Any, dst_index: Any, pool_type: str = "sum", out_size: Any = None,
                    name: str | None = None) -> Any:
    """Paddle's older name of `padax.geometric.send_u_recv`: gather x's rows at src_index and reduce them
    ('sum', 'mean', 'max' or 'min') into the rows at dst_index.

    Args:
        x: the node features [N, ...].
        src_index, dst_index: the edges' source and destination node ids.
        pool_type: 'sum', 'mean', 'max' or 'min'.
        out_size: the number of output rows (default: x's).

    Returns:
        [out_size, ...] reduced messages.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1.0], [2.0], [3.0]])
        >>> padax.incubate.graph_send_recv(x, padax.to_tensor([0, 1, 2]), padax.to_tensor([1, 1, 0])).tolist()
        [[3.0], [3.0], [0.0]]
    """
    return send_u_recv(x, src_index, dst_index, reduce_op=pool_type, out_size=out_size)
