"""The hybrid-parallel device mesh and Paddle's HybridCommunicateGroup getters over it.

The mesh has one axis per parallelism, in the strategy's order
(default dp, pp, sharding, sep, mp; outermost first). A Paddle "group" is a
mesh axis here: `Group` is the axis name (a str, so it can be passed as the
`group=` of padax.distributed's collectives inside shard_map) that also
carries Paddle's `nranks`/`ranks`.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from padax.distributed.fleet.strategy import HYBRID_ORDER, DistributedStrategy
from padax.runtime import backend as _backend
from padax.runtime.sharding import Mesh, _is_addressable


class Group(str):
    """A communication group: the name of a mesh axis, with Paddle's `nranks`, `ranks` and `rank`.

    Args:
        axis: the mesh axis name (the Group is this string).
        nranks: the number of members.
        ranks: the members' global ranks.
        rank: this process's index within the group.

    Returns:
        The group.

    Examples:
        >>> from padax.distributed import fleet
        >>> fleet.init(is_collective=True, strategy=fleet.DistributedStrategy())
        >>> g = fleet.get_hybrid_communicate_group().get_model_parallel_group()
        >>> g, g.axis_name, g.nranks, g.ranks, g.rank  # a mesh axis name, usable as a collective's group
        ('mp', 'mp', 1, [0], 0)
    """

    nranks: int
    ranks: list
    rank: int

    def __new__(cls, axis: str, nranks: int, ranks: Sequence[int], rank: int) -> "Group":
        g = super().__new__(cls, axis)
        g.nranks, g.ranks, g.rank = int(nranks), list(ranks), int(rank)
        return g

    @property
    def world_size(self) -> int:
        return self.nranks

    @property
    def axis_name(self) -> str:
        return str(self)


def resolve_degrees(strategy: DistributedStrategy, n_devices: int) -> dict[str, int]:
    """The degree of every axis (dp_degree=-1 filled in); an error with the numbers if they don't fit."""
    cfg = strategy.hybrid_configs
    deg = {a: cfg[f"{a}_degree"] for a in HYBRID_ORDER}
    others = int(np.prod([d for a, d in deg.items() if a != "dp"]))
    if deg["dp"] == -1:
        if n_devices % others:
            raise ValueError(f"fleet.init: mp_degree*pp_degree*sharding_degree*sep_degree = "
                             f"{deg['mp']}*{deg['pp']}*{deg['sharding']}*{deg['sep']} = {others} does not divide "
                             f"the {n_devices} devices, so dp_degree=-1 cannot be filled in")
        deg["dp"] = n_devices // others
    total = deg["dp"] * others
    if total != n_devices:
        raise ValueError(f"fleet.init: dp_degree*mp_degree*pp_degree*sharding_degree*sep_degree = "
                         f"{deg['dp']}*{deg['mp']}*{deg['pp']}*{deg['sharding']}*{deg['sep']} = {total}, but there "
                         f"are {n_devices} devices; the degrees must multiply to the device count")
    return deg


class HybridCommunicateGroup:
    """The hybrid-parallel layout: a Mesh with axes dp/pp/sharding/sep/mp and Paddle's getters on it.

    padax runs one program over every device (SPMD), so "this rank" is the
    position of this process's first device; in a single process that is
    device 0, at coordinate 0 along every axis.

    Args:
        degrees: the size of each axis, e.g. {'dp': 2, 'pp': 1, 'sharding': 1, 'sep': 1, 'mp': 2}.
        order: the axis order of the mesh (outermost first).
        devices: the devices to lay out (default padax.devices()).

    Returns:
        The layout; `.mesh` is the Mesh, with Paddle's get_*_rank / get_*_group getters.

    Examples:
        >>> import padax
        >>> from padax.distributed.fleet import HybridCommunicateGroup
        >>> hcg = HybridCommunicateGroup({"dp": 1, "pp": 1, "sharding": 1, "sep": 1, "mp": 1}, devices=padax.devices()[:1])
        >>> hcg.mesh.axis_names, hcg.data_axes
        (('dp', 'pp', 'sharding', 'sep', 'mp'), ('dp', 'sharding'))
        >>> hcg.get_model_parallel_world_size(), hcg.get_pipe_parallel_world_size()
        (1, 1)
    """

    def __init__(self, degrees: dict[str, int], order: Sequence[str] = HYBRID_ORDER,
                 devices: Sequence[Any] | None = None):
        devs = list(devices) if devices is not None else list(_backend.devices())
        self.order = tuple(order)
        self.degrees = {a: int(degrees[a]) for a in self.order}
        shape = tuple(self.degrees[a] for a in self.order)
        arr = np.empty(len(devs), dtype=object)
        arr[:] = devs
        self.mesh = Mesh(arr.reshape(shape), self.order)
        self._ids = np.arange(len(devs)).reshape(shape)
        mine = next((i for i, d in enumerate(devs) if _is_addressable(d)), 0)
        self._coord = dict(zip(self.order, (int(c) for c in np.unravel_index(mine, shape))))
        self._global_rank = mine

    # -- generic ------------------------------------------------------------------------------
    def axis_group(self, axis: str) -> Group:
        """The group along `axis` that contains this rank."""
        idx = tuple(slice(None) if a == axis else self._coord[a] for a in self.order)
        return Group(axis, self.degrees[axis], self._ids[idx].ravel().tolist(), self._coord[axis])

    def get_global_rank(self) -> int:
        return self._global_rank

    def get_parallel_mode(self) -> int:
        """Paddle's ParallelMode: 0 data, 1 tensor, 2 pipeline, 3 sharding (the outermost one in use)."""
        if self.degrees["pp"] > 1:
            return 2
        if self.degrees["mp"] > 1:
            return 1
        if self.degrees["sharding"] > 1:
            return 3
        return 0

    @property
    def data_axes(self) -> tuple[str, ...]:
        """The mesh axes a batch is split over: dp and sharding (ZeRO ranks see different data)."""
        return ("dp", "sharding")

    # -- Paddle's getters ---------------------------------------------------------------------
    def get_data_parallel_rank(self) -> int:
        return self._coord["dp"]

    def get_data_parallel_world_size(self) -> int:
        return self.degrees["dp"]

    def get_data_parallel_group(self) -> Group:
        return self.axis_group("dp")

    def get_data_parallel_group_src_rank(self) -> int:
        return self.axis_group("dp").ranks[0]

    def get_model_parallel_rank(self) -> int:
        return self._coord["mp"]

    def get_model_parallel_world_size(self) -> int:
        return self.degrees["mp"]

    def get_model_parallel_group(self) -> Group:
        return self.axis_group("mp")

    def get_model_parallel_group_src_rank(self) -> int:
        return self.axis_group("mp").ranks[0]

    def get_stage_id(self) -> int:
        return self._coord["pp"]

    def get_pipe_parallel_world_size(self) -> int:
        return self.degrees["pp"]

    def get_pipe_parallel_group(self) -> Group:
        return self.axis_group("pp")

    def get_sharding_parallel_rank(self) -> int:
        return self._coord["sharding"]

    def get_sharding_parallel_world_size(self) -> int:
        return self.degrees["sharding"]

    def get_sharding_parallel_group(self) -> Group:
        return self.axis_group("sharding")

    def get_sharding_parallel_group_src_rank(self) -> int:
        return self.axis_group("sharding").ranks[0]

    def get_sep_parallel_rank(self) -> int:
        return self._coord["sep"]

    def get_sep_parallel_world_size(self) -> int:
        return self.degrees["sep"]

    def get_sep_parallel_group(self) -> Group:
        return self.axis_group("sep")

    def get_rank_from_stage(self, stage_id: int, **kwargs: Any) -> int:
        coord = dict(self._coord, pp=int(stage_id), **kwargs)
        return int(self._ids[tuple(coord[a] for a in self.order)])

    def __repr__(self) -> str:
        return "HybridCommunicateGroup(" + ", ".join(f"{a}_degree={d}" for a, d in self.degrees.items()) + ")"
