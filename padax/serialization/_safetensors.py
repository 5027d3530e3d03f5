"""`.safetensors` files (flat dicts of named arrays) through the maintained `safetensors` library.

Every dtype safetensors knows round-trips, bfloat16 and float8 included (`pip install padax[safetensors]`).
"""
from __future__ import annotations

import json
import struct
from typing import Any

import numpy as np

from padax import dtypes
from padax.core.atomic_file import atomic_write
from padax.serialization._tree import _is_array

# safetensors' dtype codes -> dtype names padax knows
_CODES = {"F64": "float64", "F32": "float32", "F16": "float16", "BF16": "bfloat16", "F8_E4M3": "float8_e4m3fn",
          "F8_E5M2": "float8_e5m2", "I64": "int64", "I32": "int32", "I16": "int16", "I8": "int8",
          "U64": "uint64", "U32": "uint32", "U16": "uint16", "U8": "uint8", "BOOL": "bool", "C64": "complex64"}


class DamagedSafetensorsError(ValueError):
    """A .safetensors file whose header or data is truncated or malformed (the message says which)."""


def _check_layout(data: bytes) -> None:
    """The header (8-byte length, JSON) and every tensor's byte range, checked before the library reads them."""
    if len(data) < 8:
        raise DamagedSafetensorsError(f"it is truncated ({len(data)} bytes, not even the 8-byte header length)")
    (n,) = struct.unpack("<Q", data[:8])
    if 8 + n > len(data):
        raise DamagedSafetensorsError(f"it is truncated: its header says {n} bytes of JSON, the file holds "
                                      f"{len(data) - 8} after the length")
    try:
        header = json.loads(data[8:8 + n])
    except (ValueError, UnicodeDecodeError):
        raise DamagedSafetensorsError("its header is not valid JSON (the file is overwritten)") from None
    if not isinstance(header, dict):
        raise DamagedSafetensorsError("its header is not a JSON object")
    body = len(data) - 8 - n
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        try:
            lo, hi = (int(o) for o in entry["data_offsets"])
            count = int(np.prod([int(d) for d in entry["shape"]], dtype=np.int64))
        except Exception:  # noqa: BLE001 (a malformed entry fails in many ways)
            raise DamagedSafetensorsError(f"the header entry of {name!r} has no valid shape and data_offsets") from None
        if not 0 <= lo <= hi:
            raise DamagedSafetensorsError(f"the header entry of {name!r} has data_offsets [{lo}, {hi}]")
        if hi > body:
            raise DamagedSafetensorsError(f"it is truncated: {name!r} needs bytes up to {hi} of the data, the file "
                                          f"holds {body}")
        code = entry.get("dtype")
        if code in _CODES and count * dtypes.to_dtype(_CODES[code]).itemsize != hi - lo:
            raise DamagedSafetensorsError(f"{name!r} of dtype {code} and shape {entry['shape']} needs "
                                          f"{count * dtypes.to_dtype(_CODES[code]).itemsize} bytes, its data_offsets "
                                          f"give {hi - lo}")


def _library(op: str) -> Any:
    try:
        import safetensors  # optional (padax[safetensors]): imported only where the format is used
    except ImportError:
        raise ImportError(f"{op}: the .safetensors format needs the `safetensors` package "
                          "(pip install safetensors, or padax[safetensors])") from None
    return safetensors


def looks_like_safetensors(head: bytes) -> bool:
    """Whether a file's first bytes are a safetensors header (8-byte little-endian length, then '{').

    Args:
        head: the file's first bytes (at least 9).

    Returns:
        True if they look like a safetensors header.

    Examples:
        >>> import struct
        >>> from padax import safetensors_format
        >>> safetensors_format.looks_like_safetensors(struct.pack("<Q", 2) + b"{}")
        True
        >>> import pickle
        >>> safetensors_format.looks_like_safetensors(pickle.dumps({"w": [1.0, 2.0]}))
        False
    """
    return len(head) >= 9 and head[8:9] == b"{" and struct.unpack("<Q", head[:8])[0] > 1


def save(obj: Any, path: str) -> None:
    """Write a flat dict {name: Tensor or numpy array} as a .safetensors file, atomically.

    Args:
        obj: a flat dict {str: Tensor or numpy array} (complex128 is not storable).
        path: the file to write (atomically).

    Returns:
        None.

    Examples:
        >>> import os, tempfile
        >>> import padax
        >>> from padax import safetensors_format
        >>> with tempfile.TemporaryDirectory() as d:
        ...     path = os.path.join(d, "model.safetensors")
        ...     safetensors_format.save({"w": padax.to_tensor([1.0, 2.0]), "b": padax.zeros([1], "bfloat16")}, path)
        ...     with open(path, "rb") as f:
        ...         back = safetensors_format.loads(f.read())
        ...
        >>> back["w"].tolist(), str(back["b"].dtype)  # bfloat16 round-trips
        ([1.0, 2.0], 'bfloat16')
    """
    safetensors = _library("padax.save(format='safetensors')")
    if not isinstance(obj, dict) or not all(isinstance(k, str) and _is_array(v) for k, v in obj.items()):
        raise TypeError("padax.save(format='safetensors'): safetensors holds a flat dict {str: Tensor/array} "
                        f"(a state_dict); got {type(obj).__name__}" +
                        ("" if not isinstance(obj, dict) else " with other keys or values"))
    arrays = {k: np.ascontiguousarray(np.asarray(v)) for k, v in obj.items()}
    specs = {}
    for k, a in arrays.items():
        if a.dtype.name == "complex128":
            raise TypeError(f"padax.save(format='safetensors'): {k!r} is complex128, which safetensors cannot store")
        specs[k] = safetensors.TensorSpec(dtype=a.dtype.name, shape=list(a.shape), data_ptr=a.ctypes.data,
                                          data_len=a.nbytes)
    atomic_write(path, bytes(safetensors.serialize(specs, metadata=None)))


def loads(data: bytes) -> dict:
    """{name: numpy array} from the bytes of a .safetensors file.

    Args:
        data: the bytes of a .safetensors file.

    Returns:
        A dict {name: numpy array}.

    Examples:
        >>> import numpy as np
        >>> import safetensors.numpy
        >>> from padax import safetensors_format
        >>> data = safetensors.numpy.save({"x": np.arange(4, dtype=np.int32).reshape(2, 2)})  # bytes of a .safetensors file
        >>> safetensors_format.loads(data)["x"].tolist()
        [[0, 1], [2, 3]]
    """
    safetensors = _library("padax.load")
    _check_layout(data)
    try:
        entries = safetensors.deserialize(data)
    except Exception:  # noqa: BLE001 (the library's SafetensorError; its text names its own internals)
        raise DamagedSafetensorsError("the safetensors library refused its layout (overlapping or misplaced "
                                      "tensor data)") from None
    out = {}
    for name, entry in entries:
        if entry["dtype"] not in _CODES:
            raise DamagedSafetensorsError(f"{name!r} has safetensors dtype {entry['dtype']}, which padax does not "
                                          "support")
        dt = dtypes.to_dtype(_CODES[entry["dtype"]])
        out[name] = np.frombuffer(bytes(entry["data"]), dtype=dt).reshape(entry["shape"])
    return out
