"""What a sharded checkpoint holds and where: the files of checkpoint `uid` in its folder, and its metadata.

A checkpoint folder can hold several checkpoints, told apart by `unique_id`:

- `{rank}_{uid}.distcp`: process `rank`'s shards, an npz archive (raw bytes, no pickle);
- `{uid}.metadata`: JSON; for each tensor its global shape, dtype, sharding
  and the shards that cover it (index ranges, file, archive entry);
- `{uid}.commit`: JSON, written last, once every file is complete; it names
  every file with its size. Without it the checkpoint does not exist.

Every distinct block of a tensor is stored once, by the process of the first
device (in the sharding's device order) that holds it. Every process computes
the same layout from the global shardings, so no exchange is needed to know
which process writes what.
"""
from __future__ import annotations

import dataclasses
import os
import re
from typing import Any, Iterator

import numpy as np

from padax.runtime.sharding import NamedSharding as _NamedSharding

FORMAT = "padax.distcp"
FORMAT_VERSION = 1
SHARD_SUFFIX = ".distcp"
METADATA_SUFFIX = ".metadata"
COMMIT_SUFFIX = ".commit"

_ID_PATTERN = re.compile(r"^(?:\d+_)?(\d+)\.(?:distcp|metadata|commit)$")


class CheckpointError(RuntimeError):
    """A sharded checkpoint is missing, incomplete or does not fit the state dict it is loaded into.

    Args:
        *args: the message, as for any RuntimeError.

    Returns:
        The exception (raise it).

    Examples:
        >>> import os, tempfile
        >>> import padax
        >>> import padax.distributed as dist
        >>> with tempfile.TemporaryDirectory() as d:
        ...     try:
        ...         dist.load_state_dict({"w": padax.zeros([4])}, os.path.join(d, "missing"))
        ...     except dist.CheckpointError as e:
        ...         print(str(e).split(": ")[-1])
        ...
        '.../missing' is not a checkpoint folder (it does not exist)
    """


def shard_file(rank: int, uid: int) -> str:
    return f"{rank}_{uid}{SHARD_SUFFIX}"


def metadata_file(uid: int) -> str:
    return f"{uid}{METADATA_SUFFIX}"


def commit_file(uid: int) -> str:
    return f"{uid}{COMMIT_SUFFIX}"


def ids_in(path: str) -> tuple[set[int], set[int]]:
    """(every checkpoint id with any file in `path`, the ids whose commit marker exists)."""
    every, committed = set(), set()
    if not os.path.isdir(path):
        return every, committed
    for name in os.listdir(path):
        m = _ID_PATTERN.match(name)
        if m:
            every.add(int(m.group(1)))
            if name.endswith(COMMIT_SUFFIX):
                committed.add(int(m.group(1)))
    return every, committed


def flatten(state_dict: Any, what: str) -> dict[str, tuple]:
    """{'a.b': path} for the leaves of nested dicts (Paddle's flattened key names), path = the keys to them."""
    if not isinstance(state_dict, dict):
        raise TypeError(f"{what}: state_dict must be a dict of Tensors, got {type(state_dict).__name__}")
    out: dict[str, tuple] = {}

    def walk(node: dict, path: tuple) -> None:
        for k, v in node.items():
            if not isinstance(k, str):
                raise TypeError(f"{what}: state_dict keys must be str, got {k!r}")
            p = path + (k,)
            if isinstance(v, dict):
                walk(v, p)
                continue
            name = ".".join(p)
            if name in out:
                raise ValueError(f"{what}: two entries flatten to the same name {name!r}")
            out[name] = p
    walk(state_dict, ())
    return out


def get_path(tree: dict, path: tuple) -> Any:
    for k in path:
        tree = tree[k]
    return tree


def set_path(tree: dict, path: tuple, value: Any) -> None:
    for k in path[:-1]:
        tree = tree[k]
    tree[path[-1]] = value


@dataclasses.dataclass(frozen=True)
class Block:
    """One distinct piece of a tensor: its offsets and lengths in the global array, and who stores it."""

    offsets: tuple[int, ...]
    lengths: tuple[int, ...]
    device: Any  # the device whose copy is written

    @property
    def index(self) -> tuple[slice, ...]:
        return tuple(slice(o, o + n) for o, n in zip(self.offsets, self.lengths))

    def describe(self) -> str:
        return "[" + ", ".join(f"{o}:{o + n}" for o, n in zip(self.offsets, self.lengths)) + "]"


def ranges(index: tuple, shape: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    starts, lengths = [], []
    for s, n in zip(index, shape):
        a, b, _ = s.indices(n)
        starts.append(a)
        lengths.append(b - a)
    return tuple(starts), tuple(lengths)


def blocks_of(sharding: Any, shape: tuple[int, ...]) -> list[Block]:
    """The distinct blocks of an array of `shape` laid out by `sharding`, each with the device that stores it."""
    idx = sharding.devices_indices_map(shape)
    seen: dict[tuple, Block] = {}
    for dev in sharding.device_list:
        offsets, lengths = ranges(idx[dev], shape)
        if (offsets, lengths) not in seen:
            seen[(offsets, lengths)] = Block(offsets, lengths, dev)
    return list(seen.values())


def device_process(device: Any) -> int:
    return int(getattr(device, "process_index", 0))


def describe_sharding(sharding: Any) -> dict:
    """A JSON description of a sharding (for people and tools; loading does not need it)."""
    if isinstance(sharding, _NamedSharding):
        mesh = sharding.mesh
        spec = [list(p) if isinstance(p, tuple) else p for p in sharding.spec]
        return {"kind": "named", "mesh": dict(zip(mesh.axis_names, (int(n) for n in mesh.axis_sizes))),
                "spec": spec, "devices": [int(d.id) for d in sharding.device_list]}
    return {"kind": type(sharding).__name__, "devices": [int(d.id) for d in sharding.device_list]}


@dataclasses.dataclass
class Plan:
    """Every tensor's blocks, and for each block the file and archive entry that hold it."""

    uid: int
    tensors: dict  # name -> {"shape", "dtype", "sharding", "shards": [{"offsets", "lengths", "file", "entry"}]}
    writes: dict  # rank -> [(name, Block, entry)]

    def metadata(self, num_processes: int) -> dict:
        return {"format": FORMAT, "version": FORMAT_VERSION, "unique_id": self.uid,
                "num_processes": num_processes, "tensors": self.tensors}


def plan(values: dict[str, Any], uid: int, coordinator_rank: int) -> Plan:
    """The layout of checkpoint `uid` for flattened `values` (Tensors, or host arrays the coordinator writes)."""
    tensors: dict = {}
    writes: dict = {}
    for name in sorted(values):
        v = values[name]
        if isinstance(v, np.ndarray):
            shape, dtype, sharding = tuple(v.shape), v.dtype, None
            blocks = [Block((0,) * v.ndim, shape, None)]
        else:
            shape, dtype, sharding = tuple(v.shape), np.dtype(v.dtype), v.sharding
            blocks = blocks_of(sharding, shape)
        shards = []
        for b in blocks:
            rank = coordinator_rank if b.device is None else device_process(b.device)
            mine = writes.setdefault(rank, [])
            entry = f"a{len(mine)}"
            mine.append((name, b, entry))
            shards.append({"offsets": list(b.offsets), "lengths": list(b.lengths), "file": shard_file(rank, uid),
                           "entry": entry})
        tensors[name] = {"shape": list(shape), "dtype": dtype.name,
                         "sharding": None if sharding is None else describe_sharding(sharding), "shards": shards}
    return Plan(uid, tensors, writes)


def iter_overlaps(shards: list[dict], offsets: tuple[int, ...], lengths: tuple[int, ...]) -> Iterator[tuple]:
    """For each saved shard overlapping the target block: (shard, slices into the shard, slices into the block)."""
    for s in shards:
        src, dst = [], []
        for so, sn, to, tn in zip(s["offsets"], s["lengths"], offsets, lengths):
            lo, hi = max(so, to), min(so + sn, to + tn)
            if lo >= hi:
                break
            src.append(slice(lo - so, hi - so))
            dst.append(slice(lo - to, hi - to))
        else:
            yield s, tuple(src), tuple(dst)
