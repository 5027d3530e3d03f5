"""`padax.distributed`: Paddle's auto-parallel and collective vocabulary on padax's SPMD machinery.

Placing tensors (Paddle's "DTensor" API, on top of NamedSharding):

    mesh = dist.ProcessMesh([[0, 1, 2, 3], [4, 5, 6, 7]], dim_names=["dp", "mp"])
    w = dist.shard_tensor(w, mesh, [dist.Replicate(), dist.Shard(1)])   # columns split over "mp"
    w = dist.reshard(w, mesh, [dist.Shard(0), dist.Replicate()])

`placements[i]` says what happens along mesh dimension i: `Shard(d)` splits
tensor dimension d over it, `Replicate()` copies, `Partial()` marks values
still to be summed (accepted on input and treated as the global value,
since padax tensors always hold their global value).

Collectives with Paddle's names, for use inside `padax.shard_map` (the
`group` is a mesh axis name, or a tuple of them):
`all_reduce(x, op=ReduceOp.SUM, group="dp")`, `all_gather`, `reduce_scatter`,
`broadcast`, `all_to_all`/`alltoall`, `send`/`recv` (ppermute pairs). They
return their result (padax arrays are immutable); Paddle's list-filling
forms of `all_gather`/`alltoall` are also accepted.

Several processes: `initialize()` (see `runtime`), `python -m
padax.distributed.launch --nproc N script.py`, `get_rank()`,
`get_world_size()`, `make_array_from_process_local_data`.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from padax.devices.sharding import Mesh, NamedSharding, PartitionSpec, ShardingError
from padax.distributed.runtime import (DistributedError, DistributedTimeoutError, barrier, initialize,
                                       is_initialized, process_count, process_index, shutdown)
from padax.distributed.checkpoint import CheckpointError, load_state_dict, save_state_dict
from padax.distributed.spawn import spawn

__all__ = ["ProcessMesh", "Shard", "Replicate", "Partial", "Placement", "shard_tensor", "reshard",
           "dtensor_from_fn", "to_named_sharding", "ReduceOp", "all_reduce", "all_gather", "reduce_scatter",
           "broadcast", "all_to_all", "alltoall", "send", "recv", "initialize", "shutdown", "is_initialized",
           "get_rank", "get_world_size", "barrier", "make_array_from_process_local_data", "DistributedError",
           "DistributedTimeoutError"]
__all__ += ["save_state_dict", "load_state_dict", "CheckpointError", "spawn"]


# ---- meshes and placements ---------------------------------------------------------------------

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
        from padax.devices import backend
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


def shard_tensor(data: Any, mesh: Any, placements: Sequence[Placement], dtype: Any = None,
                 place: Any = None, stop_gradient: Any = None) -> Any:
    """A Tensor laid out on `mesh` as `placements` say (Paddle's dist.shard_tensor).

    Args:
        data: a Tensor, numpy array or nested list (the global value).
        mesh: a ProcessMesh (or a padax Mesh).
        placements: one Shard(dim), Replicate() or Partial() per mesh dimension.
        dtype: convert to this dtype first (None keeps it).
        place, stop_gradient: accepted for Paddle compatibility; unused (the mesh decides placement).

    Returns:
        A Tensor laid out on the mesh's devices.

    Examples:
        >>> import padax
        >>> import padax.distributed as dist
        >>> pm = dist.ProcessMesh([0], dim_names=["dp"])
        >>> w = dist.shard_tensor(padax.ones([2, 4]), pm, [dist.Shard(0)])  # rows split over "dp"
        >>> w.shape, w.tolist()[0]
        ((2, 4), [1.0, 1.0, 1.0, 1.0])
    """
    from padax.devices.put import put_sharded
    from padax.functional._arrays import aval_of
    try:
        ndim = aval_of(data).ndim
    except TypeError:
        ndim = np.ndim(data)
    return put_sharded(data, to_named_sharding(mesh, placements, ndim), dtype)


def reshard(x: Any, mesh: Any, placements: Sequence[Placement]) -> Any:
    """The same global value laid out anew (inside jit: a sharding constraint).

    Args:
        x: a Tensor.
        mesh: a ProcessMesh (or a padax Mesh).
        placements: one Shard(dim), Replicate() or Partial() per mesh dimension.

    Returns:
        The same values laid out anew (inside jit: a sharding constraint).

    Examples:
        >>> import padax
        >>> import padax.distributed as dist
        >>> pm = dist.ProcessMesh([0], dim_names=["dp"])
        >>> w = dist.shard_tensor(padax.arange(4.0), pm, [dist.Shard(0)])
        >>> dist.reshard(w, pm, [dist.Replicate()]).tolist()  # the same global value, laid out anew
        [0.0, 1.0, 2.0, 3.0]
    """
    from padax.core.trace import EvalTrace, trace_state
    from padax.functional._arrays import aval_of
    from padax.functional.lax.resharding import with_sharding_constraint
    s = to_named_sharding(mesh, placements, aval_of(x).ndim)
    if type(trace_state.trace) is EvalTrace:
        from padax.devices.put import put_sharded
        return put_sharded(x, s)
    return with_sharding_constraint(x, s)


def dtensor_from_fn(fn: Callable, mesh: Any, placements: Sequence[Placement], *args: Any, **kwargs: Any) -> Any:
    """`shard_tensor(fn(*args, **kwargs), mesh, placements)`, e.g. fn=padax.ones.

    Args:
        fn: a function building the full tensor (e.g. padax.ones).
        mesh: a ProcessMesh (or a padax Mesh).
        placements: one Shard(dim), Replicate() or Partial() per mesh dimension.
        *args, **kwargs: passed to `fn`.

    Returns:
        The Tensor that `fn` builds, laid out as `placements` say.

    Examples:
        >>> import padax
        >>> import padax.distributed as dist
        >>> pm = dist.ProcessMesh([0], dim_names=["dp"])
        >>> dist.dtensor_from_fn(padax.zeros, pm, [dist.Replicate()], [3]).tolist()
        [0.0, 0.0, 0.0]
    """
    return shard_tensor(fn(*args, **kwargs), mesh, placements)


# ---- collectives (inside shard_map; group = mesh axis name(s)) -------------------------------------

def _group(group: Any) -> Any:
    if group is None:
        raise ValueError("padax.distributed collectives need group=<mesh axis name> (they run inside shard_map)")
    if isinstance(group, ProcessMesh):
        return tuple(group.dim_names) if group.ndim > 1 else group.dim_names[0]
    return tuple(group) if isinstance(group, list) else group


def all_reduce(tensor: Any, op: str = ReduceOp.SUM, group: Any = None, sync_op: bool = True) -> Any:
    """Reduce over the members of `group` (a mesh axis); every member gets the result.

    Args:
        tensor: the local value.
        op: a ReduceOp, SUM, MAX, MIN, AVG or PROD.
        group: the mesh axis name (or names, or a ProcessMesh) to communicate over; required, as collectives run inside
            shard_map/vmap with named axes.
        sync_op: accepted for Paddle compatibility; padax collectives are part of the traced program.

    Returns:
        The reduced Tensor, same shape as `tensor`, identical on every member (a new value: `tensor` is not changed in
        place).

    Examples:
        >>> import padax
        >>> import padax.distributed as dist
        >>> x = padax.to_tensor([1.0, 2.0, 3.0, 4.0])  # one value per member of the named axis "i"
        >>> padax.vmap(lambda a: dist.all_reduce(a, group="i"), axis_name="i")(x).tolist()  # inside shard_map: a mesh axis
        [10.0, 10.0, 10.0, 10.0]
    """
    from padax.functional.lax import parallel as par
    g = _group(group)
    if op == ReduceOp.SUM:
        return par.psum(tensor, g)
    if op == ReduceOp.MAX:
        return par.pmax(tensor, g)
    if op == ReduceOp.MIN:
        return par.pmin(tensor, g)
    if op == ReduceOp.AVG:
        return par.pmean(tensor, g)
    if op == ReduceOp.PROD:
        from padax.functional.lax import elementwise as E
        gathered = par.all_gather(tensor, g)
        from padax.functional.lax.reductions import reduce_prod
        return reduce_prod(gathered, (0,)) if hasattr(E, "mul") else gathered
    raise ValueError(f"all_reduce: unknown op {op!r}; use padax.distributed.ReduceOp.SUM/MAX/MIN/AVG/PROD")


def all_gather(tensor_or_list: Any, tensor: Any = None, group: Any = None, sync_op: bool = True, *,
               axis: int = 0, tiled: bool = False) -> Any:
    """Every member's tensor: stacked along `axis` (concatenated if tiled).

    Paddle's form `all_gather(tensor_list, tensor, group)` fills `tensor_list`
    with one tensor per member and returns it.

    Args:
        tensor_or_list: the local tensor; or, in Paddle's form, a list to fill.
        tensor: the local tensor when the first argument is a list.
        group: the mesh axis name (or names, or a ProcessMesh) to communicate over; required, as collectives run inside
            shard_map/vmap with named axes.
        sync_op: accepted for Paddle compatibility; padax collectives are part of the traced program.
        axis: where the member axis goes in the result.
        tiled: concatenate along `axis` instead of stacking.

    Returns:
        The gathered Tensor (member axis of size group-size at `axis`, or `axis` grown by that factor when tiled); in
        the list form, the filled list.

    Examples:
        >>> import padax
        >>> import padax.distributed as dist
        >>> x = padax.to_tensor([1.0, 2.0, 3.0])
        >>> padax.vmap(lambda a: dist.all_gather(a, group="i"), axis_name="i")(x).tolist()  # every member gets all
        [[1.0, 2.0, 3.0], [1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]
    """
    from padax.functional.lax import parallel as par
    if isinstance(tensor_or_list, list):
        out = par.all_gather(tensor, _group(group), axis=0)
        n = out.shape[0]
        tensor_or_list.extend(out[i] for i in range(n))
        return tensor_or_list
    return par.all_gather(tensor_or_list, _group(group), axis=axis, tiled=tiled)


def reduce_scatter(tensor: Any, op: str = ReduceOp.SUM, group: Any = None, sync_op: bool = True, *,
                   axis: int = 0) -> Any:
    """Reduce over `group`, then member i keeps the i-th block of dimension `axis`.

    Args:
        tensor: the local value; its `axis` size must divide by the group size.
        op: ReduceOp.SUM or ReduceOp.AVG.
        group: the mesh axis name (or names, or a ProcessMesh) to communicate over; required, as collectives run inside
            shard_map/vmap with named axes.
        sync_op: accepted for Paddle compatibility; padax collectives are part of the traced program.
        axis: the dimension split among the members.

    Returns:
        This member's block of the reduced value (`axis` divided by the group size).

    Examples:
        >>> import padax
        >>> import padax.distributed as dist
        >>> rows = padax.arange(16.0).reshape(4, 4)  # member i holds row i
        >>> padax.vmap(lambda a: dist.reduce_scatter(a, group="i"), axis_name="i")(rows).tolist()  # column sums, one each
        [[24.0], [28.0], [32.0], [36.0]]
    """
    from padax.functional.lax.resharding import psum_scatter
    if op not in (ReduceOp.SUM, ReduceOp.AVG):
        raise ValueError(f"reduce_scatter: op {op!r} is not supported (SUM or AVG)")
    out = psum_scatter(tensor, _group(group), scatter_dimension=axis, tiled=True)
    if op == ReduceOp.AVG:
        from padax.functional.lax.parallel import _static_axis_size
        out = out / _static_axis_size(_group(group))
    return out


def broadcast(tensor: Any, src: int = 0, group: Any = None, sync_op: bool = True) -> Any:
    """Every member of `group` gets member `src`'s tensor.

    Args:
        tensor: the local value.
        src: the index of the sending member along the group axis.
        group: the mesh axis name (or names, or a ProcessMesh) to communicate over; required, as collectives run inside
            shard_map/vmap with named axes.
        sync_op: accepted for Paddle compatibility; padax collectives are part of the traced program.

    Returns:
        A Tensor equal to `src`'s `tensor` on every member.

    Examples:
        >>> import padax
        >>> import padax.distributed as dist
        >>> x = padax.to_tensor([1.0, 2.0, 3.0, 4.0])
        >>> padax.vmap(lambda a: dist.broadcast(a, src=2, group="i"), axis_name="i")(x).tolist()
        [3.0, 3.0, 3.0, 3.0]
    """
    from padax.functional._arrays import asarray, aval_of
    from padax.functional.creation import zeros_like
    from padax.functional.lax import parallel as par
    from padax.functional.math import where
    g = _group(group)
    x = asarray(tensor)
    kept = where(par.axis_index(g) == src, x, zeros_like(x))  # src's value, zeros elsewhere
    return par.pmax(kept, g) if aval_of(x).dtype.kind == "b" else par.psum(kept, g)


def all_to_all(tensor: Any, group: Any = None, *, split_axis: int = 0, concat_axis: int = 0) -> Any:
    """Member j gets block j (along split_axis) of every member's tensor, concatenated along concat_axis.

    Args:
        tensor: the local value; its `split_axis` size must divide by the group size.
        group: the mesh axis name (or names, or a ProcessMesh) to communicate over; required, as collectives run inside
            shard_map/vmap with named axes.
        split_axis: the axis cut into one block per member.
        concat_axis: the axis the received blocks are joined along.

    Returns:
        A Tensor whose `split_axis` shrinks and `concat_axis` grows by the group size.

    Examples:
        >>> import padax
        >>> import padax.distributed as dist
        >>> rows = padax.arange(9.0).reshape(3, 3)  # member i holds row i
        >>> padax.vmap(lambda a: dist.all_to_all(a, group="i"), axis_name="i")(rows).tolist()  # member j gets column j
        [[0.0, 3.0, 6.0], [1.0, 4.0, 7.0], [2.0, 5.0, 8.0]]
    """
    from padax.functional.lax.resharding import all_to_all as a2a
    return a2a(tensor, _group(group), split_axis, concat_axis, tiled=True)


def alltoall(in_tensor_list: Any, out_tensor_list: list | None = None, group: Any = None,
             sync_op: bool = True) -> Any:
    """Paddle's list form: member j receives in_tensor_list[j] of every member (in member order).

    Args:
        in_tensor_list: one tensor per member (or a stacked tensor with the member axis first).
        out_tensor_list: a list to fill with the received tensors (optional).
        group: the mesh axis name (or names, or a ProcessMesh) to communicate over; required, as collectives run inside
            shard_map/vmap with named axes.
        sync_op: accepted for Paddle compatibility; padax collectives are part of the traced program.

    Returns:
        The received tensors stacked along a new first axis, or the filled `out_tensor_list`.

    Examples:
        >>> import padax
        >>> import padax.distributed as dist
        >>> rows = padax.arange(4.0).reshape(2, 2)
        >>> padax.vmap(lambda a: dist.alltoall([a[0], a[1]], group="i"), axis_name="i")(rows).tolist()
        [[0.0, 2.0], [1.0, 3.0]]
    """
    from padax.functional.manipulation import stack
    x = stack(list(in_tensor_list)) if isinstance(in_tensor_list, (list, tuple)) else in_tensor_list
    out = all_to_all(x, group)
    if out_tensor_list is not None:
        out_tensor_list.extend(out[i] for i in range(out.shape[0]))
        return out_tensor_list
    return out


def send(tensor: Any, dst: int, group: Any = None, sync_op: bool = True, *, src: int = 0) -> Any:
    """SPMD point-to-point: member `src` sends `tensor` to member `dst` (a ppermute pair).

    Every member runs the same program, so both ends are named; the result
    is what `dst` receives (zeros on the other members).

    Args:
        tensor: the value to send.
        dst: the receiving member's index along the group axis.
        group: the mesh axis name (or names, or a ProcessMesh) to communicate over; required, as collectives run inside
            shard_map/vmap with named axes.
        sync_op: accepted for Paddle compatibility; padax collectives are part of the traced program.
        src: the sending member's index.

    Returns:
        What `dst` receives (`src`'s tensor), zeros on the other members.

    Examples:
        >>> import padax
        >>> import padax.distributed as dist
        >>> x = padax.to_tensor([1.0, 2.0, 3.0, 4.0])
        >>> padax.vmap(lambda a: dist.send(a, dst=3, group="i", src=0), axis_name="i")(x).tolist()  # member 3 receives
        [0.0, 0.0, 0.0, 1.0]
    """
    from padax.functional.lax import parallel as par
    return par.ppermute(tensor, _group(group), [(src, dst)])


def recv(tensor: Any, src: int = 0, group: Any = None, sync_op: bool = True, *, dst: int | None = None) -> Any:
    """The receiving end of `send`: member `dst` gets member `src`'s `tensor`.

    Without `dst`, every member other than `src` receives it (a broadcast from src).

    Args:
        tensor: the value being passed (every member runs the same program).
        src: the sending member.
        group: the mesh axis name (or names, or a ProcessMesh) to communicate over; required, as collectives run inside
            shard_map/vmap with named axes.
        sync_op: accepted for Paddle compatibility; padax collectives are part of the traced program.
        dst: the receiving member; None makes every member receive it (a broadcast from `src`).

    Returns:
        On the receiver, `src`'s tensor; zeros on the other members when `dst` is given.

    Examples:
        >>> import padax
        >>> import padax.distributed as dist
        >>> x = padax.to_tensor([1.0, 2.0, 3.0, 4.0])
        >>> padax.vmap(lambda a: dist.recv(a, src=1, group="i", dst=0), axis_name="i")(x).tolist()
        [2.0, 0.0, 0.0, 0.0]
    """
    from padax.functional.lax import parallel as par
    if dst is None:
        return broadcast(tensor, src, group)
    return par.ppermute(tensor, _group(group), [(src, dst)])


# ---- processes -------------------------------------------------------------------------------------

def get_rank() -> int:
    """This process's rank in a multi-process run (0 otherwise).

    Examples:
        >>> import padax.distributed as dist
        >>> dist.get_rank()  # a single-process run
        0
    """
    return process_index()


def get_world_size() -> int:
    """Number of processes (1 unless padax.distributed.initialize was called).

    Examples:
        >>> import padax.distributed as dist
        >>> dist.get_world_size()
        1
    """
    return process_count()


def make_array_from_process_local_data(sharding: NamedSharding, local_data: Any,
                                       global_shape: Sequence[int] | None = None) -> Any:
    """One global Tensor from each process's part of it.

    Every process passes the block of the global array that its own devices
    hold under `sharding` (e.g. its rows of a batch split over a 'data' axis
    that spans processes); `global_shape` defaults to what those blocks imply.

    Args:
        sharding: the NamedSharding of the global array.
        local_data: this process's block (array-like) of the global array.
        global_shape: the global shape; None infers it from the block sizes.

    Returns:
        One global Tensor sharded as `sharding`, built without moving data between processes.

    Examples:
        >>> import numpy as np
        >>> import padax
        >>> import padax.distributed as dist
        >>> from padax.sharding import NamedSharding, P
        >>> s = NamedSharding(padax.make_mesh((1,), ("data",)), P("data"))
        >>> x = dist.make_array_from_process_local_data(s, np.arange(4.0))  # one process: its block is everything
        >>> x.shape, x.tolist()
        ((4,), [0.0, 1.0, 2.0, 3.0])
    """
    from padax.config import config
    from padax.core.abstract import ShapedArray
    from padax.devices import _jaxlib
    from padax.devices.array import Tensor
    from padax.devices.put import _as_host_array
    from padax.devices.sharding import _is_addressable
    arr, _ = _as_host_array(np.asarray(local_data), None)
    ndim = arr.ndim
    probe = tuple([sharding.num_devices * 2] * ndim)
    idx = sharding.devices_indices_map(probe)
    local = [d for d in sharding.device_list if _is_addressable(d)]
    if not local:
        raise DistributedError("make_array_from_process_local_data: none of the sharding's devices belong to "
                               "this process")
    if global_shape is None:
        shape = []
        for d in range(ndim):
            all_starts = {idx[dev][d].indices(probe[d])[:2] for dev in sharding.device_list}
            local_starts = {idx[dev][d].indices(probe[d])[:2] for dev in local}
            shape.append(arr.shape[d] * len(all_starts) // len(local_starts))
        global_shape = tuple(shape)
    global_shape = tuple(int(s) for s in global_shape)
    try:
        sharding.check_shape(global_shape)
    except ShardingError as e:
        raise ValueError(f"make_array_from_process_local_data: {e}") from None
    gidx = sharding.devices_indices_map(global_shape)
    lo = [min(gidx[dev][d].indices(global_shape[d])[0] for dev in local) for d in range(ndim)]
    hi = [max(gidx[dev][d].indices(global_shape[d])[1] for dev in local) for d in range(ndim)]
    if tuple(h - l for l, h in zip(lo, hi)) != arr.shape:
        raise ValueError(f"make_array_from_process_local_data: this process's devices hold the block "
                         f"{tuple(slice(l, h) for l, h in zip(lo, hi))} of the global shape {global_shape}, "
                         f"of shape {tuple(h - l for l, h in zip(lo, hi))}, but local_data has shape {arr.shape}")
    pieces = []
    for dev in local:
        sl = tuple(slice(s.indices(n)[0] - l, s.indices(n)[1] - l) for s, n, l in zip(gidx[dev], global_shape, lo))
        pieces.append(np.array(arr[sl], order="C", copy=True))
    aval = ShapedArray(global_shape, arr.dtype, False)
    buf = _jaxlib.device_put(aval, sharding.to_jaxlib(ndim), pieces, local, config.enable_x64)
    return Tensor(buf, aval)


# ---- training recipes (fleet, ZeRO, auto-parallel); loaded on first use since they build on padax.nn ----

_AUTO_PARALLEL = ("shard_layer", "shard_optimizer", "shard_dataloader", "to_static", "DistModel", "ShardDataloader",
                  "ShardingStage1", "ShardingStage2", "ShardingStage3", "Strategy")
__all__ += list(_AUTO_PARALLEL) + ["fleet", "sharding"]


def __getattr__(name: str) -> Any:
    import importlib
    if name in _AUTO_PARALLEL:
        return getattr(importlib.import_module("padax.distributed.auto_parallel"), name)
    if name in ("fleet", "sharding"):
        return importlib.import_module(f"padax.distributed.{name}")
    raise AttributeError(f"module 'padax.distributed' has no attribute {name!r}")
