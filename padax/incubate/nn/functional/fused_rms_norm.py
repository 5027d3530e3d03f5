"""fused_rms_norm: RMSNorm of (x + bias + residual), Paddle's fused kernel as a composition."""
from __future__ import annotations

from typing import Any

from padax import dtypes
from padax.core.errors import op_type_error
from padax.functional import math as M, reduction as R
from padax.functional._checks import arg
from padax.incubate.nn.functional._norms import affine, begin_axis, compute_dtype, fused_sum
from padax.incubate.nn.functional._quant import quantize

__all__ = ["fused_rms_norm"]


def fused_rms_norm(x: Any, norm_weight: Any, norm_bias: Any, epsilon: float, begin_norm_axis: int = 1,
                   bias: Any = None, residual: Any = None, quant_scale: float = -1, quant_round_type: int = 0,
                   quant_max_bound: float = 0, quant_min_bound: float = 0) -> tuple[Any, Any]:
    """RMSNorm over the axes from begin_norm_axis of h = x + bias + residual: h / sqrt(mean(h^2) +
    epsilon) * norm_weight + norm_bias, the fusion transformer blocks use before attention and MLP.

    Statistics are float32 for float16/bfloat16 inputs; quant_scale > 0 quantises the output to
    int8 (clip(round(quant_max_bound * quant_scale * out), quant_min_bound, quant_max_bound)).

    Args:
        x: a Tensor.
        norm_weight: the scale, with as many elements as the normalised axes (flat or shaped).
        norm_bias: the shift (same size), or None.
        epsilon: added to the mean square.
        begin_norm_axis: the first normalised axis.
        bias: a bias added to x before the norm (broadcast), or None.
        residual: a residual added to x before the norm, or None.
        quant_scale, quant_round_type, quant_max_bound, quant_min_bound: the int8 epilogue
            (quant_scale <= 0: none; round type 0 half to even, 1 half away from zero).

    Returns:
        (out of x's shape and dtype (int8 when quantised), residual_out: the pre-norm sum when a
        residual is given, else an empty Tensor).

    Examples:
        >>> import padax
        >>> from padax.incubate.nn.functional import fused_rms_norm
        >>> out, _ = fused_rms_norm(padax.to_tensor([[3.0, 4.0]]), padax.ones([2]), None, 0.0, 1)
        >>> out.tolist()
        [[0.8485, 1.1314]]
        >>> out, res = fused_rms_norm(padax.to_tensor([[1.0, 2.0]]), padax.ones([2]), None, 0.0, 1,
        ...                           residual=padax.to_tensor([[2.0, 2.0]]))
        >>> res.tolist()
        [[3.0, 4.0]]
    """
    op = "fused_rms_norm"
    x = arg(op, x, "x")
    if not dtypes.is_floating(x.aval.dtype):
        raise op_type_error(op, f"x must be floating, got {x.aval.str_short()}")
    a = begin_axis(op, x, begin_norm_axis)
    h, residual_out = fused_sum(op, x, bias, residual, 1.0)
    ct = compute_dtype(x)
    hf = M.cast(h, ct)
    axes = list(range(a, x.aval.ndim))
    y = M.multiply(hf, M.rsqrt(M.add(R.mean(M.square(hf), axis=axes, keepdim=True), float(epsilon))))
    y = affine(op, y, norm_weight, norm_bias, tuple(x.aval.shape[a:]), ct)
    if quant_scale > 0:
        return quantize(y, quant_scale, quant_round_type, quant_max_bound, quant_min_bound), residual_out
    return M.cast(y, x.aval.dtype), residual_out
