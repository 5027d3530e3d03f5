"""Ref discharge: a program with mutable array refs becomes a pure program that passes the state.

`discharge_jaxpr` turns a jaxpr whose inputs may be refs (`AbstractRef` avals) and whose equations
read and write refs into one whose ref inputs are the arrays they hold and whose extra outputs are
the final values of those refs. Each primitive that touches refs has a discharge rule in
`discharge_rules` (the op library fills the table: the ref operations in padax/functional/refs.py,
cond/while/scan in padax/functional/lax/control.py, jit in padax/transforms/jit_primitive.py):

    rule(in_avals, out_avals, *args, **params) -> (new values of the operands (None: unchanged), outputs)

where a ref operand arrives as the array it holds. `bind_discharged` applies a rule at bind time:
a primitive whose operands include refs reads them, runs pure, and writes them back, so programs
holding sub-programs (jit, control flow) never carry refs into their own rules.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from padax.core.abstract import get_aval
from padax.core.effects import eqn_effects, jaxpr_effects
from padax.core.errors import op_type_error
from padax.core.jaxpr import ClosedJaxpr, Jaxpr, JaxprEqn, Literal, Var
from padax.core.ref import AbstractRef, Ref, RefError, is_ref_effect
from padax.core.source_info import current as _current_source, user_location
from padax.core.trace import Tracer
from padax.interpreters.staging import trace_flat

discharge_rules: dict[Any, Callable[..., tuple[Sequence[Any], Sequence[Any]]]] = {}
# primitives that may take one ref as several operands (control flow: a ref closed over by two of its
# functions); `bind_discharged` then gives those operands the very same value object, which their rule
# recognises (`same_ref_groups`). Elsewhere (jit) a ref passed twice is refused: the two would alias.
shared_refs_ok: set = set()

# the ref operations (installed by padax/functional/refs.py): read(ref) -> the array; write(ref, value)
_ref_ops: dict[str, Callable[..., Any]] = {}


def install(**ops: Callable[..., Any]) -> None:
    _ref_ops.update(ops)


def is_ref(x: Any) -> bool:
    """Whether `x` is a mutable array ref (an eager Ref, or a tracer standing for one)."""
    return type(x) is Ref or (isinstance(x, Tracer) and type(x.aval) is AbstractRef)


def jaxpr_has_refs(jaxpr: Jaxpr | ClosedJaxpr) -> bool:
    """Whether a program has ref inputs or consts, or reads, writes or makes refs anywhere inside."""
    if isinstance(jaxpr, ClosedJaxpr):
        if any(is_ref(c) for c in jaxpr.consts):
            return True
        jaxpr = jaxpr.jaxpr
    if any(type(v.aval) is AbstractRef for v in jaxpr.constvars + jaxpr.invars):
        return True
    return any(is_ref_effect(e) for e in jaxpr_effects(jaxpr))


def _eqn_touches_refs(eqn: JaxprEqn) -> bool:
    if eqn.primitive in _ref_primitives:
        return True
    if any(type(v.aval) is AbstractRef for v in eqn.invars):
        return True
    return any(is_ref_effect(e) for e in eqn_effects(eqn))


# primitives that make or use refs themselves (filled with the discharge rules of padax/functional/refs.py)
_ref_primitives: set = set()


_freezing: set = set()  # primitives that end their ref operand (freeze): a later use is an error


def register_ref_primitive(prim: Any, rule: Callable, *, ends_ref: bool = False) -> None:
    _ref_primitives.add(prim)
    discharge_rules[prim] = rule
    if ends_ref:
        _freezing.add(prim)


def discharge_jaxpr(closed: ClosedJaxpr) -> tuple[ClosedJaxpr, list[int]]:
    """The pure form of a program with refs, and which of its inputs were refs.

    Inputs (constvars first, then invars: the result has no consts bound to refs) that are refs
    take the arrays they hold; the outputs are the program's, then the final value of each ref
    input in order. When some consts are refs (eager Refs, or tracers of an enclosing transformation),
    all consts become leading inputs (the positions then count them).
    """
    j = closed.jaxpr
    if any(is_ref(c) for c in closed.consts):  # closed-over refs: hoist every const into an input
        j = Jaxpr([], j.constvars + j.invars, j.outvars, j.eqns)
        consts: list = []
    else:
        consts = list(closed.consts)
    avals = [v.aval.inner_aval if type(v.aval) is AbstractRef else v.aval for v in j.invars]
    ref_pos = [i for i, v in enumerate(j.invars) if type(v.aval) is AbstractRef]

    traced = trace_flat(lambda *args: eval_discharged(j, consts, args), avals, "ref discharge")
    return traced, ref_pos


def eval_discharged(j: Jaxpr, consts: Sequence[Any], args: Sequence[Any]) -> list:
    """Evaluate `j` with its ref inputs given as values: its outputs, then the final ref values."""
    env: dict = {}

    def read(v):
        return v.val if type(v) is Literal else env[v]

    for v, x in zip(j.constvars, consts):
        env[v] = x
    for v, x in zip(j.invars, args):
        env[v] = x
    outer = _current_source.info
    frozen: set = set()
    try:
        for eqn in j.eqns:
            ins = [read(v) for v in eqn.invars]
            _current_source.info = eqn.source_info or outer
            if frozen and any(type(v) is Var and v in frozen for v in eqn.invars):
                raise RefError(f"{eqn.primitive.name}: a Ref is used after padax.freeze ended it{user_location()}; "
                               "keep the array freeze returned instead")
            if eqn.primitive in _freezing:
                frozen.add(eqn.invars[0])
            if _eqn_touches_refs(eqn):
                rule = discharge_rules.get(eqn.primitive)
                if rule is None:
                    raise op_type_error(eqn.primitive.name, "takes arrays, not mutable array refs (it has no ref "
                                                            "discharge rule): read the ref first, ref[...]")
                in_avals = [v.aval for v in eqn.invars]
                out_avals = [v.aval for v in eqn.outvars]
                new_ins, outs = rule(in_avals, out_avals, *ins, **eqn.params)
                for v, new in zip(eqn.invars, new_ins):
                    if new is not None and type(v) is Var:
                        env[v] = new
            else:
                outs = eqn.primitive.bind(*ins, **eqn.params)
                if not eqn.primitive.multiple_results:
                    outs = (outs,)
            for v, x in zip(eqn.outvars, outs):
                env[v] = x
    finally:
        _current_source.info = outer
    return [read(v) for v in j.outvars] + [env[v] for v in j.invars if type(v.aval) is AbstractRef]


def discharge_closed(closed: ClosedJaxpr) -> ClosedJaxpr:
    """The pure form of a program without ref inputs (its refs are made inside): same signature."""
    pure, ref_pos = discharge_jaxpr(closed)
    assert not ref_pos, "discharge_closed: the program has ref inputs"
    return pure


def bind_discharged(prim: Any, args: Sequence[Any], params: dict) -> Any:
    """Bind `prim` on `args`, some of which are refs: read them, apply the primitive's discharge rule
    (pure), write the refs' new values back. Refs passed twice are refused (they would alias)."""
    rule = discharge_rules.get(prim)
    if rule is None:
        raise op_type_error(prim.name, "takes arrays, not mutable array refs (it has no ref discharge rule): "
                                       "read the ref first, ref[...]")
    read, write = _ref_ops["read"], _ref_ops["write"]
    seen: dict = {}
    vals = []
    for i, a in enumerate(args):
        if is_ref(a):
            first = seen.get(id(a))
            if first is None:
                seen[id(a)] = (i, read(a))
            elif prim not in shared_refs_ok:
                raise _aliasing_error(prim.name, a, first[0], i)
            vals.append(seen[id(a)][1])
        else:
            vals.append(a)
    in_avals = [get_aval(a) for a in args]
    out_avals = prim.eval_avals([a for a in in_avals], params)
    out_avals = list(out_avals) if prim.multiple_results else [out_avals]
    new_ins, outs = rule(in_avals, out_avals, *vals, **params)
    for a, new in zip(args, new_ins):
        if new is not None and is_ref(a):
            write(a, new)
    outs = list(outs)
    return outs if prim.multiple_results else outs[0]


def _aliasing_error(op: str, ref: Any, first: int, second: int):
    return RefError(f"{op}: the same Ref {ref.aval.str_short()} is passed twice (operands {first} and {second}); "
                    f"a ref may be passed to one call only once, since the two would alias{user_location()}")


def bind_with_refs(prim: Any, args: Sequence[Any], params: dict) -> Any:
    """`prim.bind(*args, **params)`, through `bind_discharged` when an operand is a ref or a
    sub-program in the params holds refs (for primitives holding sub-programs)."""
    if any(is_ref(a) for a in args) or any(_param_has_refs(p) for p in params.values()):
        return bind_discharged(prim, args, params)
    return prim.bind(*args, **params)


def _param_has_refs(p: Any) -> bool:
    if isinstance(p, (ClosedJaxpr, Jaxpr)):
        return jaxpr_has_refs(p)
    if isinstance(p, tuple):
        return any(_param_has_refs(q) for q in p)
    return False
