"""jax.numpy's histograms: histogram_bin_edges, histogram, histogram2d and histogramdd."""
from __future__ import annotations

import builtins
from typing import Any

import numpy as np

import padax.numpy as pnp
from padax.core.errors import op_value_error
from padax.numpy import _dtypes as D
from padax.numpy._util import promote, promote_inexact, static_int, to_array, to_inexact


def _edges(op: str, a: Any, bins: Any, range: Any) -> Any:
    dt = to_inexact(a).dtype
    if not isinstance(bins, (builtins.int, np.integer)):
        e = to_array(bins, dt)
        if e.ndim != 1:
            raise op_value_error(op, f"bins must be an int or a 1-D array, got {e.aval.str_short()}")
        return e
    n = static_int(op, bins, "bins")
    if n < 1:
        raise op_value_error(op, f"bins must be positive, got {n}")
    a = pnp.astype(to_array(a), dt)
    lo, hi = (pnp.min(a), pnp.max(a)) if range is None else (to_array(range[0], dt), to_array(range[1], dt))
    same = pnp.equal(lo, hi)
    lo = pnp.where(same, lo - 0.5, lo)
    hi = pnp.where(same, hi + 0.5, hi)
    t = pnp.arange(n, dtype=dt) / n  # as jax's linspace: start * (1 - t) + stop * t, the last edge exact
    return pnp.concatenate([lo * (1 - t) + hi * t, pnp.reshape(hi, (1,))])


def histogram_bin_edges(a: Any, bins: Any = 10, range: Any = None, weights: Any = None) -> Any:
    """The bin edges `histogram` uses: `bins` + 1 equal steps over `range` (default: a's min and max).

    Args:
        a: the data (any shape; flattened).
        bins: the number of bins, or the edges themselves (returned as an array).
        range: (low, high) of the bins; a's min and max by default (widened by 0.5 when they are equal).
        weights: unused (NumPy's signature).

    Returns:
        A 1-D floating array of bins + 1 edges.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.histogram_bin_edges(pnp.array([0.0, 1.0, 4.0]), bins=4).tolist()
        [0.0, 1.0, 2.0, 3.0, 4.0]
    """
    return _edges("histogram_bin_edges", a, bins, range)


def histogram(a: Any, bins: Any = 10, range: Any = None, weights: Any = None, density: bool | None = None) -> Any:
    """Counts (or weight sums) of the values of a in each bin; the last bin includes its right edge.

    Args:
        a: the data (any shape; flattened).
        bins: the number of equal bins, or their edges (a 1-D increasing array).
        range: (low, high) of equal bins; a's min and max by default. Values outside are not counted.
        weights: one weight per value of a (default 1).
        density: normalise so that the histogram integrates to 1 over the range.

    Returns:
        (hist, bin_edges): hist has one floating entry per bin.

    Examples:
        >>> import padax.numpy as pnp
        >>> h, e = pnp.histogram(pnp.array([0.0, 0.5, 1.0, 3.0]), bins=3)
        >>> h.tolist(), e.tolist()
        ([2.0, 1.0, 1.0], [0.0, 1.0, 2.0, 3.0])
    """
    a = to_inexact(a)
    w = pnp.ones(a.shape, a.dtype) if weights is None else promote_inexact(a, weights)[1]
    hist, edges = _histogramdd("histogram", pnp.reshape(a, (-1, 1)), [bins], None if range is None else [range], w,
                               density)
    return hist, edges[0]


def histogram2d(x: Any, y: Any, bins: Any = 10, range: Any = None, weights: Any = None,
                density: bool | None = None) -> Any:
    """2-D histogram of the points (x[i], y[i]).

    Args:
        x, y: 1-D arrays of the points' coordinates.
        bins: an int, a pair of ints, 1-D edges for both, or a pair of edges.
        range: ((xlow, xhigh), (ylow, yhigh)); the data's extent by default.
        weights: one weight per point.
        density: normalise so that the histogram integrates to 1.

    Returns:
        (hist, xedges, yedges) with hist of shape (x bins, y bins) (int64 counts, or weights' dtype).

    Examples:
        >>> import padax.numpy as pnp
        >>> h, xe, ye = pnp.histogram2d(pnp.array([0.0, 1.0, 1.0]), pnp.array([0.0, 0.0, 1.0]), bins=2)
        >>> h.tolist()
        [[1, 0], [1, 1]]
    """
    if isinstance(bins, (builtins.int, np.integer)) or (not isinstance(bins, (list, tuple))
                                                       and to_array(bins).ndim == 1):
        bins = [bins, bins]
    elif isinstance(bins, (list, tuple)) and len(bins) != 2:
        bins = [bins, bins]
    xa, ya = promote(to_array(x), to_array(y))
    hist, edges = _histogramdd("histogram2d", pnp.stack([xa, ya], axis=1), bins, range, weights, density)
    return hist, edges[0], edges[1]


def histogramdd(sample: Any, bins: Any = 10, range: Any = None, weights: Any = None,
                density: bool | None = None) -> Any:
    """D-dimensional histogram of the N points in the rows of sample (N, D).

    Args:
        sample: (N, D) array of points (a 1-D array: N points in 1 dimension).
        bins: an int for every dimension, or a list of ints / 1-D edges, one per dimension.
        range: a list of (low, high) per dimension (None entries: the data's extent).
        weights: one weight per point.
        density: normalise so that the histogram integrates to 1.

    Returns:
        (hist, edges): hist of shape (bins per dimension) (int64 counts, or weights' dtype), edges a list of
        D 1-D arrays.

    Examples:
        >>> import padax.numpy as pnp
        >>> h, (e0, e1) = pnp.histogramdd(pnp.array([[0.0, 0.0], [1.0, 1.0], [1.0, 0.0]]), bins=2)
        >>> h.tolist()
        [[1, 0], [1, 1]]
    """
    return _histogramdd("histogramdd", sample, bins, range, weights, density)


def _histogramdd(_op: str, sample: Any, bins: Any, range: Any, weights: Any, density: Any) -> Any:
    """histogramdd, its errors naming `_op` (histogram and histogram2d call it too)."""
    s = to_array(sample)
    if s.ndim == 1:
        s = s[:, None]
    if s.ndim != 2:
        raise op_value_error(_op, f"sample must be (N, D), got {s.aval.str_short()}")
    n, d = s.shape
    s = to_inexact(s)
    bins_l = [bins] * d if isinstance(bins, (builtins.int, np.integer)) else list(bins)
    if len(bins_l) != d:
        raise op_value_error(_op, f"bins has {len(bins_l)} entries for {d} dimensions")
    ranges = [None] * d if range is None else list(range)
    edges = [_edges(_op, s[:, i], bins_l[i], ranges[i]) for i in builtins.range(d)]
    sizes = [e.shape[0] + 1 for e in edges]
    flat = None
    for i, e in enumerate(edges):
        col = s[:, i]
        idx = pnp.searchsorted(e, col, side="right")
        idx = pnp.where(pnp.equal(col, e[-1]), idx - 1, idx)
        flat = idx if flat is None else flat * sizes[i] + idx
    total = builtins.int(np.prod(sizes))
    w = None if weights is None else pnp.ravel(to_array(weights))
    if n:
        hist = pnp.bincount(flat, weights=w, length=total)
    else:
        hist = pnp.zeros((total,), D.default_int() if w is None else w.dtype)
    hist = pnp.reshape(hist, tuple(sizes))
    hist = hist[tuple(slice(1, -1) for _ in builtins.range(d))]
    if density:
        hist = pnp.divide(hist, pnp.sum(hist))
        for i, e in enumerate(edges):
            shape = [1] * d
            shape[i] = e.shape[0] - 1
            hist = pnp.divide(hist, pnp.reshape(pnp.diff(e), tuple(shape)))
    return hist, edges


__all__ = ["histogram_bin_edges", "histogram", "histogram2d", "histogramdd"]
