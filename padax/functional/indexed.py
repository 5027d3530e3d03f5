"""Paddle's indexed reads and writes: gather, gather_nd, take, take_along_axis, index_select,
index_sample, put_along_axis, scatter, scatter_nd(_add), index_put/fill/add, masked_fill/scatter.

Each is one XLA gather or scatter. Negative indices count from the end.
Concrete out-of-range indices (numpy values, eager Tensors) raise an
IndexError naming the function; traced ones are clamped for reads and
dropped for writes, since a compiled program has no error channel.
"""
from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from padax.core import dtypes
from padax.core.errors import op_type_error, op_value_error
from padax.core.trace import Tracer
from padax.functional import (
    creation as _creation,
    indexing as _indexing,
    lax_api as lax,
    manipulation as _manipulation,
    math as _math,
)
from padax.functional._arrays import (
    asarray,
    broadcast_shapes,
    broadcast_to,
    canonicalize_axis,
    full,
    is_array,
    static_int,
)
from padax.functional._checks import arg as _arg, write_out
from padax.functional.lax.indexing import GatherDimensionNumbers, ScatterDimensionNumbers
from padax.runtime.array import Tensor


def _axis_arg(op: str, axis: Any, ndim: int) -> int:
    if isinstance(axis, Tracer):
        raise op_type_error(op, f"axis must be static, got a traced {axis.aval.str_short()}")
    return canonicalize_axis(op, static_int(op, axis, "axis"), ndim)


def _index(op: str, index: Any, n: int, axis: int, what: str = "index") -> Any:
    """`index` as an integer array with negatives wrapped; concrete ones are bounds-checked."""
    if not is_array(index):
        index = np.asarray(index)
        if index.dtype == object:
            raise op_type_error(op, f"{what} must be an integer array, got {type(index).__name__}")
        if index.size == 0 and index.dtype.kind == "f":
            index = index.astype(np.int32)
    dt = index.aval.dtype if is_array(index) else index.dtype
    if not dtypes.is_integer(dt):
        shape = index.aval.str_short() if is_array(index) else f"{np.dtype(dt).name}{list(np.shape(index))}"
        raise op_type_error(op, f"{what} must have an integer dtype, got {shape}")
    v, _ = _indexing.normalize_index(index, n, axis, op)
    return asarray(v)


def _empty_result(shape: tuple[int, ...], dt: np.dtype) -> Any:
    return full(shape, 0, dt)


def take_axis(x: Any, idx: Any, axis: int, mode: str = "clip") -> Any:
    """numpy's take along one axis: x's `axis` is replaced by idx's shape (idx already normalised)."""
    xs = x.aval.shape
    ishape = idx.aval.shape
    out_shape = xs[:axis] + ishape + xs[axis + 1:]
    if int(np.prod(out_shape, dtype=np.int64)) == 0:
        return _empty_result(out_shape, x.aval.dtype)
    if xs[axis] == 0:
        raise IndexError(f"cannot take elements from the empty axis {axis} of a Tensor of shape {list(xs)}")
    ni = len(ishape)
    offset = tuple(range(axis)) + tuple(range(axis + ni, len(out_shape)))
    dn = GatherDimensionNumbers(offset_dims=offset, collapsed_slice_dims=(axis,), start_index_map=(axis,))
    sizes = tuple(1 if d == axis else s for d, s in enumerate(xs))
    return lax.gather(x, lax.reshape(idx, ishape + (1,)), dn, sizes, mode=mode)


def take_along(x: Any, idx: Any, axis: int, mode: str = "clip") -> Any:
    """out[..., i, ...] = x[..., idx[..., i, ...], ...]: idx matches x except along `axis`."""
    nd = x.aval.ndim
    out_shape = idx.aval.shape
    if int(np.prod(out_shape, dtype=np.int64)) == 0:
        return _empty_result(out_shape, x.aval.dtype)
    if x.aval.shape[axis] == 0:
        raise IndexError(f"cannot take elements from the empty axis {axis} of a Tensor of shape "
                         f"{list(x.aval.shape)}")
    batch = tuple(d for d in range(nd) if d != axis)
    dn = GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(axis,), start_index_map=(axis,),
                                operand_batching_dims=batch, start_indices_batching_dims=batch)
    return lax.gather(x, lax.reshape(idx, out_shape + (1,)), dn, (1,) * nd, mode=mode)


_SCATTER = {"assign": lax.scatter, "add": lax.scatter_add, "mul": lax.scatter_mul, "multiply": lax.scatter_mul,
            "amin": lax.scatter_min, "amax": lax.scatter_max}


def scatter_along(x: Any, idx: Any, upd: Any, axis: int, kind: str) -> Any:
    """The scatter matching `take_along`: x[..., idx[..., i, ...], ...] (op)= upd[..., i, ...]."""
    nd = x.aval.ndim
    if idx.aval.size == 0:
        return x
    batch = tuple(d for d in range(nd) if d != axis)
    dn = ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(axis,),
                                 scatter_dims_to_operand_dims=(axis,), operand_batching_dims=batch,
                                 scatter_indices_batching_dims=batch)
    return _SCATTER[kind](x, lax.reshape(idx, idx.aval.shape + (1,)), upd, dn, mode="drop")


# ---- reads --------------------------------------------------------------------------------------

def _column_as_vector(idx: Any) -> Any:
    """An [N, 1] index read as the [N] one, as Paddle's gather and scatter take it."""
    if idx.aval.ndim == 2 and idx.aval.shape[1] == 1:
        return lax.reshape(idx, idx.aval.shape[:1])
    return idx


def gather(x: Any, index: Any, axis: Any = None, name: str | None = None, out: Any = None) -> Any:
    """Rows (slices along `axis`, default 0) of x picked by `index`; a 0-d index drops that axis.

    Args:
        x: the input Tensor (at least 1-D).
        index: a 0-D, 1-D or [N, 1] integer Tensor or list (negative entries count from the end; concrete
            out-of-range ones raise).
        axis: the axis to gather along (int or 0-d Tensor); None means 0.
        out: must be None (Tensors are immutable).

    Returns:
        A Tensor of x's dtype: x.shape with `axis` replaced by len(index) (removed for a 0-D index).

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1, 2, 3], [4, 5, 6]])
        >>> padax.gather(x, padax.to_tensor([1, 0])).tolist()
        [[4, 5, 6], [1, 2, 3]]
        >>> padax.gather(x, padax.to_tensor([2]), axis=1).tolist()
        [[3], [6]]
    """
    if out is not None:
        return write_out(out, gather(x=x, index=index, axis=axis, name=name), "gather")
    x = _arg("gather", x, "x")
    if x.aval.ndim == 0:
        raise op_value_error("gather", f"x must have at least one axis, got {x.aval.str_short()}")
    a = 0 if axis is None else _axis_arg("gather", axis, x.aval.ndim)
    idx = _column_as_vector(_index("gather", index, x.aval.shape[a], a))
    if idx.aval.ndim > 1:
        raise op_value_error("gather", f"index must be 0-D, 1-D or [N, 1], got {idx.aval.str_short()}")
    return take_axis(x, idx, a)


def index_select(x: Any, index: Any, axis: int = 0, name: str | None = None, *, out: Any = None) -> Any:
    """The slices of x along `axis` listed in the 1-D `index`.

    Args:
        x: the input Tensor (at least 1-D).
        index: a 1-D integer Tensor or list (negative entries count from the end; concrete out-of-range ones raise).
        axis: the axis to select along.
        out: must be None (Tensors are immutable).

    Returns:
        A Tensor of x's dtype with size len(index) on `axis`.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1, 2, 3], [4, 5, 6]])
        >>> padax.index_select(x, padax.to_tensor([0, 2]), axis=1).tolist()
        [[1, 3], [4, 6]]
    """
    if out is not None:
        return write_out(out, index_select(x=x, index=index, axis=axis, name=name), "index_select")
    x = _arg("index_select", x, "x")
    if x.aval.ndim == 0:
        raise op_value_error("index_select", f"x must have at least one axis, got {x.aval.str_short()}")
    a = _axis_arg("index_select", axis, x.aval.ndim)
    idx = _index("index_select", index, x.aval.shape[a], a)
    if idx.aval.ndim != 1:
        raise op_value_error("index_select", f"index must be 1-D, got {idx.aval.str_short()}")
    return take_axis(x, idx, a)


def take(x: Any, index: Any, mode: str = "raise", name: str | None = None) -> Any:
    """Elements of the flattened x at `index` (any shape). mode: 'raise' (negative indices count from
    the end; concrete out-of-range ones raise, traced ones clamp), 'wrap' (modulo) or 'clip' (clamp,
    negative -> 0).

    Args:
        x: the input Tensor (read flattened, row-major).
        index: an integer Tensor or array-like of any shape.
        mode: 'raise' (default), 'wrap' or 'clip', as described above.

    Returns:
        A Tensor of x's dtype with index's shape.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1, 2, 3], [4, 5, 6]])
        >>> padax.take(x, padax.to_tensor([0, 5])).tolist()
        [1, 6]
        >>> padax.take(x, padax.to_tensor([7]), mode='wrap').tolist()
        [2]
    """
    x = _arg("take", x, "x")
    n = x.aval.size
    flat = lax.reshape(x, (n,))
    if mode == "raise":
        idx = _index("take", index, n, 0)
    elif mode in ("wrap", "clip"):
        idx = asarray(index)
        if not dtypes.is_integer(idx.aval.dtype):
            raise op_type_error("take", f"index must have an integer dtype, got {idx.aval.str_short()}")
        it = dtypes.int32 if n < 2 ** 31 else idx.aval.dtype
        idx = lax.convert_element_type(idx, it)
        if n == 0:
            if idx.aval.size:
                raise IndexError("take: cannot take elements from an empty Tensor")
            return _empty_result(idx.aval.shape, x.aval.dtype)
        if mode == "wrap":
            idx = _math.remainder(idx, n)
        else:
            idx = lax.clamp(full((), 0, it), idx, full((), n - 1, it))
    else:
        raise op_value_error("take", f"mode must be 'raise', 'wrap' or 'clip', got {mode!r}")
    return take_axis(flat, idx, 0)


def gather_nd(x: Any, index: Any, name: str | None = None) -> Any:
    """x at the index vectors in index's last axis: out shape index.shape[:-1] + x.shape[k:].

    Args:
        x: the input Tensor.
        index: an integer Tensor (at least 1-D) whose last axis holds index vectors of length
            k <= x.ndim (negative entries count from the end; concrete out-of-range ones raise).

    Returns:
        A Tensor of x's dtype with shape index.shape[:-1] + x.shape[k:].

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1, 2, 3], [4, 5, 6]])
        >>> padax.gather_nd(x, padax.to_tensor([[0, 1], [1, 2]])).tolist()
        [2, 6]
    """
    x = _arg("gather_nd", x, "x")
    index = asarray(index) if is_array(index) else np.asarray(index)
    ishape = index.aval.shape if is_array(index) else index.shape
    if len(ishape) == 0:
        raise op_value_error("gather_nd", "index must have at least one axis (its last axis holds the index vectors)")
    k = ishape[-1]
    xs = x.aval.shape
    if k > len(xs):
        raise op_value_error("gather_nd", f"index vectors of length {k} (index shape {list(ishape)}) are longer "
                                          f"than the rank of x {x.aval.str_short()}")
    out_shape = ishape[:-1] + xs[k:]
    if k == 0:
        return broadcast_to(x, out_shape)
    cols = [_index("gather_nd", _column(index, j), xs[j], j) for j in range(k)]
    if int(np.prod(out_shape, dtype=np.int64)) == 0:
        return _empty_result(out_shape, x.aval.dtype)
    idx = _stack_last(cols)
    nb = len(ishape) - 1
    dn = GatherDimensionNumbers(offset_dims=tuple(range(nb, nb + len(xs) - k)),
                                collapsed_slice_dims=tuple(range(k)), start_index_map=tuple(range(k)))
    return lax.gather(x, idx, dn, (1,) * k + xs[k:], mode="clip")


def _column(index: Any, j: int) -> Any:
    if is_array(index):
        return lax.index_in_dim(index, j, index.aval.ndim - 1, keepdims=False)
    return index[..., j]


def _stack_last(cols: list) -> Any:
    dt = dtypes.promote_types(*(c.aval.dtype for c in cols))
    shape = cols[0].aval.shape
    return lax.concatenate([lax.reshape(lax.convert_element_type(c, dt), shape + (1,)) for c in cols], len(shape))


def _along_shapes(op: str, arr: Any, indices: Any, axis: int, broadcast: bool) -> tuple[Any, Any]:
    """arr and indices with equal shapes except along `axis` (broadcast, or sliced as torch.gather)."""
    if indices.aval.ndim != arr.aval.ndim:
        if not broadcast or indices.aval.ndim > arr.aval.ndim:
            raise op_value_error(op, f"indices {indices.aval.str_short()} and arr {arr.aval.str_short()} must "
                                     "have the same rank")
        indices = lax.reshape(indices, (1,) * (arr.aval.ndim - indices.aval.ndim) + indices.aval.shape)
    xs, js = arr.aval.shape, indices.aval.shape
    if broadcast:
        sx = tuple(1 if d == axis else s for d, s in enumerate(xs))
        sj = tuple(1 if d == axis else s for d, s in enumerate(js))
        try:
            common = broadcast_shapes(op, sx, sj)
        except ValueError:
            raise op_value_error(op, f"indices {indices.aval.str_short()} and arr {arr.aval.str_short()} do not "
                                     f"broadcast against each other outside axis {axis}") from None
        arr = broadcast_to(arr, tuple(xs[axis] if d == axis else s for d, s in enumerate(common)))
        indices = broadcast_to(indices, tuple(js[axis] if d == axis else s for d, s in enumerate(common)))
    else:
        for d in range(len(xs)):
            if d != axis and js[d] > xs[d]:
                raise op_value_error(op, f"indices {indices.aval.str_short()} is larger than arr "
                                         f"{arr.aval.str_short()} on axis {d}")
        lim = tuple(xs[axis] if d == axis else js[d] for d in range(len(xs)))
        arr = lax.slice(arr, (0,) * len(xs), lim)
    return arr, indices


def take_along_axis(arr: Any, indices: Any, axis: int, broadcast: bool = True, name: str | None = None,
                    *, out: Any = None) -> Any:
    """out[..., i, ...] = arr[..., indices[..., i, ...], ...] along `axis` (indices broadcast with arr).

    Args:
        arr: the input Tensor (at least 1-D).
        indices: an integer Tensor of arr's rank (negative entries count from the end; concrete out-of-range ones raise).
        axis: the axis to index along.
        broadcast: whether arr and indices broadcast outside `axis` (default True); if False, indices must
            not be larger than arr there and arr is cut to indices' size.
        out: must be None (Tensors are immutable).

    Returns:
        A Tensor of arr's dtype with indices' (broadcast) shape.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1, 2, 3], [4, 5, 6]])
        >>> padax.take_along_axis(x, padax.to_tensor([[2], [0]]), axis=1).tolist()
        [[3], [4]]
    """
    if out is not None:
        result = take_along_axis(
            arr=arr, indices=indices, axis=axis, broadcast=broadcast, name=name)
        return write_out(out, result, "take_along_axis")
    arr = _arg("take_along_axis", arr, "arr")
    if arr.aval.ndim == 0:
        raise op_value_error("take_along_axis", f"arr must have at least one axis, got {arr.aval.str_short()}")
    a = _axis_arg("take_along_axis", axis, arr.aval.ndim)
    idx = _index("take_along_axis", indices, arr.aval.shape[a], a, "indices")
    arr, idx = _along_shapes("take_along_axis", arr, idx, a, broadcast)
    return take_along(arr, idx, a)


def index_sample(x: Any, index: Any) -> Any:
    """Row-wise gather: out[i, j] = x[i, index[i, j]] for 2-D x and index with equal row counts.

    Args:
        x: a 2-D Tensor [n, m].
        index: a 2-D integer Tensor [n, k] of column indices (negative entries count from the end; concrete out-of-range ones raise).

    Returns:
        An [n, k] Tensor of x's dtype.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1, 2, 3], [4, 5, 6]])
        >>> padax.index_sample(x, padax.to_tensor([[2, 0], [1, 1]])).tolist()
        [[3, 1], [5, 5]]
    """
    x = _arg("index_sample", x, "x")
    idx = asarray(index)
    if x.aval.ndim != 2 or idx.aval.ndim != 2 or x.aval.shape[0] != idx.aval.shape[0]:
        raise op_value_error("index_sample", f"x and index must be 2-D with the same number of rows, got "
                                             f"{x.aval.str_short()} and {idx.aval.str_short()}")
    idx = _index("index_sample", idx, x.aval.shape[1], 1)
    return take_along(x, idx, 1)


# ---- writes -------------------------------------------------------------------------------------

def _values_like(op: str, values: Any, shape: tuple[int, ...], dt: np.dtype) -> Any:
    v = asarray(values, None if is_array(values) else dt)
    if v.aval.dtype != dt:
        v = lax.convert_element_type(v, dt)
    try:
        ok = broadcast_shapes(op, v.aval.shape, shape) == tuple(shape)
    except ValueError:
        ok = False
    if not ok:
        raise op_value_error(op, f"values of shape {list(v.aval.shape)} cannot be broadcast to shape {list(shape)}")
    return broadcast_to(v, tuple(shape))


def _last_writer(idx: Any, n: int, axis: int, shape: tuple[int, ...]) -> Any:
    """True where an update is the last one aimed at its position (deterministic 'assign' with repeats)."""
    order = lax.broadcasted_iota(dtypes.int32, idx.aval.shape, axis)
    winner = full(shape, -1, dtypes.int32)
    winner = scatter_along(winner, idx, order, axis, "amax")
    return lax.eq(take_along(winner, idx, axis), order)


def put_along_axis(arr: Any, indices: Any, values: Any, axis: int, reduce: str = "assign",
                   include_self: bool = True, broadcast: bool = True, name: str | None = None) -> Any:
    """arr with values written along `axis` at `indices`; reduce: 'assign' (the last of repeated indices
    wins), 'add', 'mul'/'multiply', 'amin', 'amax' or 'mean'; include_self=False leaves arr's own
    values out of the reduction at the written positions.

    Args:
        arr: the input Tensor (at least 1-D).
        indices: an integer Tensor of positions along `axis` (negative entries count from the end; concrete out-of-range ones raise).
        values: a scalar or Tensor broadcastable to indices' shape (cast to arr's dtype).
        axis: the axis to write along.
        reduce: how a written value combines with what is there (see above).
        include_self: whether arr's own values take part in the reduction at written positions.
        broadcast: whether indices broadcast against arr outside `axis` (default True); if False, indices
            must have arr's rank and fit inside it.

    Returns:
        A new Tensor of arr's shape and dtype (arr is unchanged).

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1, 2, 3], [4, 5, 6]])
        >>> padax.put_along_axis(x, padax.to_tensor([[0], [2]]), 0, axis=1).tolist()
        [[0, 2, 3], [4, 5, 0]]
    """
    op = "put_along_axis"
    arr = _arg("put_along_axis", arr, "arr")
    if arr.aval.ndim == 0:
        raise op_value_error(op, f"arr must have at least one axis, got {arr.aval.str_short()}")
    kinds = ("assign", "add", "mul", "multiply", "amin", "amax", "mean")
    if reduce not in kinds:
        raise op_value_error(op, f"reduce must be one of {', '.join(map(repr, kinds))}, got {reduce!r}")
    a = _axis_arg(op, axis, arr.aval.ndim)
    n = arr.aval.shape[a]
    idx = _index(op, indices, n, a, "indices")
    dt = arr.aval.dtype
    if broadcast:
        if idx.aval.ndim < arr.aval.ndim:
            idx = lax.reshape(idx, (1,) * (arr.aval.ndim - idx.aval.ndim) + idx.aval.shape)
        xs = arr.aval.shape
        shape = tuple(idx.aval.shape[d] if d == a else s for d, s in enumerate(xs))
        try:
            idx = broadcast_to(idx, shape)
        except ValueError:
            raise op_value_error(op, f"indices {idx.aval.str_short()} do not broadcast to arr "
                                     f"{arr.aval.str_short()} outside axis {a}") from None
    elif idx.aval.ndim != arr.aval.ndim or any(
            d != a and j > s for d, (j, s) in enumerate(zip(idx.aval.shape, arr.aval.shape))):
        raise op_value_error(op, f"indices {idx.aval.str_short()} must have arr's rank and fit inside arr "
                                 f"{arr.aval.str_short()} outside axis {a}")
    # scatter over the sub-block of arr that indices covers (all of it when broadcasting)
    full_cover = all(j == s for d, (j, s) in enumerate(zip(idx.aval.shape, arr.aval.shape)) if d != a)
    target = arr if full_cover else lax.slice(arr, (0,) * arr.aval.ndim,
                                              tuple(n if d == a else j for d, j in enumerate(idx.aval.shape)))
    v = _values_like(op, values, idx.aval.shape, dt)
    kind = {"mul": "mul", "multiply": "mul"}.get(reduce, reduce)
    if kind == "assign":
        keep = _last_writer(idx, n, a, target.aval.shape)
        idx_w = lax.select(keep, idx, full(idx.aval.shape, n, idx.aval.dtype))
        out = scatter_along(target, idx_w, v, a, "assign")
    elif kind == "mean":
        f = dt if dtypes.is_inexact(dt) else dtypes.default_float_dtype()
        ones = full(idx.aval.shape, 1, f)
        count = scatter_along(full(target.aval.shape, 1 if include_self else 0, f), idx, ones, a, "add")
        base = target if include_self else _reset(target, idx, a, 0)
        total = scatter_along(lax.convert_element_type(base, f), idx, lax.convert_element_type(v, f), a, "add")
        safe = lax.select(lax.eq(count, full(count.aval.shape, 0, f)), full(count.aval.shape, 1, f), count)
        mean = lax.div(total, safe)
        if not dtypes.is_inexact(dt):
            mean = lax.floor(mean)
        out = lax.convert_element_type(mean, dt)
    else:
        base = target
        if not include_self:
            ident = {"add": 0, "mul": 1, "amin": _extreme(dt, True), "amax": _extreme(dt, False)}[kind]
            base = _reset(target, idx, a, ident)
        out = scatter_along(base, idx, v, a, kind)
    if full_cover:
        return out
    return lax.dynamic_update_slice(arr, out, (0,) * arr.aval.ndim)


def _extreme(dt: np.dtype, high: bool):
    if dtypes.is_inexact(dt):
        return np.inf if high else -np.inf
    if dt == dtypes.bool_:
        return high
    info = np.iinfo(dt)
    return int(info.max if high else info.min)


def _reset(x: Any, idx: Any, axis: int, value: Any) -> Any:
    """x with every position that idx points at set to `value`."""
    return scatter_along(x, idx, full(idx.aval.shape, value, x.aval.dtype), axis, "assign")


def scatter(x: Any, index: Any, updates: Any, overwrite: bool = True, name: str | None = None,
            out: Any = None) -> Any:
    """x with rows index[i] replaced by updates[i] (overwrite; the last of repeated rows wins) or, with
    overwrite=False, set to the sum of all updates aimed at them.

    Args:
        x: the input Tensor (at least 1-D).
        index: a 0-D or 1-D integer Tensor of row positions along axis 0 (negative entries count from the end; concrete out-of-range ones raise).
        updates: a Tensor of shape [len(index)] + x.shape[1:] (cast to x's dtype).
        overwrite: True replaces rows; False sums all updates aimed at a row (its old value is dropped).
        out: must be None (Tensors are immutable).

    Returns:
        A new Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> x = padax.zeros([2, 3])
        >>> padax.scatter(x, padax.to_tensor([1]), padax.ones([1, 3])).tolist()
        [[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]]
    """
    if out is not None:
        return write_out(out, scatter(x=x, index=index, updates=updates, overwrite=overwrite, name=name), "scatter")
    op = "scatter"
    x = _arg("scatter", x, "x")
    if x.aval.ndim == 0:
        raise op_value_error(op, f"x must have at least one axis, got {x.aval.str_short()}")
    n = x.aval.shape[0]
    idx = _column_as_vector(_index(op, index, n, 0))
    if idx.aval.ndim > 1:
        raise op_value_error(op, f"index must be 0-D, 1-D or [N, 1], got {idx.aval.str_short()}")
    if idx.aval.ndim == 0:
        idx = lax.reshape(idx, (1,))
        updates = asarray(updates)
        if updates.aval.ndim == x.aval.ndim - 1:
            updates = lax.reshape(updates, (1,) + updates.aval.shape)
    m = idx.aval.shape[0]
    u = asarray(updates)
    want = (m,) + x.aval.shape[1:]
    if u.aval.shape != want:
        raise op_value_error(op, f"updates {u.aval.str_short()} must have shape {list(want)} (len(index) rows "
                                 f"shaped like the rows of x {x.aval.str_short()})")
    u = lax.convert_element_type(u, x.aval.dtype)
    if m == 0:
        return x
    dn = ScatterDimensionNumbers(update_window_dims=tuple(range(1, x.aval.ndim)), inserted_window_dims=(0,),
                                 scatter_dims_to_operand_dims=(0,))
    ind = lax.reshape(idx, (m, 1))
    if overwrite:
        keep = _last_writer(idx, n, 0, (n,))
        ind = lax.reshape(lax.select(keep, idx, full((m,), n, idx.aval.dtype)), (m, 1))
        return lax.scatter(x, ind, u, dn, mode="drop")
    zeros = full(want, 0, x.aval.dtype)
    x = lax.scatter(x, ind, zeros, dn, mode="drop")
    return lax.scatter_add(x, ind, u, dn, mode="drop")


def _nd_parts(op: str, x: Any, index: Any, updates: Any) -> tuple[Any, Any, Any]:
    xs = x.aval.shape
    index = asarray(index) if is_array(index) else np.asarray(index)
    ishape = index.aval.shape if is_array(index) else index.shape
    if len(ishape) == 0:
        raise op_value_error(op, "index must have at least one axis (its last axis holds the index vectors)")
    k = ishape[-1]
    if k > len(xs):
        raise op_value_error(op, f"index vectors of length {k} (index shape {list(ishape)}) are longer than the "
                                 f"rank of x {x.aval.str_short()}")
    want = ishape[:-1] + xs[k:]
    u = asarray(updates, None if is_array(updates) else x.aval.dtype)
    if u.aval.shape != want:
        raise op_value_error(op, f"updates {u.aval.str_short()} must have shape {list(want)} = index.shape[:-1] + "
                                 f"x.shape[{k}:] (index shape {list(ishape)}, x {x.aval.str_short()})")
    u = lax.convert_element_type(u, x.aval.dtype)
    if k == 0:
        return None, u, k
    cols = [_index(op, _column(index, j), xs[j], j) for j in range(k)]
    return _stack_last(cols), u, k


def scatter_nd_add(x: Any, index: Any, updates: Any, name: str | None = None) -> Any:
    """x plus updates added at the index vectors in index's last axis (repeated indices accumulate).

    Args:
        x: the input Tensor.
        index: an integer Tensor whose last axis holds index vectors of length k <= x.ndim (negative entries count from the end; concrete out-of-range ones raise).
        updates: a Tensor of shape index.shape[:-1] + x.shape[k:] (cast to x's dtype).

    Returns:
        A new Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> x = padax.zeros([2, 3])
        >>> padax.scatter_nd_add(x, padax.to_tensor([[0, 1], [0, 1]]), padax.to_tensor([1.0, 2.0])).tolist()
        [[0.0, 3.0, 0.0], [0.0, 0.0, 0.0]]
    """
    op = "scatter_nd_add"
    x = _arg("scatter_nd_add", x, "x")
    idx, u, k = _nd_parts(op, x, index, updates)
    if u.aval.size == 0:
        return x
    if k == 0:
        nb = u.aval.ndim - x.aval.ndim
        return lax.add(x, lax.reduce_sum(u, tuple(range(nb))))
    nb = idx.aval.ndim - 1
    xs = x.aval.shape
    dn = ScatterDimensionNumbers(update_window_dims=tuple(range(nb, nb + len(xs) - k)),
                                 inserted_window_dims=tuple(range(k)), scatter_dims_to_operand_dims=tuple(range(k)))
    return lax.scatter_add(x, idx, u, dn, mode="drop")


def scatter_nd(index: Any, updates: Any, shape: Any, name: str | None = None) -> Any:
    """Zeros of `shape` with updates added at the index vectors in index's last axis.

    Args:
        index: an integer Tensor whose last axis holds index vectors of length k <= len(shape).
        updates: a Tensor of shape index.shape[:-1] + shape[k:]; its dtype is the result's.
        shape: the result's shape (an int, list/tuple or 1-D integer Tensor).

    Returns:
        A Tensor of `shape` and updates' dtype.

    Examples:
        >>> import padax
        >>> padax.scatter_nd(padax.to_tensor([[1], [3]]), padax.to_tensor([5.0, 7.0]), [4]).tolist()
        [0.0, 5.0, 0.0, 7.0]
    """
    u = asarray(updates)
    return scatter_nd_add(full(_creation.normalize_shape("scatter_nd", shape), 0, u.aval.dtype), index, u)


def _index_tuple(op: str, x: Any, indices: Any) -> tuple:
    if not isinstance(indices, (list, tuple)):
        raise op_type_error(op, f"indices must be a tuple or list of Tensors, got {type(indices).__name__}")
    if len(indices) > x.aval.ndim:
        raise op_value_error(op, f"{len(indices)} index Tensors for x of rank {x.aval.ndim} ({x.aval.str_short()})")
    return tuple(indices)


def index_put(x: Any, indices: Any, value: Any, accumulate: bool = False, name: str | None = None) -> Any:
    """x with x[indices] = value (or += with accumulate, where repeated indices add up); indices is a
    tuple of integer or boolean Tensors as in advanced indexing.

    Args:
        x: the input Tensor.
        indices: a tuple or list of integer or bool Tensors (at most x.ndim), read as in x[tuple(indices)].
        value: a scalar or Tensor broadcastable to the indexed shape.
        accumulate: False sets the positions (default); True adds value to them.

    Returns:
        A new Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> x = padax.zeros([2, 3])
        >>> padax.index_put(x, (padax.to_tensor([0, 1]), padax.to_tensor([2, 0])), padax.to_tensor(9.0)).tolist()
        [[0.0, 0.0, 9.0], [9.0, 0.0, 0.0]]
    """
    x = _arg("index_put", x, "x")
    idx = _index_tuple("index_put", x, indices)
    ref = x.at[idx]
    return ref.add(value) if accumulate else ref.set(value)


def _axis_index(op: str, x: Any, index: Any, axis: int) -> tuple:
    a = _axis_arg(op, axis, x.aval.ndim)
    idx = _index(op, index, x.aval.shape[a], a)
    if idx.aval.ndim != 1:
        raise op_value_error(op, f"index must be 1-D, got {idx.aval.str_short()}")
    return (slice(None),) * a + (idx,), a


def index_fill(x: Any, index: Any, axis: int, value: Any, name: str | None = None) -> Any:
    """x with the slices along `axis` listed in `index` filled with the scalar `value`.

    Args:
        x: the input Tensor.
        index: a 1-D integer Tensor or list of positions along `axis` (negative entries count from the end; concrete out-of-range ones raise).
        axis: the axis the positions are on.
        value: a scalar or one-element Tensor.

    Returns:
        A new Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1, 2, 3], [4, 5, 6]])
        >>> padax.index_fill(x, padax.to_tensor([1]), axis=1, value=0).tolist()
        [[1, 0, 3], [4, 0, 6]]
    """
    x = _arg("index_fill", x, "x")
    if is_array(value) and value.aval.size != 1:
        raise op_value_error("index_fill", f"value must be a scalar or a 1-element Tensor, got "
                                           f"{value.aval.str_short()}")
    key, _ = _axis_index("index_fill", x, index, axis)
    v = lax.reshape(asarray(value, None if is_array(value) else x.aval.dtype), ()) if is_array(value) else value
    return x.at[key].set(v)


def index_add(x: Any, index: Any, axis: int, value: Any, alpha: Any = 1, name: str | None = None, *,
              out: Any = None) -> Any:
    """x with alpha * value's slices added to the slices of x along `axis` listed in `index` (repeats add up).

    Args:
        x: the input Tensor.
        index: a 1-D integer Tensor or list of positions along `axis` (negative entries count from the end; concrete out-of-range ones raise).
        axis: the axis the positions are on.
        value: a Tensor shaped like x but with len(index) on `axis`.
        alpha: a scale applied to value first (default 1).
        out: must be None (Tensors are immutable).

    Returns:
        A new Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> x = padax.zeros([2, 3])
        >>> padax.index_add(x, padax.to_tensor([0, 0]), axis=1, value=padax.ones([2, 2])).tolist()
        [[2.0, 0.0, 0.0], [2.0, 0.0, 0.0]]
    """
    if out is not None:
        return write_out(out, index_add(x=x, index=index, axis=axis, value=value, alpha=alpha, name=name), "index_add")
    if alpha != 1:
        value = _math.multiply(value, alpha)
    x = _arg("index_add", x, "x")
    key, a = _axis_index("index_add", x, index, axis)
    v = asarray(value)
    want = x.aval.shape[:a] + (key[-1].aval.shape[0],) + x.aval.shape[a + 1:]
    if v.aval.shape != want:
        raise op_value_error("index_add", f"value {v.aval.str_short()} must have shape {list(want)}")
    return x.at[key].add(v)


def masked_fill(x: Any, mask: Any, value: Any, name: str | None = None) -> Any:
    """x with `value` (a scalar or broadcastable Tensor) where mask is true; x and mask broadcast.

    Args:
        x: the input Tensor.
        mask: a bool Tensor broadcastable with x.
        value: a scalar or Tensor (cast to x's dtype), broadcast with x and mask.

    Returns:
        A Tensor of x's dtype with the broadcast shape of x, mask and value.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1, 2, 3], [4, 5, 6]])
        >>> padax.masked_fill(x, x > 3, 0).tolist()
        [[1, 2, 3], [0, 0, 0]]
    """
    x = _arg("masked_fill", x, "x")
    mask = _arg("masked_fill", mask, "mask")
    if mask.aval.dtype != dtypes.bool_:
        raise op_type_error("masked_fill", f"mask must be a bool Tensor, got {mask.aval.str_short()}")
    v = lax.convert_element_type(asarray(value), x.aval.dtype) if is_array(value) else asarray(value, x.aval.dtype)
    return _math.where(mask, v, x)


def masked_scatter(x: Any, mask: Any, value: Any, name: str | None = None) -> Any:
    """x with the elements where mask is true replaced, in row-major order, by the first elements of
    `value` (flattened); mask broadcasts to x.

    Args:
        x: the input Tensor.
        mask: a bool Tensor that broadcasts to x's shape.
        value: a Tensor with at least as many elements as mask selects (cast to x's dtype).

    Returns:
        A new Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1, 2, 3], [4, 5, 6]])
        >>> padax.masked_scatter(x, x > 4, padax.to_tensor([10, 20, 30])).tolist()
        [[1, 2, 3], [4, 10, 20]]
    """
    op = "masked_scatter"
    x = _arg("masked_scatter", x, "x")
    mask = _arg("masked_scatter", mask, "mask")
    if mask.aval.dtype != dtypes.bool_:
        raise op_type_error(op, f"mask must be a bool Tensor, got {mask.aval.str_short()}")
    shape = broadcast_shapes(op, x.aval.shape, mask.aval.shape)
    if shape != x.aval.shape:
        raise op_value_error(op, f"mask {mask.aval.str_short()} must broadcast to x {x.aval.str_short()}")
    m = broadcast_to(mask, shape)
    v = lax.convert_element_type(asarray(value), x.aval.dtype)
    nv = v.aval.size
    if isinstance(m, Tensor) and int(np.asarray(m).sum()) > nv:
        raise op_value_error(op, f"mask selects {int(np.asarray(m).sum())} elements but value has only {nv}")
    size = x.aval.size
    if size == 0 or nv == 0:
        return x
    flat_m = lax.reshape(m, (size,))
    pos = lax.sub(lax.cumsum(lax.convert_element_type(flat_m, dtypes.int32), 0), full((size,), 1, dtypes.int32))
    taken = take_axis(lax.reshape(v, (nv,)), pos, 0, mode="clip")
    return lax.reshape(lax.select(flat_m, taken, lax.reshape(x, (size,))), shape)


def multiplex(inputs: Any, index: Any, name: str | None = None) -> Any:
    """Row i of the result is row i of inputs[index[i]] (inputs: equal-shaped Tensors, index: [n, 1] or [n]).

    Args:
        inputs: a non-empty list of Tensors of the same shape [n, ...].
        index: an integer Tensor of shape [n, 1] or [n] choosing an input for each row.

    Returns:
        A Tensor of shape [n, ...] and the inputs' (promoted) dtype.

    Examples:
        >>> import padax
        >>> a, b = padax.to_tensor([[1, 1], [2, 2]]), padax.to_tensor([[8, 8], [9, 9]])
        >>> padax.multiplex([a, b], padax.to_tensor([[1], [0]], dtype='int32')).tolist()
        [[8, 8], [2, 2]]
    """
    if not isinstance(inputs, (list, tuple)) or not inputs:
        raise op_type_error("multiplex", f"inputs must be a non-empty list of Tensors, got {type(inputs).__name__}")
    st = _manipulation.stack(list(inputs), 0)  # [k, n, ...]
    k, n = st.aval.shape[0], st.aval.shape[1] if st.aval.ndim > 1 else 0
    idx = asarray(index)
    if idx.aval.shape not in ((n,), (n, 1)):
        raise op_value_error("multiplex", f"index {idx.aval.str_short()} must have shape [{n}, 1] (one input per row)")
    idx = _index("multiplex", lax.reshape(idx, (n,)), k, 0)
    rows = lax.transpose(st, (1, 0) + tuple(range(2, st.aval.ndim)))  # [n, k, ...]
    sel = lax.reshape(idx, (n, 1) + (1,) * (st.aval.ndim - 2))
    sel = broadcast_to(sel, (n, 1) + st.aval.shape[2:])
    return lax.reshape(take_along(rows, sel, 1), (n,) + st.aval.shape[2:])


def select_scatter(x: Any, values: Any, axis: int, index: int, name: str | None = None) -> Any:
    """x with the slice at `index` along `axis` replaced by values (shaped like that slice).

    Args:
        x: the input Tensor.
        values: a Tensor shaped like x without `axis`.
        axis: the axis of the slice.
        index: the slice's position on `axis` (negative counts from the end).

    Returns:
        A new Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> x = padax.zeros([2, 3])
        >>> padax.select_scatter(x, padax.to_tensor([1.0, 2.0]), axis=1, index=0).tolist()
        [[1.0, 0.0, 0.0], [2.0, 0.0, 0.0]]
    """
    x = _arg("select_scatter", x, "x")
    a = _axis_arg("select_scatter", axis, x.aval.ndim)
    n = x.aval.shape[a]
    i = static_int("select_scatter", index, "index")
    if not -n <= i < n:
        raise IndexError(f"select_scatter: index {i} is out of bounds for axis {a} with size {n}")
    want = x.aval.shape[:a] + x.aval.shape[a + 1:]
    v = asarray(values)
    if v.aval.shape != want:
        raise op_value_error("select_scatter", f"values {v.aval.str_short()} must have shape {list(want)}")
    return x.at[(slice(None),) * a + (i % n,)].set(v)


def slice_scatter(x: Any, value: Any, axes: Any, starts: Any, ends: Any, strides: Any, name: str | None = None) -> Any:
    """x with x[starts:ends:strides] on the listed axes replaced by value (shaped like that slice).

    Args:
        x: the input Tensor.
        value: a Tensor (or scalar) broadcastable to the slice's shape.
        axes: the axes sliced.
        starts, ends, strides: one start, (exclusive) end and stride per listed axis (Python slice rules).

    Returns:
        A new Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> x = padax.zeros([2, 4])
        >>> padax.slice_scatter(x, padax.ones([2, 2]), axes=[1], starts=[0], ends=[4], strides=[2]).tolist()
        [[1.0, 0.0, 1.0, 0.0], [1.0, 0.0, 1.0, 0.0]]
    """
    x = _arg("slice_scatter", x, "x")
    nd = x.aval.ndim
    ax = _manipulation._axes_list("slice_scatter", axes, nd)
    st, en, sd = (_manipulation._int_list("slice_scatter", v, w)
                  for v, w in ((starts, "starts"), (ends, "ends"), (strides, "strides")))
    if not len(ax) == len(st) == len(en) == len(sd):
        raise op_value_error("slice_scatter", "axes, starts, ends and strides must have the same length")
    key = [slice(None)] * nd
    for a, s0, e0, d in zip(ax, st, en, sd):
        key[a] = slice(s0, e0, d)
    return x.at[tuple(key)].set(value)


def diagonal_scatter(x: Any, y: Any, offset: int = 0, axis1: int = 0, axis2: int = 1, name: str | None = None) -> Any:
    """x with its diagonal over axis1/axis2 (as `diagonal` lays it out) replaced by y.

    Args:
        x: the input Tensor (at least 2-D).
        y: a Tensor with the shape of diagonal(x, offset, axis1, axis2).
        offset: which diagonal: 0 the main one, > 0 above it, < 0 below it.
        axis1, axis2: the two axes the diagonal runs over.

    Returns:
        A new Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> padax.diagonal_scatter(padax.zeros([2, 2]), padax.to_tensor([1.0, 2.0])).tolist()
        [[1.0, 0.0], [0.0, 2.0]]
    """
    x = _arg("diagonal_scatter", x, "x")
    nd = x.aval.ndim
    a1, a2 = _axis_arg("diagonal_scatter", axis1, nd), _axis_arg("diagonal_scatter", axis2, nd)
    want = _manipulation.diagonal(x, offset, a1, a2).aval.shape
    y = _arg("diagonal_scatter", y, "y")
    if y.aval.shape != want:
        raise op_value_error("diagonal_scatter", f"y {y.aval.str_short()} must have the diagonal's shape {list(want)}")
    k = want[-1]
    offset = static_int("diagonal_scatter", offset, "offset")
    rows = np.arange(k, dtype=np.int32) + builtins.max(-offset, 0)
    cols = np.arange(k, dtype=np.int32) + builtins.max(offset, 0)
    key = [slice(None)] * nd
    key[a1], key[a2] = rows, cols
    lo, hi = sorted((a1, a2))
    if hi - lo == 1 and lo > 0:  # adjacent advanced indices: the diagonal axis stays at position lo
        perm = tuple(range(lo)) + (len(want) - 1,) + tuple(range(lo, len(want) - 1))
        y = lax.transpose(y, perm)
    elif not (hi - lo == 1 and lo == 0):  # separated: the diagonal axis goes first
        y = lax.transpose(y, (len(want) - 1,) + tuple(range(len(want) - 1)))
    return x.at[tuple(key)].set(y)


# ---- Paddle's torch-style names -----------------------------------------------------------

_SCATTER_REDUCE = {"sum": "add", "prod": "multiply", "mean": "mean", "amin": "amin", "amax": "amax"}


def scatter_add(input: Any, dim: int, index: Any, src: Any) -> Any:  # noqa: A002  (Paddle's names)
    """input with src[..., i, ...] added at input[..., index[..., i, ...], ...] along `dim` (index has
    src's shape; repeated indices add up).

    Args:
        input: the input Tensor.
        dim: the axis to scatter along.
        index: an integer Tensor of input's rank, not larger than input outside `dim`.
        src: values broadcastable to index's shape (cast to input's dtype).

    Returns:
        A new Tensor of input's shape and dtype.

    Examples:
        >>> import padax
        >>> x = padax.zeros([2, 3])
        >>> padax.scatter_add(x, 1, padax.to_tensor([[0, 0, 2], [1, 1, 1]]), padax.ones([2, 3])).tolist()
        [[2.0, 0.0, 1.0], [0.0, 3.0, 0.0]]
    """
    return put_along_axis(input, index, src, dim, "add", True, broadcast=False)


def scatter_reduce(input: Any, dim: int, index: Any, src: Any, reduce: str, *,  # noqa: A002
                   include_self: bool = True) -> Any:
    """input with src reduced into the positions `index` names along `dim`: reduce is 'sum', 'prod',
    'mean', 'amin' or 'amax'; include_self=False leaves input's own values out at written positions.

    Args:
        input: the input Tensor.
        dim: the axis to scatter along.
        index: an integer Tensor of input's rank, not larger than input outside `dim`.
        src: values broadcastable to index's shape (cast to input's dtype).
        reduce: 'sum', 'prod', 'mean', 'amin' or 'amax'.
        include_self: whether input's own values take part at written positions.

    Returns:
        A new Tensor of input's shape and dtype.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([1.0, 5.0])
        >>> padax.scatter_reduce(x, 0, padax.to_tensor([0, 0, 1]), padax.to_tensor([3.0, 2.0, 4.0]), reduce='amax').tolist()
        [3.0, 5.0]
    """
    if reduce not in _SCATTER_REDUCE:
        raise op_value_error("scatter_reduce", f"reduce must be one of {', '.join(map(repr, _SCATTER_REDUCE))}, "
                                               f"got {reduce!r}")
    return put_along_axis(input, index, src, dim, _SCATTER_REDUCE[reduce], include_self, broadcast=False)


def take_along_dim(arr: Any, indices: Any, axis: int, broadcast: bool = True, *, out: Any = None) -> Any:
    """take_along_axis(arr, indices, axis, broadcast).

    Args:
        arr: the input Tensor (at least 1-D).
        indices: an integer Tensor of positions along `axis`.
        axis: the axis to index along.
        broadcast: whether arr and indices broadcast outside `axis` (default True).
        out: must be None (Tensors are immutable).

    Returns:
        A Tensor of arr's dtype with indices' (broadcast) shape.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1, 2, 3], [4, 5, 6]])
        >>> padax.take_along_dim(x, padax.to_tensor([[1], [2]]), axis=1).tolist()
        [[2], [6]]
    """
    return take_along_axis(arr, indices, axis, broadcast, out=out)


__all__ = ["diagonal_scatter", "multiplex", "select_scatter", "slice_scatter", "gather", "index_select", "take",
           "gather_nd", "take_along_axis", "index_sample", "put_along_axis", "scatter", "scatter_nd_add",
           "scatter_nd", "index_put", "index_fill", "index_add", "masked_fill", "masked_scatter", "scatter_add",
           "scatter_reduce", "take_along_dim"]
