"""What differentiation rules (next to each primitive) need: symbolic zeros,
undefined primals for transposition, and helpers to define jvp rules.

A jvp rule has the signature `rule(primals, tangents, **params) ->
(primal_out, tangent_out)`; a tangent may be `Zero(aval)` (no work is done
for inputs that are not differentiated). A transpose rule has the signature
`rule(cotangent_out, *operands, **params) -> cotangents_in`, where linear
operands arrive as `UndefinedPrimal(aval)` and the rest as values; it
returns one cotangent (or None) per operand.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from padax.core import dtypes
from padax.core.abstract import ShapedArray, get_aval

# Filled by the op library (padax/functional), which owns the arrays: how to make concrete zeros of an
# aval and how to add two tangents, by aval type (jax's `aval_zeros_likers` and `add_jaxvals`). The
# differentiation machinery below the op library reads them.
aval_zeros_likers: dict[type, Callable[[Any], Any]] = {}
jaxval_adders: dict[type, Callable[[Any, Any], Any]] = {}


class Zero:
    """A symbolic zero tangent/cotangent of a given aval."""

    __slots__ = ("aval",)

    def __init__(self, aval: ShapedArray):
        self.aval = aval

    def __repr__(self) -> str:
        return f"Zero({self.aval.str_short()})"


class UndefinedPrimal:
    """A linear input of an equation being transposed (its value is what we solve for)."""

    __slots__ = ("aval",)

    def __init__(self, aval: ShapedArray):
        self.aval = aval

    def __repr__(self) -> str:
        return f"UndefinedPrimal({self.aval.str_short()})"


def is_undefined(x: Any) -> bool:
    return type(x) is UndefinedPrimal


def tangent_aval(aval: ShapedArray) -> ShapedArray:
    """Tangent space of an aval: same for inexact dtypes; integers/bools have none (float0)."""
    return aval.strip_weak_type() if dtypes.is_inexact(aval.dtype) else ShapedArray(aval.shape, float0, False)


float0 = np.dtype([("float0", np.void, 0)])


def zeros_like_aval(aval: ShapedArray) -> Any:
    """Concrete zeros of an aval; a float0 (no tangent space) zero is a host array, as in JAX."""
    if aval.dtype == float0:
        return np.zeros(aval.shape, float0)
    return aval_zeros_likers[type(aval)](aval)


def instantiate(t: Any, aval: ShapedArray | None = None) -> Any:
    """Materialise a symbolic zero."""
    if type(t) is Zero:
        return zeros_like_aval(t.aval)
    return t


def add_tangents(a: Any, b: Any) -> Any:
    """a + b for tangents, where either may be a symbolic Zero."""
    if type(a) is Zero:
        return b
    if type(b) is Zero:
        return a
    return jaxval_adders[type(get_aval(a))](a, b)


def defjvp(prim, *per_input: Callable | None) -> None:
    """jvp rule from one function per input: `fn(tangent, *primals, **params)` gives
    that input's contribution to the output tangent (None for non-differentiable inputs)."""
    def rule(primals, tangents, **params):
        out = prim.bind(*primals, **params)
        acc: Any = Zero(get_aval(out))
        for fn, t in zip(per_input, tangents):
            if fn is not None and type(t) is not Zero:
                acc = add_tangents(acc, fn(t, *primals, **params))
        return out, acc
    prim.jvp_rule = rule


def defjvp_with_output(prim, *per_input: Callable | None) -> None:
    """Like `defjvp`, but each fn also receives the primal output: `fn(t, out, *primals)`."""
    def rule(primals, tangents, **params):
        out = prim.bind(*primals, **params)
        acc: Any = Zero(get_aval(out))
        for fn, t in zip(per_input, tangents):
            if fn is not None and type(t) is not Zero:
                acc = add_tangents(acc, fn(t, out, *primals, **params))
        return out, acc
    prim.jvp_rule = rule


def deflinear(prim, transpose: Callable) -> None:
    """A primitive linear in all its operands: tangent = prim(tangents); plus its transpose."""
    def rule(primals, tangents, **params):
        out = prim.bind(*primals, **params)
        if all(type(t) is Zero for t in tangents):
            return out, Zero(get_aval(out)) if not prim.multiple_results else [Zero(get_aval(o)) for o in out]
        ts = [instantiate(t) for t in tangents]
        return out, prim.bind(*ts, **params)
    prim.jvp_rule = rule
    prim.transpose_rule = transpose


def defzero_jvp(prim) -> None:
    """Non-differentiable primitive (comparisons, integer ops): zero tangent."""
    def rule(primals, tangents, **params):
        out = prim.bind(*primals, **params)
        if prim.multiple_results:
            return out, [Zero(tangent_aval(get_aval(o))) for o in out]
        return out, Zero(tangent_aval(get_aval(out)))
    prim.jvp_rule = rule
