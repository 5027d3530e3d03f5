"""The rebinding helper behind Paddle's in-place updates (padax/functional/inplace.py) and `out=`.

`rebind(x, value, op)` makes the Python object `x` hold `value`: a Tensor takes the new buffer
(`Tensor._rebind`), a tracer takes the slots of a tracer of the same transformation. A concrete
Tensor updated under eager grad or vmap with a traced value is read as that value by the
transformation from then on, and holds its primal (unbatched) value when it ends
(`padax.interpreters.ad.redirect`). No buffer is
ever written. Where the value cannot be bound (a concrete Tensor updated with a traced value, a
jitted function's argument, an outer transformation's tracer updated with an inner one's) it
raises ImmutableTensorError naming the op, the shapes and the user's line.
"""
from __future__ import annotations

from typing import Any

from padax.core.abstract import get_aval
from padax.core.ad_util import Zero, tangent_aval
from padax.core.errors import ImmutableTensorError, op_value_error
from padax.core.source_info import user_location
from padax.core.trace import EvalTrace, Tracer, trace_state
from padax.functional._arrays import asarray
from padax.functional.lax.structural import convert_element_type
from padax.interpreters import hooks, tape
from padax.interpreters.ad import JVPTrace, JVPTracer, redirect
from padax.interpreters.batching import BatchTrace, BatchTracer
from padax.interpreters.staging import JaxprTrace, JaxprTracer
from padax.runtime.array import Tensor

_REF_HINT = "return the new value, or hold it in a padax ref (padax.new_ref)"


def _slots_of(cls: type, _cache: dict = {}) -> tuple[str, ...]:  # noqa: B006  (a per-class cache)
    slots = _cache.get(cls)
    if slots is None:
        names = []
        for k in reversed(cls.__mro__):
            for s in k.__dict__.get("__slots__", ()):
                if s not in ("__weakref__", "__dict__", "_tape") and s not in names:
                    names.append(s)
        slots = _cache[cls] = tuple(names)
    return slots


def _lineage(trace: Any):
    """The trace and the traces it was started under, innermost first."""
    while trace is not None:
        yield trace
        trace = getattr(trace, "parent", None) or getattr(trace, "enclosing", None)


def _lift(trace: Any, value: Any) -> Any:
    """`value` (from an enclosing level) as a tracer of `trace`, or None when this trace cannot take it."""
    kind = type(trace)
    if kind is JaxprTrace:
        return JaxprTracer(trace, trace.getvar(value))
    if kind is JVPTrace:
        return JVPTracer(trace, value, Zero(tangent_aval(get_aval(value))))
    if kind is BatchTrace:
        return BatchTracer(trace, value, None)
    return None


def _staged() -> bool:
    """Whether a program is being staged (jit, make_jaxpr, a control-flow body): the code runs once,
    at trace time, so a Python object updated now would not be updated by later calls."""
    t = trace_state.trace
    if type(t) is EvalTrace:
        return False
    while getattr(t, "parent", None) is not None:
        t = t.parent
    return not isinstance(t, EvalTrace)


def _is_jit_argument(x: Any) -> bool:
    """Whether tracer x stands for an argument of a jitted function (not of a loop or branch body,
    whose carries may be rebound: the body returns them)."""
    trace = x._trace
    return getattr(trace, "description", "").startswith("jit(") and any(v is x._var for v in trace.invars)


def _where(value: Any) -> str:
    trace = getattr(value, "_trace", None) or trace_state.trace
    return getattr(trace, "description", type(trace).__name__)


def _unbindable(op: str, x: Any, value: Any, reason: str) -> ImmutableTensorError:
    return ImmutableTensorError(
        f"{op}: cannot update the {get_aval(x).str_short()} {'Tensor' if type(x) is Tensor else 'value'} in place "
        f"with the {get_aval(value).str_short()} result computed inside {_where(value)}{user_location()}: "
        f"{reason}. Use the functional form instead: {_REF_HINT}")


def rebind(x: Any, value: Any, op: str, same_shape: bool = True) -> Any:
    """Make the object `x` hold `value` and return `x` (the functional form of an in-place update).

    `same_shape`: the update must keep x's shape (Paddle's rule for elementwise in-place ops;
    reshape_, cast_ and friends pass False).
    """
    if not isinstance(value, (Tensor, Tracer)):
        value = asarray(value)
    if same_shape and get_aval(value).shape != get_aval(x).shape:
        raise op_value_error(op, f"the result's shape {list(get_aval(value).shape)} differs from the shape "
                                 f"{list(get_aval(x).shape)} of the Tensor updated in place")
    if isinstance(x, Tensor):
        if isinstance(value, Tensor):
            if _staged():
                raise _unbindable(op, x, value, "this Tensor lives outside the jitted function, which runs only "
                                               "while it is traced, so the update would be lost on later calls")
            tape.rebound(x, value, op)
            return x._rebind(value)
        if _staged():
            raise _unbindable(op, x, value, "this Tensor lives outside the jitted function")
        if type(value) in (JVPTracer, BatchTracer):  # eager grad/vmap: the trace reads x as value from now on
            redirect(value._trace, x, value)
            return x
        raise _unbindable(op, x, value, "this Tensor lives outside the transformed function")
    if not isinstance(x, Tracer):
        raise TypeError(f"{op}: in-place updates need a padax Tensor, got {type(x).__name__}{user_location()}")
    trace = x._trace
    if type(x) is JaxprTracer and _is_jit_argument(x):
        raise _unbindable(op, x, value, "this is an argument of the jitted function, and the caller's Tensor "
                                       "would not change")
    if not (type(value) is type(x) and value._trace is trace):
        lower = type(value) is Tensor or value._trace in tuple(_lineage(trace))[1:]
        lifted = _lift(trace, value) if lower else None
        if lifted is None:
            raise _unbindable(op, x, value, f"this value belongs to {_where(x)}, outside the transformation "
                                           "that computed the update")
        value = lifted
    tape.rebound(x, value, op)
    for s in _slots_of(type(x)):
        setattr(x, s, getattr(value, s))
    return x


def write_out(out: Any, value: Any, op: str) -> Any:
    """Paddle's `out=`: rebind `out` to the result (cast to out's dtype, shape unchanged) and return it."""
    value = asarray(value)
    dt = get_aval(out).dtype
    if get_aval(value).dtype != dt:
        value = convert_element_type(value, dt)
    return rebind(out, value, f"{op}(..., out=)")


hooks.install(rebind=rebind)  # (the interpreters write redirected Tensors back through it)

__all__ = ["rebind", "write_out"]
