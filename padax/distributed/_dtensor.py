"""padax.distributed's DTensor API: shard_tensor, reshard and dtensor_from_fn lay a global value out
on a mesh as the placements say."""
from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from padax.core.trace import EvalTrace, trace_state
from padax.distributed._placements import Placement, to_named_sharding
from padax.functional._arrays import aval_of
from padax.functional.lax.resharding import with_sharding_constraint
from padax.runtime.put import put_sharded


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
    s = to_named_sharding(mesh, placements, aval_of(x).ndim)
    if type(trace_state.trace) is EvalTrace:
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
