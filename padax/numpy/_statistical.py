"""Reductions and scans: sum, prod, mean, max, min, std, var, cumulative_sum/prod, all, any,
count_nonzero, diff, and NumPy's nan-functions, median, quantile/percentile, average, ptp.

`axis` is None (all axes), an int, or a tuple (an empty tuple reduces
nothing). Without `dtype`, sum/prod of integers narrower than the default
integer accumulate in the default integer (signed) or its unsigned twin, and
bool counts in the default integer; float16/bfloat16 accumulate in float32.
"""
from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from padax import lax
from padax.core.errors import op_value_error
from padax.functional._arrays import canonicalize_axis
from padax.numpy import _dtypes as D
from padax.numpy._indexing import take, take_along_axis
from padax.numpy._searching import argsort, sort
from padax.numpy._util import (
    axes as _axes,
    broadcast_to,
    check,
    full_like_shape,
    keepdims as _keep,
    promote,
    real_dtype,
    scalar_like,
    static_int,
    to_array,
    to_inexact,
)

_LOW = (D.float16, D.bfloat16)


def _acc(dt: np.dtype) -> np.dtype:
    return D.float32 if dt in _LOW else dt


def _sum_dtype(dt: np.dtype) -> np.dtype:
    di = D.default_int()
    if dt == D.bool_:
        return di
    if dt.kind == "i" and dt.itemsize < di.itemsize:
        return di
    if dt.kind == "u" and dt.itemsize < di.itemsize:
        return D.default_uint()
    return dt


def _out_dtype(x: Any, dtype: Any) -> np.dtype:
    return _sum_dtype(x.aval.dtype) if dtype is None else D.canonicalize(dtype)


def sum(x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: builtins.bool = False) -> Any:
    """Sum over `axis`.

    Args:
        x: an array or array-like.
        axis: an int, a tuple of ints, or None (all axes); () reduces nothing.
        dtype: the accumulation and result dtype (None: x's, with bool and small integers widened to the default
            (unsigned) int).
        keepdims: keep the reduced axes with size 1.
        where, initial: NumPy's mask of the elements to add and a starting value.

    Returns:
        An array without the reduced axes (size-1 with `keepdims`).

    Examples:
        >>> import padax.numpy as pnp
        >>> x = pnp.array([[1, 2], [3, 4]])
        >>> pnp.sum(x).tolist(), pnp.sum(x, axis=0).tolist()
        (10, [4, 6])
        >>> pnp.sum(x, axis=1, keepdims=True).tolist()
        [[3], [7]]
        >>> pnp.sum(x, where=pnp.array([True, False])).tolist()
        4
    """
    x = to_array(x)
    ax = _axes("sum", axis, x.aval.ndim)
    dt = _out_dtype(x, dtype)
    out = lax.reduce_sum(lax.convert_element_type(x, _acc(dt)), ax)
    return _keep(lax.convert_element_type(out, dt), x.aval.shape, ax, keepdims)


def prod(x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: builtins.bool = False) -> Any:
    """Product over `axis`.

    Args:
        x: an array or array-like.
        axis: an int, a tuple of ints, or None (all axes).
        dtype: the accumulation and result dtype (None: as `sum`).
        keepdims: keep the reduced axes with size 1.
        where, initial: NumPy's mask of the elements to multiply and a starting value.

    Returns:
        An array without the reduced axes (size-1 with `keepdims`).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.prod(pnp.array([[1, 2], [3, 4]]), axis=1).tolist()
        [2, 12]
        >>> pnp.prod(pnp.array([2.0, 3.0]), initial=10.0).tolist()
        60.0
    """
    x = to_array(x)
    ax = _axes("prod", axis, x.aval.ndim)
    dt = _out_dtype(x, dtype)
    out = lax.reduce_prod(lax.convert_element_type(x, _acc(dt)), ax)
    return _keep(lax.convert_element_type(out, dt), x.aval.shape, ax, keepdims)


def _count(shape: tuple[int, ...], ax: tuple[int, ...]) -> builtins.int:
    return builtins.int(np.prod([shape[a] for a in ax], dtype=np.int64))


def mean(x: Any, /, *, axis: Any = None, keepdims: builtins.bool = False, dtype: Any = None) -> Any:
    """Arithmetic mean over `axis` (integers and bool give the default floating dtype).

    Args:
        x: an array or array-like.
        axis: an int, a tuple of ints, or None (all axes).
        keepdims: keep the reduced axes with size 1.
        dtype: the dtype to compute in (None: x's, or the default float for integers and bool).
        where: NumPy's mask: average only these elements.

    Returns:
        A floating (or complex) array without the reduced axes.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.mean(pnp.array([[1.0, 2.0], [3.0, 5.0]]), axis=0).tolist()
        [2.0, 3.5]
        >>> pnp.mean(pnp.array([1, 2])).dtype  # integers: the default float (NumPy: float64)
        dtype('float32')
    """
    x = to_inexact(x) if dtype is None else to_array(x, dtype)
    ax = _axes("mean", axis, x.aval.ndim)
    dt = x.aval.dtype
    s = lax.reduce_sum(lax.convert_element_type(x, _acc(dt)), ax)
    n = _count(x.aval.shape, ax)
    out = lax.div(s, scalar_like(s, n))
    return _keep(lax.convert_element_type(out, dt), x.aval.shape, ax, keepdims)


def _order_reduce(name: str, fn, examples: str):
    """max or min (by `fn`); `examples` is the Examples section of its docstring."""
    def wrapped(x: Any, /, *, axis: Any = None, keepdims: builtins.bool = False) -> Any:
        x = to_array(x)
        check(name, x, lambda d: D.kind(d) < 3, "real")
        ax = _axes(name, axis, x.aval.ndim)
        if builtins.any(x.aval.shape[a] == 0 for a in ax):
            raise op_value_error(name, f"cannot reduce an empty axis of {x.aval.str_short()} (no identity)")
        return _keep(fn(x, ax), x.aval.shape, ax, keepdims)
    wrapped.__name__ = wrapped.__qualname__ = name
    wrapped.__doc__ = (f"The {name}imum over `axis` (NaN propagates).\n\n"
                       "    Args:\n        x: an array or array-like of real numbers (not empty along `axis`).\n"
                       "        axis: an int, a tuple of ints, or None (all axes) to reduce over.\n"
                       "        keepdims: keep the reduced axes with size 1.\n"
                       "        where, initial: NumPy's mask of the elements to include and a starting value "
                       "(a mask needs `initial`).\n\n"
                       f"    Returns:\n        An array of x's dtype, without the reduced axes.\n\n{examples}")
    return wrapped


max = _order_reduce("max", lax.reduce_max, """    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.max(pnp.array([[1, 5], [7, 2]])).tolist(), pnp.max(pnp.array([[1, 5], [7, 2]]), axis=1).tolist()
        (7, [5, 7])
        >>> pnp.max(pnp.array([1.0, pnp.nan])).tolist()
        nan
    """)
min = _order_reduce("min", lax.reduce_min, """    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.min(pnp.array([[1, 5], [7, 2]]), axis=0).tolist()
        [1, 2]
        >>> pnp.min(pnp.array([4, 9]), where=pnp.array([False, True]), initial=100).tolist()
        9
    """)
amax, amin = max, min


def ptp(x: Any, /, *, axis: Any = None, keepdims: builtins.bool = False) -> Any:
    """max - min over `axis`.

    Args:
        x: a real array or array-like.
        axis: an int, a tuple of ints, or None (all axes).
        keepdims: keep the reduced axes with size 1.

    Returns:
        An array of x's dtype without the reduced axes.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.ptp(pnp.array([[1, 5], [7, 2]]), axis=1).tolist()
        [4, 5]
    """
    return lax.sub(max(x, axis=axis, keepdims=keepdims), min(x, axis=axis, keepdims=keepdims))


def _moments(name: str, x: Any, axis: Any, correction: Any, keepdims: builtins.bool) -> Any:
    x = to_inexact(x)
    ax = _axes(name, axis, x.aval.ndim)
    dt = x.aval.dtype
    xa = lax.convert_element_type(x, _acc(dt))
    n = _count(x.aval.shape, ax)
    m = lax.div(lax.reduce_sum(xa, ax), full_like_shape(tuple(d for i, d in enumerate(x.aval.shape)
                                                               if i not in ax), n, xa.aval.dtype))
    kept = tuple(1 if i in ax else d for i, d in enumerate(x.aval.shape))
    mb = broadcast_to(lax.reshape(m, kept), x.aval.shape)
    dev = lax.sub(xa, mb)
    if D.kind(dt) == 3:
        sq = lax.add(lax.square(lax.real(dev)), lax.square(lax.imag(dev)))
    else:
        sq = lax.square(dev)
    s = lax.reduce_sum(sq, ax)
    out = lax.div(s, scalar_like(s, builtins.max(n - correction, 0)))
    return _keep(lax.convert_element_type(out, real_dtype(dt)), x.aval.shape, ax, keepdims)


def var(x: Any, /, *, axis: Any = None, correction: builtins.float = 0.0, keepdims: builtins.bool = False) -> Any:
    """Variance over `axis`, dividing by N - correction (real for complex input).

    Args:
        x: an array or array-like (integers and bool: the default float).
        axis: an int, a tuple of ints, or None (all axes).
        correction: subtracted from the element count in the divisor (NumPy's `ddof=` is accepted too).
        keepdims: keep the reduced axes with size 1.
        dtype, where: NumPy's options: compute in this dtype; use only the masked elements.

    Returns:
        A real floating array without the reduced axes.

    Examples:
        >>> import padax.numpy as pnp
        >>> x = pnp.array([1.0, 2.0, 3.0, 4.0])
        >>> pnp.var(x).tolist(), pnp.var(x, ddof=1).tolist()
        (1.25, 1.6667)
    """
    return _moments("var", x, axis, correction, keepdims)


def std(x: Any, /, *, axis: Any = None, correction: builtins.float = 0.0, keepdims: builtins.bool = False) -> Any:
    """Standard deviation over `axis`, from the variance with N - correction.

    Args:
        x: an array or array-like (integers and bool: the default float).
        axis: an int, a tuple of ints, or None (all axes).
        correction: subtracted from the element count in the divisor (NumPy's `ddof=` is accepted too).
        keepdims: keep the reduced axes with size 1.
        dtype, where: NumPy's options: compute in this dtype; use only the masked elements.

    Returns:
        A real floating array without the reduced axes.

    Examples:
        >>> import padax.numpy as pnp
        >>> x = pnp.array([1.0, 2.0, 3.0, 4.0])
        >>> pnp.std(x).tolist(), pnp.std(x, correction=1).tolist()
        (1.118, 1.291)
    """
    return lax.sqrt(_moments("std", x, axis, correction, keepdims))


def _as_bool(x: Any) -> Any:
    return x if x.aval.dtype == D.bool_ else lax.ne(x, scalar_like(x, 0))


def all(x: Any, /, *, axis: Any = None, keepdims: builtins.bool = False) -> Any:
    """True where every element over `axis` is nonzero.

    Args:
        x: an array or array-like of any dtype (nonzero counts as True).
        axis: an int, a tuple of ints, or None (all axes).
        keepdims: keep the reduced axes with size 1.
        where: NumPy's mask: test only these elements.

    Returns:
        A bool array without the reduced axes.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.all(pnp.array([[True, False], [True, True]]), axis=1).tolist()
        [False, True]
        >>> pnp.all(pnp.array([1, 2, 0])).tolist()
        False
    """
    x = to_array(x)
    ax = _axes("all", axis, x.aval.ndim)
    return _keep(lax.reduce_and(_as_bool(x), ax), x.aval.shape, ax, keepdims)


def any(x: Any, /, *, axis: Any = None, keepdims: builtins.bool = False) -> Any:
    """True where some element over `axis` is nonzero.

    Args:
        x: an array or array-like of any dtype (nonzero counts as True).
        axis: an int, a tuple of ints, or None (all axes).
        keepdims: keep the reduced axes with size 1.
        where: NumPy's mask: test only these elements.

    Returns:
        A bool array without the reduced axes.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.any(pnp.array([[True, False], [False, False]]), axis=1).tolist()
        [True, False]
    """
    x = to_array(x)
    ax = _axes("any", axis, x.aval.ndim)
    return _keep(lax.reduce_or(_as_bool(x), ax), x.aval.shape, ax, keepdims)


def count_nonzero(x: Any, /, *, axis: Any = None, keepdims: builtins.bool = False) -> Any:
    """The number of nonzero elements over `axis` (default integer dtype).

    Args:
        x: an array or array-like.
        axis: an int, a tuple of ints, or None (all axes).
        keepdims: keep the reduced axes with size 1.

    Returns:
        A default-int array without the reduced axes.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.count_nonzero(pnp.array([[0, 1, 2], [3, 0, 0]])).tolist()
        3
        >>> pnp.count_nonzero(pnp.array([[0, 1, 2], [3, 0, 0]]), axis=1).tolist()
        [2, 1]
    """
    x = to_array(x)
    ax = _axes("count_nonzero", axis, x.aval.ndim)
    ones = lax.convert_element_type(_as_bool(x), D.default_int())
    return _keep(lax.reduce_sum(ones, ax), x.aval.shape, ax, keepdims)


def _cumulative(name: str, fn, x: Any, axis: Any, dtype: Any, include_initial: builtins.bool, init: Any) -> Any:
    x = to_array(x)
    if axis is None:
        if x.aval.ndim > 1:
            raise op_value_error(name, f"axis is required for arrays of more than one dimension, got "
                                       f"{x.aval.str_short()}")
        if x.aval.ndim == 0:
            x = lax.reshape(x, (1,))
        axis = 0
    a = canonicalize_axis(name, static_int(name, axis, "axis"), x.aval.ndim)
    dt = _out_dtype(x, dtype)
    xa = lax.convert_element_type(x, _acc(dt))
    out = lax.convert_element_type(fn(xa, a), dt) if x.aval.shape[a] else lax.convert_element_type(xa, dt)
    if include_initial:
        shape = tuple(1 if i == a else d for i, d in enumerate(out.aval.shape))
        out = lax.concatenate([full_like_shape(shape, init, dt), out], a)
    return out


def cumulative_sum(x: Any, /, *, axis: builtins.int | None = None, dtype: Any = None,
                   include_initial: builtins.bool = False) -> Any:
    """Running sum along `axis` (optional only for 1-D input); `include_initial` prepends 0.

    Args:
        x: an array or array-like.
        axis: the axis to accumulate along (required for more than one dimension).
        dtype: the accumulation and result dtype (None: as `sum`).
        include_initial: start with 0, so the result is one longer along `axis`.

    Returns:
        An array of x's shape (one longer with `include_initial`).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.cumulative_sum(pnp.array([1, 2, 3])).tolist()
        [1, 3, 6]
        >>> pnp.cumulative_sum(pnp.array([1, 2, 3]), include_initial=True).tolist()
        [0, 1, 3, 6]
    """
    return _cumulative("cumulative_sum", lax.cumsum, x, axis, dtype, include_initial, 0)


def cumulative_prod(x: Any, /, *, axis: builtins.int | None = None, dtype: Any = None,
                    include_initial: builtins.bool = False) -> Any:
    """Running product along `axis` (optional only for 1-D input); `include_initial` prepends 1.

    Args:
        x: an array or array-like.
        axis: the axis to accumulate along (required for more than one dimension).
        dtype: the accumulation and result dtype (None: as `sum`).
        include_initial: start with 1, so the result is one longer along `axis`.

    Returns:
        An array of x's shape (one longer with `include_initial`).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.cumulative_prod(pnp.array([[1, 2], [3, 4]]), axis=0).tolist()
        [[1, 2], [3, 8]]
    """
    return _cumulative("cumulative_prod", lax.cumprod, x, axis, dtype, include_initial, 1)


def cumsum(a: Any, axis: builtins.int | None = None, dtype: Any = None) -> Any:
    """NumPy's cumsum: running sum along `axis`, of the flattened array if axis is None.

    Args:
        a: an array or array-like.
        axis: the axis to accumulate along (None: the flattened array).
        dtype: the accumulation and result dtype (None: as `sum`).

    Returns:
        An array of a's shape, or 1-D when axis is None.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.cumsum(pnp.array([[1, 2], [3, 4]])).tolist()
        [1, 3, 6, 10]
        >>> pnp.cumsum(pnp.array([[1, 2], [3, 4]]), axis=1).tolist()
        [[1, 3], [3, 7]]
    """
    a = to_array(a)
    if axis is None:
        a = lax.reshape(a, (a.aval.size,))
        axis = 0
    return cumulative_sum(a, axis=axis, dtype=dtype)


def cumprod(a: Any, axis: builtins.int | None = None, dtype: Any = None) -> Any:
    """NumPy's cumprod: running product along `axis`, of the flattened array if axis is None.

    Args:
        a: an array or array-like.
        axis: the axis to accumulate along (None: the flattened array).
        dtype: the accumulation and result dtype (None: as `sum`).

    Returns:
        An array of a's shape, or 1-D when axis is None.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.cumprod(pnp.array([1, 2, 3, 4])).tolist()
        [1, 2, 6, 24]
    """
    a = to_array(a)
    if axis is None:
        a = lax.reshape(a, (a.aval.size,))
        axis = 0
    return cumulative_prod(a, axis=axis, dtype=dtype)


def diff(x: Any, /, *, axis: builtins.int = -1, n: builtins.int = 1, prepend: Any = None,
         append: Any = None) -> Any:
    """n-th forward difference along `axis` (bool: logical xor), after prepend/append.

    Args:
        x: an array of at least one dimension.
        axis: the axis to difference along.
        n: how many times to difference (0 returns x).
        prepend, append: values put before / after x along `axis` first (scalars are broadcast).

    Returns:
        An array (x's dtype, promoted with prepend/append), n shorter along `axis` than the joined input.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.diff(pnp.array([1, 4, 9, 16])).tolist(), pnp.diff(pnp.array([1, 4, 9, 16]), n=2).tolist()
        ([3, 5, 7], [2, 2])
        >>> pnp.diff(pnp.array([1, 4, 9]), prepend=0).tolist()
        [1, 3, 5]
    """
    x = to_array(x)
    if x.aval.ndim == 0:
        raise op_value_error("diff", "needs at least one dimension")
    a = canonicalize_axis("diff", static_int("diff", axis, "axis"), x.aval.ndim)
    n = static_int("diff", n, "n")
    if n < 0:
        raise op_value_error("diff", f"order n must be non-negative, got {n}")
    def _extra(e):
        e = to_array(e)
        if e.aval.ndim == 0:
            e = broadcast_to(e, tuple(1 if i == a else d for i, d in enumerate(x.aval.shape)))
        return e
    parts = ([_extra(prepend)] if prepend is not None else []) + [x] + \
        ([_extra(append)] if append is not None else [])
    if len(parts) > 1:
        x = lax.concatenate(promote(*parts), a)
    for _ in builtins.range(n):
        m = x.aval.shape[a]
        if m == 0:
            break
        hi = lax.slice_in_dim(x, 1, m, 1, a)
        lo = lax.slice_in_dim(x, 0, m - 1, 1, a)
        x = lax.bitwise_xor(hi, lo) if x.aval.dtype == D.bool_ else lax.sub(hi, lo)
    return x


def ediff1d(ary: Any, to_end: Any = None, to_begin: Any = None) -> Any:
    """Differences of consecutive elements of the flattened array.

    Args:
        ary: an array or array-like (flattened).
        to_end, to_begin: values appended / prepended to the differences (cast to their dtype).

    Returns:
        A 1-D array of ary's dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.ediff1d(pnp.array([[1, 3], [6, 10]]), to_begin=0).tolist()
        [0, 2, 3, 4]
    """
    x = to_array(ary)
    d = diff(lax.reshape(x, (x.aval.size,)))
    parts = [d]
    if to_begin is not None:
        parts.insert(0, _flat(to_array(to_begin, d.aval.dtype)))
    if to_end is not None:
        parts.append(_flat(to_array(to_end, d.aval.dtype)))
    return lax.concatenate(parts, 0) if len(parts) > 1 else d


def _flat(x: Any) -> Any:
    return lax.reshape(x, (x.aval.size,))


# ---- NaN-aware reductions ----------------------------------------------------------------------

def _nan_filled(x: Any, value: Any) -> Any:
    x = to_array(x)
    if D.kind(x.aval.dtype) < 2:
        return x
    return lax.select(lax.ne(x, x), scalar_like(x, value), x)


def nansum(a: Any, axis: Any = None, dtype: Any = None, keepdims: builtins.bool = False) -> Any:
    """Sum treating NaN as zero.

    Args:
        a: an array or array-like.
        axis: an int, a tuple of ints, or None (all axes).
        dtype: the accumulation and result dtype (None: as `sum`).
        keepdims: keep the reduced axes with size 1.
        where, initial: NumPy's mask and starting value (as `sum`).

    Returns:
        An array without the reduced axes.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.nansum(pnp.array([1.0, pnp.nan, 3.0])).tolist()
        4.0
    """
    return sum(_nan_filled(a, 0), axis=axis, dtype=dtype, keepdims=keepdims)


def nanprod(a: Any, axis: Any = None, dtype: Any = None, keepdims: builtins.bool = False) -> Any:
    """Product treating NaN as one.

    Args:
        a: an array or array-like.
        axis: an int, a tuple of ints, or None (all axes).
        dtype: the accumulation and result dtype (None: as `sum`).
        keepdims: keep the reduced axes with size 1.
        where, initial: NumPy's mask and starting value (as `prod`).

    Returns:
        An array without the reduced axes.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.nanprod(pnp.array([2.0, pnp.nan, 3.0])).tolist()
        6.0
    """
    return prod(_nan_filled(a, 1), axis=axis, dtype=dtype, keepdims=keepdims)


def _not_nan_count(a: Any, axis: Any, keepdims: builtins.bool) -> Any:
    a = to_array(a)
    ok = lax.eq(a, a) if D.kind(a.aval.dtype) >= 2 else lax.broadcast_in_dim(np.bool_(True), a.aval.shape, ())
    return sum(ok, axis=axis, keepdims=keepdims)


def nanmean(a: Any, axis: Any = None, dtype: Any = None, keepdims: builtins.bool = False) -> Any:
    """Mean of the non-NaN elements (NaN where there are none).

    Args:
        a: an array or array-like.
        axis: an int, a tuple of ints, or None (all axes).
        dtype: the dtype to compute in (None: a's, or the default float for integers and bool).
        keepdims: keep the reduced axes with size 1.
        where: NumPy's mask: average only these elements.

    Returns:
        A floating (or complex) array without the reduced axes.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.nanmean(pnp.array([1.0, pnp.nan, 3.0])).tolist()
        2.0
    """
    a = to_inexact(a) if dtype is None else to_array(a, dtype)
    s = sum(_nan_filled(a, 0), axis=axis, keepdims=keepdims)
    c = _not_nan_count(a, axis, keepdims)
    return lax.div(s, lax.convert_element_type(c, s.aval.dtype))


def nanvar(a: Any, axis: Any = None, dtype: Any = None, ddof: builtins.int = 0,
           keepdims: builtins.bool = False) -> Any:
    """Variance of the non-NaN elements.

    Args:
        a: an array or array-like.
        axis: an int, a tuple of ints, or None (all axes).
        dtype: the dtype to compute in (None: a's, or the default float for integers and bool).
        ddof: subtracted from the count of non-NaN elements in the divisor.
        keepdims: keep the reduced axes with size 1.
        where: NumPy's mask: use only these elements.

    Returns:
        A real floating array without the reduced axes.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.nanvar(pnp.array([1.0, pnp.nan, 3.0])).tolist()
        1.0
    """
    a = to_inexact(a) if dtype is None else to_array(a, dtype)
    m = nanmean(a, axis=axis, keepdims=True)
    dev = lax.sub(a, broadcast_to(m, a.aval.shape))
    sq = lax.mul(dev, lax.conj(dev)) if D.kind(a.aval.dtype) == 3 else lax.square(dev)
    sq = lax.real(sq) if D.kind(sq.aval.dtype) == 3 else sq
    if D.kind(a.aval.dtype) >= 2:  # drop the NaN entries of a (not NaNs the deviations produce)
        sq = lax.select(lax.ne(a, a), scalar_like(sq, 0), sq)
    s = sum(sq, axis=axis, keepdims=keepdims)
    c = lax.convert_element_type(_not_nan_count(a, axis, keepdims), s.aval.dtype)
    return lax.div(s, lax.max(lax.sub(c, scalar_like(c, ddof)), scalar_like(c, 0)))


def nanstd(a: Any, axis: Any = None, dtype: Any = None, ddof: builtins.int = 0,
           keepdims: builtins.bool = False) -> Any:
    """Standard deviation of the non-NaN elements.

    Args:
        a: an array or array-like.
        axis: an int, a tuple of ints, or None (all axes).
        dtype: the dtype to compute in (None: a's, or the default float for integers and bool).
        ddof: subtracted from the count of non-NaN elements in the divisor.
        keepdims: keep the reduced axes with size 1.
        where: NumPy's mask: use only these elements.

    Returns:
        A real floating array without the reduced axes.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.nanstd(pnp.array([1.0, pnp.nan, 3.0])).tolist()
        1.0
    """
    return lax.sqrt(nanvar(a, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims))


def nanmax(a: Any, axis: Any = None, keepdims: builtins.bool = False) -> Any:
    """Maximum ignoring NaN (NaN where all are NaN).

    Args:
        a: a real array or array-like.
        axis: an int, a tuple of ints, or None (all axes).
        keepdims: keep the reduced axes with size 1.
        where, initial: NumPy's mask and starting value (a mask needs `initial`).

    Returns:
        An array of a's dtype without the reduced axes.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.nanmax(pnp.array([1.0, pnp.nan, 3.0])).tolist()
        3.0
    """
    a = to_array(a)
    if D.kind(a.aval.dtype) < 2:
        return max(a, axis=axis, keepdims=keepdims)
    out = max(_nan_filled(a, -np.inf), axis=axis, keepdims=keepdims)
    return lax.select(lax.eq(_not_nan_count(a, axis, keepdims), scalar_like(_not_nan_count(a, axis, keepdims), 0)),
                      scalar_like(out, np.nan), out)


def nanmin(a: Any, axis: Any = None, keepdims: builtins.bool = False) -> Any:
    """Minimum ignoring NaN (NaN where all are NaN).

    Args:
        a: a real array or array-like.
        axis: an int, a tuple of ints, or None (all axes).
        keepdims: keep the reduced axes with size 1.
        where, initial: NumPy's mask and starting value (a mask needs `initial`).

    Returns:
        An array of a's dtype without the reduced axes.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.nanmin(pnp.array([[1.0, pnp.nan], [pnp.nan, -2.0]]), axis=0).tolist()
        [1.0, -2.0]
    """
    a = to_array(a)
    if D.kind(a.aval.dtype) < 2:
        return min(a, axis=axis, keepdims=keepdims)
    out = min(_nan_filled(a, np.inf), axis=axis, keepdims=keepdims)
    c = _not_nan_count(a, axis, keepdims)
    return lax.select(lax.eq(c, scalar_like(c, 0)), scalar_like(out, np.nan), out)


def average(a: Any, axis: Any = None, weights: Any = None, returned: builtins.bool = False,
            keepdims: builtins.bool = False) -> Any:
    """Weighted mean over `axis` (weights 1-D along a single axis, or a's shape).

    Args:
        a: an array or array-like (integers and bool: the default float).
        axis: an int, a tuple of ints, or None (all axes).
        weights: None (plain mean), an array of a's shape, or a 1-D array along the single `axis`.
        returned: also return the sum of the weights (the element count without weights).
        keepdims: keep the reduced axes with size 1.

    Returns:
        The weighted mean, without the reduced axes; a tuple (mean, weight sum) with `returned`.

    Examples:
        >>> import padax.numpy as pnp
        >>> x = pnp.array([1.0, 2.0, 4.0])
        >>> pnp.average(x, weights=pnp.array([1.0, 1.0, 2.0])).tolist()
        2.75
        >>> avg, wsum = pnp.average(x, weights=pnp.array([1.0, 1.0, 2.0]), returned=True)
        >>> avg.tolist(), wsum.tolist()
        (2.75, 4.0)
    """
    a = to_inexact(a)
    if weights is None:
        avg = mean(a, axis=axis, keepdims=keepdims)
        if returned:
            ax = _axes("average", axis, a.aval.ndim)
            return avg, full_like_shape(avg.aval.shape, _count(a.aval.shape, ax), avg.aval.dtype)
        return avg
    w = to_array(weights)
    a, w = promote(a, w)
    if w.aval.shape != a.aval.shape:
        if axis is None or isinstance(axis, (tuple, list)) or w.aval.ndim != 1:
            raise op_value_error("average", "weights must have a's shape, or be 1-D along a single axis")
        ax0 = canonicalize_axis("average", axis, a.aval.ndim)
        w = lax.broadcast_in_dim(w, a.aval.shape, (ax0,))
    s = sum(lax.mul(a, w), axis=axis, keepdims=keepdims)
    ws = sum(w, axis=axis, keepdims=keepdims)
    avg = lax.div(s, ws)
    return (avg, ws) if returned else avg


# ---- order statistics ---------------------------------------------------------------------------

def _weights_like(a: Any, weights: Any, axis: Any) -> Any:
    """quantile's weights as an array of a's shape (given so, or 1-D along the single reduced axis)."""
    w = to_array(weights)
    if w.aval.shape == a.aval.shape:
        return w
    if axis is None or isinstance(axis, (tuple, list)) or w.aval.ndim != 1:
        raise op_value_error("quantile", f"weights {w.aval.str_short()} must have a's shape {a.aval.shape}, or be "
                                         "1-D along a single axis")
    ax0 = canonicalize_axis("quantile", axis, a.aval.ndim)
    if w.aval.shape[0] != a.aval.shape[ax0]:
        raise op_value_error("quantile", f"1-D weights {w.aval.str_short()} must match axis {axis} of a "
                                         f"{a.aval.str_short()}")
    return lax.broadcast_in_dim(w, a.aval.shape, (ax0,))


def _inverted_cdf(x: Any, w: Any, qa: Any) -> Any:
    """NumPy's weighted 'inverted_cdf' over the last axis of x [..., n] with weights w [..., n] for the
    quantiles qa [nq]: the first sorted value whose normalised cumulative weight reaches q. Result
    [..., nq]."""
    n = x.aval.shape[-1]
    order = argsort(x, axis=-1, stable=True)
    xs = take_along_axis(x, order, axis=-1)
    ws = lax.convert_element_type(take_along_axis(w, order, axis=-1), D.float64)
    cdf = cumsum(ws, axis=-1)
    cdf = lax.div(cdf, lax.broadcast_in_dim(lax.slice_in_dim(cdf, n - 1, n, axis=cdf.aval.ndim - 1),
                                            cdf.aval.shape, tuple(builtins.range(cdf.aval.ndim))))
    cdf = lax.convert_element_type(cdf, qa.aval.dtype)
    zero = scalar_like(cdf, 0)
    # leading zero weights never hold a quantile (NumPy moves their cdf to -1)
    cdf = lax.select(lax.eq(cdf, zero), scalar_like(cdf, -1), cdf)
    lead = cdf.aval.ndim - 1
    shape = cdf.aval.shape[:-1] + (qa.aval.size, n)
    below = lax.lt(lax.broadcast_in_dim(cdf, shape, tuple(builtins.range(lead)) + (lead + 1,)),
                   lax.broadcast_in_dim(qa, shape, (lead,)))
    idx = lax.reduce_sum(lax.convert_element_type(below, D.int32), (lead + 1,))
    idx = lax.min(idx, scalar_like(idx, n - 1))
    return take_along_axis(xs, idx, axis=-1)


def quantile(a: Any, q: Any, axis: Any = None, method: str = "linear", keepdims: builtins.bool = False,
             *, weights: Any = None, interpolation: str | None = None) -> Any:
    """q-th quantiles (q in [0, 1]) over `axis`; methods 'linear', 'lower', 'higher', 'nearest', 'midpoint'
    and 'inverted_cdf', the only one taking `weights` (a's shape, or 1-D along one axis; non-negative).

    NaN anywhere along the reduced axes gives NaN. q's shape leads the result's.

    Args:
        a: an array or array-like (integers and bool: the default float).
        q: a quantile or an array of them, in [0, 1].
        axis: an int, a tuple of ints, or None (all axes).
        method: one of the methods above.
        keepdims: keep the reduced axes with size 1.
        weights: per-element weights (method 'inverted_cdf' only).
        interpolation: NumPy's old name of `method` (overrides it when given).

    Returns:
        A floating array of shape q.shape + the unreduced shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> x = pnp.array([1.0, 2.0, 3.0, 4.0])
        >>> pnp.quantile(x, 0.5).tolist(), pnp.quantile(x, pnp.array([0.0, 0.25])).tolist()
        (2.5, [1.0, 1.75])
        >>> pnp.quantile(x, 0.25, method="nearest").tolist()
        2.0
    """
    method = interpolation or method
    if method not in ("linear", "lower", "higher", "nearest", "midpoint", "inverted_cdf"):
        raise op_value_error("quantile", f"unsupported method {method!r}")
    if weights is not None and method != "inverted_cdf":
        raise op_value_error("quantile", f"only method 'inverted_cdf' supports weights, got {method!r}")
    a = to_inexact(a)
    w = _weights_like(a, weights, axis) if weights is not None else full_like_shape(a.aval.shape, 1, D.float64)
    nd = a.aval.ndim
    ax = _axes("quantile", axis, nd)
    rest = [i for i in builtins.range(nd) if i not in ax]
    x = lax.transpose(a, tuple(rest) + ax)
    w = lax.transpose(w, tuple(rest) + ax)
    n = _count(a.aval.shape, ax)
    x = lax.reshape(x, tuple(a.aval.shape[i] for i in rest) + (n,))
    w = lax.reshape(w, x.aval.shape)
    if n == 0:
        raise op_value_error("quantile", "cannot take the quantile of an empty axis")
    xs = sort(x, axis=-1)
    qa = to_array(q, x.aval.dtype)
    qshape = qa.aval.shape
    nq = qa.aval.size
    qa = lax.reshape(qa, (nq,))
    pos = lax.mul(qa, scalar_like(qa, n - 1))
    lo, hi = lax.floor(pos), lax.ceil(pos)
    vlo = take(xs, lax.convert_element_type(lo, D.int32), axis=-1, mode="clip")
    vhi = take(xs, lax.convert_element_type(hi, D.int32), axis=-1, mode="clip")
    nr = len(rest)
    if method == "inverted_cdf":
        out = _inverted_cdf(x, w, qa)
    elif method == "lower":
        out = vlo
    elif method == "higher":
        out = vhi
    elif method == "midpoint":
        out = lax.mul(lax.add(vlo, vhi), scalar_like(vlo, 0.5))
    elif method == "nearest":
        out = take(xs, lax.convert_element_type(lax.round(pos, 1), D.int32), axis=-1, mode="clip")
    else:
        t = lax.broadcast_in_dim(lax.sub(pos, lo), vlo.aval.shape, (nr,))
        d = lax.sub(vhi, vlo)
        out = lax.select(lax.ge(t, scalar_like(t, 0.5)), lax.sub(vhi, lax.mul(d, lax.sub(scalar_like(t, 1), t))),
                         lax.add(vlo, lax.mul(d, t)))  # NumPy's two-sided lerp
        out = lax.select(lax.eq(vlo, vhi), vlo, out)
    has_nan = lax.broadcast_in_dim(lax.reduce_or(lax.ne(x, x), (nr,)), out.aval.shape,
                                   tuple(builtins.range(nr)))
    out = lax.select(has_nan, scalar_like(out, np.nan), out)
    out = lax.transpose(out, (nr,) + tuple(builtins.range(nr)))  # q first, as NumPy
    rest_shape = tuple(1 if i in ax else d for i, d in enumerate(a.aval.shape)) if keepdims else \
        tuple(a.aval.shape[i] for i in rest)
    return lax.reshape(out, qshape + rest_shape)


def percentile(a: Any, q: Any, axis: Any = None, method: str = "linear", keepdims: builtins.bool = False,
               *, weights: Any = None, interpolation: str | None = None) -> Any:
    """q-th percentiles (q in [0, 100]) over `axis` (weights with method 'inverted_cdf', as quantile).

    Args:
        a: an array or array-like (integers and bool: the default float).
        q: a percentile or an array of them, in [0, 100].
        axis: an int, a tuple of ints, or None (all axes).
        method: as `quantile`.
        keepdims: keep the reduced axes with size 1.
        weights: per-element weights (method 'inverted_cdf' only).
        interpolation: NumPy's old name of `method` (overrides it when given).

    Returns:
        A floating array of shape q.shape + the unreduced shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.percentile(pnp.array([1.0, 2.0, 3.0, 4.0]), 75).tolist()
        3.25
    """
    qa = to_inexact(q)
    return quantile(a, lax.div(qa, scalar_like(qa, 100.0)), axis=axis, method=method, keepdims=keepdims,
                    weights=weights, interpolation=interpolation)


def median(a: Any, axis: Any = None, keepdims: builtins.bool = False) -> Any:
    """Median over `axis` (NaN if any NaN).

    Args:
        a: an array or array-like (integers and bool: the default float).
        axis: an int, a tuple of ints, or None (all axes).
        keepdims: keep the reduced axes with size 1.

    Returns:
        A floating array without the reduced axes.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.median(pnp.array([[3.0, 1.0, 2.0], [4.0, 6.0, 5.0]]), axis=1).tolist()
        [2.0, 5.0]
    """
    return quantile(a, 0.5, axis=axis, keepdims=keepdims)


__all__ = ["sum", "prod", "mean", "max", "min", "amax", "amin", "ptp", "var", "std", "all", "any",
           "count_nonzero", "cumulative_sum", "cumulative_prod", "cumsum", "cumprod", "diff", "ediff1d",
           "nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmax", "nanmin", "average", "quantile",
           "percentile", "median"]
