"""Searching, sorting and sets: argmax/argmin, where, nonzero, searchsorted, sort/argsort,
unique_all/counts/inverse/values, plus NumPy's argwhere, flatnonzero, unique, isin, digitize,
select, interp, bincount.

Functions whose output shape depends on the data (nonzero, unique_*,
bincount without `length`) run eagerly: they read one count from the device
and then compute with that static size. Under `jit` pass `size=` (nonzero,
unique_values, argwhere) or `length=` (bincount), or they raise.
"""
from __future__ import annotations

import builtins
from typing import Any, NamedTuple

import numpy as np

from padax import lax
from padax.core.errors import op_type_error, op_value_error
from padax.core.trace import Tracer
from padax.functional import reduction as _R
from padax.functional._arrays import canonicalize_axis
from padax.functional.lax.indexing import ScatterDimensionNumbers
from padax.numpy import _dtypes as D
from padax.numpy._elementwise import remainder
from padax.numpy._indexing import take, unravel_index
from padax.numpy._util import (
    broadcast_shapes,
    broadcast_to,
    full_like_shape,
    is_array,
    keepdims as _keep,
    promote,
    promote_broadcast,
    scalar_like,
    static_int,
    to_array,
    to_inexact,
)


def _index_dtype() -> np.dtype:
    return D.default_int()


def _arg(name: str, fn, examples: str):
    """argmax or argmin (by `fn`); `examples` is the Examples section of its docstring."""
    def wrapped(x: Any, /, *, axis: builtins.int | None = None, keepdims: builtins.bool = False) -> Any:
        x = to_array(x)
        idt = _index_dtype()
        if axis is None:
            if x.aval.size == 0:
                raise op_value_error(name, "attempt to get the arg-extremum of an empty array")
            out = fn(lax.reshape(x, (x.aval.size,)), 0, idt)
            return lax.reshape(out, (1,) * x.aval.ndim) if keepdims else out
        if x.aval.ndim == 0:
            canonicalize_axis(name, axis, 0)
            return full_like_shape((), 0, idt)
        a = canonicalize_axis(name, static_int(name, axis, "axis"), x.aval.ndim)
        if x.aval.shape[a] == 0:
            raise op_value_error(name, "attempt to get the arg-extremum of an empty axis")
        return _keep(fn(x, a, idt), x.aval.shape, (a,), keepdims)
    wrapped.__name__ = wrapped.__qualname__ = name
    summary = f"Index of the first {name[3:]}imum along `axis` (of the flattened array if None)."
    wrapped.__doc__ = (f"{summary}\n\n    Args:\n        x: an array or array-like (not empty along `axis`).\n"
                       "        axis: the axis to search along (None: the flattened array).\n"
                       "        keepdims: keep the searched axis with size 1.\n\n"
                       "    Returns:\n        A default-int (int64) array of indices without the searched axis.\n\n"
                       f"{examples}")
    return wrapped


argmax = _arg("argmax", lax.argmax, """    Examples:
        >>> import padax.numpy as pnp
        >>> x = pnp.array([[1, 9, 3], [7, 2, 7]])
        >>> pnp.argmax(x).tolist(), pnp.argmax(x, axis=1).tolist()
        (1, [1, 0])
    """)
argmin = _arg("argmin", lax.argmin, """    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.argmin(pnp.array([[4, 2, 2], [0, 5, 1]]), axis=1).tolist()
        [1, 0]
    """)


def where(condition: Any, x1: Any = None, x2: Any = None, /) -> Any:
    """x1 where condition is true, else x2 (all broadcast; x1, x2 promote).

    Args:
        condition: an array or array-like (nonzero counts as True).
        x1, x2: the values taken where condition is true / false; promoted to a common dtype. Leaving both out
            gives `nonzero(condition)`.

    Returns:
        An array of the broadcast shape of all three, in the promoted dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> c = pnp.array([True, False, True])
        >>> pnp.where(c, pnp.array([1, 2, 3]), 0).tolist()
        [1, 0, 3]
        >>> [i.tolist() for i in pnp.where(c)]
        [[0, 2]]
    """
    if x1 is None and x2 is None:
        return nonzero(condition)
    if x1 is None or x2 is None:
        raise TypeError("where: give both x1 and x2, or neither")
    c = to_array(condition)
    if c.aval.dtype != D.bool_:
        c = lax.ne(c, scalar_like(c, 0))
    a, b = promote_broadcast("where", x1, x2)
    shape = broadcast_shapes("where", c.aval.shape, a.aval.shape)
    return lax.select(broadcast_to(c, shape), broadcast_to(a, shape), broadcast_to(b, shape))


def select(condlist: Any, choicelist: Any, default: Any = 0) -> Any:
    """Per element, the value from the first choice whose condition holds (else `default`).

    Args:
        condlist: a sequence of conditions (arrays, nonzero counts as True).
        choicelist: a sequence of arrays, one per condition.
        default: the value where no condition holds.

    Returns:
        An array of the broadcast shape in the promoted dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> x = pnp.array([-2, 0, 3])
        >>> pnp.select([x < 0, x > 0], [-x, x * 10], default=99).tolist()
        [2, 99, 30]
    """
    if len(condlist) != len(choicelist):
        raise op_value_error("select", "condlist and choicelist must have the same length")
    out = default
    for c, v in reversed(list(zip(condlist, choicelist))):
        out = where(c, v, out)
    return to_array(out)


# ---- sorting ------------------------------------------------------------------------------------

def sort(x: Any, /, *, axis: builtins.int = -1, descending: builtins.bool = False,
         stable: builtins.bool = True) -> Any:
    """Sorted along `axis` (NaNs last ascending, first descending); always stable (`stable` is accepted for the
    Array API's calls and changes nothing).

    Args:
        x: an array or array-like.
        axis: the axis to sort along.
        descending: sort from largest to smallest.
        stable: accepted for the Array API (the sort is always stable).

    Returns:
        An array of x's shape and dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.sort(pnp.array([[3, 1, 2], [0, 5, 4]])).tolist()
        [[1, 2, 3], [0, 4, 5]]
        >>> pnp.sort(pnp.array([3, 1, 2]), descending=True).tolist()  # the Array API's keyword
        [3, 2, 1]
    """
    x = to_array(x)
    if x.aval.ndim == 0:
        return x
    return _R.sort(x, static_int("sort", axis, "axis"), descending=descending)


def argsort(x: Any, /, *, axis: builtins.int = -1, descending: builtins.bool = False,
            stable: builtins.bool = True) -> Any:
    """Indices that sort x along `axis`; ties keep their order (also when descending), whatever `stable` says.

    Args:
        x: an array or array-like.
        axis: the axis to sort along (NumPy's second positional argument).
        descending: sort from largest to smallest.
        stable: accepted for the Array API (the sort is always stable).

    Returns:
        A default-int (int64) array of x's shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.argsort(pnp.array([30, 10, 20])).tolist()
        [1, 2, 0]
        >>> pnp.argsort(pnp.array([[3, 1], [0, 5]]), axis=0).tolist()
        [[1, 0], [0, 1]]
    """
    x = to_array(x)
    out = _R.argsort(x, static_int("argsort", axis, "axis"), descending=descending)
    return out if out.aval.dtype == _index_dtype() else lax.convert_element_type(out, _index_dtype())


def _nan_last_less(a: Any, b: Any) -> Any:
    """a < b with NaN sorted after every number (NumPy's order)."""
    lt = lax.lt(a, b)
    if D.kind(a.aval.dtype) >= 2:
        lt = lax.bitwise_or(lt, lax.bitwise_and(lax.eq(a, a), lax.ne(b, b)))
    return lt


def searchsorted(x1: Any, x2: Any, /, *, side: str = "left", sorter: Any = None) -> Any:
    """Insertion points of x2 in the sorted 1-D x1 ('left': before equal values, 'right': after).

    Args:
        x1: a 1-D array, sorted ascending (or sorted by `sorter`).
        x2: the values to place (any shape); promoted with x1.
        side: 'left' or 'right' (see above).
        sorter: indices that sort x1 (its shape), or None if x1 is sorted.

    Returns:
        A default-int (int64) array of x2's shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.searchsorted(pnp.array([1, 2, 2, 4]), pnp.array([2, 3])).tolist()
        [1, 3]
        >>> pnp.searchsorted(pnp.array([1, 2, 2, 4]), pnp.array([2, 3]), side="right").tolist()
        [3, 3]
    """
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', got {side!r}")
    a = to_array(x1)
    if a.aval.ndim != 1:
        raise op_value_error("searchsorted", f"x1 must be 1-D, got {a.aval.str_short()}")
    if sorter is not None:
        s = to_array(sorter)
        if s.aval.shape != a.aval.shape:
            raise op_value_error("searchsorted", f"sorter {s.aval.str_short()} must have x1's shape {a.aval.str_short()}")
        a = take(a, s, axis=0, mode="clip")
    a, v = [to_array(t) for t in promote_broadcast_pair(a, x2)]
    n = a.aval.shape[0]
    idt = _index_dtype()
    lo = full_like_shape(v.aval.shape, 0, D.int32)
    hi = full_like_shape(v.aval.shape, n, D.int32)
    if n == 0:
        return lax.convert_element_type(lo, idt)
    steps = builtins.max(builtins.int(np.ceil(np.log2(n + 1))), 1)
    for _ in builtins.range(steps):
        mid = lax.div(lax.add(lo, hi), scalar_like(lo, 2))
        am = take(a, lax.min(mid, scalar_like(mid, n - 1)), axis=0, mode="clip")
        right = _nan_last_less(am, v) if side == "left" else lax.bitwise_not(_nan_last_less(v, am))
        active = lax.lt(lo, hi)
        go = lax.bitwise_and(active, right)
        stay = lax.bitwise_and(active, lax.bitwise_not(right))
        lo = lax.select(go, lax.add(mid, scalar_like(mid, 1)), lo)
        hi = lax.select(stay, mid, hi)
    return lax.convert_element_type(lo, idt)


def promote_broadcast_pair(a: Any, v: Any) -> tuple[Any, Any]:
    """Promote x1 and x2 of searchsorted to one dtype without broadcasting them together."""
    return tuple(promote(a, v))


def digitize(x: Any, bins: Any, right: builtins.bool = False) -> Any:
    """Indices of the bins (monotonically increasing or decreasing, as numpy) that each x falls in.

    Args:
        x: the values to place (any shape).
        bins: a 1-D monotonic array of bin edges.
        right: whether a bin includes its right edge instead of its left one.

    Returns:
        A default-int (int64) array of x's shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.digitize(pnp.array([0.5, 1.0, 2.5]), pnp.array([1.0, 2.0])).tolist()
        [0, 1, 2]
        >>> pnp.digitize(pnp.array([0.5, 1.0, 2.5]), pnp.array([1.0, 2.0]), right=True).tolist()
        [0, 0, 2]
    """
    b = to_array(bins)
    side = "left" if right else "right"
    up = searchsorted(b, x, side=side)
    n = b.aval.shape[0] if b.aval.ndim == 1 else 0
    if n < 2:
        return up
    down = lax.sub(full_like_shape(up.aval.shape, n, up.aval.dtype), searchsorted(lax.rev(b, (0,)), x, side=side))
    decreasing = lax.gt(lax.index_in_dim(b, 0, 0, False), lax.index_in_dim(b, n - 1, 0, False))
    return lax.select(lax.broadcast_in_dim(decreasing, up.aval.shape, ()), down, up)


# ---- data-dependent sizes -------------------------------------------------------------------------

def _concrete_count(op: str, count: Any, hint: str) -> builtins.int:
    if isinstance(count, Tracer):
        raise op_type_error(op, f"the output size depends on the data, which is not known while tracing; "
                                f"{hint}")
    return builtins.int(count)


def _first_true(mask: Any, size: builtins.int) -> Any:
    """int32 positions of the first `size` True entries of a 1-D bool mask (padded with n)."""
    n = mask.aval.shape[0]
    key = lax.convert_element_type(lax.bitwise_not(mask), D.int8)
    _, perm = lax.sort_key_val(key, lax.iota(D.int32, n), 0, True)
    count = lax.reduce_sum(lax.convert_element_type(mask, D.int32), (0,))
    valid = lax.lt(lax.iota(D.int32, size), lax.broadcast_in_dim(count, (size,), ()))
    if size <= n:
        pos = lax.slice_in_dim(perm, 0, size, 1, 0)
    else:
        pos = lax.concatenate([perm, full_like_shape((size - n,), n, D.int32)], 0)
    return lax.select(valid, pos, full_like_shape((size,), n, D.int32))


def nonzero(x: Any, /, *, size: builtins.int | None = None, fill_value: Any = None) -> tuple[Any, ...]:
    """Indices of the nonzero elements, one array per axis (row-major order).

    Eager unless `size` is given: then the first `size` hits are returned,
    padded with `fill_value` (default 0).

    Args:
        x: an array of at least one dimension.
        size: the static number of hits to return (needed under jit).
        fill_value: the index that pads beyond the last hit (default 0).

    Returns:
        A tuple of x.ndim default-int (int64) 1-D arrays.

    Examples:
        >>> import padax.numpy as pnp
        >>> [i.tolist() for i in pnp.nonzero(pnp.array([[0, 3], [4, 0]]))]
        [[0, 1], [1, 0]]
        >>> pnp.nonzero(pnp.array([0, 7, 8]), size=3, fill_value=-1)[0].tolist()  # static size, usable under jit
        [1, 2, -1]
    """
    x = to_array(x)
    if x.aval.ndim == 0:
        raise op_value_error("nonzero", "nonzero of a 0-d array is not defined; use atleast_1d first")
    mask = lax.reshape(x if x.aval.dtype == D.bool_ else lax.ne(x, scalar_like(x, 0)), (x.aval.size,))
    if size is None:
        size = _concrete_count("nonzero", lax.reduce_sum(lax.convert_element_type(mask, D.int32), (0,)),
                               "pass size= (and fill_value=)")
    n = x.aval.size
    idt = _index_dtype()
    pos = _first_true(mask, size) if n else full_like_shape((size,), 0, D.int32)
    coords = unravel_index(lax.min(pos, scalar_like(pos, builtins.max(n - 1, 0))), x.aval.shape)
    pad = lax.ge(pos, scalar_like(pos, n))
    out = []
    for c in coords:
        c = lax.convert_element_type(c, idt)
        fv = 0 if fill_value is None else fill_value
        out.append(lax.select(pad, full_like_shape((size,), fv, idt), c))
    return tuple(out)


def flatnonzero(a: Any, *, size: builtins.int | None = None, fill_value: Any = None) -> Any:
    """Indices of the nonzero elements of the flattened array. Eager unless `size` is given: then the first
    `size` hits, padded with `fill_value` (default 0), as `nonzero`.

    Args:
        a: an array or array-like (flattened).
        size: the static number of hits to return (needed under jit).
        fill_value: the index that pads beyond the last hit (default 0).

    Returns:
        A 1-D default-int (int64) array.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.flatnonzero(pnp.array([[0, 3], [4, 0]])).tolist()
        [1, 2]
        >>> pnp.flatnonzero(pnp.array([[0, 3], [4, 0]]), size=3, fill_value=-1).tolist()
        [1, 2, -1]
    """
    a = to_array(a)
    return nonzero(lax.reshape(a, (a.aval.size,)), size=size, fill_value=fill_value)[0]


def argwhere(a: Any, *, size: builtins.int | None = None, fill_value: Any = None) -> Any:
    """Indices of the nonzero elements, shape (count, ndim). Eager unless `size` is given: then `size` rows,
    padded with `fill_value` (default 0), as `nonzero`.

    Args:
        a: an array or array-like.
        size: the static number of rows to return (needed under jit).
        fill_value: the index that pads beyond the last hit (default 0).

    Returns:
        A default-int (int64) array of shape (count or size, a.ndim).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.argwhere(pnp.array([[0, 3], [4, 0]])).tolist()
        [[0, 1], [1, 0]]
        >>> pnp.argwhere(pnp.array([[0, 3], [4, 0]]), size=3, fill_value=-1).tolist()
        [[0, 1], [1, 0], [-1, -1]]
    """
    a = to_array(a)
    if a.aval.ndim == 0:
        k = nonzero(lax.reshape(a, (1,)), size=size, fill_value=fill_value)[0].aval.shape[0]
        return full_like_shape((k, 0), 0, _index_dtype())
    idx = nonzero(a, size=size, fill_value=fill_value)
    return lax.concatenate([lax.reshape(i, i.aval.shape + (1,)) for i in idx], 1)


class UniqueAllResult(NamedTuple):
    """What `unique_all` returns: the sorted distinct `values`, the `indices` of their first occurrences,
    the `inverse_indices` that rebuild the input from `values`, and the `counts`.

    Args:
        values: the sorted distinct values.
        indices: the index of each value's first occurrence in the flattened input.
        inverse_indices: each input element's index into `values` (input's shape).
        counts: the number of occurrences of each value.

    Examples:
        >>> import padax.numpy as pnp
        >>> r = pnp.unique_all(pnp.array([5, 5, 4]))
        >>> r.values[r.inverse_indices].tolist(), r.indices.tolist(), r.counts.tolist()
        ([5, 5, 4], [2, 0], [1, 2])
    """
    values: Any
    indices: Any
    inverse_indices: Any
    counts: Any


class UniqueCountsResult(NamedTuple):
    """What `unique_counts` returns: the sorted distinct `values` and how often each occurs (`counts`).

    Args:
        values: the sorted distinct values.
        counts: the number of occurrences of each value.

    Examples:
        >>> import padax.numpy as pnp
        >>> values, counts = pnp.unique_counts(pnp.array([5, 5, 4]))
        >>> values.tolist(), counts.tolist()
        ([4, 5], [1, 2])
    """
    values: Any
    counts: Any


class UniqueInverseResult(NamedTuple):
    """What `unique_inverse` returns: the sorted distinct `values` and, for each input element, the index of
    its value (`inverse_indices`, with the input's shape).

    Args:
        values: the sorted distinct values.
        inverse_indices: each input element's index into `values` (input's shape).

    Examples:
        >>> import padax.numpy as pnp
        >>> r = pnp.unique_inverse(pnp.array([[5, 4], [4, 4]]))
        >>> r.values.tolist(), r.inverse_indices.tolist()
        ([4, 5], [[1, 0], [0, 0]])
    """
    values: Any
    inverse_indices: Any


def _unique_groups(op: str, keys: list[Any], size: builtins.int | None, equal_nan: builtins.bool = False):
    """Group the n positions of the equal-length 1-D `keys` (n >= 1) by equal key tuples,
    ordered lexicographically (NaN last). Returns (perm, starts, indices, inverse, counts,
    size): the stable sorting permutation; `size` group starts in sorted order (padded with
    n); each group's first position; the group of every position; group sizes (0 when
    padded). NaNs are distinct unless `equal_nan` (real floats: all NaNs form one group)."""
    n = keys[0].aval.shape[0]
    idt = _index_dtype()
    out = lax.sort(tuple(keys) + (lax.iota(D.int32, n),), 0, True, len(keys))
    skeys, perm = out[:-1], out[-1]
    new = None
    for k in skeys:
        a, b = lax.slice_in_dim(k, 1, n, 1, 0), lax.slice_in_dim(k, 0, n - 1, 1, 0)
        d = lax.ne(a, b)
        if equal_nan and D.kind(k.aval.dtype) == 2:
            d = lax.bitwise_and(d, lax.bitwise_not(lax.bitwise_and(lax.ne(a, a), lax.ne(b, b))))
        new = d if new is None else lax.bitwise_or(new, d)
    first = lax.concatenate([full_like_shape((1,), True, D.bool_), new], 0)
    count = lax.reduce_sum(lax.convert_element_type(first, D.int32), (0,))
    if size is None:
        size = _concrete_count(op, count, "pass size= to unique_values under jit")
    starts = _first_true(first, size)                       # padded with n
    indices = lax.convert_element_type(take(perm, _last_in_range(starts, n), axis=0), idt)
    ends = lax.concatenate([lax.slice_in_dim(starts, 1, size, 1, 0), full_like_shape((1,), n, D.int32)], 0) \
        if size else starts
    ends = lax.min(ends, scalar_like(ends, n))
    counts = lax.convert_element_type(lax.sub(ends, lax.min(starts, scalar_like(starts, n))), idt)
    gid = lax.sub(lax.cumsum(lax.convert_element_type(first, D.int32), 0), full_like_shape((n,), 1, D.int32))
    dn = ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))
    inverse = lax.scatter(full_like_shape((n,), 0, D.int32), lax.reshape(perm, (n, 1)), gid, dn,
                          unique_indices=True)
    return perm, starts, indices, lax.convert_element_type(inverse, idt), counts, size


def _fill_padding(values: Any, starts: Any, n: builtins.int, fill_value: Any) -> Any:
    """Slots past the distinct count (starts == n) get fill_value, or the first (smallest) entry."""
    size = values.aval.shape[0]
    if size == 0:
        return values
    pad = lax.broadcast_in_dim(lax.ge(starts, scalar_like(starts, n)), values.aval.shape, (0,))
    if fill_value is not None:
        fv = full_like_shape(values.aval.shape, fill_value, values.aval.dtype)
    else:
        fv = lax.broadcast_in_dim(lax.slice_in_dim(values, 0, 1, 1, 0), values.aval.shape,
                                  tuple(builtins.range(values.aval.ndim)))
    return lax.select(pad, fv, values)


def _last_in_range(starts: Any, n: builtins.int) -> Any:
    """Group starts with the padding (n) moved onto the last element: reads stay in bounds (the
    padded slots are filled afterwards), so checkify's index checks see no out-of-range read."""
    return lax.min(starts, scalar_like(starts, n - 1))


def _unique(op: str, x: Any, size: builtins.int | None, fill_value: Any = None, equal_nan: builtins.bool = False):
    """(values, first indices, inverse (x's shape), counts) of the distinct values (NaNs
    distinct unless equal_nan)."""
    x = to_array(x)
    flat = lax.reshape(x, (x.aval.size,))
    n = flat.aval.shape[0]
    idt = _index_dtype()
    if n == 0:
        z = full_like_shape((0,), 0, idt)
        return flat, z, lax.reshape(z, x.aval.shape), z
    perm, starts, indices, inverse, counts, size = _unique_groups(op, [flat], size, equal_nan)
    values = _fill_padding(take(flat, take(perm, _last_in_range(starts, n), axis=0), axis=0), starts, n, fill_value)
    return values, indices, lax.reshape(inverse, x.aval.shape), counts


def _unique_along(op: str, x: Any, axis: builtins.int, size: builtins.int | None, fill_value: Any = None):
    """NumPy's unique with an axis: the distinct sub-arrays along `axis` (each slice compared
    as a whole, ordered lexicographically by its row-major entries; NaNs never equal), with
    first indices, a 1-D inverse and counts."""
    x = to_array(x)
    nd = x.aval.ndim
    a = canonicalize_axis(op, static_int(op, axis, "axis"), nd)
    moved = lax.transpose(x, (a,) + tuple(i for i in builtins.range(nd) if i != a))
    rest = moved.aval.shape[1:]
    n, m = moved.aval.shape[0], builtins.int(np.prod(rest, dtype=np.int64))
    rows = lax.reshape(moved, (n, m))
    idt = _index_dtype()

    def back(v):  # (k, m) rows -> x's layout with `axis` of length k
        v = lax.reshape(v, (v.aval.shape[0],) + rest)
        inv_perm = tuple(builtins.range(1, a + 1)) + (0,) + tuple(builtins.range(a + 1, nd))
        return lax.transpose(v, inv_perm)

    if n == 0 or m == 0:
        # no rows: nothing is distinct; rows without entries: all equal
        k = 0 if n == 0 else 1
        k = k if size is None else size
        z = full_like_shape((n,), 0, idt)
        cnt = full_like_shape((k,), 0, idt) if n == 0 else \
            lax.concatenate([full_like_shape((1,), n, idt), full_like_shape((k - 1,), 0, idt)], 0) if k else \
            full_like_shape((0,), 0, idt)
        first = full_like_shape((k,), 0, idt)
        return back(full_like_shape((k, m), 0 if fill_value is None else fill_value, x.aval.dtype)), first, z, cnt
    cols = [lax.reshape(lax.slice_in_dim(rows, j, j + 1, 1, 1), (n,)) for j in builtins.range(m)]
    perm, starts, indices, inverse, counts, size = _unique_groups(op, cols, size)
    values = _fill_padding(take(rows, take(perm, _last_in_range(starts, n), axis=0), axis=0), starts, n, fill_value)
    return back(values), indices, inverse, counts


def unique_values(x: Any, /, *, size: builtins.int | None = None, fill_value: Any = None) -> Any:
    """The sorted distinct values of x (flattened); NaNs are each distinct. Eager unless `size` is given: then
    exactly `size` values, cut or padded with `fill_value` (default: the smallest value), as jax.numpy.

    Args:
        x: an array or array-like (flattened).
        size: the static number of values to return (needed under jit).
        fill_value: the padding value (default: the smallest value).

    Returns:
        A 1-D array of x's dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.unique_values(pnp.array([3, 1, 3, 2, 1])).tolist()  # sorted, as jax.numpy
        [1, 2, 3]
        >>> import padax
        >>> padax.jit(lambda x: pnp.unique_values(x, size=4, fill_value=0))(pnp.array([3, 1, 3])).tolist()
        [1, 3, 0, 0]
    """
    return _unique("unique_values", x, size, fill_value)[0]


def unique_counts(x: Any, /) -> UniqueCountsResult:
    """(values, counts) of the distinct values (eager).

    Args:
        x: an array or array-like (flattened).

    Returns:
        A UniqueCountsResult of 1-D arrays (counts: default int).

    Examples:
        >>> import padax.numpy as pnp
        >>> r = pnp.unique_counts(pnp.array([3, 1, 3, 3]))
        >>> r.values.tolist(), r.counts.tolist()
        ([1, 3], [1, 3])
    """
    v, _, _, c = _unique("unique_counts", x, None)
    return UniqueCountsResult(v, c)


def unique_inverse(x: Any, /) -> UniqueInverseResult:
    """(values, inverse_indices) with values[inverse_indices] == x (eager).

    Args:
        x: an array or array-like.

    Returns:
        A UniqueInverseResult (values 1-D; inverse_indices of x's shape, default int).

    Examples:
        >>> import padax.numpy as pnp
        >>> r = pnp.unique_inverse(pnp.array([3, 1, 3, 2]))
        >>> r.values.tolist(), r.inverse_indices.tolist()
        ([1, 2, 3], [2, 0, 2, 1])
    """
    v, _, inv, _ = _unique("unique_inverse", x, None)
    return UniqueInverseResult(v, inv)


def unique_all(x: Any, /) -> UniqueAllResult:
    """(values, indices of first occurrences, inverse_indices, counts) (eager).

    Args:
        x: an array or array-like.

    Returns:
        A UniqueAllResult (values, indices and counts 1-D; inverse_indices of x's shape).

    Examples:
        >>> import padax.numpy as pnp
        >>> r = pnp.unique_all(pnp.array([3, 1, 3, 2]))
        >>> r.values.tolist(), r.indices.tolist(), r.inverse_indices.tolist(), r.counts.tolist()
        ([1, 2, 3], [1, 3, 0], [2, 0, 2, 1], [1, 1, 2])
    """
    return UniqueAllResult(*_unique("unique_all", x, None))


def unique(ar: Any, return_index: builtins.bool = False, return_inverse: builtins.bool = False,
           return_counts: builtins.bool = False, axis: builtins.int | None = None, *,
           equal_nan: builtins.bool = True, size: builtins.int | None = None, fill_value: Any = None) -> Any:
    """NumPy's unique: the sorted distinct values (of the flattened array, or the distinct
    slices along `axis`), then the requested first indices, inverse and counts.

    As in numpy, `equal_nan` (default True) makes all NaNs one value when axis is None;
    slices along an axis containing NaN are never equal. The inverse has the input's shape
    when axis is None (numpy >= 2), else one entry per slice. Eager unless `size` is given (then padded with
    `fill_value`, default the smallest value or slice).

    Args:
        ar: an array or array-like.
        return_index: also return the index of each value's first occurrence.
        return_inverse: also return each element's index into the values.
        return_counts: also return how often each value occurs.
        axis: find distinct slices along this axis (None: distinct elements of the flattened array).
        equal_nan: treat all NaNs as one value (axis None only).
        size: the static number of values to return (needed under jit).
        fill_value: the padding value or slice (default: the smallest).

    Returns:
        The values array alone, or a tuple (values, then the requested index, inverse and counts arrays).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.unique(pnp.array([2, 1, 2, 5])).tolist()
        [1, 2, 5]
        >>> values, counts = pnp.unique(pnp.array([2, 1, 2, 5]), return_counts=True)
        >>> values.tolist(), counts.tolist()
        ([1, 2, 5], [1, 2, 1])
    """
    if axis is None:
        v, i, inv, c = _unique("unique", ar, size, fill_value, equal_nan)
    else:
        v, i, inv, c = _unique_along("unique", ar, axis, size, fill_value)
    out = [v]
    if return_index:
        out.append(i)
    if return_inverse:
        out.append(inv)
    if return_counts:
        out.append(c)
    return out[0] if len(out) == 1 else tuple(out)


def isin(x1: Any, x2: Any, /, *, invert: builtins.bool = False) -> Any:
    """True where an element of x1 occurs in x2 (x1's shape).

    Args:
        x1: the elements to look up (any shape).
        x2: the elements to look in (any shape, flattened); promoted with x1.
        invert: return True where the element does not occur instead.
        assume_unique: NumPy's hint, accepted and ignored.

    Returns:
        A bool array of x1's shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.isin(pnp.array([1, 2, 3, 4]), pnp.array([2, 4])).tolist()
        [False, True, False, True]
        >>> pnp.isin(pnp.array([1, 2, 3, 4]), pnp.array([2, 4]), invert=True).tolist()
        [True, False, True, False]
    """
    a, b = promote_broadcast_pair(to_array(x1), x2)
    flat = lax.reshape(b, (b.aval.size,))
    m = b.aval.size
    shape = a.aval.shape + (m,)
    eq = lax.eq(lax.broadcast_in_dim(a, shape, tuple(builtins.range(a.aval.ndim))),
                lax.broadcast_in_dim(flat, shape, (a.aval.ndim,)))
    out = lax.reduce_or(eq, (a.aval.ndim,))
    return lax.bitwise_not(out) if invert else out


def in1d(ar1: Any, ar2: Any, invert: builtins.bool = False) -> Any:
    """isin of the flattened ar1.

    Args:
        ar1: the elements to look up (flattened).
        ar2: the elements to look in (flattened).
        invert: return True where the element does not occur instead.

    Returns:
        A 1-D bool array of ar1's size.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.in1d(pnp.array([[1, 2], [3, 4]]), pnp.array([2, 3])).tolist()
        [False, True, True, False]
    """
    a = to_array(ar1)
    return isin(lax.reshape(a, (a.aval.size,)), ar2, invert=invert)


def bincount(x: Any, weights: Any = None, minlength: builtins.int = 0, *, length: builtins.int | None = None) -> Any:
    """Counts (or summed weights) of each value 0..length-1 of integers x (negative ones count as 0).

    `length` defaults to max(x) + 1 (at least `minlength`), which needs x's value (eager).

    Args:
        x: a 1-D integer array.
        weights: per-element weights to add up instead of counts (x's shape).
        minlength: the minimum number of bins.
        length: the static number of bins (needed under jit; values >= length are dropped).

    Returns:
        A 1-D array: default int for counts, or weights' dtype (integers: the default float).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.bincount(pnp.array([0, 1, 1, 3])).tolist()
        [1, 2, 0, 1]
        >>> import padax
        >>> padax.jit(lambda x: pnp.bincount(x, length=2))(pnp.array([0, 1, 1, 3])).tolist()  # static length
        [1, 2]
        >>> pnp.bincount(pnp.array([0, 1, 1]), weights=pnp.array([0.5, 1.0, 2.0]), minlength=4).tolist()
        [0.5, 3.0, 0.0, 0.0]
    """
    x = to_array(x)
    if x.aval.ndim != 1 or D.kind(x.aval.dtype) != 1:
        raise op_type_error("bincount", f"expects a 1-D integer array, got {x.aval.str_short()}")
    if length is None:
        mx = lax.reduce_max(x, (0,)) if x.aval.size else 0
        length = builtins.max(_concrete_count("bincount", mx, "pass length=") + 1 if x.aval.size else 0,
                              builtins.int(minlength))
    if weights is None:
        w = full_like_shape(x.aval.shape, 1, D.default_int())
    else:
        w = to_array(weights)
        if D.kind(w.aval.dtype) < 2:
            w = lax.convert_element_type(w, D.default_float())
    dn = ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))
    # negative values count in bin 0, as jnp.bincount (numpy refuses them); values >= length are dropped
    x = lax.max(x, full_like_shape(x.aval.shape, 0, x.aval.dtype))
    idx = lax.reshape(lax.convert_element_type(x, D.int32), (x.aval.size, 1))
    return lax.scatter_add(full_like_shape((length,), 0, w.aval.dtype), idx, w, dn, mode="drop")


def interp(x: Any, xp: Any, fp: Any, left: Any = None, right: Any = None, period: Any = None) -> Any:
    """Piecewise-linear interpolation of (xp, fp) at x (xp increasing); constant beyond the ends
    (`left`/`right`, default fp's end values).

    With `period`, the coordinates are angles: x and xp are taken modulo |period|, xp is
    sorted (fp with it) and extended by one point on each side across the wrap, and
    left/right are ignored, as in numpy.

    Args:
        x: the points to evaluate at (any shape).
        xp: the 1-D increasing sample coordinates.
        fp: the 1-D sample values, xp's length.
        left, right: the values below xp[0] / above xp[-1] (default fp[0] / fp[-1]).
        period: the period of periodic coordinates (None: not periodic).

    Returns:
        A floating array of x's shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> xp, fp = pnp.array([0.0, 1.0, 2.0]), pnp.array([0.0, 10.0, 0.0])
        >>> pnp.interp(pnp.array([0.5, 1.5, 3.0]), xp, fp).tolist()
        [5.0, 5.0, 0.0]
    """
    x, xp = [to_array(t) for t in promote_broadcast_pair(to_array(x), to_array(xp))]
    x, xp, fp = to_inexact(x), to_inexact(xp), to_inexact(fp)
    if xp.aval.ndim != 1 or fp.aval.ndim != 1:
        raise op_value_error("interp", f"xp and fp must be 1-D, got {xp.aval.str_short()} and {fp.aval.str_short()}")
    if xp.aval.shape != fp.aval.shape:
        raise op_value_error("interp", f"xp and fp must have the same length, got {xp.aval.str_short()} and "
                                       f"{fp.aval.str_short()}")
    if xp.aval.shape[0] == 0:
        raise op_value_error("interp", "xp and fp must not be empty")
    if period is not None:
        x, xp, fp = _periodic_nodes(x, xp, fp, period)
        left = right = None
    n = xp.aval.shape[0]
    i = searchsorted(xp, x, side="right")
    i = lax.convert_element_type(i, D.int32)
    i = lax.clamp(np.int32(1), i, np.int32(builtins.max(n - 1, 1)))
    x0, x1 = take(xp, lax.sub(i, scalar_like(i, 1)), mode="clip"), take(xp, i, mode="clip")
    f0, f1 = take(fp, lax.sub(i, scalar_like(i, 1)), mode="clip"), take(fp, i, mode="clip")
    dt = f0.aval.dtype
    dx = lax.sub(x1, x0)
    safe = lax.select(lax.eq(dx, scalar_like(dx, 0)), scalar_like(dx, 1), dx)
    t = lax.div(lax.sub(x, x0), safe)
    if t.aval.dtype != dt:
        t = lax.convert_element_type(t, dt)
    out = lax.add(f0, lax.mul(t, lax.sub(f1, f0)))
    lv = take(fp, full_like_shape((), 0, D.int32)) if left is None else to_array(left, dt)
    rv = take(fp, full_like_shape((), n - 1, D.int32)) if right is None else to_array(right, dt)
    out = lax.select(lax.lt(x, broadcast_to(take(xp, full_like_shape((), 0, D.int32)), x.aval.shape)),
                     broadcast_to(lv, x.aval.shape), out)
    out = lax.select(lax.gt(x, broadcast_to(take(xp, full_like_shape((), n - 1, D.int32)), x.aval.shape)),
                     broadcast_to(rv, x.aval.shape), out)
    return out


def _periodic_nodes(x: Any, xp: Any, fp: Any, period: Any):
    """x and the nodes reduced modulo |period|, the nodes sorted and wrapped (one node before
    the first and one after the last, a period away)."""
    if not isinstance(period, Tracer) and not is_array_like(period) and period == 0:
        raise op_value_error("interp", "period must be a non-zero value")
    p = lax.abs(to_array(period, x.aval.dtype)) if not is_array_like(period) else \
        lax.abs(lax.convert_element_type(to_array(period), x.aval.dtype))
    x, xp = remainder(x, p), remainder(xp, p)
    xp, fp = lax.sort((xp, fp), 0, True, 1)
    n = xp.aval.shape[0]
    pb = lax.reshape(p, (1,)) if p.aval.ndim == 0 else p
    xp = lax.concatenate([lax.sub(lax.slice_in_dim(xp, n - 1, n, 1, 0), pb), xp,
                          lax.add(lax.slice_in_dim(xp, 0, 1, 1, 0), pb)], 0)
    fp = lax.concatenate([lax.slice_in_dim(fp, n - 1, n, 1, 0), fp, lax.slice_in_dim(fp, 0, 1, 1, 0)], 0)
    return x, xp, fp


def is_array_like(v: Any) -> builtins.bool:
    return isinstance(v, Tracer) or is_array(v) or isinstance(v, np.ndarray)


__all__ = ["argmax", "argmin", "where", "select", "sort", "argsort", "searchsorted", "digitize", "nonzero",
           "flatnonzero", "argwhere", "unique_values", "unique_counts", "unique_inverse", "unique_all",
           "unique", "isin", "in1d", "bincount", "interp", "UniqueAllResult", "UniqueCountsResult",
           "UniqueInverseResult"]
