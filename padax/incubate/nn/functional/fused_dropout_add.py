"""fused_dropout_add: dropout(x) + y (the residual add after attention or MLP), Paddle's fused op as a
composition."""
from __future__ import annotations

from typing import Any

from padax.core.errors import op_value_error
from padax.functional import math as M
from padax.functional._checks import arg
from padax.nn.functional.dropout import dropout

__all__ = ["fused_dropout_add"]


def fused_dropout_add(x: Any, y: Any, p: float = 0.5, training: bool = True, mode: str = "upscale_in_train",
                      name: str | None = None, *, key: Any = None) -> Any:
    """dropout(x, p) + y: upscale_in_train scales kept values by 1 / (1 - p) in training (identity at
    inference); downscale_in_infer keeps them unscaled in training and multiplies x by 1 - p at inference.

    Args:
        x: the Tensor dropped out.
        y: the Tensor added (x's shape).
        p: the probability of zeroing an element, in [0, 1].
        training: whether dropout applies.
        mode: 'upscale_in_train' or 'downscale_in_infer'.
        key: a padax.random key for the mask (padax's addition); None uses padax.nn.rng_scope's key or the global one.

    Returns:
        A Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> from padax.incubate.nn.functional import fused_dropout_add
        >>> x, y = padax.ones([4]), padax.full([4], 2.0)
        >>> fused_dropout_add(x, y, p=0.5, training=False).tolist()
        [3.0, 3.0, 3.0, 3.0]
        >>> out = fused_dropout_add(x, y, p=0.5, key=padax.random.key(0))
        >>> sorted(set(out.tolist())) in ([2.0, 4.0], [2.0], [4.0])
        True
    """
    op = "fused_dropout_add"
    x, y = arg(op, x, "x"), arg(op, y, "y")
    if not 0.0 <= float(p) <= 1.0:
        raise op_value_error(op, f"p must be in [0, 1], got {p}")
    if float(p) == 0.0:
        return M.add(x, y)
    return M.add(dropout(x, float(p), training=training, mode=mode, key=key), y)
