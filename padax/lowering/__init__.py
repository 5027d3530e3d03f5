"""jaxpr -> StableHLO lowering, compilation through PJRT, executable caches.

The lowering itself (jaxlib's MLIR bindings and every rule, ~50 ms to import) loads on the first
lowering, so a process whose programs all come from the persistent cache never loads it.
"""
from __future__ import annotations

import importlib
from typing import Any

_LAZY = {"CompileError": "padax.lowering.compile", "compile_lowered": "padax.lowering.compile",
         "LoweredModule": "padax.lowering.mlir", "LoweringError": "padax.lowering.mlir",
         "lower_jaxpr": "padax.lowering.mlir", "register_lowering": "padax.lowering.registry"}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'padax.lowering' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
