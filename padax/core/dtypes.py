"""Dtypes, 64-bit canonicalisation, weak types and Paddle's type promotion.

Dtypes are plain `numpy.dtype` objects (ml_dtypes supplies bfloat16 and the
float8 types). The 64-bit types are always available, as in Paddle: an
explicit float64/int64/complex128 is never narrowed. Defaults follow Paddle:
Python floats (and float data from Python lists) take the default dtype
(`set_default_dtype`, float32 unless changed), Python ints int64, Python
complex numbers the complex type of the default float. The setting
`enable_x64=False` (`PADAX_ENABLE_X64=0`) is JAX's 32-bit-only mode for
accelerators: every 64-bit request then becomes its 32-bit sibling.

Promotion follows Paddle 3 (the same lattice as PyTorch): bool < integers <
floats < complex; within a kind the wider type wins; uint8 with a signed
int goes to the next signed width; float16 with bfloat16 gives float32;
complex64 with float64 gives complex128. Paddle itself only promotes
Tensor pairs among floats and between complex and real types (other mixed
pairs raise there); padax answers every pair with the same lattice.
Python scalars are *weak*: they take the array's dtype when the array is of
the same or a higher kind, and the default dtype of their kind otherwise
(int64, the default float, its complex type). At the Paddle level numpy
scalars count as the Python scalar of their kind (padax.numpy keeps jax's
rule: numpy scalars are strong), and a 0-d array beside a higher-rank array
of its kind takes that array's dtype, as Paddle's 0-d tensors do.
"""
from __future__ import annotations

import builtins
from typing import Any

import ml_dtypes
import numpy as np

from padax.config import config
from padax.core.errors import input_error

bool_ = np.dtype(np.bool_)
int8, int16, int32, int64 = (np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64))
uint8, uint16, uint32, uint64 = (np.dtype(t) for t in (np.uint8, np.uint16, np.uint32, np.uint64))
float16, float32, float64 = (np.dtype(t) for t in (np.float16, np.float32, np.float64))
bfloat16 = np.dtype(ml_dtypes.bfloat16)
float8_e4m3fn = np.dtype(ml_dtypes.float8_e4m3fn)
float8_e5m2 = np.dtype(ml_dtypes.float8_e5m2)
complex64, complex128 = np.dtype(np.complex64), np.dtype(np.complex128)

ALL_DTYPES = (bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
              float8_e4m3fn, float8_e5m2, bfloat16, float16, float32, float64,
              complex64, complex128)
_SUPPORTED = frozenset(ALL_DTYPES)

_FLOATS = (float8_e4m3fn, float8_e5m2, bfloat16, float16, float32, float64)
_SIGNED = (int8, int16, int32, int64)
_UNSIGNED = (uint8, uint16, uint32, uint64)
_COMPLEX = (complex64, complex128)

_X64_TO_X32 = {int64: int32, uint64: uint32, float64: float32, complex128: complex64}

_NAMES = {d.name: d for d in ALL_DTYPES}
_NAMES.update({"bool": bool_, "float": float32, "int": int64, "complex": complex64,
               "half": float16, "double": float64, "long": int64})


def is_floating(dtype: Any) -> bool:
    return np.dtype(dtype) in _FLOATS


def is_integer(dtype: Any) -> bool:
    d = np.dtype(dtype)
    return d in _SIGNED or d in _UNSIGNED


def is_unsigned(dtype: Any) -> bool:
    return np.dtype(dtype) in _UNSIGNED


def is_complex(dtype: Any) -> bool:
    return np.dtype(dtype) in _COMPLEX


def is_inexact(dtype: Any) -> bool:
    return is_floating(dtype) or is_complex(dtype)


def kind_rank(dtype: np.dtype) -> int:
    """0 bool, 1 integer, 2 floating, 3 complex."""
    if dtype == bool_:
        return 0
    if dtype in _SIGNED or dtype in _UNSIGNED:
        return 1
    if dtype in _FLOATS:
        return 2
    return 3


def x64_enabled() -> bool:
    return config.enable_x64


def canonicalize(dtype: Any) -> np.dtype:
    """The dtype padax really uses for a request: 64-bit types shrink only in 32-bit-only mode (enable_x64=False)."""
    d = dtype if type(dtype) is np.dtype else to_dtype(dtype)
    if not config.enable_x64:
        return _X64_TO_X32.get(d, d)
    return d


def to_dtype(dtype: Any) -> np.dtype:
    """Accept np dtypes, scalar types, names ('float32', 'bfloat16'), Paddle-style names."""
    if isinstance(dtype, np.dtype):
        d = dtype
    elif isinstance(dtype, str):
        name = dtype.lower()
        if name.startswith("paddle."):
            name = name[len("paddle."):]
        if name not in _NAMES:
            raise input_error(TypeError, f"unknown dtype name {dtype!r}")
        d = _NAMES[name]
    elif dtype is builtins.bool:
        d = bool_
    elif dtype is builtins.int:
        d = default_int_dtype()
    elif dtype is builtins.float:
        d = default_float_dtype()
    elif dtype is builtins.complex:
        d = default_complex_dtype()
    else:
        try:
            d = np.dtype(dtype)
        except TypeError:
            raise input_error(TypeError, f"cannot interpret {dtype!r} as a dtype") from None
    if d not in _SUPPORTED:
        raise input_error(TypeError, f"dtype {d} is not supported by padax; supported: "
                                     f"{', '.join(x.name for x in ALL_DTYPES)}")
    return d


def default_int_dtype() -> np.dtype:
    """Paddle's default integer is int64; in 32-bit-only mode it is int32."""
    return int64 if config.enable_x64 else int32


_default_float = [float32]  # config.default_dtype as a dtype (before 32-bit canonicalisation)


def _on_config_change(name: str, value: Any) -> None:
    if name == "default_dtype":
        _default_float[0] = _NAMES[value]


def default_float_dtype() -> np.dtype:
    """The dtype of Python floats and float data given without a dtype (Paddle's default dtype)."""
    d = _default_float[0]
    return float32 if (d is float64 and not config.enable_x64) else d


def default_complex_dtype() -> np.dtype:
    """The dtype of Python complex numbers: complex128 when the default float is float64."""
    return complex128 if default_float_dtype() == float64 else complex64


def set_default_dtype(d: Any) -> None:
    """Paddle's `set_default_dtype`: the dtype Python floats become (float16, bfloat16, float32, float64).

    It is the setting `config.default_dtype`, so jitted functions retrace after a change.

    Args:
        d: float16, bfloat16, float32 or float64 (a name, numpy dtype or padax dtype).

    Returns:
        None.

    Examples:
        >>> import padax
        >>> padax.set_default_dtype('float64')
        >>> padax.to_tensor(1.5).dtype
        dtype('float64')
        >>> padax.set_default_dtype('float32')  # back to the default
    """
    config.update("default_dtype", d)


def get_default_dtype() -> str:
    """Paddle's `get_default_dtype`: the default float dtype's name, e.g. 'float32'.

    Examples:
        >>> import padax
        >>> padax.get_default_dtype()
        'float32'
    """
    return default_float_dtype().name


def finfo(dtype: Any):
    return ml_dtypes.finfo(to_dtype(dtype))


def iinfo(dtype: Any):
    return ml_dtypes.iinfo(to_dtype(dtype))


_on_config_change("default_dtype", config.default_dtype)
config.on_change(_on_config_change)


# ---- promotion -------------------------------------------------------------

def _promote_strong(a: np.dtype, b: np.dtype) -> np.dtype:
    if a == b:
        return a
    ka, kb = kind_rank(a), kind_rank(b)
    if ka != kb:
        hi, lo = (a, b) if ka > kb else (b, a)
        if kind_rank(hi) == 3 and kind_rank(lo) == 2:
            # complex with a wider float widens the complex: complex64 + float64 -> complex128
            return complex128 if lo == float64 else hi
        return hi
    if ka == 1:
        sa, sb = a in _SIGNED, b in _SIGNED
        if sa == sb:
            return a if a.itemsize >= b.itemsize else b
        s, u = (a, b) if sa else (b, a)
        if s.itemsize > u.itemsize:
            return s
        # unsigned at least as wide as the signed one: next signed width (uint64 -> int64, as torch)
        return {1: int16, 2: int32, 4: int64, 8: int64}[u.itemsize]
    if ka == 2:
        order = {float8_e4m3fn: 0, float8_e5m2: 0, bfloat16: 1, float16: 1, float32: 2, float64: 3}
        if order[a] == order[b]:
            # float16 vs bfloat16 -> float32; the two float8 formats -> float16
            return float32 if order[a] == 1 else float16
        return a if order[a] > order[b] else b
    return a if a.itemsize >= b.itemsize else b


def _weak_default(kind: int) -> np.dtype:
    # Paddle's Python-scalar defaults: bool, int64 (int32 in 32-bit mode), the default float and its complex
    return (bool_, default_int_dtype(), default_float_dtype(), default_complex_dtype())[kind]


def weak_dtype_of_kind(kind: int) -> np.dtype:
    """The dtype a weak scalar of `kind` (0 bool, 1 int, 2 float, 3 complex) takes on its own."""
    return canonicalize(_weak_default(kind))


def promote_types(*dtypes: Any) -> np.dtype:
    """Promotion of strong (array) dtypes, canonicalised for the x64 setting."""
    it = iter(dtypes)
    out = to_dtype(next(it))
    for d in it:
        out = _promote_strong(out, to_dtype(d))
    return canonicalize(out)


def result_type(*args: tuple[np.dtype, bool]) -> tuple[np.dtype, bool]:
    """Promote (dtype, weak) pairs; returns the result dtype and whether it is weak."""
    strong = [d for d, w in args if not w]
    weak = [d for d, w in args if w]
    if not strong:
        out = weak[0]
        for d in weak[1:]:
            out = _promote_strong(out, d)
        return canonicalize(out), True
    out = strong[0]
    for d in strong[1:]:
        out = _promote_strong(out, d)
    wk = max((kind_rank(d) for d in weak), default=-1)
    if wk > kind_rank(out):
        if wk == 3 and kind_rank(out) == 2:
            out = complex128 if out == float64 else complex64
        else:
            out = _weak_default(wk)
    return canonicalize(out), False


def python_scalar_dtype(x: Any) -> np.dtype:
    """The (weak) dtype a Python scalar becomes."""
    t = type(x)
    if t is builtins.bool:
        return bool_
    if t is builtins.int:
        return default_int_dtype()
    if t is builtins.float:
        return default_float_dtype()
    if t is builtins.complex:
        return default_complex_dtype()
    raise TypeError(f"{x!r} of type {t.__name__} is not a Python scalar")


def dtype_of_value(x: Any) -> np.dtype:
    """The canonical dtype of a host value (numpy array, scalar or nested list).

    Nested Python lists of floats take the default float dtype (float32), as
    in Paddle's `to_tensor`; numpy arrays keep their own dtype.
    """
    if hasattr(x, "dtype"):  # first: numpy scalars such as np.float64 subclass Python's float
        return canonicalize(np.dtype(x.dtype))
    if isinstance(x, (bool, int, float, complex)):
        return python_scalar_dtype(x)
    arr = np.asarray(x)
    if arr.dtype == np.float64:
        return default_float_dtype()
    if arr.dtype == np.complex128:
        return default_complex_dtype()
    return canonicalize(arr.dtype)
