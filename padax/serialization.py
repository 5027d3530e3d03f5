"""`padax.save` / `padax.load`: state dicts and other trees of arrays in one file, never pickled.

(padax's own format, below; `format='paddle'` / `'safetensors'` write Paddle's pickle or a .safetensors
file instead, and `load` reads all three: see padax/paddle_format.py and padax/safetensors_format.py.)

The file is a numpy npz archive: each array stored as its raw bytes (`a0`,
`a1`, ...), and a JSON `tree` entry describing the structure with each
array's dtype and shape. Every dtype round-trips (bfloat16 and float8
included), reading it back runs no pickle, and the file is written atomically
(temp file, fsync, rename), so an interrupted save leaves the previous file
whole. What can be saved: Tensors, numpy arrays and scalars, None, bool, int,
float, complex, str, and lists, tuples and dicts (str or int keys) of them.
"""
from __future__ import annotations

import collections

import io
import json
import os
from typing import Any, Sequence

import numpy as np

from padax.core import dtypes
from padax.lowering.compile import atomic_write

FORMAT = "padax.tree"
FORMAT_VERSION = 1


class LoadError(ValueError):
    """A file that is not a readable padax archive (missing, truncated, foreign or damaged)."""


# -- arrays as raw bytes ------------------------------------------------------------------------

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


# -- trees ------------------------------------------------------------------------------------

def _is_array(obj: Any) -> bool:
    from padax.core.abstract import ShapedArray
    return isinstance(obj, np.ndarray) or isinstance(getattr(obj, "aval", None), ShapedArray)


def encode_tree(obj: Any, arrays: list, op: str = "padax.save", values: bool = True, where: str = "") -> Any:
    """The JSON description of `obj`; its arrays (Tensors, tracers, numpy) are appended to `arrays`.

    With `values=False` only arrays, None and containers are allowed (what a traced function returns).
    """
    if _is_array(obj):
        arrays.append(obj)
        return {"array": len(arrays) - 1, "tensor": not isinstance(obj, np.ndarray)}
    if obj is None:
        return {"value": None}
    if values and isinstance(obj, np.generic):
        arrays.append(np.asarray(obj))
        return {"array": len(arrays) - 1, "scalar": True}
    if values and isinstance(obj, (bool, int, float, str)):
        return {"value": obj}
    if values and isinstance(obj, complex):
        return {"complex": [obj.real, obj.imag]}
    if type(obj) in (list, tuple):
        kind = "list" if type(obj) is list else "tuple"
        return {kind: [encode_tree(o, arrays, op, values, f"{where}[{i}]") for i, o in enumerate(obj)]}
    if type(obj) is dict or (values and type(obj) is collections.OrderedDict):  # (a Layer's state_dict)
        keys = list(obj)
        if not all(isinstance(k, (str, int)) and not isinstance(k, bool) for k in keys):
            raise TypeError(f"{op}: dict keys must be str or int (at {where or 'the top'})")
        return {"dict": [[k, encode_tree(obj[k], arrays, op, values, f"{where}[{k!r}]")] for k in keys]}
    if not values:
        raise TypeError(f"{op}: outputs must be arrays, or tuples/lists/dicts of them (and None); got "
                        f"{type(obj).__name__} (at {where or 'the top'})")
    raise TypeError(f"{op}: cannot save {type(obj).__name__} (at {where or 'the top'}). padax saves "
                    "Tensors, numpy arrays, numbers, strings and dicts/lists/tuples of them; it never pickles.")


def decode_tree(node: Any, arrays: Sequence, return_numpy: bool = False) -> Any:
    """The object `encode_tree` described, with `arrays` in place (host arrays become Tensors where they were)."""
    if "array" in node:
        a = arrays[node["array"]]
        if node.get("scalar"):
            return a[()]
        if node.get("tensor") and not return_numpy and isinstance(a, np.ndarray):
            from padax.devices.put import device_put
            return device_put(a)
        return a
    if "value" in node:
        return node["value"]
    if "complex" in node:
        return complex(*node["complex"])
    if "list" in node:
        return [decode_tree(n, arrays, return_numpy) for n in node["list"]]
    if "tuple" in node:
        return tuple(decode_tree(n, arrays, return_numpy) for n in node["tuple"])
    return {k: decode_tree(n, arrays, return_numpy) for k, n in node["dict"]}


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
        from padax import paddle_format
        return paddle_format.save(obj, path, protocol)
    if format == "safetensors":
        from padax import safetensors_format
        return safetensors_format.save(obj, path)
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
    from padax import paddle_format, safetensors_format
    if head.startswith(paddle_format.PICKLE_MAGIC):
        obj = _load_foreign(path, "a Paddle pickle", paddle_format.loads, (paddle_format.UnsafePickleError,))
    elif safetensors_format.looks_like_safetensors(head):
        obj = _load_foreign(path, "a safetensors file", safetensors_format.loads, ())
    else:
        kind = "empty" if not head else "not a padax, Paddle or safetensors file"
        raise LoadError(f"padax.load: {path!r} is {kind}")
    return obj if return_numpy else _arrays_to_tensors(obj)


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
    with open(path, "rb") as f:
        data = f.read()
    try:
        return loads(data)
    except refusals as e:
        raise LoadError(f"padax.load: {path!r} was refused: {e}") from None
    except ImportError:
        raise
    except Exception as e:  # noqa: BLE001 (a truncated or damaged file fails in many ways)
        raise LoadError(f"padax.load: {path!r} is {kind} that cannot be read ({type(e).__name__}: {e})") from None


def _arrays_to_tensors(obj: Any) -> Any:
    if isinstance(obj, np.ndarray):
        from padax.devices.put import device_put
        return device_put(obj)
    if isinstance(obj, dict):
        return {k: _arrays_to_tensors(v) for k, v in obj.items()}
    if type(obj) in (list, tuple):
        return type(obj)(_arrays_to_tensors(v) for v in obj)
    return obj


def _load_padax(path: str, return_numpy: bool) -> Any:
    with open_archive(path, "padax.load") as z:
        head = read_json(z, "tree", path, "padax.load")
        if not isinstance(head, dict) or head.get("format") != FORMAT:
            raise LoadError(f"padax.load: {path!r} was not written by padax.save")
        if head.get("format_version", 0) > FORMAT_VERSION:
            raise LoadError(f"padax.load: {path!r} was written by a newer padax; upgrade padax to read it")
        try:
            arrays = read_arrays(z, head["arrays"], "a", path)
            return decode_tree(head["tree"], arrays, return_numpy)
        except LoadError:
            raise
        except Exception as e:  # noqa: BLE001 (a damaged or hand-edited file fails in many ways)
            raise LoadError(f"padax.load: {path!r} is damaged ({type(e).__name__}: {e})") from None
