"""`InputSpec`: the shape and dtype of a program input, as in `paddle.static.InputSpec`."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from padax import dtypes


class InputSpec:
    """Shape (a tuple; -1 or None for a size not known yet), dtype and optional name of one input, as given
    to padax.jit.to_static / padax.jit.save.

    Args:
        shape: the sizes; -1 or None for a size not known yet (an int is a 1-d shape).
        dtype: the dtype (default float32).
        name: the input's name, kept in saved programs.
        stop_gradient: accepted for Paddle compatibility (stored).

    Returns:
        The spec.

    Examples:
        >>> import padax
        >>> from padax.static import InputSpec
        >>> spec = InputSpec([None, 3], 'float32', name='x')
        >>> spec, spec.batch(4).shape
        (InputSpec(shape=(-1, 3), dtype=float32, name=x), (4, -1, 3))
        >>> InputSpec.from_tensor(padax.ones([2, 3]))
        InputSpec(shape=(2, 3), dtype=float32, name=None)
    """

    __slots__ = ("shape", "dtype", "name", "stop_gradient")

    def __init__(self, shape: Sequence[int | None], dtype: Any = "float32", name: str | None = None,
                 stop_gradient: bool = False):
        if isinstance(shape, (int, np.integer)) or shape is None:
            shape = () if shape is None else (shape,)
        self.shape = tuple(-1 if d is None else int(d) for d in shape)
        if any(d < -1 for d in self.shape):
            raise ValueError(f"InputSpec: sizes must be >= 0 (or -1/None for unknown), got {list(shape)}")
        self.dtype = dtypes.to_dtype(dtype)
        self.name = name
        self.stop_gradient = stop_gradient

    @classmethod
    def from_tensor(cls, tensor: Any, name: str | None = None) -> "InputSpec":
        return cls(tuple(tensor.shape), tensor.dtype, name)

    @classmethod
    def from_numpy(cls, ndarray: np.ndarray, name: str | None = None) -> "InputSpec":
        return cls(ndarray.shape, ndarray.dtype, name)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def batch(self, batch_size: int) -> "InputSpec":
        """This spec with a leading batch axis of `batch_size`."""
        return InputSpec((batch_size,) + self.shape, self.dtype, self.name, self.stop_gradient)

    def unbatch(self) -> "InputSpec":
        """This spec without its leading axis."""
        if not self.shape:
            raise ValueError("InputSpec.unbatch: a scalar spec has no batch axis")
        return InputSpec(self.shape[1:], self.dtype, self.name, self.stop_gradient)

    def __eq__(self, other: Any) -> bool:
        return (type(other) is InputSpec and self.shape == other.shape and self.dtype == other.dtype
                and self.name == other.name)

    def __hash__(self) -> int:
        return hash((self.shape, self.dtype, self.name))

    def __repr__(self) -> str:
        return f"InputSpec(shape={self.shape}, dtype={self.dtype.name}, name={self.name})"
