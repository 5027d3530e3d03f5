"""`padax.scipy.special`: special functions with SciPy's names and signatures (as jax.scipy.special)."""
from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from padax import lax
from padax.numpy._util import promote_broadcast, to_inexact


def _inexact(*xs: Any) -> list[Any]:
    """The arguments promoted together and broadcast, integers and bools as the default float."""
    out = promote_broadcast("padax.scipy.special", *[to_inexact(x) for x in xs])
    return out


def _const(x: Any, v: float) -> Any:
    from padax.functional._arrays import full
    return full(x.aval.shape, v, x.aval.dtype)


def erf(x: Any) -> Any:
    """The error function."""
    return lax.erf(to_inexact(x))


def erfc(x: Any) -> Any:
    """1 - erf(x), accurate for large x."""
    return lax.erfc(to_inexact(x))


def erfinv(x: Any) -> Any:
    """The inverse of erf on (-1, 1)."""
    return lax.erf_inv(to_inexact(x))


def gammaln(x: Any) -> Any:
    """log|Gamma(x)|."""
    return lax.lgamma(to_inexact(x))


def digamma(x: Any) -> Any:
    """d/dx log Gamma(x)."""
    return lax.digamma(to_inexact(x))


def expit(x: Any) -> Any:
    """The logistic sigmoid 1 / (1 + exp(-x))."""
    return lax.logistic(to_inexact(x))


def logit(x: Any) -> Any:
    """log(x / (1 - x))."""
    x = to_inexact(x)
    return lax.log(lax.div(x, lax.sub(_const(x, 1.0), x)))


def xlogy(x: Any, y: Any) -> Any:
    """x * log(y), 0 where x == 0."""
    x, y = _inexact(x, y)
    zero = _const(x, 0.0)
    return lax.select(lax.eq(x, zero), zero, lax.mul(x, lax.log(y)))


def xlog1py(x: Any, y: Any) -> Any:
    """x * log1p(y), 0 where x == 0."""
    x, y = _inexact(x, y)
    zero = _const(x, 0.0)
    return lax.select(lax.eq(x, zero), zero, lax.mul(x, lax.log1p(y)))


def ndtr(x: Any) -> Any:
    """The standard normal CDF."""
    x = to_inexact(x)
    return lax.mul(_const(x, 0.5), lax.erfc(lax.mul(x, _const(x, -1.0 / np.sqrt(2.0)))))


def ndtri(p: Any) -> Any:
    """The inverse of the standard normal CDF."""
    p = to_inexact(p)
    return lax.mul(_const(p, np.sqrt(2.0)), lax.erf_inv(lax.sub(lax.mul(_const(p, 2.0), p), _const(p, 1.0))))


def logsumexp(a: Any, axis: Any = None, b: Any = None, keepdims: builtins.bool = False,
              return_sign: builtins.bool = False) -> Any:
    """log(sum(b * exp(a))) over `axis`, computed without overflow; with return_sign, also the
    sign of the sum (then the log is of its absolute value)."""
    import padax.numpy as pnp
    a = to_inexact(a)
    if b is not None:
        a, b = _inexact(a, b)
    amax = pnp.max(a, axis=axis, keepdims=True)
    finite = pnp.isfinite(amax)
    amax = lax.stop_gradient(pnp.where(finite, amax, pnp.zeros_like(amax)))
    e = pnp.exp(a - amax)
    if b is not None:
        e = e * b
    s = pnp.sum(e, axis=axis, keepdims=keepdims)
    shift = amax if keepdims else pnp.squeeze(amax, axis=axis)
    if not return_sign:
        return pnp.log(s) + shift
    return pnp.log(pnp.abs(s)) + shift, pnp.sign(s)


__all__ = ["erf", "erfc", "erfinv", "gammaln", "digamma", "expit", "logit", "xlogy", "xlog1py", "ndtr", "ndtri",
           "logsumexp"]
