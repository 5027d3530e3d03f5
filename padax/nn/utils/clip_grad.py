"""clip_grad_norm_ / clip_grad_value_ in functional form: they take a gradient pytree and return the clipped one
(Paddle's versions rewrite parameters' .grad in place; padax gradients are values returned by grad)."""
from __future__ import annotations

import math
from typing import Any

from padax import tree as tree_util
from padax.core.trace import Tracer as _Tracer
from padax.functional import math as M, reduction as R
from padax.functional.manipulation import stack as _stack_arrays


def clip_grad_norm_(grads: Any, max_norm: float, norm_type: float = 2.0, error_if_nonfinite: bool = False
                    ) -> tuple[Any, Any]:
    """(grads scaled by min(1, max_norm / (total_norm + 1e-6)), total_norm); total_norm is the norm_type-norm
    of all gradients together (inf: the largest magnitude). None leaves are skipped.

    Args:
        grads: a pytree of gradients (None leaves are skipped).
        max_norm: the largest total norm allowed.
        norm_type: the p of the norm (inf: the largest magnitude).
        error_if_nonfinite: raise if the total norm is NaN or inf.

    Returns:
        (clipped gradients, shaped like `grads`; total_norm, a scalar Tensor). padax arrays are immutable, so
        the clipped gradients are returned rather than written in place.

    Examples:
        >>> import padax
        >>> grads = [padax.to_tensor([3.0]), padax.to_tensor([4.0])]
        >>> grads, total = padax.nn.utils.clip_grad_norm_(grads, max_norm=1.0)
        >>> [g.tolist() for g in grads], total.item()
        ([[0.6], [0.8]], 5.0)
    """
    leaves = [g for g in tree_util.leaves(grads) if g is not None]
    if not leaves:
        return grads, 0.0
    norm_type = float(norm_type)
    if math.isinf(norm_type):
        total = R.max(_stack([R.max(M.abs(g.astype("float32"))) for g in leaves]))
    else:
        total = R.sum(_stack([R.sum(M.abs(g.astype("float32")) ** norm_type) for g in leaves])) ** (1.0 / norm_type)
    if error_if_nonfinite and not _traced(total) and not math.isfinite(float(total)):
        raise RuntimeError(f"clip_grad_norm_: the total norm of order {norm_type} of the gradients is non-finite "
                           "(pass error_if_nonfinite=False to clip anyway)")
    coef = M.minimum(max_norm / (total + 1e-6), 1.0)
    return tree_util.map(lambda g: (g * coef).astype(g.dtype), grads), total


def clip_grad_value_(grads: Any, clip_value: float) -> Any:
    """Every gradient element clipped into [-clip_value, clip_value].

    Args:
        grads: a pytree of gradients (None leaves are kept).
        clip_value: the bound (positive).

    Returns:
        The clipped gradients, shaped like `grads`.

    Examples:
        >>> import padax
        >>> padax.nn.utils.clip_grad_value_({"b": padax.to_tensor([-2.0, 0.1])}, clip_value=0.5)["b"].tolist()
        [-0.5, 0.1]
    """
    clip_value = float(clip_value)
    return tree_util.map(lambda g: M.clip(g, -clip_value, clip_value), grads)


def _stack(xs: list) -> Any:
    return _stack_arrays(xs)


def _traced(x: Any) -> bool:
    return isinstance(x, _Tracer)
