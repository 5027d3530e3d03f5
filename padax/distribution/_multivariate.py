"""Multivariate distributions with Paddle's constructors: Dirichlet and MultivariateNormal."""
from __future__ import annotations

import math
from typing import Any, Sequence

from padax import lax, numpy as pnp, random
from padax.core.errors import op_value_error
from padax.distribution._base import Distribution, ExponentialFamily, as_params, as_value, check_param
from padax.scipy.special import digamma, xlogy


class Dirichlet(ExponentialFamily):
    """The Dirichlet distribution over the simplex of the last axis of `concentration`.

    Args:
        concentration: positive parameters on the last axis (the event); the other axes are the batch shape.
        validate_args: check the parameters' constraints (when their values are concrete) and raise
            a ValueError naming a violated one.

    Examples:
        >>> import padax
        >>> from padax import distribution
        >>> d = distribution.Dirichlet(padax.to_tensor([1.0, 2.0, 3.0]))
        >>> d.mean.tolist()
        [0.1667, 0.3333, 0.5]
        >>> float(d.log_prob(padax.to_tensor([0.2, 0.3, 0.5])))
        1.5041
        >>> d.sample([4], key=padax.random.key(0)).shape
        (4, 3)
    """

    def __init__(self, concentration: Any, validate_args: bool = False) -> None:
        concentration, = as_params("Dirichlet", concentration)
        if concentration.ndim < 1 or concentration.size == 0:
            raise op_value_error("Dirichlet", f"parameter concentration must be at least one-dimensional and "
                                              f"non-empty, got shape {concentration.shape}")
        check_param("Dirichlet", "concentration", concentration, concentration > 0, "positive", validate_args)
        self._params(concentration=concentration)
        super().__init__(concentration.shape[:-1], concentration.shape[-1:])

    @property
    def mean(self):
        return self.concentration / pnp.sum(self.concentration, axis=-1, keepdims=True)

    @property
    def variance(self):
        a0 = pnp.sum(self.concentration, axis=-1, keepdims=True)
        m = self.concentration / a0
        return m * (1.0 - m) / (a0 + 1.0)

    def rsample(self, shape: Sequence[int] = (), key: Any = None):
        out = tuple(int(d) for d in shape) + self.batch_shape
        alpha = pnp.broadcast_to(self.concentration, out + self.event_shape)
        return random.dirichlet(self._key(key, "rsample"), alpha, out, self._dtype())

    def log_prob(self, value):
        v = as_value(value, self.concentration)
        a = self.concentration
        return (pnp.sum(xlogy(a - 1.0, v), axis=-1) + lax.lgamma(pnp.sum(a, axis=-1))
                - pnp.sum(lax.lgamma(a), axis=-1))

    def entropy(self):
        a = self.concentration
        k = a.shape[-1]
        a0 = pnp.sum(a, axis=-1)
        log_b = pnp.sum(lax.lgamma(a), axis=-1) - lax.lgamma(a0)
        return log_b + (a0 - k) * digamma(a0) - pnp.sum((a - 1.0) * digamma(a), axis=-1)

    @property
    def _natural_parameters(self):
        return (self.concentration - 1.0,)              # statistics log x_i; carrier 1

    def _log_normalizer(self, x):
        return pnp.sum(lax.lgamma(x + 1.0), axis=-1) - lax.lgamma(pnp.sum(x + 1.0, axis=-1))

    @property
    def _mean_carrier_measure(self):
        return 0.0


def _tril_solve(chol, b):
    """chol^-1 b for a lower-triangular chol (..., k, k) and b (..., k, m), batch dims broadcast."""
    batch = pnp.broadcast_shapes(chol.shape[:-2], b.shape[:-2])
    chol = pnp.broadcast_to(chol, batch + chol.shape[-2:])
    b = pnp.broadcast_to(b, batch + b.shape[-2:])
    return lax.triangular_solve(chol, b, left_side=True, lower=True)


class MultivariateNormal(Distribution):
    """The multivariate normal distribution with mean `loc` and one of `covariance_matrix`,
    `precision_matrix` or `scale_tril` (a lower-triangular factor of the covariance).

    Exactly one of the three matrices must be given; batch shapes broadcast.

    Args:
        loc: the mean, shape (..., k).
        covariance_matrix: the covariance, (..., k, k), symmetric positive definite.
        precision_matrix: the inverse covariance, (..., k, k).
        scale_tril: a lower-triangular L with covariance L @ L^T, (..., k, k).
        validate_args: check the parameters' constraints (when their values are concrete) and raise
            a ValueError naming a violated one.

    Examples:
        >>> import padax
        >>> from padax import distribution
        >>> d = distribution.MultivariateNormal(padax.zeros([2]), covariance_matrix=padax.eye(2))
        >>> d.mean.tolist()
        [0.0, 0.0]
        >>> float(d.log_prob(padax.to_tensor([1.0, 1.0])))
        -2.8379
        >>> d.sample([4], key=padax.random.key(0)).shape
        (4, 2)
    """

    def __init__(self, loc: Any, covariance_matrix: Any = None, precision_matrix: Any = None,
                 scale_tril: Any = None, validate_args: bool = False) -> None:
        given = [m is not None for m in (covariance_matrix, precision_matrix, scale_tril)]
        if sum(given) != 1:
            raise op_value_error("MultivariateNormal", "exactly one of covariance_matrix, precision_matrix and "
                                                       "scale_tril must be given")
        matrix = next(m for m in (covariance_matrix, precision_matrix, scale_tril) if m is not None)
        loc, = as_params("MultivariateNormal", loc)
        matrix, = as_params("MultivariateNormal", matrix, dtype=loc.dtype)
        if loc.ndim < 1 or matrix.ndim < 2 or matrix.shape[-1] != matrix.shape[-2] or \
                matrix.shape[-1] != loc.shape[-1]:
            raise op_value_error("MultivariateNormal", f"loc must be (..., k) and the matrix (..., k, k); got "
                                                       f"{loc.shape} and {matrix.shape}")
        if scale_tril is not None:
            chol = pnp.tril(matrix)
        elif covariance_matrix is not None:
            chol = lax.cholesky(matrix)
            check_param("MultivariateNormal", "covariance_matrix", matrix, ~pnp.isnan(chol),
                        "symmetric positive definite", validate_args)
        else:
            chol = lax.cholesky(pnp.linalg.inv(matrix))
            check_param("MultivariateNormal", "precision_matrix", matrix, ~pnp.isnan(chol),
                        "symmetric positive definite", validate_args)
        batch = pnp.broadcast_shapes(loc.shape[:-1], chol.shape[:-2])
        k = loc.shape[-1]
        self._params(loc=pnp.broadcast_to(loc, batch + (k,)), scale_tril=chol)
        super().__init__(batch, (k,))

    @property
    def covariance_matrix(self):
        return self.scale_tril @ pnp.swapaxes(self.scale_tril, -1, -2)

    @property
    def precision_matrix(self):
        return pnp.linalg.inv(self.covariance_matrix)

    @property
    def mean(self):
        return self.loc

    @property
    def variance(self):
        return pnp.broadcast_to(pnp.sum(self.scale_tril ** 2, axis=-1), self.batch_shape + self.event_shape)

    def rsample(self, shape: Sequence[int] = (), key: Any = None):
        eps = random.normal(self._key(key, "rsample"), self._extend_shape(shape), self._dtype())
        return self.loc + pnp.squeeze(self.scale_tril @ eps[..., None], axis=-1)

    def log_prob(self, value):
        v = as_value(value, self.loc)
        d = (v - self.loc)[..., None]
        y = _tril_solve(self.scale_tril, d)[..., 0]
        k = self.event_shape[0]
        half_log_det = pnp.sum(pnp.log(pnp.diagonal(self.scale_tril, axis1=-2, axis2=-1)), axis=-1)
        return -0.5 * pnp.sum(y * y, axis=-1) - half_log_det - 0.5 * k * math.log(2 * math.pi)

    def entropy(self):
        k = self.event_shape[0]
        half_log_det = pnp.sum(pnp.log(pnp.diagonal(self.scale_tril, axis1=-2, axis2=-1)), axis=-1)
        h = 0.5 * k * (1.0 + math.log(2 * math.pi)) + half_log_det
        return pnp.broadcast_to(h, self.batch_shape)


__all__ = ["Dirichlet", "MultivariateNormal"]
