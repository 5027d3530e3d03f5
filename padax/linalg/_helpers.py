"""padax.linalg's argument checks and small matrix helpers (transposes, identities, diagonals,
broadcasting of batch dimensions and of vectors against matrices)."""
from __future__ import annotations

from typing import Any

import numpy as np

from padax import dtypes, lax
from padax.core.errors import op_type_error
from padax.functional import linalg_basic as _basic
from padax.functional._arrays import asarray, broadcast_shapes, broadcast_to, full
from padax.functional.lax import linalg as _L

_INEXACT_NAMES = _L.INEXACT_NAMES


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
