"""Reparametrised weights (weight_norm, spectral_norm): a layer attribute computed from other parameters.

A Layer keeps a tuple `_reparams` of specs (static, compared by value). Reading
`layer.<spec.name>` computes the weight from the spec's parameters; before each
forward call, `spec.before_forward(layer)` may update state (spectral_norm's power
iteration in training mode). This replaces Paddle's forward pre-hooks.
"""
from __future__ import annotations

from typing import Any


class Reparam:
    """Base of a reparametrisation: `name` is the computed attribute."""

    name: str = ""

    def compute(self, layer: Any) -> Any:
        raise AttributeError(f"{type(self).__name__} computes no weight")

    def before_forward(self, layer: Any) -> None:
        return None

    def _key(self) -> tuple:
        return tuple(sorted(vars(self).items()))

    def __eq__(self, other: Any) -> bool:
        return type(other) is type(self) and other._key() == self._key()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._key()))


def add_reparam(layer: Any, spec: Reparam) -> None:
    specs = tuple(layer.__dict__.get("_reparams", ()))
    if any(s.name == spec.name for s in specs):
        raise RuntimeError(f"{type(layer).__name__}.{spec.name} is already reparametrised")
    layer._reparams = specs + (spec,)


def remove_reparam(layer: Any, kind: type, name: str) -> Reparam:
    specs = tuple(layer.__dict__.get("_reparams", ()))
    found = [s for s in specs if isinstance(s, kind) and s.name == name]
    if not found:
        raise ValueError(f"{type(layer).__name__} has no {kind.__name__} on {name!r}")
    layer._reparams = tuple(s for s in specs if s is not found[0])
    return found[0]
