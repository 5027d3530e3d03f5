"""Chunked vmap: `vmap(fun, ..., chunk_size=N)` vectorises N examples at a time.

The mapped axis is split into chunks of `chunk_size`; a compiled loop (`lax.scan`) runs
the vectorised function on one chunk per iteration and stacks the results, and a
remainder that does not fill a chunk is vectorised on its own. Peak memory is that of
one chunk (e.g. chunk_size rows of a Jacobian at a time) while the results equal plain
vmap's. Collectives over the vmapped axis (`axis_name`) would only see one chunk, so
the two options exclude each other.
"""
from __future__ import annotations

from typing import Any, Callable

from padax.core.abstract import get_aval
from padax.core.source_info import user_location
from padax.functional.lax.control import scan
from padax.functional.lax.structural import concatenate, moveaxis, reshape, slice as lslice
from padax.runtime import tree as tree_util
from padax.transforms import batching as _batching  # (a cycle: batching.vmap calls chunked_vmap)


def _split_chunks(x: Any, axis: int, start: int, count: int, chunk: int) -> Any:
    """x[start : start + count*chunk] along `axis`, as (count, ..., chunk at `axis`, ...)."""
    a = get_aval(x)
    starts, limits = [0] * a.ndim, list(a.shape)
    starts[axis], limits[axis] = start, start + count * chunk
    part = lslice(x, tuple(starts), tuple(limits))
    shape = a.shape[:axis] + (count, chunk) + a.shape[axis + 1:]
    return moveaxis(reshape(part, shape), axis, 0)


def _slice_axis(x: Any, axis: int, start: int, stop: int) -> Any:
    a = get_aval(x)
    starts, limits = [0] * a.ndim, list(a.shape)
    starts[axis], limits[axis] = start, stop
    return lslice(x, tuple(starts), tuple(limits))


def chunked_vmap(fun: Callable, in_axes: Any, out_axes: Any, axis_size: int | None, spmd_axis_name: Any,
                 chunk_size: int, name: str) -> Callable:
    """The function `vmap(fun, in_axes, out_axes, ..., chunk_size=chunk_size)` returns."""

    def wrapped(*args, **kwargs):
        leaves, in_tree = tree_util.flatten(args)
        axes = _batching._broadcast_prefix(in_axes, args, "in_axes")
        mapped = [i for i, ax in enumerate(axes) if ax is not None]
        norm = {i: axes[i] % get_aval(leaves[i]).ndim for i in mapped if get_aval(leaves[i]).ndim}
        sizes = {get_aval(leaves[i]).shape[norm[i]] for i in mapped if i in norm}
        if axis_size is not None:
            sizes.add(axis_size)
        if len(sizes) != 1 or len(norm) != len(mapped):
            return _batching.vmap(fun, in_axes=in_axes, out_axes=out_axes, axis_size=axis_size,
                                  spmd_axis_name=spmd_axis_name)(*args, **kwargs)  # (vmap raises the right error)
        n = sizes.pop()
        count, rest = divmod(n, chunk_size)
        if n <= chunk_size:
            return _batching.vmap(fun, in_axes=in_axes, out_axes=out_axes, axis_size=axis_size,
                                  spmd_axis_name=spmd_axis_name)(*args, **kwargs)

        def call_on(pieces: dict, size: int):
            full = list(leaves)
            for i, p in pieces.items():
                full[i] = p
            f = _batching.vmap(fun, in_axes=in_axes, out_axes=out_axes, axis_size=size if not mapped else None,
                               spmd_axis_name=spmd_axis_name)
            return f(*in_tree.unflatten(full), **kwargs)

        chunks = {i: _split_chunks(leaves[i], norm[i], 0, count, chunk_size) for i in mapped}
        keys = list(chunks)
        _, stacked = scan(lambda c, xs: ((), call_on(dict(zip(keys, xs)), chunk_size)), (),
                          [chunks[i] for i in keys] if keys else None, length=count)
        out_leaves, out_tree = tree_util.flatten(stacked)
        oaxes = _batching._broadcast_prefix(out_axes, out_tree.unflatten(out_leaves), "out_axes")
        merged = []
        for y, oa in zip(out_leaves, oaxes):
            ya = get_aval(y)
            if oa is None:  # unbatched: every chunk produced the same value
                merged.append(reshape(_slice_axis(y, 0, 0, 1), ya.shape[1:]))
                continue
            oa %= ya.ndim - 1
            moved = moveaxis(y, 0, oa)                       # (..., count, chunk, ...)
            ma = get_aval(moved)
            merged.append(reshape(moved, ma.shape[:oa] + (count * chunk_size,) + ma.shape[oa + 2:]))
        if rest:
            tail = call_on({i: _slice_axis(leaves[i], norm[i], count * chunk_size, n) for i in mapped}, rest)
            t_leaves = tree_util.leaves(tail)
            merged = [m if oa is None else concatenate([m, t], oa % get_aval(m).ndim)
                      for m, t, oa in zip(merged, t_leaves, oaxes)]
        return out_tree.unflatten(merged)

    wrapped.__name__ = f"vmap({name}, chunk_size={chunk_size})"
    return wrapped


def check_chunk_size(chunk_size: Any, axis_name: Any) -> int:
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"vmap: chunk_size must be a positive int, got {chunk_size!r}{user_location()}")
    if axis_name is not None:
        raise ValueError(f"vmap: chunk_size cannot be combined with axis_name: collectives over the vmapped "
                         f"axis would only see one chunk{user_location()}")
    return chunk_size
