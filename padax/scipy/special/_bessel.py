"""Bessel functions: i0, i0e, i1, i1e, iv, ive, kv, kve of any real order, and j0, j1, y0, y1.

* i0e / i1e: Chebyshev series of e**-x I(x) on [0, 8] and of sqrt(x) e**-x I(x) in 16/x beyond.
* iv / ive (order v >= 0): the power series (x/2)**v / Gamma(v+1) sum (x**2/4)**k / (k! (v+1)_k)
  where sqrt(v**2 + x**2) < 25, and the uniform (Debye) expansion with 14 terms beyond; both
  carry the exponential factor as a logarithm, so they neither overflow early nor cancel.
  Negative orders: I_{-v} = I_v + (2/pi) sin(pi v) K_v.
* kv / kve: Temme's series (x <= 2) or Steed's continued fraction (x > 2) for the order
  mu = v - round(v) in [-1/2, 1/2], then the upward recurrence to v, where
  sqrt(v**2 + x**2) < 25; the Debye expansion beyond.
* j0, j1, y0, y1: polynomials in x**2 on [0, 8] (the zeros of J0 and J1 factored out, so they
  keep relative precision there) and modulus / phase Chebyshev series in 1/x**2 beyond.

x-derivatives are the standard recurrences; a derivative with respect to the order v is refused
with an error (scipy and jax have none either).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from padax import custom_jvp, dtypes, lax, numpy as pnp
from padax.functional._arrays import aval_of
from padax.functional.lax.custom import not_differentiable
from padax.scipy.special import _tables as T
from padax.scipy.special._base import (
    any_true,
    chebyshev,
    elementwise,
    eps,
    full_like,
    inexact_args,
    polyval,
    while_loop,
)

_DEBYE_RADIUS = 25.0
_W = tuple(tuple(p[k:]) for k, p in enumerate(T.DEBYE))   # U_k(t) / t**k


# ---- i0, i0e, i1, i1e ---------------------------------------------------------------------------------

def _i0e_impl(x):
    ax = pnp.abs(x)
    small = ax <= 8.0
    lo = chebyshev(pnp.minimum(ax, 8.0) * 0.25 - 1.0, T.I0E_SMALL)
    big = pnp.maximum(ax, 8.0)
    hi = chebyshev(16.0 / big - 1.0, T.I0E_LARGE) / pnp.sqrt(big)
    return pnp.where(small, lo, hi)


def _i1e_impl(x):
    ax = pnp.abs(x)
    small = ax <= 8.0
    lo = x * chebyshev(pnp.minimum(ax, 8.0) * 0.25 - 1.0, T.I1E_SMALL)
    big = pnp.maximum(ax, 8.0)
    hi = pnp.sign(x) * chebyshev(16.0 / big - 1.0, T.I1E_LARGE) / pnp.sqrt(big)
    return pnp.where(small, lo, hi)


_i0e_kernel = elementwise("i0e", _i0e_impl)
_i1e_kernel = elementwise("i1e", _i1e_impl)
def _unscale(scaled, x):
    """scaled * e**|x| in two halves, so e**|x| does not overflow before the product does."""
    half = pnp.exp(0.5 * pnp.abs(x))
    return scaled * half * half


_i0_kernel = elementwise("i0", lambda x: _unscale(_i0e_impl(x), x))
_i1_kernel = elementwise("i1", lambda x: _unscale(_i1e_impl(x), x))


def _i1_over_x(x, i1):
    """I1(x)/x (also scaled), 1/2 at 0."""
    return pnp.where(x == 0, 0.5, i1 / pnp.where(x == 0, 1.0, x))


@custom_jvp
def _i0e(x):
    return _i0e_kernel(x)


@custom_jvp
def _i1e(x):
    return _i1e_kernel(x)


@custom_jvp
def _i0(x):
    return _i0_kernel(x)


@custom_jvp
def _i1(x):
    return _i1_kernel(x)


@_i0e.defjvp
def _i0e_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    out = _i0e(x)
    return out, (_i1e(x) - pnp.sign(x) * out) * t


@_i1e.defjvp
def _i1e_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    out = _i1e(x)
    return out, (_i0e(x) - _i1_over_x(x, out) - pnp.sign(x) * out) * t


@_i0.defjvp
def _i0_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return _i0(x), _i1(x) * t


@_i1.defjvp
def _i1_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    out = _i1(x)
    return out, (_i0(x) - _i1_over_x(x, out)) * t


def i0(x: Any) -> Any:
    """The modified Bessel function of the first kind of order 0.

    Args:
        x: real input array (or scalar).

    Returns:
        An array of the same shape (float32 for integer input, else the input's floating dtype).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.i0(padax.to_tensor([0.0, 1.0])).tolist()
        [1.0, 1.2661]
    """
    x, = inexact_args("i0", x)
    return _i0(x)


def i0e(x: Any) -> Any:
    """exp(-|x|) I0(x).

    Args:
        x: real input array (or scalar).

    Returns:
        An array of the same shape (float32 for integer input, else the input's floating dtype).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.i0e(padax.to_tensor([0.0, 1.0])).tolist()
        [1.0, 0.4658]
    """
    x, = inexact_args("i0e", x)
    return _i0e(x)


def i1(x: Any) -> Any:
    """The modified Bessel function of the first kind of order 1.

    Args:
        x: real input array (or scalar).

    Returns:
        An array of the same shape (float32 for integer input, else the input's floating dtype).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.i1(padax.to_tensor([0.0, 1.0])).tolist()
        [0.0, 0.5652]
    """
    x, = inexact_args("i1", x)
    return _i1(x)


def i1e(x: Any) -> Any:
    """exp(-|x|) I1(x).

    Args:
        x: real input array (or scalar).

    Returns:
        An array of the same shape (float32 for integer input, else the input's floating dtype).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.i1e(padax.to_tensor([0.0, 1.0])).tolist()
        [0.0, 0.2079]
    """
    x, = inexact_args("i1e", x)
    return _i1e(x)


# ---- I_v and K_v of real order ------------------------------------------------------------------------

def _debye_sum(r, t, sign: float):
    """sum_k sign**k U_k(t) / v**k = sum_k sign**k W_k(t) / r**k (W_k = U_k / t**k, t = v / r)."""
    inv_r = 1.0 / r
    acc = full_like(r, 0.0)
    for w in reversed(_W):
        acc = sign * acc * inv_r + polyval(w, t)
    return acc


# `scaled` below is 1.0 for the exponentially scaled functions (ive, kve) and 0.0 for iv, kv: a
# runtime weight, so a function and its scaled form share one compiled program.

def _debye_log_i(v, x, r, scaled):
    """The exponent of the Debye form of I_v(x) (times e**-x when scaled): r - v asinh(v/x) (- x)."""
    e = v * v / (r + x) - v * pnp.arcsinh(v / x)      # r - x - v asinh(v / x), without cancelling r - x
    return e + (1.0 - scaled) * x


def _ive_series(v, x, scaled):
    """(x/2)**v / Gamma(v+1) sum_k (x**2/4)**k / (k! (v+1)_k), times e**-x when scaled."""
    tol = eps(x)
    q = 0.25 * x * x
    busy0 = q > 0

    def cond(c):
        return (c[0] < 500) & any_true(c[-1])

    def body(c):
        i, k, term, total, busy = c
        k = k + 1.0
        term = term * q / (k * (k + v))
        total = pnp.where(busy, total + term, total)
        return i + 1, k, term, total, busy & (term > tol * total)

    one = full_like(x, 1.0)
    init = (lax.convert_element_type(np.int32(0), dtypes.int32), full_like(x, 0.0), one, one, busy0)
    total = while_loop(cond, body, init)[3]
    log_front = v * pnp.log(0.5 * x) - lax.lgamma(v + 1.0) - scaled * x
    front = pnp.where(v == 0, pnp.exp(-scaled * x), pnp.exp(log_front))
    return front * total


def _iv_nonneg(v, x, scaled):
    """I_v(x) (or e**-x I_v(x)) for v >= 0, x >= 0."""
    r = pnp.hypot(v, x)
    far = r >= _DEBYE_RADIUS
    vs, xs = pnp.where(far, v, 0.5), pnp.where(far, x, 0.5)
    rs = pnp.hypot(vs, xs)
    debye = pnp.exp(_debye_log_i(vs, xs, rs, scaled)) / pnp.sqrt(2 * np.pi * rs) * _debye_sum(rs, vs / rs, 1.0)
    vn, xn = pnp.where(far, 0.5, v), pnp.where(far, 1.0, x)
    series = _ive_series(vn, xn, scaled)
    return pnp.where(far, debye, series)


def _gamma_pair(mu):
    """Temme's gamma1 = (1/Gamma(1-mu) - 1/Gamma(1+mu)) / (2 mu), gamma2 = (...+...)/2, and
    1/Gamma(1+mu), 1/Gamma(1-mu), for |mu| <= 1/2 (Taylor series of 1/Gamma(1+z))."""
    a = T.RGAMMA_TAYLOR
    mu2 = mu * mu
    even = polyval(a[0::2], mu2)
    odd = polyval(a[1::2], mu2)             # (sum of odd terms) / mu
    return -odd, even, even + mu * odd, even - mu * odd


def _k_temme(mu, x):
    """(K_mu(x), K_{mu+1}(x)) for |mu| <= 1/2, 0 < x <= 2 (Temme's series)."""
    tol = eps(x)
    half = 0.5 * x
    pimu = np.pi * mu
    fact = pnp.where(pnp.abs(pimu) < tol, 1.0, pimu / pnp.sin(pnp.where(pimu == 0, 1.0, pimu)))
    d = -pnp.log(half)
    e = mu * d
    fact2 = pnp.where(pnp.abs(e) < tol, 1.0, pnp.sinh(e) / pnp.where(e == 0, 1.0, e))
    gam1, gam2, gampl, gammi = _gamma_pair(mu)
    ff = fact * (gam1 * pnp.cosh(e) + gam2 * fact2 * d)
    ee = pnp.exp(e)
    p = 0.5 * ee / gampl
    q = 0.5 / (ee * gammi)
    dd = half * half
    mu2 = mu * mu

    def cond(c):
        return (c[0] < 500) & any_true(c[-1])

    def body(c):
        i, ff, p, q, cc, s, s1, busy = c
        k = lax.convert_element_type(i, x.aval.dtype) + 1.0
        ff = (k * ff + p + q) / (k * k - mu2)
        cc = cc * dd / k
        p = p / (k - mu)
        q = q / (k + mu)
        delta = cc * ff
        s_new = s + delta
        s1_new = s1 + cc * (p - k * ff)
        busy_next = busy & (pnp.abs(delta) > tol * pnp.abs(s_new))
        return (i + 1, ff, p, q, cc, pnp.where(busy, s_new, s), pnp.where(busy, s1_new, s1), busy_next)

    init = (lax.convert_element_type(np.int32(0), dtypes.int32), ff, p, q, full_like(x, 1.0), ff, p,
            full_like(x, 1.0) > 0)
    out = while_loop(cond, body, init)
    return out[5], out[6] * 2.0 / x


def _k_steed(mu, x):
    """(e**x K_mu(x), e**x K_{mu+1}(x)) for |mu| <= 1/2, x > 2 (Steed's continued fraction CF2)."""
    tol = eps(x)
    a1 = 0.25 - mu * mu
    b = 2.0 * (1.0 + x)
    d = 1.0 / b
    zero, one = full_like(x, 0.0), full_like(x, 1.0)

    def cond(c):
        return (c[0] < 500) & any_true(c[-1])

    def body(c):
        i, a, b, d, h, delh, q1, q2, q, cc, s, busy = c
        k = lax.convert_element_type(i, x.aval.dtype) + 1.0
        a = a - 2.0 * k
        cc = -a * cc / (k + 1.0)
        qnew = (q1 - b * q2) / a
        q1, q2 = q2, qnew
        q = q + cc * qnew
        b = b + 2.0
        d = 1.0 / (b + a * d)
        delh = (b * d - 1.0) * delh
        h_new = h + delh
        dels = q * delh
        s_new = s + dels
        busy_next = busy & (pnp.abs(dels) > tol * pnp.abs(s_new))
        return (i + 1, a, b, d, pnp.where(busy, h_new, h), delh, q1, q2, q, cc, pnp.where(busy, s_new, s),
                busy_next)

    a = -a1
    q = a1
    s = 1.0 + q * d
    init = (lax.convert_element_type(np.int32(0), dtypes.int32), a, b, d, d, d, zero, one, q, a1, s,
            one > 0)
    out = while_loop(cond, body, init)
    h, s = a1 * out[4], out[10]
    k_mu = pnp.sqrt(np.pi / (2.0 * x)) / s
    k_mu1 = k_mu * (mu + x + 0.5 - h) / x
    return k_mu, k_mu1


_MAX_UP = int(_DEBYE_RADIUS) + 2


def _kv_near(v, x, scaled):
    """K_v(x) (or e**x K_v(x)) for v >= 0, 0 < x, sqrt(v**2 + x**2) < 25: K_mu, K_{mu+1} and the
    upward recurrence K_{m+1} = 2 m / x K_m + K_{m-1}."""
    n = pnp.floor(v + 0.5)
    mu = v - n
    low = x <= 2.0
    x_lo, x_hi = pnp.where(low, x, 1.0), pnp.where(low, 3.0, x)
    kt0, kt1 = _k_temme(mu, x_lo)
    ks0, ks1 = _k_steed(mu, x_hi)
    scale_lo = pnp.exp(scaled * x_lo)
    scale_hi = pnp.exp((scaled - 1.0) * x_hi)
    k0 = pnp.where(low, kt0 * scale_lo, ks0 * scale_hi)
    k1 = pnp.where(low, kt1 * scale_lo, ks1 * scale_hi)
    for i in range(1, _MAX_UP):
        step = i <= n
        k2 = (mu + i) * (2.0 / x) * k1 + k0
        k0, k1 = pnp.where(step, k1, k0), pnp.where(step, k2, k1)
    return k0


def _kv_nonneg(v, x, scaled):
    """K_v(x) (or e**x K_v(x)) for v >= 0, x > 0."""
    r = pnp.hypot(v, x)
    far = r >= _DEBYE_RADIUS
    vs, xs = pnp.where(far, v, 0.5), pnp.where(far, x, 0.5)
    rs = pnp.hypot(vs, xs)
    e = -_debye_log_i(vs, xs, rs, 1.0) + (scaled - 1.0) * xs     # -(r - x - v asinh(v/x)) (- x)
    debye = pnp.exp(e) * pnp.sqrt(np.pi / (2.0 * rs)) * _debye_sum(rs, vs / rs, -1.0)
    vn, xn = pnp.where(far, 0.5, v), pnp.where(far, 1.0, x)
    near = _kv_near(vn, xn, scaled)
    return pnp.where(far, debye, near)


def _is_integer(v):
    return v == pnp.floor(v)


def _iv_impl(v, x, scaled):
    av, ax = pnp.abs(v), pnp.abs(x)
    axs = pnp.where(ax > 0, ax, 1.0)
    i_pos = _iv_nonneg(av, ax, scaled)
    # I_{-v} = I_v + (2/pi) sin(pi v) K_v for a negative non-integer order
    neg_frac = (v < 0) & ~_is_integer(v)
    k = _kv_nonneg(pnp.where(neg_frac, av, 0.5), axs, 1.0)
    k_part = (2.0 / np.pi) * pnp.sin(np.pi * (av - 2.0 * pnp.floor(0.5 * av))) * k * pnp.exp(-(1.0 + scaled) * axs)
    out = pnp.where(neg_frac, i_pos + k_part, i_pos)
    # x == 0: I_0 = 1, I_v = 0 for v > 0 and integer v, inf for negative non-integer v
    at0 = pnp.where(v == 0, 1.0, pnp.where(neg_frac, np.inf, 0.0))
    out = pnp.where(x == 0, at0, out)
    # negative x: (-1)**v for integer v, nan otherwise
    odd = pnp.remainder(av, 2.0) == 1.0
    out = pnp.where(x < 0, pnp.where(_is_integer(v), pnp.where(odd, -out, out), np.nan), out)
    return pnp.where(pnp.isnan(v) | pnp.isnan(x), np.nan, out)


def _kv_impl(v, x, scaled):
    av = pnp.abs(v)
    pos = x > 0
    out = _kv_nonneg(av, pnp.where(pos, x, 1.0), scaled)
    out = pnp.where(x == 0, np.inf, pnp.where(pos, out, np.nan))
    return pnp.where(pnp.isnan(v) | pnp.isnan(x), np.nan, out)


_iv_kernel = elementwise("iv", _iv_impl)
_kv_kernel = elementwise("kv", _kv_impl)


def _weight(x, scaled: bool):
    return pnp.asarray(1.0 if scaled else 0.0, dtype=aval_of(x).dtype)


def _order(op: str, v):
    """The order, marked: derivatives with respect to it are refused (there is no rule for them)."""
    return not_differentiable(v, f"{op}(v, x): the derivative with respect to the order v is not "
                                 f"implemented (only with respect to x)")


def _make_iv(scaled: bool):
    @custom_jvp
    def f(v, x):
        return _iv_kernel(v, x, _weight(x, scaled))

    @f.defjvp
    def f_jvp(primals, tangents):
        (v, x), (tv, tx) = primals, tangents
        out = f(v, x)
        # I'_v = I_{v+1} + (v/x) I_v (scaled: minus sign(x) e**-|x| I_v); at x = 0 its limit
        nxt = f(v + 1.0, x)
        xs = pnp.where(x == 0, 1.0, x)
        ratio = pnp.where(x == 0, pnp.where(v == 1, 0.5, pnp.where((v > 0) & (v < 1), np.inf, 0.0)),
                          v / xs * out)
        dx = nxt + ratio
        if scaled:
            dx = dx - pnp.sign(x) * out
        return out, dx * tx
    return f


def _make_kv(scaled: bool):
    @custom_jvp
    def f(v, x):
        return _kv_kernel(v, x, _weight(x, scaled))

    @f.defjvp
    def f_jvp(primals, tangents):
        (v, x), (tv, tx) = primals, tangents
        out = f(v, x)
        # K'_v = -K_{v+1} + (v/x) K_v (K_v is even in v); scaled: plus e**x K_v
        av = pnp.abs(v)
        dx = -f(av + 1.0, x) + av / x * out
        if scaled:
            dx = dx + out
        return out, dx * tx
    return f


_iv, _ive, _kv, _kve = _make_iv(False), _make_iv(True), _make_kv(False), _make_kv(True)


def iv(v: Any, z: Any) -> Any:
    """The modified Bessel function of the first kind I_v(z) of real order v (real z).

    Args:
        v: the real order (array or scalar).
        z: the real argument, broadcast with v.

    Returns:
        An array of the function's values with the broadcast shape of the inputs (floating; integers become float32).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.iv(2.0, padax.to_tensor([1.0, 3.0])).tolist()
        [0.1357, 2.2452]
    """
    v, z = inexact_args("iv", v, z)
    return _iv(_order("iv", v), z)


def ive(v: Any, z: Any) -> Any:
    """exp(-|z|) I_v(z).

    Args:
        v: the real order (array or scalar).
        z: the real argument, broadcast with v.

    Returns:
        An array of the function's values with the broadcast shape of the inputs (floating; integers become float32).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.ive(2.0, padax.to_tensor([1.0, 3.0])).tolist()
        [0.0499, 0.1118]
    """
    v, z = inexact_args("ive", v, z)
    return _ive(_order("ive", v), z)


def kv(v: Any, z: Any) -> Any:
    """The modified Bessel function of the second kind K_v(z) of real order v (z > 0).

    Args:
        v: the real order (array or scalar).
        z: the argument (z > 0), broadcast with v.

    Returns:
        An array of the function's values with the broadcast shape of the inputs (floating; integers become float32).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.kv(1.0, padax.to_tensor([0.5, 2.0])).tolist()
        [1.6564, 0.1399]
    """
    v, z = inexact_args("kv", v, z)
    return _kv(_order("kv", v), z)


def kve(v: Any, z: Any) -> Any:
    """exp(z) K_v(z).

    Args:
        v: the real order (array or scalar).
        z: the argument (z > 0), broadcast with v.

    Returns:
        An array of the function's values with the broadcast shape of the inputs (floating; integers become float32).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.kve(1.0, padax.to_tensor([0.5, 2.0])).tolist()
        [2.731, 1.0335]
    """
    v, z = inexact_args("kve", v, z)
    return _kve(_order("kve", v), z)


# ---- J0, J1, Y0, Y1 --------------------------------------------------------------------------------

def _zero_factors(x, zeros):
    """prod over the zeros z of (x - z)(x + z), with z in two parts so x - z keeps its precision."""
    out = full_like(x, 1.0)
    for hi, lo in zeros:
        out = out * ((x - hi - lo) * (x + hi))
    return out


def _jy_small(x, order: int):
    """(J, Y) on 0 < x <= 8."""
    s = x * x * (1.0 / 32.0) - 1.0
    if order == 0:
        j = _zero_factors(x, T.J0_ZEROS) * chebyshev(s, T.J0_SMALL)
        y = chebyshev(s, T.Y0_SMALL) + (2.0 / np.pi) * pnp.log(x) * j
    else:
        j = x * _zero_factors(x, T.J1_ZEROS) * chebyshev(s, T.J1_SMALL)
        y = x * chebyshev(s, T.Y1_SMALL) + (2.0 / np.pi) * (pnp.log(x) * j - 1.0 / x)
    return j, y


def _jy_large(x, order: int):
    """(J, Y) for x >= 8 from modulus and phase."""
    w = 128.0 / (x * x) - 1.0
    m, p = (T.M0, T.P0) if order == 0 else (T.M1, T.P1)
    mod = chebyshev(w, m) / pnp.sqrt(x)
    theta_corr = chebyshev(w, p) / x - (0.25 if order == 0 else 0.75) * np.pi
    # cos(x + c) and sin(x + c) with x's own sin/cos (its argument reduction), c small
    cx, sx = pnp.cos(x), pnp.sin(x)
    cc, sc = pnp.cos(theta_corr), pnp.sin(theta_corr)
    return mod * (cx * cc - sx * sc), mod * (sx * cc + cx * sc)


def _jy_impl(x, order: int, which: int):
    ax = pnp.abs(x)
    small = ax <= 8.0
    xs = pnp.where(small, pnp.where(ax > 0, ax, 1.0), 1.0)
    xl = pnp.where(small, 8.0, ax)
    js, ys = _jy_small(xs, order)
    jl, yl = _jy_large(xl, order)
    if which == 0:          # J: J0 even, J1 odd
        out = pnp.where(small, js, jl)
        out = pnp.where(ax == 0, 1.0 if order == 0 else 0.0, out)
        if order == 1:
            out = pnp.where(x < 0, -out, out)
        return pnp.where(pnp.isinf(x), 0.0, out)
    out = pnp.where(small, ys, yl)
    out = pnp.where(x == 0, -np.inf, pnp.where(x < 0, np.nan, out))
    return pnp.where(x == np.inf, 0.0, out)


_jy_kernel = elementwise("bessel_jy", _jy_impl, static_argnums=(1, 2))


def _make_jy(order: int, which: int):
    @custom_jvp
    def f(x):
        return _jy_kernel(x, order, which)

    @f.defjvp
    def f_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        out = f(x)
        if order == 0:       # J0' = -J1, Y0' = -Y1
            d = -_jy_fns[(1, which)](x)
        else:                # J1' = J0 - J1/x, Y1' = Y0 - Y1/x
            xs = pnp.where(x == 0, 1.0, x)
            d = _jy_fns[(0, which)](x) - pnp.where(x == 0, 0.5 if which == 0 else np.inf, out / xs)
        return out, d * t
    return f


_jy_fns = {(o, w): _make_jy(o, w) for o in (0, 1) for w in (0, 1)}


def j0(x: Any) -> Any:
    """The Bessel function of the first kind of order 0.

    Args:
        x: real input array (or scalar).

    Returns:
        An array of the same shape (float32 for integer input, else the input's floating dtype).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.j0(padax.to_tensor([0.0, 2.5])).tolist()
        [1.0, -0.0484]
    """
    x, = inexact_args("j0", x)
    return _jy_fns[(0, 0)](x)


def j1(x: Any) -> Any:
    """The Bessel function of the first kind of order 1.

    Args:
        x: real input array (or scalar).

    Returns:
        An array of the same shape (float32 for integer input, else the input's floating dtype).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.j1(padax.to_tensor([0.0, 2.5])).tolist()
        [0.0, 0.4971]
    """
    x, = inexact_args("j1", x)
    return _jy_fns[(1, 0)](x)


def y0(x: Any) -> Any:
    """The Bessel function of the second kind of order 0 (x > 0).

    Args:
        x: real input array (x > 0).

    Returns:
        An array of the same shape (float32 for integer input, else the input's floating dtype).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.y0(padax.to_tensor([1.0, 2.5])).tolist()
        [0.0883, 0.4981]
    """
    x, = inexact_args("y0", x)
    return _jy_fns[(0, 1)](x)


def y1(x: Any) -> Any:
    """The Bessel function of the second kind of order 1 (x > 0).

    Args:
        x: real input array (x > 0).

    Returns:
        An array of the same shape (float32 for integer input, else the input's floating dtype).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.y1(padax.to_tensor([1.0, 2.5])).tolist()
        [-0.7812, 0.1459]
    """
    x, = inexact_args("y1", x)
    return _jy_fns[(1, 1)](x)


__all__ = ["i0", "i0e", "i1", "i1e", "iv", "ive", "kv", "kve", "j0", "j1", "y0", "y1"]
