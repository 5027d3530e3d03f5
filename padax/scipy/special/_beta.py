"""The beta family: betaln, beta, betainc (the regularised incomplete beta function), comb.

betaln avoids the cancellation of lgamma(a) + lgamma(b) - lgamma(a + b) when an argument is
large: the Stirling parts are combined analytically (log1p of the ratio of the arguments) and
only the small Stirling corrections are subtracted.

betainc uses the continued fraction of I_x(a, b) (modified Lentz) on the side of the mean
where it converges fast, I_x(a, b) = 1 - I_{1-x}(b, a) on the other. Its x-derivative is the
Beta density; the derivatives in a and b are forward-mode derivatives of the continued fraction.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from padax import custom_jvp, dtypes, jvp, lax, numpy as pnp
from padax.core.errors import op_value_error
from padax.scipy.special._base import (
    LOG_SQRT_2PI,
    any_true,
    elementwise,
    eps,
    full_like,
    inexact_args,
    stirling_correction,
    while_loop,
)
from padax.scipy.special._gamma import _gamma_fn, _rgamma_fn

_MAX_ITER = 3000


def _betaln_impl(a, b):
    lo, hi = pnp.minimum(a, b), pnp.maximum(a, b)
    # both small: plain lgammas
    direct = lax.lgamma(lo) + lax.lgamma(hi) - lax.lgamma(lo + hi)
    big_hi = hi >= 10.0
    h = pnp.where(big_hi, hi, 10.0)
    l_any = pnp.where(big_hi, lo, 1.0)
    # hi large: lgamma(hi) - lgamma(lo + hi) from the Stirling series, no cancellation
    ratio = l_any / h
    diff_hl = (stirling_correction(h) - stirling_correction(h + l_any) - l_any * pnp.log(h)
               - (l_any + h - 0.5) * pnp.log1p(ratio) + l_any)
    one_big = lax.lgamma(l_any) + diff_hl
    # both large: everything from the Stirling series
    big_lo = lo >= 10.0
    l = pnp.where(big_lo, lo, 10.0)
    h2 = pnp.where(big_lo, hi, 20.0)
    both = (LOG_SQRT_2PI - 0.5 * pnp.log(h2) - (l - 0.5) * pnp.log1p(h2 / l) - h2 * pnp.log1p(l / h2)
            + stirling_correction(l) + stirling_correction(h2) - stirling_correction(l + h2))
    out = pnp.where(big_lo, both, pnp.where(big_hi, one_big, direct))
    return out


_betaln_kernel = elementwise("betaln", _betaln_impl)


@custom_jvp
def _betaln(a, b):
    return _betaln_kernel(a, b)


@_betaln.defjvp
def _betaln_jvp(primals, tangents):
    (a, b), (ta, tb) = primals, tangents
    dab = lax.digamma(a + b)
    return _betaln(a, b), (lax.digamma(a) - dab) * ta + (lax.digamma(b) - dab) * tb


def betaln(a: Any, b: Any) -> Any:
    """log|B(a, b)| (accurate also when a or b is large).

    Args:
        a, b: real arrays broadcast together.

    Returns:
        An array of the function's values with the broadcast shape of the inputs (floating; integers become float32).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> float(special.betaln(10.0, 20.0))
        -19.1153
    """
    a, b = inexact_args("betaln", a, b)
    return _betaln(a, b)


def beta(a: Any, b: Any) -> Any:
    """The beta function B(a, b) = Gamma(a) Gamma(b) / Gamma(a + b).

    Args:
        a, b: real arrays broadcast together.

    Returns:
        An array of the function's values with the broadcast shape of the inputs (floating; integers become float32).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> float(special.beta(2.0, 3.0))
        0.0833
    """
    a, b = inexact_args("beta", a, b)
    pos = (a > 0) & (b > 0)
    via_log = pnp.exp(_betaln(pnp.where(pos, a, 1.0), pnp.where(pos, b, 1.0)))
    return pnp.where(pos, via_log, _gamma_fn(a) * _gamma_fn(b) * _rgamma_fn(a + b))


def _betacf(a, b, x, enabled):
    """The continued fraction of I_x(a, b) (without its prefactor), elementwise."""
    tol = eps(x)
    tiny = float(np.finfo(x.aval.dtype).tiny) * 16

    def clamp(v):
        return pnp.where(pnp.abs(v) < tiny, tiny, v)

    def cond(c):
        return (c[0] < _MAX_ITER) & any_true(c[-1])

    def body(c):
        i, cc, d, h, busy = c
        m = lax.convert_element_type(i, x.aval.dtype) + 1.0
        m2 = m + m
        aa = m * (b - m) * x / ((a - 1.0 + m2) * (a + m2))
        d = 1.0 / clamp(1.0 + aa * d)
        cc = clamp(1.0 + aa / cc)
        h1 = h * d * cc
        aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + 1.0 + m2))
        d = 1.0 / clamp(1.0 + aa * d)
        cc = clamp(1.0 + aa / cc)
        delta = d * cc
        h = pnp.where(busy, h1 * delta, h)
        busy = busy & (pnp.abs(delta - 1.0) > tol)
        return i + 1, cc, d, h, busy

    d0 = 1.0 / clamp(1.0 - (a + b) * x / (a + 1.0))
    init = (lax.convert_element_type(np.int32(0), dtypes.int32), full_like(x, 1.0), d0, d0, enabled)
    return while_loop(cond, body, init)[3]


def _betainc_impl(a, b, x):
    valid = (a > 0) & (b > 0) & (x >= 0) & (x <= 1)
    interior = valid & (x > 0) & (x < 1)
    flip = x > (a + 1.0) / (a + b + 2.0)
    aa, bb = pnp.where(interior & flip, b, a), pnp.where(interior & flip, a, b)
    aa, bb = pnp.where(interior, aa, 1.0), pnp.where(interior, bb, 1.0)
    xs = pnp.where(interior, x, 0.5)
    xx = pnp.where(flip, 1.0 - xs, xs)
    # log(xx) and log(1 - xx) from the original x (1 - x itself is rounded)
    log_x, log_1mx = pnp.log(xs), pnp.log1p(-xs)
    log_front = (aa * pnp.where(flip, log_1mx, log_x) + bb * pnp.where(flip, log_x, log_1mx)
                 - _betaln_impl(aa, bb))
    part = pnp.exp(log_front) * _betacf(aa, bb, xx, interior) / aa
    out = pnp.where(flip, 1.0 - part, part)
    out = pnp.where(valid & (x == 0), 0.0, pnp.where(valid & (x == 1), 1.0, out))
    # a zero parameter puts all the mass at one end (scipy's limits): a = 0 -> 1, b = 0 -> 0
    in_unit = (x >= 0) & (x <= 1)
    out = pnp.where((a == 0) & (b > 0) & in_unit, pnp.where(x == 0, 0.0, 1.0), out)
    out = pnp.where((b == 0) & (a > 0) & in_unit, pnp.where(x == 1, 1.0, 0.0), out)
    return pnp.where(valid | (((a == 0) ^ (b == 0)) & (a >= 0) & (b >= 0) & in_unit), out, np.nan)


_betainc_kernel = elementwise("betainc", _betainc_impl)


@custom_jvp
def _betainc(a, b, x):
    return _betainc_kernel(a, b, x)


@_betainc.defjvp
def _betainc_jvp(primals, tangents):
    (a, b, x), (ta, tb, tx) = primals, tangents
    out = _betainc(a, b, x)
    dx = pnp.exp((a - 1.0) * pnp.log(x) + (b - 1.0) * pnp.log1p(-x) - _betaln(a, b))
    one, zero = full_like(a, 1.0), full_like(a, 0.0)
    _, da = jvp(_betainc_impl, (a, b, x), (one, zero, zero))
    _, db = jvp(_betainc_impl, (a, b, x), (zero, one, zero))
    return out, da * ta + db * tb + dx * tx


def betainc(a: Any, b: Any, x: Any) -> Any:
    """The regularised incomplete beta function I_x(a, b) (a, b > 0, 0 <= x <= 1).

    Args:
        a, b: the shape parameters (> 0).
        x: the upper limit of integration, in [0, 1]; all three broadcast together.

    Returns:
        An array of the function's values with the broadcast shape of the inputs (floating; integers become float32).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> float(special.betainc(2.0, 3.0, 0.5))
        0.6875
    """
    a, b, x = inexact_args("betainc", a, b, x)
    return _betainc(a, b, x)


def comb(N: Any, k: Any, exact: bool = False, repetition: bool = False) -> Any:
    """The number of k-combinations of N things, as floats (0 where k > N or either is negative).

    Args:
        N: the number of things.
        k: the number of elements taken, broadcast with N.
        exact: must be False (exact Python-integer results are not available for arrays).
        repetition: count combinations with repetition (C(N + k - 1, k)).

    Returns:
        An array of counts with the broadcast shape of the inputs (floating; integers become float32).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> float(special.comb(5.0, 2.0))
        10.0
    """
    if exact:
        raise op_value_error("comb", "exact=True (Python integers) has no array form; use exact=False")
    N, k = inexact_args("comb", N, k)
    if repetition:
        N = N + k - 1.0
    ok = (k >= 0) & (N >= 0) & (k <= N)
    n_s, k_s = pnp.where(ok, N, 1.0), pnp.where(ok, k, 0.0)
    # C(N, k) = 1 / ((N + 1) B(N - k + 1, k + 1))
    val = pnp.exp(-_betaln(n_s - k_s + 1.0, k_s + 1.0)) / (n_s + 1.0)
    return pnp.where(ok, val, 0.0)


__all__ = ["betaln", "beta", "betainc", "comb"]
