"""Lowerings of shape/dtype primitives."""
from __future__ import annotations

from padax.core import dtypes
from padax.functional.lax import structural as S
from padax.lowering._mlir import hlo, ir
from padax.lowering.mlir import aval_to_ir_type, full_like_aval, register_lowering
from padax.lowering.rules.elementwise import compare


@register_lowering(S.convert_element_type_p)
def _convert(ctx, x, *, new_dtype, weak_type):
    src, out = ctx.avals_in[0], ctx.aval_out
    if src.dtype == out.dtype:
        return x
    if out.dtype == dtypes.bool_ and src.dtype != dtypes.bool_:
        # nonzero -> True (a plain convert would truncate)
        return compare(x, full_like_aval(0, src), "NE", src.dtype)
    if dtypes.is_complex(src.dtype) and not dtypes.is_complex(out.dtype):
        x = hlo.real(x)
        src = src.update(dtype=dtypes.float64 if src.dtype == dtypes.complex128 else dtypes.float32)
        if src.dtype == out.dtype:
            return x
    return hlo.convert(aval_to_ir_type(out), x)


@register_lowering(S.broadcast_in_dim_p)
def _broadcast_in_dim(ctx, x, *, shape, broadcast_dimensions):
    return hlo.broadcast_in_dim(aval_to_ir_type(ctx.aval_out), x,
                                ir.DenseI64ArrayAttr.get(list(broadcast_dimensions)))


@register_lowering(S.reshape_p)
def _reshape(ctx, x, *, new_sizes):
    return hlo.reshape(aval_to_ir_type(ctx.aval_out), x)


@register_lowering(S.transpose_p)
def _transpose(ctx, x, *, permutation):
    return hlo.transpose(x, ir.DenseI64ArrayAttr.get(list(permutation)))


@register_lowering(S.select_n_p)
def _select_n(ctx, which, *cases):
    which_aval = ctx.avals_in[0]
    out_ty = aval_to_ir_type(ctx.aval_out)
    if which_aval.shape != ctx.aval_out.shape:
        which = hlo.broadcast_in_dim(aval_to_ir_type(which_aval.update(shape=ctx.aval_out.shape)), which,
                                     ir.DenseI64ArrayAttr.get([]))
        which_aval = which_aval.update(shape=ctx.aval_out.shape)
    if len(cases) == 1:
        return cases[0]
    if which_aval.dtype == dtypes.bool_:
        return hlo.select(which, cases[1], cases[0])
    # int32 selector: a binary tree of selects
    def build(lo, hi):
        if hi - lo == 1:
            return cases[lo]
        mid = (lo + hi) // 2
        pred = compare(which, full_like_aval(mid, which_aval), "LT", which_aval.dtype)
        return hlo.select(pred, build(lo, mid), build(mid, hi))
    return build(0, len(cases))


@register_lowering(S.iota_p)
def _iota(ctx, *, dtype, shape, dimension):
    return hlo.iota(aval_to_ir_type(ctx.aval_out), ir.IntegerAttr.get(ir.IntegerType.get_signless(64), dimension))
