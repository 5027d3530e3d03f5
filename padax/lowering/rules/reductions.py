"""Lowerings of reductions; `reduce_region` builds a stablehlo.reduce for other rules too."""
from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from padax.core import dtypes
from padax.core.abstract import ShapedArray
from padax.functional.lax import reductions as R
from padax.lowering._mlir import hlo, ir
from padax.lowering.mlir import aval_to_ir_type, dtype_to_ir_type, ir_constant, register_lowering
from padax.lowering.rules.elementwise import compare
from padax.lowering.rules.sorting import equal_nan, is_nan


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
    if kind == "prod":
        return 1 if dtype != dtypes.bool_ else True
    if kind == "and":  # all bits set
        return True if dtype == dtypes.bool_ else np.iinfo(dtype).max if dtypes.is_unsigned(dtype) else -1
    if dtype == dtypes.bool_:
        return kind == "min"
    if dtypes.is_floating(dtype):
        # float8_e4m3fn has no infinity (-inf would become NaN): use its largest finite value
        big = np.inf if np.isinf(np.asarray(np.inf, dtype)) else float(dtypes.finfo(dtype).max)
        return -big if kind == "max" else big
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


def _arg_rule(kind: str):
    """A variadic reduce over (values, iota): keep the better value, the lower index on ties."""
    direction = "GT" if kind == "max" else "LT"

    def rule(ctx, x, *, axes, index_dtype):
        aval = ctx.avals_in[0]
        dtype = aval.dtype
        idx_aval = aval.update(dtype=index_dtype, weak_type=False)
        idx = hlo.iota(aval_to_ir_type(idx_aval), ir.IntegerAttr.get(ir.IntegerType.get_signless(64), axes[0]))
        inits = [ir_constant(np.asarray(identity_value(kind, dtype), dtype=dtype)),
                 ir_constant(np.asarray(0, dtype=index_dtype))]

        def body(accs, xs):
            (av, ai), (bv, bi) = accs, xs
            a_better = compare(av, bv, direction, dtype)
            if dtypes.is_floating(dtype):
                a_better = hlo.or_(a_better, hlo.and_(is_nan(av, dtype), hlo.not_(is_nan(bv, dtype))))
            tie = hlo.and_(equal_nan(av, bv, dtype), compare(ai, bi, "LT", index_dtype))
            pick_a = hlo.or_(a_better, tie)
            return [hlo.select(pick_a, av, bv), hlo.select(pick_a, ai, bi)]

        out_avals = [ctx.aval_out.update(dtype=dtype), ctx.aval_out]
        return reduce_region([x, idx], inits, axes, out_avals, [dtype, index_dtype], body)[1]
    return rule


register_lowering(R.argmax_p, _arg_rule("max"))
register_lowering(R.argmin_p, _arg_rule("min"))
