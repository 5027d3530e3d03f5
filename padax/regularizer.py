"""`padax.regularizer`: Paddle's weight-decay regularizers, terms added to a parameter's gradient.

Give one as an optimizer's `weight_decay` (it applies to every parameter) or in a parameter's
`ParamAttr(regularizer=...)` (it then replaces the optimizer's for that parameter, as in Paddle).
"""
from __future__ import annotations

from typing import Any

import padax
from padax.core.errors import require_members


class WeightDecayRegularizer:
    """Base class: `coeff`, and `__call__(param)`, the term added to the parameter's gradient.

    Args:
        coeff: the regularization strength (a float).

    Returns:
        The regularizer; subclasses define `__call__(param)`.

    Examples:
        >>> import padax
        >>> class Clamp(padax.regularizer.WeightDecayRegularizer):
        ...     def __call__(self, param):
        ...         return self.coeff * padax.clip(param, -1.0, 1.0)
        >>> Clamp(0.5)(padax.to_tensor([-3.0, 0.5])).tolist()
        [-0.5, 0.25]
    """

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        require_members(cls, "weight-decay regularizer", {"__call__": "__call__(param) -> gradient term"})

    def __init__(self, coeff: float = 0.0):
        if isinstance(coeff, bool) or not isinstance(coeff, (int, float)):
            raise TypeError(f"{type(self).__name__}: coeff must be a float, got {type(coeff).__name__}")
        self.coeff = float(coeff)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(coeff={self.coeff})"


class L2Decay(WeightDecayRegularizer):
    """coeff * param (the gradient of coeff / 2 * ||param||^2).

    Args:
        coeff: the regularization strength.

    Returns:
        The regularizer; calling it on a parameter gives coeff * param.

    Examples:
        >>> import padax
        >>> padax.regularizer.L2Decay(0.1)(padax.to_tensor([2.0, -4.0])).tolist()
        [0.2, -0.4]
        >>> layer = padax.nn.Linear(2, 2, weight_attr=padax.ParamAttr(regularizer=padax.regularizer.L2Decay(1e-4)))
        >>> layer.param_info("weight").regularizer
        L2Decay(coeff=0.0001)
    """

    def __call__(self, param: Any) -> Any:
        return self.coeff * param


class L1Decay(WeightDecayRegularizer):
    """coeff * sign(param) (the gradient of coeff * ||param||_1).

    Args:
        coeff: the regularization strength.

    Returns:
        The regularizer; calling it on a parameter gives coeff * sign(param).

    Examples:
        >>> import padax
        >>> padax.regularizer.L1Decay(0.1)(padax.to_tensor([2.0, -4.0, 0.0])).tolist()
        [0.1, -0.1, 0.0]
        >>> model = padax.nn.Linear(2, 2)
        >>> opt = padax.optimizer.SGD(0.1, parameters=model.parameters(), weight_decay=padax.regularizer.L1Decay(1e-4))
    """

    def __call__(self, param: Any) -> Any:
        return self.coeff * padax.sign(param)


__all__ = ["L1Decay", "L2Decay", "WeightDecayRegularizer"]
