"""NumPy-style scalar types of `padax.numpy`: dtypes that also construct arrays.

`padax.numpy.float32` is accepted wherever a dtype is (`zeros(3, float32)`,
`x.astype(float32)`, `x.dtype == float32`, `np.dtype(float32)`), and calling
it, `float32(1)`, gives a 0-d float32 array (padax has no scalar objects).
The abstract classes (`floating`, `integer`, `inexact`, ...) are NumPy's,
for `issubdtype`.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from padax.numpy import _dtypes as D


class _ScalarType(type):
    """The metaclass of the scalar types: a class that stands for one dtype."""

    dtype: np.dtype

    def __call__(cls, x: Any = 0) -> Any:
        from padax.numpy._creation import asarray
        return asarray(x, dtype=cls.dtype)

    def __eq__(cls, other: Any) -> bool:
        return cls is other or cls.dtype.type == other or cls.dtype == other

    def __ne__(cls, other: Any) -> bool:
        return not cls == other

    def __hash__(cls) -> int:
        return hash(cls.dtype.type)

    def __instancecheck__(cls, instance: Any) -> bool:
        return isinstance(instance, cls.dtype.type)

    def __repr__(cls) -> str:
        return f"<class 'padax.numpy.{cls.__name__}'>"

    def __getattr__(cls, name: str) -> Any:
        """The dtype's attributes (`float32.itemsize`, `.kind`, `.name`), as a dtype object has them."""
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(cls.dtype, name)


def _scalar_type(dtype: np.dtype, name: str) -> type:
    return _ScalarType(name, (), {"dtype": dtype, "__module__": "padax.numpy",
                                  "__doc__": f"The {dtype.name} dtype; calling it gives a 0-d {dtype.name} array."})


bool_ = _scalar_type(D.bool_, "bool_")
int8, int16, int32, int64 = (_scalar_type(d, d.name) for d in (D.int8, D.int16, D.int32, D.int64))
uint8, uint16, uint32, uint64 = (_scalar_type(d, d.name) for d in (D.uint8, D.uint16, D.uint32, D.uint64))
float16, float32, float64 = (_scalar_type(d, d.name) for d in (D.float16, D.float32, D.float64))
bfloat16, float8_e4m3fn, float8_e5m2 = (_scalar_type(d, d.name) for d in (D.bfloat16, D.float8_e4m3fn,
                                                                         D.float8_e5m2))
complex64, complex128 = _scalar_type(D.complex64, "complex64"), _scalar_type(D.complex128, "complex128")

# NumPy's abstract scalar classes (issubdtype's second argument)
generic, number, integer, signedinteger = np.generic, np.number, np.integer, np.signedinteger
unsignedinteger, inexact, floating, complexfloating = np.unsignedinteger, np.inexact, np.floating, np.complexfloating
character, flexible, object_ = np.character, np.flexible, np.object_

__all__ = ["bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
           "float64", "bfloat16", "float8_e4m3fn", "float8_e5m2", "complex64", "complex128", "generic", "number",
           "integer", "signedinteger", "unsignedinteger", "inexact", "floating", "complexfloating", "character",
           "flexible", "object_"]
