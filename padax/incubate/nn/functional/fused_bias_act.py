"""fused_bias_act: act(x * dequant_scales + bias), optionally gated (GeGLU/SwiGLU), shifted,
smoothed and quantised, Paddle's fused FFN epilogue as a composition."""
from __future__ import annotations

from typing import Any

from padax import dtypes
from padax.core.errors import op_type_error, op_value_error
from padax.functional import math as M
from padax.functional._checks import arg
from padax.functional.manipulation import split
from padax.incubate.nn.functional._quant import quantize
from padax.nn.functional.activation import gelu, relu, silu

__all__ = ["fused_bias_act"]

_ACTS = {"gelu": gelu, "relu": relu, "geglu": gelu, "swiglu": silu}
_COMPUTE = {"fp16": dtypes.float16, "bf16": dtypes.bfloat16, "fp32": dtypes.float32}


def fused_bias_act(x: Any, bias: Any = None, dequant_scales: Any = None, shift: Any = None, smooth: Any = None,
                   act_method: str = "gelu", compute_dtype: str = "default", quant_scale: float = -1,
                   quant_round_type: int = 0, quant_max_bound: float = 0, quant_min_bound: float = 0) -> Any:
    """The FFN epilogue: h = x * dequant_scales + bias; out = act(h) ('gelu' (erf), 'relu') or, gated,
    act(first half of h) * second half ('geglu', 'swiglu'); then (out + shift) * smooth and, with
    quant_scale > 0, int8 quantisation.

    Args:
        x: [..., C] (int32 when dequant_scales dequantises it).
        bias: [C] added before the activation, or None.
        dequant_scales: [C] float scales for an int32 x, or None.
        shift, smooth: [C'] (C' the output width) applied after the activation, or None.
        act_method: 'gelu', 'relu', 'geglu' or 'swiglu'.
        compute_dtype: 'default' (x's dtype), or 'fp16', 'bf16', 'fp32' (needed for an int32 x).
        quant_scale, quant_round_type, quant_max_bound, quant_min_bound: the int8 epilogue.

    Returns:
        [..., C] ([..., C / 2] for the gated methods) in the compute dtype (int8 when quantised).

    Examples:
        >>> import padax
        >>> from padax.incubate.nn.functional import fused_bias_act
        >>> fused_bias_act(padax.to_tensor([[-1.0, 2.0]]), padax.to_tensor([0.5, 0.5]), act_method="relu").tolist()
        [[0.0, 2.5]]
        >>> fused_bias_act(padax.to_tensor([[1.0, 3.0]]), act_method="swiglu").tolist()
        [[2.1932]]
    """
    op = "fused_bias_act"
    x = arg(op, x, "x")
    if act_method not in _ACTS:
        raise op_value_error(op, f"act_method must be one of {sorted(_ACTS)}, got {act_method!r}")
    if compute_dtype != "default" and compute_dtype not in _COMPUTE:
        raise op_value_error(op, f"compute_dtype must be 'default', 'fp16', 'bf16' or 'fp32', got {compute_dtype!r}")
    dt = x.aval.dtype if compute_dtype == "default" else _COMPUTE[compute_dtype]
    if not dtypes.is_floating(dt):
        raise op_type_error(op, f"an integer x {x.aval.str_short()} needs compute_dtype 'fp16', 'bf16' or 'fp32'")
    ct = dtypes.float32 if dt in (dtypes.float16, dtypes.bfloat16) else dt
    h = M.cast(x, ct)
    if dequant_scales is not None:
        h = M.multiply(h, M.cast(arg(op, dequant_scales, "dequant_scales"), ct))
    if bias is not None:
        h = M.add(h, M.cast(arg(op, bias, "bias"), ct))
    act = _ACTS[act_method]
    if act_method in ("geglu", "swiglu"):
        if x.aval.ndim == 0 or x.aval.shape[-1] % 2:
            raise op_value_error(op, f"{act_method} needs an even last axis, got x {x.aval.str_short()}")
        a, b = split(h, 2, axis=-1)
        out = M.multiply(act(a), b)
    else:
        out = act(h)
    if shift is not None:
        out = M.add(out, M.cast(arg(op, shift, "shift"), ct))
    if smooth is not None:
        out = M.multiply(out, M.cast(arg(op, smooth, "smooth"), ct))
    if quant_scale > 0:
        return quantize(out, quant_scale, quant_round_type, quant_max_bound, quant_min_bound)
    return M.cast(out, dt)
