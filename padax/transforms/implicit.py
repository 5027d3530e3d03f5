"""Implicit differentiation of solvers, in the style of jaxopt: `implicit_diff`.

A solver `solver(init, *args) -> x*` (a fixed-point iteration, an inner optimiser, a
Newton method) is differentiated with respect to `args` through its optimality
condition F(x*, *args) = 0 instead of through its iterations: by the implicit function
theorem dx* = -(dF/dx)^{-1} (dF/dargs) dargs. The solver runs without recording
anything for differentiation, so reverse mode costs one linear solve and memory that
does not grow with the number of iterations. Built on `padax.lax.custom_root`; the
linear systems are solved densely (small problems) or by conjugate gradients inside
`padax.lax.custom_linear_solve` (matrix-free, transposable, vmappable).
"""
from __future__ import annotations

import functools
from typing import Any, Callable

import numpy as np

from padax.core.errors import op_type_error, op_value_error
from padax.functional._arrays import asarray, aval_of, constant
from padax.functional.lax import linalg as _L
from padax.functional.lax.control import while_loop
from padax.functional.lax.elementwise import sub
from padax.functional.lax.solves import custom_linear_solve
from padax.functional.lax.structural import reshape, transpose
from padax.functional.linalg_basic import matmul
from padax.runtime import tree as tree_util
from padax.transforms.ad import linear_transpose
from padax.transforms.batching import vmap
from padax.transforms.flatten_util import ravel_pytree
from padax.transforms.solves import custom_root

_DENSE_MAX = 1024  # "auto": unknowns up to this many are solved densely


def _default_tol(dtype) -> float:
    return 1e-12 if np.dtype(dtype).itemsize >= 8 else 1e-6


def _cg_flat(matvec: Callable, b: Any, tol: float, maxiter: int) -> Any:
    """Conjugate gradients for a symmetric positive-definite matvec on a 1-D vector."""

    bb = (b * b).sum()
    thresh = bb * (tol * tol)

    def cond(state):
        _, _, _, rs, k = state
        return (rs > thresh) & (k < maxiter)

    def body(state):
        x, r, p, rs, k = state
        ap = matvec(p)
        alpha = rs / (p * ap).sum()
        x = x + alpha * p
        r = r - alpha * ap
        rs_new = (r * r).sum()
        return x, r, r + (rs_new / rs) * p, rs_new, k + 1

    x, *_ = while_loop(cond, body, (b * 0, b, b, bb, asarray(0)))
    return x


def _flat_operator(matvec: Callable, example: Any):
    flat_b, unravel = ravel_pytree(example)

    def mv(v):
        return ravel_pytree(matvec(unravel(v)))[0]
    return mv, flat_b, unravel


def cg_solve(matvec: Callable, b: Any, tol: float | None = None, maxiter: int | None = None) -> Any:
    """x with matvec(x) = b for a symmetric positive-definite linear `matvec` (pytrees allowed)."""
    mv, flat_b, unravel = _flat_operator(matvec, b)
    fa = aval_of(flat_b)
    return unravel(_cg_flat(mv, flat_b, tol or _default_tol(fa.dtype), maxiter or 10 * fa.size))


def normal_cg_solve(matvec: Callable, b: Any, tol: float | None = None, maxiter: int | None = None) -> Any:
    """x with matvec(x) = b for a general (square, invertible) linear `matvec`, by conjugate
    gradients on the normal equations A^T A x = A^T b."""
    mv, flat_b, unravel = _flat_operator(matvec, b)
    fa = aval_of(flat_b)
    vm_t = linear_transpose(mv, flat_b)

    def vm(v):
        return vm_t(v)[0]
    x = _cg_flat(lambda v: vm(mv(v)), vm(flat_b), tol or _default_tol(fa.dtype), maxiter or 10 * fa.size)
    return unravel(x)


def dense_solve(matvec: Callable, b: Any) -> Any:
    """x with matvec(x) = b, by forming the matrix (one jvp per unknown) and an LU solve."""
    mv, flat_b, unravel = _flat_operator(matvec, b)
    fa = aval_of(flat_b)
    eye = constant(np.eye(fa.size, dtype=fa.dtype), fa.dtype)
    cols = vmap(mv)(eye)                         # row i is A e_i, i.e. column i of A
    return unravel(_lu_solve(transpose(cols, (1, 0)), flat_b))


def _lu_solve(a: Any, b: Any) -> Any:
    """a^{-1} b for a square matrix a (n, n) and a vector b (n,), computed as padax.linalg.solve computes
    it: a pivoted LU factorisation, the row permutation, two triangular solves (padax.linalg is a floor
    above this one)."""
    _L.check_matrix("linalg.solve", "x", aval_of(a))
    if aval_of(a).dtype != aval_of(b).dtype:
        raise op_type_error("linalg.solve", f"x and y must have the same dtype, got {aval_of(a).str_short()} "
                                            f"and {aval_of(b).str_short()}")
    n = aval_of(b).shape[0]
    f, _, perm = _L.lu(a)
    pb = matmul(_L._permutation_matrix(perm, aval_of(f).dtype), reshape(b, (n, 1)))
    z = _L.triangular_solve(f, pb, left_side=True, lower=True, unit_diagonal=True)
    return reshape(_L.triangular_solve(f, z, left_side=True, lower=False), (n,))


def _tangent_solver(solve: str | Callable) -> Callable:
    if callable(solve):
        return lambda g, y: custom_linear_solve(g, y, solve, transpose_solve=solve)
    if solve == "dense":
        return lambda g, y: custom_linear_solve(g, y, lambda mv, b: dense_solve(mv, b),
                                                transpose_solve=lambda vm, b: dense_solve(vm, b))
    if solve == "cg":
        return lambda g, y: custom_linear_solve(g, y, lambda mv, b: cg_solve(mv, b), symmetric=True)
    if solve == "normal_cg":
        return lambda g, y: custom_linear_solve(g, y, lambda mv, b: normal_cg_solve(mv, b),
                                                transpose_solve=lambda vm, b: normal_cg_solve(vm, b))
    if solve == "auto":
        def auto(g, y):
            n = sum(aval_of(x).size for x in tree_util.leaves(y))
            return _tangent_solver("dense" if n <= _DENSE_MAX else "normal_cg")(g, y)
        return auto
    raise op_value_error("implicit_diff", f"solve must be 'auto', 'dense', 'cg', 'normal_cg' or a function "
                                          f"solve(matvec, b) -> x, got {solve!r}")


def implicit_diff(optimality_fn: Callable | None = None, *, fixed_point_fn: Callable | None = None,
                  solve: str | Callable = "auto", has_aux: bool = False) -> Callable:
    """Decorator: differentiate `solver(init, *args, **kwargs) -> x*` implicitly.

    Give the optimality condition `optimality_fn(x, *args, **kwargs)`, zero at the solution
    (a gradient for an argmin), or `fixed_point_fn(x, *args, **kwargs)`, equal to x at the
    solution. Derivatives flow to `args`/`kwargs` (not to `init`) in forward and reverse
    mode and to any order. `solve` picks the linear solver for dF/dx: "dense" (exact,
    small problems), "cg" (dF/dx symmetric positive definite, e.g. a Hessian), "normal_cg"
    (general), "auto" (dense up to 1024 unknowns, else normal_cg) or a function
    `solve(matvec, b) -> x`. With `has_aux=True` the solver returns (x*, aux).

    >>> import padax
    >>> @padax.implicit_diff(lambda x, a: x * x - a)        # x* = sqrt(a)
    ... def sqrt_newton(init, a):
    ...     return padax.lax.fori_loop(0, 20, lambda i, x: 0.5 * (x + a / x), init)
    >>> a = padax.to_tensor(4.0)
    >>> float(sqrt_newton(padax.to_tensor(1.0), a)), float(padax.grad(lambda a: sqrt_newton(padax.to_tensor(1.0), a))(a))
    (2.0, 0.25)
    """
    if (optimality_fn is None) == (fixed_point_fn is None):
        raise TypeError("implicit_diff: give exactly one of optimality_fn or fixed_point_fn=")
    if fixed_point_fn is not None:

        def optimality_fn(x, *args, **kwargs):  # noqa: F811
            return tree_util.map(sub, fixed_point_fn(x, *args, **kwargs), x)
    tangent_solve = _tangent_solver(solve)

    def decorator(solver: Callable) -> Callable:
        @functools.wraps(solver)
        def wrapped(init, *args, **kwargs):

            def f(x):
                return optimality_fn(x, *args, **kwargs)

            def run(_, guess):
                return solver(guess, *args, **kwargs)
            return custom_root(f, init, run, tangent_solve, has_aux=has_aux)
        return wrapped
    return decorator
