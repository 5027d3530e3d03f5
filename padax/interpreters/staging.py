"""Staging: an interpreter that records every primitive applied to its tracers as a jaxpr equation.

`trace_flat(fun, in_avals)` traces a function of flat arrays into a ClosedJaxpr; jit, make_jaxpr, the
control-flow primitives' bodies and partial evaluation all build on it.
"""
from __future__ import annotations

import weakref
from typing import Any, Callable, Sequence

import numpy as np

from padax.config import config
from padax.core.abstract import ShapedArray, aval_of_host_value
from padax.core.jaxpr import ClosedJaxpr, Jaxpr, JaxprEqn, Literal, Var
from padax.core.ref import AbstractRef, Ref, RefError
from padax.core.source_info import user_frame, user_location
from padax.core.trace import Trace, Tracer, check_no_leaks, current_trace, escaped_tracer_error, new_trace
from padax.runtime import tree as tree_util
from padax.runtime.array import Tensor


class JaxprTracer(Tracer):
    __slots__ = ("_var",)

    def __init__(self, trace: "JaxprTrace", var: Var):
        self._trace = trace
        self._var = var

    @property
    def aval(self) -> ShapedArray:
        return self._var.aval


class JaxprTrace(Trace):
    """Records every primitive applied to its tracers as an equation."""

    __slots__ = ("eqns", "invars", "constvars", "const_vals", "_const_ids", "description", "enclosing")

    def __init__(self, description: str = "jit tracing"):
        super().__init__()
        # the trace this one was started under: a loop/branch body inside shard_map or vmap finds the
        # enclosing named axes through it (parallel._static_axis_size)
        self.enclosing = current_trace()
        self.eqns: list[JaxprEqn] = []
        self.invars: list[Var] = []
        self.constvars: list[Var] = []
        self.const_vals: list[Any] = []
        self._const_ids: dict[int, Var] = {}
        self.description = description

    def new_arg(self, aval: ShapedArray) -> JaxprTracer:
        v = Var(aval)
        self.invars.append(v)
        return JaxprTracer(self, v)

    def getvar(self, x: Any):
        if isinstance(x, Tracer):
            if x._trace is self:
                return x._var
            if not x._trace.is_valid:
                raise escaped_tracer_error(x, "jit")
            return self._const(x, x.aval)  # a tracer of an enclosing transformation
        if type(x) is Tensor:
            return self._const(x, x.aval)
        if isinstance(x, (bool, int, float, complex)):
            return Literal(x, aval_of_host_value(x))
        if isinstance(x, (np.ndarray, np.generic)):
            aval = aval_of_host_value(x)
            if aval.shape == ():
                return Literal(np.asarray(x, aval.dtype), aval)
            return self._const(np.asarray(x, aval.dtype), aval)
        if type(x) is Ref:  # a ref made outside, closed over: an input of the program like a captured array
            return self._const(x, x.aval)
        if isinstance(x, Tensor):  # a Tensor that needs a gradient (interpreters/tape.py's GradTensor)
            return self._const(x, x.aval)
        raise TypeError(f"value of type {type(x).__name__} is not a valid array argument: {x!r}")

    def _const(self, val: Any, aval: ShapedArray) -> Var:
        v = self._const_ids.get(id(val))
        if v is None:
            v = self._const_ids[id(val)] = Var(aval)
            self.constvars.append(v)
            self.const_vals.append(val)
        return v

    def process_primitive(self, prim, args, params):
        invars = [self.getvar(a) for a in args]
        out = prim.eval_avals([v.aval for v in invars], params)
        if prim.multiple_results:
            outvars = [Var(a) for a in out]
            self.eqns.append(JaxprEqn(prim, invars, outvars, params, user_frame()))
            return [JaxprTracer(self, v) for v in outvars]
        outvar = Var(out)
        self.eqns.append(JaxprEqn(prim, invars, [outvar], params, user_frame()))
        return JaxprTracer(self, outvar)

    def to_jaxpr(self, outs: Sequence[Any]) -> ClosedJaxpr:
        for x in outs:
            if not isinstance(x, (JaxprTracer, Tracer, Tensor, Ref, bool, int, float, complex, np.ndarray, np.generic)):
                raise TypeError(f"{self.description}: the function returned a {type(x).__name__} ({x!r:.60}); a traced "
                                f"function returns arrays, numbers or pytrees (tuples, lists, dicts) of them"
                                f"{user_location()}")
        outvars = [self.getvar(x) for x in outs]
        for v in outvars:
            if type(v.aval) is AbstractRef:
                raise RefError(f"{self.description}: the function returned a Ref {v.aval.str_short()}; a mutable "
                               f"array ref cannot escape a transformation (return `ref[...]` or padax.freeze(ref) "
                               f"instead){user_location()}")
        jaxpr = Jaxpr(list(self.constvars), list(self.invars), outvars, list(self.eqns))
        return ClosedJaxpr(jaxpr, list(self.const_vals))


def trace_flat(fun: Callable[..., Sequence[Any]], in_avals: Sequence[ShapedArray],
               description: str = "jit tracing") -> ClosedJaxpr:
    """Trace `fun(*flat_args) -> flat outputs` at `in_avals` into a closed jaxpr."""
    trace = JaxprTrace(description)
    with new_trace(trace):
        args = [trace.new_arg(a) for a in in_avals]
        outs = fun(*args)
        closed = trace.to_jaxpr(outs)
    if config.check_tracer_leaks:
        ref = weakref.ref(trace)
        del trace, args, outs
        check_no_leaks(ref, description)
    return closed


def flat_fun(fun: Callable, in_tree, out_store: list) -> Callable:
    """`fun(*args, **kwargs)` as a function of the flat leaves of (args, kwargs); it appends
    the output tree to `out_store` when called."""
    def flat(*leaves):
        args, kwargs = in_tree.unflatten(leaves)
        out = fun(*args, **kwargs)
        out_leaves, out_tree = tree_util.flatten(out)
        out_store.append(out_tree)
        return out_leaves
    return flat
