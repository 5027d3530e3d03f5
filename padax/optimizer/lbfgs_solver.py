"""`lbfgs_minimize`: Paddle's L-BFGS (padax.optimizer.LBFGS) as one pure, jittable function.

    res = padax.jit(lambda x0: padax.optimizer.lbfgs_minimize(f, x0, max_iter=100,
                                                            line_search_fn="strong_wolfe"))(x0)
    res.position, res.value, res.converged

It runs the iterations of one `LBFGS.step` call from a fresh state (the same tolerances, the
same first step min(1, 1/|g|_1) * learning_rate, the same strong-Wolfe bracketing and cubic zoom)
with `lax.while_loop`/`lax.cond` in place of Python control flow, so it compiles into one program
and its iterates are the eager optimizer's. The two-loop recursion is padax.scipy.optimize's.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Callable

import padax
import padax.lax as lax
import padax.numpy as pnp
from padax import tree as tree_util
from padax.flatten_util import ravel_pytree as _ravel_pytree
from padax.optimizer.lbfgs import LBFGS as _LBFGS
from padax.scipy.optimize._minimize import lbfgs_direction as _lbfgs_direction


@dataclasses.dataclass
class LBFGSResult:
    """position (x0's pytree), value and grad (at the last evaluated point: the position, except after a
    fixed step on the final iteration), converged (a tolerance, not max_iter/max_eval, ended the run),
    n_iter, func_evals.

    Args:
        position: the minimiser found, a pytree like x0.
        value, grad: objective value and gradient at the last evaluated point.
        converged: bool array, True when a tolerance ended the run.
        n_iter, func_evals: iterations done and objective evaluations used.

    Returns:
        A pytree node (it passes through jit and vmap).

    Examples:
        >>> import padax
        >>> res = padax.optimizer.lbfgs_minimize(lambda x: padax.sum(x ** 2), padax.to_tensor([3.0]))
        >>> type(res).__name__, res.position.tolist(), bool(res.converged)
        ('LBFGSResult', [0.0], True)
    """

    position: Any
    value: Any
    grad: Any
    converged: Any
    n_iter: Any
    func_evals: Any


tree_util.register_node(LBFGSResult, lambda r: (tuple(getattr(r, f.name) for f in dataclasses.fields(r)), None),
                        lambda _, ch: LBFGSResult(*ch))


def _cubic_min(x1, f1, g1, x2, f2, g2, lo, hi):
    """The minimiser of the cubic through (x1, f1, g1), (x2, f2, g2), clipped to [lo, hi]; the
    midpoint when the cubic has no real minimiser."""
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    disc = d1 * d1 - g1 * g2
    d2 = pnp.sqrt(pnp.maximum(disc, 0))
    xa = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
    xb = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
    x = pnp.where(x1 <= x2, xa, xb)
    return pnp.where(disc < 0, (lo + hi) / 2, pnp.minimum(pnp.maximum(x, lo), hi))


def _pick(pair, i):
    """pair[i] for a traced index i in {0, 1}."""
    return pnp.where(i == 0, pair[0], pair[1])


def _put(pair, i, v):
    """pair with entry i (traced, 0 or 1) replaced by v."""
    mask = pnp.arange(2) == i
    return pnp.where(mask.reshape((2,) + (1,) * (pair.ndim - 1)), v, pair)


def _strong_wolfe(f_and_g, x, t, d, f, g, gtd, c1=1e-4, c2=0.9, tolerance_change=1e-9, max_ls=25):
    """A step t along d meeting the strong Wolfe conditions: bracketing, then cubic zoom (the eager
    `padax.optimizer.lbfgs._strong_wolfe`). Returns (loss, gradient, t, evaluations)."""
    d_norm = pnp.max(pnp.abs(d))
    f_new, g_new = f_and_g(x + t * d)
    zero = pnp.zeros((), t.dtype)
    i0 = pnp.asarray(0, dtype="int32")

    def checks(s):
        t, f_new, g_new, gtd_new, t_prev, f_prev, g_prev, gtd_prev, ls_iter, evals = s
        sufficient = ~((f_new > f + c1 * t * gtd) | ((ls_iter > 1) & (f_new >= f_prev)))
        wolfe = sufficient & (pnp.abs(gtd_new) <= -c2 * gtd)
        return wolfe, ~wolfe & (~sufficient | (gtd_new >= 0))

    def bracket_cond(s):
        wolfe, bracketed = checks(s)
        return (s[8] < max_ls) & ~wolfe & ~bracketed

    def bracket_body(s):
        t, f_new, g_new, gtd_new, t_prev, f_prev, g_prev, gtd_prev, ls_iter, evals = s
        t_next = _cubic_min(t_prev, f_prev, gtd_prev, t, f_new, gtd_new, t + 0.01 * (t - t_prev), t * 10)
        f_n, g_n = f_and_g(x + t_next * d)
        return t_next, f_n, g_n, pnp.sum(g_n * d), t, f_new, g_new, gtd_new, ls_iter + 1, evals + 1

    s = lax.while_loop(bracket_cond, bracket_body,
                       (t, f_new, g_new, pnp.sum(g_new * d), zero, f, g, gtd, i0, i0 + 1))
    t, f_new, g_new, gtd_new, t_prev, f_prev, g_prev, gtd_prev, ls_iter, evals = s
    wolfe, _ = checks(s)
    exhausted = ls_iter >= max_ls
    done = wolfe & ~exhausted
    # the bracket: [t, t] when the Wolfe point was found, [t_prev, t] when bracketed, [0, t] when exhausted
    lo_t = pnp.where(done, t, pnp.where(exhausted, zero, t_prev))
    lo_f = pnp.where(done, f_new, pnp.where(exhausted, f, f_prev))
    lo_g = pnp.where(done, g_new, pnp.where(exhausted, g, g_prev))
    lo_gtd = pnp.where(done, gtd_new, pnp.where(exhausted, gtd, gtd_prev))
    b, bf = pnp.stack([lo_t, t]), pnp.stack([lo_f, f_new])
    bg, bgtd = pnp.stack([lo_g, g_new]), pnp.stack([lo_gtd, gtd_new])
    low = pnp.where(bf[0] <= bf[1], 0, 1).astype("int32")

    def zoom_cond(z):
        b, bf, bg, bgtd, low, insufficient, done, ls_iter, evals = z
        return ~done & (ls_iter < max_ls) & (pnp.abs(b[1] - b[0]) * d_norm >= tolerance_change)

    def zoom_body(z):
        b, bf, bg, bgtd, low, insufficient, done, ls_iter, evals = z
        high = 1 - low
        top, bottom = pnp.max(b), pnp.min(b)
        t = _cubic_min(b[0], bf[0], bgtd[0], b[1], bf[1], bgtd[1], bottom, top)
        eps = 0.1 * (top - bottom)
        near = pnp.minimum(top - t, t - bottom) < eps
        outside = insufficient | (t >= top) | (t <= bottom)
        moved = pnp.where(pnp.abs(t - top) < pnp.abs(t - bottom), top - eps, bottom + eps)
        t = pnp.where(near & outside, moved, t)
        insufficient = near & ~outside
        f_n, g_n = f_and_g(x + t * d)
        gtd_n = pnp.sum(g_n * d)
        too_high = (f_n > f + c1 * t * gtd) | (f_n >= _pick(bf, low))
        # too high: the new point replaces the high end; else it becomes the low end (the old low end
        # moving to the high end when the slope says the minimum lies beyond it)
        a = (_put(b, high, t), _put(bf, high, f_n), _put(bg, high, g_n), _put(bgtd, high, gtd_n))
        found = pnp.abs(gtd_n) <= -c2 * gtd
        swap = ~found & (gtd_n * (_pick(b, high) - _pick(b, low)) >= 0)
        kept = [pnp.where(swap, _put(v, high, _pick(v, low)), v) for v in (b, bf, bg, bgtd)]
        c = tuple(_put(v, low, new) for v, new in zip(kept, (t, f_n, g_n, gtd_n)))
        nb, nbf, nbg, nbgtd = (pnp.where(too_high, u, w) for u, w in zip(a, c))
        new_low = pnp.where(too_high, pnp.where(nbf[0] <= nbf[1], 0, 1).astype("int32"), low)
        return nb, nbf, nbg, nbgtd, new_low, insufficient, ~too_high & found, ls_iter + 1, evals + 1

    z = lax.while_loop(zoom_cond, zoom_body, (b, bf, bg, bgtd, low, pnp.asarray(False), done, ls_iter, evals))
    b, bf, bg, bgtd, low, _, _, _, evals = z
    return _pick(bf, low), _pick(bg, low), _pick(b, low), evals


def lbfgs_minimize(fun: Callable[[Any], Any], x0: Any, *, learning_rate: float = 1.0, max_iter: int = 20,
                   max_eval: int | None = None, tolerance_grad: float = 1e-7, tolerance_change: float = 1e-9,
                   history_size: int = 100, line_search_fn: str | None = None) -> LBFGSResult:
    """Minimise the scalar fun(x) from x0 (an array or a pytree of float arrays) with Paddle's L-BFGS;
    pure and jittable (the settings are Python values). The arguments are `padax.optimizer.LBFGS`'s, and
    the result's position is what one `LBFGS.step` from a fresh state returns.

    Args:
        fun: scalar objective of one argument shaped like `x0`.
        x0: the starting point, an array or a pytree of float arrays.
        learning_rate: step length (the line search's first trial when `line_search_fn` is 'strong_wolfe').
        max_iter: most iterations.
        max_eval: most objective evaluations (None: max_iter * 5 // 4).
        tolerance_grad: stop when the largest gradient entry is at most this.
        tolerance_change: stop when the step or the change of value is at most this.
        history_size: number of past curvature pairs kept.
        line_search_fn: None (fixed steps) or 'strong_wolfe'.

    Returns:
        An `LBFGSResult` (position, value, grad, converged, n_iter, func_evals).

    Examples:
        >>> import padax
        >>> f = lambda x: padax.sum((x - padax.to_tensor([1.0, 2.0])) ** 2)
        >>> res = padax.jit(lambda x0: padax.optimizer.lbfgs_minimize(f, x0, line_search_fn="strong_wolfe"))(
        ...     padax.to_tensor([0.0, 0.0]))
        >>> res.position.tolist(), bool(res.converged), int(res.n_iter)
        ([1.0, 2.0], True, 3)
    """
    opt = _LBFGS(learning_rate, max_iter, max_eval, tolerance_grad, tolerance_change, history_size, line_search_fn)
    x_flat, unravel = _ravel_pytree(x0)
    if not pnp.issubdtype(x_flat.dtype, pnp.floating):
        raise TypeError(f"padax.optimizer.lbfgs_minimize: x0 must hold floating-point arrays, got {x_flat.dtype}")
    dt, n, m = x_flat.dtype, x_flat.shape[0], opt.history_size
    f_and_g = padax.value_and_grad(lambda v: fun(unravel(v)))
    lr, tol_change = opt.learning_rate, opt.tolerance_change
    loss0, g0 = f_and_g(x_flat)
    i0 = pnp.asarray(0, dtype="int32")
    state = dict(x=x_flat, loss=loss0, g=g0, d=pnp.zeros_like(x_flat), t=pnp.zeros((), dt),
                 S=pnp.zeros((m, n), dt), Y=pnp.zeros((m, n), dt), R=pnp.zeros((m,), dt), stored=i0,
                 n_iter=i0, evals=i0 + 1, converged=pnp.asarray(True), stop=pnp.max(pnp.abs(g0)) <= opt.tolerance_grad,
                 prev_g=g0)

    def cond(s):
        return ~s["stop"] & (s["n_iter"] < opt.max_iter)

    def body(s):
        s = dict(s)
        n_iter = s["n_iter"] + 1
        g, loss = s["g"], s["loss"]
        # store the last step's curvature pair when it is positive (from the second iteration on)
        y, sv = g - s["prev_g"], s["d"] * s["t"]
        ys = pnp.sum(y * sv)
        push = (n_iter > 1) & (ys > 1e-10)
        j = s["stored"] % m
        S = pnp.where(push, s["S"].at[j].set(sv), s["S"])
        Y = pnp.where(push, s["Y"].at[j].set(y), s["Y"])
        R = pnp.where(push, s["R"].at[j].set(1.0 / pnp.where(push, ys, 1.0)), s["R"])
        stored = s["stored"] + push.astype("int32")
        d = _lbfgs_direction(g, S, Y, R, stored)
        first = pnp.minimum(1.0, 1.0 / pnp.sum(pnp.abs(g))).astype(dt)
        t = pnp.where(n_iter == 1, first, pnp.ones((), dt)) * lr
        gtd = pnp.sum(g * d)

        def search(x, loss, g):
            if opt.line_search_fn is not None:
                loss_n, g_n, t_n, ls_evals = _strong_wolfe(f_and_g, x, t, d, loss, g, gtd,
                                                           tolerance_change=tol_change)
                return x + t_n * d, loss_n, g_n, t_n, ls_evals, pnp.max(pnp.abs(g_n)) <= opt.tolerance_grad
            x_n = x + t * d
            evaluate = n_iter != opt.max_iter
            loss_n, g_n = lax.cond(evaluate, f_and_g, lambda v: (loss, g), x_n)
            ok = evaluate & (pnp.max(pnp.abs(g_n)) <= opt.tolerance_grad)
            return x_n, loss_n, g_n, t, evaluate.astype("int32"), ok

        def skip(x, loss, g):  # the direction is not a descent direction: stop where we are
            return x, loss, g, t, i0, pnp.asarray(False)

        uphill = gtd > -tol_change
        x, loss_n, g_n, t, ls_evals, converged = lax.cond(uphill, skip, search, s["x"], loss, g)
        evals = s["evals"] + ls_evals
        small = converged | (pnp.max(pnp.abs(d * t)) <= tol_change) | (pnp.abs(loss_n - loss) < tol_change)
        budget = (evals >= opt.max_eval) | (n_iter == opt.max_iter)
        s.update(x=x, loss=loss_n, g=g_n, d=d, t=t, S=S, Y=Y, R=R, stored=stored, n_iter=n_iter, evals=evals,
                 prev_g=g, converged=s["converged"] & (uphill | small | ~budget),
                 stop=uphill | small | budget)
        return s

    s = lax.while_loop(cond, body, state)
    return LBFGSResult(unravel(s["x"]), s["loss"], unravel(s["g"]), s["converged"], s["n_iter"], s["evals"])
