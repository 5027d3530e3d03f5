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

import importlib
from typing import Any

from padax.distributed._collectives import (all_gather, all_reduce, all_to_all, alltoall, broadcast, recv,
                                            reduce_scatter, send)
from padax.distributed._dtensor import dtensor_from_fn, reshard, shard_tensor
from padax.distributed._placements import (Partial, Placement, ProcessMesh, ReduceOp, Replicate, Shard,
                                           to_named_sharding)
from padax.distributed._processes import get_rank, get_world_size, make_array_from_process_local_data
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


# ---- training recipes (fleet, ZeRO, auto-parallel); loaded on first use since they build on padax.nn ----

_AUTO_PARALLEL = ("shard_layer", "shard_optimizer", "shard_dataloader", "to_static", "DistModel", "ShardDataloader",
                  "ShardingStage1", "ShardingStage2", "ShardingStage3", "Strategy")
__all__ += list(_AUTO_PARALLEL) + ["fleet", "sharding"]


def __getattr__(name: str) -> Any:
    if name in _AUTO_PARALLEL:
        return getattr(importlib.import_module("padax.distributed.auto_parallel"), name)
    if name in ("fleet", "sharding"):
        return importlib.import_module(f"padax.distributed.{name}")
    raise AttributeError(f"module 'padax.distributed' has no attribute {name!r}")
