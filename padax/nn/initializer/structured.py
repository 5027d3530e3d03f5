"""Deterministic and structured initializers: Constant, Assign, Orthogonal, Dirac, Bilinear."""
from __future__ import annotations

from typing import Any

import numpy as np

from padax import linalg
from padax.functional import math as M
from padax.functional.creation import full as _full, to_tensor as _to_tensor
from padax.functional.manipulation import diagonal as _diagonal, reshape as _reshape, transpose as _transpose
from padax.nn.initializer._base import Initializer, random_key
from padax.random import _samplers


class Constant(Initializer):
    """Every element equal to `value` (Paddle's default for biases, with value 0).

    Args:
        value: the fill value.

    Returns:
        init(shape, dtype=None) (or init(param)) -> a Tensor of that shape.

    Examples:
        >>> import padax
        >>> padax.nn.initializer.Constant(2.5)([2, 2]).tolist()
        [[2.5, 2.5], [2.5, 2.5]]
        >>> padax.nn.Linear(2, 1, weight_attr=padax.nn.initializer.Constant(0.1)).weight.tolist()
        [[0.1], [0.1]]
    """

    def __init__(self, value: float = 0.0) -> None:
        self.value = float(value)

    def _init(self, shape, dtype, key):
        return _full(list(shape), self.value, dtype)


class Assign(Initializer):
    """A given value (numpy array, list, number or Tensor) of the parameter's shape.

    Args:
        value: a numpy array, list, number or Tensor of the parameter's shape.

    Returns:
        init(shape, dtype=None) (or init(param)) -> a Tensor of that shape.

    Examples:
        >>> import padax
        >>> init = padax.nn.initializer.Assign([[1.0, 2.0], [3.0, 4.0]])
        >>> padax.nn.Linear(2, 2, weight_attr=init).weight.tolist()
        [[1.0, 2.0], [3.0, 4.0]]
    """

    def __init__(self, value: Any, name: str | None = None) -> None:
        self.value = np.asarray(value)

    def _init(self, shape, dtype, key):
        if tuple(self.value.shape) != tuple(shape) and self.value.size != int(np.prod(shape)):
            raise ValueError(f"Assign: the value has shape {list(self.value.shape)}, the parameter {list(shape)}")
        return _to_tensor(self.value.reshape(shape), dtype=dtype)


class Orthogonal(Initializer):
    """A (semi-)orthogonal matrix over [shape[0], prod(shape[1:])], times gain (QR of a normal sample).

    Args:
        gain: the multiplier.

    Returns:
        init(shape, dtype=None) (or init(param)) -> a Tensor of that shape (2 or more dimensions).

    Examples:
        >>> import padax
        >>> w = padax.nn.initializer.Orthogonal(gain=2.0)([3, 3], key=padax.random.key(0))
        >>> bool(padax.allclose(w @ w.T, 4.0 * padax.eye(3), atol=1e-5))  # rows orthogonal, of norm gain
        True
    """

    _random = True

    def __init__(self, gain: float = 1.0, name: str | None = None) -> None:
        self.gain = float(gain)

    def _init(self, shape, dtype, key):
        if len(shape) < 2:
            raise ValueError(f"Orthogonal: the parameter needs 2 or more dimensions, got shape {list(shape)}")
        rows, cols = shape[0], int(np.prod(shape[1:]))
        z = _samplers.normal(random_key(key, "Orthogonal"), (max(rows, cols), min(rows, cols)), dtype)
        q, r = linalg.qr(z)
        q = q * M.sign(_diagonal(r))
        if rows < cols:
            q = _transpose(q, [1, 0])
        return _reshape(q, list(shape)) * self.gain


class Dirac(Initializer):
    """Identity convolution kernels [out, in, *k]: out channel i (within each of `groups`) copies input
    channel i at the kernel centre; the rest is 0.

    Args:
        groups: the number of channel groups (dividing the out channels).

    Returns:
        init(shape, dtype=None) (or init(param)) -> a 3-D to 5-D kernel.

    Examples:
        >>> import padax
        >>> w = padax.nn.initializer.Dirac()([2, 2, 3])  # [out, in, k]
        >>> w.tolist()
        [[[0.0, 1.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 1.0, 0.0]]]
    """

    def __init__(self, groups: int = 1, name: str | None = None) -> None:
        if not isinstance(groups, int) or groups <= 0:
            raise ValueError(f"Dirac: groups must be a positive int, got {groups!r}")
        self.groups = groups

    def _init(self, shape, dtype, key):
        if len(shape) not in (3, 4, 5):
            raise ValueError(f"Dirac: the parameter needs 3, 4 or 5 dimensions, got shape {list(shape)}")
        if shape[0] % self.groups:
            raise ValueError(f"Dirac: out channels {shape[0]} are not divisible by groups {self.groups}")
        w = np.zeros(shape, np.float64)
        per_group = shape[0] // self.groups
        centre = tuple(k // 2 for k in shape[2:])
        for g in range(self.groups):
            for i in range(min(per_group, shape[1])):
                w[(g * per_group + i, i) + centre] = 1.0
        return _to_tensor(w, dtype=dtype)


class Bilinear(Initializer):
    """Bilinear-upsampling kernels for a transposed convolution, shape [C_out, C_in, k, k].

    The values are Paddle's: its formula takes the row coordinate of flat element i as
    (i / k) % k with true division, so the kernel is not symmetric; padax keeps that so
    weights are identical.

    Examples:
        >>> import padax
        >>> w = padax.nn.initializer.Bilinear()([1, 1, 4, 4])  # Paddle's values
        >>> w[0, 0, 0].tolist()
        [0.0625, 0.2812, 0.375, 0.1562]
        >>> deconv = padax.nn.Conv2DTranspose(1, 1, 4, stride=2, padding=1, weight_attr=padax.nn.initializer.Bilinear())
        >>> deconv(padax.ones([1, 1, 3, 3])).shape
        (1, 1, 6, 6)
    """

    def __init__(self) -> None:
        pass

    def _init(self, shape, dtype, key):
        if len(shape) != 4 or shape[2] != shape[3]:
            raise ValueError(f"Bilinear: the parameter must be [C_out, C_in, k, k], got shape {list(shape)}")
        size = shape[3]
        f = np.ceil(size / 2.0)
        c = (2 * f - 1 - f % 2) / (2.0 * f)
        i = np.arange(int(np.prod(shape)), dtype=np.float64)
        col, row = i % size, (i / size) % size
        w = (1 - np.abs(col / f - c)) * (1 - np.abs(row / f - c))
        return _to_tensor(w.reshape(shape).astype(np.float32), dtype=dtype)
