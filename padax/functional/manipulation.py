"""Paddle's shape manipulation: reshape, transpose, (un)squeeze, flatten, concat, stack,
split, expand/broadcast_to, tile, flip, moveaxis.

Shapes and axes must be static (Python ints or concrete Tensors); every
function here is one or a few lax structural ops.
"""
from __future__ import annotations

import builtins
import math as _pymath
from typing import Any, Sequence

import numpy as np

from padax import lax
from padax.core import dtypes
from padax.core.errors import op_type_error, op_value_error
from padax.core.trace import Tracer
from padax.functional._arrays import (asarray, broadcast_shapes, broadcast_to as _broadcast_to,
                                      canonicalize_axis, is_array)


def _static_int(op: str, v: Any, what: str) -> int:
    if isinstance(v, Tracer):
        raise op_type_error(op, f"{what} must be static, got a traced array {v.aval.str_short()}; "
                                "pass Python ints (static_argnums for jit arguments)")
    if isinstance(v, bool):
        raise op_type_error(op, f"{what} must be an integer, got a bool")
    try:
        return int(v)
    except TypeError:
        raise op_type_error(op, f"{what} must be an integer, got {type(v).__name__}: {v!r}") from None


def _int_list(op: str, v: Any, what: str) -> list[int]:
    """An int, a list/tuple of ints (or 0-d Tensors), or a 1-D Tensor, as a list of ints."""
    if isinstance(v, Tracer):
        _static_int(op, v, what)
    if is_array(v):
        return [int(a) for a in np.asarray(v).reshape(-1)]
    if isinstance(v, (list, tuple)):
        return [_static_int(op, a, what) for a in v]
    return [_static_int(op, v, what)]


def reshape(x: Any, shape: Any, name: str | None = None) -> Any:
    """Reshape (row-major); one entry may be -1 (inferred) and 0 copies x's size on that axis."""
    x = asarray(x)
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


def transpose(x: Any, perm: Sequence[int], name: str | None = None) -> Any:
    """Permute the axes: output axis i is input axis perm[i]."""
    x = asarray(x)
    nd = x.aval.ndim
    perm = _int_list("transpose", perm, "perm")
    if len(perm) != nd:
        raise op_value_error("transpose", f"perm {perm} must have one entry per axis of {x.aval.str_short()}")
    p = [canonicalize_axis("transpose", a, nd) for a in perm]
    if sorted(p) != list(builtins.range(nd)):
        raise op_value_error("transpose", f"perm {perm} is not a permutation of the axes of {x.aval.str_short()}")
    return lax.transpose(x, tuple(p))


def moveaxis(x: Any, source: Any, destination: Any, name: str | None = None) -> Any:
    """Move axes `source` to positions `destination`, keeping the others in order."""
    x = asarray(x)
    nd = x.aval.ndim
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
    """Insert size-1 axes; with a list, each is inserted in turn into the growing shape."""
    x = asarray(x)
    shape = list(x.aval.shape)
    for a in _int_list("unsqueeze", axis, "axis"):
        n = len(shape)
        if not -(n + 1) <= a <= n:
            raise op_value_error("unsqueeze", f"axis {a} is out of range for inserting into an array of rank {n}")
        shape.insert(a + n + 1 if a < 0 else a, 1)
    return lax.reshape(x, tuple(shape))


def squeeze(x: Any, axis: Any = None, name: str | None = None) -> Any:
    """Remove size-1 axes: all of them, or those of `axis` (axes whose size is not 1 are kept)."""
    x = asarray(x)
    nd = x.aval.ndim
    if axis is None:
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
    """Merge axes start_axis..stop_axis (inclusive) into one; a 0-d input becomes shape [1]."""
    x = asarray(x)
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


def concat(x: Sequence[Any], axis: Any = 0, name: str | None = None) -> Any:
    """Join Tensors along an existing axis (dtypes are promoted)."""
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


def stack(x: Sequence[Any], axis: int = 0, name: str | None = None) -> Any:
    """Join equal-shaped Tensors along a new axis."""
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
    """Split along `axis` into equal parts (an int) or parts of given sizes (a list; one may be -1)."""
    x = asarray(x)
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
    """Split into `chunks` equal parts along `axis`."""
    return split(x, chunks, axis)


def unbind(input: Any, axis: int = 0) -> list[Any]:
    """The slices along `axis`, each without that axis."""
    x = asarray(input)
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
    """Broadcast to `shape` (-1 keeps that axis of x)."""
    return _expand("expand", x, shape)


def broadcast_to(x: Any, shape: Any, name: str | None = None) -> Any:
    """Broadcast to `shape` with numpy rules."""
    return _expand("broadcast_to", x, shape)


def expand_as(x: Any, y: Any, name: str | None = None) -> Any:
    """Broadcast x to y's shape."""
    return _expand("expand_as", x, asarray(y).aval.shape)


def broadcast_tensors(input: Sequence[Any], name: str | None = None) -> list[Any]:
    """Broadcast several Tensors to their common shape."""
    arrs = [asarray(a) for a in input]
    shape = broadcast_shapes("broadcast_tensors", *(a.aval.shape for a in arrs))
    return [_broadcast_to(a, shape) for a in arrs]


def tile(x: Any, repeat_times: Any, name: str | None = None) -> Any:
    """Repeat x `repeat_times[i]` times along axis i (shorter lists apply to the last axes)."""
    x = asarray(x)
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
    """Reverse the order of elements along the given axes."""
    x = asarray(x)
    nd = x.aval.ndim
    axes = _int_list("flip", axis, "axis")
    if nd == 0:
        for a in axes:
            canonicalize_axis("flip", a, 0)
        return x
    dims = sorted({canonicalize_axis("flip", a, nd) for a in axes})
    return lax.rev(x, tuple(dims))


__all__ = ["reshape", "transpose", "moveaxis", "unsqueeze", "squeeze", "flatten", "concat", "stack", "split",
           "chunk", "unbind", "expand", "broadcast_to", "expand_as", "broadcast_tensors", "tile", "flip"]
