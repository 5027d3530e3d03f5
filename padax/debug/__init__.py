"""`padax.debug`: seeing values inside traced and compiled code.

* `print(fmt, *args, ordered=False, **kwargs)`: formats the arrays' values
  when the program runs (inside jit, vmap, grad and control flow), with
  `str.format` syntax; under vmap it prints once per batch element; with
  `ordered=True` prints appear in program order.
* `callback(fn, *args, ordered=False, **kwargs)`: calls `fn` with the values
  (numpy arrays) when the program runs; its return value is ignored.
* `breakpoint()`: stops in pdb with the values at that point, in eager and
  jitted code.
* `visualize_array_sharding(x)`: which devices hold which block of `x`.

Under differentiation these see the primal values (once, in the forward pass).
An unused `debug.print` costs nothing where it does not run: behind a false
`cond` branch it is never called.
"""
from __future__ import annotations

import builtins
import sys
from typing import Any, Callable

import numpy as np

from padax import Tensor
from padax import tree as tree_util
from padax.core.trace import Tracer
from padax.functional.lax.callback import HostFunction, debug_callback_p
from padax.sharding import visualize_array_sharding, visualize_sharding

__all__ = ["print", "callback", "breakpoint", "visualize_array_sharding", "visualize_sharding"]


def _is_value(x: Any) -> bool:
    """A leaf passed to the host as an array (the other leaves are kept as they are, static)."""
    return isinstance(x, (Tensor, Tracer, np.ndarray, np.generic))


class _Static:
    """The host-side call: rebuilds (args, kwargs) from the array leaves and the static leaves."""

    __slots__ = ("fn", "tree", "is_array", "static", "__weakref__")

    def __init__(self, fn: Callable, tree, is_array: tuple, static: tuple):
        self.fn, self.tree, self.is_array, self.static = fn, tree, is_array, static

    def __call__(self, *arrays: np.ndarray) -> tuple:
        it_a, it_s = iter(arrays), iter(self.static)
        leaves = [next(it_a) if a else next(it_s) for a in self.is_array]
        args, kwargs = self.tree.unflatten(leaves)
        self.fn(*args, **kwargs)
        return ()


def callback(fn: Callable[..., Any], *args: Any, ordered: bool = False, **kwargs: Any) -> None:
    """Call `fn(*args, **kwargs)` with the arrays' values when the program runs (numpy arrays on
    the host). Nothing is returned; under vmap `fn` is called once per batch element.

    Args:
        fn: the host function, called with numpy arrays in place of the arrays.
        *args, **kwargs: values passed to `fn` (pytrees allowed).
        ordered: run the callbacks in program order.

    Returns:
        None.

    Examples:
        >>> import padax
        >>> seen = []
        >>> def f(x):
        ...     padax.debug.callback(lambda v: seen.append(v.tolist()), x)
        ...     return x + 1
        >>> _ = padax.jit(f)(padax.arange(3))
        >>> seen
        [[0, 1, 2]]
    """
    if not callable(fn):
        raise TypeError(f"debug.callback: expected a callable, got {type(fn).__name__}")
    leaves, tree = tree_util.flatten((args, kwargs))
    is_array = tuple(_is_value(x) for x in leaves)
    arrays = [x for x, a in zip(leaves, is_array) if a]
    static = tuple(x for x, a in zip(leaves, is_array) if not a)
    name = getattr(fn, "__name__", type(fn).__name__)
    host = HostFunction(_Static(fn, tree, is_array, static), f"debug.callback({name})")
    debug_callback_p.bind(*arrays, callback=host, result_avals=(), ordered=bool(ordered), batch_ndim=0)


def _format_print(fmt: str):
    def show(*args: Any, **kwargs: Any) -> None:
        sys.stdout.write(fmt.format(*args, **kwargs) + "\n")
    show.__name__ = "print"
    return show


def print(fmt: str, *args: Any, ordered: bool = False, **kwargs: Any) -> None:  # noqa: A001
    """Print `fmt.format(*args, **kwargs)` with the arrays' values when the program runs.

    Like `jax.debug.print`: works inside jit, vmap (one line per batch element), grad
    (primal values) and control flow; `ordered=True` keeps the program's order.

    Args:
        fmt: a str.format template.
        *args, **kwargs: values (arrays too) formatted into it.
        ordered: keep the prints in program order.

    Returns:
        None; the line is printed when the program runs.

    Examples:
        >>> import padax
        >>> @padax.jit
        ... def f(x):
        ...     padax.debug.print("x = {}", x)
        ...     return x * 2
        >>> _ = f(padax.to_tensor([1.0, 2.0]))
        x = [1. 2.]
    """
    if not isinstance(fmt, str):
        raise TypeError(f"debug.print: the format must be a str, got {type(fmt).__name__}")
    callback(_format_print(fmt), *args, ordered=ordered, **kwargs)


def _breakpoint_callback(frame, names: list, static: dict):
    """The host side of breakpoint(): a pdb session whose locals are the caller's, with host values."""
    lineno = frame.f_lineno  # (when the program runs, a traced function's frame has moved on)

    def stop(*values: Any) -> None:
        import pdb  # startup time: pdb loads only when a breakpoint is hit
        env = dict(static)
        env.update(zip(names, values))
        builtins.print(f"padax.debug.breakpoint at {frame.f_code.co_filename}:{lineno} "
                       f"({frame.f_code.co_name}): {', '.join(names) or 'no arrays'} hold their values here; "
                       "'c' continues", file=sys.stdout, flush=True)
        dbg = pdb.Pdb()
        dbg.reset()
        dbg.interaction(_HostFrame(frame, env, lineno), None)
    stop.__name__ = "breakpoint"
    return stop


class _HostFrame:
    """What pdb needs of a frame, with the traced names bound to their host values."""

    def __init__(self, frame, env: dict, lineno: int):
        self.f_code = frame.f_code
        self.f_globals = frame.f_globals
        self.f_locals = env
        self.f_lineno = lineno
        self.f_back = None
        self.f_trace = None
        self.f_lasti = frame.f_lasti
        self.f_builtins = frame.f_builtins


def breakpoint(*, backend: str = "pdb", ordered: bool = False) -> None:  # noqa: A001
    """Stop in the Python debugger with the values of the caller's arrays at this point.

    The caller's arrays (traced ones inside jit and other transformations) are passed to
    the host when the program reaches this point and bound to their names, as numpy
    arrays, in the debugger session; the caller's other locals are there too. Continue
    with `c`.

    Args:
        backend: only 'pdb' is available.
        ordered: keep the stop in program order relative to other ordered effects.

    Returns:
        None.

    Examples:
        Here the debugger reads its commands ("p y", then "c") from a string instead of the keyboard:

        >>> import io, sys, padax
        >>> @padax.jit
        ... def f(x):
        ...     y = x * 2
        ...     padax.debug.breakpoint()
        ...     return y + 1
        >>> sys.stdin, keyboard = io.StringIO("p y\\nc\\n"), sys.stdin
        >>> f(padax.to_tensor([1.0, 2.0])).tolist()
        padax.debug.breakpoint at ... (f): x, y hold their values here; 'c' continues
        ...
        (Pdb) array([2., 4.], dtype=float32)
        (Pdb) [3.0, 5.0]
        >>> sys.stdin = keyboard
    """
    if backend != "pdb":
        raise ValueError(f"debug.breakpoint: only backend='pdb' is available, got {backend!r}")
    frame = sys._getframe(1)
    local = dict(frame.f_locals)
    names = [k for k, v in local.items() if _is_value(v)]
    static = {k: v for k, v in local.items() if not _is_value(v)}
    callback(_breakpoint_callback(frame, names, static), *[local[k] for k in names], ordered=ordered)
