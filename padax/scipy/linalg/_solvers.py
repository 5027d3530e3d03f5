"""scipy.linalg's solvers with scipy's signatures: lu_factor/lu_solve, cho_factor/cho_solve,
solve_triangular and solve_sylvester, on padax.linalg's factorizations."""
from __future__ import annotations

from typing import Any

import padax.numpy as pnp
from padax.core.errors import op_value_error
from padax.linalg import cholesky, cholesky_solve, lu, lu_solve as _lu_solve, solve, triangular_solve
from padax.scipy.linalg._inputs import _asfloat, _square


def solve_sylvester(a: Any, b: Any, q: Any) -> Any:
    """X with a X + X b = q, by the Kronecker-product linear system (sizes up to a few
    dozen: its cost grows as (mn)^3).

    Args:
        a: square matrix (M, M).
        b: square matrix (N, N).
        q: right-hand side (M, N).

    Returns:
        The solution X, shape (M, N), in the promoted dtype.

    Examples:
        >>> import padax
        >>> from padax.scipy import linalg
        >>> a, b = padax.to_tensor([[1.0, 0.0], [0.0, 2.0]]), padax.to_tensor([[3.0, 0.0], [0.0, 4.0]])
        >>> linalg.solve_sylvester(a, b, padax.ones([2, 2])).tolist()  # x_ij = 1 / (a_i + b_j)
        [[0.25, 0.2], [0.2, 0.1667]]
    """
    a, b, q = _square("solve_sylvester", a), _square("solve_sylvester", b), _asfloat(q)
    m, n = a.shape[-1], b.shape[-1]
    if tuple(q.shape[-2:]) != (m, n):
        raise op_value_error("padax.scipy.linalg.solve_sylvester", f"q must have shape ({m}, {n}), got "
                                                                   f"{tuple(q.shape)}")
    dt = pnp.result_type(a.dtype, b.dtype, q.dtype)
    # row-major vec: (a kron I + I kron b^T) vec(X) = vec(q)
    K = pnp.kron(a.astype(dt), pnp.eye(n, dtype=dt)) + pnp.kron(pnp.eye(m, dtype=dt), b.astype(dt).T)
    return solve(K, q.astype(dt).reshape(m * n)).reshape((m, n))


def lu_factor(a: Any) -> tuple[Any, Any]:
    """(lu, piv) as scipy: piv are 0-based row interchanges.

    Args:
        a: a square matrix or stack (..., M, M).

    Returns:
        The tuple (lu, piv): the packed factor (..., M, M) and int32 pivots (..., M).

    Examples:
        >>> import padax
        >>> from padax.scipy import linalg
        >>> lu, piv = linalg.lu_factor(padax.to_tensor([[4.0, 2.0], [2.0, 3.0]]))
        >>> lu.tolist(), piv.tolist()  # L below the diagonal (unit diagonal implied), U on and above, as scipy
        ([[4.0, 2.0], [0.5, 2.0]], [0, 1])
    """
    f, piv = lu(_square("lu_factor", a))
    return f, piv - 1


def lu_solve(lu_and_piv: tuple, b: Any, trans: int = 0) -> Any:
    """Solve a x = b (trans=0), a^T x = b (1) or a^H x = b (2) from lu_factor's output.

    Args:
        lu_and_piv: the (lu, piv) tuple from `lu_factor`.
        b: right-hand side, a vector (M,) or a matrix (M, K).
        trans: 0 solves a x = b, 1 a^T x = b, 2 a^H x = b.

    Returns:
        The solution, shaped like `b`.

    Examples:
        >>> import padax
        >>> from padax.scipy import linalg
        >>> factors = linalg.lu_factor(padax.to_tensor([[4.0, 2.0], [2.0, 3.0]]))
        >>> linalg.lu_solve(factors, padax.to_tensor([8.0, 7.0])).tolist()
        [1.25, 1.5]
    """
    f, piv = lu_and_piv
    b = _asfloat(b)
    vec = b.ndim == 1
    bb = b[:, None] if vec else b
    x = _lu_solve(bb.astype(f.dtype), f, (piv + 1).astype(pnp.int32), trans={0: "N", 1: "T", 2: "C"}[trans])
    return x[:, 0] if vec else x


def cho_factor(a: Any, lower: bool = False) -> tuple[Any, bool]:
    """(c, lower): the Cholesky factor (upper unless lower=True) with its flag.

    Args:
        a: a Hermitian positive-definite matrix or stack (..., M, M).
        lower: return the lower factor (default False: upper).

    Returns:
        The tuple (c, lower): the triangular factor and the flag.

    Examples:
        >>> import padax
        >>> from padax.scipy import linalg
        >>> c, lower = linalg.cho_factor(padax.to_tensor([[4.0, 2.0], [2.0, 3.0]]))
        >>> lower, c[0].tolist(), c[1, 1].tolist()  # upper factor: row 0 is [2, 1], c[1, 1] = sqrt(2)
        (False, [2.0, 1.0], 1.4142)
    """
    return cholesky(_square("cho_factor", a), upper=not lower), lower


def cho_solve(c_and_lower: tuple, b: Any) -> Any:
    """Solve a x = b from cho_factor's output.

    Args:
        c_and_lower: the (c, lower) tuple from `cho_factor`.
        b: right-hand side, a vector (M,) or a matrix (M, K).

    Returns:
        The solution, shaped like `b`.

    Examples:
        >>> import padax
        >>> from padax.scipy import linalg
        >>> factor = linalg.cho_factor(padax.to_tensor([[4.0, 2.0], [2.0, 3.0]]))
        >>> linalg.cho_solve(factor, padax.to_tensor([8.0, 7.0])).tolist()
        [1.25, 1.5]
    """
    c, lower = c_and_lower
    b = _asfloat(b)
    vec = b.ndim == 1
    x = cholesky_solve((b[:, None] if vec else b).astype(c.dtype), c, upper=not lower)
    return x[:, 0] if vec else x


def solve_triangular(a: Any, b: Any, trans: int = 0, lower: bool = False, unit_diagonal: bool = False) -> Any:
    """Solve op(a) x = b for triangular a (scipy's signature).

    Args:
        a: triangular matrix (M, M).
        b: right-hand side, a vector (M,) or a matrix (M, K).
        trans: 0 solves a x = b; any other value (1, 2) solves a^T x = b.
        lower: a is lower triangular (default False: upper); only that triangle is read.
        unit_diagonal: assume ones on the diagonal.

    Returns:
        The solution, shaped like `b`, dtype of `a`.

    Examples:
        >>> import padax
        >>> from padax.scipy import linalg
        >>> L = padax.to_tensor([[2.0, 0.0], [1.0, 1.0]])
        >>> linalg.solve_triangular(L, padax.to_tensor([2.0, 3.0]), lower=True).tolist()  # forward substitution
        [1.0, 2.0]
    """
    a, b = _square("solve_triangular", a), _asfloat(b)
    vec = b.ndim == 1
    x = triangular_solve(a, (b[:, None] if vec else b).astype(a.dtype), upper=not lower, transpose=trans != 0,
                         unitriangular=unit_diagonal)
    return x[:, 0] if vec else x
