"""Shape and dtype primitives: convert, broadcast, reshape, transpose, select, iota,
squeeze, (dynamic) slices, concatenate, pad, rev, clamp and bitcasts."""
from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from padax.core import dtypes
from padax.core.abstract import ShapedArray, get_aval
from padax.core.ad_util import Zero, deflinear, instantiate, is_undefined, tangent_aval, zeros_like_aval
from padax.core.errors import op_type_error, op_value_error
from padax.core.primitive import Primitive
from padax.functional._arrays import asarray, constant, full, is_array, static_int, static_ints
from padax.interpreters import hooks

# convert_element_type(x, new_dtype, weak_type)
convert_element_type_p = Primitive("convert_element_type")


@convert_element_type_p.def_abstract_eval
def _convert_abstract(x, *, new_dtype, weak_type):
    return ShapedArray(x.shape, new_dtype, weak_type)


# broadcast_in_dim(x, shape, broadcast_dimensions): operand dim i -> output dim bdims[i]
broadcast_in_dim_p = Primitive("broadcast_in_dim")


@broadcast_in_dim_p.def_abstract_eval
def _bid_abstract(x, *, shape, broadcast_dimensions):
    if len(broadcast_dimensions) != x.ndim:
        raise op_value_error("broadcast_in_dim", f"broadcast_dimensions {broadcast_dimensions} must "
                                                 f"have one entry per operand dim of {x.str_short()}")
    for i, d in enumerate(broadcast_dimensions):
        if not (0 <= d < len(shape)) or x.shape[i] not in (1, shape[d]):
            raise op_value_error("broadcast_in_dim", f"cannot broadcast {x.str_short()} to shape "
                                                     f"{tuple(shape)} with broadcast_dimensions {broadcast_dimensions}")
    if list(broadcast_dimensions) != sorted(broadcast_dimensions):
        raise op_value_error("broadcast_in_dim", f"broadcast_dimensions {broadcast_dimensions} must be increasing")
    return ShapedArray(tuple(shape), x.dtype, x.weak_type)


# reshape(x, new_sizes)
reshape_p = Primitive("reshape")


@reshape_p.def_abstract_eval
def _reshape_abstract(x, *, new_sizes):
    if math.prod(new_sizes) != x.size or any(d < 0 for d in new_sizes):
        raise op_value_error("reshape", f"cannot reshape {x.str_short()} ({x.size} elements) to shape "
                                        f"{tuple(new_sizes)}")
    return ShapedArray(tuple(new_sizes), x.dtype, x.weak_type)


# transpose(x, permutation)
transpose_p = Primitive("transpose")


@transpose_p.def_abstract_eval
def _transpose_abstract(x, *, permutation):
    if sorted(permutation) != list(range(x.ndim)):
        raise op_value_error("transpose", f"permutation {tuple(permutation)} is not a permutation of "
                                          f"the {x.ndim} axes of {x.str_short()}")
    return ShapedArray(tuple(x.shape[p] for p in permutation), x.dtype, x.weak_type)


# select_n(which, *cases): which is bool (2 cases) or int32; picks cases[which] elementwise
select_n_p = Primitive("select_n")


@select_n_p.def_abstract_eval
def _select_n_abstract(which, *cases):
    if not cases:
        raise op_value_error("select_n", "needs at least one case")
    c0 = cases[0]
    for c in cases[1:]:
        if c.shape != c0.shape or c.dtype != c0.dtype:
            raise op_type_error("select_n", f"cases must have equal shapes and dtypes, got "
                                            f"{', '.join(c.str_short() for c in cases)}")
    if which.shape not in ((), c0.shape):
        raise op_type_error("select_n", f"predicate {which.str_short()} must be a scalar or match "
                                        f"the cases' shape {c0.str_short()}")
    if which.dtype != dtypes.bool_ and which.dtype != dtypes.int32:
        raise op_type_error("select_n", f"predicate must be bool or int32, got {which.str_short()}")
    if which.dtype == dtypes.bool_ and len(cases) > 2:
        raise op_type_error("select_n", "a bool predicate selects between at most two cases")
    return ShapedArray(c0.shape, c0.dtype, all(c.weak_type for c in cases))


# iota(dtype, shape, dimension): counts along `dimension`
iota_p = Primitive("iota")


@iota_p.def_abstract_eval
def _iota_abstract(*, dtype, shape, dimension):
    if not 0 <= dimension < len(shape):
        raise op_value_error("iota", f"dimension {dimension} out of range for shape {shape}")
    if dtype == dtypes.bool_ or dtype == np.dtype(object):
        raise op_type_error("iota", f"cannot count in dtype {dtype}: use an integer or floating dtype")
    return ShapedArray(tuple(shape), dtype, False)


def _check_dims(op: str, x: ShapedArray, dimensions, what: str = "dimensions") -> None:
    """Each entry of `dimensions` is a distinct axis of `x`."""
    if any(not 0 <= d < x.ndim for d in dimensions) or len(set(dimensions)) != len(dimensions):
        raise op_value_error(op, f"{what} {tuple(dimensions)} must be distinct axes in "
                                 f"[0, {x.ndim}) of {x.str_short()}")


# squeeze(x, dimensions): drop the listed size-1 axes
squeeze_p = Primitive("squeeze")


@squeeze_p.def_abstract_eval
def _squeeze_abstract(x, *, dimensions):
    _check_dims("squeeze", x, dimensions)
    if any(x.shape[d] != 1 for d in dimensions):
        raise op_value_error("squeeze", f"cannot squeeze axes {tuple(dimensions)} of {x.str_short()}: "
                                        "only size-1 axes can be removed")
    return ShapedArray(tuple(s for i, s in enumerate(x.shape) if i not in dimensions), x.dtype, x.weak_type)


def _slice_out_dim(start: int, limit: int, stride: int) -> int:
    return max(0, -(-(limit - start) // stride))


# slice(x, start_indices, limit_indices, strides): static strided window (strides None = all 1)
slice_p = Primitive("slice")


@slice_p.def_abstract_eval
def _slice_abstract(x, *, start_indices, limit_indices, strides):
    n = x.ndim
    if len(start_indices) != n or len(limit_indices) != n or (strides is not None and len(strides) != n):
        raise op_value_error("slice", f"start_indices {tuple(start_indices)}, limit_indices "
                                      f"{tuple(limit_indices)} and strides {strides} need one entry per "
                                      f"axis of {x.str_short()}")
    strides = (1,) * n if strides is None else strides
    for s, l, d in zip(start_indices, limit_indices, x.shape):
        if not 0 <= s <= l <= d:
            raise op_value_error("slice", f"start_indices {tuple(start_indices)} and limit_indices "
                                          f"{tuple(limit_indices)} are out of bounds for {x.str_short()}: "
                                          "need 0 <= start <= limit <= size on every axis")
    if any(st < 1 for st in strides):
        raise op_value_error("slice", f"strides {tuple(strides)} must be positive (operand {x.str_short()})")
    shape = tuple(_slice_out_dim(s, l, st) for s, l, st in zip(start_indices, limit_indices, strides))
    return ShapedArray(shape, x.dtype, x.weak_type)


def _check_start_indices(op: str, x: ShapedArray, starts) -> None:
    if len(starts) != x.ndim:
        raise op_value_error(op, f"needs one start index per axis of {x.str_short()}, got {len(starts)}")
    for s in starts:
        if s.shape != () or not dtypes.is_integer(s.dtype):
            raise op_type_error(op, f"start indices must be integer scalars, got "
                                    f"{', '.join(a.str_short() for a in starts)} for {x.str_short()}")


# dynamic_slice(x, *start_indices, slice_sizes): starts are clamped to [0, size - slice_size]
dynamic_slice_p = Primitive("dynamic_slice")


@dynamic_slice_p.def_abstract_eval
def _dynamic_slice_abstract(x, *starts, slice_sizes):
    _check_start_indices("dynamic_slice", x, starts)
    if len(slice_sizes) != x.ndim or any(not 0 <= s <= d for s, d in zip(slice_sizes, x.shape)):
        raise op_value_error("dynamic_slice", f"slice_sizes {tuple(slice_sizes)} must have one entry per "
                                              f"axis of {x.str_short()}, each in [0, size]")
    return ShapedArray(tuple(slice_sizes), x.dtype, x.weak_type)


# dynamic_update_slice(x, update, *start_indices): starts clamped so the update fits
dynamic_update_slice_p = Primitive("dynamic_update_slice")


@dynamic_update_slice_p.def_abstract_eval
def _dynamic_update_slice_abstract(x, update, *starts):
    if update.dtype != x.dtype or update.ndim != x.ndim or any(
            u > d for u, d in zip(update.shape, x.shape)):
        raise op_type_error("dynamic_update_slice", f"update {update.str_short()} must have the dtype and "
                                                    f"rank of the operand {x.str_short()} and fit inside it")
    _check_start_indices("dynamic_update_slice", x, starts)
    return ShapedArray(x.shape, x.dtype, x.weak_type)


# concatenate(*operands, dimension)
concatenate_p = Primitive("concatenate")


@concatenate_p.def_abstract_eval
def _concatenate_abstract(*operands, dimension):
    if not operands:
        raise op_value_error("concatenate", "needs at least one operand")
    x0 = operands[0]
    shapes = ", ".join(a.str_short() for a in operands)
    if any(a.dtype != x0.dtype for a in operands):
        raise op_type_error("concatenate", f"operands must have the same dtype, got {shapes}")
    if not 0 <= dimension < x0.ndim:
        raise op_value_error("concatenate", f"dimension {dimension} is out of range for operands {shapes}")
    for a in operands[1:]:
        if a.ndim != x0.ndim or any(s != t for i, (s, t) in enumerate(zip(a.shape, x0.shape)) if i != dimension):
            raise op_type_error("concatenate", f"operands must have equal shapes except along dimension "
                                               f"{dimension}, got {shapes}")
    shape = list(x0.shape)
    shape[dimension] = sum(a.shape[dimension] for a in operands)
    return ShapedArray(tuple(shape), x0.dtype, all(a.weak_type for a in operands))


# pad(x, padding_value, padding_config): (low, high, interior) per axis; low/high may be negative
pad_p = Primitive("pad")


@pad_p.def_abstract_eval
def _pad_abstract(x, padding_value, *, padding_config):
    if padding_value.shape != () or padding_value.dtype != x.dtype:
        raise op_type_error("pad", f"padding_value must be a scalar of the operand's dtype, got "
                                   f"{padding_value.str_short()} for operand {x.str_short()}")
    if len(padding_config) != x.ndim or any(len(c) != 3 for c in padding_config):
        raise op_value_error("pad", f"padding_config {tuple(padding_config)} needs one (low, high, interior) "
                                    f"triple per axis of {x.str_short()}")
    if any(c[2] < 0 for c in padding_config):
        raise op_value_error("pad", f"interior padding must be >= 0, got padding_config {tuple(padding_config)}")
    shape = tuple(lo + hi + d + max(d - 1, 0) * it for d, (lo, hi, it) in zip(x.shape, padding_config))
    if any(d < 0 for d in shape):
        raise op_value_error("pad", f"padding_config {tuple(padding_config)} on {x.str_short()} gives the "
                                    f"negative shape {shape}")
    return ShapedArray(shape, x.dtype, x.weak_type)


# rev(x, dimensions): reverse the order of elements along the listed axes
rev_p = Primitive("rev")


@rev_p.def_abstract_eval
def _rev_abstract(x, *, dimensions):
    _check_dims("rev", x, dimensions)
    return x


# clamp(min, x, max) = min(max(x, min), max); min/max are scalars or shaped like x
clamp_p = Primitive("clamp")


@clamp_p.def_abstract_eval
def _clamp_abstract(lo, x, hi):
    for b in (lo, hi):
        if b.dtype != x.dtype or b.shape not in ((), x.shape):
            raise op_type_error("clamp", f"min and max must be scalars or match the operand, with its dtype; "
                                         f"got min {lo.str_short()}, operand {x.str_short()}, max {hi.str_short()}")
    if dtypes.is_complex(x.dtype):
        raise op_type_error("clamp", f"complex values are not ordered, got {x.str_short()}")
    return ShapedArray(x.shape, x.dtype, x.weak_type and lo.weak_type and hi.weak_type)


# bitcast_convert_type(x, new_dtype): reinterpret bits; a width change adds/removes a last axis
bitcast_convert_type_p = Primitive("bitcast_convert_type")


@bitcast_convert_type_p.def_abstract_eval
def _bitcast_abstract(x, *, new_dtype):
    if x.dtype == new_dtype:
        return x.strip_weak_type()
    for d in (x.dtype, new_dtype):
        if d == dtypes.bool_ or dtypes.is_complex(d):
            raise op_type_error("bitcast_convert_type", f"cannot bitcast {x.str_short()} to {new_dtype.name}: "
                                                        "bool and complex are only allowed unchanged")
    src, dst = x.dtype.itemsize, new_dtype.itemsize
    if src == dst:
        shape = x.shape
    elif src > dst:
        shape = x.shape + (src // dst,)
    else:
        if not x.shape or x.shape[-1] != dst // src:
            raise op_value_error("bitcast_convert_type", f"bitcasting {x.str_short()} to the wider "
                                                         f"{new_dtype.name} needs a last axis of size {dst // src}")
        shape = x.shape[:-1]
    return ShapedArray(shape, new_dtype, False)


# ---- lax-level wrappers -------------------------------------------------------------

def convert_element_type(x, new_dtype, weak_type: bool = False):
    """Cast to `new_dtype` (canonicalised for the x64 setting).

    Args:
        x: an array or Python scalar.
        new_dtype: the target dtype.
        weak_type: whether the result is weakly typed (padax's analogue of a Python scalar).

    Returns:
        An array of x's shape and the target dtype (x itself if nothing changes).

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> lax.convert_element_type(padax.to_tensor([1.7, -1.7]), padax.int32).tolist()
        [1, -1]
    """
    x = asarray(x)
    new_dtype = dtypes.canonicalize(new_dtype)
    if x.aval.dtype == new_dtype and x.aval.weak_type == weak_type:
        return x
    return convert_element_type_p.bind(x, new_dtype=new_dtype, weak_type=bool(weak_type))


def broadcast_in_dim(x, shape, broadcast_dimensions):
    """x broadcast to `shape`: x's dimension i becomes output dimension broadcast_dimensions[i] (XLA BroadcastInDim).

    Args:
        x: an array.
        shape: the output shape.
        broadcast_dimensions: for each axis of x, its output axis (x's size must be 1 or that output size).

    Returns:
        An array of `shape` and x's dtype.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> lax.broadcast_in_dim(padax.to_tensor([1, 2]), (3, 2), (1,)).tolist()
        [[1, 2], [1, 2], [1, 2]]
    """
    shape = static_ints("broadcast_in_dim", shape, "shape")
    bdims = static_ints("broadcast_in_dim", broadcast_dimensions, "broadcast_dimensions")
    if get_aval(x).shape == shape and bdims == tuple(range(len(shape))):
        return x
    if list(bdims) != sorted(bdims) and len(set(bdims)) == len(bdims):
        # out-of-order target dimensions (as jax accepts): transpose the operand to their order first
        order = tuple(sorted(range(len(bdims)), key=bdims.__getitem__))
        x, bdims = transpose(asarray(x), order), tuple(sorted(bdims))
    return broadcast_in_dim_p.bind(x, shape=shape, broadcast_dimensions=bdims)


def broadcast(x, sizes):
    """Add leading dimensions of the given sizes.

    Args:
        x: an array.
        sizes: the sizes of the new leading axes.

    Returns:
        An array of shape sizes + x.shape and x's dtype.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> lax.broadcast(padax.to_tensor([1, 2]), (2,)).tolist()
        [[1, 2], [1, 2]]
    """
    x = asarray(x)
    sizes = static_ints("broadcast", sizes, "sizes")
    return broadcast_in_dim(x, sizes + x.aval.shape, tuple(range(len(sizes), len(sizes) + x.aval.ndim)))


def reshape(x, new_sizes, dimensions=None):
    """Reshape (row-major); with `dimensions`, transpose first as jax.lax.reshape does.

    Args:
        x: an array.
        new_sizes: the output shape (static ints, same number of elements; no -1).
        dimensions: an optional permutation applied to x before reshaping.

    Returns:
        An array of `new_sizes` and x's dtype.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> x = padax.to_tensor([[1, 2, 3], [4, 5, 6]])
        >>> lax.reshape(x, (3, 2)).tolist()
        [[1, 2], [3, 4], [5, 6]]
        >>> lax.reshape(x, (3, 2), dimensions=(1, 0)).tolist()
        [[1, 4], [2, 5], [3, 6]]
    """
    new_sizes = static_ints("reshape", new_sizes, "new_sizes")
    x = asarray(x)
    if dimensions is not None and tuple(dimensions) != tuple(range(x.aval.ndim)):
        x = transpose(x, dimensions)
    if x.aval.shape == new_sizes:
        return x
    return reshape_p.bind(x, new_sizes=new_sizes)


def transpose(x, permutation):
    """Permute the dimensions of x: output dimension i is x's dimension permutation[i].

    Args:
        x: an array.
        permutation: a permutation of range(x.ndim).

    Returns:
        An array of x's dtype with shape [x.shape[p] for p in permutation].

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> x = padax.to_tensor([[1, 2, 3], [4, 5, 6]])
        >>> lax.transpose(x, (1, 0)).tolist()
        [[1, 4], [2, 5], [3, 6]]
    """
    permutation = tuple(int(p) for p in permutation)
    x = asarray(x)
    if permutation == tuple(range(x.aval.ndim)):
        return x
    return transpose_p.bind(x, permutation=permutation)


def select_n(which, *cases):
    """Elementwise choice among `cases` by `which`: a bool picks cases[0] (False) or cases[1] (True), an int picks cases[which].

    Args:
        which: a bool (two cases at most) or int32 array of the cases' shape, or a scalar; int values must
            lie in range(len(cases)).
        *cases: at least one array, all of one shape and dtype.

    Returns:
        An array of the cases' shape and dtype.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> which = padax.to_tensor([0, 1, 2], dtype='int32')
        >>> lax.select_n(which, padax.zeros([3]), padax.ones([3]), padax.full([3], 2.0)).tolist()
        [0.0, 1.0, 2.0]
    """
    return select_n_p.bind(asarray(which), *(asarray(c) for c in cases))


def select(pred, on_true, on_false):
    """`on_true` where pred else `on_false` (jax.lax.select).

    Args:
        pred: a bool array of the operands' shape (or a scalar).
        on_true, on_false: arrays of one shape and dtype.

    Returns:
        An array of the operands' shape and dtype.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> pred = padax.to_tensor([True, False])
        >>> lax.select(pred, padax.to_tensor([1.0, 2.0]), padax.to_tensor([-1.0, -2.0])).tolist()
        [1.0, -2.0]
    """
    return select_n(pred, on_false, on_true)


def iota(dtype, size: int):
    """The 1-D array 0, 1, ..., size - 1 of `dtype`.

    Args:
        dtype: the result dtype.
        size: the length.

    Returns:
        A 1-D array of `dtype`.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> lax.iota(padax.int32, 4).tolist()
        [0, 1, 2, 3]
    """
    return iota_p.bind(dtype=dtypes.canonicalize(dtype), shape=(static_int("iota", size, "size"),), dimension=0)


def broadcasted_iota(dtype, shape, dimension: int):
    """An array of `shape` whose entries count 0, 1, ... along `dimension` (repeated over the other axes).

    Args:
        dtype: the result dtype.
        shape: the result shape.
        dimension: the axis along which the values count up.

    Returns:
        An array of `shape` and `dtype`.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> lax.broadcasted_iota(padax.int32, (2, 3), 1).tolist()
        [[0, 1, 2], [0, 1, 2]]
    """
    return iota_p.bind(dtype=dtypes.canonicalize(dtype), shape=static_ints("broadcasted_iota", shape, "shape"),
                       dimension=static_int("broadcasted_iota", dimension, "dimension"))


def _axes(op: str, dimensions, ndim: int, aval: ShapedArray) -> tuple[int, ...]:
    """Normalise an int or sequence of (possibly negative) axes of a rank-`ndim` array;
    order and duplicates are kept (callers check repeats)."""
    dims = (dimensions,) if isinstance(dimensions, (int, np.integer)) else tuple(dimensions)
    out = []
    for d in dims:
        d = static_int(op, d, "axis")
        if not -ndim <= d < ndim:
            raise op_value_error(op, f"axis {d} is out of range for rank {ndim} (operand {aval.str_short()})")
        out.append(d % ndim)
    return tuple(out)


def squeeze(x, dimensions: int | Sequence[int]):
    """Remove the given size-1 axes (negative axes count from the end).

    Args:
        x: an array.
        dimensions: an int or a sequence of distinct axes, each of size 1.

    Returns:
        An array of x's dtype without those axes.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> lax.squeeze(padax.zeros([1, 3, 1]), (0, 2)).shape
        (3,)
    """
    x = asarray(x)
    dims = _axes("squeeze", dimensions, x.aval.ndim, x.aval)
    if len(set(dims)) != len(dims):
        raise op_value_error("squeeze", f"repeated axis in {dimensions} for {x.aval.str_short()}")
    if not dims:
        return x
    return squeeze_p.bind(x, dimensions=tuple(sorted(dims)))


def expand_dims(x, dimensions: int | Sequence[int]):
    """Insert size-1 axes at the given positions of the result (negative positions count from its end).

    Args:
        x: an array.
        dimensions: an int or a sequence of distinct positions in the result.

    Returns:
        An array of x's dtype with x.ndim + len(dimensions) axes.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> lax.expand_dims(padax.zeros([3]), (0, 2)).shape
        (1, 3, 1)
    """
    x = asarray(x)
    dimensions = (dimensions,) if isinstance(dimensions, (int, np.integer)) else tuple(dimensions)
    out_ndim = x.aval.ndim + len(dimensions)
    dims = _axes("expand_dims", dimensions, out_ndim, x.aval)
    if len(set(dims)) != len(dims):
        raise op_value_error("expand_dims", f"repeated axis in {tuple(dimensions)} for {x.aval.str_short()}")
    it = iter(x.aval.shape)
    return reshape(x, tuple(1 if i in dims else next(it) for i in range(out_ndim)))


def slice(x, start_indices: Sequence[int], limit_indices: Sequence[int],
          strides: Sequence[int] | None = None):
    """Static slice x[start:limit:stride] on every axis; bounds must satisfy 0 <= start <= limit <= size.

    Args:
        x: an array.
        start_indices, limit_indices: one static start and (exclusive) limit per axis.
        strides: one positive static stride per axis; None means all 1.

    Returns:
        An array of x's dtype with ceil((limit - start) / stride) elements per axis.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> x = padax.to_tensor([[1, 2, 3], [4, 5, 6]])
        >>> lax.slice(x, (0, 1), (2, 3)).tolist()
        [[2, 3], [5, 6]]
        >>> lax.slice(x, (0, 0), (2, 3), (1, 2)).tolist()
        [[1, 3], [4, 6]]
    """
    x = asarray(x)
    start = static_ints("slice", start_indices, "start_indices")
    limit = static_ints("slice", limit_indices, "limit_indices")
    strides = None if strides is None else static_ints("slice", strides, "strides")
    strides = None if strides is None or all(s == 1 for s in strides) else strides
    if strides is None and start == (0,) * len(start) and limit == x.aval.shape:
        return x
    return slice_p.bind(x, start_indices=start, limit_indices=limit, strides=strides)


def slice_in_dim(x, start_index: int | None, limit_index: int | None, stride: int = 1, axis: int = 0):
    """Static slice along one axis; None and negative bounds work as in Python slicing (no clipping).

    Args:
        x: an array.
        start_index, limit_index: the bounds on `axis` (None: 0 / the axis size).
        stride: the positive step.
        axis: the axis to slice.

    Returns:
        An array of x's dtype; the other axes are whole.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> x = padax.to_tensor([1, 2, 3, 4, 5])
        >>> lax.slice_in_dim(x, 1, 4).tolist()
        [2, 3, 4]
    """
    x = asarray(x)
    shape = x.aval.shape
    axis = _axes("slice_in_dim", axis, x.aval.ndim, x.aval)[0]
    size = shape[axis]
    start = 0 if start_index is None else int(start_index)
    limit = size if limit_index is None else int(limit_index)
    start, limit = (start + size if start < 0 else start), (limit + size if limit < 0 else limit)
    starts, limits, strides = [0] * len(shape), list(shape), [1] * len(shape)
    starts[axis], limits[axis], strides[axis] = start, limit, int(stride)
    return slice(x, starts, limits, strides)


def index_in_dim(x, index: int, axis: int = 0, keepdims: bool = True):
    """Static x[index] along `axis` (negative index counts from the end).

    Args:
        x: an array.
        index: a static position on `axis`.
        axis: the axis to index.
        keepdims: keep `axis` with size 1 (default True) or drop it.

    Returns:
        An array of x's dtype.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> x = padax.to_tensor([[1, 2, 3], [4, 5, 6]])
        >>> lax.index_in_dim(x, 1, axis=0, keepdims=False).tolist()
        [4, 5, 6]
    """
    x = asarray(x)
    axis = _axes("index_in_dim", axis, x.aval.ndim, x.aval)[0]
    size = x.aval.shape[axis]
    i = static_int("index_in_dim", index, "index")
    if not -size <= i < size:
        raise op_value_error("index_in_dim", f"index {i} is out of bounds for axis {axis} of {x.aval.str_short()}")
    i %= size
    out = slice_in_dim(x, i, i + 1, 1, axis)
    return out if keepdims else squeeze(out, (axis,))


def _start_index(i, size: int, window: int):
    """A start index for dynamic_(update_)slice: negative counts from the end (as in jax.lax).

    Python ints are resolved here (clamped like XLA does); arrays get the wrap in the program.
    """
    if isinstance(i, (int, np.integer)) and not isinstance(i, bool):
        i = int(i)
        i = i + size if i < 0 else i
        return constant(min(max(i, 0), max(size - window, 0)), dtypes.int32)
    i = asarray(i)
    a = i.aval
    if a.shape != () or not dtypes.is_integer(a.dtype) or dtypes.is_unsigned(a.dtype):
        return i  # unsigned needs no wrap; anything else is reported by the primitive's check
    if a.dtype.itemsize < 4:
        i = convert_element_type(i, dtypes.int32)
    from padax.functional.lax import elementwise as E  # cycle: lax.elementwise imports this module at load
    return select(E.lt(i, 0), E.add(i, size), i)


def dynamic_slice(x, start_indices: Sequence, slice_sizes: Sequence[int]):
    """x[start:start+size] per axis with run-time starts (ints or integer scalar arrays).

    Negative starts count from the end; then, as XLA does, each start is clamped into
    [0, size - slice_size], so the window always lies inside `x` (no out-of-bounds error).

    Args:
        x: an array.
        start_indices: one start per axis: a Python int or an integer scalar array.
        slice_sizes: one static size per axis.

    Returns:
        An array of shape slice_sizes and x's dtype.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> x = padax.to_tensor([[1, 2, 3], [4, 5, 6]])
        >>> lax.dynamic_slice(x, (padax.to_tensor(1), padax.to_tensor(1)), (1, 2)).tolist()
        [[5, 6]]
        >>> lax.dynamic_slice(x, (0, 2), (2, 2)).tolist()
        [[2, 3], [5, 6]]
    """
    x = asarray(x)
    sizes = static_ints("dynamic_slice", slice_sizes, "slice_sizes")
    if len(start_indices) != x.aval.ndim or len(sizes) != x.aval.ndim:
        raise op_value_error("dynamic_slice", f"needs one start index and slice size per axis of "
                                              f"{x.aval.str_short()}, got {len(start_indices)} and {len(sizes)}")
    starts = [_start_index(i, d, w) for i, d, w in zip(start_indices, x.aval.shape, sizes)]
    return dynamic_slice_p.bind(x, *starts, slice_sizes=sizes)


def dynamic_update_slice(x, update, start_indices: Sequence):
    """Write `update` into `x` at run-time starts; starts are wrapped and clamped as in `dynamic_slice`.

    Args:
        x: the array written into.
        update: an array of x's rank and dtype, no larger than x on any axis.
        start_indices: one start per axis: a Python int or an integer scalar array.

    Returns:
        A new array of x's shape and dtype.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> lax.dynamic_update_slice(padax.zeros([4]), padax.ones([2]), (1,)).tolist()
        [0.0, 1.0, 1.0, 0.0]
    """
    x, update = asarray(x), asarray(update)
    if len(start_indices) != x.aval.ndim:
        raise op_value_error("dynamic_update_slice", f"needs one start index per axis of {x.aval.str_short()}, "
                                                     f"got {len(start_indices)}")
    u = update.aval.shape
    starts = [_start_index(i, d, u[k] if k < len(u) else 0)
              for k, (i, d) in enumerate(zip(start_indices, x.aval.shape))]
    return dynamic_update_slice_p.bind(x, update, *starts)


def dynamic_slice_in_dim(x, start_index, slice_size: int, axis: int = 0):
    """`dynamic_slice` along one axis, taking the other axes whole.

    Args:
        x: an array.
        start_index: the start on `axis` (a Python int or an integer scalar array).
        slice_size: the static length of the slice.
        axis: the axis to slice.

    Returns:
        An array of x's dtype with size slice_size on `axis`.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> x = padax.to_tensor([1, 2, 3, 4, 5])
        >>> lax.dynamic_slice_in_dim(x, padax.to_tensor(3), 2).tolist()
        [4, 5]
    """
    x = asarray(x)
    axis = _axes("dynamic_slice_in_dim", axis, x.aval.ndim, x.aval)[0]
    starts = [0] * x.aval.ndim
    sizes = list(x.aval.shape)
    starts[axis], sizes[axis] = start_index, int(slice_size)
    return dynamic_slice(x, starts, sizes)


def dynamic_index_in_dim(x, index, axis: int = 0, keepdims: bool = True):
    """x[index] along `axis` with a run-time index (clamped into range).

    Args:
        x: an array.
        index: the position on `axis` (a Python int or an integer scalar array).
        axis: the axis to index.
        keepdims: keep `axis` with size 1 (default True) or drop it.

    Returns:
        An array of x's dtype.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> x = padax.to_tensor([[1, 2, 3], [4, 5, 6]])
        >>> lax.dynamic_index_in_dim(x, padax.to_tensor(1), axis=1, keepdims=False).tolist()
        [2, 5]
    """
    x = asarray(x)
    axis = _axes("dynamic_index_in_dim", axis, x.aval.ndim, x.aval)[0]
    out = dynamic_slice_in_dim(x, index, 1, axis)
    return out if keepdims else squeeze(out, (axis,))


def dynamic_update_slice_in_dim(x, update, start_index, axis: int):
    """`dynamic_update_slice` along one axis (other axes start at 0).

    Args:
        x: the array written into.
        update: an array of x's rank and dtype.
        start_index: the start on `axis` (a Python int or an integer scalar array).
        axis: the axis the start applies to.

    Returns:
        A new array of x's shape and dtype.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> lax.dynamic_update_slice_in_dim(padax.zeros([2, 3]), padax.ones([2, 1]), 2, axis=1).tolist()
        [[0.0, 0.0, 1.0], [0.0, 0.0, 1.0]]
    """
    x = asarray(x)
    axis = _axes("dynamic_update_slice_in_dim", axis, x.aval.ndim, x.aval)[0]
    starts = [0] * x.aval.ndim
    starts[axis] = start_index
    return dynamic_update_slice(x, update, starts)


def concatenate(operands: Sequence, dimension: int):
    """Join arrays of one dtype along `dimension` (all other axes must match).

    Args:
        operands: a non-empty sequence of arrays of one dtype and rank.
        dimension: the axis to join along (negative counts from the end).

    Returns:
        One array of that dtype.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> lax.concatenate([padax.to_tensor([1, 2]), padax.to_tensor([3])], 0).tolist()
        [1, 2, 3]
    """
    operands = [asarray(o) for o in operands]
    if not operands:
        raise op_value_error("concatenate", "needs at least one operand")
    if len(operands) == 1:
        return operands[0]
    ndim = operands[0].aval.ndim
    dim = static_int("concatenate", dimension, "dimension")
    dim = dim + ndim if -ndim <= dim < 0 else dim
    return concatenate_p.bind(*operands, dimension=dim)


def pad(x, padding_value, padding_config: Sequence[tuple[int, int, int]]):
    """Pad with (low, high, interior) per axis; negative low/high crop. A Python scalar
    `padding_value` takes x's dtype.

    Args:
        x: an array.
        padding_value: a scalar (array) of x's dtype, or a Python scalar.
        padding_config: one (low, high, interior) triple of ints per axis; interior must be >= 0.

    Returns:
        An array of x's dtype; each axis has low + high + size + interior * (size - 1) elements.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> lax.pad(padax.to_tensor([1.0, 2.0]), padax.to_tensor(0.0), [(1, 2, 1)]).tolist()
        [0.0, 1.0, 0.0, 2.0, 0.0, 0.0]
    """
    x = asarray(x)
    pv = asarray(padding_value, None if is_array(padding_value) else x.aval.dtype)
    config = tuple((int(lo), int(hi), int(it)) for lo, hi, it in padding_config)
    return pad_p.bind(x, pv, padding_config=config)


def rev(x, dimensions: int | Sequence[int]):
    """Reverse the element order along the given axes.

    Args:
        x: an array.
        dimensions: an int or a sequence of distinct axes.

    Returns:
        An array of x's shape and dtype.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> x = padax.to_tensor([[1, 2, 3], [4, 5, 6]])
        >>> lax.rev(x, (1,)).tolist()
        [[3, 2, 1], [6, 5, 4]]
    """
    x = asarray(x)
    dims = _axes("rev", dimensions, x.aval.ndim, x.aval)
    if not dims:
        return x
    if len(set(dims)) != len(dims):
        raise op_value_error("rev", f"repeated axis in {dimensions} for {x.aval.str_short()}")
    return rev_p.bind(x, dimensions=tuple(sorted(dims)))


def clamp(min, x, max):
    """Elementwise min(max(x, min), max); bounds are scalars or x-shaped; Python scalars take x's dtype.

    Args:
        min: the lower bound (a scalar or an array of x's shape, of x's dtype).
        x: the array to clamp (not complex).
        max: the upper bound (a scalar or an array of x's shape, of x's dtype).

    Returns:
        An array of x's shape and dtype.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> lax.clamp(0.0, padax.to_tensor([-1.0, 0.5, 2.0]), 1.0).tolist()
        [0.0, 0.5, 1.0]
    """
    x = asarray(x)
    dt = x.aval.dtype
    lo = min if is_array(min) else asarray(min, dt)
    hi = max if is_array(max) else asarray(max, dt)
    return clamp_p.bind(lo, x, hi)


def bitcast_convert_type(x, new_dtype):
    """Reinterpret the bits of x as `new_dtype`; narrower adds a last axis, wider consumes one.

    Args:
        x: an array.
        new_dtype: the dtype to reinterpret the bits as.

    Returns:
        An array of `new_dtype`; a last axis of size old_itemsize / new_itemsize is added (narrower), or
        x's last axis of size new_itemsize / old_itemsize is consumed (wider).

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> lax.bitcast_convert_type(padax.to_tensor([1.0]), padax.int32).tolist()
        [1065353216]
    """
    x = asarray(x)
    new_dtype = dtypes.canonicalize(new_dtype)
    if x.aval.dtype == new_dtype and not x.aval.weak_type:
        return x
    return bitcast_convert_type_p.bind(x, new_dtype=new_dtype)


# ---- what batch rules (next to each primitive) need ------------------------------------------------
# A batch rule has the signature `rule(args, dims, **params) -> (out, out_dim)` (lists for primitives
# with several results); `dims[i]` is the batch axis of `args[i]`, or None when it is not batched.

def moveaxis(x: Any, src: int, dst: int) -> Any:
    """Move axis `src` of `x` to position `dst` (a no-op when they agree)."""
    nd = get_aval(x).ndim
    src, dst = src % nd, dst % nd
    if src == dst:
        return x
    perm = [i for i in range(nd) if i != src]
    perm.insert(dst, src)
    return transpose(x, perm)


def bdim_to_front(x: Any, bdim: int | None, size: int) -> Any:
    """Put the batch axis first; an unbatched operand is broadcast along a new leading axis."""
    if bdim is None:
        return broadcast(x, (size,))
    return moveaxis(x, bdim, 0)


def batch_size(args: Sequence[Any], dims: Sequence[int | None]) -> int:
    """The size of the batch axis, read from the first batched operand."""
    for x, d in zip(args, dims):
        if d is not None:
            return get_aval(x).shape[d]
    raise ValueError("no batched operand")


hooks.install(  # what the interpreters (one floor down) emit
    convert_to_strong=lambda x, dtype: convert_element_type_p.bind(x, new_dtype=dtype, weak_type=False),
    bdim_to_front=bdim_to_front)


__all__ = ["convert_element_type", "broadcast_in_dim", "broadcast", "reshape", "transpose",
           "select_n", "select", "iota", "broadcasted_iota",
           "squeeze", "expand_dims", "slice", "slice_in_dim", "index_in_dim", "dynamic_slice",
           "dynamic_slice_in_dim", "dynamic_index_in_dim", "dynamic_update_slice",
           "dynamic_update_slice_in_dim", "concatenate", "pad", "rev", "clamp",
           "bitcast_convert_type"]


# ---- differentiation and batching of the basic shape/dtype primitives ------------------------

def _convert_jvp(primals, tangents, *, new_dtype, weak_type):
    (x,), (t,) = primals, tangents
    out = convert_element_type_p.bind(x, new_dtype=new_dtype, weak_type=weak_type)
    if type(t) is Zero or not dtypes.is_inexact(new_dtype):
        return out, Zero(tangent_aval(get_aval(out)))
    return out, convert_element_type_p.bind(t, new_dtype=new_dtype, weak_type=weak_type)


def _convert_transpose(ct, x, *, new_dtype, weak_type):
    if type(ct) is Zero:
        return [None]
    src = x.aval.dtype
    if dtypes.is_complex(new_dtype) and not dtypes.is_complex(src):
        from padax.functional.lax.elementwise import real_p  # cycle: lax.elementwise imports this module at load
        ct = real_p.bind(ct)
    return [convert_element_type_p.bind(ct, new_dtype=src, weak_type=x.aval.weak_type)]


convert_element_type_p.jvp_rule = _convert_jvp
convert_element_type_p.transpose_rule = _convert_transpose
convert_element_type_p.batch_rule = lambda args, dims, **p: (convert_element_type_p.bind(args[0], **p), dims[0])


def _bid_transpose(ct, x, *, shape, broadcast_dimensions):
    if type(ct) is Zero:
        return [None]
    from padax.functional.lax.reductions import reduce_sum_p  # cycle: lax.reductions imports this module at load
    in_shape = x.aval.shape
    summed = tuple(d for d in range(len(shape)) if d not in broadcast_dimensions)
    expanded = tuple(bd for i, bd in enumerate(broadcast_dimensions) if in_shape[i] == 1 and shape[bd] != 1)
    axes = tuple(sorted(summed + expanded))
    out = reduce_sum_p.bind(ct, axes=axes) if axes else ct
    if get_aval(out).shape != in_shape:
        out = reshape_p.bind(out, new_sizes=in_shape)
    return [out]


def _bid_batch(args, dims, *, shape, broadcast_dimensions):
    (x,), (d,) = args, dims
    x = moveaxis(x, d, 0)
    size = get_aval(x).shape[0]
    return broadcast_in_dim_p.bind(x, shape=(size,) + tuple(shape),
                                   broadcast_dimensions=(0,) + tuple(b + 1 for b in broadcast_dimensions)), 0


deflinear(broadcast_in_dim_p, _bid_transpose)
broadcast_in_dim_p.batch_rule = _bid_batch


def _reshape_batch(args, dims, *, new_sizes):
    x = moveaxis(args[0], dims[0], 0)
    return reshape_p.bind(x, new_sizes=(get_aval(x).shape[0],) + tuple(new_sizes)), 0


deflinear(reshape_p, lambda ct, x, *, new_sizes: [None if type(ct) is Zero
                                                   else reshape_p.bind(ct, new_sizes=x.aval.shape)])
reshape_p.batch_rule = _reshape_batch


def _transpose_transpose(ct, x, *, permutation):
    if type(ct) is Zero:
        return [None]
    inverse = tuple(int(i) for i in np.argsort(permutation))
    return [transpose_p.bind(ct, permutation=inverse)]


def _transpose_batch(args, dims, *, permutation):
    x = moveaxis(args[0], dims[0], 0)
    return transpose_p.bind(x, permutation=(0,) + tuple(p + 1 for p in permutation)), 0


deflinear(transpose_p, _transpose_transpose)
transpose_p.batch_rule = _transpose_batch


def _select_n_jvp(primals, tangents):
    which, *cases = primals
    out = select_n_p.bind(which, *cases)
    case_ts = tangents[1:]
    if all(type(t) is Zero for t in case_ts):
        return out, Zero(tangent_aval(get_aval(out)))
    ts = [instantiate(t) for t in case_ts]
    return out, select_n_p.bind(which, *ts)


def _select_n_transpose(ct, which, *cases):
    if is_undefined(which):
        raise TypeError("select_n: the predicate cannot be a linear input")
    if type(ct) is Zero:
        return [None] * (1 + len(cases))
    zeros = zeros_like_aval(get_aval(ct))
    out = [None]
    for i, c in enumerate(cases):
        if is_undefined(c):
            branches = [zeros] * len(cases)
            branches[i] = ct
            out.append(select_n_p.bind(which, *branches))
        else:
            out.append(None)
    return out


def _select_n_batch(args, dims):
    size = batch_size(args, dims)
    which, *cases = args
    wd, *cds = dims
    if wd is None and all(d == cds[0] for d in cds) and cds[0] is not None and get_aval(which).shape == ():
        return select_n_p.bind(which, *cases), cds[0]
    cases = [bdim_to_front(c, d, size) for c, d in zip(cases, cds)]
    which = bdim_to_front(which, wd, size)
    case_shape = get_aval(cases[0]).shape
    if get_aval(which).shape != case_shape:  # a per-example scalar predicate
        which = broadcast_in_dim_p.bind(which, shape=case_shape, broadcast_dimensions=(0,))
    return select_n_p.bind(which, *cases), 0


select_n_p.jvp_rule = _select_n_jvp
select_n_p.transpose_rule = _select_n_transpose
select_n_p.batch_rule = _select_n_batch


# ---- differentiation and batching of squeeze, slices, concatenate, pad, rev, clamp, bitcast ----
# All but clamp and bitcast are linear in their array operands (start indices and other
# integer operands carry no tangent), so each gets its transpose; every one gets a batch rule
# that moves the batch axis of batched operands to the front and shifts its dimension params.

def _shifted(dims) -> tuple[int, ...]:
    return tuple(int(d) + 1 for d in dims)


def _squeeze_transpose(ct, x, *, dimensions):
    if type(ct) is Zero:
        return [None]
    return [reshape_p.bind(ct, new_sizes=x.aval.shape)]


def _squeeze_batch(args, dims, *, dimensions):
    x = moveaxis(args[0], dims[0], 0)
    return squeeze_p.bind(x, dimensions=_shifted(dimensions)), 0


deflinear(squeeze_p, _squeeze_transpose)
squeeze_p.batch_rule = _squeeze_batch


def _slice_transpose(ct, x, *, start_indices, limit_indices, strides):
    """Scatter the window back by padding the cotangent with zeros around and between its elements."""
    if type(ct) is Zero:
        return [None]
    shape, ct_shape = x.aval.shape, get_aval(ct).shape
    strides = (1,) * len(shape) if strides is None else strides
    config = []
    for d, s, st, n in zip(shape, start_indices, strides, ct_shape):
        interior = st - 1
        config.append((s, d - s - n - max(n - 1, 0) * interior, interior))
    dt = get_aval(ct).dtype
    return [pad_p.bind(ct, constant(0, dt), padding_config=tuple(config))]


def _slice_batch(args, dims, *, start_indices, limit_indices, strides):
    x = moveaxis(args[0], dims[0], 0)
    size = get_aval(x).shape[0]
    return slice_p.bind(x, start_indices=(0,) + tuple(start_indices),
                        limit_indices=(size,) + tuple(limit_indices),
                        strides=None if strides is None else (1,) + tuple(strides)), 0


deflinear(slice_p, _slice_transpose)
slice_p.batch_rule = _slice_batch


def _dynamic_slice_jvp(primals, tangents, *, slice_sizes):
    x, *starts = primals
    out = dynamic_slice_p.bind(x, *starts, slice_sizes=slice_sizes)
    t = tangents[0]
    if type(t) is Zero:
        return out, Zero(tangent_aval(get_aval(out)))
    return out, dynamic_slice_p.bind(t, *starts, slice_sizes=slice_sizes)


def _dynamic_slice_transpose(ct, x, *starts, slice_sizes):
    """Write the cotangent into zeros at the (same, equally clamped) window."""
    if any(is_undefined(s) for s in starts):
        raise TypeError("dynamic_slice: cannot transpose with respect to the start indices")
    if type(ct) is Zero or not is_undefined(x):
        return [None] * (1 + len(starts))
    zeros = zeros_like_aval(x.aval.update(dtype=get_aval(ct).dtype, weak_type=False))
    return [dynamic_update_slice_p.bind(zeros, ct, *starts)] + [None] * len(starts)


def _dynamic_update_slice_jvp(primals, tangents):
    x, update, *starts = primals
    out = dynamic_update_slice_p.bind(x, update, *starts)
    t_x, t_u = tangents[0], tangents[1]
    if type(t_x) is Zero and type(t_u) is Zero:
        return out, Zero(tangent_aval(get_aval(out)))
    return out, dynamic_update_slice_p.bind(instantiate(t_x), instantiate(t_u), *starts)


def _dynamic_update_slice_transpose(ct, x, update, *starts):
    """The operand's cotangent is ct with the written window cleared; the update's is that window."""
    if any(is_undefined(s) for s in starts):
        raise TypeError("dynamic_update_slice: cannot transpose with respect to the start indices")
    nones = [None] * len(starts)
    if type(ct) is Zero:
        return [None, None] + nones
    u_aval = update.aval if is_undefined(update) else get_aval(update)
    ct_x = ct_u = None
    if is_undefined(x):
        zeros = zeros_like_aval(u_aval.update(dtype=get_aval(ct).dtype, weak_type=False))
        ct_x = dynamic_update_slice_p.bind(ct, zeros, *starts)
    if is_undefined(update):
        ct_u = dynamic_slice_p.bind(ct, *starts, slice_sizes=u_aval.shape)
    return [ct_x, ct_u] + nones


def _index_vectors(starts, sdims, size: int, upper):
    """Batched start indices as a (size, n) int32 array, each first clamped into [0, upper[i]]
    in its own dtype, so that the result selects the windows the unbatched op would."""
    cols = []
    for s, d, hi in zip(starts, sdims, upper):
        dt = get_aval(s).dtype
        hi = min(int(hi), int(np.iinfo(dt).max))
        s = clamp_p.bind(constant(0, dt), s, constant(hi, dt))
        if dt != dtypes.int32:
            s = convert_element_type_p.bind(s, new_dtype=dtypes.int32, weak_type=False)
        s = bdim_to_front(s, d, size)
        cols.append(broadcast_in_dim_p.bind(s, shape=(size, 1), broadcast_dimensions=(0,)))
    return cols[0] if len(cols) == 1 else concatenate_p.bind(*cols, dimension=1)


def _dynamic_slice_batch(args, dims, *, slice_sizes):
    """Unbatched starts: one more full-size window axis. Batched starts: a gather, with the
    operand's batch axis paired to the indices' (XLA batching dims) when both are batched."""
    from padax.functional.lax.indexing import (
        GatherDimensionNumbers,
        GatherScatterMode,
        gather_p,  # cycle: lax.indexing imports this module at load
    )
    x, *starts = args
    xd, *sdims = dims
    size = batch_size(args, dims)
    nd = len(slice_sizes)
    if all(d is None for d in sdims):
        x = moveaxis(x, xd, 0)
        zero = constant(0, get_aval(starts[0]).dtype if starts else dtypes.int32)
        return dynamic_slice_p.bind(x, zero, *starts, slice_sizes=(size,) + tuple(slice_sizes)), 0
    x_shape = get_aval(x).shape if xd is None else tuple(s for i, s in enumerate(get_aval(x).shape) if i != xd)
    idx = _index_vectors(starts, sdims, size, [d - w for d, w in zip(x_shape, slice_sizes)])
    window = tuple(range(1, nd + 1))
    if xd is None:
        dn = GatherDimensionNumbers(offset_dims=window, collapsed_slice_dims=(),
                                    start_index_map=tuple(range(nd)))
        sizes = tuple(slice_sizes)
    else:
        x = moveaxis(x, xd, 0)
        dn = GatherDimensionNumbers(offset_dims=window, collapsed_slice_dims=(), start_index_map=window,
                                    operand_batching_dims=(0,), start_indices_batching_dims=(0,))
        sizes = (1,) + tuple(slice_sizes)
    out = gather_p.bind(x, idx, dimension_numbers=dn, slice_sizes=sizes, indices_are_sorted=False,
                        unique_indices=False, mode=GatherScatterMode.CLIP, fill_value=None)
    return out, 0


def _dynamic_update_slice_batch(args, dims):
    """Unbatched starts: start 0 on the batch axis. Batched starts: a scatter whose operand
    batch axis is paired with the indices' (each example writes only its own slice)."""
    from padax.functional.lax.indexing import (
        GatherScatterMode,
        ScatterDimensionNumbers,
        scatter_p,  # cycle: lax.indexing imports this module at load
    )
    x, update, *starts = args
    xd, ud, *sdims = dims
    size = batch_size(args, dims)
    x, update = bdim_to_front(x, xd, size), bdim_to_front(update, ud, size)
    if all(d is None for d in sdims):
        zero = constant(0, get_aval(starts[0]).dtype if starts else dtypes.int32)
        return dynamic_update_slice_p.bind(x, update, zero, *starts), 0
    x_shape, u_shape = get_aval(x).shape[1:], get_aval(update).shape[1:]
    idx = _index_vectors(starts, sdims, size, [d - w for d, w in zip(x_shape, u_shape)])
    window = tuple(range(1, len(x_shape) + 1))
    dn = ScatterDimensionNumbers(update_window_dims=window, inserted_window_dims=(),
                                 scatter_dims_to_operand_dims=window, operand_batching_dims=(0,),
                                 scatter_indices_batching_dims=(0,))
    out = scatter_p.bind(x, idx, update, dimension_numbers=dn, indices_are_sorted=False,
                         unique_indices=True, mode=GatherScatterMode.CLIP)
    return out, 0


dynamic_slice_p.jvp_rule = _dynamic_slice_jvp
dynamic_slice_p.transpose_rule = _dynamic_slice_transpose
dynamic_slice_p.batch_rule = _dynamic_slice_batch
dynamic_update_slice_p.jvp_rule = _dynamic_update_slice_jvp
dynamic_update_slice_p.transpose_rule = _dynamic_update_slice_transpose
dynamic_update_slice_p.batch_rule = _dynamic_update_slice_batch


def _concatenate_transpose(ct, *operands, dimension):
    """Each linear operand's cotangent is its own stretch of the cotangent."""
    if type(ct) is Zero:
        return [None] * len(operands)
    ct_shape = get_aval(ct).shape
    out, start = [], 0
    for o in operands:
        shape = o.aval.shape if is_undefined(o) else get_aval(o).shape
        stop = start + shape[dimension]
        if is_undefined(o):
            lo, hi = [0] * len(ct_shape), list(ct_shape)
            lo[dimension], hi[dimension] = start, stop
            out.append(slice(ct, lo, hi))
        else:
            out.append(None)
        start = stop
    return out


def _concatenate_batch(args, dims, *, dimension):
    size = batch_size(args, dims)
    xs = [bdim_to_front(x, d, size) for x, d in zip(args, dims)]
    return concatenate_p.bind(*xs, dimension=dimension + 1), 0


deflinear(concatenate_p, _concatenate_transpose)
concatenate_p.batch_rule = _concatenate_batch


def _pad_transpose(ct, x, padding_value, *, padding_config):
    """Operand: undo the edge padding (re-growing what negative padding cropped, with zeros),
    then keep every (interior+1)-th element. Padding value: every other element of ct."""
    if type(ct) is Zero:
        return [None, None]
    from padax.functional.lax.elementwise import sub_p  # cycle: lax.elementwise imports this module at load
    from padax.functional.lax.reductions import reduce_sum_p  # cycle: lax.reductions imports this module at load
    dt = get_aval(ct).dtype
    unpadded = pad_p.bind(ct, constant(0, dt), padding_config=tuple((-lo, -hi, 0) for lo, hi, _ in padding_config))
    shape = get_aval(unpadded).shape
    ct_x = slice(unpadded, (0,) * len(shape), shape, tuple(it + 1 for _, _, it in padding_config))
    ct_pv = None
    if is_undefined(padding_value):
        every = tuple(range(len(shape)))
        total = reduce_sum_p.bind(ct, axes=every) if every else ct
        ct_pv = sub_p.bind(total, reduce_sum_p.bind(ct_x, axes=every) if every else ct_x)
    return [ct_x if is_undefined(x) else None, ct_pv]


def _pad_batch(args, dims, *, padding_config):
    """Batched padding values: pad with zeros, then select each example's value where the
    (unbatched) mask of padded positions is set."""
    x, pv = args
    xd, pd = dims
    size = batch_size(args, dims)
    config = ((0, 0, 0),) + tuple(padding_config)
    x = bdim_to_front(x, xd, size)
    if pd is None:
        return pad_p.bind(x, pv, padding_config=config), 0
    pv = moveaxis(pv, pd, 0)
    dt = get_aval(x).dtype
    out = pad_p.bind(x, constant(0, dt), padding_config=config)
    out_shape = get_aval(out).shape
    mask = pad_p.bind(_full_bool(get_aval(x).shape[1:], False), constant(True, dtypes.bool_),
                      padding_config=tuple(padding_config))
    mask = broadcast_in_dim_p.bind(mask, shape=out_shape, broadcast_dimensions=tuple(range(1, len(out_shape))))
    fill = broadcast_in_dim_p.bind(pv, shape=out_shape, broadcast_dimensions=(0,))
    return select_n_p.bind(mask, out, fill), 0


def _full_bool(shape, value):
    return full(tuple(shape), bool(value), dtypes.bool_)


deflinear(pad_p, _pad_transpose)
pad_p.batch_rule = _pad_batch


def _rev_transpose(ct, x, *, dimensions):
    if type(ct) is Zero:
        return [None]
    return [rev_p.bind(ct, dimensions=dimensions)]


def _rev_batch(args, dims, *, dimensions):
    x, d = args[0], dims[0]
    return rev_p.bind(x, dimensions=tuple(sorted(a + (a >= d) for a in dimensions))), d


deflinear(rev_p, _rev_transpose)
rev_p.batch_rule = _rev_batch


def _clamp_jvp(primals, tangents):
    """jax's rule: x's tangent flows where min < x < max, min's where x < min < max, max's where
    max < x; at a bound (x == min or x == max) no tangent flows."""
    from padax.functional.lax.elementwise import and_p, gt_p, lt_p  # cycle: lax.elementwise imports this module at load
    lo, x, hi = primals
    out = clamp_p.bind(lo, x, hi)
    if all(type(t) is Zero for t in tangents):
        return out, Zero(tangent_aval(get_aval(out)))
    shape = get_aval(x).shape

    def full_shape(v):
        a = get_aval(v)
        return v if a.shape == shape else broadcast_in_dim_p.bind(v, shape=shape, broadcast_dimensions=())

    lo_b, hi_b = full_shape(lo), full_shape(hi)
    x_on = and_p.bind(gt_p.bind(x, lo_b), lt_p.bind(x, hi_b))
    hi_on = lt_p.bind(hi_b, x)
    lo_on = and_p.bind(gt_p.bind(lo_b, x), lt_p.bind(lo_b, hi_b))
    t_out = Zero(tangent_aval(get_aval(out)))
    zeros = None
    for t, on in zip(tangents, (lo_on, x_on, hi_on)):
        if type(t) is Zero:
            continue
        if zeros is None:
            zeros = zeros_like_aval(tangent_aval(get_aval(out)))
        term = select_n_p.bind(on, zeros, full_shape(t))
        t_out = term if type(t_out) is Zero else _add(t_out, term)
    return out, t_out


def _add(a, b):
    from padax.functional.lax.elementwise import add_p  # cycle: lax.elementwise imports this module at load
    return add_p.bind(a, b)


def _clamp_batch(args, dims):
    """Bounds that are unbatched scalars stay scalars; anything else is made full batched shape."""
    lo, x, hi = args
    ld, xd, hd = dims
    size = batch_size(args, dims)
    x_unbatched = get_aval(x).shape if xd is None else tuple(
        s for i, s in enumerate(get_aval(x).shape) if i != xd)
    if ld is None and hd is None and get_aval(lo).shape == () and get_aval(hi).shape == ():
        return clamp_p.bind(lo, x, hi), xd
    x = bdim_to_front(x, xd, size)
    full_shape = (size,) + x_unbatched

    def bound(b, d):
        if d is None and get_aval(b).shape == ():
            return b
        b = bdim_to_front(b, d, size)
        if get_aval(b).shape != full_shape:  # a per-example scalar
            b = broadcast_in_dim_p.bind(b, shape=full_shape, broadcast_dimensions=(0,))
        return b

    return clamp_p.bind(bound(lo, ld), x, bound(hi, hd)), 0


clamp_p.jvp_rule = _clamp_jvp
clamp_p.batch_rule = _clamp_batch


def _bitcast_jvp(primals, tangents, *, new_dtype):
    """Reinterpreting bits is not differentiable: the tangent is zero."""
    out = bitcast_convert_type_p.bind(primals[0], new_dtype=new_dtype)
    return out, Zero(tangent_aval(get_aval(out)))


def _bitcast_batch(args, dims, *, new_dtype):
    """The size change (if any) is on the last axis; a batch axis there is moved to the front."""
    x, d = args[0], dims[0]
    a = get_aval(x)
    if new_dtype.itemsize > a.dtype.itemsize and d == a.ndim - 1:
        x, d = moveaxis(x, d, 0), 0
    return bitcast_convert_type_p.bind(x, new_dtype=new_dtype), d


bitcast_convert_type_p.jvp_rule = _bitcast_jvp
bitcast_convert_type_p.batch_rule = _bitcast_batch
