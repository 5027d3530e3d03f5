"""Shardy (the `sdy` MLIR dialect): how an SPMD program says where its values live.

An SPMD module declares its device meshes at the top (`sdy.mesh @mesh =
<["x"=4, "y"=2]>`) and annotates values with shardings on them:

- arguments and results carry `sdy.sharding = #sdy.sharding<@mesh, [{"x"},
  {}]>`: one entry per array dimension listing the mesh axes it is split
  over (major first); axes no dimension names hold copies. A dimension is
  closed (`{"x"}`: exactly this) or open (`{"x", ?}`: XLA may split it
  further over free axes);
- `sdy.sharding_constraint` pins a value inside the program;
- `sdy.manual_computation` is shard_map: over its `manual_axes` every
  device runs the body on its own block, the other (free) axes stay XLA's.

Mesh device ids are positions in the program's device assignment (partition
ids), listed only when they are not 0, 1, 2, ... . padax's NamedShardings
name their mesh directly; shardings in XLA's own terms (GSPMDSharding,
HloSharding text) are named on the program's mesh when they can be, and
otherwise on a mesh made from their tile grid (one axis per split
dimension, `_d0`, `_d1`, ..., and `_r` for the replicas).
"""
from __future__ import annotations

from typing import Any, Sequence

from padax.lowering._mlir import ir, sdy_dialect
from padax.runtime import _jaxlib
from padax.runtime.sharding import Mesh, NamedSharding, Sharding, SingleDeviceSharding, name_on_mesh


class ShardyError(Exception):
    """A sharding padax cannot express in Shardy's form (a padax bug or an unsupported layout)."""


def _mesh_attr(axes: Sequence[tuple[str, int]], device_ids: Sequence[int] | None) -> ir.Attribute:
    return sdy_dialect().MeshAttr.get([sdy_dialect().MeshAxisAttr.get(n, int(s)) for n, s in axes],
                            list(device_ids) if device_ids is not None else [])


class ModuleMeshes:
    """The `sdy.mesh` symbols of one module (created on first use, emitted by `finish`)."""

    def __init__(self, device_assignment: Sequence):
        self._order = tuple(device_assignment)
        self._pos = {d.id: i for i, d in enumerate(self._order)}
        self._symbols: dict = {}   # (axes, device ids) -> symbol name
        self._padax: dict = {}     # padax Mesh -> symbol name

    @property
    def device_assignment(self) -> tuple:
        return self._order

    def symbol(self, axes: Sequence[tuple[str, int]], device_ids: Sequence[int] | None = None) -> str:
        """The name of the mesh with these (name, size) axes over these partition ids (None: iota)."""
        if device_ids is not None and list(device_ids) == list(range(len(device_ids))):
            device_ids = None
        key = (tuple((str(n), int(s)) for n, s in axes), tuple(device_ids) if device_ids is not None else None)
        name = self._symbols.get(key)
        if name is None:
            base = "mesh" if key[0] else "empty_mesh"
            n = sum(1 for v in self._symbols.values() if v.rstrip("0123456789").rstrip("_") == base)
            name = self._symbols[key] = base if n == 0 else f"{base}_{n}"
        return name

    def of(self, mesh: Mesh) -> str:
        """The symbol of a padax Mesh (its devices become partition ids)."""
        name = self._padax.get(mesh)
        if name is None:
            try:
                ids = [self._pos[d.id] for d in mesh.device_list]
            except KeyError:
                raise ShardyError(f"{mesh} uses devices outside the program's devices "
                                  f"{[d.id for d in self._order]}") from None
            name = self._padax[mesh] = self.symbol(list(mesh.shape.items()), ids)
        return name

    def finish(self, module: ir.Module) -> None:
        """Emit every mesh used, at the top of the module (in first-use order)."""
        for (axes, ids), name in reversed(list(self._symbols.items())):
            with ir.InsertionPoint.at_block_begin(module.body):
                sdy_dialect().MeshOp(name, _mesh_attr(axes, ids))


def tensor_sharding(mesh_symbol: str, dims: Sequence[Sequence[str]], open_dims: bool = False,
                    replicated: Sequence[str] = ()) -> ir.Attribute:
    """`#sdy.sharding<@mesh_symbol, [{...}, ...]>` from each dimension's mesh axes."""
    dim_attrs = [sdy_dialect().DimensionShardingAttr.get([sdy_dialect().AxisRefAttr.get(a) for a in axes], not open_dims)
                 for axes in dims]
    return sdy_dialect().TensorShardingAttr.get(mesh_symbol, dim_attrs, [sdy_dialect().AxisRefAttr.get(a) for a in replicated])


def per_value(shardings: Sequence[ir.Attribute]) -> ir.Attribute:
    return sdy_dialect().TensorShardingPerValueAttr.get(list(shardings))


def manual_axes_attr(axes: Sequence[str]) -> ir.Attribute:
    return sdy_dialect().ManualAxesAttr.get([ir.StringAttr.get(a) for a in axes])


def _named_dims(s: NamedSharding, ndim: int) -> list[tuple[str, ...]]:
    return [s.spec.axes_of(d) for d in range(ndim)]


def sharding_attr(meshes: ModuleMeshes, sharding: Any, ndim: int, program_mesh: Mesh | None = None,
                  open_dims: bool = False) -> ir.Attribute:
    """The sdy sharding of a padax sharding, an HloSharding or HloSharding text, for an ndim array."""
    if isinstance(sharding, NamedSharding):
        s = sharding
        if len(s.spec) > ndim:
            raise ShardyError(f"PartitionSpec {s.spec} has {len(s.spec)} entries but the array has {ndim} "
                              "dimensions")
        return tensor_sharding(meshes.of(s.mesh), _named_dims(s, ndim), open_dims)
    if isinstance(sharding, SingleDeviceSharding):
        return replicated_attr(meshes, ndim, program_mesh)
    if isinstance(sharding, Sharding):  # GSPMDSharding: XLA's terms, over the program's device order
        hlo = sharding.to_hlo_sharding(ndim, meshes.device_assignment)
    elif isinstance(sharding, str):
        hlo = _jaxlib.hlo_sharding_from_string(sharding)
    else:
        hlo = sharding
    return _hlo_attr(meshes, hlo, ndim, program_mesh, open_dims)


def replicated_attr(meshes: ModuleMeshes, ndim: int, program_mesh: Mesh | None = None) -> ir.Attribute:
    sym = meshes.of(program_mesh) if program_mesh is not None else meshes.symbol(())
    return tensor_sharding(sym, [()] * ndim)


def _hlo_attr(meshes: ModuleMeshes, hlo, ndim: int, program_mesh: Mesh | None, open_dims: bool) -> ir.Attribute:
    if hlo.is_replicated():
        return replicated_attr(meshes, ndim, program_mesh)
    if program_mesh is not None:
        named = name_on_mesh(hlo, ndim, program_mesh, meshes.device_assignment)
        if named is not None:
            return tensor_sharding(meshes.of(program_mesh), _named_dims(named, ndim), open_dims)
    if not hlo.is_tiled() or hlo.is_manual() or any(
            "REPLICATED" not in str(t) for t in hlo.subgroup_types()):
        raise ShardyError(f"padax cannot express the sharding {hlo} in Shardy's form")
    tile = list(hlo.tile_assignment_dimensions())
    if len(tile) < ndim:
        raise ShardyError(f"the sharding {hlo} has fewer tile dimensions than the array has ({ndim})")
    axes, dims = [], []
    for d in range(ndim):
        if tile[d] > 1:
            axes.append((f"_d{d}", tile[d]))
            dims.append((f"_d{d}",))
        else:
            dims.append(())
    rep = 1
    for k in tile[ndim:]:
        rep *= k
    if rep > 1:
        axes.append(("_r", rep))
    sym = meshes.symbol(axes, list(hlo.tile_assignment_devices()))
    return tensor_sharding(sym, dims, open_dims)


# ---- ops ------------------------------------------------------------------------------------------

def sharding_constraint(x: ir.Value, sharding: ir.Attribute) -> ir.Value:
    """`sdy.sharding_constraint`: x, laid out as `sharding` says at this point."""
    return sdy_dialect().ShardingConstraintOp(x, sharding).result


def manual_computation(result_types: Sequence[ir.Type], operands: Sequence[ir.Value],
                       in_shardings: Sequence[ir.Attribute], out_shardings: Sequence[ir.Attribute],
                       manual_axes: Sequence[str], block_types: Sequence[ir.Type], body) -> list[ir.Value]:
    """`sdy.manual_computation`: `body(block_args)` returns the per-device results (emitted inside)."""
    d = sdy_dialect()
    op = d.ManualComputationOp(list(result_types), list(operands), per_value(in_shardings),
                               per_value(out_shardings), manual_axes_attr(manual_axes))
    block = op.body.blocks.append(*block_types)
    with ir.InsertionPoint(block):
        outs = body(list(block.arguments))
        d.ReturnOp(list(outs))
    return list(op.results)
