"""`padax.scipy.sparse.linalg`: matrix-free Krylov solvers (cg, bicgstab, gmres) with
jax.scipy's signatures: A is a matrix, a `LinearOperator` or a function x -> A x on
pytrees; M is an optional preconditioner (approximating A^-1) of the same kind. Solutions
are differentiated through padax.lax.custom_linear_solve (one more solve per derivative),
not through the iterations."""
from __future__ import annotations

import dataclasses
from typing import Any, Callable

import padax.lax as lax
import padax.numpy as pnp
from padax.core.errors import op_value_error
from padax.flatten_util import ravel_pytree as _ravel_pytree
from padax.linalg import lstsq as _lstsq


@dataclasses.dataclass(frozen=True)
class LinearOperator:
    """A linear map given by its `matvec` (and `rmatvec` for A^T, optional) and `shape`."""

    shape: tuple
    matvec: Callable
    rmatvec: Callable | None = None

    def __call__(self, x: Any) -> Any:
        return self.matvec(x)

    def __matmul__(self, x: Any) -> Any:
        return self.matvec(x)


def aslinearoperator(A: Any) -> Callable:
    """A as a function x -> A x (a matrix, a LinearOperator or a function)."""
    if callable(A):
        return A
    A = pnp.asarray(A)
    if A.ndim != 2:
        raise op_value_error("padax.scipy.sparse.linalg", f"A must be a 2-D matrix or a function, got shape "
                                                          f"{tuple(A.shape)}")
    return lambda x: A @ x


def _dot(a, b):
    return pnp.sum(pnp.conj(a) * b)


def _cg(mv, M, b, x0, tol, atol, maxiter):
    thresh = pnp.maximum(tol * pnp.sqrt(pnp.real(_dot(b, b))), atol) ** 2
    r0 = b - mv(x0)
    z0 = M(r0)

    def cond(s):
        x, r, z, p, rz, k = s
        return (pnp.real(_dot(r, r)) > thresh) & (k < maxiter)

    def body(s):
        x, r, z, p, rz, k = s
        Ap = mv(p)
        alpha = rz / _dot(p, Ap)
        x = x + alpha * p
        r = r - alpha * Ap
        z = M(r)
        rz_n = _dot(r, z)
        return x, r, z, z + (rz_n / rz) * p, rz_n, k + 1

    x, r, *_ = lax.while_loop(cond, body, (x0, r0, z0, z0, _dot(r0, z0), pnp.asarray(0)))
    return x


def _bicgstab(mv, M, b, x0, tol, atol, maxiter):
    thresh = pnp.maximum(tol * pnp.sqrt(pnp.real(_dot(b, b))), atol) ** 2
    r0 = b - mv(x0)
    one = pnp.ones((), b.dtype)

    def cond(s):
        x, r, p, v, rho, alpha, omega, k = s
        return (pnp.real(_dot(r, r)) > thresh) & (k < maxiter) & (omega != 0) & (rho != 0)

    def body(s):
        x, r, p, v, rho, alpha, omega, k = s
        rho_n = _dot(r0, r)
        beta = (rho_n / rho) * (alpha / omega)
        p = r + beta * (p - omega * v)
        ph = M(p)
        v = mv(ph)
        alpha = rho_n / _dot(r0, v)
        s_ = r - alpha * v
        sh = M(s_)
        t = mv(sh)
        omega = _dot(t, s_) / _dot(t, t)
        x = x + alpha * ph + omega * sh
        r = s_ - omega * t
        return x, r, p, v, rho_n, alpha, omega, k + 1

    x, *_ = lax.while_loop(cond, body, (x0, r0, pnp.zeros_like(b), pnp.zeros_like(b), one, one, one,
                                        pnp.asarray(0)))
    return x


def _gmres(mv, M, b, x0, tol, atol, maxiter, restart):
    """Restarted GMRES with modified Gram-Schmidt Arnoldi on the right-preconditioned system."""
    n = b.shape[0]
    m = max(1, min(restart, n))
    thresh = pnp.maximum(tol * pnp.sqrt(pnp.real(_dot(b, b))), atol)

    def cycle(x):
        r = b - mv(x)
        beta = pnp.sqrt(pnp.real(_dot(r, r))).astype(b.dtype)
        V = pnp.zeros((m + 1, n), b.dtype).at[0].set(r / pnp.where(beta == 0, 1.0, beta))
        H = pnp.zeros((m + 1, m), b.dtype)

        def arnoldi(j, VH):
            V, H = VH
            w = mv(M(V[j]))

            def gs(i, wh):
                w, H = wh
                hij = pnp.where(i <= j, _dot(V[i], w), 0.0)
                return w - hij * V[i], H.at[i, j].set(hij)
            w, H = lax.fori_loop(0, m, gs, (w, H))
            hn = pnp.sqrt(pnp.real(_dot(w, w))).astype(b.dtype)
            H = H.at[j + 1, j].set(hn)
            V = V.at[j + 1].set(w / pnp.where(hn == 0, 1.0, hn))
            return V, H
        V, H = lax.fori_loop(0, m, arnoldi, (V, H))
        e1 = pnp.zeros((m + 1, 1), b.dtype).at[0, 0].set(beta)
        y = _lstsq(H, e1)[0][:, 0]
        return x + M(V[:m].T @ y)

    def cond(s):
        x, k = s
        r = b - mv(x)
        return (pnp.sqrt(pnp.real(_dot(r, r))) > thresh) & (k < maxiter)

    x, _ = lax.while_loop(cond, lambda s: (cycle(s[0]), s[1] + 1), (x0, pnp.asarray(0)))
    return x


def _krylov(name: str, algorithm: Callable, A, b, x0, tol, atol, maxiter, M, symmetric: bool, **extra):
    op = f"padax.scipy.sparse.linalg.{name}"
    b_flat, unravel = _ravel_pytree(b)
    if not pnp.issubdtype(b_flat.dtype, pnp.inexact):
        raise op_value_error(op, f"b must be floating or complex, got {b_flat.dtype}")
    Af, Mf = aslinearoperator(A), (aslinearoperator(M) if M is not None else None)

    def mv(v):
        return _ravel_pytree(Af(unravel(v)))[0].astype(v.dtype)

    def prec(v):
        return v if Mf is None else _ravel_pytree(Mf(unravel(v)))[0].astype(v.dtype)
    x0f = pnp.zeros_like(b_flat) if x0 is None else _ravel_pytree(x0)[0].astype(b_flat.dtype)
    n = b_flat.shape[0]
    iters = maxiter if maxiter is not None else 10 * n

    def solve(matvec, rhs):
        return algorithm(matvec, prec, rhs, x0f, tol, atol, iters, **extra)

    def transpose_solve(vecmat, rhs):
        # the transposed system is solved unpreconditioned from zero
        return algorithm(vecmat, lambda v: v, rhs, pnp.zeros_like(rhs), tol, atol, iters, **extra)
    ts = None if symmetric else transpose_solve
    x = lax.custom_linear_solve(mv, b_flat, solve, transpose_solve=ts, symmetric=symmetric)
    return unravel(x), None


def cg(A: Any, b: Any, x0: Any = None, *, tol: float = 1e-5, atol: float = 0.0, maxiter: int | None = None,
       M: Any = None) -> tuple[Any, None]:
    """(x, None) with A x = b for symmetric positive-definite A, by (preconditioned) conjugate
    gradients; stops when |r| <= max(tol |b|, atol)."""
    return _krylov("cg", _cg, A, b, x0, tol, atol, maxiter, M, symmetric=True)


def bicgstab(A: Any, b: Any, x0: Any = None, *, tol: float = 1e-5, atol: float = 0.0, maxiter: int | None = None,
             M: Any = None) -> tuple[Any, None]:
    """(x, None) with A x = b for general square A, by BiCGSTAB (van der Vorst 1992)."""
    return _krylov("bicgstab", _bicgstab, A, b, x0, tol, atol, maxiter, M, symmetric=False)


def gmres(A: Any, b: Any, x0: Any = None, *, tol: float = 1e-5, atol: float = 0.0, restart: int = 20,
          maxiter: int | None = None, M: Any = None) -> tuple[Any, None]:
    """(x, None) with A x = b for general square A, by restarted GMRES(restart); maxiter
    counts restart cycles."""
    return _krylov("gmres", _gmres, A, b, x0, tol, atol, maxiter if maxiter is not None else 50, M,
                   symmetric=False, restart=restart)
