"""zeta (Riemann and Hurwitz), bernoulli numbers, and the exponential integrals expn / exp1.

The Riemann zeta function below 1 comes from Borwein's alternating-series algorithm on (0, 1)
and from the reflection formula (in log space) below 0; at and above 1, and for Hurwitz
zeta(x, q), from XLA's zeta. E_n(x) uses its power series for x <= 1 and its continued
fraction (modified Lentz) beyond.
"""
from __future__ import annotations

import functools
from fractions import Fraction
from math import factorial
from typing import Any

import numpy as np

from padax import custom_jvp, dtypes, lax, numpy as pnp
from padax.numpy import _dtypes as D
from padax.scipy.special._base import (
    EULER,
    any_true,
    elementwise,
    eps,
    full_like,
    inexact_args,
    static_order,
    while_loop,
)
from padax.scipy.special._gamma import _sin_pi

_LOG2, _LOG_PI = 0.69314718055994530942, 1.14472988584940017414
_BORWEIN_N = 24      # terms: error about 3 / (3 + sqrt 8)**n < 1e-18


@functools.lru_cache(maxsize=None)
def _borwein_weights() -> tuple[float, ...]:
    """(-1)**k (d_k - d_n) / d_n of Borwein's algorithm for eta(s) = (1 - 2**(1-s)) zeta(s)."""
    n = _BORWEIN_N
    d, acc = [], Fraction(0)
    for i in range(n + 1):
        acc += Fraction(n * factorial(n + i - 1) * 4 ** i, factorial(n - i) * factorial(2 * i))
        d.append(acc)
    return tuple(float((-1) ** k * (d[k] - d[n]) / d[n]) for k in range(n))


def _zeta_strip(s):
    """zeta(s) for 0 <= s < 1 (Borwein): eta(s) = -sum_k w_k / (k+1)**s, zeta = eta / (1 - 2**(1-s))."""
    eta = full_like(s, 0.0)
    for k, w in enumerate(_borwein_weights()):
        eta = eta - w * pnp.exp(-s * float(np.log(k + 1.0)))
    return eta / (-pnp.expm1((1.0 - s) * _LOG2))


def _riemann_impl(s):
    one = full_like(s, 1.0)
    above = s >= 1.0
    direct = lax.zeta(pnp.where(above, s, 2.0), one)
    strip = (s >= 0.0) & (s < 1.0)
    in_strip = _zeta_strip(pnp.where(strip, s, 0.5))
    # s < 0: zeta(s) = 2**s pi**(s-1) sin(pi s / 2) Gamma(1 - s) zeta(1 - s), magnitudes in log space
    neg = s < 0.0
    sn = pnp.where(neg, s, -1.0)
    log_mag = (sn * _LOG2 + (sn - 1.0) * _LOG_PI + lax.lgamma(1.0 - sn)
               + pnp.log(lax.zeta(1.0 - sn, one)))
    reflected = _sin_pi(0.5 * sn) * pnp.exp(log_mag)
    out = pnp.where(above, direct, pnp.where(strip, in_strip, reflected))
    return pnp.where(pnp.isnan(s), np.nan, out)


_riemann = elementwise("zeta", _riemann_impl)


def zeta(x: Any, q: Any = None) -> Any:
    """The Hurwitz zeta function sum_n (n + q)**-x (x > 1), or Riemann's zeta (q=None, any x != 1).

    Differentiable in q; the derivative in x is not implemented (an error, as in jax).

    Args:
        x: the exponent.
        q: the shift (q > 0), broadcast with x; None gives Riemann's zeta.

    Returns:
        An array of the function's values with the broadcast shape of the inputs (floating; integers become float32).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.zeta(padax.to_tensor([2.0, 4.0])).tolist()
        [1.6449, 1.0823]
    """
    if q is None:
        x, = inexact_args("zeta", x)
        return _riemann(x)
    x, q = inexact_args("zeta", x, q)
    return lax.zeta(x, q)


@functools.lru_cache(maxsize=None)
def _bernoulli_numbers(n: int) -> tuple[Fraction, ...]:
    b = [Fraction(1)]
    for m in range(1, n + 1):   # sum_{k<=m} C(m+1, k) B_k = 0
        s = Fraction(0)
        c = 1
        for k in range(m):
            s += c * b[k]
            c = c * (m + 1 - k) // (k + 1)
        b.append(-s / (m + 1))
    return tuple(b)


def bernoulli(n: int) -> Any:
    """The Bernoulli numbers B_0 .. B_n (n a Python int; B_1 = -1/2, as scipy).

    Args:
        n: the largest index, a Python int (n >= 0).

    Returns:
        A 1-D array of the n + 1 numbers B_0 .. B_n in the default float dtype.

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.bernoulli(4).tolist()
        [1.0, -0.5, 0.1667, 0.0, -0.0333]
    """
    n = static_order("bernoulli", n)
    vals = np.array([float(b) for b in _bernoulli_numbers(n)])
    return pnp.asarray(vals, dtype=D.default_float())


def _expn_series(n, x):
    """E_n(x) for 0 < x <= 1 by its power series (the k = n-1 term carries the logarithm)."""
    tol = eps(x)
    nm1 = n - 1.0
    first = pnp.where(nm1 != 0, 1.0 / pnp.where(nm1 != 0, nm1, 1.0), -pnp.log(x) - EULER)
    psi_n = lax.digamma(pnp.where(n > 0, n, 1.0))

    def cond(c):
        return (c[0] < 200) & any_true(c[-1])

    def body(c):
        i, fact, total, busy = c
        k = lax.convert_element_type(i, x.aval.dtype) + 1.0
        fact = fact * (-x / k)
        special = k == nm1
        delta = pnp.where(special, fact * (-pnp.log(x) + psi_n), -fact / pnp.where(special, 1.0, k - nm1))
        total_new = total + delta
        busy_next = busy & ((pnp.abs(delta) > tol * pnp.abs(total_new)) | (k < nm1))
        return i + 1, fact, pnp.where(busy, total_new, total), busy_next

    init = (lax.convert_element_type(np.int32(0), dtypes.int32), full_like(x, 1.0), first,
            full_like(x, 1.0) > 0)
    return while_loop(cond, body, init)[2]


def _expn_cf(n, x):
    """E_n(x) for x > 1 by its continued fraction (modified Lentz), times e**x."""
    tol = eps(x)
    big = 1.0 / (float(np.finfo(x.aval.dtype).tiny) * 16)

    def cond(c):
        return (c[0] < 500) & any_true(c[-1])

    def body(c):
        i, b, cc, d, h, busy = c
        k = lax.convert_element_type(i, x.aval.dtype) + 1.0
        a = -k * (n - 1.0 + k)
        b = b + 2.0
        d = 1.0 / (a * d + b)
        cc = b + a / cc
        delta = cc * d
        return i + 1, b, cc, d, pnp.where(busy, h * delta, h), busy & (pnp.abs(delta - 1.0) > tol)

    b0 = x + n
    init = (lax.convert_element_type(np.int32(0), dtypes.int32), b0, full_like(x, big), 1.0 / b0, 1.0 / b0,
            full_like(x, 1.0) > 0)
    return while_loop(cond, body, init)[4]


def _expn_impl(n, x):
    valid = (n >= 0) & (n == pnp.floor(n)) & (x >= 0)
    small = x <= 1.0
    n_s = pnp.where(small & (n >= 1), n, 1.0)
    series = _expn_series(n_s, pnp.where(small & (x > 0), x, 0.5))
    cf = _expn_cf(pnp.where(small, 1.0, n), pnp.where(small, 2.0, x)) * pnp.exp(-x)
    out = pnp.where(small, series, cf)
    xs = pnp.where(x > 0, x, 1.0)
    out = pnp.where(n == 0, pnp.exp(-x) / xs, out)
    out = pnp.where(x == 0, pnp.where(n > 1, 1.0 / pnp.where(n > 1, n - 1.0, 1.0), np.inf), out)
    return pnp.where(valid, out, np.nan)


_expn_kernel = elementwise("expn", _expn_impl)


@custom_jvp
def _expn(n, x):
    return _expn_kernel(n, x)


@_expn.defjvp
def _expn_jvp(primals, tangents):
    (n, x), (tn, tx) = primals, tangents
    # d/dx E_n = -E_{n-1} (E_0 = e**-x / x has d/dx E_0 = -E_0 (1 + 1/x)); n is an integer
    out = _expn(n, x)
    d = pnp.where(n == 0, -out * (1.0 + 1.0 / x), -_expn(pnp.maximum(n - 1.0, 0.0), x))
    return out, d * tx


def expn(n: Any, x: Any) -> Any:
    """The generalised exponential integral E_n(x) = int_1^inf e**(-x t) / t**n dt (integer n >= 0).

    Args:
        n: the integer order (n >= 0).
        x: the argument (x >= 0), broadcast with n.

    Returns:
        An array of the function's values with the broadcast shape of the inputs (floating; integers become float32).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.expn(2, padax.to_tensor([0.5, 1.0])).tolist()
        [0.3266, 0.1485]
    """
    n, x = inexact_args("expn", n, x)
    return _expn(n, x)


def exp1(x: Any) -> Any:
    """The exponential integral E_1(x) (x > 0).

    Args:
        x: the argument (x > 0).

    Returns:
        An array of the same shape (float32 for integer input, else the input's floating dtype).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.exp1(padax.to_tensor([0.5, 1.0])).tolist()
        [0.5598, 0.2194]
    """
    x, = inexact_args("exp1", x)
    return _expn(full_like(x, 1.0), x)


__all__ = ["zeta", "bernoulli", "expn", "exp1"]
