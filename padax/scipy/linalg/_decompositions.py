"""scipy.linalg's decompositions with scipy's signatures and return conventions: cholesky,
eigh (also generalized), lu, qr, qr_multiply, svd, schur, rsf2csf, hessenberg, polar and
eigh_tridiagonal.

They rest on padax.linalg (differentiable factorizations) and, for schur and hessenberg,
on LAPACK's gees/gehrd kernels (CPU only, not differentiable: the forms are not unique).
`overwrite_*`, `check_finite`, `lwork` and `lapack_driver` are accepted and ignored: padax
arrays are immutable and the LAPACK driver is fixed."""
from __future__ import annotations

from typing import Any

import numpy as np

import padax.lax as lax
import padax.numpy as pnp
from padax.core.errors import op_value_error
from padax.functional.lax import linalg as L
from padax.linalg import cholesky as chol, eigh as peigh, eigvalsh, qr as pqr, svd as psvd, svdvals, triangular_solve
from padax.scipy.linalg._inputs import _asfloat


def inexact(op: str, a: Any, square: bool = True) -> Any:
    """`a` as a float/complex array of rank >= 2 (square if asked); integers become float."""
    a = pnp.asarray(a)
    if not pnp.issubdtype(a.dtype, pnp.inexact):
        a = a.astype(pnp.float64 if a.dtype.itemsize == 8 else pnp.float32)
    if a.ndim < 2 or (square and a.shape[-1] != a.shape[-2]):
        kind = "a square matrix" if square else "a matrix"
        raise op_value_error(f"padax.scipy.linalg.{op}", f"a must be {kind} (or a stack), got shape {tuple(a.shape)}")
    return a


def _mH(x: Any) -> Any:
    return pnp.conj(pnp.swapaxes(x, -1, -2))


def cholesky(a: Any, lower: bool = False, overwrite_a: bool = False, check_finite: bool = True) -> Any:
    """Cholesky factor of a Hermitian positive-definite matrix: upper U with a = U^H U
    (scipy's default), or lower L with a = L L^H.

    Args:
        a: a Hermitian positive-definite matrix or stack (..., M, M).
        lower: return the lower factor (default False: upper).
        overwrite_a, check_finite: accepted for scipy compatibility; ignored.

    Returns:
        The triangular factor, same shape as `a`.

    Examples:
        >>> import padax
        >>> from padax.scipy import linalg
        >>> A = padax.to_tensor([[4.0, 2.0], [2.0, 3.0]])
        >>> linalg.cholesky(A).tolist()  # upper by default, as scipy: A = U^T U
        [[2.0, 1.0], [0.0, 1.4142]]
        >>> linalg.cholesky(A, lower=True).tolist()
        [[2.0, 0.0], [1.0, 1.4142]]
    """
    return chol(inexact("cholesky", a), upper=not lower)


def _tri_solve(l: Any, b: Any, adjoint: bool) -> Any:
    """l^{-1} b, or l^{-H} b with `adjoint` (l lower triangular)."""
    if adjoint:
        return triangular_solve(_mH(l), b, upper=True)
    return triangular_solve(l, b, upper=False)


def eigh(a: Any, b: Any = None, lower: bool = True, eigvals_only: bool = False, overwrite_a: bool = False,
         overwrite_b: bool = False, turbo: bool = True, eigvals: Any = None, type: int = 1, check_finite: bool = True,
         *, subset_by_index: Any = None, subset_by_value: Any = None, driver: Any = None) -> Any:
    """Eigenvalues (ascending) and eigenvectors of a Hermitian matrix read from its `lower`
    (or upper) triangle, or of the generalized problem with Hermitian positive-definite b:
    type 1 a v = w b v, type 2 a b v = w v, type 3 b a v = w v, reduced to a standard one
    through b's Cholesky factor (vectors b-normalised, as LAPACK's). `subset_by_index`
    (lo, hi) keeps eigenvalues lo..hi inclusive. `subset_by_value` is refused: its result's
    size would depend on the data. (`eigvals` is the older name of subset_by_index; `turbo`
    is ignored.)

    Args:
        a: a Hermitian matrix or stack (..., M, M).
        b: optional Hermitian positive-definite matrix of the generalized problem.
        lower: read the lower triangle (default True) or the upper one.
        eigvals_only: return only the eigenvalues.
        overwrite_a, overwrite_b, turbo, check_finite: accepted for scipy compatibility; ignored.
        eigvals: older name of subset_by_index.
        type: 1, 2 or 3, the generalized problem's form (with `b`).
        subset_by_index: (lo, hi) inclusive indices of the eigenvalues to keep.
        subset_by_value: not supported (an error).
        driver: accepted for scipy compatibility; ignored.

    Returns:
        The eigenvalues (..., K), ascending, or the tuple (eigenvalues, eigenvectors (..., M, K)).

    Examples:
        >>> import padax
        >>> from padax.scipy import linalg
        >>> A = padax.to_tensor([[4.0, 2.0], [2.0, 3.0]])
        >>> w, v = linalg.eigh(A)
        >>> w.tolist()  # (7 -+ sqrt(17)) / 2
        [1.4384, 5.5616]
        >>> linalg.eigh(A, padax.to_tensor([[2.0, 0.0], [0.0, 2.0]]), eigvals_only=True).tolist()  # A v = w B v
        [0.7192, 2.7808]
    """
    subset_by_index = eigvals if subset_by_index is None else subset_by_index
    op = "padax.scipy.linalg.eigh"
    if subset_by_value is not None:
        raise op_value_error(op, "subset_by_value is not supported (the result's size would depend on the "
                                 "values); take all eigenvalues and select them, or use subset_by_index")
    if type not in (1, 2, 3):
        raise op_value_error(op, f"type must be 1, 2 or 3, got {type!r}")
    a = inexact("eigh", a)
    uplo = "L" if lower else "U"
    if b is None:
        w, v = peigh(a, UPLO=uplo)
    else:
        b = inexact("eigh", b)
        dt = pnp.result_type(a.dtype, b.dtype)
        a, b = a.astype(dt), b.astype(dt)
        a = _hermitian_from(a, lower)
        l = cholesky(_hermitian_from(b, lower), lower=True)
        if type == 1:
            c = _tri_solve(l, _mH(_tri_solve(l, a, False)), False)     # L^-1 a L^-H
        else:
            c = _mH(l) @ a @ l                                           # L^H a L
        w, u = peigh(c)
        v = _tri_solve(l, u, True) if type in (1, 2) else l @ u
    if subset_by_index is not None:
        n = a.shape[-1]
        lo, hi = (int(i) for i in subset_by_index)
        if not 0 <= lo <= hi < n:
            raise op_value_error(op, f"subset_by_index must be (lo, hi) with 0 <= lo <= hi < {n}, "
                                     f"got {tuple(subset_by_index)}")
        w, v = w[..., lo:hi + 1], v[..., lo:hi + 1]
    return w if eigvals_only else (w, v)


def _hermitian_from(a: Any, lower: bool) -> Any:
    """The Hermitian matrix stored in a's `lower` (or upper) triangle."""
    t = pnp.tril(a, -1) if lower else pnp.triu(a, 1)
    d = pnp.real(pnp.diagonal(a, axis1=-2, axis2=-1)).astype(a.dtype)
    return t + _mH(t) + d[..., :, None] * pnp.eye(a.shape[-1], dtype=a.dtype)


def lu(a: Any, permute_l: bool = False, overwrite_a: bool = False, check_finite: bool = True,
       p_indices: bool = False) -> Any:
    """LU with partial pivoting, scipy's layout: (p, l, u) with a = p @ l @ u; with
    `p_indices` p is a row-index vector with a = l[p] @ u; with `permute_l`, (p @ l, u).

    Args:
        a: a matrix or stack (..., M, N).
        permute_l: return (p @ l, u).
        overwrite_a, check_finite: accepted for scipy compatibility; ignored.
        p_indices: return p as an int32 row-index vector instead of a matrix.

    Returns:
        The tuple (p, l, u) with l (..., M, K) and u (..., K, N), K = min(M, N); or (p @ l, u).

    Examples:
        >>> import padax
        >>> from padax.scipy import linalg
        >>> p, l, u = linalg.lu(padax.to_tensor([[1.0, 2.0], [3.0, 4.0]]))  # a = p @ l @ u, as scipy
        >>> p.tolist(), l.tolist(), u.tolist()
        ([[0.0, 1.0], [1.0, 0.0]], [[1.0, 0.0], [0.3333, 1.0]], [[3.0, 4.0], [0.0, 0.6667]])
    """
    a = inexact("lu", a, square=False)
    f, _, perm = L.lu(a)
    *_, m, n = a.shape
    k = min(m, n)
    l = pnp.tril(f[..., :, :k], -1) + pnp.eye(m, k, dtype=a.dtype)
    u = pnp.triu(f[..., :k, :])
    # a[perm] = l u, so a = P l u with P[perm[i], i] = 1
    pmat = pnp.swapaxes(perm[..., :, None] == pnp.arange(m, dtype=perm.dtype), -1, -2).astype(a.dtype)
    if permute_l:
        return pmat @ l, u
    if p_indices:
        return pnp.argsort(perm, axis=-1).astype(pnp.int32), l, u
    return pmat, l, u


def qr(a: Any, overwrite_a: bool = False, lwork: Any = None, mode: str = "full", pivoting: bool = False,
       check_finite: bool = True) -> Any:
    """QR decomposition a = q r. mode 'full': q (M, M), r (M, N); 'economic': q (M, K),
    r (K, N); 'r': (r,) only (full r). With `pivoting`, column-pivoted QR a[:, p] = q r
    and p is returned last.

    Args:
        a: a matrix or stack (..., M, N).
        overwrite_a, lwork, check_finite: accepted for scipy compatibility; ignored.
        mode: 'full' (default), 'economic' or 'r'.
        pivoting: use column pivoting and also return the permutation p.

    Returns:
        The tuple (q, r), or (r,) for mode 'r'; with pivoting, p is appended.

    Examples:
        >>> import padax
        >>> from padax.scipy import linalg
        >>> a = padax.to_tensor([[3.0, 1.0], [4.0, 2.0]])
        >>> q, r = linalg.qr(a)
        >>> padax.abs(r).tolist()  # |r|: the signs depend on the Householder convention
        [[5.0, 2.2], [0.0, 0.4]]
        >>> (q @ r).tolist(), (q.T @ q).tolist()
        ([[3.0, 1.0], [4.0, 2.0]], [[1.0, 0.0], [0.0, 1.0]])
    """
    op = "padax.scipy.linalg.qr"
    if mode not in ("full", "economic", "r"):
        raise op_value_error(op, f"mode must be 'full', 'economic' or 'r', got {mode!r}")
    a = inexact("qr", a, square=False)
    if pivoting:
        a, p = _column_pivots(a)
    q, r = pqr(a, mode="reduced" if mode == "economic" else "complete")
    out = (r,) if mode == "r" else (q, r)
    return out + (p,) if pivoting else out


def _column_pivots(a: Any) -> tuple[Any, Any]:
    """a[:, p] and p, the column order of Businger-Golub pivoting (LAPACK's geqp3): at each
    step the column with the largest remaining norm after projecting out the chosen ones."""
    if a.ndim != 2:
        raise op_value_error("padax.scipy.linalg.qr", f"pivoting needs a 2-D matrix, got shape {tuple(a.shape)}")
    m, n = a.shape
    k = min(m, n)

    def step(j, carry):
        x, perm = carry
        norms = pnp.sum(pnp.abs(x) ** 2, axis=0)
        norms = pnp.where(pnp.arange(n) < j, -1.0, norms)
        c = pnp.argmax(norms).astype(pnp.int32)
        # swap columns j and c of x and perm
        idx = pnp.arange(n, dtype=pnp.int32)
        swap = pnp.where(idx == j, c, pnp.where(idx == c, j, idx))
        x, perm = x[:, swap], perm[swap]
        col = x[:, j]
        nrm = pnp.sqrt(pnp.sum(pnp.abs(col) ** 2))
        qv = col / pnp.where(nrm == 0, 1.0, nrm).astype(x.dtype)
        rest = pnp.where(pnp.arange(n) > j, 1.0, 0.0).astype(x.dtype)
        x = x - qv[:, None] * ((pnp.conj(qv) @ x) * rest)[None, :]
        return x, perm

    _, perm = lax.fori_loop(0, k, step, (a, pnp.arange(n, dtype=pnp.int32)))
    return a[:, perm], perm


def qr_multiply(a: Any, c: Any, mode: str = "right", pivoting: bool = False, conjugate: bool = False,
                overwrite_a: bool = False, overwrite_c: bool = False) -> Any:
    """(c @ q, r) for mode 'right' or (q @ c, r) for 'left', with a's economic q (conj(q)
    with `conjugate`); with `pivoting` the column pivots come last.

    Args:
        a: a matrix (M, N).
        c: the matrix (or vector) to multiply by q.
        mode: 'right' (default, c @ q) or 'left' (q @ c).
        pivoting: use column pivoting and also return the permutation.
        conjugate: multiply by conj(q).
        overwrite_a, overwrite_c: accepted for scipy compatibility; ignored.

    Returns:
        The tuple (product, r), with the pivots appended when `pivoting`.

    Examples:
        >>> import padax
        >>> from padax.scipy import linalg
        >>> a = padax.to_tensor([[3.0, 1.0], [4.0, 2.0]])
        >>> cq, r = linalg.qr_multiply(a, padax.eye(2))  # c @ q without forming q separately
        >>> q, _ = linalg.qr(a)
        >>> bool(padax.allclose(cq, q, atol=1e-6)), padax.abs(r).tolist()
        (True, [[5.0, 2.2], [0.0, 0.4]])
    """
    op = "padax.scipy.linalg.qr_multiply"
    if mode not in ("left", "right"):
        raise op_value_error(op, f"mode must be 'left' or 'right', got {mode!r}")
    res = qr(a, mode="economic", pivoting=pivoting)
    q, r = res[0], res[1]
    if conjugate:
        q = pnp.conj(q)
    c = pnp.asarray(c)
    vec = c.ndim == 1
    if mode == "left":
        cc = c[:, None] if vec else c
        out = q @ cc.astype(q.dtype)
    else:
        cc = c[None, :] if vec else c
        out = cc.astype(q.dtype) @ q
    if vec:
        out = out.reshape(-1)
    return (out, r) + tuple(res[2:])


def svd(a: Any, full_matrices: bool = True, compute_uv: bool = True, overwrite_a: bool = False,
        check_finite: bool = True, lapack_driver: str = "gesdd") -> Any:
    """Singular value decomposition a = u @ diag(s) @ vh: (u, s, vh), or s alone without
    `compute_uv`. s is descending.

    Args:
        a: a matrix or stack (..., M, N).
        full_matrices: u (..., M, M) and vh (..., N, N) if True (default), else (..., M, K) and (..., K, N).
        compute_uv: return (u, s, vh); False returns s only.
        overwrite_a, check_finite: accepted for scipy compatibility; ignored.
        lapack_driver: 'gesdd' or 'gesvd'; both give the same result here.

    Returns:
        The tuple (u, s, vh), or s alone; s (..., min(M, N)) is real.

    Examples:
        >>> import padax
        >>> from padax.scipy import linalg
        >>> linalg.svd(padax.to_tensor([[3.0, 0.0], [0.0, -2.0]]), compute_uv=False).tolist()
        [3.0, 2.0]
    """
    if lapack_driver not in ("gesdd", "gesvd"):
        raise op_value_error("padax.scipy.linalg.svd", f"lapack_driver must be 'gesdd' or 'gesvd', got "
                                                       f"{lapack_driver!r}")
    a = inexact("svd", a, square=False)
    if not compute_uv:
        return svdvals(a)
    return psvd(a, full_matrices=full_matrices)


def schur(a: Any, output: str = "real", lwork: Any = None, overwrite_a: bool = False, sort: Any = None,
          check_finite: bool = True) -> tuple[Any, Any]:
    """Schur decomposition a = z t z^H with z unitary: t quasi upper triangular (2x2 blocks
    for complex eigenvalue pairs) for output='real' of a real matrix, upper triangular for
    output='complex'. The same LAPACK routine as scipy (gees), so the same t and z. CPU only.
    `sort` (reordering the eigenvalues) is refused: use the unsorted form.

    Args:
        a: a square matrix (M, M).
        output: 'real' (default) or 'complex' ('r' / 'c' also accepted).
        lwork: accepted for scipy compatibility; ignored.
        overwrite_a, check_finite: accepted for scipy compatibility; ignored.
        sort: not supported (an error unless None).

    Returns:
        The tuple (t, z), each (M, M).

    Examples:
        >>> import padax
        >>> from padax.scipy import linalg
        >>> T, Z = linalg.schur(padax.to_tensor([[0.0, 1.0], [-1.0, 0.0]]))  # eigenvalues +-i: one 2x2 block
        >>> T.tolist()
        [[0.0, 1.0], [-1.0, 0.0]]
        >>> T, Z = linalg.schur(padax.to_tensor([[1.0, 2.0], [0.0, 3.0]]))  # already upper triangular
        >>> padax.diag(T).tolist()
        [1.0, 3.0]
    """
    op = "padax.scipy.linalg.schur"
    if output not in ("real", "complex", "r", "c"):
        raise op_value_error(op, f"output must be 'real' or 'complex', got {output!r}")
    if sort is not None:
        raise op_value_error(op, "sort is not supported: LAPACK's eigenvalue selection runs a Python callback "
                                 "inside the kernel; reorder the unsorted form instead")
    a = inexact("schur", a)
    if output in ("complex", "c") and not pnp.iscomplexobj(a):
        a = a.astype(pnp.complex128 if a.dtype == pnp.float64 else pnp.complex64)
    t, z = L.schur(a)
    return t, z


def rsf2csf(T: Any, Z: Any, check_finite: bool = True) -> tuple[Any, Any]:
    """Convert a real Schur form (T, Z) to the complex one, as scipy does: from the bottom
    up, each 2x2 block of a complex pair is triangularised by a Givens rotation G applied
    to T's rows and columns and to Z's columns.

    Args:
        T: the real Schur form (M, M).
        Z: its unitary factor (M, M).
        check_finite: accepted for scipy compatibility; ignored.

    Returns:
        The tuple (T, Z) as complex arrays (complex64, or complex128 for 64-bit input).

    Examples:
        >>> import padax
        >>> from padax.scipy import linalg
        >>> T, Z = linalg.schur(padax.to_tensor([[0.0, 1.0], [-1.0, 0.0]]))
        >>> Tc, Zc = linalg.rsf2csf(T, Z)  # the 2x2 block split into complex triangular form
        >>> sorted(padax.imag(padax.diag(Tc)).tolist()), abs(float(padax.abs(Tc[1, 0])))
        ([-1.0, 1.0], 0.0)
    """
    T, Z = inexact("rsf2csf", T), inexact("rsf2csf", Z)
    if T.ndim != 2 or T.shape != Z.shape:
        raise op_value_error("padax.scipy.linalg.rsf2csf", f"T and Z must be square 2-D matrices of one shape, "
                                                           f"got {tuple(T.shape)} and {tuple(Z.shape)}")
    wide = pnp.result_type(T.dtype, Z.dtype) in (pnp.float64, pnp.complex128)
    ct = pnp.complex128 if wide else pnp.complex64
    eps = float(np.finfo(np.float64 if wide else np.float32).eps)
    T, Z = T.astype(ct), Z.astype(ct)
    n = T.shape[0]
    idx = pnp.arange(n)

    def step(i, TZ):
        T, Z = TZ
        m = n - 1 - i
        sub = T[m, m - 1]
        active = pnp.abs(sub) > eps * (pnp.abs(T[m - 1, m - 1]) + pnp.abs(T[m, m]))
        a, b, c_, d = T[m - 1, m - 1], T[m - 1, m], T[m, m - 1], T[m, m]
        half = (a + d) / 2
        mu = half + pnp.sqrt(half * half - (a * d - b * c_)) - d     # an eigenvalue of the block, minus T[m, m]
        r = pnp.sqrt(pnp.abs(mu) ** 2 + pnp.abs(sub) ** 2).astype(ct)
        r = pnp.where(active, r, 1)
        c = pnp.where(active, mu / r, 1)
        s = pnp.where(active, sub / r, 0)
        g = pnp.stack([pnp.stack([pnp.conj(c), s]), pnp.stack([-s, c])])
        gh = pnp.conj(g).T
        rows = lax.dynamic_slice(T, (m - 1, 0), (2, n))
        T = lax.dynamic_update_slice(T, pnp.where(idx[None, :] >= m - 1, g @ rows, rows), (m - 1, 0))
        cols = lax.dynamic_slice(T, (0, m - 1), (n, 2))
        T = lax.dynamic_update_slice(T, pnp.where(idx[:, None] <= m, cols @ gh, cols), (0, m - 1))
        Z = lax.dynamic_update_slice(Z, lax.dynamic_slice(Z, (0, m - 1), (n, 2)) @ gh, (0, m - 1))
        T = T.at[m, m - 1].set(0)
        return T, Z

    if n == 1:
        return T, Z
    return lax.fori_loop(0, n - 1, step, (T, Z))


def hessenberg(a: Any, calc_q: bool = False, overwrite_a: bool = False, check_finite: bool = True) -> Any:
    """Hessenberg form h = q^H a q (zero below the first subdiagonal), and q with calc_q.
    LAPACK's gehrd/orghr as scipy, so the same h and q. CPU only.

    Args:
        a: a square matrix (M, M).
        calc_q: also return q.
        overwrite_a, check_finite: accepted for scipy compatibility; ignored.

    Returns:
        h, or the tuple (h, q) with calc_q; same shape and dtype as `a`.

    Examples:
        >>> import padax
        >>> from padax.scipy import linalg
        >>> a = padax.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]])
        >>> h, q = linalg.hessenberg(a, calc_q=True)
        >>> float(h[2, 0]), padax.abs(h[1, 0]).tolist()  # zero below the subdiagonal; |h10| = sqrt(4**2 + 7**2)
        (0.0, 8.0623)
        >>> (q @ h @ q.T).tolist()
        [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]]
    """
    a = inexact("hessenberg", a)
    n = a.shape[-1]
    if n <= 2:
        h = a
        return (h, pnp.broadcast_to(pnp.eye(n, dtype=a.dtype), a.shape)) if calc_q else h
    packed, taus = L.hessenberg(a)
    h = pnp.triu(packed, -1)
    if not calc_q:
        return h
    # the reflectors sit below the first subdiagonal: q = diag(1, householder_product(...))
    q1 = L.householder_product(packed[..., 1:, :-1], taus)
    q = pnp.zeros(a.shape, a.dtype)
    q = q.at[..., 0, 0].set(1)
    q = q.at[..., 1:, 1:].set(q1)
    return h, q


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
    if side not in ("right", "left"):
        raise op_value_error("padax.scipy.linalg.polar", f"side must be 'right' or 'left', got {side!r}")
    a = _asfloat(a)
    w, s, vh = psvd(a, full_matrices=False)
    u = w @ vh
    if side == "right":
        p = (pnp.conj(vh).T * s) @ vh
    else:
        p = (w * s) @ pnp.conj(w).T
    return u, p


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
    d, e = _asfloat(d), _asfloat(e)
    if d.ndim != 1 or e.shape != (d.shape[0] - 1,):
        raise op_value_error("padax.scipy.linalg.eigh_tridiagonal", f"d must be 1-D of length n and e of length "
                                                                    f"n - 1, got {tuple(d.shape)} and "
                                                                    f"{tuple(e.shape)}")
    dt = pnp.result_type(d.dtype, e.dtype)
    T = pnp.diag(d.astype(dt)) + pnp.diag(e.astype(dt), 1) + pnp.diag(e.astype(dt), -1)
    return eigvalsh(T) if eigvals_only else peigh(T)
