"""Reading the python CIFAR batches (pickles) without running any code from the file.

A pickle can name any callable and have it run while loading. This unpickler rebuilds only
dicts, lists, tuples, strings, bytes, numbers and numpy arrays: the only globals it resolves are
numpy's array and scalar reconstruction, numpy.dtype and the codec Python 2 pickles use for bytes.
Any other global is refused with an error naming it, before anything is called.
"""
from __future__ import annotations

import codecs
import io
import pickle
from typing import Any, BinaryIO

import numpy as np


class UnsafePickleError(pickle.UnpicklingError):
    """A pickle that names a global outside the allowed array-rebuilding ones."""


def _allowed() -> dict[tuple[str, str], Any]:
    try:
        from numpy._core import multiarray  # numpy >= 2
    except ImportError:  # pragma: no cover - numpy 1.x
        from numpy.core import multiarray
    found = {("numpy", "ndarray"): np.ndarray, ("numpy", "dtype"): np.dtype,
             ("_codecs", "encode"): codecs.encode}
    for mod in ("numpy.core.multiarray", "numpy._core.multiarray"):
        found[(mod, "_reconstruct")] = multiarray._reconstruct
        found[(mod, "scalar")] = multiarray.scalar
    return found


class RestrictedUnpickler(pickle.Unpickler):
    """`pickle.Unpickler` whose find_class resolves only the allowed globals (see the module doc)."""

    def __init__(self, file: BinaryIO, *, what: str = "pickle", **kwargs: Any):
        super().__init__(file, **kwargs)
        self.what = what
        self.allowed = _allowed()

    def find_class(self, module: str, name: str) -> Any:
        try:
            return self.allowed[(module, name)]
        except KeyError:
            raise UnsafePickleError(
                f"{self.what}: refusing to load the global {module}.{name}; only dicts, lists, strings, "
                "numbers and numpy arrays are rebuilt, and no code from the file is run") from None


def safe_load(data: bytes | BinaryIO, what: str = "pickle", encoding: str = "bytes") -> Any:
    """Unpickle `data` (bytes or a binary file) with RestrictedUnpickler."""
    f = io.BytesIO(data) if isinstance(data, (bytes, bytearray)) else data
    return RestrictedUnpickler(f, what=what, encoding=encoding).load()
