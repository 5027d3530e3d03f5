"""`padax.DataParallel`: a layer whose parameters are laid out on a mesh and whose inputs are split by batch.

XLA's SPMD partitioner does the rest: with replicated parameters and a
batch split over the data axes, the gradient of every parameter is summed
over those axes by an all-reduce that XLA inserts. There is no runtime of
our own: wrapping a layer only chooses shardings.
"""
from __future__ import annotations

from typing import Any, Sequence

import padax
from padax.distributed.fleet import (
    _state,
    grad_scatter as _grad_scatter,  # a circle: it reads param_sharding at call time
    layout,
)
from padax.functional import _arrays
from padax.nn.layer.layers import Layer
from padax.runtime import backend as _backend, tree as tree_util
from padax.runtime.sharding import Mesh, NamedSharding, PartitionSpec


def default_mesh() -> Mesh:
    """The hybrid-parallel mesh of fleet.init, or a 1-d 'dp' mesh over every device."""
    if _state.hcg is not None:
        return _state.hcg.mesh
    import numpy as np
    devs = list(_backend.devices())
    arr = np.empty(len(devs), dtype=object)
    arr[:] = devs
    return Mesh(arr, ("dp",))


def default_data_axes(mesh: Mesh) -> tuple[str, ...]:
    """The axes of `mesh` that a batch is split over (dp and sharding where present)."""
    return tuple(a for a in ("dp", "sharding") if a in mesh.axis_names) or (mesh.axis_names[0],)


def param_sharding(x: Any, mesh: Mesh, shard_axes: Sequence[str] = ()) -> NamedSharding:
    """Where a parameter lives: its own layout on `mesh` if it has one (tensor-parallel layers), else
    replicated; split once more over `shard_axes` (ZeRO-3) where a dimension allows."""
    shape = _arrays.aval_of(x).shape
    s = getattr(x, "sharding", None)
    if isinstance(s, NamedSharding) and s.mesh == mesh:
        spec = layout.spec_of(s, len(shape))
    else:
        spec = [None] * len(shape)
    base = NamedSharding(mesh, PartitionSpec(*spec))
    if shard_axes:
        return layout.split_further(mesh, shape, spec, shard_axes) or base
    return base


def place_parameters(model: Any, mesh: Mesh, shard_axes: Sequence[str] = ()) -> Any:
    """`model` (a layer or pytree) with every array on `mesh` (see param_sharding). Tensor-parallel
    layers first lay their parameters out again as constructed (values loaded since are plain)."""
    if isinstance(model, Layer):
        for sub in [model] + list(model.sublayers()):
            restore = getattr(sub, "restore_layouts", None)
            if restore is not None:
                restore()
    return tree_util.map(lambda x: _lay_out_in_place(x, param_sharding(x, mesh, shard_axes)), model)


def _lay_out_in_place(x: Any, sharding: Any) -> Any:
    """x laid out by `sharding`: a concrete Tensor is updated in place (the same object, so an optimizer made
    on model.parameters() before or after keeps updating it, and a parameter stays a leaf of the tape)."""
    y = layout.lay_out(x, sharding)
    if y is x or not isinstance(x, padax.Tensor) or not isinstance(y, padax.Tensor):
        return y
    return x._rebind(y)  # (the laid-out buffer itself: set_value would not keep its sharding)


class DataParallel(Layer):
    """Paddle's `paddle.DataParallel(layers)`: the layer's parameters replicated over a mesh and its
    inputs split along their first (batch) dimension over the data axes.

    Call it as the layer itself, inside or outside `padax.jit`; gradients of the
    replicated parameters are averaged by the all-reduce that XLA inserts.
    Paddle's communication-tuning arguments (buffer sizes, unused-parameter
    search) are accepted; XLA schedules the communication. `mesh` and
    `data_axes` (padax) default to fleet's hybrid mesh, or a 'dp' mesh over every
    device; `shard_axes` additionally splits parameters (ZeRO-3);
    `grad_shard_axes` (ZeRO-2) runs the layer per device on its batch rows
    inside a shard_map so that gradients leave reduce-scattered over those axes
    (see padax.distributed.fleet.grad_scatter).
    """

    def __init__(self, layers: Layer, strategy: Any = None, comm_buffer_size: int = 25,
                 last_comm_buffer_size: int = 1, find_unused_parameters: bool = False, group: Any = None, *,
                 mesh: Mesh | None = None, data_axes: Sequence[str] | None = None,
                 shard_axes: Sequence[str] = (), grad_shard_axes: Sequence[str] = ()) -> None:
        super().__init__()
        if not isinstance(layers, Layer):
            raise TypeError(f"DataParallel: expected a padax.nn.Layer, got {type(layers).__name__}")
        mesh = mesh if mesh is not None else default_mesh()
        if group is not None and data_axes is None:
            data_axes = (str(group),)
        self._mesh = mesh
        self._data_axes = tuple(data_axes) if data_axes is not None else default_data_axes(mesh)
        self._shard_axes = tuple(shard_axes)
        self._grad_shard_axes = layout.live_axes(mesh, grad_shard_axes)
        self._layers = place_parameters(layers, mesh, self._shard_axes)

    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        inputs = layout.shard_batch(inputs, self._mesh, self._data_axes, "DataParallel")
        kwargs = {k: layout.shard_batch(v, self._mesh, self._data_axes, "DataParallel")
                  if _is_array_tree(v) else v for k, v in kwargs.items()}
        if self._grad_shard_axes:
            return _grad_scatter.call_per_shard(self._layers, inputs, kwargs, self._mesh, self._data_axes,
                                                self._grad_shard_axes)
        return self._layers(*inputs, **kwargs)

    def shard_batch(self, batch: Any) -> Any:
        """`batch` (a pytree of arrays) split along dimension 0 over the data axes."""
        return layout.shard_batch(batch, self._mesh, self._data_axes, "DataParallel")

    @property
    def mesh(self) -> Mesh:
        return self._mesh

    def state_dict(self, *args: Any, **kwargs: Any):
        """The wrapped layer's state dict (same names as without DataParallel, as in Paddle)."""
        return self._layers.state_dict(*args, **kwargs)

    def set_state_dict(self, state_dict: Any, use_structured_name: bool = True, strict: bool = True):
        out = self._layers.set_state_dict(state_dict, use_structured_name, strict)
        self._layers = place_parameters(self._layers, self._mesh, self._shard_axes)
        return out

    set_dict = set_state_dict
    load_dict = set_state_dict

    def extra_repr(self) -> str:
        return f"mesh={dict(self._mesh.shape)}, data_axes={self._data_axes}"


def _is_array_tree(v: Any) -> bool:
    leaves = tree_util.leaves(v)
    return bool(leaves) and all(_arrays.is_array(x) for x in leaves)
