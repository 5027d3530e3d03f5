"""Layout helpers shared by the parallel recipes: place a value on a sharding, eagerly or inside jit.

Every recipe (data, ZeRO, tensor, pipeline parallelism) is a choice of
NamedShardings; these helpers apply one to a concrete Tensor (a device_put)
or to a traced value (a sharding constraint that steers XLA's partitioner).
"""
from __future__ import annotations

from typing import Any, Sequence

from padax.core.trace import Tracer as _Tracer
from padax.functional import _arrays
from padax.functional.lax import resharding as _resharding
from padax.runtime import tree as tree_util
from padax.runtime.put import put_sharded as _put_sharded
from padax.runtime.sharding import Mesh, NamedSharding, PartitionSpec


def is_traced(x: Any) -> bool:
    """Whether `x` is a value being traced (inside jit/grad/shard_map)."""
    return isinstance(x, _Tracer)


def lay_out(x: Any, sharding: NamedSharding) -> Any:
    """`x` laid out as `sharding`: moved there when concrete, constrained there when traced."""
    if is_traced(x):
        return _resharding.with_sharding_constraint(x, sharding)
    return _put_sharded(_arrays.asarray(x), sharding)


def lay_out_tree(tree: Any, shardings: Sequence[Any]) -> Any:
    """Each array leaf of `tree` laid out as the matching entry of `shardings` (None: left as it is)."""
    leaves, treedef = tree_util.flatten(tree, is_leaf=lambda v: v is None)
    if len(leaves) != len(shardings):
        raise ValueError(f"expected {len(shardings)} arrays (the layout recorded for this model), got "
                         f"{len(leaves)}: the model's structure changed since its layout was set")
    return treedef.unflatten([x if s is None or x is None else lay_out(x, s) for x, s in zip(leaves, shardings)])


def axes_product(mesh: Mesh, axes: Sequence[str]) -> int:
    """The number of devices along `axes` of `mesh`."""
    n = 1
    for a in axes:
        n *= mesh.shape[a]
    return n


def live_axes(mesh: Mesh, axes: Sequence[str]) -> tuple[str, ...]:
    """Those of `axes` with more than one device (size-1 axes split nothing)."""
    return tuple(a for a in axes if mesh.shape[a] > 1)


def spec_entry(axes: Sequence[str]) -> Any:
    """A PartitionSpec entry for splitting one dimension over `axes` (None when there are none)."""
    axes = tuple(axes)
    return None if not axes else axes[0] if len(axes) == 1 else axes


def spec_of(sharding: Any, ndim: int) -> list:
    """The per-dimension entries of a NamedSharding's spec (all None for other shardings)."""
    if not isinstance(sharding, NamedSharding):
        return [None] * ndim
    spec = tuple(sharding.spec)
    return [spec[d] if d < len(spec) else None for d in range(ndim)]


def split_further(mesh: Mesh, shape: Sequence[int], spec: list, axes: Sequence[str]) -> NamedSharding | None:
    """`spec` with one more dimension split over `axes` (ZeRO's slicing), or None when no dimension can be.

    The first dimension not split yet whose length the number of devices on
    `axes` divides is chosen; a value too small for that stays as `spec` says.
    """
    axes = live_axes(mesh, axes)
    if not axes:
        return None
    n = axes_product(mesh, axes)
    used = {a for e in spec if e is not None for a in ((e,) if isinstance(e, str) else e)}
    if used & set(axes):
        return None
    for d, size in enumerate(shape):
        if spec[d] is None and size % n == 0 and size >= n:
            new = list(spec)
            new[d] = spec_entry(axes)
            return NamedSharding(mesh, PartitionSpec(*new))
    return None


def batch_sharding(mesh: Mesh, axes: Sequence[str], ndim: int, dim: int = 0) -> NamedSharding:
    """Dimension `dim` split over the data axes `axes`, the rest replicated."""
    spec = [None] * ndim
    if ndim:
        spec[dim] = spec_entry(live_axes(mesh, axes))
    return NamedSharding(mesh, PartitionSpec(*spec))


def shard_batch(batch: Any, mesh: Mesh, axes: Sequence[str], what: str = "batch") -> Any:
    """Every array in `batch` (a pytree) split along its first dimension over the data axes `axes`."""
    n = axes_product(mesh, live_axes(mesh, axes))

    def one(x: Any) -> Any:
        x = _arrays.asarray(x)
        shape = _arrays.aval_of(x).shape
        if not shape:
            return lay_out(x, NamedSharding(mesh, PartitionSpec()))
        if shape[0] % n:
            raise ValueError(f"{what}: the batch dimension ({shape[0]}, of an array of shape {tuple(shape)}) is not "
                             f"divisible by the {n} devices of the data-parallel axes {tuple(axes)}")
        return lay_out(x, batch_sharding(mesh, axes, len(shape)))
    return tree_util.map(one, batch)
