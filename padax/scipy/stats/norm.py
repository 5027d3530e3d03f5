"""The normal distribution: `padax.scipy.stats.norm.logpdf(x, loc=0, scale=1)` and friends."""
from __future__ import annotations

from typing import Any

import numpy as np

from padax import lax
from padax.scipy.special import _const, _inexact, ndtr, ndtri


def _z(x: Any, loc: Any, scale: Any) -> tuple[Any, Any]:
    x, loc, scale = _inexact(x, loc, scale)
    return lax.div(lax.sub(x, loc), scale), scale


def logpdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """log of the density at x."""
    z, scale = _z(x, loc, scale)
    half_z2 = lax.mul(_const(z, 0.5), lax.mul(z, z))
    return lax.neg(lax.add(lax.add(half_z2, lax.log(scale)), _const(z, 0.5 * np.log(2 * np.pi))))


def pdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The density at x."""
    return lax.exp(logpdf(x, loc, scale))


def cdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """P(X <= x)."""
    return ndtr(_z(x, loc, scale)[0])


def sf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """P(X > x) (1 - cdf, accurate in the upper tail)."""
    return ndtr(lax.neg(_z(x, loc, scale)[0]))


def ppf(q: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The quantile function (inverse of cdf)."""
    q, loc, scale = _inexact(q, loc, scale)
    return lax.add(loc, lax.mul(scale, ndtri(q)))


__all__ = ["logpdf", "pdf", "cdf", "sf", "ppf"]
