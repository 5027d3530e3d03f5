"""The dygraph tape: Paddle's `stop_gradient`, `Tensor.backward()`, `.grad` and `paddle.grad` on the core.

A value that needs a gradient carries a `TapeEntry` in the `_tape` slot that Tensor and Tracer reserve.
Eagerly it is a `GradTensor`, a Tensor subclass: jaxlib's C++ dispatcher knows only Tensor, so every op
on one comes back to Python, and ops on plain Tensors cost exactly what they did. Under a transformation
it is a tracer with the slot set. When a primitive is bound with such a value at the level the value
lives on, `record` runs the primitive on plain views of its operands and adds a `Node` whose backward is
the primitive's vjp: linearize (its jvp rule under partial evaluation) and transpose, the rules every
primitive already has, so no op needs a rule of its own. `run_backward` walks the nodes from the roots
in reverse topological order, calling hooks and accumulating leaf gradients.

With `create_graph`, a node's vjp runs on re-tracked copies of its inputs with recording on, so the
backward pass is itself on the tape (double and higher-order backward). The tape is an interpreter
beside the trace stack, not in it: it is consulted by `Primitive.bind` only once a tracked value exists
(`core.primitive.tape_hook`), and only for operands that live at the current level, so a tracked
Tensor closed over by a function under `grad`/`vmap` is recorded where its values are computed.
"""
from __future__ import annotations

import threading
import weakref
from typing import Any, Callable, Sequence

from padax.core import dtypes, primitive as _primitive
from padax.core.abstract import get_aval
from padax.core.ad_util import Zero, add_tangents
from padax.core.trace import EvalTrace, Tracer, trace_state
from padax.interpreters.ad import backward_pass, instantiate_tangent
from padax.interpreters.partial_eval import PartialEvalTrace, linearize_flat
from padax.interpreters.staging import JaxprTrace, JaxprTracer
from padax.runtime.array import Tensor

# ---- the tracked values ------------------------------------------------------------------------------


class GradTensor(Tensor):
    """A Tensor that needs a gradient (Paddle's `stop_gradient=False`): a leaf (a parameter, or a Tensor
    the user marked) or the result of a recorded op. Same value and methods as a Tensor."""

    __slots__ = ()


class TapeEntry:
    """The tape's record of one value: the node that produced it (None for a leaf) and which of its outputs
    it is, the accumulated gradient (leaves, and non-leaves that `retain_grads`), and its hooks."""

    __slots__ = ("node", "index", "grad", "hooks", "retain", "name", "__weakref__")

    def __init__(self, node: "Node | None" = None, index: int = 0):
        self.node, self.index, self.grad, self.hooks, self.retain, self.name = node, index, None, None, False, None

    @property
    def is_leaf(self) -> bool:
        return self.node is None


class Node:
    """One recorded operation: `vjp(node, cts, create_graph)` maps its outputs' cotangents (None: zero) to
    cotangents of its `inputs` (the TapeEntry of each operand that needs a gradient, else None)."""

    __slots__ = ("name", "inputs", "vjp", "data", "out_avals", "outs", "released")

    def __init__(self, name: str, inputs: list, vjp: Callable, data: Any, out_avals: list):
        self.name, self.inputs, self.vjp, self.data, self.out_avals = name, inputs, vjp, data, out_avals
        self.outs: list = [None] * len(out_avals)  # weak references to the output entries (hooks, retain_grads)
        self.released = False

    def release(self) -> None:
        """Drop what the backward pass needs (Paddle frees it after a backward without retain_graph)."""
        self.data, self.released = None, True


class _Mode(threading.local):
    def __init__(self) -> None:
        self.enabled = True  # Paddle's grad mode (no_grad / enable_grad / set_grad_enabled)


mode = _Mode()


def is_tracked(x: Any) -> bool:
    """Whether `x` carries a tape entry (needs a gradient)."""
    return type(x) is GradTensor or (isinstance(x, Tracer) and _entry_or_none(x) is not None)


def _entry_or_none(x: Any) -> TapeEntry | None:
    try:
        return x._tape  # (None on a tracer that needs no gradient: tracers set it when they are made)
    except AttributeError:  # a tracer class of a user's that does not
        return None


def entry_of(x: Any) -> TapeEntry | None:
    """The tape entry of a tracked value, else None."""
    if type(x) is GradTensor:
        return x._tape
    if isinstance(x, Tracer):
        return _entry_or_none(x)
    return None


def attach(x: Any, entry: TapeEntry) -> Any:
    """Make `x` (a Tensor or a tracer, not yet tracked) carry `entry`; returns x."""
    if type(x) is Tensor:
        x.__class__ = GradTensor
    elif not isinstance(x, (GradTensor, Tracer)):
        raise TypeError(f"the tape tracks padax Tensors, got {type(x).__name__}")
    x._tape = entry
    _activate()
    return x


def detach_in_place(x: Any) -> Any:
    """Make `x` stop carrying a tape entry (Paddle's `stop_gradient = True`)."""
    if type(x) is GradTensor:
        x.__class__ = Tensor
    elif isinstance(x, Tracer) and _entry_or_none(x) is not None:
        x._tape = None
    return x


def mark_leaf(x: Any) -> Any:
    """`x` as a leaf that needs a gradient (keeps an existing leaf entry, and its gradient)."""
    e = entry_of(x)
    if e is not None and e.node is None:
        return x
    return attach(x, TapeEntry())


def plain(x: Any) -> Any:
    """An untracked view of `x` holding the same value (the operand a recorded op is computed from)."""
    if type(x) is GradTensor:
        return Tensor(x._buf, x.aval)
    if isinstance(x, Tracer) and _entry_or_none(x) is not None:
        return copy_tracer(x)
    return x


def copy_tracer(x: Tracer) -> Tracer:
    """A new tracer object standing for the same value (without x's tape entry)."""
    new = object.__new__(type(x))
    new._tape = None
    for s in tracer_slots(type(x)):
        try:
            setattr(new, s, getattr(x, s))
        except AttributeError:
            pass
    return new


def tracer_slots(cls: type, _cache: dict = {}) -> tuple[str, ...]:  # noqa: B006  (a per-class cache)
    """The slots that make up a tracer of class `cls`'s value (all but the tape entry and weakref)."""
    out = _cache.get(cls)
    if out is None:
        names: list = []
        for k in reversed(cls.__mro__):
            for s in k.__dict__.get("__slots__", ()):
                if s not in ("__weakref__", "__dict__", "_tape") and s not in names:
                    names.append(s)
        out = _cache[cls] = tuple(names)
    return out


def retrack(x: Any, entry: TapeEntry) -> Any:
    """A tracked copy of the plain value `x` that shares `entry` (a node's input, tracked again so that a
    backward pass with create_graph is recorded)."""
    if isinstance(x, Tensor):
        t = GradTensor(x._buf, x.aval)
    else:
        t = copy_tracer(x)
    t._tape = entry
    return t


def rebound(x: Any, value: Any, op: str) -> None:
    """Carry the tape over an in-place update of `x` to `value` (before the object takes the value): x
    becomes what value is on the tape. As in Paddle, a leaf that needs a gradient cannot be updated in place
    with a recorded result (`w.add_(g)`); under no_grad, or with a value that needs no gradient
    (`set_value`, loading a state dict), it stays the same leaf, as an optimizer's update needs."""
    ex, ev = entry_of(x), entry_of(value)
    if ex is None and ev is None:
        return
    if ex is not None and ex.node is None:
        if ev is not None:
            raise ValueError(f"{op}: Leaf Var ({ex.name or 'a Tensor'}) that doesn't stop gradient can't use inplace "
                             "strategy (update it under padax.no_grad(), or update a copy)")
        return
    if ev is not None:
        attach(x, ev)
    else:
        detach_in_place(x)


# ---- recording --------------------------------------------------------------------------------------

def _lives_here(x: Any, trace: Any) -> bool:
    """Whether a tracked operand is recorded at `trace`: a concrete GradTensor eagerly and while a program
    is staged for jit (not inside grad/vmap, whose primal values reach the eager level); a tracked
    tracer at its own trace."""
    if type(x) is GradTensor:
        kind = type(trace)
        return kind is EvalTrace or kind is JaxprTrace
    e = _entry_or_none(x) if isinstance(x, Tracer) else None
    return e is not None and x._trace is trace


def needs_recording(args: Sequence[Any]) -> bool:
    """Whether a function applied to `args` now is recorded: grad mode is on and one of them needs a
    gradient at the current level."""
    if not mode.enabled or _primitive.tape_hook is None:
        return False
    trace = trace_state.trace
    return not isinstance(trace, PartialEvalTrace) and any(
        (type(a) is GradTensor or isinstance(a, Tracer)) and _lives_here(a, trace) for a in args)


def intercept(prim: Any, trace: Any, args: tuple, params: dict) -> Any:
    """`Primitive.bind`'s consultation (installed once a tracked value exists): the primitive recorded on
    the tape when an operand needs a gradient at this level, else NotImplemented (bind goes on)."""
    if not mode.enabled or isinstance(trace, PartialEvalTrace):
        if type(trace) is EvalTrace and not mode.enabled and any(type(a) is GradTensor for a in args):
            return prim.bind(*[plain(a) for a in args], **params)  # (no_grad: on plain views, the fast path)
        return NotImplemented
    for a in args:
        if (type(a) is GradTensor or isinstance(a, Tracer)) and _lives_here(a, trace):
            if prim.blocks_gradient:  # the result is a constant: computed on plain views, not recorded
                return prim.bind(*[plain(b) if is_tracked(b) else b for b in args], **params)
            return record(prim, trace, args, params)
    return NotImplemented


def _snapshot(x: Any, trace: Any) -> Any:
    """The operand as the recorded op and its backward read it: untracked, and immune to a later in-place
    update of the object (a concrete Tensor staged for jit reads as the program's variable for it now)."""
    if type(x) is GradTensor:
        if type(trace) is JaxprTrace:
            return JaxprTracer(trace, trace.getvar(x))
        return Tensor(x._buf, x.aval)
    if isinstance(x, Tracer) and _entry_or_none(x) is not None:
        return plain(x)
    return x


def record(prim: Any, trace: Any, args: tuple, params: dict) -> Any:
    """Bind `prim` on untracked snapshots of `args` and record a node for the inexact outputs."""
    entries = [entry_of(a) if _lives_here(a, trace) else None for a in args]
    snaps = [_snapshot(a, trace) if e is not None else a for a, e in zip(args, entries)]
    out = prim.bind(*snaps, **params)
    outs = list(out) if prim.multiple_results else [out]
    avals = [get_aval(o) for o in outs]
    if not any(dtypes.is_inexact(a.dtype) for a in avals):
        return out
    for i, (a, e) in enumerate(zip(snaps, entries)):
        if e is not None and not dtypes.is_inexact(get_aval(a).dtype):
            entries[i] = None
    node = Node(prim.name, entries, _primitive_vjp, (prim, params, snaps), avals)
    wrapped = track_outputs(node, outs, snaps)
    return wrapped if prim.multiple_results else wrapped[0]


def track_outputs(node: Node, outs: list, operands: Sequence[Any] = ()) -> list:
    """Attach a fresh entry of `node` to each inexact output. An output is tracked in place (it is a new
    object), unless it is one of the `operands` handed back unchanged, which gets a tracked copy."""
    res = []
    seen = {id(x) for x in operands}
    for i, (o, a) in enumerate(zip(outs, node.out_avals)):
        if dtypes.is_inexact(a.dtype) and isinstance(o, (Tensor, Tracer)):
            e = TapeEntry(node, i)
            node.outs[i] = weakref.ref(e)
            if isinstance(o, Tensor):
                if type(o) is not Tensor or id(o) in seen:
                    o = Tensor(o._buf, o.aval)
                o.__class__ = GradTensor
            elif id(o) in seen or _entry_or_none(o) is not None:
                o = copy_tracer(o)
            o._tape = e
        res.append(o)
    return res


def _primitive_vjp(node: Node, cts: list, create_graph: bool) -> list:
    prim, params, snaps = node.data
    idx = [i for i, e in enumerate(node.inputs) if e is not None]
    if not create_graph and compiled_vjp is not None and all(type(s) is Tensor for s in snaps):
        res = compiled_vjp(prim, params, snaps, tuple(idx), cts, node.out_avals)
        if res is not NotImplemented:
            out = [None] * len(snaps)
            for i, r in zip(idx, res):
                out[i] = r
            return out
    primals = [retrack(snaps[i], node.inputs[i]) if create_graph else snaps[i] for i in idx]
    return _vjp_of(_applied_to(prim, params, snaps, idx), primals, idx, len(snaps), cts, node.out_avals)


def _applied_to(prim: Any, params: dict, snaps: list, idx: Sequence[int]) -> Callable:
    """`prim` as a function of its operands at positions `idx` (the others fixed at `snaps`), with a list out."""
    def f(*xs):
        full = list(snaps)
        for i, x in zip(idx, xs):
            full[i] = x
        o = prim.bind(*full, **params)
        return list(o) if prim.multiple_results else [o]
    return f


def _vjp_of(f: Callable, primals: list, idx: list, n: int, cts: list, out_avals: list) -> list:
    """Cotangents of `f`'s inputs at `primals` (positions `idx` of `n`) for output cotangents `cts`."""
    _, linear, diff, out_diff = linearize_flat(f, primals)
    ct_used = [instantiate_tangent(ct, a) for ct, a, d in zip(cts, out_avals, out_diff) if d]
    ct_in = backward_pass(linear.jaxpr, linear.consts, ct_used)
    out: list = [None] * n
    it = iter(ct_in)
    for i, d in zip(idx, diff):
        if d:
            ct = next(it)
            out[i] = None if type(ct) is Zero else ct
    return out


# Installed by padax.transforms (a higher floor): the vjp of one primitive, compiled per signature.
compiled_vjp: Callable | None = None


def set_compiled_vjp(fn: Callable) -> None:
    global compiled_vjp
    compiled_vjp = fn


def primitive_vjp_direct(prim: Any, params: dict, snaps: list, idx: Sequence[int], cts: list,
                         out_avals: list) -> list:
    """The cotangents of operands `idx` of `prim` at `snaps` (what `compiled_vjp` compiles)."""
    res = _vjp_of(_applied_to(prim, params, snaps, idx), [snaps[i] for i in idx], list(idx), len(snaps), cts,
                  out_avals)
    return [res[i] for i in idx]


def record_computed(prim: Any, params: dict, args: Sequence[Any], outs: list) -> list:
    """Record `outs`, already computed as `prim.bind(*args, **params)` (a compiled call run on its fast path),
    as one node whose backward is prim's vjp; returns the outputs tracked."""
    trace = trace_state.trace
    entries = [entry_of(a) if _lives_here(a, trace) and dtypes.is_inexact(get_aval(a).dtype) else None
               for a in args]
    snaps = [_snapshot(a, trace) if e is not None else a for a, e in zip(args, entries)]
    node = Node(prim.name, entries, _primitive_vjp, (prim, params, snaps), [get_aval(o) for o in outs])
    return track_outputs(node, outs, snaps)


def custom_node(name: str, inputs: list, outs: list, vjp: Callable, data: Any = None) -> list:
    """Record a node with a hand-written `vjp(node, cts, create_graph)` (PyLayer, a compiled program)."""
    avals = [get_aval(o) for o in outs]
    return track_outputs(Node(name, inputs, vjp, data, avals), outs, outs)


def _activate() -> None:
    if _primitive.tape_hook is None:
        _primitive.tape_hook = intercept


# ---- the backward pass ------------------------------------------------------------------------------

class GraphReleasedError(RuntimeError, SystemError):
    """A second backward through a graph whose saved values were freed (Paddle raises SystemError)."""


class UnusedInputError(ValueError):
    """paddle.grad: an input the outputs do not depend on, without allow_unused=True."""


def _accumulate(a: Any, b: Any) -> Any:
    if a is None:
        return b
    if b is None:
        return a
    return add_tangents(a, b)


def run_backward(roots: Sequence[tuple[TapeEntry, Any]], retain_graph: bool = False, create_graph: bool = False,
                 inputs: Sequence[TapeEntry] | None = None, stop: frozenset = frozenset(),
                 accumulate: Callable[[TapeEntry, Any], None] | None = None) -> list | None:
    """Propagate the roots' cotangents through the tape.

    With `inputs` (paddle.grad), return the total cotangent of each input entry (None where none reaches
    it) and leave `.grad` alone; otherwise accumulate into leaf entries with `accumulate(entry, ct)`.
    `stop`: ids of entries treated as constants (paddle.grad's no_grad_vars).
    """
    wanted = {id(e): k for k, e in enumerate(inputs)} if inputs is not None else None
    found: list = [None] * len(inputs) if inputs is not None else []
    deps: dict[int, int] = {}
    nodes: dict[int, Node] = {}
    stack = [e.node for e, _ in roots if e.node is not None]
    for n in stack:
        nodes[id(n)] = n
    while stack:  # count each node's consumers among the reachable nodes
        n = stack.pop()
        if n.released:
            raise GraphReleasedError(
                f"backward: the saved values of {n.name} were freed by an earlier backward. You calculate backward "
                "twice for the same subgraph without setting retain_graph=True. Please set retain_graph=True in "
                "the first backward/grad call.")
        for e in n.inputs:
            if e is None or e.node is None or id(e) in stop or (wanted is not None and id(e) in wanted):
                continue
            m = e.node
            deps[id(m)] = deps.get(id(m), 0) + 1
            if id(m) not in nodes:
                nodes[id(m)] = m
                stack.append(m)
    buffers: dict[int, list] = {}

    def deliver(e: TapeEntry, ct: Any) -> None:
        if ct is None or id(e) in stop:
            return
        if wanted is not None and id(e) in wanted:
            k = wanted[id(e)]
            found[k] = _accumulate(found[k], _hooked(e, ct))
            return
        if e.node is None:
            if wanted is None:
                accumulate(e, _hooked(e, ct))
            return
        b = buffers.setdefault(id(e.node), [None] * len(e.node.out_avals))
        b[e.index] = _accumulate(b[e.index], ct)

    ready: list[Node] = []
    for e, ct in roots:
        if e.node is None or (wanted is not None and id(e) in wanted):
            deliver(e, ct)
        else:
            b = buffers.setdefault(id(e.node), [None] * len(e.node.out_avals))
            b[e.index] = _accumulate(b[e.index], ct)
    for e, _ in roots:
        n = e.node
        if n is not None and deps.get(id(n), 0) == 0 and n not in ready and not (wanted is not None and id(e) in wanted):
            ready.append(n)
    while ready:
        n = ready.pop()
        cts = buffers.pop(id(n), None) or [None] * len(n.out_avals)
        for i, ref in enumerate(n.outs):
            e = ref() if ref is not None else None
            if e is not None and cts[i] is not None:
                cts[i] = _hooked(e, cts[i])
                if e.retain and wanted is None:
                    accumulate(e, cts[i])
        if any(c is not None for c in cts):
            in_cts = n.vjp(n, cts, create_graph)
        else:
            in_cts = [None] * len(n.inputs)
        if not retain_graph:
            n.release()
        for e, ct in zip(n.inputs, in_cts):
            if e is None:
                continue
            deliver(e, ct)
            m = e.node
            if m is not None and id(m) in deps and id(e) not in stop and not (wanted is not None and id(e) in wanted):
                deps[id(m)] -= 1
                if deps[id(m)] == 0:
                    ready.append(m)
    return found if inputs is not None else None


def _hooked(e: TapeEntry, ct: Any) -> Any:
    """`ct` passed through the entry's hooks (a hook returning None keeps the gradient)."""
    if e.hooks:
        for h in list(e.hooks.values()):
            r = h(ct)
            if r is not None:
                ct = r
    return ct


__all__ = ["GradTensor", "TapeEntry", "Node", "mode", "is_tracked", "entry_of", "attach", "detach_in_place",
           "mark_leaf", "rebound", "plain", "copy_tracer", "tracer_slots", "retrack", "intercept", "record", "track_outputs", "custom_node", "run_backward",
           "set_compiled_vjp", "needs_recording", "record_computed", "primitive_vjp_direct", "GraphReleasedError", "UnusedInputError"]
