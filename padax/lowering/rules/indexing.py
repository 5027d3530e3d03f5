"""Lowerings of gather and scatter (with the out-of-bounds modes built around them)."""
from __future__ import annotations

import numpy as np

from padax.core import dtypes
from padax.functional.lax import indexing as I
from padax.lowering._mlir import hlo, ir
from padax.lowering.mlir import aval_to_ir_type, full_like_aval, ir_constant, register_lowering
from padax.lowering.rules.elementwise import compare
from padax.lowering.rules.reductions import combiner, reduce_region, scalar_type

Mode = I.GatherScatterMode


def _index_compute_dtype(indices_dtype: np.dtype) -> np.dtype:
    """A signed dtype wide enough to compare indices against operand bounds."""
    return dtypes.int64 if np.dtype(indices_dtype).itemsize == 8 else dtypes.int32


def _in_bounds_mask(indices, idx_aval, upper_bounds):
    """bool[batch...]: every index component i satisfies 0 <= idx[..., i] <= upper_bounds[i]."""
    cdt = _index_compute_dtype(idx_aval.dtype)
    caval = idx_aval.update(dtype=cdt, weak_type=False)
    if idx_aval.dtype != cdt:
        indices = hlo.convert(aval_to_ir_type(caval), indices)
    last = idx_aval.ndim - 1
    ub = hlo.broadcast_in_dim(aval_to_ir_type(caval), ir_constant(np.asarray(upper_bounds, cdt)),
                              ir.DenseI64ArrayAttr.get([last]))
    ok = hlo.and_(compare(indices, full_like_aval(0, caval), "GE", cdt), compare(indices, ub, "LE", cdt))
    mask_aval = caval.update(shape=idx_aval.shape[:-1], dtype=dtypes.bool_)
    init = ir_constant(np.asarray(True))
    return reduce_region([ok], [init], [last], [mask_aval], [dtypes.bool_],
                         lambda accs, xs: [hlo.and_(accs[0], xs[0])])[0]


@register_lowering(I.gather_p)
def _gather(ctx, operand, indices, *, dimension_numbers, slice_sizes, indices_are_sorted,
            unique_indices, mode, fill_value):
    op_aval, idx_aval = ctx.avals_in
    out_aval = ctx.aval_out
    if out_aval.size == 0:
        return full_like_aval(0, out_aval)
    dn = dimension_numbers
    dnums = hlo.GatherDimensionNumbers.get(
        offset_dims=list(dn.offset_dims), collapsed_slice_dims=list(dn.collapsed_slice_dims),
        operand_batching_dims=list(dn.operand_batching_dims),
        start_indices_batching_dims=list(dn.start_indices_batching_dims),
        start_index_map=list(dn.start_index_map), index_vector_dim=idx_aval.ndim - 1)
    # XLA's gather clamps start indices, which is what 'clip' and 'promise_in_bounds' want.
    out = hlo.gather(operand, indices, dnums, ir.DenseI64ArrayAttr.get(list(slice_sizes)),
                     indices_are_sorted=ir.BoolAttr.get(bool(indices_are_sorted)))
    if mode is not Mode.FILL_OR_DROP:
        return out
    upper = [op_aval.shape[d] - slice_sizes[d] for d in dn.start_index_map]
    mask = _in_bounds_mask(indices, idx_aval, upper)
    batch_positions = [i for i in range(out_aval.ndim) if i not in dn.offset_dims]
    mask = hlo.broadcast_in_dim(aval_to_ir_type(out_aval.update(dtype=dtypes.bool_)), mask,
                                ir.DenseI64ArrayAttr.get(batch_positions))
    return hlo.select(mask, out, full_like_aval(fill_value, out_aval))


def _window_sizes(op_aval, upd_aval, dn) -> list[int]:
    """The extent of one update window along each operand dimension."""
    sizes, it = [], iter(dn.update_window_dims)
    for d in range(op_aval.ndim):
        if d in dn.inserted_window_dims or d in dn.operand_batching_dims:
            sizes.append(1)
        else:
            sizes.append(upd_aval.shape[next(it)])
    return sizes


def _clamp_indices(indices, idx_aval, upper_bounds):
    """Clamp each index component i into [0, upper_bounds[i]] (in the indices' own dtype)."""
    dt = idx_aval.dtype
    hi = np.iinfo(dt).max
    ub = np.asarray([min(int(u), hi) for u in upper_bounds], dt)
    ub = hlo.broadcast_in_dim(aval_to_ir_type(idx_aval), ir_constant(ub),
                              ir.DenseI64ArrayAttr.get([idx_aval.ndim - 1]))
    return hlo.clamp(full_like_aval(0, idx_aval), indices, ub)


def _scatter_rule(kind: str | None):
    def rule(ctx, operand, indices, updates, *, dimension_numbers, indices_are_sorted,
             unique_indices, mode):
        op_aval, idx_aval, upd_aval = ctx.avals_in
        dn = dimension_numbers
        if upd_aval.size == 0:
            return operand
        if mode is Mode.CLIP:
            win = _window_sizes(op_aval, upd_aval, dn)
            indices = _clamp_indices(indices, idx_aval, [op_aval.shape[d] - win[d]
                                                         for d in dn.scatter_dims_to_operand_dims])
        # otherwise XLA's own semantics apply: a window not entirely in bounds is skipped
        dnums = hlo.ScatterDimensionNumbers.get(
            update_window_dims=list(dn.update_window_dims),
            inserted_window_dims=list(dn.inserted_window_dims),
            input_batching_dims=list(dn.operand_batching_dims),
            scatter_indices_batching_dims=list(dn.scatter_indices_batching_dims),
            scattered_dims_to_operand_dims=list(dn.scatter_dims_to_operand_dims),
            index_vector_dim=idx_aval.ndim - 1)
        op = hlo.ScatterOp([aval_to_ir_type(ctx.aval_out)], [operand], indices, [updates], dnums,
                           indices_are_sorted=ir.BoolAttr.get(bool(indices_are_sorted)),
                           unique_indices=ir.BoolAttr.get(bool(unique_indices)))
        st = scalar_type(op_aval.dtype)
        block = op.update_computation.blocks.append(st, st)
        with ir.InsertionPoint(block):
            old, new = block.arguments
            hlo.return_([new if kind is None else combiner(kind, op_aval.dtype)(old, new)])
        return op.results[0]
    return rule


for _name, _kind in [("scatter", None), ("scatter_add", "sum"), ("scatter_mul", "prod"),
                     ("scatter_min", "min"), ("scatter_max", "max")]:
    register_lowering(I.scatter_primitives[_name], _scatter_rule(_kind))
