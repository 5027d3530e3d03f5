"""Which layer is running: a per-thread stack of layer calls, so errors can name the layer's path.

A TypeError/ValueError raised while a layer runs is re-raised once (at the innermost
layer) with the layer's path in the model prepended, e.g. `model.layer1.0.conv1 (Conv2D)`.
"""
from __future__ import annotations

import threading
from typing import Any

from padax import dtypes
from padax.core.source_info import user_location
from padax.functional._arrays import aval_of as _aval_of


class _Stack(threading.local):
    def __init__(self) -> None:
        self.layers: list = []


stack = _Stack()

# functions called as f(layer, inputs, output) after every layer call (padax.summary's per-layer table)
observers: list = []


def _child_name(parent: Any, child: Any) -> str:
    """The dotted path of `child` below `parent` (through containers that were not called themselves)."""
    for name, sub in parent.named_sublayers():
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


def input_error(what: str, expected: str, received: str, exc: type = ValueError) -> Exception:
    """A layer's check of its input failed: name what, the expected and received values, the user's line."""
    return exc(f"{what}: expected {expected}, received {received}{user_location()}")


def check_input(layer: Any, x: Any, *, ndims: tuple[int, ...] | None = None, axis: int | None = None,
                size: int | None = None, floating: bool = False, layout: str = "") -> None:
    """Raise if `x` does not have one of `ndims` ranks, `size` along `axis`, or a floating dtype."""
    aval = _aval_of(x)
    shape = list(aval.shape)
    what = f"{type(layer).__name__} input"
    if ndims is not None and len(shape) not in ndims:
        ranks = " or ".join(str(n) for n in ndims)
        raise input_error(what, f"rank {ranks}{' ' + layout if layout else ''}",
                          f"shape {shape} (rank {len(shape)})")
    if axis is not None and not -len(shape) <= axis < len(shape):
        raise input_error(what, f"rank >= {axis + 1 if axis >= 0 else -axis}", f"shape {shape}")
    if axis is not None and size is not None and shape[axis] != size:
        raise input_error(what, f"{size} features along axis {axis}{' of ' + layout if layout else ''}",
                          f"shape {shape} with {shape[axis]}")
    if floating and not dtypes.is_floating(aval.dtype):
        raise input_error(what, "a floating-point tensor", f"dtype {aval.dtype.name} (shape {shape})",
                          exc=TypeError)
