"""Traces and tracers: the interpreter stack that every transformation plugs into.

padax follows JAX's "stackless" design: there is one *current trace*;
`Primitive.bind` hands the operation to it. A transformation's trace keeps
its parent (the trace that was current when it started) and runs the real
work with the parent current, so transformations nest without level
numbers. A tracer remembers its trace; a tracer whose trace has ended is a
leaked tracer and using it is an error.
"""
from __future__ import annotations

import contextlib
import threading
from typing import Iterator

from padax.core.abstract import AvalProperties
from padax.core.errors import ConcretizationTypeError, UnexpectedTracerError, require_members
from padax.core.source_info import user_location


class Trace:
    """An interpreter for primitives; subclasses implement `process_primitive`."""

    __slots__ = ("_valid", "__weakref__")

    def __init__(self) -> None:
        self._valid = True

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        require_members(cls, "Trace", {"process_primitive": "process_primitive(prim, args, params)"})

    def invalidate(self) -> None:
        self._valid = False

    @property
    def is_valid(self) -> bool:
        return self._valid


class EvalTrace(Trace):
    """The outermost trace: run each primitive for real (eager mode)."""

    __slots__ = ()

    def process_primitive(self, prim, args, params):
        # (a leaked tracer among args is detected by the eager dispatcher when it looks
        # for device buffers, which keeps this hot path free of per-argument checks)
        return prim.eager(args, params)


class _TraceState(threading.local):
    def __init__(self) -> None:
        self.trace: Trace = EvalTrace()
        # A dtype policy (e.g. padax.amp.auto_cast) that `Primitive.bind` applies to the operands of
        # every primitive before the current trace sees them: policy(prim, args, params) -> args. None: off.
        self.bind_policy = None


trace_state = _TraceState()


def current_trace() -> Trace:
    return trace_state.trace


# A setting in the C++ jit dispatcher's cache key that says "a transformation is tracing"
# (installed by padax.transforms.jit): compiled calls are replayed only at the top level.
tracing_key = None


def _switch_to(trace: Trace, prev: Trace) -> None:
    trace_state.trace = trace
    if tracing_key is not None and (type(trace) is EvalTrace) is not (type(prev) is EvalTrace):
        tracing_key.set_local(type(trace) is not EvalTrace)


@contextlib.contextmanager
def set_current_trace(trace: Trace) -> Iterator[Trace]:
    prev = trace_state.trace
    _switch_to(trace, prev)
    try:
        yield trace
    finally:
        _switch_to(prev, trace)


# A setting in the C++ jit dispatcher's cache key holding the active bind policy (installed by
# padax.transforms.jit): a function traced under a policy is not replayed without it, and vice versa.
policy_key = None


@contextlib.contextmanager
def bind_policy(policy) -> Iterator[None]:
    """Apply `policy(prim, args, params) -> args` to every primitive bound in this block (this thread).

    The policy is a hashable value (it enters jit's cache keys); it may bind primitives itself
    (casts), which pass through it again, so it must leave those unchanged.
    """
    prev = trace_state.bind_policy
    trace_state.bind_policy = policy
    if policy_key is not None:
        policy_key.set_local(policy)
    try:
        yield
    finally:
        trace_state.bind_policy = prev
        if policy_key is not None:
            policy_key.set_local(prev)


@contextlib.contextmanager
def new_trace(trace: Trace) -> Iterator[Trace]:
    """Make `trace` current for a block and invalidate it at the end (leak detection)."""
    with set_current_trace(trace):
        try:
            yield trace
        finally:
            trace.invalidate()


def check_no_leaks(trace_ref, what: str) -> None:
    """With config.check_tracer_leaks: raise if tracers of a finished transformation are still alive.

    `trace_ref` is a weak reference to the finished trace; the caller has dropped its own
    references to the trace and its tracers. Whatever still holds one of them (a global, a
    closure, an attribute) leaked it.
    """
    import gc
    if trace_ref() is None:
        return
    gc.collect()
    trace = trace_ref()
    if trace is None:
        return
    leaked = [r for r in gc.get_referrers(trace) if isinstance(r, Tracer)]
    del trace
    if leaked:
        t = leaked[0]
        holders = [type(h).__name__ for h in gc.get_referrers(t) if h is not leaked]
        raise UnexpectedTracerError(
            f"check_tracer_leaks: {len(leaked)} tracer(s) of {what} outlived it, e.g. {t!r} (held by "
            f"{', '.join(holders[:3]) or 'an object'}){user_location()}. A value computed inside jit/grad/vmap "
            "was stored outside (a global, a closure, an attribute); return it from the function instead.")


def escaped_tracer_error(tracer: "Tracer", where: str) -> UnexpectedTracerError:
    return UnexpectedTracerError(
        f"{where}: encountered a leaked tracer {tracer.aval.str_short()} from a transformation "
        f"({type(tracer._trace).__name__}) that has already finished{user_location()}. "
        "A value computed inside jit/grad/vmap escaped (stored in a global, a closure or an "
        "attribute) and was used afterwards. Return it from the transformed function instead.")


class Tracer(AvalProperties):
    """A value standing for an array during a transformation.

    Operators and Tensor-like methods (`+`, `@`, `.sum()`, `.reshape()` ...)
    are attached by `padax.functional.methods`, the same ones Tensor gets.
    """

    __slots__ = ("_trace", "_tape")  # _tape: set only on a tracer that needs a gradient (interpreters/tape.py)
    __array_priority__ = 1000

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        require_members(cls, "Tracer", {"aval": "`aval` (its abstract value)"})

    def _concrete_error(self, what: str) -> ConcretizationTypeError:
        return ConcretizationTypeError(
            f"{what} needs a concrete value, but got a traced array {self.aval.str_short()} "
            f"inside {self._trace_description()}{user_location()}. Python control flow (if/while/"
            "bool/int) cannot depend on traced values. Options: mark the argument static "
            "(jit(..., static_argnums=...) or static_argnames=...), use padax.where for "
            "elementwise choices, or padax.cond / padax.while_loop for control flow.")

    def _trace_description(self) -> str:
        return getattr(self._trace, "description", type(self._trace).__name__)

    def __bool__(self):
        raise self._concrete_error("bool() of an array (an `if`, `while`, `and`/`or` or `not`)")

    def __int__(self):
        raise self._concrete_error("int()")

    def __float__(self):
        raise self._concrete_error("float()")

    def __complex__(self):
        raise self._concrete_error("complex()")

    def __index__(self):
        raise self._concrete_error("using an array as an index (__index__)")

    def __array__(self, dtype=None, copy=None):
        raise self._concrete_error("converting to a numpy array")

    def numpy(self):
        raise self._concrete_error("Tensor.numpy()")

    def item(self, *args):
        raise self._concrete_error("Tensor.item()")

    tolist = item

    def __iter__(self):
        if not self.aval.shape:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(self.aval.shape[0]))

    def __hash__(self):
        raise TypeError("unhashable type: traced array")

    def __repr__(self) -> str:
        return f"Traced<{self.aval.str_short()}>with<{type(self._trace).__name__}>"
