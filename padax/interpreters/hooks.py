"""The array operations the interpreters emit but the op library defines.

An interpreter sometimes has to make an array: a tangent in its output's strong type, or a batched
value with its batch axis moved to the front. Those are lax operations, one floor up; the op library
installs them here when it is imported (`padax/functional/lax/structural.py`), so no import runs
upward. Zeros and tangent addition are `padax.core.ad_util`'s tables.
"""
from __future__ import annotations

from typing import Any, Callable

_installed: dict[str, Callable[..., Any]] = {}


def install(**ops: Callable[..., Any]) -> None:
    """Called by the op library with `convert_to_strong`, `bdim_to_front` and `rebind`."""
    _installed.update(ops)


def convert_to_strong(x: Any, dtype: Any) -> Any:
    """`x` (weakly typed) as a strongly typed array of `dtype`: a no-op convert in the program."""
    return _installed["convert_to_strong"](x, dtype)


def rebind(x: Any, value: Any, op: str) -> Any:
    """Make the Tensor object `x` hold `value` (Paddle's in-place update, padax/functional/_rebind.py)."""
    return _installed["rebind"](x, value, op)


def bdim_to_front(x: Any, bdim: int | None, size: int) -> Any:
    """`x` with its batch axis `bdim` first (an unbatched `x`, bdim None, broadcast to `size`)."""
    return _installed["bdim_to_front"](x, bdim, size)
