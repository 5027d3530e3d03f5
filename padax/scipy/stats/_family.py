"""Builders of scipy.stats-style function sets from a distribution's standard form.

A continuous distribution is given by its standardised functions of z = (x - loc) / scale and
its shape parameters; `continuous` turns them into logpdf/pdf/cdf/logcdf/sf/logsf/ppf/isf with
scipy's signature `f(x, *shape, loc=0, scale=1)` (nan where scale <= 0). A discrete one is given
on k - loc (`discrete`: logpmf/pmf/cdf/logcdf/sf/logsf/ppf with `f(k, *shape, loc=0)`). All
arguments broadcast; integers become the default float.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from padax import dtypes, jit, lax, numpy as pnp
from padax.functional._arrays import aval_of
from padax.scipy.special._base import inexact_args


def log1mexp(x: Any) -> Any:
    """log(1 - exp(x)) for x <= 0, accurate on both sides of -log 2."""
    return pnp.where(x > -0.6931471805599453, pnp.log(-pnp.expm1(x)), pnp.log1p(-pnp.exp(x)))


def _split_args(dist: str, op: str, names: tuple[str, ...], args: tuple, kw: dict, extra: tuple[str, ...]):
    """(shape params, extra params) from positional args (shape first, then loc/scale) and keywords."""
    n = len(names)
    if len(args) > n + len(extra):
        raise TypeError(f"{dist}.{op} takes {n} shape parameter(s) ({', '.join(names)}) and "
                        f"{', '.join(extra)}; got {len(args)} positional arguments")
    vals = dict(zip(names + extra, args))
    for k, v in kw.items():
        if k not in names + extra:
            raise TypeError(f"{dist}.{op} got an unexpected keyword argument {k!r}")
        if k in vals:
            raise TypeError(f"{dist}.{op} got multiple values for argument {k!r}")
        vals[k] = v
    missing = [k for k in names if k not in vals]
    if missing:
        raise TypeError(f"{dist}.{op} is missing its shape parameter(s) {', '.join(missing)}")
    defaults = {"loc": 0.0, "scale": 1.0}
    return [vals[k] for k in names], [vals.get(k, defaults[k]) for k in extra]


def _log_of(p: Callable, complement: Callable) -> Callable:
    """log p from log1p(-complement) where p is above 1/2 (log p itself would round away its digits)."""
    def f(z, *s):
        v, c = p(z, *s), complement(z, *s)
        return pnp.where(v > 0.5, pnp.log1p(-c), pnp.log(v))
    return f


def _named(fn: Callable, dist: str, name: str, doc: str) -> Callable:
    fn.__name__ = name
    fn.__qualname__ = name
    fn.__doc__ = f"{name} of the {dist} distribution ({doc})."
    return fn


def continuous(dist: str, shape_names: tuple[str, ...], logpdf: Callable, cdf: Callable | None = None,
               sf: Callable | None = None, logcdf: Callable | None = None, logsf: Callable | None = None,
               ppf: Callable | None = None, isf: Callable | None = None) -> dict[str, Callable]:
    """scipy-style functions of a location-scale family; each standard function takes (z, *shape)."""
    n = len(shape_names)
    params = ", ".join(shape_names + ("loc=0", "scale=1"))

    def prep(op, x, args, kw):
        shape, (loc, scale) = _split_args(dist, op, shape_names, args, kw, ("loc", "scale"))
        arrs = inexact_args(f"{dist}.{op}", x, *shape, loc, scale)
        x, shp, loc, scale = arrs[0], arrs[1:1 + n], arrs[-2], arrs[-1]
        return (x - loc) / scale, shp, loc, scale

    def _logpdf(x, *args, **kw):
        z, shp, _, scale = prep("logpdf", x, args, kw)
        return pnp.where(scale > 0, logpdf(z, *shp) - pnp.log(scale), np.nan)

    def _pdf(x, *args, **kw):
        return pnp.exp(_logpdf(x, *args, **kw))

    out = {"logpdf": _named(_logpdf, dist, "logpdf", f"x, {params}"),
           "pdf": _named(_pdf, dist, "pdf", f"x, {params}")}

    def make(fn, name, arg):
        def f(x, *args, **kw):
            z, shp, _, scale_ = prep(name, x, args, kw)
            return pnp.where(scale_ > 0, fn(z, *shp), np.nan)
        return _named(f, dist, name, f"{arg}, {params}")

    if cdf is not None:
        sf = sf or (lambda z, *s: 1.0 - cdf(z, *s))
        logcdf = logcdf or _log_of(cdf, sf)
        logsf = logsf or _log_of(sf, cdf)
        for fn, name in ((cdf, "cdf"), (sf, "sf"), (logcdf, "logcdf"), (logsf, "logsf")):
            out[name] = make(fn, name, "x")
    if ppf is not None:
        isf = isf or (lambda q, *s: ppf(1.0 - q, *s))

        def make_quantile(fn, name):
            def f(q, *args, **kw):
                shape, (loc, scale) = _split_args(dist, name, shape_names, args, kw, ("loc", "scale"))
                arrs = inexact_args(f"{dist}.{name}", q, *shape, loc, scale)
                q_, shp, loc_, scale_ = arrs[0], arrs[1:1 + n], arrs[-2], arrs[-1]
                inside = (q_ >= 0) & (q_ <= 1) & (scale_ > 0)
                return pnp.where(inside, loc_ + scale_ * fn(pnp.where(inside, q_, 0.5), *shp), np.nan)
            return _named(f, dist, name, f"q, {params}")
        out["ppf"] = make_quantile(ppf, "ppf")
        out["isf"] = make_quantile(isf, "isf")
    return out


def discrete(dist: str, shape_names: tuple[str, ...], logpmf: Callable, cdf: Callable | None = None,
             sf: Callable | None = None, ppf: Callable | None = None) -> dict[str, Callable]:
    """scipy-style functions of a discrete family shifted by loc; each takes (k - loc, *shape)."""
    n = len(shape_names)
    params = ", ".join(shape_names + ("loc=0",))

    def prep(op, k, args, kw):
        shape, (loc,) = _split_args(dist, op, shape_names, args, kw, ("loc",))
        arrs = inexact_args(f"{dist}.{op}", k, *shape, loc)
        return arrs[0] - arrs[-1], arrs[1:1 + n], arrs[-1]

    def _logpmf(k, *args, **kw):
        kk, shp, _ = prep("logpmf", k, args, kw)
        return logpmf(kk, *shp)

    def _pmf(k, *args, **kw):
        return pnp.exp(_logpmf(k, *args, **kw))

    out = {"logpmf": _named(_logpmf, dist, "logpmf", f"k, {params}"),
           "pmf": _named(_pmf, dist, "pmf", f"k, {params}")}
    if cdf is not None:
        sf = sf or (lambda k, *s: 1.0 - cdf(k, *s))

        def make(fn, name):
            def f(k, *args, **kw):
                kk, shp, _ = prep(name, k, args, kw)
                return fn(pnp.floor(kk), *shp)
            return _named(f, dist, name, f"k, {params}")
        out.update(cdf=make(cdf, "cdf"), logcdf=make(_log_of(cdf, sf), "logcdf"), sf=make(sf, "sf"),
                   logsf=make(_log_of(sf, cdf), "logsf"))
    if ppf is not None:
        def _ppf(q, *args, **kw):
            shape, (loc,) = _split_args(dist, "ppf", shape_names, args, kw, ("loc",))
            arrs = inexact_args(f"{dist}.ppf", q, *shape, loc)
            q_, shp, loc_ = arrs[0], arrs[1:1 + n], arrs[-1]
            inside = (q_ >= 0) & (q_ <= 1)
            return pnp.where(inside, ppf(pnp.where(inside, q_, 0.5), *shp) + loc_, np.nan)
        out["ppf"] = _named(_ppf, dist, "ppf", f"q, {params}")
    return out


def integer_support(k: Any, low: float = 0.0) -> Any:
    """k is an integer >= low (the support of the discrete families)."""
    return (k == pnp.floor(k)) & (k >= low)




def _bisect(go_up: Callable, lo: Any, hi: Any, steps: int, args: tuple) -> Any:
    """The boundary u in [lo, hi] of the monotone predicate go_up(u, *args) (true below it), by `steps`
    halvings (args ride in the loop carry rather than a closure, so the loop traces under grad/vmap)."""
    def body(_, carry):
        a, b, rest = carry
        mid = 0.5 * (a + b)
        up = go_up(mid, *rest)
        return pnp.where(up, mid, a), pnp.where(up, b, mid), rest
    a, b, _ = lax.fori_loop(0, steps, body, (lo, hi, tuple(args)))
    # a root below lo (above hi) is beyond the dtype's range: u = -inf (+inf), to the end of the support
    return pnp.where(go_up(lo, *args), pnp.where(go_up(hi, *args), np.inf, 0.5 * (a + b)), -np.inf)


def _u_range(x: Any, support: str) -> tuple[float, float, int]:
    """Bisection bounds of the transformed variable u and the halvings that reach the dtype's precision."""
    fi = np.finfo(np.dtype(aval_of(x).dtype))
    lo, hi = float(np.log(fi.tiny)), float(np.log(fi.max))
    if support == "unit":                      # x = sigmoid(u): both ends of (0, 1) to relative precision
        lo, hi = lo, -lo
    return lo, hi, int(np.ceil(np.log2((hi - lo) / fi.eps))) + 2


def quantile_pair(cdf: Callable, sf: Callable, logpdf: Callable, support: str) -> tuple[Callable, Callable]:
    """Standard ppf and isf of a continuous law from its cdf/sf by bisection, for scipy's quantiles
    that have no closed form (t, beta, gamma, ...).

    The bisection runs on u with x = exp(u) ("positive"), x = sigmoid(u) ("unit") or x = ±exp(u) with
    the law symmetric about 0 ("symmetric"), over the dtype's whole exponent range, so both tails keep
    their relative precision; the lower half of the quantiles solves cdf(x) = q, the upper sf(x) = 1 - q.
    The first derivatives (in q and in the shape parameters) are the implicit ones,
    dx = (dq - dF/dshape) / pdf(x); float16/bfloat16 are computed in float32.
    """
    to_x = {"positive": pnp.exp, "symmetric": pnp.exp, "unit": lambda u: 1.0 / (1.0 + pnp.exp(-u))}[support]
    lo_x = {"positive": 0.0, "symmetric": -np.inf, "unit": 0.0}[support]
    hi_x = {"positive": np.inf, "symmetric": np.inf, "unit": 1.0}[support]

    def solve(p_lower, *shape):
        """x with cdf(x) = p_lower, where p_lower is given as (q, use_lower): the side the probability is exact on."""
        q, lower = p_lower
        return _solve(lax.stop_gradient(q), lower, *(lax.stop_gradient(s) for s in shape))

    @jit
    def _solve(qs, lower, *ss):
        lo, hi, steps = _u_range(qs, support)
        ends = pnp.full_like(qs, lo), pnp.full_like(qs, hi)
        if support == "symmetric":              # |x| from the tail P(X > |x|) = q (q <= 1/2)
            x = to_x(_bisect(lambda u, qq, *sh: sf(to_x(u), *sh) > qq, *ends, steps, (qs, *ss)))
            x = pnp.where(lower, -x, x)
        else:
            def go_up(u, qq, low, *sh):
                xu = to_x(u)
                return pnp.where(low, cdf(xu, *sh) < qq, sf(xu, *sh) > qq)
            x = to_x(_bisect(go_up, *ends, steps, (qs, lower, *ss)))
        return x

    def finish(x, at_lo, at_hi, q, lower, shape):
        """x with the implicit first derivatives; the ends of the support where at_lo / at_hi."""
        x = lax.stop_gradient(x)
        dens = lax.stop_gradient(pnp.exp(logpdf(x, *shape)))
        resid = pnp.where(lower, q - cdf(x, *shape), sf(x, *shape) - q)
        g = resid / pnp.where(dens > 0, dens, 1.0)
        x = x + (g - lax.stop_gradient(g))
        return pnp.where(at_lo, lo_x, pnp.where(at_hi, hi_x, x))

    def impl(q, *shape):
        lower = q <= 0.5
        p = pnp.where(lower, q, 1.0 - q)
        x = solve((p, lower), *shape)
        if support == "symmetric":
            x = pnp.where(q == 0.5, 0.0, x)
        return finish(x, q == 0, q == 1, p, lower, shape)

    def impl_isf(q, *shape):
        lower = q > 0.5                          # isf(q) = ppf(1 - q), 1 - q exact for q > 1/2
        p = pnp.where(lower, 1.0 - q, q)
        x = solve((p, lower), *shape)
        if support == "symmetric":
            x = pnp.where(q == 0.5, 0.0, x)
        return finish(x, q == 1, q == 0, p, lower, shape)

    return _low_precision(impl), _low_precision(impl_isf)


def _low_precision(fn: Callable) -> Callable:
    """fn computed in float32 for float16/bfloat16 arguments (and rounded back)."""
    def run(q, *shape):
        dt = aval_of(q).dtype
        if dt in (dtypes.float16, dtypes.bfloat16):
            up = [lax.convert_element_type(a, dtypes.float32) for a in (q,) + shape]
            return lax.convert_element_type(fn(*up), dt)
        return fn(q, *shape)
    return run


__all__ = ["continuous", "discrete", "log1mexp", "integer_support", "quantile_pair"]
