"""Error functions and the normal distribution: erf, erfc, erfinv, erfcinv, erfcx, ndtr, log_ndtr, ndtri.

erfcx(x) = exp(x**2) erfc(x) is a Chebyshev series in t = (x - K)/(x + K) for x >= 0 (smooth up
to x = inf) and 2 exp(x**2) - erfcx(-x) below, with exp(x**2) from an exact split of x**2.
The lower tail of the normal CDF goes through erfcx, so ndtr and log_ndtr keep full relative
precision down to the smallest floats; ndtri refines a first guess with Halley steps on
log_ndtr, which keeps its relative precision for p down to the smallest subnormal.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from padax import custom_jvp, lax, numpy as pnp
from padax.functional._arrays import aval_of
from padax.scipy.special import _tables as T
from padax.scipy.special._base import LOG_SQRT_2PI, chebyshev, elementwise, inexact_args

_SQRT1_2 = 0.70710678118654752440
_SQRT2 = 1.41421356237309504880
_TWO_OVER_SQRT_PI = 1.12837916709551257390


def erf(x: Any) -> Any:
    """The error function.

    Args:
        x: real input array (or scalar).

    Returns:
        An array of the same shape (float32 for integer input, else the input's floating dtype).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.erf(padax.to_tensor([0.0, 0.5, 1.0])).tolist()
        [0.0, 0.5205, 0.8427]
    """
    x, = inexact_args("erf", x)
    return lax.erf(x)


def _erfc_impl(x):
    """erfc, through erfcx(x) exp(-x**2) (x**2 split exactly) in the upper tail."""
    tail = x > 0.5
    xt = pnp.where(tail, x, 1.0)
    out = pnp.where(tail, _erfcx_impl(xt) * exp_square(xt, -1.0), lax.erfc(x))
    return pnp.where(x == np.inf, 0.0, out)


_erfc_kernel = elementwise("erfc", lambda x: _erfc_impl(x))


@custom_jvp
def _erfc(x):
    return _erfc_kernel(x)


@_erfc.defjvp
def _erfc_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return _erfc(x), -_TWO_OVER_SQRT_PI * exp_square(x, -1.0) * t


def erfc(x: Any) -> Any:
    """The complementary error function 1 - erf(x) (relatively accurate in the upper tail).

    Args:
        x: real input array (or scalar).

    Returns:
        An array of the same shape (float32 for integer input, else the input's floating dtype).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.erfc(padax.to_tensor([0.0, 0.5, 1.0])).tolist()
        [1.0, 0.4795, 0.1573]
    """
    x, = inexact_args("erfc", x)
    return _erfc(x)


def erfinv(y: Any) -> Any:
    """The inverse of erf on (-1, 1).

    Args:
        y: values in (-1, 1).

    Returns:
        An array of the same shape (float32 for integer input, else the input's floating dtype).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.erfinv(padax.to_tensor([0.0, 0.5])).tolist()
        [0.0, 0.4769]
    """
    y, = inexact_args("erfinv", y)
    return lax.erf_inv(y)


def _split(x):
    """x = hi + lo with hi = x's leading half of the mantissa bits (masked, so no arithmetic that a
    compiler could contract into an fma), which makes hi * hi exact."""
    if aval_of(x).dtype == np.float64:
        bits = lax.bitcast_convert_type(x, np.dtype(np.uint64))
        hi = lax.bitcast_convert_type(bits & np.uint64(0xFFFFFFFFF8000000), np.dtype(np.float64))
    else:
        bits = lax.bitcast_convert_type(x, np.dtype(np.uint32))
        hi = lax.bitcast_convert_type(bits & np.uint32(0xFFFFF000), np.dtype(np.float32))
    return hi, x - hi


def exp_square(x, sign: float = 1.0):
    """exp(sign * x**2) without the rounding error of x**2 (it grows with x**2 otherwise)."""
    hi, lo = _split(x)
    big = pnp.exp(sign * (hi * hi))
    # big * exp(small) as big + big * expm1(small): XLA would fold exp(a) * exp(b) into exp(a + b)
    return big + big * pnp.expm1(sign * (lo * (hi + hi + lo)))


def _erfcx_positive(x):
    t = (x - T.ERFCX_K) / (x + T.ERFCX_K)
    return chebyshev(t, T.ERFCX) / (1.0 + 2.0 * x)


def _erfcx_impl(x):
    ax = pnp.abs(x)
    pos = _erfcx_positive(ax)
    neg = 2.0 * exp_square(x) - pos
    out = pnp.where(x >= 0, pos, neg)
    out = pnp.where(x == np.inf, 0.0, pnp.where(x == -np.inf, np.inf, out))
    return pnp.where(pnp.isnan(x), np.nan, out)


_erfcx_kernel = elementwise("erfcx", _erfcx_impl)


@custom_jvp
def _erfcx(x):
    return _erfcx_kernel(x)


@_erfcx.defjvp
def _erfcx_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    out = _erfcx(x)
    return out, (2.0 * x * out - _TWO_OVER_SQRT_PI) * t


def erfcx(x: Any) -> Any:
    """The scaled complementary error function exp(x**2) erfc(x).

    Args:
        x: real input array (or scalar).

    Returns:
        An array of the same shape (float32 for integer input, else the input's floating dtype).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.erfcx(padax.to_tensor([0.0, 10.0])).tolist()
        [1.0, 0.0561]
    """
    x, = inexact_args("erfcx", x)
    return _erfcx(x)


def _ndtr_impl(x):
    z = x * _SQRT1_2
    central = 0.5 + 0.5 * lax.erf(z)
    upper = 1.0 - _lower_tail(pnp.where(x > 1.0, -x, -2.0))
    lower = _lower_tail(pnp.where(x < -1.0, x, -2.0))
    out = pnp.where(x < -1.0, lower, pnp.where(x > 1.0, upper, central))
    return pnp.where(x == -np.inf, 0.0, pnp.where(x == np.inf, 1.0, out))


def _lower_tail(x):
    """ndtr(x) for x < -1 through erfcx (no underflow or rounding of x**2 before the end)."""
    return 0.5 * _erfcx_impl(-x * _SQRT1_2) * exp_square(x, -0.5)


_ndtr_kernel = elementwise("ndtr", _ndtr_impl)


def _log_pdf(x):
    return -0.5 * x * x - LOG_SQRT_2PI


@custom_jvp
def _ndtr(x):
    return _ndtr_kernel(x)


@_ndtr.defjvp
def _ndtr_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return _ndtr(x), pnp.exp(_log_pdf(x)) * t


def ndtr(x: Any) -> Any:
    """The standard normal CDF (relatively accurate in both tails).

    Args:
        x: real input array (or scalar).

    Returns:
        An array of the same shape (float32 for integer input, else the input's floating dtype).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.ndtr(padax.to_tensor([-1.0, 0.0, 1.96])).tolist()
        [0.1587, 0.5, 0.975]
    """
    x, = inexact_args("ndtr", x)
    return _ndtr(x)


def _log_ndtr_impl(x):
    lower = pnp.log(0.5 * _erfcx_impl(-x * _SQRT1_2)) - 0.5 * x * x
    mid = pnp.log(_ndtr_impl(x))
    upper = pnp.log1p(-_lower_tail(pnp.where(x > 1.0, -x, -2.0)))
    out = pnp.where(x < -1.0, lower, pnp.where(x > 1.0, upper, mid))
    return pnp.where(x == -np.inf, -np.inf, pnp.where(x == np.inf, 0.0, out))


_log_ndtr_kernel = elementwise("log_ndtr", _log_ndtr_impl)


@custom_jvp
def _log_ndtr(x):
    return _log_ndtr_kernel(x)


@_log_ndtr.defjvp
def _log_ndtr_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    out = _log_ndtr(x)
    return out, pnp.exp(_log_pdf(x) - out) * t


def log_ndtr(x: Any, series_order: int = 3) -> Any:
    """log of the standard normal CDF (accurate for x down to about -1e154).

    `series_order` is accepted for jax's signature; the lower tail is computed from erfcx
    instead of an asymptotic series, so it has no effect.

    Args:
        x: real input array (or scalar).
        series_order: accepted for jax compatibility; ignored.

    Returns:
        An array of the same shape (float32 for integer input, else the input's floating dtype).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.log_ndtr(padax.to_tensor([-10.0, 0.0])).tolist()
        [-53.2313, -0.6931]
    """
    x, = inexact_args("log_ndtr", x)
    return _log_ndtr(x)


def _ndtri_impl(p):
    q = pnp.minimum(p, 1.0 - p)                      # solve in the lower half, mirror back
    qs = pnp.where((q > 0) & (q <= 0.5), q, 0.25)
    # first guess: erf_inv in the middle, Abramowitz & Stegun 26.2.23 (|error| < 4.5e-4) in the tail
    t = pnp.sqrt(-2.0 * pnp.log(qs))
    tail = -(t - (2.515517 + 0.802853 * t + 0.010328 * t * t)
             / (1.0 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t))
    mid = _SQRT2 * lax.erf_inv(2.0 * qs - 1.0)
    x = pnp.where(qs > 0.1, mid, tail)
    log_q = pnp.log(qs)
    for _ in range(3):                               # Halley on f(x) = log_ndtr(x) - log q (cubic)
        lc = _log_ndtr_impl(x)
        f = lc - log_q
        d1 = pnp.exp(_log_pdf(x) - lc)
        d2 = -d1 * (x + d1)
        step = f / d1 / (1.0 - f * d2 / (2.0 * d1 * d1))
        x = pnp.where(qs > 0.1, x, x - step)
    x = pnp.where(p > 0.5, -x, x)
    x = pnp.where(q == 0, pnp.where(p > 0.5, np.inf, -np.inf), x)
    x = pnp.where(p == 0.5, 0.0, x)
    return pnp.where((p < 0) | (p > 1) | pnp.isnan(p), np.nan, x)


_ndtri_kernel = elementwise("ndtri", _ndtri_impl)


@custom_jvp
def _ndtri(p):
    return _ndtri_kernel(p)


@_ndtri.defjvp
def _ndtri_jvp(primals, tangents):
    (p,), (t,) = primals, tangents
    x = _ndtri(p)
    return x, pnp.exp(-_log_pdf(x)) * t


def ndtri(p: Any) -> Any:
    """The inverse of the standard normal CDF (the normal quantile function).

    Args:
        p: probabilities in (0, 1).

    Returns:
        An array of the same shape (float32 for integer input, else the input's floating dtype).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.ndtri(padax.to_tensor([0.025, 0.5])).tolist()
        [-1.96, 0.0]
    """
    p, = inexact_args("ndtri", p)
    return _ndtri(p)


def erfcinv(y: Any) -> Any:
    """The inverse of erfc on (0, 2), precise for tiny y.

    Args:
        y: values in (0, 2).

    Returns:
        An array of the same shape (float32 for integer input, else the input's floating dtype).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.erfcinv(padax.to_tensor([0.5, 1.0])).tolist()
        [0.4769, 0.0]
    """
    y, = inexact_args("erfcinv", y)
    return -_ndtri(0.5 * y) * _SQRT1_2


__all__ = ["erf", "erfc", "erfinv", "erfcinv", "erfcx", "ndtr", "log_ndtr", "ndtri", "exp_square"]
