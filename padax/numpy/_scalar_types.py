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

from padax.functional._docs import example_doc
from padax.numpy import _dtypes as D
from padax.numpy._creation import asarray


class _ScalarType(type):
    """The metaclass of the scalar types: a class that stands for one dtype."""

    dtype: np.dtype

    def __call__(cls, x: Any = 0) -> Any:
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


def _scalar_type(dtype: np.dtype, name: str, example: tuple[str, str]) -> type:
    """The scalar type of `dtype`; `example` is (argument, expected `.tolist()`) of its doctest."""
    doc = example_doc(f"The {dtype.name} dtype; calling it converts a value to a {dtype.name} array (0-d for a "
                      f"scalar).", [(f"pnp.{name}({example[0]}).tolist()", example[1])],
                      imports=("import padax.numpy as pnp",),
                      args="x: a Python scalar, nested sequence, numpy array or padax array (default 0).",
                      returns=f"A padax array of dtype {dtype.name} with x's shape (0-d for a scalar).")
    return _ScalarType(name, (), {"dtype": dtype, "__module__": "padax.numpy", "__doc__": doc})


# each type with a doctest: (argument, the value it holds in that dtype, as NumPy stores it)
bool_ = _scalar_type(D.bool_, "bool_", ("[0, 2]", "[False, True]"))
int8 = _scalar_type(D.int8, "int8", ("[-3, 100]", "[-3, 100]"))
int16 = _scalar_type(D.int16, "int16", ("[-3, 300]", "[-3, 300]"))
int32 = _scalar_type(D.int32, "int32", ("7", "7"))
int64 = _scalar_type(D.int64, "int64", ("2 ** 40", "1099511627776"))
uint8 = _scalar_type(D.uint8, "uint8", ("[255, 1]", "[255, 1]"))
uint16 = _scalar_type(D.uint16, "uint16", ("65535", "65535"))
uint32 = _scalar_type(D.uint32, "uint32", ("2 ** 31", "2147483648"))
uint64 = _scalar_type(D.uint64, "uint64", ("2 ** 63", "9223372036854775808"))
float16 = _scalar_type(D.float16, "float16", ("0.1", "0.0999755859375"))
float32 = _scalar_type(D.float32, "float32", ("0.1", "0.10000000149011612"))
float64 = _scalar_type(D.float64, "float64", ("0.1", "0.1"))
bfloat16 = _scalar_type(D.bfloat16, "bfloat16", ("0.1", "0.10009765625"))
float8_e4m3fn = _scalar_type(D.float8_e4m3fn, "float8_e4m3fn", ("0.1", "0.1015625"))
float8_e5m2 = _scalar_type(D.float8_e5m2, "float8_e5m2", ("0.1", "0.09375"))
complex64 = _scalar_type(D.complex64, "complex64", ("1 + 2j", "(1+2j)"))
complex128 = _scalar_type(D.complex128, "complex128", ("0.1j", "0.1j"))

# NumPy's abstract scalar classes (issubdtype's second argument)
generic, number, integer, signedinteger = np.generic, np.number, np.integer, np.signedinteger
unsignedinteger, inexact, floating, complexfloating = np.unsignedinteger, np.inexact, np.floating, np.complexfloating
character, flexible, object_ = np.character, np.flexible, np.object_

__all__ = ["bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
           "float64", "bfloat16", "float8_e4m3fn", "float8_e5m2", "complex64", "complex128", "generic", "number",
           "integer", "signedinteger", "unsignedinteger", "inexact", "floating", "complexfloating", "character",
           "flexible", "object_"]
