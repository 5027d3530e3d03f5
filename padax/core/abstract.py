"""Abstract values: what a traced value is known to be (shape, dtype, weak type).

`ShapedArray` is also the aval object handed to jaxlib (it reads `shape`,
`dtype` and `weak_type`). It is immutable and hashes fast, because eager
dispatch and jit both key their executable caches on tuples of avals.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from padax.core import dtypes
from padax.core.errors import input_error, op_value_error


class ShapedArray:
    __slots__ = ("shape", "dtype", "weak_type", "_hash", "_size")

    def __init__(self, shape: tuple[int, ...], dtype: np.dtype, weak_type: bool = False):
        self.shape = shape
        self.dtype = dtype
        self.weak_type = weak_type
        self._hash = hash((shape, dtype, weak_type))
        self._size = None  # the list-like Size that Tensor.shape returns, built on first use

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: Any) -> bool:
        return (type(other) is ShapedArray and self.shape == other.shape
                and self.dtype == other.dtype and self.weak_type == other.weak_type)

    def update(self, shape=None, dtype=None, weak_type=None) -> "ShapedArray":
        return ShapedArray(self.shape if shape is None else tuple(shape),
                           self.dtype if dtype is None else dtype,
                           self.weak_type if weak_type is None else weak_type)

    def strip_weak_type(self) -> "ShapedArray":
        return self if not self.weak_type else ShapedArray(self.shape, self.dtype, False)

    def str_short(self) -> str:
        return f"{short_dtype_name(self.dtype)}[{','.join(map(str, self.shape))}]"

    def __repr__(self) -> str:
        return f"ShapedArray({self.str_short()}{', weak_type=True' if self.weak_type else ''})"


_MAX_BYTES = 2 ** 63  # XLA counts elements and bytes in int64


def check_aval_size(op: str, aval: ShapedArray) -> None:
    """A ValueError naming `op` when an array of this aval could not exist (negative or overflowing sizes)."""
    n = aval.dtype.itemsize
    for d in aval.shape:
        if d < 0:
            raise op_value_error(op, f"the result would have a negative dimension: {list(aval.shape)}")
        n *= d or 1  # zero-size arrays too: XLA multiplies the extents before it meets the 0
    if n >= _MAX_BYTES:
        count = math.prod(d or 1 for d in aval.shape)
        raise op_value_error(op, f"the result {aval.str_short()} would have {count:.3g} elements "
                                 f"({n:.3g} bytes) counting its nonzero dimensions: more than any device can hold "
                                 f"(sizes must stay below 2**63 bytes)")


class Size(tuple):
    """A Tensor's shape: a tuple of ints that also equals, and concatenates with, a list of the same ints, as
    Paddle's list-like shapes do (`x.shape == [2, 3]`, `x.shape[:-1] + [4]`); it pickles as a plain tuple."""

    __slots__ = ()

    def __eq__(self, other: Any) -> Any:
        return tuple.__eq__(self, tuple(other) if isinstance(other, list) else other)

    def __ne__(self, other: Any) -> Any:
        return tuple.__ne__(self, tuple(other) if isinstance(other, list) else other)

    __hash__ = tuple.__hash__

    def __add__(self, other: Any) -> Any:
        if not isinstance(other, (list, tuple)):
            return NotImplemented
        return Size(tuple(self) + tuple(other))

    def __radd__(self, other: Any) -> Any:
        if not isinstance(other, (list, tuple)):
            return NotImplemented
        return Size(tuple(other) + tuple(self))

    def __getitem__(self, i: Any) -> Any:
        item = tuple.__getitem__(self, i)
        return Size(item) if isinstance(i, slice) else item

    def __reduce__(self) -> tuple:
        return tuple, (tuple(self),)


class AvalProperties:
    """shape/dtype/ndim/size/len read off `self.aval`: shared by Tensor and every Tracer."""

    __slots__ = ()

    @property
    def shape(self) -> Size:
        aval = self.aval
        size = getattr(aval, "_size", None)
        if size is None:
            size = Size(aval.shape)
            if type(aval) is ShapedArray:
                aval._size = size
        return size

    @property
    def dtype(self) -> np.dtype:
        return self.aval.dtype

    @property
    def ndim(self) -> int:
        return len(self.aval.shape)

    @property
    def size(self) -> int:
        return self.aval.size

    @property
    def weak_type(self) -> bool:
        return self.aval.weak_type

    def __len__(self) -> int:
        if not self.aval.shape:
            raise TypeError("len() of a 0-d array")
        return self.aval.shape[0]


_SHORT = {"float32": "f32", "float64": "f64", "float16": "f16", "bfloat16": "bf16",
          "float8_e4m3fn": "f8_e4m3fn", "float8_e5m2": "f8_e5m2",
          "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
          "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64",
          "bool": "bool", "complex64": "c64", "complex128": "c128"}


def short_dtype_name(dtype: np.dtype) -> str:
    return _SHORT.get(dtype.name, dtype.name)


def aval_of_host_value(x: Any) -> ShapedArray:
    """Aval of a numpy array or Python scalar (scalars are weakly typed)."""
    if isinstance(x, (bool, int, float, complex)) and not isinstance(x, np.generic):  # np.float64: strong
        return ShapedArray((), dtypes.python_scalar_dtype(x), True)
    x = np.asarray(x)
    return ShapedArray(x.shape, dtypes.canonicalize(x.dtype), False)


_PY_SCALARS = (bool, int, float, complex)


def get_aval(x: Any) -> ShapedArray:
    """The abstract value of anything padax takes as an array: a Tensor or tracer (its `aval`), a
    Python scalar (weakly typed), a numpy array or scalar, a nested list, or an object that describes
    itself with an `aval` (a ShapeDtypeStruct). The one place every floor reads avals from values."""
    if isinstance(x, AvalProperties):
        return x.aval
    if isinstance(x, _PY_SCALARS) and not isinstance(x, np.generic):  # np.float64 subclasses float: strong
        return ShapedArray((), dtypes.python_scalar_dtype(x), True)
    aval = getattr(x, "aval", None)
    if isinstance(aval, ShapedArray):
        return aval
    if isinstance(x, (str, bytes)) or x is None:
        raise input_error(TypeError, f"expected an array, Python scalar or numpy value, got {type(x).__name__}: {x!r}")
    arr = np.asarray(x)
    if arr.dtype.kind in "OUS":
        raise input_error(TypeError, f"cannot convert {type(x).__name__} {x!r} to an array")
    return ShapedArray(arr.shape, dtypes.canonicalize(arr.dtype), False)
