"""The Dirichlet distribution: scipy.stats.dirichlet's logpdf/pdf (x, alpha).

x holds the K components in its first axis (shape (K,) or (K, N)); alpha has shape (K,).
Points off the simplex (a negative component, or components not summing to 1 within a few
ulps) have density 0 (-inf log density), as in jax (scipy raises).

Examples:
    >>> import padax
    >>> from padax.scipy import stats
    >>> stats.dirichlet.pdf(padax.to_tensor([0.2, 0.3, 0.5]), padax.to_tensor([1.0, 2.0, 3.0])).tolist()
    4.5
    >>> float(stats.dirichlet.logpdf(padax.to_tensor([0.2, 0.3, 0.5]), padax.to_tensor([1.0, 2.0, 3.0])))
    1.5041
"""
from __future__ import annotations

from typing import Any

import numpy as np

from padax import lax, numpy as pnp
from padax.core.errors import op_value_error
from padax.numpy._util import to_array
from padax.scipy.special import xlogy
from padax.scipy.special._base import inexact_args


def logpdf(x: Any, alpha: Any) -> Any:
    """log density at x."""
    x, alpha = to_array(x), to_array(alpha)
    k = alpha.aval.shape[0] if alpha.aval.ndim == 1 else None
    if k is None or x.aval.ndim == 0 or x.aval.shape[0] != k:
        raise op_value_error("dirichlet.logpdf", f"alpha must be 1-D (K,) and x (K,) or (K, N); got alpha "
                                                 f"{alpha.aval.shape} and x {x.aval.shape}")
    x, alpha = inexact_args("dirichlet.logpdf", x, pnp.reshape(alpha, (k,) + (1,) * (x.aval.ndim - 1)))
    dt = x.aval.dtype
    log_norm = pnp.sum(lax.lgamma(alpha), axis=0) - lax.lgamma(pnp.sum(alpha, axis=0))
    out = pnp.sum(xlogy(alpha - 1.0, x), axis=0) - log_norm
    tol = 8 * k * float(np.finfo(dt).eps)
    on_simplex = pnp.all(x >= 0, axis=0) & (pnp.abs(pnp.sum(x, axis=0) - 1.0) <= tol)
    return pnp.where(on_simplex, out, -np.inf)


def pdf(x: Any, alpha: Any) -> Any:
    """density at x."""
    return pnp.exp(logpdf(x, alpha))


__all__ = ["logpdf", "pdf"]
