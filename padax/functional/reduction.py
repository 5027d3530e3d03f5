"""Paddle's reductions and searches: sum, mean, prod, max/min, all/any, logsumexp, nansum/nanmean,
std/var, count_nonzero, argmax/argmin, cumsum/cumprod/cummax/cummin/logcumsumexp, sort/argsort, topk.

`axis` is an int, a list/tuple, or None (all axes; an empty list also means
all, as in Paddle); `keepdim=True` keeps reduced axes with size 1.
float16/bfloat16 sums accumulate in float32 (as Paddle's kernels do).
"""
from __future__ import annotations

import builtins
from typing import Any, Sequence

import numpy as np

from padax.core import dtypes
from padax.core.errors import op_type_error, op_value_error
from padax.functional import lax_api as lax
from padax.functional._arrays import asarray, canonicalize_axes, canonicalize_axis, full, is_array, static_int
from padax.functional._checks import arg as _arg, write_out
from padax.functional._docs import example_doc
from padax.functional._fast import twin
from padax.functional.indexed import take_along_axis
from padax.functional.lax.custom import stop_gradient_p
from padax.functional.math import logaddexp
from padax.runtime.array import Tensor

_LOW_FLOATS = (dtypes.float16, dtypes.bfloat16)


def reduction_axes(op: str, x: Any, axis: Any) -> tuple[int, ...]:
    """Sorted non-negative axes for a Paddle `axis` argument (None or [] -> all)."""
    nd = x.aval.ndim
    if axis is None or (isinstance(axis, (list, tuple)) and len(axis) == 0):
        return tuple(builtins.range(nd))
    if is_array(axis) and axis.aval.ndim == 1:
        axis = list(axis)
    axes = canonicalize_axes(op, axis, nd)
    return () if nd == 0 else axes


def _keepdim(out: Any, in_shape: tuple[int, ...], axes: Sequence[int], keepdim: bool) -> Any:
    if not keepdim:
        return out
    return lax.reshape(out, tuple(1 if i in axes else d for i, d in enumerate(in_shape)))


def _accumulate_dtype(dt: np.dtype) -> np.dtype:
    return dtypes.float32 if dt in _LOW_FLOATS else dt


def sum(x: Any, axis: Any = None, dtype: Any = None, keepdim: bool = False, name: str | None = None,
        *, out: Any = None) -> Any:
    """Sum over `axis`; bool and int32 inputs give int64, as in Paddle.

    Args:
        x: the input Tensor.
        axis: the axes to reduce: an int, a list/tuple of ints, or None (all axes; an empty list also means all).
        dtype: the result dtype (x is cast to it, then summed); None for the default below.
        keepdim: keep the reduced axes with size 1.
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Returns:
        A Tensor of x's shape without the reduced axes (with size 1 there if keepdim), in `dtype`, else int64 for
        bool and int32 x, else x's dtype.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        >>> float(padax.sum(x))
        21.0
        >>> padax.sum(x, axis=0).tolist()
        [5.0, 7.0, 9.0]
        >>> padax.sum(x, axis=1, keepdim=True).tolist()
        [[6.0], [15.0]]
    """
    if type(x) is Tensor and axis is None and dtype is None and keepdim is False and out is None:
        return _sum_all.call(x)  # (the compiled twin; see padax/functional/_fast.py)
    if out is not None:
        return write_out(out, sum(x=x, axis=axis, dtype=dtype, keepdim=keepdim, name=name), "sum")
    return _sum(x, axis, dtype, keepdim)


def _sum(x: Any, axis: Any = None, dtype: Any = None, keepdim: bool = False) -> Any:
    x = _arg("sum", x, "x")
    axes = reduction_axes("sum", x, axis)
    if dtype is not None:
        out_dt = dtypes.canonicalize(dtypes.to_dtype(dtype))
    elif x.aval.dtype in (dtypes.bool_, dtypes.int32):
        out_dt = dtypes.canonicalize(dtypes.int64)
    else:
        out_dt = x.aval.dtype
    acc = _accumulate_dtype(out_dt)
    out = lax.reduce_sum(lax.convert_element_type(x, acc), axes)
    return _keepdim(lax.convert_element_type(out, out_dt), x.aval.shape, axes, keepdim)


_sum_all = twin(_sum, "sum")


def mean(x: Any, axis: Any = None, keepdim: bool = False, name: str | None = None, *, dtype: Any = None,
         out: Any = None) -> Any:
    """Arithmetic mean over `axis` (in `dtype` when given: x is cast first). As in Paddle, integer inputs
    keep their dtype (the mean, summed in 64 bits, truncates towards zero) and bool inputs give bool
    (True where the mean is nonzero); padax.numpy.mean gives floats, as numpy.

    Args:
        x: the input Tensor.
        axis: the axes to reduce: an int, a list/tuple of ints, or None (all axes; an empty list also means all).
        keepdim: keep the reduced axes with size 1.
        dtype: cast x to this dtype first; None keeps x's.
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Returns:
        A Tensor of x's shape without the reduced axes (with size 1 there if keepdim), in x's dtype (after `dtype`).

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        >>> float(padax.mean(x))
        3.5
        >>> padax.mean(x, axis=1).tolist()
        [2.0, 5.0]
    """
    if out is not None:
        return write_out(out, mean(x=x, axis=axis, keepdim=keepdim, name=name, dtype=dtype), "mean")
    x = _arg("mean", x, "x")
    if dtype is not None:
        x = lax.convert_element_type(x, dtypes.canonicalize(dtypes.to_dtype(dtype)))
    axes = reduction_axes("mean", x, axis)
    dt = x.aval.dtype
    n = int(np.prod([x.aval.shape[a] for a in axes], dtype=np.int64))
    if dt == dtypes.bool_:  # the mean, cast back to bool: True where any element is
        return any(x, axis, keepdim)
    if not dtypes.is_inexact(dt):
        # summed in 64 bits (as Paddle, whose int32 mean does not wrap), divided (truncating), cast back
        wide = dtypes.canonicalize(np.dtype(np.uint64 if dtypes.is_unsigned(dt) else np.int64))
        s = lax.reduce_sum(lax.convert_element_type(x, wide), axes)
        out = lax.div(s, full(s.aval.shape, builtins.max(n, 1), wide))  # integer division truncates
        return _keepdim(lax.convert_element_type(out, dt), x.aval.shape, axes, keepdim)
    acc = _accumulate_dtype(dt)
    s = lax.reduce_sum(lax.convert_element_type(x, acc), axes)
    out = lax.div(s, full(s.aval.shape, n, acc)) if n != 1 else s
    return _keepdim(lax.convert_element_type(out, dt), x.aval.shape, axes, keepdim)


def prod(x: Any, axis: Any = None, keepdim: bool = False, dtype: Any = None, out: Any = None,
         name: str | None = None) -> Any:
    """Product over `axis` (in `dtype` if given).

    Args:
        x: the input Tensor.
        axis: the axes to reduce: an int, a list/tuple of ints, or None (all axes; an empty list also means all).
        keepdim: keep the reduced axes with size 1.
        dtype: cast x to this dtype first; None keeps x's (bool becomes int64).
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Returns:
        A Tensor of x's shape without the reduced axes (with size 1 there if keepdim), in x's dtype (after `dtype`).

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        >>> padax.prod(x, axis=1).tolist()
        [6.0, 120.0]
    """
    if out is not None:
        return write_out(out, prod(x=x, axis=axis, keepdim=keepdim, dtype=dtype, name=name), "prod")
    x = _arg("prod", x, "x")
    axes = reduction_axes("prod", x, axis)
    if dtype is not None:
        x = lax.convert_element_type(x, dtypes.canonicalize(dtypes.to_dtype(dtype)))
    elif x.aval.dtype == dtypes.bool_:
        x = lax.convert_element_type(x, dtypes.default_int_dtype())
    out_dt = x.aval.dtype
    out = lax.reduce_prod(lax.convert_element_type(x, _accumulate_dtype(out_dt)), axes)
    return _keepdim(lax.convert_element_type(out, out_dt), x.aval.shape, axes, keepdim)


# Each factory-made reduction's docstring example: name -> (one line after `import padax`, its printed value),
# checked by doctest.
_EXAMPLES = {
    "max": ("padax.max(padax.to_tensor([[1.0, 5.0], [3.0, 2.0]]), axis=0).tolist()", "[3.0, 5.0]"),
    "min": ("padax.min(padax.to_tensor([[1.0, 5.0], [3.0, 2.0]]), axis=1).tolist()", "[1.0, 2.0]"),
    "amax": ("padax.amax(padax.to_tensor([[1, 5], [3, 2]])).tolist()", "5"),
    "amin": ("padax.amin(padax.to_tensor([[1, 5], [3, 2]]), axis=0, keepdim=True).tolist()", "[[1, 2]]"),
    "argmax": ("padax.argmax(padax.to_tensor([[1, 5], [3, 2]]), axis=1).tolist()", "[1, 0]"),
    "argmin": ("padax.argmin(padax.to_tensor([[1, 5], [3, 0]])).tolist()", "3"),
    "cumsum": ("padax.cumsum(padax.to_tensor([[1, 2], [3, 4]]), axis=1).tolist()", "[[1, 3], [3, 7]]"),
    "cummax": ("[t.tolist() for t in padax.cummax(padax.to_tensor([1, 3, 2]))]", "[[1, 3, 3], [0, 1, 1]]"),
    "cummin": ("[t.tolist() for t in padax.cummin(padax.to_tensor([3, 1, 2]))]", "[[3, 1, 1], [0, 1, 1]]"),
}


# The Args and Returns text of each family of factory-made reductions, for `example_doc`.
_OUT_ARG = "out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one)."
_ORDER_ARGS = ("x: a real Tensor.\n        axis: the axes to reduce: an int, a list/tuple of ints, or None (all "
               "axes).\n        keepdim: keep the reduced axes with size 1.\n        " + _OUT_ARG,
               "A Tensor of x's dtype and shape without the reduced axes (with size 1 there if keepdim).")
_ARG_ARGS = ("x: the input Tensor.\n        axis: the axis to search along, or None for the flattened x."
             "\n        keepdim: keep the searched axis with size 1 (all axes with size 1 when axis is None)."
             "\n        dtype: the integer dtype of the result.",
             "An index Tensor in `dtype`: x's shape without `axis` (0-d when axis is None); with keepdim, the "
             "searched axes are kept with size 1.")
_SCAN_ARGS = ("x: the input Tensor.\n        axis: the axis to scan along; None scans the flattened x."
              "\n        dtype: cast x to this dtype first; None keeps x's (see above).\n        " + _OUT_ARG,
              "A Tensor of x's shape (1-D when axis is None) in x's dtype after the cast.")
_CUM_EXTREME_ARGS = ("x: a real Tensor.\n        axis: the axis to scan along; None scans the flattened x."
                     "\n        dtype: the integer dtype of the indices.",
                     "A tuple (values, indices) of x's shape (1-D when axis is None): values in x's dtype, "
                     "indices in `dtype`.")


def _document(fn, op: str, summary: str, args_returns: tuple[str, str]) -> None:
    """Docstring of a factory-made reduction: `summary`, its family's Args/Returns and its table row's example."""
    args, returns = args_returns
    fn.__doc__ = example_doc(summary, [_EXAMPLES[op]], args=args, returns=returns)


def _order_reduction(op: str, fn):
    def wrapped(x: Any, axis: Any = None, keepdim: bool = False, name: str | None = None, *, out: Any = None) -> Any:
        if out is not None:
            return write_out(out, wrapped(x=x, axis=axis, keepdim=keepdim, name=name), op)
        x = asarray(x)
        if dtypes.is_complex(x.aval.dtype):
            raise op_type_error(op, f"complex numbers have no order, got {x.aval.str_short()}")
        axes = reduction_axes(op, x, axis)
        if builtins.any(x.aval.shape[a] == 0 for a in axes):
            raise op_value_error(op, f"cannot reduce an empty axis of {x.aval.str_short()} (no identity)")
        return _keepdim(fn(x, axes), x.aval.shape, axes, keepdim)
    wrapped.__name__ = wrapped.__qualname__ = op
    _document(wrapped, op, f"The {op[1:] if op[0] == 'a' else op}imum over `axis` (NaN propagates).", _ORDER_ARGS)
    return wrapped


# XLA's max/min propagate NaN, as Paddle's do
max = _order_reduction("max", lax.reduce_max)
min = _order_reduction("min", lax.reduce_min)
amax = _order_reduction("amax", lax.reduce_max)
amin = _order_reduction("amin", lax.reduce_min)


def _as_bool(x: Any) -> Any:
    return x if x.aval.dtype == dtypes.bool_ else lax.convert_element_type(x, dtypes.bool_)


def all(x: Any, axis: Any = None, keepdim: bool = False, name: str | None = None, *, out: Any = None) -> Any:
    """True where every element over `axis` is nonzero.

    Args:
        x: the input Tensor (any dtype; nonzero is True).
        axis: the axes to reduce: an int, a list/tuple of ints, or None (all axes; an empty list also means all).
        keepdim: keep the reduced axes with size 1.
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Returns:
        A Tensor of x's shape without the reduced axes (with size 1 there if keepdim), bool.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[True, False], [True, True]])
        >>> bool(padax.all(x))
        False
        >>> padax.all(x, axis=1).tolist()
        [False, True]
    """
    if out is not None:
        return write_out(out, all(x=x, axis=axis, keepdim=keepdim, name=name), "all")
    x = _arg("all", x, "x")
    axes = reduction_axes("all", x, axis)
    return _keepdim(lax.reduce_and(_as_bool(x), axes), x.aval.shape, axes, keepdim)


def any(x: Any, axis: Any = None, keepdim: bool = False, name: str | None = None, *, out: Any = None) -> Any:
    """True where some element over `axis` is nonzero.

    Args:
        x: the input Tensor (any dtype; nonzero is True).
        axis: the axes to reduce: an int, a list/tuple of ints, or None (all axes; an empty list also means all).
        keepdim: keep the reduced axes with size 1.
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Returns:
        A Tensor of x's shape without the reduced axes (with size 1 there if keepdim), bool.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[True, False], [False, False]])
        >>> bool(padax.any(x))
        True
        >>> padax.any(x, axis=1).tolist()
        [True, False]
    """
    if out is not None:
        return write_out(out, any(x=x, axis=axis, keepdim=keepdim, name=name), "any")
    x = _arg("any", x, "x")
    axes = reduction_axes("any", x, axis)
    return _keepdim(lax.reduce_or(_as_bool(x), axes), x.aval.shape, axes, keepdim)


def logsumexp(x: Any, axis: Any = None, keepdim: bool = False, name: str | None = None, *, out: Any = None) -> Any:
    """log(sum(exp(x))) over `axis`, computed stably by subtracting the maximum.

    Args:
        x: the input Tensor (integer and bool inputs compute in float32).
        axis: the axes to reduce: an int, a list/tuple of ints, or None (all axes; an empty list also means all).
        keepdim: keep the reduced axes with size 1.
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Returns:
        A Tensor of x's shape without the reduced axes (with size 1 there if keepdim), in x's floating dtype.

    Examples:
        >>> import padax
        >>> float(padax.logsumexp(padax.to_tensor([1.0, 2.0, 3.0])))
        3.4076
        >>> float(padax.logsumexp(padax.to_tensor([1000.0, 1000.0])))
        1000.6932
    """
    if out is not None:
        return write_out(out, logsumexp(x=x, axis=axis, keepdim=keepdim, name=name), "logsumexp")
    x = _arg("logsumexp", x, "x")
    if not dtypes.is_inexact(x.aval.dtype):
        x = lax.convert_element_type(x, dtypes.default_float_dtype())
    dt = x.aval.dtype
    axes = reduction_axes("logsumexp", x, axis)
    xa = lax.convert_element_type(x, _accumulate_dtype(dt))
    m = lax.reduce_max(xa, axes)
    m = lax.select(lax.is_finite(m), m, full(m.aval.shape, 0, m.aval.dtype))
    m = stop_gradient_p.bind(m)  # the shift cancels out (zero gradient): don't differentiate the max
    m_kept = lax.reshape(m, tuple(1 if i in axes else d for i, d in enumerate(x.aval.shape)))
    m_b = lax.broadcast_in_dim(m_kept, x.aval.shape, tuple(builtins.range(x.aval.ndim)))
    s = lax.reduce_sum(lax.exp(lax.sub(xa, m_b)), axes)
    out = lax.add(lax.log(s), m)
    return _keepdim(lax.convert_element_type(out, dt), x.aval.shape, axes, keepdim)


def _float_input(x: Any) -> Any:
    if not dtypes.is_inexact(x.aval.dtype):
        x = lax.convert_element_type(x, dtypes.default_float_dtype())
    return x


def nansum(x: Any, axis: Any = None, dtype: Any = None, keepdim: bool = False, name: str | None = None) -> Any:
    """Sum over `axis` treating NaN as zero.

    Args:
        x: the input Tensor.
        axis: the axes to reduce: an int, a list/tuple of ints, or None (all axes; an empty list also means all).
        dtype: the result dtype (x is cast to it, then summed); None: as `sum`.
        keepdim: keep the reduced axes with size 1.

    Returns:
        A Tensor of x's shape without the reduced axes (with size 1 there if keepdim), in the dtype `sum` gives.

    Examples:
        >>> import padax
        >>> float(padax.nansum(padax.to_tensor([1.0, float('nan'), 2.0])))
        3.0
    """
    x = _arg("nansum", x, "x")
    if dtypes.is_inexact(x.aval.dtype):
        x = lax.select(lax.ne(x, x), full(x.aval.shape, 0, x.aval.dtype), x)
    return sum(x, axis, dtype, keepdim)


def nanmean(x: Any, axis: Any = None, keepdim: bool = False, name: str | None = None) -> Any:
    """Mean over `axis` of the non-NaN elements (NaN where all are NaN).

    Args:
        x: the input Tensor (integer and bool inputs compute in float32).
        axis: the axes to reduce: an int, a list/tuple of ints, or None (all axes; an empty list also means all).
        keepdim: keep the reduced axes with size 1.

    Returns:
        A Tensor of x's shape without the reduced axes (with size 1 there if keepdim), in x's floating dtype.

    Examples:
        >>> import padax
        >>> float(padax.nanmean(padax.to_tensor([1.0, float('nan'), 2.0])))
        1.5
    """
    x = _float_input(asarray(x))
    axes = reduction_axes("nanmean", x, axis)
    dt = x.aval.dtype
    acc = _accumulate_dtype(dt)
    nan = lax.ne(x, x)
    xa = lax.select(nan, full(x.aval.shape, 0, acc), lax.convert_element_type(x, acc))
    s = lax.reduce_sum(xa, axes)
    cnt = lax.reduce_sum(lax.convert_element_type(lax.bitwise_not(nan), acc), axes)
    out = lax.div(s, cnt)
    return _keepdim(lax.convert_element_type(out, dt), x.aval.shape, axes, keepdim)


def count_nonzero(x: Any, axis: Any = None, keepdim: bool = False, name: str | None = None) -> Any:
    """The number (int64) of nonzero elements over `axis`.

    Args:
        x: the input Tensor.
        axis: the axes to reduce: an int, a list/tuple of ints, or None (all axes; an empty list also means all).
        keepdim: keep the reduced axes with size 1.

    Returns:
        A Tensor of x's shape without the reduced axes (with size 1 there if keepdim), int64.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[0, 1, 2], [0, 0, 3]])
        >>> int(padax.count_nonzero(x))
        3
        >>> padax.count_nonzero(x, axis=1).tolist()
        [2, 1]
    """
    x = _arg("count_nonzero", x, "x")
    axes = reduction_axes("count_nonzero", x, axis)
    nz = x if x.aval.dtype == dtypes.bool_ else lax.ne(x, full(x.aval.shape, 0, x.aval.dtype))
    out_dt = dtypes.canonicalize(dtypes.int64)
    out = lax.reduce_sum(lax.convert_element_type(nz, out_dt), axes)
    return _keepdim(out, x.aval.shape, axes, keepdim)


def var(x: Any, axis: Any = None, unbiased: bool | None = None, keepdim: bool = False, name: str | None = None,
        *, correction: float = 1, out: Any = None) -> Any:
    """Variance over `axis`: the squared deviations summed and divided by n - correction (`unbiased=True`
    means correction 1, `False` correction 0; the default is 1, as in Paddle). Complex inputs use
    |x - mean|^2. Integer inputs keep their dtype and integer arithmetic, as Paddle's kernel does
    (the mean and the quotient truncate).

    Args:
        x: the input Tensor.
        axis: the axes to reduce: an int, a list/tuple of ints, or None (all axes; an empty list also means all).
        unbiased: True divides by n - 1, False by n; None uses `correction`.
        keepdim: keep the reduced axes with size 1.
        correction: what is subtracted from n in the divisor when unbiased is None.
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Returns:
        A Tensor of x's shape without the reduced axes (with size 1 there if keepdim): x's dtype for real x (float32
        for bool), the matching real dtype for complex x.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([1.0, 2.0, 3.0, 4.0])
        >>> float(padax.var(x))
        1.6667
        >>> float(padax.var(x, unbiased=False))
        1.25
    """
    if out is not None:
        result = var(
            x=x, axis=axis, unbiased=unbiased, keepdim=keepdim, name=name, correction=correction)
        return write_out(out, result, "var")
    ddof = correction if unbiased is None else (1 if unbiased else 0)
    x = asarray(x)
    if dtypes.is_integer(x.aval.dtype):
        return _int_var(x, axis, ddof, keepdim)
    x = _float_input(x)
    axes = reduction_axes("var", x, axis)
    dt = x.aval.dtype
    acc = _accumulate_dtype(dt)
    xa = lax.convert_element_type(x, acc)
    n = int(np.prod([x.aval.shape[a] for a in axes], dtype=np.int64))
    kept = tuple(1 if i in axes else d for i, d in enumerate(x.aval.shape))
    m = lax.div(lax.reduce_sum(xa, axes), full(lax.reduce_sum(xa, axes).aval.shape, builtins.max(n, 1), acc))
    mb = lax.broadcast_in_dim(lax.reshape(m, kept), x.aval.shape, tuple(builtins.range(x.aval.ndim)))
    d = lax.sub(xa, mb)
    sq = lax.mul(d, lax.conj(d)) if dtypes.is_complex(acc) else lax.mul(d, d)
    if dtypes.is_complex(acc):
        sq = lax.real(sq)
    ss = lax.reduce_sum(sq, axes)
    denom = builtins.max(n - ddof, 0)
    out = lax.div(ss, full(ss.aval.shape, denom, ss.aval.dtype))  # no degrees of freedom left: 0 / 0 = NaN
    out_dt = dtypes.finfo(dt).dtype if dtypes.is_complex(dt) else dt
    return _keepdim(lax.convert_element_type(out, out_dt), x.aval.shape, axes, keepdim)


def _int_var(x: Any, axis: Any, ddof: float, keepdim: bool) -> Any:
    """Paddle's integer variance: truncated integer mean, integer squared deviations, truncated quotient."""
    axes = reduction_axes("var", x, axis)
    dt = x.aval.dtype
    n = int(np.prod([x.aval.shape[a] for a in axes], dtype=np.int64))
    kept = tuple(1 if i in axes else d for i, d in enumerate(x.aval.shape))
    s = lax.reduce_sum(x, axes)
    m = lax.div(s, full(s.aval.shape, builtins.max(n, 1), dt))
    mb = lax.broadcast_in_dim(lax.reshape(m, kept), x.aval.shape, tuple(builtins.range(x.aval.ndim)))
    d = lax.sub(x, mb)
    ss = lax.reduce_sum(lax.mul(d, d), axes)
    out = lax.div(ss, full(ss.aval.shape, builtins.max(int(n - ddof), 1), dt))
    return _keepdim(out, x.aval.shape, axes, keepdim)


def std(x: Any, axis: Any = None, unbiased: bool = True, keepdim: bool = False, name: str | None = None) -> Any:
    """Standard deviation over `axis`; unbiased (n - 1) by default, as in Paddle. Integer inputs give the
    default float dtype (the square root of Paddle's integer variance).

    Args:
        x: the input Tensor.
        axis: the axes to reduce: an int, a list/tuple of ints, or None (all axes; an empty list also means all).
        unbiased: True divides the squared deviations by n - 1, False by n.
        keepdim: keep the reduced axes with size 1.

    Returns:
        A Tensor of x's shape without the reduced axes (with size 1 there if keepdim), floating (the default float
        dtype for integer x).

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([1.0, 2.0, 3.0, 4.0])
        >>> float(padax.std(x))
        1.291
        >>> float(padax.std(x, unbiased=False))
        1.118
    """
    v = var(x, axis, unbiased, keepdim)
    if not dtypes.is_inexact(v.aval.dtype):
        v = lax.convert_element_type(v, dtypes.default_float_dtype())
    return lax.sqrt(v)



def reduce_as(x: Any, target: Any, name: str | None = None) -> Any:
    """x summed down to target's shape (the inverse of broadcasting x from that shape).

    Args:
        x: the input Tensor.
        target: a Tensor whose shape x broadcasts from (only its shape is used).

    Returns:
        A Tensor of target's shape in x's dtype.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        >>> padax.reduce_as(x, padax.zeros([3])).tolist()
        [5.0, 7.0, 9.0]
        >>> padax.reduce_as(x, padax.zeros([2, 1])).tolist()
        [[6.0], [15.0]]
    """
    x = _arg("reduce_as", x, "x")
    t = _arg("reduce_as", target, "target")
    xs, ts = x.aval.shape, t.aval.shape
    lead = len(xs) - len(ts)
    if lead < 0 or builtins.any(d != 1 and d != xs[lead + i] for i, d in enumerate(ts)):
        raise op_value_error("reduce_as", f"x {x.aval.str_short()} is not a broadcast of target's shape {list(ts)}")
    axes = tuple(builtins.range(lead)) + tuple(lead + i for i, d in enumerate(ts) if d == 1 and xs[lead + i] != 1)
    return lax.reshape(lax.reduce_sum(x, axes) if axes else x, ts)


# ---- searches and scans ----------------------------------------------------------------------

def _index_dtype(dtype: Any) -> np.dtype:
    dt = dtypes.canonicalize(dtypes.to_dtype(dtype))
    if not dtypes.is_integer(dt):
        raise TypeError(f"index dtype must be an integer type, got {dt.name}")
    return dt


def _arg_reduction(op: str, fn):
    def wrapped(x: Any, axis: int | None = None, keepdim: bool = False, dtype: Any = "int64",
                name: str | None = None) -> Any:
        x = asarray(x)
        idt = _index_dtype(dtype)
        if axis is None:
            flat = lax.reshape(x, (x.aval.size,))
            out = fn(flat, 0, idt)
            return lax.reshape(out, (1,) * x.aval.ndim) if keepdim else out
        if x.aval.ndim == 0:
            canonicalize_axis(op, axis, 0)
            return full((), 0, idt)
        a = canonicalize_axis(op, axis, x.aval.ndim)
        return _keepdim(fn(x, a, idt), x.aval.shape, (a,), keepdim)
    wrapped.__name__ = wrapped.__qualname__ = op
    _document(wrapped, op, f"Index of the first {op[3:]}imum along `axis` (of the flattened array when "
                           "axis is None); int64 by default.", _ARG_ARGS)
    return wrapped


argmax = _arg_reduction("argmax", lax.argmax)
argmin = _arg_reduction("argmin", lax.argmin)


def _scan(op: str, fn, widen: tuple):
    def wrapped(x: Any, axis: int | None = None, dtype: Any = None, name: str | None = None, *, out: Any = None) -> Any:
        if out is not None:
            return write_out(out, wrapped(x=x, axis=axis, dtype=dtype, name=name), op)
        x = asarray(x)
        if dtype is not None:
            x = lax.convert_element_type(x, dtypes.canonicalize(dtypes.to_dtype(dtype)))
        elif x.aval.dtype in widen:  # as Paddle: cumsum of bool and narrow ints gives int64
            x = lax.convert_element_type(x, dtypes.default_int_dtype())
        if axis is None:
            x = lax.reshape(x, (x.aval.size,))
            axis = 0
        if x.aval.ndim == 0:
            canonicalize_axis(op, axis, 0)
            return x
        a = canonicalize_axis(op, axis, x.aval.ndim)
        dt = x.aval.dtype
        return lax.convert_element_type(fn(lax.convert_element_type(x, _accumulate_dtype(dt)), a), dt)
    wrapped.__name__ = wrapped.__qualname__ = op
    return wrapped


cumsum = _scan("cumsum", lax.cumsum, (dtypes.bool_, np.dtype(np.int8), np.dtype(np.int16), np.dtype(np.uint8),
                                       dtypes.int32))
_document(cumsum, "cumsum", "Inclusive running sum along `axis` (of the flattened array when axis is None); bool "
          "and integer inputs narrower than int64 give int64, as in Paddle.", _SCAN_ARGS)
_cumprod = _scan("cumprod", lax.cumprod, (dtypes.bool_,))


def cumprod(x: Any, dim: int | None = None, *, dtype: Any = None, out: Any = None, name: str | None = None) -> Any:
    """Inclusive running product along `dim` (of the flattened array when dim is None).

    Args:
        x: the input Tensor.
        dim: the axis to scan along; None scans the flattened x.
        dtype: cast x to this dtype first; None keeps x's (bool becomes int64).
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Returns:
        A Tensor of x's shape (1-D when dim is None) in x's dtype (after `dtype`).

    Examples:
        >>> import padax
        >>> padax.cumprod(padax.to_tensor([1.0, 2.0, 3.0, 4.0]), dim=0).tolist()
        [1.0, 2.0, 6.0, 24.0]
    """
    if out is not None:
        return write_out(out, cumprod(x=x, dim=dim, dtype=dtype, name=name), "cumprod")
    return _cumprod(x, dim, dtype)


def _cum_extreme(op: str, fn):
    def wrapped(x: Any, axis: int | None = None, dtype: Any = "int64", name: str | None = None) -> tuple[Any, Any]:
        x = asarray(x)
        idt = _index_dtype(dtype)
        if dtypes.is_complex(x.aval.dtype):
            raise op_type_error(op, f"complex numbers have no order, got {x.aval.str_short()}")
        if axis is None:
            x = lax.reshape(x, (x.aval.size,))
            axis = 0
        if x.aval.ndim == 0:
            canonicalize_axis(op, axis, 0)
            return x, full((), 0, idt)
        a = canonicalize_axis(op, axis, x.aval.ndim)
        v = fn(x, a)
        # the index of the latest element equal to the running extremum (a NaN, once one is seen)
        hit = lax.eq(x, v)
        if dtypes.is_inexact(x.aval.dtype):
            hit = lax.bitwise_or(hit, lax.bitwise_and(lax.ne(x, x), lax.ne(v, v)))
        pos = lax.broadcasted_iota(dtypes.int32, x.aval.shape, a)
        idx = lax.cummax(lax.select(hit, pos, full(x.aval.shape, 0, dtypes.int32)), a)
        if dtypes.is_inexact(x.aval.dtype):
            # the values read at idx: the gradient goes to the indexed element, as Paddle's (lax.cummax's
            # rule, as jax's, splits it among tied elements)
            v = take_along_axis(x, idx, a)
        return v, lax.convert_element_type(idx, idt)
    wrapped.__name__ = wrapped.__qualname__ = op
    _document(wrapped, op, f"Running {op[3:]}imum along `axis` (of the flattened x when None) and the int64 index "
                           "where it was last attained; NaN propagates.", _CUM_EXTREME_ARGS)
    return wrapped


cummax = _cum_extreme("cummax", lax.cummax)
cummin = _cum_extreme("cummin", lax.cummin)


def logcumsumexp(x: Any, axis: int | None = None, dtype: Any = None, name: str | None = None) -> Any:
    """log(cumsum(exp(x))) along `axis` (flattened when None), computed stably by a log-add-exp scan.

    Args:
        x: the input Tensor (integer and bool inputs compute in float32).
        axis: the axis to scan along; None scans the flattened x.
        dtype: cast x to this dtype first; None keeps x's.

    Returns:
        A floating Tensor of x's shape (1-D when axis is None).

    Examples:
        >>> import padax
        >>> padax.logcumsumexp(padax.to_tensor([0.0, 0.0, 0.0]), axis=0).tolist()
        [0.0, 0.6931, 1.0986]
    """
    x = _arg("logcumsumexp", x, "x")
    if dtype is not None:
        x = lax.convert_element_type(x, dtypes.canonicalize(dtypes.to_dtype(dtype)))
    x = _float_input(x)
    if axis is None:
        x = lax.reshape(x, (x.aval.size,))
        axis = 0
    if x.aval.ndim == 0:
        canonicalize_axis("logcumsumexp", axis, 0)
        return x
    a = canonicalize_axis("logcumsumexp", axis, x.aval.ndim)
    dt = x.aval.dtype
    y = lax.convert_element_type(x, _accumulate_dtype(dt))
    n = x.aval.shape[a]
    w = 1
    ninf = full((), -np.inf, y.aval.dtype)
    while w < n:
        cfg = [(0, 0, 0)] * y.aval.ndim
        cfg[a] = (w, -w, 0)
        y = logaddexp(y, lax.pad(y, ninf, cfg))
        w *= 2
    return lax.convert_element_type(y, dt)


def _sort_with_indices(x: Any, axis: int, descending: bool) -> tuple[Any, Any]:
    n = x.aval.shape[axis]
    idx = lax.broadcasted_iota(dtypes.int32, x.aval.shape, axis)
    if not descending:
        return lax.sort_key_val(x, idx, axis, True)
    # descending, ties in original order: stable ascending sort of the reversed array, reversed back
    v, j = lax.sort_key_val(lax.rev(x, (axis,)), idx, axis, True)
    v, j = lax.rev(v, (axis,)), lax.rev(j, (axis,))
    return v, lax.sub(full(j.aval.shape, n - 1, dtypes.int32), j)


def msort(input: Any, *, out: Any = None) -> Any:  # noqa: A002  (Paddle's parameter name)
    """input sorted along its first axis (ascending).

    Args:
        input: the Tensor to sort.
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Returns:
        A Tensor of input's shape and dtype.

    Examples:
        >>> import padax
        >>> padax.msort(padax.to_tensor([[3.0, 1.0], [1.0, 2.0], [2.0, 0.0]])).tolist()
        [[1.0, 0.0], [2.0, 1.0], [3.0, 2.0]]
    """
    if out is not None:
        return write_out(out, msort(input=input), "msort")
    return sort(input, 0)


def sort(x: Any, axis: int = -1, descending: bool = False, stable: bool = False, name: str | None = None) -> Any:
    """Sorted values along `axis` (NaNs last ascending, first descending).

    Args:
        x: the input Tensor.
        axis: the axis to sort along.
        descending: sort from largest to smallest.
        stable: no effect: the sort is always stable.

    Returns:
        A Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([3.0, 1.0, 2.0])
        >>> padax.sort(x).tolist()
        [1.0, 2.0, 3.0]
        >>> padax.sort(x, descending=True).tolist()
        [3.0, 2.0, 1.0]
    """
    x = _arg("sort", x, "x")
    if x.aval.ndim == 0:
        return x
    a = canonicalize_axis("sort", axis, x.aval.ndim)
    if not descending:
        return lax.sort(x, a, True)
    return lax.rev(lax.sort(lax.rev(x, (a,)), a, True), (a,))


def argsort(x: Any, axis: int = -1, descending: bool = False, stable: bool = False,
            name: str | None = None) -> Any:
    """Indices (int64) that sort `x` along `axis`; equal elements keep their order.

    Args:
        x: the input Tensor.
        axis: the axis to sort along.
        descending: sort from largest to smallest.
        stable: no effect: the sort is always stable (ties keep their order).

    Returns:
        An int64 Tensor of x's shape.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([3.0, 1.0, 2.0])
        >>> padax.argsort(x).tolist()
        [1, 2, 0]
        >>> padax.argsort(x, descending=True).tolist()
        [0, 2, 1]
    """
    x = _arg("argsort", x, "x")
    idt = dtypes.canonicalize(dtypes.int64)
    if x.aval.ndim == 0:
        return full((), 0, idt)
    a = canonicalize_axis("argsort", axis, x.aval.ndim)
    return lax.convert_element_type(_sort_with_indices(x, a, descending)[1], idt)


def topk(x: Any, k: Any, axis: int | None = None, largest: bool = True, sorted: bool = True,
         name: str | None = None, *, out: Any = None) -> tuple[Any, Any]:
    """(values, int64 indices) of the k largest (or smallest) entries along `axis` (default last).

    Args:
        x: the input Tensor.
        k: how many entries to take (0 to the size of `axis`).
        axis: the axis to search along; None for the last.
        largest: True for the k largest entries, False for the k smallest.
        sorted: no effect: the entries always come sorted (largest first, or smallest first).
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Returns:
        A tuple (values, indices): x's shape with `axis` of size k; values in x's dtype, indices int64.

    Examples:
        >>> import padax
        >>> values, indices = padax.topk(padax.to_tensor([1.0, 4.0, 2.0, 3.0]), k=2)
        >>> values.tolist(), indices.tolist()
        ([4.0, 3.0], [1, 3])
        >>> padax.topk(padax.to_tensor([1.0, 4.0, 2.0, 3.0]), k=2, largest=False)[0].tolist()
        [1.0, 2.0]
    """
    if out is not None:
        return write_out(out, topk(x=x, k=k, axis=axis, largest=largest, sorted=sorted, name=name), "topk")
    x = _arg("topk", x, "x")
    k = static_int("topk", k, "k")
    idt = dtypes.canonicalize(dtypes.int64)
    if x.aval.ndim == 0:
        if k != 1:
            raise op_value_error("topk", f"k={k} is out of range for a 0-d input")
        return x, full((), 0, idt)
    a = x.aval.ndim - 1 if axis is None else canonicalize_axis("topk", axis, x.aval.ndim)
    n = x.aval.shape[a]
    if not 0 <= k <= n:
        raise op_value_error("topk", f"k={k} must be between 0 and {n}, the size of axis {a} of {x.aval.str_short()}")
    last = x.aval.ndim - 1
    perm = None
    if a != last:
        perm = tuple(i for i in builtins.range(x.aval.ndim) if i != a) + (a,)
        x = lax.transpose(x, perm)
    if largest:
        v, i = lax.top_k(x, k)
    else:
        v, i = _sort_with_indices(x, last, False)
        v = lax.slice_in_dim(v, 0, k, 1, last)
        i = lax.slice_in_dim(i, 0, k, 1, last)
    if perm is not None:
        inv = tuple(int(p) for p in np.argsort(perm))
        v, i = lax.transpose(v, inv), lax.transpose(i, inv)
    return v, lax.convert_element_type(i, idt)


__all__ = ["sum", "mean", "prod", "max", "min", "amax", "amin", "all", "any", "logsumexp", "argmax",
           "argmin", "cumsum", "cumprod", "sort", "argsort", "topk", "nansum", "nanmean", "count_nonzero", "var",
           "std", "cummax", "cummin", "logcumsumexp", "reduce_as", "msort"]
