"""Paddle's graph-mode switches. padax is always in Paddle's dynamic (eager) mode; compiled
graphs come from tracing with `padax.jit` (`padax.jit.to_static`), not from a global mode."""
from __future__ import annotations

from typing import Any

import padax


class StaticModeError(RuntimeError):
    """Raised by `enable_static`: padax has no global static-graph mode."""


def in_dynamic_mode() -> bool:
    """True: padax runs ops eagerly unless a function is traced by a transform."""
    return True


def disable_static(place: Any = None) -> None:
    """Paddle's switch back to dynamic mode; padax is always dynamic, so this only sets `place`
    (a Place or 'cpu'/'gpu:0') as the default device when one is given."""
    if place is not None:
        padax.set_device(place)


def enable_static() -> None:
    """Refused: padax builds static graphs by tracing a function, not through a global mode."""
    raise StaticModeError("padax has no global static-graph mode: write the computation as a function and "
                          "compile it with `padax.jit(fn)` (Paddle's `paddle.jit.to_static` is `padax.jit.to_static`)")
