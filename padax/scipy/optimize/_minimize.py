"""`minimize` (BFGS, L-BFGS(-B by projection), Newton-CG, trust-exact) on pytrees, jittable; the
solution is differentiated with respect to `args` implicitly (grad f(x*, args) = 0 through
padax.lax.custom_root), never through the iterations."""
from __future__ import annotations

import dataclasses
from typing import Any, Callable

import numpy as np

import padax.lax as lax
import padax.numpy as pnp
from padax import grad, jacfwd, jvp, tree as tree_util, value_and_grad
from padax.core.errors import op_value_error
from padax.core.trace import Tracer
from padax.flatten_util import ravel_pytree
from padax.implicit import dense_solve, normal_cg_solve
from padax.linalg import eigh
from padax.scipy.optimize._dtypes import scipy_floats

_OP = "padax.scipy.optimize.minimize"


@dataclasses.dataclass
class OptimizeResults:
    """The result of `minimize`, with scipy's fields.

    Args:
        x: the solution (x0's pytree).
        success: status == 0.
        status: 0 converged, 1 max iterations reached, 3 line search failed or NaN.
        fun: the objective at x.
        jac: the gradient at x.
        hess_inv: the inverse Hessian estimate (BFGS only, else None).
        nfev, njev: numbers of function and gradient evaluations.
        nit: number of iterations.

    Examples:
        >>> import padax
        >>> from padax.scipy import optimize
        >>> res = optimize.minimize(lambda v: padax.sum((v - 3.0) ** 2), padax.to_tensor([0.0]), method="BFGS")
        >>> res.x.tolist(), round(float(res.fun), 6), res.message
        ([3.0], 0.0, 'Optimization terminated successfully.')
    """

    x: Any
    success: Any
    status: Any
    fun: Any
    jac: Any
    hess_inv: Any
    nfev: Any
    njev: Any
    nit: Any

    @property
    def message(self) -> str:
        return {0: "Optimization terminated successfully.", 1: "Maximum number of iterations has been exceeded.",
                3: "Desired error not necessarily achieved due to a failed line search or NaN."}[
            int(np.asarray(self.status))]


tree_util.register_node(OptimizeResults, lambda r: (tuple(getattr(r, f.name) for f in dataclasses.fields(r)), None),
                        lambda _, ch: OptimizeResults(*ch))


@dataclasses.dataclass
class Bounds:
    """Box bounds lb <= x <= ub (scipy.optimize.Bounds): scalars or arrays broadcast to the
    flattened variables; -inf/inf (or None) leave a side unbounded.

    Args:
        lb: the lower bounds (default -inf).
        ub: the upper bounds (default inf).
        keep_feasible: accepted for scipy compatibility (iterates always stay inside the box).

    Examples:
        >>> import padax
        >>> from padax.scipy import optimize
        >>> res = optimize.minimize(lambda v: padax.sum((v - 3.0) ** 2), padax.to_tensor([0.0, 0.0]),
        ...                         method="L-BFGS-B", bounds=optimize.Bounds(0.0, [2.0, 5.0]))
        >>> res.x.tolist()
        [2.0, 3.0]
    """

    lb: Any = -np.inf
    ub: Any = np.inf
    keep_feasible: Any = False


def _is_number(v) -> bool:
    return v is None or isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)


def _side(v, n: int, dt, default: float, what: str, given):
    """One side of a Bounds-like object as an (n,) array: a scalar, or an array of n elements."""
    if v is None:
        v = default
    if _is_number(v) or isinstance(v, (list, tuple, np.ndarray)):
        a = np.asarray(v, dtype=object if isinstance(v, (list, tuple)) else None)
        if a.dtype == object:
            a = np.asarray([default if e is None else e for e in a.ravel()], dtype=np.float64).reshape(a.shape)
        arr = np.asarray(a, dtype=np.float64)
    else:
        arr = pnp.asarray(v)
    if arr.size == n:
        arr = arr.reshape((n,))
    elif arr.size == 1:
        arr = arr.reshape(())
    else:
        raise op_value_error(_OP, f"bounds.{what} has shape {tuple(np.shape(arr))}, which fits neither a scalar "
                                  f"nor the {n} variables of x0 (bounds given: {given!r})")
    return pnp.broadcast_to(pnp.asarray(arr, dtype=dt), (n,))


def standardize_bounds(bounds: Any, n: int, dt, op: str = _OP):
    """scipy's forms of `bounds` as (lb, ub) arrays of shape (n,): a sequence of n (lo, hi)
    pairs (None for an unbounded side), or an object with `lb` and `ub` (scipy.optimize.Bounds,
    padax.scipy.optimize.Bounds). Anything else is refused: a bare (lower, upper) pair of
    arrays would be read as per-variable pairs by scipy."""
    if hasattr(bounds, "lb") and hasattr(bounds, "ub"):
        return _side(bounds.lb, n, dt, -np.inf, "lb", bounds), _side(bounds.ub, n, dt, np.inf, "ub", bounds)
    hint = ("give one (lo, hi) pair per variable, e.g. [(0, 2)] * n, with None for an unbounded side, "
            "or padax.scipy.optimize.Bounds(lb, ub) for arrays or scalars")
    shape = getattr(bounds, "shape", None)
    if shape is not None and len(shape) == 2 and shape[1] == 2:  # an (n, 2) array of pairs
        bounds = [(bounds[i, 0], bounds[i, 1]) for i in range(shape[0])]
    if not isinstance(bounds, (list, tuple)):
        raise op_value_error(op, f"bounds must be a sequence of (lo, hi) pairs or a Bounds object, got "
                                 f"{type(bounds).__name__}; {hint}")
    pairs = list(bounds)
    bad = [i for i, p in enumerate(pairs)
           if not (isinstance(p, (list, tuple, np.ndarray)) and len(p) == 2)]
    if bad:
        i = bad[0]
        raise op_value_error(op, f"bounds[{i}] is {pairs[i]!r}, not a (lo, hi) pair; {hint}")
    if len(pairs) != n:
        raise op_value_error(op, f"bounds has {len(pairs)} (lo, hi) pairs but x0 has {n} variables; {hint}")
    sides = []
    for k, default in ((0, -np.inf), (1, np.inf)):
        vals = [default if p[k] is None else p[k] for p in pairs]
        for i, v in enumerate(vals):
            if np.ndim(v) != 0:
                raise op_value_error(op, f"bounds[{i}][{k}] has shape {tuple(np.shape(v))}; each side of a "
                                         f"(lo, hi) pair is a scalar")
        if all(_is_number(v) for v in vals):
            sides.append(pnp.asarray(np.asarray(vals, dtype=np.float64).reshape((n,)), dtype=dt))
        else:
            sides.append(pnp.stack([pnp.asarray(v, dtype=dt).reshape(()) for v in vals]) if n else
                         pnp.zeros((0,), dt))
    return sides[0], sides[1]


def check_bound_order(lb, ub, op: str = _OP) -> None:
    """A ValueError where a lower bound exceeds its upper bound (when the bounds are concrete)."""
    if isinstance(lb, Tracer) or isinstance(ub, Tracer):
        return
    lv, uv = np.asarray(lb), np.asarray(ub)
    bad = np.flatnonzero(lv > uv)
    if bad.size:
        i = int(bad[0])
        raise op_value_error(op, f"the lower bound exceeds the upper bound at variable {i} "
                                 f"({float(lv[i])} > {float(uv[i])})")


def _line_search(f_and_g: Callable, x, fx, gx, d, bounds, max_tries: int = 40):
    """Backtracking line search along d (Armijo condition, halving), projected onto bounds;
    returns (alpha, x_new, f_new, g_new, ok, evaluations)."""
    slope = pnp.sum(gx * d)

    def project(z):
        return z if bounds is None else pnp.clip(z, bounds[0], bounds[1])

    def cond(s):
        alpha, xn, fn, gn, k = s
        bad = ~pnp.isfinite(fn) | (fn > fx + 1e-4 * pnp.sum(gx * (xn - x)))
        return bad & (k < max_tries)

    def body(s):
        alpha, _, _, _, k = s
        alpha = alpha * 0.5
        xn = project(x + alpha * d)
        fn, gn = f_and_g(xn)
        return alpha, xn, fn, gn, k + 1

    x1 = project(x + d)
    f1, g1 = f_and_g(x1)
    alpha, xn, fn, gn, k = lax.while_loop(cond, body, (pnp.ones_like(fx), x1, f1, g1, pnp.asarray(0)))
    ok = pnp.isfinite(fn) & (fn <= fx + 1e-4 * pnp.sum(gx * (xn - x))) & (slope < 0)
    return alpha, xn, fn, gn, ok, k + 1


def _pg_norm(x, g, bounds):
    if bounds is None:
        return pnp.max(pnp.abs(g))
    return pnp.max(pnp.abs(x - pnp.clip(x - g, bounds[0], bounds[1])))


def _bfgs(f_and_g, x0, gtol, maxiter, bounds):
    n = x0.shape[0]
    f0, g0 = f_and_g(x0)
    eye = pnp.eye(n, dtype=x0.dtype)

    def cond(s):
        x, fx, gx, H, k, nfev, status = s
        return (k < maxiter) & (_pg_norm(x, gx, bounds) > gtol) & (status == 0)

    def body(s):
        x, fx, gx, H, k, nfev, status = s
        d = -(H @ gx)
        d = pnp.where(pnp.sum(d * gx) < 0, d, -gx)
        _, xn, fn, gn, ok, ev = _line_search(f_and_g, x, fx, gx, d, bounds)
        sv, yv = xn - x, gn - gx
        sy = pnp.sum(sv * yv)
        good = sy > 1e-12
        safe_sy = pnp.where(good, sy, 1.0)
        # on the first step, start from the identity scaled by s.y / y.y (Nocedal & Wright 6.20)
        Hb = pnp.where((k == 0) & good, (safe_sy / pnp.maximum(pnp.sum(yv * yv), 1e-300)) * eye, H)
        # the inverse-Hessian update in O(n^2): H + (sy + y.Hy) ss^T / sy^2 - (Hy s^T + s (Hy)^T) / sy
        Hy = Hb @ yv
        upd = Hb + ((safe_sy + pnp.sum(yv * Hy)) / (safe_sy * safe_sy)) * pnp.outer(sv, sv) \
            - (pnp.outer(Hy, sv) + pnp.outer(sv, Hy)) / safe_sy
        Hn = pnp.where(good, upd, H)
        status = pnp.where(ok, 0, 3)
        return (pnp.where(ok, xn, x), pnp.where(ok, fn, fx), pnp.where(ok, gn, gx), Hn, k + 1, nfev + ev, status)

    s = lax.while_loop(cond, body, (x0, f0, g0, eye, pnp.asarray(0), pnp.asarray(1), pnp.asarray(0)))
    return s[0], s[1], s[2], s[3], s[4], s[5], s[6]


def lbfgs_direction(g, S, Y, R, k):
    """-H g by the L-BFGS two-loop recursion over a ring buffer of curvature pairs: rows of S (steps)
    and Y (gradient changes), R = 1 / (s.y) (0 in empty slots), k pairs stored so far (the newest at
    (k - 1) % m); H starts from the identity scaled by s.y / y.y of the newest pair."""
    m = S.shape[0]

    def first(i, c):  # newest first
        q, alphas = c
        j = (k - 1 - i) % m
        a = R[j] * pnp.sum(S[j] * q)
        return q - a * Y[j], alphas.at[j].set(a)
    q, alphas = lax.fori_loop(0, m, first, (g, pnp.zeros((m,), dtype=g.dtype)))
    jn = (k - 1) % m
    yy = pnp.sum(Y[jn] * Y[jn])
    gamma = pnp.where((k > 0) & (yy > 0), pnp.sum(S[jn] * Y[jn]) / pnp.where(yy > 0, yy, 1.0), 1.0)
    r = gamma * q

    def second(i, r):
        j = (k - m + i) % m
        b = R[j] * pnp.sum(Y[j] * r)
        return r + S[j] * (alphas[j] - b)
    return -lax.fori_loop(0, m, second, r)


def _lbfgs(f_and_g, x0, gtol, maxiter, bounds, m: int = 10):
    n = x0.shape[0]
    f0, g0 = f_and_g(x0)
    S = pnp.zeros((m, n), dtype=x0.dtype)
    Y = pnp.zeros((m, n), dtype=x0.dtype)
    R = pnp.zeros((m,), dtype=x0.dtype)
    direction = lbfgs_direction

    def cond(s):
        x, fx, gx, S, Y, R, k, stored, nfev, status = s
        return (k < maxiter) & (_pg_norm(x, gx, bounds) > gtol) & (status == 0)

    def body(s):
        x, fx, gx, S, Y, R, k, stored, nfev, status = s
        d = direction(gx, S, Y, R, stored)
        d = pnp.where(pnp.sum(d * gx) < 0, d, -gx)
        _, xn, fn, gn, ok, ev = _line_search(f_and_g, x, fx, gx, d, bounds)
        sv, yv = xn - x, gn - gx
        sy = pnp.sum(sv * yv)
        keep = sy > 1e-12
        j = stored % m
        S = pnp.where(keep, S.at[j].set(sv), S)
        Y = pnp.where(keep, Y.at[j].set(yv), Y)
        R = pnp.where(keep, R.at[j].set(1.0 / pnp.where(keep, sy, 1.0)), R)
        stored = stored + keep.astype(stored.dtype)
        status = pnp.where(ok, 0, 3)
        return (pnp.where(ok, xn, x), pnp.where(ok, fn, fx), pnp.where(ok, gn, gx), S, Y, R, k + 1, stored,
                nfev + ev, status)

    z = pnp.asarray(0)
    s = lax.while_loop(cond, body, (x0, f0, g0, S, Y, R, z, z, pnp.asarray(1), z))
    return s[0], s[1], s[2], None, s[6], s[8], s[9]


def _truncated_cg(hvp: Callable, g, maxiter: int):
    """Approximate Newton direction H d = -g by conjugate gradients, stopped at the forcing
    tolerance min(0.5, sqrt|g|) |g| or at the first direction of non-positive curvature
    (then the last iterate, or -g if there is none: Nocedal & Wright, algorithm 7.1)."""
    gnorm = pnp.sqrt(pnp.sum(g * g))
    eta = pnp.minimum(0.5, pnp.sqrt(gnorm)) * gnorm

    def cond(s):
        z, r, d, k, stop = s
        return (~stop) & (k < maxiter)

    def body(s):
        z, r, d, k, _ = s
        Bd = hvp(d)
        curv = pnp.sum(d * Bd)
        neg = curv <= 0
        rr = pnp.sum(r * r)
        alpha = rr / pnp.where(neg, 1.0, curv)
        z_n = z + alpha * d
        r_n = r + alpha * Bd
        beta = pnp.sum(r_n * r_n) / rr
        z_out = pnp.where(neg, pnp.where(k == 0, -g, z), z_n)
        stop = neg | (pnp.sqrt(pnp.sum(r_n * r_n)) < eta)
        return z_out, pnp.where(neg, r, r_n), pnp.where(neg, d, -r_n + beta * d), k + 1, stop

    z, *_ = lax.while_loop(cond, body, (g * 0, g, -g, pnp.asarray(0), gnorm == 0))
    return z


def _newton_cg(f_and_g, grad_fn, x0, gtol, maxiter):
    f0, g0 = f_and_g(x0)

    def cond(s):
        x, fx, gx, k, nfev, status = s
        return (k < maxiter) & (pnp.max(pnp.abs(gx)) > gtol) & (status == 0)

    def body(s):
        x, fx, gx, k, nfev, status = s
        hvp = lambda v: jvp(grad_fn, (x,), (v,))[1]  # noqa: E731
        d = _truncated_cg(hvp, gx, 2 * x.shape[0] + 10)
        d = pnp.where(pnp.isfinite(pnp.sum(d)) & (pnp.sum(d * gx) < 0), d, -gx)
        _, xn, fn, gn, ok, ev = _line_search(f_and_g, x, fx, gx, d, None)
        status = pnp.where(ok, 0, 3)
        return pnp.where(ok, xn, x), pnp.where(ok, fn, fx), pnp.where(ok, gn, gx), k + 1, nfev + ev, status

    z = pnp.asarray(0)
    s = lax.while_loop(cond, body, (x0, f0, g0, z, pnp.asarray(1), z))
    return s[0], s[1], s[2], None, s[3], s[4], s[5]


def _trust_subproblem(g, H, radius, iters: int = 60):
    """argmin g.p + p.H.p / 2 over |p| <= radius, exactly (Nocedal & Wright 4.3) through H's
    eigendecomposition: the Newton step if it is interior, else p(lam) = -(H + lam I)^-1 g
    with |p(lam)| = radius, lam found by safeguarded Newton on 1/radius - 1/|p(lam)|, and
    in the hard case (g orthogonal to the lowest eigenvector) that eigenvector added."""
    w, Q = eigh(H)
    gt = Q.T @ g
    tiny = 10 * pnp.finfo(g.dtype).eps * pnp.maximum(pnp.max(pnp.abs(w)), 1.0)
    lam_lo = pnp.maximum(0.0, -w[0])

    def pnorm(lam):
        d = w + lam
        return pnp.sqrt(pnp.sum(pnp.where(pnp.abs(d) > tiny, gt / pnp.where(pnp.abs(d) > tiny, d, 1), 0) ** 2))

    def newton(_, c):
        lo, hi, lam = c
        d = w + lam
        pn = pnp.sqrt(pnp.sum((gt / d) ** 2))
        qn2 = pnp.sum(gt ** 2 / d ** 3)
        lo, hi = pnp.where(pn > radius, lam, lo), pnp.where(pn > radius, hi, lam)
        step = (pn * pn / qn2) * (pn - radius) / radius
        cand = lam + step
        ok = pnp.isfinite(cand) & (cand > lo) & (cand < hi)
        return lo, hi, pnp.where(ok, cand, 0.5 * (lo + hi))

    hi0 = lam_lo + pnp.sqrt(pnp.sum(g * g)) / radius + tiny
    start = lam_lo + pnp.maximum(tiny, 1e-3 * (hi0 - lam_lo))
    _, _, lam = lax.fori_loop(0, iters, newton, (lam_lo, hi0, start))
    p_boundary = -(Q @ (gt / (w + lam)))
    # interior Newton step when H is positive definite and the step fits
    convex = w[0] > tiny
    p_newton = -(Q @ (gt / pnp.where(convex, w, 1)))
    interior = convex & (pnp.sqrt(pnp.sum(p_newton ** 2)) <= radius)
    # hard case: the step at lam_lo (without the singular direction) is still inside
    d_lo = w + lam_lo
    p_lo = -(Q @ pnp.where(pnp.abs(d_lo) > tiny, gt / pnp.where(pnp.abs(d_lo) > tiny, d_lo, 1), 0))
    hard = (~convex) & (pnorm(lam_lo) < radius)
    tau = pnp.sqrt(pnp.maximum(radius ** 2 - pnp.sum(p_lo ** 2), 0))
    p_hard = p_lo + tau * Q[:, 0]
    return pnp.where(interior, p_newton, pnp.where(hard, p_hard, p_boundary))


def _trust_exact(fun, f_and_g, grad_fn, x0, gtol, maxiter, initial_radius: float = 1.0,
                 max_radius: float = 1000.0, eta: float = 0.15):
    """Trust-region Newton with the exact subproblem solution and the exact Hessian (scipy's
    'trust-exact'); the radius shrinks by 4 on poor agreement and doubles on good agreement
    at the boundary."""
    hess = jacfwd(grad_fn)
    f0, g0 = f_and_g(x0)

    def cond(s):
        x, fx, gx, radius, k, nfev, status = s
        return (k < maxiter) & (pnp.max(pnp.abs(gx)) > gtol) & (status == 0)

    def body(s):
        x, fx, gx, radius, k, nfev, status = s
        H = hess(x)
        H = 0.5 * (H + H.T)
        p = _trust_subproblem(gx, H, radius)
        predicted = -(pnp.sum(gx * p) + 0.5 * pnp.sum(p * (H @ p)))
        fn, gn = f_and_g(x + p)
        rho = (fx - fn) / pnp.where(predicted > 0, predicted, 1)
        rho = pnp.where(pnp.isfinite(fn) & (predicted > 0), rho, -1.0)
        at_edge = pnp.sqrt(pnp.sum(p * p)) >= 0.99 * radius
        radius = pnp.where(rho < 0.25, 0.25 * radius,
                           pnp.where((rho > 0.75) & at_edge, pnp.minimum(2 * radius, max_radius), radius))
        accept = rho > eta
        # a radius below the precision of x means no further progress is possible
        stalled = radius < 10 * pnp.finfo(x.dtype).eps * (1 + pnp.sqrt(pnp.sum(x * x)))
        status = pnp.where(stalled & ~accept, 3, 0)
        return (pnp.where(accept, x + p, x), pnp.where(accept, fn, fx), pnp.where(accept, gn, gx), radius, k + 1,
                nfev + 1, status)

    z = pnp.asarray(0)
    s = lax.while_loop(cond, body, (x0, f0, g0, pnp.asarray(initial_radius, x0.dtype), z, pnp.asarray(1), z))
    return s[0], s[1], s[2], None, s[4], s[5], s[6]


_METHODS = {"bfgs": "bfgs", "l-bfgs-b": "lbfgs", "l-bfgs": "lbfgs", "l-bfgs-experimental-do-not-rely-on-this": "lbfgs",
            "newton-cg": "newton-cg", "trust-exact": "trust-exact"}


def minimize(fun: Callable, x0: Any, args: tuple = (), *, method: str | None = None, tol: float | None = None,
             bounds: Any = None, options: dict | None = None) -> OptimizeResults:
    """Minimise the scalar `fun(x, *args)` from x0 (a pytree of float arrays), scipy's/jax's
    signature. Methods: 'BFGS', 'L-BFGS-B' (limited memory; bounds, in scipy's forms, are
    enforced by projection), 'Newton-CG' (Hessian-vector products
    and conjugate gradients), 'trust-exact' (trust region, exact Hessian and subproblem).
    options: maxiter, gtol, maxcor (L-BFGS history); initial_trust_radius, max_trust_radius,
    eta (trust-exact).
    Under grad, `result.x` is differentiated with respect to `args` by the implicit
    function theorem.

    Args:
        fun: the scalar objective fun(x, *args).
        x0: the starting point, a pytree of float arrays (integers are taken as float64).
        args: extra arguments passed to fun (differentiable through the result); a non-tuple is one argument, as in scipy.
        method: 'BFGS', 'L-BFGS-B', 'Newton-CG' or 'trust-exact' (case-insensitive); None picks, as scipy,
            'L-BFGS-B' when bounds are given and 'BFGS' otherwise.
        tol: the gradient tolerance (default 1e-5 for float64, 1e-4 otherwise); options['gtol'] overrides it.
        bounds: 'L-BFGS-B' only, as scipy: one (lo, hi) pair per variable of the flattened x0 (None
            for an unbounded side), or a Bounds object (lb, ub scalars or arrays).
        options: a dict of the options listed above ('disp' is accepted and ignored).

    Returns:
        An OptimizeResults.

    Examples:
        >>> import padax
        >>> from padax.scipy import optimize
        >>> rosen = lambda v: (1 - v[0]) ** 2 + 100 * (v[1] - v[0] ** 2) ** 2
        >>> res = optimize.minimize(rosen, padax.to_tensor([0.0, 0.0]), method="BFGS")
        >>> res.x.tolist(), bool(res.success)
        ([1.0, 1.0], True)
    """
    if method is None:
        method = "L-BFGS-B" if bounds is not None else "BFGS"
    key = _METHODS.get(str(method).lower())
    if key is None:
        raise op_value_error(_OP, f"method must be one of 'BFGS', 'L-BFGS-B', 'Newton-CG', 'trust-exact', "
                                  f"got {method!r}")
    if not isinstance(args, tuple):
        args = (args,)
    options = dict(options or {})
    options.pop("disp", None)
    unknown = set(options) - {"maxiter", "gtol", "maxcor", "norm", "initial_trust_radius", "max_trust_radius", "eta"}
    if unknown:
        raise op_value_error(_OP, f"unknown options {sorted(unknown)}")
    if bounds is not None and key != "lbfgs":
        raise op_value_error(_OP, f"bounds are supported by method='L-BFGS-B', not {method!r}")
    x_flat, unravel = ravel_pytree(scipy_floats(x0))
    if not pnp.issubdtype(x_flat.dtype, pnp.floating):
        x_flat = x_flat.astype(pnp.float64)  # as scipy: integers are taken as float64
    n = x_flat.shape[0]
    maxiter = int(options.get("maxiter", 200 * n if key in ("bfgs", "lbfgs") else max(50 * n, 200)))
    gtol = float(options.get("gtol", tol if tol is not None else (1e-5 if x_flat.dtype == pnp.float64 else 1e-4)))

    def flat_fun(xf):
        out = fun(unravel(xf.astype(x_flat.dtype)), *args)
        if tuple(np.shape(out)) != ():
            raise op_value_error(_OP, f"fun must return a scalar, got shape {tuple(np.shape(out))}")
        return out

    vg = value_and_grad(flat_fun)
    gradient = grad(flat_fun)
    bnds = None
    if bounds is not None:
        bnds = standardize_bounds(bounds, n, x_flat.dtype)
        check_bound_order(*bnds)

    def run(_, guess):
        # custom_root never differentiates `run`: derivatives come from `optimality`
        f_and_g = vg
        start = guess if bnds is None else pnp.clip(guess, bnds[0], bnds[1])
        if key == "bfgs":
            out = _bfgs(f_and_g, start, gtol, maxiter, bnds)
        elif key == "lbfgs":
            out = _lbfgs(f_and_g, start, gtol, maxiter, bnds, int(options.get("maxcor", 10)))
        elif key == "trust-exact":
            out = _trust_exact(flat_fun, f_and_g, gradient, start, gtol, maxiter,
                               float(options.get("initial_trust_radius", 1.0)),
                               float(options.get("max_trust_radius", 1000.0)), float(options.get("eta", 0.15)))
        else:
            out = _newton_cg(f_and_g, gradient, start, gtol, maxiter)
        x, fx, gx, H, k, nfev, status = out
        status = pnp.where((status == 0) & (k >= maxiter) & (_pg_norm(x, gx, bnds) > gtol), 1, status)
        aux = (fx, gx, H if H is not None else pnp.zeros((0, 0), x.dtype), k, nfev, status)
        return x, aux

    def optimality(x):
        if bnds is None:
            return gradient(x)
        # projected-gradient fixed point: zero at a bound-constrained minimum
        return x - pnp.clip(x - gradient(x), bnds[0], bnds[1])

    x, (fx, gx, H, k, nfev, status) = lax.custom_root(optimality, x_flat, run,
                                                  lambda g, y: dense_solve(g, y) if n <= 1024 else
                                                  _cg_tangent(g, y), has_aux=True)
    return OptimizeResults(x=unravel(x), success=status == 0, status=status, fun=fx, jac=unravel(gx),
                           hess_inv=H if key == "bfgs" else None, nfev=nfev, njev=nfev, nit=k)


def _cg_tangent(g, y):
    return normal_cg_solve(g, y)
