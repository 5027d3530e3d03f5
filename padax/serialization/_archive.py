"""padax's npz archives: arrays stored as raw bytes with a JSON list of dtypes and shapes, JSON
entries, atomic writes, and opening with clear errors for missing, foreign or damaged files (no pickle)."""
from __future__ import annotations

import io
import json
import os
from typing import Any, Sequence

import numpy as np

from padax import dtypes
from padax.core.atomic_file import atomic_write


class LoadError(ValueError):
    """A file that is not a readable padax archive (missing, truncated, foreign or damaged)."""


def array_entries(arrays: Sequence[np.ndarray], prefix: str) -> tuple[dict, list]:
    """npz entries `{prefix}{i}` holding each array's bytes, and the dtype/shape list to rebuild them."""
    entries, meta = {}, []
    for i, a in enumerate(arrays):
        a = np.asarray(a)
        entries[f"{prefix}{i}"] = np.frombuffer(np.ascontiguousarray(a).tobytes(), np.uint8)
        meta.append({"dtype": a.dtype.name, "shape": list(a.shape)})
    return entries, meta


def read_arrays(archive, meta: Sequence[dict], prefix: str, path: str) -> list[np.ndarray]:
    """The arrays `array_entries` stored (checked against their recorded sizes)."""
    out = []
    for i, m in enumerate(meta):
        dt, shape = dtypes.to_dtype(m["dtype"]), tuple(m["shape"])
        raw = archive[f"{prefix}{i}"]
        if raw.dtype != np.uint8 or raw.size != dt.itemsize * int(np.prod(shape, dtype=np.int64)):
            raise LoadError(f"{path!r}: array {i} has the wrong size for {dt.name}{list(shape)}")
        out.append(raw.view(dt).reshape(shape))
    return out


def write_archive(path: str, entries: dict) -> None:
    """Write npz `entries` to `path` atomically."""
    buf = io.BytesIO()
    np.savez(buf, **entries)
    atomic_write(path, buf.getvalue())


def json_entry(obj: Any) -> np.ndarray:
    return np.frombuffer(json.dumps(obj).encode(), np.uint8)


_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")  # a zip archive (npz) starts with a local or end header


def open_archive(path: str, what: str):
    """Open an npz archive for reading (no pickle); clear errors for missing, foreign or damaged files."""
    if not os.path.exists(path):
        raise LoadError(f"{what}: {path!r} does not exist")
    if os.path.isdir(path):
        raise LoadError(f"{what}: {path!r} is a folder, not a file")
    try:
        with open(path, "rb") as f:
            magic = f.read(4)
    except OSError as e:
        raise LoadError(f"{what}: {path!r} cannot be read ({e.strerror or e})") from None
    if magic not in _ZIP_MAGIC:
        kind = "empty" if not magic else "not a padax file (padax files are zip archives)"
        raise LoadError(f"{what}: {path!r} is {kind}")
    try:
        archive = np.load(path, allow_pickle=False)
    except Exception as e:  # noqa: BLE001 (zipfile and numpy raise many types for a damaged archive)
        raise LoadError(f"{what}: {path!r} is damaged ({type(e).__name__}: {e})") from None
    if not isinstance(archive, np.lib.npyio.NpzFile):
        raise LoadError(f"{what}: {path!r} is not a padax file")
    return archive


def read_json(archive, key: str, path: str, what: str) -> Any:
    try:
        return json.loads(archive[key].tobytes())
    except Exception as e:  # noqa: BLE001 (zipfile raises several types for a damaged member)
        raise LoadError(f"{what}: {path!r} is not a readable padax file ({type(e).__name__}: {e})") from None
