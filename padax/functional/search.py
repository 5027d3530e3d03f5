"""Searching: searchsorted, bucketize, and the functions whose result size depends on the data
(nonzero, where(condition), masked_select, unique, unique_consecutive).

The data-dependent ones run on the device with a static result size; eagerly
that size is read from the device (one small transfer). Under jit/vmap/grad
it cannot be, so they raise an error there unless the static `size=` keyword
(padax's extension, as in jax.numpy) is given: results are then cut or
padded to `size` entries with `fill_value`.
"""
from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from padax.core import dtypes
from padax.core.errors import op_type_error, op_value_error
from padax.core.source_info import user_location
from padax.core.trace import Tracer
from padax.functional import indexed as _indexed, lax_api as lax
from padax.functional._arrays import asarray, broadcast_shapes, broadcast_to, canonicalize_axis, full, static_int
from padax.functional._checks import arg as _arg, write_out
from padax.functional.lax.indexing import ScatterDimensionNumbers


def _index_dtype(op: str, dtype: Any) -> np.dtype:
    dt = dtypes.canonicalize(dtypes.to_dtype(dtype))
    if not dtypes.is_integer(dt):
        raise op_type_error(op, f"dtype must be an integer type, got {dt.name}")
    return dt


def _is_nan(x: Any) -> Any:
    if dtypes.is_inexact(x.aval.dtype):
        return lax.ne(x, x)
    return full(x.aval.shape, False, dtypes.bool_)


def _sort_lt(a: Any, b: Any) -> Any:
    """a < b in sort order (NaN after every number)."""
    if not dtypes.is_inexact(a.aval.dtype):
        return lax.lt(a, b)
    return lax.bitwise_or(lax.lt(a, b), lax.bitwise_and(_is_nan(b), lax.bitwise_not(_is_nan(a))))


def _same(a: Any, b: Any) -> Any:
    """Equality in which NaNs are equal to each other (as numpy's unique collapses them)."""
    eq = lax.eq(a, b)
    if dtypes.is_inexact(a.aval.dtype):
        eq = lax.bitwise_or(eq, lax.bitwise_and(_is_nan(a), _is_nan(b)))
    return eq


# ---- searchsorted ---------------------------------------------------------------------------------

def searchsorted(sorted_sequence: Any, values: Any, out_int32: bool = False, right: bool = False,
                 name: str | None = None, *, side: str | None = None, out: Any = None, sorter: Any = None) -> Any:
    """Insertion points of `values` into the innermost axis of `sorted_sequence` that keep it sorted
    (first such point, or the last one with right=True or side='right'); NaN sorts after every number.
    With `sorter` (the indices that sort an unsorted sequence, e.g. from argsort), the sequence is read
    in that order.

    Args:
        sorted_sequence: a Tensor sorted along its last axis: 1-D, or with leading axes equal to values'.
        values: the values to place.
        out_int32: return int32 instead of int64.
        right: return the last insertion point instead of the first.
        side: 'left' or 'right' (numpy's spelling); overrides `right` when given.
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).
        sorter: the int indices that sort `sorted_sequence` along its last axis, or None.

    Returns:
        An int64 (or int32) Tensor of values' shape.

    Examples:
        >>> import padax
        >>> s = padax.to_tensor([1.0, 3.0, 5.0, 7.0])
        >>> padax.searchsorted(s, padax.to_tensor([3.0, 6.0])).tolist()
        [1, 3]
        >>> padax.searchsorted(s, padax.to_tensor([3.0, 6.0]), right=True).tolist()
        [2, 3]
    """
    if out is not None:
        result = searchsorted(
            sorted_sequence=sorted_sequence, values=values, out_int32=out_int32, right=right, name=name, side=side,
            sorter=sorter)
        return write_out(out, result, "searchsorted")
    op = "searchsorted"
    if side is not None:
        if side not in ("left", "right"):
            raise op_value_error(op, f"side must be 'left' or 'right', got {side!r}")
        right = side == "right"
    seq, v = asarray(sorted_sequence), asarray(values)
    if sorter is not None:
        seq = _indexed.take_along_axis(seq, asarray(sorter), -1)
    if seq.aval.ndim == 0:
        raise op_value_error(op, f"sorted_sequence must have at least one axis, got {seq.aval.str_short()}")
    if dtypes.is_complex(seq.aval.dtype) or dtypes.is_complex(v.aval.dtype):
        raise op_type_error(op, f"complex values have no order, got {seq.aval.str_short()} and {v.aval.str_short()}")
    if seq.aval.ndim > 1 and seq.aval.shape[:-1] != v.aval.shape[:-1]:
        raise op_value_error(op, f"the leading axes of sorted_sequence {seq.aval.str_short()} and values "
                                 f"{v.aval.str_short()} must match")
    dt = dtypes.promote_types(seq.aval.dtype, v.aval.dtype)
    seq, v = lax.convert_element_type(seq, dt), lax.convert_element_type(v, dt)
    out_dt = dtypes.int32 if out_int32 else dtypes.canonicalize(dtypes.int64)
    n = seq.aval.shape[-1]
    shape = v.aval.shape
    if n == 0 or v.aval.size == 0:
        return full(shape, 0, out_dt)
    it = dtypes.int32
    lo = full(shape, 0, it)
    hi = full(shape, n, it)
    if seq.aval.ndim == 1:
        def probe(mid):
            return _indexed.take_axis(seq, mid, 0)
    else:
        last = seq.aval.ndim - 1

        def probe(mid):
            return _indexed.take_along(seq, mid, last)
    one = full(shape, 1, it)
    for _ in range(int(np.ceil(np.log2(n + 1)))):
        mid = lax.shift_right_logical(lax.add(lo, hi), one)
        midc = lax.min(mid, full(shape, n - 1, it))
        s = probe(midc)
        # go right while s < v (left) or s <= v (right)
        go = lax.bitwise_not(_sort_lt(v, s)) if right else _sort_lt(s, v)
        active = lax.lt(lo, hi)
        lo = lax.select(lax.bitwise_and(active, go), lax.add(mid, one), lo)
        hi = lax.select(lax.bitwise_and(active, lax.bitwise_not(go)), mid, hi)
    return lax.convert_element_type(lo, out_dt)


def bucketize(x: Any, sorted_sequence: Any, out_int32: bool = False, right: bool = False,
              name: str | None = None, *, out: Any = None) -> Any:
    """The bucket of each element of x among the boundaries in the 1-D `sorted_sequence`.

    Args:
        x: the values to place.
        sorted_sequence: the 1-D sorted boundaries.
        out_int32: return int32 instead of int64.
        right: for x equal to a boundary, take the bucket to its right.
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Returns:
        An int64 (or int32) Tensor of x's shape.

    Examples:
        >>> import padax
        >>> padax.bucketize(padax.to_tensor([0.5, 3.0, 9.0]), padax.to_tensor([1.0, 3.0, 5.0])).tolist()
        [0, 1, 3]
    """
    if out is not None:
        result = bucketize(
            x=x, sorted_sequence=sorted_sequence, out_int32=out_int32, right=right, name=name)
        return write_out(out, result, "bucketize")
    seq = asarray(sorted_sequence)
    if seq.aval.ndim != 1:
        raise op_value_error("bucketize", f"sorted_sequence must be 1-D, got {seq.aval.str_short()}")
    return searchsorted(seq, x, out_int32=out_int32, right=right)


# ---- data-dependent sizes ----------------------------------------------------------------------

def _static_count(op: str, count: Any, size: Any, what: str) -> int:
    if size is not None:
        if isinstance(size, Tracer) or int(size) < 0:
            raise op_value_error(op, f"size must be a non-negative Python int, got {size!r}")
        return int(size)
    if isinstance(count, Tracer):
        raise op_type_error(op, f"the number of {what} depends on the values of the input, so it cannot be "
                                f"computed inside jit/vmap/grad (got a traced {count.aval.str_short()}). Pass a "
                                "static size=... (the result is cut or padded to that many entries with "
                                "fill_value), use padax.where(mask, x, y) / padax.masked_fill to keep shapes "
                                "static, or call it outside the transformation (or on numpy values)"
                                + user_location())
    return int(count)


def _true_positions(op: str, flat: Any, size: Any, fill_value: Any) -> tuple[Any, Any, int]:
    """Positions (int32) of the True entries of 1-D bool `flat`, in order, cut/padded to the result size."""
    n = flat.aval.shape[0]
    count = lax.reduce_sum(lax.convert_element_type(flat, dtypes.int32), (0,))
    k = _static_count(op, count, size, "selected elements")
    if n == 0:
        return full((k,), 0 if fill_value is None else fill_value, dtypes.int32), count, k
    key = lax.convert_element_type(lax.bitwise_not(flat), dtypes.int32)
    _, pos = lax.sort_key_val(key, lax.iota(dtypes.int32, n), 0, True)
    if k <= n:
        pos = lax.slice(pos, (0,), (k,))
    else:
        pos = lax.pad(pos, full((), 0, dtypes.int32), ((0, k - n, 0),))
    return pos, count, k


def _valid(count: Any, k: int) -> Any:
    return lax.lt(lax.iota(dtypes.int32, k), broadcast_to(count, (k,)))


def nonzero(x: Any, as_tuple: bool = False, *, size: int | None = None, fill_value: Any = None, out: Any = None) -> Any:
    """Coordinates (int64) of the nonzero elements of x in row-major order: shape [z, x.ndim], or with
    as_tuple a tuple of x.ndim 1-D Tensors of shape [z] (as Paddle 3 gives them). Eager only, unless a
    static `size` is given (entries past the true count hold `fill_value`, default 0).

    Args:
        x: the input Tensor (any dtype; nonzero is True).
        as_tuple: return one 1-D Tensor per axis instead of a 2-D Tensor.
        size: the static number of entries (padax's extension, needed under jit/vmap/grad), or None.
        fill_value: the index stored in the padding entries when `size` exceeds the count (default 0).
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Returns:
        An int64 Tensor of shape [z, x.ndim], or with as_tuple a tuple of x.ndim int64 Tensors of shape [z]
        (z: the count, or `size`).

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[0, 1], [2, 0]])
        >>> padax.nonzero(x).tolist()
        [[0, 1], [1, 0]]
        >>> [i.tolist() for i in padax.nonzero(x, as_tuple=True)]
        [[0, 1], [1, 0]]
    """
    if out is not None:
        return write_out(out, nonzero(x=x, as_tuple=as_tuple, size=size, fill_value=fill_value), "nonzero")
    x = _arg("nonzero", x, "x")
    mask = x if x.aval.dtype == dtypes.bool_ else lax.ne(x, full(x.aval.shape, 0, x.aval.dtype))
    shape = x.aval.shape if x.aval.ndim else (1,)
    flat = lax.reshape(mask, (int(np.prod(shape, dtype=np.int64)),))
    pos, count, k = _true_positions("nonzero", flat, size, fill_value)
    idt = dtypes.canonicalize(dtypes.int64)
    coords = []
    rem = pos
    for d in reversed(range(len(shape))):
        coords.append(lax.rem(rem, full((k,), shape[d], dtypes.int32)) if shape[d] else rem)
        rem = lax.div(rem, full((k,), builtins.max(shape[d], 1), dtypes.int32))
    coords = [lax.convert_element_type(c, idt) for c in reversed(coords)]
    if size is not None and k:
        ok = _valid(count, k)
        fv = full((k,), 0 if fill_value is None else fill_value, idt)
        coords = [lax.select(ok, c, fv) for c in coords]
    if x.aval.ndim == 0:
        coords = coords[:0] if not as_tuple else coords
    if as_tuple:
        return tuple(coords)
    if not coords:
        return full((k, 0), 0, idt)
    return lax.concatenate([lax.reshape(c, (k, 1)) for c in coords], 1)


def masked_select(x: Any, mask: Any, name: str | None = None, *, size: int | None = None,
                  fill_value: Any = None, out: Any = None) -> Any:
    """The elements of x where mask (broadcast with x) is true, as a 1-D Tensor in row-major order.
    Eager only, unless a static `size` is given (padding holds `fill_value`, default 0).

    Args:
        x: the input Tensor.
        mask: a bool Tensor, broadcast with x.
        size: the static number of entries (padax's extension, needed under jit/vmap/grad), or None.
        fill_value: the value of the padding entries when `size` exceeds the count (default 0).
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Returns:
        A 1-D Tensor of x's dtype.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([1, -2, 3, -4])
        >>> padax.masked_select(x, x > 0).tolist()
        [1, 3]
    """
    if out is not None:
        result = masked_select(
            x=x, mask=mask, name=name, size=size, fill_value=fill_value)
        return write_out(out, result, "masked_select")
    op = "masked_select"
    x, mask = _arg("masked_select", x, "x"), _arg("masked_select", mask, "mask")
    if mask.aval.dtype != dtypes.bool_:
        raise op_type_error(op, f"mask must be a bool Tensor, got {mask.aval.str_short()}")
    shape = broadcast_shapes(op, x.aval.shape, mask.aval.shape)
    x, mask = broadcast_to(x, shape), broadcast_to(mask, shape)
    n = int(np.prod(shape, dtype=np.int64))
    pos, count, k = _true_positions(op, lax.reshape(mask, (n,)), size, fill_value)
    if k == 0:
        return full((0,), 0, x.aval.dtype)
    out = _indexed.take_axis(lax.reshape(x, (n,)), pos, 0, mode="clip") if n else full((k,), 0, x.aval.dtype)
    if size is not None:
        out = lax.select(_valid(count, k), out, full((k,), 0 if fill_value is None else fill_value, x.aval.dtype))
    return out


def argwhere(input: Any) -> Any:  # noqa: A002  (Paddle's parameter name)
    """The coordinates (int64, shape [z, ndim]) of the nonzero elements of input, as nonzero(input).

    Args:
        input: the input Tensor (any dtype; nonzero is True).

    Returns:
        An int64 Tensor of shape [z, input.ndim].

    Examples:
        >>> import padax
        >>> padax.argwhere(padax.to_tensor([0.0, 2.0, 0.0, 5.0])).tolist()
        [[1], [3]]
    """
    return nonzero(input)


# ---- unique ------------------------------------------------------------------------------------

def _rows_view(x: Any, axis: int | None) -> tuple[Any, tuple[int, ...]]:
    """x as a 2-D [n, m] array of the items to deduplicate (elements, or slices along `axis`)."""
    if axis is None:
        return lax.reshape(x, (x.aval.size, 1)), ()
    moved = lax.transpose(x, (axis,) + tuple(d for d in range(x.aval.ndim) if d != axis))
    rest = moved.aval.shape[1:]
    return lax.reshape(moved, (moved.aval.shape[0], int(np.prod(rest, dtype=np.int64)))), rest


def _unique_impl(op: str, x: Any, sort: bool, return_index: bool, return_inverse: bool, return_counts: bool,
                 axis: Any, dtype: Any, size: Any, fill_value: Any):
    x = asarray(x)
    idt = _index_dtype(op, dtype)
    if dtypes.is_complex(x.aval.dtype) and sort:
        raise op_type_error(op, f"complex values have no order, got {x.aval.str_short()}")
    a = None if axis is None else canonicalize_axis(op, static_int(op, axis, "axis"), x.aval.ndim)
    if a is not None and x.aval.ndim == 0:
        raise op_value_error(op, "axis must be None for a 0-d input")
    rows, rest = _rows_view(x, a)
    n, m = rows.aval.shape
    i32 = dtypes.int32
    order = lax.iota(i32, n)
    if sort and n and m:
        cols = [lax.reshape(lax.slice(rows, (0, j), (n, j + 1)), (n,)) for j in range(m)]
        out = lax.sort(tuple(cols) + (order,), 0, True, num_keys=m)
        srows = lax.concatenate([lax.reshape(c, (n, 1)) for c in out[:m]], 1)
        perm = out[m]
    else:
        srows, perm = rows, order
    # a run starts where a row differs from the previous one
    if n:
        if m:
            prev = lax.pad(lax.slice(srows, (0, 0), (n - 1, m)), full((), 0, srows.aval.dtype), ((1, 0, 0), (0, 0, 0)))
            differ = lax.reduce_or(lax.bitwise_not(_same(srows, prev)), (1,))
        else:
            differ = full((n,), False, dtypes.bool_)
        start = lax.bitwise_or(differ, lax.eq(order, full((n,), 0, i32)))
    else:
        start = full((0,), False, dtypes.bool_)
    run = lax.sub(lax.cumsum(lax.convert_element_type(start, i32), 0), full((n,), 1, i32)) if n else order
    count = lax.reduce_sum(lax.convert_element_type(start, i32), (0,)) if n else full((), 0, i32)
    k = _static_count(op, count, size, "unique values")
    # the first row of each run goes to its run's slot; every other row is dropped (index k)
    slot = lax.reshape(lax.select(start, run, full((n,), k, i32)), (n, 1))
    dn = ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))
    fv = 0 if fill_value is None else fill_value
    uniq = full((k, m), fv, x.aval.dtype)
    if n and k:
        uniq = lax.scatter(uniq, slot, srows, dn, mode="drop")
    out = uniq if a is None else None
    if a is None:
        out = lax.reshape(uniq, (k,))
    else:
        moved = lax.reshape(uniq, (k,) + rest)
        inv = list(range(1, a + 1)) + [0] + list(range(a + 1, x.aval.ndim))
        out = lax.transpose(moved, tuple(inv))
    results = [out]
    dn1 = ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))
    if return_index:
        first = full((k,), 0, i32)
        if n and k:
            # the smallest original position in each run (the sort is stable, but keep it exact)
            big = full((k,), n, i32)
            first = lax.scatter_min(big, lax.reshape(run, (n, 1)), perm, dn1, mode="drop")
            if size is not None:
                first = lax.select(lax.lt(first, full((k,), n, i32)), first, full((k,), 0, i32))
        results.append(lax.convert_element_type(first, idt))
    if return_inverse:
        inverse = full((n,), 0, i32)
        if n:
            inverse = lax.scatter(inverse, lax.reshape(perm, (n, 1)), run, dn1, mode="drop")
        results.append(lax.convert_element_type(inverse, idt))
    if return_counts:
        counts = full((k,), 0, i32)
        if n and k:
            counts = lax.scatter_add(counts, lax.reshape(run, (n, 1)), full((n,), 1, i32), dn1, mode="drop")
        results.append(lax.convert_element_type(counts, idt))
    return results[0] if len(results) == 1 else tuple(results)


def unique(x: Any, return_index: bool = False, return_inverse: bool = False, return_counts: bool = False,
           axis: int | None = None, dtype: Any = "int64", sorted: bool = True, name: str | None = None, *,  # noqa: A002
           size: int | None = None, fill_value: Any = None) -> Any:
    """The sorted unique elements of x (flattened), or unique slices along `axis`; optionally with the
    first index of each, the inverse mapping and the counts (in that order). NaNs count as one value.
    The result is always sorted (Paddle's CPU kernel sorts whatever `sorted` says).
    Eager only, unless a static `size` is given (padding holds `fill_value`, default 0).

    Args:
        x: the input Tensor (flattened when axis is None).
        return_index: also return the index in x (flattened, or along `axis`) of the first occurrence of each unique
            value.
        return_inverse: also return, for each element (or slice) of x, the index of its value in the result.
        return_counts: also return how often each unique value occurs.
        axis: None for elements, or the axis whose slices are deduplicated.
        dtype: the integer dtype of the index outputs.
        sorted: no effect: the result is always sorted.
        size: the static number of unique values (padax's extension, needed under jit/vmap/grad), or None.
        fill_value: the value of the padding entries when `size` exceeds the count (default 0).

    Returns:
        The unique values (a Tensor of x's dtype), or a tuple of them followed by the requested index,
        inverse and counts Tensors (in `dtype`).

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([3, 1, 3, 2, 1])
        >>> padax.unique(x).tolist()
        [1, 2, 3]
        >>> values, counts = padax.unique(x, return_counts=True)
        >>> counts.tolist()
        [2, 1, 2]
    """
    return _unique_impl("unique", x, True, return_index, return_inverse, return_counts, axis, dtype, size,
                        fill_value)


def unique_consecutive(x: Any, return_inverse: bool = False, return_counts: bool = False, axis: int | None = None,
                       dtype: Any = "int64", name: str | None = None, *, size: int | None = None,
                       fill_value: Any = None) -> Any:
    """x with runs of equal consecutive elements (or slices along `axis`) collapsed to one; optionally
    with the inverse mapping and the run lengths. Eager only unless a static `size` is given.

    Args:
        x: the input Tensor (flattened when axis is None).
        return_inverse: also return, for each element (or slice) of x, the index of its run in the result.
        return_counts: also return each run's length.
        axis: None for elements, or the axis whose slices are compared.
        dtype: the integer dtype of the index outputs.
        size: the static number of runs (padax's extension, needed under jit/vmap/grad), or None.
        fill_value: the value of the padding entries when `size` exceeds the count (default 0).

    Returns:
        The collapsed values (a Tensor of x's dtype), or a tuple of them followed by the requested inverse
        and counts Tensors (in `dtype`).

    Examples:
        >>> import padax
        >>> padax.unique_consecutive(padax.to_tensor([1, 1, 2, 2, 1])).tolist()
        [1, 2, 1]
    """
    return _unique_impl("unique_consecutive", x, False, False, return_inverse, return_counts, axis, dtype, size,
                        fill_value)


def isin(x: Any, test_x: Any, assume_unique: bool = False, invert: bool = False, name: str | None = None) -> Any:
    """True where an element of x occurs in test_x (False with invert); a sort plus a binary search.

    Args:
        x: the values to look up (real).
        test_x: the values to look for, any shape.
        assume_unique: no effect (kept for Paddle's signature).
        invert: return True where x does not occur instead.

    Returns:
        A bool Tensor of x's shape.

    Examples:
        >>> import padax
        >>> padax.isin(padax.to_tensor([1, 2, 3, 4]), padax.to_tensor([2, 4])).tolist()
        [False, True, False, True]
    """
    x, t = asarray(x), asarray(test_x)
    dt = dtypes.promote_types(x.aval.dtype, t.aval.dtype)
    if dtypes.is_complex(dt):
        raise op_type_error("isin", f"complex values are not supported, got {x.aval.str_short()} and "
                                    f"{t.aval.str_short()}")
    x, t = lax.convert_element_type(x, dt), lax.convert_element_type(t, dt)
    m = t.aval.size
    if m == 0 or x.aval.size == 0:
        return full(x.aval.shape, bool(invert), dtypes.bool_)
    st = lax.sort(lax.reshape(t, (m,)), 0, True)
    pos = searchsorted(st, x, out_int32=True)
    hit = lax.eq(_indexed.take_axis(st, lax.min(pos, full(pos.aval.shape, m - 1, dtypes.int32)), 0), x)
    return lax.bitwise_not(hit) if invert else hit


def bincount(x: Any, weights: Any = None, minlength: int = 0, name: str | None = None, *,
             length: int | None = None) -> Any:
    """Counts (or summed weights) of each value 0..max(x) of the non-negative 1-D integer x, at least
    `minlength` long. The length depends on the data: eager only, unless a static `length` is given
    (padax's extension; larger values are dropped).

    Args:
        x: a 1-D Tensor of non-negative integers.
        weights: a Tensor of x's shape to sum instead of counting, or None.
        minlength: the smallest length of the result.
        length: the static result length (padax's extension, needed under jit), or None.

    Returns:
        A 1-D Tensor: int64 counts, or the summed weights in weights' dtype (float64 for integer weights).

    Examples:
        >>> import padax
        >>> padax.bincount(padax.to_tensor([0, 1, 1, 3])).tolist()
        [1, 2, 0, 1]
        >>> padax.bincount(padax.to_tensor([0, 1, 1]), weights=padax.to_tensor([0.5, 1.0, 2.0])).tolist()
        [0.5, 3.0]
    """
    op = "bincount"
    x = _arg("bincount", x, "x")
    if x.aval.ndim != 1 or not dtypes.is_integer(x.aval.dtype):
        raise op_type_error(op, f"x must be a 1-D integer Tensor, got {x.aval.str_short()}")
    if length is None:
        if x.aval.size and not isinstance(x, Tracer):
            lo = int(lax.reduce_min(x, (0,)))
            if lo < 0:
                raise op_value_error(op, f"x must be non-negative, got a minimum of {lo}")
        top = lax.add(lax.reduce_max(x, (0,)), full((), 1, x.aval.dtype)) if x.aval.size else full((), 0, x.aval.dtype)
        n = builtins.max(_static_count(op, top, None, "bins"), int(minlength))
    else:
        n = builtins.max(int(length), int(minlength))
    if weights is None:
        w = full(x.aval.shape, 1, dtypes.canonicalize(dtypes.int64))
    else:
        w = asarray(weights)
        if w.aval.shape != x.aval.shape:
            raise op_value_error(op, f"weights {w.aval.str_short()} must have x's shape {list(x.aval.shape)}")
        if not dtypes.is_inexact(w.aval.dtype):  # integer weights sum in float64, as in Paddle
            w = lax.convert_element_type(w, dtypes.canonicalize(dtypes.float64))
    out = full((n,), 0, w.aval.dtype)
    if x.aval.size == 0 or n == 0:
        return out
    dn = ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))
    return lax.scatter_add(out, lax.reshape(x, (x.aval.size, 1)), w, dn, mode="drop")


__all__ = ["isin", "bincount", "searchsorted", "bucketize", "nonzero", "argwhere", "masked_select", "unique",
           "unique_consecutive"]
