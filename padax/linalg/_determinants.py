"""padax.linalg's determinants: det and slogdet, from the LU factorisation."""
from __future__ import annotations

from typing import Any

import numpy as np

from padax import lax
from padax.functional._arrays import full
from padax.functional.lax import linalg as _L
from padax.linalg._helpers import _cast, _diag, _is_complex, _matrix, _scalar, _where


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
