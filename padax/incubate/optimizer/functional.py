"""Paddle's `minimize_bfgs` / `minimize_lbfgs` (signatures and result tuples) on
padax.scipy.optimize's BFGS and L-BFGS. Differences from Paddle: the line search is
backtracking (Armijo) rather than strong Wolfe, and iterations stop on `tolerance_grad`
(the max-norm of the gradient) or `max_iters`; `tolerance_change` and the line-search
length settings are accepted for compatibility."""
from __future__ import annotations

from typing import Any, Callable

import padax.numpy as pnp
from padax.core.errors import op_value_error
from padax.scipy import optimize as _optimize


def _check(op: str, line_search_fn: str, dtype: str, x0: Any):
    if line_search_fn != "strong_wolfe":
        raise op_value_error(op, f"line_search_fn must be 'strong_wolfe', got {line_search_fn!r}")
    if dtype not in ("float32", "float64"):
        raise op_value_error(op, f"dtype must be 'float32' or 'float64', got {dtype!r}")
    x = pnp.asarray(x0).astype(dtype)
    if x.ndim != 1:
        raise op_value_error(op, f"initial_position must be 1-D, got shape {tuple(x.shape)}")
    return x


def _run(op: str, method: str, objective_func: Callable, x, max_iters: int, tolerance_grad: float, **opts):
    r = _optimize.minimize(objective_func, x, method=method, options={"maxiter": max_iters, "gtol": tolerance_grad, **opts})
    return r


def minimize_bfgs(objective_func: Callable, initial_position: Any, max_iters: int = 50, tolerance_grad: float = 1e-7,
                  tolerance_change: float = 1e-9, initial_inverse_hessian_estimate: Any = None,
                  line_search_fn: str = "strong_wolfe", max_line_search_iters: int = 50,
                  initial_step_length: float = 1.0, dtype: str = "float32", name: str | None = None):
    """(is_converge, num_func_calls, position, objective_value, objective_gradient,
    inverse_hessian_estimate), as Paddle's."""
    op = "padax.incubate.optimizer.functional.minimize_bfgs"
    x = _check(op, line_search_fn, dtype, initial_position)
    if initial_inverse_hessian_estimate is not None:
        raise op_value_error(op, "initial_inverse_hessian_estimate is not supported (BFGS starts from a scaled "
                                 "identity)")
    r = _run(op, "BFGS", objective_func, x, max_iters, tolerance_grad)
    return r.status == 0, r.nfev, r.x, r.fun, r.jac, r.hess_inv


def minimize_lbfgs(objective_func: Callable, initial_position: Any, history_size: int = 100, max_iters: int = 50,
                   tolerance_grad: float = 1e-8, tolerance_change: float = 1e-8,
                   initial_inverse_hessian_estimate: Any = None, line_search_fn: str = "strong_wolfe",
                   max_line_search_iters: int = 50, initial_step_length: float = 1.0, dtype: str = "float32",
                   name: str | None = None):
    """(is_converge, num_func_calls, position, objective_value, objective_gradient), as Paddle's."""
    op = "padax.incubate.optimizer.functional.minimize_lbfgs"
    x = _check(op, line_search_fn, dtype, initial_position)
    if initial_inverse_hessian_estimate is not None:
        raise op_value_error(op, "initial_inverse_hessian_estimate is not supported")
    r = _run(op, "L-BFGS-B", objective_func, x, max_iters, tolerance_grad, maxcor=history_size)
    return r.status == 0, r.nfev, r.x, r.fun, r.jac
