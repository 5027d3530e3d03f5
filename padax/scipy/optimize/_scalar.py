"""`root_scalar` with scipy's methods: bracketing (bisect, brentq, brenth, ridder) and
open (newton, secant, halley). Each is a lax.while_loop, so it jits and vmaps; the root
is differentiated with respect to `args` implicitly (dx/dp = -f_p / f_x), never through
the iterations."""
from __future__ import annotations

from typing import Any, Callable

import padax.lax as lax
import padax.numpy as pnp
from padax import grad, tree
from padax.core.errors import op_value_error
from padax.core.trace import Tracer
from padax.scipy.optimize._dtypes import scipy_floats
from padax.scipy.optimize._root import RootScalarResults

_OP = "padax.scipy.optimize.root_scalar"
BRACKETING = ("bisect", "brentq", "brenth", "ridder")
OPEN = ("newton", "secant", "halley")


def _bisect(f: Callable, a, b, fa, fb, xtol, rtol, maxiter):

    def cond(s):
        a, b, fa, fb, k = s
        return (pnp.abs(b - a) > xtol + rtol * pnp.abs(b)) & (fa != 0) & (fb != 0) & (k < maxiter)

    def body(s):
        a, b, fa, fb, k = s
        c = 0.5 * (a + b)
        fc = f(c)
        left = pnp.sign(fc) == pnp.sign(fa)          # c replaces a
        return pnp.where(left, c, a), pnp.where(left, b, c), pnp.where(left, fc, fa), pnp.where(left, fb, fc), k + 1

    a, b, fa, fb, k = lax.while_loop(cond, body, (a, b, fa, fb, pnp.asarray(0)))
    return pnp.where(pnp.abs(fa) < pnp.abs(fb), a, b), k, k


def _brent(f: Callable, a, b, fa, fb, xtol, rtol, maxiter, hyperbolic: bool):
    """Brent's method (1973): keep a bracket [cur, blk]; step by inverse quadratic (or, for
    brenth, hyperbolic) extrapolation or secant interpolation when that step is short
    enough, by bisection otherwise; never step less than the tolerance."""
    zero = pnp.zeros_like(a)

    def settle(s):
        """Make [cur, blk] a bracket with cur the better end; the half-width and tolerance."""
        pre, cur, blk, fpre, fcur, fblk, spre, scur, k, _ = s
        straddle = (fpre != 0) & (fcur != 0) & (pnp.sign(fpre) != pnp.sign(fcur))
        blk, fblk = pnp.where(straddle, pre, blk), pnp.where(straddle, fpre, fblk)
        spre = scur = pnp.where(straddle, cur - pre, scur)
        swap = pnp.abs(fblk) < pnp.abs(fcur)
        pre, cur, blk = pnp.where(swap, cur, pre), pnp.where(swap, blk, cur), pnp.where(swap, cur, blk)
        fpre, fcur, fblk = pnp.where(swap, fcur, fpre), pnp.where(swap, fblk, fcur), pnp.where(swap, fcur, fblk)
        delta = (xtol + rtol * pnp.abs(cur)) / 2
        sbis = (blk - cur) / 2
        return pre, cur, blk, fpre, fcur, fblk, spre, scur, delta, sbis

    def done_now(s):
        _, cur, _, _, fcur, _, _, _, delta, sbis = settle(s)
        return (fcur == 0) | (pnp.abs(sbis) < delta)

    def cond(s):
        return (~done_now(s)) & (s[8] < maxiter)

    def body(s):
        pre, cur, blk, fpre, fcur, fblk, spre, scur, delta, sbis = settle(s)
        k = s[8]
        safe = lambda d: pnp.where(d == 0, 1, d)  # noqa: E731
        secant = -fcur * (cur - pre) / safe(fcur - fpre)
        dpre = (fpre - fcur) / safe(pre - cur)
        dblk = (fblk - fcur) / safe(blk - cur)
        if hyperbolic:
            extra = -fcur * (fblk - fpre) / safe(fblk * dpre - fpre * dblk)
        else:
            extra = -fcur * (fblk * dblk - fpre * dpre) / safe(dblk * dpre * (fblk - fpre))
        stry = pnp.where(pre == blk, secant, extra)
        try_it = (pnp.abs(spre) > delta) & (pnp.abs(fcur) < pnp.abs(fpre))
        short = 2 * pnp.abs(stry) < pnp.minimum(pnp.abs(spre), 3 * pnp.abs(sbis) - delta)
        take = try_it & short & pnp.isfinite(stry)
        spre, scur = pnp.where(take, scur, sbis), pnp.where(take, stry, sbis)
        pre, fpre = cur, fcur
        cur = cur + pnp.where(pnp.abs(scur) > delta, scur, pnp.where(sbis > 0, delta, -delta))
        return pre, cur, blk, fpre, f(cur), fblk, spre, scur, k + 1, zero

    s = lax.while_loop(cond, body, (a, b, zero, fa, fb, zero, zero, zero, pnp.asarray(0), zero))
    return settle(s)[1], s[8], s[8]


def _ridder(f: Callable, a, b, fa, fb, xtol, rtol, maxiter):
    """Ridders' method: from the bracket's midpoint, an exponential-fit step; the new
    bracket is the tightest sign change among the four points (two evaluations a step)."""

    def cond(s):
        a, b, fa, fb, x, k = s
        return (pnp.abs(b - a) > xtol + rtol * pnp.abs(x)) & (fa != 0) & (fb != 0) & (k < maxiter)

    def body(s):
        a, b, fa, fb, _, k = s
        m = 0.5 * (a + b)
        fm = f(m)
        root = pnp.sqrt(fm * fm - fa * fb)
        x = m + (m - a) * pnp.sign(fa - fb) * fm / pnp.where(root == 0, 1, root)
        x = pnp.where(root == 0, m, x)
        fx = f(x)
        lo, hi = pnp.minimum(m, x), pnp.maximum(m, x)
        flo, fhi = pnp.where(m < x, fm, fx), pnp.where(m < x, fx, fm)
        # candidate brackets, innermost first: [lo, hi], [a, lo], [hi, b]
        in_mid = pnp.sign(flo) != pnp.sign(fhi)
        in_left = pnp.sign(fa) != pnp.sign(flo)
        na = pnp.where(in_mid, lo, pnp.where(in_left, a, hi))
        nb = pnp.where(in_mid, hi, pnp.where(in_left, lo, b))
        nfa = pnp.where(in_mid, flo, pnp.where(in_left, fa, fhi))
        nfb = pnp.where(in_mid, fhi, pnp.where(in_left, flo, fb))
        best = pnp.where(pnp.abs(fx) <= pnp.abs(fm), x, m)
        return na, nb, nfa, nfb, best, k + 1

    a, b, fa, fb, x, k = lax.while_loop(cond, body, (a, b, fa, fb, 0.5 * (a + b), pnp.asarray(0)))
    x = pnp.where(fa == 0, a, pnp.where(fb == 0, b, x))
    return x, k, 2 * k


def _open_method(fx: Callable, deriv: Callable | None, deriv2: Callable | None, method: str, x0, x1,
                 xtol, rtol, maxiter):
    """newton (x - f/f'), halley (x - 2ff'/(2f'^2 - ff'')) and secant (through the last two
    iterates), stopped when the step is below xtol + rtol |x|."""

    def cond(s):
        x, _, _, step, k = s
        return (pnp.abs(step) > xtol + rtol * pnp.abs(x)) & (k < maxiter) & pnp.isfinite(step)

    def body(s):
        x, xprev, fprev, _, k = s
        f = fx(x)
        if method == "secant":
            step = f * (x - xprev) / pnp.where(f == fprev, 1, f - fprev)
            step = pnp.where(f == fprev, 0, step)
        elif method == "halley":
            d1, d2 = deriv(x), deriv2(x)
            step = 2 * f * d1 / (2 * d1 * d1 - f * d2)
        else:
            step = f / deriv(x)
        step = pnp.where(f == 0, 0, step)
        return x - step, x, f, step, k + 1

    start = x1 if method == "secant" else x0
    prev = x0 if method == "secant" else x0
    fprev = fx(prev) if method == "secant" else pnp.zeros_like(x0)
    x, _, _, step, k = lax.while_loop(cond, body, (start, prev, fprev, pnp.ones_like(x0), pnp.asarray(0)))
    return x, k, k * (1 if method == "secant" else 2 if method == "newton" else 3)


def root_scalar(f: Callable, args: tuple = (), method: str | None = None, bracket: Any = None,
                fprime: Callable | bool | None = None, fprime2: Callable | bool | None = None, x0: Any = None,
                x1: Any = None, xtol: float | None = None, rtol: float | None = None, maxiter: int | None = None,
                options: dict | None = None):
    """A root of the scalar f(x, *args), scipy's signature and methods: 'bisect', 'brentq',
    'brenth', 'ridder' in a sign-changing bracket [a, b]; 'newton' (fprime by autodiff
    when not given), 'halley' (fprime2 too) from x0; 'secant' from x0 and x1 (default
    x0 * 1.0001 + 1e-4). The method defaults to brentq with a bracket, newton otherwise.
    The root is differentiated with respect to args implicitly.

    Args:
        f: the scalar function f(x, *args).
        args: extra arguments passed to f (and to fprime/fprime2); a non-tuple is one argument, as in scipy.
        method: one of the methods above; None picks one from the other arguments.
        bracket: [a, b] with f(a) and f(b) of different signs, for the bracketing methods.
        fprime, fprime2: callables for the first and second derivative, or True when f returns them
            with its value (scipy's convention); otherwise autodiff.
        x0, x1: starting points for the open methods.
        xtol, rtol: absolute and relative tolerances on x (default 2e-12 and 4 eps).
        maxiter: the iteration limit (default 100).
        options: a dict that may override xtol, rtol and maxiter ('disp' is ignored; other keys are refused).

    Returns:
        A RootScalarResults.

    Examples:
        >>> from padax.scipy import optimize
        >>> res = optimize.root_scalar(lambda x: x ** 3 - 2.0, bracket=[0.0, 2.0], method="brentq")
        >>> round(float(res.root), 5), bool(res.converged)  # the cube root of 2
        (1.25992, True)
    """
    if not isinstance(args, tuple):
        args = (args,)
    options = dict(options or {})
    options.pop("disp", None)
    unknown = sorted(set(options) - {"xtol", "rtol", "maxiter"})
    if unknown:
        raise op_value_error(_OP, f"unknown options {unknown}; padax reads 'xtol', 'rtol' and 'maxiter'")
    xtol = float(options.get("xtol", 2e-12 if xtol is None else xtol))
    rtol = float(options.get("rtol", 4 * 2.220446049250313e-16 if rtol is None else rtol))
    maxiter = int(options.get("maxiter", 100 if maxiter is None else maxiter))
    if method is None:
        method = "brentq" if bracket is not None else ("secant" if x1 is not None and fprime is None else "newton")
    method = str(method).lower()
    if method not in BRACKETING + OPEN:
        raise op_value_error(_OP, f"method must be one of {list(BRACKETING + OPEN)}, got {method!r}")

    # as scipy: fprime=True means f returns (f, f'); fprime2=True too means (f, f', f'')
    packed = fprime is True

    def fx(x):
        return f(x, *args)[0] if packed else f(x, *args)

    arg_dts = [pnp.asarray(v).dtype for v in tree.leaves(args)]
    if method in BRACKETING:
        if bracket is None or len(bracket) != 2:
            raise op_value_error(_OP, f"method {method!r} needs bracket=[a, b]")
        a, b = pnp.asarray(scipy_floats(bracket[0])), pnp.asarray(scipy_floats(bracket[1]))
        # as precise as the problem's data: float64 parameters give a float64 bracket
        dt = pnp.result_type(a.dtype, b.dtype, pnp.float32, *[d for d in arg_dts if pnp.issubdtype(d, pnp.inexact)])
        a, b = a.astype(dt), b.astype(dt)
        fa, fb = fx(a), fx(b)
        if not any(isinstance(v, Tracer) for v in (fa, fb)) and float(fa) * float(fb) > 0:
            raise op_value_error(_OP, f"f(a) and f(b) must have different signs; got f({float(a)})={float(fa)}, "
                                      f"f({float(b)})={float(fb)}")
        fa, fb = pnp.asarray(fa).astype(dt), pnp.asarray(fb).astype(dt)
        guess = 0.5 * (a + b)

        def run(_, g0):
            if method == "bisect":
                return _bisect(fx, a, b, fa, fb, xtol, rtol, maxiter)
            if method == "ridder":
                return _ridder(fx, a, b, fa, fb, xtol, rtol, maxiter)
            return _brent(fx, a, b, fa, fb, xtol, rtol, maxiter, hyperbolic=method == "brenth")
    else:
        if x0 is None:
            raise op_value_error(_OP, f"method {method!r} needs x0")
        guess = pnp.asarray(scipy_floats(x0))
        guess = guess.astype(pnp.result_type(guess.dtype, pnp.float32,
                                             *[d for d in arg_dts if pnp.issubdtype(d, pnp.floating)]))
        second = None
        if method == "secant":
            second = (pnp.asarray(scipy_floats(x1)).astype(guess.dtype) if x1 is not None
                      else guess * 1.0001 + pnp.where(guess >= 0, 1e-4, -1e-4).astype(guess.dtype))
        if packed:
            deriv = lambda z: f(z, *args)[1]  # noqa: E731
        else:
            deriv = (lambda z: fprime(z, *args)) if callable(fprime) else grad(fx)
        if packed and fprime2 is True:
            deriv2 = lambda z: f(z, *args)[2]  # noqa: E731
        else:
            deriv2 = (lambda z: fprime2(z, *args)) if callable(fprime2) else grad(deriv)

        def run(_, g0):
            return _open_method(fx, deriv, deriv2, method, g0, second, xtol, rtol, maxiter)

    out_dt = pnp.asarray(fx(guess)).dtype
    if out_dt != guess.dtype and pnp.issubdtype(out_dt, pnp.floating):
        guess = guess.astype(out_dt)
    # a tolerance the dtype can meet: scipy's default rtol is 4 eps of float64
    rtol = max(rtol, 4 * float(pnp.finfo(guess.dtype).eps))
    x, (k, nfev) = lax.custom_root(fx, guess, lambda F, g0: _pair(run(F, g0)), lambda g, y: y / g(pnp.ones_like(y)),
                               has_aux=True)
    return RootScalarResults(root=x, converged=k < maxiter, iterations=k, function_calls=nfev + 2)


def _pair(out):
    x, k, nfev = out
    return x, (k, nfev)
