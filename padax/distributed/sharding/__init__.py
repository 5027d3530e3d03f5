"""`padax.distributed.sharding`: Paddle's ZeRO entry point, `group_sharded_parallel`, as layouts.

    model, opt, scaler = group_sharded_parallel(model, opt, level="p_g_os")
    state = opt.init(model)

level 'os' (ZeRO-1) splits the optimizer's slots over the data axes, 'os_g'
(ZeRO-2) also the gradients, 'p_g_os' (ZeRO-3) also the parameters. Every
device then holds 1/N of what is split; XLA's SPMD partitioner turns the
layouts into reduce-scatters and all-gathers. For 'os_g' the model runs on
each device's batch rows inside a shard_map whose backward pass
reduce-scatters every gradient (padax.distributed.fleet.grad_scatter), so
the whole gradient is never all-reduced: as in Paddle's data parallelism,
the layer sees its local batch (BatchNorm statistics per device) and a 0-d
output (a loss computed in the layer) is the mean of the local ones. (Not to be confused with
`padax.sharding`, the module of meshes and NamedShardings.)
"""
from __future__ import annotations

import os
from typing import Any

from padax import serialization as _serialization
from padax.distributed.fleet.model import DataParallel, default_data_axes, default_mesh
from padax.distributed.fleet.optimizer import ShardedOptimizer
from padax.nn.layer.layers import Layer as _Layer

__all__ = ["group_sharded_parallel", "save_group_sharded_model"]

LEVELS = {"os": 1, "os_g": 2, "p_g_os": 3}


def group_sharded_parallel(model: Any, optimizer: Any, level: str, scaler: Any = None, group: Any = None,
                           offload: bool = False, sync_buffers: bool = False, buffer_max_size: int = 2 ** 23,
                           segment_size: int = 2 ** 20, sync_comm: bool = False, dp_group: Any = None,
                           exclude_layer: Any = None) -> tuple[DataParallel, ShardedOptimizer, Any]:
    """(model, optimizer, scaler) with ZeRO stage `level` over the data axes.

    `group`: the mesh axis (a fleet Group or axis name) to split over; default
    the data axes of fleet's mesh (dp and sharding) or of a 1-d mesh of every
    device. The buffer, segment and comm-sync arguments tune Paddle's own
    communication and have no meaning here; `offload` (moving state to host
    memory) is not supported.

    Args:
        model: a padax.nn.Layer (or a DataParallel).
        optimizer: a padax optimizer.
        level: 'os' (optimizer state split), 'os_g' (+ gradients) or 'p_g_os' (+ parameters).
        scaler: a GradScaler, returned unchanged.
        group: the mesh axis (name or fleet Group) to split over; default the data axes.
        offload: only False is supported.
        sync_buffers, buffer_max_size, segment_size, sync_comm, dp_group, exclude_layer: Paddle's communication tuning;
            ignored.

    Returns:
        A tuple (DataParallel model, ShardedOptimizer, scaler).

    Examples:
        >>> import padax
        >>> from padax.distributed.sharding import group_sharded_parallel
        >>> model, opt, scaler = group_sharded_parallel(padax.nn.Linear(2, 2), padax.optimizer.AdamW(0.1), level="os")
        >>> type(model).__name__, type(opt).__name__, opt.stage  # ZeRO-1: optimizer state split over the data axes
        ('DataParallel', 'ShardedOptimizer', 1)
    """
    if level not in LEVELS:
        raise ValueError(f"group_sharded_parallel: level must be one of {sorted(LEVELS)} ('os': optimizer state, "
                         f"'os_g': + gradients, 'p_g_os': + parameters), got {level!r}")
    if offload:
        raise ValueError("group_sharded_parallel: offload=True (optimizer state in host memory) is not supported by "
                         "padax; the state stays on the devices, split over the data axes")
    stage = LEVELS[level]
    inner = model._layers if isinstance(model, DataParallel) else model
    mesh = model.mesh if isinstance(model, DataParallel) else default_mesh()
    axes = (str(group),) if group is not None else default_data_axes(mesh)
    missing = [a for a in axes if a not in mesh.axis_names]
    if missing:
        raise ValueError(f"group_sharded_parallel: group {missing[0]!r} is not an axis of the mesh "
                         f"{dict(mesh.shape)}")
    if isinstance(optimizer, ShardedOptimizer):
        optimizer = optimizer.inner_opt
    wrapped = DataParallel(inner, mesh=mesh, data_axes=default_data_axes(mesh),
                           shard_axes=axes if stage == 3 else (), grad_shard_axes=axes if stage == 2 else ())
    return wrapped, ShardedOptimizer(optimizer, mesh, axes, stage), scaler


def _state_for_saving(opt_state: dict) -> dict:
    return {k: (v.state_dict() if isinstance(v, _Layer) else v) for k, v in opt_state.items()}


def save_group_sharded_model(model: Any, output: str, optimizer: Any = None, opt_state: dict | None = None) -> None:
    """Save the whole (gathered) parameters to `output/model.pdparams` and, given `opt_state` (the
    optimizer state pytree; padax optimizers keep no state of their own), it to `output/model.pdopt`.

    `optimizer` may be the state itself. Files are written atomically by padax.save.

    Args:
        model: the (wrapped) model whose gathered parameters to save.
        output: a directory (created if needed); must not be a file.
        optimizer: the optimizer, or the optimizer state itself.
        opt_state: the optimizer state pytree to save as model.pdopt.

    Returns:
        None; writes output/model.pdparams (and output/model.pdopt) atomically.

    Examples:
        >>> import os, tempfile
        >>> import padax
        >>> from padax.distributed.sharding import group_sharded_parallel, save_group_sharded_model
        >>> model, opt, _ = group_sharded_parallel(padax.nn.Linear(2, 2), padax.optimizer.AdamW(0.1), level="os")
        >>> with tempfile.TemporaryDirectory() as d:
        ...     save_group_sharded_model(model, os.path.join(d, "out"), opt_state=opt.init(model))
        ...     print(sorted(os.listdir(os.path.join(d, "out"))))
        ['model.pdopt', 'model.pdparams']
    """
    if isinstance(optimizer, dict) and opt_state is None:
        opt_state = optimizer
    if os.path.isfile(output):
        raise ValueError(f"save_group_sharded_model: output {output!r} is a file; give a directory")
    os.makedirs(output, exist_ok=True)
    _serialization.save(dict(model.state_dict()), os.path.join(output, "model.pdparams"))
    if opt_state is not None:
        _serialization.save(_state_for_saving(opt_state), os.path.join(output, "model.pdopt"))
