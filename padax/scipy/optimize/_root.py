"""Root finding (`root`: damped Newton with a backtracking line search on |F|^2) and
`linear_sum_assignment`. Solutions are differentiated with respect to `args` implicitly
through padax.lax.custom_root."""
from __future__ import annotations

import dataclasses
from typing import Any, Callable

import numpy as np

import padax.lax as lax
import padax.numpy as pnp
from padax import ShapeDtypeStruct, jacfwd, pure_callback, stop_gradient, tree as tree_util
from padax.core.errors import op_value_error
from padax.flatten_util import ravel_pytree
from padax.implicit import dense_solve
from padax.linalg import lstsq
from padax.scipy.optimize._dtypes import scipy_floats


@dataclasses.dataclass
class RootResults:
    """The result of `root`.

    Args:
        x: the root (x0's pytree).
        success: status == 0.
        status: 0 converged, 1 max iterations reached, 3 stalled.
        fun: fun at x.
        nfev: number of function evaluations.
        nit: number of iterations.

    Examples:
        >>> import padax
        >>> from padax.scipy import optimize
        >>> res = optimize.root(lambda x: x * x - 4.0, padax.to_tensor([1.0]))
        >>> res.x.tolist(), int(res.status), abs(float(res.fun[0])) < 1e-4
        ([2.0], 0, True)
    """

    x: Any
    success: Any
    status: Any
    fun: Any
    nfev: Any
    nit: Any


tree_util.register_node(RootResults, lambda r: (tuple(getattr(r, f.name) for f in dataclasses.fields(r)), None),
                        lambda _, ch: RootResults(*ch))


@dataclasses.dataclass
class RootScalarResults:
    """The result of `root_scalar` (scipy's RootResults fields).

    Args:
        root: the root found.
        converged: whether it converged within maxiter.
        iterations: number of iterations.
        function_calls: number of function evaluations.

    Examples:
        >>> from padax.scipy import optimize
        >>> res = optimize.root_scalar(lambda x: x * x - 2.0, bracket=[0.0, 2.0], method="bisect")
        >>> round(float(res.root), 4), bool(res.converged), int(res.iterations) > 0
        (1.4142, True, True)
    """

    root: Any
    converged: Any
    iterations: Any
    function_calls: Any


tree_util.register_node(RootScalarResults,
                        lambda r: (tuple(getattr(r, f.name) for f in dataclasses.fields(r)), None),
                        lambda _, ch: RootScalarResults(*ch))


def _newton_system(F: Callable, x0, tol: float, maxiter: int, J_of: Callable | None = None, xtol: float = 0.0):
    """Newton's method with the dense Jacobian, halving the step until |F|^2 decreases. It stops at
    max|F| <= tol or, as scipy's hybr, once the Newton step is within xtol of |x| (relative): there
    |F| is at its rounding floor, which for large unknowns sits above any absolute tol."""
    J_of = J_of or jacfwd(F)

    def sq(v):
        return pnp.sum(v * v)

    def cond(s):
        x, fx, k, nfev, status, done = s
        return (k < maxiter) & (pnp.max(pnp.abs(fx)) > tol) & ~done

    def body(s):
        x, fx, k, nfev, status, _ = s
        J = J_of(x)
        d = -lstsq(J, fx[:, None])[0][:, 0]

        def ls_cond(c):
            a, xn, fn, j = c
            return ((~pnp.isfinite(sq(fn))) | (sq(fn) > (1 - 1e-4 * a) * sq(fx))) & (j < 30)

        def ls_body(c):
            a, _, _, j = c
            a = a * 0.5
            xn = x + a * d
            return a, xn, F(xn), j + 1
        x1 = x + d
        a, xn, fn, j = lax.while_loop(ls_cond, ls_body, (pnp.ones((), x.dtype), x1, F(x1), pnp.asarray(0)))
        ok = pnp.isfinite(sq(fn)) & (sq(fn) < sq(fx))
        small = pnp.sqrt(sq(d)) <= xtol * (pnp.sqrt(sq(x)) + xtol)
        return (pnp.where(ok, xn, x), pnp.where(ok, fn, fx), k + 1, nfev + j + 1 + x.shape[0],
                pnp.where(ok | small, 0, 3), small | ~ok)

    z = pnp.asarray(0)
    x, fx, k, nfev, status, done = lax.while_loop(cond, body, (x0, F(x0), z, pnp.asarray(1), z, pnp.asarray(False)))
    status = pnp.where((status == 0) & ~done & (pnp.max(pnp.abs(fx)) > tol), 1, status)
    return x, (fx, nfev, k, status)


def root(fun: Callable, x0: Any, args: tuple = (), method: str = "hybr", jac: Any = None, tol: float | None = None,
         options: dict | None = None) -> RootResults:
    """A zero of fun(x, *args) (same pytree structure as x0) by damped Newton iterations
    (method 'hybr' or 'lm' both map to it); under grad the root is differentiated with
    respect to args by the implicit function theorem.

    Args:
        fun: the function fun(x, *args), returning a pytree like x.
        x0: the starting point, a pytree of float arrays (integers are taken as float64).
        args: extra arguments passed to fun (a non-tuple is one argument, as in scipy).
        method: 'hybr' (default), 'lm' or 'newton' (case-insensitive); all run the same damped Newton.
        jac: as scipy: a callable jac(x, *args) giving the Jacobian, or True when fun returns
            (value, Jacobian); otherwise the Jacobian comes from autodiff.
        tol: the tolerance on max|fun(x)| (default 1e-10 for float64, 1e-5 otherwise).
        options: a dict with 'maxiter' (default 100 * (n + 1)) and 'xtol' (convergence once the Newton
            step is below xtol relative to |x|, as scipy's hybr; default 1.49012e-8, 10 eps in float32);
            'disp' is accepted and ignored, other keys are refused (they would have no effect).

    Returns:
        A RootResults.

    Examples:
        >>> import padax
        >>> from padax.scipy import optimize
        >>> F = lambda v: padax.numpy.stack([v[0] + 0.5 * (v[0] - v[1]) ** 3 - 1.0, 0.5 * (v[1] - v[0]) ** 3 + v[1]])
        >>> res = optimize.root(F, padax.to_tensor([0.0, 0.0]))
        >>> res.x.tolist(), bool(res.success)  # as scipy
        ([0.8412, 0.1588], True)
    """
    op = "padax.scipy.optimize.root"
    if str(method).lower() not in ("hybr", "lm", "newton"):
        raise op_value_error(op, f"method must be 'hybr', 'lm' or 'newton', got {method!r}")
    if not isinstance(args, tuple):
        args = (args,)
    options = dict(options or {})
    options.pop("disp", None)
    unknown = sorted(set(options) - {"maxiter", "xtol"})
    if unknown:
        raise op_value_error(op, f"unknown options {unknown}; padax reads only 'maxiter' and 'xtol' (and ignores 'disp')")
    if jac is not None and not callable(jac) and not isinstance(jac, bool):
        raise op_value_error(op, f"jac must be a callable, True or None, got {type(jac).__name__}")
    x_flat, unravel = ravel_pytree(scipy_floats(x0))
    if not pnp.issubdtype(x_flat.dtype, pnp.floating):
        x_flat = x_flat.astype(pnp.float64)  # as scipy: integers are taken as float64
    tol = float(tol if tol is not None else (1e-10 if x_flat.dtype == pnp.float64 else 1e-5))
    maxiter = int(options.get("maxiter", 100 * (x_flat.shape[0] + 1)))
    xtol = float(options.get("xtol", 1.49012e-8 if x_flat.dtype == pnp.float64 else 10 * float(pnp.finfo(x_flat.dtype).eps)))
    n = x_flat.shape[0]

    def F(xf):
        out = fun(unravel(xf), *args)
        if jac is True:
            out = out[0]
        return ravel_pytree(out)[0].astype(xf.dtype)

    J_of = None
    if callable(jac) or jac is True:
        def J_of(xf):
            J = jac(unravel(xf), *args) if callable(jac) else fun(unravel(xf), *args)[1]
            return pnp.asarray(J).astype(xf.dtype).reshape((n, n))

    def run(_, guess):
        # custom_root never differentiates `run`: derivatives come from F's implicit rule
        return _newton_system(F, guess, tol, maxiter, J_of, xtol)

    x, (fx, nfev, k, status) = lax.custom_root(F, x_flat, run, lambda g, y: dense_solve(g, y), has_aux=True)
    return RootResults(x=unravel(x), success=status == 0, status=status, fun=unravel(fx), nfev=nfev, nit=k)


def linear_sum_assignment(cost_matrix: Any, maximize: bool = False) -> tuple[Any, Any]:
    """(row_ind, col_ind) of the minimum (or maximum) cost assignment, computed on the host
    by scipy's Hungarian solver (through pure_callback, so it also runs under jit).

    Args:
        cost_matrix: a 2-D cost array (M, N).
        maximize: find the maximum-cost assignment instead.

    Returns:
        The tuple (row_ind, col_ind), int64 arrays of length min(M, N).

    Examples:
        >>> import padax
        >>> from padax.scipy import optimize
        >>> cost = padax.to_tensor([[4.0, 1.0, 3.0], [2.0, 0.0, 5.0], [3.0, 2.0, 2.0]])
        >>> rows, cols = optimize.linear_sum_assignment(cost)
        >>> rows.tolist(), cols.tolist()  # total cost 1 + 2 + 2, as scipy
        ([0, 1, 2], [1, 0, 2])
    """
    c = pnp.asarray(cost_matrix)
    if c.ndim != 2:
        raise op_value_error("padax.scipy.optimize.linear_sum_assignment",
                             f"cost_matrix must be 2-D, got shape {tuple(c.shape)}")
    k = min(c.shape)

    def host(m):
        import scipy.optimize  # startup time: scipy.optimize is heavy and only linear_sum_assignment uses it
        r, col = scipy.optimize.linear_sum_assignment(np.asarray(m), maximize=maximize)
        return r.astype(np.int64), col.astype(np.int64)
    out = (ShapeDtypeStruct((k,), np.int64), ShapeDtypeStruct((k,), np.int64))
    return pure_callback(host, out, stop_gradient(c))
