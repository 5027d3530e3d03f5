"""Where padax.nn's random draws (dropout masks, initial weights) get their keys.

Inside `with padax.nn.rng_scope(key):` every draw takes `fold_in(key, n)` with a
counter n that advances per draw, so the same key replays the same draws, under
jit (open the scope inside the jitted function, with the key as an argument) and
vmap (a batched key gives each member its own draws). With no scope, eager code
falls back to padax's global key (`padax.seed`), as Paddle's global generator.
"""
from __future__ import annotations

import contextlib
import contextvars
from typing import Any, Iterator

from padax.core.source_info import user_location
from padax.random import _keys, _state as _global


class _Scope:
    __slots__ = ("key", "count", "staged")

    def __init__(self, key: Any, staged: bool):
        self.key, self.count, self.staged = key, 0, staged


_current: contextvars.ContextVar[_Scope | None] = contextvars.ContextVar("padax_nn_rng_scope", default=None)


@contextlib.contextmanager
def rng_scope(key: Any) -> Iterator[None]:
    """Draw padax.nn's randomness (Dropout, initializers) from `key` inside the block.

    Examples:
        >>> import padax
        >>> drop = padax.nn.Dropout(p=0.5)
        >>> with padax.nn.rng_scope(padax.random.key(3)):
        ...     a = drop(padax.ones([6]))
        >>> with padax.nn.rng_scope(padax.random.key(3)):
        ...     b = drop(padax.ones([6]))
        >>> bool((a == b).all())
        True
    """
    key = _keys.check_key("rng_scope", key)[0]
    token = _current.set(_Scope(key, _global._staged()))
    try:
        yield
    finally:
        _current.reset(token)


def next_key(op: str) -> Any:
    """A fresh key for one draw of `op`: from the innermost rng_scope, else the global key (eager only)."""
    scope = _current.get()
    staged = _global._staged()
    if scope is None:
        if staged:
            raise RuntimeError(
                f"{op} needs randomness inside a traced function (jit, scan, cond, ...), where padax's global "
                f"key cannot be used{user_location()}: the draw would be frozen into the compiled program. Pass a "
                "key into the traced function and draw under it: `with padax.nn.rng_scope(key): out = model(x)` "
                "(split the key per step), or give the functional op its `key=` argument. See docs/nn_state.md.")
        return _global.next_key(op)
    if staged and not scope.staged:
        raise RuntimeError(
            f"{op}: the padax.nn.rng_scope around this traced function was opened outside it{user_location()}, "
            "so its key would be a constant of the compiled program (the same draws on every call). Open the "
            "scope inside the jitted function with the key passed as an argument.")
    n = scope.count
    scope.count += 1
    return _keys.fold_in(scope.key, n)
