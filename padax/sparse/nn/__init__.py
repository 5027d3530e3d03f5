"""`padax.sparse.nn`: layers for sparse tensors (Paddle's paddle.sparse.nn).

Activations apply to the stored values only (softmax normalises over the stored entries of each
row) and keep the pattern; BatchNorm normalises the channel values; Conv2D / Conv3D / SubmConv2D / SubmConv3D /
MaxPool3D work on COO [N, (D,) H, W, C] with a host-built rulebook and traceable arithmetic.
"""
from __future__ import annotations

from typing import Any

import padax
from padax.sparse.nn import functional
from padax.sparse.nn._conv import BatchNorm, Conv2D, Conv3D, MaxPool3D, SubmConv2D, SubmConv3D, SyncBatchNorm

__all__ = ["BatchNorm", "Conv2D", "Conv3D", "LeakyReLU", "MaxPool3D", "ReLU", "ReLU6", "Softmax", "SubmConv2D",
           "SubmConv3D", "SyncBatchNorm", "functional"]


class ReLU(padax.nn.Layer):
    """max(x, 0) of each stored value (`padax.sparse.nn.functional.relu`).

    Args:
        name: unused (Paddle's).

    Examples:
        >>> import padax
        >>> x = padax.sparse.sparse_coo_tensor([[0, 1]], [-1., 2.], [2])
        >>> padax.sparse.nn.ReLU()(x).values().tolist()
        [0.0, 2.0]
    """

    def __init__(self, name: str | None = None) -> None:
        super().__init__()

    def forward(self, x: Any) -> Any:
        """Apply the activation."""
        return functional.relu(x)


class ReLU6(padax.nn.Layer):
    """min(max(x, 0), 6) of each stored value (`padax.sparse.nn.functional.relu6`).

    Args:
        name: unused.

    Examples:
        >>> import padax
        >>> x = padax.sparse.sparse_coo_tensor([[0, 1]], [-1., 8.], [2])
        >>> padax.sparse.nn.ReLU6()(x).values().tolist()
        [0.0, 6.0]
    """

    def __init__(self, name: str | None = None) -> None:
        super().__init__()

    def forward(self, x: Any) -> Any:
        """Apply the activation."""
        return functional.relu6(x)


class LeakyReLU(padax.nn.Layer):
    """x if x >= 0 else negative_slope * x, for each stored value.

    Args:
        negative_slope: the slope for negative values.
        name: unused.

    Examples:
        >>> import padax
        >>> x = padax.sparse.sparse_coo_tensor([[0, 1]], [-1., 2.], [2])
        >>> padax.sparse.nn.LeakyReLU(0.5)(x).values().tolist()
        [-0.5, 2.0]
    """

    def __init__(self, negative_slope: float = 0.01, name: str | None = None) -> None:
        super().__init__()
        self._negative_slope = negative_slope

    def forward(self, x: Any) -> Any:
        """Apply the activation."""
        return functional.leaky_relu(x, self._negative_slope)


class Softmax(padax.nn.Layer):
    """Softmax over the stored entries along the last axis (`padax.sparse.nn.functional.softmax`).

    Args:
        axis: must be -1 (Paddle's only supported axis).
        name: unused.

    Examples:
        >>> import padax
        >>> x = padax.sparse.sparse_csr_tensor([0, 2], [0, 2], [1., 1.], [1, 3])
        >>> padax.sparse.nn.Softmax()(x).values().tolist()
        [0.5, 0.5]
    """

    def __init__(self, axis: int = -1, name: str | None = None) -> None:
        super().__init__()
        self._axis = axis

    def forward(self, x: Any) -> Any:
        """Apply the softmax."""
        return functional.softmax(x, self._axis)
