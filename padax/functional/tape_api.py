"""Paddle's dygraph autograd on the tape (padax/interpreters/tape.py): the Tensor methods and the functions.

`x.stop_gradient = False` (or `padax.to_tensor(v, stop_gradient=False)`, or a layer's parameter) makes x a
leaf that needs a gradient; ops on it are recorded; `loss.backward()` accumulates into `x.grad`;
`padax.grad(outputs, inputs, ...)` returns the gradients instead (Paddle's `paddle.grad`, with
`create_graph=True` for higher orders). `no_grad()` stops recording. The functional transforms
(`padax.grad(f)`, `vjp`, `jit`, `vmap`) are unchanged and mix with all of it.
"""
from __future__ import annotations

import contextlib
import itertools
from typing import Any, Callable

from padax.core.abstract import get_aval
from padax.core.source_info import user_location
from padax.core.trace import EvalTrace, Tracer, set_current_trace
from padax.functional import creation as C
from padax.functional._arrays import asarray
from padax.functional._rebind import rebind
from padax.functional.lax.custom import stop_gradient
from padax.interpreters import tape
from padax.interpreters.staging import note_staged_write, read_each_call, staged_state, write_attr
from padax.interpreters.tape import GradTensor, custom_node, entry_of, mode, needs_recording, plain
from padax.runtime.array import Tensor

# ---- grad mode ----------------------------------------------------------------------------------------


class _GradMode(contextlib.ContextDecorator):
    """Set the grad mode for a block, or for every call of a decorated function."""

    def __init__(self, enabled: bool):
        self._enabled = enabled
        self._prev: list = []

    def __enter__(self) -> "_GradMode":
        self._prev.append(mode.enabled)
        mode.enabled = self._enabled
        return self

    def __exit__(self, *exc: Any) -> bool:
        mode.enabled = self._prev.pop()
        return False


def _mode_factory(enabled: bool, name: str, doc: str):
    def make(func: Callable | None = None):
        if callable(func):  # used bare as a decorator: @no_grad
            return _GradMode(enabled)(func)
        return _GradMode(enabled)
    make.__name__ = make.__qualname__ = name
    make.__doc__ = doc
    return make


no_grad = _mode_factory(False, "no_grad", """Don't record ops on the tape in this block (or decorated function):
    results need no gradient. Paddle's `paddle.no_grad()`, as a context manager or a decorator.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([1.0], stop_gradient=False)
        >>> with padax.no_grad():
        ...     y = x * 2
        >>> y.stop_gradient, (x * 2).stop_gradient
        (True, False)
    """)
enable_grad = _mode_factory(True, "enable_grad", """Record ops on the tape in this block again (inside no_grad).

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([1.0], stop_gradient=False)
        >>> with padax.no_grad():
        ...     with padax.enable_grad():
        ...         y = x * 2
        >>> y.stop_gradient
        False
    """)


class set_grad_enabled(_GradMode):
    """Turn recording on or off: called, at once (Paddle's and PyTorch's function form); as a context manager
    or decorator, for the block or each call, restoring the previous mode after.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([1.0], stop_gradient=False)
        >>> with padax.set_grad_enabled(False):
        ...     padax.is_grad_enabled(), (x * 2).stop_gradient
        (False, True)
        >>> _ = padax.set_grad_enabled(False)
        >>> padax.is_grad_enabled()
        False
        >>> _ = padax.set_grad_enabled(True)
    """

    def __init__(self, mode_: bool):
        super().__init__(bool(mode_))
        self._before = mode.enabled
        mode.enabled = self._enabled  # (the function form takes effect now)

    def __enter__(self) -> "set_grad_enabled":
        self._prev.append(self._before if not self._prev else mode.enabled)
        mode.enabled = self._enabled
        return self

    def __call__(self, func: Callable) -> Callable:
        mode.enabled = self._before  # used as a decorator: the mode applies to the calls only
        return super().__call__(func)


def is_grad_enabled() -> bool:
    """Whether ops on Tensors that need gradients are recorded (False inside no_grad).

    Examples:
        >>> import padax
        >>> padax.is_grad_enabled()
        True
    """
    return mode.enabled


# ---- the Tensor methods -------------------------------------------------------------------------------

def _get_stop_gradient(self) -> bool:
    """Paddle's flag: False for a Tensor that needs a gradient (a parameter, a marked leaf, a recorded result)."""
    return entry_of(self) is None


def _set_stop_gradient(self, value: bool) -> None:
    if value:
        tape.detach_in_place(self)
    else:
        tape.mark_leaf(self)


def _get_grad(self) -> Any:
    """The gradient accumulated by `backward()` (None before the first one)."""
    e = entry_of(self)
    if e is None:
        return None
    g = e.grad
    if g is not None and type(g) is Tensor:  # (a jitted program reads it afresh at each call)
        read_each_call(g, lambda: e.grad)
    return g


def _set_grad(self, value: Any) -> None:
    e = entry_of(self)
    if e is None:
        if value is None:
            return
        raise ValueError(f"Tensor.grad: a Tensor with stop_gradient=True has no gradient to set{user_location()}")
    if value is not None:
        value = asarray(value)
        if get_aval(value).shape != get_aval(self).shape:
            raise ValueError(f"Tensor.grad: the gradient's shape {list(get_aval(value).shape)} differs from the "
                             f"Tensor's {list(get_aval(self).shape)}{user_location()}")
    e.grad = value


def _accumulate_grad(e: tape.TapeEntry, ct: Any) -> None:
    old = e.grad
    if old is not None and type(old) is Tensor:  # (a jitted program reads it afresh at each call)
        read_each_call(old, lambda: e.grad)
    write_attr(e, "grad", ct if old is None else old + ct)


def _seed(t: Any, g: Any) -> Any:
    if g is None:
        return C.ones_like(t)
    g = asarray(g)
    if get_aval(g).shape != get_aval(t).shape:
        raise ValueError(f"backward: grad_tensor has shape {list(get_aval(g).shape)} but the Tensor has shape "
                         f"{list(get_aval(t).shape)}{user_location()}")
    return tape.plain(g) if not mode.enabled else g


def backward(self, grad_tensor: Any = None, retain_graph: bool = False,
             dump_backward_graph_path: str | None = None) -> None:
    """Accumulate d(self)/d(leaf) into `.grad` of every leaf that needs a gradient (Paddle's `Tensor.backward`).

    Args:
        grad_tensor: the gradient of self (default ones, as Paddle).
        retain_graph: keep the recorded graph for another backward (without it a second one raises).
        dump_backward_graph_path: accepted for Paddle compatibility (Paddle's debugging dump); unused.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([1.0, 2.0], stop_gradient=False)
        >>> (x * x).sum().backward()
        >>> x.grad.tolist()
        [2.0, 4.0]
    """
    e = entry_of(self)
    if e is None:
        return  # (Paddle too: nothing needs a gradient)
    tape.run_backward([(e, _seed(self, grad_tensor))], retain_graph=retain_graph, accumulate=_accumulate_grad)


def _gradient(self) -> Any:
    """The gradient as a numpy array (None before backward), as Paddle's `Tensor.gradient()`."""
    g = _get_grad(self)
    return None if g is None else g.numpy()


def clear_grad(self, set_to_zero: bool = True) -> None:
    """Reset the accumulated gradient to zeros (Paddle's default) or, with set_to_zero=False, to None. Inside a
    jitted step it leaves None either way (the next backward starts from no gradient, the same numbers),
    so that the compiled program holds for every later call."""
    e = entry_of(self)
    if e is not None and e.grad is not None:
        staged = staged_state() is not None
        write_attr(e, "grad", C.zeros_like(e.grad) if set_to_zero and not staged else None)


class HookHandle:
    """What `register_hook` returns: `remove()` takes the hook off again."""

    _ids = itertools.count()

    def __init__(self, entry: tape.TapeEntry, hook: Callable):
        self._entry, self._id = entry, next(self._ids)
        if entry.hooks is None:
            entry.hooks = {}
        entry.hooks[self._id] = hook

    def remove(self) -> bool:
        return self._entry.hooks.pop(self._id, None) is not None if self._entry.hooks else False


def register_hook(self, hook: Callable[[Any], Any]) -> HookHandle:
    """Call `hook(grad)` when this Tensor's gradient is computed; a returned Tensor replaces the gradient.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([1.0, 2.0], stop_gradient=False)
        >>> h = x * 2
        >>> _ = h.register_hook(lambda g: g * 10)
        >>> h.sum().backward()
        >>> x.grad.tolist()
        [20.0, 20.0]
    """
    e = entry_of(self)
    if e is None:
        raise ValueError(f"register_hook: cannot register a hook on a Tensor with stop_gradient=True"
                         f"{user_location()}")
    return HookHandle(e, hook)


def retain_grads(self) -> None:
    """Keep this (non-leaf) Tensor's gradient in `.grad` at the next backward."""
    e = entry_of(self)
    if e is not None:
        e.retain = True


def requires_grad_(self, requires_grad: bool = True) -> Any:
    """Mark this Tensor as needing a gradient (or not), in place; returns it."""
    _set_stop_gradient(self, not requires_grad)
    return self


def new_object(x: Any) -> Any:
    """x's value in a new object, so that an in-place update of either leaves the other alone (Paddle's
    `clone`); on the tape it is an identity op, so gradients flow through it."""
    if type(x) is Tensor:
        return Tensor(x._buf, x.aval)
    if needs_recording([x]):
        return custom_node("clone", [entry_of(x)], [plain(x)], lambda node, cts, create_graph: [cts[0]])[0]
    if type(x) is GradTensor:
        return Tensor(x._buf, x.aval)
    return tape.copy_tracer(x) if isinstance(x, Tracer) else x


def _is_leaf(self) -> bool:
    """True for a Tensor that no recorded op produced (data, parameters)."""
    e = entry_of(self)
    return e is None or e.node is None


def detach(self) -> Any:
    """The same value with stop_gradient=True: no gradient flows through it, on the tape or in a transform."""
    return stop_gradient(tape.plain(self))


def detach_(self) -> Any:
    """Make this Tensor a constant from now on (stop_gradient=True), in place; returns it."""
    tape.detach_in_place(self)
    return rebind(self, stop_gradient(self), "Tensor.detach_()", same_shape=False)


_METHODS = {"backward": backward, "gradient": _gradient, "clear_grad": clear_grad, "clear_gradient": clear_grad,
            "register_hook": register_hook, "retain_grads": retain_grads, "detach": detach, "detach_": detach_, "clone": new_object, "copy": new_object,
            "requires_grad_": requires_grad_}
_PROPERTIES = {"stop_gradient": property(_get_stop_gradient, _set_stop_gradient),
               "grad": property(_get_grad, _set_grad), "is_leaf": property(_is_leaf),
               "requires_grad": property(lambda self: not _get_stop_gradient(self),
                                         lambda self, v: _set_stop_gradient(self, not v))}


def install(cls: type) -> None:
    for name, fn in _METHODS.items():
        setattr(cls, name, fn)
    for name, p in _PROPERTIES.items():
        setattr(cls, name, p)


for _cls in (Tensor, Tracer):
    install(_cls)


# ---- paddle.grad ----------------------------------------------------------------------------------------

def _as_list(x: Any) -> tuple[list, bool]:
    if isinstance(x, (list, tuple)):
        return list(x), True
    return [x], False


def tape_grad(outputs: Any, inputs: Any, grad_outputs: Any = None, retain_graph: bool | None = None,
              create_graph: bool = False, only_inputs: bool = True, allow_unused: bool = False,
              no_grad_vars: Any = None) -> list:
    """Paddle's `paddle.grad`: the gradients of `outputs` with respect to `inputs`, from the tape.

    Args:
        outputs: a Tensor or a list of them.
        inputs: a Tensor or a list of them (each must need a gradient).
        grad_outputs: the outputs' gradients (None: ones for each).
        retain_graph: keep the graph for another backward (default: create_graph).
        create_graph: record the backward pass too, so the result can be differentiated again.
        only_inputs: accepted (Paddle ignores it too).
        allow_unused: give None for an input the outputs do not depend on (else a ValueError).
        no_grad_vars: Tensors through which no gradient flows.

    Returns:
        A list of gradients, one per input (leaves' `.grad` is not changed).

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([1.0, 2.0], stop_gradient=False)
        >>> (g,) = padax.grad((x ** 3).sum(), x, create_graph=True)
        >>> (h,) = padax.grad(g.sum(), x)
        >>> g.tolist(), h.tolist()
        ([3.0, 12.0], [6.0, 12.0])
    """
    outs, _ = _as_list(outputs)
    ins, _ = _as_list(inputs)
    if grad_outputs is None:
        gos = [None] * len(outs)
    else:
        gos, _ = _as_list(grad_outputs)
        if len(gos) != len(outs):
            raise ValueError(f"grad: {len(gos)} grad_outputs for {len(outs)} outputs{user_location()}")
    if retain_graph is None:
        retain_graph = create_graph
    in_entries = []
    for k, x in enumerate(ins):
        e = entry_of(x)
        if e is None:
            raise ValueError(f"grad: the {k}-th input has stop_gradient=True, so it does not appear in the backward "
                             f"graph; set its stop_gradient=False before computing the outputs{user_location()}")
        in_entries.append(e)
    roots = []
    for o, g in zip(outs, gos):
        e = entry_of(o)
        if e is not None:
            with _GradMode(create_graph):
                roots.append((e, _seed(o, g)))
    stop = frozenset(id(entry_of(v)) for v in (_as_list(no_grad_vars)[0] if no_grad_vars is not None else ())
                     if entry_of(v) is not None)
    with _GradMode(create_graph):
        found = tape.run_backward(roots, retain_graph=retain_graph, create_graph=create_graph,
                                  inputs=in_entries, stop=stop)
    result = []
    for k, (x, g) in enumerate(zip(ins, found)):
        if g is None and not allow_unused:
            raise tape.UnusedInputError(f"grad: The {k}-th input does not appear in the backward graph. Please check "
                                        f"the input tensor or set allow_unused=True to get None result"
                                        f"{user_location()}")
        if g is not None and not create_graph:
            g = tape.plain(g)
        result.append(g)
    return result


@contextlib.contextmanager
def compile_time_eval() -> Any:
    """Run the ops of this block eagerly on concrete values, even while a function is traced (jax's
    `ensure_compile_time_eval`): an optimizer's state made at its first traced step is made for real."""
    with set_current_trace(EvalTrace()):
        yield


__all__ = ["compile_time_eval", "read_each_call", "note_staged_write", "custom_node", "entry_of", "needs_recording", "plain", "no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled", "tape_grad", "HookHandle",
           "GradTensor"]
