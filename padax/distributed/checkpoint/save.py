"""`save_state_dict`: every process writes the shards of its own devices; the coordinator commits the checkpoint."""
from __future__ import annotations

import hashlib
import itertools
import json
import os
from typing import Any

import numpy as np

from padax.core.atomic_file import atomic_write
from padax.distributed import runtime
from padax.distributed.checkpoint import layout
from padax.runtime.array import Tensor as _Tensor
from padax.serialization import json_entry, write_archive

_saves = itertools.count()  # every process saves the same sequence, so this names each save's keys and barriers


def _host_or_tensor(name: str, value: Any, multi_process: bool) -> Any:
    """What is saved for one entry: a Tensor (laid out by its sharding) or a host array."""
    if isinstance(value, _Tensor):
        # a Tensor on this process's devices only is no global array: the coordinator writes its value
        return np.asarray(value) if multi_process and value.sharding.is_fully_addressable else value
    if isinstance(value, (np.ndarray, np.generic)):
        return np.asarray(value)
    raise TypeError(f"padax.distributed.save_state_dict: {name!r} is a {type(value).__name__}; the state dict "
                    "may hold Tensors and numpy arrays (in nested dicts)")


def _block_data(value: Any, block: layout.Block) -> np.ndarray:
    if isinstance(value, np.ndarray):
        return value
    for shard in value.addressable_shards:
        if shard.device == block.device:
            return np.asarray(shard.data)
    raise RuntimeError(f"the shard {block.describe()} of device {block.device} is not in this process")


def _write_shards(path: str, rank: int, plan: layout.Plan, values: dict) -> int:
    """Write this process's shard file (atomically); returns its size in bytes (0 when it has no shards)."""
    mine = plan.writes.get(rank, [])
    if not mine:
        return 0
    entries, manifest = {}, {}
    for name, block, entry in mine:
        data = np.asarray(_block_data(values[name], block), order="C")  # (ascontiguousarray makes 0-d 1-d)
        entries[entry] = np.frombuffer(data.tobytes(), np.uint8)
        manifest[entry] = {"tensor": name, "offsets": list(block.offsets), "dtype": data.dtype.name,
                           "shape": list(data.shape)}
    entries["manifest"] = json_entry(manifest)
    target = os.path.join(path, layout.shard_file(rank, plan.uid))
    write_archive(target, entries)
    return os.path.getsize(target)


def _next_id(path: str) -> int:
    every, _ = layout.ids_in(path)
    return max(every) + 1 if every else 0


def save_state_dict(state_dict: dict, path: str, *, coordinator_rank: int = 0,
                    unique_id: int | None = None) -> None:
    """Save a (nested) dict of sharded Tensors into the folder `path`, each process writing its own shards.

    Every process of the run calls it with its state dict (the same names and
    global shardings). Each distinct block is written once; the coordinator
    (`coordinator_rank`) writes the JSON metadata and, last, the commit marker,
    so an interrupted save never looks complete. `unique_id` numbers the
    checkpoint inside the folder (default: one more than the highest there).
    Load it, on any mesh, with `load_state_dict`.

    Args:
        state_dict: a (nested) dict of Tensors (sharded or not) or numpy arrays, with the same names on every process.
        path: the folder to write into (created if needed).
        coordinator_rank: the process that writes the metadata and the commit marker.
        unique_id: the checkpoint's number inside the folder (default: one more than the highest there).

    Returns:
        None; the checkpoint counts as written once its commit marker exists.

    Examples:
        >>> import os, tempfile
        >>> import padax
        >>> import padax.distributed as dist
        >>> pm = dist.ProcessMesh([0], dim_names=["dp"])
        >>> state = {"w": dist.shard_tensor(padax.arange(4.0), pm, [dist.Shard(0)]), "opt": {"step": padax.to_tensor(3)}}
        >>> with tempfile.TemporaryDirectory() as d:
        ...     dist.save_state_dict(state, d)
        ...     print(sorted(os.listdir(d)))  # shards, metadata, and the commit marker written last
        ['0.commit', '0.metadata', '0_0.distcp']
    """
    what = "padax.distributed.save_state_dict"
    multi = runtime.process_count() > 1
    rank, count = runtime.process_index(), runtime.process_count()
    if not 0 <= coordinator_rank < count:
        raise ValueError(f"{what}: coordinator_rank {coordinator_rank} is not in [0, {count})")
    if unique_id is not None and (not isinstance(unique_id, int) or unique_id < 0):
        raise ValueError(f"{what}: unique_id must be an int >= 0, got {unique_id!r}")
    paths = layout.flatten(state_dict, what)
    values = {name: _host_or_tensor(name, layout.get_path(state_dict, p), multi) for name, p in paths.items()}
    os.makedirs(path, exist_ok=True)
    uid = _next_id(path) if unique_id is None else unique_id
    save_no = next(_saves)
    tag = f"padax_ckpt/{hashlib.sha1(os.path.abspath(path).encode()).hexdigest()[:12]}/{save_no}"
    if multi:
        runtime.publish(f"{tag}/uid/{rank}", str(uid))
        uids = {int(u) for u in runtime.gather_published(f"{tag}/uid/")}
        if len(uids) != 1:
            raise layout.CheckpointError(f"{what}: the processes chose different checkpoint ids {sorted(uids)} "
                                         f"for {path!r}; pass the same unique_id on every process")
    marker = os.path.join(path, layout.commit_file(uid))
    if rank == coordinator_rank and os.path.exists(marker):
        os.unlink(marker)  # the old checkpoint of this id stops existing before any of its files change
    if multi:
        runtime.barrier(f"{tag}/begin")
    plan = layout.plan(values, uid, coordinator_rank)
    meta = json.dumps(plan.metadata(count), indent=1).encode()
    size = _write_shards(path, rank, plan, values)
    if not multi:
        _commit(path, plan, meta, [size])
        return
    digest = hashlib.sha1(meta).hexdigest()  # equal on every process unless their state dicts differ
    runtime.publish(f"{tag}/written/{rank}", f"{size} {digest}")
    if rank == coordinator_rank:
        reports = [r.split() for r in runtime.gather_published(f"{tag}/written/")]
        differ = [r for r, (_, d) in enumerate(reports) if d != digest]
        verdict = "ok" if not differ else (
            f"the state dicts of processes {differ} differ from process {coordinator_rank}'s (names, shapes, dtypes "
            "or shardings); every process must save the same entries")
        if not differ:
            _commit(path, plan, meta, [int(sz) for sz, _ in reports])
        runtime.publish(f"{tag}/verdict", verdict)
    else:
        verdict = runtime.wait_published(f"{tag}/verdict")
    if verdict != "ok":
        raise layout.CheckpointError(f"{what}: checkpoint {uid} in {path!r} was not committed: {verdict}")


def _commit(path: str, plan: layout.Plan, meta: bytes, sizes: list[int]) -> None:
    """Write the metadata, then the commit marker naming every shard file and its size (the coordinator's job)."""
    uid = plan.uid
    files = {layout.shard_file(r, uid): s for r, s in enumerate(sizes) if r in plan.writes}
    atomic_write(os.path.join(path, layout.metadata_file(uid)), meta)
    commit = {"format": layout.FORMAT, "version": layout.FORMAT_VERSION, "unique_id": uid,
              "metadata": layout.metadata_file(uid), "metadata_sha1": hashlib.sha1(meta).hexdigest(),
              "files": files}
    atomic_write(os.path.join(path, layout.commit_file(uid)), json.dumps(commit, indent=1).encode())
