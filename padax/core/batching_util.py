"""What batching rules (next to each primitive) need.

A batch rule has the signature `rule(args, dims, **params) -> (out, out_dim)`
(lists for multiple-result primitives). `dims[i]` is the batch axis of
`args[i]`, or `not_mapped` (None) if that operand is not batched.
"""
from __future__ import annotations

from typing import Any, Sequence

not_mapped = None


def _aval(x):
    from padax.functional._arrays import aval_of
    return aval_of(x)


def moveaxis(x: Any, src: int, dst: int) -> Any:
    from padax.functional.lax.structural import transpose
    nd = _aval(x).ndim
    src, dst = src % nd, dst % nd
    if src == dst:
        return x
    perm = [i for i in range(nd) if i != src]
    perm.insert(dst, src)
    return transpose(x, perm)


def bdim_to_front(x: Any, bdim: int | None, size: int) -> Any:
    """Put the batch axis first; an unbatched operand is broadcast along a new leading axis."""
    from padax.functional.lax.structural import broadcast
    if bdim is None:
        return broadcast(x, (size,))
    return moveaxis(x, bdim, 0)


def batch_size(args: Sequence[Any], dims: Sequence[int | None]) -> int:
    for x, d in zip(args, dims):
        if d is not None:
            return _aval(x).shape[d]
    raise ValueError("no batched operand")


def elementwise_batch_rule(prim):
    """Batch rule for elementwise primitives: batched operands' axes moved to the front,
    unbatched ones broadcast (scalars-as-params are unaffected)."""
    def rule(args, dims, **params):
        size = batch_size(args, dims)
        ranks = [_aval(x).ndim - (d is not None) for x, d in zip(args, dims)]
        if all(d == dims[0] for d in dims) and len(set(ranks)) == 1:
            return prim.bind(*args, **params), dims[0]
        xs = [bdim_to_front(x, d, size) for x, d in zip(args, dims)]
        return prim.bind(*xs, **params), 0
    prim.batch_rule = rule
    return rule
