"""ZeRO-2's gradient path: the layer runs on each device's share of the batch inside a shard_map, and each
parameter's gradient leaves it reduce-scattered over the data axes (never all-reduced whole).

Under plain sharded jit the gradient of a replicated parameter is an
all-reduce that XLA inserts where the backward pass contracts over the split
batch; a layout asking for a split gradient afterwards only slices that
all-reduced value (on CPU XLA does not fuse the two into a reduce-scatter),
so ZeRO-2 would compile to ZeRO-1's program. Here the data axes are manual:
each device computes its local gradient, and `psum_scatter` sums it across
the data axes while leaving every device only its slice.

The price: the forward pass's residuals cross the shard_map boundary as
buffers (XLA cannot fuse across it), so where activations outweigh the
parameters the temporaries can exceed ZeRO-1's; where parameters dominate
they fall to a slice of the gradients.
"""
from __future__ import annotations

import functools
from typing import Any, Sequence

from padax import dtypes
from padax.distributed.fleet import (
    layout,
    model as _model,  # a circle: model's forward calls call_per_shard (attribute use)
)
from padax.functional import _arrays
from padax.functional.lax.parallel import pmean as _pmean
from padax.functional.lax.resharding import psum_scatter as _psum_scatter
from padax.runtime import tree as tree_util
from padax.runtime.sharding import Mesh, PartitionSpec
from padax.transforms.custom import custom_vjp as _custom_vjp
from padax.transforms.shard_map import shard_map as _shard_map


@functools.lru_cache(maxsize=None)
def _scattering_identity(axes: tuple[str, ...], dim: int):
    """f(piece, whole) = whole, whose backward sends whole's cotangent, reduce-scattered along `dim` over
    `axes`, to `piece` (the device's slice of the parameter) and nothing to `whole`."""

    @_custom_vjp
    def scatter_grad(piece: Any, whole: Any) -> Any:
        return whole

    def fwd(piece, whole):
        return whole, None

    def bwd(_, ct):
        name = axes[0] if len(axes) == 1 else axes
        return _psum_scatter(ct, name, scatter_dimension=dim, tiled=True), None

    scatter_grad.defvjp(fwd, bwd)
    return scatter_grad


def scatter_dims(leaves: Sequence[Any], mesh: Mesh, data_axes: Sequence[str]) -> list[int | None]:
    """Per leaf, the dimension its gradient is split along over `data_axes` (ZeRO's slot layout, see
    layout.split_further), or None (not floating point, or no dimension divides)."""
    out: list[int | None] = []
    for x in leaves:
        aval = _arrays.aval_of(x)
        split = None
        if dtypes.is_inexact(aval.dtype):
            base = _without(layout.spec_of(_model.param_sharding(x, mesh), aval.ndim), data_axes)
            split = layout.split_further(mesh, aval.shape, base, data_axes)
        if split is None:
            out.append(None)
            continue
        out.append(next(d for d, (a, b) in enumerate(zip(layout.spec_of(split, aval.ndim), base)) if a != b))
    return out


def _without(spec: list, axes: Sequence[str]) -> list:
    """`spec` with `axes` taken out of every entry (a ZeRO-3 parameter's layout before its data split)."""
    out = []
    for e in spec:
        names = () if e is None else (e,) if isinstance(e, str) else tuple(e)
        out.append(layout.spec_entry([a for a in names if a not in axes]))
    return out


def _slice_spec(dim: int, entry: Any) -> PartitionSpec:
    return PartitionSpec(*([None] * dim), entry)


def call_per_shard(layer: Any, inputs: tuple, kwargs: dict, mesh: Mesh, data_axes: Sequence[str],
                   scatter_axes: Sequence[str]) -> Any:
    """`layer(*inputs, **kwargs)` run per device on its batch rows (dimension 0 of every array split over
    `data_axes`), with gradients of the layer's parameters reduce-scattered over `scatter_axes` (summed
    over the other data axes).

    Array outputs are batch-first and put back together along dimension 0; a
    0-d output (a loss computed inside the layer) is averaged over the data
    axes. As with Paddle's DataParallel, the layer sees its local batch
    (BatchNorm statistics are per device) and a 0-d loss is the mean of the
    devices' local losses.
    """
    batch_axes = layout.live_axes(mesh, data_axes)
    entry = layout.spec_entry(batch_axes)
    axes = layout.live_axes(mesh, scatter_axes)
    leaves, treedef = tree_util.flatten(layer)
    dims = scatter_dims(leaves, mesh, axes)
    pieces = [x for x, d in zip(leaves, dims) if d is not None]
    arrays = {k: v for k, v in kwargs.items() if _arrays.is_array(v) or tree_util.leaves(v) and
              all(_arrays.is_array(x) for x in tree_util.leaves(v))}
    static = {k: v for k, v in kwargs.items() if k not in arrays}
    scalar_outputs: list[bool] = []

    def batch_spec(x: Any) -> PartitionSpec:
        return PartitionSpec(entry) if _arrays.aval_of(x).ndim else PartitionSpec()

    def body(whole, piece, ins, kw):
        it = iter(piece)
        used = [x if d is None else _scattering_identity(axes, d)(next(it), x) for x, d in zip(whole, dims)]
        out = treedef.unflatten(used)(*ins, **kw, **static)
        flat, out_tree = tree_util.flatten(out)
        scalar_outputs[:] = [not _arrays.aval_of(o).ndim for o in flat]
        name = batch_axes[0] if len(batch_axes) == 1 else batch_axes
        return out_tree.unflatten([_pmean(o, name).reshape([1]) if s else o for o, s in zip(flat, scalar_outputs)])

    scattered = layout.spec_entry(axes)
    in_specs = ([PartitionSpec()] * len(leaves), [_slice_spec(d, scattered) for d in dims if d is not None],
                tree_util.map(batch_spec, inputs), tree_util.map(batch_spec, arrays))
    run = _shard_map(body, mesh=mesh, in_specs=in_specs, out_specs=PartitionSpec(entry),
                    axis_names=frozenset(data_axes))
    flat, out_tree = tree_util.flatten(run(leaves, pieces, inputs, arrays))
    return out_tree.unflatten([o[0] if s else o for o, s in zip(flat, scalar_outputs)])
