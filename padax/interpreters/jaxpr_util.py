"""Jaxpr-level helpers the rules of primitives with sub-jaxprs share (control flow, jit, checkify).

`hoist` puts a closed jaxpr's consts first among its inputs (the const-free form bodies are stored in);
`join_consts` gives several jaxprs one signature; `dce` prunes unused outputs and the equations only
they need; `deps` tells which outputs depend on given inputs.
"""
from __future__ import annotations

from typing import Any, Sequence

from padax.core.effects import eqn_effects
from padax.core.jaxpr import ClosedJaxpr, Jaxpr, Var


def hoist(closed: ClosedJaxpr) -> ClosedJaxpr:
    """Consts become leading inputs: the const-free form bodies are stored in."""
    j = closed.jaxpr
    return ClosedJaxpr(Jaxpr([], j.constvars + j.invars, j.outvars, j.eqns), [])


def join_consts(closeds: Sequence[ClosedJaxpr]) -> tuple[list[ClosedJaxpr], list[Any]]:
    """Give jaxprs with different consts one signature: (consts of all..., inputs...).

    Each jaxpr ignores the other ones' consts; used for cond branches.
    """
    consts: list[Any] = []
    for c in closeds:
        consts += c.consts
    out = []
    for i, c in enumerate(closeds):
        invars: list[Var] = []
        for k, d in enumerate(closeds):
            invars += c.jaxpr.constvars if k == i else [Var(v.aval) for v in d.jaxpr.constvars]
        out.append(ClosedJaxpr(Jaxpr([], invars + c.jaxpr.invars, c.jaxpr.outvars, c.jaxpr.eqns), []))
    return out, consts


def dce(jaxpr: Jaxpr, used_outputs: Sequence[bool], keep_effects: bool = True) -> tuple[Jaxpr, list[bool]]:
    """Drop outputs not in `used_outputs` and the equations only they need (equations with
    side effects stay, unless `keep_effects` is False: a copy made to compute values only).

    Returns the pruned jaxpr (same inputs) and which inputs are still read.
    """
    live = {v for v, u in zip(jaxpr.outvars, used_outputs) if u and type(v) is Var}
    eqns = []
    for eqn in reversed(jaxpr.eqns):
        if any(v in live for v in eqn.outvars) or (keep_effects and eqn_effects(eqn)):
            eqns.append(eqn)
            live.update(v for v in eqn.invars if type(v) is Var)
    eqns.reverse()
    outvars = [v for v, u in zip(jaxpr.outvars, used_outputs) if u]
    return Jaxpr(jaxpr.constvars, jaxpr.invars, outvars, eqns), [v in live for v in jaxpr.invars]


def deps(jaxpr: Jaxpr, flags: Sequence[bool]) -> list[bool]:
    """Which outputs depend on the inputs marked in `flags` (forward dependence)."""
    dep = {v for v, f in zip(jaxpr.invars, flags) if f}
    for eqn in jaxpr.eqns:
        if any(type(v) is Var and v in dep for v in eqn.invars):
            dep.update(eqn.outvars)
    return [type(v) is Var and v in dep for v in jaxpr.outvars]
