"""Eager execution: each primitive runs as a cached, compiled single-op program.

Each (primitive, params) gets a jitted one-equation function, so a repeated
op runs on jaxlib's C++ dispatcher like any cached jit call: signature
lookup, execute and result wrapping without padax's Python. A new signature
runs the primitive's abstract-eval (which checks shapes and dtypes and
raises the user-facing error), lowers and compiles once.
"""
from __future__ import annotations

import importlib
from typing import Any

import numpy as np

from padax.config import config
from padax.core import primitive as _primitive, trace as _trace
from padax.core.abstract import ShapedArray
from padax.core.jaxpr import ClosedJaxpr, Jaxpr, JaxprEqn, Literal, Var
from padax.core.primitive import Primitive
from padax.core.source_info import user_frame
from padax.functional import _fast
from padax.functional.lax.control import cond_p, scan_p, while_p
from padax.interpreters import tape
from padax.interpreters.tape import GradTensor
from padax.lowering import registry as _lowering_registry
from padax.lowering.compile import compile_jaxpr_on
from padax.runtime import _jaxlib, backend as _backend
from padax.runtime.array import Tensor
from padax.runtime.backend import default_device
from padax.runtime.executable import Executable
from padax.runtime.put import device_put
from padax.transforms import jit as _jit  # (a cycle: jit_primitive keys programs by jaxpr_key)

_cache: dict[tuple, Any] = {}  # (primitive, params) -> jitted one-equation function


def clear_cache() -> None:
    _cache.clear()
    _vjp_cache.clear()
    for prim in list(_with_eager_fn):
        prim.eager_fn = None
    _forget_twins()


def out_avals_of(prim, avals, params) -> list[ShapedArray]:
    out = prim.eval_avals(avals, params)
    return list(out) if prim.multiple_results else [out]


def _compile_primitive(prim, avals: tuple, params: dict) -> Executable:
    out_avals = out_avals_of(prim, avals, params)
    invars = [Var(a) for a in avals]
    outvars = [Var(a) for a in out_avals]
    jaxpr = Jaxpr([], invars, outvars, [JaxprEqn(prim, invars, outvars, params, user_frame())])
    device = default_device()
    exe, host_callbacks = compile_jaxpr_on(jaxpr, prim.name, (), device)
    return Executable(exe, out_avals, device, host_callbacks=host_callbacks)


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
    def run(*args):
        with _trace.bind_policy(None):  # a bind policy (auto_cast) already saw these operands at the eager bind
            return prim.bind(*args, **params)
    run.__name__ = run.__qualname__ = prim.name
    fn = _jit.jit(run)
    fn._padax_jit.eager_op = True
    fn._padax_jit.eager_prim = (prim, params)
    fn = fn._dispatch  # called bare: apply_primitive names its errors (no wrapper on the hot path)
    if not params:
        _with_eager_fn.add(prim)
    return fn


def _build_twin(op, name: str, static_argnums: tuple):
    """`op` compiled whole behind the C++ dispatcher (padax/functional/_fast.py): a miss compiles
    the signature when the call is an eager one on plain Tensors, and otherwise runs `op` itself."""
    jf = _jit.JitFunction(op, static_argnums=static_argnums)
    jf.eager_op = True
    jf.__name__ = name  # (the op's public name in compile logs and profiles)
    EvalTrace = _trace.EvalTrace
    trace_state = _trace.trace_state

    def miss(*args):
        # (a Tensor that needs a gradient runs the compiled op too: the call is recorded as one tape node)
        if (type(trace_state.trace) is EvalTrace and not (config.debug_nans or config.debug_infs)
                and all(type(a) is Tensor or type(a) is GradTensor for i, a in enumerate(args)
                        if i not in static_argnums)):
            return jf._cache_miss(*args)
        return op(*args), None, False
    # the bare C++ dispatcher on this hot path (an out-of-memory there keeps XLA's text)
    return _jit.make_dispatcher(jf, miss, object())._dispatch


def _forget_twins() -> None:
    for t in _fast.twins:
        t.reset()


# ---- the tape's backward of one eager primitive, compiled per signature ------------------------------
_vjp_cache: dict[tuple, Any] = {}


def _compiled_vjp(prim, params: dict, snaps: list, idx: tuple, cts: list, out_avals: list) -> Any:
    """The cotangents of operands `idx` of an eagerly recorded primitive (padax/interpreters/tape.py), as one
    compiled program per (primitive, params, operands, which output cotangents are zero): the tape's
    backward then runs on the C++ dispatcher instead of re-linearizing the op in Python each time."""
    mask = tuple(c is None for c in cts)
    try:
        key = (prim, tuple(params.items()), idx, mask)
        fn = _vjp_cache.get(key)
    except TypeError:  # an unhashable parameter: the tape linearizes it directly
        return NotImplemented
    if fn is None:
        def run(operands, live_cts):
            it = iter(live_cts)
            full = [None if z else next(it) for z in mask]
            return tape.primitive_vjp_direct(prim, params, list(operands), idx, full, out_avals)
        run.__name__ = run.__qualname__ = f"{prim.name}_vjp"
        fn = _jit.jit(run)
        if len(_vjp_cache) > _CACHE_LIMIT:
            _vjp_cache.clear()
        _vjp_cache[key] = fn
    return fn(snaps, [c for c in cts if c is not None])


tape.set_compiled_vjp(_compiled_vjp)
_fast.set_builder(_build_twin)
_backend.on_client_reset(clear_cache)  # (a replaced client, or too many live programs: forget the eager ones)
_primitive.set_default_impl(apply_primitive)


def _load_lowering_rules() -> None:
    """Import padax's lowering rules (and with them jaxlib's MLIR bindings), on the first lowering only."""
    importlib.import_module("padax.lowering.rules")


_lowering_registry.set_rule_loader(_load_lowering_rules)


# ---- eager control flow: compiled programs cached by the structure of their bodies -------------------
# Eager control flow traces the user's functions on every call (fresh lambdas, fresh jaxprs);
# keying the executables on the bodies' structure, not their identity, lets a call that traces
# to the same program reuse the compiled one.

def jaxpr_key(jaxpr: Jaxpr) -> tuple:
    """A hashable key equal for jaxprs that compute the same thing (same equations, params,
    literals and types; variable names and source locations do not matter)."""
    ids: dict[Var, int] = {}

    def atom(v):
        if type(v) is Literal:
            a = np.asarray(v.val)
            return ("lit", a.dtype.str, a.tobytes(), v.aval)
        return ids[v]

    for v in jaxpr.constvars + jaxpr.invars:
        ids[v] = len(ids)
    parts: list = [tuple(v.aval for v in jaxpr.constvars), tuple(v.aval for v in jaxpr.invars)]
    for eqn in jaxpr.eqns:
        ins = tuple(atom(v) for v in eqn.invars)
        for v in eqn.outvars:
            ids[v] = len(ids)
        parts.append((eqn.primitive, ins, tuple(v.aval for v in eqn.outvars),
                      tuple((k, _param_key(p)) for k, p in eqn.params.items())))
    parts.append(tuple(atom(v) for v in jaxpr.outvars))
    return tuple(parts)


def _param_key(p: Any) -> Any:
    if isinstance(p, ClosedJaxpr):
        return ("jaxpr", jaxpr_key(p.jaxpr)) if not p.consts else p
    if isinstance(p, tuple):
        return tuple(_param_key(q) for q in p)
    return p  # params are hashable by contract; other objects compare by their own rules


_eager_cache: dict[tuple, Any] = {}


def _eager_impl(prim: Primitive) -> None:
    """Run the primitive as a compiled one-equation program (see `jaxpr_key`)."""
    def impl(*args, **params):
        args = [a if type(a) is Tensor else device_put(a) for a in args]
        avals = tuple(a.aval for a in args)
        key = (prim, avals, tuple((k, _param_key(p)) for k, p in params.items()))
        exe = _eager_cache.get(key)
        if exe is None:
            if len(_eager_cache) > 256:
                _eager_cache.clear()
            exe = _eager_cache[key] = _compile_primitive(prim, avals, params)
        return exe([a._buf for a in args])

    prim.def_impl(impl)


for _p in (cond_p, while_p, scan_p):
    _eager_impl(_p)
