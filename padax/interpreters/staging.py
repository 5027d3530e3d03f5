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
        self._tape = None  # (the dygraph tape's entry: set on a tracer that needs a gradient)
        self._var = var

    @property
    def aval(self) -> ShapedArray:
        return self._var.aval


class StagedState:
    """Outside state that a program staged for jit updates while it is traced: Tensors rebound in place
    (`w.set_value(...)` in an optimizer's step, `x.add_(y)`) and attributes assigned (the tape's `.grad`).
    The program returns the new values as extra outputs and each call writes them back (see jit), so
    Paddle's stateful code compiles whole; the trace reads a rebound Tensor as its new value."""

    __slots__ = ("tensors", "attrs", "reads")

    def __init__(self) -> None:
        self.tensors: dict[int, list] = {}  # id(x) -> [x, the tracer x now holds]
        self.attrs: dict[tuple, list] = {}  # (id(obj), name) -> [obj, name, the value before the trace]
        self.reads: dict[int, Callable[[], Any]] = {}  # id(const) -> where each call finds that value now

    def note_attr(self, obj: Any, name: str) -> None:
        key = (id(obj), name)
        if key not in self.attrs:
            self.attrs[key] = [obj, name, getattr(obj, name)]


class JaxprTrace(Trace):
    """Records every primitive applied to its tracers as an equation."""

    __slots__ = ("eqns", "invars", "constvars", "const_vals", "_const_ids", "description", "enclosing", "state")

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
        self.state: StagedState | None = None  # set by jit: outside state its program updates

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
            if self.state is not None and id(x) in self.state.tensors:
                return self.state.tensors[id(x)][1]._var
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
            if self.state is not None and id(x) in self.state.tensors:
                return self.state.tensors[id(x)][1]._var
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


def staged_state() -> StagedState | None:
    """The StagedState of the program being staged for jit now (the current trace), or None when the current
    trace is not a jit's (eager code, a loop or branch body, another transformation)."""
    trace = current_trace()
    if type(trace) is not JaxprTrace or trace.state is None:
        return None
    return trace.state


def write_attr(obj: Any, name: str, value: Any) -> None:
    """`setattr(obj, name, value)`, noted as an update of outside state when a jitted program is being staged."""
    state = staged_state()
    if state is not None:
        state.note_attr(obj, name)
    setattr(obj, name, value)


def note_staged_write(obj: Any, name: str, value: Any) -> bool:
    """Note `obj.name = value` (a tracer of the jit program being staged now) as an update of outside state
    that each call writes back; False (nothing noted) when value is not such a tracer."""
    state = staged_state()
    if state is None or not isinstance(value, Tracer) or value._trace is not current_trace():
        return False
    state.note_attr(obj, name)
    return True


def read_each_call(value: Any, current: Callable[[], Any]) -> Any:
    """`value` (a concrete Tensor), which a jitted program being staged reads not as a constant but as
    `current()` at each call (a learning rate a scheduler changes between calls). Returns value."""
    state = staged_state()
    if state is not None:
        state.reads[id(value)] = current
    return value


def trace_flat(fun: Callable[..., Sequence[Any]], in_avals: Sequence[ShapedArray],
               description: str = "jit tracing", state: StagedState | None = None) -> ClosedJaxpr:
    """Trace `fun(*flat_args) -> flat outputs` at `in_avals` into a closed jaxpr. With `state`, outside
    state updated while tracing is collected there (jit's stateful programs)."""
    trace = JaxprTrace(description)
    trace.state = state
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
