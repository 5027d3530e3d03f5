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


class DamagedPickleError(pickle.UnpicklingError):
    """A pickle that is truncated or whose opcodes do not build dicts, lists and numpy arrays; the
    message says what is wrong in words."""


def _no_objects(dt: Any) -> None:
    if np.dtype(dt).hasobject:
        raise UnsafePickleError("the file holds a numpy array of Python objects; padax reads only "
                                "numeric/bool/string arrays")


def _dtype(obj: Any, align: bool = False, copy: bool = False) -> np.dtype:
    dt = np.dtype(obj, align=align, copy=copy)
    _no_objects(dt)
    return dt


def _reconstruct(cls: Any, shape: Any, dtype: Any, limit: int | None = None) -> np.ndarray:
    if cls is not np.ndarray:
        raise UnsafePickleError(f"numpy array reconstruction of {cls!r} refused (only numpy.ndarray)")
    dt = _dtype(dtype)
    if limit is not None:  # numpy pickles start from shape (0,); the real data comes with the array's state
        n = int(np.prod(shape, dtype=np.int64)) * dt.itemsize if isinstance(shape, tuple) else -1
        if not 0 <= n <= limit:
            raise DamagedPickleError(f"a numpy array is reconstructed with shape {shape!r}, larger than the file")
    return np.ndarray.__new__(np.ndarray, shape, dt)


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


# numpy's dtype state: (version, byte order, subarray, names, fields, itemsize, alignment, flags[, metadata]);
# for a plain dtype it is the one numpy itself pickles for that dtype, with any byte order
_BYTE_ORDERS = ("<", ">", "|", "=")


def _check_dtype_state(dt: np.dtype, state: Any) -> None:
    own = dt.__reduce__()[2]
    if not (isinstance(state, tuple) and len(state) == len(own) and state[0] == own[0]
            and state[1] in _BYTE_ORDERS and state[2:] == own[2:]):
        raise UnsafePickleError(f"a numpy dtype with a custom state ({str(state)[:60]}) refused: padax reads "
                                "plain numeric, bool and string dtypes only")


def _check_array_state(state: Any) -> None:
    """ndarray.__setstate__'s (version, shape, dtype, is_fortran, raw bytes), checked before numpy sees it."""
    if not (isinstance(state, tuple) and len(state) == 5 and isinstance(state[1], tuple)
            and all(isinstance(d, int) and d >= 0 for d in state[1]) and isinstance(state[2], np.dtype)
            and isinstance(state[4], (bytes, bytearray, str))):
        if isinstance(state, tuple) and len(state) == 5 and isinstance(state[4], list):
            raise UnsafePickleError("a numpy array of Python objects refused; padax reads only numeric/bool/string "
                                    "arrays")
        raise DamagedPickleError(f"a numpy array's state is malformed ({type(state).__name__})")
    _no_objects(state[2])
    need = int(np.prod(state[1], dtype=np.int64)) * state[2].itemsize
    if len(state[4]) != need:
        raise DamagedPickleError(f"a numpy array of shape {list(state[1])} and dtype {state[2]} needs {need} bytes, "
                                 f"the file holds {len(state[4])} for it")


class _RestrictedUnpickler(pickle._Unpickler):
    """The pure-Python unpickler, whose BUILD (the one opcode that calls a method of an object it built)
    is checked: only numpy dtypes and arrays are built, from validated states."""

    dispatch = dict(pickle._Unpickler.dispatch)

    def load_build(self) -> None:
        state, inst = self.stack[-1], self.stack[-2]
        if isinstance(inst, np.dtype):
            _check_dtype_state(inst, state)
        elif type(inst) is np.ndarray:
            _check_array_state(state)
        else:
            raise UnsafePickleError(f"setting the state of a {type(inst).__name__} refused (only numpy dtypes and "
                                    "arrays are rebuilt)")
        pickle._Unpickler.load_build(self)

    dispatch[pickle.BUILD[0]] = load_build

    def __init__(self, file: Any, size: int, **kwargs: Any) -> None:
        super().__init__(file, **kwargs)
        self._size = size

    def find_class(self, module: str, name: str) -> Any:
        found = _ALLOWED.get((module, name))
        if found is _reconstruct:
            return lambda cls, shape, dtype: _reconstruct(cls, shape, dtype, self._size)
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
    stream = io.BytesIO(data)
    try:
        return _RestrictedUnpickler(stream, len(data), encoding=encoding).load()
    except UnsafePickleError as e:
        if what is None:
            raise
        raise UnsafePickleError(f"{what}: {e}") from None
    except DamagedPickleError as e:
        raise DamagedPickleError(f"{what}: {e}" if what else str(e)) from None
    except Exception as e:  # noqa: BLE001 (a damaged pickle fails in many ways; none of their texts helps the user)
        if isinstance(e, EOFError) or stream.tell() >= len(data) or "truncated" in str(e) or "exhausted" in str(e):
            msg = f"it is truncated ({len(data)} bytes end before the pickle does)"
        elif isinstance(e, pickle.UnpicklingError):
            msg = "its pickle opcodes are invalid (the file is overwritten)"
        else:
            msg = f"its {len(data)} bytes do not decode to dicts, lists and numpy arrays"
        raise DamagedPickleError(f"{what}: {msg}" if what else msg) from None
