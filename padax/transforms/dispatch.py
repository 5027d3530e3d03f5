"""Eager execution: each primitive runs as a cached, compiled single-op program.

The cache key is (primitive, input avals, params). A miss runs the
primitive's abstract-eval (which checks shapes and dtypes and raises the
user-facing error), lowers a one-equation jaxpr, compiles it and keeps the
executable; a hit goes straight to PJRT.
"""
from __future__ import annotations

from typing import Any

from padax.core import primitive as _primitive
from padax.core.abstract import ShapedArray
from padax.core.jaxpr import ClosedJaxpr, Jaxpr, JaxprEqn, Var
from padax.core.source_info import user_frame
from padax.core.trace import Tracer, escaped_tracer_error
from padax.devices import backend
from padax.devices._jaxlib import XlaRuntimeError
from padax.devices.array import Tensor
from padax.devices.backend import default_device
from padax.devices.executable import Executable
from padax.devices.put import device_put
from padax.lowering.compile import compile_lowered
from padax.lowering.mlir import lower_jaxpr

_cache: dict[tuple, Executable] = {}


def clear_cache() -> None:
    _cache.clear()
    _placed_cache.clear()


def out_avals_of(prim, avals, params) -> list[ShapedArray]:
    out = prim.abstract_eval(*avals, **params)
    return list(out) if prim.multiple_results else [out]


def _compile_primitive(prim, avals: tuple, params: dict) -> Executable:
    out_avals = out_avals_of(prim, avals, params)
    invars = [Var(a) for a in avals]
    outvars = [Var(a) for a in out_avals]
    jaxpr = Jaxpr([], invars, outvars, [JaxprEqn(prim, invars, outvars, params, user_frame())])
    device = default_device()
    exe = compile_lowered(lower_jaxpr(jaxpr, name=prim.name), [device])
    return Executable(exe, out_avals, device)


def apply_primitive(prim, args: tuple, params: dict) -> Any:
    try:
        bufs = [a._buf for a in args]
        avals = tuple([a.aval for a in args])
    except AttributeError:
        for a in args:
            if isinstance(a, Tracer):
                raise escaped_tracer_error(a, prim.name) from None
        args = tuple(a if type(a) is Tensor else device_put(a) for a in args)
        bufs = [a._buf for a in args]
        avals = tuple([a.aval for a in args])
    key = (prim, avals, tuple(params.items()))
    exe = _cache.get(key)
    if exe is None:
        exe = _cache[key] = _compile_primitive(prim, avals, params)
    try:
        outs = exe(bufs)
    except XlaRuntimeError as e:  # arguments on other devices or sharded: see _apply_placed
        outs = _apply_placed(prim, key, avals, params, bufs, e)
    return outs if prim.multiple_results else outs[0]


_placed_cache: dict[tuple, Any] = {}


def _apply_placed(prim, key, avals, params, bufs, error) -> list:
    """Run a primitive whose arguments are not (all) on the default device, or are sharded.

    The op is compiled for the arguments' devices (an SPMD program when they
    span several; XLA chooses the results' layout), so eager code works on
    sharded Tensors too. Only reached after the fast path's executable
    refused the buffers.
    """
    from padax.transforms.spmd import SpmdDispatch, on_default_device
    if all(on_default_device(b) for b in bufs):
        raise error
    spmd = _placed_cache.get(key)
    if spmd is None:
        out_avals = out_avals_of(prim, avals, params)
        invars = [Var(a) for a in avals]
        outvars = [Var(a) for a in out_avals]
        jaxpr = Jaxpr([], invars, outvars, [JaxprEqn(prim, invars, outvars, params, user_frame())])
        spmd = _placed_cache[key] = SpmdDispatch(ClosedJaxpr(jaxpr, []), prim.name)
    return spmd(bufs)


def _clear_on_client_reset() -> None:
    _cache.clear()
    _placed_cache.clear()


backend.on_client_reset(_clear_on_client_reset)


_primitive.set_default_impl(apply_primitive)
