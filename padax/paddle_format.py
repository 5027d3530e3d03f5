"""Paddle's `.pdparams` / `.pdopt` files (Python pickles of dicts of numpy arrays), read without running code.

Reading uses a restricted unpickler: it rebuilds only dicts, lists, tuples, sets, strings, bytes, numbers and
numpy arrays/scalars/dtypes (non-object), and refuses every other global the pickle names (os.system,
builtins.exec, any class...) before anything is called, naming it. Paddle's own layouts are undone as
`paddle.load` does: the `StructuredToParameterName@@` name table is dropped, arrays split by
`UnpackBigParamInfor@@` are joined, and tensors pickled as `(name, ndarray)` tuples become arrays.
Writing produces the pickle `paddle.save` writes (protocol 4, numpy arrays), so `paddle.load` reads it.
"""
from __future__ import annotations

from padax.serialization._paddle_format import PICKLE_MAGIC, loads, save
from padax.serialization._pickle_reader import UnsafePickleError, restricted_loads

__all__ = ["PICKLE_MAGIC", "UnsafePickleError", "loads", "restricted_loads", "save"]
