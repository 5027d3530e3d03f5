"""Paddle's `.pdparams` / `.pdopt` files (Python pickles of dicts of numpy arrays), read without running code.

Reading uses a restricted unpickler: it rebuilds only dicts, lists, tuples, sets, strings, bytes, numbers and
numpy arrays/scalars/dtypes (non-object), and refuses every other global the pickle names (os.system,
builtins.exec, any class...) before anything is called, naming it. Paddle's own layouts are undone as
`paddle.load` does: the `StructuredToParameterName@@` name table is dropped, arrays split by
`UnpackBigParamInfor@@` are joined, and tensors pickled as `(name, ndarray)` tuples become arrays.
Writing produces the pickle `paddle.save` writes (protocol 4, numpy arrays), so `paddle.load` reads it.
"""
from __future__ import annotations

import collections
import pickle
from typing import Any

import numpy as np

from padax.core.atomic_file import atomic_write
from padax.serialization._pickle_reader import restricted_loads
from padax.serialization._tree import _is_array

_NAME_TABLE = "StructuredToParameterName@@"


_SPLIT_TABLE = "UnpackBigParamInfor@@"


PICKLE_MAGIC = b"\x80"  # a protocol 2+ pickle starts with PROTO


def loads(data: bytes) -> Any:
    """The object in Paddle pickle bytes, with Paddle's layouts undone (see the module docstring).

    Args:
        data: the bytes of a file `paddle.save` wrote.

    Returns:
        The object, with numpy arrays for the tensors and Paddle's layouts undone.

    Examples:
        >>> import pickle
        >>> import numpy as np
        >>> from padax import paddle_format
        >>> data = pickle.dumps({"StructuredToParameterName@@": {"w": "linear_0.w_0"},  # as paddle.save writes it
        ...                      "w": ("linear_0.w_0", np.ones(2, np.float32))})
        >>> paddle_format.loads(data)  # the name table dropped, the (name, array) tensor unwrapped
        {'w': array([1., 1.], dtype=float32)}
    """
    return _unpack(restricted_loads(data), top=True)


def _unpack(obj: Any, top: bool = False) -> Any:
    if isinstance(obj, dict):
        obj = dict(obj)
        if top:
            obj.pop(_NAME_TABLE, None)
            split = obj.pop(_SPLIT_TABLE, None)
            for key, info in (split or {}).items():
                parts = [obj.pop(part) for part in info["slices"]]
                obj[key] = np.concatenate(parts).reshape(info["OriginShape"])
        return {k: _unpack(v) for k, v in obj.items()}
    if isinstance(obj, tuple) and len(obj) == 2 and isinstance(obj[0], str) and isinstance(obj[1], np.ndarray):
        return obj[1]  # a Tensor as Paddle 2.1 pickled it: (name, array)
    if isinstance(obj, (list, tuple)):
        return type(obj)(_unpack(v) for v in obj)
    return obj


def _to_host(obj: Any, where: str = "") -> Any:
    if _is_array(obj):
        return np.asarray(obj)
    if obj is None or isinstance(obj, (bool, int, float, complex, str, bytes, np.generic)):
        return obj
    if type(obj) in (list, tuple):
        return type(obj)(_to_host(v, f"{where}[{i}]") for i, v in enumerate(obj))
    if type(obj) in (dict, collections.OrderedDict):
        return {k: _to_host(v, f"{where}[{k!r}]") for k, v in obj.items()}
    raise TypeError(f"padax.save(format='paddle'): cannot save {type(obj).__name__} (at {where or 'the top'}); "
                    "Tensors, numpy arrays, numbers, strings and dicts/lists/tuples of them can be saved")


def save(obj: Any, path: str, protocol: int = 4) -> None:
    """Write `obj` (Tensors become numpy arrays) as the pickle `paddle.save` writes, atomically.

    Args:
        obj: the object (Tensors become numpy arrays).
        path: the file to write (atomically).
        protocol: pickle protocol 2, 3 or 4.

    Returns:
        None.

    Examples:
        >>> import os, tempfile
        >>> import padax
        >>> from padax import paddle_format
        >>> with tempfile.TemporaryDirectory() as d:
        ...     path = os.path.join(d, "model.pdparams")
        ...     paddle_format.save({"w": padax.to_tensor([1.0, 2.0]), "step": 3}, path)
        ...     with open(path, "rb") as f:
        ...         back = paddle_format.loads(f.read())
        ...
        >>> back["w"], back["step"]  # a pickle of numpy arrays, as paddle.save writes (paddle.load reads it)
        (array([1., 2.], dtype=float32), 3)
    """
    if protocol not in (2, 3, 4):
        raise ValueError(f"padax.save(format='paddle'): protocol must be 2, 3 or 4 (as Paddle), got {protocol}")
    atomic_write(path, pickle.dumps(_to_host(obj), protocol=protocol))
