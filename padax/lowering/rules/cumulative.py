"""Lowerings of cumulative ops as a log-depth (Hillis-Steele) scan.

Step k combines every element with the one 2**k places before it (a pad that
shifts in the identity), so ceil(log2 n) elementwise steps give the inclusive
scan: O(n log n) work, fine on every backend and far cheaper than an
n-wide reduce_window.
"""
from __future__ import annotations

import numpy as np

from padax.functional.lax import cumulative as C
from padax.lowering._mlir import hlo, ir
from padax.lowering.mlir import ir_constant, register_lowering
from padax.lowering.rules.reductions import combiner, identity_value


def _cum_rule(kind: str):
    def rule(ctx, x, *, axis, reverse):
        aval = ctx.avals_in[0]
        n = aval.shape[axis]
        comb = combiner(kind, aval.dtype)
        pad_value = ir_constant(np.asarray(identity_value(kind, aval.dtype), dtype=aval.dtype))
        zeros = [0] * aval.ndim
        d = 1
        while d < n:
            lo, hi = list(zeros), list(zeros)
            lo[axis], hi[axis] = (-d, d) if reverse else (d, -d)
            shifted = hlo.pad(x, pad_value, ir.DenseI64ArrayAttr.get(lo), ir.DenseI64ArrayAttr.get(hi),
                              ir.DenseI64ArrayAttr.get(zeros))
            x = comb(shifted, x)
            d *= 2
        return x
    return rule


for _kind in ("sum", "prod", "max", "min"):
    register_lowering(C.cumulative_primitives[f"cum{_kind}"], _cum_rule(_kind))
