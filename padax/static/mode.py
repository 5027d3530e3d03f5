"""Paddle's graph-mode switches. `enable_static()` makes padax record ops on static Variables into the
current `padax.static.Program` (the default main program, or the one of `program_guard`) instead of
running them; `disable_static()` returns to eager (dynamic) mode. Compiled graphs of functions also come
from tracing with `padax.jit` (`padax.jit.to_static`), without a global mode."""
from __future__ import annotations

from typing import Any

import padax
from padax.static import program as _program


class StaticModeError(RuntimeError):
    """A mode switch that padax cannot make (kept for compatibility: static mode is supported)."""


def in_dynamic_mode() -> bool:
    """True unless static mode is on (`padax.enable_static()`).

    Examples:
        >>> import padax
        >>> padax.in_dynamic_mode()
        True
    """
    return not _program.in_static_mode()


def in_static_mode() -> bool:
    """True between `padax.enable_static()` and `padax.disable_static()`."""
    return _program.in_static_mode()


def disable_static(place: Any = None) -> None:
    """Return to dynamic (eager) mode; `place` (a Place or 'cpu'/'gpu:0'), when given, becomes the default device.

    Args:
        place: the default device, or None to keep it.
    """
    _program.disable()
    if place is not None:
        padax.set_device(place)


def enable_static() -> None:
    """Static mode: ops on static Variables (`padax.static.data`, layers of `padax.static.nn`) are recorded into
    the current Program and run by `padax.static.Executor`.

    Examples:
        >>> import padax
        >>> padax.enable_static()
        >>> padax.in_dynamic_mode()
        False
        >>> padax.disable_static()
        >>> padax.in_dynamic_mode()
        True
    """
    _program.enable()
