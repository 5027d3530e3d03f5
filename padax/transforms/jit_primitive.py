"""The `jit` primitive: its eager implementation and its rules under other transformations.

A jitted function called inside a transformation stages out as one `jit`
equation holding its (const-free) jaxpr. Eagerly, the equation runs as one
compiled program (`_jit_impl`); under jvp, linearize, transpose and vmap it
becomes again one `jit` equation over a derived program (see the table
below), so `grad(jit(f))` runs compiled forward and backward passes.
"""
from __future__ import annotations

import collections
import weakref
from typing import Any, Callable, Sequence

from padax.config import config
from padax.core import dtypes
from padax.core.ad_util import Zero, is_undefined, tangent_aval
from padax.core.jaxpr import ClosedJaxpr, Jaxpr, Literal, Var, dce_jaxpr
from padax.core.trace import set_current_trace
from padax.functional.lax.call import jit_p
from padax.functional.lax.structural import batch_size, bdim_to_front
from padax.interpreters.ad import backward_pass, instantiate_tangent, jvp_jaxpr
from padax.interpreters.batching import batch_jaxpr
from padax.interpreters.discharge import discharge_closed, discharge_jaxpr, discharge_rules, jaxpr_has_refs
from padax.interpreters.partial_eval import partial_eval_jaxpr
from padax.lowering.compile import compile_jaxpr_on
from padax.runtime import _jaxlib, backend as _backend
from padax.runtime.array import Tensor, capture_constants
from padax.runtime.backend import default_device
from padax.runtime.executable import Executable
from padax.runtime.put import device_put
from padax.transforms import dispatch as _dispatch  # (a cycle: dispatch builds its eager functions with jit)
from padax.transforms.debug_nans import check_program
from padax.transforms.spmd import SpmdDispatch, needs_spmd, on_default_device
from padax.transforms.staging import trace_flat


def compile_jaxpr(closed: ClosedJaxpr, name: str, donated: Sequence[bool] = (),
                  live: Any = (), donate_consts: Sequence[int] = ()) -> tuple[Executable, list]:
    """Compile a closed jaxpr for the default device; returns it and its consts' buffers.

    `live`: ids of consts that the caller passes afresh at each call (state it reads or updates): they are not
    captured (an in-place update of a captured Tensor drops compiled programs). `donate_consts`: positions
    of consts whose buffers the program may reuse for its outputs (state it overwrites; the caller passes
    buffers no one else holds there).
    A jaxpr that needs several devices (a shard_map or sharding constraint
    inside, or sharded captured values) gets an `SpmdDispatch` instead, which
    takes the consts itself (the returned list is then empty).
    """
    if jaxpr_has_refs(closed):  # refs made inside the program: the pure program has the same signature
        closed = discharge_closed(closed)
    if needs_spmd(closed):
        return SpmdDispatch(closed, name, donated), []
    device = default_device()
    jaxpr = closed.jaxpr
    if donate_consts:  # (the consts lead the arguments either way: as inputs they can be donated)
        n = len(jaxpr.invars)
        donated = tuple(i in set(donate_consts) for i in range(len(closed.consts))) + (tuple(donated) or (False,) * n)
        jaxpr = hoist_consts(closed).jaxpr
    loaded, host_callbacks = compile_jaxpr_on(jaxpr, name, donated, device)
    exe = Executable(loaded, closed.out_avals, device, host_callbacks=host_callbacks)
    const_bufs = [(c if isinstance(c, Tensor) else device_put(c))._buf for c in closed.consts]
    capture_constants([c for c in closed.consts if id(c) not in live] if live else closed.consts)
    return exe, const_bufs


def hoist_consts(closed: ClosedJaxpr) -> ClosedJaxpr:
    """Turn a closed jaxpr's consts into leading inputs (a const-free ClosedJaxpr)."""
    j = closed.jaxpr
    return ClosedJaxpr(Jaxpr([], j.constvars + j.invars, j.outvars, j.eqns), [])


# -- the jit primitive's eager impl: compile the sub-jaxpr once per jaxpr -------------------
# Found by the jaxpr's identity; a jaxpr not seen before (a nested jit traces afresh on each
# call) is looked up by its structure before it is compiled.
_jaxpr_exes: "weakref.WeakKeyDictionary[ClosedJaxpr, Executable]" = weakref.WeakKeyDictionary()
_exes_by_structure: "collections.OrderedDict[tuple, Any]" = collections.OrderedDict()


@jit_p.def_impl
def _jit_impl(*args, jaxpr: ClosedJaxpr, name: str, donated: tuple):
    exe = _jaxpr_exes.get(jaxpr)
    if exe is None:
        skey = _structure_key(jaxpr)
        if skey is not None:
            skey = (skey, donated)
            exe = _lru_get(_exes_by_structure, skey)
        if exe is None:
            exe, _ = compile_jaxpr(jaxpr, name, donated)
            if skey is not None:
                _lru_put(_exes_by_structure, skey, exe, _STRUCTURE_CACHE_SIZE)
        _jaxpr_exes[jaxpr] = exe
    bufs = [(a if type(a) is Tensor else device_put(a))._buf for a in args]
    try:
        outs = exe(bufs)
        if config.debug_nans or config.debug_infs:
            check_program(name, jaxpr, [a if type(a) is Tensor else device_put(a) for a in args], outs)
        return outs
    except _jaxlib.XlaRuntimeError:
        if all(on_default_device(b) for b in bufs) or isinstance(exe, SpmdDispatch):
            raise
        exe = _jaxpr_exes[jaxpr] = SpmdDispatch(jaxpr, name, donated)
        skey = _structure_key(jaxpr)
        if skey is not None:
            _lru_put(_exes_by_structure, (skey, donated), exe, _STRUCTURE_CACHE_SIZE)
        return exe(bufs)


# -- the jit primitive under other transformations -------------------------------------------
# Each transformation of a nested jit is again one jit equation over a derived program:
#
#   jvp        jit of the jvp'd jaxpr; only nonzero tangents are its inputs and outputs
#   linearize  (partial evaluation) a *known* jit, run now (eagerly: one compiled program),
#              computes the primal outputs and the residuals; an *unknown* jit over
#              (residuals, tangents) is staged into the linear program
#   transpose  jit of the transposed jaxpr (backward_pass traced), one compiled program
#   vmap       jit of the batched jaxpr; unbatched operands stay unbatched
#
# The derived programs are cached so that differentiating the same call again binds the very
# same ClosedJaxpr objects: `_jit_impl` then finds their executables by identity and nothing is
# retraced or recompiled. A nested jit stages a freshly traced jaxpr on every call, so the
# first derivation from a jaxpr falls back on a key of its structure (`jaxpr_key`, shared with
# eager control flow); programs derived from derived ones are found by identity. Derived
# programs never donate: a donated primal may be a residual the backward pass still reads.

_derived: "weakref.WeakKeyDictionary[ClosedJaxpr, dict]" = weakref.WeakKeyDictionary()
_by_structure: "collections.OrderedDict[tuple, Any]" = collections.OrderedDict()
_STRUCTURE_CACHE_SIZE = 512


class _StructureKey:
    """A jaxpr's structure (`jaxpr_key`) with its hash computed once: the key is a deep tuple."""

    __slots__ = ("key", "hash")

    def __init__(self, key: tuple):
        self.key = key
        self.hash = hash(key)

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: Any) -> bool:
        return type(other) is _StructureKey and self.hash == other.hash and self.key == other.key


def _structure_key(jaxpr: ClosedJaxpr) -> "_StructureKey | None":
    """A key equal for const-free jaxprs that compute the same thing, or None."""
    if jaxpr.consts:
        return None
    try:
        return _StructureKey(_dispatch.jaxpr_key(jaxpr.jaxpr))
    except TypeError:  # a param that is not hashable: no structural caching for this jaxpr
        return None


def _lru_get(cache: "collections.OrderedDict", key: Any) -> Any:
    hit = cache.get(key)
    if hit is not None:
        cache.move_to_end(key)
    return hit


def _lru_put(cache: "collections.OrderedDict", key: Any, value: Any, limit: int) -> None:
    cache[key] = value
    if len(cache) > limit:
        cache.popitem(last=False)


def _derive(jaxpr: ClosedJaxpr, kind: tuple, build: Callable[[], Any]) -> Any:
    """`build()` for (jaxpr, kind), cached by the jaxpr's identity and then by its structure."""
    per = _derived.get(jaxpr)
    if per is None:
        per = _derived[jaxpr] = {}
    hit = per.get(kind)
    if hit is not None:
        return hit
    skey = _structure_key(jaxpr)
    if skey is not None:
        skey = (kind, skey)
        hit = _lru_get(_by_structure, skey)
    if hit is None:
        hit = build()
        if skey is not None:
            _lru_put(_by_structure, skey, hit, _STRUCTURE_CACHE_SIZE)
    per[kind] = hit
    return hit


def clear_program_caches() -> None:
    """Forget every compiled or derived program (the client was replaced: they are unusable)."""
    _jaxpr_exes.clear()
    _derived.clear()
    _by_structure.clear()
    _exes_by_structure.clear()


_backend.on_client_reset(clear_program_caches)


def _bind_program(closed: ClosedJaxpr, args: Sequence[Any], name: str) -> list:
    """Bind a traced program as one jit equation (its consts become leading operands)."""
    hoisted = _hoisted(closed)
    n = len(closed.consts) + len(args)
    return jit_p.bind(*closed.consts, *args, jaxpr=hoisted, name=name, donated=(False,) * n)


def _hoisted(closed: ClosedJaxpr) -> ClosedJaxpr:
    """The const-free form of a derived program, made once per program (its identity matters)."""
    if not closed.consts:
        return closed
    return _derive(closed, ("hoist",), lambda: hoist_consts(closed))


# jvp ---------------------------------------------------------------------------------------

def _jit_jvp(primals, tangents, *, jaxpr: ClosedJaxpr, name: str, donated: tuple):
    """jvp of a nested jit: one jit of the jvp'd program, symbolic-zero tangents kept symbolic."""
    in_avals, out_avals = jaxpr.in_avals, jaxpr.out_avals
    nz = tuple(type(t) is not Zero and dtypes.is_inexact(a.dtype) for t, a in zip(tangents, in_avals))
    if not any(nz):
        outs = jit_p.bind(*primals, jaxpr=jaxpr, name=name, donated=donated)
        return outs, [Zero(tangent_aval(a)) for a in out_avals]

    def build():
        traced, out_nz = jvp_jaxpr(jaxpr, nz, [False] * len(out_avals))
        return traced, tuple(out_nz)

    program, out_nz = _derive(jaxpr, ("jvp", nz), build)
    ts = [instantiate_tangent(t, a) for t, a, z in zip(tangents, in_avals, nz) if z]
    outs = _bind_program(program, list(primals) + ts, name)
    n = len(out_avals)
    it = iter(outs[n:])
    return outs[:n], [next(it) if z else Zero(tangent_aval(a)) for z, a in zip(out_nz, out_avals)]


# partial evaluation --------------------------------------------------------------------------

class _Split:
    """How a jit equation with some unknown inputs splits (see `_split_program`).

    `known` (or None: nothing to run) maps (known consts..., known inputs...) to the values
    listed in `known_src` and `res_src`, each ("out", k): output k of `known`, ("in", i):
    known input i forwarded unchanged, or ("val", v): a constant. `unknown` maps (residuals...,
    unknown inputs...) to the unknown outputs; `out_unknowns` says which outputs those are.
    """

    __slots__ = ("known", "known_consts", "known_src", "res_src", "unknown", "out_unknowns")

    def __init__(self, known, known_consts, known_src, res_src, unknown, out_unknowns):
        self.known = known
        self.known_consts = known_consts
        self.known_src = known_src
        self.res_src = res_src
        self.unknown = unknown
        self.out_unknowns = out_unknowns


def _split_program(jaxpr: ClosedJaxpr, unknowns: tuple) -> _Split:
    known, unknown, out_unknowns, num_res = partial_eval_jaxpr(jaxpr, unknowns, instantiate=False)
    kj, uj = known.jaxpr, unknown.jaxpr
    n_known_out = len(kj.outvars) - num_res
    # the unknown program without dead equations; residuals it no longer reads are not made
    uj = dce_jaxpr(uj)
    read = {v for e in uj.eqns for v in e.invars if type(v) is Var}
    read.update(v for v in uj.outvars if type(v) is Var)
    res_in, u_in = uj.invars[:num_res], uj.invars[num_res:]
    keep = [v in read for v in res_in]
    unknown_program = ClosedJaxpr(Jaxpr([], [v for v, k in zip(res_in, keep) if k] + u_in, uj.outvars, uj.eqns), [])
    res_vars = [v for v, k in zip(kj.outvars[n_known_out:], keep) if k]
    # where each known output and residual comes from: a known input forwarded as it is, a
    # constant, or an output of the known program (each value computed and returned once)
    in_pos = {v: i for i, v in enumerate(kj.invars)}
    const_of = dict(zip(kj.constvars, known.consts))
    outs: list = []
    out_pos: dict = {}

    def source(v, constant_ok: bool):
        if type(v) is Var and v in in_pos:
            return ("in", in_pos[v])
        if constant_ok and type(v) is Literal:
            return ("val", v.val)
        if constant_ok and type(v) is Var and v in const_of:
            return ("val", const_of[v])
        k = out_pos.get(v) if type(v) is Var else None
        if k is None:
            k = len(outs)
            outs.append(v)
            if type(v) is Var:
                out_pos[v] = k
        return ("out", k)

    known_src = tuple(source(v, False) for v in kj.outvars[:n_known_out])
    res_src = tuple(source(v, True) for v in res_vars)
    known_program = None
    known_body = dce_jaxpr(Jaxpr([], kj.constvars + kj.invars, outs, kj.eqns))
    if outs or known_body.eqns:  # (equations left without outputs are side effects: run them)
        known_program = ClosedJaxpr(known_body, [])
    return _Split(known_program, list(known.consts), known_src, res_src,
                  unknown_program if any(out_unknowns) else None, tuple(out_unknowns))


def _jit_partial_eval(trace, args, unknowns, *, jaxpr: ClosedJaxpr, name: str, donated: tuple):
    """Known inputs -> a known jit run now (primal outputs and residuals); the rest -> an
    unknown jit of (residuals, unknown inputs) staged on `trace`."""
    split = _derive(jaxpr, ("partial_eval", tuple(unknowns)), lambda: _split_program(jaxpr, tuple(unknowns)))
    known_args = [a for a, u in zip(args, unknowns) if not u]
    computed: list = []
    if split.known is not None:
        k_args = split.known_consts + known_args
        with set_current_trace(trace.parent):
            computed = jit_p.bind(*k_args, jaxpr=split.known, name=name, donated=(False,) * len(k_args))

    def value(src):
        kind, x = src
        if kind == "out":
            return computed[x]
        return known_args[x] if kind == "in" else x

    known_outs = [value(s) for s in split.known_src]
    if split.unknown is None:
        return known_outs
    staged_in = [value(s) for s in split.res_src] + [a for a, u in zip(args, unknowns) if u]
    u_outs = trace.stage(jit_p, staged_in, dict(jaxpr=split.unknown, name=name,
                                                 donated=(False,) * len(staged_in)))
    ki, ui = iter(known_outs), iter(u_outs)
    return [next(ui) if u else next(ki) for u in split.out_unknowns]


# transpose -------------------------------------------------------------------------------------

def _transpose_program(jaxpr: ClosedJaxpr, linear: tuple, ct_nonzero: tuple):
    """(non-linear inputs..., nonzero output cotangents...) -> the nonzero input cotangents.
    Returns the traced program and which linear inputs get a (nonzero) cotangent."""
    j = jaxpr.jaxpr
    nl_vars = [v for v, l in zip(j.invars, linear) if not l]
    lin_vars = [v for v, l in zip(j.invars, linear) if l]
    as_linear = Jaxpr(nl_vars, lin_vars, j.outvars, j.eqns)  # non-linear inputs bound like consts
    out_avals = jaxpr.out_avals
    n_nl = len(nl_vars)
    store: list = []

    def transposed(*xs):
        it = iter(xs[n_nl:])
        cts = [next(it) if z else Zero(tangent_aval(a)) for z, a in zip(ct_nonzero, out_avals)]
        res = backward_pass(as_linear, list(xs[:n_nl]), cts)
        flags = [type(r) is not Zero and r is not None and dtypes.is_inexact(v.aval.dtype)
                 for r, v in zip(res, lin_vars)]
        store.append(flags)
        return [instantiate_tangent(r, v.aval) for r, v, f in zip(res, lin_vars, flags) if f]

    in_avals = [v.aval for v in nl_vars] + [tangent_aval(a) for a, z in zip(out_avals, ct_nonzero) if z]
    traced = trace_flat(transposed, in_avals, "transpose of jit")
    return traced, tuple(store[0])


def _jit_transpose(cts, *args, jaxpr: ClosedJaxpr, name: str, donated: tuple):
    """Transpose of a linear jit: one jit of the transposed program, fed the non-linear
    operands (residuals) and the nonzero output cotangents."""
    linear = tuple(is_undefined(a) for a in args)
    ct_nonzero = tuple(c is not None and type(c) is not Zero and dtypes.is_inexact(a.dtype)
                       for c, a in zip(cts, jaxpr.out_avals))
    if not any(ct_nonzero) or not any(linear):
        return [None] * len(args)
    program, has_ct = _derive(jaxpr, ("transpose", linear, ct_nonzero),
                              lambda: _transpose_program(jaxpr, linear, ct_nonzero))
    if not any(has_ct):
        return [None] * len(args)
    nonlinear = [a for a, l in zip(args, linear) if not l]
    ct_vals = [instantiate_tangent(c, a) for c, a, z in zip(cts, jaxpr.out_avals, ct_nonzero) if z]
    outs = iter(_bind_program(program, nonlinear + ct_vals, name))
    flags = iter(has_ct)
    return [(next(outs) if next(flags) else None) if l else None for l in linear]


# vmap ------------------------------------------------------------------------------------------

def _jit_batch(axis, args, dims, *, jaxpr: ClosedJaxpr, name: str, donated: tuple):
    """vmap of a nested jit stays one jit: its jaxpr is batched (under the same axis, so
    collectives over the vmap's name work) and re-staged; unbatched operands stay unbatched."""
    size = batch_size(args, dims)
    batched = tuple(d is not None for d in dims)
    xs = [bdim_to_front(x, d, size) if d is not None else x for x, d in zip(args, dims)]
    n_out = len(jaxpr.out_avals)

    def build():
        traced, out_batched = batch_jaxpr(axis, jaxpr, size, list(batched), [False] * n_out)
        return traced, tuple(out_batched)

    kind = ("vmap", batched, size, axis.axis_name, axis.spmd_axis_name)
    try:
        hash(kind)
    except TypeError:
        program, out_batched = build()
    else:
        program, out_batched = _derive(jaxpr, kind, build)
    outs = _bind_program(program, xs, name)
    return outs, [0 if b else None for b in out_batched]


jit_p.jvp_rule = _jit_jvp
jit_p.partial_eval_rule = _jit_partial_eval
jit_p.transpose_rule = _jit_transpose
jit_p.batch_rule_takes_trace = True
jit_p.batch_rule = _jit_batch


# ref discharge ---------------------------------------------------------------------------------

def _jit_discharge(in_avals, out_avals, *args, jaxpr: ClosedJaxpr, name: str, donated: tuple):
    """A jit whose program takes or makes refs: one jit of the pure program (ref inputs as values,
    their final values as extra outputs), derived once per program."""
    program, ref_pos = _derive(jaxpr, ("discharge",), lambda: discharge_jaxpr(jaxpr))
    outs = _bind_program(program, list(args), name)
    n = len(out_avals)
    new = [None] * len(args)
    for k, i in enumerate(ref_pos):
        new[i] = outs[n + k]
    return new, outs[:n]


discharge_rules[jit_p] = _jit_discharge
