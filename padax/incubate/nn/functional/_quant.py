"""The int8 quantisation epilogue that Paddle's fused kernels share (quant_scale > 0)."""
from __future__ import annotations

from typing import Any

from padax import dtypes
from padax.functional import math as M


def quantize(x: Any, quant_scale: float, quant_round_type: int, quant_max_bound: float,
             quant_min_bound: float) -> Any:
    """clip(round(quant_max_bound * quant_scale * x), min, max) as int8; round_type 0 rounds half to
    even, 1 half away from zero. quant_scale <= 0 returns x unchanged."""
    if quant_scale <= 0:
        return x
    y = M.multiply(M.cast(x, dtypes.float32), float(quant_max_bound) * float(quant_scale))
    if quant_round_type == 0:
        y = M.round(y)
    else:
        y = M.multiply(M.sign(y), M.floor(M.add(M.abs(y), 0.5)))
    return M.cast(M.clip(y, float(quant_min_bound), float(quant_max_bound)), dtypes.int8)
