"""Eager execution: each primitive runs as a cached, compiled single-op program.

Each (primitive, params) gets a jitted one-equation function, so a repeated
op runs on jaxlib's C++ dispatcher like any cached jit call: signature
lookup, execute and result wrapping without padax's Python. A new signature
runs the primitive's abstract-eval (which checks shapes and dtypes and
raises the user-facing error), lowers and compiles once.
"""
from __future__ import annotations

from typing import Any

from padax.core import primitive as _primitive
from padax.core.abstract import ShapedArray
from padax.core.jaxpr import Jaxpr, JaxprEqn, Var
from padax.core.source_info import user_frame
from padax.devices import _jaxlib
from padax.devices.backend import default_device
from padax.devices.executable import Executable
from padax.lowering.compile import compile_lowered
from padax.lowering.mlir import lower_jaxpr

_cache: dict[tuple, Any] = {}  # (primitive, params) -> jitted one-equation function


def clear_cache() -> None:
    _cache.clear()
    for prim in list(_with_eager_fn):
        prim.eager_fn = None


def out_avals_of(prim, avals, params) -> list[ShapedArray]:
    out = prim.eval_avals(avals, params)
    return list(out) if prim.multiple_results else [out]


def _compile_primitive(prim, avals: tuple, params: dict) -> Executable:
    out_avals = out_avals_of(prim, avals, params)
    invars = [Var(a) for a in avals]
    outvars = [Var(a) for a in out_avals]
    jaxpr = Jaxpr([], invars, outvars, [JaxprEqn(prim, invars, outvars, params, user_frame())])
    device = default_device()
    lowered = lower_jaxpr(jaxpr, name=prim.name)
    exe = compile_lowered(lowered, [device])
    return Executable(exe, out_avals, device, host_callbacks=lowered.host_callbacks)


def apply_primitive(prim, args: tuple, params: dict) -> Any:
    """Run one primitive eagerly: a jitted one-equation function per (primitive, params).

    Going through `jit` puts eager ops on jaxlib's C++ dispatcher: a repeated op with
    arguments of a seen signature runs without padax's Python; a new signature compiles
    once (the primitive's abstract eval checks the operands and raises the user-facing
    error). Host values, sharded or elsewhere-placed arguments take jit's Python path.
    """
    if not params:  # (most elementwise ops) the function hangs on the primitive itself
        fn = prim.eager_fn
        if fn is None:
            fn = prim.eager_fn = _eager_function(prim, params)
        try:
            return fn(*args)
        except (_jaxlib.XlaRuntimeError, ValueError) as e:  # from C++ dispatch: out of memory named as in Python
            fn._padax_jit.fast_path_error(e, args, {})
            raise
    try:
        key = (prim, tuple(params.items()))
        fn = _cache.get(key)
    except TypeError:  # an unhashable parameter: compile without caching the function
        key, fn = None, None
    if fn is None:
        fn = _eager_function(prim, params)
        if key is not None:
            if len(_cache) > _CACHE_LIMIT:
                _cache.clear()
            _cache[key] = fn
    try:
        return fn(*args)
    except (_jaxlib.XlaRuntimeError, ValueError) as e:
        fn._padax_jit.fast_path_error(e, args, {})
        raise


_CACHE_LIMIT = 4096
_with_eager_fn: set = set()  # primitives whose parameterless eager function is cached on them


def _eager_function(prim, params: dict):
    from padax.transforms.jit import jit

    def run(*args):
        return prim.bind(*args, **params)
    run.__name__ = run.__qualname__ = prim.name
    fn = jit(run)
    fn._padax_jit.eager_op = True
    fn = fn._dispatch  # called bare: apply_primitive names its errors (no wrapper on the hot path)
    if not params:
        _with_eager_fn.add(prim)
    return fn


_primitive.set_default_impl(apply_primitive)
