"""Which layer is running: a per-thread stack of layer calls, so errors can name the layer's path.

A TypeError/ValueError raised while a layer runs is re-raised once (at the innermost
layer) with the layer's path in the model prepended, e.g. `model.layer1.0.conv1 (Conv2D)`.
"""
from __future__ import annotations

import threading
from typing import Any

from padax.core.source_info import user_location


class _Stack(threading.local):
    def __init__(self) -> None:
        self.layers: list = []


stack = _Stack()


def _child_name(parent: Any, child: Any) -> str:
    for name, sub in parent.__dict__["_sub_layers"].items():
        if sub is child:
            return name
    return f"<{type(child).__name__}>"


def current_path() -> str:
    """The dotted path of the running layer from the outermost running one (called `model`)."""
    layers = stack.layers
    parts = ["model"]
    for parent, child in zip(layers, layers[1:]):
        if child is not parent:
            parts.append(_child_name(parent, child))
    return ".".join(parts)


def annotate(err: Exception, layer: Any) -> Exception:
    """`err` with the running layer's path in its message (a new exception of the same type)."""
    where = f"{current_path()} ({type(layer).__name__})"
    msg = f"{where}: {err}"
    try:
        new = type(err)(msg)
    except Exception:  # an exception type with another constructor: keep it, add a note
        err.add_note(f"raised in layer {where}")
        new = err
    new._padax_layer_path = where
    return new


def input_error(layer: Any, what: str, expected: str, received: str, exc: type = ValueError) -> Exception:
    """A layer's check of its input failed: name what, the expected and received values, the user's line."""
    err = exc(f"{what}: expected {expected}, received {received}{user_location()}")
    return err
