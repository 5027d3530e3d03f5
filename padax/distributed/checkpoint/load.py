"""`load_state_dict`: fill a state dict from a committed sharded checkpoint, resharding onto its layouts."""
from __future__ import annotations

import hashlib
import json
import os
from typing import Any

import numpy as np

from padax import dtypes
from padax.config import config as _config
from padax.core.abstract import ShapedArray as _ShapedArray
from padax.distributed.checkpoint import layout
from padax.distributed.checkpoint.layout import CheckpointError
from padax.runtime import _jaxlib
from padax.runtime.array import Tensor as _Tensor
from padax.runtime.sharding import _is_addressable
from padax.serialization import LoadError, describe_damage, open_archive, read_json

_WHAT = "padax.distributed.load_state_dict"


def _read_text(path: str, what: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise CheckpointError(f"{_WHAT}: cannot read the {what} {path!r} ({e.strerror or e})") from None


def _committed(path: str, unique_id: int | None) -> tuple[dict, dict]:
    """(commit marker, metadata) of checkpoint `unique_id` (default: the newest committed one) in `path`."""
    if not os.path.isdir(path):
        raise CheckpointError(f"{_WHAT}: {path!r} is not a checkpoint folder (it does not exist)")
    every, committed = layout.ids_in(path)
    if unique_id is None:
        if not committed:
            if every:
                raise CheckpointError(
                    f"{_WHAT}: {path!r} holds no complete checkpoint: checkpoint(s) {sorted(every)} have no commit "
                    f"marker ({layout.commit_file(max(every))}), so their save was interrupted or is still running")
            raise CheckpointError(f"{_WHAT}: {path!r} holds no checkpoint")
        unique_id = max(committed)
    elif unique_id not in committed:
        state = ("has no commit marker " f"({layout.commit_file(unique_id)}): its save was interrupted or is still "
                 "running") if unique_id in every else "does not exist"
        raise CheckpointError(f"{_WHAT}: checkpoint {unique_id} in {path!r} {state}")
    try:
        commit = json.loads(_read_text(os.path.join(path, layout.commit_file(unique_id)), "commit marker"))
        raw = _read_text(os.path.join(path, commit["metadata"]), "metadata file")
        if hashlib.sha1(raw).hexdigest() != commit["metadata_sha1"]:
            raise CheckpointError(f"{_WHAT}: the metadata file {commit['metadata']!r} in {path!r} was changed "
                                  "after the checkpoint was committed")
        meta = json.loads(raw)
    except (ValueError, KeyError, TypeError) as e:
        what = (f"lacks the entry {e.args[0]!r}" if isinstance(e, KeyError) else
                "is not valid JSON" if isinstance(e, ValueError) else "has entries of the wrong type")
        raise CheckpointError(f"{_WHAT}: checkpoint {unique_id} in {path!r} has an unreadable commit marker or "
                              f"metadata (it {what})") from None
    if meta.get("format") != layout.FORMAT:
        raise CheckpointError(f"{_WHAT}: {path!r} is not a padax sharded checkpoint")
    return commit, meta


class _ShardReader:
    """Reads saved shards, opening each shard file once and checking it against the commit marker."""

    def __init__(self, path: str, commit: dict):
        self.path, self.commit, self.archives = path, commit, {}
        self.cache: dict = {}  # (file, entry) -> array, for the tensor being loaded (see `forget`)

    def forget(self) -> None:
        """Drop the shards read so far (called between tensors, so memory stays at one tensor's shards)."""
        self.cache.clear()

    def _archive(self, file: str, tensor: str, where: str):
        if file not in self.archives:
            full = os.path.join(self.path, file)
            if not os.path.exists(full):
                raise CheckpointError(f"{_WHAT}: shard {where} of {tensor!r} is in {full!r}, which is missing")
            expected = self.commit["files"].get(file)
            if expected is not None and os.path.getsize(full) != expected:
                raise CheckpointError(f"{_WHAT}: shard file {full!r} (holding shard {where} of {tensor!r}) has "
                                      f"{os.path.getsize(full)} bytes but was committed with {expected}")
            try:
                archive = open_archive(full, _WHAT)
                manifest = read_json(archive, "manifest", full, _WHAT)
            except LoadError as e:
                raise CheckpointError(str(e)) from None
            self.archives[file] = (archive, manifest)
        return self.archives[file]

    def read(self, tensor: str, shard: dict) -> np.ndarray:
        key = (shard["file"], shard["entry"])
        if key not in self.cache:
            self.cache[key] = self._read(tensor, shard)
        return self.cache[key]

    def _read(self, tensor: str, shard: dict) -> np.ndarray:
        where = "[" + ", ".join(f"{o}:{o + n}" for o, n in zip(shard["offsets"], shard["lengths"])) + "]"
        archive, manifest = self._archive(shard["file"], tensor, where)
        m = manifest.get(shard["entry"])
        full = os.path.join(self.path, shard["file"])
        if m is None or m["tensor"] != tensor or m["shape"] != shard["lengths"]:
            raise CheckpointError(f"{_WHAT}: {full!r} does not hold shard {where} of {tensor!r}")
        dt = dtypes.to_dtype(m["dtype"])
        try:
            raw = archive[shard["entry"]]
        except KeyError:
            raise CheckpointError(f"{_WHAT}: shard {where} of {tensor!r} is missing from {full!r} (no entry "
                                  f"{shard['entry']!r})") from None
        except Exception as e:  # noqa: BLE001 (zipfile raises several types for a damaged member)
            raise CheckpointError(f"{_WHAT}: shard {where} of {tensor!r} in {full!r} {describe_damage(e)}") from None
        if raw.size != dt.itemsize * int(np.prod(m["shape"], dtype=np.int64)):
            raise CheckpointError(f"{_WHAT}: shard {where} of {tensor!r} in {full!r} has the wrong size")
        return raw.view(dt).reshape(m["shape"])


def _assemble(reader: _ShardReader, name: str, info: dict, offsets: tuple, lengths: tuple, dtype) -> np.ndarray:
    """The block [offsets, offsets + lengths) of tensor `name`, cut from the saved shards that overlap it."""
    out = np.empty(lengths, dtype=dtype)
    covered = 0
    for shard, src, dst in layout.iter_overlaps(info["shards"], offsets, lengths):
        piece = reader.read(name, shard)[src]
        out[dst] = piece
        covered += piece.size
    if covered < out.size:  # the saved shards are distinct, so they cover the block exactly when sizes add up
        raise CheckpointError(f"{_WHAT}: the checkpoint's shards of {name!r} do not cover its block "
                              f"{[slice(o, o + n) for o, n in zip(offsets, lengths)]}")
    return out


def _load_tensor(reader: _ShardReader, name: str, info: dict, target: Any) -> Any:
    """A Tensor like `target` (shape, dtype, sharding) holding the saved value; only local blocks are read."""
    shape, dtype, sharding = tuple(target.shape), np.dtype(target.dtype), target.sharding
    idx = sharding.devices_indices_map(shape)
    devs, pieces, cache = [], [], {}
    for dev in sharding.device_list:
        if not _is_addressable(dev):
            continue
        offsets, lengths = layout.ranges(idx[dev], shape)
        if (offsets, lengths) not in cache:
            cache[(offsets, lengths)] = _assemble(reader, name, info, offsets, lengths, dtype)
        devs.append(dev)
        pieces.append(np.array(cache[(offsets, lengths)], order="C", copy=True))  # one buffer per device
    aval = _ShapedArray(shape, dtype, False)
    return _Tensor(_jaxlib.device_put(aval, sharding.to_jaxlib(len(shape)), pieces, devs, _config.enable_x64), aval)


def load_state_dict(state_dict: dict, path: str, *, unique_id: int | None = None) -> None:
    """Fill `state_dict` in place from the sharded checkpoint in folder `path`, resharding as needed.

    Each entry's current value says where the saved one goes: a Tensor is
    replaced by a Tensor of the same shape, dtype and sharding (any mesh; each
    process reads only the blocks its own devices hold), a numpy array by a
    numpy array. `unique_id` picks the checkpoint (default: the newest
    committed one). A checkpoint without its commit marker, a missing shard
    file or a missing name is an error that says which.

    Args:
        state_dict: a (nested) dict of Tensors or numpy arrays; each entry's shape, dtype and sharding say how to load
            it.
        path: the checkpoint folder written by `save_state_dict`.
        unique_id: which checkpoint to load (default: the newest committed one).

    Returns:
        None; `state_dict`'s entries are replaced in place.

    Examples:
        >>> import tempfile
        >>> import padax
        >>> import padax.distributed as dist
        >>> pm = dist.ProcessMesh([0], dim_names=["dp"])
        >>> with tempfile.TemporaryDirectory() as d:
        ...     dist.save_state_dict({"w": dist.shard_tensor(padax.arange(4.0), pm, [dist.Shard(0)])}, d)
        ...     target = {"w": padax.zeros([4])}  # its layout says where the saved values go
        ...     dist.load_state_dict(target, d)
        ...
        >>> target["w"].tolist()
        [0.0, 1.0, 2.0, 3.0]
    """
    paths = layout.flatten(state_dict, _WHAT)
    commit, meta = _committed(path, unique_id)
    reader = _ShardReader(path, commit)
    tensors = meta["tensors"]
    missing = [n for n in paths if n not in tensors]
    if missing:
        raise CheckpointError(f"{_WHAT}: checkpoint {meta['unique_id']} in {path!r} has no entries named "
                              f"{missing}; it holds {sorted(tensors)}")
    for name, p in paths.items():
        target, info = layout.get_path(state_dict, p), tensors[name]
        if not isinstance(target, (_Tensor, np.ndarray)):
            raise TypeError(f"{_WHAT}: {name!r} is a {type(target).__name__}; give a Tensor or numpy array whose "
                            "shape, dtype and sharding say how to load it")
        if list(target.shape) != info["shape"]:
            raise CheckpointError(f"{_WHAT}: {name!r} was saved with shape {info['shape']} but the state dict's "
                                  f"has shape {list(target.shape)}")
        saved = dtypes.to_dtype(info["dtype"])
        if not np.can_cast(saved, target.dtype, "same_kind"):
            raise CheckpointError(f"{_WHAT}: {name!r} was saved as {saved.name}, which does not convert to the "
                                  f"state dict's {np.dtype(target.dtype).name} without changing its kind")
        if isinstance(target, np.ndarray):
            zeros = (0,) * target.ndim
            value = _assemble(reader, name, info, zeros, tuple(target.shape), target.dtype)
        else:
            value = _load_tensor(reader, name, info, target)
        reader.forget()
        layout.set_path(state_dict, p, value)
