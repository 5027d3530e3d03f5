"""scipy.linalg's matrix functions with scipy's signatures: expm and expm_frechet (padax.linalg.matrix_exp
and its forward derivative), sqrtm (Denman-Beavers, differentiated through a Sylvester equation), logm
(inverse scaling and squaring on the Schur form), fractional_matrix_power and funm (Schur-Parlett).
logm, fractional_matrix_power and funm are CPU only (they rest on the complex Schur form).

logm's derivative is the inverse of expm's Frechet derivative at logm(A), solved as a linear
system (its Kronecker form), so grad works without differentiating the iteration; like
solve_sylvester that is for matrices up to a few dozen rows."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

import padax.lax as lax
import padax.numpy as pnp
from padax import custom_jvp, jvp, vmap
from padax.core.errors import op_value_error
from padax.linalg import inv, matrix_exp, matrix_power, solve
from padax.scipy.linalg._decompositions import inexact, schur
from padax.scipy.linalg._inputs import _square
from padax.scipy.linalg._solvers import solve_sylvester

# Gauss-Legendre nodes and weights on [0, 1]: log(I + X) = int_0^1 X (I + t X)^-1 dt, exact
# to machine precision for ||X|| <= 0.25 with 8 nodes (the [8/8] Pade approximant)
_GL_T, _GL_W = np.polynomial.legendre.leggauss(8)
_GL_T, _GL_W = (_GL_T + 1) / 2, _GL_W / 2
_MAX_ROOTS = 64


def _norm1(x: Any) -> Any:
    return pnp.max(pnp.sum(pnp.abs(x), axis=-2), axis=-1)


def _sqrtm_triangular(T: Any) -> Any:
    """Principal square root of an upper-triangular matrix, one superdiagonal at a time
    (Bjorck-Hammarling): R_ij = (T_ij - sum_{i<k<j} R_ik R_kj) / (R_ii + R_jj)."""
    n = T.shape[-1]
    offset = pnp.arange(n)[None, :] - pnp.arange(n)[:, None]
    r = pnp.sqrt(pnp.diagonal(T))
    denom = r[:, None] + r[None, :]

    def superdiagonal(k, R):
        on = offset == k            # R is filled below superdiagonal k: R @ R is the middle sum there
        return pnp.where(on, (T - R @ R) / pnp.where(on, denom, 1), R)

    return lax.fori_loop(1, n, superdiagonal, pnp.diag(r))


def _logm_iss(A: Any) -> Any:
    """Principal logarithm by inverse scaling and squaring on the complex Schur form: square
    roots of the triangular factor until it is within 0.25 of I (1-norm), then the quadrature
    form of log(I + X), times 2^k. A real matrix gives the real logarithm, or NaN when it has
    an eigenvalue on the negative real axis (it then has no real logarithm)."""
    real = not pnp.iscomplexobj(A)
    T, Z = schur(A, output="complex")
    n = A.shape[-1]
    eye = pnp.eye(n, dtype=T.dtype)

    def far(c):
        k, R = c
        return (_norm1(R - eye) > 0.25) & (k < _MAX_ROOTS)

    def root(c):
        k, R = c
        return k + 1, _sqrtm_triangular(R)

    k, R = lax.while_loop(far, root, (pnp.asarray(0, pnp.int32), T))
    X = R - eye
    S = pnp.zeros_like(X)
    for t, w in zip(_GL_T, _GL_W):
        S = S + w * solve(eye + t * X, X)
    F = Z @ (S * (2.0 ** k.astype(pnp.real(S).dtype)).astype(S.dtype)) @ pnp.conj(Z).T
    if not real:
        return F
    lam = pnp.diagonal(T)
    tiny = float(np.finfo(np.dtype(A.dtype)).eps) * pnp.max(pnp.abs(lam))
    no_real_log = pnp.any((pnp.real(lam) < 0) & (pnp.abs(pnp.imag(lam)) <= tiny))
    return pnp.where(no_real_log, np.nan, pnp.real(F))


@custom_jvp
def _logm(A: Any) -> Any:
    return _logm_iss(A)


@_logm.defjvp
def _logm_jvp(primals, tangents):
    (A,), (dA,) = primals, tangents
    X = _logm(A)
    n = A.shape[-1]
    basis = pnp.eye(n * n, dtype=A.dtype).reshape(n * n, n, n)
    # column k of K is vec(L_exp(X, E_k)); L_log(A, dA) = L_exp(X, .)^-1 (dA)
    K = vmap(lambda e: jvp(matrix_exp, (X,), (e,))[1].reshape(n * n))(basis).T
    return X, solve(K, dA.reshape(n * n)).reshape(n, n)


def logm(A: Any, disp: bool = True) -> Any:
    """Principal matrix logarithm (expm(logm(A)) = A) of a square 2-D nonsingular matrix.
    A real matrix gives its real logarithm, or NaN if it has a negative real eigenvalue (no
    real logarithm exists: pass it as complex to get the complex one, as scipy returns). With
    disp=False, (logm, errest) with errest = ||expm(logm) - A||_1 / ||A||_1. Differentiable.

    Args:
        A: a square 2-D nonsingular matrix.
        disp: return only logm (default); False also returns the error estimate.

    Returns:
        logm(A) (M, M), or the tuple (logm(A), errest).

    Examples:
        >>> import math
        >>> import padax
        >>> from padax.scipy import linalg
        >>> linalg.logm(padax.to_tensor([[1.0, 1.0], [0.0, 1.0]])).tolist()  # the inverse of expm([[0, 1], [0, 0]])
        [[0.0, 1.0], [0.0, 0.0]]
        >>> linalg.logm(padax.to_tensor([[1.0, 0.0], [0.0, math.e]])).tolist()
        [[0.0, 0.0], [0.0, 1.0]]
    """
    A = inexact("logm", A)
    if A.ndim != 2:
        raise op_value_error("padax.scipy.linalg.logm", f"A must be 2-D, got shape {tuple(A.shape)}")
    F = _logm(A)
    if disp:
        return F
    return F, _norm1(matrix_exp(F) - A) / _norm1(A)


def fractional_matrix_power(A: Any, t: float) -> Any:
    """A^t for a square 2-D matrix: repeated products (and an inverse for negative t) when t
    is an integer, expm(t logm(A)) otherwise (principal branch; see logm). Differentiable.

    Args:
        A: a square 2-D matrix.
        t: the power, a Python float.

    Returns:
        A^t, shape (M, M).

    Examples:
        >>> import padax
        >>> from padax.scipy import linalg
        >>> linalg.fractional_matrix_power(padax.to_tensor([[4.0, 2.0], [2.0, 3.0]]), 0.5).tolist()  # sqrtm, as scipy
        [[1.9194, 0.5622], [0.5622, 1.6383]]
    """
    A = inexact("fractional_matrix_power", A)
    if A.ndim != 2:
        raise op_value_error("padax.scipy.linalg.fractional_matrix_power", f"A must be 2-D, got shape "
                                                                           f"{tuple(A.shape)}")
    t = float(t)
    if t.is_integer():
        return matrix_power(A, int(t))
    return matrix_exp(t * _logm(A))


def funm(A: Any, func: Callable[[Any], Any], disp: bool = True) -> Any:
    """f(A) for a function `func` applied elementwise to an array of eigenvalues, by the
    Schur-Parlett method (complex Schur form, then Parlett's recurrence one superdiagonal at
    a time); complex result. Needs distinct eigenvalues. With disp=False, (F, errest) with
    an error estimate from the smallest eigenvalue gap. CPU only (complex Schur).

    Args:
        A: a square 2-D matrix.
        func: a function applied elementwise to a 1-D array of eigenvalues.
        disp: return only F (default); False also returns the error estimate.

    Returns:
        F = f(A) (M, M), complex, or the tuple (F, errest).

    Examples:
        >>> import padax
        >>> from padax.scipy import linalg
        >>> A = padax.to_tensor([[4.0, 2.0], [2.0, 3.0]])
        >>> padax.real(linalg.funm(A, padax.exp)).tolist()  # complex result; equals expm(A), as scipy
        [[163.27, 124.18], [124.18, 101.17]]
    """
    A = inexact("funm", A)
    if A.ndim != 2:
        raise op_value_error("padax.scipy.linalg.funm", f"A must be 2-D, got shape {tuple(A.shape)}")
    T, Z = schur(A, output="complex")
    n = T.shape[0]
    d = pnp.diagonal(T)
    F = pnp.diag(pnp.asarray(func(d)).astype(T.dtype))
    offset = pnp.arange(n)[None, :] - pnp.arange(n)[:, None]
    gap = d[None, :] - d[:, None]                        # T_jj - T_ii

    def superdiagonal(k, F):
        # with F filled below superdiagonal k, F T = T F gives its entries on k directly
        on = offset == k
        return pnp.where(on, (T @ F - F @ T) / pnp.where(on, gap, 1), F)

    F = lax.fori_loop(1, n, superdiagonal, F)
    out = Z @ F @ pnp.conj(Z).T
    if disp:
        return out
    tol = float(np.finfo(np.float64 if out.dtype == pnp.complex128 else np.float32).eps)
    upper = offset > 0
    minden = pnp.min(pnp.where(upper, pnp.abs(gap), np.inf)) if n > 1 else pnp.asarray(np.inf)
    minden = pnp.where(minden == 0, tol, minden)
    err = pnp.minimum(1.0, pnp.maximum(tol, (tol / minden) * _norm1(pnp.triu(T, 1))))
    return out, pnp.where(pnp.any(pnp.isinf(out)), np.inf, err)


def expm(A: Any) -> Any:
    """The matrix exponential (scaling and squaring with a Pade approximant).

    Args:
        A: a square matrix or a stack of them, shape (..., M, M) (integers become float32).

    Returns:
        exp(A), same shape; floating dtype.

    Examples:
        >>> import padax
        >>> from padax.scipy import linalg
        >>> linalg.expm(padax.to_tensor([[0.0, 1.0], [0.0, 0.0]])).tolist()  # I + N for a nilpotent N
        [[1.0, 1.0], [0.0, 1.0]]
        >>> linalg.expm(padax.to_tensor([[0.0, 0.0], [0.0, 1.0]])).tolist()
        [[1.0, 0.0], [0.0, 2.7183]]
    """
    return matrix_exp(_square("expm", A))


def expm_frechet(A: Any, E: Any, compute_expm: bool = True) -> Any:
    """(expm(A), L(A, E)) with L the Frechet derivative of expm at A in direction E
    (or just L with compute_expm=False): the forward-mode derivative of expm.

    Args:
        A: a square matrix (..., M, M).
        E: the direction, same shape as A.
        compute_expm: also return expm(A) (default True).

    Returns:
        The tuple (expm(A), L(A, E)), or L(A, E) alone with compute_expm=False.

    Examples:
        >>> import padax
        >>> from padax.scipy import linalg
        >>> A = padax.to_tensor([[0.0, 0.0], [0.0, 1.0]])
        >>> E = padax.to_tensor([[0.0, 1.0], [0.0, 0.0]])
        >>> value, deriv = linalg.expm_frechet(A, E)
        >>> deriv.tolist()  # (e - 1) in the corner, as scipy
        [[0.0, 1.7183], [0.0, 0.0]]
    """
    A, E = _square("expm_frechet", A), _square("expm_frechet", E)
    value, frechet = jvp(expm, (A,), (E.astype(A.dtype),))
    return (value, frechet) if compute_expm else frechet


def _sqrtm_db(A: Any) -> Any:
    """Denman-Beavers iteration (product form), 40 steps: for matrices with no eigenvalues
    on the closed negative real axis."""
    n = A.shape[-1]
    eye = pnp.eye(n, dtype=A.dtype)

    def body(_, YZ):
        Y, Z = YZ
        Zi, Yi = inv(Z), inv(Y)
        return 0.5 * (Y + Zi), 0.5 * (Z + Yi)
    Y, _ = lax.fori_loop(0, 40, body, (A, eye))
    return Y


@custom_jvp
def _sqrtm(A: Any) -> Any:
    return _sqrtm_db(A)


@_sqrtm.defjvp
def _sqrtm_jvp(primals, tangents):
    (A,), (dA,) = primals, tangents
    X = _sqrtm(A)
    return X, solve_sylvester(X, X, dA)             # X dX + dX X = dA


def sqrtm(A: Any) -> Any:
    """The principal square root X (X @ X = A) of a matrix with no eigenvalues on the
    closed negative real axis; its derivative solves X dX + dX X = dA.

    Args:
        A: a square 2-D matrix (integers become float32).

    Returns:
        The principal square root, shape (M, M).

    Examples:
        >>> import padax
        >>> from padax.scipy import linalg
        >>> A = padax.to_tensor([[4.0, 2.0], [2.0, 3.0]])
        >>> S = linalg.sqrtm(A)
        >>> S.tolist()  # as scipy
        [[1.9194, 0.5622], [0.5622, 1.6383]]
        >>> (S @ S).tolist()
        [[4.0, 2.0], [2.0, 3.0]]
    """
    A = _square("sqrtm", A)
    if A.ndim != 2:
        raise op_value_error("padax.scipy.linalg.sqrtm", f"a must be 2-D, got shape {tuple(A.shape)}")
    return _sqrtm(A)
