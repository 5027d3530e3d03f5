"""Lowerings of windowed reductions to stablehlo.reduce_window (padding uses the identity)."""
from __future__ import annotations

import numpy as np

from padax.functional.lax import windowed as W
from padax.lowering._mlir import hlo, ir
from padax.lowering.mlir import aval_to_ir_type, ir_constant, register_lowering
from padax.lowering.rules.reductions import combiner, identity_value, scalar_type


def _window_rule(kind: str):
    def rule(ctx, x, *, window_dimensions, window_strides, padding, base_dilation, window_dilation):
        dtype = ctx.avals_in[0].dtype
        init = ir_constant(np.asarray(identity_value(kind, dtype), dtype=dtype))
        pads = np.asarray(padding, dtype=np.int64).reshape(len(padding), 2)
        op = hlo.ReduceWindowOp([aval_to_ir_type(ctx.aval_out)], [x], [init], list(window_dimensions),
                                window_strides=list(window_strides), base_dilations=list(base_dilation),
                                window_dilations=list(window_dilation),
                                padding=ir.DenseIntElementsAttr.get(pads))
        t = scalar_type(dtype)
        block = op.body.blocks.append(t, t)
        comb = combiner(kind, dtype)
        with ir.InsertionPoint(block):
            hlo.return_([comb(block.arguments[0], block.arguments[1])])
        return op.result
    return rule


for _kind in ("sum", "max", "min"):
    register_lowering(W.reduce_window_primitives[f"reduce_window_{_kind}"], _window_rule(_kind))
