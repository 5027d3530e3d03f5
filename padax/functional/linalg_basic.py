"""Matrix products with Paddle's names: matmul (numpy broadcasting rules), mm, bmm, dot, t.

All are `dot_general` after Paddle type promotion; 1-D operands follow
numpy's matmul rules (a vector on the left is a row, on the right a column,
and that axis is dropped from the result).
"""
from __future__ import annotations

from typing import Any

from padax import lax
from padax.core import dtypes
from padax.core.errors import op_type_error, op_value_error
from padax.functional._arrays import asarray, broadcast_shapes, broadcast_to, result_dtype


def _promote2(op: str, x: Any, y: Any) -> tuple[Any, Any]:
    dt, _ = result_dtype(x, y)
    x, y = asarray(x, dt), asarray(y, dt)
    if dt == dtypes.bool_:
        raise op_type_error(op, f"bool operands are not supported, got {x.aval.str_short()} and {y.aval.str_short()}")
    return x, y


def _swap_last2(x: Any) -> Any:
    nd = x.aval.ndim
    return lax.transpose(x, tuple(range(nd - 2)) + (nd - 1, nd - 2))


def matmul(x: Any, y: Any, transpose_x: bool = False, transpose_y: bool = False, name: str | None = None) -> Any:
    """Matrix product with batch broadcasting; `transpose_x/y` swap the last two axes first."""
    x, y = _promote2("matmul", x, y)
    xs0, ys0 = x.aval.shape, y.aval.shape
    if x.aval.ndim == 0 or y.aval.ndim == 0:
        raise op_value_error("matmul", f"operands must be at least 1-D, got shapes {list(xs0)} and {list(ys0)}")
    x_vec, y_vec = x.aval.ndim == 1, y.aval.ndim == 1
    if x_vec:
        x = lax.reshape(x, (1,) + xs0)
    elif transpose_x:
        x = _swap_last2(x)
    if y_vec:
        y = lax.reshape(y, ys0 + (1,))
    elif transpose_y:
        y = _swap_last2(y)
    xs, ys = x.aval.shape, y.aval.shape
    if xs[-1] != ys[-2]:
        raise op_value_error("matmul", f"contracted sizes differ: x of shape {list(xs0)} "
                                       f"(transpose_x={transpose_x}) has {xs[-1]} columns, y of shape "
                                       f"{list(ys0)} (transpose_y={transpose_y}) has {ys[-2]} rows")
    bx, by = xs[:-2], ys[:-2]
    if not by:
        # y is a matrix: contract x's last axis directly, x's leading axes stay free
        out = lax.dot_general(x, y, (((x.aval.ndim - 1,), (0,)), ((), ())))
    else:
        batch = broadcast_shapes("matmul", bx, by)
        x = broadcast_to(x, batch + xs[-2:])
        y = broadcast_to(y, batch + ys[-2:])
        nb = len(batch)
        b = tuple(range(nb))
        out = lax.dot_general(x, y, (((nb + 1,), (nb,)), (b, b)))
    shape = out.aval.shape
    if x_vec and y_vec:
        return lax.reshape(out, shape[:-2])
    if x_vec:
        return lax.reshape(out, shape[:-2] + shape[-1:])
    if y_vec:
        return lax.reshape(out, shape[:-1])
    return out


def mm(input: Any, mat2: Any, name: str | None = None) -> Any:
    """Matrix product (same rules as matmul)."""
    return matmul(input, mat2)


def bmm(x: Any, y: Any, name: str | None = None) -> Any:
    """Batched matrix product of two 3-D Tensors with equal batch sizes."""
    x, y = asarray(x), asarray(y)
    if x.aval.ndim != 3 or y.aval.ndim != 3:
        raise op_value_error("bmm", f"both inputs must be 3-D, got shapes {list(x.aval.shape)} and {list(y.aval.shape)}")
    if x.aval.shape[0] != y.aval.shape[0]:
        raise op_value_error("bmm", f"batch sizes differ: shapes {list(x.aval.shape)} and {list(y.aval.shape)}")
    return matmul(x, y)


def dot(x: Any, y: Any, name: str | None = None) -> Any:
    """Inner product of 1-D vectors, or row-wise inner products of two 2-D Tensors."""
    x, y = _promote2("dot", x, y)
    if x.aval.shape != y.aval.shape or x.aval.ndim not in (1, 2):
        raise op_value_error("dot", f"inputs must be 1-D or 2-D with equal shapes, got {list(x.aval.shape)} "
                                    f"and {list(y.aval.shape)}")
    if x.aval.ndim == 1:
        return lax.dot_general(x, y, (((0,), (0,)), ((), ())))
    return lax.dot_general(x, y, (((1,), (1,)), ((0,), (0,))))


def t(input: Any, name: str | None = None) -> Any:
    """Transpose of a matrix; 0-D and 1-D Tensors are returned unchanged."""
    x = asarray(input)
    if x.aval.ndim > 2:
        raise op_value_error("t", f"expects a Tensor of at most 2 axes, got {x.aval.str_short()}; use transpose")
    return x if x.aval.ndim < 2 else lax.transpose(x, (1, 0))


__all__ = ["matmul", "mm", "bmm", "dot", "t"]
