"""Message passing on graphs given as edge lists: gather from source nodes, combine, scatter-reduce.

Composites of padax's gather and scatter (`x[src]`, `x.at[dst].add/max/min`), so grad, vmap and jit
come from those ops' rules. The output's first dimension is `out_size` when it is a positive int,
else x's first dimension, as Paddle's kernels; nodes that receive no message are 0 for every reduction.
"""
from __future__ import annotations

from typing import Any

import numpy as np

import padax

_REDUCE_OPS = ("sum", "mean", "max", "min")
_MESSAGE_OPS = ("add", "sub", "mul", "div")


def _check(op: str, what: str, value: str, allowed: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value.lower() not in allowed:
        raise ValueError(f"{op}: {what} must be one of {list(allowed)}, got {value!r}")
    return value.lower()


def _index(op: str, what: str, idx: Any) -> Any:
    idx = padax.asarray(idx)
    if idx.dtype not in (padax.int32, padax.int64):
        raise TypeError(f"{op}: {what} must be int32 or int64, got {idx.dtype}")
    if idx.ndim == 2 and idx.shape[1] == 1:
        idx = idx.reshape([-1])
    if idx.ndim != 1:
        raise ValueError(f"{op}: {what} must be 1-D ([num_edges] or [num_edges, 1]), got shape {tuple(idx.shape)}")
    return idx


def _rows(op: str, out_size: Any, default: int) -> int:
    """out_size as a static int (Paddle: None or <= 0 means `default`)."""
    if out_size is None:
        return default
    try:
        n = int(np.asarray(out_size).reshape(-1)[0]) if not isinstance(out_size, int) else out_size
    except TypeError as e:
        raise TypeError(f"{op}: out_size must be a concrete int (it sets the output's shape); under jit pass a "
                        f"Python int, or mark it static (static_argnames)") from e
    return n if n > 0 else default


def _column(v: Any) -> Any:
    """Paddle's message ops read a 1-D feature array [n] as [n, 1]."""
    return v.reshape([-1, 1]) if v.ndim == 1 else v


def _message(x: Any, y: Any, message_op: str) -> Any:
    if message_op == "add":
        return x + y
    if message_op == "sub":
        return x - y
    if message_op == "mul":
        return x * y
    return x / y


def _count(dst: Any, rows: int) -> Any:
    return padax.zeros([rows], dtype=padax.int32).at[dst].add(padax.ones(dst.shape, dtype=padax.int32))


def _reduce(msg: Any, dst: Any, rows: int, reduce_op: str) -> Any:
    """Scatter-reduce messages msg [E, ...] into `rows` rows at dst; empty rows are 0."""
    shape = [rows, *msg.shape[1:]]
    dtype = msg.dtype
    if reduce_op == "sum":
        return padax.zeros(shape, dtype=dtype).at[dst].add(msg)
    count = _count(dst, rows).reshape([rows] + [1] * (msg.ndim - 1))
    if reduce_op == "mean":
        total = padax.zeros(shape, dtype=dtype).at[dst].add(msg)
        denom = padax.maximum(count, padax.ones_like(count))
        if padax.is_floating_point(msg) or padax.is_complex(msg):
            return total / denom.astype(dtype)
        return (total.astype(padax.float64) / denom.astype(padax.float64)).astype(dtype)
    if padax.is_floating_point(msg):
        init = -np.inf if reduce_op == "max" else np.inf
    else:
        info = padax.iinfo(dtype)
        init = info.min if reduce_op == "max" else info.max
    start = padax.full(shape, init, dtype=dtype)
    out = start.at[dst].max(msg) if reduce_op == "max" else start.at[dst].min(msg)
    return padax.where(count > 0, out, padax.zeros_like(out))


def send_u_recv(x: Any, src_index: Any, dst_index: Any, reduce_op: str = "sum", out_size: Any = None,
                name: str | None = None) -> Any:
    """Graph message passing: each edge sends x[src] to node dst, and every node reduces what it receives.

    Args:
        x: node features [num_nodes, ...].
        src_index: source node of each edge, int32/int64 [num_edges].
        dst_index: destination node of each edge, same dtype and shape as src_index.
        reduce_op: "sum" (default), "mean", "max" or "min"; a node that receives nothing gets 0.
        out_size: the number of output rows; None or <= 0 means x.shape[0] (a Python int under jit).
        name: unused (Paddle's).

    Returns:
        An array [out_size, ...] of x's dtype.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[0., 2., 3.], [1., 4., 5.], [2., 6., 7.]])
        >>> src = padax.to_tensor([0, 1, 2, 0])
        >>> dst = padax.to_tensor([1, 2, 1, 0])
        >>> padax.geometric.send_u_recv(x, src, dst, reduce_op="sum").tolist()
        [[0.0, 2.0, 3.0], [2.0, 8.0, 10.0], [1.0, 4.0, 5.0]]
    """
    reduce_op = _check("send_u_recv", "reduce_op", reduce_op, _REDUCE_OPS)
    x = padax.asarray(x)
    src = _index("send_u_recv", "src_index", src_index)
    dst = _index("send_u_recv", "dst_index", dst_index)
    rows = _rows("send_u_recv", out_size, x.shape[0])
    return _reduce(x[src], dst, rows, reduce_op)


def send_ue_recv(x: Any, y: Any, src_index: Any, dst_index: Any, message_op: str = "add", reduce_op: str = "sum",
                 out_size: Any = None, name: str | None = None) -> Any:
    """Graph message passing with edge features: each edge sends x[src] (op) y[edge] to dst, then reduce.

    Args:
        x: node features [num_nodes, ...].
        y: edge features [num_edges, ...], broadcastable against x's trailing dimensions (a 1-D x or y
            is read as a column, [n, 1], as Paddle).
        src_index: source node of each edge, int32/int64 [num_edges].
        dst_index: destination node of each edge.
        message_op: "add" (default), "sub", "mul" or "div".
        reduce_op: "sum" (default), "mean", "max" or "min"; a node that receives nothing gets 0.
        out_size: the number of output rows; None or <= 0 means x.shape[0].
        name: unused (Paddle's).

    Returns:
        An array [out_size, *broadcast(x.shape[1:], y.shape[1:])].

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[0., 2.], [1., 4.], [2., 6.]])
        >>> y = padax.to_tensor([1., 1., 1., 1.]).reshape([4, 1])
        >>> src = padax.to_tensor([0, 1, 2, 0])
        >>> dst = padax.to_tensor([1, 2, 1, 0])
        >>> padax.geometric.send_ue_recv(x, y, src, dst, "add", "max").tolist()
        [[1.0, 3.0], [3.0, 7.0], [2.0, 5.0]]
    """
    message_op = _check("send_ue_recv", "message_op", message_op, _MESSAGE_OPS)
    reduce_op = _check("send_ue_recv", "reduce_op", reduce_op, _REDUCE_OPS)
    src = _index("send_ue_recv", "src_index", src_index)
    dst = _index("send_ue_recv", "dst_index", dst_index)
    x, y = _column(padax.asarray(x)), _column(padax.asarray(y))
    if y.shape[0] != src.shape[0]:
        raise ValueError(f"send_ue_recv: y needs one row per edge ({src.shape[0]}), got shape {tuple(y.shape)}")
    rows = _rows("send_ue_recv", out_size, x.shape[0])
    return _reduce(_message(x[src], y, message_op), dst, rows, reduce_op)


def send_uv(x: Any, y: Any, src_index: Any, dst_index: Any, message_op: str = "add", name: str | None = None) -> Any:
    """Edge messages from both ends: x[src] (op) y[dst] for every edge, without reduction.

    Args:
        x: source node features [num_nodes, ...].
        y: destination node features [num_nodes, ...], broadcastable against x's trailing dimensions (a
            1-D x or y is read as a column, [n, 1], as Paddle).
        src_index: source node of each edge, int32/int64 [num_edges].
        dst_index: destination node of each edge.
        message_op: "add" (default), "sub", "mul" or "div".
        name: unused (Paddle's).

    Returns:
        An array [num_edges, *broadcast(x.shape[1:], y.shape[1:])].

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[0., 2.], [1., 4.], [2., 6.]])
        >>> src = padax.to_tensor([0, 1, 2])
        >>> dst = padax.to_tensor([1, 2, 0])
        >>> padax.geometric.send_uv(x, x, src, dst, "sub").tolist()
        [[-1.0, -2.0], [-1.0, -2.0], [2.0, 4.0]]
    """
    message_op = _check("send_uv", "message_op", message_op, _MESSAGE_OPS)
    src = _index("send_uv", "src_index", src_index)
    dst = _index("send_uv", "dst_index", dst_index)
    x, y = _column(padax.asarray(x)), _column(padax.asarray(y))
    return _message(x[src], y[dst], message_op)
