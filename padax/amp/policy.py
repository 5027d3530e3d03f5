"""The cast policy behind `auto_cast`: which primitives run in low precision, which in float32.

An `AmpPolicy` is installed with `padax.core.trace.bind_policy`, so `Primitive.bind` hands it the
operands of every primitive before the current trace (eager, jit staging, grad, vmap) sees them.
It inserts `convert_element_type` where a list says so; the casts are ordinary primitives, so
gradients flow back through them into each operand's own dtype (float32 parameters get float32
gradients). A policy is a frozen, hashable value: jit keys its traced programs on it.
"""
from __future__ import annotations

import dataclasses

import ml_dtypes
import numpy as np

from padax import lax
from padax.core.trace import trace_state as _trace_state

_F32 = np.dtype("float32")
_LOW = frozenset({np.dtype("float16"), np.dtype(ml_dtypes.bfloat16)})


def _convert(x, dtype):
    return lax.convert_element_type(x, dtype)


def _has_subprogram(params: dict) -> bool:
    """Whether a primitive carries a traced sub-program (loops, conds, calls), whose operand dtypes are fixed."""
    return any(hasattr(v, "eqns") or hasattr(v, "jaxpr") for v in params.values())


@dataclasses.dataclass(frozen=True)
class AmpPolicy:
    """white: primitives whose float32 operands are cast to `dtype`; black: primitives whose float16/bfloat16
    operands are cast to float32; others ('gray') follow `gray`: 'keep' their operands' dtypes (Paddle's
    type promotion already made them agree), cast float32 to 'low' (O2 without promotion), or cast low
    precision to 'float32' (level OD)."""

    level: str
    dtype: np.dtype
    white: frozenset
    black: frozenset
    gray: str = "keep"
    black_ops: frozenset = frozenset()   # the black list's Paddle op names (composites read it: float32_inputs)

    def __call__(self, prim, args: tuple, params: dict) -> tuple:
        name = prim.name
        if name in self.white:
            return self._cast(args, (_F32,), self.dtype)
        if name in self.black:
            return self._cast(args, _LOW, _F32)
        if self.gray == "keep" or name == "convert_element_type" or _has_subprogram(params):
            return args
        if self.gray == "low":
            return self._cast(args, (_F32,), self.dtype)
        return self._cast(args, _LOW, _F32)

    @staticmethod
    def _cast(args: tuple, sources, target) -> tuple:
        out = None
        for i, a in enumerate(args):
            if getattr(a, "dtype", None) in sources:
                if out is None:
                    out = list(args)
                out[i] = _convert(a, target)
        return args if out is None else tuple(out)


def float32_inputs(op: str, *xs):
    """xs, float16/bfloat16 ones cast to float32 when the active auto_cast black-lists the Paddle op `op`.

    For composite ops (softmax, layer_norm, mean, ...): Paddle runs a black-listed op in float32 and
    returns float32; their primitives (max, sub, div) are gray, so without this the result would follow
    the low-precision input.

    Args:
        op: the Paddle op name ('softmax', 'layer_norm', 'mean', ...).
        xs: the op's floating inputs.

    Returns:
        The inputs (a tuple), cast where the policy says so; unchanged outside auto_cast.

    Examples:
        >>> import padax
        >>> from padax.amp.policy import float32_inputs
        >>> x = padax.ones([2], dtype="bfloat16")
        >>> with padax.amp.auto_cast(dtype="bfloat16"):
        ...     str(float32_inputs("softmax", x)[0].dtype)
        'float32'
    """
    policy = _trace_state.bind_policy
    if not isinstance(policy, AmpPolicy) or op not in policy.black_ops:
        return xs
    return tuple(_convert(x, _F32) if getattr(x, "dtype", None) in _LOW else x for x in xs)
