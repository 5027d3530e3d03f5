"""Collectives that redistribute an array over a named axis (psum_scatter, all_to_all), and the layout pins
(`with_sharding_constraint`, `pcast`): what changes where the pieces of an array live.

Like the collectives of `parallel.py`, `psum_scatter` and `all_to_all` run
inside `vmap(..., axis_name=...)` (their `collective_batch_rule`) or inside
`shard_map`, where they lower to XLA's reduce-scatter and all-to-all.

`with_sharding_constraint(x, sharding)` pins the layout of an intermediate
value inside `jit` (XLA's sharding propagation works around it); outside
jit it moves the value to that layout.
"""
from __future__ import annotations

from typing import Any

from padax.core.abstract import ShapedArray, get_aval
from padax.core.ad_util import Zero, deflinear, instantiate
from padax.core.errors import op_value_error
from padax.core.primitive import Primitive
from padax.functional._arrays import asarray
from padax.functional.lax import reductions as R
from padax.functional.lax.elementwise import mul
from padax.functional.lax.parallel import _static_axis_size, _unbound_impl, all_gather_p
from padax.functional.lax.structural import broadcast, moveaxis, reshape, transpose
from padax.runtime import tree as tree_util
from padax.runtime.put import device_put
from padax.runtime.sharding import NamedSharding, PartitionSpec, Sharding, resolve_sharding

psum_scatter_p = Primitive("psum_scatter")
all_to_all_p = Primitive("all_to_all")
sharding_constraint_p = Primitive("sharding_constraint")

psum_scatter_p.def_impl(_unbound_impl("psum_scatter"))
all_to_all_p.def_impl(_unbound_impl("all_to_all"))


# ---- psum_scatter: sum over the axis, member i keeps block i --------------------------------

@psum_scatter_p.def_abstract_eval
def _psum_scatter_abstract(x, *, axis_name, scatter_dimension, axis_size, tiled):
    shape = list(x.shape)
    d = scatter_dimension
    if not 0 <= d < len(shape):
        raise op_value_error("psum_scatter", f"scatter_dimension {d} is out of range for {x.str_short()}")
    if tiled:
        if shape[d] % axis_size:
            raise op_value_error("psum_scatter", f"dimension {d} of {x.str_short()} is not divisible by the size "
                                 f"{axis_size} of axis {axis_name!r}")
        shape[d] //= axis_size
    else:
        if shape[d] != axis_size:
            raise op_value_error("psum_scatter", f"dimension {d} of {x.str_short()} must equal the size {axis_size} "
                                 f"of axis {axis_name!r} (or pass tiled=True)")
        del shape[d]
    return ShapedArray(tuple(shape), x.dtype, x.weak_type)


def _psum_scatter_collective(trace, args, dims, *, axis_name, scatter_dimension, axis_size, tiled):
    """vmap over the named axis: sum the members, then hand block i to member i."""
    (x,), (b,) = args, dims
    if b is None:
        total = mul(x, trace.axis_size)
    else:
        total = R.reduce_sum(x, (b,))
    d = scatter_dimension
    shape = list(get_aval(total).shape)
    if tiled:
        shape[d:d + 1] = [axis_size, shape[d] // axis_size]
        total = reshape(total, tuple(shape))
    return moveaxis(total, d, 0), 0


psum_scatter_p.collective_batch_rule = _psum_scatter_collective


def _psum_scatter_batch(args, dims, *, axis_name, scatter_dimension, axis_size, tiled):
    x = moveaxis(args[0], dims[0], 0)
    return psum_scatter_p.bind(x, axis_name=axis_name, scatter_dimension=scatter_dimension + 1,
                               axis_size=axis_size, tiled=tiled), 0


psum_scatter_p.batch_rule = _psum_scatter_batch


def _psum_scatter_transpose(ct, x, *, axis_name, scatter_dimension, axis_size, tiled):
    if type(ct) is Zero:
        return [None]
    return [all_gather_p.bind(instantiate(ct), axis_name=axis_name, axis=scatter_dimension, tiled=tiled,
                              axis_size=axis_size)]


deflinear(psum_scatter_p, _psum_scatter_transpose)


# ---- all_to_all (tiled form; the untiled one is built with reshapes) ---------------------------

@all_to_all_p.def_abstract_eval
def _all_to_all_abstract(x, *, axis_name, split_axis, concat_axis, axis_size):
    shape = list(x.shape)
    for a, what in ((split_axis, "split_axis"), (concat_axis, "concat_axis")):
        if not 0 <= a < len(shape):
            raise op_value_error("all_to_all", f"{what} {a} is out of range for {x.str_short()}")
    if shape[split_axis] % axis_size:
        raise op_value_error("all_to_all", f"dimension {split_axis} of {x.str_short()} is not divisible by the "
                             f"size {axis_size} of axis {axis_name!r}")
    shape[split_axis] //= axis_size
    shape[concat_axis] *= axis_size
    return ShapedArray(tuple(shape), x.dtype, x.weak_type)


def _all_to_all_collective(trace, args, dims, *, axis_name, split_axis, concat_axis, axis_size):
    """vmap over the named axis: member j gets chunk j of every member, concatenated in member order."""
    (x,), (b,) = args, dims
    n = trace.axis_size
    if b is None:
        x, b = broadcast(x, (n,)), 0
    x = moveaxis(x, b, 0)                        # [i, *shape]
    shape = list(get_aval(x).shape)[1:]
    s, c = split_axis, concat_axis
    chunk = shape[s] // n
    split_shape = shape[:s] + [n, chunk] + shape[s + 1:]
    x = reshape(x, tuple([n] + split_shape))     # [i, ..., j, chunk, ...]
    nd = len(shape)
    # positions in x: 0 = i (source member); split dims at 1+s (j) and 2+s (chunk); others shifted
    def pos(k):  # position of original dim k (k != s) in x
        return 1 + k + (1 if k > s else 0)
    j_pos = 1 + s
    chunk_pos = 2 + s
    order = [j_pos]
    for k in range(nd):
        if k == s:
            if k == c:
                order += [0, chunk_pos]
            else:
                order.append(chunk_pos)
        elif k == c:
            order += [0, pos(k)]
        else:
            order.append(pos(k))
    x = transpose(x, tuple(order))               # [j, ..., (i, dim c), ...]
    out_shape = list(shape)
    out_shape[s] = chunk
    out_shape[c] = out_shape[c] * n
    return reshape(x, tuple([n] + out_shape)), 0


all_to_all_p.collective_batch_rule = _all_to_all_collective


def _all_to_all_batch(args, dims, *, axis_name, split_axis, concat_axis, axis_size):
    x = moveaxis(args[0], dims[0], 0)
    return all_to_all_p.bind(x, axis_name=axis_name, split_axis=split_axis + 1, concat_axis=concat_axis + 1,
                             axis_size=axis_size), 0


all_to_all_p.batch_rule = _all_to_all_batch


def _all_to_all_transpose(ct, x, *, axis_name, split_axis, concat_axis, axis_size):
    if type(ct) is Zero:
        return [None]
    return [all_to_all_p.bind(instantiate(ct), axis_name=axis_name, split_axis=concat_axis,
                              concat_axis=split_axis, axis_size=axis_size)]


deflinear(all_to_all_p, _all_to_all_transpose)


# ---- sharding constraints ---------------------------------------------------------------------

@sharding_constraint_p.def_abstract_eval
def _sharding_constraint_abstract(x, *, sharding):
    sharding.check_shape(x.shape, "value given to with_sharding_constraint")
    return x


@sharding_constraint_p.def_impl
def _sharding_constraint_impl(x, *, sharding):
    return device_put(x, sharding)


def _sharding_constraint_jvp(primals, tangents, *, sharding):
    out = sharding_constraint_p.bind(primals[0], sharding=sharding)
    t = tangents[0]
    if type(t) is Zero:
        return out, t
    return out, sharding_constraint_p.bind(t, sharding=sharding)


def _sharding_constraint_transpose(ct, x, *, sharding):
    if type(ct) is Zero:
        return [None]
    return [sharding_constraint_p.bind(instantiate(ct), sharding=sharding)]


def _sharding_constraint_batch(trace, args, dims, *, sharding):
    """The batch dimension is not split, unless vmap's spmd_axis_name lays it over mesh axes."""
    x, d = args[0], dims[0]
    if isinstance(sharding, NamedSharding):
        parts = list(sharding.spec) + [None] * max(0, d - len(sharding.spec))
        parts.insert(d, spmd_axes(trace, sharding.mesh, "with_sharding_constraint"))
        sharding = NamedSharding(sharding.mesh, PartitionSpec(*parts))
    return sharding_constraint_p.bind(x, sharding=sharding), d


def spmd_axes(trace, mesh, what: str):
    """The mesh axes a vmap's spmd_axis_name names (None if it has none), checked against `mesh`."""
    name = trace.spmd_axis_name
    if name is None:
        return None
    names = (name,) if isinstance(name, str) else tuple(name)
    for n in names:
        if n not in mesh.axis_names:
            raise ValueError(f"vmap: spmd_axis_name {n!r} is not an axis of the mesh {mesh.axis_names} "
                             f"used by {what}")
    return names[0] if len(names) == 1 else names


sharding_constraint_p.jvp_rule = _sharding_constraint_jvp
sharding_constraint_p.transpose_rule = _sharding_constraint_transpose
sharding_constraint_p.batch_rule = _sharding_constraint_batch
sharding_constraint_p.batch_rule_takes_trace = True


# ---- public functions -------------------------------------------------------------------------

def psum_scatter(x: Any, axis_name: Any, *, scatter_dimension: int = 0, tiled: bool = False) -> Any:
    """Sum over a named axis, then member i keeps the i-th block along `scatter_dimension`.

    Args:
        x: an array or a pytree of arrays.
        axis_name: an axis bound by vmap(..., axis_name=...) or shard_map.
        scatter_dimension: the dimension split among the members.
        tiled: with False that dimension must have the axis size and is removed; with True it is
            divided by the axis size.

    Returns:
        A tree like `x`, each member's block of the sum.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> x = padax.to_tensor([[1.0, 2.0], [3.0, 4.0]])     # member 0 has [1, 2], member 1 [3, 4]
        >>> padax.vmap(lambda v: lax.psum_scatter(v, 'i'), axis_name='i')(x).tolist()
        [4.0, 6.0]
    """

    def one(v):
        v = asarray(v)
        nd = get_aval(v).ndim
        return psum_scatter_p.bind(v, axis_name=axis_name, scatter_dimension=int(scatter_dimension) % max(nd, 1),
                                   axis_size=_static_axis_size(axis_name), tiled=bool(tiled))
    return tree_util.map(one, x)


def all_to_all(x: Any, axis_name: Any, split_axis: int, concat_axis: int, *, tiled: bool = False) -> Any:
    """Member j gets chunk j (along split_axis) of every member's x, concatenated along concat_axis.

    Args:
        x: an array.
        axis_name: an axis bound by vmap(..., axis_name=...) or shard_map.
        split_axis: the axis cut into one chunk per member.
        concat_axis: the axis along which the received chunks are joined.
        tiled: with False, x.shape[split_axis] must equal the axis size and the result drops that
            dimension, with a new one of the axis size at concat_axis.

    Returns:
        An array of x's dtype.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> x = padax.to_tensor([[1.0, 2.0], [3.0, 4.0]])     # a transpose across the members
        >>> padax.vmap(lambda v: lax.all_to_all(v, 'i', 0, 0), axis_name='i')(x).tolist()
        [[1.0, 3.0], [2.0, 4.0]]
    """
    x = asarray(x)
    shape = list(get_aval(x).shape)
    nd = len(shape)
    n = _static_axis_size(axis_name)
    if tiled:
        return all_to_all_p.bind(x, axis_name=axis_name, split_axis=int(split_axis) % nd,
                                 concat_axis=int(concat_axis) % nd, axis_size=n)
    s = int(split_axis) % nd
    c = int(concat_axis) % nd
    if shape[s] != n:
        raise ValueError(f"all_to_all: x.shape[{s}] = {shape[s]} must equal the size {n} of axis {axis_name!r} "
                         "(or pass tiled=True)")
    q = c if c <= s else c + 1
    s1 = s + 1 if q <= s else s
    x1 = reshape(x, tuple(shape[:q] + [1] + shape[q:]))
    y = all_to_all_p.bind(x1, axis_name=axis_name, split_axis=s1, concat_axis=q, axis_size=n)
    out_shape = list(get_aval(y).shape)
    del out_shape[s1]
    return reshape(y, tuple(out_shape))


def with_sharding_constraint(x: Any, shardings: Any) -> Any:
    """Ask that (a pytree of) values be laid out as `shardings` say at this point of a jit program.

    Args:
        x: an array or a pytree of arrays.
        shardings: a Sharding or PartitionSpec (on the context mesh of padax.set_mesh), or a tree of
            them like `x`.

    Returns:
        `x`'s values, constrained to that layout.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> from padax.sharding import NamedSharding, PartitionSpec
        >>> s = NamedSharding(padax.make_mesh((1,), ('x',)), PartitionSpec('x'))
        >>> padax.jit(lambda v: lax.with_sharding_constraint(v * 2, s))(padax.arange(4.0)).tolist()
        [0.0, 2.0, 4.0, 6.0]
    """
    if isinstance(shardings, (Sharding, PartitionSpec)):
        one = resolve_sharding(shardings, "with_sharding_constraint")
        return tree_util.map(lambda v: sharding_constraint_p.bind(asarray(v), sharding=one), x)
    x_leaves, x_tree = tree_util.flatten(x)
    s_leaves = [resolve_sharding(s, "with_sharding_constraint") for s in
                tree_util.leaves(shardings, is_leaf=lambda s: isinstance(s, (Sharding, PartitionSpec)))]
    if len(s_leaves) != len(x_leaves):
        raise ValueError(f"with_sharding_constraint: {len(x_leaves)} values but {len(s_leaves)} shardings")
    return x_tree.unflatten([sharding_constraint_p.bind(asarray(v), sharding=s) for v, s in zip(x_leaves, s_leaves)])


def pcast(x: Any, axis_name: Any, *, to: str) -> Any:
    """jax's pcast(x, axis, to='varying'): mark values as differing across a shard_map axis.

    jax's shard_map types values as replicated or varying along each mesh axis and needs this
    cast where the types must agree (a scan carry). padax checks replication by analysing the
    body instead (check_rep), so the values pass through unchanged.

    Args:
        x: an array or a pytree of arrays.
        axis_name: the mesh axis (or axes).
        to: 'varying' (the only cast padax needs).

    Returns:
        `x` as arrays.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> padax.vmap(lambda v: lax.pcast(v, 'i', to='varying'), axis_name='i')(padax.to_tensor([1.0, 2.0])).tolist()
        [1.0, 2.0]
    """
    if to != "varying":
        raise ValueError(f"pcast: padax supports to='varying', got to={to!r}")
    return tree_util.map(asarray, x)


__all__ = ["psum_scatter", "all_to_all", "with_sharding_constraint", "pcast"]
