"""Implicit reparameterisation gradients of Gamma(a, 1) samples with respect to a.

A sample x of a continuous distribution with CDF F(x; a) moves with its parameter so
that its quantile u = F(x; a) stays fixed (Figurnov, Mohamed & Mnih 2018, "Implicit
reparameterization gradients"):

    dx/da = -(dF/da)(x; a) / f(x; a),       f the density.

For Gamma(a, 1), F = P(a, x) is the regularised lower incomplete gamma function and
f = x**(a-1) e**-x / Gamma(a). The samplers work with log x (so tiny shapes do not
underflow), so the quantity computed here is d(log x)/da = (dx/da) / x, from log x:

* x <= max(1, a): the series P = x**a e**-x / Gamma(a+1) * S with S = sum_n t_n,
  t_0 = 1, t_n = t_{n-1} x / (a+n). Differentiating term by term and dividing by
  x f = x**a e**-x / Gamma(a) (the common factor cancels to 1/a):
      d(log x)/da = -(S (log x - digamma(a+1)) + dS/da) / a,
  dt_n/da = dt_{n-1}/da x/(a+n) - t_n/(a+n).
* otherwise: the continued fraction of the upper function Q = 1 - P =
  x**a e**-x / Gamma(a) * C, C = 1/(x+1-a - 1(1-a)/(x+3-a - 2(2-a)/(x+5-a - ...))),
  evaluated by the three-term recurrence of its convergents, carried along with their
  a-derivatives (rescaled together, which leaves A/B and its derivative unchanged):
      d(log x)/da = C (log x - digamma(a)) + dC/da.

Both loops are vectorised `while_loop`s that stop when every element has converged to
the dtype's epsilon (at most `_MAX_TERMS` terms, enough for a up to ~10**5 in float64).
Written with padax lax ops only; nothing here is differentiated again (the result is
used as a constant factor of the tangent), so forward-only while loops suffice.
"""
from __future__ import annotations

import numpy as np

from padax import dtypes
from padax.functional._arrays import aval_of, full
from padax.functional.lax.control import while_loop
from padax.functional.lax.elementwise import (
    abs as _abs,
    add,
    bitwise_and,
    bitwise_not,
    bitwise_or,
    digamma,
    div,
    eq,
    exp,
    gt,
    log,
    lt,
    mul,
    neg,
    sub,
)
from padax.functional.lax.reductions import reduce_or
from padax.functional.lax.structural import convert_element_type, select

_MAX_TERMS = 2000
_RESCALE = 2.0 ** 32   # small enough that the derivatives (~n B_n) stay finite in float32


def _while(cond, body, init):
    return while_loop(cond, body, init)


def _any(mask):
    return reduce_or(mask, tuple(range(aval_of(mask).ndim)))


def _counter():
    return convert_element_type(np.int32(0), dtypes.int32)


def _series(a, x, eps):
    """(S, dS/da) of the lower series; elements are already in range (safe values elsewhere)."""
    shape, dt = aval_of(a).shape, aval_of(a).dtype
    one, zero = full(shape, 1.0, dt), full(shape, 0.0, dt)

    def cond(c):
        i, n, t, dtn, s, ds = c
        busy = bitwise_or(gt(_abs(t), mul(eps, _abs(s))), gt(_abs(dtn), mul(eps, _abs(ds))))
        return bitwise_and(lt(i, _MAX_TERMS), _any(busy))

    def body(c):
        i, n, t, dtn, s, ds = c
        n = add(n, one)
        inv = div(one, add(a, n))
        t_new = mul(mul(t, x), inv)
        dt_new = sub(mul(mul(dtn, x), inv), mul(t_new, inv))
        return add(i, 1), n, t_new, dt_new, add(s, t_new), add(ds, dt_new)

    _, _, _, _, s, ds = _while(cond, body, (_counter(), zero, one, zero, one, zero))
    return s, ds


def _continued_fraction(a, x, eps):
    """(C, dC/da) of the upper continued fraction by its convergents A_n / B_n."""
    shape, dt = aval_of(a).shape, aval_of(a).dtype
    one, zero = full(shape, 1.0, dt), full(shape, 0.0, dt)
    # n = 1: A_1 = 1, B_1 = x + 1 - a (dB_1/da = -1); A_0 = 0, B_0 = 1.
    b1 = sub(add(x, one), a)
    f1 = div(one, b1)
    df1 = div(one, mul(b1, b1))                         # d(1/b1)/da = 1/b1**2
    init = (_counter(), one, one, zero, b1, one, zero, zero, neg(one), zero, f1, df1, one)

    def cond(c):
        i, busy = c[0], c[-1]
        return bitwise_and(lt(i, _MAX_TERMS), _any(gt(busy, 0.0)))

    def body(c):
        i, n, a1, a0, b1_, b0, da1, da0, db1, db0, f, df, busy0 = c
        # step n -> n + 1: alpha = -n (n - a), beta = x + 2n + 1 - a
        alpha = neg(mul(n, sub(n, a)))
        beta = sub(add(x, add(add(n, n), one)), a)
        a2 = add(mul(beta, a1), mul(alpha, a0))
        b2 = add(mul(beta, b1_), mul(alpha, b0))
        da2 = add(add(sub(mul(beta, da1), a1), mul(n, a0)), mul(alpha, da0))
        db2 = add(add(sub(mul(beta, db1), b1_), mul(n, b0)), mul(alpha, db0))
        f2 = div(a2, b2)
        df2 = div(sub(da2, mul(f2, db2)), b2)
        busy = bitwise_or(gt(_abs(sub(f2, f)), mul(eps, _abs(f2))), gt(_abs(sub(df2, df)), mul(eps, _abs(df2))))
        # keep the recurrence in range: scale the last two convergents (and derivatives) alike
        big = gt(_abs(b2), _RESCALE)
        s = select(big, full(shape, 1.0 / _RESCALE, dt), one)
        new = (add(n, one), mul(a2, s), mul(a1, s), mul(b2, s), mul(b1_, s), mul(da2, s), mul(da1, s),
               mul(db2, s), mul(db1, s), f2, df2)
        # an element that has converged keeps its state (more rounds would only add rounding)
        live = gt(busy0, 0.0)
        old = (n, a1, a0, b1_, b0, da1, da0, db1, db0, f, df)
        out = tuple(select(live, v_new, v_old) for v_new, v_old in zip(new, old))
        busy = convert_element_type(bitwise_and(live, busy), dt)
        return (add(i, 1),) + out + (busy,)

    out = _while(cond, body, init)
    return out[10], out[11]


def gamma_log_sample_grad(a, logx):
    """d(log x)/da for Gamma(a, 1) samples x = exp(logx), elementwise (same float dtype).

    0 where x == 0 (logx = -inf, a == 0); NaN for invalid a (<= 0, NaN) or a NaN sample.
    """
    av = aval_of(a)
    shape, dt = av.shape, av.dtype
    eps = full(shape, float(dtypes.finfo(dt).eps), dt)
    one = full(shape, 1.0, dt)
    x = exp(logx)
    valid = bitwise_and(gt(a, 0.0), bitwise_and(eq(a, a), eq(logx, logx)))
    zero_sample = eq(logx, full(shape, -np.inf, dt))
    finite = bitwise_and(valid, bitwise_not(zero_sample))
    use_cf = bitwise_and(finite, bitwise_and(gt(x, 1.0), gt(x, a)))
    use_series = bitwise_and(finite, bitwise_not(use_cf))
    # out-of-region elements get a = x = 1-ish values that converge at once and are discarded
    a_s, x_s = select(use_series, a, one), select(use_series, x, full(shape, 0.0, dt))
    s, ds = _series(a_s, x_s, eps)
    lx_s = select(use_series, logx, full(shape, 0.0, dt))
    g_series = neg(div(add(mul(s, sub(lx_s, digamma(add(a_s, one)))), ds), a_s))
    a_c, x_c = select(use_cf, a, one), select(use_cf, x, full(shape, 2.0, dt))
    c, dc = _continued_fraction(a_c, x_c, eps)
    g_cf = add(mul(c, sub(log(x_c), digamma(a_c))), dc)
    g = select(use_cf, g_cf, g_series)
    g = select(zero_sample, full(shape, 0.0, dt), g)
    return select(valid, g, full(shape, np.nan, dt))


def gamma_sample_grad(a, x):
    """dx/da for Gamma(a, 1) samples x (the implicit reparameterisation gradient)."""
    lx = log(x)
    return mul(x, gamma_log_sample_grad(a, lx))


__all__ = ["gamma_log_sample_grad", "gamma_sample_grad"]
