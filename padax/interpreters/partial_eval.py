"""Partial evaluation: run what is known now, stage what depends on unknown (tangent) inputs.

`linearize_flat` is reverse mode's first half: the JVP trace under a partial-eval trace yields the
primal outputs and a linear jaxpr of the tangents, which `ad.backward_pass` then transposes.
`partial_eval_jaxpr` splits a jaxpr the same way (the rules of scan, cond and jit use it).
"""
from __future__ import annotations

import weakref
from typing import Any, Callable, Sequence

from padax.config import config
from padax.core import dtypes
from padax.core.abstract import get_aval
from padax.core.ad_util import Zero, tangent_aval, zeros_like_aval
from padax.core.jaxpr import ClosedJaxpr, Jaxpr, eval_jaxpr
from padax.core.ref import AbstractRef, RefError
from padax.core.source_info import user_location
from padax.core.trace import Trace, check_no_leaks, new_trace, set_current_trace, trace_state
from padax.interpreters.ad import JVPTrace, JVPTracer, write_back_redirects
from padax.interpreters.discharge import discharge_closed, jaxpr_has_refs
from padax.interpreters.staging import JaxprTrace, JaxprTracer
from padax.runtime.array import Tensor


class PartialEvalTrace(JaxprTrace):
    """Stages only operations that depend on unknown (tangent) inputs; known ones run on the parent.

    A primitive may define `partial_eval_rule(trace, args, unknowns, **params)` to split
    itself into a known part (run now) and an unknown part (staged), as scan/cond do;
    otherwise an equation with any unknown input is staged whole.
    """

    __slots__ = ("parent", "_kept")

    def __init__(self, parent: Trace, description: str = "linearize tracing"):
        super().__init__(description)
        self.parent = parent
        self._kept: list = []

    def is_unknown(self, x: Any) -> bool:
        return isinstance(x, JaxprTracer) and x._trace is self

    def _const(self, val: Any, aval: Any) -> Any:
        """A residual of the linear program. A concrete Tensor is kept as the array it holds now, so an
        in-place update of the Tensor later (a rebinding) does not change what the backward pass reads."""
        if type(val) is not Tensor or id(val) in self._const_ids:
            return super()._const(val, aval)
        v = super()._const(val, aval)
        self.const_vals[-1] = Tensor(val._buf, val.aval)
        self._kept.append(val)  # (alive while tracing: its id keys _const_ids)
        return v

    def stage(self, prim, args, params):
        """Record an equation as-is (for partial-eval rules staging their unknown part)."""
        return JaxprTrace.process_primitive(self, prim, args, params)

    def process_primitive(self, prim, args, params):
        unknowns = [self.is_unknown(a) for a in args]
        if not any(unknowns):
            with set_current_trace(self.parent):
                return prim.bind(*args, **params)
        rule = prim.partial_eval_rule
        if rule is not None:
            return rule(self, list(args), unknowns, **params)
        return super().process_primitive(prim, args, params)


def partial_eval_jaxpr(closed: ClosedJaxpr, unknowns: Sequence[bool],
                       instantiate: bool | Sequence[bool] = False):
    """Split a jaxpr into a known part and an unknown part.

    Returns (known, unknown, out_unknowns, num_res): `known` maps the known inputs to
    (known outputs..., residuals...); `unknown` maps (residuals..., unknown inputs...)
    to the unknown outputs. Outputs marked in `instantiate` are made unknown.
    """
    n_out = len(closed.jaxpr.outvars)
    inst = [instantiate] * n_out if isinstance(instantiate, bool) else list(instantiate)
    known_trace = JaxprTrace("partial eval (known part)")
    with new_trace(known_trace):
        k_ins = [known_trace.new_arg(v.aval) for v, u in zip(closed.jaxpr.invars, unknowns) if not u]
        u_trace = PartialEvalTrace(known_trace, "partial eval (unknown part)")
        with new_trace(u_trace):
            u_ins = [u_trace.new_arg(v.aval) for v, u in zip(closed.jaxpr.invars, unknowns) if u]
            ki, ui = iter(k_ins), iter(u_ins)
            ins = [next(ui) if u else next(ki) for u in unknowns]
            outs = eval_jaxpr(closed.jaxpr, closed.consts, *ins)
            out_unknowns = [u_trace.is_unknown(o) or i for o, i in zip(outs, inst)]
            unknown = u_trace.to_jaxpr([o for o, u in zip(outs, out_unknowns) if u])
        residuals = unknown.consts
        known_outs = [o for o, u in zip(outs, out_unknowns) if not u]
        known = known_trace.to_jaxpr(known_outs + residuals)
    uj = unknown.jaxpr
    unknown = ClosedJaxpr(Jaxpr([], uj.constvars + uj.invars, uj.outvars, uj.eqns), [])
    return known, unknown, out_unknowns, len(residuals)


def trace_linear_flat(fun: Callable, avals: Sequence[Any]) -> ClosedJaxpr:
    """The jaxpr of `fun` on unknown inputs of these avals, everything not depending on them (the
    primal half of a jvp, say) computed now: what linear_transpose transposes. Loops and conds split
    by their partial-eval rules, so a jvp through scan leaves only its tangent loop."""
    parent = trace_state.trace
    pe = PartialEvalTrace(parent)
    with new_trace(pe):
        ins = [pe.new_arg(a) for a in avals]
        outs = fun(*ins)
        linear = pe.to_jaxpr(list(outs))
    if jaxpr_has_refs(linear):
        linear = discharge_closed(linear)
    return linear


def linearize_flat(fun: Callable, primals: Sequence[Any]) -> tuple[list, ClosedJaxpr, list[bool], list[bool]]:
    """Primal outputs, a linear jaxpr mapping input tangents to output tangents, and which inputs
    and which outputs have a tangent space.

    Inputs and outputs without one (ints, bools: float0 tangents) are not inputs or outputs of
    the linear jaxpr.
    """
    parent = trace_state.trace
    pe = PartialEvalTrace(parent)
    diff = [dtypes.is_inexact(get_aval(p).dtype) for p in primals]
    with new_trace(pe):
        t_ins = [pe.new_arg(tangent_aval(get_aval(p))) if d else None for p, d in zip(primals, diff)]
        jt = JVPTrace(pe)
        with new_trace(jt):
            ins = [JVPTracer(jt, p, t) if t is not None else p for p, t in zip(primals, t_ins)]
            outs = fun(*ins)
            pairs = [jt.lift(o) for o in outs]
        write_back_redirects(jt, lambda v: v.primal)
        out_primals = [p for p, _ in pairs]
        for p in out_primals:
            if isinstance(p, JaxprTracer) and p._trace is pe:
                raise AssertionError("padax internal error: a primal output depends on tangents")
        out_diff = [dtypes.is_inexact(get_aval(p).dtype) for p in out_primals]
        t_outs = [zeros_like_aval(t.aval) if type(t) is Zero else t for (_, t), d in zip(pairs, out_diff) if d]
        linear = pe.to_jaxpr(t_outs)
        if jaxpr_has_refs(linear):  # tangent refs: the backward pass transposes their pure form
            if any(type(a) is AbstractRef for a in linear.in_avals):
                raise RefError("grad/linearize: differentiating with respect to a Ref argument is not supported; "
                               f"differentiate with respect to the array (ref[...]) instead{user_location()}")
            linear = discharge_closed(linear)
    if config.check_tracer_leaks:
        refs = (weakref.ref(jt), weakref.ref(pe))
        jt = pe = ins = outs = pairs = t_ins = t_outs = None  # (drop this frame's references)
        for ref in refs:
            check_no_leaks(ref, "grad/linearize")
    return out_primals, linear, diff, out_diff
