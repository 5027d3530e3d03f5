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


def _i64(values) -> ir.DenseI64ArrayAttr:
    return ir.DenseI64ArrayAttr.get([int(v) for v in values])


@register_lowering(S.squeeze_p)
def _squeeze(ctx, x, *, dimensions):
    return hlo.reshape(aval_to_ir_type(ctx.aval_out), x)


@register_lowering(S.slice_p)
def _slice(ctx, x, *, start_indices, limit_indices, strides):
    strides = (1,) * len(start_indices) if strides is None else strides
    return hlo.slice(x, _i64(start_indices), _i64(limit_indices), _i64(strides))


def _common_index_type(starts, avals):
    """StableHLO wants all start indices of one type: i32, or i64 when any needs the range."""
    wide = any(a.dtype.itemsize == 8 or (dtypes.is_unsigned(a.dtype) and a.dtype.itemsize == 4) for a in avals)
    target = dtypes.int64 if wide else dtypes.int32
    if all(a.dtype == target for a in avals):
        return list(starts)
    ty = aval_to_ir_type(avals[0].update(shape=(), dtype=target))
    return [s if a.dtype == target else hlo.convert(ty, s) for s, a in zip(starts, avals)]


@register_lowering(S.dynamic_slice_p)
def _dynamic_slice(ctx, x, *starts, slice_sizes):
    starts = _common_index_type(starts, ctx.avals_in[1:])
    return hlo.dynamic_slice(x, starts, _i64(slice_sizes))


@register_lowering(S.dynamic_update_slice_p)
def _dynamic_update_slice(ctx, x, update, *starts):
    starts = _common_index_type(starts, ctx.avals_in[2:])
    return hlo.dynamic_update_slice(x, update, starts)


@register_lowering(S.concatenate_p)
def _concatenate(ctx, *operands, dimension):
    return hlo.concatenate(list(operands), ir.IntegerAttr.get(ir.IntegerType.get_signless(64), dimension))


@register_lowering(S.pad_p)
def _pad(ctx, x, padding_value, *, padding_config):
    lo, hi, interior = zip(*padding_config) if padding_config else ((), (), ())
    return hlo.pad(x, padding_value, _i64(lo), _i64(hi), _i64(interior))


@register_lowering(S.rev_p)
def _rev(ctx, x, *, dimensions):
    return hlo.reverse(x, _i64(dimensions))


@register_lowering(S.clamp_p)
def _clamp(ctx, lo, x, hi):
    return hlo.clamp(lo, x, hi)


@register_lowering(S.bitcast_convert_type_p)
def _bitcast_convert_type(ctx, x, *, new_dtype):
    if ctx.avals_in[0].dtype == new_dtype:
        return x
    return hlo.bitcast_convert(aval_to_ir_type(ctx.aval_out), x)
