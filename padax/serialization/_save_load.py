"""`padax.save` / `padax.load`: the format chosen on save (padax's npz archive, Paddle's pickle or
.safetensors) and told from the file's first bytes on load."""
from __future__ import annotations

import os
from typing import Any

import numpy as np

from padax import dtypes
from padax.runtime.put import device_put
from padax.serialization import _paddle_format, _pickle_reader, _safetensors
from padax.serialization._archive import (
    _ZIP_MAGIC,
    LoadError,
    array_entries,
    json_entry,
    open_archive,
    read_arrays,
    read_json,
    write_archive,
)
from padax.serialization._tree import decode_tree, encode_tree, tree_is_valid

FORMAT = "padax.tree"


FORMAT_VERSION = 1


FORMATS = ("padax", "paddle", "safetensors")


def save(obj: Any, path: str, protocol: int = 4, format: str | None = None, **configs: Any) -> None:  # noqa: A002
    """Save a state dict (or any tree of arrays, numbers and strings) to the file `path`.

    `format`: 'padax' (default: an npz archive, never pickled), 'paddle' (the pickle `paddle.save` writes, for
    Paddle's `paddle.load`) or 'safetensors' (a flat {name: array} dict; also chosen by Paddle's
    `safetensors=True` or a `.safetensors` file name).
    """
    use_safetensors = configs.pop("safetensors", False)
    if configs:
        raise TypeError(f"padax.save: unsupported options {sorted(configs)}")
    path = os.fspath(path)
    if not os.path.basename(path):
        raise ValueError(f"padax.save: {path!r} names a folder; give a file name like 'model.pdparams'")
    if format is None:
        format = "safetensors" if use_safetensors or path.endswith(".safetensors") else "padax"  # noqa: A001
    if format not in FORMATS:
        raise ValueError(f"padax.save: unknown format {format!r}; valid formats are {list(FORMATS)}")
    if format == "paddle":
        return _paddle_format.save(obj, path, protocol)
    if format == "safetensors":
        return _safetensors.save(obj, path)
    arrays: list = []
    tree = encode_tree(obj, arrays)
    entries, meta = array_entries(arrays, "a")
    entries["tree"] = json_entry({"format": FORMAT, "format_version": FORMAT_VERSION, "tree": tree,
                                  "arrays": meta})
    write_archive(path, entries)


def load(path: str, return_numpy: bool = False, **configs: Any) -> Any:
    """Load a file `padax.save` wrote, a Paddle `.pdparams`/`.pdopt` pickle (read by a restricted unpickler
    that runs no code), or a `.safetensors` file; the format is told from the file's first bytes.

    Arrays that were Tensors come back as Tensors (Paddle and safetensors files: every array), numpy arrays
    with `return_numpy=True`.
    """
    configs.pop("safetensors", None)  # Paddle's flag; the content says which format it is
    if configs:
        raise TypeError(f"padax.load: unsupported options {sorted(configs)}")
    path = os.fspath(path)
    head = _head(path)
    if head.startswith(_ZIP_MAGIC):
        return _load_padax(path, return_numpy)
    if head.startswith(_paddle_format.PICKLE_MAGIC):
        obj = _load_foreign(path, "a Paddle pickle", _paddle_format.loads, (_pickle_reader.UnsafePickleError,))
    elif _safetensors.looks_like_safetensors(head):
        obj = _load_foreign(path, "a safetensors file", _safetensors.loads, ())
    else:
        kind = "empty" if not head else "not a padax, Paddle or safetensors file"
        raise LoadError(f"padax.load: {path!r} is {kind}")
    return obj if return_numpy else _arrays_to_tensors(obj, path)


def _head(path: str) -> bytes:
    if not os.path.exists(path):
        raise LoadError(f"padax.load: {path!r} does not exist")
    if os.path.isdir(path):
        raise LoadError(f"padax.load: {path!r} is a folder, not a file")
    try:
        with open(path, "rb") as f:
            return f.read(16)
    except OSError as e:
        raise LoadError(f"padax.load: {path!r} cannot be read ({e.strerror or e})") from None


def _load_foreign(path: str, kind: str, loads: Any, refusals: tuple) -> Any:
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise LoadError(f"padax.load: {path!r} cannot be read ({e.strerror or 'an operating-system error'})") from None
    try:
        return loads(data)
    except refusals as e:
        raise LoadError(f"padax.load: {path!r} was refused: {e}") from None
    except ImportError:
        raise
    except _pickle_reader.DamagedPickleError as e:
        raise LoadError(f"padax.load: {path!r} is {kind} that is damaged: {e}") from None
    except _safetensors.DamagedSafetensorsError as e:
        raise LoadError(f"padax.load: {path!r} is {kind} that is damaged: {e}") from None
    except Exception:  # noqa: BLE001 (a damaged file fails in many ways; none of their texts helps the user)
        raise LoadError(f"padax.load: {path!r} is {kind} that is damaged ({len(data)} bytes that do not decode "
                        "to dicts, lists and arrays)") from None


def _arrays_to_tensors(obj: Any, path: str, where: str = "") -> Any:
    if isinstance(obj, np.ndarray):
        try:
            dt = dtypes.to_dtype(obj.dtype.newbyteorder("="))
        except TypeError:
            raise LoadError(f"padax.load: {path!r} holds an array of dtype {obj.dtype} at {where or 'the top'}, "
                            "which a Tensor cannot hold; load it with return_numpy=True") from None
        return device_put(obj.astype(dt, copy=False) if obj.dtype != dt else obj)
    if isinstance(obj, dict):
        return {k: _arrays_to_tensors(v, path, f"{where}[{k!r}]") for k, v in obj.items()}
    if type(obj) in (list, tuple):
        return type(obj)(_arrays_to_tensors(v, path, f"{where}[{i}]") for i, v in enumerate(obj))
    return obj


def _load_padax(path: str, return_numpy: bool) -> Any:
    with open_archive(path, "padax.load") as z:
        head = read_json(z, "tree", path, "padax.load")
        if not isinstance(head, dict) or head.get("format") != FORMAT:
            raise LoadError(f"padax.load: {path!r} was not written by padax.save")
        if head.get("format_version", 0) > FORMAT_VERSION:
            raise LoadError(f"padax.load: {path!r} was written by a newer padax; upgrade padax to read it")
        arrays = read_arrays(z, head.get("arrays"), "a", path, "padax.load")
        if not tree_is_valid(head.get("tree"), len(arrays)):
            raise LoadError(f"padax.load: {path!r} is damaged (its 'tree' entry does not describe the "
                            f"{len(arrays)} stored arrays)")
        return decode_tree(head["tree"], arrays, return_numpy)
