"""Forward-mode differentiation and transposition: the JVP interpreter and `backward_pass`.

`jvp_flat` pushes tangents through a function of flat arrays with the JVP trace (each primitive's
`jvp_rule`); `backward_pass` transposes a linear jaxpr (each primitive's `transpose_rule`); reverse mode
is linearize (partial_eval.py) followed by it. `jvp_jaxpr` and `instantiate_tangent` serve the rules of
primitives that hold sub-jaxprs (control flow, jit, remat, custom derivatives).
"""
from __future__ import annotations

import weakref
from typing import Any, Callable, Sequence

from padax.config import config
from padax.core import dtypes
from padax.core.abstract import ShapedArray, get_aval
from padax.core.ad_util import UndefinedPrimal, Zero, add_tangents, tangent_aval, zeros_like_aval
from padax.core.errors import missing_rule
from padax.core.jaxpr import ClosedJaxpr, Jaxpr, Literal, Var, eval_jaxpr
from padax.core.trace import Trace, Tracer, check_no_leaks, new_trace, set_current_trace, trace_state
from padax.interpreters import hooks
from padax.interpreters.staging import trace_flat

# ---- forward mode -----------------------------------------------------------------

class JVPTracer(Tracer):
    __slots__ = ("primal", "tangent")

    def __init__(self, trace: "JVPTrace", primal: Any, tangent: Any):
        self._trace = trace
        self._tape = None  # (the dygraph tape's entry: set on a tracer that needs a gradient)
        self.primal = primal
        self.tangent = tangent

    @property
    def aval(self) -> ShapedArray:
        return get_aval(self.primal)


class JVPTrace(Trace):
    __slots__ = ("parent", "redirect")
    description = "jvp/grad tracing"

    def __init__(self, parent: Trace):
        super().__init__()
        self.parent = parent
        self.redirect = None  # concrete Tensors updated in place with this trace's values (see rebound)

    def lift(self, x: Any) -> tuple[Any, Any]:
        if isinstance(x, JVPTracer) and x._trace is self:
            return x.primal, x.tangent
        if self.redirect is not None:
            hit = self.redirect.get(id(x))
            if hit is not None and hit[0]() is x:
                return hit[1].primal, hit[1].tangent
        return x, Zero(tangent_aval(get_aval(x)))

    def process_primitive(self, prim, args, params):
        primals, tangents = [], []
        for a in args:
            p, t = self.lift(a)
            primals.append(p)
            tangents.append(t)
        if all(type(t) is Zero for t in tangents) and not prim.jvp_even_zero:
            with set_current_trace(self.parent):
                return prim.bind(*primals, **params)
        rule = prim.jvp_rule
        if rule is None:
            raise missing_rule(prim, "jvp_rule", "differentiation", "prim.def_jvp, or ad_util.defjvp / deflinear")
        with set_current_trace(self.parent):
            out, t_out = rule(primals, tangents, **params)
        if prim.multiple_results:
            return [self._wrap(p, t) for p, t in zip(out, t_out)]
        return self._wrap(out, t_out)

    def _wrap(self, p, t):
        if type(t) is Zero and not dtypes.is_inexact(get_aval(p).dtype):
            return p  # integer/bool outputs carry no tangent
        return JVPTracer(self, p, t)


def redirect(trace: Any, x: Any, value: Any) -> None:
    """A concrete Tensor `x` made or closed over outside this eager transformation was updated in place
    with `value`, one of `trace`'s tracers: from now on `trace` reads `x` as `value`, and when the
    transformation ends `x` holds the value at the level outside (`write_back_redirects`)."""
    if trace.redirect is None:
        trace.redirect = {}
    trace.redirect[id(x)] = (weakref.ref(x), value)


def write_back_redirects(trace: Any, lower: Callable[[Any], Any]) -> None:
    """Rebind each Tensor updated in place under `trace` (an ending transformation) that is still alive
    (a closed-over Tensor; a temporary of the function is gone) to `lower(value)`."""
    if trace.redirect:
        pending, trace.redirect = list(trace.redirect.values()), None
        for ref, value in pending:
            x = ref()
            if x is not None:
                hooks.rebind(x, lower(value), "in-place update")


def jvp_flat(fun: Callable, primals: Sequence[Any], tangents: Sequence[Any]) -> tuple[list, list]:
    trace = JVPTrace(trace_state.trace)
    with new_trace(trace):
        ins = [JVPTracer(trace, p, t) for p, t in zip(primals, tangents)]
        outs = fun(*ins)
        pairs = [trace.lift(o) for o in outs]
    write_back_redirects(trace, lambda v: v.primal)
    if config.check_tracer_leaks:
        ref = weakref.ref(trace)
        del trace, ins, outs
        check_no_leaks(ref, "jvp/grad")
    return [p for p, _ in pairs], [t for _, t in pairs]


def instantiate_tangent(t: Any, aval: ShapedArray) -> Any:
    """A tangent/cotangent as an array of the tangent type of `aval` (zeros if symbolic)."""
    ta = tangent_aval(aval)
    if t is None or type(t) is Zero:
        return zeros_like_aval(ta)
    ua = get_aval(t)
    if ua.weak_type and not ta.weak_type and ua.dtype == ta.dtype:
        return hooks.convert_to_strong(t, ta.dtype)
    return t


def jvp_jaxpr(closed: ClosedJaxpr, nonzeros: Sequence[bool], instantiate: Sequence[bool]):
    """The jvp of a jaxpr as a jaxpr: (primals..., tangents of `nonzeros` inputs...) ->
    (outputs..., tangents of the flagged outputs...).

    Outputs in `instantiate` always get a tangent (zeros if it is symbolically zero);
    integer outputs never do. Returns (ClosedJaxpr, output flags).
    """
    avals = closed.in_avals
    nonzeros = [nz and dtypes.is_inexact(a.dtype) for a, nz in zip(avals, nonzeros)]
    n = len(avals)
    store: list = []

    def f(*args):
        it = iter(args[n:])
        tangents = [next(it) if nz else Zero(tangent_aval(a)) for a, nz in zip(avals, nonzeros)]
        outs, touts = jvp_flat(lambda *xs: eval_jaxpr(closed.jaxpr, closed.consts, *xs),
                                list(args[:n]), tangents)
        flags, extra = [], []
        for o, t, inst in zip(outs, touts, instantiate):
            oa = get_aval(o)
            nz = dtypes.is_inexact(oa.dtype) and (inst or type(t) is not Zero)
            flags.append(nz)
            if nz:
                extra.append(instantiate_tangent(t, oa))
        store.append(flags)
        return list(outs) + extra

    t_avals = [tangent_aval(a) for a, nz in zip(avals, nonzeros) if nz]
    traced = trace_flat(f, list(avals) + t_avals, "jvp of control flow")
    return traced, store[0]


# ---- transposition ---------------------------------------------------------------------

def backward_pass(jaxpr: Jaxpr, consts: Sequence[Any], cts_out: Sequence[Any]) -> list[Any]:
    """Transpose a linear jaxpr: cotangents of its outputs -> cotangents of its inputs."""
    linear_vars: set = set(jaxpr.invars)
    env: dict = dict(zip(jaxpr.constvars, consts))
    lin_eqns = []
    for eqn in jaxpr.eqns:  # forward: evaluate the non-linear parts, collect the linear ones
        if any(type(v) is Var and v in linear_vars for v in eqn.invars):
            linear_vars.update(eqn.outvars)
            lin_eqns.append(eqn)
        else:
            ins = [v.val if type(v) is Literal else env[v] for v in eqn.invars]
            outs = eqn.primitive.bind(*ins, **eqn.params)
            for v, x in zip(eqn.outvars, outs if eqn.primitive.multiple_results else [outs]):
                env[v] = x
    ct_env: dict = {}

    def write_ct(v, ct):
        if type(v) is Var and v in linear_vars and ct is not None and type(ct) is not Zero:
            ct_env[v] = add_tangents(ct_env[v], ct) if v in ct_env else ct

    for v, ct in zip(jaxpr.outvars, cts_out):
        write_ct(v, ct)
    for eqn in reversed(lin_eqns):
        cts = [ct_env.pop(v, None) for v in eqn.outvars]
        if all(c is None for c in cts):
            continue
        cts = [Zero(v.aval) if c is None else c for v, c in zip(eqn.outvars, cts)]
        ins = [UndefinedPrimal(v.aval) if type(v) is Var and v in linear_vars
               else (v.val if type(v) is Literal else env[v]) for v in eqn.invars]
        rule = eqn.primitive.transpose_rule
        if rule is None:
            raise missing_rule(eqn.primitive, "transpose_rule", "reverse-mode differentiation",
                               "prim.def_transpose, or ad_util.deflinear for a linear primitive")
        cts_in = rule(cts if eqn.primitive.multiple_results else cts[0], *ins, **eqn.params)
        for v, ct in zip(eqn.invars, cts_in):
            write_ct(v, ct)
    return [ct_env.get(v, Zero(v.aval)) for v in jaxpr.invars]
