"""fused_layer_norm: LayerNorm of (x + bias + residual_alpha * residual), Paddle's fused kernel as a
composition."""
from __future__ import annotations

from typing import Any

import numpy as np

from padax import dtypes
from padax.core.errors import op_type_error
from padax.functional import math as M, reduction as R
from padax.functional._checks import arg
from padax.functional.manipulation import reshape
from padax.incubate.nn.functional._norms import affine, begin_axis, compute_dtype, fused_sum
from padax.incubate.nn.functional._quant import quantize

__all__ = ["fused_layer_norm"]


def fused_layer_norm(x: Any, norm_weight: Any, norm_bias: Any, epsilon: float, residual_alpha: float = 1.0,
                     begin_norm_axis: int = 1, bias: Any = None, residual: Any = None, quant_scale: float = -1,
                     quant_round_type: int = 0, quant_max_bound: float = 0,
                     quant_min_bound: float = 0) -> tuple[Any, Any, Any, Any]:
    """LayerNorm over the axes from begin_norm_axis of h = x + bias + residual_alpha * residual, then
    * norm_weight + norm_bias; with both norm_weight and norm_bias None, out is h itself (the fused add).

    Statistics are float32 for float16/bfloat16 inputs (biased variance); quant_scale > 0 quantises
    the output to int8 as fused_rms_norm does.

    Args:
        x: a Tensor.
        norm_weight, norm_bias: scale and shift with as many elements as the normalised axes, or None.
        epsilon: added to the variance.
        residual_alpha: the residual's factor.
        begin_norm_axis: the first normalised axis.
        bias, residual: added to x before the norm, or None.
        quant_scale, quant_round_type, quant_max_bound, quant_min_bound: the int8 epilogue.

    Returns:
        (out, residual_out (the pre-norm sum when a residual is given, else an empty Tensor),
        mean and invvar = 1 / sqrt(var + epsilon), float32 per flattened leading row).

    Examples:
        >>> import padax
        >>> from padax.incubate.nn.functional import fused_layer_norm
        >>> out, _, mean, invvar = fused_layer_norm(padax.to_tensor([[1.0, 3.0]]), padax.ones([2]),
        ...                                         padax.zeros([2]), 0.0)
        >>> out.tolist(), mean.tolist(), invvar.tolist()
        ([[-1.0, 1.0]], [2.0], [1.0])
    """
    op = "fused_layer_norm"
    x = arg(op, x, "x")
    if not dtypes.is_floating(x.aval.dtype):
        raise op_type_error(op, f"x must be floating, got {x.aval.str_short()}")
    a = begin_axis(op, x, begin_norm_axis)
    h, residual_out = fused_sum(op, x, bias, residual, float(residual_alpha))
    ct = compute_dtype(x)
    hf = M.cast(h, ct)
    axes = list(range(a, x.aval.ndim))
    mean = R.mean(hf, axis=axes, keepdim=True)
    centered = M.subtract(hf, mean)
    inv = M.rsqrt(M.add(R.mean(M.square(centered), axis=axes, keepdim=True), float(epsilon)))
    rows = int(np.prod(x.aval.shape[:a]))
    stats = (M.cast(reshape(mean, [rows]), dtypes.float32), M.cast(reshape(inv, [rows]), dtypes.float32))
    if norm_weight is None and norm_bias is None:
        return h, residual_out, *stats
    y = affine(op, M.multiply(centered, inv), norm_weight, norm_bias, tuple(x.aval.shape[a:]), ct)
    if quant_scale > 0:
        return (quantize(y, quant_scale, quant_round_type, quant_max_bound, quant_min_bound), residual_out,
                *stats)
    return M.cast(y, x.aval.dtype), residual_out, *stats
