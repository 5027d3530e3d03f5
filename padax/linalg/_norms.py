"""padax.linalg's norms and what is measured with singular values: vector_norm, matrix_norm,
norm, cond and matrix_rank."""
from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from padax import dtypes, lax
from padax.core.errors import op_type_error, op_value_error
from padax.functional import linalg_basic as _basic
from padax.functional._arrays import asarray, broadcast_to, canonicalize_axis, full
from padax.functional._checks import write_out
from padax.functional.lax import linalg as _L
from padax.linalg._decompositions import _hermitian_eigh
from padax.linalg._helpers import _INEXACT_NAMES, _bcast_last, _cast, _is_complex, _matrix, _scalar
from padax.linalg._solve import inv


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
    if out is not None:
        result = vector_norm(
            x=x, p=p, axis=axis, keepdim=keepdim, name=name, dtype=dtype)
        return write_out(out, result, "linalg.vector_norm")
    if dtype is not None:
        x = _cast(asarray(x), dtypes.canonicalize_dtype(dtypes.to_dtype(dtype)))
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
    if out is not None:
        return write_out(out, norm(x=x, p=p, axis=axis, keepdim=keepdim, dtype=dtype, name=name), "linalg.norm")
    if dtype is not None:
        x = _cast(asarray(x), dtypes.canonicalize_dtype(dtypes.to_dtype(dtype)))
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
    return lax.reduce_sum(lax.convert_element_type(above, dtypes.canonicalize_dtype(dtypes.int64)), ax)
