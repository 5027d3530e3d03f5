"""Sampled-data rules (trapezoid, simpson, cumulative_trapezoid) and `quad`, an adaptive
21-point Gauss-Kronrod integrator (QUADPACK's QAG rule with global bisection).

quad chooses its subintervals without recording derivatives, then evaluates the rule on
the final partition differentiably, so the integral is differentiated in the integrand's
parameters (and in finite limits) by the same quadrature.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

import padax.lax as lax
import padax.numpy as pnp
from padax import eval_shape, stop_gradient, vmap
from padax.core.errors import op_value_error

# QUADPACK qk21 (Piessens et al. 1983): positive Kronrod nodes, Kronrod weights, and the
# 10-point Gauss weights of the odd-indexed nodes
_XGK = np.array([0.995657163025808080735527280689003, 0.973906528517171720077964012084452,
                 0.930157491355708226001207180059508, 0.865063366688984510732096688423493,
                 0.780817726586416897063717578345042, 0.679409568299024406234327365114874,
                 0.562757134668604683339000099272694, 0.433395394129247190799265943165784,
                 0.294392862701460198131126603103866, 0.148874338981631210884826001129720, 0.0])
_WGK = np.array([0.011694638867371874278064396062192, 0.032558162307964727478818972459390,
                 0.054755896574351996031381300244580, 0.075039674810919952767043140916190,
                 0.093125454583697605535065465083366, 0.109387158802297641899210590325805,
                 0.123491976262065851077958109831074, 0.134709217311473325928054001771707,
                 0.142775938577060080797094273138717, 0.147739104901338491374841515972068,
                 0.149445554002916905664936468389821])
_WG = np.array([0.066671344308688137593568809893332, 0.149451349150580593145776339657697,
                0.219086362515982043995534934228163, 0.269266719309996355091226921569469,
                0.295524224714752870173892994651338])
_NODES = np.concatenate([-_XGK[:-1], _XGK[::-1]])                   # 21 nodes, ascending
_WK = np.concatenate([_WGK[:-1], _WGK[::-1]])
_WGAUSS = np.zeros(21)
_WGAUSS[1:10:2] = _WG
_WGAUSS[11:20:2] = _WG[::-1]


def _axis_move(y, axis: int):
    y = pnp.asarray(y)
    return pnp.moveaxis(y, axis, -1)


def trapezoid(y: Any, x: Any = None, dx: float = 1.0, axis: int = -1) -> Any:
    """The trapezoidal rule along `axis` (samples y at points x, or spacing dx).

    Args:
        y: the samples (any shape); integrated along `axis`.
        x: the sample points: 1-D (length y.shape[axis]) or shaped like y; None means equal spacing dx.
        dx: the spacing when x is None (default 1.0).
        axis: the axis to integrate along (default the last).

    Returns:
        The integral: y's shape without `axis`.

    Examples:
        >>> import padax
        >>> from padax.scipy import integrate
        >>> float(integrate.trapezoid(padax.to_tensor([0.0, 1.0, 4.0, 9.0, 16.0])))  # x**2 on 0..4, as scipy
        22.0
    """
    y = _axis_move(y, axis)
    if x is None:
        return dx * (pnp.sum(y, axis=-1) - 0.5 * (y[..., 0] + y[..., -1]))
    d = pnp.diff(_axis_move(x, axis) if pnp.asarray(x).ndim > 1 else pnp.asarray(x), axis=-1)
    return pnp.sum(d * (y[..., 1:] + y[..., :-1]), axis=-1) * 0.5


def cumulative_trapezoid(y: Any, x: Any = None, dx: float = 1.0, axis: int = -1, initial: Any = None) -> Any:
    """Running trapezoidal integral along `axis`; with `initial=0` the result keeps y's length.

    Args:
        y: the samples (any shape); integrated along `axis`.
        x: the sample points: 1-D (length y.shape[axis]) or shaped like y; None means equal spacing dx.
        dx: the spacing when x is None (default 1.0).
        axis: the axis to integrate along (default the last).
        initial: None (default) or 0, which prepends a zero.

    Returns:
        The running integrals: y's shape with `axis` of length n - 1 (n with initial=0).

    Examples:
        >>> import padax
        >>> from padax.scipy import integrate
        >>> integrate.cumulative_trapezoid(padax.to_tensor([0.0, 1.0, 4.0, 9.0, 16.0]), initial=0).tolist()
        [0.0, 0.5, 3.0, 9.5, 22.0]
    """
    ym = _axis_move(y, axis)
    if x is None:
        parts = dx * 0.5 * (ym[..., 1:] + ym[..., :-1])
    else:
        d = pnp.diff(_axis_move(x, axis) if pnp.asarray(x).ndim > 1 else pnp.asarray(x), axis=-1)
        parts = d * 0.5 * (ym[..., 1:] + ym[..., :-1])
    out = pnp.cumsum(parts, axis=-1)
    if initial is not None:
        if float(np.asarray(initial)) != 0.0:
            raise op_value_error("padax.scipy.integrate.cumulative_trapezoid", "initial must be None or 0 "
                                                                                "(as in scipy)")
        out = pnp.concatenate([pnp.zeros(out.shape[:-1] + (1,), out.dtype), out], axis=-1)
    return pnp.moveaxis(out, -1, axis)


def simpson(y: Any, x: Any = None, dx: float = 1.0, axis: int = -1) -> Any:
    """Composite Simpson's rule along `axis` on possibly uneven points; an even number of
    samples gets scipy's (>= 1.11) correction on the last interval.

    Args:
        y: the samples (any shape); integrated along `axis`.
        x: the sample points: 1-D (length y.shape[axis]) or shaped like y; None means equal spacing dx.
        dx: the spacing when x is None (default 1.0).
        axis: the axis to integrate along (default the last).

    Returns:
        The integral: y's shape without `axis`.

    Examples:
        >>> import padax
        >>> from padax.scipy import integrate
        >>> round(float(integrate.simpson(padax.to_tensor([0.0, 1.0, 4.0, 9.0, 16.0]))), 4)  # exact for x**2: 64 / 3
        21.3333
    """
    y = _axis_move(y, axis)
    n = y.shape[-1]
    if x is None:
        h = pnp.full(y.shape[:-1] + (n - 1,), dx, dtype=y.dtype) if n > 1 else None
    else:
        xx = pnp.asarray(x)
        h = pnp.diff(_axis_move(xx, axis) if xx.ndim > 1 else xx, axis=-1)
        h = pnp.broadcast_to(h, y.shape[:-1] + (n - 1,))
    if n < 3:
        return trapezoid(y, x, dx, -1)
    m = n if n % 2 == 1 else n - 1                     # points covered by the plain rule
    h0, h1 = h[..., 0:m - 1:2], h[..., 1:m - 1:2]
    y0, y1, y2 = y[..., 0:m - 2:2], y[..., 1:m - 1:2], y[..., 2:m:2]
    hs, hp, hq = h0 + h1, h0 * h1, h0 / h1
    total = pnp.sum(hs / 6.0 * (y0 * (2 - 1.0 / hq) + y1 * hs * hs / hp + y2 * (2 - hq)), axis=-1)
    if n % 2 == 0:
        # last interval from the parabola through the last three points
        a, b = h[..., -2], h[..., -1]
        alpha = (2 * b * b + 3 * a * b) / (6 * (a + b))
        beta = (b * b + 3 * a * b) / (6 * a)
        eta = b ** 3 / (6 * a * (a + b))
        total = total + alpha * y[..., -1] + beta * y[..., -2] - eta * y[..., -3]
    return total


def _gk21(fv, half):
    """(Kronrod value, error estimate) from the 21 values on intervals of half-width `half`."""
    wk = pnp.asarray(_WK, dtype=fv.dtype)
    wg = pnp.asarray(_WGAUSS, dtype=fv.dtype)
    rk = pnp.sum(fv * wk, axis=-1) * half
    rg = pnp.sum(fv * wg, axis=-1) * half
    mean = rk / (2 * half)
    asc = pnp.sum(wk * pnp.abs(fv - mean[..., None]), axis=-1) * pnp.abs(half)
    err = pnp.abs(rk - rg)
    scaled = pnp.where((asc != 0) & (err != 0), asc * pnp.minimum(1.0, (200 * err / pnp.where(asc != 0, asc, 1.0))
                                                                  ** 1.5), err)
    return rk, scaled


def quad(func: Callable, a: Any, b: Any, args: tuple = (), full_output: int = 0, epsabs: float = 1.49e-8,
         epsrel: float = 1.49e-8, limit: int = 50) -> tuple[Any, Any]:
    """(integral of func(x, *args) over [a, b], error estimate), scipy's signature. Infinite
    limits are mapped to a finite interval (x = a + t/(1-t), or t/(1-t^2) for the whole
    line). `func` is evaluated on vectors of points (through vmap). Differentiable in
    args and in finite a, b.

    Args:
        func: the integrand func(x, *args), a scalar function (evaluated through vmap).
        a, b: the limits; either may be +-inf (a Python float).
        args: extra arguments passed to func (a non-tuple is one argument, as in scipy).
        full_output: if non-zero, also return a dict with 'neval' and 'last' (number of subintervals).
        epsabs, epsrel: absolute and relative error goals.
        limit: the maximum number of subintervals (a positive int).

    Returns:
        The tuple (value, error estimate), or (value, error, info) with full_output.

    Examples:
        >>> import math
        >>> import padax
        >>> from padax.scipy import integrate
        >>> value, err = integrate.quad(padax.exp, 0.0, 1.0)
        >>> round(float(value), 5)  # e - 1
        1.71828
        >>> value, err = integrate.quad(lambda x: padax.exp(-x * x), -math.inf, math.inf)
        >>> round(float(value), 5)  # sqrt(pi)
        1.77245
    """
    op = "padax.scipy.integrate.quad"
    if not isinstance(args, tuple):  # as scipy: a single extra argument (an array is not unpacked)
        args = (args,)
    if not isinstance(limit, int) or limit < 1:
        raise op_value_error(op, f"limit must be a positive int, got {limit!r}")
    a_arr, b_arr = pnp.asarray(a), pnp.asarray(b)
    dt = pnp.result_type(a_arr.dtype, b_arr.dtype, pnp.float32)
    # compute in the integrand's precision when it is higher (e.g. float64 parameters)
    out_dt = eval_shape(lambda x: pnp.asarray(func(x, *args)), pnp.zeros((), dt)).dtype
    if pnp.issubdtype(out_dt, pnp.floating):
        dt = pnp.result_type(dt, out_dt)
    def infinite(v) -> int:
        return int(np.sign(v)) if isinstance(v, (float, int, np.floating)) and np.isinf(v) else 0
    ia, ib = infinite(a), infinite(b)
    sign = 1.0
    if ia > 0 or ib < 0:                               # integrate the other way round
        a, b, ia, ib, a_arr, b_arr, sign = b, a, ib, ia, b_arr, a_arr, -1.0
    fx = vmap(lambda x: pnp.asarray(func(x, *args)))
    if ia and ib:                                      # (-inf, inf): x = t / (1 - t^2)
        lo, hi = pnp.asarray(-1.0, dt), pnp.asarray(1.0, dt)

        def g(t):
            return fx(t / (1 - t * t)) * (1 + t * t) / (1 - t * t) ** 2
    elif ia or ib:                                     # x = fin +- t / (1 - t), t in [0, 1)
        fin = (b_arr if ia else a_arr).astype(dt)
        s = -1.0 if ia else 1.0
        lo, hi = pnp.asarray(0.0, dt), pnp.asarray(1.0, dt)

        def g(t):
            return fx(fin + s * t / (1 - t)) / (1 - t) ** 2
    else:
        lo, hi = a_arr.astype(dt), b_arr.astype(dt)
        g = fx
    nodes = pnp.asarray(_NODES, dtype=dt)

    def rule(l, h):
        c, half = 0.5 * (l + h), 0.5 * (h - l)
        x = c[..., None] + half[..., None] * nodes
        fv = g(x.reshape(-1)).reshape(x.shape)
        return _gk21(fv, half)

    # adaptive partition: bisect the interval with the largest error (no derivatives recorded)
    slo, shi = stop_gradient(lo), stop_gradient(hi)
    los = pnp.zeros((limit,), dt).at[0].set(slo)
    his = pnp.zeros((limit,), dt).at[0].set(shi)
    v0, e0 = rule(slo[None], shi[None])
    vals = pnp.zeros((limit,), dt).at[0].set(stop_gradient(v0[0]))
    errs = pnp.full((limit,), -1.0, dt).at[0].set(stop_gradient(e0[0]))

    def cond(s):
        los, his, vals, errs, n = s
        total_err = pnp.sum(pnp.maximum(errs, 0.0))
        return (total_err > pnp.maximum(epsabs, epsrel * pnp.abs(pnp.sum(vals)))) & (n < limit)

    def body(s):
        los, his, vals, errs, n = s
        i = pnp.argmax(errs)
        mid = 0.5 * (los[i] + his[i])
        l2, h2 = pnp.stack([los[i], mid]), pnp.stack([mid, his[i]])
        v, e = rule(l2, h2)
        v, e = stop_gradient(v), stop_gradient(e)
        los = los.at[i].set(l2[0]).at[n].set(l2[1])
        his = his.at[i].set(h2[0]).at[n].set(h2[1])
        vals = vals.at[i].set(v[0]).at[n].set(v[1])
        errs = errs.at[i].set(e[0]).at[n].set(e[1])
        return los, his, vals, errs, n + 1

    los, his, vals, errs, n = lax.while_loop(cond, body, (los, his, vals, errs, pnp.asarray(1)))
    los, his = stop_gradient(los), stop_gradient(his)
    used = errs >= 0
    # the outer ends follow the (differentiable) limits: an interval's end is an affine
    # function of lo and hi with the partition fractions held fixed
    span = shi - slo
    fa = (los - slo) / span
    fb = (his - slo) / span
    L = lo + fa * (hi - lo)
    H = lo + fb * (hi - lo)
    # unused slots re-evaluate interval 0 (finite values, so masked derivatives stay finite)
    v, e = rule(pnp.where(used, L, L[0]), pnp.where(used, H, H[0]))
    value = sign * pnp.sum(pnp.where(used, v, 0.0))
    err = stop_gradient(pnp.sum(pnp.where(used, e, 0.0)))
    if full_output:
        return value, err, {"neval": 21 * (2 * n - 1), "last": n}
    return value, err
