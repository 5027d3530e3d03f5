"""Compiled twins of hot Paddle-level ops: eager calls on Tensors skip padax's Python layers.

`twin(op)` is the op compiled whole, once per argument signature, behind
jaxlib's C++ jit dispatcher (the way jax's own `jnp` functions are jitted):
a repeated eager call with Tensor arguments of a seen signature runs the
argument checks, promotion and primitive dispatch of the first call no more;
the C++ looks the signature up and runs the program. Ops call their twin only
for plain Tensors (`type(x) is Tensor`) and only where the Python version
would run the same program; everything else (tracers, host values, debugging
modes) runs `op` itself. Under a transformation, with debug_nans/debug_infs,
or when the twin's dispatcher misses for any reason, `op` runs in Python, so
results and errors are exactly op's.

The compiler comes from padax.transforms.dispatch (`set_builder`), which keeps
this package free of the transforms it sits under.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

_builder: Callable[[Callable, str, tuple], Callable] | None = None


def set_builder(fn: Callable[[Callable, str, tuple], Callable]) -> None:
    """Installed by padax.transforms.dispatch: (op, name, static_argnums) -> C++-dispatched callable."""
    global _builder
    _builder = fn


class Twin:
    """`call(*args)` runs `op` through its compiled twin (built at the first call; callers read
    `.call` at each call, since the first one replaces it)."""

    __slots__ = ("op", "name", "static_argnums", "call")

    def __init__(self, op: Callable, name: str, static_argnums: Sequence[int] = ()):
        self.op, self.name, self.static_argnums = op, name, tuple(static_argnums)
        self.call = self._build_and_call

    def _build_and_call(self, *args: Any) -> Any:
        if _builder is None:  # (padax.transforms.dispatch not imported yet: plain Python)
            return self.op(*args)
        self.call = _builder(self.op, self.name, self.static_argnums)
        return self.call(*args)

    def reset(self) -> None:
        """Forget the compiled twin (padax.clear_caches): the next call builds a new one."""
        self.call = self._build_and_call


twins: list[Twin] = []


def twin(op: Callable, name: str | None = None, static_argnums: Sequence[int] = ()) -> Twin:
    """A Twin of `op`, registered so that clearing padax's caches forgets its programs."""
    t = Twin(op, name or op.__name__, static_argnums)
    twins.append(t)
    return t
