"""Parallel prefix and tree reductions with a user's associative function:
`associative_scan`, `reduce` and `cumlogsumexp` (jax.lax's signatures).

They are composites of slices, concatenations and the user's function, so they
differentiate (to any order, Taylor mode included), vectorise and compile like the
primitives they are made of. `associative_scan` takes O(log n) rounds of O(n) work
(the odd/even recursion: combine neighbouring pairs, scan the pairs, then fill in the
even positions); `reduce` with a computation that is a known monoid (add, mul, max,
min, and, or) uses the reduction primitive, otherwise it halves the reduced axis
log2(n) times.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from padax.core import dtypes
from padax.core.abstract import get_aval
from padax.core.errors import op_type_error, op_value_error
from padax.functional._arrays import full
from padax.functional.lax import elementwise as E, reductions as R
from padax.functional.lax.control.common import _operand
from padax.functional.lax.structural import (
    broadcast_in_dim,
    concatenate,
    convert_element_type,
    reshape,
    rev,
    select_n,
    slice as lslice,
    transpose,
)
from padax.interpreters.staging import trace_flat
from padax.runtime import tree as tree_util

__all__ = ["associative_scan", "reduce", "cumlogsumexp"]


def _slice_axis(x: Any, start: int, stop: int, step: int, axis: int) -> Any:
    a = get_aval(x)
    starts = [0] * a.ndim
    limits = list(a.shape)
    strides = [1] * a.ndim
    starts[axis], limits[axis], strides[axis] = start, max(start, stop), step
    return lslice(x, tuple(starts), tuple(limits), tuple(strides))


def _interleave(evens: Any, odds: Any, axis: int) -> Any:
    """result[2i] = evens[i], result[2i + 1] = odds[i] along `axis` (evens may hold one more)."""
    ea, oa = get_aval(evens), get_aval(odds)
    m = oa.shape[axis]
    head = _slice_axis(evens, 0, m, 1, axis) if ea.shape[axis] > m else evens
    shape = oa.shape[:axis + 1] + (1,) + oa.shape[axis + 1:]
    dims = tuple(i if i <= axis else i + 1 for i in range(oa.ndim))
    pair = concatenate([broadcast_in_dim(head, shape, dims), broadcast_in_dim(odds, shape, dims)], axis + 1)
    merged = reshape(pair, oa.shape[:axis] + (2 * m,) + oa.shape[axis + 1:])
    if ea.shape[axis] > m:
        merged = concatenate([merged, _slice_axis(evens, m, m + 1, 1, axis)], axis)
    return merged


def associative_scan(fn: Callable, elems: Any, reverse: bool = False, axis: int = 0) -> Any:
    """Inclusive scan of `elems` with an associative `fn`, in O(log n) parallel rounds.

    out[i] = fn(... fn(fn(elems[0], elems[1]), elems[2]) ..., elems[i]). The combination order
    is a balanced tree, so `fn` must be associative (not necessarily commutative).

    Args:
        fn: fn(a, b) maps two trees of slices (stacked along `axis`) to one tree of the same shapes.
        elems: an array, or a pytree of arrays of one length along `axis`.
        reverse: scan from the end.
        axis: the axis to scan.

    Returns:
        A tree like `elems`.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> lax.associative_scan(lax.add, padax.to_tensor([1, 2, 3, 4])).tolist()
        [1, 3, 6, 10]
        >>> # the recurrence h[i] = a[i] * h[i-1] + b[i], as a scan of affine maps (a, b)
        >>> compose = lambda f, g: (f[0] * g[0], g[0] * f[1] + g[1])
        >>> lax.associative_scan(compose, (padax.to_tensor([2.0, 2.0, 2.0]), padax.ones([3])))[1].tolist()
        [1.0, 3.0, 7.0]
    """
    op = "associative_scan"
    if not callable(fn):
        raise TypeError(f"{op}: fn must be callable, got {type(fn).__name__}")
    leaves, tree = tree_util.flatten(elems)
    if not leaves:
        raise op_value_error(op, "elems must contain at least one array")
    leaves = [_operand(x, op) for x in leaves]
    avals = [get_aval(x) for x in leaves]
    ranks = {a.ndim for a in avals}
    if axis < 0:
        if len(ranks) != 1:
            raise op_value_error(op, f"a negative axis needs leaves of one rank; got shapes {[a.shape for a in avals]}")
        axis += ranks.pop()
    if not 0 <= axis < min(a.ndim for a in avals):
        raise op_value_error(op, f"axis {axis} is out of range for elems of shapes {[a.shape for a in avals]}")
    n = avals[0].shape[axis]
    if any(a.shape[axis] != n for a in avals):
        raise op_value_error(op, f"every leaf of elems must have the same length along axis {axis}; got shapes "
                                 f"{[a.shape for a in avals]}")
    if reverse:
        leaves = [rev(x, (axis,)) for x in leaves]

    def combine(xs: list, ys: list) -> list:
        out = fn(tree.unflatten(xs), tree.unflatten(ys))
        o_leaves, o_tree = tree_util.flatten(out)
        if o_tree != tree:
            raise op_type_error(op, f"fn must return the structure of its inputs {tree}, got {o_tree}")
        for x, o in zip(xs, o_leaves):
            xa, oa = get_aval(x), get_aval(o)
            if xa.shape != oa.shape or xa.dtype != oa.dtype:
                raise op_type_error(op, f"fn changed a shape or dtype: it got {xa.str_short()} and returned "
                                        f"{oa.str_short()}; fn must combine elements elementwise, keeping "
                                        "shapes and dtypes")
        return o_leaves

    def scan(xs: list) -> list:
        m = get_aval(xs[0]).shape[axis]
        if m < 2:
            return xs
        pairs = combine([_slice_axis(x, 0, m - 1, 2, axis) for x in xs], [_slice_axis(x, 1, m, 2, axis) for x in xs])
        odds = scan(pairs)                          # prefixes at positions 1, 3, 5, ...
        k = (m - 1) // 2                            # even positions 2, 4, ... after the first
        if k:
            evens = combine([_slice_axis(o, 0, k, 1, axis) for o in odds],
                            [_slice_axis(x, 2, m, 2, axis) for x in xs])
            evens = [concatenate([_slice_axis(x, 0, 1, 1, axis), e], axis) for x, e in zip(xs, evens)]
        else:
            evens = [_slice_axis(x, 0, 1, 1, axis) for x in xs]
        return [_interleave(e, o, axis) for e, o in zip(evens, odds)]

    out = scan(leaves)
    if reverse:
        out = [rev(x, (axis,)) for x in out]
    return tree.unflatten(out)


# ---- reduce --------------------------------------------------------------------------------------

def _monoid(computation: Callable, avals: Sequence) -> Any:
    """The reduction primitive when `computation(x, y)` is one add/mul/max/min/and/or of x and y."""
    if len(avals) != 1:
        return None
    scalar = avals[0].update(shape=())
    try:
        closed = trace_flat(lambda x, y: tree_util.leaves(computation(x, y)), [scalar, scalar], "reduce computation")
    except Exception:  # not a plain binary function of two scalars: use the general path
        return None
    j = closed.jaxpr
    if len(j.eqns) != 1 or len(j.outvars) != 1 or j.outvars[0] is not j.eqns[0].outvars[0]:
        return None
    eqn = j.eqns[0]
    if sorted(map(id, eqn.invars)) != sorted(map(id, j.invars)):
        return None
    table = {E.add_p: R.reduce_sum_p, E.mul_p: R.reduce_prod_p, E.max_p: R.reduce_max_p, E.min_p: R.reduce_min_p,
             E.and_p: R.reduce_and_p, E.or_p: R.reduce_or_p}
    return table.get(eqn.primitive)


def reduce(operands: Any, init_values: Any, computation: Callable, dimensions: Sequence[int]) -> Any:
    """Reduce `operands` over `dimensions` with `computation`, starting from `init_values`.

    A computation that is one add/mul/max/min/and/or of its arguments uses the reduction
    primitive; any other halves the reduced axes log2(n) times.

    Args:
        operands: an array, or a pytree of arrays of one shape.
        init_values: the computation's identity: a scalar, or a tree like `operands` of scalars.
        computation: computation(x, y), associative and commutative, on trees like `operands`.
        dimensions: the axes to reduce.

    Returns:
        A tree like `operands`, each array without `dimensions`.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> lax.reduce(padax.to_tensor([[1, 2], [3, 4]]), 0, lax.add, (0,)).tolist()
        [4, 6]
        >>> max_abs = lambda x, y: lax.max(lax.abs(x), lax.abs(y))
        >>> lax.reduce(padax.to_tensor([[1.0, -2.0], [3.0, -4.0]]), 0.0, max_abs, (1,)).tolist()
        [2.0, 4.0]
    """
    op = "reduce"
    if not callable(computation):
        raise TypeError(f"{op}: computation must be callable, got {type(computation).__name__}")
    x_leaves, tree = tree_util.flatten(operands)
    i_leaves, i_tree = tree_util.flatten(init_values)
    if i_tree != tree:
        raise op_type_error(op, f"init_values must have the structure of operands {tree}, got {i_tree}")
    x_leaves = [_operand(x, op) for x in x_leaves]
    avals = [get_aval(x) for x in x_leaves]
    shape = avals[0].shape
    if any(a.shape != shape for a in avals):
        raise op_type_error(op, f"operands must share one shape, got {[a.str_short() for a in avals]}")
    dims = tuple(sorted({int(d) % max(len(shape), 1) for d in dimensions}))
    if any(not -len(shape) <= int(d) < len(shape) for d in dimensions):
        raise op_value_error(op, f"dimensions {tuple(dimensions)} out of range for operands of shape {shape}")
    inits = [convert_element_type(_operand(v, op), a.dtype) for v, a in zip(i_leaves, avals)]
    for v in inits:
        if get_aval(v).shape != ():
            raise op_type_error(op, f"init_values must be scalars, got {get_aval(v).str_short()}")
    if not dims:
        return operands if not isinstance(operands, (list, tuple)) else tree.unflatten(x_leaves)
    prim = _monoid(computation, avals)
    if prim is not None:
        out = prim.bind(x_leaves[0], axes=dims)
        res = computation(broadcast_in_dim(inits[0], get_aval(out).shape, ()), out)
        return tree.unflatten(tree_util.leaves(res))
    kept = tuple(i for i in range(len(shape)) if i not in dims)
    out_shape = tuple(shape[i] for i in kept)
    m = int(np.prod([shape[i] for i in dims]))
    grouped = [reshape(transpose(x, kept + dims), out_shape + (m,)) for x in x_leaves]
    ax = len(out_shape)
    size = 1
    while size < m:
        size *= 2
    if size > m:  # pad with the identity to a power of two
        grouped = [concatenate([g, broadcast_in_dim(v, out_shape + (size - m,), ())], ax)
                   for g, v in zip(grouped, inits)]
    while size > 1:
        half = size // 2
        lo = [_slice_axis(g, 0, half, 1, ax) for g in grouped]
        hi = [_slice_axis(g, half, size, 1, ax) for g in grouped]
        res = tree_util.leaves(computation(tree.unflatten(lo), tree.unflatten(hi)))
        if len(res) != len(lo) or any(get_aval(r).shape != get_aval(a).shape for r, a in zip(res, lo)):
            raise op_type_error(op, "computation must return the structure and shapes of its inputs")
        grouped, size = res, half
    return tree.unflatten([reshape(g, out_shape) for g in grouped])


# ---- cumlogsumexp ----------------------------------------------------------------------------------

def _logaddexp(a: Any, b: Any) -> Any:
    """log(exp(a) + exp(b)), stable, and -inf when both are -inf.

    The larger operand and the gap are picked by one comparison (b on ties), so that at a == b the
    derivatives are those of the smooth function (a max/abs split would lose the curvature there).
    """
    a_wins = E.gt(a, b)
    hi = select_n(a_wins, b, a)
    gap = select_n(a_wins, E.sub(a, b), E.sub(b, a))
    av = get_aval(a)
    same_inf = E.bitwise_and(E.eq(a, b), E.bitwise_not(E.is_finite(a)))  # inf - inf is NaN
    gap = select_n(same_inf, gap, full(av.shape, 0, av.dtype))
    return E.add(hi, E.log1p(E.exp(gap)))


def cumlogsumexp(operand: Any, axis: int = 0, reverse: bool = False) -> Any:
    """log(cumsum(exp(operand))) along `axis`, computed stably (a parallel prefix of logaddexp).

    Args:
        operand: a floating array.
        axis: the axis to scan.
        reverse: scan from the end.

    Returns:
        An array of operand's shape and dtype.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> lax.cumlogsumexp(padax.to_tensor([0.0, 0.0, 0.0])).tolist()   # log 1, log 2, log 3
        [0.0, 0.69315, 1.09861]
        >>> lax.cumlogsumexp(padax.to_tensor([1000.0, 1000.0])).tolist()  # no overflow
        [1000.0, 1000.693]
    """
    x = _operand(operand, "cumlogsumexp")
    a = get_aval(x)
    if not dtypes.is_floating(a.dtype):
        raise op_type_error("cumlogsumexp", f"expected a floating operand, got {a.str_short()}")
    return associative_scan(_logaddexp, x, reverse=reverse, axis=axis)
