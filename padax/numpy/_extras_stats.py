"""jax.numpy's statistics, histogram, set, polynomial, window and ordering helpers (cov, histogram,
nanquantile, intersect1d, polyfit, gradient, hanning, lexsort, partition, ...), as composites of
padax.numpy functions, so they work eagerly and under jit/grad/vmap (those with data-dependent
output shapes run eagerly, or under jit with a static `size=`)."""
from __future__ import annotations

import builtins
import math
from typing import Any, Sequence

import numpy as np

import padax.numpy as pnp
from padax import lax
from padax.core.errors import op_type_error, op_value_error
from padax.core.trace import Tracer
from padax.numpy import _dtypes as D
from padax.numpy._util import promote, real_dtype, static_int, to_array, to_inexact


def _inexact(*xs: Any) -> list[Any]:
    """Arrays promoted to one dtype, integers and bool as the default float."""
    out = promote(*[to_array(x) if not isinstance(x, (builtins.int, builtins.float, builtins.complex)) else x
                    for x in xs])
    return [to_inexact(o) for o in out]


def _concrete(op: str, x: Any) -> np.ndarray:
    """Host values of x for ops whose output shape depends on them (eager only)."""
    if isinstance(x, Tracer):
        raise op_value_error(op, "needs concrete values (its result's shape depends on them); call it outside "
                                 "jit, or pass a static size= where the function takes one")
    return np.asarray(x)


# ---- covariance ---------------------------------------------------------------------------------

def _rows(x: Any, rowvar: bool, dtype: Any) -> Any:
    x = to_array(x) if dtype is None else to_array(x, dtype)
    if x.ndim > 2:
        raise op_value_error("cov", f"m and y must be at most 2-D, got {x.aval.str_short()}")
    x = pnp.reshape(x, (1, -1)) if x.ndim < 2 else x
    return x.T if not rowvar and x.shape[0] != 1 else x


def cov(m: Any, y: Any = None, rowvar: bool = True, bias: bool = False, ddof: int | None = None,
        fweights: Any = None, aweights: Any = None, dtype: Any = None) -> Any:
    """Covariance matrix of the variables in the rows (or columns) of m (and y), optionally weighted.

    Args:
        m: 1-D or 2-D array; each row a variable, each column an observation (`rowvar=False`: transposed).
        y: more variables, stacked below m's.
        rowvar: rows are variables (True) or columns are.
        bias: normalise by N (True) instead of N - 1; `ddof` overrides it.
        ddof: the divisor is N - ddof.
        fweights, aweights: 1-D integer frequency weights and real observation weights.
        dtype: the dtype to compute in.

    Returns:
        The (variables, variables) covariance matrix, squeezed (a scalar for one variable).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.cov(pnp.array([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]])).tolist()
        [[1.0, -1.0], [-1.0, 1.0]]
    """
    x = _rows(m, rowvar, dtype)
    if y is not None:
        x = pnp.concatenate([x, _rows(y, rowvar, dtype)], axis=0)
    x = to_inexact(x)
    if ddof is None:
        ddof = 0 if bias else 1
    w = None
    if fweights is not None:
        w = to_array(fweights)
    if aweights is not None:
        aw = to_array(aweights)
        w = aw if w is None else pnp.multiply(w, aw)
    if w is None:
        avg = pnp.mean(x, axis=1)
        fact = x.shape[1] - ddof
    else:
        w = pnp.astype(w, real_dtype(x.dtype))
        w_sum = pnp.sum(w)
        avg = pnp.divide(pnp.sum(pnp.multiply(x, w), axis=1), w_sum)
        if ddof == 0:
            fact = w_sum
        elif aweights is None:
            fact = w_sum - ddof
        else:
            fact = w_sum - ddof * pnp.sum(pnp.multiply(w, pnp.astype(to_array(aweights), w.dtype))) / w_sum
    fact = pnp.maximum(fact, 0) if not isinstance(fact, builtins.int) else builtins.max(fact, 0)
    xc = pnp.subtract(x, avg[:, None])
    xt = xc if w is None else pnp.multiply(xc, w)
    c = pnp.matmul(xc, pnp.conj(xt).T)
    return pnp.squeeze(pnp.divide(c, pnp.astype(to_array(fact), c.dtype) if not isinstance(fact, builtins.int)
                                  else c.dtype.type(fact)))


def corrcoef(x: Any, y: Any = None, rowvar: bool = True, dtype: Any = None) -> Any:
    """Pearson correlation coefficients of the variables in the rows (or columns) of x (and y).

    Args:
        x: 1-D or 2-D array; each row a variable (`rowvar=False`: each column).
        y: more variables, stacked below x's.
        rowvar: rows are variables (True) or columns are.
        dtype: the dtype to compute in.

    Returns:
        The (variables, variables) correlation matrix, entries clipped to [-1, 1].

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.corrcoef(pnp.array([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]])).tolist()
        [[1.0, -1.0], [-1.0, 1.0]]
    """
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return pnp.divide(c, c)
    d = pnp.sqrt(pnp.real(pnp.diagonal(c)) if D.kind(c.dtype) == 3 else pnp.diagonal(c))
    d = pnp.astype(d, c.dtype)
    c = pnp.divide(pnp.divide(c, d[:, None]), d[None, :])
    if D.kind(c.dtype) == 3:
        return pnp.astype(pnp.clip(pnp.real(c), -1, 1), c.dtype) + 1j * pnp.clip(pnp.imag(c), -1, 1)
    return pnp.clip(c, -1, 1)


# ---- histograms ---------------------------------------------------------------------------------

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
    w = pnp.ones(a.shape, a.dtype) if weights is None else _inexact(a, weights)[1]
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


# ---- NaN-ignoring functions ----------------------------------------------------------------------


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
    from padax.numpy._util import axes as _axes
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


# ---- set operations -----------------------------------------------------------------------------

def _first(s: Any) -> Any:
    """Mask of the first element of each run of equal values of the sorted 1-D s."""
    if s.shape[0] == 0:
        return pnp.zeros((0,), dtype=D.bool_)
    return pnp.concatenate([pnp.ones((1,), dtype=D.bool_), pnp.not_equal(s[1:], s[:-1])])


def _compact(op: str, vals: Any, keep: Any, size: Any, fill_value: Any, default_fill: Any) -> Any:
    """vals[keep] (eager), or its first `size` entries padded with the fill value (jit-able)."""
    if size is None:
        return vals[pnp.nonzero(to_array(_concrete(op, keep)))[0]] if vals.shape[0] else vals
    size = static_int(op, size, "size")
    if vals.shape[0] == 0:
        return pnp.full((size,), 0 if fill_value is None else fill_value, dtype=vals.dtype)
    idx = pnp.nonzero(keep, size=size, fill_value=0)[0]
    out = pnp.take(vals, idx, axis=0)
    valid = pnp.arange(size) < pnp.sum(keep)
    if fill_value is None:
        fill_value = default_fill(out, valid)
    return pnp.where(valid, out, pnp.astype(to_array(fill_value), vals.dtype))


def _min_valid(out: Any, valid: Any) -> Any:
    """jax's default fill of intersect1d/setxor1d: the smallest result (0 when there is none)."""
    return pnp.where(pnp.any(valid), out[0], pnp.zeros((), out.dtype))


def _zero(out: Any, valid: Any) -> Any:
    return pnp.zeros((), out.dtype)


def union1d(ar1: Any, ar2: Any, *, size: int | None = None, fill_value: Any = None) -> Any:
    """Sorted unique values that are in either array.

    Args:
        ar1, ar2: arrays (flattened).
        size: a static result length (needed under jit); pads with fill_value (default: the smallest value).
        fill_value: the padding value.

    Returns:
        A 1-D array.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.union1d(pnp.array([3, 1]), pnp.array([2, 1])).tolist()
        [1, 2, 3]
    """
    a, b = promote(pnp.ravel(to_array(ar1)), pnp.ravel(to_array(ar2)))
    return pnp.unique(pnp.concatenate([a, b]), size=size, fill_value=fill_value)


def setdiff1d(ar1: Any, ar2: Any, assume_unique: bool = False, *, size: int | None = None,
              fill_value: Any = None) -> Any:
    """Unique values of ar1 not in ar2 (sorted; with assume_unique in ar1's order).

    Args:
        ar1, ar2: arrays (flattened).
        assume_unique: ar1 has no repeated values (keeps its order).
        size: a static result length (needed under jit); pads with fill_value (default 0).
        fill_value: the padding value.

    Returns:
        A 1-D array of ar1's dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.setdiff1d(pnp.array([5, 1, 3, 1]), pnp.array([3, 4])).tolist()
        [1, 5]
    """
    a = pnp.ravel(to_array(ar1))
    b = pnp.ravel(to_array(ar2))
    s = a if assume_unique else pnp.sort(a)
    keep = pnp.isin(s, b, invert=True)
    if not assume_unique:
        keep = pnp.logical_and(keep, _first(s))
    return _compact("setdiff1d", s, keep, size, fill_value, _zero)


def setxor1d(ar1: Any, ar2: Any, assume_unique: bool = False, *, size: int | None = None,
             fill_value: Any = None) -> Any:
    """Sorted unique values that are in exactly one of the arrays.

    Args:
        ar1, ar2: arrays (flattened).
        assume_unique: both arrays have no repeated values (not needed for correctness here).
        size: a static result length (needed under jit); pads with fill_value (default: the smallest result).
        fill_value: the padding value.

    Returns:
        A 1-D array.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.setxor1d(pnp.array([1, 2, 3]), pnp.array([2, 4])).tolist()
        [1, 3, 4]
    """
    a, b = promote(pnp.ravel(to_array(ar1)), pnp.ravel(to_array(ar2)))
    c = pnp.sort(pnp.concatenate([a, b]))
    keep = pnp.logical_and(_first(c), pnp.logical_xor(pnp.isin(c, a), pnp.isin(c, b)))
    return _compact("setxor1d", c, keep, size, fill_value, _min_valid)


def intersect1d(ar1: Any, ar2: Any, assume_unique: bool = False, return_indices: bool = False, *,
                size: int | None = None, fill_value: Any = None) -> Any:
    """Sorted unique values that are in both arrays (optionally with their first indices in each).

    Args:
        ar1, ar2: arrays (flattened).
        assume_unique: both arrays have no repeated values (not needed for correctness here).
        return_indices: also return the indices of the first occurrences in ar1 and ar2.
        size: a static result length (needed under jit); pads with fill_value (default: the smallest result);
            padded indices are ar1's and ar2's sizes.
        fill_value: the padding value.

    Returns:
        A 1-D array, or (values, indices in ar1, indices in ar2) with return_indices.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.intersect1d(pnp.array([4, 1, 3, 1]), pnp.array([3, 1, 7])).tolist()
        [1, 3]
    """
    a, b = promote(pnp.ravel(to_array(ar1)), pnp.ravel(to_array(ar2)))
    order_a = pnp.argsort(a, stable=True)
    sa = pnp.take(a, order_a)
    keep = pnp.logical_and(_first(sa), pnp.isin(sa, b))
    vals = _compact("intersect1d", sa, keep, size, fill_value, _min_valid)
    if not return_indices:
        return vals
    ia = _compact("intersect1d", order_a, keep, size, a.shape[0], _zero)
    order_b = pnp.argsort(b, stable=True)
    sb = pnp.take(b, order_b)
    pos = pnp.clip(pnp.searchsorted(sb, vals, side="left"), 0, builtins.max(b.shape[0] - 1, 0))
    ib = pnp.take(order_b, pos) if b.shape[0] else pos
    if size is not None:
        ib = pnp.where(pnp.arange(vals.shape[0]) < pnp.sum(keep), ib, b.shape[0])
    return vals, ia, ib


# ---- polynomials --------------------------------------------------------------------------------

def polyval(p: Any, x: Any, *, unroll: int = 16) -> Any:
    """The polynomial with coefficients p (highest degree first) at x, by Horner's rule.

    Args:
        p: 1-D coefficients (or (deg + 1, ...) batches broadcast against x).
        x: the points.
        unroll: unused (jax's scan unrolling; padax unrolls the loop fully).

    Returns:
        An array of x's (broadcast) shape, floating.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.polyval(pnp.array([1.0, 0.0, -1.0]), pnp.array([0.0, 2.0])).tolist()
        [-1.0, 3.0]
    """
    pa, xa = _inexact(p, x)
    y = pnp.zeros(pnp.broadcast_shapes(pa.shape[1:], xa.shape), dtype=xa.dtype)
    for i in builtins.range(pa.shape[0]):
        y = y * xa + pa[i]
    return y


def _pad_front(a: Any, n: int) -> Any:
    return pnp.concatenate([pnp.zeros((n - a.shape[0],), a.dtype), a]) if a.shape[0] < n else a


def _poly_pair(op: str, a1: Any, a2: Any) -> tuple[Any, Any]:
    """Two coefficient arrays promoted together; a scalar is a constant polynomial, more than 1-D is refused."""
    a, b = promote(pnp.atleast_1d(to_array(a1)), pnp.atleast_1d(to_array(a2)))
    if a.ndim != 1 or b.ndim != 1:
        raise op_value_error(op, f"coefficients must be 1-D, got {a.aval.str_short()} and {b.aval.str_short()}")
    return a, b


def polyadd(a1: Any, a2: Any) -> Any:
    """Sum of two polynomials (coefficients highest degree first).

    Args:
        a1, a2: 1-D coefficient arrays.

    Returns:
        A 1-D array as long as the longer input.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.polyadd(pnp.array([1, 2]), pnp.array([1, 0, 0])).tolist()
        [1, 1, 2]
    """
    a, b = _poly_pair("polyadd", a1, a2)
    n = builtins.max(a.shape[0], b.shape[0])
    return _pad_front(a, n) + _pad_front(b, n)


def polysub(a1: Any, a2: Any) -> Any:
    """Difference of two polynomials (coefficients highest degree first).

    Args:
        a1, a2: 1-D coefficient arrays.

    Returns:
        A 1-D array as long as the longer input.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.polysub(pnp.array([1, 2]), pnp.array([1, 0, 0])).tolist()
        [-1, 1, 2]
    """
    a, b = _poly_pair("polysub", a1, a2)
    n = builtins.max(a.shape[0], b.shape[0])
    return _pad_front(a, n) - _pad_front(b, n)


def _trim_leading(op: str, a: Any) -> Any:
    nz = np.flatnonzero(_concrete(op, a))
    return a[nz[0]:] if nz.size else a[:1]


def polymul(a1: Any, a2: Any, *, trim_leading_zeros: bool = False) -> Any:
    """Product of two polynomials (coefficients highest degree first).

    Args:
        a1, a2: 1-D coefficient arrays.
        trim_leading_zeros: drop leading zero coefficients first (eager only).

    Returns:
        A 1-D floating array of length len(a1) + len(a2) - 1.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.polymul(pnp.array([1.0, 1.0]), pnp.array([1.0, -1.0])).tolist()
        [1.0, 0.0, -1.0]
    """
    a, b = _inexact(a1, a2)
    if trim_leading_zeros:
        a, b = _trim_leading("polymul", a), _trim_leading("polymul", b)
    if a.shape[0] == 0 or b.shape[0] == 0:
        return pnp.zeros((1,), a.dtype)
    return pnp.convolve(a, b)


def polyder(p: Any, m: int = 1) -> Any:
    """The m-th derivative of a polynomial (coefficients highest degree first).

    Args:
        p: 1-D coefficients.
        m: the order of the derivative (>= 0).

    Returns:
        A 1-D floating array, m shorter than p (at least empty).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.polyder(pnp.array([1.0, 1.0, 1.0, 1.0]), 2).tolist()
        [6.0, 2.0]
    """
    m = static_int("polyder", m, "m")
    if m < 0:
        raise op_value_error("polyder", f"the order of the derivative must be >= 0, got {m}")
    (pa,) = _inexact(p)
    for _ in builtins.range(m):
        n = pa.shape[0]
        if n == 0:
            break
        pa = pa[:-1] * pnp.arange(n - 1, 0, -1, dtype=pa.dtype)
    return pa


def polyint(p: Any, m: int = 1, k: Any = None) -> Any:
    """The m-th antiderivative of a polynomial, with integration constants k.

    Args:
        p: 1-D coefficients (highest degree first).
        m: the number of integrations (>= 0).
        k: the constants, one per integration (a scalar: the same for all; default 0).

    Returns:
        A 1-D floating array, m longer than p.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.polyint(pnp.array([3.0, 2.0, 1.0]), k=5.0).tolist()
        [1.0, 1.0, 1.0, 5.0]
    """
    m = static_int("polyint", m, "m")
    if m < 0:
        raise op_value_error("polyint", f"the order of the antiderivative must be >= 0, got {m}")
    (pa,) = _inexact(p)
    ks = pnp.zeros((m,), pa.dtype) if k is None else pnp.ravel(to_array(k, pa.dtype))
    if ks.shape[0] == 1 and m > 1:
        ks = pnp.broadcast_to(ks, (m,))
    if ks.shape[0] != m:
        raise op_value_error("polyint", f"k must have one constant per integration ({m}), got {ks.shape[0]}")
    for i in builtins.range(m):
        n = pa.shape[0]
        pa = pnp.concatenate([pa / pnp.arange(n, 0, -1, dtype=pa.dtype), ks[i:i + 1]])
    return pa


def polydiv(u: Any, v: Any, *, trim_leading_zeros: bool = False) -> Any:
    """Quotient and remainder of polynomial division u / v (coefficients highest degree first).

    Args:
        u, v: 1-D coefficients; v's leading coefficient must be nonzero.
        trim_leading_zeros: drop the remainder's leading (near-)zeros (eager only); else it has len(u) entries.

    Returns:
        (quotient, remainder), floating.

    Examples:
        >>> import padax.numpy as pnp
        >>> q, r = pnp.polydiv(pnp.array([1.0, 0.0, -1.0]), pnp.array([1.0, 1.0]))
        >>> q.tolist(), r.tolist()
        ([1.0, -1.0], [0.0, 0.0, 0.0])
    """
    ua, va = _inexact(u, v)
    m, n = ua.shape[0] - 1, va.shape[0] - 1
    scale = 1.0 / va[0]
    r = [ua[i] for i in builtins.range(m + 1)]
    q = []
    for k in builtins.range(m - n + 1):
        d = scale * r[k]
        q.append(d)
        for j in builtins.range(n + 1):
            r[k + j] = r[k + j] - d * va[j]
    qa = pnp.stack(q) if q else pnp.zeros((1,), ua.dtype)
    ra = pnp.stack(r)
    if trim_leading_zeros:
        rv = _concrete("polydiv", ra)
        nz = np.flatnonzero(~np.isclose(rv, 0, rtol=0, atol=np.finfo(rv.dtype).eps * 64))
        ra = ra[nz[0]:] if nz.size else ra[-1:]
    return qa, ra


def poly(seq_of_zeros: Any) -> Any:
    """Coefficients (highest degree first, leading 1) of the monic polynomial with the given roots.

    Args:
        seq_of_zeros: 1-D roots, or a square matrix (its eigenvalues are the roots).

    Returns:
        A 1-D array of len(roots) + 1 coefficients (complex for a matrix).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.poly(pnp.array([1.0, 2.0])).tolist()
        [1.0, -3.0, 2.0]
    """
    z = to_array(seq_of_zeros)
    if z.ndim == 2 and z.shape[0] == z.shape[1] and z.shape[0] > 0:
        z = pnp.linalg.eigvals(z)
    elif z.ndim != 1:
        raise op_value_error("poly", f"expected 1-D roots or a square matrix, got {z.aval.str_short()}")
    (z,) = _inexact(z)
    a = pnp.ones((1,), z.dtype)
    for i in builtins.range(z.shape[0]):
        a = pnp.convolve(a, pnp.stack([pnp.ones((), z.dtype), -z[i]]))
    return a


def roots(p: Any, *, strip_zeros: bool = True) -> Any:
    """Roots of a polynomial (coefficients highest degree first): the companion matrix's eigenvalues.

    Args:
        p: 1-D coefficients.
        strip_zeros: drop leading zeros and turn trailing zeros into zero roots (eager only); without it
            (jit-able), p's leading coefficient must be nonzero.

    Returns:
        A 1-D complex array of the roots (in no particular order).

    Examples:
        >>> import padax.numpy as pnp
        >>> sorted(pnp.real(pnp.roots(pnp.array([1.0, -3.0, 2.0]))).tolist())
        [1.0, 2.0]
    """
    (pa,) = _inexact(p)
    if pa.ndim != 1:
        raise op_value_error("roots", f"p must be 1-D, got {pa.aval.str_short()}")
    trailing = 0
    if strip_zeros:
        nz = np.flatnonzero(_concrete("roots", pa))
        if nz.size == 0:
            return pnp.zeros((0,), D.default_complex() if D.kind(pa.dtype) < 3 else pa.dtype)
        trailing = pa.shape[0] - 1 - builtins.int(nz[-1])
        pa = pa[builtins.int(nz[0]):builtins.int(nz[-1]) + 1]
    n = pa.shape[0] - 1
    cdt = np.dtype(D.complex128) if pa.dtype == D.float64 or pa.dtype == D.complex128 else np.dtype(D.complex64)
    if n < 1:
        r = pnp.zeros((0,), cdt)
    else:
        top = -pa[1:] / pa[0]
        comp = pnp.concatenate([top[None, :], pnp.eye(n - 1, n, dtype=pa.dtype)], axis=0)
        r = pnp.astype(pnp.linalg.eigvals(comp), cdt)
    return pnp.concatenate([r, pnp.zeros((trailing,), cdt)]) if trailing else r


def polyfit(x: Any, y: Any, deg: int, rcond: float | None = None, full: bool = False, w: Any = None,
            cov: bool | str = False) -> Any:
    """Least-squares polynomial fit of degree deg to the points (x, y).

    Args:
        x: 1-D sample points.
        y: their values, 1-D or (len(x), K) for K fits at once.
        deg: the degree of the polynomial.
        rcond: relative cutoff for small singular values (default len(x) * eps).
        full: also return (residuals, rank, singular values, rcond).
        w: weights applied to the unsquared residuals.
        cov: also return the coefficients' covariance (True: scaled by the residuals, 'unscaled': not).

    Returns:
        The deg + 1 coefficients (highest degree first; (deg + 1, K) for 2-D y), or the tuples above.

    Examples:
        >>> import padax.numpy as pnp
        >>> import numpy as np
        >>> np.round(pnp.polyfit(pnp.array([0.0, 1.0, 2.0, 3.0]), pnp.array([1.0, 3.0, 5.0, 7.0]), 1), 4).tolist()
        [2.0, 1.0]
    """
    deg = static_int("polyfit", deg, "deg")
    if deg < 0:
        raise op_value_error("polyfit", f"deg must be >= 0, got {deg}")
    xa, ya = _inexact(x, y)
    order = deg + 1
    if rcond is None:
        rcond = xa.shape[0] * builtins.float(np.finfo(xa.dtype).eps)
    lhs = vander(xa, order)
    rhs = ya
    if w is not None:
        wa = to_array(w, xa.dtype)
        lhs = lhs * wa[:, None]
        rhs = rhs * (wa if rhs.ndim == 1 else wa[:, None])
    scale = pnp.sqrt(pnp.sum(lhs * lhs, axis=0))
    lhs = lhs / scale
    c, resids, rank, s = pnp.linalg.lstsq(lhs, rhs, rcond)
    c = c / (scale if c.ndim == 1 else scale[:, None])
    if full:
        return c, resids, rank, s, pnp.asarray(rcond, dtype=xa.dtype)
    if cov:
        vbase = pnp.linalg.inv(pnp.matmul(lhs.T, lhs)) / pnp.outer(scale, scale)
        if cov == "unscaled":
            fac = pnp.ones((), xa.dtype)
        else:
            if xa.shape[0] <= order:
                raise op_value_error("polyfit", "the fit needs more points than coefficients to scale the "
                                                "covariance (pass cov='unscaled')")
            fac = resids / (xa.shape[0] - order)
        if c.ndim == 1:
            return c, vbase * pnp.reshape(fac, ())
        return c, vbase[:, :, None] * fac
    return c


# ---- calculus -----------------------------------------------------------------------------------

def trapezoid(y: Any, x: Any = None, dx: Any = 1.0, axis: int = -1) -> Any:
    """Integral of y along `axis` by the trapezoidal rule (samples at x, or spaced dx apart).

    Args:
        y: the sampled values.
        x: the sample points (1-D along axis, or y's shape); None: spacing dx.
        dx: the spacing when x is None.
        axis: the axis to integrate over.

    Returns:
        A floating array without `axis`.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.trapezoid(pnp.array([1.0, 2.0, 3.0])).tolist(), pnp.trapezoid(pnp.array([1.0, 1.0]), dx=2.0).tolist()
        (4.0, 2.0)
    """
    if x is None:
        ya, d = _inexact(y, dx)
        ya = pnp.moveaxis(ya, axis, -1)
        return pnp.sum(ya[..., 1:] + ya[..., :-1], axis=-1) * 0.5 * d
    ya, xa = _inexact(y, x)
    ya = pnp.moveaxis(ya, axis, -1)
    d = pnp.diff(xa) if xa.ndim == 1 else pnp.diff(pnp.moveaxis(xa, axis, -1), axis=-1)
    return pnp.sum(d * (ya[..., 1:] + ya[..., :-1]), axis=-1) * 0.5


def _gradient_axis(f: Any, h: Any, ax: int) -> Any:
    n = f.shape[ax]
    if n < 2:
        raise op_value_error("gradient", f"each differentiated axis needs at least 2 samples, got {f.shape}")

    def sl(a, lo, hi):
        return lax.slice_in_dim(a, lo, hi, axis=ax)

    up = sl(f, 1, 2) - sl(f, 0, 1)
    low = sl(f, n - 1, n) - sl(f, n - 2, n - 1)
    if h.ndim == 0:
        inner = (sl(f, 2, n) - sl(f, 0, n - 2)) * 0.5 / h
        return pnp.concatenate([up / h, inner, low / h], axis=ax)
    shape = [1] * f.ndim
    shape[ax] = n
    hx = pnp.reshape(h, tuple(shape))
    up = up / (sl(hx, 1, 2) - sl(hx, 0, 1))
    low = low / (sl(hx, n - 1, n) - sl(hx, n - 2, n - 1))
    d1 = sl(hx, 1, n - 1) - sl(hx, 0, n - 2)
    d2 = sl(hx, 2, n) - sl(hx, 1, n - 1)
    inner = (-d2 / (d1 * (d1 + d2)) * sl(f, 0, n - 2) + (d2 - d1) / (d1 * d2) * sl(f, 1, n - 1)
             + d1 / (d2 * (d1 + d2)) * sl(f, 2, n))
    return pnp.concatenate([up, inner, low], axis=ax)


def gradient(f: Any, *varargs: Any, axis: int | Sequence[int] | None = None, edge_order: int | None = None) -> Any:
    """Numerical gradient of sampled f: central differences inside, one-sided (first order) at the edges.

    Args:
        f: the samples.
        varargs: the spacing: nothing (1), one scalar for all axes, or one scalar / 1-D coordinates per axis.
        axis: the axis or axes to differentiate along (None: all).
        edge_order: 1 (None) only, as jax.

    Returns:
        One array of f's shape for one axis, else a list of them.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.gradient(pnp.array([1.0, 2.0, 4.0, 7.0])).tolist()
        [1.0, 1.5, 2.5, 3.0]
    """
    if edge_order not in (None, 1):
        raise op_value_error("gradient", f"only edge_order=1 is supported (as jax), got {edge_order}")
    (fa,) = _inexact(f)
    if axis is None:
        axes = tuple(builtins.range(fa.ndim))
    elif isinstance(axis, (list, tuple)):
        axes = tuple(builtins.int(a) % fa.ndim for a in axis)
    else:
        axes = (builtins.int(axis) % fa.ndim,)
    if len(varargs) == 0:
        hs = [pnp.ones((), fa.dtype)] * len(axes)
    elif len(varargs) == 1 and to_array(varargs[0]).ndim == 0:
        hs = [to_array(varargs[0], fa.dtype)] * len(axes)
    elif len(varargs) == len(axes):
        hs = [to_array(v, fa.dtype) for v in varargs]
    else:
        raise op_value_error("gradient", f"give one spacing, or one per axis ({len(axes)}), got {len(varargs)}")
    out = [_gradient_axis(fa, h, ax) for h, ax in zip(hs, axes)]
    return out[0] if len(out) == 1 else out


def unwrap(p: Any, discont: Any = None, axis: int = -1, period: Any = 2 * math.pi) -> Any:
    """Unwrap phases: shift jumps larger than discont by multiples of period so that p becomes continuous.

    Args:
        p: the phases.
        discont: the largest jump left alone (default and minimum: period / 2).
        axis: the axis along which to unwrap.
        period: the period of the phase (2 pi).

    Returns:
        A floating array of p's shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> import numpy as np
        >>> np.round(pnp.unwrap(pnp.array([0.0, 4.0, 8.0])), 4).tolist()
        [0.0, -2.2832, -4.5664]
    """
    (pa,) = _inexact(p)
    per = to_array(period, pa.dtype)
    half = per / 2
    disc = half if discont is None else pnp.maximum(to_array(discont, pa.dtype), half)
    dd = pnp.diff(pa, axis=axis)
    ddmod = pnp.remainder(dd + half, per) - half
    ddmod = pnp.where(pnp.logical_and(pnp.equal(ddmod, -half), dd > 0), half, ddmod)
    corr = pnp.where(pnp.abs(dd) < disc, 0, ddmod - dd)
    ax = axis % pa.ndim
    n = pa.shape[ax]
    head = lax.slice_in_dim(pa, 0, 1, axis=ax)
    tail = lax.slice_in_dim(pa, 1, n, axis=ax) + pnp.cumsum(corr, axis=ax)
    return pnp.concatenate([head, tail], axis=ax)


def vander(x: Any, N: int | None = None, increasing: bool = False) -> Any:
    """Vandermonde matrix: columns are powers of x (decreasing, or increasing).

    Args:
        x: 1-D array.
        N: the number of columns (default len(x)).
        increasing: powers 0, 1, ... left to right (default: N - 1 down to 0).

    Returns:
        A (len(x), N) array of x's dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.vander(pnp.array([2, 3]), 3).tolist()
        [[4, 2, 1], [9, 3, 1]]
    """
    xa = to_array(x)
    if xa.ndim != 1:
        raise op_value_error("vander", f"x must be 1-D, got {xa.aval.str_short()}")
    n = xa.shape[0] if N is None else static_int("vander", N, "N")
    if n < 0:
        raise op_value_error("vander", f"N must be non-negative, got {n}")
    cols = [pnp.ones_like(xa)] if n else []
    for _ in builtins.range(1, n):
        cols.append(cols[-1] * xa)
    if not increasing:
        cols = cols[::-1]
    return pnp.stack(cols, axis=1) if cols else pnp.zeros((xa.shape[0], 0), xa.dtype)


def i0(x: Any) -> Any:
    """The modified Bessel function of the first kind of order 0.

    Args:
        x: a real array (integers and bool: the default float).

    Returns:
        A floating array of x's shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> import numpy as np
        >>> np.round(pnp.i0(pnp.array([0.0, 1.0])), 4).tolist()
        [1.0, 1.2661]
    """
    from padax.scipy.special._bessel import i0 as _i0
    return _i0(to_inexact(x))


def spacing(x: Any, /) -> Any:
    """Distance from x to the next representable number away from zero (negative for negative x).

    Args:
        x: a floating array (integers and bool: the default float).

    Returns:
        An array of x's shape and floating dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.spacing(pnp.array([1.0, -1.0], dtype=pnp.float32)).tolist()
        [1.1920928955078125e-07, -1.1920928955078125e-07]
    """
    xa = to_inexact(x)
    toward = pnp.where(xa < 0, -np.inf, np.inf)
    return lax.nextafter(xa, pnp.astype(toward, xa.dtype)) - xa


# ---- windows ------------------------------------------------------------------------------------

def _window(op: str, M: Any, fn) -> Any:
    m = static_int(op, M, "M")
    dt = D.default_float()
    if m < 1:
        return pnp.zeros((0,), dt)
    if m == 1:
        return pnp.ones((1,), dt)
    n = np.arange(1 - m, m, 2, dtype=np.float64)
    return pnp.asarray(fn(n, m).astype(dt))


def bartlett(M: int) -> Any:
    """The Bartlett (triangular) window of M points.

    Args:
        M: the number of points.

    Returns:
        A 1-D array of the default float dtype, peak 1 in the middle.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.bartlett(5).tolist()
        [0.0, 0.5, 1.0, 0.5, 0.0]
    """
    return _window("bartlett", M, lambda n, m: np.where(n <= 0, 1 + n / (m - 1), 1 - n / (m - 1)))


def blackman(M: int) -> Any:
    """The Blackman window of M points.

    Args:
        M: the number of points.

    Returns:
        A 1-D array of the default float dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> import numpy as np
        >>> np.round(pnp.blackman(3), 4).tolist()
        [-0.0, 1.0, -0.0]
    """
    return _window("blackman", M, lambda n, m: 0.42 + 0.5 * np.cos(np.pi * n / (m - 1))
                   + 0.08 * np.cos(2 * np.pi * n / (m - 1)))


def hamming(M: int) -> Any:
    """The Hamming window of M points.

    Args:
        M: the number of points.

    Returns:
        A 1-D array of the default float dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> import numpy as np
        >>> np.round(pnp.hamming(3), 4).tolist()
        [0.08, 1.0, 0.08]
    """
    return _window("hamming", M, lambda n, m: 0.54 + 0.46 * np.cos(np.pi * n / (m - 1)))


def hanning(M: int) -> Any:
    """The Hann window of M points.

    Args:
        M: the number of points.

    Returns:
        A 1-D array of the default float dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.hanning(5).tolist()
        [0.0, 0.5, 1.0, 0.5, 0.0]
    """
    return _window("hanning", M, lambda n, m: 0.5 + 0.5 * np.cos(np.pi * n / (m - 1)))


def kaiser(M: int, beta: Any) -> Any:
    """The Kaiser window of M points with shape parameter beta (differentiable in beta).

    Args:
        M: the number of points.
        beta: the shape parameter (0: rectangular; larger: narrower).

    Returns:
        A 1-D array of the default float dtype (or beta's floating dtype).

    Examples:
        >>> import padax.numpy as pnp
        >>> import numpy as np
        >>> np.round(pnp.kaiser(3, 2.0), 4).tolist()
        [0.4387, 1.0, 0.4387]
    """
    m = static_int("kaiser", M, "M")
    b = to_inexact(beta)
    if m < 1:
        return pnp.zeros((0,), b.dtype)
    if m == 1:
        return pnp.ones((1,), b.dtype)
    alpha = (m - 1) / 2.0
    r = pnp.asarray(((np.arange(m) - alpha) / alpha).astype(b.dtype))
    return i0(b * pnp.sqrt(pnp.clip(1 - r * r, 0, None))) / i0(b)


# ---- ordering -----------------------------------------------------------------------------------

def sort_complex(a: Any) -> Any:
    """Sort by real part, then imaginary part; the result is complex.

    Args:
        a: 1-D (or N-D: sorted along the last axis) array.

    Returns:
        A complex array of a's shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.sort_complex(pnp.array([1 + 2j, 1 - 1j, 0 + 5j])).tolist()
        [5j, (1-1j), (1+2j)]
    """
    aa = to_array(a)
    if D.kind(aa.dtype) < 3:
        cdt = D.complex128 if aa.dtype == D.float64 else D.default_complex()
        aa = pnp.astype(aa, cdt)
    return pnp.sort(aa, axis=-1)


def lexsort(keys: Any, axis: int = -1) -> Any:
    """Indices that sort by the last key, then the one before, ... (a stable sort).

    Args:
        keys: a sequence of arrays of one shape, or a 2-D array whose rows are the keys.
        axis: the axis to sort along.

    Returns:
        An int64 array of indices of the keys' shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.lexsort([pnp.array([3, 1, 2]), pnp.array([1, 1, 0])]).tolist()
        [2, 1, 0]
    """
    ks = [to_array(k) for k in keys] if isinstance(keys, (list, tuple)) else list(pnp.unstack(to_array(keys)))
    if not ks:
        raise op_value_error("lexsort", "needs at least one key")
    shape = ks[0].shape
    if any(k.shape != shape for k in ks):
        raise op_value_error("lexsort", f"all keys must have one shape, got {[k.shape for k in ks]}")
    if len(shape) == 0:
        return pnp.zeros((), D.int64)
    ax = axis % len(shape)
    iota = lax.broadcasted_iota(D.int64, shape, ax)
    out = lax.sort(tuple(ks[::-1]) + (iota,), dimension=ax, is_stable=True, num_keys=len(ks))
    return out[-1]


def _kth(op: str, kth: Any, n: int) -> int:
    k = static_int(op, kth, "kth")
    if not -n <= k < n:
        raise op_value_error(op, f"kth {k} is out of range for an axis of length {n}")
    return k % n


def partition(a: Any, kth: int, axis: int = -1) -> Any:
    """Partially sort: the kth element in its sorted place, smaller ones (ascending) before, larger after.

    Args:
        a: an array.
        kth: the index that ends in its sorted position.
        axis: the axis to partition along.

    Returns:
        An array of a's shape: the first kth + 1 entries ascending, the rest descending (as jax).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.partition(pnp.array([5, 1, 4, 2, 3]), 2).tolist()
        [1, 2, 3, 5, 4]
    """
    aa = pnp.moveaxis(to_array(a), axis, -1)
    n = aa.shape[-1]
    k = _kth("partition", kth, n)
    s = pnp.sort(aa, axis=-1)
    out = pnp.concatenate([s[..., :k + 1], pnp.flip(s[..., k + 1:], axis=-1)], axis=-1)
    return pnp.moveaxis(out, -1, axis)


def argpartition(a: Any, kth: int, axis: int = -1) -> Any:
    """Indices that partition a (see `partition`): the kth smallest's index at position kth.

    Args:
        a: an array.
        kth: the position that holds the index of the kth smallest element.
        axis: the axis to partition along.

    Returns:
        An int64 array of a's shape: indices of the kth + 1 smallest (ascending), then the others in index
        order (as jax).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.argpartition(pnp.array([5, 1, 4, 2, 3]), 1).tolist()
        [1, 3, 0, 2, 4]
    """
    aa = pnp.moveaxis(to_array(a), axis, -1)
    n = aa.shape[-1]
    k = _kth("argpartition", kth, n)
    order = pnp.argsort(aa, axis=-1, stable=True)
    bottom = order[..., :k + 1]
    rank = pnp.argsort(order, axis=-1, stable=True)  # the sorted position of each index
    rest = pnp.argsort(pnp.astype(rank <= k, D.int32), axis=-1, stable=True)[..., :n - k - 1]
    return pnp.moveaxis(pnp.concatenate([bottom, rest], axis=-1), -1, axis)


def trim_zeros(filt: Any, trim: str = "fb", axis: int | Sequence[int] | None = None) -> Any:
    """Drop leading ('f') and/or trailing ('b') zeros (eager only: the result's shape depends on the values).

    Args:
        filt: an array.
        trim: 'f', 'b' or 'fb' (both).
        axis: the axes to trim (None: all); a slice is trimmed where it is all zero.

    Returns:
        The trimmed array (a view of filt's values).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.trim_zeros(pnp.array([0, 0, 1, 2, 0])).tolist()
        [1, 2]
    """
    fa = to_array(filt)
    host = _concrete("trim_zeros", fa) != 0
    if not isinstance(trim, str):
        raise op_type_error("trim_zeros", f"trim must be a str ('f', 'b' or 'fb'), got {type(trim).__name__}")
    trim = trim.lower()
    if not set(trim) <= {"f", "b"}:
        raise op_value_error("trim_zeros", f"trim must be 'f', 'b' or 'fb', got {trim!r}")
    axes = builtins.range(fa.ndim) if axis is None else [axis] if isinstance(axis, builtins.int) else axis
    index = [slice(None)] * fa.ndim
    for ax in axes:
        ax = builtins.int(ax) % fa.ndim
        other = tuple(i for i in builtins.range(fa.ndim) if i != ax)
        nz = np.flatnonzero(host.any(axis=other) if other else host)
        if nz.size == 0:
            index[ax] = slice(0, 0)
            continue
        start = builtins.int(nz[0]) if "f" in trim else 0
        stop = builtins.int(nz[-1]) + 1 if "b" in trim else fa.shape[ax]
        index[ax] = slice(start, stop)
    return fa[tuple(index)]


__all__ = ["cov", "corrcoef", "histogram", "histogram_bin_edges", "histogram2d", "histogramdd", "nanargmax",
           "nanargmin", "nancumsum", "nancumprod", "nanmedian", "nanpercentile", "nanquantile", "intersect1d",
           "union1d", "setdiff1d", "setxor1d", "polyval", "polyfit", "polyadd", "polysub", "polymul", "polyder",
           "polyint", "polydiv", "poly", "roots", "trapezoid", "gradient", "unwrap", "vander", "i0", "spacing",
           "bartlett", "blackman", "hamming", "hanning", "kaiser", "sort_complex", "lexsort", "partition",
           "argpartition", "trim_zeros"]
