"""Observers (Paddle's `paddle.quantization.observers`): layers that pass their input through and record the
abs-max statistics that become quantization scales (post-training quantization calibrates with them).

Each name is a factory (`AbsmaxObserver(quant_bits=8)`) given to `QuantConfig`; the layer it builds for a
quantized layer is `<Name>Layer`. Statistics are buffers updated in `forward` (in place eagerly; carried
back by `padax.jit` when the model is an argument).
"""
from __future__ import annotations

from typing import Any

import padax
from padax import nn
from padax.quantization import _math
from padax.quantization.base import BaseObserver, QuanterFactory

__all__ = ["AbsMaxChannelWiseWeightObserver", "AbsmaxObserver", "GroupWiseWeightObserver",
           "MovingAverageAbsmaxObserver"]


def weight_axis(layer: Any) -> int:
    """The output-channel axis of a layer's weight: 1 for Linear ([in, out]), 0 for convolutions ([out, ...])."""
    return 1 if isinstance(layer, nn.Linear) or type(layer).__name__ == "QuantedLinear" else 0


class _Observer(BaseObserver):
    """What the abs-max observers share: `_quant_bits`, symmetric (zero) zero points, one scale per tensor
    unless `_axis` says otherwise, and scales held in the buffer named by `_scale_buffer`."""

    _scale_buffer = "_max"
    _axis = -1

    def cal_thresholds(self) -> None:
        pass

    def scales(self) -> Any:
        return getattr(self, self._scale_buffer)

    def zero_points(self) -> Any:
        s = self.scales()
        return None if s is None else padax.zeros_like(s)

    def quant_axis(self) -> int:
        return self._axis

    def bit_length(self) -> int:
        return self._quant_bits


class AbsmaxObserver(QuanterFactory):
    """Per-tensor abs-max: the scale is the largest |x| seen (Paddle's AbsmaxObserver).

    Args:
        quant_bits: the bits of the quantized integers.

    Examples:
        >>> import padax
        >>> obs = padax.quantization.observers.AbsmaxObserver()._instance(None)
        >>> _ = obs(padax.to_tensor([1.0, -3.0])); _ = obs(padax.to_tensor([2.0]))
        >>> obs.scales().item()
        3.0
    """

    def __init__(self, quant_bits: int = 8):
        super().__init__(quant_bits=quant_bits)

    def _get_class(self) -> type:
        return AbsmaxObserverLayer


class AbsmaxObserverLayer(_Observer):
    """The layer of AbsmaxObserver: `_max` is the running max of |x|.

    Args:
        layer: the layer observed (unused).
        quant_bits: the bits of the quantized integers.
    """

    def __init__(self, layer: Any, quant_bits: int = 8):
        super().__init__()
        self._quant_bits = int(quant_bits)
        self.register_buffer("_max", padax.zeros([], "float32"))

    def forward(self, input: Any) -> Any:
        self._max = padax.maximum(self._max, padax.max(padax.abs(input)).astype("float32"))
        return input


class AbsMaxChannelWiseWeightObserver(QuanterFactory):
    """Per-channel abs-max of a weight, one scale per output channel (axis 1 of a Linear weight, axis 0 of
    a convolution's), as PaddleSlim's observer of that name.

    Args:
        quant_bits: the bits of the quantized integers.

    Examples:
        >>> import padax
        >>> fc = padax.nn.Linear(2, 3)
        >>> obs = padax.quantization.observers.AbsMaxChannelWiseWeightObserver()._instance(fc)
        >>> _ = obs(padax.to_tensor([[1.0, -4.0, 0.5], [-2.0, 1.0, 0.25]]))
        >>> obs.scales().tolist(), obs.quant_axis()
        ([2.0, 4.0, 0.5], 1)
    """

    def __init__(self, quant_bits: int = 8):
        super().__init__(quant_bits=quant_bits)

    def _get_class(self) -> type:
        return AbsMaxChannelWiseWeightObserverLayer


class AbsMaxChannelWiseWeightObserverLayer(_Observer):
    """The layer of AbsMaxChannelWiseWeightObserver: `_max` holds max|w| per output channel.

    Args:
        layer: the layer whose weight is observed (it gives the channel axis and count).
        quant_bits: the bits of the quantized integers.
    """

    def __init__(self, layer: Any, quant_bits: int = 8):
        super().__init__()
        self._quant_bits = int(quant_bits)
        self._axis = weight_axis(layer)
        w = getattr(layer, "weight", None)
        channels = int(w.shape[self._axis]) if w is not None else 1
        self.register_buffer("_max", padax.zeros([channels], "float32"))

    def forward(self, input: Any) -> Any:
        m = _math.channel_scale(input, self._axis).astype("float32")
        self._max = padax.maximum(self._max, m) if self._max.shape == m.shape else m
        return input


class MovingAverageAbsmaxObserver(QuanterFactory):
    """Moving-average abs-max: `state = rate * state + 1; accum = rate * accum + max|x|; scale = accum / state`
    (state and accum start at 1, as in Paddle's moving-average quanter), without fake quantization.

    Args:
        moving_rate: the decay rate.
        quant_bits: the bits of the quantized integers.

    Examples:
        >>> import padax
        >>> obs = padax.quantization.observers.MovingAverageAbsmaxObserver(0.5)._instance(None)
        >>> _ = obs(padax.to_tensor([3.0]))
        >>> round(obs.scales().item(), 4)   # (0.5 * 1 + 3) / (0.5 * 1 + 1)
        2.3333
    """

    def __init__(self, moving_rate: float = 0.9, quant_bits: int = 8):
        super().__init__(moving_rate=moving_rate, quant_bits=quant_bits)

    def _get_class(self) -> type:
        return MovingAverageAbsmaxObserverLayer


class MovingAverageAbsmaxObserverLayer(_Observer):
    """The layer of MovingAverageAbsmaxObserver (buffers `_state`, `_accum`, `_scale`).

    Args:
        layer: the layer observed (unused).
        moving_rate: the decay rate.
        quant_bits: the bits of the quantized integers.
    """

    _scale_buffer = "_scale"

    def __init__(self, layer: Any, moving_rate: float = 0.9, quant_bits: int = 8):
        super().__init__()
        self._moving_rate = float(moving_rate)
        self._quant_bits = int(quant_bits)
        self.register_buffer("_state", padax.ones([1], "float32"))
        self.register_buffer("_accum", padax.ones([1], "float32"))
        self.register_buffer("_scale", padax.full([1], 0.001, "float32"))

    def forward(self, input: Any) -> Any:
        r = self._moving_rate
        self._state = r * self._state + 1.0
        self._accum = r * self._accum + padax.max(padax.abs(input)).astype("float32")
        self._scale = self._accum / self._state
        return input


class GroupWiseWeightObserver(QuanterFactory):
    """Group-wise abs-max of a 2-D weight [in, out]: one scale per `group_size` rows and column, shape
    [in / group_size, out] (Paddle's GroupWiseWeightObserver; zeros become 1e-8).

    Args:
        quant_bits: the bits of the quantized integers.
        group_size: 64 or 128.

    Examples:
        >>> import padax
        >>> obs = padax.quantization.observers.GroupWiseWeightObserver(group_size=64)._instance(None)
        >>> _ = obs(padax.ones([128, 3]))
        >>> obs.scales().shape
        (2, 3)
    """

    def __init__(self, quant_bits: int = 8, group_size: int = 128):
        super().__init__(quant_bits=quant_bits, group_size=group_size)

    def _get_class(self) -> type:
        return GroupWiseWeightObserverLayer


class GroupWiseWeightObserverLayer(_Observer):
    """The layer of GroupWiseWeightObserver.

    Args:
        layer: the layer observed (unused).
        quant_bits: the bits of the quantized integers.
        group_size: 64 or 128.
    """

    def __init__(self, layer: Any, quant_bits: int = 8, group_size: int = 128):
        super().__init__()
        if group_size not in (64, 128):
            raise ValueError(f"GroupWiseWeightObserver: group_size must be 64 or 128, got {group_size}")
        self._quant_bits, self.group_size = int(quant_bits), int(group_size)
        self.register_buffer("_max", None)

    def forward(self, input: Any) -> Any:
        if input.ndim != 2 or input.shape[0] % self.group_size:
            raise ValueError(f"GroupWiseWeightObserver: expected a 2-D weight whose rows divide into groups of "
                             f"{self.group_size}, got shape {list(input.shape)}")
        k, n = input.shape
        g = padax.max(padax.abs(padax.reshape(input, [k // self.group_size, self.group_size, n])), axis=1)
        g = g.astype("float32")
        self._max = padax.where(g == 0, padax.full_like(g, 1e-8), g)
        return input
