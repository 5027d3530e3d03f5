"""`least_squares` with scipy's signature: bounded nonlinear least squares with robust losses.

The iteration is Levenberg-Marquardt on the (loss-rescaled) residuals with the exact
Jacobian from autodiff. With bounds ('trf', 'dogbox') it is projected: variables held at a
bound by their gradient are frozen for the step, the step is projected onto the box, and it
is kept only if the cost falls. The minimiser is scipy's (the path differs from its
reflective trust region). The solution is differentiated with respect to `args` implicitly,
through the projected-gradient fixed point x = clip(x - grad cost(x), lb, ub)."""
from __future__ import annotations

import dataclasses
from typing import Any, Callable

import numpy as np

import padax.lax as lax
import padax.numpy as pnp
from padax import grad, jacfwd, tree as tree_util
from padax.core.errors import op_value_error
from padax.core.trace import Tracer
from padax.flatten_util import ravel_pytree
from padax.implicit import dense_solve
from padax.linalg import solve
from padax.scipy.optimize._dtypes import scipy_floats

_OP = "padax.scipy.optimize.least_squares"
LOSSES = ("linear", "soft_l1", "huber", "cauchy", "arctan")


@dataclasses.dataclass
class LeastSquaresResults:
    """The result of `least_squares`, with scipy's fields.

    Args:
        x: the solution (x0's pytree).
        cost: the robust cost at x.
        fun: the residuals at x (flattened).
        jac: the Jacobian of the residuals at x.
        grad: the gradient of the cost at x.
        optimality: the max norm of the projected gradient.
        active_mask: -1 where x sits at its lower bound, 1 at the upper, 0 free.
        nfev, njev: numbers of residual and Jacobian evaluations.
        nit: number of iterations.
        status: 0 max_nfev reached, 1 gtol, 2 ftol, 3 xtol satisfied.
        success: status > 0.

    Examples:
        >>> import padax
        >>> from padax.scipy import optimize
        >>> res = optimize.least_squares(lambda p: p - padax.to_tensor([1.0, -1.0]), padax.to_tensor([0.0, 0.0]))
        >>> res.x.tolist(), round(float(res.cost), 6), res.fun.shape
        ([1.0, -1.0], 0.0, (2,))
    """

    x: Any
    cost: Any
    fun: Any
    jac: Any
    grad: Any
    optimality: Any
    active_mask: Any
    nfev: Any
    njev: Any
    nit: Any
    status: Any
    success: Any

    @property
    def message(self) -> str:
        return {0: "The maximum number of function evaluations is exceeded.",
                1: "`gtol` termination condition is satisfied.", 2: "`ftol` termination condition is satisfied.",
                3: "`xtol` termination condition is satisfied."}[int(np.asarray(self.status))]


tree_util.register_node(LeastSquaresResults,
                        lambda r: (tuple(getattr(r, f.name) for f in dataclasses.fields(r)), None),
                        lambda _, ch: LeastSquaresResults(*ch))


def _rho(loss: str, z):
    """(rho(z), rho'(z), rho''(z)) of scipy's robust losses, z = (f / f_scale)^2."""
    if loss == "linear":
        return z, pnp.ones_like(z), pnp.zeros_like(z)
    if loss == "soft_l1":
        t = 1 + z
        return 2 * (pnp.sqrt(t) - 1), t ** -0.5, -0.5 * t ** -1.5
    if loss == "huber":
        big = z > 1
        zs = pnp.where(big, z, 1)
        return (pnp.where(big, 2 * pnp.sqrt(zs) - 1, z), pnp.where(big, zs ** -0.5, 1),
                pnp.where(big, -0.5 * zs ** -1.5, 0))
    if loss == "cauchy":
        t = 1 + z
        return pnp.log1p(z), 1 / t, -1 / t ** 2
    t = 1 + z * z
    return pnp.arctan(z), 1 / t, -2 * z / t ** 2


def _bound(b: Any, n: int, dt, default: float, what: str = "x_scale"):
    a = pnp.asarray(default if b is None else b, dtype=dt)
    if a.size == n and a.ndim <= 1 or a.size == 1:
        return pnp.broadcast_to(a.reshape(() if a.size == 1 and n != 1 else (n,)), (n,))
    raise op_value_error(_OP, f"{what} has shape {tuple(a.shape)}; it must be a scalar or hold one value per "
                              f"variable of x0 ({n})")


def least_squares(fun: Callable, x0: Any, jac: Any = "2-point", bounds: Any = (-np.inf, np.inf),
                  method: str = "trf", ftol: float | None = 1e-8, xtol: float | None = 1e-8,
                  gtol: float | None = 1e-8, x_scale: Any = "jac", loss: str = "linear", f_scale: float = 1.0,
                  diff_step: Any = None, tr_solver: Any = None, tr_options: Any = None, jac_sparsity: Any = None,
                  max_nfev: int | None = None, verbose: int = 0, args: tuple = (),
                  kwargs: dict | None = None) -> LeastSquaresResults:
    """Minimise 0.5 * sum(rho((fun(x) / f_scale)^2)) * f_scale^2 within lb <= x <= ub, scipy's
    signature. `jac` may be a callable jac(x, *args); otherwise the Jacobian is exact (by
    forward-mode autodiff), so '2-point', '3-point', 'cs', diff_step and jac_sparsity have
    nothing to choose. method 'lm' (no bounds), 'trf' or 'dogbox' (bounds): see the module
    docstring. loss: 'linear', 'soft_l1', 'huber', 'cauchy', 'arctan'. x_scale: 'jac'
    (Marquardt's scaling by the Jacobian's column norms) or per-variable scales.

    Args:
        fun: the residuals fun(x, *args, **kwargs), an array (or pytree) for x a pytree of arrays.
        x0: the starting point (integers are taken as float64).
        jac: a callable jac(x, *args, **kwargs) giving the Jacobian; any string means exact autodiff.
        bounds: (lb, ub), scalars or arrays like x (or a Bounds object); default unbounded.
        method: 'trf' (default), 'dogbox' or 'lm' (no bounds, linear loss only).
        ftol, xtol, gtol: tolerances on the cost decrease, the step and the projected gradient (None disables one).
        x_scale: 'jac' (default) or per-variable scales.
        loss: 'linear' (default), 'soft_l1', 'huber', 'cauchy' or 'arctan'.
        f_scale: the residual scale of the robust loss (default 1.0).
        diff_step, tr_solver, tr_options, jac_sparsity, verbose: accepted for scipy compatibility; ignored.
        max_nfev: the iteration limit; None means 100 * (number of variables).
        args, kwargs: extra arguments passed to fun and jac.

    Returns:
        A LeastSquaresResults.

    Examples:
        >>> import padax
        >>> from padax.scipy import optimize
        >>> t = padax.to_tensor([0.0, 1.0, 2.0, 3.0])
        >>> y = 2.0 * padax.exp(-0.5 * t)
        >>> res = optimize.least_squares(lambda p: p[0] * padax.exp(-p[1] * t) - y, padax.to_tensor([1.0, 1.0]))
        >>> res.x.tolist(), bool(res.success)  # fits y = 2 exp(-t / 2)
        ([2.0, 0.5], True)
    """
    kwargs = dict(kwargs or {})
    if method not in ("trf", "dogbox", "lm"):
        raise op_value_error(_OP, f"method must be 'trf', 'dogbox' or 'lm', got {method!r}")
    if loss not in LOSSES:
        raise op_value_error(_OP, f"loss must be one of {list(LOSSES)}, got {loss!r}")
    if method == "lm" and loss != "linear":
        raise op_value_error(_OP, "method 'lm' supports only loss='linear' (as scipy)")
    x_flat, unravel = ravel_pytree(scipy_floats(x0))
    if not pnp.issubdtype(x_flat.dtype, pnp.floating):
        x_flat = x_flat.astype(pnp.float64)
    dt = x_flat.dtype
    n = x_flat.shape[0]
    if hasattr(bounds, "lb") and hasattr(bounds, "ub"):
        lo_b, hi_b = bounds.lb, bounds.ub
    elif isinstance(bounds, (list, tuple)) and len(bounds) == 2:
        lo_b, hi_b = bounds
    else:
        raise op_value_error(_OP, f"bounds must be a 2-tuple (lb, ub) of scalars or arrays, or a Bounds object "
                                  f"(as scipy), got {bounds!r}")
    lb, ub = _bound(lo_b, n, dt, -np.inf, "bounds' lb"), _bound(hi_b, n, dt, np.inf, "bounds' ub")
    bounded = not (np.all(np.isneginf(np.asarray(lo_b, dtype=float))) and np.all(np.isposinf(np.asarray(hi_b,
                                                                                                       dtype=float))))
    if method == "lm" and bounded:
        raise op_value_error(_OP, "method 'lm' does not handle bounds; use 'trf' or 'dogbox'")
    if bounded and not isinstance(x_flat, Tracer):
        xv, lv, uv = np.asarray(x_flat), np.asarray(lb), np.asarray(ub)
        if np.any(lv >= uv):
            raise op_value_error(_OP, "each lower bound must be strictly less than its upper bound")
        if np.any((xv < lv) | (xv > uv)):
            bad = np.flatnonzero((xv < lv) | (xv > uv)).tolist()
            raise op_value_error(_OP, f"x0 is infeasible: outside the bounds at indices {bad}")
    maxiter = int(max_nfev or 100 * n)
    ftol_, xtol_, gtol_ = (float(t) if t is not None else 0.0 for t in (ftol, xtol, gtol))
    fs = float(f_scale)
    scale_d = None if isinstance(x_scale, str) else _bound(x_scale, n, dt, 1.0)

    def R(xf):
        return ravel_pytree(fun(unravel(xf), *args, **kwargs))[0].astype(xf.dtype)

    J_of = (lambda xf: pnp.asarray(jac(unravel(xf), *args, **kwargs)).astype(dt).reshape(-1, n)) \
        if callable(jac) else jacfwd(R)

    def cost_of(r):
        return 0.5 * fs * fs * pnp.sum(_rho(loss, (r / fs) ** 2)[0])

    def cost(xf):
        return cost_of(R(xf))

    grad_cost = grad(cost)

    def optimality(xf):
        return xf - pnp.clip(xf - grad_cost(xf), lb, ub)

    def run(_, guess):
        def scaled(r, J):
            """Residuals and Jacobian rescaled so Gauss-Newton sees the robust loss (scipy's)."""
            z = (r / fs) ** 2
            _, r1, r2 = _rho(loss, z)
            js = pnp.sqrt(pnp.maximum(r1 + 2 * r2 * z, pnp.finfo(dt).eps))
            return r * r1 / js, J * js[:, None], cost_of(r)

        def cond(s):
            return (s[5] == -1) & (s[4] < maxiter)

        def body(s):
            x, r, J, lam, k, _ = s
            rs, Js, c = scaled(r, J)
            g = Js.T @ rs
            at_lo, at_hi = (x <= lb) & (g > 0), (x >= ub) & (g < 0)
            free = ~(at_lo | at_hi)
            A = Js.T @ Js
            D = pnp.diag(A) + 1e-12 if scale_d is None else 1 / scale_d ** 2
            fm = free.astype(dt)
            M = A * fm[:, None] * fm[None, :] + pnp.diag(lam * D * fm + (1 - fm))
            step = -solve(M, g * fm)
            xn = pnp.clip(x + step, lb, ub)
            rn = R(xn)
            cn = cost_of(rn)
            better = pnp.isfinite(cn) & (cn < c)
            dx = xn - x
            pg = pnp.max(pnp.abs(x - pnp.clip(x - g, lb, ub)))
            small_step = pnp.sqrt(pnp.sum(dx * dx)) <= xtol_ * (xtol_ + pnp.sqrt(pnp.sum(x * x)))
            status = pnp.where(pg <= gtol_, 1, pnp.where(better & ((c - cn) <= ftol_ * c), 2,
                                                         pnp.where(small_step, 3, -1)))
            x_next = pnp.where(better, xn, x)
            return (x_next, pnp.where(better, rn, r), J_of(x_next),
                    pnp.where(better, lam * 0.3, lam * 10), k + 1, status)

        r0 = R(guess)
        x, r, J, lam, k, status = lax.while_loop(cond, body, (guess, r0, J_of(guess), pnp.asarray(1e-3, dt),
                                                              pnp.asarray(0), pnp.asarray(-1)))
        return x, (r, J, k, pnp.where(status < 0, 0, status))

    start = x_flat if not bounded else pnp.clip(x_flat, lb, ub)
    x, (r, J, k, status) = lax.custom_root(optimality, start, run, lambda g, y: dense_solve(g, y), has_aux=True)
    g = grad_cost(x)
    active = pnp.where((x <= lb) & (g > 0), -1, pnp.where((x >= ub) & (g < 0), 1, 0))
    return LeastSquaresResults(x=unravel(x), cost=cost(x), fun=r, jac=J, grad=g,
                               optimality=pnp.max(pnp.abs(x - pnp.clip(x - g, lb, ub))), active_mask=active,
                               nfev=k + 1, njev=k + 1, nit=k, status=status, success=status > 0)
