"""Paddle's quanter and observer bases and factories (`paddle.quantization.BaseQuanter`, `BaseObserver`,
`quanter`): a factory holds a quanter class and its arguments; `QuantConfig` makes one instance per layer."""
from __future__ import annotations

import abc
import sys
from typing import Any, Callable

from padax import nn

__all__ = ["BaseObserver", "BaseQuanter", "ObserverFactory", "QuanterFactory", "quanter"]


class BaseQuanter(nn.Layer, metaclass=abc.ABCMeta):
    """A layer that simulates (or observes for) quantization of what passes through it.

    Subclasses implement `forward`, `scales`, `zero_points`, `quant_axis` and `bit_length`.

    Examples:
        >>> import padax
        >>> q = padax.quantization.quanters.FakeQuanterWithAbsMaxObserver()._instance(None)
        >>> isinstance(q, padax.quantization.BaseQuanter), q.bit_length(), q.quant_axis()
        (True, 8, -1)
    """

    @abc.abstractmethod
    def forward(self, input: Any) -> Any:
        """The input, fake-quantized (quanters) or unchanged (observers)."""

    @abc.abstractmethod
    def scales(self) -> Any:
        """The abs-max scale(s) (None when not known yet)."""

    @abc.abstractmethod
    def zero_points(self) -> Any:
        """The zero points (None or zeros: padax's quantization is symmetric)."""

    @abc.abstractmethod
    def quant_axis(self) -> Any:
        """The channel axis of per-channel scales; -1 for one scale per tensor."""

    @abc.abstractmethod
    def bit_length(self) -> Any:
        """The number of bits of the quantized integers."""


class BaseObserver(BaseQuanter, metaclass=abc.ABCMeta):
    """A quanter that only watches (forward returns its input) and computes scales from what it saw."""

    @abc.abstractmethod
    def cal_thresholds(self) -> None:
        """Compute the scales from the statistics collected."""


class QuanterFactory:
    """A quanter class with the arguments to build one per quantized layer (Paddle's QuanterFactory).

    Args:
        *args, **kwargs: the quanter's arguments after the layer.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._args = args
        self._kwargs = kwargs

    @property
    def args(self) -> tuple:
        return self._args

    @property
    def kwargs(self) -> dict:
        return self._kwargs

    def _get_class(self) -> type:
        raise NotImplementedError

    def _instance(self, layer: Any) -> BaseQuanter:
        """A new quanter for `layer`."""
        return self._get_class()(layer, *self._args, **self._kwargs)

    def __repr__(self) -> str:
        parts = [repr(a) for a in self._args] + [f"{k}={v!r}" for k, v in self._kwargs.items()]
        return f"{type(self).__name__}({', '.join(parts)})"


ObserverFactory = QuanterFactory


def quanter(class_name: str) -> Callable[[type], type]:
    """Declare a factory named `class_name` for a quanter layer class (Paddle's `paddle.quantization.quanter`);
    the factory is added to the class's module.

    Args:
        class_name: the factory's name.

    Returns:
        A class decorator (the class is returned unchanged).

    Examples:
        >>> import padax
        >>> from padax.quantization import BaseQuanter, quanter
        >>> @quanter("Halver")
        ... class HalverLayer(BaseQuanter):
        ...     def __init__(self, layer, factor=0.5):
        ...         super().__init__()
        ...         self.factor = factor
        ...     def forward(self, x): return x * self.factor
        ...     def scales(self): return None
        ...     def zero_points(self): return None
        ...     def quant_axis(self): return -1
        ...     def bit_length(self): return 8
        >>> Halver(factor=0.25)._instance(None)(padax.to_tensor([4.0])).tolist()
        [1.0]
    """
    def wrap(target: type) -> type:
        factory = type(class_name, (QuanterFactory,), {"_get_class": lambda self: target,
                                                       "__module__": target.__module__,
                                                       "__doc__": f"The factory of {target.__name__}."})
        module = sys.modules.get(target.__module__)
        if module is not None:
            setattr(module, class_name, factory)
        frame_globals = sys._getframe(1).f_globals
        frame_globals.setdefault(class_name, factory)
        return target
    return wrap

