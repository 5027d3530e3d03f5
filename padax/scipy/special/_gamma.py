"""The gamma family: gammaln, digamma, polygamma, gamma, rgamma, gammasgn, multigammaln, poch,
factorial, and the regularised incomplete gamma functions gammainc / gammaincc.

gammainc(a, x) = P(a, x) and gammaincc(a, x) = Q(a, x) = 1 - P use the power series of P
where x <= max(1, a) and the continued fraction of Q (modified Lentz) elsewhere, each in one
vectorised while loop. Their common factor x**a e**-x / Gamma(a) is computed, for a >= 10, as
exp(a log1pmx((x - a)/a) + log(a)/2 - log sqrt(2 pi) - stirling(a)), which keeps full relative
precision where a log x, x and lgamma(a) are large and nearly cancel.

Derivatives: dP/dx = x**(a-1) e**-x / Gamma(a); dP/da by implicit differentiation of the
series and continued fraction (the quantity padax.random's Gamma sampler uses for its
reparameterisation gradient), whose own x-derivative is closed-form and a-derivative is
forward-mode differentiated through those loops: gradients to any order in x, and
second order in a.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from padax import custom_jvp, dtypes, jvp, lax, numpy as pnp
from padax.core.errors import op_value_error
from padax.functional._arrays import aval_of
from padax.random._gamma_grad import gamma_log_sample_grad
from padax.scipy.special import _tables as T
from padax.scipy.special._base import (
    LOG_SQRT_2PI,
    any_true,
    elementwise,
    eps,
    full_like,
    inexact_args,
    log1pmx,
    polyval,
    static_order,
    stirling_correction,
    while_loop,
)

_MAX_ITER = 2000
_SQRT_2PI = 2.50662827463100050242


# ---- gamma, log-gamma and friends ------------------------------------------------------------------

def gammaln(x: Any) -> Any:
    """log|Gamma(x)|.

    Args:
        x: real input array (or scalar).

    Returns:
        An array of the same shape (float32 for integer input, else the input's floating dtype).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.gammaln(padax.to_tensor([0.5, 10.0])).tolist()
        [0.5724, 12.8018]
    """
    x, = inexact_args("gammaln", x)
    return lax.lgamma(x)


def digamma(x: Any) -> Any:
    """psi(x) = d/dx log Gamma(x).

    Args:
        x: real input array (or scalar).

    Returns:
        An array of the same shape (float32 for integer input, else the input's floating dtype).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.digamma(padax.to_tensor([1.0, 2.0])).tolist()
        [-0.5772, 0.4228]
    """
    x, = inexact_args("digamma", x)
    return lax.digamma(x)


psi = digamma


def polygamma(n: Any, x: Any) -> Any:
    """The n-th derivative of digamma at x (n a non-negative integer, broadcast with x).

    Args:
        n: the derivative order (non-negative integers).
        x: real input, broadcast with n.

    Returns:
        An array of the function's values with the broadcast shape of the inputs (floating; integers become float32).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.polygamma(1, padax.to_tensor([1.0, 2.0])).tolist()
        [1.6449, 0.6449]
    """
    n, x = inexact_args("polygamma", n, x)
    return _polygamma(n, x)


def _polygamma_impl(n, x):
    valid = (n >= 0) & (n == pnp.floor(n))
    out = pnp.where(n == 0, lax.digamma(x), lax.polygamma(pnp.where(n == 0, 1.0, n), x))
    return pnp.where(valid, out, np.nan)


_polygamma = elementwise("polygamma", _polygamma_impl)


def _sin_pi(x):
    """sin(pi x) with the argument reduced exactly (x - round(x) is exact)."""
    k = pnp.round(x)
    r = x - k
    odd = pnp.remainder(k, 2.0) != 0
    s = pnp.sin(np.pi * r)
    return pnp.where(odd, -s, s)


def _gamma_large(z):
    """Gamma(z) for z >= 10: sqrt(2 pi) z**(z - 1/2) e**-z e**stirling(z), split to postpone overflow."""
    w = pnp.power(z, 0.5 * z - 0.25) * pnp.exp(-0.5 * z)     # (e**-z underflows before Gamma overflows)
    return (_SQRT_2PI * w) * w * pnp.exp(stirling_correction(z))


def _gamma_positive(x):
    """Gamma(x) for x >= 0.5: shift up to z >= 10 (at most 10 exact-ish products), then Stirling."""
    z, prod = x, full_like(x, 1.0)
    for _ in range(10):
        low = z < 10.0
        prod = pnp.where(low, prod * z, prod)
        z = pnp.where(low, z + 1.0, z)
    return _gamma_large(z) / prod


def _gamma_impl(x):
    reflect = x < 0.5
    # Gamma(1 - x) = -x Gamma(-x): -x is exact where 1 - x would be rounded (x <= -1/2)
    far = x <= -0.5
    xp = pnp.where(reflect, pnp.where(far, -x, 1.0 - x), x)
    g = _gamma_positive(xp)
    g_one_minus = pnp.where(far, -x * g, g)
    refl = np.pi / (_sin_pi(x) * g_one_minus)
    pole = reflect & (x == pnp.floor(x))
    out = pnp.where(reflect, refl, g)
    out = pnp.where(pole, pnp.where(x == 0, pnp.copysign(full_like(x, np.inf), x), np.nan), out)
    overflow = 171.62437695630272 if aval_of(x).dtype == np.float64 else 35.040096
    return pnp.where(x > overflow, np.inf, out)


_gamma_kernel = elementwise("gamma", _gamma_impl)


@custom_jvp
def _gamma_fn(x):
    return _gamma_kernel(x)


@_gamma_fn.defjvp
def _gamma_fn_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    out = _gamma_fn(x)
    return out, out * lax.digamma(x) * t


def gamma(x: Any) -> Any:
    """Gamma(x) (accurate to a few ulp; inf at 0, nan at the negative integers).

    Args:
        x: real input array (or scalar).

    Returns:
        An array of the same shape (float32 for integer input, else the input's floating dtype).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.gamma(padax.to_tensor([0.5, 5.0])).tolist()
        [1.7725, 24.0]
    """
    x, = inexact_args("gamma", x)
    return _gamma_fn(x)


def _rgamma_impl(x):
    pole = (x <= 0) & (x == pnp.floor(x))
    return pnp.where(pole | (x == np.inf), 0.0, 1.0 / _gamma_impl(x))


_rgamma_kernel = elementwise("rgamma", _rgamma_impl)


@custom_jvp
def _rgamma_fn(x):
    return _rgamma_kernel(x)


@_rgamma_fn.defjvp
def _rgamma_fn_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    out = _rgamma_fn(x)
    # d/dx 1/Gamma = -psi(x)/Gamma(x); at the poles (1/Gamma = 0) it is (-1)**(n+1) n!, from the reflection
    pole = (x <= 0) & (x == pnp.floor(x))
    n = pnp.where(pole, -x, 0.0)
    at_pole = pnp.where(pnp.remainder(n, 2.0) == 0, -1.0, 1.0) * pnp.exp(lax.lgamma(n + 1.0))
    d = pnp.where(pole, at_pole, -out * lax.digamma(pnp.where(pole, 1.0, x)))
    return out, d * t


def rgamma(x: Any) -> Any:
    """1 / Gamma(x) (entire: 0 at the non-positive integers).

    Args:
        x: real input array (or scalar).

    Returns:
        An array of the same shape (float32 for integer input, else the input's floating dtype).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.rgamma(padax.to_tensor([-1.0, 0.5, 4.0])).tolist()
        [0.0, 0.5642, 0.1667]
    """
    x, = inexact_args("rgamma", x)
    return _rgamma_fn(x)


def gammasgn(x: Any) -> Any:
    """The sign of Gamma(x) (nan at the poles, as scipy).

    Args:
        x: real input array (or scalar).

    Returns:
        An array of the same shape (float32 for integer input, else the input's floating dtype).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.gammasgn(padax.to_tensor([-0.5, 1.5])).tolist()
        [-1.0, 1.0]
    """
    x, = inexact_args("gammasgn", x)
    neg = x < 0
    pole = neg & (x == pnp.floor(x))
    odd = pnp.remainder(pnp.floor(x), 2.0) != 0
    sgn = pnp.where(neg & odd, -1.0, 1.0)
    sgn = pnp.where(x == 0, pnp.copysign(full_like(x, 1.0), x), sgn)
    return pnp.where(pole | pnp.isnan(x), np.nan, sgn)


def multigammaln(a: Any, d: int) -> Any:
    """log of the multivariate gamma function of dimension d (a Python int).

    Args:
        a: real input array.
        d: the dimension, a Python int.

    Returns:
        An array of the same shape (float32 for integer input, else the input's floating dtype).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> float(special.multigammaln(3.0, 2))
        1.5502
    """
    d = static_order("multigammaln", d)
    a, = inexact_args("multigammaln", a)
    out = full_like(a, d * (d - 1) / 4.0 * 1.14472988584940017414)
    for j in range(d):
        out = out + lax.lgamma(a - j / 2.0)
    return out


def poch(z: Any, m: Any) -> Any:
    """The rising factorial Gamma(z + m) / Gamma(z).

    Args:
        z, m: real arrays broadcast together.

    Returns:
        An array of the function's values with the broadcast shape of the inputs (floating; integers become float32).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> float(special.poch(2.0, 3.0))
        24.0
    """
    z, m = inexact_args("poch", z, m)
    from padax.scipy.special._beta import betaln  # circular: padax.scipy.special._beta imports this module
    # positive arguments: Gamma(m) / B(z, m) through the accurate betaln (no cancellation of lgammas)
    pos = (z > 0) & (m > 0)
    zs, ms = pnp.where(pos, z, 1.0), pnp.where(pos, m, 1.0)
    via_beta = pnp.exp(lax.lgamma(ms) - betaln(zs, ms))
    ratio = gamma(z + m) * rgamma(z)
    return pnp.where(m == 0, 1.0, pnp.where(pos, via_beta, ratio))


def factorial(n: Any, exact: bool = False) -> Any:
    """n! = Gamma(n + 1) as floats (0 for n < 0, as scipy); exact=True is not traceable and refused.

    Args:
        n: the input (integers or reals; negative n gives 0).
        exact: must be False (exact Python-integer results are not available for arrays).

    Returns:
        An array of the same shape (float32 for integer input, else the input's floating dtype).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.factorial(padax.to_tensor([3.0, 5.0])).tolist()
        [6.0, 120.0]
    """
    if exact:
        raise op_value_error("factorial", "exact=True (Python integers) has no array form; use exact=False")
    n, = inexact_args("factorial", n)
    return pnp.where(n < 0, 0.0, gamma(n + 1.0))


# ---- regularised incomplete gamma --------------------------------------------------------------------

def _log_prefactor(a, x):
    """log(x**a e**-x / Gamma(a)), precise for large a through log1pmx and the Stirling series."""
    big = a >= 10.0
    ab = pnp.where(big, a, 10.0)
    d = (x - ab) / ab
    near = pnp.abs(d) < 0.5
    # a (log(x/a) - (x-a)/a): the log1pmx series near x = a, the direct form (no cancellation) elsewhere
    core = pnp.where(near, ab * log1pmx(pnp.where(near, d, 0.0)), ab * pnp.log(x / ab) - (x - ab))
    stirling = core + 0.5 * pnp.log(ab) - LOG_SQRT_2PI - stirling_correction(ab)
    asm = pnp.where(big, 1.0, a)
    plain = asm * pnp.log(x) - x - lax.lgamma(asm)
    return pnp.where(big, stirling, plain)


def _lgamma1p(a):
    """lgamma(1 + a) for |a| <= 1/2 with full relative precision (-log of the Taylor series of
    1/Gamma(1 + a)); lgamma itself loses it near its zero at 1."""
    return -pnp.log1p(a * polyval(T.RGAMMA_TAYLOR[1:], a))


def _upper_series(a, x):
    """Q(a, x) for small x by 1 - x**a / Gamma(a+1) + x**a / Gamma(a) sum_n (-x)**n / (n! (a+n))
    (no cancellation of 1 - P when a is small); x <= 1.1."""
    terms = 22 if a.aval.dtype == np.float64 else 12
    fac = full_like(x, 1.0)
    total = full_like(x, 0.0)
    for n in range(1, terms + 1):
        fac = fac * (-x / n)
        total = total + fac / (a + n)
    logx = pnp.log(x)
    small = pnp.abs(a) <= 0.5
    lg1p = pnp.where(small, _lgamma1p(pnp.where(small, a, 0.0)), lax.lgamma(a + 1.0))
    return -pnp.expm1(a * logx - lg1p) - pnp.exp(a * logx - lg1p + pnp.log(a)) * total


def _series(a, x, enabled):
    """sum_n x**n / (a (a+1) ... (a+n)) * a, the series factor of P (P = e**ax / a * this)."""
    tol = eps(a)

    def cond(c):
        i, _, _, _, busy = c
        return (i < _MAX_ITER) & any_true(busy)

    def body(c):
        i, r, term, total, busy = c
        r = r + 1.0
        term = term * x / r
        total = pnp.where(busy, total + term, total)
        busy = busy & (term > tol * total)
        return i + 1, r, term, total, busy

    one = full_like(a, 1.0)
    init = (lax.convert_element_type(np.int32(0), dtypes.int32), a, one, one, enabled)
    return while_loop(cond, body, init)[3]


def _continued_fraction(a, x, enabled):
    """The continued fraction C of Q = e**ax * C (modified Lentz)."""
    tol = eps(a)
    tiny = float(np.finfo(a.aval.dtype).tiny) * 16

    def cond(c):
        i, _, _, _, _, busy = c
        return (i < _MAX_ITER) & any_true(busy)

    def body(c):
        i, b, cc, d, h, busy = c
        n = lax.convert_element_type(i, a.aval.dtype) + 1.0
        an = -n * (n - a)
        b = b + 2.0
        d = an * d + b
        d = pnp.where(pnp.abs(d) < tiny, tiny, d)
        cc = b + an / cc
        cc = pnp.where(pnp.abs(cc) < tiny, tiny, cc)
        d = 1.0 / d
        delta = d * cc
        h = pnp.where(busy, h * delta, h)
        busy = busy & (pnp.abs(delta - 1.0) > tol)
        return i + 1, b, cc, d, h, busy

    b0 = x + 1.0 - a
    b0 = pnp.where(pnp.abs(b0) < tiny, tiny, b0)
    init = (lax.convert_element_type(np.int32(0), dtypes.int32), b0, full_like(a, 1.0 / tiny), 1.0 / b0,
            1.0 / b0, enabled)
    return while_loop(cond, body, init)[4]


def _igamma_both(a, x):
    """(P, Q) elementwise, each from the side (series or continued fraction) that is accurate."""
    valid = (a >= 0) & (x >= 0)
    interior = valid & (a > 0) & (x > 0) & pnp.isfinite(a) & pnp.isfinite(x)
    use_cf = interior & (x > 1.0) & (x > a)
    use_series = interior & ~use_cf
    # loop inputs outside their region get values that converge at once (discarded below)
    a_s, x_s = pnp.where(use_series, a, 1.0), pnp.where(use_series, x, 0.5)
    a_c, x_c = pnp.where(use_cf, a, 1.0), pnp.where(use_cf, x, 2.0)
    lp = _log_prefactor(pnp.where(interior, a, 1.0), pnp.where(interior, x, 1.0))
    p_series = pnp.exp(lp) / a_s * _series(a_s, x_s, use_series)
    q_cf = pnp.exp(lp) * _continued_fraction(a_c, x_c, use_cf)
    # small x and small a: Q from its own series (scipy's igamc_series region)
    small_x = use_series & (x <= 1.1) & pnp.where(x <= 0.5, a * pnp.log(pnp.where(x > 0, x, 0.5)) >= -0.4,
                                                    a <= 1.1 * x)
    q_small = _upper_series(pnp.where(small_x, a, 1.0), pnp.where(small_x, x, 0.5))
    p = pnp.where(use_cf, 1.0 - q_cf, pnp.where(small_x, 1.0 - q_small, p_series))
    q = pnp.where(use_cf, q_cf, pnp.where(small_x, q_small, 1.0 - p_series))
    # edges: x == 0 -> P = 0 (a > 0); a == 0 -> P = 1 (x > 0); x == inf -> P = 1; a == inf -> P = 0
    one_p = valid & ((x == np.inf) | ((a == 0) & (x > 0)))
    zero_p = valid & ~one_p & ((x == 0) | ((a == np.inf) & pnp.isfinite(x)))
    p = pnp.where(one_p, 1.0, pnp.where(zero_p, 0.0, p))
    q = pnp.where(one_p, 0.0, pnp.where(zero_p, 1.0, q))
    bad = ~valid | pnp.isnan(a) | pnp.isnan(x) | ((a == 0) & (x == 0))
    return pnp.where(bad, np.nan, p), pnp.where(bad, np.nan, q)


# one compiled program gives both P and Q (gammainc and gammaincc share it)
_igamma_kernel = elementwise("igamma", _igamma_both)


def _dp_dx(a, x):
    """x**(a-1) e**-x / Gamma(a)."""
    return pnp.exp(_log_prefactor(a, x) - pnp.log(x))


def _dp_da_impl(a, x):
    g = gamma_log_sample_grad(a, pnp.log(x))
    return -g * pnp.exp(_log_prefactor(a, x))


_dp_da_kernel = elementwise("gammainc_grad_a", _dp_da_impl)


@custom_jvp
def _dp_da(a, x):
    return _dp_da_kernel(a, x)


@_dp_da.defjvp
def _dp_da_jvp(primals, tangents):
    (a, x), (ta, tx) = primals, tangents
    out = _dp_da(a, x)
    # d/da at fixed x: forward mode through the implicit-derivative loops (a primal value here)
    _, d2a = jvp(_dp_da_impl, (a, x), (full_like(a, 1.0), full_like(x, 0.0)))
    dax = _dp_dx(a, x) * (pnp.log(x) - lax.digamma(a))
    return out, d2a * ta + dax * tx


@custom_jvp
def _gammainc(a, x):
    return _igamma_kernel(a, x)[0]


@_gammainc.defjvp
def _gammainc_jvp(primals, tangents):
    (a, x), (ta, tx) = primals, tangents
    return _gammainc(a, x), _dp_da(a, x) * ta + _dp_dx(a, x) * tx


@custom_jvp
def _gammaincc(a, x):
    return _igamma_kernel(a, x)[1]


@_gammaincc.defjvp
def _gammaincc_jvp(primals, tangents):
    (a, x), (ta, tx) = primals, tangents
    return _gammaincc(a, x), -(_dp_da(a, x) * ta + _dp_dx(a, x) * tx)


def gammainc(a: Any, x: Any) -> Any:
    """The regularised lower incomplete gamma function P(a, x) (a, x >= 0), differentiable in both.

    Args:
        a: the shape parameter (a >= 0).
        x: the integration limit (x >= 0), broadcast with a.

    Returns:
        An array of the function's values with the broadcast shape of the inputs (floating; integers become float32).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.gammainc(1.0, padax.to_tensor([0.5, 2.0])).tolist()
        [0.3935, 0.8647]
    """
    a, x = inexact_args("gammainc", a, x)
    return _gammainc(a, x)


def gammaincc(a: Any, x: Any) -> Any:
    """The regularised upper incomplete gamma function Q(a, x) = 1 - P(a, x), differentiable in both.

    Args:
        a: the shape parameter (a >= 0).
        x: the integration limit (x >= 0), broadcast with a.

    Returns:
        An array of the function's values with the broadcast shape of the inputs (floating; integers become float32).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.gammaincc(1.0, padax.to_tensor([0.5, 2.0])).tolist()
        [0.6065, 0.1353]
    """
    a, x = inexact_args("gammaincc", a, x)
    return _gammaincc(a, x)


__all__ = ["gammaln", "digamma", "psi", "polygamma", "gamma", "rgamma", "gammasgn", "multigammaln", "poch",
           "factorial", "gammainc", "gammaincc"]
