"""Paddle's SpectralNorm layer: forward(weight) = weight / sigma, sigma the largest singular value of weight
(as a [shape[dim], -1] matrix) estimated by `power_iters` power iterations from the stored unit vectors
weight_u [h] and weight_v [w] (frozen parameters drawn from Normal(0, 1), as Paddle)."""
from __future__ import annotations

from typing import Any

import numpy as np

from padax import stop_gradient
from padax.functional import math as M, reduction as R
from padax.functional.linalg_basic import matmul
from padax.nn.initializer import Normal
from padax.nn.layer._calls import input_error
from padax.nn.layer.layers import Layer
from padax.nn.param_attr import ParamAttr
from padax.nn.utils.spectral_norm import SpectralNorm as _Reparam


class SpectralNorm(Layer):
    """Spectral normalisation of a weight passed to forward. As Paddle's spectral_norm op, every call iterates
    from the stored u and v and does not write the iterates back.

    Args:
        weight_shape: the shape of the weights it will normalise.
        dim: the axis treated as the output rows.
        power_iters: power iterations per call.
        eps: added to norms in the iteration.
        dtype: the dtype of the u, v buffers.

    Returns:
        layer(x): a weight of weight_shape -> x / sigma, its estimated largest singular value.

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> sn = padax.nn.SpectralNorm([2, 2], power_iters=20)
        >>> sn(padax.to_tensor([[0.0, 2.0], [0.0, 0.0]])).tolist()
        [[0.0, 1.0], [0.0, 0.0]]
    """

    def __init__(self, weight_shape: Any, dim: int = 0, power_iters: int = 1, eps: float = 1e-12,
                 dtype: Any = "float32") -> None:
        super().__init__(dtype=dtype)
        shape = [int(s) for s in weight_shape]
        if int(np.prod(shape)) <= 0:
            raise ValueError(f"SpectralNorm: every dimension of weight_shape must be positive, got {shape}")
        if not 0 <= dim < len(shape):
            raise ValueError(f"SpectralNorm: dim must be in [0, {len(shape)}), got {dim}")
        if power_iters < 0:
            raise ValueError(f"SpectralNorm: power_iters must be >= 0, got {power_iters}")
        self._weight_shape, self._dim, self._power_iters, self._eps = shape, int(dim), int(power_iters), float(eps)
        h = shape[dim]
        w = int(np.prod(shape)) // h
        frozen = ParamAttr(trainable=False)
        self.weight_u = self.create_parameter([h], attr=frozen, dtype=dtype, default_initializer=Normal(0.0, 1.0))
        self.weight_v = self.create_parameter([w], attr=frozen, dtype=dtype, default_initializer=Normal(0.0, 1.0))

    def _unit(self, x: Any) -> Any:
        """x / (|x| + eps): Paddle's spectral_norm kernel adds eps (nn.utils.spectral_norm clamps instead)."""
        return x / (M.sqrt(R.sum(M.square(x))) + self._eps)

    def forward(self, x: Any) -> Any:
        if list(x.shape) != self._weight_shape:
            raise input_error("SpectralNorm input", f"a weight of shape {self._weight_shape}",
                              f"shape {list(x.shape)}")
        mat = _Reparam("weight", self._power_iters, self._dim, self._eps).matrix(x)
        fixed = stop_gradient(mat)
        u, v = self.weight_u, self.weight_v
        for _ in range(self._power_iters):
            v = self._unit(matmul(fixed, u, transpose_x=True))
            u = self._unit(matmul(fixed, v))
        sigma = R.sum(u * matmul(mat, v))
        return x / sigma

    def extra_repr(self) -> str:
        return f"weight_shape={self._weight_shape}, dim={self._dim}, power_iters={self._power_iters}"
