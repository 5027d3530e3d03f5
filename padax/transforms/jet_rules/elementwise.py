"""Taylor rules of the elementwise primitives.

The smooth functions use the classic recurrences on normalised coefficients
(x(t) = sum x_k t^k): exp, log, the trigonometric and hyperbolic pairs, tanh, logistic
and tan from y' = c(y) x'; powers from x y' = r x' y; sqrt from y^2 = x; division from
y w = u. Functions whose derivative is simpler than themselves (erf, the inverse
trigonometric functions, lgamma, digamma, polygamma) go through their derivative;
erf_inv, atan2 and complex abs through their jvp rules (see `_common`).
"""
from __future__ import annotations

import numpy as np

from padax.core import dtypes
from padax.core.abstract import get_aval
from padax.functional._arrays import full
from padax.functional.lax import elementwise as E
from padax.transforms.jet import def_taylor
from padax.transforms.jet_rules._common import (
    bilinear_rule,
    checked,
    deriv_rule,
    deriv_series,
    differing_terms,
    from_jvp_rule,
    host,
    increments,
    jet_of,
    linear_rule,
    locally_linear_rule,
    nonzero_terms,
    normalize,
    not_smooth,
    ode_coefficient,
    series_mul,
    series_square,
    square_coefficient,
    tdiv,
    tmul,
    tneg,
    tscale,
    tsub,
    tsum,
    zero_rule,
)

# ---- exponentials and logarithms ---------------------------------------------------------------------

def _exp_series(u: list, v0) -> list:
    """v with v' = v u' and v[0] = v0 (the coefficients of exp of the series u)."""
    K = len(u) - 1
    du = increments(u)
    v = [v0] + [None] * K
    for k in range(1, K + 1):
        v[k] = ode_coefficient(du, v, k)
    return v


def _exp(primals, series):
    (x,), (xs,) = primals, series
    y = E.exp(x)
    return y, normalize(_exp_series([x] + list(xs), y)[1:])


def _exp2(primals, series):
    (x,), (xs,) = primals, series
    y = E.exp2(x)
    u = [x] + [tscale(t, float(np.log(2.0))) for t in xs]
    return y, normalize(_exp_series(u, y)[1:])


def _expm1(primals, series):
    (x,), (xs,) = primals, series
    y = E.expm1(x)
    v = _exp_series([x] + list(xs), E.add(y, 1.0))
    return y, normalize(v[1:])


def _log_series(u: list) -> list:
    """Coefficients 1..K of log of the series u (u[0] != 0): u y' = u'."""
    K = len(u) - 1
    y = [None] * (K + 1)
    for k in range(1, K + 1):
        conv = tsum([tmul(tscale(y[j], j / k), u[k - j]) for j in range(1, k)])
        y[k] = tdiv(tsub(u[k], conv), u[0])
    return y[1:]


def _log(primals, series):
    (x,), (xs,) = primals, series
    return E.log(x), normalize(_log_series([x] + list(xs)))


def _log1p(primals, series):
    (x,), (xs,) = primals, series
    return E.log1p(x), normalize(_log_series([E.add(x, 1.0)] + list(xs)))


# ---- trigonometric and hyperbolic ----------------------------------------------------------------------

def _sin_cos_series(u: list, s0, c0, sign: float) -> tuple[list, list]:
    """s' = c u', c' = sign * s u' (sign -1: sin/cos, +1: sinh/cosh)."""
    K = len(u) - 1
    du = increments(u)
    s, c = [s0] + [None] * K, [c0] + [None] * K
    for k in range(1, K + 1):
        s[k] = ode_coefficient(du, c, k)
        c[k] = tscale(ode_coefficient(du, s, k), sign)
    return s, c


def _trig_rule(which: int, hyperbolic: bool):
    def rule(primals, series):
        (x,), (xs,) = primals, series
        s0, c0 = (E.sinh(x), E.cosh(x)) if hyperbolic else (E.sin(x), E.cos(x))
        s, c = _sin_cos_series([x] + list(xs), s0, c0, 1.0 if hyperbolic else -1.0)
        out = (s, c)[which]
        return out[0], normalize(out[1:])
    return rule


def _output_ode(prim_fn, c_of_y):
    """y' = c(y) x' where c_k is computed from y_0..y_k by `c_of_y(y, k)` (a polynomial in y)."""
    def rule(primals, series):
        (x,), (xs,) = primals, series
        du = increments([x] + list(xs))
        K = len(xs)
        y0 = prim_fn(x)
        y, c = [y0] + [None] * K, [c_of_y([y0], 0)] + [None] * K
        for k in range(1, K + 1):
            y[k] = ode_coefficient(du, c, k)
            if k < K:
                c[k] = c_of_y(y, k)
        return y0, normalize(y[1:])
    return rule


def _tanh_c(y, k):  # 1 - y^2
    sq = square_coefficient(y, k)
    return E.sub(1.0, sq) if k == 0 else tneg(sq)


def _logistic_c(y, k):  # y - y^2
    sq = square_coefficient(y, k)
    return tsub(y[k], sq)


def _tan_c(y, k):  # 1 + y^2
    sq = square_coefficient(y, k)
    return E.add(sq, 1.0) if k == 0 else sq


# ---- powers and roots ------------------------------------------------------------------------------------

def _power_series(u: list, y0, r) -> list:
    """Coefficients of x^r (r a Python number or an array without a series), x0 != 0:
    x y' = r x' y gives y_k = sum_{j=1..k} (j (r + 1) - k) x_j y_{k-j} / (k x0)."""
    K = len(u) - 1
    y = [y0] + [None] * K
    for k in range(1, K + 1):
        terms = []
        for j in range(1, k + 1):
            if u[j] is None or y[k - j] is None:
                continue
            if isinstance(r, (int, float)):
                coef = j * (r + 1) - k
                if coef == 0:
                    continue
                terms.append(E.mul(E.mul(u[j], y[k - j]), float(coef)))
            else:
                coef = E.add(E.mul(r, float(j)), float(j - k))
                terms.append(E.mul(E.mul(u[j], y[k - j]), coef))
        acc = tsum(terms)
        y[k] = None if acc is None else E.div(acc, E.mul(u[0], float(k)))
    return y


def _sqrt(primals, series):
    """y^2 = x: y_k = (x_k - sum_{j=1..k-1} y_j y_{k-j}) / (2 y0)."""
    (x,), (xs,) = primals, series
    K = len(xs)
    u = [x] + list(xs)
    y0 = E.sqrt(x)
    y = [y0] + [None] * K
    two_y0 = E.mul(y0, 2.0)
    for k in range(1, K + 1):
        cross = tsum([tmul(y[j], y[k - j]) for j in range(1, k)])
        y[k] = tdiv(tsub(u[k], cross), two_y0)
    return y0, normalize(y[1:])


def _root_rule(prim_fn, r: float):
    def rule(primals, series):
        (x,), (xs,) = primals, series
        y0 = prim_fn(x)
        return y0, normalize(_power_series([x] + list(xs), y0, r)[1:])
    return rule


def _pow(primals, series):
    x, y = primals
    xs, ys = series
    out = E.pow(x, y)
    if all(t is None for t in ys):  # x ** r with a fixed exponent
        return out, normalize(_power_series([x] + list(xs), out, y)[1:])
    # exp(y log x) (x > 0)
    (e,), (es,) = jet_of(lambda a, b: [E.mul(b, E.log(a))], [x, y], [list(xs), list(ys)])
    return out, normalize(_exp_series([e] + list(es), out)[1:])


def _series_power(u: list, n: int) -> list:
    """u^n for an int n >= 1 by repeated squaring of series."""
    result, base = None, u
    while n:
        if n & 1:
            result = base if result is None else series_mul(result, base)
        n >>= 1
        if n:
            base = series_square(base)
    return result


def _reciprocal_series(p: list) -> list:
    """r with r p = 1: r_k = -(sum_{j=1..k} p_j r_{k-j}) / p0."""
    K = len(p) - 1
    r = [E.div(1.0, p[0])] + [None] * K
    for k in range(1, K + 1):
        acc = tsum([tmul(p[j], r[k - j]) for j in range(1, k + 1)])
        r[k] = None if acc is None else E.neg(E.div(acc, p[0]))
    return r


def _integer_pow(primals, series, *, y):
    (x,), (xs,) = primals, series
    out = E.integer_pow(x, y)
    if y == 0:
        return out, None
    p = _series_power([x] + list(xs), abs(y))
    if y < 0:
        p = _reciprocal_series(p)
    return out, normalize(p[1:])


def _square(primals, series):
    (x,), (xs,) = primals, series
    return E.square(x), normalize(series_square([x] + list(xs), first=1))


def _div(primals, series):
    """v w = u: v_k = (u_k - sum_{j=1..k} w_j v_{k-j}) / w0."""
    x, y = primals
    xs, ys = series
    K = len(xs)
    u, w = [x] + list(xs), [y] + list(ys)
    v0 = E.div(x, y)
    v = [v0] + [None] * K
    for k in range(1, K + 1):
        conv = tsum([tmul(w[j], v[k - j]) for j in range(1, k + 1)])
        v[k] = tdiv(tsub(u[k], conv), y)
    return v0, normalize(v[1:])


# ---- checks at non-smooth points ---------------------------------------------------------------------

def _check_at_zero(name: str):
    def check(primals, series, **params):
        x, s = primals[0], series[0]
        not_smooth(name, (host(x) == 0) & nonzero_terms(x, s), "at 0")
    return check


def _check_integers(name: str):
    def check(primals, series, **params):
        x, s = primals[0], series[0]
        xv = host(x)
        not_smooth(name, (xv == np.floor(xv)) & nonzero_terms(x, s), "at integers")
    return check


def _check_half_integers(primals, series, **params):
    x, s = primals[0], series[0]
    xv = host(x)
    not_smooth("round", (xv - np.floor(xv) == 0.5) & nonzero_terms(x, s), "halfway between integers")


def _check_ties(name: str):
    def check(primals, series, **params):
        x, y = primals
        xv, yv = host(x), host(y)
        not_smooth(name, (xv == yv) & differing_terms(series[0], series[1], xv.shape),
                   "where its operands tie with different series")
    return check


def _check_rem(primals, series, **params):
    x, y = primals
    r = host(E.rem(x, y))
    not_smooth("rem", (r == 0) & (nonzero_terms(x, series[0]) | nonzero_terms(y, series[1])),
               "where the remainder is 0 (it jumps there)")


def _ones(x):
    a = get_aval(x)
    return full(a.shape, 1, a.dtype)


# ---- registration ------------------------------------------------------------------------------------------

for _p in (E.add_p, E.sub_p, E.neg_p, E.real_p, E.imag_p, E.conj_p, E.complex_p):
    def_taylor(_p, linear_rule(_p))

def_taylor(E.mul_p, bilinear_rule(E.mul_p))
def_taylor(E.div_p, _div)
def_taylor(E.rem_p, checked(locally_linear_rule(E.rem_p), _check_rem))
def_taylor(E.pow_p, _pow)
def_taylor(E.max_p, checked(locally_linear_rule(E.max_p), _check_ties("max")))
def_taylor(E.min_p, checked(locally_linear_rule(E.min_p), _check_ties("min")))
def_taylor(E.atan2_p, from_jvp_rule(E.atan2_p))

for _p in (E.nextafter_p, E.is_finite_p, E.eq_p, E.ne_p, E.lt_p, E.le_p, E.gt_p, E.ge_p, E.and_p, E.or_p,
           E.xor_p, E.not_p, E.shift_left_p, E.shift_right_arithmetic_p, E.shift_right_logical_p,
           E.population_count_p, E.clz_p):
    def_taylor(_p, zero_rule(_p))

def_taylor(E.sign_p, checked(zero_rule(E.sign_p), _check_at_zero("sign")))
def_taylor(E.floor_p, checked(zero_rule(E.floor_p), _check_integers("floor")))
def_taylor(E.ceil_p, checked(zero_rule(E.ceil_p), _check_integers("ceil")))
def_taylor(E.round_p, checked(zero_rule(E.round_p), _check_half_integers))


def _abs(primals, series):
    (x,), (xs,) = primals, series
    if dtypes.is_complex(get_aval(x).dtype):
        return _abs_complex(primals, series)
    s = E.sign(x)
    return E.abs(x), normalize([tmul(t, s) for t in xs])


_abs_complex = from_jvp_rule(E.abs_p)
def_taylor(E.abs_p, checked(_abs, _check_at_zero("abs")))

def_taylor(E.exp_p, _exp)
def_taylor(E.exp2_p, _exp2)
def_taylor(E.expm1_p, _expm1)
def_taylor(E.log_p, _log)
def_taylor(E.log1p_p, _log1p)
def_taylor(E.sin_p, _trig_rule(0, False))
def_taylor(E.cos_p, _trig_rule(1, False))
def_taylor(E.sinh_p, _trig_rule(0, True))
def_taylor(E.cosh_p, _trig_rule(1, True))
def_taylor(E.tanh_p, _output_ode(E.tanh, _tanh_c))
def_taylor(E.logistic_p, _output_ode(E.logistic, _logistic_c))
def_taylor(E.tan_p, _output_ode(E.tan, _tan_c))
def_taylor(E.sqrt_p, _sqrt)
def_taylor(E.rsqrt_p, _root_rule(E.rsqrt, -0.5))
def_taylor(E.cbrt_p, _root_rule(E.cbrt, 1.0 / 3.0))
def_taylor(E.integer_pow_p, _integer_pow)
def_taylor(E.square_p, _square)

_SQRT_PI = float(np.sqrt(np.pi))
def_taylor(E.asin_p, deriv_rule(E.asin_p, lambda x: E.rsqrt(E.sub(1.0, E.mul(x, x)))))
def_taylor(E.acos_p, deriv_rule(E.acos_p, lambda x: E.neg(E.rsqrt(E.sub(1.0, E.mul(x, x))))))
def_taylor(E.atan_p, deriv_rule(E.atan_p, lambda x: E.div(1.0, E.add(E.mul(x, x), 1.0))))
def_taylor(E.asinh_p, deriv_rule(E.asinh_p, lambda x: E.rsqrt(E.add(E.mul(x, x), 1.0))))
def_taylor(E.acosh_p, deriv_rule(E.acosh_p, lambda x: E.rsqrt(E.mul(E.sub(x, 1.0), E.add(x, 1.0)))))
def_taylor(E.atanh_p, deriv_rule(E.atanh_p, lambda x: E.div(1.0, E.sub(1.0, E.mul(x, x)))))
def_taylor(E.erf_p, deriv_rule(E.erf_p, lambda x: E.mul(E.exp(E.neg(E.mul(x, x))), 2.0 / _SQRT_PI)))
def_taylor(E.erfc_p, deriv_rule(E.erfc_p, lambda x: E.mul(E.exp(E.neg(E.mul(x, x))), -2.0 / _SQRT_PI)))
def_taylor(E.lgamma_p, deriv_rule(E.lgamma_p, E.digamma))
def_taylor(E.digamma_p, deriv_rule(E.digamma_p, lambda x: E.polygamma(_ones(x), x)))
def_taylor(E.erf_inv_p, from_jvp_rule(E.erf_inv_p))


def _polygamma(primals, series):
    n, x = primals
    ns, xs = series
    if any(t is not None for t in ns):
        raise TypeError("jet of polygamma: the order n has no derivative; it cannot carry a Taylor series")
    K = len(xs)
    out = E.polygamma(n, x)
    (c0,), (cs,) = jet_of(lambda z: [E.polygamma(E.add(n, 1.0), z)], [x], [list(xs[:K - 1]) if K > 1 else None])
    c = [c0] + (list(cs) if cs is not None else [None] * (K - 1))
    return out, normalize(deriv_series([x] + list(xs), c))


def_taylor(E.polygamma_p, _polygamma)


def _zeta(primals, series):
    """Hurwitz zeta(x, q) along q: d/dq zeta(x, q) = -x zeta(x + 1, q); x has no derivative rule."""
    x, q = primals
    xs, qs = series
    if any(t is not None for t in xs):
        raise TypeError("jet of zeta(x, q): the derivative with respect to x is not available, so x cannot "
                        "carry a Taylor series (q can)")
    K = len(qs)
    out = E.zeta(x, q)
    (c0,), (cs,) = jet_of(lambda z: [E.neg(E.mul(x, E.zeta(E.add(x, 1.0), z)))], [q],
                          [list(qs[:K - 1]) if K > 1 else None])
    c = [c0] + (list(cs) if cs is not None else [None] * (K - 1))
    return out, normalize(deriv_series([q] + list(qs), c))


def_taylor(E.zeta_p, _zeta)
