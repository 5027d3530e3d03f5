"""Matrix decompositions and triangular solves: the primitives under `padax.linalg`.

Every primitive works on the trailing two axes of its operands; leading axes are
batch axes (the LAPACK kernels loop over them), so vmap only has to move the
mapped axis to the front. Supported dtypes: float32, float64, complex64,
complex128.

    cholesky(a)                     -> L, lower triangular, a = L L^H
    triangular_solve(a, b, ...)     -> x with op(a) x = b (or x op(a) = b)
    lu(a)                           -> (lu, pivots, permutation), a[perm] = L U
    lu_pivots_to_permutation(piv)   -> permutation of the rows
    qr(a, full_matrices)            -> (q, r)
    eigh(a, lower)                  -> (w, v), ascending real w, a v = v diag(w)
    svd(a, full_matrices, compute_uv) -> (s, u, vh) or (s,)
    eig(a, compute_left, compute_right) -> (w, [vl], [vr]), complex; CPU only
    schur(a, compute_schur_vectors) -> (t, [z]), a = z t z^H; CPU only
    hessenberg(a)                   -> (packed, taus): gehrd's reflectors below h; CPU only
    householder_product(a, taus)    -> q, the reflectors in a's columns multiplied out

Failure is reported the way LAPACK-backed jax does it, not by raising (a
traced program cannot raise on data): when the kernel's `info` says the
factorisation failed (cholesky of a matrix that is not positive definite,
eigh/svd/eig not converging) the affected matrices of the batch come back
filled with NaN. lu of a singular matrix is not a failure (U has a zero on its
diagonal).

Hermitian inputs: the cholesky and eigh kernels read one triangle (the lower
one for cholesky, the `lower` one for eigh), as LAPACK does. Their derivative
rules, like jax's, stand for the Hermitian matrix: the tangent enters the
matrix-calculus formula whole (da, not the triangle of da), which is the
derivative for Hermitian perturbations. The wrappers `cholesky` and `eigh`
symmetrize their input first by default (`symmetrize_input`, as jax.lax.linalg
does), so gradients come out Hermitian; padax.linalg (Paddle's names) keeps the
triangle read and symmetrizes the tangent instead (`as_hermitian`).
"""
from __future__ import annotations

import numpy as np

from padax.core import dtypes
from padax.core.abstract import ShapedArray, get_aval
from padax.core.ad_util import Zero, is_undefined, tangent_aval
from padax.core.errors import op_type_error, op_value_error
from padax.core.primitive import Primitive
from padax.functional._arrays import asarray, constant, full
from padax.functional.lax.control import fori_loop
from padax.functional.lax.dot import dot_general
from padax.functional.lax.elementwise import (
    abs as abs_,
    add,
    bitwise_and,
    complex as mkcomplex,
    conj,
    div,
    eq,
    ge,
    gt,
    imag,
    le,
    mul,
    neg,
    real,
    sub,
)
from padax.functional.lax.reductions import argmax, reduce_sum
from padax.functional.lax.structural import (
    batch_size,
    bdim_to_front,
    broadcast_in_dim,
    broadcasted_iota,
    concatenate,
    convert_element_type,
    moveaxis,
    pad,
    select,
    slice as slice_,
    transpose,
)

INEXACT_NAMES = ("float32", "float64", "complex64", "complex128")  # the dtypes LAPACK works in


def check_matrix(op: str, arg: str, a: ShapedArray, square: bool = True) -> None:
    """Decompositions take float32/64 or complex64/128 arrays of rank >= 2 (square if asked)."""
    if a.dtype.name not in INEXACT_NAMES:
        raise op_type_error(op, f"{arg} must be a float32, float64, complex64 or complex128 array, "
                                f"got {a.str_short()}; cast it first (e.g. x.astype('float32'))")
    if a.ndim < 2:
        raise op_value_error(op, f"{arg} must have at least 2 dimensions (a matrix or a batch of "
                                 f"matrices), got {a.str_short()}")
    if square and a.shape[-1] != a.shape[-2]:
        raise op_value_error(op, f"{arg} must be a square matrix (or a batch of them): its last two "
                                 f"dimensions must be equal, got {a.str_short()}")


def _real_dtype(dtype) -> np.dtype:
    return {"complex64": np.dtype(np.float32), "complex128": np.dtype(np.float64)}.get(
        np.dtype(dtype).name, np.dtype(dtype))


def _complex_dtype(dtype) -> np.dtype:
    return np.dtype(np.complex128) if np.dtype(dtype) in (np.float64, np.complex128) else np.dtype(np.complex64)


# ---- primitives ------------------------------------------------------------------------------

cholesky_p = Primitive("cholesky")


@cholesky_p.def_abstract_eval
def _cholesky_abstract(a):
    check_matrix("cholesky", "x", a)
    return ShapedArray(a.shape, a.dtype)


# triangular_solve(a, b, left_side, lower, transpose_a, conjugate_a, unit_diagonal):
# op(a) x = b (left_side) or x op(a) = b, where op(a) is a, a^T, conj(a) or a^H.
triangular_solve_p = Primitive("triangular_solve")


@triangular_solve_p.def_abstract_eval
def _triangular_solve_abstract(a, b, *, left_side, lower, transpose_a, conjugate_a, unit_diagonal):
    op = "triangular_solve"
    check_matrix(op, "a", a)
    check_matrix(op, "b", b, square=False)
    if a.dtype != b.dtype:
        raise op_type_error(op, f"a and b must have the same dtype, got {a.str_short()} and {b.str_short()}")
    if a.shape[:-2] != b.shape[:-2]:
        raise op_value_error(op, f"a and b must have the same batch dimensions, got {a.str_short()} "
                                 f"and {b.str_short()}")
    k = b.shape[-2] if left_side else b.shape[-1]
    if k != a.shape[-1]:
        side = "rows" if left_side else "columns"
        raise op_value_error(op, f"b must have as many {side} as a ({a.shape[-1]}) for a "
                                 f"{'left' if left_side else 'right'}-side solve, got a "
                                 f"{a.str_short()} and b {b.str_short()}")
    return ShapedArray(b.shape, b.dtype)


lu_p = Primitive("lu", multiple_results=True)


@lu_p.def_abstract_eval
def _lu_abstract(a):
    check_matrix("lu", "x", a, square=False)
    *batch, m, n = a.shape
    batch = tuple(batch)
    return [ShapedArray(a.shape, a.dtype), ShapedArray(batch + (min(m, n),), np.dtype(np.int32)),
            ShapedArray(batch + (m,), np.dtype(np.int32))]


# lu_pivots_to_permutation(pivots, permutation_size): LAPACK's sequence of row swaps
# (0-based: row i was swapped with row pivots[i], in order) as the permutation it applies.
lu_pivots_to_permutation_p = Primitive("lu_pivots_to_permutation")


@lu_pivots_to_permutation_p.def_abstract_eval
def _pivots_abstract(pivots, *, permutation_size):
    op = "lu_pivots_to_permutation"
    if pivots.dtype != np.int32 or pivots.ndim < 1:
        raise op_type_error(op, f"pivots must be an int32 array of rank >= 1, got {pivots.str_short()}")
    if permutation_size < pivots.shape[-1]:
        raise op_value_error(op, f"permutation_size ({permutation_size}) must be at least the number "
                                 f"of pivots ({pivots.shape[-1]})")
    return ShapedArray(pivots.shape[:-1] + (permutation_size,), np.dtype(np.int32))


qr_p = Primitive("qr", multiple_results=True)


@qr_p.def_abstract_eval
def _qr_abstract(a, *, full_matrices):
    check_matrix("qr", "x", a, square=False)
    *batch, m, n = a.shape
    batch = tuple(batch)
    k = m if full_matrices else min(m, n)
    return [ShapedArray(batch + (m, k), a.dtype), ShapedArray(batch + (k, n), a.dtype)]


eigh_p = Primitive("eigh", multiple_results=True)


@eigh_p.def_abstract_eval
def _eigh_abstract(a, *, lower):
    check_matrix("eigh", "x", a)
    return [ShapedArray(a.shape[:-1], _real_dtype(a.dtype)), ShapedArray(a.shape, a.dtype)]


svd_p = Primitive("svd", multiple_results=True)


@svd_p.def_abstract_eval
def _svd_abstract(a, *, full_matrices, compute_uv):
    check_matrix("svd", "x", a, square=False)
    *batch, m, n = a.shape
    batch = tuple(batch)
    k = min(m, n)
    s = ShapedArray(batch + (k,), _real_dtype(a.dtype))
    if not compute_uv:
        return [s]
    ku, kv = (m, n) if full_matrices else (k, k)
    return [s, ShapedArray(batch + (m, ku), a.dtype), ShapedArray(batch + (kv, n), a.dtype)]


eig_p = Primitive("eig", multiple_results=True)


@eig_p.def_abstract_eval
def _eig_abstract(a, *, compute_left, compute_right):
    check_matrix("eig", "x", a)
    c = _complex_dtype(a.dtype)
    return ([ShapedArray(a.shape[:-1], c)] + [ShapedArray(a.shape, c)] * (int(compute_left) + int(compute_right)))


schur_p = Primitive("schur", multiple_results=True)


@schur_p.def_abstract_eval
def _schur_abstract(a, *, compute_schur_vectors):
    check_matrix("schur", "a", a)
    return [a] * (1 + int(compute_schur_vectors))


hessenberg_p = Primitive("hessenberg", multiple_results=True)


@hessenberg_p.def_abstract_eval
def _hessenberg_abstract(a):
    check_matrix("hessenberg", "a", a)
    return [a, ShapedArray(a.shape[:-2] + (max(a.shape[-1] - 1, 0),), a.dtype)]


householder_product_p = Primitive("householder_product")


@householder_product_p.def_abstract_eval
def _householder_product_abstract(a, taus):
    check_matrix("householder_product", "a", a, square=False)
    *batch, m, n = a.shape
    if m < n or taus.dtype != a.dtype or taus.shape[:-1] != tuple(batch) or taus.shape[-1] > n:
        raise op_value_error("householder_product", f"needs a (..., m, n) with m >= n and taus (..., k) "
                                                    f"with k <= n of the same dtype, got {a.str_short()} "
                                                    f"and {taus.str_short()}")
    return ShapedArray(a.shape, a.dtype)


def _empty_check(op: str, a) -> None:
    if 0 in a.aval.shape[-2:]:
        raise op_value_error(op, f"empty matrices are not supported, got {a.aval.str_short()}")


# ---- lax-level wrappers ----------------------------------------------------------------------

def cholesky(a, symmetrize_input: bool = True):
    """Lower Cholesky factor L of a Hermitian positive-definite `a`: a = L L^H.

    With `symmetrize_input` (as jax.lax.linalg.cholesky) the factor is that of (a + a^H) / 2, so
    derivatives are Hermitian; otherwise only a's lower triangle is read. NaN-filled where the
    factorisation fails.

    Args:
        a: a (..., n, n) array.
        symmetrize_input: factor the Hermitian part of `a` rather than its lower triangle.

    Returns:
        The (..., n, n) lower triangular factor.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> lax.cholesky(padax.to_tensor([[4.0, 2.0], [2.0, 3.0]])).tolist()
        [[2.0, 0.0], [1.0, 1.41421]]
    """
    a = asarray(a)
    check_matrix("cholesky", "x", a.aval)
    _empty_check("cholesky", a)
    return cholesky_p.bind(symmetrize(a) if symmetrize_input else a)


def triangular_solve(a, b, left_side: bool = False, lower: bool = False, transpose_a: bool = False,
                     conjugate_a: bool = False, unit_diagonal: bool = False):
    """Solve op(a) x = b (left_side) or x op(a) = b for x, reading one triangle of `a`.

    Args:
        a: a (..., n, n) triangular matrix; only its `lower` (or upper) triangle is read, and its
            diagonal is taken as ones if `unit_diagonal`.
        b: the right-hand sides, (..., n, k) if `left_side` else (..., k, n); batch dims as a's.
        left_side: solve op(a) x = b rather than x op(a) = b.
        lower: read a's lower triangle.
        transpose_a, conjugate_a: op transposes and/or conjugates `a`.
        unit_diagonal: assume a's diagonal is all ones.

    Returns:
        x, shaped like `b`.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> a = padax.to_tensor([[2.0, 0.0], [1.0, 1.0]])
        >>> lax.triangular_solve(a, padax.to_tensor([[2.0], [3.0]]), left_side=True, lower=True).tolist()
        [[1.0], [2.0]]
    """
    a, b = asarray(a), asarray(b)
    if not dtypes.is_complex(a.aval.dtype):
        conjugate_a = False
    return triangular_solve_p.bind(a, b, left_side=bool(left_side), lower=bool(lower),
                                   transpose_a=bool(transpose_a), conjugate_a=bool(conjugate_a),
                                   unit_diagonal=bool(unit_diagonal))


def lu(a):
    """LU factorisation with partial pivoting: (lu, pivots, permutation).

    `lu` packs the unit lower factor L (strictly below the diagonal) and U; `pivots` are
    LAPACK's 0-based row swaps; `permutation` is the row order with a[..., perm, :] = L @ U.

    Args:
        a: a (..., m, n) array.

    Returns:
        (lu, pivots, permutation): lu like `a`, int32 pivots (..., min(m, n)) and permutation (..., m).

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> lu, pivots, perm = lax.lu(padax.to_tensor([[1.0, 2.0], [3.0, 4.0]]))
        >>> lu.tolist(), pivots.tolist(), perm.tolist()
        ([[3.0, 4.0], [0.33333, 0.66667]], [1, 1], [1, 0])
    """
    a = asarray(a)
    _empty_check("lu", a)
    return tuple(lu_p.bind(a))


def lu_pivots_to_permutation(pivots, permutation_size: int):
    """The row permutation that the 0-based swaps `pivots` (applied in order) produce.

    Args:
        pivots: an int32 (..., k) array of row swaps (row i swapped with row pivots[i]).
        permutation_size: the permutation's length (>= k).

    Returns:
        An int32 (..., permutation_size) array.

    Examples:
        >>> import numpy as np
        >>> from padax import lax
        >>> lax.lu_pivots_to_permutation(np.array([2, 2, 2], np.int32), 3).tolist()
        [2, 0, 1]
    """
    return lu_pivots_to_permutation_p.bind(asarray(pivots), permutation_size=int(permutation_size))


def qr(a, full_matrices: bool = True):
    """QR factorisation (q, r) with q's columns orthonormal and r upper triangular.

    Args:
        a: a (..., m, n) array.
        full_matrices: q square (m, m) and r (m, n); otherwise q is (m, k) and r (k, n), k = min(m, n).

    Returns:
        (q, r) with a = q @ r.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> q, r = lax.qr(padax.to_tensor([[3.0, 0.0], [4.0, 5.0]]))
        >>> padax.abs(r).tolist(), padax.abs(q @ r).tolist()
        ([[5.0, 4.0], [0.0, 3.0]], [[3.0, 0.0], [4.0, 5.0]])
    """
    a = asarray(a)
    _empty_check("qr", a)
    return tuple(qr_p.bind(a, full_matrices=bool(full_matrices)))


def eigh(a, lower: bool = True, symmetrize_input: bool = True):
    """Eigen-decomposition of a Hermitian matrix: (w, v), ascending real eigenvalues w and
    orthonormal eigenvectors in v's columns.

    With `symmetrize_input` (as jax.lax.linalg.eigh) that of (a + a^H) / 2, so derivatives are
    Hermitian; otherwise of the matrix in a's `lower` (or upper) triangle. (jax.lax.linalg.eigh
    returns the pair as (v, w).)

    Args:
        a: a (..., n, n) array.
        lower: read a's lower triangle (without `symmetrize_input`).
        symmetrize_input: decompose the Hermitian part of `a`.

    Returns:
        (w, v): (..., n) real eigenvalues and (..., n, n) eigenvectors.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> w, v = lax.eigh(padax.to_tensor([[2.0, 1.0], [1.0, 2.0]]))
        >>> w.tolist(), padax.abs(v).tolist()
        ([1.0, 3.0], [[0.70711, 0.70711], [0.70711, 0.70711]])
    """
    a = asarray(a)
    check_matrix("eigh", "x", a.aval)
    _empty_check("eigh", a)
    return tuple(eigh_p.bind(symmetrize(a) if symmetrize_input else a, lower=bool(lower)))


def symmetrize(a):
    """(a + a^H) / 2: the Hermitian part of each matrix (the symmetric part if real).

    Args:
        a: a (..., n, n) array.

    Returns:
        An array like `a`.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> lax.symmetrize(padax.to_tensor([[1.0, 2.0], [0.0, 1.0]])).tolist()
        [[1.0, 1.0], [1.0, 1.0]]
    """
    a = asarray(a)
    check_matrix("symmetrize", "x", a.aval)
    return mul(add(a, _H(a)), _full_like(a.aval, 0.5))


def svd(a, full_matrices: bool = False, compute_uv: bool = True):
    """Singular values in descending order, and if `compute_uv` the factors.

    Args:
        a: a (..., m, n) array.
        full_matrices: u (m, m) and vh (n, n) rather than (m, k) and (k, n), k = min(m, n).
        compute_uv: also return u and vh.

    Returns:
        (s, u, vh) with a = u @ diag(s) @ vh; (s,) without `compute_uv`. s is real.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> s, u, vh = lax.svd(padax.to_tensor([[3.0, 0.0], [0.0, -4.0]]))
        >>> s.tolist(), (u @ padax.diag(s) @ vh).tolist()
        ([4.0, 3.0], [[3.0, 0.0], [0.0, -4.0]])
    """
    a = asarray(a)
    _empty_check("svd", a)
    return tuple(svd_p.bind(a, full_matrices=bool(full_matrices), compute_uv=bool(compute_uv)))


def eig(a, compute_left_eigenvectors: bool = False, compute_right_eigenvectors: bool = True):
    """Eigenvalues of a general square matrix (complex), then the requested left/right eigenvectors.

    The eigenvectors are unit-norm columns whose largest entry is real, as LAPACK's geev returns
    them. CPU only. Differentiable (forward and reverse) where the eigenvalues are distinct; the
    eigenvector derivatives follow geev's normalisation (see `_geev_vectors_tangent`).

    Args:
        a: a (..., n, n) array.
        compute_left_eigenvectors, compute_right_eigenvectors: which eigenvectors to return.

    Returns:
        A tuple: the complex eigenvalues (..., n), then left and/or right eigenvectors (..., n, n).

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> w, = lax.eig(padax.to_tensor([[0.0, 1.0], [-1.0, 0.0]]), compute_right_eigenvectors=False)
        >>> w.tolist()
        [1j, -1j]
    """
    a = asarray(a)
    _empty_check("eig", a)
    return tuple(eig_p.bind(a, compute_left=bool(compute_left_eigenvectors),
                            compute_right=bool(compute_right_eigenvectors)))


def schur(a, compute_schur_vectors: bool = True):
    """Schur form t of a square matrix, a = z t z^H with z unitary: t is upper triangular
    for complex input, quasi upper triangular (2x2 blocks for complex pairs) for real
    input, as LAPACK's gees returns it. (t, z), or (t,) without vectors. CPU only; not
    differentiable (the form is not unique)."""
    a = asarray(a)
    _empty_check("schur", a)
    return tuple(schur_p.bind(a, compute_schur_vectors=bool(compute_schur_vectors)))


def hessenberg(a):
    """gehrd's Hessenberg reduction: (packed, taus) with the Hessenberg form on and above
    the first subdiagonal of `packed` and the Householder reflectors below it. CPU only."""
    a = asarray(a)
    _empty_check("hessenberg", a)
    return tuple(hessenberg_p.bind(a))


def householder_product(a, taus):
    """Q = H_1 ... H_k with H_i = I - taus_i v_i v_i^H, v_i the unit lower column i of `a`
    (LAPACK's orgqr/ungqr): the first n columns of Q. CPU only."""
    a, taus = asarray(a), asarray(taus)
    return householder_product_p.bind(a, taus)


def lu_unpivoted(a):
    """LU factorisation without pivoting (Doolittle elimination).

    The packed `lu` holds a = L U, L unit lower (m x k, strictly below the diagonal of `lu`) and
    U upper (k x n), k = min(m, n). It exists when the leading k-1 principal minors are
    nonsingular; a zero pivot gives inf/NaN in the later entries. Built from lax ops (a
    `fori_loop` of rank-1 updates), so it batches, jits and differentiates like any composite;
    padax.linalg.lu gives it a closed-form derivative.

    Args:
        a: a (..., m, n) array.

    Returns:
        The packed (..., m, n) factors.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> lax.lu_unpivoted(padax.to_tensor([[2.0, 1.0], [4.0, 5.0]])).tolist()   # L = [[1, 0], [2, 1]]
        [[2.0, 1.0], [2.0, 3.0]]
    """
    a = asarray(a)
    check_matrix("lu", "x", a.aval, square=False)
    _empty_check("lu", a)
    av = a.aval
    *_, m, n = av.shape
    nd = av.ndim
    rows = broadcasted_iota(np.int32, av.shape, nd - 2)
    cols = broadcasted_iota(np.int32, av.shape, nd - 1)
    zero = _full_like(av, 0)

    def step(k, x):
        k = _to_dtype(k, np.dtype(np.int32))
        kk = broadcast_in_dim(k, av.shape, ())
        at_row, at_col = eq(rows, kk), eq(cols, kk)
        row = reduce_sum(select(at_row, x, zero), (nd - 2,))            # x[k, :]
        col = reduce_sum(select(at_col, x, zero), (nd - 1,))            # x[:, k]
        piv = reduce_sum(select(bitwise_and(at_row, at_col), x, zero), (nd - 2, nd - 1))
        below, right = gt(rows, kk), gt(cols, kk)
        l = div(_bcast_col(col, av.shape), _bcast_scalar(piv, av.shape))   # multipliers, every column
        u = _bcast_row(row, av.shape)
        x = select(bitwise_and(below, right), sub(x, mul(l, u)), x)
        return select(bitwise_and(below, at_col), l, x)

    return fori_loop(0, min(m, n), step, a)


def _bcast_scalar(v, shape):
    """A batch of scalars (shape[:-2]) broadcast over the trailing matrix axes."""
    nd = len(shape)
    return broadcast_in_dim(v, shape, tuple(range(nd - 2)))


__all__ = ["cholesky", "triangular_solve", "lu", "lu_pivots_to_permutation", "qr", "eigh", "svd", "eig", "lu_unpivoted",
           "symmetrize"]


# ---- helpers for the rules (plain lax ops: they differentiate and batch again) ----------------

def _ndim(x) -> int:
    return get_aval(x).ndim


def _dtype(x) -> np.dtype:
    return get_aval(x).dtype


def _swap(x):
    nd = _ndim(x)
    return transpose(x, tuple(range(nd - 2)) + (nd - 1, nd - 2))


def _conj(x):
    return conj(x) if dtypes.is_complex(_dtype(x)) else x


def _H(x):
    return _conj(_swap(x))


def _mm(a, b):
    """Batched matrix product over equal leading batch dimensions."""
    nd = _ndim(a)
    batch = tuple(range(nd - 2))
    return dot_general(a, b, (((nd - 1,), (nd - 2,)), (batch, batch)))


def _tri_mask(shape, lower: bool, k: int = 0):
    """Boolean mask of the lower (col <= row + k) or upper (col >= row + k) triangle."""
    rows = broadcasted_iota(np.int32, shape, len(shape) - 2)
    cols = broadcasted_iota(np.int32, shape, len(shape) - 1)
    rk = add(rows, k) if k else rows
    return le(cols, rk) if lower else ge(cols, rk)


def _tril(x, k: int = 0):
    a = get_aval(x)
    return select(_tri_mask(a.shape, True, k), x, full(a.shape, 0, a.dtype))


def _triu(x, k: int = 0):
    a = get_aval(x)
    return select(_tri_mask(a.shape, False, k), x, full(a.shape, 0, a.dtype))


def _eye(shape, dtype):
    """Identity matrices broadcast over `shape`'s leading dims (shape[-2:] may be non-square)."""
    rows = broadcasted_iota(np.int32, shape, len(shape) - 2)
    cols = broadcasted_iota(np.int32, shape, len(shape) - 1)
    return convert_element_type(eq(rows, cols), dtype)


def _diag_part(x):
    """The diagonal of each (square) matrix: x[..., i, i] (a masked sum: no gather, and
    non-finite entries off the diagonal do not leak into it)."""
    a = get_aval(x)
    on = _diag_mask(a.shape)
    return reduce_sum(select(on, x, full(a.shape, 0, a.dtype)), (a.ndim - 1,))


def _diag_mask(shape):
    return eq(broadcasted_iota(np.int32, shape, len(shape) - 2), broadcasted_iota(np.int32, shape, len(shape) - 1))


def _to_dtype(x, dtype):
    return x if _dtype(x) == dtype else convert_element_type(x, dtype)


def _mul_eye(d, aval: ShapedArray):
    """diag(d) for a vector batch d of the given matrix aval."""
    nd = aval.ndim
    return mul(broadcast_in_dim(d, aval.shape, tuple(range(nd - 1))), _eye(aval.shape, aval.dtype))


def _bcast_row(v, shape):
    """v[..., None, :] broadcast to shape (entry [i, j] = v[j])."""
    nd = len(shape)
    return broadcast_in_dim(v, shape, tuple(range(nd - 2)) + (nd - 1,))


def _bcast_col(v, shape):
    """v[..., :, None] broadcast to shape (entry [i, j] = v[i])."""
    nd = len(shape)
    return broadcast_in_dim(v, shape, tuple(range(nd - 1)))


def _slice_last2(x, rows, cols):
    a = get_aval(x)
    r0, r1 = rows
    c0, c1 = cols
    return slice_(x, (0,) * (a.ndim - 2) + (r0, c0), a.shape[:-2] + (r1, c1))


def _pad_last2(x, rows, cols):
    """Zero-pad the last two axes by (before, after) amounts."""
    a = get_aval(x)
    cfg = [(0, 0, 0)] * (a.ndim - 2) + [(rows[0], rows[1], 0), (cols[0], cols[1], 0)]
    return pad(x, constant(0, a.dtype), cfg)


# ---- differentiation ---------------------------------------------------------------------
# The tangent formulas are the standard matrix-calculus results (references per rule). They
# are written with linear operations of the tangent only (products with primal-only values,
# triangular_solve in its right-hand side, masks, transposes), so linearize/transpose turn
# them into reverse mode.

def _cholesky_jvp(primals, tangents):
    # Murray 2016, "Differentiation of the Cholesky decomposition": with a = L L^H,
    # dL = L Phi(L^{-1} da L^{-H}), Phi = lower triangle with the diagonal halved. da is the
    # whole tangent (the derivative along Hermitian da), as in jax; see the module docstring.
    a, = primals
    da, = tangents
    L = cholesky_p.bind(a)
    tmp = triangular_solve(L, da, left_side=False, lower=True, transpose_a=True, conjugate_a=True)
    x = triangular_solve(L, tmp, left_side=True, lower=True)
    av = get_aval(x)
    scale = sub(_full_like(av, 1.0), mul(_eye(av.shape, av.dtype), _full_like(av, 0.5)))
    phi = mul(_tril(x), scale)
    return L, _mm(L, phi)


def _full_like(aval: ShapedArray, value):
    return full(aval.shape, value, aval.dtype)


def _op_a(x, transpose_a: bool, conjugate_a: bool):
    if transpose_a:
        x = _swap(x)
    return _conj(x) if conjugate_a else x


def _triangular_solve_jvp(primals, tangents, *, left_side, lower, transpose_a, conjugate_a, unit_diagonal):
    # x = op(a)^{-1} b  =>  dx = op(a)^{-1} (db - op(da) x)   (left side)
    #     x = b op(a)^{-1} =>  dx = (db - x op(da)) op(a)^{-1}   (right side)
    # where da only has entries in the triangle that is read.
    a, b = primals
    ta, tb = tangents
    params = dict(left_side=left_side, lower=lower, transpose_a=transpose_a, conjugate_a=conjugate_a,
                  unit_diagonal=unit_diagonal)
    x = triangular_solve_p.bind(a, b, **params)
    rhs = None if type(tb) is Zero else tb
    if type(ta) is not Zero:
        k = 1 if unit_diagonal else 0
        g = _tril(ta, -k) if lower else _triu(ta, k)
        g = _op_a(g, transpose_a, conjugate_a)
        gx = _mm(g, x) if left_side else _mm(x, g)
        rhs = sub(rhs, gx) if rhs is not None else _neg(gx)
    return x, triangular_solve_p.bind(a, rhs, **params)


def _neg(x):
    return neg(x)


def _triangular_solve_transpose(ct, a, b, *, left_side, lower, transpose_a, conjugate_a, unit_diagonal):
    # b -> op(a)^{-1} b is linear; its transpose is c -> (op(a)^{-1})^T c = op'(a)^{-1} c with
    # the transpose flag flipped (conjugation unchanged). Same for the right side.
    if is_undefined(a):
        raise TypeError("triangular_solve is not linear in its matrix operand `a`; only `b` can be transposed")
    if type(ct) is Zero:
        return [None, None]
    return [None, triangular_solve_p.bind(a, ct, left_side=left_side, lower=lower,
                                          transpose_a=not transpose_a, conjugate_a=conjugate_a,
                                          unit_diagonal=unit_diagonal)]


def _permutation_matrix(perm, dtype):
    """P with P[..., i, j] = (perm[..., i] == j), so P @ a == a[..., perm, :]."""
    pa = get_aval(perm)
    m = pa.shape[-1]
    shape = pa.shape + (m,)
    cols = broadcasted_iota(np.int32, shape, len(shape) - 1)
    return convert_element_type(eq(_bcast_col(perm, shape), cols), dtype)


def lu_factor_tangent(lu_, t):
    """Tangent of the packed factor `lu_` (a = L U, no pivoting; for the pivoted factorisation
    pass the row-permuted tangent P t). De Hoog, Anderssen & Lukas, "Differentiation of matrix
    functionals using triangular factorization": X = L^{-1} da U^{-1}, dL = L tril(X, -1),
    dU = triu(X) U. Rectangular matrices are handled by completing L to m x m (identity
    columns) and U to n x n (identity block), which leaves the formulas unchanged."""
    av = get_aval(lu_)
    *batch, m, n = av.shape
    k = min(m, n)
    l = _pad_last2(_tril(_slice_last2(lu_, (0, m), (0, k)), -1), (0, 0), (0, m - k))
    l = add(l, _eye(tuple(batch) + (m, m), av.dtype))
    u = _pad_last2(_triu(_slice_last2(lu_, (0, k), (0, n))), (0, n - k), (0, 0))
    if n > k:
        u = add(u, _pad_last2(_eye(tuple(batch) + (n - k, n - k), av.dtype), (k, 0), (k, 0)))
    la = triangular_solve(l, t, left_side=True, lower=True, unit_diagonal=True)
    x = triangular_solve(u, la, left_side=False, lower=False)
    return add(_mm(l, _tril(x, -1)), _mm(_triu(x), u))


def _lu_jvp(primals, tangents):
    # P a = L U  =>  the unpivoted rule applied to P da.
    a, = primals
    t, = tangents
    lu_, piv, perm = lu_p.bind(a)
    d_lu = lu_factor_tangent(lu_, _mm(_permutation_matrix(perm, get_aval(a).dtype), t))
    return [lu_, piv, perm], [d_lu, Zero(tangent_aval(get_aval(piv))), Zero(tangent_aval(get_aval(perm)))]


def _thin_qr_jvp(q, r, dx):
    # Walter & Lehmann / Townsend: for m >= n with q (m, n), r (n, n):
    # C = q^H dx r^{-1}; Omega = tril(C, -1) - tril(C, -1)^H (+ i Im diag(C) for complex);
    # dq = q (Omega - C) + dx r^{-1}, dr = (C - Omega) r.
    dx_rinv = triangular_solve(r, dx, left_side=False, lower=False)
    c = _mm(_H(q), dx_rinv)
    low = _tril(c, -1)
    omega = sub(low, _H(low))
    if dtypes.is_complex(_dtype(c)):
        ic = imag(c)
        ca = get_aval(c)
        i_imag = mkcomplex(_full_like(get_aval(ic), 0.0), ic)
        omega = add(omega, mul(_eye(ca.shape, ca.dtype), i_imag))
    dq = add(_mm(q, sub(omega, c)), dx_rinv)
    dr = _mm(sub(c, omega), r)
    return dq, dr


def _householder_blocks(q1):
    """(Y1, Y2, W, T) of geqrf's compact-WY form Q = I - Y T Y^H (Y = [Y1; Y2] unit lower
    trapezoidal, m x n; T upper triangular), recovered from the thin factor Q1 = Q[:, :n]
    alone: Q1 = E1 - Y W with W = T Y1^H upper triangular, so I - Q1[:n] = Y1 W is an LU
    factorisation without pivoting, Y2 = -Q1[n:] W^{-1} and T = W Y1^{-H}."""
    m, n = get_aval(q1).shape[-2:]
    batch = get_aval(q1).shape[:-2]
    top, bot = _slice_last2(q1, (0, n), (0, n)), _slice_last2(q1, (n, m), (0, n))
    f = lu_unpivoted(sub(_eye(batch + (n, n), _dtype(q1)), top))
    y1 = add(_tril(f, -1), _eye(batch + (n, n), _dtype(q1)))
    w = _triu(f)
    y2 = triangular_solve(w, neg(bot), left_side=False, lower=False)
    t = triangular_solve(y1, w, left_side=False, lower=True, transpose_a=True, conjugate_a=True,
                         unit_diagonal=True)
    return y1, y2, w, t


def _householder_complement_tangent(q1, dq1):
    """Tangent of Q2 = Q[:, n:], the columns that the complete QR of a tall (m > n) matrix
    adds. They are not fixed by a = Q R, but LAPACK's are a smooth function of the input:
    Q = H_1 ... H_n (geqrf's reflectors, expanded by orgqr/ungqr), and the reflectors are a
    function of Q1 (`_householder_blocks`), so Q2 = E2 - Y T Y2^H is one too. This
    differentiates that formula along dQ1 (the unpivoted-LU rule for Y1, W; then products)."""
    m, n = get_aval(q1).shape[-2:]
    y1, y2, w, t = _householder_blocks(q1)
    d_top, d_bot = _slice_last2(dq1, (0, n), (0, n)), _slice_last2(dq1, (n, m), (0, n))
    # I - Q1[:n] = Y1 W: X = Y1^{-1} dM W^{-1} with dM = -dQ1[:n]
    x = triangular_solve(y1, neg(d_top), left_side=True, lower=True, unit_diagonal=True)
    x = triangular_solve(w, x, left_side=False, lower=False)
    dy1 = _mm(y1, _tril(x, -1))
    dw = _mm(_triu(x), w)
    dy2 = triangular_solve(w, neg(add(d_bot, _mm(y2, dw))), left_side=False, lower=False)
    dt = triangular_solve(y1, sub(dw, _mm(t, _H(dy1))), left_side=False, lower=True, transpose_a=True,
                          conjugate_a=True, unit_diagonal=True)
    ax = _ndim(y1) - 2
    y, dy = concatenate([y1, y2], ax), concatenate([dy1, dy2], ax)
    y2h, ty2h = _H(y2), _mm(t, _H(y2))
    return neg(add(add(_mm(dy, ty2h), _mm(y, _mm(dt, y2h))), _mm(y, _mm(t, _H(dy2)))))


def _qr_jvp(primals, tangents, *, full_matrices):
    x, = primals
    dx, = tangents
    q, r = qr_p.bind(x, full_matrices=full_matrices)
    *_, m, n = get_aval(x).shape
    if m >= n:
        if full_matrices and m > n:
            q1, r1 = _slice_last2(q, (0, m), (0, n)), _slice_last2(r, (0, n), (0, n))
            dq1, dr1 = _thin_qr_jvp(q1, r1, dx)
            dq2 = _householder_complement_tangent(q1, dq1)
            return [q, r], [concatenate([dq1, dq2], _ndim(dq1) - 1), _pad_last2(dr1, (0, m - n), (0, 0))]
        dq, dr = _thin_qr_jvp(q, r, dx)
        return [q, r], [dq, dr]
    # wide: x = q [r1 r2] with x1 = q r1 square; r2 = q^H x2 => dr2 = dq^H x2 + q^H dx2
    x2 = _slice_last2(x, (0, m), (m, n))
    dx1, dx2 = _slice_last2(dx, (0, m), (0, m)), _slice_last2(dx, (0, m), (m, n))
    r1 = _slice_last2(r, (0, m), (0, m))
    dq, dr1 = _thin_qr_jvp(q, r1, dx1)
    dr2 = add(_mm(_H(dq), x2), _mm(_H(q), dx2))
    return [q, r], [dq, concatenate([dr1, dr2], _ndim(dr1) - 1)]


def _safe_reciprocal_gaps(w, dtype):
    """F[..., i, j] = 1 / (w[j] - w[i]) off the diagonal, 0 on it (primal-only)."""
    wa = get_aval(w)
    shape = wa.shape + (wa.shape[-1],)
    eye = _eye(shape, wa.dtype)
    gaps = sub(_bcast_row(w, shape), _bcast_col(w, shape))
    f = sub(div(_full_like(ShapedArray(shape, wa.dtype), 1.0), add(gaps, eye)), eye)
    return _to_dtype(f, dtype)


def _eigh_jvp(primals, tangents, *, lower):
    # First-order perturbation theory for distinct eigenvalues (Giles 2008, "An extended
    # collection of matrix derivative results"): with S = V^H da V,
    # dw = Re diag(S), dV = V (F * S), F[i, j] = 1 / (w_j - w_i) (0 on the diagonal).
    # da is the whole tangent (the derivative along Hermitian da), as in jax.
    a, = primals
    da, = tangents
    w, v = eigh_p.bind(a, lower=lower)
    s = _mm(_mm(_H(v), da), v)
    dw = _diag_part(s)
    if dtypes.is_complex(_dtype(dw)):
        dw = real(dw)
    dv = _mm(v, mul(_safe_reciprocal_gaps(w, _dtype(a)), s))
    return [w, v], [dw, dv]


def _svd_jvp(primals, tangents, *, full_matrices, compute_uv):
    # Townsend 2016, "Differentiating the singular value decomposition", and Giles 2008:
    # with dS = U^H dA V: ds = Re diag(dS); dU = U (F o (dS S + S dS^H) + D) (+ the part of
    # dA V outside span(U) when m > n), dV = V (F o (S dS + dS^H S)) (+ likewise when n > m),
    # F[i, j] = 1 / (s_j^2 - s_i^2) off the diagonal, D = diag(Im-part) term for complex.
    a, = primals
    da, = tangents
    *_, m, n = get_aval(a).shape
    k = min(m, n)
    full = compute_uv and full_matrices and m != n
    if full:  # the thin factors are the leading columns (rows of VH) of the full ones
        s, u_full, vh_full = svd_p.bind(a, full_matrices=True, compute_uv=True)
        u, vh = _slice_last2(u_full, (0, m), (0, k)), _slice_last2(vh_full, (0, k), (0, n))
    else:
        s, u, vh = svd_p.bind(a, full_matrices=False, compute_uv=True)
    dt = _dtype(a)
    v = _H(vh)
    ds_mat = _mm(_mm(_H(u), da), v)
    ds = _diag_part(ds_mat)
    if dtypes.is_complex(dt):
        ds = real(ds)
    if not compute_uv:
        return [s], [ds]
    kshape = get_aval(ds_mat).shape
    s_row = _to_dtype(_bcast_row(s, kshape), dt)
    s_col = _to_dtype(_bcast_col(s, kshape), dt)
    sq = mul(s, s)
    f = _safe_reciprocal_gaps(sq, dt)
    dss = mul(s_row, ds_mat)      # dS diag(s)
    sds = mul(s_col, ds_mat)      # diag(s) dS
    inner_u = mul(f, add(dss, _H(dss)))
    if dtypes.is_complex(dt):
        sa = get_aval(s)
        zero = _full_like(sa, 0.0)
        s_inv = select(eq(s, zero), zero, div(_full_like(sa, 1.0), s))
        d = mul(mul(_full_like(get_aval(ds_mat), 0.5), sub(ds_mat, _H(ds_mat))),
                _to_dtype(_mul_eye(s_inv, ShapedArray(kshape, sa.dtype)), dt))
        inner_u = add(inner_u, d)
    du = _mm(u, inner_u)
    dv = _mm(v, mul(f, add(sds, _H(sds))))
    if m > n:
        dav = _mm(da, v)
        du = add(du, div(sub(dav, _mm(u, _mm(_H(u), dav))), _to_dtype(_bcast_row(s, get_aval(dav).shape), dt)))
    if n > m:
        dahu = _mm(_H(da), u)
        dv = add(dv, div(sub(dahu, _mm(v, _mm(vh, dahu))), _to_dtype(_bcast_row(s, get_aval(dahu).shape), dt)))
    if not full:
        return [s, u, vh], [ds, du, _H(dv)]
    if m > n:
        du = _complement_tangent(u, du, _slice_last2(u_full, (0, m), (k, m)))
    else:
        dv = _complement_tangent(v, dv, _H(_slice_last2(vh_full, (k, n), (0, n))))
    return [s, u_full, vh_full], [ds, du, _H(dv)]


def _complement_tangent(q1, dq1, q2):
    """[dq1, dq2] for an orthonormal completion [q1, q2] (full_matrices=True SVD factors).

    Orthonormality fixes q1^H dq2 = -dq1^H q2; the rest, q2^H dq2, is a free rotation of the
    complement's basis (gesdd's choice of that basis has no closed form), taken as 0: the
    basis moves with span(q1) and does not rotate within the complement. Anything that
    depends on q2 only through its span (the projector q2 q2^H) gets its exact derivative.
    """
    dq2 = neg(_mm(q1, _mm(_H(dq1), q2)))
    return concatenate([dq1, dq2], _ndim(dq1) - 1)


def _solve_with(a, b):
    """a^{-1} b through a's pivoted LU: `a` enters only as a primal, so this is linear in b
    (a row permutation, then two triangular solves in their right-hand side)."""
    lu_, _, perm = lu_p.bind(a)
    pb = _mm(_permutation_matrix(perm, _dtype(b)), b)
    y = triangular_solve(lu_, pb, left_side=True, lower=True, unit_diagonal=True)
    return triangular_solve(lu_, y, left_side=True, lower=False)


def _column_sums(x):
    return reduce_sum(x, (_ndim(x) - 2,))


def _geev_vectors_tangent(w, v, da):
    """Tangents (dw, dv) of the eigenvalues w and the eigenvector columns v of a matrix with
    distinct eigenvalues, for a (complex) perturbation da, with v normalised as geev returns it.

    Perturbation theory (e.g. Giles 2008, sec. 3.1): with P = v^{-1} da v, dw = diag(P) and
    dv_j = u_j + c_j v_j, where u_j = sum_{i != j} v_i P_ij / (w_j - w_i) and c_j is the free
    multiple of v_j that the eigen-equation leaves open. LAPACK's geev fixes it: each column
    has unit 2-norm (so Re(v_j^H dv_j) = 0) and its entry of largest modulus, row k_j, real
    (so Im(dv_{k_j j}) = 0). Hence c_j = -Re(v_j^H u_j) - i Im(u_{k_j j}) / v_{k_j j}.
    """
    dt = _dtype(v)
    p = _solve_with(v, _mm(da, v))
    dw = _diag_part(p)
    u = _mm(v, mul(_safe_reciprocal_gaps(w, dt), p))
    va = get_aval(v)
    k = argmax(abs_(v), va.ndim - 2, np.int32)              # row of each column's largest entry
    rows = broadcasted_iota(np.int32, va.shape, va.ndim - 2)
    pick = convert_element_type(eq(rows, _bcast_row(k, va.shape)), dt)
    v_k = real(_column_sums(mul(pick, v)))
    re_c = neg(real(_column_sums(mul(_conj(v), u))))
    im_c = neg(div(imag(_column_sums(mul(pick, u))), v_k))
    c = mkcomplex(re_c, im_c)
    return dw, _add(u, mul(v, _bcast_row(c, va.shape)))


def _add(x, y):
    return add(x, y)


def _eig_jvp(primals, tangents, *, compute_left, compute_right):
    # Eigenvalues: dw_j = (v^{-1} da v)_jj (Magnus 1985; any eigenvector scaling cancels).
    # Right eigenvectors: `_geev_vectors_tangent`. Left eigenvectors: geev's vl_j satisfy
    # vl_j^H a = w_j vl_j^H, i.e. they are the right eigenvectors of a^H for conj(w_j), with
    # the same normalisation, so the same rule applies to (a^H, conj(w), vl, da^H).
    # Valid where the eigenvalues are distinct (the result is inf/NaN where they coincide)
    # and each eigenvector's largest entry is unique.
    a, = primals
    t, = tangents
    outs = eig_p.bind(a, compute_left=compute_left, compute_right=True)
    w, vr = outs[0], outs[-1]
    da = _to_dtype(t, _dtype(vr))
    dw, dvr = _geev_vectors_tangent(w, vr, da)
    primal_out, tangent_out = [w], [dw]
    if compute_left:
        _, dvl = _geev_vectors_tangent(_conj(w), outs[1], _H(da))
        primal_out.append(outs[1])
        tangent_out.append(dvl)
    if compute_right:
        primal_out.append(vr)
        tangent_out.append(dvr)
    return primal_out, tangent_out


def _int_outputs_jvp(prim):
    def rule(primals, tangents, **params):
        out = prim.bind(*primals, **params)
        return out, Zero(tangent_aval(get_aval(out)))
    return rule


cholesky_p.jvp_rule = _cholesky_jvp
triangular_solve_p.jvp_rule = _triangular_solve_jvp
triangular_solve_p.transpose_rule = _triangular_solve_transpose
lu_p.jvp_rule = _lu_jvp
lu_pivots_to_permutation_p.jvp_rule = _int_outputs_jvp(lu_pivots_to_permutation_p)
qr_p.jvp_rule = _qr_jvp
eigh_p.jvp_rule = _eigh_jvp
svd_p.jvp_rule = _svd_jvp
eig_p.jvp_rule = _eig_jvp


# ---- batching: the kernels take leading batch dimensions, so move the mapped axis there ------

def _unary_batch(prim):
    def rule(args, dims, **params):
        x, = args
        d, = dims
        out = prim.bind(moveaxis(x, d, 0), **params)
        if prim.multiple_results:
            return out, [0] * len(out)
        return out, 0
    prim.batch_rule = rule


for _p in (cholesky_p, lu_p, lu_pivots_to_permutation_p, qr_p, eigh_p, svd_p, eig_p, schur_p, hessenberg_p):
    _unary_batch(_p)


def _binary_batch(prim):
    """Both operands' mapped axes to the front (broadcast where one is unmapped)."""
    def rule(args, dims, **params):
        size = batch_size(args, dims)
        return prim.bind(*(bdim_to_front(x, d, size) for x, d in zip(args, dims)), **params), 0
    prim.batch_rule = rule


_binary_batch(triangular_solve_p)
_binary_batch(householder_product_p)
