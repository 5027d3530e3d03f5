"""Lowerings of windowed reductions to stablehlo.reduce_window (padding uses the identity), and of
select_and_gather_add / select_and_scatter_add (max-pool derivatives)."""
from __future__ import annotations

import numpy as np

from padax.functional.lax import windowed as W, windowed_select as WS
from padax.lowering._mlir import hlo, ir
from padax.lowering.mlir import aval_to_ir_type, full_like_aval, ir_constant, register_lowering
from padax.lowering.rules.elementwise import compare
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


# ---- select_and_gather_add / select_and_scatter_add ------------------------------------------

_DIRECTION = {"ge": ("GE", "GT", "max"), "le": ("LE", "LT", "min")}


@register_lowering(WS.select_and_gather_add_p)
def _select_and_gather_add(ctx, tangent, operand, *, select, window_dimensions, window_strides, padding):
    """A variadic reduce_window over (operand, tangent, flat index): keep the better operand value,
    the lower index on ties, so the pick is the first in window order as in select_and_scatter."""
    aval = ctx.avals_in[1]
    dtype = aval.dtype
    out = ctx.aval_out
    if out.size == 0 or aval.size == 0:
        return full_like_aval(0, out)
    _, strict, kind = _DIRECTION[select]
    idx_dtype = np.dtype(np.int32 if aval.size < 2 ** 31 else np.int64)
    flat = hlo.iota(ir.RankedTensorType.get([aval.size], aval_to_ir_type(aval.update(dtype=idx_dtype)).element_type),
                    ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 0))
    index = hlo.reshape(aval_to_ir_type(aval.update(dtype=idx_dtype)), flat)
    inits = [ir_constant(np.asarray(identity_value(kind, dtype), dtype)), ir_constant(np.asarray(0, dtype)),
             ir_constant(np.asarray(np.iinfo(idx_dtype).max, idx_dtype))]
    pads = np.asarray(padding, dtype=np.int64).reshape(len(padding), 2)
    ones = [1] * len(window_dimensions)
    types = [aval_to_ir_type(out.update(dtype=d)) for d in (dtype, dtype, idx_dtype)]
    op = hlo.ReduceWindowOp(types, [operand, tangent, index], inits, list(window_dimensions),
                            window_strides=list(window_strides), base_dilations=ones, window_dilations=ones,
                            padding=ir.DenseIntElementsAttr.get(pads))
    scalars = [scalar_type(d) for d in (dtype, dtype, idx_dtype)]
    block = op.body.blocks.append(*scalars, *scalars)
    with ir.InsertionPoint(block):
        av, at, ai, bv, bt, bi = block.arguments
        tie = hlo.and_(compare(av, bv, "EQ", dtype), compare(ai, bi, "LT", idx_dtype))
        pick_a = hlo.or_(compare(av, bv, strict, dtype), tie)
        hlo.return_([hlo.select(pick_a, av, bv), hlo.select(pick_a, at, bt), hlo.select(pick_a, ai, bi)])
    return op.results[1]


@register_lowering(WS.select_and_scatter_add_p)
def _select_and_scatter_add(ctx, source, operand, *, select, window_dimensions, window_strides, padding):
    """XLA's SelectAndScatter: the select keeps the current pick unless a later element is strictly
    better (the first best wins); the scatter adds."""
    aval = ctx.avals_in[1]
    dtype = aval.dtype
    if aval.size == 0 or ctx.avals_in[0].size == 0:
        return full_like_aval(0, ctx.aval_out)
    keep, _, _ = _DIRECTION[select]
    pads = np.asarray(padding, dtype=np.int64).reshape(len(padding), 2)
    op = hlo.SelectAndScatterOp(aval_to_ir_type(ctx.aval_out), operand, source,
                                ir_constant(np.asarray(0, dtype)), window_dimensions=list(window_dimensions),
                                window_strides=list(window_strides), padding=ir.DenseIntElementsAttr.get(pads))
    t = scalar_type(dtype)
    sel = op.select.blocks.append(t, t)
    with ir.InsertionPoint(sel):
        hlo.return_([compare(sel.arguments[0], sel.arguments[1], keep, dtype)])
    sca = op.scatter.blocks.append(t, t)
    with ir.InsertionPoint(sca):
        hlo.return_([hlo.add(sca.arguments[0], sca.arguments[1])])
    return op.result
