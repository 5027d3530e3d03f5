"""Lowering of shard_map, sharding constraints and the named-axis collectives.

SPMD programs are written in Shardy's form (see padax/lowering/shardy.py). A
shard_map is an `sdy.manual_computation`: its operands are laid out as the
in_specs say on the mesh, and over its `manual_axes` (the mesh axes not
listed in `auto`) every device runs the body on its own block; the results
are put together as the out_specs say. Axes left `auto` stay XLA's: the
body's values are whole along them and the partitioner splits them as it
likes (its shardings are left open for that). A shard_map inside another's
body makes more axes of the same mesh manual. A sharding constraint is an
`sdy.sharding_constraint`.

Collectives inside a body become StableHLO cross-partition ops whose device
groups come from the mesh: for axis names A, a group is the set of devices
that share their coordinates on every other mesh axis, ordered by their
(row-major) coordinates on A. Groups are written as positions in the
program's device assignment (partition ids), with `use_global_device_ids`
and a fresh device-to-device channel per op, as XLA expects for SPMD
partitions. `axis_index` reads the partition id, inside a manual computation
over the free axes when the body has some (partition_id is a per-device
value).
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from padax.core import dtypes
from padax.functional.lax import parallel as par, resharding as pex
from padax.functional.lax.shard_map import shard_map_p
from padax.lowering import shardy
from padax.lowering._mlir import hlo, ir
from padax.lowering.mlir import (
    LoweringError,
    aval_to_ir_type,
    dtype_to_ir_type,
    full_like_aval,
    ir_constant,
    lower_jaxpr_body,
    register_lowering,
)
from padax.runtime.sharding import NamedSharding

_DEVICE_TO_DEVICE = 1


class UnboundAxisLoweringError(LoweringError, NameError):
    """A collective outside any shard_map (nothing gives its axis name a meaning here)."""


# ---- shard_map ----------------------------------------------------------------------------------

def _lower_body(mctx, mesh, manual: frozenset, jaxpr, args):
    saved = mctx.manual_mesh, mctx.manual_axes
    mctx.manual_mesh, mctx.manual_axes = mesh, manual
    try:
        return lower_jaxpr_body(mctx, jaxpr, [], list(args))
    finally:
        mctx.manual_mesh, mctx.manual_axes = saved


@register_lowering(shard_map_p)
def _shard_map(ctx, *args, body, mesh, in_specs, out_specs, check_rep, auto=frozenset()):
    mctx = ctx.module_ctx
    outer = mctx.manual_axes if mctx.manual_mesh is not None else frozenset()
    if mctx.manual_mesh is not None and mctx.manual_mesh != mesh:
        raise LoweringError("a shard_map inside another shard_map's body must use the same mesh "
                            f"({mctx.manual_mesh} vs {mesh})")
    for s in tuple(in_specs) + tuple(out_specs):
        clash = sorted(set(s.used_axes()) & outer)
        if clash:
            raise LoweringError(f"a shard_map inside another shard_map's body names mesh axis {clash[0]!r} in its "
                                f"specs ({s}), but the enclosing shard_map already made it manual: the values "
                                f"here are that shard_map's blocks")
    newly = tuple(a for a in mesh.axis_names if a not in auto and a not in outer)
    manual = outer | frozenset(newly)
    if mctx.device_assignment is None:  # a one-device program: the body runs on the whole (= only) block
        if mesh.size != 1:
            raise LoweringError("shard_map needs a program compiled for its mesh's devices")
        return _lower_body(mctx, mesh, manual, body.jaxpr, args)
    if not newly:  # nothing becomes manual: the blocks are the values
        return _lower_body(mctx, mesh, manual, body.jaxpr, args)
    free = any(a not in manual for a in mesh.axis_names)
    in_sh = [mctx.sharding_attr(NamedSharding(mesh, s), a.ndim, open_dims=free)
             for s, a in zip(in_specs, ctx.avals_in)]
    out_sh = [mctx.sharding_attr(NamedSharding(mesh, s), a.ndim, open_dims=free)
              for s, a in zip(out_specs, ctx.avals_out)]
    return shardy.manual_computation(
        [aval_to_ir_type(a) for a in ctx.avals_out], list(args), in_sh, out_sh, newly,
        [aval_to_ir_type(a) for a in body.in_avals],
        lambda blocks: _lower_body(mctx, mesh, manual, body.jaxpr, blocks))


@register_lowering(pex.sharding_constraint_p)
def _sharding_constraint(ctx, x, *, sharding):
    mctx = ctx.module_ctx
    if mctx.device_assignment is None:
        return x  # one device: nothing to constrain
    ndim = ctx.aval_out.ndim
    mesh = mctx.manual_mesh
    if mesh is None:
        return shardy.sharding_constraint(x, mctx.sharding_attr(sharding, ndim))
    # inside a shard_map body the value is a block: only the free (auto) axes can still lay it out
    free = frozenset(mesh.axis_names) - mctx.manual_axes
    if not free or not isinstance(sharding, NamedSharding) or sharding.mesh != mesh:
        return x
    dims = [tuple(a for a in sharding.spec.axes_of(d) if a in free) for d in range(ndim)]
    return shardy.sharding_constraint(x, shardy.tensor_sharding(mctx.meshes.of(mesh), dims))


# ---- device groups -----------------------------------------------------------------------------

def _axis_tuple(axis_name) -> tuple:
    return tuple(axis_name) if isinstance(axis_name, (tuple, list)) else (axis_name,)


def _mesh_and_positions(ctx, what: str, axis_name):
    mctx = ctx.module_ctx
    mesh = mctx.manual_mesh
    axes = _axis_tuple(axis_name)
    if mesh is None:
        raise UnboundAxisLoweringError(
            f"{what}: axis name {axis_name!r} is not bound here: named-axis collectives run inside "
            "vmap(..., axis_name=...) or shard_map")
    for a in axes:
        if a not in mesh.axis_names:
            raise UnboundAxisLoweringError(f"{what}: axis name {a!r} is not an axis of the shard_map mesh "
                                           f"(axes {mesh.axis_names})")
        if a not in mctx.manual_axes:
            raise UnboundAxisLoweringError(f"{what}: mesh axis {a!r} is an auto axis of this shard_map (XLA "
                                           "partitions it): collectives run over its manual axes only")
    order = mctx.device_assignment or mesh.device_list
    pos = {d.id: i for i, d in enumerate(order)}
    return mesh, axes, pos


def _groups(ctx, what: str, axis_name) -> list[list[int]]:
    """Partition ids of each group of devices that a collective over `axis_name` joins."""
    mesh, axes, pos = _mesh_and_positions(ctx, what, axis_name)
    names = list(mesh.axis_names)
    perm = [i for i, n in enumerate(names) if n not in axes] + [names.index(a) for a in axes]
    size = int(np.prod([mesh.shape[a] for a in axes]))
    grid = np.transpose(mesh.devices, perm).reshape(-1, size)
    return [[pos[d.id] for d in row] for row in grid]


def _groups_attr(groups: Sequence[Sequence[int]]) -> ir.DenseIntElementsAttr:
    return ir.DenseIntElementsAttr.get(np.asarray(groups, dtype=np.int64))


def _channel(ctx):
    return hlo.ChannelHandle.get(ctx.module_ctx.next_channel(), _DEVICE_TO_DEVICE)


# ---- reductions ---------------------------------------------------------------------------------

def _all_reduce(kind: str):
    def rule(ctx, x, *, axis_name):
        groups = _groups(ctx, ctx.primitive.name, axis_name)
        aval = ctx.avals_in[0]
        if len(groups[0]) == 1:
            return x
        op = hlo.AllReduceOp([aval_to_ir_type(aval)], [x], _groups_attr(groups), channel_handle=_channel(ctx),
                             use_global_device_ids=True)
        scalar = ir.RankedTensorType.get([], dtype_to_ir_type(aval.dtype))
        block = op.regions[0].blocks.append(scalar, scalar)
        with ir.InsertionPoint(block):
            a, b = block.arguments
            if aval.dtype == dtypes.bool_:
                r = hlo.or_(a, b) if kind in ("sum", "max") else hlo.and_(a, b)
            else:
                r = {"sum": hlo.add, "max": hlo.maximum, "min": hlo.minimum}[kind](a, b)
            hlo.return_([r])
        return op.results[0]
    return rule


register_lowering(par.psum_p, _all_reduce("sum"))
register_lowering(par.pmax_p, _all_reduce("max"))
register_lowering(par.pmin_p, _all_reduce("min"))


@register_lowering(pex.psum_scatter_p)
def _psum_scatter(ctx, x, *, axis_name, scatter_dimension, axis_size, tiled):
    groups = _groups(ctx, "psum_scatter", axis_name)
    aval_in, aval_out = ctx.avals_in[0], ctx.aval_out
    if len(groups[0]) == 1:
        return hlo.reshape(aval_to_ir_type(aval_out), x)
    d = scatter_dimension
    shape = list(aval_in.shape)
    shape[d] //= len(groups[0])
    scattered = aval_in.update(shape=tuple(shape))
    op = hlo.ReduceScatterOp(aval_to_ir_type(scattered), x, d, _groups_attr(groups), channel_handle=_channel(ctx),
                             use_global_device_ids=True)
    scalar = ir.RankedTensorType.get([], dtype_to_ir_type(aval_in.dtype))
    block = op.regions[0].blocks.append(scalar, scalar)
    with ir.InsertionPoint(block):
        a, b = block.arguments
        hlo.return_([hlo.or_(a, b) if aval_in.dtype == dtypes.bool_ else hlo.add(a, b)])
    out = op.result
    if not tiled:  # the scattered dimension has size 1 now: drop it
        out = hlo.reshape(aval_to_ir_type(aval_out), out)
    return out


# ---- gathers and exchanges ------------------------------------------------------------------------

@register_lowering(par.all_gather_p)
def _all_gather(ctx, x, *, axis_name, axis, tiled, axis_size):
    groups = _groups(ctx, "all_gather", axis_name)
    aval_in, aval_out = ctx.avals_in[0], ctx.aval_out
    if len(groups[0]) == 1:
        return hlo.reshape(aval_to_ir_type(aval_out), x)
    if not tiled:  # gather along a new unit axis
        shape = list(aval_in.shape)
        shape.insert(axis, 1)
        x = hlo.reshape(aval_to_ir_type(aval_in.update(shape=tuple(shape))), x)
    op = hlo.AllGatherOp([aval_to_ir_type(aval_out)], [x], axis, _groups_attr(groups), channel_handle=_channel(ctx),
                         use_global_device_ids=True)
    return op.results[0]


@register_lowering(pex.all_to_all_p)
def _all_to_all(ctx, x, *, axis_name, split_axis, concat_axis, axis_size):
    groups = _groups(ctx, "all_to_all", axis_name)
    if len(groups[0]) == 1:
        return x
    op = hlo.AllToAllOp([x], split_axis, concat_axis, len(groups[0]), _groups_attr(groups),
                        channel_handle=_channel(ctx), results=[aval_to_ir_type(ctx.aval_out)])
    return op.results[0]


@register_lowering(par.ppermute_p)
def _ppermute(ctx, x, *, axis_name, perm):
    groups = _groups(ctx, "ppermute", axis_name)
    if len(groups[0]) == 1:  # a one-member axis: (0, 0) keeps the value, no pair sends zeros
        return x if perm else full_like_aval(0, ctx.aval_out)
    pairs = [(g[src], g[dst]) for g in groups for src, dst in perm]
    attr = ir.DenseIntElementsAttr.get(np.asarray(pairs, dtype=np.int64).reshape(-1, 2))
    op = hlo.CollectivePermuteOp(x, attr, channel_handle=_channel(ctx), results=[aval_to_ir_type(ctx.aval_out)])
    return op.results[0]


@register_lowering(par.axis_index_p)
def _axis_index(ctx, *, axis_name):
    mesh, axes, pos = _mesh_and_positions(ctx, "axis_index", axis_name)
    n = len(pos)
    table = np.zeros(n, np.int32)
    names = list(mesh.axis_names)
    for coords, dev in np.ndenumerate(mesh.devices):
        idx = 0
        for a in axes:
            idx = idx * mesh.shape[a] + coords[names.index(a)]
        table[pos[dev.id]] = idx
    if n == 1:
        return ir_constant(np.int32(0))
    i32 = ir.RankedTensorType.get([], ir.IntegerType.get_signless(32))

    def index(_=()):
        u32 = ir.RankedTensorType.get([], ir.IntegerType.get_unsigned(32))
        pid = hlo.convert(i32, hlo.PartitionIdOp(results=[u32]).result)
        row = hlo.dynamic_slice(ir_constant(table), [pid], ir.DenseI64ArrayAttr.get([1]))
        return [hlo.reshape(i32, row)]

    mctx = ctx.module_ctx
    free = tuple(a for a in names if a not in mctx.manual_axes)
    if not free or mctx.device_assignment is None:
        return index()[0]
    # the partition id is a per-device value: read it where the free axes are manual too
    scalar = shardy.tensor_sharding(mctx.meshes.of(mesh), [])
    return shardy.manual_computation([i32], [], [], [scalar], free, [], index)[0]
