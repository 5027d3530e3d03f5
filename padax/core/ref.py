"""Mutable array references (jax's refs) at the bottom floor: their aval, their effects, the eager holder.

A `Ref` is a Python object that holds an immutable array and rebinds to a new one when written; no
buffer is ever changed. Inside a transformation a ref is a tracer whose aval is an `AbstractRef`, and
its reads and writes are equations with ref effects (`ReadEffect`, `WriteEffect`, `AccumEffect`, tied
to the operand that is the ref). Before lowering, `padax.interpreters.discharge` turns such programs
into pure state passing. The operations on a `Ref` (`ref[idx]`, `ref[idx] = v`) are installed here by
the op library (`padax/functional/refs.py`), one floor up.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from padax.core.abstract import AvalProperties, ShapedArray
from padax.core.effects import Effect, internal_ref_effect
from padax.core.errors import PadaxError
from padax.core.source_info import user_location


class AbstractRef:
    """The aval of a mutable array reference: the shape and dtype of the array it holds."""

    __slots__ = ("inner_aval", "_hash")

    def __init__(self, inner_aval: ShapedArray):
        if isinstance(inner_aval, AbstractRef):
            raise TypeError("a Ref cannot hold another Ref")
        self.inner_aval = inner_aval.strip_weak_type()
        self._hash = hash(("Ref", self.inner_aval))

    shape = property(lambda self: self.inner_aval.shape)
    dtype = property(lambda self: self.inner_aval.dtype)
    ndim = property(lambda self: len(self.inner_aval.shape))
    size = property(lambda self: self.inner_aval.size)
    weak_type = False

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: Any) -> bool:
        return type(other) is AbstractRef and self.inner_aval == other.inner_aval

    def update(self, shape=None, dtype=None, weak_type=None) -> "AbstractRef":
        return AbstractRef(self.inner_aval.update(shape, dtype, False))

    def strip_weak_type(self) -> "AbstractRef":
        return self

    def str_short(self) -> str:
        return f"Ref{{{self.inner_aval.str_short()}}}"

    def __repr__(self) -> str:
        return f"AbstractRef({self.inner_aval.str_short()})"


def is_ref_aval(aval: Any) -> bool:
    return type(aval) is AbstractRef


# ---- effects -------------------------------------------------------------------------------------

class RefEffect(Effect):
    """A read, write or accumulation on the ref that is operand `input_index` of its equation (at the
    level of a jaxpr: its input `input_index`, constvars first). Equal by kind and position."""

    __slots__ = ("input_index",)
    kind = "Ref"

    def __init__(self, input_index: int):
        super().__init__(f"{self.kind}<{input_index}>", ordered=False)
        self.input_index = input_index

    def __eq__(self, other: Any) -> bool:
        return type(other) is type(self) and other.input_index == self.input_index

    def __hash__(self) -> int:
        return hash((type(self), self.input_index))


class ReadEffect(RefEffect):
    __slots__ = ()
    kind = "Read"


class WriteEffect(RefEffect):
    __slots__ = ()
    kind = "Write"


class AccumEffect(RefEffect):
    __slots__ = ()
    kind = "Accum"


def is_ref_effect(e: Effect) -> bool:
    return isinstance(e, RefEffect) or e is internal_ref_effect


# ---- the eager holder -------------------------------------------------------------------------------

class RefError(PadaxError, ValueError):
    """A misuse of a mutable array reference (used after freeze, escaping a transformation, aliased)."""


# the operations on refs, installed by padax/functional/refs.py: get(ref, idx), set(ref, idx, v)
_ops: dict[str, Callable[..., Any]] = {}


def install_ref_ops(**ops: Callable[..., Any]) -> None:
    _ops.update(ops)


class Ref(AvalProperties):
    """A mutable reference to an array: `ref[idx]` reads, `ref[idx] = v` and `ref[idx] += v` write.

    The array it holds never changes; a write rebinds the Ref to a new array (made with the
    functional update `x.at[idx].set(v)`). Make one with `padax.new_ref(x)`.
    """

    __slots__ = ("_value", "_aval", "_frozen", "__weakref__")

    def __init__(self, value: Any, aval: ShapedArray):
        self._value = value
        self._aval = AbstractRef(aval)
        self._frozen = False

    @property
    def aval(self) -> AbstractRef:
        return self._aval

    def _read(self, what: str) -> Any:
        """The array the ref holds now (a RefError once frozen)."""
        if self._frozen:
            raise RefError(f"{what}: the Ref {self._aval.str_short()} was frozen (padax.freeze) and cannot be "
                           f"used any more{user_location()}; keep the array freeze returned instead")
        return self._value

    def _write(self, value: Any) -> None:
        self._value = value

    def __getitem__(self, idx: Any) -> Any:
        return _ops["get"](self, idx)

    def __setitem__(self, idx: Any, value: Any) -> None:
        _ops["set"](self, idx, value)

    def __array__(self, dtype=None, copy=None):
        return np.asarray(self._read("numpy conversion of a Ref"), dtype=dtype)

    def __repr__(self) -> str:
        if self._frozen:
            return f"Ref({self._aval.str_short()}, frozen)"
        return f"Ref({self._value!r})"

    __hash__ = object.__hash__
