"""The table of lowering rules, and the hook that fills it: no MLIR here, so it is cheap to import.

A rule module registers its rules with `register_lowering` when it is imported. padax's own rule
modules load all at once, on the first lowering or the first registration of a user's rule, through
the loader the dispatch layer installs with `set_rule_loader` (so neither `import padax` nor this
floor imports the rules, and the rules import `mlir`, never the reverse).
"""
from __future__ import annotations

from typing import Any, Callable

from padax.core.errors import PadaxError

LoweringRule = Callable[..., Any]
lowering_rules: dict[Any, LoweringRule] = {}

_loader: Callable[[], None] | None = None
_loaded = False


def set_rule_loader(loader: Callable[[], None]) -> None:
    """Install the function that imports padax's rule modules (called once, before the first lowering)."""
    global _loader
    _loader = loader


def ensure_rules_loaded() -> None:
    """Load padax's rules now if they have not been loaded yet."""
    global _loaded
    if _loaded:
        return
    if _loader is None:
        raise PadaxError("padax.lowering: no rule loader is installed (import padax first)")
    _loaded = True
    _loader()


def register_lowering(prim, rule: LoweringRule | None = None):
    """Register `rule` as prim's lowering (usable as a decorator)."""
    if rule is None:
        return lambda r: register_lowering(prim, r)
    if not str(getattr(rule, "__module__", None) or "").startswith("padax."):
        ensure_rules_loaded()  # (padax's rules first, so that a rule of the user's replaces padax's, not the reverse)
        prim.lowering_by_padax = False  # a rule of the user's: programs using it are keyed by their module
    lowering_rules[prim] = rule
    return rule
