"""`padax.ParamAttr`: how a layer creates one parameter (Paddle's names), and the metadata it leaves.

A parameter in padax is a plain immutable Tensor. What Paddle keeps on its Parameter
object (name, trainable, learning-rate multiplier, regularizer, need_clip) is kept by
the owning Layer as a `ParamInfo`, part of the layer's static pytree data: it survives
jit, grad, vmap and padax.tree.map, and padax.optimizer reads it.
"""
from __future__ import annotations

import dataclasses
from typing import Any

from padax.nn.initializer import Initializer as _Initializer


@dataclasses.dataclass(frozen=True)
class ParamInfo:
    """The metadata of one parameter (its Paddle name does not take part in comparisons).

    Args:
        name: the parameter's Paddle name.
        trainable, learning_rate, regularizer, need_clip, do_model_average: as ParamAttr.

    Examples:
        >>> import padax
        >>> info = padax.nn.Linear(2, 2, bias_attr=padax.ParamAttr(learning_rate=2.0)).param_info("bias")
        >>> info.trainable, info.learning_rate, info.need_clip, info.stop_gradient
        (True, 2.0, True, False)
    """

    name: str | None = dataclasses.field(default=None, compare=False)
    trainable: bool = True
    learning_rate: float = 1.0
    regularizer: Any = None
    need_clip: bool = True
    do_model_average: bool = True

    @property
    def stop_gradient(self) -> bool:
        return not self.trainable


class ParamAttr:
    """Paddle's parameter attribute: name, initializer, learning_rate (a multiplier of the optimizer's
    rate), regularizer, trainable, do_model_average, need_clip (take part in gradient clipping).

    Args:
        name: the parameter's name (None: generated).
        initializer: an Initializer (None: the layer's default).
        learning_rate: a multiplier of the optimizer's learning rate for this parameter.
        regularizer: a weight-decay regularizer, or None.
        trainable: False freezes the parameter.
        do_model_average: take part in model averaging.
        need_clip: take part in gradient clipping.

    Examples:
        >>> import padax
        >>> attr = padax.ParamAttr(name="fc_w", initializer=padax.nn.initializer.Constant(0.1), learning_rate=0.5)
        >>> fc = padax.nn.Linear(2, 2, weight_attr=attr)
        >>> fc.weight.tolist(), fc.param_info("weight").learning_rate
        ([[0.1, 0.1], [0.1, 0.1]], 0.5)
        >>> padax.nn.Linear(2, 2, weight_attr=padax.ParamAttr(trainable=False)).param_info("weight").trainable
        False
    """

    def __init__(self, name: str | None = None, initializer: Any = None, learning_rate: float = 1.0,
                 regularizer: Any = None, trainable: bool = True, do_model_average: bool = True,
                 need_clip: bool = True) -> None:
        if name is not None and not isinstance(name, str):
            raise TypeError(f"ParamAttr: name must be a str or None, got {type(name).__name__}")
        if not isinstance(learning_rate, (int, float)) or isinstance(learning_rate, bool):
            raise TypeError(f"ParamAttr: learning_rate must be a number, got {type(learning_rate).__name__}")
        for field, v in (("trainable", trainable), ("do_model_average", do_model_average), ("need_clip", need_clip)):
            if not isinstance(v, bool):
                raise TypeError(f"ParamAttr: {field} must be a bool, got {type(v).__name__}")
        self.name, self.initializer, self.learning_rate = name, initializer, float(learning_rate)
        self.regularizer, self.trainable = regularizer, trainable
        self.do_model_average, self.need_clip = do_model_average, need_clip

    def _info(self, name: str | None) -> ParamInfo:
        return ParamInfo(self.name or name, self.trainable, self.learning_rate, self.regularizer,
                         self.need_clip, self.do_model_average)

    def __repr__(self) -> str:
        return (f"ParamAttr(name={self.name!r}, initializer={self.initializer!r}, learning_rate="
                f"{self.learning_rate}, regularizer={self.regularizer!r}, trainable={self.trainable}, "
                f"need_clip={self.need_clip})")

    @staticmethod
    def _to_attr(arg: Any) -> "ParamAttr | bool":
        """Paddle's accepted forms: None, a ParamAttr, a name, an initializer, a regularizer, or False (none)."""
        if arg is None or arg is True:
            return ParamAttr()
        if arg is False:
            return False
        if isinstance(arg, ParamAttr):
            return arg
        if isinstance(arg, str):
            return ParamAttr(name=arg)
        if isinstance(arg, _Initializer):
            return ParamAttr(initializer=arg)
        if hasattr(arg, "coeff"):  # a weight-decay regularizer (L1Decay/L2Decay-like)
            return ParamAttr(regularizer=arg)
        raise TypeError(f"cannot use a {type(arg).__name__} as a parameter attribute; pass a padax.ParamAttr, "
                        "a name, an initializer, or False for no parameter")
