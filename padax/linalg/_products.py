"""padax.linalg's products: matrix_power, multi_dot (in the cheapest order), vecdot, matrix_transpose,
and matmul/cross/diagonal (the tensor API's, which Paddle also lists under linalg)."""
from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from padax import lax
from padax.core.errors import op_type_error, op_value_error
from padax.functional import linalg_basic as _basic, manipulation as _manip
from padax.functional._arrays import asarray, static_int
from padax.functional.math import conj, multiply
from padax.functional.reduction import sum as _sum
from padax.linalg._helpers import _eye_like, _matrix, _mm, _mT, _unsqueeze_last
from padax.linalg._solve import inv


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
    n = static_int("matrix_power", n, "n")  # 1.5 is refused, not truncated
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


matmul, cross, diagonal = _basic.matmul, _basic.cross, _manip.diagonal


def vecdot(x: Any, y: Any, axis: int = -1, name: str | None = None) -> Any:
    """sum(conj(x) * y) along `axis` (x and y broadcast together).

    Args:
        x, y: arrays broadcastable together (x is conjugated when complex).
        axis: the axis to sum over (default the last).

    Returns:
        The dot products: the broadcast shape without `axis`.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> padax.linalg.vecdot(x, padax.to_tensor([1.0, -1.0])).tolist()
        [-1.0, -1.0]
    """
    return _sum(multiply(conj(x), y), axis=axis)
