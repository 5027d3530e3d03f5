"""Lowerings of reductions; `reduce_region` builds a stablehlo.reduce for other rules too."""
from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from padax.core import dtypes
from padax.core.abstract import ShapedArray
from padax.functional.lax import reductions as R
from padax.lowering._mlir import hlo, ir
from padax.lowering.mlir import aval_to_ir_type, dtype_to_ir_type, ir_constant, register_lowering


def scalar_type(dtype) -> ir.RankedTensorType:
    return ir.RankedTensorType.get([], dtype_to_ir_type(dtype))


def reduce_region(operands: Sequence[ir.Value], inits: Sequence[ir.Value], axes: Sequence[int],
                  out_avals: Sequence[ShapedArray], in_dtypes: Sequence[np.dtype],
                  body: Callable[[list[ir.Value], list[ir.Value]], list[ir.Value]]) -> list[ir.Value]:
    """stablehlo.reduce over `axes`; `body(accs, xs)` combines scalars and returns new accs."""
    op = hlo.ReduceOp([aval_to_ir_type(a) for a in out_avals], list(operands), list(inits),
                      ir.DenseI64ArrayAttr.get(list(axes)))
    types = [scalar_type(d) for d in in_dtypes]
    block = op.body.blocks.append(*types, *types)
    with ir.InsertionPoint(block):
        n = len(types)
        outs = body(list(block.arguments[:n]), list(block.arguments[n:]))
        hlo.return_(list(outs))
    return list(op.results)


def identity_value(kind: str, dtype: np.dtype):
    """The identity element of a reduction for a dtype (e.g. -inf for max of floats)."""
    if kind == "sum" or kind == "or":
        return 0 if dtype != dtypes.bool_ else False
    if kind == "prod" or kind == "and":
        return 1 if dtype != dtypes.bool_ else True
    if dtype == dtypes.bool_:
        return kind == "min"
    if dtypes.is_floating(dtype):
        return -np.inf if kind == "max" else np.inf
    info = np.iinfo(dtype)
    return info.min if kind == "max" else info.max


_COMBINE = {"sum": (hlo.add, hlo.or_), "prod": (hlo.multiply, hlo.and_), "max": (hlo.maximum, hlo.or_),
            "min": (hlo.minimum, hlo.and_), "and": (hlo.and_, hlo.and_), "or": (hlo.or_, hlo.or_)}


def combiner(kind: str, dtype) -> Callable:
    op, bool_op = _COMBINE[kind]
    return bool_op if dtype == dtypes.bool_ else op


def _reduce_rule(kind: str):
    def rule(ctx, x, *, axes):
        dtype = ctx.avals_in[0].dtype
        init = ir_constant(np.asarray(identity_value(kind, dtype), dtype=dtype))
        comb = combiner(kind, dtype)
        return reduce_region([x], [init], axes, ctx.avals_out, [dtype],
                             lambda accs, xs: [comb(accs[0], xs[0])])[0]
    return rule


for _kind in ("sum", "prod", "max", "min", "and", "or"):
    register_lowering(R.reduce_primitives[f"reduce_{_kind}"], _reduce_rule(_kind))
