"""padax's dtypes as a public module (jax's `jax.dtypes` names, and padax's predicates and defaults).

Dtypes are plain `numpy.dtype` objects; bfloat16 and the float8 types come from ml_dtypes. Promotion
follows Paddle's lattice (see `padax.core.dtypes`): `result_type` and `promote_types` answer with it,
and Python scalars are weak. Batteries and users read dtypes from here, not from padax's core.

    >>> import padax
    >>> from padax import dtypes
    >>> dtypes.canonicalize_dtype("bfloat16"), dtypes.is_inexact(dtypes.bfloat16)
    (dtype(bfloat16), True)
    >>> dtypes.result_type(1.0, padax.to_tensor([1, 2], dtype="int32"))
    dtype('float32')
    >>> dtypes.issubdtype(dtypes.bfloat16, "floating"), dtypes.scalar_type_of(padax.ones([2]))
    (True, <class 'float'>)
"""
from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from padax.core import dtypes as _core
from padax.core.ad_util import float0
from padax.core.dtypes import (
    ALL_DTYPES,
    bfloat16,
    bool_,
    complex64,
    complex128,
    default_complex_dtype,
    default_float_dtype,
    default_int_dtype,
    finfo,
    float8_e4m3fn,
    float8_e5m2,
    float16,
    float32,
    float64,
    get_default_dtype,
    iinfo,
    int8,
    int16,
    int32,
    int64,
    is_complex,
    is_floating,
    is_inexact,
    is_integer,
    is_unsigned,
    promote_types,
    set_default_dtype,
    to_dtype,
    uint8,
    uint16,
    uint32,
    uint64,
)

__all__ = ["ALL_DTYPES", "bfloat16", "bool_", "canonicalize_dtype", "complex64", "complex128",
           "default_complex_dtype", "default_float_dtype", "default_int_dtype", "finfo", "float0",
           "float8_e4m3fn", "float8_e5m2", "float16", "float32", "float64", "get_default_dtype", "iinfo",
           "int8", "int16", "int32", "int64", "is_complex", "is_floating", "is_inexact", "is_integer",
           "is_unsigned", "issubdtype", "itemsize_bits", "promote_types", "result_type", "scalar_type_of",
           "set_default_dtype", "to_dtype", "uint8", "uint16", "uint32", "uint64"]


def canonicalize_dtype(dtype: Any) -> np.dtype:
    """The dtype padax really uses for `dtype` (a dtype, scalar type or name): 64-bit types shrink to 32 bits
    only with `enable_x64=False`."""
    return _core.canonicalize(dtype)


def _dtype_and_weak(x: Any) -> tuple[np.dtype, bool]:
    if type(x) in (builtins.bool, builtins.int, builtins.float, builtins.complex):
        return _core.python_scalar_dtype(x), True
    dtype = getattr(x, "dtype", None)
    if dtype is not None and not isinstance(x, type):
        weak = getattr(x, "weak_type", None)
        if weak is None:
            weak = getattr(getattr(x, "aval", None), "weak_type", False)
        return _core.canonicalize(np.dtype(dtype)), builtins.bool(weak)
    return _core.canonicalize(x), False


def result_type(*args: Any, return_weak_type_flag: bool = False):
    """The dtype an op on `args` (arrays, dtypes, Python scalars) computes in, by padax's promotion.

    Python scalars are weak: they do not widen an array of their kind. With `return_weak_type_flag=True`
    the answer is `(dtype, weak)`, `weak` being True when every argument was a weak scalar.
    """
    if not args:
        raise TypeError("result_type: at least one argument is needed")
    dtype, weak = _core.result_type(*(_dtype_and_weak(a) for a in args))
    return (dtype, weak) if return_weak_type_flag else dtype


_ABSTRACT = {"generic": np.generic, "number": np.number, "inexact": np.inexact, "floating": np.floating,
             "complexfloating": np.complexfloating, "integer": np.integer, "signedinteger": np.signedinteger,
             "unsignedinteger": np.unsignedinteger, "bool": np.bool_}


def issubdtype(a: Any, b: Any) -> bool:
    """numpy's `issubdtype`, with bfloat16 and the float8 types counted as floating (numpy does not).

    `b` may be a dtype or one of numpy's abstract classes (`np.floating`, ...) or their names."""
    kind = _ABSTRACT.get(b, b) if isinstance(b, str) else b
    if isinstance(kind, type) and issubclass(kind, np.generic) and kind in _ABSTRACT.values():
        d = to_dtype(a)
        if is_floating(d):
            return issubclass(np.floating, kind)
        return builtins.bool(np.issubdtype(d, kind))
    return to_dtype(a) == to_dtype(kind)


def scalar_type_of(x: Any) -> type:
    """The Python scalar type (bool, int, float or complex) of an array's or a value's dtype."""
    d = _dtype_and_weak(x)[0]
    if d == bool_:
        return builtins.bool
    if is_integer(d):
        return builtins.int
    if is_floating(d):
        return builtins.float
    if is_complex(d):
        return builtins.complex
    raise TypeError(f"scalar_type_of: no Python scalar type for dtype {d}")


def itemsize_bits(dtype: Any) -> int:
    """The width of one element of `dtype`, in bits."""
    return to_dtype(dtype).itemsize * 8
