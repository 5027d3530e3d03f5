"""padax's npz archives: arrays stored as raw bytes with a JSON list of dtypes and shapes, JSON
entries, atomic writes, and opening with clear errors for missing, foreign or damaged files (no pickle)."""
from __future__ import annotations

import io
import json
import os
import zipfile
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


def describe_damage(e: BaseException) -> str:
    """What a failure to read a zip archive or one of its entries says about the file, in words (never
    the reader's own exception text)."""
    if isinstance(e, zipfile.BadZipFile) and "CRC" in str(e):
        return "fails its checksum (the file is corrupted)"
    if isinstance(e, NotImplementedError):
        return "is damaged (its zip header names an unknown compression method: the file is overwritten)"
    if isinstance(e, MemoryError):
        return "is damaged (a header asks for more memory than the file could hold)"
    return "is damaged (its zip or .npy header is truncated or overwritten)"


def read_member(archive, key: str, path: str, what: str) -> np.ndarray:
    """The array stored in entry `key`, or a LoadError saying which entry is missing or damaged."""
    try:
        return archive[key]
    except KeyError:
        raise LoadError(f"{what}: {path!r} has no {key!r} entry: a zip archive not written by padax for {what}, "
                        "or a damaged one") from None
    except Exception as e:  # noqa: BLE001 (zipfile, zlib and numpy raise many types for a damaged member)
        raise LoadError(f"{what}: {path!r}: its entry {key!r} {describe_damage(e)}") from None


def read_arrays(archive, meta: Sequence[dict], prefix: str, path: str, what: str = "padax.load") -> list[np.ndarray]:
    """The arrays `array_entries` stored (checked against their recorded dtypes and sizes)."""
    if not isinstance(meta, list):
        raise LoadError(f"{what}: {path!r} is damaged (its list of arrays is missing)")
    out = []
    for i, m in enumerate(meta):
        try:
            dt, shape = dtypes.to_dtype(m["dtype"]), tuple(int(d) for d in m["shape"])
            if any(d < 0 for d in shape):
                raise ValueError
        except Exception:  # noqa: BLE001 (a hand-edited or damaged description fails in many ways)
            raise LoadError(f"{what}: {path!r} is damaged (array {i} has no valid dtype and shape: "
                            f"{str(m)[:80]})") from None
        raw = read_member(archive, f"{prefix}{i}", path, what)
        if raw.dtype != np.uint8 or raw.ndim != 1:
            raise LoadError(f"{what}: {path!r}: array {i} is stored as {raw.dtype.name}{list(raw.shape)}, not as "
                            "the raw bytes padax writes (the file is damaged or hand-made)")
        if raw.size != dt.itemsize * int(np.prod(shape, dtype=np.int64)):
            raise LoadError(f"{what}: {path!r}: array {i} has {raw.size} bytes, the wrong size for "
                            f"{dt.name}{list(shape)} (the file is damaged)")
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
        raise LoadError(f"{what}: {path!r} cannot be read ({e.strerror or 'an operating-system error'})") from None
    if magic not in _ZIP_MAGIC:
        kind = "empty" if not magic else "not a padax file (padax files are zip archives)"
        raise LoadError(f"{what}: {path!r} is {kind}")
    try:
        archive = np.load(path, allow_pickle=False)
    except Exception as e:  # noqa: BLE001 (zipfile and numpy raise many types for a damaged archive)
        detail = ("its zip directory is missing: the file is truncated" if isinstance(e, zipfile.BadZipFile)
                  else "its zip directory cannot be read: the file is truncated or overwritten")
        raise LoadError(f"{what}: {path!r} is damaged ({detail})") from None
    if not isinstance(archive, np.lib.npyio.NpzFile):
        raise LoadError(f"{what}: {path!r} is not a padax file")
    return archive


def read_json(archive, key: str, path: str, what: str) -> Any:
    raw = read_member(archive, key, path, what)
    try:
        return json.loads(raw.tobytes())
    except (ValueError, UnicodeDecodeError):
        raise LoadError(f"{what}: {path!r} is damaged (its {key!r} entry is not valid JSON)") from None
