"""Lowerings of sort and top_k; also the NaN-aware scalar comparisons that argmax/argmin reuse."""
from __future__ import annotations

from typing import Sequence

import numpy as np

from padax.core import dtypes
from padax.functional.lax import sorting as S
from padax.lowering._mlir import hlo, ir
from padax.lowering.mlir import aval_to_ir_type, dtype_to_ir_type, register_lowering
from padax.lowering.rules.elementwise import compare


def is_nan(x: ir.Value, dtype) -> ir.Value:
    return compare(x, x, "NE", dtype)


def less_nan_last(a: ir.Value, b: ir.Value, dtype) -> ir.Value:
    """a < b in numpy's sort order: NaN above everything (and not below another NaN)."""
    lt = compare(a, b, "LT", dtype)
    if dtypes.is_floating(dtype):
        lt = hlo.or_(lt, hlo.and_(hlo.not_(is_nan(a, dtype)), is_nan(b, dtype)))
    return lt


def equal_nan(a: ir.Value, b: ir.Value, dtype) -> ir.Value:
    """a == b, with all NaNs equal to each other (and -0.0 == 0.0)."""
    eq = compare(a, b, "EQ", dtype)
    if dtypes.is_floating(dtype):
        eq = hlo.or_(eq, hlo.and_(is_nan(a, dtype), is_nan(b, dtype)))
    return eq


def _real_part_dtype(dtype) -> np.dtype:
    return dtypes.float64 if dtype == dtypes.complex128 else dtypes.float32


def lexicographic_less(lhs: Sequence[ir.Value], rhs: Sequence[ir.Value], key_dtypes) -> ir.Value:
    """lhs < rhs comparing keys in turn (complex keys as (real, imag) pairs)."""
    keys = []
    for a, b, dt in zip(lhs, rhs, key_dtypes):
        if dtypes.is_complex(dt):
            rd = _real_part_dtype(dt)
            keys += [(hlo.real(a), hlo.real(b), rd), (hlo.imag(a), hlo.imag(b), rd)]
        else:
            keys.append((a, b, dt))
    a, b, dt = keys[-1]
    less = less_nan_last(a, b, dt)
    for a, b, dt in reversed(keys[:-1]):
        less = hlo.or_(less_nan_last(a, b, dt), hlo.and_(equal_nan(a, b, dt), less))
    return less


def sort_op(operands: Sequence[ir.Value], avals, dimension: int, is_stable: bool, comparator) -> list[ir.Value]:
    """stablehlo.sort; `comparator(lhs_scalars, rhs_scalars)` returns the i1 'lhs goes first'."""
    op = hlo.SortOp([aval_to_ir_type(a) for a in avals], list(operands), dimension=dimension,
                    is_stable=is_stable)
    types = []
    for a in avals:
        t = ir.RankedTensorType.get([], dtype_to_ir_type(a.dtype))
        types += [t, t]
    block = op.comparator.blocks.append(*types)
    with ir.InsertionPoint(block):
        args = list(block.arguments)
        hlo.return_([comparator(args[0::2], args[1::2])])
    return list(op.results)


@register_lowering(S.sort_p)
def _sort(ctx, *operands, dimension, is_stable, num_keys):
    key_dtypes = [a.dtype for a in ctx.avals_in[:num_keys]]
    return sort_op(operands, ctx.avals_in, dimension, is_stable,
                   lambda l, r: lexicographic_less(l[:num_keys], r[:num_keys], key_dtypes))


@register_lowering(S.top_k_p)
def _top_k(ctx, x, *, k):
    """A stable descending sort of (x, iota) along the last axis, then the first k."""
    aval = ctx.avals_in[0]
    last = aval.ndim - 1
    idx_aval = aval.update(dtype=dtypes.int32, weak_type=False)
    idx = hlo.iota(aval_to_ir_type(idx_aval), ir.IntegerAttr.get(ir.IntegerType.get_signless(64), last))
    vals, idxs = sort_op([x, idx], [aval, idx_aval], last, True,
                         lambda l, r: less_nan_last(r[0], l[0], aval.dtype))
    start, limit, strides = [0] * aval.ndim, list(aval.shape[:-1]) + [k], [1] * aval.ndim
    return [hlo.slice(v, ir.DenseI64ArrayAttr.get(start), ir.DenseI64ArrayAttr.get(limit),
                      ir.DenseI64ArrayAttr.get(strides)) for v in (vals, idxs)]
