"""A restricted unpickler for Paddle's pickles: it rebuilds only dicts, lists, tuples, sets, strings,
bytes, numbers and numpy arrays/scalars/dtypes (non-object), and refuses every other global the pickle
names (os.system, builtins.exec, any class...) before anything is called, naming it."""
from __future__ import annotations

import collections
import io
import pickle
from typing import Any

import numpy as np

try:  # numpy >= 2 keeps the pickle helpers in numpy._core
    from numpy._core import multiarray as _multiarray
except ImportError:  # numpy 1.x
    from numpy.core import multiarray as _multiarray


class UnsafePickleError(pickle.UnpicklingError):
    """A pickle naming a global outside the numpy/containers allow-list (it could run code when loaded).

    Args:
        *args: the message, as for any pickle.UnpicklingError.

    Returns:
        The exception (raise it).

    Examples:
        >>> import os, pickle
        >>> from padax import paddle_format
        >>> class Evil:
        ...     def __reduce__(self):
        ...         return (os.system, ("echo pwned",))
        ...
        >>> try:
        ...     paddle_format.restricted_loads(pickle.dumps(Evil()))
        ... except paddle_format.UnsafePickleError as e:
        ...     print(str(e)[:40])  # refused before anything runs
        refused to load global 'posix.system': p
    """


def _no_objects(dt: Any) -> None:
    if np.dtype(dt).hasobject:
        raise UnsafePickleError("the file holds a numpy array of Python objects; padax reads only "
                                "numeric/bool/string arrays")


def _dtype(obj: Any, align: bool = False, copy: bool = False) -> np.dtype:
    dt = np.dtype(obj, align=align, copy=copy)
    _no_objects(dt)
    return dt


def _reconstruct(cls: Any, shape: Any, dtype: Any) -> np.ndarray:
    if cls is not np.ndarray:
        raise UnsafePickleError(f"numpy array reconstruction of {cls!r} refused (only numpy.ndarray)")
    return np.ndarray.__new__(np.ndarray, shape, _dtype(dtype))


def _scalar(dtype: Any, data: Any = None) -> Any:
    _no_objects(dtype)
    return _multiarray.scalar(dtype, data) if data is not None else _multiarray.scalar(dtype)


def _latin1_encode(text: str, encoding: str = "latin1") -> bytes:
    """`_codecs.encode` as protocol-2 pickles use it for bytes (latin-1 only)."""
    if encoding not in ("latin1", "latin-1") or not isinstance(text, str):
        raise UnsafePickleError(f"_codecs.encode with encoding {encoding!r} refused")
    return text.encode("latin1")


def _dense_tensor(*args: Any) -> np.ndarray:
    """Paddle pickles a DenseTensor as `eval('data', {'data': array})`: return the array, evaluate nothing."""
    expr, scope = (args + (None, None))[:2]
    if len(args) != 2 or expr != "data" or type(scope) is not dict or set(scope) != {"data"} \
            or not isinstance(scope["data"], np.ndarray):
        raise UnsafePickleError("builtins.eval refused (only Paddle's DenseTensor form eval('data', {'data': "
                                "array}) is accepted, and it is not evaluated)")
    return scope["data"]


_ALLOWED = {
    ("builtins", "dict"): dict, ("builtins", "list"): list, ("builtins", "tuple"): tuple,
    ("builtins", "set"): set, ("builtins", "frozenset"): frozenset, ("builtins", "complex"): complex,
    ("builtins", "bytearray"): bytearray, ("builtins", "eval"): _dense_tensor,
    ("__builtin__", "eval"): _dense_tensor, ("collections", "OrderedDict"): collections.OrderedDict,
    ("_codecs", "encode"): _latin1_encode,
    ("numpy", "ndarray"): np.ndarray, ("numpy", "dtype"): _dtype,
}
for _mod in ("numpy.core.multiarray", "numpy._core.multiarray"):
    _ALLOWED[(_mod, "_reconstruct")] = _reconstruct
    _ALLOWED[(_mod, "scalar")] = _scalar


class _RestrictedUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        found = _ALLOWED.get((module, name))
        if found is None:
            raise UnsafePickleError(
                f"refused to load global '{module}.{name}': padax reads only dicts, lists, tuples, strings, "
                "numbers and numpy arrays from a pickle, so a file that names other code is not loaded")
        return found

    def persistent_load(self, pid: Any) -> Any:
        raise UnsafePickleError("persistent ids (torch-style zip pickles) are not supported")


def restricted_loads(data: bytes, *, encoding: str = "latin1", what: str | None = None) -> Any:
    """Unpickle `data` rebuilding only the allowed containers and arrays (see the module docstring);
    any other global is refused, naming it (prefixed by `what`, the file being read, if given).
    `encoding` decodes Python 2 strings ('bytes' keeps them as bytes, as the CIFAR batches need).

    Args:
        data: pickle bytes.
        encoding: how Python 2 strings are decoded ('bytes' keeps them as bytes).
        what: the file being read, prefixed to the error message.

    Returns:
        The unpickled object; refuses any global outside the allow-list.

    Examples:
        >>> import pickle
        >>> import numpy as np
        >>> from padax import paddle_format
        >>> paddle_format.restricted_loads(pickle.dumps({"w": np.arange(3.0), "meta": [1, "a"]}))
        {'w': array([0., 1., 2.]), 'meta': [1, 'a']}
    """
    try:
        return _RestrictedUnpickler(io.BytesIO(data), encoding=encoding).load()
    except UnsafePickleError as e:
        if what is None:
            raise
        raise UnsafePickleError(f"{what}: {e}") from None
