"""More of `paddle.linalg`: vecdot, lu_solve, householder_product, ormqr, matrix_exp, svd_lowrank,
pca_lowrank (and matmul/cross/diagonal, which Paddle also lists under linalg).

All are composites of padax's primitives (jit, vmap and grad go through them). `matrix_exp` uses
scaling and squaring with a degree-13 Pade approximant (Higham 2005); its derivative is the
Frechet derivative read off the exponential of the block matrix [[A, E], [0, A]]. The randomized
low-rank SVDs draw their test matrix from padax's global key, as Paddle draws from its generator,
so they are eager conveniences like `padax.rand`.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from padax import lax
from padax.core import dtypes
from padax.core.errors import op_type_error, op_value_error
from padax.functional import linalg_basic as _basic
from padax.functional import manipulation as _manip
from padax.functional._arrays import asarray, broadcast_shapes, broadcast_to, full
from padax.functional.lax import linalg as _L

matmul, cross, diagonal = _basic.matmul, _basic.cross, _manip.diagonal


def _mat(op: str, x: Any, arg: str = "x", square: bool = False) -> Any:
    x = asarray(x)
    _L.check_matrix(f"linalg.{op}", arg, x.aval, square)
    return x


def _mH(x: Any) -> Any:
    nd = x.aval.ndim
    t = lax.transpose(x, tuple(range(nd - 2)) + (nd - 1, nd - 2))
    return lax.conj(t) if dtypes.is_complex(x.aval.dtype) else t


def _mm(a: Any, b: Any) -> Any:
    return _basic.matmul(a, b)


def _eye(shape: tuple[int, ...], dt: np.dtype) -> Any:
    n, m = shape[-2:]
    e = lax.convert_element_type(lax.eq(lax.broadcasted_iota(np.int32, (n, m), 0),
                                        lax.broadcasted_iota(np.int32, (n, m), 1)), dt)
    return lax.broadcast_in_dim(e, shape, (len(shape) - 2, len(shape) - 1))


def vecdot(x: Any, y: Any, axis: int = -1, name: str | None = None) -> Any:
    """sum(conj(x) * y) along `axis` (x and y broadcast together).

    Args:
        x, y: arrays broadcastable together (x is conjugated when complex).
        axis: the axis to sum over (default the last).

    Returns:
        The dot products: the broadcast shape without `axis`.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> padax.linalg.vecdot(x, padax.to_tensor([1.0, -1.0])).tolist()
        [-1.0, -1.0]
    """
    from padax.functional.math import conj, multiply
    from padax.functional.reduction import sum as _sum
    return _sum(multiply(conj(x), y), axis=axis)


def lu_solve(b: Any, lu: Any, pivots: Any, trans: str = "N", name: str | None = None) -> Any:
    """Solve A X = b (trans 'N'), A^T X = b ('T') or A^H X = b ('C') from `linalg.lu`'s packed factor and
    1-based pivots of A. b (*, M, K), lu (*, M, M); batch dimensions broadcast.

    Args:
        b: the right-hand sides (*, M, K).
        lu: the packed LU factor of A from `linalg.lu`, (*, M, M), same dtype as `b`.
        pivots: the 1-based pivots from `linalg.lu`, (*, M).
        trans: 'N' (default) solves A X = b, 'T' A^T X = b, 'C' A^H X = b.

    Returns:
        The solution X, shape (*, M, K) with the broadcast batch shape.

    Examples:
        >>> import padax
        >>> a = padax.to_tensor([[4.0, 2.0], [2.0, 3.0]])
        >>> lu, pivots = padax.linalg.lu(a)
        >>> padax.linalg.lu_solve(padax.to_tensor([[8.0], [7.0]]), lu, pivots).tolist()
        [[1.25], [1.5]]
    """
    op = "lu_solve"
    if trans not in ("N", "T", "C"):
        raise op_value_error(f"linalg.{op}", f"trans must be 'N', 'T' or 'C', got {trans!r}")
    b = _mat(op, b, "b")
    f = _mat(op, lu, "lu", square=True)
    if b.aval.dtype != f.aval.dtype:
        raise op_type_error(f"linalg.{op}", f"b and lu must have the same dtype, got {b.aval.str_short()} and "
                                            f"{f.aval.str_short()}")
    m = f.aval.shape[-1]
    if b.aval.shape[-2] != m:
        raise op_value_error(f"linalg.{op}", f"b must have {m} rows to match lu, got b {b.aval.str_short()} and "
                                             f"lu {f.aval.str_short()}")
    batch = broadcast_shapes(f"linalg.{op}", b.aval.shape[:-2], f.aval.shape[:-2])
    b = broadcast_to(b, batch + b.aval.shape[-2:])
    f = broadcast_to(f, batch + f.aval.shape[-2:])
    piv = lax.sub(lax.convert_element_type(asarray(pivots), np.int32), 1)
    piv = broadcast_to(piv, batch + piv.aval.shape[-1:])
    perm = _L.lu_pivots_to_permutation(piv, m)
    p = _L._permutation_matrix(perm, f.aval.dtype)  # P A = L U with P[i, perm[i]] = 1
    if trans == "N":  # A = P^T L U: solve L z = P b, then U x = z
        z = _L.triangular_solve(f, _mm(p, b), left_side=True, lower=True, unit_diagonal=True)
        return _L.triangular_solve(f, z, left_side=True, lower=False)
    conj = trans == "C"  # A^T = U^T L^T P: solve U^T z = b, then L^T w = z, then x = P^T w
    z = _L.triangular_solve(f, b, left_side=True, lower=False, transpose_a=True, conjugate_a=conj)
    w = _L.triangular_solve(f, z, left_side=True, lower=True, transpose_a=True, conjugate_a=conj,
                            unit_diagonal=True)
    nd = p.aval.ndim
    return _mm(lax.transpose(p, tuple(range(nd - 2)) + (nd - 1, nd - 2)), w)


def _reflector(x: Any, tau: Any, i: int) -> tuple[Any, Any]:
    """The Householder vector v_i = [0, ..., 0, 1, x[i+1:, i]] (batch, M) and tau_i (batch,)."""
    col = lax.slice_in_dim(x, i, i + 1, 1, x.aval.ndim - 1)
    col = lax.reshape(col, col.aval.shape[:-1])
    rows = lax.broadcasted_iota(np.int32, col.aval.shape, col.aval.ndim - 1)
    zero = full(col.aval.shape, 0, col.aval.dtype)
    one = full(col.aval.shape, 1, col.aval.dtype)
    v = lax.select(lax.lt(rows, full(rows.aval.shape, i, np.int32)), zero,
                   lax.select(lax.eq(rows, full(rows.aval.shape, i, np.int32)), one, col))
    t = lax.slice_in_dim(tau, i, i + 1, 1, tau.aval.ndim - 1)
    return v, lax.reshape(t, t.aval.shape[:-1])


def _apply_reflector(v: Any, t: Any, c: Any) -> Any:
    """(I - t v v^H) c for a batch of vectors v (*, M), scalars t (*,) and matrices c (*, M, N)."""
    vc = lax.conj(v) if dtypes.is_complex(v.aval.dtype) else v
    w = _mm(lax.reshape(vc, vc.aval.shape[:-1] + (1, vc.aval.shape[-1])), c)  # v^H c: (*, 1, N)
    outer = _mm(lax.reshape(v, v.aval.shape + (1,)), w)  # v v^H c
    tb = lax.broadcast_in_dim(t, c.aval.shape, tuple(range(t.aval.ndim)))
    return lax.sub(c, lax.mul(tb, outer))


def _householder_args(op: str, x: Any, tau: Any) -> tuple[Any, Any]:
    x = _mat(op, x)
    tau = asarray(tau, x.aval.dtype)
    m, n = x.aval.shape[-2:]
    if m < n:
        raise op_value_error(f"linalg.{op}", f"x must have at least as many rows as columns, got {x.aval.str_short()}")
    if tau.aval.shape[:-1] != x.aval.shape[:-2] or tau.aval.shape[-1] > n:
        raise op_value_error(f"linalg.{op}", f"tau must have shape [*batch, k] with k <= {n}, got "
                                             f"{tau.aval.str_short()} for x {x.aval.str_short()}")
    return x, tau


def householder_product(x: Any, tau: Any, name: str | None = None) -> Any:
    """The first N columns of Q = H_1 H_2 ... H_k, H_i = I - tau_i v_i v_i^H with v_i read from column i of
    x below the diagonal (LAPACK's orgqr; x and tau as `linalg.qr`'s packed form gives them).

    Args:
        x: the reflectors below the diagonal, (*, M, N) with M >= N.
        tau: the reflector scales, (*, k) with k <= N.

    Returns:
        Q's first N columns, shape (*, M, N), dtype of `x`.

    Examples:
        >>> import padax
        >>> v = padax.to_tensor([[1.0], [1.0]])
        >>> padax.linalg.householder_product(v, padax.to_tensor([1.0])).tolist()
        [[0.0], [-1.0]]
    """
    x, tau = _householder_args("householder_product", x, tau)
    *batch, m, n = x.aval.shape
    q = _eye(tuple(batch) + (m, n), x.aval.dtype)
    for i in reversed(range(tau.aval.shape[-1])):
        v, t = _reflector(x, tau, i)
        q = _apply_reflector(v, t, q)
    return q


def ormqr(x: Any, tau: Any, y: Any, left: bool = True, transpose: bool = False, name: str | None = None) -> Any:
    """op(Q) @ y (left) or y @ op(Q), as Paddle computes it: Q is `householder_product(x, tau)` (its first N
    columns, (*, M, N)) and op transposes it when `transpose`; the shapes must fit that product.

    Args:
        x: the reflectors below the diagonal, (*, M, N) with M >= N.
        tau: the reflector scales, (*, k) with k <= N.
        y: the matrix to multiply.
        left: compute op(Q) @ y (default); False computes y @ op(Q).
        transpose: use Q^T instead of Q.

    Returns:
        The product, dtype of `x`.

    Examples:
        >>> import padax
        >>> x, tau = padax.to_tensor([[1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]), padax.to_tensor([1.0, 1.0])
        >>> padax.linalg.householder_product(x, tau).tolist()      # Q = H1 H2, reflectors below the diagonal
        [[0.0, 0.0], [-1.0, 0.0], [0.0, -1.0]]
        >>> padax.linalg.ormqr(x, tau, padax.to_tensor([[1.0], [2.0], [3.0]]), transpose=True).tolist()  # Q^T y
        [[-2.0], [-3.0]]
    """
    x, tau = _householder_args("ormqr", x, tau)
    y = _mat("ormqr", y, "y")
    q = householder_product(x, tau)
    if transpose:
        nd = q.aval.ndim
        q = lax.transpose(q, tuple(range(nd - 2)) + (nd - 1, nd - 2))
    inner = q.aval.shape[-1] if left else q.aval.shape[-2]
    if (y.aval.shape[-2] if left else y.aval.shape[-1]) != inner:
        raise op_value_error("linalg.ormqr", f"y {y.aval.str_short()} does not fit op(Q) of shape "
                                             f"{list(q.aval.shape[-2:])} on the {'left' if left else 'right'}")
    return _mm(q, y) if left else _mm(y, q)


# ---- the matrix exponential ---------------------------------------------------------------------

_PADE13 = (64764752532480000.0, 32382376266240000.0, 7771770303897600.0, 1187353796428800.0,
           129060195264000.0, 10559470521600.0, 670442572800.0, 33522128640.0, 1323241920.0, 40840800.0,
           960960.0, 16380.0, 182.0, 1.0)
_THETA13 = 5.371920351148152  # the 1-norm up to which Pade 13 is accurate in double precision
_MAX_SQUARINGS = 64            # 1-norms up to ~1e20; beyond, the squarings would lose all accuracy


def _expm_pade(a: Any) -> Any:
    """exp(a) by scaling and squaring: a / 2^s has 1-norm <= theta_13, then Pade 13, then s squarings."""
    dt = a.aval.dtype
    shape = a.aval.shape
    real = dtypes.finfo(dt).dtype if dtypes.is_complex(dt) else dt
    norm1 = lax.reduce_max(lax.reduce_sum(lax.abs(a), (a.aval.ndim - 2,)), (a.aval.ndim - 2,))
    s = lax.max(lax.ceil(lax.div(lax.log(lax.div(norm1, full(norm1.aval.shape, _THETA13, real))),
                                 full(norm1.aval.shape, math.log(2.0), real))), full(norm1.aval.shape, 0, real))
    s = lax.select(lax.is_finite(s), s, full(s.aval.shape, 0, real))
    scale = lax.convert_element_type(lax.exp2(lax.neg(s)), dt)
    a = lax.mul(a, lax.broadcast_in_dim(scale, shape, tuple(range(scale.aval.ndim))))
    eye = _eye(shape, dt)
    b = _PADE13
    a2 = _mm(a, a)
    a4 = _mm(a2, a2)
    a6 = _mm(a4, a2)

    def lin(*terms):
        out = None
        for coef, mat in terms:
            t = lax.mul(mat, full(shape, coef, dt))
            out = t if out is None else lax.add(out, t)
        return out

    u = _mm(a, lax.add(_mm(a6, lin((b[13], a6), (b[11], a4), (b[9], a2))),
                       lin((b[7], a6), (b[5], a4), (b[3], a2), (b[1], eye))))
    v = lax.add(_mm(a6, lin((b[12], a6), (b[10], a4), (b[8], a2))),
                lin((b[6], a6), (b[4], a4), (b[2], a2), (b[0], eye)))
    from padax.linalg import solve
    r = solve(lax.sub(v, u), lax.add(v, u))
    # undo the scaling with s squarings per matrix: a fixed-length scan whose steps past the
    # largest s are skipped by a cond, so reverse mode differentiates it (a loop with a traced
    # trip count would not be transposable); beyond _MAX_SQUARINGS the result is NaN
    from padax.functional.lax.control import cond, scan
    sb = lax.broadcast_in_dim(lax.convert_element_type(s, np.int32), shape, tuple(range(s.aval.ndim)))
    steps = lax.reduce_max(lax.convert_element_type(s, np.int32), tuple(range(s.aval.ndim)))

    def square(r, i):  # square each matrix as many times as its own s says
        def step(r):
            return lax.select(lax.lt(full(shape, 0, np.int32) + i, sb), _mm(r, r), r)
        return cond(lax.lt(i, steps), step, lambda r: r, r), None

    r, _ = scan(square, r, lax.iota(np.int32, _MAX_SQUARINGS))
    too_big = lax.gt(sb, full(shape, _MAX_SQUARINGS, np.int32))
    return lax.select(too_big, full(shape, np.nan, dt), r)


def _expm(a: Any) -> Any:
    """exp(a); differentiated through the Pade approximant and the squarings (as jax does), which
    gives exact Frechet derivatives of the computed value in forward and reverse mode."""
    return _expm_pade(a)


def matrix_exp(x: Any, name: str | None = None) -> Any:
    """The matrix exponential exp(x) of a (batch of) square float or complex matrices.

    Args:
        x: a (batch of) square float or complex matrix, shape (*, M, M).

    Returns:
        exp(x), same shape and dtype.

    Examples:
        >>> import padax
        >>> padax.linalg.matrix_exp(padax.to_tensor([[0.0, 1.0], [0.0, 0.0]])).tolist()
        [[1.0, 1.0], [0.0, 1.0]]
        >>> padax.linalg.matrix_exp(padax.to_tensor([[1.0, 0.0], [0.0, 2.0]])).tolist()
        [[2.7183, 0.0], [0.0, 7.3891]]
    """
    x = _mat("matrix_exp", x, square=True)
    if x.aval.shape[-1] == 0:
        return x
    return _expm(x)


# ---- randomized low-rank SVD --------------------------------------------------------------------

def _range_finder(a: Any, q: int, niter: int) -> Any:
    """An orthonormal basis (*, M, q) of a's dominant column space: a Gaussian test matrix, then `niter`
    subspace iterations, each re-orthonormalised."""
    from padax.random._state import randn
    *batch, m, n = a.aval.shape
    g = randn(tuple(batch) + (n, q), dtype=dtypes.finfo(a.aval.dtype).dtype)
    g = lax.convert_element_type(g, a.aval.dtype)
    qm = _L.qr(_mm(a, g), full_matrices=False)[0]
    for _ in range(niter):
        z = _L.qr(_mm(_mH(a), qm), full_matrices=False)[0]
        qm = _L.qr(_mm(a, z), full_matrices=False)[0]
    return qm


def svd_lowrank(x: Any, q: int | None = None, niter: int = 2, M: Any = None, name: str | None = None):
    """An approximate rank-q SVD (U, S, V) of x - M (V, not V^H: x - M ~= U diag(S) V^H) by randomized
    subspace iteration (Halko, Martinsson, Tropp 2011); q defaults to min(6, M, N). The random test
    matrix comes from padax's global key (see `padax.seed`).

    Args:
        x: a (batch of) matrix, shape (*, M, N).
        q: the rank to approximate; None means min(6, M, N).
        niter: number of subspace iterations (default 2).
        M: an optional array subtracted from x first (broadcastable to it).

    Returns:
        The tuple (U (*, M, q), S (*, q), V (*, N, q)).

    Examples:
        >>> import numpy as np, padax
        >>> _ = padax.seed(0)
        >>> x = padax.to_tensor(np.outer([1.0, 2.0, 3.0], [1.0, 0.0, 2.0]))    # rank 1
        >>> u, s, v = padax.linalg.svd_lowrank(x, q=1)
        >>> np.round(s.numpy(), 4).tolist(), np.allclose(u @ padax.diag(s) @ v.T, x, atol=1e-5)
        ([8.3666], True)
    """
    a = _mat("svd_lowrank", x)
    if M is not None:
        from padax.functional.math import subtract
        a = subtract(a, M)
    m, n = a.aval.shape[-2:]
    q = min(6, m, n) if q is None else int(q)
    if not 0 < q <= min(m, n):
        raise op_value_error("linalg.svd_lowrank", f"q must be in [1, {min(m, n)}], got {q}")
    basis = _range_finder(a, q, int(niter))
    b = _mm(_mH(basis), a)  # (*, q, N)
    s, u, vh = _L.svd(b, full_matrices=False)
    return _mm(basis, u), s, _mH(vh)


def pca_lowrank(x: Any, q: int | None = None, center: bool = True, niter: int = 2, name: str | None = None):
    """svd_lowrank of x with each column's mean subtracted first (when `center`): (U, S, V), whose V holds
    the principal directions.

    Args:
        x: a (batch of) data matrix, shape (*, M, N), one observation per row.
        q: the rank to approximate; None means min(6, M, N).
        center: subtract each column's mean first (default True).
        niter: number of subspace iterations (default 2).

    Returns:
        The tuple (U (*, M, q), S (*, q), V (*, N, q)).

    Examples:
        >>> import numpy as np, padax
        >>> _ = padax.seed(0)
        >>> x = padax.to_tensor([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]])       # points on the line y = 2x
        >>> u, s, v = padax.linalg.pca_lowrank(x, q=1)
        >>> np.round(s.numpy(), 4).tolist(), np.round(np.abs(v.numpy()[:, 0]), 4).tolist()
        ([3.1623], [0.4472, 0.8944])
    """
    a = _mat("pca_lowrank", x)
    m, n = a.aval.shape[-2:]
    q = min(6, m, n) if q is None else q
    if center:
        from padax.functional.math import subtract
        from padax.functional.reduction import mean
        a = subtract(a, mean(a, axis=-2, keepdim=True))
    return svd_lowrank(a, q, niter)


__all__ = ["vecdot", "lu_solve", "householder_product", "ormqr", "matrix_exp", "svd_lowrank", "pca_lowrank",
           "matmul", "cross", "diagonal"]
