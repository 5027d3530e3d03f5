"""Where in the user's code an operation came from (file:line), for errors and jaxprs."""
from __future__ import annotations

import contextlib
import os
import sys
import threading
from typing import Iterator, NamedTuple

_PADAX_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_SKIP_PREFIXES = (_PADAX_DIR, "<frozen ")
_MACHINERY = tuple(_PADAX_DIR + d + os.sep for d in ("transforms", "interpreters", "core", "runtime", "lowering"))


class SourceInfo(NamedTuple):
    filename: str
    lineno: int
    function: str
    scope: str = ""  # the enclosing padax.named_scope names, "outer/inner" (in the compiled ops' names)

    def __str__(self) -> str:
        return f"{self.filename}:{self.lineno} ({self.function})"


class _Current(threading.local):
    info: "SourceInfo | None" = None
    scopes: tuple = ()


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
            scopes = current.scopes
            return SourceInfo(fn, f.f_lineno, f.f_code.co_name, "/".join(scopes) if scopes else "")
        f = f.f_back
    return None


@contextlib.contextmanager
def named_scope(name: str) -> Iterator[None]:
    """Name the operations traced inside the block `name` (nested scopes join with '/'), as jax's
    `named_scope`: the names reach the compiled program's op names, which profiles and XLA dumps show.

    Examples:
        >>> import padax
        >>> def f(x):
        ...     with padax.named_scope("layer1"):
        ...         return padax.sin(x) * 2
        >>> "layer1/sin" in padax.jit(f).lower(padax.ones([3])).as_text(debug_info=True)
        True
    """
    if not isinstance(name, str):
        raise TypeError(f"named_scope: the name must be a str, got {type(name).__name__}")
    outer = current.scopes
    current.scopes = outer + (name,)
    try:
        yield
    finally:
        current.scopes = outer


def user_location() -> str:
    info = user_frame()
    return f" (at {info})" if info is not None else ""


# names of padax's factory-made wrappers and dispatch shims: the op they stand for is in their closure
_WRAPPER_NAMES = {"fn", "_f", "op", "wrapped", "wrapper", "method", "entry", "run", "jf", "inner", "compute", "call"}
_CLOSURE_NAMES = ("public_name", "op", "name", "prim", "prim_fn", "fn")
_REFLECTED = {"radd", "rsub", "rmul", "rtruediv", "rfloordiv", "rmod", "rpow", "rmatmul", "rand", "ror", "rxor",
              "rlshift", "rrshift", "rdivmod"}


def _op_of_frame(f) -> str | None:
    """The public op a padax frame runs: its function's name, or for a factory-made wrapper the
    name in its closure; a constructor stands for its class. None for transforms and layer calls."""
    code = f.f_code
    name = code.co_name
    if code.co_filename.startswith(_MACHINERY):  # jit(lax.add)(a, b): the op is not the transform
        return None
    if name in ("__call__", "forward"):  # a layer: its __call__ names the layer on errors already
        return None
    if name == "__init__" and "self" in code.co_varnames:
        self = f.f_locals.get("self")
        return type(self).__name__ if self is not None else None
    if name.startswith("__") and name.endswith("__"):  # x + "a" runs Tensor.__add__: the op is add
        name = name.strip("_")
        return name[1:] if name in _REFLECTED else name
    if name not in _WRAPPER_NAMES and not name.startswith(("<", "_")):
        return name
    closure = f.f_locals if code.co_freevars else {}
    for var in _CLOSURE_NAMES:
        if var in code.co_freevars:
            v = closure.get(var)
            v = v if isinstance(v, str) else getattr(v, "name", None) or getattr(v, "__name__", None)
            if isinstance(v, str) and v.isidentifier() and v not in _WRAPPER_NAMES:
                return v
    return None


def user_op() -> str | None:
    """The name of the padax function the user's line called (the padax frame right under the user's
    frame), for errors raised by shared helpers that do not know which op they serve."""
    if current.info is not None:
        return None
    f, inner = sys._getframe(1), None
    while f is not None and f.f_code.co_filename.startswith(_SKIP_PREFIXES):
        f, inner = f.f_back, f
    return _op_of_frame(inner) if f is not None and inner is not None else None
