"""`padax.numpy.linalg`: the Array API standard's `linalg` extension (plus NumPy's extras).

Thin adapters over `padax.linalg` (imported when first called): they apply
padax.numpy promotion (integer inputs compute in the default floating dtype),
the standard's keyword-only signatures, and return the standard's named
tuples (EighResult, QRResult, SlogdetResult, SVDResult). Like `padax.linalg`,
failures do not raise inside compiled code: a non-positive-definite Cholesky
or a singular solve gives NaN/inf entries.
"""
from __future__ import annotations

import builtins
import importlib
import math
from typing import Any, NamedTuple

from padax import lax
from padax.core.errors import op_value_error
from padax.numpy import _dtypes as D
from padax.numpy._indexing import diagonal as _np_diagonal
from padax.numpy._linalg_core import _cross3, outer as _np_outer, tensordot, vecdot
from padax.numpy._linalg_core import matmul
from padax.numpy._manipulation import matrix_transpose
from padax.numpy._util import broadcast_shapes, broadcast_to, promote, static_int, to_array, to_inexact


def _pl():
    return importlib.import_module("padax.linalg")


class EighResult(NamedTuple):
    eigenvalues: Any
    eigenvectors: Any


class EigResult(NamedTuple):
    eigenvalues: Any
    eigenvectors: Any


class QRResult(NamedTuple):
    Q: Any
    R: Any


class SlogdetResult(NamedTuple):
    sign: Any
    logabsdet: Any


class SVDResult(NamedTuple):
    U: Any
    S: Any
    Vh: Any


def _f(x: Any) -> Any:
    return to_inexact(x)


def cholesky(x: Any, /, *, upper: builtins.bool = False) -> Any:
    """Cholesky factor (lower L with x = L L^H, or upper U = L^H)."""
    return _pl().cholesky(_f(x), upper=upper)


def cross(x1: Any, x2: Any, /, *, axis: builtins.int = -1) -> Any:
    """Cross product of 3-vectors along `axis` (other axes broadcast)."""
    a, b = promote(to_array(x1), to_array(x2))
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
    """Determinant of square matrices."""
    return _pl().det(_f(x))


def diagonal(x: Any, /, *, offset: builtins.int = 0) -> Any:
    """The `offset` diagonal of the last two axes."""
    return _np_diagonal(x, offset, -2, -1)


def eigh(x: Any, /) -> EighResult:
    """(eigenvalues ascending, eigenvectors) of Hermitian matrices (lower triangle read)."""
    w, v = _pl().eigh(_f(x))
    return EighResult(w, v)


def eigvalsh(x: Any, /) -> Any:
    """Eigenvalues (ascending) of Hermitian matrices."""
    return _pl().eigvalsh(_f(x))


def eig(x: Any, /) -> EigResult:
    """(eigenvalues, eigenvectors) of general square matrices, complex (CPU only)."""
    w, v = _pl().eig(_f(x))
    return EigResult(w, v)


def eigvals(x: Any, /) -> Any:
    """Eigenvalues of general square matrices, complex (CPU only)."""
    return _pl().eigvals(_f(x))


def inv(x: Any, /) -> Any:
    """Inverse of square matrices."""
    return _pl().inv(_f(x))


def matrix_norm(x: Any, /, *, keepdims: builtins.bool = False, ord: Any = "fro") -> Any:
    """Matrix norm over the last two axes: 'fro', 'nuc', inf, -inf, 1, -1, 2, -2."""
    return _pl().matrix_norm(_f(x), p=ord, axis=(-2, -1), keepdim=keepdims)


def matrix_power(x: Any, n: builtins.int, /) -> Any:
    """x to the integer power n (n < 0 inverts)."""
    return _pl().matrix_power(_f(x), n)


def matrix_rank(x: Any, /, *, rtol: Any = None) -> Any:
    """Number of singular values above rtol * largest (rtol default max(M, N) * eps)."""
    out = _pl().matrix_rank(_f(x), rtol=rtol)
    return out if out.aval.dtype == D.default_int() else lax.convert_element_type(out, D.default_int())


def outer(x1: Any, x2: Any, /) -> Any:
    """Outer product of two 1-D arrays."""
    a, b = to_array(x1), to_array(x2)
    if a.aval.ndim != 1 or b.aval.ndim != 1:
        raise op_value_error("linalg.outer", f"expects 1-D arrays, got {a.aval.str_short()} and {b.aval.str_short()}")
    return _np_outer(a, b)


def pinv(x: Any, /, *, rtol: Any = None) -> Any:
    """Moore-Penrose pseudo-inverse; singular values at or below rtol * largest count as zero
    (rtol default max(M, N) * eps)."""
    x = _f(x)
    if rtol is None:
        m, n = x.aval.shape[-2:]
        rtol = builtins.max(m, n) * D.finfo(x.aval.dtype).eps
    return _pl().pinv(x, rcond=rtol)


def qr(x: Any, /, *, mode: str = "reduced") -> QRResult:
    """QR decomposition ('reduced' or 'complete')."""
    if mode not in ("reduced", "complete"):
        raise ValueError(f"linalg.qr: mode must be 'reduced' or 'complete', got {mode!r}")
    q, r = _pl().qr(_f(x), mode=mode)
    return QRResult(q, r)


def slogdet(x: Any, /) -> SlogdetResult:
    """(sign, log|det|) of square matrices; logabsdet is real also for complex input."""
    out = _pl().slogdet(_f(x))
    sign, logabs = out[0], out[1]
    if D.kind(logabs.aval.dtype) == 3:
        logabs = lax.real(logabs)
    return SlogdetResult(sign, logabs)


def solve(x1: Any, x2: Any, /) -> Any:
    """Solve x1 @ out = x2; x2 of shape (M,) is one vector, otherwise (..., M, K) with batches broadcasting."""
    a, b = promote(_f(x1), _f(x2))
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


def svd(x: Any, /, *, full_matrices: builtins.bool = True) -> SVDResult:
    """(U, S, Vh) with x = U diag(S) Vh, S descending."""
    u, s, vh = _pl().svd(_f(x), full_matrices=full_matrices)
    return SVDResult(u, s, vh)


def svdvals(x: Any, /) -> Any:
    """Singular values, descending."""
    return _pl().svdvals(_f(x))


def trace(x: Any, /, *, offset: builtins.int = 0, dtype: Any = None) -> Any:
    """Sum of the `offset` diagonal of the last two axes."""
    from padax.numpy._statistical import sum as _sum
    return _sum(_np_diagonal(x, offset, -2, -1), axis=-1, dtype=dtype)


def vector_norm(x: Any, /, *, axis: Any = None, keepdims: builtins.bool = False, ord: Any = 2) -> Any:
    """Vector norm over `axis` (all axes if None): inf, -inf, 0, or (sum |x|^ord)^(1/ord)."""
    x = _f(x)
    if isinstance(axis, list):
        axis = tuple(axis)
    return _pl().vector_norm(x, p=ord, axis=axis, keepdim=keepdims)


def norm(x: Any, ord: Any = None, axis: Any = None, keepdims: builtins.bool = False) -> Any:
    """NumPy's norm: a vector norm (axis None on 1-D/flattened, or an int) or a matrix norm (two axes, or 2-D)."""
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
    """Condition number (ratio of extreme singular values, or norm(x, p) * norm(inv(x), p))."""
    return _pl().cond(_f(x), p)


def lstsq(a: Any, b: Any, rcond: Any = None) -> tuple[Any, Any, Any, Any]:
    """Least-squares solution of a @ x = b: (x, residuals, rank, singular values)."""
    a, b = promote(_f(a), _f(b))
    return tuple(_pl().lstsq(a, b, rcond=rcond, driver="gelsd"))  # numpy's answer: every output


def multi_dot(arrays: Any, *, out: Any = None) -> Any:
    """Product of a chain of matrices (first/last may be vectors)."""
    return _pl().multi_dot(list(promote(*[_f(a) for a in arrays])))


def tensorinv(a: Any, ind: builtins.int = 2) -> Any:
    """Inverse of a tensor with respect to tensordot over its first `ind` axes."""
    a = _f(a)
    lead = a.aval.shape[:ind]
    rest = a.aval.shape[ind:]
    n = math.prod(lead)
    return lax.reshape(inv(lax.reshape(a, (n, math.prod(rest)))), rest + lead)


def tensorsolve(a: Any, b: Any, axes: Any = None) -> Any:
    """x with tensordot(a, x, x.ndim) == b; `axes` are axes of `a` moved to its end first (in
    that order), as numpy does. Needs prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim]) == b.size."""
    a, b = promote(_f(a), _f(b))
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
