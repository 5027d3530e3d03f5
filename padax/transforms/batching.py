"""vmap, the user API over the batching interpreter (padax/interpreters/batching.py)."""
from __future__ import annotations

import weakref
from typing import Any, Callable

import numpy as np

from padax.config import config
from padax.core import node_state
from padax.core.abstract import get_aval
from padax.core.ad_util import float0
from padax.core.errors import ImmutableTensorError
from padax.core.ref import RefError
from padax.core.source_info import user_location
from padax.core.trace import check_no_leaks, new_trace, set_current_trace, trace_state
from padax.functional.lax.structural import bdim_to_front, moveaxis
from padax.functional.refs import new_ref, ref_get, ref_set
from padax.interpreters.ad import write_back_redirects
from padax.interpreters.batching import BatchTrace, BatchTracer, names_axis  # noqa: F401 (re-exported)
from padax.interpreters.discharge import is_ref
from padax.runtime import tree as tree_util
from padax.transforms import chunked as _chunked  # (a cycle: chunked_vmap calls vmap)


def _broadcast_prefix(spec: Any, tree: Any, what: str) -> list:
    """Expand an in_axes/out_axes prefix spec to one entry per leaf of `tree`."""
    leaves, treedef = tree_util.flatten(tree)
    if isinstance(spec, bool):
        raise TypeError(f"vmap {what} entries must be int or None, got {spec!r}{user_location()}")
    if spec is None or isinstance(spec, int):
        return [spec] * len(leaves)
    spec_leaves, spec_tree = tree_util.flatten(spec, is_leaf=lambda x: x is None)
    try:
        subtrees = spec_tree.flatten_up_to(tree)
    except (ValueError, TypeError) as e:
        raise ValueError(f"vmap {what} specification {spec!r} does not match the argument tree "
                         f"{treedef}: {e}{user_location()}") from None
    out = []
    for s, sub in zip(spec_leaves, subtrees):
        if s is not None and (not isinstance(s, int) or isinstance(s, bool)):
            raise TypeError(f"vmap {what} entries must be int or None, got {s!r}{user_location()}")
        out += [s] * len(tree_util.leaves(sub))
    return out


def _unbatched_tensor(name: str, value: Any) -> Any:
    """A Tensor from outside vmap updated in place inside it: its value after, which must not be batched."""
    if value.bdim is not None:
        raise ImmutableTensorError(
            f"vmap({name}): a Tensor made outside the vmapped function was updated in place with a value that "
            f"differs across the mapped axis ({get_aval(value).str_short()} per example){user_location()}; "
            "it holds one value for all examples. Make the Tensor inside the function, or return the value.")
    return value.val


def _unbatched_state(trace: BatchTrace, name: str, value: Any, leaf: Any, origin: Any, attr: str) -> Any:
    """A layer state updated under vmap, as the value of the layer passed in: unbatched, or batched
    along the axis that argument was mapped over; a batched update of an unmapped layer is an error."""
    v, d = trace.lift(value)
    if d is None:
        return v
    if isinstance(leaf, BatchTracer) and leaf._trace is trace and leaf.bdim is not None:
        with set_current_trace(trace.parent):
            return moveaxis(bdim_to_front(v, d, trace.axis_size), 0, leaf.bdim)
    raise ValueError(f"vmap({name}): {type(origin).__name__}.{attr} was updated with a value that differs across "
                     f"the mapped axis ({get_aval(value).str_short()} per example), but the layer passed into vmap "
                     f"is not mapped (in_axes=None), so it has one {attr} for all examples{user_location()}. Map "
                     "the layer too (an ensemble), call model.eval(), or synchronise the statistic over the axis "
                     "(BatchNorm's axis_name=).")


def vmap(fun: Callable, in_axes: Any = 0, out_axes: Any = 0, axis_name: Any = None,
         axis_size: int | None = None, spmd_axis_name: Any = None, chunk_size: int | None = None) -> Callable:
    """Vectorise `fun` over a batch axis of its inputs (see jax.vmap).

    `spmd_axis_name` (a mesh axis name or a tuple of them): inside a sharded program, the
    batch dimension is laid out over those mesh axes wherever the vectorised function
    constrains shardings (`with_sharding_constraint`) or calls `shard_map`.
    `chunk_size`: vectorise that many examples at a time in a compiled loop, bounding
    memory (equal results; see `padax.transforms.chunked`).

    Args:
        fun: the function of one example.
        in_axes: the batch axis of each positional argument (an int, None for "not batched", or a pytree
            prefix of the arguments).
        out_axes: where the batch axis goes in the outputs.
        axis_name: a name for the batch axis, for collectives (psum, ...) inside `fun`.
        axis_size: the batch size, needed only when no argument is batched.

    Returns:
        The batched function.

    Examples:
        >>> import padax
        >>> m = padax.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> padax.vmap(lambda row, y: row @ y, in_axes=(0, None))(m, padax.to_tensor([1.0, 10.0])).tolist()
        [21.0, 43.0]
    """
    if isinstance(in_axes, list):
        in_axes = tuple(in_axes)
    name = getattr(fun, "__name__", "fun")
    if chunk_size is not None:
        return _chunked.chunked_vmap(fun, in_axes, out_axes, axis_size, spmd_axis_name,
                                     _chunked.check_chunk_size(chunk_size, axis_name), name)

    def wrapped(*args, **kwargs):
        if isinstance(in_axes, tuple) and len(in_axes) != len(args):
            raise ValueError(f"vmap({name}): in_axes has {len(in_axes)} entries but {len(args)} positional "
                             f"arguments were given{user_location()}")
        leaves, in_tree = tree_util.flatten(args)
        axes = _broadcast_prefix(in_axes, args, "in_axes")
        kw_leaves, kw_tree = tree_util.flatten(kwargs)
        sizes = {}
        paths = [tree_util.keystr(p) for p, _ in tree_util.flatten_with_path(args)[0]]
        norm_axes = []
        for leaf, ax, path in zip(leaves, axes, paths):
            if ax is None:
                norm_axes.append(None)
                continue
            nd = get_aval(leaf).ndim
            if not -nd <= ax < nd:
                raise ValueError(f"vmap({name}): in_axes {ax} is out of range for argument {path} of shape "
                                 f"{get_aval(leaf).shape}{user_location()}")
            ax %= nd
            norm_axes.append(ax)
            sizes[path] = get_aval(leaf).shape[ax]
        size_set = set(sizes.values())
        if axis_size is not None:
            size_set.add(axis_size)
        if len(size_set) > 1:
            detail = ", ".join(f"args{p}: {s}" for p, s in sizes.items())
            raise ValueError(f"vmap({name}) got inconsistent sizes for the mapped axes: {detail}"
                             f"{' and axis_size=' + str(axis_size) if axis_size is not None else ''}{user_location()}")
        if not size_set:
            raise ValueError(f"vmap({name}) needs at least one mapped input, or axis_size=")
        size = size_set.pop()
        # a mapped Ref argument: the function sees a batched ref holding its value; its final value is
        # written back to the ref passed in after the function returns (as jax's vmap of a ref)
        mapped_refs = [(i, ref_get(x)) for i, (x, a) in enumerate(zip(leaves, norm_axes))
                       if a is not None and is_ref(x)]
        trace = BatchTrace(trace_state.trace, size, axis_name, spmd_axis_name)
        with new_trace(trace):
            ins = [BatchTracer(trace, x, a) if a is not None else x for x, a in zip(leaves, norm_axes)]
            for i, val in mapped_refs:
                ins[i] = new_ref(BatchTracer(trace, val, norm_axes[i]))
            rebuilt = (in_tree.unflatten(ins), kw_tree.unflatten(kw_leaves))
            start = node_state.mark()
            out = fun(*rebuilt[0], **rebuilt[1])
            state = node_state.updates((args, kwargs), rebuilt, start,
                                       lambda v, leaf, o, n: _unbatched_state(trace, name, v, leaf, o, n))
            rebuilt = None
            out_leaves, out_tree = tree_util.flatten(out)
            oaxes = _broadcast_prefix(out_axes, out, "out_axes")
            results = []
            for o, oa in zip(out_leaves, oaxes):
                if isinstance(o, np.ndarray) and o.dtype == float0:  # an int output's tangent: zeros, as JAX
                    shape = list(o.shape)
                    if oa is not None:
                        shape.insert(oa % (o.ndim + 1), size)
                    results.append(np.zeros(tuple(shape), float0))
                    continue
                v, d = trace.lift(o)
                if is_ref(v):
                    raise RefError(f"vmap({name}): the function returned a Ref {get_aval(v).str_short()}; a mutable "
                                   f"array ref cannot escape a transformation (return ref[...] instead)"
                                   f"{user_location()}")
                if oa is None:
                    if d is not None:
                        raise ValueError(f"vmap({name}): an output is batched but its out_axes is None")
                    results.append(v)
                    continue
                with set_current_trace(trace.parent):
                    v = bdim_to_front(v, d, size)
                    nd = get_aval(v).ndim
                    if not -nd <= oa < nd:
                        raise ValueError(f"vmap({name}): out_axes {oa} is out of range for an output of shape "
                                         f"{get_aval(v).shape[1:]} per example (batched rank {nd}: allowed "
                                         f"{-nd}..{nd - 1}){user_location()}")
                    results.append(moveaxis(v, 0, oa % nd))
        for i, _ in mapped_refs:
            ref_set(leaves[i], ..., moveaxis(ref_get(ins[i].val), 0, norm_axes[i]))
        out = out_leaves = o = v = None  # (drop this frame's references: a temporary the function updated
        write_back_redirects(trace, lambda v: _unbatched_tensor(name, v))  # in place is gone now)
        if config.check_tracer_leaks:
            ref = weakref.ref(trace)
            trace = ins = None
            check_no_leaks(ref, f"vmap({name})")
        node_state.write(state)
        return out_tree.unflatten(results)

    wrapped.__name__ = f"vmap({name})"
    return wrapped
