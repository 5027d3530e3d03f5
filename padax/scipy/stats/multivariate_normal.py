"""The multivariate normal distribution: scipy.stats.multivariate_normal's logpdf/pdf
(x, mean, cov, allow_singular=False).

x has the event in its last axis (shape (..., k)); mean has shape (k,) (or () with cov a scalar
variance); cov is a (k, k) matrix, a (k,) vector of variances or a scalar. A full covariance goes
through its Cholesky factor; allow_singular=True uses the eigendecomposition (pseudo-inverse and
pseudo-determinant over the eigenvalues above the rank tolerance), as scipy does.

Examples:
    >>> import padax
    >>> from padax.scipy import stats
    >>> stats.multivariate_normal.pdf(padax.to_tensor([0.0, 0.0]), padax.zeros([2]), padax.eye(2)).tolist()
    0.1592
    >>> float(stats.multivariate_normal.logpdf(padax.to_tensor([1.0, 1.0]), padax.zeros([2]), padax.eye(2)))
    -2.8379
"""
from __future__ import annotations

from typing import Any

import numpy as np

from padax import dtypes, lax, numpy as pnp
from padax.core.errors import op_value_error
from padax.numpy import _dtypes as D
from padax.numpy._util import to_array
from padax.scipy.special._base import LOG_SQRT_2PI


def _flat_deviation(x, mean, k):
    d = x - mean
    batch = d.aval.shape[:-1]
    return pnp.reshape(d, (-1, k)), batch


def logpdf(x: Any, mean: Any, cov: Any, allow_singular: bool | None = False) -> Any:
    """log density at x (batched over x's leading axes)."""
    x, mean, cov = _args(x, mean, cov)
    if mean.aval.ndim == 0:                                   # a scalar normal
        return -0.5 * (x - mean) ** 2 / cov - LOG_SQRT_2PI - 0.5 * pnp.log(cov)
    k = mean.aval.shape[-1]
    if x.aval.shape[-1:] != (k,):
        raise op_value_error("multivariate_normal.logpdf", f"x's last axis must have the mean's size {k}, "
                                                           f"got x of shape {x.aval.shape}")
    if cov.aval.ndim == 0:
        cov = cov * pnp.eye(k, dtype=cov.aval.dtype)
    elif cov.aval.ndim == 1:
        cov = pnp.diag(cov)
    if cov.aval.shape != (k, k):
        raise op_value_error("multivariate_normal.logpdf", f"cov must be ({k}, {k}), got {cov.aval.shape}")
    d, batch = _flat_deviation(x, mean, k)
    if allow_singular:
        w, v = lax.eigh(cov)
        tol = float(np.finfo(cov.aval.dtype).eps) * 1e6 * pnp.max(pnp.abs(w))
        keep = w > tol
        inv_w = pnp.where(keep, 1.0 / pnp.where(keep, w, 1.0), 0.0)
        proj = d @ v
        maha = pnp.sum(proj * proj * inv_w, axis=-1)
        log_det = pnp.sum(pnp.where(keep, pnp.log(pnp.where(keep, w, 1.0)), 0.0))
        rank = pnp.sum(keep.astype(cov.aval.dtype))
        out = -0.5 * (maha + log_det) - rank * LOG_SQRT_2PI
    else:
        chol = lax.cholesky(cov)
        y = lax.triangular_solve(chol, pnp.transpose(d), left_side=True, lower=True)
        maha = pnp.sum(y * y, axis=0)
        log_det = 2.0 * pnp.sum(pnp.log(pnp.diagonal(chol)))
        out = -0.5 * (maha + log_det) - k * LOG_SQRT_2PI
    return pnp.reshape(out, batch)


def _args(x, mean, cov):
    x, mean, cov = to_array(x), to_array(mean), to_array(cov)
    dt = pnp.result_type(x, mean, cov)
    if not dtypes.is_floating(dt):
        dt = D.default_float()
    return x.astype(dt), mean.astype(dt), cov.astype(dt)


def pdf(x: Any, mean: Any, cov: Any, allow_singular: bool | None = False) -> Any:
    """density at x."""
    return pnp.exp(logpdf(x, mean, cov, allow_singular))


__all__ = ["logpdf", "pdf"]
