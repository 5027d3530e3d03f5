"""padax.linalg's factorizations: cholesky, qr, svd/svdvals, eigh/eigvalsh, eig/eigvals, lu and
lu_unpack (with the Hermitian-gradient wrapper that cholesky and eigh share)."""
from __future__ import annotations

from typing import Any

import numpy as np

from padax import custom_jvp, lax
from padax.core.errors import op_type_error, op_value_error
from padax.functional._arrays import asarray, full
from padax.functional._checks import write_out
from padax.functional.lax import linalg as _L
from padax.linalg._helpers import _cast, _diag, _eye_like, _matrix, _mH, _mT, _scalar, _where


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
    if out is not None:
        return write_out(out, svd(x=x, full_matrices=full_matrices, name=name), "linalg.svd")
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
