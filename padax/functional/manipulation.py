"""Paddle's shape manipulation: reshape, transpose, (un)squeeze, flatten, concat, stack,
split, expand/broadcast_to, tile, flip, roll, rot90, moveaxis, slice, strided_slice, pad,
diagonal, repeat_interleave, as_real/as_complex.

Shapes and axes must be static (Python ints or concrete Tensors); every
function here is one or a few lax structural ops.
"""
from __future__ import annotations

import builtins
import math as _pymath
from typing import Any, Sequence

import numpy as np

from padax.core import dtypes
from padax.core.errors import op_type_error, op_value_error
from padax.core.trace import Tracer
from padax.functional import (
    creation as _creation,
    indexed as _indexed,
    indexing as _indexing,
    lax_api as lax,
    math as _math,
    search as _search,
)
from padax.functional._arrays import (
    asarray,
    broadcast_shapes as broadcast_shapes_,
    broadcast_to as _broadcast_to,
    canonicalize_axis,
    full,
    is_array,
    static_int,
)
from padax.functional._checks import arg as _arg, write_out
from padax.functional._fast import twin
from padax.runtime.array import Tensor


def _static_int(op: str, v: Any, what: str) -> int:
    return static_int(op, v, what)


def _int_list(op: str, v: Any, what: str) -> list[int]:
    """An int, a list/tuple of ints (or 0-d Tensors), or a 1-D Tensor, as a list of ints."""
    if isinstance(v, Tracer):
        _static_int(op, v, what)
    if is_array(v):
        if not dtypes.is_integer(v.aval.dtype):
            raise op_type_error(op, f"{what} must hold integers, got a Tensor {v.aval.str_short()}")
        return [int(a) for a in np.asarray(v).reshape(-1)]
    if isinstance(v, (list, tuple)):
        return [_static_int(op, a, what) for a in v]
    return [_static_int(op, v, what)]


def reshape(x: Any, shape: Any, name: str | None = None) -> Any:
    """Reshape (row-major); one entry may be -1 (inferred) and 0 copies x's size on that axis.

    Args:
        x: the Tensor to reshape.
        shape: the new shape: a list/tuple of ints (or 0-d Tensors) or a 1-D integer Tensor; static.

    Returns:
        A Tensor of `shape` with x's elements and dtype.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([1, 2, 3, 4, 5, 6])
        >>> padax.reshape(x, [2, 3]).tolist()
        [[1, 2, 3], [4, 5, 6]]
        >>> padax.reshape(x, [-1, 2]).shape
        (3, 2)
    """
    if type(x) is Tensor and name is None:
        return reshape_tensor(x, shape)
    return _reshape(x, shape)


def _reshape(x: Any, shape: Any) -> Any:
    x = _arg("reshape", x, "x")
    xs = x.aval.shape
    shape = _int_list("reshape", shape, "shape")
    out = []
    for i, d in enumerate(shape):
        if d == 0:
            if i >= len(xs):
                raise op_value_error("reshape", f"shape {shape} has 0 (copy the input size) at position {i}, "
                                                f"but the input {x.aval.str_short()} has only {len(xs)} axes")
            d = xs[i]
        out.append(d)
    if out.count(-1) > 1:
        raise op_value_error("reshape", f"shape {shape} may contain at most one -1")
    if any(d < -1 for d in out):
        raise op_value_error("reshape", f"shape {shape} has a negative size")
    if -1 in out:
        known = _pymath.prod(d for d in out if d != -1)
        if known == 0 or x.aval.size % known:
            raise op_value_error("reshape", f"cannot reshape {x.aval.str_short()} ({x.aval.size} elements) "
                                            f"to shape {shape}")
        out[out.index(-1)] = x.aval.size // known
    if _pymath.prod(out) != x.aval.size:
        raise op_value_error("reshape", f"cannot reshape {x.aval.str_short()} ({x.aval.size} elements) to "
                                        f"shape {shape}")
    return lax.reshape(x, tuple(out))


_reshape_twin = twin(_reshape, "reshape", static_argnums=(1,))


def reshape_tensor(x: Any, shape: Any) -> Any:
    """reshape of a Tensor: a shape of Python ints goes to reshape's compiled twin (padax/functional/_fast.py)."""
    if type(shape) is tuple or type(shape) is list:
        for d in shape:
            if type(d) is not int:
                break
        else:
            return _reshape_twin.call(x, tuple(shape))
    return _reshape(x, shape)


def transpose(x: Any, perm: Sequence[int], name: str | None = None) -> Any:
    """Permute the axes: output axis i is input axis perm[i].

    Args:
        x: the input Tensor.
        perm: a permutation of x's axes (negative axes allowed), one entry per axis.

    Returns:
        A Tensor of x's dtype with shape [x.shape[p] for p in perm].

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1, 2, 3], [4, 5, 6]])
        >>> padax.transpose(x, perm=[1, 0]).tolist()
        [[1, 4], [2, 5], [3, 6]]
    """
    x = _arg("transpose", x, "x")
    nd = x.aval.ndim
    perm = _int_list("transpose", perm, "perm")
    if len(perm) != nd:
        raise op_value_error("transpose", f"perm {perm} must have one entry per axis of {x.aval.str_short()}")
    p = [canonicalize_axis("transpose", a, nd) for a in perm]
    if sorted(p) != list(builtins.range(nd)):
        raise op_value_error("transpose", f"perm {perm} is not a permutation of the axes of {x.aval.str_short()}")
    return lax.transpose(x, tuple(p))


def moveaxis(x: Any, source: Any, destination: Any, name: str | None = None) -> Any:
    """Move axes `source` to positions `destination`, keeping the others in order.

    Args:
        x: the input Tensor.
        source: an axis or a list of axes to move.
        destination: their new positions (same length as `source`).

    Returns:
        A Tensor of x's dtype with the axes permuted.

    Examples:
        >>> import padax
        >>> padax.moveaxis(padax.zeros([2, 3, 4]), 0, -1).shape
        (3, 4, 2)
    """
    x = _arg("moveaxis", x, "x")
    nd = x.aval.ndim
    if nd == 0 and (_int_list("moveaxis", source, "source") or _int_list("moveaxis", destination, "destination")):
        raise op_value_error("moveaxis", f"x {x.aval.str_short()} is 0-d: it has no axis to move")
    src = [canonicalize_axis("moveaxis", a, nd) for a in _int_list("moveaxis", source, "source")]
    dst = [canonicalize_axis("moveaxis", a, nd) for a in _int_list("moveaxis", destination, "destination")]
    if len(src) != len(dst):
        raise op_value_error("moveaxis", f"source {source} and destination {destination} differ in length")
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise op_value_error("moveaxis", f"repeated axis in source {source} or destination {destination}")
    rest = [i for i in builtins.range(nd) if i not in src]
    perm = [None] * nd
    for s, d in zip(src, dst):
        perm[d] = s
    it = iter(rest)
    perm = [p if p is not None else next(it) for p in perm]
    return lax.transpose(x, tuple(perm))


def unsqueeze(x: Any, axis: Any, name: str | None = None) -> Any:
    """Insert size-1 axes; with a list, each is inserted in turn into the growing shape.

    Args:
        x: the input Tensor.
        axis: an int, a list of ints or a 1-D integer Tensor; negative axes count in the grown shape.

    Returns:
        x reshaped with the new size-1 axes (same dtype).

    Examples:
        >>> import padax
        >>> padax.unsqueeze(padax.zeros([2, 3]), axis=[0, 3]).shape
        (1, 2, 3, 1)
    """
    x = _arg("unsqueeze", x, "x")
    shape = list(x.aval.shape)
    for a in _int_list("unsqueeze", axis, "axis"):
        n = len(shape)
        if not -(n + 1) <= a <= n:
            raise op_value_error("unsqueeze", f"axis {a} is out of range for inserting into an array of rank {n}")
        shape.insert(a + n + 1 if a < 0 else a, 1)
    return lax.reshape(x, tuple(shape))


def squeeze(x: Any, axis: Any = None, name: str | None = None) -> Any:
    """Remove size-1 axes: all of them, or those of `axis` (axes whose size is not 1 are kept).

    Args:
        x: the input Tensor.
        axis: an int or list of axes to remove; None (default) or an empty list removes every size-1 axis.

    Returns:
        x reshaped without those axes (same dtype).

    Examples:
        >>> import padax
        >>> padax.squeeze(padax.zeros([1, 2, 1, 3])).shape
        (2, 3)
        >>> padax.squeeze(padax.zeros([1, 2, 1, 3]), axis=0).shape
        (2, 1, 3)
    """
    x = _arg("squeeze", x, "x")
    nd = x.aval.ndim
    if axis is None or (isinstance(axis, (list, tuple)) and len(axis) == 0):  # Paddle: an empty list squeezes all
        dims = [i for i, d in enumerate(x.aval.shape) if d == 1]
    else:
        axes = _int_list("squeeze", axis, "axis")
        if nd == 0:
            for a in axes:
                canonicalize_axis("squeeze", a, 0)
            return x
        dims = sorted({canonicalize_axis("squeeze", a, nd) for a in axes})
        dims = [a for a in dims if x.aval.shape[a] == 1]
    if not dims:
        return x
    return lax.reshape(x, tuple(d for i, d in enumerate(x.aval.shape) if i not in dims))


def flatten(x: Any, start_axis: int = 0, stop_axis: int = -1, name: str | None = None) -> Any:
    """Merge axes start_axis..stop_axis (inclusive) into one; a 0-d input becomes shape [1].

    Args:
        x: the input Tensor.
        start_axis, stop_axis: the first and last axes to merge (negative values count from the end).

    Returns:
        A Tensor of x's dtype with axes start_axis..stop_axis merged.

    Examples:
        >>> import padax
        >>> padax.flatten(padax.zeros([2, 3, 4])).shape
        (24,)
        >>> padax.flatten(padax.zeros([2, 3, 4]), start_axis=1).shape
        (2, 12)
    """
    x = _arg("flatten", x, "x")
    nd = x.aval.ndim
    if nd == 0:
        return lax.reshape(x, (1,))
    s = canonicalize_axis("flatten", start_axis, nd)
    e = canonicalize_axis("flatten", stop_axis, nd)
    if s > e:
        raise op_value_error("flatten", f"start_axis {start_axis} must not come after stop_axis {stop_axis} "
                                        f"for {x.aval.str_short()}")
    xs = x.aval.shape
    return lax.reshape(x, xs[:s] + (_pymath.prod(xs[s:e + 1]),) + xs[e + 1:])


def _promote_list(op: str, xs: Sequence[Any]) -> list[Any]:
    if is_array(xs) or not isinstance(xs, (list, tuple)):
        raise op_type_error(op, f"expected a list or tuple of Tensors, got {type(xs).__name__}")
    if len(xs) == 0:
        raise op_value_error(op, "needs at least one Tensor")
    arrs = [asarray(a) for a in xs]
    dt = dtypes.promote_types(*(a.aval.dtype for a in arrs))
    return [lax.convert_element_type(a, dt) for a in arrs]


def concat(x: Sequence[Any], axis: Any = 0, name: str | None = None, *, out: Any = None) -> Any:
    """Join Tensors along an existing axis (dtypes are promoted).

    Args:
        x: a non-empty list or tuple of Tensors of equal rank (>= 1), same shape except on `axis`.
        axis: the axis to join along (int or 0-d Tensor; negative counts from the end).
        out: not supported (padax arrays are immutable); must be None.

    Returns:
        One Tensor of the promoted dtype.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1, 2, 3], [4, 5, 6]])
        >>> padax.concat([x, x], axis=0).shape
        (4, 3)
        >>> padax.concat([x, x], axis=1).tolist()
        [[1, 2, 3, 1, 2, 3], [4, 5, 6, 4, 5, 6]]
    """
    if out is not None:
        return write_out(out, concat(x=x, axis=axis, name=name), "concat")
    arrs = _promote_list("concat", x)
    nd = arrs[0].aval.ndim
    if nd == 0:
        raise op_value_error("concat", "cannot concatenate 0-d Tensors; use stack")
    a = canonicalize_axis("concat", _static_int("concat", axis, "axis"), nd)
    ref = arrs[0].aval.shape
    for t in arrs[1:]:
        s = t.aval.shape
        if len(s) != nd or any(p != q for i, (p, q) in enumerate(zip(s, ref)) if i != a):
            raise op_value_error("concat", "all inputs must have the same shape except on axis "
                                           f"{a}, got {', '.join(str(list(t.aval.shape)) for t in arrs)}")
    return lax.concatenate(arrs, a)


def stack(x: Sequence[Any], axis: int = 0, name: str | None = None, *, out: Any = None) -> Any:
    """Join equal-shaped Tensors along a new axis.

    Args:
        x: a non-empty list or tuple of Tensors of the same shape.
        axis: where the new axis goes in the result (negative counts from the end).
        out: not supported (padax arrays are immutable); must be None.

    Returns:
        One Tensor of the promoted dtype with a new axis of size len(x).

    Examples:
        >>> import padax
        >>> a, b = padax.to_tensor([1, 2]), padax.to_tensor([3, 4])
        >>> padax.stack([a, b]).tolist()
        [[1, 2], [3, 4]]
        >>> padax.stack([a, b], axis=1).tolist()
        [[1, 3], [2, 4]]
    """
    if out is not None:
        return write_out(out, stack(x=x, axis=axis, name=name), "stack")
    arrs = _promote_list("stack", x)
    ref = arrs[0].aval.shape
    if any(t.aval.shape != ref for t in arrs[1:]):
        raise op_value_error("stack", "all inputs must have the same shape, got "
                                      + ", ".join(str(list(t.aval.shape)) for t in arrs))
    nd = len(ref) + 1
    a = canonicalize_axis("stack", _static_int("stack", axis, "axis"), nd)
    new = ref[:a] + (1,) + ref[a:]
    return lax.concatenate([lax.reshape(t, new) for t in arrs], a)


def split(x: Any, num_or_sections: Any, axis: Any = 0, name: str | None = None) -> list[Any]:
    """Split along `axis` into equal parts (an int) or parts of given sizes (a list; one may be -1).

    Args:
        x: the input Tensor (at least 1-D).
        num_or_sections: an int number of equal parts, or a list/1-D Tensor of part sizes (one may be -1).
        axis: the axis to split (int or 0-d Tensor).

    Returns:
        A list of Tensors of x's dtype.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([1, 2, 3, 4, 5, 6])
        >>> [t.tolist() for t in padax.split(x, 3)]
        [[1, 2], [3, 4], [5, 6]]
        >>> [t.tolist() for t in padax.split(x, [1, -1])]
        [[1], [2, 3, 4, 5, 6]]
    """
    x = _arg("split", x, "x")
    nd = x.aval.ndim
    if nd == 0:
        raise op_value_error("split", "cannot split a 0-d Tensor")
    a = canonicalize_axis("split", _static_int("split", axis, "axis"), nd)
    n = x.aval.shape[a]
    if isinstance(num_or_sections, (list, tuple)) or (is_array(num_or_sections) and num_or_sections.ndim == 1):
        sizes = _int_list("split", num_or_sections, "sections")
        if sizes.count(-1) > 1:
            raise op_value_error("split", f"sections {sizes} may contain at most one -1")
        if -1 in sizes:
            rest = n - builtins.sum(s for s in sizes if s != -1)
            if rest < 0:
                raise op_value_error("split", f"sections {sizes} exceed the size {n} of axis {a}")
            sizes[sizes.index(-1)] = rest
        if builtins.sum(sizes) != n or any(s < 0 for s in sizes):
            raise op_value_error("split", f"sections {list(num_or_sections)} do not add up to the size {n} "
                                          f"of axis {a} of {x.aval.str_short()}")
    else:
        k = _static_int("split", num_or_sections, "num_or_sections")
        if k <= 0 or n % k:
            raise op_value_error("split", f"axis {a} of size {n} ({x.aval.str_short()}) cannot be split "
                                          f"into {k} equal parts")
        sizes = [n // k] * k
    out, start = [], 0
    for s in sizes:
        out.append(lax.slice_in_dim(x, start, start + s, 1, a))
        start += s
    return out


def chunk(x: Any, chunks: int, axis: Any = 0, name: str | None = None) -> list[Any]:
    """Split into `chunks` equal parts along `axis`.

    Args:
        x: the input Tensor.
        chunks: the number of parts; it must divide the size of `axis`.
        axis: the axis to split.

    Returns:
        A list of `chunks` Tensors of x's dtype.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([1, 2, 3, 4, 5, 6])
        >>> [t.tolist() for t in padax.chunk(x, 2)]
        [[1, 2, 3], [4, 5, 6]]
    """
    return split(x, chunks, axis)


def unbind(input: Any, axis: int = 0) -> list[Any]:
    """The slices along `axis`, each without that axis.

    Args:
        input: the input Tensor (at least 1-D).
        axis: the axis to unpack.

    Returns:
        A list of input.shape[axis] Tensors of input's dtype.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1, 2, 3], [4, 5, 6]])
        >>> [t.tolist() for t in padax.unbind(x, axis=1)]
        [[1, 4], [2, 5], [3, 6]]
    """
    x = asarray(input)
    if x.aval.ndim == 0:
        raise op_value_error("unbind", f"x must have at least one dimension to split along, got {x.aval.str_short()}")
    a = canonicalize_axis("unbind", axis, x.aval.ndim)
    shape = x.aval.shape[:a] + x.aval.shape[a + 1:]
    return [lax.reshape(lax.slice_in_dim(x, i, i + 1, 1, a), shape) for i in builtins.range(x.aval.shape[a])]


def _expand(op: str, x: Any, shape: Any) -> Any:
    x = asarray(x)
    target = _int_list(op, shape, "shape")
    xs = x.aval.shape
    if len(target) < len(xs):
        raise op_value_error(op, f"target shape {target} has fewer axes than the input {x.aval.str_short()}")
    lead = len(target) - len(xs)
    out = []
    for i, d in enumerate(target):
        if d == -1:
            if i < lead:
                raise op_value_error(op, f"-1 in target shape {target} at a new leading axis {i}")
            d = xs[i - lead]
        out.append(d)
    for i, d in enumerate(xs):
        if d != 1 and d != out[lead + i]:
            raise op_value_error(op, f"cannot broadcast {x.aval.str_short()} (shape {list(xs)}) to shape {out}")
    return _broadcast_to(x, tuple(out))


def expand(x: Any, shape: Any, name: str | None = None) -> Any:
    """Broadcast to `shape` (-1 keeps that axis of x).

    Args:
        x: the input Tensor; its size-1 axes (and new leading ones) are broadcast.
        shape: the target shape (list/tuple or 1-D Tensor); -1 keeps x's size on that axis.

    Returns:
        A Tensor of x's dtype with the target shape.

    Examples:
        >>> import padax
        >>> padax.expand(padax.to_tensor([[1], [2]]), [2, 3]).tolist()
        [[1, 1, 1], [2, 2, 2]]
    """
    return _expand("expand", x, shape)


def broadcast_to(x: Any, shape: Any, name: str | None = None) -> Any:
    """Broadcast to `shape` with numpy rules.

    Args:
        x: the input Tensor.
        shape: the target shape (list/tuple or 1-D Tensor); -1 keeps x's size on that axis.

    Returns:
        A Tensor of x's dtype with the target shape.

    Examples:
        >>> import padax
        >>> padax.broadcast_to(padax.to_tensor([1, 2, 3]), [2, 3]).tolist()
        [[1, 2, 3], [1, 2, 3]]
    """
    return _expand("broadcast_to", x, shape)


def expand_as(x: Any, y: Any, name: str | None = None) -> Any:
    """Broadcast x to y's shape.

    Args:
        x: the input Tensor.
        y: the Tensor whose shape x is broadcast to (only its shape is used).

    Returns:
        A Tensor of x's dtype with y's shape.

    Examples:
        >>> import padax
        >>> padax.expand_as(padax.to_tensor([1, 2]), padax.zeros([3, 2])).tolist()
        [[1, 2], [1, 2], [1, 2]]
    """
    return _expand("expand_as", x, asarray(y).aval.shape)


def broadcast_tensors(input: Sequence[Any], name: str | None = None) -> list[Any]:
    """Broadcast several Tensors to their common shape.

    Args:
        input: a list or tuple of Tensors with broadcast-compatible shapes.

    Returns:
        A list of Tensors, each with the common shape and its own dtype.

    Examples:
        >>> import padax
        >>> a, b = padax.broadcast_tensors([padax.zeros([2, 1]), padax.zeros([1, 3])])
        >>> a.shape, b.shape
        ((2, 3), (2, 3))
    """
    arrs = [asarray(a) for a in input]
    shape = broadcast_shapes_("broadcast_tensors", *(a.aval.shape for a in arrs))
    return [_broadcast_to(a, shape) for a in arrs]


def tile(x: Any, repeat_times: Any, name: str | None = None) -> Any:
    """Repeat x `repeat_times[i]` times along axis i (shorter lists apply to the last axes).

    Args:
        x: the input Tensor.
        repeat_times: non-negative repeat counts (list/tuple or 1-D Tensor); the shorter of x.shape and
            repeat_times is padded with leading 1s.

    Returns:
        A Tensor of x's dtype with shape x.shape[i] * repeat_times[i].

    Examples:
        >>> import padax
        >>> padax.tile(padax.to_tensor([1, 2]), [2, 2]).tolist()
        [[1, 2, 1, 2], [1, 2, 1, 2]]
    """
    x = _arg("tile", x, "x")
    reps = _int_list("tile", repeat_times, "repeat_times")
    if any(r < 0 for r in reps):
        raise op_value_error("tile", f"repeat_times {reps} must be non-negative")
    xs = x.aval.shape
    nd = builtins.max(len(reps), len(xs))
    reps = [1] * (nd - len(reps)) + reps
    xs = (1,) * (nd - len(xs)) + xs
    x = lax.reshape(x, xs)
    inter = tuple(v for r, d in zip(reps, xs) for v in (r, d))
    b = lax.broadcast_in_dim(x, inter, tuple(builtins.range(1, 2 * nd, 2)))
    return lax.reshape(b, tuple(r * d for r, d in zip(reps, xs)))


def flip(x: Any, axis: Any, name: str | None = None) -> Any:
    """Reverse the order of elements along the given axes.

    Args:
        x: the input Tensor.
        axis: an int or a list of axes to reverse.

    Returns:
        A Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1, 2, 3], [4, 5, 6]])
        >>> padax.flip(x, axis=[1]).tolist()
        [[3, 2, 1], [6, 5, 4]]
    """
    x = _arg("flip", x, "x")
    nd = x.aval.ndim
    axes = _int_list("flip", axis, "axis")
    if nd == 0:
        for a in axes:
            canonicalize_axis("flip", a, 0)
        return x
    canon = [canonicalize_axis("flip", a, nd) for a in axes]
    if len(set(canon)) != len(canon):  # as Paddle and numpy (flipping an axis twice would silently undo it)
        raise op_value_error("flip", f"repeated axis in {list(axes)} for x {x.aval.str_short()}")
    return lax.rev(x, tuple(sorted(canon)))


def _axes_list(op: str, axis: Any, nd: int) -> list[int]:
    return [canonicalize_axis(op, a, nd) for a in _int_list(op, axis, "axis")]


def roll(x: Any, shifts: Any, axis: Any = None, name: str | None = None) -> Any:
    """Rotate elements along the given axes by `shifts` (of the flattened x when axis is None); a traced
    shift is allowed (one dynamic_slice).

    Args:
        x: the input Tensor.
        shifts: an int or a list of ints (one per axis), or a traced integer Tensor; positive moves
            elements towards higher indices.
        axis: an int or list of axes; None (default) rolls the flattened x and restores its shape.

    Returns:
        A Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([1, 2, 3, 4, 5, 6])
        >>> padax.roll(x, 2).tolist()
        [5, 6, 1, 2, 3, 4]
        >>> padax.roll(padax.to_tensor([[1, 2], [3, 4]]), 1, axis=0).tolist()
        [[3, 4], [1, 2]]
    """
    x = _arg("roll", x, "x")
    shape = x.aval.shape
    if axis is None:
        flat = lax.reshape(x, (x.aval.size,))
        total = shifts
        if not isinstance(shifts, Tracer):
            sh = _int_list("roll", shifts, "shifts")
            if len(sh) != 1:
                raise op_value_error("roll", f"with axis=None, shifts must be one integer, got {sh}")
            total = sh[0]
        return lax.reshape(roll(flat, total, 0), shape)
    axes = _axes_list("roll", axis, x.aval.ndim)
    if isinstance(shifts, Tracer):
        sh = [shifts] if shifts.aval.ndim == 0 else [lax.index_in_dim(shifts, i, 0, False)
                                                     for i in builtins.range(shifts.aval.shape[0])]
    else:
        sh = _int_list("roll", shifts, "shifts")
    if len(sh) != len(axes):
        raise op_value_error("roll", f"shifts {sh} and axis {axes} must have the same length")
    for s, a in zip(sh, axes):
        n = shape[a]
        if n == 0:
            continue
        if isinstance(s, Tracer):
            k = _math.remainder(lax.convert_element_type(s, dtypes.int32), n)
            doubled = lax.concatenate([x, x], a)
            start = [0] * x.aval.ndim
            start[a] = lax.sub(full((), n, dtypes.int32), k)
            x = lax.dynamic_slice(doubled, start, shape)
            continue
        k = s % n
        if k:
            x = lax.concatenate([lax.slice_in_dim(x, n - k, n, 1, a), lax.slice_in_dim(x, 0, n - k, 1, a)], a)
    return x


def rot90(x: Any, k: int = 1, axes: Any = (0, 1), name: str | None = None) -> Any:
    """Rotate by 90 degrees k times in the plane of `axes` (from the first axis towards the second).

    Args:
        x: the input Tensor (at least 2-D).
        k: the number of quarter turns (any int; taken modulo 4; negative turns the other way).
        axes: the two different axes of the rotation plane.

    Returns:
        A Tensor of x's dtype (the two axes exchanged when k is odd).

    Examples:
        >>> import padax
        >>> padax.rot90(padax.to_tensor([[1, 2], [3, 4]])).tolist()
        [[2, 4], [1, 3]]
    """
    x = _arg("rot90", x, "x")
    nd = x.aval.ndim
    ax = _int_list("rot90", axes, "axes")
    if len(ax) != 2:
        raise op_value_error("rot90", f"axes must name two axes, got {ax}")
    if nd < 2:
        raise op_value_error("rot90", f"x must have at least 2 axes, got {x.aval.str_short()}")
    a0, a1 = (canonicalize_axis("rot90", a, nd) for a in ax)
    if a0 == a1:
        raise op_value_error("rot90", f"axes must be different, got {ax}")
    k = _static_int("rot90", k, "k") % 4
    if k == 0:
        return x
    if k == 2:
        return lax.rev(x, (a0, a1))
    perm = list(builtins.range(nd))
    perm[a0], perm[a1] = perm[a1], perm[a0]
    if k == 1:
        return lax.transpose(lax.rev(x, (a1,)), tuple(perm))
    return lax.rev(lax.transpose(x, tuple(perm)), (a1,))


def diagonal(x: Any, offset: int = 0, axis1: int = 0, axis2: int = 1, name: str | None = None) -> Any:
    """The diagonal over axis1/axis2 (offset > 0 above the main one), as the last axis of the result.

    Args:
        x: the input Tensor (at least 2-D).
        offset: which diagonal: 0 the main one, > 0 above it, < 0 below it.
        axis1, axis2: the two different axes the diagonal runs over.

    Returns:
        A Tensor of x's dtype: the other axes in order, then the diagonal as the last axis.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1, 2, 3], [4, 5, 6]])
        >>> padax.diagonal(x).tolist()
        [1, 5]
        >>> padax.diagonal(x, offset=1).tolist()
        [2, 6]
    """
    x = _arg("diagonal", x, "x")
    nd = x.aval.ndim
    if nd < 2:
        raise op_value_error("diagonal", f"x must have at least 2 axes, got {x.aval.str_short()}")
    a1, a2 = canonicalize_axis("diagonal", axis1, nd), canonicalize_axis("diagonal", axis2, nd)
    if a1 == a2:
        raise op_value_error("diagonal", f"axis1 and axis2 must differ, got {axis1} and {axis2}")
    offset = _static_int("diagonal", offset, "offset")
    rest = tuple(d for d in builtins.range(nd) if d not in (a1, a2))
    y = lax.transpose(x, rest + (a1, a2))
    lead = y.aval.shape[:-2]
    n, m = y.aval.shape[-2:]
    if offset >= 0:
        y = lax.slice_in_dim(y, builtins.min(offset, m), m, 1, nd - 1)
    else:
        y = lax.slice_in_dim(y, builtins.min(-offset, n), n, 1, nd - 2)
    k = builtins.min(y.aval.shape[-2], y.aval.shape[-1])
    if k == 0:
        return full(lead + (0,), 0, x.aval.dtype)
    y = lax.slice(y, (0,) * nd, lead + (k, k))
    y = lax.reshape(y, lead + (k * k,))
    return lax.slice_in_dim(y, 0, k * k, k + 1, nd - 2)


def _clamp_bound(v: int, n: int) -> int:
    v = v + n if v < 0 else v
    return builtins.min(builtins.max(v, 0), n)


def slice(input: Any, axes: Any, starts: Any, ends: Any, name: str | None = None) -> Any:
    """input[starts[i]:ends[i]] on each listed axis (negative bounds count from the end; bounds clamp).

    Args:
        input: the input Tensor.
        axes: the axes to slice.
        starts, ends: one start and one (exclusive) end per listed axis; ints, 0-d Tensors or a 1-D Tensor.

    Returns:
        A Tensor of input's dtype; unlisted axes are kept whole.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1, 2, 3], [4, 5, 6]])
        >>> padax.slice(x, axes=[1], starts=[1], ends=[3]).tolist()
        [[2, 3], [5, 6]]
    """
    x = asarray(input)
    nd = x.aval.ndim
    ax = _axes_list("slice", axes, nd)
    st, en = _int_list("slice", starts, "starts"), _int_list("slice", ends, "ends")
    if not len(ax) == len(st) == len(en):
        raise op_value_error("slice", f"axes {ax}, starts {st} and ends {en} must have the same length")
    lo, hi = [0] * nd, list(x.aval.shape)
    for a, s, e in zip(ax, st, en):
        n = x.aval.shape[a]
        lo[a], hi[a] = _clamp_bound(s, n), _clamp_bound(e, n)
        hi[a] = builtins.max(hi[a], lo[a])
    return lax.slice(x, lo, hi)


def strided_slice(x: Any, axes: Any, starts: Any, ends: Any, strides: Any, name: str | None = None) -> Any:
    """x[starts[i]:ends[i]:strides[i]] on each listed axis, with Python's slice rules (negative strides too).

    Args:
        x: the input Tensor.
        axes: the axes to slice.
        starts, ends, strides: one start, (exclusive) end and non-zero stride per listed axis.

    Returns:
        A Tensor of x's dtype; unlisted axes are kept whole.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([1, 2, 3, 4, 5, 6])
        >>> padax.strided_slice(x, axes=[0], starts=[0], ends=[6], strides=[2]).tolist()
        [1, 3, 5]
    """
    x = _arg("strided_slice", x, "x")
    nd = x.aval.ndim
    ax = _axes_list("strided_slice", axes, nd)
    st, en = _int_list("strided_slice", starts, "starts"), _int_list("strided_slice", ends, "ends")
    sd = _int_list("strided_slice", strides, "strides")
    if not len(ax) == len(st) == len(en) == len(sd):
        raise op_value_error("strided_slice", f"axes {ax}, starts {st}, ends {en} and strides {sd} must have the "
                                              "same length")
    idx = [builtins.slice(None)] * nd
    for a, s, e, d in zip(ax, st, en, sd):
        if d == 0:
            raise op_value_error("strided_slice", f"strides must not be 0, got {sd}")
        idx[a] = builtins.slice(s, e, d)
    return _indexing.basic_getitem(x, tuple(idx))


_FORMATS = {3: ("NCL", "NLC"), 4: ("NCHW", "NHWC"), 5: ("NCDHW", "NDHWC")}


def pad(x: Any, pad: Any, mode: str = "constant", value: float = 0.0, data_format: str | None = None,
        pad_from_left_axis: bool = True, name: str | None = None) -> Any:
    """Paddle's pad. A constant pad list of length 2*ndim pads axes from the first on ([before0, after0,
    before1, ...]); any other constant list (of even length) pads from the last axis backwards. For
    'reflect', 'replicate' and 'circular' (or a pad of length 2*(ndim-2)) x is 3-D/4-D/5-D and pad lists
    [left, right, top, bottom, front, back] for the spatial axes of `data_format`.

    Args:
        x: the input Tensor.
        pad: a list of ints or a 1-D integer Tensor of (before, after) pairs, laid out as described above;
            negative amounts crop in 'constant' mode.
        mode: 'constant' (default), 'reflect', 'replicate' or 'circular'.
        value: the fill value in 'constant' mode (a scalar or 0-d Tensor, cast to x's dtype).
        data_format: the layout that locates the spatial axes ('NCL'/'NLC', 'NCHW'/'NHWC', 'NCDHW'/'NDHWC');
            None means channels-first.
        pad_from_left_axis: whether a constant pad of length 2*ndim starts at the first axis (default True)
            instead of the last.

    Returns:
        The padded Tensor, of x's dtype.

    Examples:
        >>> import padax
        >>> padax.pad(padax.to_tensor([[1.0, 2.0]]), [1, 1, 0, 0], value=9.0).tolist()
        [[9.0, 9.0], [1.0, 2.0], [9.0, 9.0]]
        >>> padax.pad(padax.to_tensor([[[1.0, 2.0, 3.0]]]), [1, 1], mode='reflect').tolist()
        [[[2.0, 1.0, 2.0, 3.0, 2.0]]]
    """
    op = "pad"
    x = _arg("pad", x, "x")
    nd = x.aval.ndim
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise op_value_error(op, f"mode must be 'constant', 'reflect', 'replicate' or 'circular', got {mode!r}")
    from_tensor = is_array(pad)
    p = _int_list(op, pad, "pad")
    if len(p) % 2:
        raise op_value_error(op, f"pad must have an even length, got {p}")
    config = [(0, 0)] * nd
    if mode == "constant" and not from_tensor and len(p) != 2 * (nd - 2):
        if len(p) > 2 * nd:
            raise op_value_error(op, f"pad {p} has more than 2 * ndim entries for {x.aval.str_short()}")
        if len(p) == 2 * nd and pad_from_left_axis:
            for a in builtins.range(nd):
                config[a] = (p[2 * a], p[2 * a + 1])
        else:
            for i in builtins.range(len(p) // 2):
                config[nd - 1 - i] = (p[2 * i], p[2 * i + 1])
    else:
        if nd not in _FORMATS:
            raise op_value_error(op, f"mode {mode!r} (or a pad of length 2*(ndim-2)) needs a 3-D, 4-D or 5-D x, got "
                                     f"{x.aval.str_short()}")
        fmt = data_format or _FORMATS[nd][0]
        if fmt not in _FORMATS[nd]:
            raise op_value_error(op, f"data_format {fmt!r} does not fit a {nd}-D x; expected one of {_FORMATS[nd]}")
        if len(p) != 2 * (nd - 2):
            raise op_value_error(op, f"pad must have {2 * (nd - 2)} entries for a {nd}-D x in mode {mode!r}, got {p}")
        spatial = list(builtins.range(2, nd)) if fmt[1] == "C" else list(builtins.range(1, nd - 1))
        for i in builtins.range(nd - 2):
            config[spatial[-1 - i]] = (p[2 * i], p[2 * i + 1])
    if mode == "constant":
        v = lax.convert_element_type(asarray(value), x.aval.dtype) if is_array(value) else \
            asarray(value, x.aval.dtype)
        v = lax.reshape(v, ())
        return lax.pad(x, v, [(lo, hi, 0) for lo, hi in config])
    for a, (lo, hi) in enumerate(config):
        if lo == 0 and hi == 0:
            continue
        n = x.aval.shape[a]
        if lo < 0 or hi < 0:
            raise op_value_error(op, f"mode {mode!r} needs non-negative pads, got {p}")
        if mode == "reflect" and (lo >= n or hi >= n):
            raise op_value_error(op, f"reflect padding ({lo}, {hi}) must be smaller than the size {n} of axis {a} "
                                     f"of {x.aval.str_short()}")
        if n == 0:
            raise op_value_error(op, f"cannot {mode}-pad the empty axis {a} of {x.aval.str_short()}")
        j = np.arange(-lo, n + hi)
        if mode == "reflect":
            period = 2 * (n - 1) if n > 1 else 1
            j = np.abs(j) % period
            idx = np.where(j >= n, period - j, j)
        elif mode == "replicate":
            idx = np.clip(j, 0, n - 1)
        else:
            idx = j % n
        x = _indexed.take_axis(x, asarray(idx.astype(np.int32)), a)
    return x


def as_complex(x: Any, name: str | None = None) -> Any:
    """A complex Tensor from a real one whose last axis (of size 2) holds the real and imaginary parts.

    Args:
        x: a float Tensor whose last axis has size 2 (float16/bfloat16 are computed in float32).

    Returns:
        A complex64 (complex128 for float64 x) Tensor of shape x.shape[:-1].

    Examples:
        >>> import padax
        >>> padax.as_complex(padax.to_tensor([[1.0, 2.0], [3.0, -4.0]])).tolist()
        [(1+2j), (3-4j)]
    """
    x = _arg("as_complex", x, "x")
    if x.aval.ndim == 0 or x.aval.shape[-1] != 2 or not dtypes.is_floating(x.aval.dtype):
        raise op_value_error("as_complex", f"x must be a float Tensor whose last axis has size 2, got "
                                           f"{x.aval.str_short()}")
    if x.aval.dtype not in (dtypes.float32, dtypes.float64):
        x = lax.convert_element_type(x, dtypes.float32)
    last = x.aval.ndim - 1
    return lax.complex(lax.index_in_dim(x, 0, last, False), lax.index_in_dim(x, 1, last, False))


def as_real(x: Any, name: str | None = None) -> Any:
    """A real Tensor with a new last axis of size 2 holding the real and imaginary parts of complex x.

    Args:
        x: a complex Tensor.

    Returns:
        A float Tensor (float32 for complex64, float64 for complex128) of shape x.shape + [2].

    Examples:
        >>> import padax
        >>> padax.as_real(padax.to_tensor([1 + 2j])).tolist()
        [[1.0, 2.0]]
    """
    x = _arg("as_real", x, "x")
    if not dtypes.is_complex(x.aval.dtype):
        raise op_type_error("as_real", f"x must be complex, got {x.aval.str_short()}")
    shape = x.aval.shape + (1,)
    return lax.concatenate([lax.reshape(lax.real(x), shape), lax.reshape(lax.imag(x), shape)], x.aval.ndim)


def repeat_interleave(x: Any, repeats: Any, axis: int | None = None, name: str | None = None, *,
                      output_size: int | None = None) -> Any:
    """Repeat each element (slice along `axis`; of the flattened x when None) `repeats` times; repeats is an
    int or one count per element. Traced per-element counts need the static `output_size` (padax's
    extension); eager Tensors are read on the host.

    Args:
        x: the input Tensor.
        repeats: an int, or a list/Tensor of non-negative counts, one per element along `axis`.
        axis: the axis to repeat along; None (default) flattens x first.
        output_size: the static total length along `axis`, needed only for traced per-element repeats.

    Returns:
        A Tensor of x's dtype, longer along `axis` (1-D when axis is None).

    Examples:
        >>> import padax
        >>> padax.repeat_interleave(padax.to_tensor([1, 2, 3]), 2).tolist()
        [1, 1, 2, 2, 3, 3]
        >>> padax.repeat_interleave(padax.to_tensor([1, 2, 3]), padax.to_tensor([1, 0, 2])).tolist()
        [1, 3, 3]
    """
    op = "repeat_interleave"
    x = _arg("repeat_interleave", x, "x")
    if axis is None:
        x = lax.reshape(x, (x.aval.size,))
        axis = 0
    if x.aval.ndim == 0:
        x = lax.reshape(x, (1,))
    a = canonicalize_axis(op, axis, x.aval.ndim)
    n = x.aval.shape[a]
    if isinstance(repeats, Tracer):
        if repeats.aval.ndim == 0:
            repeats = lax.broadcast_in_dim(repeats, (n,), ())
        if repeats.aval.shape != (n,):
            raise op_value_error(op, f"repeats {repeats.aval.str_short()} must have one count per element ({n})")
        if output_size is None:
            raise op_type_error(op, f"traced repeats {repeats.aval.str_short()} give a data-dependent output size; "
                                    "pass a static output_size=..., or call it on concrete repeats")
        ends = lax.cumsum(lax.convert_element_type(repeats, dtypes.int32), 0)
        pos = lax.iota(dtypes.int32, int(output_size))
        idx = _search.searchsorted(ends, pos, out_int32=True, right=True)
        return _indexed.take_axis(x, lax.min(idx, full(idx.aval.shape, builtins.max(n - 1, 0), dtypes.int32)), a) \
            if n else x
    if not is_array(repeats):
        repeats = np.asarray(repeats)
        if repeats.dtype.kind not in "iub":  # 2.5 repeats: refused, not truncated
            raise op_type_error(op, f"repeats must be integers, got {repeats.tolist()!r}")
    elif not dtypes.is_integer(repeats.aval.dtype):
        raise op_type_error(op, f"repeats must be integers, got a Tensor {repeats.aval.str_short()}")
    r = np.asarray(repeats).astype(np.int64)
    if np.any(r < 0):
        raise op_value_error(op, f"repeats must be non-negative, got {r.tolist()}")
    if r.ndim == 0 or r.size == 1:
        k = int(r.reshape(()))
        shape = x.aval.shape
        b = lax.broadcast_in_dim(x, shape[:a + 1] + (k,) + shape[a + 1:],
                                 tuple(builtins.range(a + 1)) + tuple(builtins.range(a + 2, len(shape) + 1)))
        return lax.reshape(b, shape[:a] + (n * k,) + shape[a + 1:])
    if r.shape != (n,):
        raise op_value_error(op, f"repeats of shape {list(r.shape)} must have one count per element ({n}) of axis {a}")
    idx = np.repeat(np.arange(n, dtype=np.int32), r)
    return _indexed.take_axis(x, asarray(idx), a)


def atleast_1d(*inputs: Any, name: str | None = None) -> Any:
    """Each input with at least 1 axis (one Tensor back for one input, else a list).

    Args:
        *inputs: Tensors or array-likes.

    Returns:
        One Tensor for one input, else a list of Tensors.

    Examples:
        >>> import padax
        >>> padax.atleast_1d(padax.to_tensor(5.0)).shape
        (1,)
    """
    out = [asarray(t) if asarray(t).aval.ndim >= 1 else lax.reshape(asarray(t), (1,)) for t in inputs]
    return out[0] if len(out) == 1 else out


def atleast_2d(*inputs: Any, name: str | None = None) -> Any:
    """Each input with at least 2 axes (leading size-1 axes added).

    Args:
        *inputs: Tensors or array-likes.

    Returns:
        One Tensor for one input, else a list of Tensors.

    Examples:
        >>> import padax
        >>> padax.atleast_2d(padax.to_tensor([1.0, 2.0])).shape
        (1, 2)
    """
    out = []
    for t in inputs:
        t = asarray(t)
        out.append(t if t.aval.ndim >= 2 else lax.reshape(t, (1,) * (2 - t.aval.ndim) + t.aval.shape))
    return out[0] if len(out) == 1 else out


def atleast_3d(*inputs: Any, name: str | None = None) -> Any:
    """Each input with at least 3 axes (as numpy: [n] -> [1, n, 1], [m, n] -> [m, n, 1]).

    Args:
        *inputs: Tensors or array-likes.

    Returns:
        One Tensor for one input, else a list of Tensors.

    Examples:
        >>> import padax
        >>> padax.atleast_3d(padax.to_tensor([1.0, 2.0])).shape
        (1, 2, 1)
    """
    out = []
    for t in inputs:
        t = asarray(t)
        s = t.aval.shape
        new = {0: (1, 1, 1), 1: (1,) + s + (1,), 2: s + (1,)}.get(len(s), s)
        out.append(lax.reshape(t, new))
    return out[0] if len(out) == 1 else out


def unflatten(x: Any, axis: int, shape: Any, name: str | None = None) -> Any:
    """Split axis `axis` into `shape` (one entry may be -1).

    Args:
        x: the input Tensor.
        axis: the axis to split.
        shape: the sizes replacing that axis (list/tuple or 1-D Tensor); their product must equal its size.

    Returns:
        A Tensor of x's dtype with len(shape) - 1 more axes.

    Examples:
        >>> import padax
        >>> padax.unflatten(padax.zeros([2, 6]), axis=1, shape=[2, 3]).shape
        (2, 2, 3)
    """
    x = _arg("unflatten", x, "x")
    a = canonicalize_axis("unflatten", axis, x.aval.ndim)
    new = _int_list("unflatten", shape, "shape")
    n = x.aval.shape[a]
    if new.count(-1) > 1:
        raise op_value_error("unflatten", f"shape {new} may contain at most one -1")
    if -1 in new:
        known = _pymath.prod(d for d in new if d != -1)
        if known == 0 or n % known:
            raise op_value_error("unflatten", f"cannot split axis {a} of size {n} into {new}")
        new[new.index(-1)] = n // known
    if _pymath.prod(new) != n:
        raise op_value_error("unflatten", f"shape {new} does not multiply to the size {n} of axis {a} of "
                                          f"{x.aval.str_short()}")
    return lax.reshape(x, x.aval.shape[:a] + tuple(new) + x.aval.shape[a + 1:])


def tensor_split(x: Any, num_or_indices: Any, axis: int = 0, name: str | None = None) -> list[Any]:
    """Split along `axis` into n nearly equal parts (the first ones one larger) or at the given indices.

    Args:
        x: the input Tensor.
        num_or_indices: a positive int number of parts, or a list/1-D Tensor of cut indices (negative count
            from the end; out-of-range ones clamp, giving empty parts).
        axis: the axis to split.

    Returns:
        A list of Tensors of x's dtype.

    Examples:
        >>> import padax
        >>> x = padax.arange(7)
        >>> [t.tolist() for t in padax.tensor_split(x, 3)]
        [[0, 1, 2], [3, 4], [5, 6]]
        >>> [t.tolist() for t in padax.tensor_split(x, [2, 5])]
        [[0, 1], [2, 3, 4], [5, 6]]
    """
    x = _arg("tensor_split", x, "x")
    a = canonicalize_axis("tensor_split", axis, x.aval.ndim)
    n = x.aval.shape[a]
    if isinstance(num_or_indices, (int, np.integer)) and not isinstance(num_or_indices, bool):
        k = int(num_or_indices)
        if k <= 0:
            raise op_value_error("tensor_split", f"the number of sections must be positive, got {k}")
        sizes = [n // k + 1] * (n % k) + [n // k] * (k - n % k)
        bounds = np.concatenate([[0], np.cumsum(sizes)]).tolist()
    else:
        cuts = [builtins.min(builtins.max(c + n if c < 0 else c, 0), n)
                for c in _int_list("tensor_split", num_or_indices, "indices")]
        bounds = [0] + cuts + [n]
    out = []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        out.append(lax.slice_in_dim(x, lo, builtins.max(lo, hi), 1, a))
    return out


def unstack(x: Any, axis: int = 0, num: int | None = None) -> list[Any]:
    """The slices along `axis`, each without that axis (as unbind).

    Args:
        x: the input Tensor (at least 1-D).
        axis: the axis to unpack.
        num: if given, must equal x.shape[axis] (checked).

    Returns:
        A list of x.shape[axis] Tensors of x's dtype.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1, 2, 3], [4, 5, 6]])
        >>> [t.tolist() for t in padax.unstack(x)]
        [[1, 2, 3], [4, 5, 6]]
    """
    out = unbind(x, axis)
    if num is not None and int(num) != len(out):
        raise op_value_error("unstack", f"num={num} does not match the size {len(out)} of axis {axis}")
    return out


def crop(x: Any, shape: Any = None, offsets: Any = None, name: str | None = None) -> Any:
    """The block of x of `shape` (-1 keeps the rest of an axis) starting at `offsets` (default 0).

    Args:
        x: the input Tensor.
        shape: the block's size, one entry per axis (-1: up to the end); None keeps x's shape.
        offsets: the block's start, one entry per axis; None means all zeros.

    Returns:
        A Tensor of x's dtype with the block's shape.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1, 2, 3], [4, 5, 6]])
        >>> padax.crop(x, shape=[2, 2], offsets=[0, 1]).tolist()
        [[2, 3], [5, 6]]
    """
    x = _arg("crop", x, "x")
    nd = x.aval.ndim
    shp = list(x.aval.shape) if shape is None else _int_list("crop", shape, "shape")
    off = [0] * nd if offsets is None else _int_list("crop", offsets, "offsets")
    if len(shp) != nd or len(off) != nd:
        raise op_value_error("crop", f"shape {shp} and offsets {off} need one entry per axis of {x.aval.str_short()}")
    lim = []
    for a, (s0, o) in enumerate(zip(shp, off)):
        n = x.aval.shape[a]
        s0 = n - o if s0 == -1 else s0
        if o < 0 or s0 < 0 or o + s0 > n:
            raise op_value_error("crop", f"offset {o} and size {s0} do not fit axis {a} of {x.aval.str_short()}")
        lim.append(o + s0)
    return lax.slice(x, off, lim)


def broadcast_shape(x_shape: Any, y_shape: Any) -> list[int]:
    """The broadcast of two shapes, as a list.

    Args:
        x_shape, y_shape: two shapes (lists/tuples of ints or 1-D integer Tensors).

    Returns:
        The broadcast shape, as a Python list of ints.

    Examples:
        >>> import padax
        >>> padax.broadcast_shape([2, 1, 3], [4, 1])
        [2, 4, 3]
    """
    return list(broadcast_shapes_("broadcast_shape", tuple(_int_list("broadcast_shape", x_shape, "x_shape")),
                                 tuple(_int_list("broadcast_shape", y_shape, "y_shape"))))


def numel(x: Any, name: str | None = None) -> Any:
    """The number of elements of x, as a 0-d int64 Tensor.

    Args:
        x: a Tensor or array-like.

    Returns:
        A 0-d int64 Tensor (int32 when x64 is disabled).

    Examples:
        >>> import padax
        >>> int(padax.numel(padax.zeros([2, 3])))
        6
    """
    return full((), asarray(x).aval.size, dtypes.canonicalize(dtypes.int64))


def rank(input: Any) -> Any:
    """The number of axes of input, as a 0-d int32 Tensor.

    Args:
        input: a Tensor or array-like.

    Returns:
        A 0-d int32 Tensor.

    Examples:
        >>> import padax
        >>> int(padax.rank(padax.zeros([2, 3])))
        2
    """
    return full((), asarray(input).aval.ndim, dtypes.int32)


def shape(input: Any) -> Any:
    """The shape of input, as a 1-D int64 Tensor, as Paddle gives it (Tensor.shape is the Python tuple).

    Args:
        input: a Tensor or array-like.

    Returns:
        A 1-D int64 Tensor (int32 when x64 is disabled) with one entry per axis.

    Examples:
        >>> import padax
        >>> padax.shape(padax.zeros([2, 3])).tolist()
        [2, 3]
    """
    s = asarray(input).aval.shape
    return asarray(np.asarray(s, dtype=dtypes.canonicalize(dtypes.int64)))


def swapaxes(x: Any, axis0: Any, axis1: int | None = None, name: str | None = None) -> Any:
    """x with two axes exchanged; given one list of all axes instead (Paddle's `swapaxes(x, perm)`, its
    alias of transpose), x with its axes permuted so.

    Args:
        x: the input Tensor.
        axis0: the first axis, or a full permutation list (then axis1 is not given).
        axis1: the second axis.

    Returns:
        A Tensor of x's dtype with the axes exchanged (or permuted).

    Examples:
        >>> import padax
        >>> padax.swapaxes(padax.zeros([2, 3, 4]), 0, 2).shape
        (4, 3, 2)
    """
    if axis1 is None or isinstance(axis0, (list, tuple)):
        return transpose(x, axis0)
    x = _arg("swapaxes", x, "x")
    nd = x.aval.ndim
    a, b = canonicalize_axis("swapaxes", axis0, nd), canonicalize_axis("swapaxes", axis1, nd)
    perm = list(builtins.range(nd))
    perm[a], perm[b] = perm[b], perm[a]
    return lax.transpose(x, tuple(perm))


swapdims = swapaxes


def view(x: Any, shape_or_dtype: Any, name: str | None = None) -> Any:
    """A reshape (given a shape) or a bit reinterpretation (given a dtype; a different item size rescales
    the last axis).

    Args:
        x: the input Tensor.
        shape_or_dtype: a shape (list/tuple or 1-D Tensor) to reshape to, or a dtype (name or object) to
            reinterpret x's bits as.

    Returns:
        A new Tensor (padax has no aliasing views: values are copied, x is unchanged).

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([1, 2, 3, 4, 5, 6])
        >>> padax.view(x, [3, 2]).tolist()
        [[1, 2], [3, 4], [5, 6]]
        >>> padax.view(padax.to_tensor([1.0]), 'int32').tolist()
        [1065353216]
    """
    x = _arg("view", x, "x")
    if isinstance(shape_or_dtype, (list, tuple)) or is_array(shape_or_dtype):
        return reshape(x, shape_or_dtype)
    dt = dtypes.canonicalize(dtypes.to_dtype(shape_or_dtype))
    old = x.aval.dtype
    if dt.itemsize == old.itemsize:
        return lax.bitcast_convert_type(x, dt)
    if x.aval.ndim == 0:
        raise op_value_error("view", f"cannot view the 0-d {x.aval.str_short()} as {dt.name} (item sizes differ)")
    lead, n = x.aval.shape[:-1], x.aval.shape[-1]
    if dt.itemsize < old.itemsize:
        r = old.itemsize // dt.itemsize
        return lax.reshape(lax.bitcast_convert_type(x, dt), lead + (n * r,))
    r = dt.itemsize // old.itemsize
    if n % r:
        raise op_value_error("view", f"the last axis ({n}) of {x.aval.str_short()} is not a multiple of {r}, "
                                     f"needed to view it as {dt.name}")
    return lax.bitcast_convert_type(lax.reshape(x, lead + (n // r, r)), dt)


def view_as(x: Any, other: Any, name: str | None = None) -> Any:
    """x reshaped to other's shape.

    Args:
        x: the input Tensor.
        other: the Tensor whose shape is used (it must have x's number of elements).

    Returns:
        x reshaped to other's shape (x's dtype).

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([1, 2, 3, 4, 5, 6])
        >>> padax.view_as(x, padax.zeros([2, 3])).tolist()
        [[1, 2, 3], [4, 5, 6]]
    """
    return reshape(x, list(_arg("view_as", other, "other").aval.shape))


def tolist(x: Any) -> Any:
    """The values of a concrete Tensor as nested Python lists.

    Args:
        x: a concrete (not traced) Tensor.

    Returns:
        Nested Python lists of Python scalars (a bare scalar for a 0-d x).

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1, 2, 3], [4, 5, 6]])
        >>> padax.tolist(x)
        [[1, 2, 3], [4, 5, 6]]
    """
    x = _arg("tolist", x, "x")
    return x.tolist()


def _tensor_list(op: str, x: Any) -> list:
    """The list/tuple of Tensors a stacking function takes (at least one)."""
    if is_array(x) or not isinstance(x, (list, tuple)) or not x:
        got = x.aval.str_short() if is_array(x) else f"{type(x).__name__}: {x!r:.60}"
        raise op_type_error(op, f"x must be a non-empty list or tuple of Tensors, got {got}")
    return list(x)


def hstack(x: Sequence[Any], name: str | None = None) -> Any:
    """Concatenate along axis 1 (axis 0 for 1-D inputs).

    Args:
        x: a non-empty list or tuple of Tensors (0-d inputs become 1-D).

    Returns:
        One Tensor of the promoted dtype.

    Examples:
        >>> import padax
        >>> padax.hstack([padax.to_tensor([1, 2]), padax.to_tensor([3])]).tolist()
        [1, 2, 3]
    """
    arrs = atleast_1d(*_tensor_list("hstack", x)) if len(x) > 1 else [atleast_1d(*_tensor_list("hstack", x))]
    return concat(arrs, 0 if arrs[0].aval.ndim == 1 else 1)


def vstack(x: Sequence[Any], name: str | None = None) -> Any:
    """Concatenate along axis 0 after making inputs at least 2-D.

    Args:
        x: a non-empty list or tuple of Tensors.

    Returns:
        One Tensor (at least 2-D) of the promoted dtype.

    Examples:
        >>> import padax
        >>> padax.vstack([padax.to_tensor([1, 2]), padax.to_tensor([3, 4])]).tolist()
        [[1, 2], [3, 4]]
    """
    arrs = atleast_2d(*_tensor_list("vstack", x)) if len(x) > 1 else [atleast_2d(*_tensor_list("vstack", x))]
    return concat(arrs, 0)


row_stack = vstack


def dstack(x: Sequence[Any], name: str | None = None) -> Any:
    """Concatenate along axis 2 after making inputs at least 3-D.

    Args:
        x: a non-empty list or tuple of Tensors.

    Returns:
        One Tensor (at least 3-D) of the promoted dtype.

    Examples:
        >>> import padax
        >>> padax.dstack([padax.to_tensor([1, 2]), padax.to_tensor([3, 4])]).tolist()
        [[[1, 3], [2, 4]]]
    """
    arrs = atleast_3d(*_tensor_list("dstack", x)) if len(x) > 1 else [atleast_3d(*_tensor_list("dstack", x))]
    return concat(arrs, 2)


def column_stack(x: Sequence[Any], name: str | None = None) -> Any:
    """1-D inputs become columns; 2-D inputs are concatenated along axis 1.

    Args:
        x: a list or tuple of 0-D/1-D Tensors (made columns) or 2-D Tensors with the same number of rows.

    Returns:
        One 2-D Tensor of the promoted dtype.

    Examples:
        >>> import padax
        >>> padax.column_stack([padax.to_tensor([1, 2]), padax.to_tensor([3, 4])]).tolist()
        [[1, 3], [2, 4]]
    """
    arrs = []
    for t in x:
        t = _arg("column_stack", t, "x")
        arrs.append(lax.reshape(t, (t.aval.size, 1)) if t.aval.ndim < 2 else t)
    return concat(arrs, 1)


def hsplit(x: Any, num_or_indices: Any, name: str | None = None) -> list[Any]:
    """tensor_split along axis 1 (axis 0 for 1-D x).

    Args:
        x: the input Tensor (at least 1-D).
        num_or_indices: a number of parts or a list of cut indices, as in tensor_split.

    Returns:
        A list of Tensors of x's dtype.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1, 2, 3], [4, 5, 6]])
        >>> [t.shape for t in padax.hsplit(x, 3)]
        [(2, 1), (2, 1), (2, 1)]
    """
    x = _arg("hsplit", x, "x")
    return tensor_split(x, num_or_indices, 0 if x.aval.ndim == 1 else 1)


def vsplit(x: Any, num_or_indices: Any, name: str | None = None) -> list[Any]:
    """tensor_split along axis 0 (x must be at least 2-D).

    Args:
        x: the input Tensor (at least 2-D).
        num_or_indices: a number of parts or a list of cut indices, as in tensor_split.

    Returns:
        A list of Tensors of x's dtype.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1, 2, 3], [4, 5, 6]])
        >>> [t.tolist() for t in padax.vsplit(x, 2)]
        [[[1, 2, 3]], [[4, 5, 6]]]
    """
    x = _arg("vsplit", x, "x")
    if x.aval.ndim < 2:
        raise op_value_error("vsplit", f"x must have at least 2 axes, got {x.aval.str_short()}")
    return tensor_split(x, num_or_indices, 0)


def dsplit(x: Any, num_or_indices: Any, name: str | None = None) -> list[Any]:
    """tensor_split along axis 2 (x must be at least 3-D).

    Args:
        x: the input Tensor (at least 3-D).
        num_or_indices: a number of parts or a list of cut indices, as in tensor_split.

    Returns:
        A list of Tensors of x's dtype.

    Examples:
        >>> import padax
        >>> [t.shape for t in padax.dsplit(padax.zeros([2, 2, 4]), 2)]
        [(2, 2, 2), (2, 2, 2)]
    """
    x = _arg("dsplit", x, "x")
    if x.aval.ndim < 3:
        raise op_value_error("dsplit", f"x must have at least 3 axes, got {x.aval.str_short()}")
    return tensor_split(x, num_or_indices, 2)


def block_diag(inputs: Sequence[Any], name: str | None = None) -> Any:
    """A block-diagonal matrix from 0-D, 1-D (a row) or 2-D Tensors.

    Args:
        inputs: a non-empty list of Tensors, each at most 2-D.

    Returns:
        A 2-D Tensor of the promoted dtype, zeros off the blocks, of shape [sum of rows, sum of columns].

    Examples:
        >>> import padax
        >>> padax.block_diag([padax.to_tensor([[1, 2]]), padax.to_tensor([[3], [4]])]).tolist()
        [[1, 2, 0], [0, 0, 3], [0, 0, 4]]
    """
    arrs = []
    for t in inputs:
        t = _arg("block_diag", t, "inputs")
        if t.aval.ndim > 2:
            raise op_value_error("block_diag", f"inputs must be at most 2-D, got {t.aval.str_short()}")
        arrs.append(lax.reshape(t, (1,) * (2 - t.aval.ndim) + t.aval.shape))
    if not arrs:
        raise op_value_error("block_diag", "needs at least one Tensor")
    dt = dtypes.promote_types(*(a.aval.dtype for a in arrs))
    cols = builtins.sum(a.aval.shape[1] for a in arrs)
    rows, left = [], 0
    for a in arrs:
        w = a.aval.shape[1]
        rows.append(lax.pad(lax.convert_element_type(a, dt), full((), 0, dt), ((0, 0, 0), (left, cols - left - w, 0))))
        left += w
    return lax.concatenate(rows, 0)


def cartesian_prod(x: Sequence[Any], name: str | None = None) -> Any:
    """All combinations of one element from each 1-D Tensor, as rows [N, len(x)] (1-D for one input).

    Args:
        x: a list of 1-D Tensors.

    Returns:
        A Tensor of the promoted dtype of shape [prod of lengths, len(x)] (the input itself for one Tensor).

    Examples:
        >>> import padax
        >>> padax.cartesian_prod([padax.to_tensor([1, 2]), padax.to_tensor([3, 4])]).tolist()
        [[1, 3], [1, 4], [2, 3], [2, 4]]
    """
    arrs = [_arg("cartesian_prod", t, "x") for t in x]
    if len(arrs) == 1:
        return arrs[0]
    grids = _creation.meshgrid(arrs)
    dt = dtypes.promote_types(*(a.aval.dtype for a in arrs))
    n = grids[0].aval.size
    return lax.concatenate([lax.reshape(lax.convert_element_type(g, dt), (n, 1)) for g in grids], 1)


def combinations(x: Any, r: int = 2, with_replacement: bool = False, name: str | None = None) -> Any:
    """All length-r combinations of the elements of the 1-D x, as rows (itertools order).

    Args:
        x: a 1-D Tensor.
        r: the length of each combination.
        with_replacement: whether an element may appear more than once in a combination.

    Returns:
        A Tensor of x's dtype of shape [number of combinations, r].

    Examples:
        >>> import padax
        >>> padax.combinations(padax.to_tensor([1, 2, 3])).tolist()
        [[1, 2], [1, 3], [2, 3]]
        >>> padax.combinations(padax.to_tensor([1, 2]), with_replacement=True).tolist()
        [[1, 1], [1, 2], [2, 2]]
    """
    import itertools
    x = _arg("combinations", x, "x")
    if x.aval.ndim != 1:
        raise op_value_error("combinations", f"x must be 1-D, got {x.aval.str_short()}")
    r = _static_int("combinations", r, "r")
    fn = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    idx = np.asarray(list(fn(builtins.range(x.aval.shape[0]), r)), dtype=np.int32).reshape(-1, r)
    if idx.shape[0] == 0 or r == 0:
        return full((0, r) if r else (0,), 0, x.aval.dtype)
    return _indexed.take_axis(x, asarray(idx), 0)


def unfold(x: Any, axis: int, size: int, step: int, name: str | None = None) -> Any:
    """Sliding windows of `size` every `step` along `axis`: that axis becomes the window count and a new
    last axis of length `size` holds each window.

    Args:
        x: the input Tensor (a 0-d x is treated as shape [1]).
        axis: the axis to slide along.
        size: the window length (0 <= size <= x.shape[axis]).
        step: the positive distance between window starts.

    Returns:
        A Tensor of x's dtype: `axis` has the window count and a new last axis has length `size`.

    Examples:
        >>> import padax
        >>> padax.unfold(padax.arange(6), axis=0, size=3, step=2).tolist()
        [[0, 1, 2], [2, 3, 4]]
    """
    x = _arg("unfold", x, "x")
    if x.aval.ndim == 0:
        x = lax.reshape(x, (1,))
    a = canonicalize_axis("unfold", axis, x.aval.ndim)
    size, step = _static_int("unfold", size, "size"), _static_int("unfold", step, "step")
    n = x.aval.shape[a]
    if size < 0 or size > n or step <= 0:
        raise op_value_error("unfold", f"size {size} and step {step} do not fit axis {a} (size {n}) of "
                                       f"{x.aval.str_short()}")
    starts = np.arange(0, n - size + 1, step)
    idx = (starts[:, None] + np.arange(size)[None, :]).astype(np.int32)
    out = _indexed.take_axis(x, asarray(idx), a)  # ... nw, size ...
    nd = out.aval.ndim
    return lax.transpose(out, tuple(d for d in builtins.range(nd) if d != a + 1) + (a + 1,))


def as_strided(x: Any, shape: Any, stride: Any, offset: int = 0, name: str | None = None) -> Any:
    """A view of x's row-major elements with the given shape and element strides (a gather here).

    Args:
        x: the input Tensor, read as its flattened row-major elements.
        shape: the result's shape.
        stride: the step in elements for each result axis (same length as `shape`).
        offset: the flat index of the first element.

    Returns:
        A new Tensor of x's dtype with `shape` (a copy: padax has no aliasing views).

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([1, 2, 3, 4, 5, 6])
        >>> padax.as_strided(x, shape=[2, 2], stride=[2, 1]).tolist()
        [[1, 2], [3, 4]]
    """
    x = _arg("as_strided", x, "x")
    shp, st = _int_list("as_strided", shape, "shape"), _int_list("as_strided", stride, "stride")
    if len(shp) != len(st):
        raise op_value_error("as_strided", f"shape {shp} and stride {st} must have the same length")
    idx = np.full(shp, int(offset), dtype=np.int64)
    for d, (n, s0) in enumerate(zip(shp, st)):
        idx = idx + (np.arange(n) * s0).reshape([n if k == d else 1 for k in builtins.range(len(shp))])
    if idx.size and (idx.min() < 0 or idx.max() >= x.aval.size):
        raise op_value_error("as_strided", f"shape {shp}, stride {st} and offset {offset} reach outside the "
                                           f"{x.aval.size} elements of {x.aval.str_short()}")
    flat = lax.reshape(x, (x.aval.size,))
    if idx.size == 0:
        return full(tuple(shp), 0, x.aval.dtype)
    return _indexed.take_axis(flat, asarray(idx.astype(np.int32)), 0)


def shard_index(input: Any, index_num: int, nshards: int, shard_id: int, ignore_value: int = -1) -> Any:
    """Map global indices to indices within shard `shard_id` (of nshards equal shards of index_num);
    indices of other shards become ignore_value.

    Args:
        input: an integer Tensor of global indices.
        index_num: the size of the whole index range.
        nshards: the number of shards (each covers ceil(index_num / nshards) indices).
        shard_id: which shard to keep.
        ignore_value: the value for indices outside that shard.

    Returns:
        A Tensor of input's shape and dtype.

    Examples:
        >>> import padax
        >>> padax.shard_index(padax.to_tensor([[1], [6], [12]]), index_num=20, nshards=2, shard_id=0).tolist()
        [[1], [6], [-1]]
    """
    x = _arg("shard_index", input, "input")
    if not dtypes.is_integer(x.aval.dtype):
        raise op_type_error("shard_index", f"input must be an integer Tensor, got {x.aval.str_short()}")
    index_num, nshards, shard_id, ignore_value = (static_int("shard_index", v, what) for v, what in (
        (index_num, "index_num"), (nshards, "nshards"), (shard_id, "shard_id"), (ignore_value, "ignore_value")))
    size = -(-index_num // nshards)
    dt = x.aval.dtype
    sz = full(x.aval.shape, size, dt)
    mine = lax.eq(lax.div(x, sz), full(x.aval.shape, shard_id, dt))
    return lax.select(mine, lax.rem(x, sz), full(x.aval.shape, ignore_value, dt))


# ---- Paddle's torch-style names -----------------------------------------------------------


def permute(input: Any, dims: Sequence[int]) -> Any:  # noqa: A002  (Paddle's parameter names)
    """transpose(input, dims): output axis i is input axis dims[i].

    Args:
        input: the input Tensor.
        dims: a permutation of input's axes.

    Returns:
        A Tensor of input's dtype with shape [input.shape[d] for d in dims].

    Examples:
        >>> import padax
        >>> padax.permute(padax.zeros([2, 3, 4]), [2, 0, 1]).shape
        (4, 2, 3)
    """
    return transpose(input, dims)


def ravel(input: Any) -> Any:  # noqa: A002
    """input flattened to 1-D (row-major).

    Args:
        input: the input Tensor.

    Returns:
        A 1-D Tensor of input's dtype (shape [1] for a 0-d input).

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1, 2, 3], [4, 5, 6]])
        >>> padax.ravel(x).tolist()
        [1, 2, 3, 4, 5, 6]
    """
    return flatten(input)


def narrow(input: Any, dim: int, start: Any, length: int) -> Any:  # noqa: A002
    """The slice [start, start + length) of input along `dim` (a negative start counts from the end).

    Args:
        input: the input Tensor.
        dim: the axis to slice.
        start: the first index (an int or 0-d Tensor; negative counts from the end).
        length: the number of elements to keep.

    Returns:
        A Tensor of input's dtype with size `length` on `dim`.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1, 2, 3], [4, 5, 6]])
        >>> padax.narrow(x, dim=1, start=1, length=2).tolist()
        [[2, 3], [5, 6]]
    """
    x = _arg("narrow", input, "input")
    nd = x.aval.ndim
    d = canonicalize_axis("narrow", dim, nd)
    n = x.aval.shape[d]
    st = static_int("narrow", start, "start")  # 0.5 is refused, not truncated
    st = st + n if st < 0 else st
    length = static_int("narrow", length, "length")
    if not (0 <= st <= n and 0 <= length and st + length <= n):
        raise op_value_error("narrow", f"start {start} and length {length} do not fit in axis {d} of size {n} "
                                       f"of {x.aval.str_short()}")
    return lax.slice_in_dim(x, st, st + length, 1, d)


def reverse(x: Any, axis: Any, name: str | None = None) -> Any:
    """flip(x, axis): the elements in reverse order along the given axes.

    Args:
        x: the input Tensor.
        axis: an int or a list of axes to reverse.

    Returns:
        A Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([1, 2, 3, 4, 5, 6])
        >>> padax.reverse(x, axis=0).tolist()
        [6, 5, 4, 3, 2, 1]
    """
    return flip(x, axis)


def view_as_complex(input: Any) -> Any:  # noqa: A002
    """as_complex(input): a last axis of size 2 (real, imaginary) becomes one complex number.

    Args:
        input: a float Tensor whose last axis has size 2.

    Returns:
        A complex Tensor of shape input.shape[:-1].

    Examples:
        >>> import padax
        >>> padax.view_as_complex(padax.to_tensor([[0.0, 1.0]])).tolist()
        [1j]
    """
    return as_complex(input)


def view_as_real(input: Any) -> Any:  # noqa: A002
    """as_real(input): a complex Tensor as real numbers with a new last axis (real, imaginary).

    Args:
        input: a complex Tensor.

    Returns:
        A float Tensor of shape input.shape + [2].

    Examples:
        >>> import padax
        >>> padax.view_as_real(padax.to_tensor([3 - 1j])).tolist()
        [[3.0, -1.0]]
    """
    return as_real(input)


def matrix_transpose(x: Any, name: str | None = None) -> Any:
    """x with its last two axes exchanged (x must have at least 2 axes).

    Args:
        x: a Tensor with at least 2 axes.

    Returns:
        A Tensor of x's dtype with shape [..., n, m] for an [..., m, n] input.

    Examples:
        >>> import padax
        >>> padax.matrix_transpose(padax.zeros([5, 2, 3])).shape
        (5, 3, 2)
    """
    x = _arg("matrix_transpose", x, "x")
    nd = x.aval.ndim
    if nd < 2:
        raise op_value_error("matrix_transpose", f"x must have at least 2 axes, got {x.aval.str_short()}")
    return lax.transpose(x, tuple(builtins.range(nd - 2)) + (nd - 1, nd - 2))


def broadcast_shapes(*shapes: Sequence[int]) -> list[int]:
    """The shape that all the given shapes broadcast to, as a list.

    Args:
        *shapes: shapes as lists/tuples of ints (or 1-D integer Tensors).

    Returns:
        The broadcast shape, as a Python list of ints ([] when no shape is given).

    Examples:
        >>> import padax
        >>> padax.broadcast_shapes([2, 1], [1, 3], [3])
        [2, 3]
    """
    if not shapes:
        return []
    return list(broadcast_shapes_("broadcast_shapes",
                                  *(tuple(_int_list("broadcast_shapes", s, "shape")) for s in shapes)))


# Paddle's other name for concat (not in __all__: padax/__init__ imports it by name)
def cat(x: Any, axis: Any = 0, name: str | None = None, *, out: Any = None) -> Any:
    """concat(x, axis): the Tensors of x joined along `axis`.

    Args:
        x: a list or tuple of Tensors with equal shapes except along `axis`.

    Returns:
        One Tensor (the operands promoted to a common dtype).

    Examples:
        >>> import padax
        >>> padax.cat([padax.to_tensor([[1, 2]]), padax.to_tensor([[3, 4]])], axis=1).tolist()
        [[1, 2, 3, 4]]
    """
    return concat(x, axis, out=out)


concatenate = cat


__all__ = ["reshape", "transpose", "moveaxis", "unsqueeze", "squeeze", "flatten", "concat", "stack", "split",
           "chunk", "unbind", "expand", "broadcast_to", "expand_as", "broadcast_tensors", "tile", "flip", "roll",
           "rot90", "diagonal", "slice", "strided_slice", "pad", "as_complex", "as_real", "repeat_interleave",
           "atleast_1d", "atleast_2d", "atleast_3d", "unflatten", "tensor_split", "unstack", "crop",
           "broadcast_shape", "numel", "rank", "shape", "swapaxes", "swapdims", "view", "view_as", "tolist",
           "hstack", "vstack", "row_stack", "dstack", "column_stack", "hsplit", "vsplit", "dsplit", "block_diag",
           "cartesian_prod", "combinations", "unfold", "as_strided", "shard_index", "permute", "ravel", "narrow",
           "reverse", "view_as_complex", "view_as_real", "matrix_transpose", "broadcast_shapes"]
