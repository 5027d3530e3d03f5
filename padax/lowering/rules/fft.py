"""Lowering of fft to StableHLO's fft op (XLA's Fft: same types and length convention)."""
from __future__ import annotations

from padax.functional.lax.fft import fft_p
from padax.lowering._mlir import hlo
from padax.lowering.mlir import aval_to_ir_type, register_lowering


@register_lowering(fft_p)
def _fft(ctx, x, *, fft_type, fft_lengths):
    return hlo.fft(x, hlo.FftTypeAttr.get(fft_type), list(fft_lengths),
                   results=[aval_to_ir_type(ctx.aval_out)])
