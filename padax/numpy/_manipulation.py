"""Shape manipulation (Array API standard names, then NumPy's extras).

Shapes, axes, shifts and repeat counts must be static (Python ints) except
where noted: `roll` takes a traced shift; `repeat` with an array of counts
reads them eagerly (pass `total_repeat_length` under jit).
"""
from __future__ import annotations

import builtins
import math as _pymath
from typing import Any, Sequence

import numpy as np

from padax import dtypes as _core_dtypes, lax
from padax.core.errors import op_type_error, op_value_error
from padax.core.trace import Tracer
from padax.functional import manipulation as _S
from padax.functional._arrays import canonicalize_axis
from padax.numpy import _dtypes as D
from padax.numpy._indexing import take
from padax.numpy._util import (
    broadcast_shapes as _bshapes,
    broadcast_to as _bcast,
    full_like_shape,
    is_array,
    static_int,
    to_array,
)
from padax.transforms.batching import vmap


def _arrays(op: str, arrays: Any) -> list[Any]:
    if is_array(arrays) or not isinstance(arrays, (list, tuple)):
        raise op_type_error(op, f"expected a list or tuple of arrays, got {type(arrays).__name__}")
    if not arrays:
        raise op_value_error(op, "needs at least one array")
    arrs = [to_array(a) for a in arrays]
    dt = D.result_type_of([(a.aval.dtype, False) for a in arrs])
    return [a if a.aval.dtype == dt else lax.convert_element_type(a, dt) for a in arrs]


def _int_tuple(op: str, v: Any, what: str) -> tuple[int, ...]:
    if isinstance(v, (list, tuple)):
        return tuple(static_int(op, e, what) for e in v)
    if is_array(v) and not isinstance(v, Tracer) and v.ndim == 1:
        return tuple(static_int(op, e, what) for e in np.asarray(v).reshape(-1).tolist())
    return (static_int(op, v, what),)


def broadcast_to(x: Any, /, shape: Any) -> Any:
    """Broadcast x to `shape` (NumPy rules).

    Args:
        x: an array or array-like.
        shape: the target shape (x's shape must broadcast to it).

    Returns:
        An array of `shape` and x's dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.broadcast_to(pnp.array([1, 2, 3]), (2, 3)).tolist()
        [[1, 2, 3], [1, 2, 3]]
    """
    x = to_array(x)
    shape = _int_tuple("broadcast_to", shape, "shape")
    xs = x.aval.shape
    if len(shape) < len(xs) or _bshapes("broadcast_to", xs, shape) != shape:
        raise op_value_error("broadcast_to", f"cannot broadcast {x.aval.str_short()} to shape {shape}")
    return _bcast(x, shape)


def broadcast_arrays(*arrays: Any) -> list[Any]:
    """Broadcast arrays to their common shape.

    Args:
        arrays: arrays or array-likes whose shapes broadcast together.

    Returns:
        A list of arrays, each of the common shape and its own dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> a, b = pnp.broadcast_arrays(pnp.array([[1], [2]]), pnp.array([10, 20, 30]))
        >>> a.tolist(), b.tolist()
        ([[1, 1, 1], [2, 2, 2]], [[10, 20, 30], [10, 20, 30]])
    """
    arrs = [to_array(a) for a in arrays]
    shape = _bshapes("broadcast_arrays", *(a.aval.shape for a in arrs))
    return [_bcast(a, shape) for a in arrs]


def broadcast_shapes(*shapes: Any) -> tuple[int, ...]:
    """The shape that arrays of the given shapes broadcast to.

    Args:
        shapes: shapes (tuples of ints, or ints for 1-D).

    Returns:
        A tuple of ints.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.broadcast_shapes((2, 1), (3,), (1, 1))
        (2, 3)
    """
    if not shapes:
        return ()
    return _bshapes("broadcast_shapes", *(_int_tuple("broadcast_shapes", s, "shape") for s in shapes))


def concat(arrays: Sequence[Any], /, *, axis: builtins.int | None = 0) -> Any:
    """Join arrays along an existing axis (flattened first if axis is None); dtypes promote.

    Args:
        arrays: a sequence of arrays of equal shape except along `axis` (at least 1-D).
        axis: the axis to join along (None: flatten every input first).

    Returns:
        An array in the promoted dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.concat([pnp.array([[1, 2]]), pnp.array([[3, 4]])], axis=0).tolist()
        [[1, 2], [3, 4]]
        >>> pnp.concat([pnp.array([[1], [2]]), pnp.array([[3], [4]])], axis=None).tolist()
        [1, 2, 3, 4]
    """
    arrs = _arrays("concat", arrays)
    if axis is None:
        arrs = [lax.reshape(a, (a.aval.size,)) for a in arrs]
        axis = 0
    nd = arrs[0].aval.ndim
    if nd == 0:
        raise op_value_error("concat", "cannot concatenate 0-d arrays")
    a = canonicalize_axis("concat", static_int("concat", axis, "axis"), nd)
    ref = arrs[0].aval.shape
    for t in arrs[1:]:
        s = t.aval.shape
        if len(s) != nd or builtins.any(p != q for i, (p, q) in enumerate(zip(s, ref)) if i != a):
            raise op_value_error("concat", f"all inputs must have the same shape except on axis {a}, got "
                                           + ", ".join(str(t.aval.shape) for t in arrs))
    return lax.concatenate(arrs, a)


def concatenate(arrays: Sequence[Any], axis: builtins.int | None = 0, dtype: Any = None) -> Any:
    """NumPy's name for `concat`.

    Args:
        arrays: a sequence of arrays of equal shape except along `axis` (at least 1-D).
        axis: the axis to join along (None: flatten every input first).
        dtype: the result dtype (None: the promoted dtype).

    Returns:
        An array whose `axis` length is the sum of the inputs'.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.concatenate([pnp.array([1, 2]), pnp.array([3])]).tolist()
        [1, 2, 3]
    """
    out = concat(arrays, axis=axis)
    return out if dtype is None else lax.convert_element_type(out, D.canonicalize(dtype))


def stack(arrays: Sequence[Any], /, *, axis: builtins.int = 0) -> Any:
    """Join equal-shaped arrays along a new axis.

    Args:
        arrays: a sequence of arrays of one shape.
        axis: where the new axis goes in the result.
        dtype: NumPy's option: cast every input to this dtype first.

    Returns:
        An array with one more dimension, of length len(arrays) at `axis`, in the promoted dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.stack([pnp.array([1, 2]), pnp.array([3, 4])], axis=1).tolist()
        [[1, 3], [2, 4]]
    """
    arrs = _arrays("stack", arrays)
    ref = arrs[0].aval.shape
    if builtins.any(t.aval.shape != ref for t in arrs[1:]):
        raise op_value_error("stack", "all inputs must have the same shape, got "
                                      + ", ".join(str(t.aval.shape) for t in arrs))
    a = canonicalize_axis("stack", static_int("stack", axis, "axis"), len(ref) + 1)
    new = ref[:a] + (1,) + ref[a:]
    return lax.concatenate([lax.reshape(t, new) for t in arrs], a)


def unstack(x: Any, /, *, axis: builtins.int = 0) -> tuple[Any, ...]:
    """The slices of x along `axis`, each without that axis.

    Args:
        x: an array of at least one dimension.
        axis: the axis to take apart.

    Returns:
        A tuple of x.shape[axis] arrays of x's dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> [r.tolist() for r in pnp.unstack(pnp.array([[1, 2], [3, 4]]), axis=1)]
        [[1, 3], [2, 4]]
    """
    x = to_array(x)
    if x.aval.ndim == 0:
        raise op_value_error("unstack", "cannot unstack a 0-d array")
    return tuple(_S.unbind(x, static_int("unstack", axis, "axis")))


def expand_dims(x: Any, /, axis: Any = 0) -> Any:
    """Insert size-1 axes at the positions `axis` (an int or a tuple) of the result.

    Args:
        x: an array or array-like.
        axis: an int or a tuple of ints: positions of the new axes in the result.

    Returns:
        An array of x's dtype with len(axis) more dimensions.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.expand_dims(pnp.array([1, 2]), axis=0).shape, pnp.expand_dims(pnp.array([1, 2]), axis=(0, 2)).shape
        ((1, 2), (1, 2, 1))
    """
    x = to_array(x)
    ax = _int_tuple("expand_dims", axis, "axis")
    nd = x.aval.ndim + len(ax)
    pos = sorted(canonicalize_axis("expand_dims", a, nd) for a in ax)
    if len(set(pos)) != len(pos):
        raise op_value_error("expand_dims", f"repeated axis in {axis}")
    shape = list(x.aval.shape)
    for p in pos:
        shape.insert(p, 1)
    return lax.reshape(x, tuple(shape))


def squeeze(x: Any, /, axis: Any = None) -> Any:
    """Remove size-1 axes (those of `axis`, which must have size 1; all of them if axis is None).

    Args:
        x: an array or array-like.
        axis: an int, a tuple of ints, or None (every size-1 axis).

    Returns:
        An array of x's dtype without those axes.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.squeeze(pnp.zeros((1, 3, 1))).shape, pnp.squeeze(pnp.zeros((1, 3, 1)), axis=0).shape
        ((3,), (3, 1))
    """
    x = to_array(x)
    shape = x.aval.shape
    if axis is None:
        dims = [i for i, d in enumerate(shape) if d == 1]
    else:
        dims = sorted({canonicalize_axis("squeeze", a, x.aval.ndim) for a in _int_tuple("squeeze", axis, "axis")})
        for d in dims:
            if shape[d] != 1:
                raise op_value_error("squeeze", f"cannot remove axis {d} of size {shape[d]} from "
                                                f"{x.aval.str_short()}")
    if not dims:
        return x
    return lax.reshape(x, tuple(d for i, d in enumerate(shape) if i not in dims))


def flip(x: Any, /, *, axis: Any = None) -> Any:
    """Reverse the order of elements along `axis` (all axes if None).

    Args:
        x: an array or array-like.
        axis: an int, a tuple of ints, or None (all axes).

    Returns:
        An array of x's shape and dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.flip(pnp.array([[1, 2], [3, 4]])).tolist()
        [[4, 3], [2, 1]]
        >>> pnp.flip(pnp.array([[1, 2], [3, 4]]), axis=1).tolist()
        [[2, 1], [4, 3]]
    """
    x = to_array(x)
    if axis is None:
        dims = tuple(builtins.range(x.aval.ndim))
    else:
        dims = tuple(sorted({canonicalize_axis("flip", a, x.aval.ndim) for a in _int_tuple("flip", axis, "axis")}))
    return lax.rev(x, dims) if dims else x


def flipud(m: Any) -> Any:
    """Reverse along axis 0.

    Args:
        m: an array of at least one dimension.

    Returns:
        An array of m's shape and dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.flipud(pnp.array([[1, 2], [3, 4]])).tolist()
        [[3, 4], [1, 2]]
    """
    return flip(m, axis=0)


def fliplr(m: Any) -> Any:
    """Reverse along axis 1.

    Args:
        m: an array of at least two dimensions.

    Returns:
        An array of m's shape and dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.fliplr(pnp.array([[1, 2], [3, 4]])).tolist()
        [[2, 1], [4, 3]]
    """
    return flip(m, axis=1)


def moveaxis(x: Any, source: Any, destination: Any, /) -> Any:
    """Move axes `source` to positions `destination`, others keep their order.

    Args:
        x: an array or array-like.
        source: an int or a sequence of ints: the axes to move.
        destination: their positions in the result (same length as `source`).

    Returns:
        An array of x's dtype with its axes reordered.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.moveaxis(pnp.zeros((2, 3, 4)), 0, -1).shape
        (3, 4, 2)
    """
    return _S.moveaxis(to_array(x), list(_int_tuple("moveaxis", source, "source")),
                       list(_int_tuple("moveaxis", destination, "destination")))


def permute_dims(x: Any, /, axes: Sequence[builtins.int]) -> Any:
    """Permute the axes: result axis i is input axis axes[i].

    Args:
        x: an array or array-like.
        axes: a permutation of range(x.ndim).

    Returns:
        An array of x's dtype with the permuted shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.permute_dims(pnp.zeros((2, 3, 4)), (2, 0, 1)).shape
        (4, 2, 3)
    """
    return _S.transpose(to_array(x), list(_int_tuple("permute_dims", axes, "axes")))


def transpose(a: Any, axes: Sequence[builtins.int] | None = None) -> Any:
    """Permute the axes (reverse them when `axes` is None).

    Args:
        a: an array or array-like.
        axes: a permutation of range(a.ndim), or None to reverse the axes.

    Returns:
        An array of a's dtype with the permuted shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.transpose(pnp.array([[1, 2, 3], [4, 5, 6]])).tolist()
        [[1, 4], [2, 5], [3, 6]]
    """
    a = to_array(a)
    if axes is None:
        axes = tuple(builtins.range(a.aval.ndim))[::-1]
    return permute_dims(a, axes)


def matrix_transpose(x: Any, /) -> Any:
    """Swap the last two axes.

    Args:
        x: an array of at least two dimensions.

    Returns:
        An array of x's dtype with its last two axes swapped.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.matrix_transpose(pnp.zeros((5, 2, 3))).shape
        (5, 3, 2)
    """
    x = to_array(x)
    nd = x.aval.ndim
    if nd < 2:
        raise op_value_error("matrix_transpose", f"needs at least 2 dimensions, got {x.aval.str_short()}")
    return lax.transpose(x, tuple(builtins.range(nd - 2)) + (nd - 1, nd - 2))


def swapaxes(a: Any, axis1: builtins.int, axis2: builtins.int) -> Any:
    """Interchange two axes.

    Args:
        a: an array or array-like.
        axis1, axis2: the axes to interchange.

    Returns:
        An array of a's dtype with those two axes swapped.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.swapaxes(pnp.array([[1, 2, 3]]), 0, 1).tolist()
        [[1], [2], [3]]
    """
    a = to_array(a)
    nd = a.aval.ndim
    i, j = canonicalize_axis("swapaxes", axis1, nd), canonicalize_axis("swapaxes", axis2, nd)
    perm = list(builtins.range(nd))
    perm[i], perm[j] = perm[j], perm[i]
    return lax.transpose(a, tuple(perm))


def reshape(x: Any, /, shape: Any, order: str = "C", *, copy: builtins.bool | None = None) -> Any:
    """Reshape; one entry may be -1. order 'C' (default) reads and writes row-major, 'F' column-major
    (as NumPy: the values in Fortran order refilled in Fortran order); 'A' is 'C' (padax arrays).

    Args:
        x: an array or array-like.
        shape: an int or a sequence of ints, with the same number of elements as x (one entry may be -1).
        order: 'C', 'F' or 'A' (see above).
        copy: accepted for the Array API (arrays are immutable).

    Returns:
        An array of `shape` and x's dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.reshape(pnp.arange(6), (2, -1)).tolist()
        [[0, 1, 2], [3, 4, 5]]
        >>> pnp.reshape(pnp.arange(6), (2, 3), order="F").tolist()
        [[0, 2, 4], [1, 3, 5]]
    """
    if order not in ("C", "F", "A"):
        raise op_value_error("reshape", f"order must be 'C', 'F' or 'A', got {order!r}")
    if order == "F":
        x = to_array(x)
        rev = tuple(builtins.range(x.aval.ndim - 1, -1, -1))
        flat = reshape(lax.transpose(x, rev), list(_int_tuple("reshape", shape, "shape"))[::-1])
        return lax.transpose(flat, tuple(builtins.range(flat.aval.ndim - 1, -1, -1)))
    x = to_array(x)
    shape = list(_int_tuple("reshape", shape, "shape"))
    if shape.count(-1) > 1 or builtins.any(d < -1 for d in shape):
        raise op_value_error("reshape", f"invalid shape {tuple(shape)}")
    if -1 in shape:
        known = _pymath.prod(d for d in shape if d != -1)
        if known == 0 or x.aval.size % known:
            raise op_value_error("reshape", f"cannot reshape {x.aval.str_short()} to {tuple(shape)}")
        shape[shape.index(-1)] = x.aval.size // known
    if _pymath.prod(shape) != x.aval.size:
        raise op_value_error("reshape", f"cannot reshape {x.aval.str_short()} ({x.aval.size} elements) "
                                        f"to {tuple(shape)}")
    return lax.reshape(x, tuple(shape))


def _layout_order(a: Any, order: str) -> tuple[int, ...]:
    """The axis order in which ravel reads `a`: row-major ('C'), column-major ('F'), or, for
    'A' and 'K', the memory layout of a NumPy input (padax arrays have no layout of their
    own and read as 'C'). 'A' is 'F' for a Fortran- but not C-contiguous array; 'K' reads
    in memory order (`_keep_order_axes`)."""
    nd = np.ndim(a) if isinstance(a, np.ndarray) else to_array(a).aval.ndim
    if order == "F":
        return tuple(builtins.range(nd - 1, -1, -1))
    if order in ("A", "K") and isinstance(a, np.ndarray) and nd > 1:
        if order == "A":
            if a.flags.f_contiguous and not a.flags.c_contiguous:
                return tuple(builtins.range(nd - 1, -1, -1))
        else:
            return _keep_order_axes(a.shape, a.strides)
    return tuple(builtins.range(nd))


def _keep_order_axes(shape: tuple[int, ...], strides: tuple[int, ...]) -> tuple[int, ...]:
    """Axes, outermost first, in the order NumPy's 'K' iteration reads a strided array: an
    insertion sort by decreasing |stride| (starting from the innermost axis; ties keep their
    order), in which a broadcast axis (stride 0) cannot be compared and is passed over.
    Negative strides are read as they are (not reversed)."""
    order = list(builtins.range(len(shape) - 1, -1, -1))       # innermost first
    for i0 in builtins.range(1, len(order)):
        ax = order[i0]
        s0 = builtins.abs(strides[ax])
        pos = i0
        for i1 in builtins.range(i0 - 1, -1, -1):
            s1 = builtins.abs(strides[order[i1]])
            if s0 == 0 or s1 == 0:
                continue
            if s1 <= s0:
                break
            pos = i1
        order.insert(pos, order.pop(i0))
    return tuple(reversed(order))


def ravel(a: Any, order: str = "C") -> Any:
    """The flattened array, read in row-major ('C', default) or column-major ('F') order;
    'A' and 'K' follow a NumPy input's memory layout as numpy does (padax arrays: 'C').

    Args:
        a: an array, array-like or numpy array.
        order: 'C', 'F', 'A' or 'K' (see above).

    Returns:
        A 1-D array of a's size and dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.ravel(pnp.array([[1, 2], [3, 4]])).tolist()
        [1, 2, 3, 4]
        >>> pnp.ravel(pnp.array([[1, 2], [3, 4]]), order="F").tolist()
        [1, 3, 2, 4]
    """
    if order not in ("C", "F", "A", "K"):
        raise op_value_error("ravel", f"order must be one of 'C', 'F', 'A' or 'K', got {order!r}")
    perm = _layout_order(a, order)
    x = to_array(a)
    if perm != tuple(builtins.range(x.aval.ndim)):
        x = lax.transpose(x, perm)
    return lax.reshape(x, (x.aval.size,))


def _roll_axis(x: Any, shift: Any, a: builtins.int) -> Any:
    n = x.aval.shape[a]
    if n == 0:
        return x
    if isinstance(shift, Tracer) or (is_array(shift)):
        s = to_array(shift)
        s = lax.convert_element_type(s, D.int32) if s.aval.dtype != D.int32 else s
        nn = lax.broadcast_in_dim(np.int32(n), (), ())
        start = lax.rem(lax.sub(nn, lax.rem(s, nn)), nn)  # in (-n, n)
        start = lax.rem(lax.add(start, nn), nn)
        doubled = lax.concatenate([x, x], a)
        return lax.dynamic_slice_in_dim(doubled, start, n, a)
    k = static_int("roll", shift, "shift") % n
    if k == 0:
        return x
    return lax.concatenate([lax.slice_in_dim(x, n - k, n, 1, a), lax.slice_in_dim(x, 0, n - k, 1, a)], a)


def roll(x: Any, /, shift: Any, *, axis: Any = None) -> Any:
    """Shift elements cyclically along `axis` (over the flattened array if None).

    Args:
        x: an array or array-like.
        shift: an int (or an integer array) or a sequence of ints, one per axis; positive shifts move elements to higher
            indices.
        axis: an int, a sequence of ints, or None (roll the flattened array, then restore the shape).

    Returns:
        An array of x's shape and dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.roll(pnp.array([1, 2, 3, 4]), 1).tolist()
        [4, 1, 2, 3]
        >>> pnp.roll(pnp.array([[1, 2], [3, 4]]), -1, axis=1).tolist()
        [[2, 1], [4, 3]]
    """
    x = to_array(x)
    if axis is None:
        flat = lax.reshape(x, (x.aval.size,))
        if isinstance(shift, (list, tuple)):
            shift = builtins.sum(shift)
        return lax.reshape(_roll_axis(flat, shift, 0), x.aval.shape)
    ax = _int_tuple("roll", axis, "axis")
    if x.aval.ndim == 0:
        raise op_value_error("roll", f"axis {axis} is out of range for a 0-d array (roll it with axis=None)")
    shifts = shift if isinstance(shift, (list, tuple)) else (shift,) * len(ax)
    if len(shifts) != len(ax):
        raise op_value_error("roll", f"shift {shift} and axis {axis} differ in length")
    for s, a in zip(shifts, ax):
        x = _roll_axis(x, s, canonicalize_axis("roll", a, x.aval.ndim))
    return x


def tile(x: Any, repetitions: Any, /) -> Any:
    """Repeat x `repetitions[i]` times along axis i (shorter tuples apply to the trailing axes).

    Args:
        x: an array or array-like.
        repetitions: an int or a sequence of ints.

    Returns:
        An array of x's dtype, each axis len * repetitions long (more axes if `repetitions` is longer than x.ndim).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.tile(pnp.array([1, 2]), (2, 2)).tolist()
        [[1, 2, 1, 2], [1, 2, 1, 2]]
    """
    return _S.tile(to_array(x), list(_int_tuple("tile", repetitions, "repetitions")))


def repeat(x: Any, repeats: Any, /, *, axis: builtins.int | None = None,
           total_repeat_length: builtins.int | None = None) -> Any:
    """Repeat each element `repeats` times (an int, or one count per element along `axis`).

    Per-element counts must be concrete (eager), unless `total_repeat_length`
    fixes the output size (counts beyond it are cut, a shortfall repeats the last element).

    Args:
        x: an array or array-like.
        repeats: an int, or one count per element along `axis` (an array or sequence).
        axis: the axis to repeat along (None: the flattened x).
        total_repeat_length: the static length of the result along `axis` (needed under jit for traced counts).

    Returns:
        An array of x's dtype, longer along `axis`.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.repeat(pnp.array([1, 2]), 2).tolist()
        [1, 1, 2, 2]
        >>> pnp.repeat(pnp.array([1, 2]), pnp.array([1, 3])).tolist()
        [1, 2, 2, 2]
        >>> pnp.repeat(pnp.array([1, 2]), pnp.array([1, 3]), total_repeat_length=3).tolist()  # static: jit-able
        [1, 2, 2]
    """
    x = to_array(x)
    if axis is None:
        x = lax.reshape(x, (x.aval.size,))
        axis = 0
    a = canonicalize_axis("repeat", static_int("repeat", axis, "axis"), builtins.max(x.aval.ndim, 1))
    if x.aval.ndim == 0:
        x = lax.reshape(x, (1,))
    n = x.aval.shape[a]
    if isinstance(repeats, (builtins.int, np.integer)) and not isinstance(repeats, builtins.bool):
        r = static_int("repeat", repeats, "repeats")
        if r < 0:
            raise op_value_error("repeat", f"repeats must be non-negative, got {r}")
        shape = x.aval.shape
        inter = shape[:a + 1] + (r,) + shape[a + 1:]
        b = lax.broadcast_in_dim(x, inter, tuple(i if i <= a else i + 1 for i in builtins.range(len(shape))))
        return lax.reshape(b, shape[:a] + (n * r,) + shape[a + 1:])
    if isinstance(repeats, Tracer):
        if total_repeat_length is None:
            raise op_type_error("repeat", "per-element repeat counts that are traced give a data-dependent "
                                          "shape; pass total_repeat_length=")
        r = to_array(repeats)
        r = _bcast(r, (n,)) if r.aval.shape != (n,) else r
        ends = lax.cumsum(lax.convert_element_type(r, D.int32), 0)
        pos = lax.iota(D.int32, total_repeat_length)
        # index of each output slot: the number of segment ends at or before it
        cmp = lax.le(lax.broadcast_in_dim(ends, (total_repeat_length, n), (1,)),
                     lax.broadcast_in_dim(pos, (total_repeat_length, n), (0,)))
        idx = lax.reduce_sum(lax.convert_element_type(cmp, D.int32), (1,))
        idx = lax.min(idx, lax.broadcast_in_dim(np.int32(n - 1), (total_repeat_length,), ()))
        return take(x, idx, axis=a)
    r = np.asarray(repeats).astype(np.int64).reshape(-1)
    if r.size == 1:
        return repeat(x, builtins.int(r[0]), axis=a)
    if r.size != n:
        raise op_value_error("repeat", f"repeats has {r.size} entries, axis {a} has size {n}")
    if (r < 0).any():
        raise op_value_error("repeat", "repeats must be non-negative")
    idx = np.repeat(np.arange(n), r)
    if total_repeat_length is not None:
        idx = np.resize(idx, total_repeat_length) if idx.size else np.zeros(total_repeat_length, np.int64)
    return take(x, to_array(idx.astype(np.int32)), axis=a)


def atleast_1d(*arys: Any) -> Any:
    """Each input with at least one dimension.

    Args:
        arys: arrays or array-likes.

    Returns:
        One array for one input, else a list of arrays.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.atleast_1d(5).shape
        (1,)
    """
    out = [to_array(a) for a in arys]
    out = [lax.reshape(a, (1,)) if a.aval.ndim == 0 else a for a in out]
    return out[0] if len(out) == 1 else out


def atleast_2d(*arys: Any) -> Any:
    """Each input with at least two dimensions (1-D becomes a row).

    Args:
        arys: arrays or array-likes.

    Returns:
        One array for one input, else a list of arrays.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.atleast_2d(pnp.array([1, 2])).shape
        (1, 2)
    """
    out = []
    for a in arys:
        a = to_array(a)
        if a.aval.ndim < 2:
            a = lax.reshape(a, (1,) * (2 - a.aval.ndim) + a.aval.shape)
        out.append(a)
    return out[0] if len(out) == 1 else out


def atleast_3d(*arys: Any) -> Any:
    """Each input with at least three dimensions ((N,) -> (1, N, 1), (M, N) -> (M, N, 1)).

    Args:
        arys: arrays or array-likes.

    Returns:
        One array for one input, else a list of arrays.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.atleast_3d(pnp.array([1, 2])).shape
        (1, 2, 1)
    """
    out = []
    for a in arys:
        a = to_array(a)
        s = a.aval.shape
        if a.aval.ndim == 0:
            a = lax.reshape(a, (1, 1, 1))
        elif a.aval.ndim == 1:
            a = lax.reshape(a, (1,) + s + (1,))
        elif a.aval.ndim == 2:
            a = lax.reshape(a, s + (1,))
        out.append(a)
    return out[0] if len(out) == 1 else out


def vstack(tup: Sequence[Any], *, dtype: Any = None) -> Any:
    """Stack rows (1-D inputs become rows).

    Args:
        tup: a sequence of arrays of equal shape except along the first axis.
        dtype: the result dtype (None: the promoted dtype).

    Returns:
        A 2-D (or higher) array.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.vstack([pnp.array([1, 2]), pnp.array([3, 4])]).tolist()
        [[1, 2], [3, 4]]
    """
    return concatenate([atleast_2d(t) for t in tup], 0, dtype)


row_stack = vstack


def hstack(tup: Sequence[Any], *, dtype: Any = None) -> Any:
    """Stack columns (concatenate along axis 1, or 0 for 1-D inputs).

    Args:
        tup: a sequence of arrays of equal shape except along the second axis (first for 1-D).
        dtype: the result dtype (None: the promoted dtype).

    Returns:
        An array in the promoted dtype (or `dtype`).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.hstack([pnp.array([1, 2]), pnp.array([3])]).tolist()
        [1, 2, 3]
    """
    arrs = [atleast_1d(t) for t in tup]
    if not arrs:
        raise op_value_error("hstack", "need at least one array to concatenate")
    return concatenate(arrs, 0 if arrs[0].aval.ndim == 1 else 1, dtype)


def dstack(tup: Sequence[Any], *, dtype: Any = None) -> Any:
    """Stack along the third axis.

    Args:
        tup: a sequence of arrays of equal shape except along the third axis.
        dtype: the result dtype (None: the promoted dtype).

    Returns:
        An array of at least three dimensions.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.dstack([pnp.array([1, 2]), pnp.array([3, 4])]).tolist()
        [[[1, 3], [2, 4]]]
    """
    return concatenate([atleast_3d(t) for t in tup], 2, dtype)


def column_stack(tup: Sequence[Any]) -> Any:
    """Stack 1-D arrays as columns of a 2-D array.

    Args:
        tup: a sequence of 1-D arrays (each becomes a column) or 2-D arrays, of equal length.

    Returns:
        A 2-D array in the promoted dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.column_stack([pnp.array([1, 2]), pnp.array([3, 4])]).tolist()
        [[1, 3], [2, 4]]
    """
    arrs = []
    for t in tup:
        t = to_array(t)
        arrs.append(lax.reshape(t, (t.aval.size, 1)) if t.aval.ndim < 2 else t)  # scalars: (1, 1), as numpy
    return concatenate(arrs, 1)


def _split_points(op: str, n: builtins.int, indices_or_sections: Any, exact: builtins.bool) -> list[builtins.int]:
    if not isinstance(indices_or_sections, (list, tuple, np.ndarray)) and not is_array(indices_or_sections):
        k = static_int(op, indices_or_sections, "indices_or_sections")
        if k <= 0:
            raise op_value_error(op, "number of sections must be positive")
        if exact and n % k:
            raise op_value_error(op, f"an axis of size {n} cannot be split into {k} equal sections")
        q, r = builtins.divmod(n, k)
        sizes = [q + 1] * r + [q] * (k - r)
        pts, acc = [], 0
        for s in sizes[:-1]:
            acc += s
            pts.append(acc)
        return pts
    return [static_int(op, i, "indices_or_sections") for i in indices_or_sections]


def split(ary: Any, indices_or_sections: Any, axis: builtins.int = 0) -> list[Any]:
    """Split into equal sections (an int) or at the given indices along `axis`.

    Args:
        ary: an array of at least one dimension.
        indices_or_sections: the number of equal sections (must divide the axis), or a sequence of split points.
        axis: the axis to split.

    Returns:
        A list of arrays of ary's dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> [p.tolist() for p in pnp.split(pnp.arange(6), 3)]
        [[0, 1], [2, 3], [4, 5]]
        >>> [p.tolist() for p in pnp.split(pnp.arange(6), [1, 4])]
        [[0], [1, 2, 3], [4, 5]]
    """
    return _split("split", ary, indices_or_sections, axis, True)


def array_split(ary: Any, indices_or_sections: Any, axis: builtins.int = 0) -> list[Any]:
    """Like `split`, but sections may differ in size by one.

    Args:
        ary: an array of at least one dimension.
        indices_or_sections: the number of sections, or a sequence of split points.
        axis: the axis to split.

    Returns:
        A list of arrays of ary's dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> [p.tolist() for p in pnp.array_split(pnp.arange(5), 2)]
        [[0, 1, 2], [3, 4]]
    """
    return _split("array_split", ary, indices_or_sections, axis, False)


def _split(op: str, ary: Any, ios: Any, axis: builtins.int, exact: builtins.bool) -> list[Any]:
    x = to_array(ary)
    if x.aval.ndim == 0:
        raise op_value_error(op, f"cannot split a 0-d array {x.aval.str_short()}")
    a = canonicalize_axis(op, axis, x.aval.ndim)
    n = x.aval.shape[a]
    pts = _split_points(op, n, ios, exact)
    bounds = [0] + [builtins.min(builtins.max(p if p >= 0 else p + n, 0), n) for p in pts] + [n]
    out = []
    for s, e in zip(bounds[:-1], bounds[1:]):
        out.append(lax.slice_in_dim(x, s, builtins.max(s, e), 1, a))
    return out


def hsplit(ary: Any, indices_or_sections: Any) -> list[Any]:
    """Split along axis 1 (axis 0 for 1-D).

    Args:
        ary: an array of at least one dimension.
        indices_or_sections: the number of equal sections, or a sequence of split points.

    Returns:
        A list of arrays of ary's dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> [p.tolist() for p in pnp.hsplit(pnp.array([[1, 2], [3, 4]]), 2)]
        [[[1], [3]], [[2], [4]]]
    """
    x = to_array(ary)
    return split(x, indices_or_sections, 0 if x.aval.ndim == 1 else 1)


def vsplit(ary: Any, indices_or_sections: Any) -> list[Any]:
    """Split along axis 0.

    Args:
        ary: an array of at least one dimension.
        indices_or_sections: the number of equal sections, or a sequence of split points.

    Returns:
        A list of arrays of ary's dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> [p.tolist() for p in pnp.vsplit(pnp.array([[1, 2], [3, 4]]), 2)]
        [[[1, 2]], [[3, 4]]]
    """
    return split(ary, indices_or_sections, 0)


def dsplit(ary: Any, indices_or_sections: Any) -> list[Any]:
    """Split along axis 2.

    Args:
        ary: an array of at least three dimensions.
        indices_or_sections: the number of equal sections, or a sequence of split points.

    Returns:
        A list of arrays of ary's dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> [p.shape for p in pnp.dsplit(pnp.zeros((1, 2, 4)), 2)]
        [(1, 2, 2), (1, 2, 2)]
    """
    return split(ary, indices_or_sections, 2)


def rot90(m: Any, k: builtins.int = 1, axes: tuple[builtins.int, builtins.int] = (0, 1)) -> Any:
    """Rotate by 90 degrees k times in the plane of `axes` (from the first towards the second).

    Args:
        m: an array of at least two dimensions.
        k: the number of quarter turns (negative turns the other way).
        axes: the two (different) axes of the plane.

    Returns:
        An array of m's dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.rot90(pnp.array([[1, 2], [3, 4]])).tolist()
        [[2, 4], [1, 3]]
    """
    m = to_array(m)
    k = static_int("rot90", k, "k") % 4
    a0, a1 = (canonicalize_axis("rot90", a, m.aval.ndim) for a in axes)
    if a0 == a1:
        raise op_value_error("rot90", "axes must differ")
    if k == 0:
        return m
    if k == 2:
        return flip(m, axis=(a0, a1))
    if k == 1:
        return swapaxes(flip(m, axis=a1), a0, a1)
    return flip(swapaxes(m, a0, a1), axis=a1)


def append(arr: Any, values: Any, axis: builtins.int | None = None) -> Any:
    """arr with `values` appended (both flattened when axis is None).

    Args:
        arr: an array or array-like.
        values: what to append; of arr's shape except along `axis`.
        axis: the axis to append along (None: flatten both first).

    Returns:
        An array in the promoted dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.append(pnp.array([1, 2]), pnp.array([[3, 4]])).tolist()
        [1, 2, 3, 4]
        >>> pnp.append(pnp.array([[1, 2]]), pnp.array([[3, 4]]), axis=0).tolist()
        [[1, 2], [3, 4]]
    """
    if axis is None:
        return concat([ravel(arr), ravel(values)], axis=0)
    return concat([arr, values], axis=axis)


# ---- pad ----------------------------------------------------------------------------------------

_PAD_OPTIONS = {"constant": ("constant_values",), "edge": (), "linear_ramp": ("end_values",),
                "maximum": ("stat_length",), "mean": ("stat_length",), "median": ("stat_length",),
                "minimum": ("stat_length",), "reflect": ("reflect_type",), "symmetric": ("reflect_type",),
                "wrap": (), "empty": ()}


def _pairs(op: str, v: Any, nd: builtins.int, what: str, as_index: builtins.bool = False) -> list:
    """An argument given per axis and side, as nd (before, after) pairs (numpy's rules): one
    value for everything, one (before, after) pair for every axis, or anything that
    broadcasts to (nd, 2). Host values become Python/NumPy scalars; a padax array of
    several values becomes 0-d slices."""
    if v is None:
        return [(None, None)] * nd
    if isinstance(v, Tracer) or (is_array(v) and not isinstance(v, np.ndarray)):
        t = to_array(v)
        if t.aval.ndim == 0:
            return [(t, t)] * nd
        if t.aval.size == 2 and t.aval.shape != (2, 1):
            t = lax.reshape(t, (1, 2))
        try:
            t = _bcast(t, (nd, 2))
        except (ValueError, TypeError):
            raise op_value_error(op, f"{what} must broadcast to ({nd}, 2), got {t.aval.str_short()}") from None
        return [tuple(lax.reshape(lax.slice(t, (i, j), (i + 1, j + 1)), ()) for j in (0, 1)) for i in builtins.range(nd)]
    a = np.asarray(v)
    if as_index:
        if a.dtype.kind in "fb":  # numpy rounds lengths given as floats
            a = np.round(a).astype(np.int64)
        if a.dtype.kind not in "iu":
            raise op_type_error(op, f"{what} must be integers, got {a.dtype.name} values {v!r}")
        if a.size and a.min() < 0:
            raise op_value_error(op, f"{what} must be non-negative, got {v!r}")
    if a.ndim < 3 and a.size == 1:
        x = a.reshape(-1)[0]
        return [(x, x)] * nd
    if a.ndim < 3 and a.size == 2 and a.shape != (2, 1):
        x = a.reshape(-1)
        return [(x[0], x[1])] * nd
    try:
        b = np.broadcast_to(a, (nd, 2))
    except ValueError:
        raise op_value_error(op, f"{what} must broadcast to ({nd}, 2), got shape {a.shape}") from None
    return [tuple(pair) for pair in b.tolist()]   # Python scalars here (numpy's tolist), as numpy


def _value(v: Any, dt: np.dtype) -> Any:
    """A pad value (host scalar or 0-d array) as a 0-d array of dtype dt (cast as numpy assigns)."""
    if isinstance(v, Tracer) or is_array(v) and not isinstance(v, (np.ndarray, np.generic)):
        t = to_array(v)
        return t if t.aval.dtype == dt else lax.convert_element_type(t, dt)
    return to_array(np.asarray(v).astype(dt), dt)


def _slice_ax(x: Any, start: builtins.int, stop: builtins.int, ax: builtins.int) -> Any:
    return lax.slice_in_dim(x, start, stop, 1, ax)


def _fill_like(x: Any, value: Any, ax: builtins.int, width: builtins.int) -> Any:
    """`value` (0-d, or x's shape with length 1 along ax) broadcast to a width-`width` block."""
    shape = x.aval.shape[:ax] + (width,) + x.aval.shape[ax + 1:]
    if value.aval.ndim == 0:
        return lax.broadcast_in_dim(value, shape, ())
    return lax.broadcast_in_dim(lax.reshape(value, tuple(d for i, d in builtins.enumerate(value.aval.shape) if i != ax)),
                                shape, tuple(i for i in builtins.range(len(shape)) if i != ax))


def _concat_sides(x: Any, left: Any, right: Any, ax: builtins.int) -> Any:
    parts = [p for p in (left, x, right) if p is not None and p.aval.shape[ax] > 0]
    return parts[0] if len(parts) == 1 else lax.concatenate(parts, ax)


def _pad_reflect_odd(x: Any, ax: builtins.int, lo: builtins.int, hi: builtins.int, include_edge: builtins.bool) -> Any:
    """numpy's 'reflect'/'symmetric' with reflect_type='odd', step by step as numpy fills the
    pad area (chunks of at most one period, each 2 * edge - mirrored values), so values
    and rounding agree."""
    dt = x.aval.dtype
    work = D.int32 if dt == D.bool_ else dt

    def odd(edge, chunk):  # 2 * edge - chunk, in the array's dtype (bool: through int32)
        e, c = (lax.convert_element_type(t, work) if work != dt else t for t in (edge, chunk))
        e = _fill_like(c, e, ax, c.aval.shape[ax])
        out = lax.sub(lax.add(e, e), c)
        return lax.ne(out, full_like_shape(out.aval.shape, 0, work)) if dt == D.bool_ else out

    period = x.aval.shape[ax]
    cur = x
    while lo > 0 or hi > 0:
        n = cur.aval.shape[ax]
        if include_edge:
            old = n // period * period
            off = 1
        else:
            old = (n - 1) // (period - 1) * (period - 1) + 1 - 1
            off = 0
        if lo > 0:
            cl = builtins.min(old, lo)
            chunk = lax.rev(_slice_ax(cur, 1 - off, cl + 1 - off, ax), (ax,))
            cur = _concat_sides(cur, odd(_slice_ax(cur, 0, 1, ax), chunk), None, ax)
            lo -= cl
        if hi > 0:
            cl = builtins.min(old, hi)
            m = cur.aval.shape[ax]
            chunk = lax.rev(_slice_ax(cur, m - cl - (1 - off), m - (1 - off), ax), (ax,))
            cur = _concat_sides(cur, None, odd(_slice_ax(cur, m - 1, m, ax), chunk), ax)
            hi -= cl
    return cur


def _float_to(y: Any, dt: np.dtype) -> Any:
    """Floating values into dt as numpy's casts store them: integers through a wide signed
    integer (so negative values wrap into unsigned types), bool as y != 0."""
    if y.aval.dtype == dt:
        return y
    if D.kind(dt) == 1 and np.dtype(dt).kind == "u":
        wide = D.int64 if D.default_int() == D.int64 else D.int32
        y = lax.convert_element_type(y, wide)
    return lax.convert_element_type(y, dt)


def _ramp_dtype(dt: np.dtype, end: Any) -> np.dtype:
    """numpy's linspace evaluates in the inexact result type of the edge and the end value: a
    Python scalar is weak (end values given per axis reach it as Python numbers), a NumPy
    scalar (one value or one pair for all axes) is not. Narrowed to what padax has (x64)."""
    if type(end) in (builtins.bool, builtins.int, builtins.float, builtins.complex):  # not np.float64
        r = np.result_type(dt, type(end)(0)) if np.dtype(dt).kind in "fc" or isinstance(end, builtins.complex) \
            else np.dtype(np.float64)
        if np.dtype(dt).kind in "fc" and not isinstance(end, builtins.complex):
            r = np.dtype(dt)
    else:
        ed = to_array(end).aval.dtype if isinstance(end, Tracer) or (is_array(end) and not isinstance(
            end, (np.ndarray, np.generic))) else np.asarray(end).dtype
        r = np.result_type(dt, ed)
    if r.kind in "biu":
        r = np.dtype(np.float64)
    return _core_dtypes.canonicalize_dtype(r)


def _pad_linear_ramp(x: Any, ax: builtins.int, lo: builtins.int, hi: builtins.int, ends: tuple) -> Any:
    """Ramps from the end values (included) towards the edge values (excluded), evaluated as
    numpy's linspace does: start + k * ((edge - start) / width), or (k / width) * (edge -
    start) when any step is zero; integer arrays are floored, all cast to x's dtype."""
    dt = x.aval.dtype
    n = x.aval.shape[ax]
    sides = []
    for width, end, edge in ((lo, ends[0], _slice_ax(x, 0, 1, ax)), (hi, ends[1], _slice_ax(x, n - 1, n, ax))):
        if width == 0:
            sides.append(None)
            continue
        cdt = _ramp_dtype(dt, end)
        start = _fill_like(edge, _value(end, cdt), ax, 1)
        e = lax.convert_element_type(edge, cdt) if cdt != dt else edge
        delta = lax.sub(e, start)
        k_shape = edge.aval.shape[:ax] + (width,) + edge.aval.shape[ax + 1:]
        k = lax.convert_element_type(lax.broadcasted_iota(D.int32, k_shape, ax), cdt)
        step = lax.div(delta, full_like_shape(delta.aval.shape, width, cdt))
        zero = lax.reduce_or(lax.eq(step, full_like_shape(step.aval.shape, 0, cdt)),
                             tuple(builtins.range(step.aval.ndim)))
        wide = lambda v: _fill_like(k, v, ax, width)  # noqa: E731
        regular = lax.mul(k, wide(step))
        tiny = lax.mul(lax.div(k, full_like_shape(k_shape, width, cdt)), wide(delta))
        y = lax.add(lax.select(lax.broadcast_in_dim(zero, k_shape, ()), tiny, regular), wide(start))
        if D.kind(dt) == 1:
            y = lax.floor(y)
        sides.append(_float_to(y, dt))
    right = lax.rev(sides[1], (ax,)) if sides[1] is not None else None
    return _concat_sides(x, sides[0], right, ax)


def _stat(mode: str, chunk: Any, ax: builtins.int, dt: np.dtype) -> Any:
    """maximum/minimum/mean/median of `chunk` along ax (kept as length 1), in dt; the mean and
    median of integers are computed in floating point and rounded half to even, as numpy does."""
    if mode == "maximum":
        return lax.reduce_max(chunk, (ax,))
    if mode == "minimum":
        return lax.reduce_min(chunk, (ax,))
    cdt = dt if D.kind(dt) >= 2 else D.default_float()
    c = chunk if chunk.aval.dtype == cdt else lax.convert_element_type(chunk, cdt)
    length = c.aval.shape[ax]
    if mode == "mean":
        tot = lax.reduce_sum(c, (ax,))
        out = lax.div(tot, full_like_shape(tot.aval.shape, length, cdt))
    else:
        srt = lax.sort(c, ax, True, 1)
        hi_ = lax.reshape(_slice_ax(srt, length // 2, length // 2 + 1, ax),
                          tuple(d for i, d in builtins.enumerate(c.aval.shape) if i != ax))
        if length % 2:
            out = hi_
        else:
            lo_ = lax.reshape(_slice_ax(srt, length // 2 - 1, length // 2, ax), hi_.aval.shape)
            out = lax.div(lax.add(lo_, hi_), full_like_shape(hi_.aval.shape, 2, cdt))
        if D.kind(cdt) == 2:  # any NaN makes the median NaN (sorted last)
            last = lax.reshape(_slice_ax(srt, length - 1, length, ax), hi_.aval.shape)
            out = lax.select(lax.ne(last, last), last, out)
    if D.kind(dt) == 1:
        out = lax.round(out, 1)
    return _float_to(out, dt)


def _pad_stat(x: Any, ax: builtins.int, lo: builtins.int, hi: builtins.int, mode: str, lengths: tuple) -> Any:
    n = x.aval.shape[ax]
    ll, rl = (n if (v is None or builtins.int(v) > n) else builtins.int(v) for v in lengths)
    if (ll == 0 or rl == 0) and mode in ("maximum", "minimum"):
        raise op_value_error("pad", "stat_length of 0 yields no value for padding")
    dt = x.aval.dtype
    left = _stat(mode, _slice_ax(x, 0, ll, ax), ax, dt)
    right = left if ll == rl == n else _stat(mode, _slice_ax(x, n - rl, n, ax), ax, dt)
    shape1 = x.aval.shape[:ax] + (1,) + x.aval.shape[ax + 1:]
    left, right = lax.reshape(left, shape1), lax.reshape(right, shape1)
    return _concat_sides(x, _fill_like(x, left, ax, lo) if lo else None, _fill_like(x, right, ax, hi) if hi else None, ax)


def _pad_callable(x: Any, widths: list, fn, kwargs: dict) -> Any:
    """mode=callable: zero-pad everything, then for each axis in turn call
    fn(row, (before, after), axis, kwargs) on every 1-D row along that axis (vmapped) and use
    what it returns as the new row; a fn that returns None wrote into the row as numpy's in-place
    convention does (`row[:2] = ...` rebinds the row, padax/functional/inplace.py), so the row is used."""
    nd = x.aval.ndim
    padded = lax.pad(x, full_like_shape((), 0, x.aval.dtype), [(lo, hi, 0) for lo, hi in widths])
    for ax in builtins.range(nd):
        moved = moveaxis(padded, ax, -1)
        length = moved.aval.shape[-1]
        rows = lax.reshape(moved, (builtins.int(np.prod(moved.aval.shape[:-1], dtype=np.int64)), length))
        pw = (builtins.int(widths[ax][0]), builtins.int(widths[ax][1]))

        def row_fn(r, pw=pw, ax=ax):
            out = fn(r, pw, ax, kwargs)
            if out is None:
                out = r  # numpy's convention: fn updated the row in place
            out = to_array(out)
            if out.aval.shape != (length,):
                raise op_value_error("pad", f"the callable mode returned {out.aval.str_short()} for a row of "
                                            f"length {length}")
            return out if out.aval.dtype == x.aval.dtype else lax.convert_element_type(out, x.aval.dtype)

        new = vmap(row_fn)(rows) if rows.aval.shape[0] else rows
        padded = moveaxis(lax.reshape(new, moved.aval.shape), -1, ax)
    return padded


_DEFAULT_CV = object()


def pad(array: Any, pad_width: Any, mode: Any = "constant", constant_values: Any = _DEFAULT_CV,
        **kwargs: Any) -> Any:
    """Pad an array, with numpy's modes and options (pad_width and the per-axis options take
    numpy's forms: one value, one (before, after) pair, or one pair per axis):

    'constant' (`constant_values`), 'edge', 'linear_ramp' (`end_values`), 'maximum', 'mean',
    'median', 'minimum' (`stat_length`: how many values at each end the statistic uses,
    default all), 'reflect' and 'symmetric' (`reflect_type` 'even' or 'odd'), 'wrap',
    'empty' (padax fills zeros: its arrays are never uninitialised), or a function
    `fn(row, (before, after), axis, kwargs) -> row` applied to every zero-padded 1-D row
    along each axis in turn (it must return the new row; numpy's functions modify the row
    in place). Axes are padded in order, each over the earlier axes' padding, as numpy does.
    Mean/median of integer arrays round half to even.

    Args:
        array: an array or array-like.
        pad_width: how many values to add before and after each axis (see above).
        mode: one of the mode names above, or a function.
        constant_values: the fill values of mode 'constant' (default 0).
        kwargs: the options of the mode: end_values, stat_length or reflect_type (or those of a function mode).

    Returns:
        An array of array's dtype, each axis longer by its two widths.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.pad(pnp.array([1, 2]), (1, 2)).tolist()
        [0, 1, 2, 0, 0]
        >>> pnp.pad(pnp.array([1, 2, 3]), 2, mode="reflect").tolist()
        [3, 2, 1, 2, 3, 2, 1]
    """
    x = to_array(array)
    nd = x.aval.ndim
    if not np.asarray(pad_width).dtype.kind in "iu":
        raise op_type_error("pad", f"pad_width must be integers, got {pad_width!r}")
    widths = [(static_int("pad", a, "pad_width"), static_int("pad", b, "pad_width")) for a, b in _pairs("pad", pad_width, nd, "pad_width", as_index=True)]
    if callable(mode):
        return _pad_callable(x, widths, mode, dict(kwargs, constant_values=constant_values)
                             if constant_values is not _DEFAULT_CV else kwargs)
    if mode not in _PAD_OPTIONS:
        raise op_value_error("pad", f"mode {mode!r} is not supported; use one of {', '.join(_PAD_OPTIONS)} "
                                    f"or a function")
    given = set(kwargs) | ({"constant_values"} if constant_values is not _DEFAULT_CV else set())
    bad = given - set(_PAD_OPTIONS[mode])
    if bad:
        raise op_value_error("pad", f"unsupported keyword arguments for mode {mode!r}: {sorted(bad)}")
    dt = x.aval.dtype
    if mode in ("constant", "empty"):
        cv = 0 if (mode == "empty" or constant_values is _DEFAULT_CV) else constant_values
        pairs = _pairs("pad", cv, nd, "constant_values")
        if nd and builtins.all(p is pairs[0][0] for pr in pairs for p in pr):
            return lax.pad(x, _value(pairs[0][0], dt), [(lo, hi, 0) for lo, hi in widths])
        for ax, ((lo, hi), (vl, vr)) in builtins.enumerate(zip(widths, pairs)):
            for side, (w, v) in builtins.enumerate(((lo, vl), (hi, vr))):
                if w:
                    cfg = [(0, 0, 0)] * nd
                    cfg[ax] = (w, 0, 0) if side == 0 else (0, w, 0)
                    x = lax.pad(x, _value(v, dt), cfg)
        return x
    for ax, (lo, hi) in builtins.enumerate(widths):
        if x.aval.shape[ax] == 0 and (lo or hi):
            raise op_value_error("pad", f"can't extend empty axis {ax} using modes other than 'constant' or "
                                        f"'empty' (got {x.aval.str_short()}, mode {mode!r})")
    if x.aval.size == 0:  # nothing to read: the result is empty too
        return lax.pad(x, full_like_shape((), 0, dt), [(lo, hi, 0) for lo, hi in widths])
    reflect_type = kwargs.get("reflect_type", "even")
    if reflect_type not in ("even", "odd"):
        raise op_value_error("pad", f"reflect_type must be 'even' or 'odd', got {reflect_type!r}")
    ends = _pairs("pad", kwargs.get("end_values", 0), nd, "end_values")
    lengths = _pairs("pad", kwargs.get("stat_length"), nd, "stat_length", as_index=True)
    for ax, (lo, hi) in builtins.enumerate(widths):
        if lo == 0 and hi == 0:
            continue
        n = x.aval.shape[ax]
        if mode == "linear_ramp":
            x = _pad_linear_ramp(x, ax, lo, hi, ends[ax])
        elif mode in ("maximum", "minimum", "mean", "median"):
            x = _pad_stat(x, ax, lo, hi, mode, lengths[ax])
        elif mode in ("reflect", "symmetric") and reflect_type == "odd" and n > 1:
            x = _pad_reflect_odd(x, ax, lo, hi, mode == "symmetric")
        else:  # edge, wrap, even reflections (and a length-1 axis): pure index maps
            idx = np.pad(np.arange(n), (lo, hi), mode="edge" if n == 1 else mode)
            x = take(x, to_array(idx.astype(np.int32)), axis=ax)
    return x


__all__ = ["broadcast_to", "broadcast_arrays", "broadcast_shapes", "concat", "concatenate", "stack", "unstack",
           "expand_dims", "squeeze", "flip", "flipud", "fliplr", "moveaxis", "permute_dims", "transpose",
           "matrix_transpose", "swapaxes", "reshape", "ravel", "roll", "tile", "repeat", "atleast_1d",
           "atleast_2d", "atleast_3d", "vstack", "row_stack", "hstack", "dstack", "column_stack", "split",
           "array_split", "hsplit", "vsplit", "dsplit", "rot90", "append", "pad"]
