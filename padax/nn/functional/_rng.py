"""Where padax.nn's random draws (dropout masks, initial weights) get their keys.

Inside `with padax.nn.rng_scope(key):` every draw takes `fold_in(key, n)` with a
counter n that advances per draw, so the same key replays the same draws, under
jit (open the scope inside the jitted function, with the key as an argument) and
vmap (a batched key gives each member its own draws). With no scope, draws come
from padax's global key (`padax.seed`), as from Paddle's global generator: eagerly,
and inside jit through the key's Ref, which the compiled program reads and advances
on every call (a fresh mask per call, reproducible after `padax.seed(n)`).
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
    """A fresh key for one draw of `op`: from the innermost rng_scope, else the global key."""
    scope = _current.get()
    staged = _global._staged()
    if scope is None:  # the global key: inside a traced program through its Ref, read and advanced per call
        return _global.staged_next_key(op) if staged else _global.next_key(op)
    if staged and not scope.staged:
        raise RuntimeError(
            f"{op}: the padax.nn.rng_scope around this traced function was opened outside it{user_location()}, "
            "so its key would be a constant of the compiled program (the same draws on every call). Open the "
            "scope inside the jitted function with the key passed as an argument.")
    n = scope.count
    scope.count += 1
    return _keys.fold_in(scope.key, n)
