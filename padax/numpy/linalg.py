"""`padax.numpy.linalg`: the Array API standard's `linalg` extension (plus NumPy's extras).

Thin adapters over `padax.linalg` (imported when first called): they apply
padax.numpy promotion (integer inputs compute in the default floating dtype),
the standard's keyword-only signatures, and return the standard's named
tuples (EighResult, QRResult, SlogdetResult, SVDResult). Like `padax.linalg`,
failures do not raise inside compiled code: a non-positive-definite Cholesky
or a singular solve gives NaN/inf entries. As in jax, `cholesky`, `eigh` and
`eigvalsh` factor the Hermitian part (x + x^H) / 2 of their input unless
`symmetrize_input=False`, so their gradients are Hermitian.
"""
from __future__ import annotations

import builtins
import importlib
import math
from typing import Any, NamedTuple

from padax import lax
from padax.core.errors import op_type_error, op_value_error
from padax.core.trace import Tracer
from padax.functional._arrays import full as _full
from padax.functional.lax import linalg as _L
from padax.numpy import _dtypes as D
from padax.numpy._indexing import diagonal as _np_diagonal, take_along_axis
from padax.numpy._linalg_core import _cross3, matmul, outer as _np_outer, tensordot, vecdot
from padax.numpy._manipulation import matrix_transpose
from padax.numpy._statistical import sum as _sum
from padax.numpy._util import broadcast_shapes, broadcast_to, promote as _promote, static_int, to_array, to_inexact


def _pl():
    return importlib.import_module("padax.linalg")


class EighResult(NamedTuple):
    """What eigh returns: eigenvalues (ascending) and eigenvectors (columns), a named tuple.

    Args:
        eigenvalues: real, ascending, shape (..., M).
        eigenvectors: the matching unit eigenvectors as columns, shape (..., M, M).

    Examples:
        >>> import padax.numpy as pnp
        >>> w, v = pnp.linalg.eigh(pnp.array([[2.0, 0.0], [0.0, 1.0]]))
        >>> w.tolist(), pnp.linalg.eigh(pnp.eye(2)).eigenvalues.tolist()
        ([1.0, 2.0], [1.0, 1.0])
    """
    eigenvalues: Any
    eigenvectors: Any


class EigResult(NamedTuple):
    """What eig returns: eigenvalues and eigenvectors (columns), complex, a named tuple.

    Args:
        eigenvalues: complex, shape (..., M).
        eigenvectors: the matching eigenvectors as columns, complex, shape (..., M, M).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.linalg.eig(pnp.array([[2.0, 0.0], [0.0, 3.0]])).eigenvalues.tolist()
        [(2+0j), (3+0j)]
    """
    eigenvalues: Any
    eigenvectors: Any


class QRResult(NamedTuple):
    """What qr returns: Q (orthonormal columns) and R (upper triangular), a named tuple.

    Args:
        Q: orthonormal columns, shape (..., M, K).
        R: upper triangular, shape (..., K, N).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.linalg.qr(pnp.array([[3.0, 0.0], [4.0, 5.0]])).R.tolist()
        [[-5.0, -4.0], [0.0, 3.0]]
    """
    Q: Any
    R: Any


class SlogdetResult(NamedTuple):
    """What slogdet returns: the sign and log|det| of the determinant, a named tuple.

    Args:
        sign: the sign of the determinant (a unit complex number for complex input; 0 if singular).
        logabsdet: the real log of |det|.

    Examples:
        >>> import padax.numpy as pnp
        >>> sign, logabsdet = pnp.linalg.slogdet(pnp.array([[0.0, 2.0], [1.0, 0.0]]))   # det = -2
        >>> sign.tolist(), round(logabsdet.tolist(), 4)
        (-1.0, 0.6931)
    """
    sign: Any
    logabsdet: Any


class SVDResult(NamedTuple):
    """What svd returns: U, the singular values S (descending) and Vh, a named tuple.

    Args:
        U: left singular vectors as columns.
        S: the singular values, real, descending.
        Vh: right singular vectors as rows.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.linalg.svd(pnp.array([[0.0, 2.0], [3.0, 0.0]])).S.tolist()
        [3.0, 2.0]
    """
    U: Any
    S: Any
    Vh: Any


def _f(x: Any) -> Any:
    return to_inexact(x)


def _square(op: str, x: Any) -> Any:
    x = _f(x)
    _L.check_matrix(f"linalg.{op}", "x", x.aval)
    return x


def cholesky(x: Any, /, *, upper: builtins.bool = False, symmetrize_input: builtins.bool = True) -> Any:
    """Cholesky factor (lower L with x = L L^H, or upper U = L^H) of (x + x^H) / 2, or with
    symmetrize_input=False of the matrix in x's lower triangle.

    Args:
        x: square matrices (..., M, M); integers and bool compute in the default float dtype.
        upper: return the upper factor U = L^H instead of L.
        symmetrize_input: factor (x + x^H) / 2 (True) or read only x's lower triangle (False).

    Returns:
        An array of x's shape in x's floating dtype (NaN where x is not positive definite).

    Examples:
        >>> import padax.numpy as pnp
        >>> a = pnp.array([[4.0, 2.0], [2.0, 3.0]])
        >>> pnp.linalg.cholesky(a).tolist()
        [[2.0, 0.0], [1.0, 1.4142]]
    """
    f = _L.cholesky(_square("cholesky", x), symmetrize_input=symmetrize_input)
    if upper:
        f = matrix_transpose(f)
        f = lax.conj(f) if D.kind(f.aval.dtype) == 3 else f
    return f


def _uplo(op: str, UPLO: Any) -> builtins.bool:
    if UPLO not in (None, "L", "U"):
        raise op_value_error(f"linalg.{op}", f"UPLO must be 'L', 'U' or None, got {UPLO!r}")
    return UPLO != "U"


def cross(x1: Any, x2: Any, /, *, axis: builtins.int = -1) -> Any:
    """Cross product of 3-vectors along `axis` (other axes broadcast).

    Args:
        x1, x2: arrays broadcast together, of size 3 along `axis`; promoted to a common dtype.
        axis: the vector axis.

    Returns:
        An array of the broadcast shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.linalg.cross(pnp.array([1.0, 0.0, 0.0]), pnp.array([0.0, 1.0, 0.0])).tolist()
        [0.0, 0.0, 1.0]
    """
    a, b = _promote(to_array(x1), to_array(x2))
    shape = broadcast_shapes("linalg.cross", a.aval.shape, b.aval.shape)
    nd = len(shape)
    ax = static_int("linalg.cross", axis, "axis")
    if not -nd <= ax < nd:
        raise op_value_error("linalg.cross", f"axis {axis} is out of range for shape {shape}")
    ax %= nd
    if shape[ax] != 3:
        raise op_value_error("linalg.cross", f"axis {axis} must have size 3, got shape {shape}")
    return _cross3(broadcast_to(a, shape), broadcast_to(b, shape), ax)


def det(x: Any, /) -> Any:
    """Determinant of square matrices.

    Args:
        x: square matrices (..., M, M); integers and bool compute in the default float dtype.

    Returns:
        An array of shape (...) in x's floating dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> a = pnp.array([[4.0, 2.0], [2.0, 3.0]])
        >>> float(pnp.linalg.det(a))
        8.0
    """
    return _pl().det(_f(x))


def diagonal(x: Any, /, *, offset: builtins.int = 0) -> Any:
    """The `offset` diagonal of the last two axes.

    Args:
        x: an array of at least two dimensions.
        offset: the diagonal: 0 the main one, > 0 above, < 0 below.

    Returns:
        An array of x's dtype, shape x.shape[:-2] + (diagonal length,).

    Examples:
        >>> import padax.numpy as pnp
        >>> a = pnp.array([[4.0, 2.0], [2.0, 3.0]])
        >>> pnp.linalg.diagonal(a).tolist()
        [4.0, 3.0]
    """
    return _np_diagonal(x, offset, -2, -1)


def eigh(x: Any, /, UPLO: str | None = None, symmetrize_input: builtins.bool = True) -> EighResult:
    """(eigenvalues ascending, eigenvectors) of (x + x^H) / 2, or with symmetrize_input=False
    of the Hermitian matrix in x's lower (UPLO 'L' or None) or upper ('U') triangle.

    Args:
        x: square matrices (..., M, M); integers and bool compute in the default float dtype.
        UPLO: with symmetrize_input=False, the triangle to read: 'L' (or None) or 'U'.
        symmetrize_input: factor (x + x^H) / 2 (True) or one triangle of x (False).

    Returns:
        An EighResult(eigenvalues, eigenvectors).

    Examples:
        >>> import padax.numpy as pnp
        >>> a = pnp.array([[4.0, 2.0], [2.0, 3.0]])
        >>> w, v = pnp.linalg.eigh(a)
        >>> w.tolist()
        [1.4384, 5.5616]
    """
    w, v = _L.eigh(_square("eigh", x), lower=_uplo("eigh", UPLO), symmetrize_input=symmetrize_input)
    return EighResult(w, v)


def eigvalsh(x: Any, /, UPLO: str | None = "L", *, symmetrize_input: builtins.bool = True) -> Any:
    """Eigenvalues (ascending) of Hermitian matrices (see `eigh`).

    Args:
        x: square matrices (..., M, M); integers and bool compute in the default float dtype.
        UPLO: with symmetrize_input=False, the triangle to read: 'L' (or None) or 'U'.
        symmetrize_input: use (x + x^H) / 2 (True) or one triangle of x (False).

    Returns:
        A real array of shape (..., M), ascending.

    Examples:
        >>> import padax.numpy as pnp
        >>> a = pnp.array([[4.0, 2.0], [2.0, 3.0]])
        >>> pnp.linalg.eigvalsh(a).tolist()
        [1.4384, 5.5616]
    """
    return eigh(x, UPLO, symmetrize_input).eigenvalues


def eig(x: Any, /) -> EigResult:
    """(eigenvalues, eigenvectors) of general square matrices, complex (CPU only).

    Args:
        x: square matrices (..., M, M); integers and bool compute in the default float dtype.

    Returns:
        An EigResult(eigenvalues, eigenvectors), both complex.

    Examples:
        >>> import padax.numpy as pnp
        >>> w, v = pnp.linalg.eig(pnp.array([[2.0, 0.0], [0.0, 3.0]]))
        >>> w.tolist()
        [(2+0j), (3+0j)]
    """
    w, v = _pl().eig(_f(x))
    return EigResult(w, v)


def eigvals(x: Any, /) -> Any:
    """Eigenvalues of general square matrices, complex (CPU only).

    Args:
        x: square matrices (..., M, M); integers and bool compute in the default float dtype.

    Returns:
        A complex array of shape (..., M).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.linalg.eigvals(pnp.array([[0.0, -1.0], [1.0, 0.0]])).tolist()
        [1j, -1j]
    """
    return _pl().eigvals(_f(x))


def inv(x: Any, /) -> Any:
    """Inverse of square matrices.

    Args:
        x: square matrices (..., M, M); integers and bool compute in the default float dtype.

    Returns:
        An array of x's shape in x's floating dtype (inf/NaN entries where x is singular).

    Examples:
        >>> import padax.numpy as pnp
        >>> a = pnp.array([[4.0, 2.0], [2.0, 3.0]])
        >>> pnp.linalg.inv(a).tolist()
        [[0.375, -0.25], [-0.25, 0.5]]
    """
    return _pl().inv(_f(x))


def matrix_norm(x: Any, /, *, keepdims: builtins.bool = False, ord: Any = "fro") -> Any:
    """Matrix norm over the last two axes: 'fro', 'nuc', inf, -inf, 1, -1, 2, -2.

    Args:
        x: an array of at least two dimensions (integers and bool: the default float).
        keepdims: keep the last two axes with size 1.
        ord: the norm: 'fro', 'nuc', inf, -inf, 1, -1, 2 or -2.

    Returns:
        A real array of shape x.shape[:-2].

    Examples:
        >>> import padax.numpy as pnp
        >>> a = pnp.array([[4.0, 2.0], [2.0, 3.0]])
        >>> float(pnp.linalg.matrix_norm(a))
        5.7446
        >>> float(pnp.linalg.matrix_norm(a, ord=1))
        6.0
    """
    return _pl().matrix_norm(_f(x), p=ord, axis=(-2, -1), keepdim=keepdims)


def matrix_power(x: Any, n: builtins.int, /) -> Any:
    """x to the integer power n (n < 0 inverts).

    Args:
        x: square matrices (..., M, M); integers and bool compute in the default float dtype.
        n: the integer power (0 gives identities; negative powers invert first).

    Returns:
        An array of x's shape in x's floating dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> a = pnp.array([[4.0, 2.0], [2.0, 3.0]])
        >>> pnp.linalg.matrix_power(a, 2).tolist()
        [[20.0, 14.0], [14.0, 13.0]]
    """
    return _pl().matrix_power(_f(x), n)


def matrix_rank(x: Any, /, *, rtol: Any = None, hermitian: builtins.bool = False, tol: Any = None) -> Any:
    """Number of singular values (|eigenvalues| if `hermitian`) above a threshold: as in jax,
    an explicit `rtol` (or its alias `tol`) is the threshold itself; the default is
    largest * max(M, N) * eps. A 0-d or 1-D x gives 1 if any entry is nonzero, else 0.

    Args:
        x: an array (..., M, N), or 0-/1-D (see above).
        rtol: the threshold on the singular values (None: the default above).
        hermitian: use |eigenvalues| of the Hermitian x instead of singular values.
        tol: NumPy's name for `rtol` (give only one).

    Returns:
        A default-int array of shape x.shape[:-2].

    Examples:
        >>> import padax.numpy as pnp
        >>> int(pnp.linalg.matrix_rank(pnp.array([[1.0, 2.0], [2.0, 4.0]])))
        1
    """
    if tol is not None:
        if rtol is not None:
            raise op_value_error("linalg.matrix_rank", "give only one of rtol and tol")
        rtol = tol
    x = _f(x)
    if x.aval.ndim < 2:
        nonzero = lax.ne(x, _full(x.aval.shape, 0, x.aval.dtype))
        any_ = lax.reduce_or(nonzero, tuple(builtins.range(x.aval.ndim))) if x.aval.ndim else nonzero
        return lax.convert_element_type(any_, D.default_int())
    s = svd(x, compute_uv=False, hermitian=hermitian)
    if rtol is None:
        m, n = x.aval.shape[-2:]
        thr = lax.mul(lax.reduce_max(s, (s.aval.ndim - 1,)), builtins.max(m, n) * D.finfo(s.aval.dtype).eps)
    else:
        thr = lax.convert_element_type(to_array(rtol), s.aval.dtype)
    thr = broadcast_to(thr, s.aval.shape[:-1])
    above = lax.gt(s, lax.broadcast_in_dim(thr, s.aval.shape, tuple(builtins.range(thr.aval.ndim))))
    return lax.reduce_sum(lax.convert_element_type(above, D.default_int()), (s.aval.ndim - 1,))


def outer(x1: Any, x2: Any, /) -> Any:
    """Outer product of two 1-D arrays.

    Args:
        x1, x2: 1-D arrays.

    Returns:
        A 2-D array of shape (len(x1), len(x2)) in the promoted dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.linalg.outer(pnp.array([1.0, 2.0]), pnp.array([3.0, 4.0])).tolist()
        [[3.0, 4.0], [6.0, 8.0]]
    """
    a, b = to_array(x1), to_array(x2)
    if a.aval.ndim != 1 or b.aval.ndim != 1:
        raise op_value_error("linalg.outer", f"expects 1-D arrays, got {a.aval.str_short()} and {b.aval.str_short()}")
    return _np_outer(a, b)


def pinv(x: Any, /, *, rtol: Any = None, hermitian: builtins.bool = False, rcond: Any = None) -> Any:
    """Moore-Penrose pseudo-inverse; singular values at or below rtol * largest count as zero
    (rtol, alias rcond, default 10 * max(M, N) * eps as in jax). With `hermitian`, through the
    eigen-decomposition of (x + x^H) / 2.

    Args:
        x: matrices (..., M, N); integers and bool compute in the default float dtype.
        rtol: the relative cutoff for small singular values (None: the default above).
        hermitian: x is Hermitian (use its eigen-decomposition).
        rcond: NumPy's name for `rtol` (give only one).

    Returns:
        An array of shape (..., N, M).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.linalg.pinv(pnp.array([[1.0, 0.0], [0.0, 2.0], [0.0, 0.0]])).tolist()
        [[1.0, 0.0, 0.0], [0.0, 0.5, 0.0]]
    """
    if rcond is not None:
        if rtol is not None:
            raise op_value_error("linalg.pinv", "give only one of rtol and rcond")
        rtol = rcond
    x = _f(x)
    if rtol is None:
        m, n = x.aval.shape[-2:]
        rtol = 10 * builtins.max(m, n) * D.finfo(x.aval.dtype).eps
    if hermitian:
        x = _L.symmetrize(_square("pinv", x))
    return _pl().pinv(x, rcond=rtol, hermitian=hermitian)


def qr(x: Any, /, *, mode: str = "reduced") -> Any:
    """QR decomposition: QRResult(Q, R) for mode 'reduced' (NumPy's old alias 'full') or
    'complete', R alone for 'r'. (jax's 'raw', LAPACK's Householder form, is not available.)

    Args:
        x: matrices (..., M, N); integers and bool compute in the default float dtype.
        mode: 'reduced' (or 'full'): Q (..., M, K), R (..., K, N) with K = min(M, N); 'complete': Q (..., M, M),
            R (..., M, N); 'r': R only.

    Returns:
        A QRResult(Q, R), or R alone for mode 'r'.

    Examples:
        >>> import padax.numpy as pnp
        >>> a = pnp.array([[4.0, 2.0], [2.0, 3.0]])
        >>> q, r = pnp.linalg.qr(a)
        >>> (q @ r).tolist()
        [[4.0, 2.0], [2.0, 3.0]]
    """
    if mode not in ("reduced", "complete", "full", "r"):
        raise op_value_error("linalg.qr", f"mode must be 'reduced', 'complete', 'full' or 'r', got {mode!r}")
    if mode == "r":
        return _pl().qr(_f(x), mode="r")
    q, r = _pl().qr(_f(x), mode="reduced" if mode == "full" else mode)
    return QRResult(q, r)


def slogdet(x: Any, /) -> SlogdetResult:
    """(sign, log|det|) of square matrices; logabsdet is real also for complex input.

    Args:
        x: square matrices (..., M, M); integers and bool compute in the default float dtype.

    Returns:
        A SlogdetResult(sign, logabsdet), each of shape (...).

    Examples:
        >>> import padax.numpy as pnp
        >>> sign, logabsdet = pnp.linalg.slogdet(pnp.array([[-2.0, 0.0], [0.0, 3.0]]))
        >>> float(sign), float(logabsdet)
        (-1.0, 1.7918)
    """
    out = _pl().slogdet(_f(x))
    sign, logabs = out[0], out[1]
    if D.kind(logabs.aval.dtype) == 3:
        logabs = lax.real(logabs)
    return SlogdetResult(sign, logabs)


def solve(x1: Any, x2: Any, /) -> Any:
    """Solve x1 @ out = x2; x2 of shape (M,) is one vector, otherwise (..., M, K) with batches broadcasting.

    Args:
        x1: square coefficient matrices (..., M, M).
        x2: the right-hand side: (M,) or (..., M, K); promoted with x1 (integers: the default float).

    Returns:
        An array of x2's shape (with the broadcast batch shape).

    Examples:
        >>> import padax.numpy as pnp
        >>> a = pnp.array([[4.0, 2.0], [2.0, 3.0]])
        >>> pnp.linalg.solve(a, pnp.array([8.0, 7.0])).tolist()
        [1.25, 1.5]
    """
    a, b = _promote(_f(x1), _f(x2))
    if b.aval.ndim == 1:
        m = b.aval.shape[0]
        col = lax.broadcast_in_dim(b, a.aval.shape[:-2] + (m, 1), (a.aval.ndim - 2,))
        out = _pl().solve(a, col)
        return lax.reshape(out, out.aval.shape[:-1])
    if b.aval.ndim < 2:
        raise op_value_error("linalg.solve", f"x2 must be at least 1-D, got {b.aval.str_short()}")
    batch = broadcast_shapes("linalg.solve", a.aval.shape[:-2], b.aval.shape[:-2])
    a = broadcast_to(a, batch + a.aval.shape[-2:])
    b = broadcast_to(b, batch + b.aval.shape[-2:])
    return _pl().solve(a, b)


def svd(x: Any, /, *, full_matrices: builtins.bool = True, compute_uv: builtins.bool = True,
        hermitian: builtins.bool = False) -> Any:
    """SVDResult(U, S, Vh) with x = U diag(S) Vh, S descending; S alone if not `compute_uv`.
    With `hermitian`, from the eigen-decomposition of (x + x^H) / 2, as jax does: S = |w|
    sorted descending, U the matching eigenvectors, Vh = (U * sign(w))^H.

    Args:
        x: matrices (..., M, N); integers and bool compute in the default float dtype.
        full_matrices: U (..., M, M) and Vh (..., N, N) if True, else (..., M, K) and (..., K, N), K = min(M, N).
        compute_uv: return U and Vh too; if False, only S.
        hermitian: x is Hermitian (use its eigen-decomposition, see above).

    Returns:
        An SVDResult(U, S, Vh), or S (..., K) alone.

    Examples:
        >>> import padax.numpy as pnp
        >>> u, s, vh = pnp.linalg.svd(pnp.array([[3.0, 0.0], [0.0, -4.0]]))
        >>> s.tolist()
        [4.0, 3.0]
    """
    x = _f(x)
    if hermitian:
        return _hermitian_svd(_square("svd", x), compute_uv)
    if not compute_uv:
        return _pl().svdvals(x)
    u, s, vh = _pl().svd(x, full_matrices=full_matrices)
    return SVDResult(u, s, vh)


def _hermitian_svd(x: Any, compute_uv: builtins.bool) -> Any:
    w, v = _L.eigh(x)
    s = lax.abs(w)
    last = s.aval.ndim - 1
    if not compute_uv:
        return lax.rev(lax.sort(s, last), (last,))
    idx = lax.broadcasted_iota(D.default_int(), s.aval.shape, last)
    s, idx, sign = (lax.rev(a, (last,)) for a in lax.sort((s, idx, lax.sign(w)), last, num_keys=1))
    u = take_along_axis(v, lax.broadcast_in_dim(idx, v.aval.shape[:-2] + (1,) + idx.aval.shape[-1:],
                                                tuple(builtins.range(last)) + (last + 1,)), axis=-1)
    vs = lax.mul(u, lax.broadcast_in_dim(lax.convert_element_type(sign, u.aval.dtype), u.aval.shape,
                                         tuple(builtins.range(last)) + (last + 1,)))
    vh = matrix_transpose(vs)
    return SVDResult(u, s, lax.conj(vh) if D.kind(vh.aval.dtype) == 3 else vh)


def svdvals(x: Any, /) -> Any:
    """Singular values, descending.

    Args:
        x: matrices (..., M, N); integers and bool compute in the default float dtype.

    Returns:
        A real array of shape (..., min(M, N)).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.linalg.svdvals(pnp.array([[3.0, 0.0], [0.0, -4.0]])).tolist()
        [4.0, 3.0]
    """
    return _pl().svdvals(_f(x))


def trace(x: Any, /, *, offset: builtins.int = 0, dtype: Any = None) -> Any:
    """Sum of the `offset` diagonal of the last two axes.

    Args:
        x: an array of at least two dimensions.
        offset: the diagonal: 0 the main one, > 0 above, < 0 below.
        dtype: the accumulation and result dtype (None: as `sum`).

    Returns:
        An array of shape x.shape[:-2].

    Examples:
        >>> import padax.numpy as pnp
        >>> a = pnp.array([[4.0, 2.0], [2.0, 3.0]])
        >>> float(pnp.linalg.trace(a))
        7.0
    """
    return _sum(_np_diagonal(x, offset, -2, -1), axis=-1, dtype=dtype)


def vector_norm(x: Any, /, *, axis: Any = None, keepdims: builtins.bool = False, ord: Any = 2) -> Any:
    """Vector norm over `axis` (all axes if None): inf, -inf, 0, or (sum |x|^ord)^(1/ord).

    Args:
        x: an array (integers and bool: the default float).
        axis: an int, a tuple of ints, or None (all axes).
        keepdims: keep the reduced axes with size 1.
        ord: inf, -inf, 0 (count of nonzeros) or any other real p.

    Returns:
        A real array without the reduced axes.

    Examples:
        >>> import padax.numpy as pnp
        >>> x = pnp.array([3.0, -4.0])
        >>> float(pnp.linalg.vector_norm(x))
        5.0
        >>> float(pnp.linalg.vector_norm(x, ord=1))
        7.0
    """
    x = _f(x)
    if isinstance(axis, list):
        axis = tuple(axis)
    return _pl().vector_norm(x, p=ord, axis=axis, keepdim=keepdims)


def norm(x: Any, ord: Any = None, axis: Any = None, keepdims: builtins.bool = False) -> Any:
    """NumPy's norm: a vector norm (axis None on 1-D/flattened, or an int) or a matrix norm (two axes, or 2-D).

    Args:
        x: an array (integers and bool: the default float).
        ord: the vector or matrix norm order (None: 2 for vectors, 'fro' for matrices).
        axis: None, an int (vector norm) or a pair of ints (matrix norm).
        keepdims: keep the reduced axes with size 1.

    Returns:
        A real array without the reduced axes.

    Examples:
        >>> import padax.numpy as pnp
        >>> x = pnp.array([[3.0, 4.0], [6.0, 8.0]])
        >>> float(pnp.linalg.norm(x))
        11.1803
        >>> pnp.linalg.norm(x, axis=1).tolist()
        [5.0, 10.0]
    """
    x = _f(x)
    if axis is None:
        if x.aval.ndim == 2 and ord is not None:
            return _pl().matrix_norm(x, p=ord, axis=(0, 1), keepdim=keepdims)
        if ord is None or x.aval.ndim == 1:
            return _pl().vector_norm(x, p=2.0 if ord is None else ord, axis=None, keepdim=keepdims)
        raise op_value_error("linalg.norm", f"ord={ord!r} needs a 1-D or 2-D input when axis is None")
    if isinstance(axis, (tuple, list)) and len(axis) == 2:
        return _pl().matrix_norm(x, p="fro" if ord is None else ord, axis=tuple(axis), keepdim=keepdims)
    ax = axis[0] if isinstance(axis, (tuple, list)) else axis
    return _pl().vector_norm(x, p=2.0 if ord is None else ord, axis=ax, keepdim=keepdims)


def cond(x: Any, p: Any = None) -> Any:
    """Condition number (ratio of extreme singular values, or norm(x, p) * norm(inv(x), p)).

    Args:
        x: matrices (..., M, N) (square unless p is None, 2 or -2).
        p: the norm order (None: 2, the ratio of the extreme singular values).

    Returns:
        A real array of shape x.shape[:-2].

    Examples:
        >>> import padax.numpy as pnp
        >>> a = pnp.array([[4.0, 2.0], [2.0, 3.0]])
        >>> float(pnp.linalg.cond(a))
        3.8664
    """
    return _pl().cond(_f(x), p)


def lstsq(a: Any, b: Any, rcond: Any = None, *, numpy_resid: builtins.bool = False) -> tuple[Any, Any, Any, Any]:
    """Least-squares solution of a @ x = b as jax computes it: (x, residuals, rank, singular
    values) for a 2-D `a` and a 1-D or 2-D `b`, through the SVD; singular values below
    rcond * largest (default max(M, N) * eps) are dropped. residuals (squared column norms of
    b - a @ x) are always returned, unless `numpy_resid` and rank < N or M <= N (then empty,
    as NumPy's). rank has the default int dtype.

    Args:
        a: a 2-D coefficient matrix (M, N).
        b: the right-hand side (M,) or (M, K).
        rcond: the relative cutoff for small singular values (None: the default above).
        numpy_resid: return NumPy's (possibly empty) residuals.

    Returns:
        A tuple (x of shape (N,) or (N, K), residuals, rank, singular values).

    Examples:
        >>> import padax.numpy as pnp
        >>> x = pnp.array([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0]])
        >>> solution, resid, rank, sv = pnp.linalg.lstsq(x, pnp.array([1.0, 3.0, 5.0]))
        >>> solution.tolist(), int(rank)
        ([1.0, 2.0], 2)
    """
    a, b = _promote(_f(a), _f(b))
    if a.aval.ndim != 2 or b.aval.ndim not in (1, 2) or b.aval.shape[0] != a.aval.shape[0]:
        raise op_value_error("linalg.lstsq", f"needs a 2-D a and a 1-D or 2-D b with as many rows, got "
                                             f"{a.aval.str_short()} and {b.aval.str_short()}")
    vector = b.aval.ndim == 1
    if vector:
        b = lax.reshape(b, b.aval.shape + (1,))
    m, n = a.aval.shape
    u, s, vh = _pl().svd(a)
    if rcond is None:
        rcond = D.finfo(a.aval.dtype).eps * builtins.max(m, n)
    zero = _full(s.aval.shape, 0, s.aval.dtype)
    cut = lax.broadcast_in_dim(lax.mul(lax.slice(s, (0,), (1,)), rcond), s.aval.shape, (0,))
    mask = lax.bitwise_and(lax.gt(s, zero), lax.ge(s, cut))
    rank = lax.reduce_sum(lax.convert_element_type(mask, D.default_int()), (0,))
    s_inv = lax.select(mask, lax.div(_full(s.aval.shape, 1, s.aval.dtype), lax.select(mask, s, zero + 1)), zero)
    uhb = matmul(lax.conj(matrix_transpose(u)) if D.kind(u.aval.dtype) == 3 else matrix_transpose(u), b)
    scaled = lax.mul(lax.broadcast_in_dim(lax.convert_element_type(s_inv, a.aval.dtype), uhb.aval.shape, (0,)), uhb)
    vhh = lax.conj(matrix_transpose(vh)) if D.kind(vh.aval.dtype) == 3 else matrix_transpose(vh)
    x = matmul(vhh, scaled)
    if numpy_resid and (m <= n or _concrete_lt(rank, n)):
        resid = _full((0,), 0, s.aval.dtype)
    else:
        r = lax.sub(b, matmul(a, x))
        rr = lax.real(lax.mul(r, lax.conj(r))) if D.kind(r.aval.dtype) == 3 else lax.mul(r, r)
        resid = lax.reduce_sum(rr, (0,))
    if vector:
        x = lax.reshape(x, (n,))
    return x, resid, rank, s


def _concrete_lt(rank: Any, n: builtins.int) -> builtins.bool:
    """rank < n for a concrete rank (numpy_resid needs a value; under tracing it raises)."""
    if isinstance(rank, Tracer):
        raise op_value_error("linalg.lstsq", "numpy_resid=True needs a concrete rank: it is not "
                                             "available inside jit/vmap/grad")
    return builtins.int(rank) < n


def multi_dot(arrays: Any, *, out: Any = None) -> Any:
    """Product of a chain of matrices (first/last may be vectors).

    Args:
        arrays: a sequence of at least two arrays: matrices, the first and last may be 1-D.
        out: must be None (padax arrays are immutable).

    Returns:
        The product, in the promoted floating dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.linalg.multi_dot([pnp.ones((2, 3)), pnp.ones((3, 4)), pnp.ones((4, 1))]).tolist()
        [[12.0], [12.0]]
    """
    if out is not None:
        raise op_type_error("numpy.linalg.multi_dot", "out= is not supported: padax arrays are immutable; use the "
                                                      "returned array")
    arrays = list(arrays)
    if len(arrays) < 2:
        raise op_value_error("numpy.linalg.multi_dot", f"needs at least 2 arrays, got {len(arrays)}")
    return _pl().multi_dot(list(_promote(*[_f(a) for a in arrays])))


def tensorinv(a: Any, ind: builtins.int = 2) -> Any:
    """Inverse of a tensor with respect to tensordot over its first `ind` axes.

    Args:
        a: an array whose first `ind` axes have as many elements as the rest.
        ind: the number of leading axes that act as the "rows".

    Returns:
        An array of shape a.shape[ind:] + a.shape[:ind].

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.linalg.tensorinv(pnp.eye(4).reshape(4, 2, 2), ind=1).shape
        (2, 2, 4)
    """
    a = _f(a)
    lead = a.aval.shape[:ind]
    rest = a.aval.shape[ind:]
    n = math.prod(lead)
    return lax.reshape(inv(lax.reshape(a, (n, math.prod(rest)))), rest + lead)


def tensorsolve(a: Any, b: Any, axes: Any = None) -> Any:
    """x with tensordot(a, x, x.ndim) == b; `axes` are axes of `a` moved to its end first (in
    that order), as numpy does. Needs prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim]) == b.size.

    Args:
        a: the coefficient tensor.
        b: the right-hand side.
        axes: axes of a to move to its end first (None: none).

    Returns:
        x, of shape a.shape[b.ndim:] (after moving `axes`).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.linalg.tensorsolve(pnp.eye(4).reshape(2, 2, 4), pnp.ones((2, 2))).tolist()
        [1.0, 1.0, 1.0, 1.0]
    """
    a, b = _promote(_f(a), _f(b))
    if axes is not None:
        nd = a.aval.ndim
        order = list(builtins.range(nd))
        for k in (axes if isinstance(axes, (list, tuple)) else [axes]):
            k = builtins.int(k)
            if not -nd <= k < nd:
                raise op_value_error("linalg.tensorsolve", f"axis {k} is out of range for {a.aval.str_short()}")
            order.remove(k % nd)
            order.append(k % nd)
        a = lax.transpose(a, tuple(order))
    xs = a.aval.shape[b.aval.ndim:]
    m, k = math.prod(b.aval.shape), math.prod(xs)
    if a.aval.size != k * k or m != k:
        raise op_value_error("linalg.tensorsolve", f"needs prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim]) == "
                                                   f"b.size, got a {a.aval.str_short()} and b {b.aval.str_short()}")
    return lax.reshape(solve(lax.reshape(a, (m, k)), lax.reshape(b, (m,))), xs)


__all__ = ["cholesky", "cross", "det", "diagonal", "eigh", "eigvalsh", "eig", "eigvals", "inv", "matmul",
           "matrix_norm", "matrix_power", "matrix_rank", "matrix_transpose", "outer", "pinv", "qr", "slogdet",
           "solve", "svd", "svdvals", "tensordot", "trace", "vecdot", "vector_norm", "norm", "cond", "lstsq",
           "multi_dot", "tensorinv", "tensorsolve", "EighResult", "EigResult", "QRResult", "SlogdetResult",
           "SVDResult"]
