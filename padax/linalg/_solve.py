"""padax.linalg's solvers and inverses: triangular_solve, cholesky_solve, cholesky_inverse, solve,
lu_solve (from `lu`'s packed factor), inv, pinv and lstsq."""
from __future__ import annotations

from typing import Any

import numpy as np

from padax import dtypes, lax
from padax.core.errors import op_type_error, op_value_error
from padax.functional._arrays import asarray, broadcast_shapes, broadcast_to, full
from padax.functional._checks import write_out
from padax.functional.lax import linalg as _L
from padax.linalg._decompositions import _hermitian_eigh
from padax.linalg._helpers import (
    _INEXACT_NAMES,
    _bcast_last,
    _broadcast_batch,
    _cast,
    _col,
    _eye_like,
    _is_complex,
    _matrix,
    _mH,
    _mm,
    _mT,
    _real_dtype,
    _row,
    _same_dtype,
    _scalar,
    _unsqueeze_last,
    _where,
)


def triangular_solve(x: Any, y: Any, upper: bool = True, transpose: bool = False, unitriangular: bool = False,
                     name: str | None = None) -> Any:
    """Solve op(x) @ out = y for out, x triangular (upper, or lower if upper=False; only that
    triangle is read; unit diagonal assumed if `unitriangular`); op transposes x if
    `transpose`. x (*, M, M), y (*, M, K); batch dimensions broadcast.

    Args:
        x: the triangular matrix (*, M, M).
        y: the right-hand sides (*, M, K), same dtype as `x`.
        upper: x is upper triangular (default True); False means lower.
        transpose: solve with x transposed.
        unitriangular: assume a unit diagonal (the diagonal of x is not read).

    Returns:
        The solution, shape (*, M, K) with the broadcast batch shape.

    Examples:
        >>> import padax
        >>> u = padax.to_tensor([[2.0, 1.0], [0.0, 4.0]])
        >>> padax.linalg.triangular_solve(u, padax.to_tensor([[4.0], [8.0]])).tolist()
        [[1.0], [2.0]]
    """
    x = _matrix("triangular_solve", x)
    y = _matrix("triangular_solve", y, "y", square=False)
    _same_dtype("triangular_solve", x, y)
    if y.aval.shape[-2] != x.aval.shape[-1]:
        raise op_value_error("linalg.triangular_solve", f"y must have {x.aval.shape[-1]} rows to match x, got "
                                                        f"x {x.aval.str_short()} and y {y.aval.str_short()}")
    x, y = _broadcast_batch(x, y)
    return _L.triangular_solve(x, y, left_side=True, lower=not upper, transpose_a=transpose,
                               unit_diagonal=unitriangular)


def cholesky_solve(x: Any, y: Any, upper: bool = False, name: str | None = None) -> Any:
    """Solve A @ out = x given y, the Cholesky factor of A (lower: A = y y^H; upper: A = y^H y).
    x (*, M, K), y (*, M, M); batch dimensions broadcast.

    Args:
        x: the right-hand sides B, shape (*, M, K).
        y: the Cholesky factor of A, shape (*, M, M), same dtype as `x`.
        upper: y is the upper factor (A = y^H y); default False, the lower (A = y y^H).

    Returns:
        The solution of A @ out = x, shape (*, M, K) with the broadcast batch shape.

    Examples:
        >>> import padax
        >>> a = padax.to_tensor([[4.0, 2.0], [2.0, 3.0]])
        >>> l = padax.linalg.cholesky(a)
        >>> padax.linalg.cholesky_solve(padax.to_tensor([[8.0], [7.0]]), l).tolist()
        [[1.25], [1.5]]
    """
    b = _matrix("cholesky_solve", x, "x", square=False)
    f = _matrix("cholesky_solve", y, "y")
    _same_dtype("cholesky_solve", b, f)
    if b.aval.shape[-2] != f.aval.shape[-1]:
        raise op_value_error("linalg.cholesky_solve", f"x must have {f.aval.shape[-1]} rows to match y, got "
                                                      f"x {b.aval.str_short()} and y {f.aval.str_short()}")
    f, b = _broadcast_batch(f, b)
    lower = not upper
    # A = F F^H with F lower (or F^H F with F upper): two triangular solves
    z = _L.triangular_solve(f, b, left_side=True, lower=lower, transpose_a=not lower, conjugate_a=not lower)
    return _L.triangular_solve(f, z, left_side=True, lower=lower, transpose_a=lower, conjugate_a=lower)


def cholesky_inverse(x: Any, upper: bool = False, name: str | None = None) -> Any:
    """Inverse of A = x x^H (x^H x if `upper`) for its Cholesky factor x: computed as Paddle
    does, inv(A) with A formed from all of x, so both triangles of x get gradients.

    Args:
        x: a Cholesky factor, shape (*, M, M).
        upper: x is the upper factor; default False, the lower.

    Returns:
        The inverse of A, same shape and dtype as `x`.

    Examples:
        >>> import padax
        >>> a = padax.to_tensor([[4.0, 2.0], [2.0, 3.0]])
        >>> l = padax.linalg.cholesky(a)
        >>> padax.linalg.cholesky_inverse(l).tolist()
        [[0.375, -0.25], [-0.25, 0.5]]
    """
    f = _matrix("cholesky_inverse", x)
    return inv(_mm(_mH(f), f) if upper else _mm(f, _mH(f)))


def _lu_solve(f: Any, perm: Any, b: Any) -> Any:
    """Solve A X = b from A[perm] = L U (f packs L and U); batch dims of f and b equal."""
    pb = _mm(_L._permutation_matrix(perm, f.aval.dtype), b)
    z = _L.triangular_solve(f, pb, left_side=True, lower=True, unit_diagonal=True)
    return _L.triangular_solve(f, z, left_side=True, lower=False)


def solve(x: Any, y: Any, left: bool = True, name: str | None = None, *, out: Any = None) -> Any:
    """Solve x @ out = y (or out @ x = y if not `left`) through an LU factorisation of x.

    x (*, M, M); y (*, M, K) (for `left=False`: (*, K, M)), or a batch of vectors (*, M)
    when y is 1-D or, for `left=True`, has one dimension fewer than x. Batch dimensions
    broadcast. A singular x gives inf/NaN entries, not an error.

    Args:
        x: the square coefficient matrix (*, M, M).
        y: the right-hand side: (*, M, K), or a vector (*, M); same dtype as `x`.
        left: solve x @ out = y (default); False solves out @ x = y.

    Returns:
        The solution, shaped like `y` with the broadcast batch shape.

    Examples:
        >>> import padax
        >>> a = padax.to_tensor([[4.0, 2.0], [2.0, 3.0]])
        >>> padax.linalg.solve(a, padax.to_tensor([8.0, 7.0])).tolist()
        [1.25, 1.5]
    """
    if out is not None:
        return write_out(out, solve(x=x, y=y, left=left, name=name), "linalg.solve")
    x = _matrix("solve", x)
    y = asarray(y)
    if y.aval.dtype.name not in _INEXACT_NAMES:
        raise op_type_error("linalg.solve", f"y must be float32, float64, complex64 or complex128, got "
                                            f"{y.aval.str_short()}")
    _same_dtype("solve", x, y)
    m = x.aval.shape[-1]
    vector = y.aval.ndim == 1 or (left and y.aval.ndim == x.aval.ndim - 1 and y.aval.shape[-1] == m)
    if vector:
        if y.aval.shape[-1] != m:
            raise op_value_error("linalg.solve", f"y must have {m} entries to match x, got x {x.aval.str_short()} "
                                                 f"and y {y.aval.str_short()}")
        y = _unsqueeze_last(y)
    elif y.aval.ndim < 2:
        raise op_value_error("linalg.solve", f"y must be a vector or a matrix, got {y.aval.str_short()}")
    if not left and not vector:
        # out @ x = y  <=>  x^T @ out^T = y^T
        x, y = _mT(x), _mT(y)
    if y.aval.shape[-2] != m:
        raise op_value_error("linalg.solve", f"y must have {m} {'rows' if left else 'columns'} to match x, got "
                                             f"x {x.aval.str_short()} and y {y.aval.str_short()}")
    x, y = _broadcast_batch(x, y)
    if not left and vector:
        x = _mT(x)  # a vector times x: x^T @ out = y
    f, _, perm = _L.lu(x)
    out = _lu_solve(f, perm, y)
    if vector:
        return lax.reshape(out, out.aval.shape[:-1])
    return out if left else _mT(out)


def inv(x: Any, name: str | None = None) -> Any:
    """Inverse of a square matrix (batch), through LU. Singular matrices give inf/NaN.

    Args:
        x: a (batch of) square float32/float64/complex64/complex128 matrix, shape (*, M, M).

    Returns:
        The inverse, same shape and dtype as `x`.

    Examples:
        >>> import padax
        >>> a = padax.to_tensor([[4.0, 2.0], [2.0, 3.0]])
        >>> padax.linalg.inv(a).tolist()
        [[0.375, -0.25], [-0.25, 0.5]]
    """
    x = _matrix("inv", x)
    f, _, perm = _L.lu(x)
    return _lu_solve(f, perm, _eye_like(x.aval.shape, x.aval.dtype))


def pinv(x: Any, rcond: float = 1e-15, hermitian: bool = False, name: str | None = None) -> Any:
    """Moore-Penrose pseudo-inverse via the SVD (eigh if `hermitian`): singular values at or
    below rcond * (largest singular value) are treated as zero.

    Args:
        x: a (batch of) float/complex matrix (*, M, N) (square when `hermitian`).
        rcond: relative cutoff for small singular values (default 1e-15).
        hermitian: x is Hermitian (only its lower triangle is read); uses an eigendecomposition.

    Returns:
        The pseudo-inverse, shape (*, N, M), dtype of `x`.

    Examples:
        >>> import padax
        >>> padax.linalg.pinv(padax.to_tensor([[1.0, 0.0], [0.0, 2.0], [0.0, 0.0]])).tolist()
        [[1.0, 0.0, 0.0], [0.0, 0.5, 0.0]]
    """
    x = _matrix("pinv", x, square=hermitian)
    if hermitian:
        w, v = _hermitian_eigh(x)
        aw = lax.abs(w)
        cutoff = lax.mul(lax.reduce_max(aw, (aw.aval.ndim - 1,)), rcond)
        keep = lax.gt(aw, _bcast_last(cutoff, aw))
        w_inv = _where(keep, lax.div(_scalar(1.0, w), _where(keep, w, _scalar(1.0, w))), _scalar(0.0, w))
        return _mm(lax.mul(v, _row(_cast(w_inv, x.aval.dtype), v)), _mH(v))
    s, u, vh = _L.svd(x)
    cutoff = lax.mul(lax.reduce_max(s, (s.aval.ndim - 1,)), rcond)
    keep = lax.gt(s, _bcast_last(cutoff, s))
    s_inv = _where(keep, lax.div(_scalar(1.0, s), _where(keep, s, _scalar(1.0, s))), _scalar(0.0, s))
    vs = lax.mul(_mH(vh), _row(_cast(s_inv, x.aval.dtype), _mH(vh)))
    return _mm(vs, _mH(u))


_LSTSQ_DRIVERS = (None, "gels", "gelsy", "gelsd", "gelss")


def lstsq(x: Any, y: Any, rcond: float | None = None, driver: str | None = None, name: str | None = None):
    """Least-squares solution of x @ solution = y: (solution, residuals, rank, singular_values).

    Solved through the SVD for every `driver` (the 'gelsd' answer): singular values at or
    below rcond * (largest) are dropped, rcond defaulting to max(M, N) * eps. The other
    outputs have the shapes Paddle gives for each driver: residuals (*, K), the squared
    residual norms when M > N (also for a rank-deficient x) except with 'gelsy' (the default);
    rank, int32 (*), except with 'gels'; singular_values (*, min(M, N)) with 'gelsd'/'gelss'.
    Where Paddle leaves one out, it is an empty Tensor of shape [0] (an empty int64 for the rank).

    Args:
        x: the coefficient matrix (*, M, N).
        y: the right-hand sides (*, M, K), same dtype as `x`.
        rcond: relative cutoff for small singular values; None means max(M, N) * eps.
        driver: None, 'gels', 'gelsy', 'gelsd' or 'gelss'; only changes which extra outputs are filled.

    Returns:
        The tuple (solution (*, N, K), residuals, rank, singular_values) described above.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0]])
        >>> y = padax.to_tensor([[1.0], [3.0], [5.0]])
        >>> solution, residuals, rank, sv = padax.linalg.lstsq(x, y)
        >>> solution.tolist()
        [[1.0], [2.0]]
        >>> int(rank)
        2
    """
    x = _matrix("lstsq", x, square=False)
    y = _matrix("lstsq", y, "y", square=False)
    _same_dtype("lstsq", x, y)
    if driver not in _LSTSQ_DRIVERS:
        raise op_value_error("linalg.lstsq", f"driver must be one of 'gels', 'gelsy', 'gelsd', 'gelss' or None, "
                                             f"got {driver!r}")
    *_, m, n = x.aval.shape
    if y.aval.shape[-2] != m:
        raise op_value_error("linalg.lstsq", f"y must have {m} rows to match x, got x {x.aval.str_short()} and "
                                             f"y {y.aval.str_short()}")
    x, y = _broadcast_batch(x, y)
    if rcond is None:
        rcond = max(m, n) * float(np.finfo(_real_dtype(x.aval.dtype)).eps)
    s, u, vh = _L.svd(x)
    cutoff = lax.mul(lax.reduce_max(s, (s.aval.ndim - 1,)), rcond)
    keep = lax.gt(s, _bcast_last(cutoff, s))
    rank = lax.reduce_sum(lax.convert_element_type(keep, np.int32), (s.aval.ndim - 1,))
    s_inv = _where(keep, lax.div(_scalar(1.0, s), _where(keep, s, _scalar(1.0, s))), _scalar(0.0, s))
    uty = _mm(_mH(u), y)
    sol = _mm(_mH(vh), lax.mul(_col(_cast(s_inv, x.aval.dtype), uty), uty))
    if m > n:
        r = lax.sub(_mm(x, sol), y)
        rr = lax.real(lax.mul(r, lax.conj(r))) if _is_complex(r) else lax.mul(r, r)
        residuals = lax.reduce_sum(rr, (rr.aval.ndim - 2,))
    if m <= n or driver in (None, "gelsy"):
        residuals = full((0,), 0, _real_dtype(x.aval.dtype))
    if driver == "gels":
        rank = full((0,), 0, dtypes.canonicalize_dtype(dtypes.int64))
    if driver not in ("gelsd", "gelss"):
        s = full((0,), 0, s.aval.dtype)
    return sol, residuals, rank, s


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
    b = _matrix(op, b, "b", square=False)
    f = _matrix(op, lu, "lu")
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
