"""The `shard_map` primitive and its abstract eval: a body run once per block of a device mesh.

`shard_map(*consts, *args, body, mesh, in_specs, out_specs, check_rep, auto)` runs `body` (a const-free
ClosedJaxpr over per-device blocks) on every device of `mesh`; the specs say how each global operand and
result is cut into blocks. Its eager impl and its jvp, partial-eval, transpose and batching rules need
the transformation machinery and are installed by padax/transforms/shard_map.py (as jit_p's are); its
lowering is in padax/lowering/rules/parallel.py.
"""
from __future__ import annotations

import math

from padax.core.abstract import ShapedArray
from padax.core.primitive import Primitive
from padax.runtime.sharding import Mesh, PartitionSpec

shard_map_p = Primitive("shard_map", multiple_results=True)


def split_sizes(mesh: Mesh, spec: PartitionSpec, ndim: int) -> list[int]:
    """How many blocks each axis of an array is cut into by `spec` over `mesh`."""
    sizes = mesh.shape
    return [math.prod(sizes[a] for a in spec.axes_of(d)) for d in range(ndim)]


def block_aval(mesh: Mesh, spec: PartitionSpec, aval: ShapedArray) -> ShapedArray:
    """The aval of one block (what the body sees) of a global array laid out by `spec`."""
    ks = split_sizes(mesh, spec, aval.ndim)
    return aval.update(shape=tuple(n // k for n, k in zip(aval.shape, ks)))


def global_aval(mesh: Mesh, spec: PartitionSpec, aval: ShapedArray) -> ShapedArray:
    """The aval of the global array whose blocks (laid out by `spec`) have `aval`."""
    ks = split_sizes(mesh, spec, aval.ndim)
    return aval.update(shape=tuple(n * k for n, k in zip(aval.shape, ks)))


@shard_map_p.def_abstract_eval
def shard_map_abstract(*avals, body, mesh, in_specs, out_specs, check_rep, auto=frozenset()):
    return [global_aval(mesh, s, a) for s, a in zip(out_specs, body.out_avals)]
