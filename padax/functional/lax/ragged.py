"""ragged_dot: a grouped matrix product (rows of lhs in consecutive groups, one rhs matrix per group).

A composite of primitives, not a primitive of its own: each group's rows are picked out of lhs with a
mask built from the group boundaries (cumsum of group_sizes), and one dot_general contracts the group
axis together with k. jvp, transpose, vmap and jit come from the parts; the cost is g dense products
(XLA fuses the masking), which is what jax's own fallback lowering does too.
"""
from __future__ import annotations

from padax.core.errors import op_type_error, op_value_error
from padax.functional._arrays import asarray, full
from padax.functional.lax.cumulative import cumsum
from padax.functional.lax.dot import dot_general
from padax.functional.lax.elementwise import bitwise_and, le, lt, sub
from padax.functional.lax.structural import (
    broadcast_in_dim,
    broadcasted_iota,
    convert_element_type,
    dynamic_slice,
    reshape,
    select,
)


def ragged_dot(lhs, rhs, group_sizes, precision=None, preferred_element_type=None, group_offset=None):
    """Ragged (grouped) matrix product, as jax.lax.ragged_dot: row block i of lhs times rhs[i].

    The rows of lhs are split into consecutive groups of sizes group_sizes[0], group_sizes[1], ...;
    the rows of group i are multiplied by rhs[i]. Rows past sum(group_sizes) give zeros. This is the
    expert computation of a mixture of experts once tokens are sorted by expert.

    Args:
        lhs: an [m, k] array.
        rhs: a [g, k, n] array of lhs's dtype.
        group_sizes: a [G] integer array (G = g without group_offset) of non-negative sizes summing to
            at most m; may be traced.
        precision: as in dot_general.
        preferred_element_type: the result dtype, as in dot_general.
        group_offset: optional [1] integer array o (jax declares it but does not implement it): rhs
            holds groups o .. o+g-1 of the G groups (as on one shard of an expert-parallel layer);
            rows of the other groups give zeros.

    Returns:
        An [m, n] array.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> lhs = padax.ones([3, 2])
        >>> rhs = padax.to_tensor([[[1.0], [1.0]], [[2.0], [2.0]]])
        >>> lax.ragged_dot(lhs, rhs, padax.to_tensor([1, 2])).tolist()
        [[2.0], [4.0], [4.0]]
    """
    lhs, rhs, group_sizes = asarray(lhs), asarray(rhs), asarray(group_sizes)
    la, ra, ga = lhs.aval, rhs.aval, group_sizes.aval
    if la.ndim != 2 or ra.ndim != 3:
        raise op_type_error("ragged_dot", f"wants lhs [m, k] and rhs [g, k, n], got {la.str_short()} and "
                                          f"{ra.str_short()}")
    m, k = la.shape
    g, k2, _ = ra.shape
    if k != k2:
        raise op_type_error("ragged_dot", f"contracting sizes differ: lhs {la.str_short()}, rhs {ra.str_short()}")
    if ga.ndim != 1 or ga.dtype.kind not in "iu":
        raise op_type_error("ragged_dot", f"group_sizes must be a 1-D integer array, got {ga.str_short()}")
    n_groups = ga.shape[0]
    if group_offset is None and n_groups != g:
        raise op_value_error("ragged_dot", f"group_sizes {ga.str_short()} must have rhs's {g} groups "
                                           f"(rhs {ra.str_short()})")
    if group_offset is not None and n_groups < g:
        raise op_value_error("ragged_dot", f"group_sizes {ga.str_short()} has fewer groups than rhs "
                                           f"{ra.str_short()}")
    ends = cumsum(group_sizes, axis=0)
    starts = sub(ends, group_sizes)
    if group_offset is not None:
        off = asarray(group_offset)
        if off.aval.dtype.kind not in "iu" or off.aval.size != 1:
            raise op_type_error("ragged_dot", f"group_offset must be one integer, got {off.aval.str_short()}")
        off = convert_element_type(reshape(off, ()), ga.dtype)
        starts = dynamic_slice(starts, [off], [g])
        ends = dynamic_slice(ends, [off], [g])
    shape = (g, m, k)
    rows = broadcasted_iota(ga.dtype, shape, 1)
    mask = bitwise_and(le(broadcast_in_dim(starts, shape, (0,)), rows),
                       lt(rows, broadcast_in_dim(ends, shape, (0,))))
    expanded = select(mask, broadcast_in_dim(lhs, shape, (1, 2)), full(shape, 0, la.dtype))
    # contract the group axis together with k: only the row's own group contributes
    return dot_general(expanded, rhs, (((0, 2), (0, 1)), ((), ())), precision=precision,
                       preferred_element_type=preferred_element_type)


__all__ = ["ragged_dot"]
