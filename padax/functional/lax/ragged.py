"""ragged_dot and ragged_dot_general: grouped matrix products (rows of lhs in consecutive groups, one rhs
matrix per group; or, in general, one ragged dimension of lhs split into groups).

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


class RaggedDotDimensionNumbers:
    """The dimensions of a ragged_dot_general, as jax.lax.RaggedDotDimensionNumbers.

    Args:
        dot_dimension_numbers: ((lhs_contracting, rhs_contracting), (lhs_batch, rhs_batch)), as dot_general's.
        lhs_ragged_dimensions: one lhs dimension, split into groups by group_sizes.
        rhs_group_dimensions: the rhs dimension indexing the groups (one when the ragged dimension is a
            non-contracting one, none otherwise).
    """

    __slots__ = ("dot_dimension_numbers", "lhs_ragged_dimensions", "rhs_group_dimensions")

    def __init__(self, dot_dimension_numbers, lhs_ragged_dimensions, rhs_group_dimensions):
        object.__setattr__(self, "dot_dimension_numbers",
                           tuple(tuple(tuple(int(d) for d in dims) for dims in t) for t in dot_dimension_numbers))
        object.__setattr__(self, "lhs_ragged_dimensions", tuple(int(d) for d in lhs_ragged_dimensions))
        object.__setattr__(self, "rhs_group_dimensions", tuple(int(d) for d in rhs_group_dimensions))

    def __setattr__(self, name, value):
        raise AttributeError("RaggedDotDimensionNumbers is immutable")

    def _key(self):
        return self.dot_dimension_numbers, self.lhs_ragged_dimensions, self.rhs_group_dimensions

    def __eq__(self, other):
        return isinstance(other, RaggedDotDimensionNumbers) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return (f"RaggedDotDimensionNumbers(dot_dimension_numbers={self.dot_dimension_numbers}, "
                f"lhs_ragged_dimensions={self.lhs_ragged_dimensions}, "
                f"rhs_group_dimensions={self.rhs_group_dimensions})")


def _remaining(rank, *used):
    taken = {d for u in used for d in u}
    return [d for d in range(rank) if d not in taken]


def _prefix(mode, rank, ragged, batch, contract):
    """The dimensions of x that group_sizes' leading axes stand for (jax's rule)."""
    batch, contract = list(batch), list(contract)
    if mode == "noncontracting":
        free = _remaining(rank, contract, batch)
        return batch + free[:free.index(ragged)]
    if mode == "contracting":
        return batch + contract[:contract.index(ragged)]
    return batch[:batch.index(ragged)]


def _expand(x, dim, gs, axes):
    """[g, *x.shape]: slice i keeps x's entries whose index along `dim` lies in group i (group_sizes gs has
    shape [x.shape[a] for a in axes] + [g]), zeros elsewhere."""
    shape = (gs.aval.shape[-1],) + tuple(x.aval.shape)
    ends = cumsum(gs, axis=gs.aval.ndim - 1)
    starts = sub(ends, gs)
    bdims = tuple(a + 1 for a in axes) + (0,)
    idx = broadcasted_iota(gs.aval.dtype, shape, dim + 1)
    mask = bitwise_and(le(broadcast_in_dim(starts, shape, bdims), idx), lt(idx, broadcast_in_dim(ends, shape, bdims)))
    return select(mask, broadcast_in_dim(x, shape, tuple(range(1, len(shape)))), full(shape, 0, x.aval.dtype))


def ragged_dot_general(lhs, rhs, group_sizes, ragged_dot_dimension_numbers, precision=None,
                       preferred_element_type=None, group_offset=None):
    """Ragged matrix product with dot_general's dimension numbers, as jax.lax.ragged_dot_general.

    One lhs dimension is ragged: split into consecutive groups of sizes group_sizes. Three modes, by the kind of
    that dimension:

    1. non-contracting (m): [b..., m..., k...] x [g, b..., k..., n...] -> [b..., m..., n...], each group's rows
       times its own rhs slice along rhs_group_dimensions;
    2. contracting (k): [b..., m..., k...] x [b..., k..., n...] -> [g, b..., m..., n...], one partial product
       per group of k;
    3. batch: a plain dot_general.

    group_sizes is [g], or has the shape of the lhs dimensions outside the ragged one (jax's rule: the batch
    dims, then the dims of the ragged one's kind before it) followed by g.

    Args:
        lhs, rhs: the operands.
        group_sizes: an integer array of non-negative sizes (may be traced).
        ragged_dot_dimension_numbers: a RaggedDotDimensionNumbers.
        precision, preferred_element_type: as in dot_general.
        group_offset: not supported (nor is it in jax).

    Returns:
        dot_general's result, with a leading group axis in the contracting mode.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> dn = lax.RaggedDotDimensionNumbers((([1], [1]), ([], [])), [0], [0])
        >>> rhs = padax.to_tensor([[[1.0], [1.0]], [[2.0], [2.0]]])
        >>> lax.ragged_dot_general(padax.ones([3, 2]), rhs, padax.to_tensor([1, 2]), dn).tolist()
        [[2.0], [4.0], [4.0]]
        >>> dn_k = lax.RaggedDotDimensionNumbers((([1], [0]), ([], [])), [1], [])
        >>> lax.ragged_dot_general(padax.ones([1, 3]), padax.ones([3, 1]), padax.to_tensor([1, 2]), dn_k).tolist()
        [[[1.0]], [[2.0]]]
    """
    op = "ragged_dot_general"
    if not isinstance(ragged_dot_dimension_numbers, RaggedDotDimensionNumbers):
        raise op_type_error(op, "ragged_dot_dimension_numbers must be a lax.RaggedDotDimensionNumbers, got "
                                f"{type(ragged_dot_dimension_numbers).__name__}")
    if group_offset is not None:
        raise op_value_error(op, "group_offset is not supported (jax does not implement it either); use "
                                 "lax.ragged_dot(..., group_offset=) for the [m, k] x [g, k, n] case")
    lhs, rhs, group_sizes = asarray(lhs), asarray(rhs), asarray(group_sizes)
    la, ra, ga = lhs.aval, rhs.aval, group_sizes.aval
    dn = ragged_dot_dimension_numbers
    (lc, rc), (lb, rb) = dn.dot_dimension_numbers
    lc, rc, lb, rb = list(lc), list(rc), list(lb), list(rb)
    if len(dn.lhs_ragged_dimensions) != 1:
        raise op_value_error(op, f"wants exactly one lhs ragged dimension, got {dn.lhs_ragged_dimensions}")
    ragged = dn.lhs_ragged_dimensions[0]
    if ga.ndim < 1 or ga.dtype.kind not in "iu":
        raise op_type_error(op, f"group_sizes must be an integer array, got {ga.str_short()}")
    if ragged in lb:
        mode = "batch"
    elif ragged in lc:
        mode = "contracting"
    elif 0 <= ragged < la.ndim:
        mode = "noncontracting"
    else:
        raise op_value_error(op, f"lhs ragged dimension {ragged} out of range for lhs {la.str_short()}")
    g = ga.shape[-1]
    if mode == "noncontracting":
        if len(dn.rhs_group_dimensions) != 1:
            raise op_value_error(op, "a non-contracting ragged dimension needs one rhs group dimension, got "
                                     f"{dn.rhs_group_dimensions}")
        if ra.shape[dn.rhs_group_dimensions[0]] != g:
            raise op_value_error(op, f"rhs {ra.str_short()} has {ra.shape[dn.rhs_group_dimensions[0]]} groups "
                                     f"along dimension {dn.rhs_group_dimensions[0]}, group_sizes {g}")
    elif dn.rhs_group_dimensions:
        raise op_value_error(op, f"rhs_group_dimensions must be empty in the {mode} mode, got "
                                 f"{dn.rhs_group_dimensions}")
    if mode == "batch":
        return dot_general(lhs, rhs, (tuple(map(tuple, (lc, rc))), tuple(map(tuple, (lb, rb)))), precision=precision,
                           preferred_element_type=preferred_element_type)
    l_prefix = _prefix(mode, la.ndim, ragged, lb, lc)
    want = tuple(la.shape[i] for i in l_prefix) + (g,)
    if ga.ndim == 1:
        group_sizes = broadcast_in_dim(group_sizes, want, (len(want) - 1,))
    elif tuple(ga.shape) != want:
        raise op_value_error(op, f"group_sizes {ga.str_short()} must be [g] or {list(want)} for lhs "
                                 f"{la.str_short()}")
    inc = [d + 1 for d in lc], [d + 1 for d in lb]
    if mode == "noncontracting":
        return dot_general(_expand(lhs, ragged, group_sizes, l_prefix), rhs,
                           ((tuple(inc[0] + [0]), tuple(rc + [dn.rhs_group_dimensions[0]])), (tuple(inc[1]), tuple(rb))),
                           precision=precision, preferred_element_type=preferred_element_type)
    r_ragged = rc[lc.index(ragged)]
    r_prefix = _prefix(mode, ra.ndim, r_ragged, rb, rc)
    return dot_general(_expand(lhs, ragged, group_sizes, l_prefix), _expand(rhs, r_ragged, group_sizes, r_prefix),
                       ((tuple(inc[0]), tuple(d + 1 for d in rc)), (tuple([0] + inc[1]), tuple([0] + [d + 1 for d in rb]))),
                       precision=precision, preferred_element_type=preferred_element_type)


__all__ = ["RaggedDotDimensionNumbers", "ragged_dot", "ragged_dot_general"]
