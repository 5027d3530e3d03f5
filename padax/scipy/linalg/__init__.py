"""`padax.scipy.linalg`: scipy.linalg's names and signatures on padax.linalg's
factorizations: the decompositions (`_decompositions`: cholesky, eigh, lu, qr, svd, schur,
hessenberg, ...), matrix functions (expm, expm_frechet, sqrtm here; logm, funm,
fractional_matrix_power in `_matfuncs`), solvers (lu/cho factor and solve, solve_triangular,
solve_sylvester), polar, eigh_tridiagonal and the special matrices (`_special`). The matrix
functions are differentiable through closed-form derivatives (sqrtm's solves a Sylvester
equation, logm's inverts expm's Frechet derivative) rather than through their iterations."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from padax.core.errors import op_value_error
from padax.transforms.custom import custom_jvp


def _asfloat(a: Any) -> Any:
    import padax.numpy as pnp
    a = pnp.asarray(a)
    return a if pnp.issubdtype(a.dtype, pnp.inexact) else a.astype(pnp.float32)


def _square(op: str, a: Any) -> Any:
    a = _asfloat(a)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise op_value_error(f"padax.scipy.linalg.{op}", f"a must be a square matrix (or a stack), got shape "
                                                         f"{tuple(a.shape)}")
    return a


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
    from padax.linalg import matrix_exp
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
    from padax.transforms.ad import jvp
    A, E = _square("expm_frechet", A), _square("expm_frechet", E)
    value, frechet = jvp(expm, (A,), (E.astype(A.dtype),))
    return (value, frechet) if compute_expm else frechet


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
    import padax.numpy as pnp
    from padax.linalg import solve
    a, b, q = _square("solve_sylvester", a), _square("solve_sylvester", b), _asfloat(q)
    m, n = a.shape[-1], b.shape[-1]
    if tuple(q.shape[-2:]) != (m, n):
        raise op_value_error("padax.scipy.linalg.solve_sylvester", f"q must have shape ({m}, {n}), got "
                                                                   f"{tuple(q.shape)}")
    dt = pnp.result_type(a.dtype, b.dtype, q.dtype)
    # row-major vec: (a kron I + I kron b^T) vec(X) = vec(q)
    K = pnp.kron(a.astype(dt), pnp.eye(n, dtype=dt)) + pnp.kron(pnp.eye(m, dtype=dt), b.astype(dt).T)
    return solve(K, q.astype(dt).reshape(m * n)).reshape((m, n))


def _sqrtm_db(A: Any) -> Any:
    """Denman-Beavers iteration (product form), 40 steps: for matrices with no eigenvalues
    on the closed negative real axis."""
    import padax.lax as lax
    import padax.numpy as pnp
    from padax.linalg import inv
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


def polar(a: Any, side: str = "right") -> tuple[Any, Any]:
    """(u, p) with a = u p (side='right') or a = p u (side='left'), u unitary and p
    positive semidefinite, from the SVD.

    Args:
        a: a matrix (M, N).
        side: 'right' (default, a = u p) or 'left' (a = p u).

    Returns:
        The tuple (u, p): u (M, N); p (N, N) for 'right', (M, M) for 'left'.

    Examples:
        >>> import padax
        >>> from padax.scipy import linalg
        >>> u, p = linalg.polar(padax.to_tensor([[2.0, 0.0], [0.0, -3.0]]))  # a = u p, u unitary, p positive semidefinite
        >>> u.tolist(), p.tolist()
        ([[1.0, 0.0], [0.0, -1.0]], [[2.0, 0.0], [0.0, 3.0]])
    """
    import padax.numpy as pnp
    from padax.linalg import svd
    if side not in ("right", "left"):
        raise op_value_error("padax.scipy.linalg.polar", f"side must be 'right' or 'left', got {side!r}")
    a = _asfloat(a)
    w, s, vh = svd(a, full_matrices=False)
    u = w @ vh
    if side == "right":
        p = (pnp.conj(vh).T * s) @ vh
    else:
        p = (w * s) @ pnp.conj(w).T
    return u, p


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
    from padax.linalg import lu
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
    import padax.numpy as pnp
    from padax.linalg import lu_solve as _lu_solve
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
    from padax.linalg import cholesky
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
    from padax.linalg import cholesky_solve
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
    from padax.linalg import triangular_solve
    a, b = _square("solve_triangular", a), _asfloat(b)
    vec = b.ndim == 1
    x = triangular_solve(a, (b[:, None] if vec else b).astype(a.dtype), upper=not lower, transpose=trans != 0,
                         unitriangular=unit_diagonal)
    return x[:, 0] if vec else x


def block_diag(*arrs: Any) -> Any:
    """The block-diagonal matrix of the given 2-D (or 1-D / scalar: one row) blocks.

    Args:
        *arrs: the blocks: 2-D arrays, or 1-D arrays / scalars taken as one row.

    Returns:
        A 2-D array of the summed block shapes in the promoted dtype ((1, 0) for no blocks).

    Examples:
        >>> import padax
        >>> from padax.scipy import linalg
        >>> linalg.block_diag(padax.to_tensor([[1.0]]), padax.to_tensor([[2.0, 3.0], [4.0, 5.0]])).tolist()
        [[1.0, 0.0, 0.0], [0.0, 2.0, 3.0], [0.0, 4.0, 5.0]]
    """
    import padax.numpy as pnp
    if not arrs:
        return pnp.zeros((1, 0))
    blocks = [pnp.atleast_2d(pnp.asarray(a)) for a in arrs]
    dt = pnp.result_type(*[b.dtype for b in blocks])
    rows = sum(b.shape[0] for b in blocks)
    cols = sum(b.shape[1] for b in blocks)
    out = pnp.zeros((rows, cols), dt)
    r = c = 0
    for b in blocks:
        out = out.at[r:r + b.shape[0], c:c + b.shape[1]].set(b.astype(dt))
        r, c = r + b.shape[0], c + b.shape[1]
    return out


def toeplitz(c: Any, r: Any = None) -> Any:
    """The Toeplitz matrix with first column c and first row r (default conj(c)).

    Args:
        c: the first column (flattened if not 1-D).
        r: the first row (its first entry is ignored); None means conj(c).

    Returns:
        A 2-D array of shape (len(c), len(r)).

    Examples:
        >>> import padax
        >>> from padax.scipy import linalg
        >>> linalg.toeplitz(padax.to_tensor([1, 2, 3]), padax.to_tensor([1, 4, 5])).tolist()  # first column, first row
        [[1, 4, 5], [2, 1, 4], [3, 2, 1]]
    """
    import padax.numpy as pnp
    c = pnp.asarray(c).reshape(-1)
    r = pnp.conj(c) if r is None else pnp.asarray(r).reshape(-1)
    vals = pnp.concatenate([c[::-1], r[1:].astype(pnp.result_type(c.dtype, r.dtype))])
    i = np.arange(c.shape[0])[:, None]
    j = np.arange(r.shape[0])[None, :]
    return vals[c.shape[0] - 1 - i + j]


def circulant(c: Any) -> Any:
    """The circulant matrix with first column c.

    Args:
        c: the first column (flattened if not 1-D).

    Returns:
        A square 2-D array of shape (len(c), len(c)).

    Examples:
        >>> import padax
        >>> from padax.scipy import linalg
        >>> linalg.circulant(padax.to_tensor([1, 2, 3])).tolist()  # each column is the previous one rolled down
        [[1, 3, 2], [2, 1, 3], [3, 2, 1]]
    """
    import padax.numpy as pnp
    c = pnp.asarray(c).reshape(-1)
    n = c.shape[0]
    idx = (np.arange(n)[:, None] - np.arange(n)[None, :]) % n
    return c[idx]


def eigh_tridiagonal(d: Any, e: Any, eigvals_only: bool = False) -> Any:
    """Eigenvalues (and eigenvectors) of the symmetric tridiagonal matrix with diagonal d and
    off-diagonal e.

    Args:
        d: the diagonal, 1-D of length n.
        e: the off-diagonal, 1-D of length n - 1.
        eigvals_only: return only the eigenvalues.

    Returns:
        The eigenvalues (n,), ascending, or the tuple (eigenvalues, eigenvectors (n, n)).

    Examples:
        >>> import padax
        >>> from padax.scipy import linalg
        >>> d, e = padax.to_tensor([2.0, 2.0, 2.0]), padax.to_tensor([-1.0, -1.0])
        >>> linalg.eigh_tridiagonal(d, e, eigvals_only=True).tolist()  # 2 - sqrt(2), 2, 2 + sqrt(2)
        [0.5858, 2.0, 3.4142]
    """
    import padax.numpy as pnp
    from padax.linalg import eigh, eigvalsh
    d, e = _asfloat(d), _asfloat(e)
    if d.ndim != 1 or e.shape != (d.shape[0] - 1,):
        raise op_value_error("padax.scipy.linalg.eigh_tridiagonal", f"d must be 1-D of length n and e of length "
                                                                    f"n - 1, got {tuple(d.shape)} and "
                                                                    f"{tuple(e.shape)}")
    dt = pnp.result_type(d.dtype, e.dtype)
    T = pnp.diag(d.astype(dt)) + pnp.diag(e.astype(dt), 1) + pnp.diag(e.astype(dt), -1)
    return eigvalsh(T) if eigvals_only else eigh(T)


def _reexport(names: Sequence[str]) -> None:
    import padax.linalg as L
    g = globals()
    for n, src in names:
        g[n] = getattr(L, src)


# only the ones whose padax.linalg signature is scipy's too
_reexport([("inv", "inv"), ("det", "det"), ("solve", "solve")])

from padax.scipy.linalg._decompositions import (  # noqa: E402
    cholesky, eigh, hessenberg, lu, qr, qr_multiply, rsf2csf, schur, svd)
from padax.scipy.linalg._matfuncs import fractional_matrix_power, funm, logm  # noqa: E402
from padax.scipy.linalg._special import (  # noqa: E402
    companion, convolution_matrix, dft, fiedler, fiedler_companion, hadamard, hankel, helmert, hilbert, invhilbert,
    invpascal, leslie, pascal)

__all__ = ["cholesky", "eigh", "hessenberg", "lu", "qr", "qr_multiply", "rsf2csf", "schur", "svd",
           "fractional_matrix_power", "funm", "logm", "companion", "convolution_matrix", "dft", "fiedler",
           "fiedler_companion", "hadamard", "hankel", "helmert", "hilbert", "invhilbert", "invpascal", "leslie",
           "pascal", "expm", "expm_frechet", "sqrtm", "solve_sylvester", "polar", "lu_factor", "lu_solve", "cho_factor",
           "cho_solve", "solve_triangular", "block_diag", "toeplitz", "circulant", "eigh_tridiagonal", "inv", "det",
           "solve"]
