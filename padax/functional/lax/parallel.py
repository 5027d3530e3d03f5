"""Collectives over a named axis: psum, pmean, pmax, pmin, all_gather, axis_index, ppermute.

A named axis is introduced by `vmap(..., axis_name=...)` (and by shard_map);
inside it these primitives communicate across the members of the axis. The
vmap implementation is each primitive's `collective_batch_rule`, invoked by
the batching trace that owns the axis name.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from padax.core import dtypes
from padax.core.abstract import ShapedArray, get_aval
from padax.core.ad_util import Zero, deflinear, instantiate, tangent_aval
from padax.core.errors import op_type_error, op_value_error
from padax.core.primitive import Primitive
from padax.core.source_info import user_location
from padax.core.trace import trace_state
from padax.functional._arrays import asarray, broadcast_to, static_int
from padax.functional.lax import reductions as R
from padax.functional.lax.dot import dot_general
from padax.functional.lax.elementwise import div, eq, mul
from padax.functional.lax.structural import (
    broadcast,
    convert_element_type,
    dynamic_slice_in_dim,
    iota,
    moveaxis,
    reshape,
    squeeze,
)
from padax.runtime import tree as tree_util


class UnboundAxisError(NameError):
    """A collective named an axis that no enclosing vmap/shard_map provides.

    Args:
        *args: the error message (naming the collective, the axis and the user's line), as for NameError.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> try:
        ...     lax.psum(padax.ones([2]), 'i')
        ... except lax.UnboundAxisError as e:
        ...     print(str(e)[:41])
        psum: axis name 'i' is not bound here (at
    """


def _axis_tuple(axis_name: Any) -> tuple:
    return tuple(axis_name) if isinstance(axis_name, (tuple, list)) else (axis_name,)


def _unbound_impl(name: str):
    def impl(*args, axis_name, **params):
        raise UnboundAxisError(f"{name}: axis name {axis_name!r} is not bound here{user_location()}; "
                               "collectives run inside vmap(..., axis_name=...) or shard_map")
    return impl


def _same_aval(x, **params):
    return x


psum_p = Primitive("psum")
pmax_p = Primitive("pmax")
pmin_p = Primitive("pmin")
ppermute_p = Primitive("ppermute")
all_gather_p = Primitive("all_gather")
axis_index_p = Primitive("axis_index")

for _p in (psum_p, pmax_p, pmin_p, ppermute_p):
    _p.def_abstract_eval(_same_aval)
    _p.def_impl(_unbound_impl(_p.name))
all_gather_p.def_impl(_unbound_impl("all_gather"))
axis_index_p.def_impl(_unbound_impl("axis_index"))


@all_gather_p.def_abstract_eval
def _all_gather_abstract(x, *, axis_name, axis, tiled, axis_size):
    shape = list(x.shape)
    if tiled:
        shape[axis] *= axis_size
    else:
        shape.insert(axis, axis_size)
    return ShapedArray(tuple(shape), x.dtype, x.weak_type)


@axis_index_p.def_abstract_eval
def _axis_index_abstract(*, axis_name):
    return ShapedArray((), dtypes.int32, False)


# ---- vmap implementations ------------------------------------------------------------

def _reduce_collective(reduce_name: str):
    def rule(trace, args, dims, *, axis_name):
        (x,), (d,) = args, dims
        if d is None:  # the same value on every member
            if reduce_name == "sum":
                return mul(x, trace.axis_size), None
            return x, None
        fn = {"sum": R.reduce_sum, "max": R.reduce_max, "min": R.reduce_min}[reduce_name]
        return fn(x, (d,)), None
    return rule


psum_p.collective_batch_rule = _reduce_collective("sum")
pmax_p.collective_batch_rule = _reduce_collective("max")
pmin_p.collective_batch_rule = _reduce_collective("min")


def _all_gather_collective(trace, args, dims, *, axis_name, axis, tiled, axis_size):
    (x,), (d,) = args, dims
    x = broadcast(x, (trace.axis_size,)) if d is None else moveaxis(x, d, 0)
    x = moveaxis(x, 0, axis)
    if tiled:
        shape = list(get_aval(x).shape)
        n = shape.pop(axis)
        shape[axis] *= n
        x = reshape(x, tuple(shape))
    return x, None


all_gather_p.collective_batch_rule = _all_gather_collective


def _axis_index_collective(trace, args, dims, *, axis_name):
    return iota(dtypes.int32, trace.axis_size), 0


axis_index_p.collective_batch_rule = _axis_index_collective


def _ppermute_collective(trace, args, dims, *, axis_name, perm):
    (x,), (d,) = args, dims
    n = trace.axis_size
    p = np.zeros((n, n), dtype=np.float32)  # out[dst] = x[src]
    for src, dst in perm:
        p[dst, src] = 1
    if d is None:
        x, d = broadcast(x, (n,)), 0
    x = moveaxis(x, d, 0)
    dt = get_aval(x).dtype
    mat = convert_element_type(asarray(p), dt if dt != dtypes.bool_ else dtypes.int32)
    xx = x if dt != dtypes.bool_ else convert_element_type(x, dtypes.int32)
    out = dot_general(mat, xx, (((1,), (0,)), ((), ())))
    if dt == dtypes.bool_:
        out = convert_element_type(out, dtypes.bool_)
    return out, 0


ppermute_p.collective_batch_rule = _ppermute_collective


# ---- differentiation ------------------------------------------------------------------

deflinear(psum_p, lambda ct, x, *, axis_name: [None if type(ct) is Zero
                                                        else psum_p.bind(instantiate(ct), axis_name=axis_name)])


def _ppermute_transpose(ct, x, *, axis_name, perm):
    if type(ct) is Zero:
        return [None]
    inverse = tuple((dst, src) for src, dst in perm)
    return [ppermute_p.bind(ct, axis_name=axis_name, perm=inverse)]


deflinear(ppermute_p, _ppermute_transpose)


def _all_gather_transpose(ct, x, *, axis_name, axis, tiled, axis_size):
    if type(ct) is Zero:
        return [None]
    summed = psum_p.bind(ct, axis_name=axis_name)
    idx = axis_index_p.bind(axis_name=axis_name)
    size = x.aval.shape[axis] if tiled else 1
    piece = dynamic_slice_in_dim(summed, mul(idx, size), size, axis)
    return [piece if tiled else squeeze(piece, (axis,))]


deflinear(all_gather_p, _all_gather_transpose)


def _extremum_jvp(prim):
    def jvp(primals, tangents, *, axis_name):
        (x,), (t,) = primals, tangents
        out = prim.bind(x, axis_name=axis_name)
        if type(t) is Zero:
            return out, Zero(tangent_aval(get_aval(out)))
        hit = convert_element_type(eq(x, out), get_aval(t).dtype)
        count = psum_p.bind(hit, axis_name=axis_name)
        return out, div(psum_p.bind(mul(t, hit), axis_name=axis_name), count)
    prim.jvp_rule = jvp


_extremum_jvp(pmax_p)
_extremum_jvp(pmin_p)


# ---- public functions ----------------------------------------------------------------------

def psum(x: Any, axis_name: Any) -> Any:
    """Sum over the members of a named axis (each member gets the total).

    Args:
        x: an array or a pytree of arrays.
        axis_name: an axis bound by vmap(..., axis_name=...) or shard_map (or a tuple of them).

    Returns:
        A tree like `x`: every member's sum.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> padax.vmap(lambda v: lax.psum(v, 'i'), axis_name='i')(padax.to_tensor([1.0, 2.0, 3.0])).tolist()
        [6.0, 6.0, 6.0]
    """
    return tree_util.map(lambda v: psum_p.bind(asarray(v), axis_name=axis_name), x)


def pmean(x: Any, axis_name: Any) -> Any:
    """Mean over the members of a named axis (each member gets it).

    Args:
        x: an array or a pytree of arrays.
        axis_name: an axis bound by vmap(..., axis_name=...) or shard_map (or a tuple of them).

    Returns:
        A tree like `x`.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> padax.vmap(lambda v: lax.pmean(v, 'i'), axis_name='i')(padax.to_tensor([1.0, 2.0, 6.0])).tolist()
        [3.0, 3.0, 3.0]
    """

    def one(v):
        v = asarray(v)
        n = psum_p.bind(asarray(np.ones((), get_aval(v).dtype)), axis_name=axis_name)
        return div(psum_p.bind(v, axis_name=axis_name), broadcast_to(n, get_aval(v).shape))
    return tree_util.map(one, x)


def pmax(x: Any, axis_name: Any) -> Any:
    """Maximum over the members of a named axis (each member gets it).

    Args:
        x: an array or a pytree of arrays.
        axis_name: an axis bound by vmap(..., axis_name=...) or shard_map (or a tuple of them).

    Returns:
        A tree like `x`.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> padax.vmap(lambda v: lax.pmax(v, 'i'), axis_name='i')(padax.to_tensor([1.0, 5.0, 3.0])).tolist()
        [5.0, 5.0, 5.0]
    """
    return tree_util.map(lambda v: pmax_p.bind(asarray(v), axis_name=axis_name), x)


def pmin(x: Any, axis_name: Any) -> Any:
    """Minimum over the members of a named axis (each member gets it).

    Args:
        x: an array or a pytree of arrays.
        axis_name: an axis bound by vmap(..., axis_name=...) or shard_map (or a tuple of them).

    Returns:
        A tree like `x`.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> padax.vmap(lambda v: lax.pmin(v, 'i'), axis_name='i')(padax.to_tensor([4.0, 5.0, 3.0])).tolist()
        [3.0, 3.0, 3.0]
    """
    return tree_util.map(lambda v: pmin_p.bind(asarray(v), axis_name=axis_name), x)


def axis_index(axis_name: Any) -> Any:
    """This member's index along a named axis (an int32 scalar).

    Args:
        axis_name: an axis bound by vmap(..., axis_name=...) or shard_map.

    Returns:
        An int32 scalar array.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> padax.vmap(lambda v: lax.axis_index('i'), axis_name='i')(padax.zeros([3])).tolist()
        [0, 1, 2]
    """
    return axis_index_p.bind(axis_name=axis_name)


def axis_size(axis_name: Any) -> int:
    """Number of members of a named axis (or of a tuple of axes).

    A Python int, as in jax, so it can size loops, permutations and reshapes.

    Args:
        axis_name: an axis bound by vmap(..., axis_name=...) or shard_map, or a tuple of them.

    Returns:
        An int.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> padax.vmap(lambda v: v * lax.axis_size('i'), axis_name='i')(padax.to_tensor([1.0, 2.0, 3.0])).tolist()
        [3.0, 6.0, 9.0]
    """
    return _static_axis_size(axis_name, "axis_size")


def all_gather(x: Any, axis_name: Any, *, axis: int = 0, tiled: bool = False) -> Any:
    """Every member's `x`, stacked along a new `axis` (or concatenated along `axis` if `tiled`).

    Args:
        x: an array.
        axis_name: an axis bound by vmap(..., axis_name=...) or shard_map.
        axis: where the members' values go in the result.
        tiled: concatenate instead of stacking.

    Returns:
        An array with x's dims plus one of the axis size (or `axis` multiplied by it if tiled).

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> padax.vmap(lambda v: lax.all_gather(v, 'i'), axis_name='i')(padax.to_tensor([1.0, 2.0])).tolist()
        [[1.0, 2.0], [1.0, 2.0]]
    """
    x = asarray(x)
    size = _static_axis_size(axis_name)
    nd = get_aval(x).ndim + (0 if tiled else 1)
    return all_gather_p.bind(x, axis_name=axis_name, axis=int(axis) % max(nd, 1), tiled=bool(tiled),
                             axis_size=size)


def ppermute(x: Any, axis_name: Any, perm: Sequence[tuple[int, int]]) -> Any:
    """Send member src's `x` to member dst for each (src, dst); members not receiving get zeros.

    Args:
        x: an array.
        axis_name: an axis bound by vmap(..., axis_name=...) or shard_map.
        perm: (source, destination) pairs, each member at most once as a source and as a destination.

    Returns:
        An array like `x`.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> x = padax.to_tensor([1.0, 2.0, 3.0])
        >>> padax.vmap(lambda v: lax.ppermute(v, 'i', [(0, 1), (1, 2), (2, 0)]), axis_name='i')(x).tolist()
        [3.0, 1.0, 2.0]
        >>> padax.vmap(lambda v: lax.ppermute(v, 'i', [(0, 1)]), axis_name='i')(x).tolist()
        [0.0, 1.0, 0.0]
    """
    try:
        pairs = [tuple(pair) for pair in perm]
    except TypeError:
        raise op_type_error("ppermute", f"perm must be a sequence of (source, destination) pairs, got {perm!r}") from None
    if any(len(pair) != 2 for pair in pairs):
        raise op_type_error("ppermute", f"perm must be a sequence of (source, destination) pairs, got {perm!r}")
    perm = tuple((static_int("ppermute", s, "a perm source"), static_int("ppermute", d, "a perm destination"))
                 for s, d in pairs)
    dsts = [d for _, d in perm]
    srcs = [s for s, _ in perm]
    if len(set(dsts)) != len(dsts) or len(set(srcs)) != len(srcs):
        raise op_value_error("ppermute", f"perm {perm} sends from or to a member more than once")
    size = _static_axis_size(axis_name, "ppermute")
    bad = [pair for pair in perm if not (0 <= pair[0] < size and 0 <= pair[1] < size)]
    if bad:
        raise op_value_error("ppermute", f"perm pairs {bad} name members outside axis {axis_name!r} of size {size}: "
                                         f"sources and destinations must be in [0, {size})")
    return ppermute_p.bind(asarray(x), axis_name=axis_name, perm=perm)


def _static_axis_size(axis_name: Any, op: str = "all_gather") -> int:
    """The size of the innermost enclosing vmap/shard_map axis with this name (for a tuple of
    names, the product of their sizes)."""
    t = trace_state.trace
    while t is not None:
        if getattr(t, "axis_name", None) == axis_name:
            return t.axis_size
        t = getattr(t, "parent", None) or getattr(t, "enclosing", None)
    if isinstance(axis_name, (tuple, list)) and len(axis_name) != 1:
        return int(np.prod([_static_axis_size(a, op) for a in axis_name], dtype=np.int64))
    if isinstance(axis_name, (tuple, list)):
        return _static_axis_size(axis_name[0], op)
    raise UnboundAxisError(f"{op}: axis name {axis_name!r} is not bound here{user_location()}")


__all__ = ["psum", "pmean", "pmax", "pmin", "axis_index", "axis_size", "all_gather", "ppermute",
           "UnboundAxisError"]


# ---- vmap over a *different* axis than the one the collective names: pass through --------

def _passthrough_batch(prim):
    def rule(args, dims, **params):
        return prim.bind(args[0], **params), dims[0]
    prim.batch_rule = rule


for _p in (psum_p, pmax_p, pmin_p, ppermute_p):
    _passthrough_batch(_p)


def _all_gather_batch(args, dims, *, axis_name, axis, tiled, axis_size):
    x = moveaxis(args[0], dims[0], 0)
    return all_gather_p.bind(x, axis_name=axis_name, axis=axis + 1, tiled=tiled, axis_size=axis_size), 0


all_gather_p.batch_rule = _all_gather_batch
