"""Paddle's `finfo`/`iinfo`: a dtype's numeric limits as plain Python numbers, with `dtype` as its
name and Paddle's printed form (`padax.finfo(min=-3.40282e+38, ..., bits=32, dtype=float32)`)."""
from __future__ import annotations

from typing import Any

from padax.core import dtypes
from padax.core.errors import op_type_error


class finfo:  # noqa: N801  (Paddle's name)
    """Limits of a floating (or complex: of its real part) dtype, as Python floats: min, max, eps,
    resolution, smallest_normal, tiny, and bits and dtype (its name).

    Args:
        dtype: a floating or complex dtype: a padax or numpy dtype, or its name such as 'float32'.

    Examples:
        >>> import padax
        >>> f = padax.finfo(padax.float16)
        >>> f.eps, f.max, f.bits, f.dtype
        (0.0009765625, 65504.0, 16, 'float16')
    """

    def __init__(self, dtype: Any) -> None:
        dt = dtypes.to_dtype(dtype)
        if not dtypes.is_inexact(dt):
            raise op_type_error("finfo", f"expected a floating or complex dtype, got {dt.name}")
        info = dtypes.finfo(dt)
        self.min, self.max, self.eps = float(info.min), float(info.max), float(info.eps)
        self.resolution, self.tiny = 10.0 ** -int(info.precision), float(info.tiny)  # exact decimal, as Paddle
        self.smallest_normal = float(info.smallest_normal)
        self.bits = int(info.bits)
        self.dtype = dtypes.to_dtype(info.dtype).name

    def __repr__(self) -> str:
        return (f"padax.finfo(min={self.min:g}, max={self.max:g}, eps={self.eps:g}, resolution={self.resolution:g}, "
                f"smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, bits={self.bits}, dtype={self.dtype})")


class iinfo:  # noqa: N801  (Paddle's name)
    """Limits of an integer dtype, as Python ints: min, max, and bits and dtype (its name).

    Args:
        dtype: an integer dtype: a padax or numpy dtype, or its name such as 'int32'.

    Examples:
        >>> import padax
        >>> padax.iinfo('int8')
        padax.iinfo(min=-128, max=127, bits=8, dtype=int8)
    """

    def __init__(self, dtype: Any) -> None:
        dt = dtypes.to_dtype(dtype)
        if not dtypes.is_integer(dt):
            raise op_type_error("iinfo", f"expected an integer dtype, got {dt.name}")
        info = dtypes.iinfo(dt)
        self.min, self.max, self.bits, self.dtype = int(info.min), int(info.max), int(info.bits), dt.name

    def __repr__(self) -> str:
        return f"padax.iinfo(min={self.min}, max={self.max}, bits={self.bits}, dtype={self.dtype})"
