"""Lowering of `reduce_precision` to stablehlo.reduce_precision."""
from __future__ import annotations

from padax.functional.lax.precision import reduce_precision_p
from padax.lowering._mlir import hlo
from padax.lowering.mlir import register_lowering


@register_lowering(reduce_precision_p)
def _reduce_precision(ctx, x, *, exponent_bits, mantissa_bits):
    return hlo.reduce_precision(x, exponent_bits, mantissa_bits)
