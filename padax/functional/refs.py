"""The mutable array ref primitives: make, read, write, accumulate into, and freeze a ref.

`new_ref_p` (jax's mutable_array), `ref_get_p`, `ref_swap_p`, `ref_addupdate_p` and `freeze_p`, each
with its abstract eval, effects, eager impl, jvp and batching rules and its discharge rule (the pure
form the discharge pass, padax/interpreters/discharge.py, runs instead before lowering). An index is
a static `indexer` param (ints, slices, `...`, `None`) with its array entries (integer arrays or
traced scalars) as trailing operands; reading and writing reuse padax's functional indexing
(`x[idx]`, `x.at[idx].set/add`), so every index padax's arrays take works on refs as well.
"""
from __future__ import annotations

import functools
from typing import Any

import numpy as np

from padax.core import dtypes
from padax.core.abstract import ShapedArray, get_aval
from padax.core.ad_util import Zero, tangent_aval
from padax.core.effects import internal_ref_effect
from padax.core.errors import op_type_error, op_value_error
from padax.core.primitive import Primitive
from padax.core.ref import AbstractRef, AccumEffect, ReadEffect, Ref, RefError, WriteEffect, install_ref_ops
from padax.core.source_info import user_location
from padax.core.trace import Tracer, trace_state
from padax.functional._arrays import asarray
from padax.functional.indexing import getitem, update
from padax.functional.lax.control import refs as control_refs
from padax.functional.lax.structural import bdim_to_front
from padax.interpreters import discharge
from padax.interpreters.ad import instantiate_tangent
from padax.interpreters.batching import batch_flat
from padax.interpreters.partial_eval import PartialEvalTrace
from padax.interpreters.staging import trace_flat
from padax.runtime.array import Tensor

FULL = (("...",),)  # the indexer of `ref[...]`

# ---- indexers -----------------------------------------------------------------------------------

_INT = (int, np.integer)


def _static_int(v: Any) -> bool:
    return isinstance(v, _INT) and not isinstance(v, (bool, np.bool_))


def parse_indexer(idx: Any, op: str) -> tuple[tuple, list]:
    """(static indexer, dynamic index operands) of a Python index."""
    if idx is Ellipsis or idx == ():
        return FULL, []
    idx = idx if isinstance(idx, tuple) else (idx,)
    out, dyn = [], []
    for e in idx:
        if e is Ellipsis:
            out.append(("...",))
        elif e is None:
            out.append(("new",))
        elif isinstance(e, slice):
            for b in (e.start, e.stop, e.step):
                if b is not None and not _static_int(b):
                    raise op_type_error(op, f"slice bounds must be Python ints (got {e!r}); for a slice at a "
                                            "traced position read the whole ref and use padax.lax.dynamic_slice")
            out.append(("s", *(None if b is None else int(b) for b in (e.start, e.stop, e.step))))
        elif isinstance(e, (bool, np.bool_)):
            out.append(("b", bool(e)))
        elif _static_int(e):
            out.append(("i", int(e)))
        elif isinstance(e, (Tensor, Tracer, np.ndarray, list)):
            x = np.asarray(e) if isinstance(e, list) else e
            if not (dtypes.is_integer(get_aval(x).dtype) or get_aval(x).dtype == np.bool_):
                raise op_type_error(op, f"indices must be integers, got {get_aval(x).str_short()}")
            out.append(("d",))
            dyn.append(x)
        else:
            raise op_type_error(op, f"cannot index a Ref with {type(e).__name__} {e!r}")
    return tuple(out), dyn


def rebuild_index(indexer: tuple, dyn: Any) -> tuple:
    """The Python index an indexer and its dynamic operands stand for."""
    it = iter(dyn)
    out = []
    for e in indexer:
        k = e[0]
        if k == "...":
            out.append(Ellipsis)
        elif k == "new":
            out.append(None)
        elif k == "s":
            out.append(slice(e[1], e[2], e[3]))
        elif k in ("i", "b"):
            out.append(e[1])
        else:
            out.append(next(it))
    return tuple(out)


def _indexer_str(indexer: tuple) -> str:
    parts = []
    for e in indexer:
        k = e[0]
        parts.append({"...": "...", "new": "None", "d": "<array>"}.get(k) or (
            ":".join("" if b is None else str(b) for b in e[1:]) if k == "s" else str(e[1])))
    return "[" + ", ".join(parts) + "]"


@functools.lru_cache(maxsize=1024)
def _indexed_aval(inner: ShapedArray, indexer: tuple, dyn_avals: tuple) -> ShapedArray:
    """The aval of `x[idx]` for an array of aval `inner` (traced through padax's own indexing)."""
    closed = trace_flat(lambda x, *d: [getitem(x, rebuild_index(indexer, d))], [inner, *dyn_avals],
                        "ref indexing")
    return closed.out_avals[0].strip_weak_type()


def _ref_aval(aval: Any, op: str) -> AbstractRef:
    if type(aval) is not AbstractRef:
        raise op_type_error(op, f"expected a Ref as the first operand, got {aval.str_short()}")
    return aval


# ---- primitives -------------------------------------------------------------------------------------

new_ref_p = Primitive("new_ref")
freeze_p = Primitive("freeze")
ref_get_p = Primitive("ref_get")
ref_swap_p = Primitive("ref_swap")
ref_addupdate_p = Primitive("ref_addupdate", multiple_results=True)

new_ref_p.effects_rule = lambda params: frozenset({internal_ref_effect})
freeze_p.effects_rule = lambda params: frozenset({ReadEffect(0)})
ref_get_p.effects_rule = lambda params: frozenset({ReadEffect(0)})
ref_swap_p.effects_rule = lambda params: frozenset({ReadEffect(0), WriteEffect(0)})
ref_addupdate_p.effects_rule = lambda params: frozenset({AccumEffect(0)})


@new_ref_p.def_abstract_eval
def _new_ref_abstract(aval):
    if type(aval) is AbstractRef:
        raise op_type_error("new_ref", "the initial value is itself a Ref")
    return AbstractRef(aval)


@freeze_p.def_abstract_eval
def _freeze_abstract(aval):
    return _ref_aval(aval, "freeze").inner_aval


@ref_get_p.def_abstract_eval
def _get_abstract(ref_aval, *dyn_avals, indexer):
    ref_aval = _ref_aval(ref_aval, "ref_get")
    return _indexed_aval(ref_aval.inner_aval, indexer, tuple(dyn_avals))


def _check_update(op: str, ref_aval, val_aval, dyn_avals, indexer) -> ShapedArray:
    ref_aval = _ref_aval(ref_aval, op)
    target = _indexed_aval(ref_aval.inner_aval, indexer, tuple(dyn_avals))
    if val_aval.shape != target.shape or val_aval.dtype != target.dtype:
        raise op_type_error(op, f"the value {val_aval.str_short()} does not match the {target.str_short()} it "
                                f"writes into {ref_aval.str_short()}{_indexer_str(indexer)}")
    return target


@ref_swap_p.def_abstract_eval
def _swap_abstract(ref_aval, val_aval, *dyn_avals, indexer):
    return _check_update("ref_swap", ref_aval, val_aval, dyn_avals, indexer)


@ref_addupdate_p.def_abstract_eval
def _addupdate_abstract(ref_aval, val_aval, *dyn_avals, indexer):
    _check_update("ref_addupdate", ref_aval, val_aval, dyn_avals, indexer)
    return []


# ---- the pure forms (discharge rules; the eager impls run them on the Ref's array) ---------------------

def _get_pure(val, dyn, indexer):
    return val if indexer == FULL else getitem(val, rebuild_index(indexer, dyn))


def _swap_pure(val, x, dyn, indexer):
    if indexer == FULL:
        return x, val
    idx = rebuild_index(indexer, dyn)
    return update(val, idx, x, "set"), getitem(val, idx)


def _addupdate_pure(val, x, dyn, indexer):
    if indexer == FULL:
        return val + x
    return update(val, rebuild_index(indexer, dyn), x, "add")


def _new_ref_discharge(in_avals, out_avals, x):
    return [None], [x]


def _freeze_discharge(in_avals, out_avals, val):
    return [None], [val]


def _get_discharge(in_avals, out_avals, val, *dyn, indexer):
    return [None] * (1 + len(dyn)), [_get_pure(val, dyn, indexer)]


def _swap_discharge(in_avals, out_avals, val, x, *dyn, indexer):
    new, old = _swap_pure(val, x, dyn, indexer)
    return [new] + [None] * (1 + len(dyn)), [old]


def _addupdate_discharge(in_avals, out_avals, val, x, *dyn, indexer):
    return [_addupdate_pure(val, x, dyn, indexer)] + [None] * (1 + len(dyn)), []


discharge.register_ref_primitive(new_ref_p, _new_ref_discharge)
discharge.register_ref_primitive(freeze_p, _freeze_discharge, ends_ref=True)
discharge.register_ref_primitive(ref_get_p, _get_discharge)
discharge.register_ref_primitive(ref_swap_p, _swap_discharge)
discharge.register_ref_primitive(ref_addupdate_p, _addupdate_discharge)


def _as_ref(r: Any, op: str) -> Ref:
    if type(r) is not Ref:
        raise op_type_error(op, f"expected a Ref, got {type(r).__name__}")
    return r


@new_ref_p.def_impl
def _new_ref_impl(x):
    x = asarray(x)
    return Ref(x, x.aval)


@freeze_p.def_impl
def _freeze_impl(ref):
    ref = _as_ref(ref, "freeze")
    val = ref._read("freeze")
    ref._frozen = True
    ref._value = None
    return val


@ref_get_p.def_impl
def _get_impl(ref, *dyn, indexer):
    return _get_pure(_as_ref(ref, "ref_get")._read("reading a Ref"), dyn, indexer)


@ref_swap_p.def_impl
def _swap_impl(ref, x, *dyn, indexer):
    ref = _as_ref(ref, "ref_swap")
    new, old = _swap_pure(ref._read("writing a Ref"), x, dyn, indexer)
    ref._write(new)
    return old


@ref_addupdate_p.def_impl
def _addupdate_impl(ref, x, *dyn, indexer):
    ref = _as_ref(ref, "ref_addupdate")
    ref._write(_addupdate_pure(ref._read("accumulating into a Ref"), x, dyn, indexer))
    return []


# ---- jvp -----------------------------------------------------------------------------------------------

def _new_ref_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    ref = new_ref_p.bind(x)
    if not dtypes.is_inexact(get_aval(x).dtype):
        return ref, Zero(tangent_aval(get_aval(ref)))
    t = instantiate_tangent(t, get_aval(x))
    trace = trace_state.trace
    if isinstance(trace, PartialEvalTrace) and not trace.is_unknown(t):
        # under linearize the tangent ref belongs to the linear program even when it starts known (zeros):
        # its reads must see the tangents written into it later
        return ref, trace.stage(new_ref_p, [t], {})
    return ref, new_ref_p.bind(t)


def _freeze_jvp(primals, tangents):
    out = freeze_p.bind(primals[0])
    t = tangents[0]
    return out, (Zero(tangent_aval(get_aval(out))) if type(t) is Zero else freeze_p.bind(t))


def _get_jvp(primals, tangents, *, indexer):
    ref, *dyn = primals
    out = ref_get_p.bind(ref, *dyn, indexer=indexer)
    t = tangents[0]
    return out, (Zero(tangent_aval(get_aval(out))) if type(t) is Zero else ref_get_p.bind(t, *dyn, indexer=indexer))


def _undifferentiated_ref_error(op: str, ref: Any):
    return RefError(f"{op}: writing a differentiated value into the Ref {get_aval(ref).str_short()}, which is not "
                    f"differentiated (it was made outside the differentiated function, or from a constant)"
                    f"{user_location()}; make the ref inside the function from a differentiated value, "
                    f"or pass the value out as an output instead")


def _swap_jvp(primals, tangents, *, indexer):
    ref, x, *dyn = primals
    rt, xt = tangents[0], tangents[1]
    out = ref_swap_p.bind(ref, x, *dyn, indexer=indexer)
    if type(rt) is Zero and type(xt) is Zero:
        return out, Zero(tangent_aval(get_aval(out)))
    if type(rt) is Zero:
        raise _undifferentiated_ref_error("ref_swap", ref)
    return out, ref_swap_p.bind(rt, instantiate_tangent(xt, get_aval(x)), *dyn, indexer=indexer)


def _addupdate_jvp(primals, tangents, *, indexer):
    ref, x, *dyn = primals
    rt, xt = tangents[0], tangents[1]
    ref_addupdate_p.bind(ref, x, *dyn, indexer=indexer)
    if type(rt) is Zero and type(xt) is not Zero:
        raise _undifferentiated_ref_error("ref_addupdate", ref)
    if type(rt) is not Zero and type(xt) is not Zero:
        ref_addupdate_p.bind(rt, xt, *dyn, indexer=indexer)
    return [], []


new_ref_p.jvp_rule = _new_ref_jvp
new_ref_p.jvp_even_zero = True
freeze_p.jvp_rule = _freeze_jvp
ref_get_p.jvp_rule = _get_jvp
ref_swap_p.jvp_rule = _swap_jvp
ref_addupdate_p.jvp_rule = _addupdate_jvp


# ---- transpose (of a linear program that still holds refs; the backward pass discharges them first) ---

def _get_transpose(ct, ref, *dyn, indexer):
    """A read of a linear ref transposes to accumulating the cotangent into the ref's cotangent."""
    if type(ct) is not Zero:
        ref_addupdate_p.bind(ref, ct, *dyn, indexer=indexer)
    return [None] * (1 + len(dyn))


def _addupdate_transpose(cts, ref, x, *dyn, indexer):
    """Accumulating into a linear ref transposes to reading the ref's cotangent."""
    return [None, ref_get_p.bind(ref, *dyn, indexer=indexer)] + [None] * len(dyn)


ref_get_p.transpose_rule = _get_transpose
ref_addupdate_p.transpose_rule = _addupdate_transpose


# ---- vmap --------------------------------------------------------------------------------------------
# A batched ref holds its batch on axis 0. Reads and writes with batched values or indices read the
# whole ref and apply padax's indexing under vmap (its gather/scatter rules), then write the whole ref.

def _new_ref_batch(axis, args, dims):
    """A ref made inside a vmap is batched (its batch on axis 0), even from an unbatched value."""
    (x,), (d,) = args, dims
    return new_ref_p.bind(bdim_to_front(x, d, axis.axis_size)), 0


def _freeze_batch(args, dims):
    return freeze_p.bind(args[0]), dims[0]


def _batched_index_fn(indexer, fn):
    return lambda v, *rest: fn(v, rest, indexer)


_ALL = ("s", None, None, None)


def _basic(indexer: tuple) -> bool:
    """An index of ints, slices, `...` and None only: on a batched ref it is the same index after `:`."""
    return all(e[0] in ("i", "s", "...", "new") for e in indexer)


def _batched_indexer(indexer: tuple) -> tuple:
    return FULL if indexer == FULL else (_ALL,) + indexer


def _get_batch(axis, args, dims, *, indexer):
    ref, *dyn = args
    rdim, ddims = dims[0], dims[1:]
    size = axis.axis_size
    if _basic(indexer):  # (then the ref is the batched operand: there are no index operands)
        return ref_get_p.bind(ref, indexer=_batched_indexer(indexer)), 0
    full = ref_get_p.bind(ref, indexer=FULL)
    outs, _ = batch_flat(lambda v, *d: [_get_pure(v, d, indexer)], size, [full, *[
        bdim_to_front(x, b, size) if b is not None else x for x, b in zip(dyn, ddims)]],
        [rdim is not None] + [b is not None for b in ddims])
    return outs[0], 0


def _unbatched_ref_error(op: str, ref: Any):
    return RefError(f"{op}: a batched value (or index) is written into the Ref {get_aval(ref).str_short()}, which "
                    f"is not batched (it was made outside the vmap){user_location()}; make the ref inside the "
                    f"vmapped function, or return the values from it instead")


def _update_batch(op: str, prim, axis, args, dims, indexer):
    ref, x, *dyn = args
    rdim, xdim, ddims = dims[0], dims[1], dims[2:]
    if rdim is None:
        raise _unbatched_ref_error(op, ref)
    size = axis.axis_size
    x = bdim_to_front(x, xdim, size)
    if _basic(indexer):
        out = prim.bind(ref, x, indexer=_batched_indexer(indexer))
        return (out, 0) if prim is ref_swap_p else ([], [])
    full = ref_get_p.bind(ref, indexer=FULL)
    dyn = [bdim_to_front(v, b, size) if b is not None else v for v, b in zip(dyn, ddims)]
    flags = [True, True] + [b is not None for b in ddims]
    if prim is ref_swap_p:
        (new, old), _ = batch_flat(lambda v, u, *d: list(_swap_pure(v, u, d, indexer)), size, [full, x, *dyn], flags)
        ref_swap_p.bind(ref, new, indexer=FULL)
        return old, 0
    (new,), _ = batch_flat(lambda v, u, *d: [_addupdate_pure(v, u, d, indexer)], size, [full, x, *dyn], flags)
    ref_swap_p.bind(ref, new, indexer=FULL)
    return [], []


new_ref_p.batch_rule_takes_trace = True
new_ref_p.batch_even_unbatched = True
new_ref_p.batch_rule = _new_ref_batch
freeze_p.batch_rule = _freeze_batch
ref_get_p.batch_rule_takes_trace = True
ref_get_p.batch_rule = _get_batch
ref_swap_p.batch_rule_takes_trace = True
ref_swap_p.batch_rule = lambda axis, args, dims, *, indexer: _update_batch("ref_swap", ref_swap_p, axis, args, dims,
                                                                             indexer)
ref_addupdate_p.batch_rule_takes_trace = True
ref_addupdate_p.batch_rule = lambda axis, args, dims, *, indexer: _update_batch(
    "ref_addupdate", ref_addupdate_p, axis, args, dims, indexer)


# ---- printing: jax's notation for ref reads and writes ---------------------------------------------------

def _pp_index(eqn, name, first_dyn: int) -> str:
    dyn = iter(eqn.invars[first_dyn:])
    parts = []
    for e in eqn.params["indexer"]:
        k = e[0]
        if k == "d":
            parts.append(name(next(dyn)))
        elif k == "s":
            text = ":".join("" if b is None else str(b) for b in e[1:3])
            parts.append(text if e[3] is None else f"{text}:{e[3]}")
        else:
            parts.append({"...": "...", "new": "None"}.get(k) or str(e[1]))
    return f"{name(eqn.invars[0])}[{', '.join(parts)}]"


ref_get_p.pp_rule = lambda eqn, name, binder: f"{binder(eqn.outvars[0])} <- {_pp_index(eqn, name, 1)}"
ref_swap_p.pp_rule = lambda eqn, name, binder: (f"{binder(eqn.outvars[0])}, {_pp_index(eqn, name, 2)} <- "
                                                f"{_pp_index(eqn, name, 2)}, {name(eqn.invars[1])}")
ref_addupdate_p.pp_rule = lambda eqn, name, binder: f"{_pp_index(eqn, name, 2)} += {name(eqn.invars[1])}"


# ---- the functions ------------------------------------------------------------------------------------

def _check_ref(ref: Any, op: str) -> None:
    if not discharge.is_ref(ref):
        raise op_type_error(op, f"expected a Ref (padax.new_ref), got {type(ref).__name__}")


def new_ref(init_val: Any) -> Any:
    """A new mutable array reference holding `init_val` (an array)."""
    if discharge.is_ref(init_val):
        raise op_type_error("new_ref", "the initial value is itself a Ref")
    return new_ref_p.bind(asarray(init_val))


def freeze(ref: Any) -> Any:
    """The array `ref` holds; the ref cannot be used afterwards."""
    _check_ref(ref, "freeze")
    return freeze_p.bind(ref)


def ref_get(ref: Any, idx: Any = ...) -> Any:
    """`ref[idx]`: read (part of) the array a ref holds."""
    _check_ref(ref, "ref_get")
    indexer, dyn = parse_indexer(idx, "ref_get")
    return ref_get_p.bind(ref, *dyn, indexer=indexer)


def _value_for(ref: Any, value: Any, indexer: tuple, dyn: list, op: str) -> Any:
    aval = get_aval(ref)
    target = _indexed_aval(aval.inner_aval, indexer, tuple(get_aval(d) for d in dyn))
    v_aval = get_aval(value)
    if v_aval.weak_type or not isinstance(value, (Tensor, Tracer)):
        value = asarray(value, aval.dtype)
        v_aval = get_aval(value)
    if v_aval.dtype != aval.dtype:
        raise op_type_error(op, f"the value {v_aval.str_short()} has another dtype than the Ref "
                                f"{aval.str_short()} (cast it first: x.astype({aval.dtype.name!r}))")
    if v_aval.shape != target.shape:  # (as in jax: no broadcasting into a ref)
        raise op_value_error(op, f"the value {v_aval.str_short()} does not fit {target.str_short()}, the part "
                                 f"of {aval.str_short()} at {_indexer_str(indexer)}")
    return value


def ref_swap(ref: Any, idx: Any, value: Any) -> Any:
    """Write `value` into `ref[idx]` and return the old `ref[idx]`."""
    _check_ref(ref, "ref_swap")
    indexer, dyn = parse_indexer(idx, "ref_swap")
    value = _value_for(ref, value, indexer, dyn, "ref_swap")
    return ref_swap_p.bind(ref, value, *dyn, indexer=indexer)


def ref_set(ref: Any, idx: Any, value: Any) -> None:
    """`ref[idx] = value`."""
    ref_swap(ref, idx, value)


def ref_addupdate(ref: Any, idx: Any, value: Any) -> None:
    """`ref[idx] += value`, as one accumulation."""
    _check_ref(ref, "ref_addupdate")
    indexer, dyn = parse_indexer(idx, "ref_addupdate")
    value = _value_for(ref, value, indexer, dyn, "ref_addupdate")
    ref_addupdate_p.bind(ref, value, *dyn, indexer=indexer)


def _read_whole(ref: Any) -> Any:
    return ref_get_p.bind(ref, indexer=FULL)


def _write_whole(ref: Any, value: Any) -> None:
    ref_swap_p.bind(ref, value, indexer=FULL)


install_ref_ops(get=ref_get, set=ref_set)
control_refs.install()
discharge.install(read=_read_whole, write=_write_whole)


# A tracer standing for a ref indexes and assigns like an eager Ref (installed over the methods that
# padax/functional/methods.py attaches to every Tracer; arrays keep theirs).
def _install_tracer_methods() -> None:
    array_getitem = Tracer.__getitem__
    array_setitem = Tracer.__setitem__

    def __getitem__(self, idx):
        if type(self.aval) is AbstractRef:
            return ref_get(self, idx)
        return array_getitem(self, idx)

    def __setitem__(self, idx, value):
        if type(self.aval) is AbstractRef:
            return ref_set(self, idx, value)
        return array_setitem(self, idx, value)

    Tracer.__getitem__ = __getitem__
    Tracer.__setitem__ = __setitem__


_install_tracer_methods()

__all__ = ["new_ref", "freeze", "ref_get", "ref_swap", "ref_set", "ref_addupdate"]
