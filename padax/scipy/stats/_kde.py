"""gaussian_kde: kernel density estimation with Gaussian kernels (scipy.stats.gaussian_kde).

The estimator is a pytree (its dataset, weights and covariance are children), so it passes
through jit and vmap and is differentiable in the data and in the evaluation points.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from padax import dtypes, lax, numpy as pnp, random, tree as tree_util
from padax.core.errors import op_value_error
from padax.numpy import _dtypes as D
from padax.numpy._util import to_array
from padax.scipy.special import ndtr
from padax.scipy.special._base import LOG_SQRT_2PI
from padax.scipy.special._logs import logsumexp
from padax.scipy.stats import multivariate_normal


def _bandwidth_factor(bw_method, d: int, neff) -> Any:
    if bw_method is None or bw_method == "scott":
        return neff ** (-1.0 / (d + 4))
    if bw_method == "silverman":
        return (neff * (d + 2) / 4.0) ** (-1.0 / (d + 4))
    if isinstance(bw_method, str):
        raise op_value_error("gaussian_kde", f"bw_method must be 'scott', 'silverman', a number or a callable, "
                                             f"got {bw_method!r}")
    return None


class gaussian_kde:
    """A Gaussian kernel density estimate of `dataset` (shape (d, n), or (n,) for d = 1).

    Args:
        dataset: the data points, shape (d, n) with n >= 2, or (n,) for d = 1 (integers become float32).
        bw_method: 'scott' (default when None), 'silverman', a number (the bandwidth factor) or a callable of the kde
            returning one.
        weights: optional per-point weights, shape (n,) (normalised to sum to 1).

    Examples:
        >>> import padax
        >>> from padax.scipy import stats
        >>> kde = stats.gaussian_kde(padax.to_tensor([-1.0, 0.0, 1.0]))
        >>> float(kde.factor)
        0.8027
        >>> kde.evaluate(padax.to_tensor([0.0, 3.0])).tolist()
        [0.3182, 0.0076]
    """

    def __init__(self, dataset: Any, bw_method: Any = None, weights: Any = None):
        data = pnp.atleast_2d(to_array(dataset))
        if not dtypes.is_floating(data.dtype):
            data = data.astype(D.default_float())
        d, n = data.shape
        if n < 2:
            raise op_value_error("gaussian_kde", f"the dataset needs more than one point, got shape {data.shape}")
        w = pnp.full((n,), 1.0 / n, dtype=data.dtype) if weights is None else to_array(weights, data.dtype)
        if w.shape != (n,):
            raise op_value_error("gaussian_kde", f"weights must have shape ({n},), got {w.shape}")
        w = w / pnp.sum(w)
        neff = 1.0 / pnp.sum(w * w)
        factor = _bandwidth_factor(bw_method, d, neff)
        if factor is None:
            factor = bw_method(self._partial(data, w, neff)) if callable(bw_method) else bw_method
        mean = data @ w
        dev = data - mean[:, None]
        data_cov = (dev * w) @ pnp.transpose(dev) / (1.0 - pnp.sum(w * w))
        self._set(data, w, neff, data_cov * factor ** 2)
        self.factor = factor

    @staticmethod
    def _partial(data, w, neff):
        obj = object.__new__(gaussian_kde)
        obj.dataset, obj.weights, obj.neff = data, w, neff
        obj.d, obj.n = data.shape
        return obj

    def _set(self, data, w, neff, covariance):
        self.dataset, self.weights, self.neff, self.covariance = data, w, neff, covariance
        self.d, self.n = data.shape
        self.inv_cov = pnp.linalg.inv(covariance)

    def scotts_factor(self) -> Any:
        return self.neff ** (-1.0 / (self.d + 4))

    def silverman_factor(self) -> Any:
        return (self.neff * (self.d + 2) / 4.0) ** (-1.0 / (self.d + 4))

    def _points(self, points):
        pts = pnp.atleast_2d(to_array(points, self.dataset.dtype))
        if pts.shape[0] != self.d:
            if pts.shape[1] == self.d and pts.shape[0] == 1 and self.d != 1:
                pts = pnp.transpose(pts)
            elif self.d == 1 and pts.shape[0] != 1:
                pts = pnp.reshape(pts, (1, -1))
            else:
                raise op_value_error("gaussian_kde", f"points have dimension {pts.shape[0]}, the data {self.d}")
        return pts

    def logpdf(self, points: Any) -> Any:
        """log of the estimated density at each point (shape (m,) for points (d, m))."""
        pts = self._points(points)
        chol = lax.cholesky(self.covariance)
        diff = self.dataset[:, :, None] - pts[:, None, :]               # (d, n, m)
        flat = pnp.reshape(diff, (self.d, -1))
        y = lax.triangular_solve(chol, flat, left_side=True, lower=True)
        maha = pnp.reshape(pnp.sum(y * y, axis=0), (self.n, -1))
        log_norm = pnp.sum(pnp.log(pnp.diagonal(chol))) + self.d * LOG_SQRT_2PI
        return logsumexp(-0.5 * maha - log_norm, axis=0, b=self.weights[:, None])

    def evaluate(self, points: Any) -> Any:
        """the estimated density at each point."""
        return pnp.exp(self.logpdf(points))

    __call__ = evaluate
    pdf = evaluate

    def integrate_box_1d(self, low: Any, high: Any) -> Any:
        """the estimate's mass in [low, high] (one-dimensional data)."""
        if self.d != 1:
            raise op_value_error("gaussian_kde.integrate_box_1d", f"needs 1-d data, got d={self.d}")
        sd = pnp.sqrt(self.covariance[0, 0])
        lo = (low - self.dataset[0]) / sd
        hi = (high - self.dataset[0]) / sd
        return pnp.sum(self.weights * (ndtr(hi) - ndtr(lo)))

    def integrate_gaussian(self, mean: Any, cov: Any) -> Any:
        """the integral of the estimate times the Gaussian N(mean, cov)."""
        mean = pnp.reshape(to_array(mean, self.dataset.dtype), (self.d,))
        total = self.covariance + to_array(cov, self.dataset.dtype)
        return pnp.sum(self.weights * multivariate_normal.pdf(pnp.transpose(self.dataset), mean, total))

    def resample(self, key: Any, shape: tuple[int, ...] = ()) -> Any:
        """draws from the estimate, shape (d,) + shape: a data point (by weight) plus kernel noise."""
        k1, k2 = random.split(key)
        size = int(np.prod(shape)) if shape else 1
        idx = random.choice(k1, self.n, shape=(size,), p=self.weights)
        noise = random.normal(k2, (self.d, size), dtype=self.dataset.dtype)
        pts = pnp.take(self.dataset, idx, axis=1) + lax.cholesky(self.covariance) @ noise
        return pnp.reshape(pts, (self.d,) + tuple(shape))


def _flatten(k: gaussian_kde):
    return (k.dataset, k.weights, k.neff, k.covariance, k.inv_cov, k.factor), None


def _unflatten(aux, children):
    obj = object.__new__(gaussian_kde)
    obj.dataset, obj.weights, obj.neff, obj.covariance, obj.inv_cov, obj.factor = children
    obj.d, obj.n = obj.dataset.shape
    return obj


tree_util.register_node(gaussian_kde, _flatten, _unflatten)

__all__ = ["gaussian_kde"]
