"""`ffi_call_p`: a call of a native kernel registered with XLA's typed FFI (padax.ffi.ffi_call).

Params: `target_name` (the registered custom-call target), `result_avals`, `vmap_method` (how vmap
batches it; None refuses), `input_output_aliases` (pairs (operand, result) that share a buffer),
`attributes` (sorted (name, value) pairs, hashable: arrays are wrapped in `HashableArray`) and
`has_side_effect` (kept even when its results are unused).

The lowering (padax/lowering/rules/ffi.py) emits `stablehlo.custom_call` with the typed-FFI API
version 4 and the attributes as a backend_config dictionary, so a compiled program calls the kernel
with no Python in between; eagerly it runs through padax's eager dispatch (a compiled one-op program).
The call has no derivative of its own (padax cannot see inside the kernel): differentiate it through
`padax.custom_jvp`/`custom_vjp`.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from padax.core.effects import io_effect, no_effects
from padax.core.primitive import Primitive
from padax.functional.lax.control.loops import scan
from padax.functional.lax.structural import (
    batch_size,
    bdim_to_front,
    broadcast,
    concatenate,
    expand_dims,
    index_in_dim,
)

ffi_call_p = Primitive("ffi_call", multiple_results=True)
# programs holding a native call are keyed by their module in the persistent cache (lowering runs, so the
# target's registration is checked in every process)
ffi_call_p.lowering_by_padax = False

VMAP_METHODS = ("sequential", "sequential_unrolled", "expand_dims", "broadcast_all")


class HashableArray:
    """A numpy array attribute of an FFI call, hashed and compared by value (call params must hash)."""

    __slots__ = ("val",)

    def __init__(self, val: np.ndarray):
        self.val = np.array(val)
        self.val.setflags(write=False)

    def __hash__(self) -> int:
        return hash((self.val.shape, self.val.dtype.str, self.val.tobytes()))

    def __eq__(self, other: Any) -> bool:
        return (type(other) is HashableArray and self.val.shape == other.val.shape
                and self.val.dtype == other.val.dtype and bool(np.array_equal(self.val, other.val)))

    def __repr__(self) -> str:
        return repr(self.val)


def _abstract(*avals, result_avals, **params):
    return list(result_avals)


ffi_call_p.def_abstract_eval(_abstract)
ffi_call_p.effects_rule = lambda params: frozenset([io_effect]) if params["has_side_effect"] else no_effects


def _no_derivative(primals, tangents, *, target_name, **params):
    raise TypeError(
        f"ffi_call({target_name!r}) is not differentiable: padax cannot see inside a native kernel. Wrap the "
        f"function that calls it in padax.custom_vjp (or custom_jvp) and give it a derivative rule, e.g. "
        f"another FFI call computing the gradient (see docs/native_code.md).")


ffi_call_p.jvp_rule = _no_derivative


def _batch(args, dims, *, target_name, result_avals, vmap_method, **params):
    if vmap_method not in VMAP_METHODS:
        raise ValueError(
            f"ffi_call({target_name!r}) under vmap: pass vmap_method= to ffi_call to say how the kernel handles a "
            f"batch: 'sequential' (a loop, one call per batch element), 'sequential_unrolled' (the same, "
            f"unrolled in the program), 'expand_dims' (one call; the batch axis leads, unbatched operands get "
            f"a leading axis of size 1) or 'broadcast_all' (one call; every operand is broadcast to the "
            f"batch). Got vmap_method={vmap_method!r}.")
    size = batch_size(args, dims)
    if vmap_method in ("sequential", "sequential_unrolled"):
        batched = [d is not None for d in dims]
        fixed = [x for x, b in zip(args, batched) if not b]
        seq = [bdim_to_front(x, d, size) for x, d in zip(args, dims) if d is not None]

        def one(xs):
            it_f, it_s = iter(fixed), iter(xs)
            ops = [next(it_s) if b else next(it_f) for b in batched]
            return ffi_call_p.bind(*ops, target_name=target_name, result_avals=result_avals,
                                   vmap_method=vmap_method, **params)

        if vmap_method == "sequential_unrolled":
            per = [one([index_in_dim(x, i, 0, keepdims=False) for x in seq]) for i in range(size)]
            outs = [_stack([p[k] for p in per]) for k in range(len(result_avals))]
        else:
            _, outs = scan(lambda c, xs: (c, one(xs)), (), seq)
        return list(outs), [0] * len(result_avals)
    if vmap_method == "expand_dims":
        xs = [bdim_to_front(x, d, size) if d is not None else broadcast(x, (1,)) for x, d in zip(args, dims)]
    else:
        xs = [bdim_to_front(x, d, size) for x, d in zip(args, dims)]
    outs = ffi_call_p.bind(*xs, target_name=target_name,
                           result_avals=tuple(a.update(shape=(size,) + a.shape) for a in result_avals),
                           vmap_method=vmap_method, **params)
    return outs, [0] * len(outs)


def _stack(xs):
    return concatenate([expand_dims(x, (0,)) for x in xs], 0)


ffi_call_p.batch_rule = _batch
