"""Quanters (Paddle's `paddle.quantization.quanters`): layers that fake-quantize what passes through them for
quantization-aware training, with straight-through-estimator gradients.

Formulas (Paddle's): `range = 2**(bit_length - 1) - 1`,
`out = round(clip(x, -s, s) / s * range) * s / range` (round ties away from zero); the gradient of `out`
with respect to `x` is the identity.
"""
from __future__ import annotations

from typing import Any

import padax
from padax.nn.initializer import Constant
from padax.quantization import _math
from padax.quantization.base import BaseQuanter, QuanterFactory
from padax.quantization.observers import weight_axis

__all__ = ["FakeQuanterChannelWiseAbsMaxObserver", "FakeQuanterWithAbsMaxObserver"]


class FakeQuanterWithAbsMaxObserver(QuanterFactory):
    """Fake quantization with a moving-average abs-max scale (Paddle's FakeQuanterWithAbsMaxObserver).

    In training: `state = rate * state + 1`, `accum = rate * accum + max|x|`, `scale = accum / state`, then
    x is fake-quantized with the new scale; in eval the stored scale is used. State and accum start at 1,
    the scale at 0.001, as in Paddle.

    Args:
        moving_rate: the moving-average rate.
        bit_length: the bits of the quantized integers.
        dtype: the dtype of the scale, state and accumulator.
        name: a name prefix (Paddle's; unused).

    Examples:
        >>> import padax
        >>> q = padax.quantization.quanters.FakeQuanterWithAbsMaxObserver(moving_rate=0.9)._instance(None)
        >>> out = q(padax.to_tensor([0.5, -1.0]))
        >>> round(q.scales().item(), 5)      # (0.9 * 1 + 1.0) / (0.9 * 1 + 1)
        1.0
        >>> [round(v, 4) for v in out.tolist()]
        [0.5039, -1.0]
    """

    def __init__(self, moving_rate: float = 0.9, bit_length: int = 8, dtype: str = "float32",
                 name: str | None = None):
        super().__init__(name=name, moving_rate=moving_rate, bit_length=bit_length, dtype=dtype)

    def _get_class(self) -> type:
        return FakeQuanterWithAbsMaxObserverLayer


def _frozen(layer: Any, value: float, dtype: str) -> Any:
    return layer.create_parameter([1], attr=padax.ParamAttr(initializer=Constant(value), trainable=False),
                                  dtype=dtype)


class FakeQuanterWithAbsMaxObserverLayer(BaseQuanter):
    """The layer of FakeQuanterWithAbsMaxObserver: frozen parameters `_scale`, `_state`, `_accum`.

    Args:
        layer: the layer quantized (unused).
        name: a name prefix (unused).
        moving_rate: the moving-average rate.
        bit_length: the bits of the quantized integers.
        dtype: the dtype of the scale, state and accumulator.
    """

    def __init__(self, layer: Any, name: str | None = None, moving_rate: float = 0.9, bit_length: int = 8,
                 dtype: str = "float32"):
        super().__init__()
        self._moving_rate = float(moving_rate)
        self._bit_length = int(bit_length)
        self._scale = _frozen(self, 0.001, dtype)
        self._state = _frozen(self, 1.0, dtype)
        self._accum = _frozen(self, 1.0, dtype)

    def forward(self, input: Any) -> Any:
        if self.training:
            r = self._moving_rate
            self._state = r * self._state + 1.0
            self._accum = r * self._accum + padax.max(padax.abs(input)).astype(self._accum.dtype)
            self._scale = self._accum / self._state
        return _math.fake_quant(input, self._scale, self._bit_length)

    def scales(self) -> Any:
        return self._scale

    def zero_points(self) -> Any:
        return None

    def quant_axis(self) -> int:
        return -1

    def bit_length(self) -> int:
        return self._bit_length


class FakeQuanterChannelWiseAbsMaxObserver(QuanterFactory):
    """Fake quantization of weights with one abs-max scale per output channel, recomputed at every call
    (Paddle's channel-wise abs-max fake quantization: FakeQuantChannelWiseAbsMax).

    Args:
        bit_length: the bits of the quantized integers.
        dtype: the dtype of the scales.
        name: a name prefix (unused).
        quant_axis: the channel axis; by default 1 for a Linear weight, 0 for a convolution's.

    Examples:
        >>> import padax
        >>> fc = padax.nn.Linear(2, 2)
        >>> q = padax.quantization.quanters.FakeQuanterChannelWiseAbsMaxObserver()._instance(fc)
        >>> w = padax.to_tensor([[1.0, 0.01], [-0.5, 0.02]])
        >>> [[round(v, 5) for v in row] for row in q(w).tolist()]   # 0.01 / 0.02 * 127 = 63.5 rounds to 64
        [[1.0, 0.01008], [-0.50394, 0.02]]
        >>> [round(v, 5) for v in q.scales().tolist()]
        [1.0, 0.02]
    """

    def __init__(self, bit_length: int = 8, dtype: str = "float32", name: str | None = None,
                 quant_axis: int | None = None):
        super().__init__(name=name, bit_length=bit_length, dtype=dtype, quant_axis=quant_axis)

    def _get_class(self) -> type:
        return FakeQuanterChannelWiseAbsMaxObserverLayer


class FakeQuanterChannelWiseAbsMaxObserverLayer(BaseQuanter):
    """The layer of FakeQuanterChannelWiseAbsMaxObserver: the buffer `_scale` holds the last scales.

    Args:
        layer: the layer whose weight is quantized (gives the channel axis and count).
        name: a name prefix (unused).
        bit_length: the bits of the quantized integers.
        dtype: the dtype of the scales.
        quant_axis: the channel axis (None: from the layer).
    """

    def __init__(self, layer: Any, name: str | None = None, bit_length: int = 8, dtype: str = "float32",
                 quant_axis: int | None = None):
        super().__init__()
        self._bit_length = int(bit_length)
        self._axis = weight_axis(layer) if quant_axis is None else int(quant_axis)
        w = getattr(layer, "weight", None)
        channels = int(w.shape[self._axis]) if w is not None else 1
        self.register_buffer("_scale", padax.zeros([channels], dtype))

    def forward(self, input: Any) -> Any:
        scale = padax.stop_gradient(_math.channel_scale(input, self._axis)).astype(self._scale.dtype)
        self._scale = scale
        return _math.fake_quant(input, scale, self._bit_length, self._axis)

    def scales(self) -> Any:
        return self._scale

    def zero_points(self) -> Any:
        return None

    def quant_axis(self) -> int:
        return self._axis

    def bit_length(self) -> int:
        return self._bit_length
