"""Argument conversion with errors that name the function and the argument."""
from __future__ import annotations

from typing import Any

from padax.core.errors import immutable_error, op_type_error
from padax.functional._arrays import asarray
from padax.functional._rebind import write_out as _write_out
from padax.runtime.place import resolve_device
from padax.runtime.put import device_put


def arg(op: str, value: Any, what: str, dtype: Any = None) -> Any:
    """`value` as an array (as `asarray`); an object with no numeric dtype raises a TypeError naming
    the function `op` and the argument `what`."""
    try:
        return asarray(value, dtype)
    except (TypeError, ValueError):
        text = repr(value)
        text = text if len(text) <= 60 else text[:57] + "..."
        raise op_type_error(op, f"{what} must be a Tensor, a Python number or a numpy array (something with a "
                                f"numeric dtype), got {type(value).__name__}: {text}") from None


def no_out(op: str, out: Any) -> None:
    """For a function that cannot write `out=`: a given `out` is refused, naming the functional form.
    (padax's own functions write it: see `write_out`.)"""
    if out is not None:
        raise immutable_error(f"{op}(..., out=...)", f"use the returned Tensor, `y = padax.{op}(...)`")


def write_out(out: Any, value: Any, op: str) -> Any:
    """Paddle's `out=`: `out` rebound to the result (cast to out's dtype; the shape must match), returned.
    Functions call it as `if out is not None: return write_out(out, f(...same arguments...), op)`."""
    return _write_out(out, value, op)


def placed(x: Any, device: Any) -> Any:
    """Paddle's `device=` argument of creation functions: x on that device (None leaves it where it is)."""
    if device is None:
        return x
    return device_put(x, resolve_device(device))
