"""Lowering of rng_bit_generator (a u32[4] key travels to XLA as u64[2])."""
from __future__ import annotations

from padax.core import dtypes
from padax.functional.lax.random_bits import RandomAlgorithm, rng_bit_generator_p
from padax.lowering._mlir import hlo, ir
from padax.lowering.mlir import aval_to_ir_type, register_lowering

_ALGORITHM_NAMES = {RandomAlgorithm.RNG_DEFAULT: "DEFAULT", RandomAlgorithm.RNG_THREE_FRY: "THREE_FRY",
                    RandomAlgorithm.RNG_PHILOX: "PHILOX"}


@register_lowering(rng_bit_generator_p)
def _rng_bit_generator(ctx, key, *, shape, dtype, algorithm):
    key_aval = ctx.avals_in[0]
    key_out_aval, bits_aval = ctx.avals_out
    u32, u64 = ir.IntegerType.get_unsigned(32), ir.IntegerType.get_unsigned(64)
    if key_aval.dtype == dtypes.uint32:
        key = hlo.bitcast_convert(ir.RankedTensorType.get([2], u64),
                                  hlo.reshape(ir.RankedTensorType.get([2, 2], u32), key))
    new_key, bits = hlo.RngBitGeneratorOp(
        ir.RankedTensorType.get([2], u64), aval_to_ir_type(bits_aval),
        hlo.RngAlgorithmAttr.get(_ALGORITHM_NAMES[RandomAlgorithm(algorithm)]), key).results
    if key_aval.dtype == dtypes.uint32:
        new_key = hlo.reshape(aval_to_ir_type(key_out_aval),
                              hlo.bitcast_convert(ir.RankedTensorType.get([2, 2], u32), new_key))
    return [new_key, bits]
