"""jax.numpy's NaN-ignoring functions beyond the reductions: nanargmax/nanargmin, nancumsum/nancumprod,
nanquantile, nanpercentile and nanmedian."""
from __future__ import annotations

import builtins
from typing import Any

import numpy as np

import padax.numpy as pnp
from padax.core.errors import op_value_error
from padax.numpy import _dtypes as D
from padax.numpy._util import axes as _axes, to_array, to_inexact


def _nanarg(op: str, a: Any, axis: Any, keepdims: Any, fill: float) -> Any:
    a = to_array(a)
    find = pnp.argmax if fill < 0 else pnp.argmin
    if D.kind(a.dtype) < 2:
        return find(a, axis=axis, keepdims=builtins.bool(keepdims))
    nan = pnp.isnan(a)
    res = find(pnp.where(nan, fill, a), axis=axis, keepdims=builtins.bool(keepdims))
    return pnp.where(pnp.all(nan, axis=axis, keepdims=builtins.bool(keepdims)), -1, res)


def nanargmax(a: Any, axis: int | None = None, out: None = None, keepdims: bool | None = None) -> Any:
    """Index of the maximum ignoring NaN (-1 where all are NaN, as jax).

    Args:
        a: a real array.
        axis: the axis to search (None: the flattened array).
        out: unused (NumPy's signature).
        keepdims: keep the searched axis with size 1.

    Returns:
        An int64 array of indices.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.nanargmax(pnp.array([1.0, pnp.nan, 3.0, 2.0])).tolist()
        2
    """
    return _nanarg("nanargmax", a, axis, keepdims, -np.inf)


def nanargmin(a: Any, axis: int | None = None, out: None = None, keepdims: bool | None = None) -> Any:
    """Index of the minimum ignoring NaN (-1 where all are NaN, as jax).

    Args:
        a: a real array.
        axis: the axis to search (None: the flattened array).
        out: unused (NumPy's signature).
        keepdims: keep the searched axis with size 1.

    Returns:
        An int64 array of indices.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.nanargmin(pnp.array([[1.0, pnp.nan], [0.0, 2.0]]), axis=0).tolist()
        [1, 1]
    """
    return _nanarg("nanargmin", a, axis, keepdims, np.inf)


def _nan_as(a: Any, value: Any) -> Any:
    a = to_array(a)
    return pnp.where(pnp.isnan(a), value, a) if D.kind(a.dtype) >= 2 else a


def nancumsum(a: Any, axis: int | None = None, dtype: Any = None, out: None = None) -> Any:
    """Cumulative sum treating NaN as zero.

    Args:
        a: an array.
        axis: the axis to scan (None: the flattened array).
        dtype: the accumulation and result dtype.
        out: unused (NumPy's signature).

    Returns:
        An array of a's shape (flattened when axis is None).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.nancumsum(pnp.array([1.0, pnp.nan, 2.0])).tolist()
        [1.0, 1.0, 3.0]
    """
    return pnp.cumsum(_nan_as(a, 0), axis=axis, dtype=dtype)


def nancumprod(a: Any, axis: int | None = None, dtype: Any = None, out: None = None) -> Any:
    """Cumulative product treating NaN as one.

    Args:
        a: an array.
        axis: the axis to scan (None: the flattened array).
        dtype: the accumulation and result dtype.
        out: unused (NumPy's signature).

    Returns:
        An array of a's shape (flattened when axis is None).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.nancumprod(pnp.array([2.0, pnp.nan, 3.0])).tolist()
        [2.0, 2.0, 6.0]
    """
    return pnp.cumprod(_nan_as(a, 1), axis=axis, dtype=dtype)


_NANQ_METHODS = ("linear", "lower", "higher", "nearest", "midpoint")


def nanquantile(a: Any, q: Any, axis: Any = None, out: None = None, overwrite_input: bool = False,
                method: str = "linear", keepdims: bool = False, *, weights: Any = None) -> Any:
    """q-th quantiles (q in [0, 1]) over `axis` ignoring NaN (NaN where all are NaN).

    Args:
        a: an array (integers and bool: the default float).
        q: a quantile or an array of them, in [0, 1].
        axis: an int, a tuple of ints, or None (all axes).
        out, overwrite_input: unused (NumPy's signature).
        method: 'linear', 'lower', 'higher', 'nearest' or 'midpoint'.
        keepdims: keep the reduced axes with size 1.
        weights: not supported (must be None); use `quantile` with method 'inverted_cdf'.

    Returns:
        A floating array of shape q.shape + the unreduced shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.nanquantile(pnp.array([1.0, pnp.nan, 2.0, 3.0]), 0.25).tolist()
        1.5
    """
    if method not in _NANQ_METHODS:
        raise op_value_error("nanquantile", f"unsupported method {method!r}; use one of {_NANQ_METHODS}")
    if weights is not None:
        raise op_value_error("nanquantile", "weights are not supported; use quantile(..., method='inverted_cdf')")
    a = to_inexact(a)
    nd = a.ndim
    ax = _axes("nanquantile", axis, nd)
    rest = [i for i in builtins.range(nd) if i not in ax]
    n = builtins.int(np.prod([a.shape[i] for i in ax]))
    x = pnp.reshape(pnp.permute_dims(a, tuple(rest) + ax), (-1, n))
    xs = pnp.sort(x, axis=-1)
    cnt = pnp.astype(pnp.sum(pnp.logical_not(pnp.isnan(x)), axis=-1), a.dtype)
    qa = to_array(q, a.dtype)
    qshape = qa.shape
    qf = pnp.reshape(qa, (-1,))
    pos = pnp.maximum(cnt[:, None] - 1, 0) * qf[None, :]
    lo, hi = pnp.floor(pos), pnp.ceil(pos)

    def at(p):
        return pnp.take_along_axis(xs, pnp.clip(pnp.astype(p, D.int64), 0, n - 1), axis=-1)

    vlo, vhi = at(lo), at(hi)
    if method == "lower":
        res = vlo
    elif method == "higher":
        res = vhi
    elif method == "midpoint":
        res = (vlo + vhi) * 0.5
    elif method == "nearest":
        res = at(pnp.round(pos))
    else:
        t = pos - lo
        dlt = vhi - vlo
        res = pnp.where(t >= 0.5, vhi - dlt * (1 - t), vlo + dlt * t)
        res = pnp.where(pnp.equal(vlo, vhi), vlo, res)
    res = pnp.where(cnt[:, None] == 0, np.nan, res)
    res = pnp.permute_dims(res, (1, 0))
    rest_shape = tuple(1 if i in ax else s for i, s in enumerate(a.shape)) if keepdims else \
        tuple(a.shape[i] for i in rest)
    return pnp.reshape(res, qshape + rest_shape)


def nanpercentile(a: Any, q: Any, axis: Any = None, out: None = None, overwrite_input: bool = False,
                  method: str = "linear", keepdims: bool = False, *, weights: Any = None) -> Any:
    """q-th percentiles (q in [0, 100]) over `axis` ignoring NaN (as nanquantile).

    Args:
        a: an array (integers and bool: the default float).
        q: a percentile or an array of them, in [0, 100].
        axis: an int, a tuple of ints, or None (all axes).
        out, overwrite_input: unused (NumPy's signature).
        method: as `nanquantile`.
        keepdims: keep the reduced axes with size 1.
        weights: not supported (must be None).

    Returns:
        A floating array of shape q.shape + the unreduced shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.nanpercentile(pnp.array([1.0, pnp.nan, 2.0, 3.0]), 50).tolist()
        2.0
    """
    qa = to_array(q, to_inexact(a).dtype)
    return nanquantile(a, qa / 100.0, axis, out, overwrite_input, method, keepdims, weights=weights)


def nanmedian(a: Any, axis: Any = None, out: None = None, overwrite_input: bool = False,
              keepdims: bool = False) -> Any:
    """Median over `axis` ignoring NaN (NaN where all are NaN).

    Args:
        a: an array (integers and bool: the default float).
        axis: an int, a tuple of ints, or None (all axes).
        out, overwrite_input: unused (NumPy's signature).
        keepdims: keep the reduced axes with size 1.

    Returns:
        A floating array without the reduced axes.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.nanmedian(pnp.array([[1.0, pnp.nan, 3.0], [4.0, 5.0, 9.0]]), axis=1).tolist()
        [2.0, 5.0]
    """
    return nanquantile(a, 0.5, axis, keepdims=keepdims)


__all__ = ["nanargmax", "nanargmin", "nancumsum", "nancumprod", "nanquantile", "nanpercentile", "nanmedian"]
