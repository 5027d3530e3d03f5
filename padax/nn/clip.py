"""Gradient clipping with Paddle's names; each is a function of a gradient pytree (optimizers' `grad_clip`)."""
from __future__ import annotations

from typing import Any

import padax
from padax import tree as tree_util


def _clip_norm(cls: str, clip_norm: Any) -> float:
    """clip_norm as a positive float: zero, negative or NaN would zero, flip or poison every gradient."""
    if isinstance(clip_norm, bool):
        raise TypeError(f"{cls}: clip_norm must be a positive number, got {clip_norm!r}")
    try:
        value = float(clip_norm)
    except (TypeError, ValueError):
        raise TypeError(f"{cls}: clip_norm must be a positive number, got {type(clip_norm).__name__}: "
                        f"{clip_norm!r}") from None
    if not value > 0:
        raise ValueError(f"{cls}: clip_norm must be > 0, got {value}")
    return value


def _sum_dtype(dtypes: Any) -> str:
    """The dtype a norm is summed in: float64 when a float64 gradient takes part (as Paddle), else float32
    (float16/bfloat16 squares would overflow)."""
    return "float64" if any(str(d) == "float64" for d in dtypes) else "float32"


class ClipGradByValue:
    """Clip every gradient element into [min, max] (min defaults to -max).

    Args:
        max: the upper bound.
        min: the lower bound (None: -max).

    Returns:
        clip(grads): a pytree of gradients -> the clipped pytree (same structure and dtypes).

    Examples:
        >>> import padax
        >>> clip = padax.nn.ClipGradByValue(max=1.0)
        >>> clip({"w": padax.to_tensor([-3.0, 0.5, 2.0])})["w"].tolist()
        [-1.0, 0.5, 1.0]
    """

    def __init__(self, max: float, min: float | None = None):  # noqa: A002 (Paddle's names)
        self.max = float(max)
        self.min = -self.max if min is None else float(min)
        if self.min != self.min or self.max != self.max:
            raise ValueError(f"ClipGradByValue: min and max must not be NaN, got min {self.min}, max {self.max}")
        if self.min > self.max:
            raise ValueError(f"ClipGradByValue: min {self.min} > max {self.max}")

    def __call__(self, grads: Any) -> Any:
        return tree_util.map(lambda g: padax.clip(g, self.min, self.max), grads)


class ClipGradByNorm:
    """Rescale each gradient whose L2 norm exceeds clip_norm to norm clip_norm.

    Args:
        clip_norm: the largest L2 norm allowed per gradient (positive).

    Returns:
        clip(grads): a pytree of gradients -> the clipped pytree (same structure and dtypes).

    Examples:
        >>> import padax
        >>> clip = padax.nn.ClipGradByNorm(clip_norm=1.0)
        >>> g = clip([padax.to_tensor([3.0, 4.0]), padax.to_tensor([0.3, 0.4])])
        >>> g[0].tolist(), g[1].tolist()
        ([0.6, 0.8], [0.3, 0.4])
    """

    def __init__(self, clip_norm: float):
        self.clip_norm = _clip_norm("ClipGradByNorm", clip_norm)

    def __call__(self, grads: Any) -> Any:

        def one(g):
            norm = padax.sqrt(padax.sum(g.astype(_sum_dtype([g.dtype])) ** 2))
            return (g * (self.clip_norm / padax.maximum(norm, self.clip_norm))).astype(g.dtype)
        return tree_util.map(one, grads)


class ClipGradByGlobalNorm:
    """Rescale all gradients together so their joint L2 norm is at most clip_norm.

    Args:
        clip_norm: the largest joint L2 norm allowed (positive).
        group_name: Paddle's clipping group name (kept, not used).
        auto_skip_clip: accepted for Paddle compatibility.

    Returns:
        clip(grads): a pytree of gradients -> the clipped pytree (same structure and dtypes).

    Examples:
        >>> import padax
        >>> clip = padax.nn.ClipGradByGlobalNorm(clip_norm=1.0)
        >>> g = clip([padax.to_tensor([3.0]), padax.to_tensor([4.0])])  # joint norm 5
        >>> g[0].tolist(), g[1].tolist()
        ([0.6], [0.8])
        >>> model = padax.nn.Linear(2, 2)
        >>> opt = padax.optimizer.SGD(learning_rate=0.1, parameters=model.parameters(), grad_clip=clip)
    """

    def __init__(self, clip_norm: float, group_name: str = "default_group", auto_skip_clip: bool = False):
        self.clip_norm = _clip_norm("ClipGradByGlobalNorm", clip_norm)
        self.group_name = group_name

    def __call__(self, grads: Any) -> Any:
        leaves = tree_util.leaves(grads)
        if not leaves:
            return grads
        dtype = _sum_dtype([g.dtype for g in leaves])
        total = padax.add_n([padax.sum(g.astype(dtype) ** 2) for g in leaves])
        scale = self.clip_norm / padax.maximum(padax.sqrt(total), self.clip_norm)
        return tree_util.map(lambda g: g * scale.astype(g.dtype), grads)
