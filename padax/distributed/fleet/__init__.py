"""`padax.distributed.fleet`: Paddle's hybrid-parallel training API as shardings over one device mesh.

    strategy = fleet.DistributedStrategy()
    strategy.hybrid_configs = {"dp_degree": 2, "mp_degree": 2, "pp_degree": 1, "sharding_degree": 2}
    fleet.init(is_collective=True, strategy=strategy)
    model = fleet.distributed_model(model)          # parameters placed on the mesh, batches split
    opt = fleet.distributed_optimizer(opt)          # state laid out (ZeRO over 'sharding')
    state = opt.init(model)

`fleet.init` builds a Mesh with axes dp, pp, sharding, sep, mp (the degrees
must multiply to the device count); `get_hybrid_communicate_group()` has
Paddle's getters. The training step stays the user's pure function,
compiled by `padax.jit`; XLA's SPMD partitioner inserts the communication
the layouts imply. Tensor- and pipeline-parallel layers: `fleet.meta_parallel`.
"""
from __future__ import annotations

from typing import Any

from padax.runtime import backend as _backend
from padax.distributed import runtime as _runtime
from padax.distributed.fleet import _state, layout
from padax.distributed.fleet.model import DataParallel
from padax.distributed.fleet.optimizer import ShardedOptimizer
from padax.distributed.fleet.strategy import DistributedStrategy
from padax.distributed.fleet.topology import Group, HybridCommunicateGroup, resolve_degrees
from padax.distributed.fleet.meta_parallel.pipeline_parallel import PipelineParallel as _PipelineParallel
from padax.distributed.fleet.meta_parallel.pp_layers import PipelineLayer as _PipelineLayer

__all__ = ["init", "DistributedStrategy", "distributed_model", "distributed_optimizer",
           "get_hybrid_communicate_group", "HybridCommunicateGroup", "Group", "worker_index", "worker_num",
           "is_first_worker", "shard_batch", "meta_parallel"]


def init(role_maker: Any = None, is_collective: bool = False, strategy: DistributedStrategy | None = None,
         log_level: Any = "INFO") -> None:
    """Build the hybrid-parallel mesh over every device from `strategy.hybrid_configs`.

    Errors when the degrees do not multiply to the number of devices.
    `role_maker` and `is_collective` are accepted as in Paddle (padax is always collective).

    Args:
        role_maker, is_collective: accepted for Paddle compatibility (padax is always collective).
        strategy: a DistributedStrategy whose hybrid_configs give the dp/mp/pp/sharding degrees (default: all data
            parallel).
        log_level: accepted for Paddle compatibility; unused.

    Returns:
        None; `fleet.get_hybrid_communicate_group()` then returns the mesh's groups.

    Examples:
        >>> from padax.distributed import fleet
        >>> strategy = fleet.DistributedStrategy()
        >>> strategy.hybrid_configs = {"dp_degree": 1, "mp_degree": 1, "pp_degree": 1}  # degrees multiply to the devices
        >>> fleet.init(is_collective=True, strategy=strategy)
        >>> dict(fleet.get_hybrid_communicate_group().mesh.shape)
        {'dp': 1, 'pp': 1, 'sharding': 1, 'sep': 1, 'mp': 1}
    """
    strategy = strategy if strategy is not None else DistributedStrategy()
    if not isinstance(strategy, DistributedStrategy):
        raise TypeError(f"fleet.init: strategy must be a fleet.DistributedStrategy, got {type(strategy).__name__}")
    devices = _backend.devices()
    degrees = resolve_degrees(strategy, len(devices))
    _state.hcg = HybridCommunicateGroup(degrees, strategy.hybrid_configs["order"], devices)
    _state.strategy = strategy


def _hcg() -> HybridCommunicateGroup:
    if _state.hcg is None:
        raise RuntimeError("fleet: call fleet.init(is_collective=True, strategy=...) first")
    return _state.hcg


def get_hybrid_communicate_group() -> HybridCommunicateGroup:
    """The mesh and groups that fleet.init built.

    Examples:
        >>> from padax.distributed import fleet
        >>> fleet.init(is_collective=True, strategy=fleet.DistributedStrategy())  # dp_degree -1: every device
        >>> hcg = fleet.get_hybrid_communicate_group()
        >>> hcg.get_data_parallel_world_size(), hcg.get_model_parallel_rank(), hcg.get_stage_id()
        (1, 0, 0)
    """
    return _hcg()


def worker_index() -> int:
    """This process's index (0 in a single-process run).

    Examples:
        >>> from padax.distributed import fleet
        >>> fleet.worker_index()  # a single-process run
        0
    """
    return _runtime.process_index()


def worker_num() -> int:
    """The number of processes.

    Examples:
        >>> from padax.distributed import fleet
        >>> fleet.worker_num()
        1
    """
    return _runtime.process_count()


def is_first_worker() -> bool:
    """Whether this is process 0.

    Examples:
        >>> from padax.distributed import fleet
        >>> fleet.is_first_worker()
        True
    """
    return worker_index() == 0


def _sharding_stage() -> int:
    hcg = _hcg()
    return _state.strategy.sharding_configs["stage"] if hcg.degrees["sharding"] > 1 else 0


def distributed_model(model: Any) -> Any:
    """`model` laid out on the hybrid mesh.

    A PipelineLayer becomes a PipelineParallel (microbatched schedules over
    'pp'); any other layer a DataParallel over the dp and sharding axes,
    keeping the layouts of tensor-parallel parameters (and splitting the
    rest over 'sharding' when sharding_configs stage is 3).

    Args:
        model: a padax.nn.Layer, or a PipelineLayer for pipeline parallelism.

    Returns:
        A PipelineParallel for a PipelineLayer, else a DataParallel over the dp and sharding axes.

    Examples:
        >>> import padax
        >>> from padax.distributed import fleet
        >>> fleet.init(is_collective=True, strategy=fleet.DistributedStrategy())
        >>> model = fleet.distributed_model(padax.nn.Linear(2, 3))  # parameters on the mesh, batches split over dp
        >>> type(model).__name__, model(padax.ones([4, 2])).shape
        ('DataParallel', (4, 3))
    """
    hcg = _hcg()
    if isinstance(model, _PipelineLayer):
        return _PipelineParallel(model, hcg, _state.strategy)
    shard_axes = ("sharding",) if _sharding_stage() == 3 else ()
    grad_axes = ("sharding",) if _sharding_stage() == 2 else ()
    return DataParallel(model, mesh=hcg.mesh, data_axes=hcg.data_axes, shard_axes=shard_axes,
                        grad_shard_axes=grad_axes)


def distributed_optimizer(optimizer: Any, strategy: DistributedStrategy | None = None) -> ShardedOptimizer:
    """`optimizer` with its state laid out on the hybrid mesh (ZeRO over 'sharding' when sharding_degree > 1).

    Args:
        optimizer: a padax optimizer.
        strategy: a DistributedStrategy replacing the one given to `init`.

    Returns:
        A ShardedOptimizer whose state lives on the hybrid mesh (ZeRO-split over 'sharding' as configured).

    Examples:
        >>> import padax
        >>> from padax.distributed import fleet
        >>> fleet.init(is_collective=True, strategy=fleet.DistributedStrategy())
        >>> model = fleet.distributed_model(padax.nn.Linear(2, 1))
        >>> opt = fleet.distributed_optimizer(padax.optimizer.SGD(learning_rate=0.1))
        >>> state = opt.init(model)
        >>> grads = padax.tree.map(padax.ones_like, model)
        >>> new_model, state = opt.step(model, grads, state)
        >>> all(bool(padax.allclose(new, old - 0.1))  # p - lr * 1 for every parameter
        ...     for new, old in zip(padax.tree.leaves(new_model), padax.tree.leaves(model)))
        True
    """
    hcg = _hcg()
    if strategy is not None:
        _state.strategy = strategy
    return ShardedOptimizer(optimizer, hcg.mesh, ("sharding",), _sharding_stage())


def shard_batch(batch: Any) -> Any:
    """`batch` (a pytree of arrays) split along dimension 0 over the dp and sharding axes (padax).

    Args:
        batch: a pytree of arrays whose dimension 0 is the global batch.

    Returns:
        The same pytree with every array split along dimension 0 over the dp and sharding axes.

    Examples:
        >>> import padax
        >>> from padax.distributed import fleet
        >>> fleet.init(is_collective=True, strategy=fleet.DistributedStrategy())
        >>> batch = fleet.shard_batch({"x": padax.ones([4, 2]), "y": padax.zeros([4])})  # rows split over dp/sharding
        >>> batch["x"].shape, batch["y"].tolist()
        ((4, 2), [0.0, 0.0, 0.0, 0.0])
    """
    hcg = _hcg()
    return layout.shard_batch(batch, hcg.mesh, hcg.data_axes, "fleet.shard_batch")


def __getattr__(name: str) -> Any:
    if name == "meta_parallel":
        import importlib
        return importlib.import_module("padax.distributed.fleet.meta_parallel")
    raise AttributeError(f"module 'padax.distributed.fleet' has no attribute {name!r}")
