"""padax.distributed's view of the processes of a run: get_rank, get_world_size and
make_array_from_process_local_data (one global Tensor from each process's block)."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from padax.config import config
from padax.core.abstract import ShapedArray
from padax.distributed.runtime import DistributedError, process_count, process_index
from padax.runtime import _jaxlib
from padax.runtime.array import Tensor
from padax.runtime.put import _as_host_array
from padax.runtime.sharding import NamedSharding, ShardingError, _is_addressable


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
