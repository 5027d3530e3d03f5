"""`padax.linalg`: Paddle's linear-algebra API (names and signatures of `paddle.linalg`).

Everything here is composed from the primitives in `padax.functional.lax.linalg`
(cholesky, triangular_solve, lu, qr, eigh, svd, eig) and ordinary lax ops, so
jit, vmap and grad work through every function. Inputs are float32/float64/complex64/complex128 (batches of)
matrices in the trailing two axes; integer inputs are refused with a TypeError
naming the function and argument, as Paddle does (cov/corrcoef cast them).

Behaviour to know about:
- Failures do not raise inside compiled code: a Cholesky factorisation of a
  matrix that is not positive definite, or an eigen/singular-value solver that
  does not converge, returns NaN for that matrix (as jax does). `solve`/`inv`/
  `det` of an exactly singular matrix give inf/NaN entries and det 0.
- Hermitian routines (cholesky, eigh, eigvalsh, and pinv/matrix_rank with
  hermitian=True) read one triangle only (`cholesky`: the lower; `eigh`: `UPLO`),
  as LAPACK and Paddle do, and differentiate as Paddle does: the input stands for
  a Hermitian matrix, so its gradient is the Hermitian one, (G + G^H) / 2 of the
  full-matrix formula, spread over both triangles (`_as_hermitian`).
  (padax.numpy.linalg and padax.lax follow jax: they symmetrize the input first.)
- `slogdet` returns Paddle's stacked layout: one Tensor of shape (2, *batch)
  holding sign then log|det| (complex inputs: both as complex). Paddle's newer
  `paddle.compat.slogdet` tuple form is `(out[0], out[1])`.
- `lstsq` always solves through the SVD (the 'gelsd' result, whatever `driver`
  says), returns rank and singular values for every driver, and returns
  residuals (squared column norms of x @ solution - y) whenever M > N,
  also for rank-deficient inputs (Paddle then returns an empty Tensor: a shape
  that would depend on data, which a traced program cannot have); for M <= N
  residuals is empty, shape (*, 0).
- `lu` pivots are 1-based int32 like Paddle's. `lu(x, pivot=False)` (which Paddle
  has on GPU only) is computed on every backend by Doolittle elimination without
  row exchanges; its Pivots are then the identity sequence 1..K (no swaps), so
  `lu_unpack` gives P = I. It needs nonsingular leading principal minors (a zero
  pivot gives inf/NaN in the rest of the factor).
- `eig`/`eigvals` run on the CPU (LAPACK geev); results are complex. They are
  differentiable where the eigenvalues are distinct. Eigenvectors are only fixed
  up to a complex scale; their derivative is that of geev's choice (unit norm,
  largest entry real), so differentiate gauge-invariant quantities where you can.
- Derivatives of `qr(x, mode='complete')` for tall x include the extra columns of
  Q (those of LAPACK's Householder product). For `svd(x, full_matrices=True)` of a
  non-square x, the extra columns of U (rows of VH) only span a complement; their
  derivative keeps that basis from rotating within it, exact for anything that
  depends on their span (Paddle drops their cotangent; jax raises).
- `cholesky_inverse(x)` is inv(x @ x^H) (x^H @ x if `upper`) as in Paddle, so the
  gradient reaches both triangles of x.
- Where Paddle's own derivative is wrong (complex slogdet, matrix_power, pinv,
  SVD/eig vectors; triangular_solve with unitriangular lower x; lstsq, which
  Paddle does not differentiate) padax gives the true derivative (which jax's
  agrees with).
"""
from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from padax import lax
from padax.core import dtypes
from padax.core.errors import op_type_error, op_value_error
from padax.functional import linalg_basic as _basic
from padax.functional._arrays import asarray, broadcast_shapes, broadcast_to, canonicalize_axis, full
from padax.functional._checks import no_out
from padax.functional.lax import linalg as _L
from padax.transforms.custom import custom_jvp

_INEXACT_NAMES = _L.INEXACT_NAMES


# ---- argument checks and small helpers --------------------------------------------------------

def _matrix(op: str, x: Any, arg: str = "x", square: bool = True) -> Any:
    """x as an array, checked to be a (batch of) float/complex matrix (square if asked)."""
    x = asarray(x)
    _L.check_matrix(f"linalg.{op}", arg, x.aval, square)
    return x


def _same_dtype(op: str, x: Any, y: Any, xname: str = "x", yname: str = "y") -> None:
    if x.aval.dtype != y.aval.dtype:
        raise op_type_error(f"linalg.{op}", f"{xname} and {yname} must have the same dtype, got "
                                            f"{x.aval.str_short()} and {y.aval.str_short()}")


def _real_dtype(dt) -> np.dtype:
    return {"complex64": dtypes.float32, "complex128": dtypes.float64}.get(np.dtype(dt).name, np.dtype(dt))


def _is_complex(x) -> bool:
    return dtypes.is_complex(x.aval.dtype)


def _mT(x: Any) -> Any:
    nd = x.aval.ndim
    return lax.transpose(x, tuple(range(nd - 2)) + (nd - 1, nd - 2))


def _mH(x: Any) -> Any:
    x = _mT(x)
    return lax.conj(x) if _is_complex(x) else x


def _mm(a: Any, b: Any) -> Any:
    return _basic.matmul(a, b)


def _cast(x: Any, dt) -> Any:
    return x if x.aval.dtype == dt else lax.convert_element_type(x, dt)


def _eye_like(shape: tuple[int, ...], dt) -> Any:
    """Identity matrices of shape[-2:] broadcast over shape[:-2]."""
    rows = lax.broadcasted_iota(np.int32, shape, len(shape) - 2)
    cols = lax.broadcasted_iota(np.int32, shape, len(shape) - 1)
    return lax.convert_element_type(lax.eq(rows, cols), dt)


def _diag(x: Any) -> Any:
    """The main diagonal of each matrix (square or not): shape (*, min(m, n))."""
    *batch, m, n = x.aval.shape
    k = min(m, n)
    sq = lax.slice(x, (0,) * x.aval.ndim, tuple(batch) + (k, k))
    return _L._diag_part(sq)


def _broadcast_batch(x: Any, y: Any, ycore: int = 2) -> tuple[Any, Any]:
    """Broadcast the batch dims (all but the trailing 2 of x, trailing `ycore` of y)."""
    bx, by = x.aval.shape[:-2], y.aval.shape[:y.aval.ndim - ycore]
    batch = broadcast_shapes("linalg", bx, by)
    return (broadcast_to(x, batch + x.aval.shape[-2:]),
            broadcast_to(y, batch + y.aval.shape[y.aval.ndim - ycore:]))


def _where(pred: Any, a: Any, b: Any) -> Any:
    return lax.select(pred, a, b)


def _scalar(value, like: Any) -> Any:
    return full(like.aval.shape, value, like.aval.dtype)


def _unsqueeze_last(x: Any) -> Any:
    return lax.reshape(x, x.aval.shape + (1,))


# ---- factorizations ------------------------------------------------------------------------

@custom_jvp
def _as_hermitian(x: Any) -> Any:
    """x itself, whose derivatives treat it as the Hermitian matrix it stands for: a tangent
    t enters as (t + t^H) / 2, so the gradient is Hermitian (Paddle's rule for cholesky and
    eigh, whose kernels read one triangle of x)."""
    return x


@_as_hermitian.defjvp
def _as_hermitian_jvp(primals, tangents):
    # the primal goes out through _as_hermitian again, so that a derivative of this rule
    # (second order) also sees x as Hermitian
    x, = primals
    t, = tangents
    return _as_hermitian(x), _L.symmetrize(t)


def cholesky(x: Any, upper: bool = False, name: str | None = None) -> Any:
    """Cholesky factor of a Hermitian positive-definite matrix (batch): lower L with
    x = L L^H, or with `upper` U = L^H (x = U^H U). Only the lower triangle of x is read;
    the gradient is Hermitian (see the module docstring). A matrix that is not positive
    definite gives a NaN factor (no exception).

    Args:
        x: a (batch of) square float32/float64/complex64/complex128 matrix, shape (*, M, M), Hermitian positive definite
            (only its lower triangle is read).
        upper: return the upper factor U = L^H instead of the lower L.

    Returns:
        The triangular factor, same shape and dtype as `x`.

    Examples:
        >>> import padax
        >>> a = padax.to_tensor([[4.0, 2.0], [2.0, 3.0]])
        >>> l = padax.linalg.cholesky(a)
        >>> l.tolist()
        [[2.0, 0.0], [1.0, 1.4142]]
        >>> (l @ l.T).tolist()
        [[4.0, 2.0], [2.0, 3.0]]
    """
    x = _matrix("cholesky", x)
    f = _L.cholesky(_as_hermitian(x), symmetrize_input=False)
    return _mH(f) if upper else f


def qr(x: Any, mode: str = "reduced", name: str | None = None) -> Any:
    """QR decomposition x = Q R. mode 'reduced': Q (*, M, K), R (*, K, N), K = min(M, N);
    'complete': Q (*, M, M), R (*, M, N); 'r': only the reduced R.

    Args:
        x: a (batch of) float/complex matrix, shape (*, M, N).
        mode: 'reduced' (default), 'complete' or 'r'.

    Returns:
        The tuple (Q, R), or only R for mode 'r'; same dtype as `x`.

    Examples:
        >>> import padax
        >>> a = padax.to_tensor([[4.0, 2.0], [2.0, 3.0]])
        >>> q, r = padax.linalg.qr(a)
        >>> (q @ r).tolist()
        [[4.0, 2.0], [2.0, 3.0]]
        >>> bool(padax.allclose(q.T @ q, padax.eye(2), atol=1e-6))
        True
    """
    x = _matrix("qr", x, square=False)
    if mode not in ("reduced", "complete", "r"):
        raise op_value_error("linalg.qr", f"mode must be 'reduced', 'complete' or 'r', got {mode!r}")
    q, r = _L.qr(x, full_matrices=mode == "complete")
    return r if mode == "r" else (q, r)


def svd(x: Any, full_matrices: bool = False, name: str | None = None, *, out: Any = None) -> tuple[Any, Any, Any]:
    """Singular value decomposition x = U diag(S) VH: returns (U, S, VH), S descending and real.
    Gradients of U and VH need distinct singular values and full_matrices=False (or a square x).

    Args:
        x: a (batch of) float/complex matrix, shape (*, M, N).
        full_matrices: if True, U is (*, M, M) and VH (*, N, N); else (*, M, K) and (*, K, N), K = min(M, N).

    Returns:
        The tuple (U, S, VH); S (*, K) is real (float32 for complex64 input, float64 for complex128).

    Examples:
        >>> import padax
        >>> u, s, vh = padax.linalg.svd(padax.to_tensor([[3.0, 0.0], [0.0, -4.0]]))
        >>> s.tolist()
        [4.0, 3.0]
        >>> (u @ padax.diag(s) @ vh).tolist()
        [[3.0, 0.0], [0.0, -4.0]]
    """
    no_out("linalg.svd", out)
    x = _matrix("svd", x, square=False)
    s, u, vh = _L.svd(x, full_matrices=full_matrices)
    return u, s, vh


def svdvals(x: Any, name: str | None = None) -> Any:
    """Singular values of x (descending), without computing U and VH.

    Args:
        x: a (batch of) float/complex matrix, shape (*, M, N).

    Returns:
        The singular values, shape (*, min(M, N)), descending, real dtype.

    Examples:
        >>> import padax
        >>> padax.linalg.svdvals(padax.to_tensor([[3.0, 0.0], [0.0, -4.0]])).tolist()
        [4.0, 3.0]
    """
    x = _matrix("svdvals", x, square=False)
    return _L.svd(x, compute_uv=False)[0]


def eigh(x: Any, UPLO: str = "L", name: str | None = None) -> tuple[Any, Any]:
    """Eigenvalues (ascending, real) and orthonormal eigenvectors (columns) of a Hermitian
    matrix read from its lower ('L') or upper ('U') triangle.

    Args:
        x: a (batch of) square float32/float64/complex64/complex128 matrix, shape (*, M, M), Hermitian.
        UPLO: 'L' (default) reads the lower triangle, 'U' the upper.

    Returns:
        The tuple (eigenvalues (*, M), real; eigenvectors (*, M, M), the dtype of `x`).

    Examples:
        >>> import padax
        >>> a = padax.to_tensor([[4.0, 2.0], [2.0, 3.0]])
        >>> w, v = padax.linalg.eigh(a)
        >>> w.tolist()
        [1.4384, 5.5616]
        >>> (v @ padax.diag(w) @ v.T).tolist()
        [[4.0, 2.0], [2.0, 3.0]]
    """
    x = _matrix("eigh", x)
    return _hermitian_eigh(x, _uplo("eigh", UPLO))


def eigvalsh(x: Any, UPLO: str = "L", name: str | None = None) -> Any:
    """Eigenvalues (ascending, real) of a Hermitian matrix read from the UPLO triangle.

    Args:
        x: a (batch of) square float32/float64/complex64/complex128 matrix, shape (*, M, M), Hermitian.
        UPLO: 'L' (default) reads the lower triangle, 'U' the upper.

    Returns:
        The eigenvalues, shape (*, M), ascending, real dtype.

    Examples:
        >>> import padax
        >>> a = padax.to_tensor([[4.0, 2.0], [2.0, 3.0]])
        >>> padax.linalg.eigvalsh(a).tolist()
        [1.4384, 5.5616]
    """
    x = _matrix("eigvalsh", x)
    return _hermitian_eigh(x, _uplo("eigvalsh", UPLO))[0]


def _hermitian_eigh(x: Any, lower: bool = True) -> tuple[Any, Any]:
    """eigh of the matrix in x's `lower` (or upper) triangle, with Paddle's Hermitian gradient."""
    return _L.eigh(_as_hermitian(x), lower=lower, symmetrize_input=False)


def _uplo(op: str, UPLO: str) -> bool:
    if UPLO not in ("L", "U"):
        raise op_value_error(f"linalg.{op}", f"UPLO must be 'L' or 'U', got {UPLO!r}")
    return UPLO == "L"


def eig(x: Any, name: str | None = None) -> tuple[Any, Any]:
    """Eigenvalues and right eigenvectors (unit-norm columns, largest entry real) of a general
    square matrix, both complex, unordered. CPU only. Differentiable where the eigenvalues are
    distinct (the eigenvector derivative follows that normalisation).

    Args:
        x: a (batch of) square float32/float64/complex64/complex128 matrix, shape (*, M, M).

    Returns:
        The tuple (eigenvalues (*, M), eigenvectors (*, M, M)), both complex (complex64 for float32 x).

    Examples:
        >>> import padax
        >>> w, v = padax.linalg.eig(padax.to_tensor([[2.0, 0.0], [0.0, 3.0]]))
        >>> w.tolist()
        [(2+0j), (3+0j)]
        >>> w.dtype
        dtype('complex64')
    """
    x = _matrix("eig", x)
    w, v = _L.eig(x)
    return w, v


def eigvals(x: Any, name: str | None = None) -> Any:
    """Eigenvalues (complex, unordered) of a general square matrix. CPU only; differentiable
    where they are distinct.

    Args:
        x: a (batch of) square float32/float64/complex64/complex128 matrix, shape (*, M, M).

    Returns:
        The eigenvalues, shape (*, M), complex.

    Examples:
        >>> import padax
        >>> padax.linalg.eigvals(padax.to_tensor([[0.0, -1.0], [1.0, 0.0]])).tolist()
        [1j, -1j]
    """
    x = _matrix("eigvals", x)
    return _L.eig(x, compute_right_eigenvectors=False)[0]


def lu(x: Any, pivot: bool = True, get_infos: bool = False, name: str | None = None):
    """LU factorisation: (LU, Pivots[, Infos]).

    LU packs the unit lower L (strictly below the diagonal) and U; Pivots (*, min(M, N)) are
    LAPACK's 1-based int32 row swaps; Infos (*) is 0, or i when U[i-1, i-1] is exactly zero
    (singular). Unpack with `lu_unpack`. With pivot=False the rows are not exchanged
    (x = L U; Pivots is 1..min(M, N)); that needs nonsingular leading principal minors.

    Args:
        x: a (batch of) float/complex matrix, shape (*, M, N).
        pivot: use partial pivoting (default); False factors without row exchanges.
        get_infos: also return the Infos array.

    Returns:
        (LU, Pivots) or (LU, Pivots, Infos): LU like `x`, Pivots (*, min(M, N)) int32, Infos (*) int32.

    Examples:
        >>> import padax
        >>> a = padax.to_tensor([[4.0, 2.0], [2.0, 3.0]])
        >>> lu, pivots = padax.linalg.lu(a)
        >>> lu.tolist()
        [[4.0, 2.0], [0.5, 2.0]]
        >>> pivots.tolist()
        [1, 2]
    """
    x = _matrix("lu", x, square=False)
    if pivot:
        f, piv, _ = _L.lu(x)
        pivots = lax.add(piv, 1)
    else:
        f = _lu_unpivoted(x)
        k = min(x.aval.shape[-2:])
        pivots = lax.add(lax.broadcasted_iota(np.int32, x.aval.shape[:-2] + (k,), x.aval.ndim - 2), 1)
    if not get_infos:
        return f, pivots
    d = _diag(f)
    k = d.aval.shape[-1]
    idx = lax.broadcasted_iota(np.int32, d.aval.shape, d.aval.ndim - 1)
    big = np.int32(k + 1)
    cand = _where(lax.eq(d, _scalar(0, d)), lax.add(idx, 1), full(d.aval.shape, big, np.int32))
    first = lax.reduce_min(cand, (d.aval.ndim - 1,))
    infos = _where(lax.eq(first, int(big)), full(first.aval.shape, 0, np.int32), first)
    return f, pivots, infos


@custom_jvp
def _lu_unpivoted(x: Any) -> Any:
    """The unpivoted factor, with its closed-form derivative (rather than differentiating the
    elimination loop step by step)."""
    return _L.lu_unpivoted(x)


@_lu_unpivoted.defjvp
def _lu_unpivoted_jvp(primals, tangents):
    x, = primals
    t, = tangents
    f = _L.lu_unpivoted(x)
    return f, _L.lu_factor_tangent(f, t)


def lu_unpack(x: Any, y: Any, unpack_ludata: bool = True, unpack_pivots: bool = True,
              name: str | None = None) -> tuple[Any, Any, Any]:
    """Split `lu`'s packed result: (P, L, U) with x_original = P @ L @ U.

    x is the packed LU (*, M, N), y the 1-based pivots (*, K). L is (*, M, K) unit lower,
    U is (*, K, N), P is (*, M, M). Parts not asked for are returned as None.

    Args:
        x: the packed LU factor from `lu`, shape (*, M, N).
        y: the 1-based integer pivots from `lu`, shape (*, min(M, N)).
        unpack_ludata: compute L and U (else they are None).
        unpack_pivots: compute P (else it is None).

    Returns:
        The tuple (P, L, U), with the dtype of `x`.

    Examples:
        >>> import padax
        >>> a = padax.to_tensor([[4.0, 2.0], [2.0, 3.0]])
        >>> lu, pivots = padax.linalg.lu(a)
        >>> p, l, u = padax.linalg.lu_unpack(lu, pivots)
        >>> (p @ l @ u).tolist()
        [[4.0, 2.0], [2.0, 3.0]]
    """
    x = _matrix("lu_unpack", x, square=False)
    y = asarray(y)
    if y.aval.dtype.kind not in "iu":
        raise op_type_error("linalg.lu_unpack", f"y (the pivots) must be an integer array, got {y.aval.str_short()}")
    *batch, m, n = x.aval.shape
    k = min(m, n)
    L = U = P = None
    if unpack_ludata:
        lower = lax.slice(x, (0,) * x.aval.ndim, tuple(batch) + (m, k))
        L = lax.add(_L._tril(lower, -1), _eye_like(lower.aval.shape, x.aval.dtype))
        U = _L._triu(lax.slice(x, (0,) * x.aval.ndim, tuple(batch) + (k, n)))
    if unpack_pivots:
        piv = lax.sub(_cast(y, np.dtype(np.int32)), 1)
        perm = _L.lu_pivots_to_permutation(piv, m)
        # P^T[i, j] = (perm[i] == j): P^T x = x[perm] = L U
        P = _mT(_L._permutation_matrix(perm, x.aval.dtype))
    return P, L, U


# ---- solving ---------------------------------------------------------------------------------

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
    no_out("linalg.solve", out)
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


def _bcast_last(v: Any, like: Any) -> Any:
    """v (*,) broadcast along a new last axis to like's shape (*, k)."""
    return lax.broadcast_in_dim(v, like.aval.shape, tuple(range(v.aval.ndim)))


def _row(v: Any, like: Any) -> Any:
    """v (*, k) as rows broadcast to like's shape (*, m, k): entry [.., i, j] = v[.., j]."""
    nd = like.aval.ndim
    return lax.broadcast_in_dim(v, like.aval.shape, tuple(range(nd - 2)) + (nd - 1,))


def _col(v: Any, like: Any) -> Any:
    """v (*, m) as columns broadcast to like's shape (*, m, k): entry [.., i, j] = v[.., i]."""
    nd = like.aval.ndim
    return lax.broadcast_in_dim(v, like.aval.shape, tuple(range(nd - 1)))


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
        rank = full((0,), 0, dtypes.canonicalize(dtypes.int64))
    if driver not in ("gelsd", "gelss"):
        s = full((0,), 0, s.aval.dtype)
    return sol, residuals, rank, s


# ---- determinants and powers ------------------------------------------------------------------

def _lu_parity_sign(piv: Any, dt) -> Any:
    """(-1)^(number of actual row swaps) as dtype dt."""
    idx = lax.broadcasted_iota(np.int32, piv.aval.shape, piv.aval.ndim - 1)
    swaps = lax.reduce_sum(lax.convert_element_type(lax.ne(piv, idx), np.int32), (piv.aval.ndim - 1,))
    odd = lax.eq(lax.rem(swaps, 2), 1)
    return _where(odd, full(odd.aval.shape, -1, dt), full(odd.aval.shape, 1, dt))


def det(x: Any, name: str | None = None) -> Any:
    """Determinant of a square matrix (batch): the product of U's diagonal from LU, signed by
    the row permutation.

    Args:
        x: a (batch of) square float32/float64/complex64/complex128 matrix, shape (*, M, M).

    Returns:
        The determinants, shape (*), dtype of `x`.

    Examples:
        >>> import padax
        >>> a = padax.to_tensor([[4.0, 2.0], [2.0, 3.0]])
        >>> float(padax.linalg.det(a))
        8.0
    """
    x = _matrix("det", x)
    f, piv, _ = _L.lu(x)
    d = _diag(f)
    return lax.mul(lax.reduce_prod(d, (d.aval.ndim - 1,)), _lu_parity_sign(piv, x.aval.dtype))


def slogdet(x: Any, name: str | None = None) -> Any:
    """Sign and natural log of |det| of a square matrix (batch), stacked as Paddle does: a
    Tensor of shape (2, *batch) = [sign, logabsdet]. A singular matrix gives (0, -inf).
    For complex x, sign = det / |det| and both rows are complex.

    Args:
        x: a (batch of) square float32/float64/complex64/complex128 matrix, shape (*, M, M).

    Returns:
        One array of shape (2, *) holding sign then log|det|, dtype of `x`.

    Examples:
        >>> import padax
        >>> padax.linalg.slogdet(padax.to_tensor([[-2.0, 0.0], [0.0, 3.0]])).tolist()
        [-1.0, 1.7918]
    """
    x = _matrix("slogdet", x)
    f, piv, _ = _L.lu(x)
    d = _diag(f)
    ax = (d.aval.ndim - 1,)
    ad = lax.abs(d)
    logabs = lax.reduce_sum(lax.log(ad), ax)
    if _is_complex(x):
        zero = lax.eq(ad, _scalar(0.0, ad))
        unit = _where(zero, _scalar(0.0, d), lax.div(d, _where(zero, _scalar(1.0, d), _cast(ad, d.aval.dtype))))
    else:
        unit = lax.sign(d)
    sign = lax.mul(lax.reduce_prod(unit, ax), _lu_parity_sign(piv, x.aval.dtype))
    logabs = _cast(logabs, x.aval.dtype)
    return lax.concatenate([lax.reshape(sign, (1,) + sign.aval.shape),
                            lax.reshape(logabs, (1,) + logabs.aval.shape)], 0)


def matrix_power(x: Any, n: int, name: str | None = None) -> Any:
    """x raised to the integer power n by repeated squaring; n < 0 uses inv(x), n == 0 gives
    identity matrices.

    Args:
        x: a (batch of) square float32/float64/complex64/complex128 matrix, shape (*, M, M).
        n: the exponent, a Python int; 0 gives the identity and negative n powers the inverse.

    Returns:
        x to the power n, same shape and dtype as `x`.

    Examples:
        >>> import padax
        >>> a = padax.to_tensor([[4.0, 2.0], [2.0, 3.0]])
        >>> padax.linalg.matrix_power(a, 2).tolist()
        [[20.0, 14.0], [14.0, 13.0]]
        >>> padax.linalg.matrix_power(a, -1).tolist()
        [[0.375, -0.25], [-0.25, 0.5]]
    """
    x = _matrix("matrix_power", x)
    if not isinstance(n, (int, np.integer)) or isinstance(n, bool):
        raise op_type_error("linalg.matrix_power", f"n must be a Python int, got {type(n).__name__}")
    n = int(n)
    if n == 0:
        return _eye_like(x.aval.shape, x.aval.dtype)
    if n < 0:
        x, n = inv(x), -n
    result = None
    base = x
    while n:
        if n & 1:
            result = base if result is None else _mm(result, base)
        n >>= 1
        if n:
            base = _mm(base, base)
    return result


def matrix_rank(x: Any, tol: Any = None, hermitian: bool = False, atol: Any = None, rtol: Any = None,
                name: str | None = None) -> Any:
    """Number of singular values (|eigenvalues| if `hermitian`) above a threshold: `tol` if
    given; else max(atol, rtol * largest) with rtol defaulting to max(M, N) * eps (and atol
    to 0). Returns int64.

    Args:
        x: a (batch of) float/complex matrix (*, M, N) (square when `hermitian`).
        tol: absolute threshold (number or array broadcastable to the batch); overrides atol/rtol.
        hermitian: x is Hermitian; uses |eigenvalues| instead of singular values.
        atol: absolute threshold (default 0).
        rtol: relative threshold (default max(M, N) * eps).

    Returns:
        The ranks, int64, shape (*).

    Examples:
        >>> import padax
        >>> int(padax.linalg.matrix_rank(padax.to_tensor([[1.0, 2.0], [2.0, 4.0]])))
        1
    """
    x = _matrix("matrix_rank", x, square=hermitian)
    if hermitian:
        s = lax.abs(_hermitian_eigh(x)[0])
    else:
        s = _L.svd(x, compute_uv=False)[0]
    ax = (s.aval.ndim - 1,)
    smax = lax.reduce_max(s, ax)

    def threshold(v):  # a Python number or an array broadcastable to the batch shape
        return broadcast_to(_cast(asarray(v), s.aval.dtype) if not isinstance(v, (int, float))
                            else full((), v, s.aval.dtype), smax.aval.shape)
    if tol is not None:
        thr = threshold(tol)
    else:
        m, n = x.aval.shape[-2:]
        r = max(m, n) * float(np.finfo(s.aval.dtype).eps) if rtol is None else rtol
        thr = lax.mul(smax, threshold(r))
        if atol is not None:
            thr = lax.max(thr, threshold(atol))
    above = lax.gt(s, _bcast_last(thr, s))
    return lax.reduce_sum(lax.convert_element_type(above, dtypes.canonicalize(dtypes.int64)), ax)


# ---- norms ------------------------------------------------------------------------------------

def _abs_real(x: Any) -> Any:
    return lax.abs(x)


def _norm_axes(op: str, axis: Any, ndim: int) -> tuple[int, ...]:
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (list, tuple)):
        axes = tuple(canonicalize_axis(f"linalg.{op}", a, ndim) for a in axis)
    else:
        axes = (canonicalize_axis(f"linalg.{op}", axis, ndim),)
    if len(set(axes)) != len(axes):
        raise op_value_error(f"linalg.{op}", f"repeated axis in {axis}")
    return axes


def _keep(out: Any, shape: tuple[int, ...], axes: Sequence[int], keepdim: bool) -> Any:
    if not keepdim:
        return out
    return lax.reshape(out, tuple(1 if i in axes else d for i, d in enumerate(shape)))


def _float_input(op: str, x: Any) -> Any:
    x = asarray(x)
    if x.aval.dtype.name not in _INEXACT_NAMES + ("float16", "bfloat16"):
        raise op_type_error(f"linalg.{op}", f"x must be a floating or complex Tensor, got {x.aval.str_short()}")
    return x


def vector_norm(x: Any, p: float = 2.0, axis: Any = None, keepdim: bool = False, name: str | None = None,
                *, dtype: Any = None, out: Any = None) -> Any:
    """Vector p-norm over `axis` (None: all axes): inf -> max|x|, -inf -> min|x|, 0 -> number
    of non-zeros, otherwise (sum |x|^p)^(1/p). With `dtype`, x is cast to it first.

    Args:
        x: a float or complex array.
        p: the order of the norm (default 2; inf, -inf and 0 allowed).
        axis: an int or a list of ints to reduce; None reduces all axes.
        keepdim: keep the reduced axes with size 1.
        dtype: cast x to this dtype before computing.

    Returns:
        The norm, a real array (the dtype of `x`, or its real part's for complex input).

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[3.0, -4.0], [0.0, 1.0]])
        >>> float(padax.linalg.vector_norm(x))
        5.099
        >>> padax.linalg.vector_norm(x, p=1, axis=0).tolist()
        [3.0, 5.0]
        >>> float(padax.linalg.vector_norm(x, p=float('inf')))
        4.0
    """
    no_out("linalg.vector_norm", out)
    if dtype is not None:
        x = _cast(asarray(x), dtypes.canonicalize(dtypes.to_dtype(dtype)))
    x = _float_input("vector_norm", x)
    axes = tuple(sorted(_norm_axes("vector_norm", axis, x.aval.ndim)))
    p = 2.0 if p is None else p
    if isinstance(p, str):
        raise op_value_error("linalg.vector_norm", f"p must be a number, got {p!r}")
    a = _abs_real(x)
    if p == math.inf:
        out = lax.reduce_max(a, axes)
    elif p == -math.inf:
        out = lax.reduce_min(a, axes)
    elif p == 0:
        out = lax.reduce_sum(lax.convert_element_type(lax.ne(a, _scalar(0.0, a)), a.aval.dtype), axes)
    elif p == 1:
        out = lax.reduce_sum(a, axes)
    elif p == 2:
        sq = lax.real(lax.mul(x, lax.conj(x))) if _is_complex(x) else lax.mul(x, x)
        out = _basic.root_of_sum(lax.reduce_sum(sq, axes), 2)
    else:
        out = _basic.root_of_sum(lax.reduce_sum(lax.pow(a, _scalar(float(p), a)), axes), float(p))
    return _keep(out, x.aval.shape, axes, keepdim)


def _svd_over(x: Any, axes: tuple[int, int]) -> Any:
    """Singular values of the matrices spanned by `axes` (row axis, column axis)."""
    nd = x.aval.ndim
    rest = [i for i in range(nd) if i not in axes]
    xm = lax.transpose(x, tuple(rest) + tuple(axes))
    return _L.svd(_matrix("matrix_norm", xm, square=False), compute_uv=False)[0]


def matrix_norm(x: Any, p: Any = "fro", axis: Any = [-2, -1], keepdim: bool = False,  # noqa: B006
                name: str | None = None) -> Any:
    """Matrix norm over the two `axis` (rows, columns): 'fro', 'nuc' (sum of singular values),
    inf / -inf (max / min absolute row sum), 1 / -1 (max / min absolute column sum),
    2 / -2 (largest / smallest singular value).

    Args:
        x: a float or complex array with at least two dimensions.
        p: 'fro' (default), 'nuc', inf, -inf, 1, -1, 2 or -2.
        axis: the two axes (rows, columns) holding the matrices (default the last two).
        keepdim: keep the reduced axes with size 1.

    Returns:
        The norms, a real array with those two axes removed (or kept with size 1).

    Examples:
        >>> import padax
        >>> a = padax.to_tensor([[4.0, 2.0], [2.0, 3.0]])
        >>> float(padax.linalg.matrix_norm(a))
        5.7446
        >>> float(padax.linalg.matrix_norm(a, p=1))
        6.0
    """
    x = _float_input("matrix_norm", x)
    axes = _norm_axes("matrix_norm", axis, x.aval.ndim)
    if len(axes) != 2:
        raise op_value_error("linalg.matrix_norm", f"axis must name two dimensions, got {axis}")
    r, c = axes
    p = "fro" if p is None else p
    if p == "fro":
        sq = lax.real(lax.mul(x, lax.conj(x))) if _is_complex(x) else lax.mul(x, x)
        out = _basic.root_of_sum(lax.reduce_sum(sq, tuple(sorted(axes))), 2)
    elif p == "nuc" or p in (2, -2):
        s = _svd_over(x, (r, c))
        ax = (s.aval.ndim - 1,)
        out = lax.reduce_sum(s, ax) if p == "nuc" else (lax.reduce_max(s, ax) if p == 2 else lax.reduce_min(s, ax))
    elif p in (math.inf, -math.inf, 1, -1):
        a = _abs_real(x)
        inner, outer = (c, r) if p in (math.inf, -math.inf) else (r, c)
        sums = lax.reduce_sum(a, (inner,))
        outer_after = outer - (1 if inner < outer else 0)
        out = lax.reduce_max(sums, (outer_after,)) if p in (math.inf, 1) else lax.reduce_min(sums, (outer_after,))
    else:
        raise op_value_error("linalg.matrix_norm", f"p must be 'fro', 'nuc', inf, -inf, 1, -1, 2 or -2, got {p!r}")
    return _keep(out, x.aval.shape, axes, keepdim)


def norm(x: Any, p: Any = None, axis: Any = None, keepdim: bool = False, out: Any = None, dtype: Any = None,
         name: str | None = None) -> Any:
    """Vector or matrix norm, chosen by `axis` as Paddle does: an int (or one-element list)
    gives a vector norm, a two-element list a matrix norm, None the vector norm of the
    flattened x (p=None/'fro': the 2-norm; p='nuc' on a matrix: the nuclear norm).
    With `dtype`, x is cast to it first.

    Args:
        x: a float or complex array.
        p: the order: a number for vector norms, or 'fro' / 'nuc' and the matrix orders of `matrix_norm`; None means
            2-norm / 'fro'.
        axis: None, an int (vector norm) or two ints (matrix norm).
        keepdim: keep the reduced axes with size 1.
        out: not supported (must be None).
        dtype: cast x to this dtype before computing.

    Returns:
        The norm, a real array.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[3.0, 4.0], [6.0, 8.0]])
        >>> float(padax.linalg.norm(x))
        11.1803
        >>> padax.linalg.norm(x, p=2, axis=1).tolist()
        [5.0, 10.0]
    """
    no_out("linalg.norm", out)
    if dtype is not None:
        x = _cast(asarray(x), dtypes.canonicalize(dtypes.to_dtype(dtype)))
    x = _float_input("norm", x)
    if axis is None:
        if p == "nuc":
            return matrix_norm(x, "nuc", (-2, -1), keepdim)
        if isinstance(p, str) and p != "fro":
            raise op_value_error("linalg.norm", f"p={p!r} is not a vector norm (axis=None flattens x)")
        vp = 2.0 if p in (None, "fro") else p
        return vector_norm(x, vp, None, keepdim)
    axes = axis if isinstance(axis, (list, tuple)) else [axis]
    if len(axes) == 1:
        if isinstance(p, str) and p != "fro":
            raise op_value_error("linalg.norm", f"p={p!r} is a matrix norm; give two axes")
        return vector_norm(x, 2.0 if p in (None, "fro") else p, axes[0], keepdim)
    if len(axes) == 2:
        return matrix_norm(x, "fro" if p is None else p, tuple(axes), keepdim)
    raise op_value_error("linalg.norm", f"axis must be None, an int or two ints, got {axis}")


def cond(x: Any, p: Any = None, name: str | None = None) -> Any:
    """Condition number: for p None/2/-2 the ratio of extreme singular values; for 'fro',
    'nuc', inf, -inf, 1, -1 (square x only) norm(x, p) * norm(inv(x), p).

    Args:
        x: a (batch of) float/complex matrix (*, M, N); square unless p is None, 2 or -2.
        p: None (same as 2), 2, -2, 'fro', 'nuc', inf, -inf, 1 or -1.

    Returns:
        The condition numbers, real, shape (*).

    Examples:
        >>> import padax
        >>> a = padax.to_tensor([[4.0, 2.0], [2.0, 3.0]])
        >>> float(padax.linalg.cond(a))
        3.8664
    """
    if p in (None, 2, -2):
        x = _matrix("cond", x, square=False)
        s = _L.svd(x, compute_uv=False)[0]
        ax = (s.aval.ndim - 1,)
        big, small = lax.reduce_max(s, ax), lax.reduce_min(s, ax)
        return lax.div(small, big) if p == -2 else lax.div(big, small)
    if p not in ("fro", "nuc", math.inf, -math.inf, 1, -1):
        raise op_value_error("linalg.cond", f"p must be None, 'fro', 'nuc', inf, -inf, 1, -1, 2 or -2, got {p!r}")
    x = _matrix("cond", x)
    return lax.mul(matrix_norm(x, p), matrix_norm(inv(x), p))


def matrix_transpose(x: Any, name: str | None = None) -> Any:
    """Swap the last two axes (a batch of matrices transposed, no conjugation).

    Args:
        x: an array with at least two dimensions.

    Returns:
        x with its last two axes swapped.

    Examples:
        >>> import padax
        >>> padax.linalg.matrix_transpose(padax.ones([5, 2, 3])).shape
        (5, 3, 2)
    """
    x = asarray(x)
    if x.aval.ndim < 2:
        raise op_value_error("linalg.matrix_transpose", f"x must have at least 2 dimensions, got {x.aval.str_short()}")
    return _mT(x)


# ---- products and statistics ------------------------------------------------------------------

def multi_dot(x: Sequence[Any], name: str | None = None) -> Any:
    """Product of a list of matrices in the cheapest order (dynamic programming over the
    shapes); the first may be a 1-D row vector and the last a 1-D column vector.

    Args:
        x: a list of at least two 2-D arrays (the first and last may be 1-D).

    Returns:
        Their matrix product (1-D ends give a vector or a scalar result).

    Examples:
        >>> import padax
        >>> a, b, c = padax.ones([2, 3]), padax.ones([3, 4]), padax.ones([4, 1])
        >>> padax.linalg.multi_dot([a, b, c]).tolist()
        [[12.0], [12.0]]
    """
    if not isinstance(x, (list, tuple)) or len(x) < 2:
        raise op_value_error("linalg.multi_dot", "x must be a list of at least two Tensors")
    arrs = [asarray(a) for a in x]
    first_vec, last_vec = arrs[0].aval.ndim == 1, arrs[-1].aval.ndim == 1
    if first_vec:
        arrs[0] = lax.reshape(arrs[0], (1,) + arrs[0].aval.shape)
    if last_vec:
        arrs[-1] = _unsqueeze_last(arrs[-1])
    for i, a in enumerate(arrs):
        if a.aval.ndim != 2:
            raise op_value_error("linalg.multi_dot", f"x[{i}] must be 2-D (the first/last may be 1-D), got "
                                                     f"{a.aval.str_short()}")
    for i in range(len(arrs) - 1):
        if arrs[i].aval.shape[1] != arrs[i + 1].aval.shape[0]:
            raise op_value_error("linalg.multi_dot", f"x[{i}] {arrs[i].aval.str_short()} and x[{i + 1}] "
                                                     f"{arrs[i + 1].aval.str_short()} cannot be multiplied")
    dims = [arrs[0].aval.shape[0]] + [a.aval.shape[1] for a in arrs]
    k = len(arrs)
    cost = [[0] * k for _ in range(k)]
    split = [[0] * k for _ in range(k)]
    for length in range(1, k):
        for i in range(k - length):
            j = i + length
            cost[i][j] = math.inf
            for s in range(i, j):
                c = cost[i][s] + cost[s + 1][j] + dims[i] * dims[s + 1] * dims[j + 1]
                if c < cost[i][j]:
                    cost[i][j], split[i][j] = c, s

    def build(i, j):
        if i == j:
            return arrs[i]
        return _mm(build(i, split[i][j]), build(split[i][j] + 1, j))

    out = build(0, k - 1)
    if first_vec:
        out = lax.reshape(out, out.aval.shape[1:])
    if last_vec:
        out = lax.reshape(out, out.aval.shape[:-1])
    return out


def cov(x: Any, rowvar: bool = True, ddof: bool | int = True, fweights: Any = None, aweights: Any = None,
        name: str | None = None) -> Any:
    """Covariance matrix of the variables in x (rows if `rowvar`, else columns); `ddof` True
    divides by N - 1 (unbiased), False by N; optional integer frequency weights `fweights`
    and observation weights `aweights` (numpy.cov's definition). A 1-D x gives a 0-D result.

    Args:
        x: a 1-D or 2-D array (integers are cast to float32).
        rowvar: each row is a variable (default); False means each column is.
        ddof: True (default) divides by N - 1, False by N (an int is also accepted).
        fweights: integer frequency weights, shape (N,).
        aweights: observation weights, shape (N,).

    Returns:
        The covariance matrix (V, V), or a 0-D array for 1-D x.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 7.0]])
        >>> padax.linalg.cov(x).tolist()
        [[1.0, 2.5], [2.5, 6.3333]]
    """
    x = asarray(x)
    if x.aval.ndim > 2:
        raise op_value_error("linalg.cov", f"x must be 1-D or 2-D, got {x.aval.str_short()}")
    if not dtypes.is_inexact(x.aval.dtype):
        x = lax.convert_element_type(x, dtypes.float32)
    one_d = x.aval.ndim < 2
    if one_d:
        x = lax.reshape(x, (1, x.aval.size))
    elif not rowvar:
        x = _mT(x)
    nobs = x.aval.shape[1]
    rdt = _real_dtype(x.aval.dtype)
    ddof = int(ddof)
    w = None
    if fweights is not None:
        w = _cast(asarray(fweights), rdt)
    if aweights is not None:
        aw = _cast(asarray(aweights), rdt)
        w = aw if w is None else lax.mul(w, aw)
    for name_, wt in (("fweights", fweights), ("aweights", aweights)):
        if wt is not None and asarray(wt).aval.shape != (nobs,):
            raise op_value_error("linalg.cov", f"{name_} must have shape ({nobs},) (one weight per "
                                               f"observation), got {asarray(wt).aval.str_short()}")
    if w is None:
        avg = lax.div(lax.reduce_sum(x, (1,)), full((x.aval.shape[0],), nobs, x.aval.dtype))
        fact = full((), nobs - ddof, rdt)
    else:
        wsum = lax.reduce_sum(w, (0,))
        wx = lax.mul(x, _cast(lax.broadcast_in_dim(w, x.aval.shape, (1,)), x.aval.dtype))
        avg = lax.div(lax.reduce_sum(wx, (1,)), _cast(lax.broadcast_in_dim(wsum, (x.aval.shape[0],), ()), x.aval.dtype))
        if aweights is None:
            fact = lax.sub(wsum, full((), ddof, rdt))
        else:
            aw = _cast(asarray(aweights), rdt)
            fact = lax.sub(wsum, lax.div(lax.mul(full((), ddof, rdt), lax.reduce_sum(lax.mul(w, aw), (0,))), wsum))
    xc = lax.sub(x, lax.broadcast_in_dim(avg, x.aval.shape, (0,)))
    xw = xc if w is None else lax.mul(xc, _cast(lax.broadcast_in_dim(w, x.aval.shape, (1,)), x.aval.dtype))
    c = _mm(xw, _mH(xc))
    c = lax.div(c, _cast(lax.broadcast_in_dim(fact, c.aval.shape, ()), c.aval.dtype))
    return lax.reshape(c, ()) if one_d else c


def corrcoef(x: Any, rowvar: bool = True, name: str | None = None) -> Any:
    """Pearson correlation coefficients of the variables in x (rows if `rowvar`), clipped to
    [-1, 1] (real and imaginary parts for complex input).

    Args:
        x: a 1-D or 2-D array.
        rowvar: each row is a variable (default); False means each column is.

    Returns:
        The correlation matrix (V, V), or a 0-D array for 1-D x.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 7.0]])
        >>> padax.linalg.corrcoef(x).tolist()
        [[1.0, 0.9934], [0.9934, 1.0]]
    """
    c = cov(x, rowvar)
    if c.aval.ndim == 0:
        return lax.div(c, c)
    d = _diag(c)
    sd = lax.sqrt(lax.real(d) if _is_complex(d) else d)
    sd = _cast(sd, c.aval.dtype)
    c = lax.div(lax.div(c, _col(sd, c)), _row(sd, c))

    def clip(v):
        return lax.clamp(_scalar(-1.0, v), v, _scalar(1.0, v))
    if _is_complex(c):
        return lax.complex(clip(lax.real(c)), clip(lax.imag(c)))
    return clip(c)


__all__ = ["cholesky", "cholesky_inverse", "cholesky_solve", "cond", "corrcoef", "cov", "det", "eig", "eigh",
           "eigvals", "eigvalsh", "inv", "lstsq", "lu", "lu_unpack", "matrix_norm", "matrix_power",
           "matrix_rank", "matrix_transpose", "multi_dot", "norm", "pinv", "qr", "slogdet", "solve", "svd", "svdvals",
           "triangular_solve", "vector_norm"]

# more of paddle.linalg (vecdot, lu_solve, householder_product, ormqr, matrix_exp, svd/pca_lowrank, ...)
from padax.linalg._extra import (cross, diagonal, householder_product, lu_solve, matmul, matrix_exp,  # noqa: E402
                                 ormqr, pca_lowrank, svd_lowrank, vecdot)
from padax.linalg import _extra  # noqa: E402

__all__ += _extra.__all__
