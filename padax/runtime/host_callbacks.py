"""Python functions called from compiled programs: the entry XLA calls, and their exceptions.

XLA's CPU runtime calls a host callback with numpy arrays; if the function
raises, the runtime only sees a failed call and the program fails with an
XlaRuntimeError holding the traceback as text. `host_entry` therefore
remembers the exception itself, and `reraise_callback_error` (called where
programs run, padax/runtime/executable.py) raises that exception, with its
own traceback, in place of the runtime error. The process goes on.
"""
from __future__ import annotations

import collections
import threading
from typing import Any, Callable, NoReturn

import numpy as np

_errors: "collections.deque[BaseException]" = collections.deque(maxlen=16)
_lock = threading.Lock()

_finfo_ready = False


def _prepare_finfo() -> None:
    """The first numpy.finfo of a float type computes its limits; on XLA's threads (flush-to-zero
    set) that warns about subnormals being zero. Compute them once, here, in a normal thread."""
    global _finfo_ready
    if not _finfo_ready:
        for t in (np.float16, np.float32, np.float64):
            np.finfo(t)
        _finfo_ready = True


def host_entry(run: Callable[..., tuple], ordered: bool) -> Callable[..., tuple]:
    """The function handed to XLA: numpy operands in, a tuple of numpy results out.

    An ordered callback also takes and returns XLA's token (None on the Python side).
    """
    _prepare_finfo()

    def entry(*args: Any) -> tuple:
        try:
            if ordered:
                return (None,) + tuple(run(args[1:]))
            return tuple(run(args))
        except BaseException as e:
            with _lock:
                _errors.append(e)
            raise
    return entry


def reraise_callback_error(error: BaseException) -> NoReturn:
    """Raise the exception a host callback raised during the failed run, else `error` itself."""
    if "callback" in str(error).lower():
        with _lock:
            exc = _errors.pop() if _errors else None
            _errors.clear()
        if exc is not None:
            raise exc.with_traceback(exc.__traceback__) from None
    raise error
