"""padax.linalg's Householder products: householder_product (LAPACK's orgqr: Q from the reflectors
of `qr`'s packed form) and ormqr (op(Q) times a matrix)."""
from __future__ import annotations

from typing import Any

import numpy as np

from padax import dtypes, lax
from padax.core.errors import op_value_error
from padax.functional._arrays import asarray, full
from padax.linalg._helpers import _eye_like, _matrix, _mm


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
    x = _matrix(op, x, square=False)
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
    q = _eye_like(tuple(batch) + (m, n), x.aval.dtype)
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
    y = _matrix("ormqr", y, "y", square=False)
    q = householder_product(x, tau)
    if transpose:
        nd = q.aval.ndim
        q = lax.transpose(q, tuple(range(nd - 2)) + (nd - 1, nd - 2))
    inner = q.aval.shape[-1] if left else q.aval.shape[-2]
    if (y.aval.shape[-2] if left else y.aval.shape[-1]) != inner:
        raise op_value_error("linalg.ormqr", f"y {y.aval.str_short()} does not fit op(Q) of shape "
                                             f"{list(q.aval.shape[-2:])} on the {'left' if left else 'right'}")
    return _mm(q, y) if left else _mm(y, q)
