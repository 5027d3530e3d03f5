"""Order statistics with Paddle's signatures: median, nanmedian, quantile, nanquantile, mode, kthvalue.

All sort along the reduced axes (moved last and merged) and then pick
positions with a gather, so they differentiate through sort and gather.
Sorting puts NaNs last: median/quantile give NaN for a slice holding a NaN,
the nan* variants skip NaNs (NaN when a slice has none left).
"""
from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from padax.core import dtypes
from padax.core.errors import op_type_error, op_value_error
from padax.core.trace import Tracer
from padax.functional import lax_api as lax
from padax.functional._arrays import asarray, canonicalize_axis, full, is_array, static_int
from padax.functional._checks import arg as _arg, write_out
from padax.functional.indexed import take_along
from padax.functional.lax.indexing import ScatterDimensionNumbers
from padax.functional.reduction import reduction_axes
from padax.functional.search import searchsorted


def _to_last(op: str, x: Any, axis: Any) -> tuple[Any, tuple[int, ...], tuple[int, ...]]:
    """x with the reduced axes merged into one last axis; also the reduced axes and the kept shape."""
    if x.aval.ndim == 0:
        if axis is not None and not (isinstance(axis, (list, tuple)) and len(axis) == 0):
            for a in (axis if isinstance(axis, (list, tuple)) else [axis]):
                canonicalize_axis(op, int(a), 0)
        return lax.reshape(x, (1,)), (), ()
    axes = reduction_axes(op, x, axis)
    keep = tuple(d for d in range(x.aval.ndim) if d not in axes)
    moved = lax.transpose(x, keep + axes)
    kept_shape = tuple(x.aval.shape[d] for d in keep)
    n = int(np.prod([x.aval.shape[d] for d in axes], dtype=np.int64))
    return lax.reshape(moved, kept_shape + (n,)), axes, kept_shape


def _restore(out: Any, x_shape: tuple[int, ...], axes: tuple[int, ...], keepdim: bool) -> Any:
    if not keepdim:
        return out
    lead = out.aval.shape[:out.aval.ndim - (len(x_shape) - len(axes))]
    return lax.reshape(out, lead + tuple(1 if i in axes else d for i, d in enumerate(x_shape)))


def _pick(s: Any, pos: Any) -> Any:
    """s[..., pos[...]] along the last axis (pos has s's leading shape)."""
    last = s.aval.ndim - 1
    return lax.reshape(take_along(s, lax.reshape(pos, pos.aval.shape + (1,)), last),
                       pos.aval.shape)


def _compute_dtype(op: str, x: Any) -> np.dtype:
    dt = x.aval.dtype
    if dtypes.is_complex(dt) or dt == dtypes.bool_:
        raise op_type_error(op, f"expected a real numeric input, got {x.aval.str_short()}")
    return dtypes.float64 if dt == dtypes.float64 else dtypes.float32


def _nan_count(s: Any) -> Any:
    last = s.aval.ndim - 1
    if not dtypes.is_inexact(s.aval.dtype):
        return full(s.aval.shape[:-1], 0, dtypes.int32)
    return lax.reduce_sum(lax.convert_element_type(lax.ne(s, s), dtypes.int32), (last,))


def _sorted_with_index(x: Any) -> tuple[Any, Any]:
    last = x.aval.ndim - 1
    idx = lax.broadcasted_iota(dtypes.int32, x.aval.shape, last)
    return lax.sort_key_val(x, idx, last, True)


def _median(op: str, x: Any, axis: Any, keepdim: bool, mode: str, skip_nan: bool):
    x = asarray(x)
    if mode not in ("avg", "min"):
        raise op_value_error(op, f"mode must be 'avg' or 'min', got {mode!r}")
    cdt = _compute_dtype(op, x)
    if isinstance(axis, (list, tuple)) and op == "median":
        raise op_type_error(op, f"axis must be an int or None, got {axis!r}")
    flat, axes, kept = _to_last(op, x, axis)
    n = flat.aval.shape[-1]
    if n == 0:
        raise op_value_error(op, f"cannot take the median of an empty selection of {x.aval.str_short()}")
    s, perm = _sorted_with_index(flat)
    nan_cnt = _nan_count(s)
    i32 = dtypes.int32
    if skip_nan:
        valid = lax.sub(full(kept, n, i32), nan_cnt)
    else:
        valid = full(kept, n, i32)
    one = full(kept, 1, i32)
    two = full(kept, 2, i32)
    vm1 = lax.max(lax.sub(valid, one), full(kept, 0, i32))
    lo = lax.div(vm1, two)                      # (k - 1) // 2
    hi = lax.div(valid, two)                    # k // 2 (== lo for odd k)
    hi = lax.min(hi, full(kept, n - 1, i32))
    v_lo, v_hi = _pick(s, lo), _pick(s, hi)
    has_nan = lax.gt(nan_cnt, full(kept, 0, i32))
    empty = lax.eq(valid, full(kept, 0, i32))
    bad = empty if skip_nan else has_nan
    if mode == "avg":
        if skip_nan and dtypes.is_integer(x.aval.dtype):  # Paddle's nanmedian keeps integers: the mean truncates
            out = lax.div(lax.add(v_lo, v_hi), full(kept, 2, x.aval.dtype))
            return _restore(out, x.aval.shape, axes, keepdim)
        a, b = lax.convert_element_type(v_lo, cdt), lax.convert_element_type(v_hi, cdt)
        out = lax.div(lax.add(a, b), full(kept, 2, cdt))
        out = lax.select(bad, full(kept, np.nan, cdt), out)
        return _restore(out, x.aval.shape, axes, keepdim)
    out = v_lo
    pos = lo
    if dtypes.is_inexact(x.aval.dtype):
        out = lax.select(bad, full(kept, np.nan, x.aval.dtype), out)
        if not skip_nan:  # the first NaN in sorted order (the earliest NaN of the input)
            pos = lax.select(has_nan, lax.sub(full(kept, n, i32), nan_cnt), pos)
    out = _restore(out, x.aval.shape, axes, keepdim)
    single = axis is None or isinstance(axis, (list, tuple))
    if single:
        return out
    idx = _restore(lax.convert_element_type(_pick(perm, pos), dtypes.canonicalize(dtypes.int64)),
                   x.aval.shape, axes, keepdim)
    return out, idx


def median(x: Any, axis: int | None = None, keepdim: bool = False, mode: str = "avg",
           name: str | None = None, *, out: Any = None) -> Any:
    """Median over `axis` (all elements when None). mode='avg' averages the two middle values of an even
    count (float32 result, float64 for float64 input); mode='min' takes the lower one in x's dtype and,
    with an int axis, also returns its int64 index. NaN if the slice holds a NaN.

    Args:
        x: a real numeric (not bool) Tensor.
        axis: the axis to reduce, or None for all elements.
        keepdim: keep the reduced axes with size 1.
        mode: 'avg' or 'min' (see above).
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Returns:
        A Tensor of x's shape without the reduced axes (with size 1 there if keepdim): float32 (float64 for float64
        x) with mode='avg', x's dtype with mode='min'; with mode='min' and an int axis, a tuple (values, int64
        indices).

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1.0, 3.0, 2.0, 4.0]])
        >>> padax.median(x, axis=1).tolist()
        [2.5]
        >>> padax.median(x, axis=1, mode='min')[0].tolist()
        [2.0]
    """
    if out is not None:
        return write_out(out, median(x=x, axis=axis, keepdim=keepdim, mode=mode, name=name), "median")
    return _median("median", x, axis, keepdim, mode, skip_nan=False)


def nanmedian(x: Any, axis: Any = None, keepdim: bool = False, mode: str = "avg", name: str | None = None) -> Any:
    """Median over `axis` (int, list or None) ignoring NaNs; NaN for an all-NaN slice. mode as in median,
    except that integer inputs keep their dtype (the mean of the two middle values truncates), as in Paddle.

    Args:
        x: a real numeric (not bool) Tensor.
        axis: an int, a list of ints, or None (all elements).
        keepdim: keep the reduced axes with size 1.
        mode: 'avg' or 'min'.

    Returns:
        A Tensor of x's shape without the reduced axes (with size 1 there if keepdim): with mode='avg' float32
        (float64 for float64 x; integer x keeps its dtype), with mode='min' x's dtype; with mode='min' and an
        int axis, a tuple (values, int64 indices).

    Examples:
        >>> import padax
        >>> float(padax.nanmedian(padax.to_tensor([1.0, float('nan'), 3.0])))
        2.0
    """
    return _median("nanmedian", x, axis, keepdim, mode, skip_nan=True)


_INTERP = ("linear", "lower", "higher", "nearest", "midpoint")


def _quantile(op: str, x: Any, q: Any, axis: Any, keepdim: bool, interpolation: str, skip_nan: bool) -> Any:
    x = asarray(x)
    if interpolation not in _INTERP:
        raise op_value_error(op, f"interpolation must be one of {', '.join(map(repr, _INTERP))}, got "
                                 f"{interpolation!r}")
    dt = x.aval.dtype
    if dtypes.is_complex(dt) or dt == dtypes.bool_:
        raise op_type_error(op, f"expected a real numeric input, got {x.aval.str_short()}")
    out_dt = dt if dtypes.is_floating(dt) else dtypes.default_float_dtype()
    cdt = dtypes.float64 if dt == dtypes.float64 else dtypes.float32
    # q: a number, a list, or a 0-d / 1-D Tensor
    if is_array(q):
        qa = q
        if qa.aval.ndim > 1:
            raise op_value_error(op, f"q must be a number, a list or a 0-D/1-D Tensor, got {qa.aval.str_short()}")
        scalar_q = qa.aval.ndim == 0
        if not isinstance(qa, Tracer):
            qv = np.asarray(qa, np.float64)
            if np.any((qv < 0) | (qv > 1)):
                raise op_value_error(op, f"q must be in [0, 1], got {qv.tolist()}")
        qa = lax.convert_element_type(lax.reshape(qa, (qa.aval.size,)), cdt)
    else:
        qv = np.asarray(q, np.float64)
        if qv.ndim > 1 or qv.size == 0:
            raise op_value_error(op, f"q must be a number or a non-empty list of numbers, got {q!r}")
        if np.any((qv < 0) | (qv > 1)):
            raise op_value_error(op, f"q must be in [0, 1], got {q!r}")
        scalar_q = qv.ndim == 0
        qa = asarray(qv.reshape(-1).astype(cdt))
    nq = qa.aval.shape[0]
    flat, axes, kept = _to_last(op, x, axis)
    n = flat.aval.shape[-1]
    if n == 0:
        raise op_value_error(op, f"cannot take a quantile of an empty selection of {x.aval.str_short()}")
    s = lax.sort(lax.convert_element_type(flat, cdt), flat.aval.ndim - 1, True)
    nan_cnt = _nan_count(s)
    i32 = dtypes.int32
    valid = lax.sub(full(kept, n, i32), nan_cnt) if skip_nan else full(kept, n, i32)
    # positions per (q, kept...) along the sorted axis
    qb = lax.broadcast_in_dim(qa, (nq,) + kept, (0,))
    last_pos = lax.convert_element_type(lax.max(lax.sub(valid, full(kept, 1, i32)), full(kept, 0, i32)), cdt)
    pos = lax.mul(qb, lax.broadcast_in_dim(last_pos, (nq,) + kept, tuple(range(1, len(kept) + 1))))
    lo_f = lax.floor(pos)
    hi_f = lax.ceil(pos)
    sb = lax.broadcast_in_dim(s, (nq,) + s.aval.shape, tuple(range(1, s.aval.ndim + 1)))

    def at(p):
        return _pick(sb, lax.convert_element_type(p, i32))

    if interpolation == "lower":
        out = at(lo_f)
    elif interpolation == "higher":
        out = at(hi_f)
    elif interpolation == "nearest":
        out = at(lax.round(pos, 1))  # half to even, as paddle.round
    else:
        a, b = at(lo_f), at(hi_f)
        if interpolation == "midpoint":
            out = lax.div(lax.add(a, b), full(a.aval.shape, 2, cdt))
        else:
            out = lax.add(a, lax.mul(lax.sub(b, a), lax.sub(pos, lo_f)))
    nb = (nq,) + kept
    bad = lax.eq(valid, full(kept, 0, i32)) if skip_nan else lax.gt(nan_cnt, full(kept, 0, i32))
    bad = lax.broadcast_in_dim(bad, nb, tuple(range(1, len(kept) + 1)))
    out = lax.select(bad, full(nb, np.nan, cdt), out)
    out = lax.convert_element_type(out, out_dt)
    if scalar_q:
        out = lax.reshape(out, kept)
    return _restore(out, x.aval.shape, axes, keepdim)


def quantile(x: Any, q: Any, axis: Any = None, keepdim: bool = False, interpolation: str = "linear",
             name: str | None = None, *, out: Any = None) -> Any:
    """The q-th quantile(s) over `axis` (int, list or None); a list/1-D q adds a leading axis. interpolation:
    'linear', 'lower', 'higher', 'nearest' or 'midpoint'. NaN if the slice holds a NaN.

    Args:
        x: a real numeric (not bool) Tensor.
        q: the quantile(s) in [0, 1]: a number, a list, or a 0-d/1-D Tensor.
        axis: an int, a list of ints, or None (all elements).
        keepdim: keep the reduced axes with size 1.
        interpolation: how to pick between the two nearest order statistics.
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Returns:
        A Tensor of x's shape without the reduced axes (with size 1 there if keepdim), with a leading axis of len(q)
        for a list/1-D q; x's floating dtype (float32 for integers).

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([1.0, 2.0, 3.0, 4.0])
        >>> float(padax.quantile(x, 0.5))
        2.5
        >>> padax.quantile(x, [0.25, 0.75]).tolist()
        [1.75, 3.25]
    """
    if out is not None:
        result = quantile(
            x=x, q=q, axis=axis, keepdim=keepdim, interpolation=interpolation, name=name)
        return write_out(out, result, "quantile")
    return _quantile("quantile", x, q, axis, keepdim, interpolation, skip_nan=False)


def nanquantile(x: Any, q: Any, axis: Any = None, keepdim: bool = False, interpolation: str = "linear",
                name: str | None = None) -> Any:
    """quantile ignoring NaNs (NaN for an all-NaN slice).

    Args:
        x: a real numeric (not bool) Tensor.
        q: the quantile(s) in [0, 1]: a number, a list, or a 0-d/1-D Tensor.
        axis: an int, a list of ints, or None (all elements).
        keepdim: keep the reduced axes with size 1.
        interpolation: 'linear', 'lower', 'higher', 'nearest' or 'midpoint'.

    Returns:
        A Tensor of x's shape without the reduced axes (with size 1 there if keepdim), with a leading axis of len(q)
        for a list/1-D q; x's floating dtype (float32 for integers).

    Examples:
        >>> import padax
        >>> float(padax.nanquantile(padax.to_tensor([1.0, float('nan'), 3.0]), 0.5))
        2.0
    """
    return _quantile("nanquantile", x, q, axis, keepdim, interpolation, skip_nan=True)


def _one_axis(op: str, x: Any, axis: Any) -> int:
    if isinstance(axis, Tracer):
        raise op_type_error(op, f"axis must be static, got a traced {axis.aval.str_short()}")
    if x.aval.ndim == 0:
        canonicalize_axis(op, int(axis), 0)
        return 0
    return canonicalize_axis(op, int(axis), x.aval.ndim)


def _along_last(x: Any, a: int) -> Any:
    nd = x.aval.ndim
    if a == nd - 1:
        return x
    return lax.transpose(x, tuple(d for d in range(nd) if d != a) + (a,))


def _finish(v: Any, i: Any, x_shape: tuple[int, ...], a: int, keepdim: bool) -> tuple[Any, Any]:
    idt = dtypes.canonicalize(dtypes.int64)
    i = lax.convert_element_type(i, idt)
    if keepdim and x_shape:
        ks = tuple(1 if d == a else s for d, s in enumerate(x_shape))
        v, i = lax.reshape(v, ks), lax.reshape(i, ks)
    return v, i


def kthvalue(x: Any, k: Any, axis: int | None = None, keepdim: bool = False, name: str | None = None) -> tuple:
    """The k-th smallest element (k counts from 1) along `axis` (default last) and its int64 index.

    Args:
        x: a real Tensor.
        k: the rank, a Python int from 1 to the size of `axis`.
        axis: the axis to search along; None for the last.
        keepdim: keep `axis` with size 1.

    Returns:
        A tuple (values, indices) of x's shape without `axis`: values in x's dtype, indices int64.

    Examples:
        >>> import padax
        >>> values, indices = padax.kthvalue(padax.to_tensor([5.0, 1.0, 4.0]), k=2)
        >>> float(values), int(indices)
        (4.0, 2)
    """
    op = "kthvalue"
    x = _arg("kthvalue", x, "x")
    if dtypes.is_complex(x.aval.dtype):
        raise op_type_error(op, f"complex numbers have no order, got {x.aval.str_short()}")
    a = _one_axis(op, x, -1 if axis is None else axis)
    if isinstance(k, Tracer):
        raise op_type_error(op, f"k must be static, got a traced {k.aval.str_short()}")
    k = static_int(op, k, "k")
    xs = x.aval.shape
    y = lax.reshape(x, (1,)) if x.aval.ndim == 0 else _along_last(x, a)
    n = y.aval.shape[-1]
    if not 1 <= k <= n:
        raise op_value_error(op, f"k={k} must be between 1 and {n}, the size of axis {a} of {x.aval.str_short()}")
    s, perm = _sorted_with_index(y)
    last = y.aval.ndim - 1
    v = lax.index_in_dim(s, k - 1, last, keepdims=False)
    i = lax.index_in_dim(perm, k - 1, last, keepdims=False)
    return _finish(v, i, xs, a, keepdim)


def mode(x: Any, axis: int = -1, keepdim: bool = False, name: str | None = None) -> tuple:
    """The most frequent value along `axis` (the smallest one on ties) and the int64 index of its last
    occurrence.

    Args:
        x: a real Tensor.
        axis: the axis to search along.
        keepdim: keep `axis` with size 1.

    Returns:
        A tuple (values, indices) of x's shape without `axis`: values in x's dtype, indices int64.

    Examples:
        >>> import padax
        >>> values, indices = padax.mode(padax.to_tensor([[1, 2, 2], [3, 3, 1]]))
        >>> values.tolist()
        [2, 3]
    """
    op = "mode"
    x = _arg("mode", x, "x")
    if dtypes.is_complex(x.aval.dtype):
        raise op_type_error(op, f"complex numbers have no order, got {x.aval.str_short()}")
    a = _one_axis(op, x, axis)
    xs = x.aval.shape
    y = lax.reshape(x, (1,)) if x.aval.ndim == 0 else _along_last(x, a)
    n = y.aval.shape[-1]
    if n == 0:
        raise op_value_error(op, f"axis {a} of {x.aval.str_short()} is empty")
    s, perm = _sorted_with_index(y)
    last = y.aval.ndim - 1
    shape = s.aval.shape
    i32 = dtypes.int32
    pos = lax.broadcasted_iota(i32, shape, last)
    prev = lax.pad(lax.slice_in_dim(s, 0, n - 1, 1, last), full((), 0, s.aval.dtype),
                   [(0, 0, 0)] * last + [(1, 0, 0)])
    same_prev = lax.eq(s, prev)
    if dtypes.is_inexact(s.aval.dtype):
        same_prev = lax.bitwise_or(same_prev, lax.bitwise_and(lax.ne(s, s), lax.ne(prev, prev)))
    start = lax.bitwise_or(lax.bitwise_not(same_prev), lax.eq(pos, full(shape, 0, i32)))
    run_start = lax.cummax(lax.select(start, pos, full(shape, 0, i32)), last)
    count = lax.add(lax.sub(pos, run_start), full(shape, 1, i32))  # run length so far, largest at run end
    best = lax.argmax(count, last, i32)  # the first run to reach the top count: the smallest value
    v = _pick(s, best)
    i = _pick(perm, best)  # the last element of a stable run: the latest occurrence
    return _finish(v, i, xs, a, keepdim)


def histogram(input: Any, bins: int = 100, min: float = 0.0, max: float = 0.0, weight: Any = None,
              density: bool = False, name: str | None = None) -> Any:
    """Counts of x in `bins` equal-width bins over [min, max] (the data's range when both are 0); values
    outside are ignored, the last bin includes max. int64 counts, or float with weight/density.

    Args:
        input: a real Tensor of any shape (its elements are counted).
        bins: the number of bins.
        min, max: the range of the bins; both 0 means the data's range.
        weight: a Tensor of input's shape: each element adds its weight instead of 1.
        density: divide by the total and the bin width, so that the histogram integrates to 1.

    Returns:
        A 1-D Tensor of length `bins`: int64 counts, or float32 (float64 for float64 input) with weight or
        density.

    Examples:
        >>> import padax
        >>> padax.histogram(padax.to_tensor([1.0, 2.0, 1.0, 4.0]), bins=3, min=1, max=4).tolist()
        [2, 1, 1]
    """
    op = "histogram"
    x = asarray(input)
    bins = int(bins)
    if bins <= 0:
        raise op_value_error(op, f"bins must be positive, got {bins}")
    if builtins.min(min, max) != min:
        raise op_value_error(op, f"max ({max}) must not be less than min ({min})")
    if dtypes.is_complex(x.aval.dtype):
        raise op_type_error(op, f"expected a real input, got {x.aval.str_short()}")
    f = dtypes.float64 if x.aval.dtype == dtypes.float64 else dtypes.float32
    xf = lax.reshape(lax.convert_element_type(x, f), (x.aval.size,))
    if min == 0 and max == 0 and x.aval.size:
        lo, hi = lax.reduce_min(xf, (0,)), lax.reduce_max(xf, (0,))
    else:
        lo, hi = full((), min, f), full((), max, f)
    same = lax.eq(lo, hi)  # an empty range widens by 1 on both sides, as Paddle's kernel does
    lo = lax.select(same, lax.sub(lo, full((), 1, f)), lo)
    hi = lax.select(same, lax.add(hi, full((), 1, f)), hi)
    n = x.aval.size
    if weight is None and not density:
        w_dt = dtypes.canonicalize(dtypes.int64)
        w = full((n,), 1, w_dt)
    else:
        w = full((n,), 1, f) if weight is None else lax.reshape(lax.convert_element_type(asarray(weight), f), (n,))
        w_dt = f
    out = full((bins,), 0, w_dt)
    if n:
        lob, hib = lax.broadcast_in_dim(lo, (n,), ()), lax.broadcast_in_dim(hi, (n,), ())
        width = lax.sub(hib, lob)
        safe = lax.select(lax.eq(width, full((n,), 0, f)), full((n,), 1, f), width)
        idx = lax.convert_element_type(lax.floor(lax.mul(lax.div(lax.sub(xf, lob), safe), full((n,), bins, f))),
                                       dtypes.int32)
        idx = lax.select(lax.eq(xf, hib), full((n,), bins - 1, dtypes.int32), idx)
        inside = lax.bitwise_and(lax.ge(xf, lob), lax.le(xf, hib))
        idx = lax.select(inside, idx, full((n,), bins, dtypes.int32))  # out of range: dropped
        dn = ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
                                     scatter_dims_to_operand_dims=(0,))
        out = lax.scatter_add(out, lax.reshape(idx, (n, 1)), w, dn, mode="drop")
    if density:
        total = lax.reduce_sum(out, (0,))
        bw = lax.div(lax.sub(hi, lo), full((), bins, f))
        out = lax.div(out, lax.broadcast_in_dim(lax.mul(total, bw), (bins,), ()))
    return out


def histogram_bin_edges(input: Any, bins: int = 100, min: float = 0.0, max: float = 0.0,  # noqa: A002
                        name: str | None = None) -> Any:
    """The bins + 1 edges `histogram` uses: equal-width over [min, max], or over the data's range when both
    are 0 (a range of one value widens by 0.5 on each side); float32 as Paddle gives them.

    Args:
        input: a real Tensor of any shape.
        bins: the number of bins.
        min, max: the range of the bins; both 0 means the data's range.

    Returns:
        A 1-D float32 Tensor of bins + 1 edges.

    Examples:
        >>> import padax
        >>> padax.histogram_bin_edges(padax.to_tensor([0.0, 1.0]), bins=4).tolist()
        [0.0, 0.25, 0.5, 0.75, 1.0]
    """
    op = "histogram_bin_edges"
    x = asarray(input)
    bins = int(bins)
    if bins <= 0:
        raise op_value_error(op, f"bins must be positive, got {bins}")
    if builtins.min(min, max) != min:
        raise op_value_error(op, f"max ({max}) must not be less than min ({min})")
    f = dtypes.float32
    if min == 0 and max == 0 and x.aval.size:
        xf = lax.reshape(lax.convert_element_type(x, f), (x.aval.size,))
        lo, hi = lax.reduce_min(xf, (0,)), lax.reduce_max(xf, (0,))
    else:
        lo, hi = full((), min, f), full((), max, f)
    same = lax.eq(lo, hi)
    lo = lax.select(same, lax.sub(lo, full((), 0.5, f)), lo)
    hi = lax.select(same, lax.add(hi, full((), 0.5, f)), hi)
    return _edges(lo, hi, bins, f)


def _edges(lo: Any, hi: Any, bins: int, f: np.dtype) -> Any:
    """bins + 1 equal-width edges from lo to hi (0-d arrays), the last exactly hi."""
    step = lax.div(lax.sub(hi, lo), full((), bins, f))
    i = lax.convert_element_type(lax.iota(dtypes.int32, bins + 1), f)
    e = lax.add(lax.broadcast_in_dim(lo, (bins + 1,), ()), lax.mul(i, lax.broadcast_in_dim(step, (bins + 1,), ())))
    last = lax.eq(lax.iota(dtypes.int32, bins + 1), full((bins + 1,), bins, dtypes.int32))
    return lax.select(last, lax.broadcast_in_dim(hi, (bins + 1,), ()), e)


def histogramdd(x: Any, bins: Any = 10, ranges: Any = None, density: bool = False, weights: Any = None,
                name: str | None = None) -> tuple[Any, list]:
    """The D-dimensional histogram of the points x[..., D] and the list of D edge Tensors.

    `bins` is an int, D ints, or D 1-D Tensors of edges; `ranges` a flat list [min_0, max_0, min_1,
    ...] (default: each coordinate's data range). A point on an edge falls in the bin to its right,
    except on the last edge, which belongs to the last bin; points outside are not counted. The
    histogram has x's float dtype; with `density` it is divided by the bin volumes and the total.

    Args:
        x: a floating Tensor of points, coordinates on the last axis (D of them).
        bins: an int, D ints, or D 1-D Tensors of edges.
        ranges: [min_0, max_0, min_1, ...], or None for each coordinate's data range.
        density: divide by the bin volumes and the total.
        weights: one weight per point (x's shape without the last axis); None counts 1 each.

    Returns:
        A tuple (hist, edges): hist of shape [bins_0, ..., bins_{D-1}] in x's dtype, edges a list of D 1-D
        Tensors.

    Examples:
        >>> import padax
        >>> hist, edges = padax.histogramdd(padax.to_tensor([[0.0, 0.0], [1.0, 1.0], [1.0, 0.0]]), bins=2)
        >>> hist.tolist()
        [[1.0, 0.0], [1.0, 1.0]]
    """
    op = "histogramdd"
    x = asarray(x)
    if x.aval.ndim < 2 or not dtypes.is_floating(x.aval.dtype):
        raise op_type_error(op, f"x must be a floating Tensor of points [..., D], got {x.aval.str_short()}")
    f = x.aval.dtype
    d = x.aval.shape[-1]
    pts = lax.reshape(x, (x.aval.size // builtins.max(d, 1), d))
    n = pts.aval.shape[0]
    cols = [lax.reshape(lax.slice_in_dim(pts, i, i + 1, 1, 1), (n,)) for i in builtins.range(d)]
    if isinstance(bins, (int, np.integer)):
        bins = [int(bins)] * d
    if len(bins) != d:
        raise op_value_error(op, f"bins must be an int or {d} entries (one per coordinate), got {len(bins)}")
    if ranges is not None:
        if len(ranges) != 2 * d:
            raise op_value_error(op, f"ranges must hold 2 * D = {2 * d} numbers [min_0, max_0, ...], got {len(ranges)}")
    edges = []
    for i, b in enumerate(bins):
        if is_array(b):
            edges.append(lax.convert_element_type(asarray(b), f))
            continue
        if ranges is not None:
            lo, hi = full((), ranges[2 * i], f), full((), ranges[2 * i + 1], f)
        else:
            lo, hi = lax.reduce_min(cols[i], (0,)), lax.reduce_max(cols[i], (0,))
        edges.append(_edges(lo, hi, int(b), f))
    shape = tuple(e.aval.shape[0] + 1 for e in edges)  # a bin below the first edge and one above the last
    flat = full((n,), 0, dtypes.int32)
    for i, e in enumerate(edges):
        idx = lax.convert_element_type(searchsorted(e, cols[i], right=True), dtypes.int32)
        last = lax.broadcast_in_dim(lax.reshape(lax.slice_in_dim(e, e.aval.shape[0] - 1, e.aval.shape[0], 1, 0), ()),
                                    (n,), ())
        idx = lax.select(lax.eq(cols[i], last), lax.sub(idx, full((n,), 1, dtypes.int32)), idx)
        flat = lax.add(lax.mul(flat, full((n,), shape[i], dtypes.int32)), idx)
    w = full((n,), 1, f) if weights is None else lax.reshape(lax.convert_element_type(asarray(weights), f), (n,))
    total = int(np.prod(shape))
    dn = ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))
    hist = lax.scatter_add(full((total,), 0, f), lax.reshape(flat, (n, 1)), w, dn, mode="drop")
    hist = lax.reshape(hist, shape)
    hist = lax.slice(hist, (1,) * d, tuple(s - 1 for s in shape))  # drop the outside bins
    if density:
        s_ = lax.reduce_sum(hist, tuple(builtins.range(d)))
        for i, e in enumerate(edges):
            k = e.aval.shape[0] - 1
            width = lax.sub(lax.slice_in_dim(e, 1, k + 1, 1, 0), lax.slice_in_dim(e, 0, k, 1, 0))
            hist = lax.div(hist, lax.broadcast_in_dim(width, hist.aval.shape, (i,)))
        hist = lax.div(hist, lax.broadcast_in_dim(s_, hist.aval.shape, ()))
    return hist, edges


__all__ = ["histogram", "histogram_bin_edges", "histogramdd", "median", "nanmedian", "quantile", "nanquantile",
           "kthvalue", "mode"]
