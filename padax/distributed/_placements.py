"""padax.distributed's meshes and placements: ProcessMesh (ranks with dimension names), Shard /
Replicate / Partial, ReduceOp, and the NamedSharding that a (mesh, placements) pair describes."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from padax.runtime import backend
from padax.runtime.sharding import Mesh, NamedSharding, PartitionSpec


class ProcessMesh:
    """Paddle's ProcessMesh: an n-d array of device ranks with dimension names.

    `ProcessMesh([[0, 1], [2, 3]], dim_names=["x", "y"])`; rank r is
    `padax.devices()[r]`. `.mesh` is the padax Mesh used underneath.

    Args:
        mesh: nested lists (or an array) of device ranks, rank r being `padax.devices()[r]`; or a padax Mesh to wrap.
        dim_names: one name per mesh dimension (default 'd0', 'd1', ...).

    Returns:
        The mesh; `.mesh` is the padax Mesh underneath.

    Examples:
        >>> import padax.distributed as dist
        >>> pm = dist.ProcessMesh([0], dim_names=["dp"])  # rank r is padax.devices()[r]
        >>> pm
        ProcessMesh(shape=[1], process_ids=[0], dim_names=['dp'])
        >>> pm.ndim, pm.get_dim_size("dp"), pm.mesh.axis_names
        (1, 1, ('dp',))
    """

    def __init__(self, mesh: Any, dim_names: Sequence[str] | None = None):
        if isinstance(mesh, Mesh):
            self._mesh = mesh
            self.process_ids = [d.id for d in mesh.device_list]
            self._shape = list(mesh.axis_sizes)
            self.dim_names = list(mesh.axis_names)
            return
        ids = np.asarray(mesh, dtype=np.int64)
        if ids.ndim == 0:
            ids = ids.reshape(1)
        names = list(dim_names) if dim_names is not None else [f"d{i}" for i in range(ids.ndim)]
        if len(names) != ids.ndim:
            raise ValueError(f"ProcessMesh: mesh has {ids.ndim} dimensions {ids.shape} but dim_names has "
                             f"{len(names)} entries {names}")
        devs = backend.devices()
        if ids.size and (ids.min() < 0 or ids.max() >= len(devs)):
            raise ValueError(f"ProcessMesh: ranks must be in [0, {len(devs)}) (the number of devices), got "
                             f"{ids.ravel().tolist()}")
        arr = np.empty(ids.shape, dtype=object)
        for idx, r in np.ndenumerate(ids):
            arr[idx] = devs[int(r)]
        self._mesh = Mesh(arr, tuple(names))
        self.process_ids = ids.ravel().tolist()
        self._shape = list(ids.shape)
        self.dim_names = names

    @property
    def mesh(self) -> Mesh:
        return self._mesh

    @property
    def shape(self) -> list[int]:
        return list(self._shape)

    @property
    def ndim(self) -> int:
        return len(self._shape)

    def get_dim_size(self, dim: int | str) -> int:
        i = self.dim_names.index(dim) if isinstance(dim, str) else dim
        return self._shape[i]

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, ProcessMesh) and self._mesh == other._mesh

    def __hash__(self) -> int:
        return hash(self._mesh)

    def __repr__(self) -> str:
        ids = np.asarray(self.process_ids).reshape(self._shape).tolist()
        return f"ProcessMesh(shape={self._shape}, process_ids={ids}, dim_names={self.dim_names})"


class Placement:
    """How a tensor is laid out along one mesh dimension.

    Examples:
        >>> import padax.distributed as dist
        >>> [(p.is_shard(), p.is_replicated(), p.is_partial()) for p in (dist.Shard(0), dist.Replicate(), dist.Partial())]
        [(True, False, False), (False, True, False), (False, False, True)]
    """

    def is_shard(self, dim: int | None = None) -> bool:
        return False

    def is_replicated(self) -> bool:
        return False

    def is_partial(self) -> bool:
        return False


class Shard(Placement):
    """Split tensor dimension `dim` over this mesh dimension.

    Args:
        dim: the tensor dimension to split (negative counts from the end).

    Returns:
        The placement.

    Examples:
        >>> import padax
        >>> import padax.distributed as dist
        >>> pm = dist.ProcessMesh([0], dim_names=["mp"])
        >>> dist.Shard(1), dist.Shard(1).get_dim(), dist.Shard(1).is_shard(0)
        (Shard(dim=1), 1, False)
        >>> dist.to_named_sharding(pm, [dist.Shard(1)], ndim=2).spec  # columns split over "mp"
        PartitionSpec(None, 'mp')
    """

    def __init__(self, dim: int):
        self.dim = int(dim)

    def get_dim(self) -> int:
        return self.dim

    def is_shard(self, dim: int | None = None) -> bool:
        return dim is None or dim == self.dim

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, Shard) and other.dim == self.dim

    def __hash__(self) -> int:
        return hash(("Shard", self.dim))

    def __repr__(self) -> str:
        return f"Shard(dim={self.dim})"


class Replicate(Placement):
    """A full copy on every device along this mesh dimension.

    Examples:
        >>> import padax
        >>> import padax.distributed as dist
        >>> pm = dist.ProcessMesh([0], dim_names=["dp"])
        >>> dist.to_named_sharding(pm, [dist.Replicate()], ndim=2).spec  # a full copy along "dp"
        PartitionSpec(None, None)
    """

    def is_replicated(self) -> bool:
        return True

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, Replicate)

    def __hash__(self) -> int:
        return hash("Replicate")

    def __repr__(self) -> str:
        return "Replicate()"


class ReduceOp:
    """Reduction of all_reduce / reduce_scatter (Paddle's names).

    Examples:
        >>> import padax
        >>> import padax.distributed as dist
        >>> x = padax.to_tensor([1.0, 2.0, 3.0, 4.0])  # vmap's named axis "i" stands for 4 group members
        >>> [padax.vmap(lambda a: dist.all_reduce(a, op=op, group="i"), axis_name="i")(x).tolist()[0]
        ...  for op in (dist.ReduceOp.SUM, dist.ReduceOp.MAX, dist.ReduceOp.MIN, dist.ReduceOp.AVG, dist.ReduceOp.PROD)]
        [10.0, 4.0, 1.0, 2.5, 24.0]
    """

    SUM = "sum"
    MAX = "max"
    MIN = "min"
    AVG = "avg"
    PROD = "prod"


class Partial(Placement):
    """Values along this mesh dimension still to be reduced (`reduce_type`, default SUM).

    Args:
        reduce_type: the pending reduction, a ReduceOp (SUM by default).

    Returns:
        The placement.

    Examples:
        >>> import padax.distributed as dist
        >>> p = dist.Partial(dist.ReduceOp.MAX)
        >>> p, p.is_partial()
        (Partial(reduce_type='max'), True)
    """

    def __init__(self, reduce_type: str = ReduceOp.SUM):
        self.reduce_type = reduce_type

    def is_partial(self) -> bool:
        return True

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, Partial) and other.reduce_type == self.reduce_type

    def __hash__(self) -> int:
        return hash(("Partial", self.reduce_type))

    def __repr__(self) -> str:
        return f"Partial(reduce_type={self.reduce_type!r})"


def _as_mesh(mesh: Any) -> ProcessMesh:
    if isinstance(mesh, ProcessMesh):
        return mesh
    if isinstance(mesh, Mesh):
        return ProcessMesh(mesh)
    raise TypeError(f"expected a ProcessMesh (or padax Mesh), got {type(mesh).__name__}")


def to_named_sharding(mesh: Any, placements: Sequence[Placement], ndim: int) -> NamedSharding:
    """The NamedSharding that Paddle's (mesh, placements) describe for a tensor of `ndim` dimensions.

    Args:
        mesh: a ProcessMesh (or a padax Mesh).
        placements: one Shard(dim), Replicate() or Partial() per mesh dimension.
        ndim: the number of dimensions of the tensor to lay out.

    Returns:
        The equivalent `NamedSharding` (Partial dimensions map to replication in the spec).

    Examples:
        >>> import padax.distributed as dist
        >>> pm = dist.ProcessMesh([[0]], dim_names=["dp", "mp"])
        >>> dist.to_named_sharding(pm, [dist.Shard(0), dist.Shard(1)], ndim=2).spec
        PartitionSpec('dp', 'mp')
    """
    pm = _as_mesh(mesh)
    placements = list(placements)
    if len(placements) != pm.ndim:
        raise ValueError(f"placements has {len(placements)} entries but the mesh has {pm.ndim} dimensions "
                         f"{pm.dim_names}: give one Shard/Replicate/Partial per mesh dimension")
    parts: list[list[str]] = [[] for _ in range(ndim)]
    for name, p in zip(pm.dim_names, placements):
        if not isinstance(p, Placement):
            raise TypeError(f"placements entries must be Shard, Replicate or Partial, got {p!r}")
        if isinstance(p, Shard):
            d = p.dim % ndim if ndim else p.dim
            if not 0 <= p.dim + (ndim if p.dim < 0 else 0) < ndim:
                raise ValueError(f"Shard({p.dim}) is out of range for a tensor with {ndim} dimensions")
            parts[d].append(name)
    spec = PartitionSpec(*[None if not p else (p[0] if len(p) == 1 else tuple(p)) for p in parts])
    return NamedSharding(pm.mesh, spec)
