"""fused_matmul_bias, fused_linear and fused_linear_activation: a matmul with its bias (and
activation) epilogue, Paddle's cuBLASLt fusions as compositions that XLA fuses."""
from __future__ import annotations

from typing import Any

from padax.core.errors import op_value_error
from padax.functional import math as M
from padax.functional._checks import arg
from padax.functional.linalg_basic import matmul
from padax.nn.functional.activation import gelu, relu

__all__ = ["fused_linear", "fused_linear_activation", "fused_matmul_bias"]


def fused_matmul_bias(x: Any, y: Any, bias: Any = None, transpose_x: bool = False, transpose_y: bool = False,
                      name: str | None = None) -> Any:
    """matmul(x, y) + bias, with x and/or y transposed in their last two axes first.

    Args:
        x, y: Tensors (at least 1-D) multiplied as padax.matmul does.
        bias: a [N] bias broadcast over the rows, or None.
        transpose_x, transpose_y: transpose the operand's last two axes.

    Returns:
        The product plus bias.

    Examples:
        >>> import padax
        >>> from padax.incubate.nn.functional import fused_matmul_bias
        >>> fused_matmul_bias(padax.ones([2, 3]), padax.ones([3, 2]), padax.to_tensor([1.0, -1.0])).tolist()
        [[4.0, 2.0], [4.0, 2.0]]
    """
    op = "fused_matmul_bias"
    out = matmul(arg(op, x, "x"), arg(op, y, "y"), transpose_x=transpose_x, transpose_y=transpose_y)
    if bias is not None:
        out = M.add(out, M.cast(arg(op, bias, "bias"), out.aval.dtype))
    return out


def fused_linear(x: Any, weight: Any, bias: Any = None, transpose_weight: bool = False,
                 name: str | None = None) -> Any:
    """x @ weight + bias for weight [in, out] ([out, in] with transpose_weight).

    Args:
        x: [..., in].
        weight: [in, out], or [out, in] with transpose_weight.
        bias: [out], or None.
        transpose_weight: weight is stored transposed.

    Returns:
        [..., out].

    Examples:
        >>> import padax
        >>> from padax.incubate.nn.functional import fused_linear
        >>> fused_linear(padax.ones([1, 2]), padax.to_tensor([[1.0, 2.0], [3.0, 4.0]]), padax.ones([2])).tolist()
        [[5.0, 7.0]]
    """
    return fused_matmul_bias(x, weight, bias, False, transpose_weight)


def fused_linear_activation(x: Any, y: Any, bias: Any, trans_x: bool = False, trans_y: bool = False,
                            activation: str | None = None) -> Any:
    """act(matmul(x, y) + bias) with activation 'gelu' (the tanh approximation, as cuBLASLt's GELU
    epilogue), 'relu' or None.

    Args:
        x, y: the operands; trans_x, trans_y transpose their last two axes.
        bias: [N].
        activation: 'gelu', 'relu' or None ('none').

    Returns:
        The activated product.

    Examples:
        >>> import padax
        >>> from padax.incubate.nn.functional import fused_linear_activation
        >>> fused_linear_activation(padax.ones([1, 2]), padax.ones([2, 2]), padax.to_tensor([-3.0, 1.0]),
        ...                         activation="relu").tolist()
        [[0.0, 3.0]]
    """
    out = fused_matmul_bias(x, y, bias, trans_x, trans_y)
    if activation in (None, "none"):
        return out
    if activation == "gelu":
        return gelu(out, approximate=True)
    if activation == "relu":
        return relu(out)
    raise op_value_error("fused_linear_activation", f"activation must be 'gelu', 'relu' or None, got {activation!r}")
