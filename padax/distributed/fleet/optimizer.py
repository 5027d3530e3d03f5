"""An optimizer whose state, gradients and updated parameters keep chosen layouts (ZeRO stages 0-3).

Stage 1 splits the optimizer's slots over the sharding axes and updates each
device's slice of the parameters (then all-gathered), stage 2 also the
gradients (DataParallel reduce-scatters them, see grad_scatter), stage 3
also the parameters (DataParallel/group_sharded_parallel place them; XLA
all-gathers them where the forward pass needs them whole).
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from padax.distributed.fleet import layout
from padax.distributed.fleet.model import param_sharding
from padax.runtime import tree as tree_util
from padax.runtime.sharding import Mesh, NamedSharding, PartitionSpec


def _is_none(x: Any) -> bool:
    return x is None


class ShardedOptimizer:
    """Wraps a padax optimizer: `init` lays its state out, `step` keeps every layout.

    `stage` 0 keeps slots where their parameters are; 1, 2, 3 are ZeRO's
    (see the module docstring), splitting over `shard_axes` of `mesh`
    (None: the mesh the parameters given to `init` are laid out on).
    """

    def __init__(self, optimizer: Any, mesh: Mesh | None, shard_axes: Sequence[str] = (), stage: int = 0) -> None:
        if stage not in (0, 1, 2, 3):
            raise ValueError(f"ShardedOptimizer: stage must be 0, 1, 2 or 3, got {stage!r}")
        self._inner_opt = optimizer
        self._mesh = mesh
        self._shard_axes = tuple(shard_axes) if stage else ()
        self._stage = stage
        self._param_shardings: list | None = None
        self._slot_shardings: list | None = None
        self._state_shardings: Any = None

    @property
    def inner_opt(self) -> Any:
        return self._inner_opt

    @property
    def stage(self) -> int:
        return self._stage

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._inner_opt, name)

    def _record(self, params: Any) -> None:
        leaves = tree_util.flatten(params, is_leaf=_is_none)[0]
        if self._mesh is None:
            meshes = [x.sharding.mesh for x in leaves if isinstance(getattr(x, "sharding", None), NamedSharding)]
            if not meshes:
                meshes = self._one_device_mesh(leaves)
            if not meshes:
                raise ValueError("ShardedOptimizer.init: no parameter is laid out on a mesh (shard_layer or "
                                 "shard_tensor them first), so there is no mesh to lay the state out on")
            self._mesh = meshes[0]
        self._param_shardings = [None if x is None else param_sharding(x, self._mesh) if self._stage < 3 else
                                 param_sharding(x, self._mesh, self._shard_axes) for x in leaves]
        self._slot_shardings = []
        for x, s in zip(leaves, self._param_shardings):
            if x is None:
                self._slot_shardings.append(None)
                continue
            spec = layout.spec_of(s, x.ndim)
            self._slot_shardings.append(layout.split_further(self._mesh, x.shape, spec, self._shard_axes) or s
                                        if self._shard_axes else s)

    def _one_device_mesh(self, leaves: list) -> list[Mesh]:
        """[a 1-device mesh] when every parameter lives on the same single device: there a layout on any
        mesh is the device itself, and arrays keep only their device (so shard_layer on one device works)."""
        devices = {d for x in leaves if x is not None for d in getattr(getattr(x, "sharding", None), "device_set", ())}
        if len(devices) != 1:
            return []
        names = self._mesh_axis_names()
        return [Mesh(np.array(list(devices)).reshape((1,) * len(names)), names)]

    def _mesh_axis_names(self) -> tuple[str, ...]:
        return self._shard_axes or ("dp",)

    def _lay_out_state(self, state: Any) -> Any:
        replicated = NamedSharding(self._mesh, PartitionSpec())
        slots = set(getattr(self._inner_opt, "slots", ()))
        out = {}
        for key, value in state.items():
            if key in slots:
                out[key] = _lay_out_aligned(value, self._slot_shardings)
            else:
                out[key] = tree_util.map(lambda v: layout.lay_out(v, replicated), value)
        return out

    def init(self, params: Any) -> dict:
        """The inner optimizer's state for `params`, laid out (slots split over the sharding axes)."""
        self._record(params)
        params = layout.lay_out_tree(params, self._param_shardings)
        return self._lay_out_state(self._inner_opt.init(params))

    def step(self, params: Any, grads: Any, state: dict, lr: Any = None) -> tuple[Any, dict]:
        """One update (pure, as the inner optimizer's), with parameters, gradients and state laid out."""
        if self._param_shardings is None:
            raise RuntimeError("ShardedOptimizer.step: call init(params) first (it records the layouts)")
        grads = _lay_out_aligned(grads, self._slot_shardings if self._stage >= 2 else self._param_shardings)
        if self._stage in (1, 2):  # update each device's slice only; the layout below all-gathers the result
            params = _lay_out_aligned(params, self._slot_shardings)
            grads = _lay_out_aligned(grads, self._slot_shardings)
        new_params, new_state = self._inner_opt.step(params, grads, state, lr)
        return layout.lay_out_tree(new_params, self._param_shardings), self._lay_out_state(new_state)

    def state_shardings(self) -> list:
        """Per parameter, the layout of its optimizer slots."""
        return list(self._slot_shardings or [])

    def __repr__(self) -> str:
        return f"ShardedOptimizer({self._inner_opt!r}, stage={self._stage}, shard_axes={self._shard_axes})"


def _lay_out_aligned(tree: Any, shardings: Sequence[Any]) -> Any:
    """`tree` shaped like the parameters (None leaves allowed) with leaf i laid out as shardings[i]."""
    leaves, treedef = tree_util.flatten(tree, is_leaf=_is_none)
    if len(leaves) != len(shardings):
        raise ValueError(f"ShardedOptimizer: expected a tree of {len(shardings)} parameters (as given to init), "
                         f"got {len(leaves)}")
    return treedef.unflatten([x if x is None or s is None else layout.lay_out(x, s) for x, s in zip(leaves, shardings)])
