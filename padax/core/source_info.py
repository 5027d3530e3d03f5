"""Where in the user's code an operation came from (file:line), for errors and jaxprs."""
from __future__ import annotations

import os
import sys
import threading
from typing import NamedTuple

_PADAX_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_SKIP_PREFIXES = (_PADAX_DIR, "<frozen ")


class SourceInfo(NamedTuple):
    filename: str
    lineno: int
    function: str

    def __str__(self) -> str:
        return f"{self.filename}:{self.lineno} ({self.function})"


class _Current(threading.local):
    info: "SourceInfo | None" = None


# While padax re-evaluates a traced equation (transforming a jaxpr), the equation's own source
# stands for "the user's line": the operations it stages, and errors it raises, point there.
current = _Current()


def user_frame() -> SourceInfo | None:
    """The innermost stack frame outside padax itself (or the source of the equation being re-evaluated)."""
    if current.info is not None:
        return current.info
    f = sys._getframe(1)
    while f is not None:
        fn = f.f_code.co_filename
        if not fn.startswith(_SKIP_PREFIXES):
            return SourceInfo(fn, f.f_lineno, f.f_code.co_name)
        f = f.f_back
    return None


def user_location() -> str:
    info = user_frame()
    return f" (at {info})" if info is not None else ""
