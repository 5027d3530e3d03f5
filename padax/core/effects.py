"""Side effects of equations: what makes an equation more than a pure function of its inputs.

Most primitives are pure: an equation whose outputs nobody reads can be
dropped. A primitive that talks to the host (debug printing, io_callback)
declares its effects with `prim.effects_rule(params) -> frozenset[Effect]`;
an equation holding sub-programs (jit, cond, while, scan, ...) has the
effects of the programs in its params. Dead-code elimination keeps every
equation with an effect, and lowering threads one token through every
*ordered* effect of a program (an argument and result of each such host
call, carried through control flow), so XLA runs them in program order.
"""
from __future__ import annotations

from typing import Any, Iterable

from padax.core.jaxpr import ClosedJaxpr, Jaxpr

no_effects: frozenset = frozenset()


class Effect:
    """A kind of side effect. `ordered` ones happen in program order (a token orders them)."""

    __slots__ = ("name", "ordered")

    def __init__(self, name: str, ordered: bool):
        self.name = name
        self.ordered = ordered

    def __repr__(self) -> str:
        return self.name


debug_effect = Effect("Debug", ordered=False)              # debug.print / debug.callback
ordered_debug_effect = Effect("OrderedDebug", ordered=True)  # ... with ordered=True
io_effect = Effect("IO", ordered=False)                    # io_callback(ordered=False)
ordered_io_effect = Effect("OrderedIO", ordered=True)       # io_callback(ordered=True)
# a program that makes a mutable array ref (padax.new_ref) or holds one inside: the discharge pass
# (padax/interpreters/discharge.py) turns it into pure state passing before it is lowered
internal_ref_effect = Effect("InternalRef", ordered=False)


def _sub_jaxprs(value: Any) -> Iterable[Jaxpr]:
    if isinstance(value, ClosedJaxpr):
        yield value.jaxpr
    elif isinstance(value, Jaxpr):
        yield value
    elif isinstance(value, tuple):
        for v in value:
            yield from _sub_jaxprs(v)


def eqn_effects(eqn) -> frozenset:
    """The effects of one equation: its primitive's own, or those of the programs it holds."""
    rule = getattr(eqn.primitive, "effects_rule", None)
    if rule is not None:
        return rule(eqn.params)
    out = no_effects
    for value in eqn.params.values():
        for j in _sub_jaxprs(value):
            out = out | jaxpr_effects(j)
    return out


def jaxpr_effects(jaxpr: Jaxpr | ClosedJaxpr) -> frozenset:
    """The union of the effects of a program's equations (computed once per jaxpr).

    An effect on an equation's operand (a ref effect: it has `input_index`) is renumbered to the
    program's input that operand is (constvars first), or becomes `internal_ref_effect` for a ref
    the program makes itself; ref effects of sub-programs are internal to the equation holding them.
    """
    if isinstance(jaxpr, ClosedJaxpr):
        jaxpr = jaxpr.jaxpr
    effects = jaxpr._effects
    if effects is None:
        effects = no_effects
        positions = None
        for eqn in jaxpr.eqns:
            effs = eqn_effects(eqn)
            if effs and any(hasattr(e, "input_index") for e in effs):
                if positions is None:
                    positions = {v: i for i, v in enumerate(jaxpr.constvars + jaxpr.invars)}
                effs = _renumber(eqn, effs, positions)
            effects = effects | effs
        jaxpr._effects = effects
    return effects


def _renumber(eqn, effs: frozenset, positions: dict) -> frozenset:
    own = getattr(eqn.primitive, "effects_rule", None) is not None
    out = set()
    for e in effs:
        i = getattr(e, "input_index", None)
        if i is None:
            out.add(e)
            continue
        pos = positions.get(eqn.invars[i]) if own else None
        out.add(internal_ref_effect if pos is None else type(e)(pos))
    return frozenset(out)


def has_ordered(effects: Iterable[Effect]) -> bool:
    return any(e.ordered for e in effects)
