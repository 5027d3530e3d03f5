"""numpy's buffer and file readers and writers: frombuffer, fromstring, fromiter, and save/savez/load in
numpy's .npy/.npz formats (never pickles)."""
from __future__ import annotations

import builtins
import io
import os
from typing import Any

import numpy as np

from padax.core.atomic_file import atomic_write
from padax.core.errors import op_value_error
from padax.numpy import _dtypes as D
from padax.numpy._util import static_value, to_array


def frombuffer(buffer: Any, dtype: Any = float, count: builtins.int = -1, offset: builtins.int = 0) -> Any:
    """An array read from the raw bytes of `buffer` (numpy.frombuffer; float means 8-byte float64 items).

    Args:
        buffer: an object exposing the buffer interface (bytes, bytearray, memoryview).
        dtype: the item dtype (float means float64 items, as numpy).
        count: the number of items (-1: all).
        offset: bytes to skip first.

    Returns:
        A 1-D array of `dtype` (kept as numpy data keeps its dtype).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.frombuffer(b"\\x01\\x02\\x03", dtype=pnp.uint8).tolist()
        [1, 2, 3]
    """
    return to_array(np.frombuffer(buffer, dtype=dtype, count=count, offset=offset).copy())


def fromstring(string: str, dtype: Any = float, count: builtins.int = -1, *, sep: str) -> Any:
    """An array parsed from text numbers separated by `sep` (numpy.fromstring).

    Args:
        string: the text.
        dtype: the result dtype (float: float64).
        count: the number of items (-1: all).
        sep: the separator between numbers (whitespace matches any whitespace).

    Returns:
        A 1-D array of `dtype` (float: float64, as numpy data).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.fromstring("1 2 3", dtype=pnp.int32, sep=" ").tolist()
        [1, 2, 3]
    """
    if not sep:
        raise op_value_error("fromstring", "sep must be a non-empty separator (binary mode is frombuffer's)")
    return to_array(np.fromstring(string, dtype=dtype, count=count, sep=sep))


def fromiter(iterable: Any, dtype: Any, count: builtins.int = -1) -> Any:
    """A 1-D array of the values of a Python iterable (numpy.fromiter, read eagerly on the host).

    Args:
        iterable: the values.
        dtype: the result dtype.
        count: the number of items to read (-1: all).

    Returns:
        A 1-D array of `dtype`.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.fromiter((i * i for i in range(4)), dtype=pnp.int64).tolist()
        [0, 1, 4, 9]
    """
    return to_array(np.fromiter(iterable, dtype=dtype, count=count))


def _no_pickle(op: str, allow_pickle: builtins.bool) -> None:
    if allow_pickle:
        raise op_value_error(op, "allow_pickle must be False: padax never reads or writes pickled objects")


def _with_suffix(file: Any, suffix: str) -> Any:
    if isinstance(file, (str, os.PathLike)):
        file = os.fspath(file)
        return file if file.endswith(suffix) else file + suffix
    return file


def _write(file: Any, data: bytes) -> None:
    if isinstance(file, str):
        atomic_write(file, data)
    else:
        file.write(data)


def save(file: Any, arr: Any, allow_pickle: builtins.bool = False) -> None:
    """Write one array to a `.npy` file (numpy's format, written atomically; '.npy' is appended if missing).

    Args:
        file: a path or a binary file object.
        arr: an array or array-like.
        allow_pickle: must be False.

    Returns:
        None.

    Examples:
        >>> import os, tempfile, padax.numpy as pnp
        >>> with tempfile.TemporaryDirectory() as d:
        ...     pnp.save(os.path.join(d, "x"), pnp.array([1.5, 2.0]))
        ...     pnp.load(os.path.join(d, "x.npy")).tolist()
        [1.5, 2.0]
    """
    _no_pickle("save", allow_pickle)
    buf = io.BytesIO()
    np.save(buf, np.asarray(static_value("save", to_array(arr), "arr")), allow_pickle=False)
    _write(_with_suffix(file, ".npy"), buf.getvalue())


def savez(file: Any, *args: Any, allow_pickle: builtins.bool = False, **kwds: Any) -> None:
    """Write several arrays to one uncompressed `.npz` archive (positional ones as arr_0, arr_1, ...), atomically.

    Args:
        file: a path ('.npz' is appended if missing) or a binary file object.
        *args, **kwds: the arrays, unnamed and named.
        allow_pickle: must be False.

    Returns:
        None.

    Examples:
        >>> import os, tempfile, padax.numpy as pnp
        >>> with tempfile.TemporaryDirectory() as d:
        ...     pnp.savez(os.path.join(d, "a"), pnp.array([1, 2]), w=pnp.ones(2))
        ...     data = pnp.load(os.path.join(d, "a.npz"))
        ...     sorted(data), data["w"].tolist()
        (['arr_0', 'w'], [1.0, 1.0])
    """
    _no_pickle("savez", allow_pickle)
    arrays = {f"arr_{i}": a for i, a in enumerate(args)}
    for k, v in kwds.items():
        if k in arrays:
            raise op_value_error("savez", f"cannot use {k!r} both as a keyword and a positional name")
        arrays[k] = v
    host = {k: np.asarray(static_value("savez", to_array(v), k)) for k, v in arrays.items()}
    buf = io.BytesIO()
    np.savez(buf, allow_pickle=False, **host)
    _write(_with_suffix(file, ".npz"), buf.getvalue())


def _from_host(a: np.ndarray) -> Any:
    if a.dtype == np.dtype("V2"):  # bfloat16 is written as 2-byte void by numpy
        a = a.view(D.bfloat16)
    return to_array(a)


def load(file: Any, mmap_mode: Any = None, allow_pickle: builtins.bool = False, **kwargs: Any) -> Any:
    """Read a `.npy` file as an array, or a `.npz` archive as a dict of arrays (never unpickles).

    Args:
        file: a path or a binary file object.
        mmap_mode: numpy's memory-map mode (the data are copied to the device anyway).
        allow_pickle: must be False.
        **kwargs: passed to numpy.load.

    Returns:
        An array (.npy) or a dict name -> array (.npz; jax returns numpy's NpzFile).

    Examples:
        >>> import io, padax.numpy as pnp
        >>> buf = io.BytesIO(); pnp.save(buf, pnp.arange(3)); _ = buf.seek(0)
        >>> pnp.load(buf).tolist()
        [0, 1, 2]
    """
    _no_pickle("load", allow_pickle)
    out = np.load(file, mmap_mode=mmap_mode, allow_pickle=False, **kwargs)
    if isinstance(out, np.lib.npyio.NpzFile):
        with out:
            return {k: _from_host(np.asarray(out[k])) for k in out.files}
    return _from_host(np.asarray(out))


__all__ = ["frombuffer", "fromstring", "fromiter", "save", "savez", "load"]
