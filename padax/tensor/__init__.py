"""Paddle's `paddle.tensor` namespace: the tensor API under the names Paddle files it
(`padax.tensor.triu`, `padax.tensor.math.frexp`, `padax.tensor.search.argwhere`).

Every name is the top-level padax function itself; the submodules only mirror Paddle's layout,
so programs that reach for `paddle.tensor.<module>.<op>` port by changing the import.
"""
from __future__ import annotations

import sys
import types
from typing import Any

import padax

_SUBMODULES = ("attribute", "creation", "einsum", "linalg", "logic", "manipulation", "math", "random",
               "search", "stat", "to_string")


class _TensorAPI(types.ModuleType):
    """A namespace whose attributes are padax's top-level tensor functions and dtypes."""

    def __getattr__(self, name: str) -> Any:
        if not name.startswith("_"):
            obj = getattr(padax, name, None)
            if obj is not None and not isinstance(obj, types.ModuleType):
                return obj
        raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")

    def __dir__(self) -> list[str]:
        return sorted(n for n in dir(padax)
                      if not n.startswith("_") and not isinstance(getattr(padax, n), types.ModuleType))


def _install() -> None:
    me = sys.modules[__name__]
    me.__class__ = _TensorAPI
    for sub in _SUBMODULES:
        mod = _TensorAPI(f"{__name__}.{sub}", f"Paddle's paddle.tensor.{sub}: padax's tensor functions.")
        sys.modules[mod.__name__] = mod
        setattr(me, sub, mod)


_install()
