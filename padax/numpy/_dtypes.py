"""Dtypes, default dtypes and type promotion of `padax.numpy` (Array API standard 2023.12).

Dtype objects are plain `numpy.dtype`s, shared with the rest of padax, and
the defaults are padax's (Paddle's): int64 for integers, the default float
(`padax.set_default_dtype`, float32 unless changed) for floats and its
complex type for complex numbers. 64-bit types are always available; only
the 32-bit-only mode (`enable_x64=False`) turns 64-bit requests into their
32-bit siblings.

Promotion of two arrays follows the standard's table: within a kind the
wider type wins; uint8..uint32 with a signed integer go to the smallest
signed type holding both; a real float with a complex gives the complex
type of the wider precision. Pairs the standard leaves open follow JAX:

- bool with anything gives the other dtype;
- an integer with a floating (or complex) dtype gives that floating (or
  complex) dtype -- NumPy would widen int32 + float32 to float64;
- uint64 with a signed integer gives float64, as in NumPy and JAX;
- float16 with bfloat16 gives float32.

Python scalars are *weak*: they take the dtype of the array they meet when
the array's kind can hold them (bool < int < float < complex), and the
default dtype of their own kind otherwise (a float scalar with an int
array gives the default float). numpy scalars and arrays are strong.
"""
from __future__ import annotations

import builtins
from typing import Any

import ml_dtypes
import numpy as np

from padax.config import config
from padax.core import dtypes as _core
from padax.core.errors import input_error

bool_ = _core.bool_
int8, int16, int32, int64 = _core.int8, _core.int16, _core.int32, _core.int64
uint8, uint16, uint32, uint64 = _core.uint8, _core.uint16, _core.uint32, _core.uint64
float16, float32, float64 = _core.float16, _core.float32, _core.float64
bfloat16, float8_e4m3fn, float8_e5m2 = _core.bfloat16, _core.float8_e4m3fn, _core.float8_e5m2
complex64, complex128 = _core.complex64, _core.complex128

_SIGNED = (int8, int16, int32, int64)
_UNSIGNED = (uint8, uint16, uint32, uint64)
_REAL_FLOATS = (float8_e4m3fn, float8_e5m2, bfloat16, float16, float32, float64)
_COMPLEX = (complex64, complex128)
_SCALAR_KIND = {builtins.bool: 0, builtins.int: 1, builtins.float: 2, builtins.complex: 3}


def x64() -> bool:
    return config.enable_x64


def default_int() -> np.dtype:
    return int64 if config.enable_x64 else int32


def default_uint() -> np.dtype:
    return uint64 if config.enable_x64 else uint32


def default_float() -> np.dtype:
    return _core.default_float_dtype()


def default_complex() -> np.dtype:
    return _core.default_complex_dtype()


def canonicalize(dtype: Any) -> np.dtype:
    """The dtype padax really uses for a request (64-bit types shrink in 32-bit-only mode)."""
    return _core.canonicalize(to_dtype(dtype))


def to_dtype(dtype: Any) -> np.dtype:
    """A dtype request (dtype, scalar type, name, or an array's dtype) as a numpy dtype.

    Python's `int`, `float` and `complex` mean the default dtypes of their kind.
    """
    if dtype is builtins.float:
        return default_float()
    if dtype is builtins.int:
        return default_int()
    if dtype is builtins.complex:
        return default_complex()
    if hasattr(dtype, "dtype") and not isinstance(dtype, (np.dtype, type)):
        dtype = dtype.dtype
    return _core.to_dtype(dtype)


def kind(dt: np.dtype) -> int:
    """0 bool, 1 integer, 2 real floating, 3 complex floating."""
    return _core.kind_rank(dt)


def _default_of_kind(k: int) -> np.dtype:
    return (bool_, default_int(), default_float(), default_complex())[k]


def _complex_of(dt: np.dtype) -> np.dtype:
    return complex128 if dt == float64 else complex64


def _promote2(a: np.dtype, b: np.dtype) -> np.dtype:
    """Promote two strong dtypes (before x64 canonicalisation)."""
    if a == b:
        return a
    ka, kb = kind(a), kind(b)
    if ka != kb:
        (hi, khi), (lo, klo) = ((a, ka), (b, kb)) if ka > kb else ((b, kb), (a, ka))
        if khi == 3 and klo == 2:
            return complex128 if (hi == complex128 or lo == float64) else complex64
        return hi
    if ka == 1:
        sa, sb = a in _SIGNED, b in _SIGNED
        if sa == sb:
            return a if a.itemsize >= b.itemsize else b
        s, u = (a, b) if sa else (b, a)
        if s.itemsize > u.itemsize:
            return s
        if u.itemsize < 8:
            return {1: int16, 2: int32, 4: int64}[u.itemsize]
        return float64
    if ka == 2:
        order = {float8_e4m3fn: 0, float8_e5m2: 0, bfloat16: 1, float16: 1, float32: 2, float64: 3}
        if order[a] == order[b]:
            return float32 if order[a] == 1 else float16
        return a if order[a] > order[b] else b
    return a if a.itemsize >= b.itemsize else b


def promote_types(a: Any, b: Any) -> np.dtype:
    """The dtype two arrays of dtypes `a` and `b` promote to."""
    return _core.canonicalize(_promote2(to_dtype(a), to_dtype(b)))


def result_type_of(pairs: list[tuple[np.dtype, bool]]) -> np.dtype:
    """Promote (dtype, weak) pairs: strong dtypes by the table, weak ones by kind only."""
    strong = [d for d, w in pairs if not w]
    weak_kind = builtins.max((kind(d) for d, w in pairs if w), default=-1)
    if not strong:
        if weak_kind < 0:
            raise ValueError("result_type needs at least one array or dtype")
        return _core.canonicalize(_default_of_kind(weak_kind))
    out = strong[0]
    for d in strong[1:]:
        out = _promote2(out, d)
    k = kind(out)
    if weak_kind > k:
        out = _complex_of(out) if (weak_kind == 3 and k == 2) else _default_of_kind(weak_kind)
    return _core.canonicalize(out)


def dtype_weak(x: Any) -> tuple[np.dtype, bool]:
    """(dtype, weak) of an operand: arrays by their aval, Python scalars weak, numpy values strong."""
    aval = getattr(x, "aval", None)
    if aval is not None:
        return aval.dtype, aval.weak_type
    t = type(x)
    if t in _SCALAR_KIND:
        return _default_of_kind(_SCALAR_KIND[t]), True
    if isinstance(x, (np.ndarray, np.generic)):
        return _core.canonicalize(x.dtype), False
    if isinstance(x, (np.dtype, type, str)):
        return to_dtype(x), False
    if hasattr(x, "dtype"):
        return to_dtype(x.dtype), False
    raise input_error(TypeError, f"expected an array, a dtype or a Python scalar, got {type(x).__name__}: {x!r}")


def result_type(*arrays_and_dtypes: Any) -> np.dtype:
    """The dtype that promoting the given arrays, dtypes and Python scalars gives.

    Args:
        arrays_and_dtypes: arrays, dtypes and Python scalars (scalars are weak: they take the others' dtype).

    Returns:
        A numpy dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.result_type(pnp.array([1], dtype=pnp.int32), pnp.float16)  # NumPy: float64
        dtype('float16')
        >>> pnp.result_type(pnp.int8, 1.0)  # a Python float is weak: the default float (NumPy: float64)
        dtype('float32')
    """
    if not arrays_and_dtypes:
        raise ValueError("result_type needs at least one array or dtype")
    return result_type_of([dtype_weak(a) for a in arrays_and_dtypes])


def can_cast(from_: Any, to: Any, /) -> bool:
    """Whether promoting `from_` with `to` gives `to` under the standard's table.

    Casts across kinds are refused (bool to int, int to float, ...), except real
    floating to complex, which the standard's table covers.

    Args:
        from_: a dtype or an array (its dtype).
        to: a dtype.

    Returns:
        A Python bool.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.can_cast(pnp.int8, pnp.int32), pnp.can_cast(pnp.float64, pnp.float32)
        (True, False)
    """
    f = to_dtype(from_.dtype if hasattr(from_, "aval") else from_)
    t = to_dtype(to)
    if f == t:
        return True
    kf, kt = kind(f), kind(t)
    if kf != kt and not (kf == 2 and kt == 3):
        return False
    return _promote2(f, t) == t


_KINDS = {
    "bool": lambda d: d == bool_,
    "signed integer": lambda d: d in _SIGNED,
    "unsigned integer": lambda d: d in _UNSIGNED,
    "integral": lambda d: d in _SIGNED or d in _UNSIGNED,
    "real floating": lambda d: d in _REAL_FLOATS,
    "complex floating": lambda d: d in _COMPLEX,
    "numeric": lambda d: d != bool_,
}


def isdtype(dtype: Any, kind: Any) -> bool:
    """Whether `dtype` is of `kind`: a dtype, a kind name ('bool', 'signed integer',
    'unsigned integer', 'integral', 'real floating', 'complex floating', 'numeric'),
    or a tuple of those.

    Args:
        dtype: the dtype to test.
        kind: a dtype, a kind name, or a tuple of those (True if any matches).

    Returns:
        A Python bool.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.isdtype(pnp.float32, "real floating"), pnp.isdtype(pnp.int8, ("integral", "bool"))
        (True, True)
    """
    d = to_dtype(dtype)
    if isinstance(kind, tuple):
        return builtins.any(isdtype(d, k) for k in kind)
    if isinstance(kind, str):
        if kind not in _KINDS:
            raise ValueError(f"isdtype: unknown kind {kind!r}; expected one of {', '.join(_KINDS)}")
        return _KINDS[kind](d)
    return d == to_dtype(kind)


class finfo_object:
    """Machine limits of a floating dtype: bits, eps, max, min, smallest_normal, dtype."""

    def __init__(self, dtype: np.dtype):
        real = {complex64: float32, complex128: float64}.get(dtype, dtype)
        f = ml_dtypes.finfo(real)
        self.dtype = real
        self.bits = int(f.bits)
        self.eps = float(f.eps)
        self.max = float(f.max)
        self.min = float(f.min)
        self.smallest_normal = float(f.smallest_normal)
        self.tiny = self.smallest_normal
        self.resolution = float(f.resolution)

    def __repr__(self) -> str:
        return (f"finfo(bits={self.bits}, eps={self.eps}, max={self.max}, min={self.min}, "
                f"smallest_normal={self.smallest_normal}, dtype={self.dtype.name})")


class iinfo_object:
    """Machine limits of an integer dtype: bits, max, min, dtype."""

    def __init__(self, dtype: np.dtype):
        i = np.iinfo(dtype)
        self.dtype = dtype
        self.bits = int(i.bits)
        self.max = int(i.max)
        self.min = int(i.min)

    def __repr__(self) -> str:
        return f"iinfo(bits={self.bits}, max={self.max}, min={self.min}, dtype={self.dtype.name})"


def finfo(type: Any, /) -> finfo_object:
    """Limits of a real or complex floating dtype (or of an array's dtype).

    Args:
        type: a floating or complex dtype, or an array of one (complex gives its real part's limits).

    Returns:
        An object with bits, eps, max, min, smallest_normal, tiny, resolution and dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> f = pnp.finfo(pnp.float32)
        >>> f.bits, f.eps, f.max
        (32, 1.1920928955078125e-07, 3.4028234663852886e+38)
    """
    d = to_dtype(type)
    if kind(d) < 2:
        raise ValueError(f"finfo: {d.name} is not a floating-point dtype")
    return finfo_object(d)


def iinfo(type: Any, /) -> iinfo_object:
    """Limits of an integer dtype (or of an array's dtype).

    Args:
        type: an integer dtype, or an array of one.

    Returns:
        An object with bits, max, min and dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> i = pnp.iinfo(pnp.int8)
        >>> i.bits, i.min, i.max
        (8, -128, 127)
    """
    d = to_dtype(type)
    if kind(d) != 1:
        raise ValueError(f"iinfo: {d.name} is not an integer dtype")
    return iinfo_object(d)


def standard_dtypes() -> dict[str, np.dtype]:
    """The standard's dtypes padax supports now (64-bit ones unless in 32-bit-only mode)."""
    names = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
             "float32", "float64", "complex64", "complex128"]
    all_ = {"bool": bool_, "int8": int8, "int16": int16, "int32": int32, "int64": int64,
            "uint8": uint8, "uint16": uint16, "uint32": uint32, "uint64": uint64,
            "float32": float32, "float64": float64, "complex64": complex64, "complex128": complex128}
    if not config.enable_x64:
        names = [n for n in names if n not in ("int64", "uint64", "float64", "complex128")]
    return {n: all_[n] for n in names}
