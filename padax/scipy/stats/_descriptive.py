"""Descriptive statistics: mode, rankdata, pearsonr (scipy.stats names and results)."""
from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from padax import lax, numpy as pnp
from padax.core.errors import op_value_error
from padax.numpy._util import to_array
from padax.scipy.special import betainc
from padax.scipy.special._base import inexact_args


class ModeResult(NamedTuple):
    """`mode`'s result: the most frequent value (the smallest on a tie) and how often it occurs.

    Args:
        mode: the most frequent values.
        count: their counts (int64).

    Examples:
        >>> import padax
        >>> from padax.scipy import stats
        >>> res = stats.mode(padax.to_tensor([1, 2, 2, 3]))
        >>> int(res.mode), int(res.count)
        (2, 2)
    """
    mode: Any
    count: Any


class PearsonRResult(NamedTuple):
    """`pearsonr`'s result: the correlation coefficient and its p-value under the null of no correlation.

    Args:
        statistic: the correlation coefficient r.
        pvalue: the p-value for the chosen alternative.

    Examples:
        >>> import padax
        >>> from padax.scipy import stats
        >>> r = stats.pearsonr(padax.to_tensor([1.0, 2.0, 3.0, 4.0]), padax.to_tensor([1.0, 3.0, 2.0, 5.0]))
        >>> round(float(r.statistic), 4), round(float(r.pvalue), 4)  # as scipy
        (0.8315, 0.1685)
    """
    statistic: Any
    pvalue: Any


def _runs(s):
    """For a sorted last axis: the length of the run of equal values ending at each position."""
    n = s.shape[-1]
    idx = pnp.broadcast_to(pnp.arange(n), s.shape)
    new = pnp.concatenate([pnp.ones(s.shape[:-1] + (1,), dtype=bool), s[..., 1:] != s[..., :-1]], axis=-1)
    start = lax.cummax(pnp.where(new, idx, 0), axis=s.ndim - 1)
    return idx - start + 1, new, idx, start


def mode(a: Any, axis: int | None = 0, nan_policy: str = "propagate", keepdims: bool = False) -> ModeResult:
    """The most common value along `axis` (the smallest of equally common ones) and its count.

    Args:
        a: the input array.
        axis: the axis to search along (default 0); None flattens a first.
        nan_policy: only 'propagate' is supported.
        keepdims: keep the reduced axis with size 1.

    Returns:
        A ModeResult (mode, count) with `axis` removed.

    Examples:
        >>> import padax
        >>> from padax.scipy import stats
        >>> x = padax.to_tensor([[1, 2], [1, 3], [2, 3]])
        >>> res = stats.mode(x, axis=0)
        >>> res.mode.tolist(), res.count.tolist()
        ([1, 3], [2, 2])
    """
    if nan_policy != "propagate":
        raise op_value_error("mode", f"only nan_policy='propagate' is supported, got {nan_policy!r}")
    x = to_array(a)
    whole, ndim = axis is None, x.ndim
    if axis is None:
        x, axis = pnp.ravel(x), 0
    axis = axis % max(x.ndim, 1)
    x = pnp.moveaxis(x, axis, -1)
    s = pnp.sort(x, axis=-1)
    count, _, _, _ = _runs(s)
    best = pnp.argmax(count, axis=-1)[..., None]
    m = pnp.take_along_axis(s, best, axis=-1)[..., 0]
    c = pnp.take_along_axis(count, best, axis=-1)[..., 0]
    if keepdims:
        if whole:
            m, c = pnp.reshape(m, (1,) * ndim), pnp.reshape(c, (1,) * ndim)
        else:
            m, c = pnp.expand_dims(m, axis), pnp.expand_dims(c, axis)
    return ModeResult(m, c)


_RANK_METHODS = ("average", "min", "max", "dense", "ordinal")


def rankdata(a: Any, method: str = "average", *, axis: int | None = None, nan_policy: str = "propagate") -> Any:
    """Ranks (from 1) of the data, ties resolved by `method` (average, min, max, dense, ordinal).

    Args:
        a: the input array.
        method: 'average' (default), 'min', 'max', 'dense' or 'ordinal'.
        axis: the axis to rank along; None (default) flattens a first.
        nan_policy: only 'propagate' is supported.

    Returns:
        The ranks, shaped like a (flattened for axis=None): float for 'average', int64 otherwise.

    Examples:
        >>> import padax
        >>> from padax.scipy import stats
        >>> stats.rankdata(padax.to_tensor([10.0, 30.0, 20.0, 20.0])).tolist()
        [1.0, 4.0, 2.5, 2.5]
        >>> stats.rankdata(padax.to_tensor([10.0, 30.0, 20.0, 20.0]), method='min').tolist()
        [1, 4, 2, 2]
    """
    if method not in _RANK_METHODS:
        raise op_value_error("rankdata", f"method must be one of {_RANK_METHODS}, got {method!r}")
    if nan_policy != "propagate":
        raise op_value_error("rankdata", f"only nan_policy='propagate' is supported, got {nan_policy!r}")
    x = to_array(a)
    if axis is None:
        x, axis = pnp.ravel(x), 0
    axis = axis % max(x.ndim, 1)
    x = pnp.moveaxis(x, axis, -1)
    order = pnp.argsort(x, axis=-1, stable=True)
    s = pnp.take_along_axis(x, order, axis=-1)
    n = s.shape[-1]
    _, new, idx, start = _runs(s)
    # the end of each run: the next run's start - 1, found by a reversed cumulative minimum
    nxt = pnp.where(pnp.concatenate([new[..., 1:], pnp.ones(s.shape[:-1] + (1,), dtype=bool)], axis=-1), idx,
                    n - 1)
    end = pnp.flip(lax.cummin(pnp.flip(nxt, axis=-1), axis=s.ndim - 1), axis=-1)
    dense = pnp.cumsum(new.astype(np.int64), axis=-1)
    by_method = {"ordinal": idx + 1, "min": start + 1, "max": end + 1, "dense": dense,
                 "average": 0.5 * (start + end) + 1.0}
    sorted_ranks = by_method[method]
    inv = pnp.argsort(order, axis=-1)
    ranks = pnp.take_along_axis(sorted_ranks, inv, axis=-1)
    if method == "average":
        ranks = ranks.astype(pnp.result_type(float))
    return pnp.moveaxis(ranks, -1, axis)


def pearsonr(x: Any, y: Any, *, alternative: str = "two-sided", axis: int = 0) -> PearsonRResult:
    """Pearson's correlation coefficient and the p-value of testing it against 0 (exact for normal data).

    Args:
        x, y: the samples, broadcast together (at least 2 along `axis`).
        alternative: 'two-sided' (default), 'less' or 'greater'.
        axis: the axis holding the samples (default 0).

    Returns:
        A PearsonRResult (statistic, pvalue), with `axis` removed.

    Examples:
        >>> import padax
        >>> from padax.scipy import stats
        >>> x = padax.to_tensor([1.0, 2.0, 3.0, 4.0])
        >>> res = stats.pearsonr(x, padax.to_tensor([1.0, 3.0, 2.0, 5.0]))
        >>> float(res.statistic)
        0.8315
        >>> float(res.pvalue)
        0.1685
    """
    if alternative not in ("two-sided", "less", "greater"):
        raise op_value_error("pearsonr", f"alternative must be 'two-sided', 'less' or 'greater', got {alternative!r}")
    x, y = inexact_args("pearsonr", x, y)
    x, y = pnp.moveaxis(x, axis, -1), pnp.moveaxis(y, axis, -1)
    n = x.shape[-1]
    if n < 2:
        raise op_value_error("pearsonr", f"x and y need at least 2 elements along the axis, got {n}")
    xm = x - pnp.mean(x, axis=-1, keepdims=True)
    ym = y - pnp.mean(y, axis=-1, keepdims=True)
    xn = xm / pnp.linalg.norm(xm, axis=-1, keepdims=True)
    yn = ym / pnp.linalg.norm(ym, axis=-1, keepdims=True)
    r = pnp.clip(pnp.sum(xn * yn, axis=-1), -1.0, 1.0)
    if n == 2:
        return PearsonRResult(r, pnp.ones_like(r))
    half = n / 2.0 - 1.0
    # under H0, (r + 1) / 2 ~ Beta(n/2 - 1, n/2 - 1)
    cdf_r = betainc(pnp.full_like(r, half), pnp.full_like(r, half), pnp.clip(0.5 * (r + 1.0), 0.0, 1.0))
    sf_r = betainc(pnp.full_like(r, half), pnp.full_like(r, half), pnp.clip(0.5 * (1.0 - r), 0.0, 1.0))
    if alternative == "less":
        p = cdf_r
    elif alternative == "greater":
        p = sf_r
    else:
        p = pnp.minimum(2.0 * pnp.minimum(cdf_r, sf_r), 1.0)
    return PearsonRResult(r, p)


__all__ = ["mode", "rankdata", "pearsonr", "ModeResult", "PearsonRResult"]
