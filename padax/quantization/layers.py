"""The layers quantization puts into a model.

Before conversion (Paddle's names): `QuantedLinear` / `QuantedConv2D` run the float layer on
fake-quantized input and weight (their `activation_quanter` and `weight_quanter`); `ObserveWrapper` puts an
observer in front of a layer such as ReLU.

After `convert` (padax's int8 inference layers): `QuantizedLinear` / `QuantizedConv2D` hold the weight as
int8 with float32 scales, quantize the input to int8 with the calibrated activation scale, and multiply
int8 x int8 with an int32 accumulator (`lax.dot_general` / `lax.conv_general_dilated` with
`preferred_element_type=int32`), then rescale: `y = acc * (s_x / 127) * (s_w / 127) + bias`. (On CPU a
convolution whose integer sums are exact in float32 runs on those integers in float32, with the same result:
XLA's CPU backend has no fast int8 convolution; see INT8_CONV_CPU_FLOAT32.) A layer
whose activation was not quantized keeps int8 weights and dequantizes them (weight-only).
`LinearQuanterDequanter` replaces a bare observer: fake quantization with the stored scale.
"""
from __future__ import annotations

from typing import Any

import numpy as np

import padax
from padax import lax, nn
from padax.nn import functional as F
from padax.nn.functional._util import explicit_padding, same_pads, static_ints
from padax.quantization import _math
from padax.quantization.base import BaseQuanter

__all__ = ["LinearQuanterDequanter", "ObserveWrapper", "QuantedConv2D", "QuantedLinear", "QuantizedConv2D",
           "QuantizedLinear"]


class ObserveWrapper(nn.Layer):
    """An observer (or quanter) and the layer it watches (Paddle's ObserveWrapper).

    Args:
        observer: the quanter or observer layer.
        observed: the layer.
        observe_input: observe the input (True) or the output (False).
    """

    def __init__(self, observer: BaseQuanter, observed: nn.Layer, observe_input: bool = True):
        super().__init__()
        self._observer = observer
        self._observed = observed
        self._observe_input = bool(observe_input)

    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        if self._observe_input:
            return self._observed(self._observer(*inputs), **kwargs)
        return self._observer(self._observed(*inputs, **kwargs))


def _share_params(dst: nn.Layer, src: nn.Layer, *names: str) -> None:
    """Register src's parameters `names` on dst, metadata (trainable, name) included."""
    for name in names:
        value = src.__dict__["_parameters"].get(name)
        if value is None:
            object.__setattr__(dst, name, None)
            continue
        dst.add_parameter(name, value)
        dst.__dict__["_param_info"][name] = src.__dict__["_param_info"][name]


def _quanters(layer: nn.Layer, q_config: Any) -> tuple[Any, Any]:
    w = None if q_config is None or q_config.weight is None else q_config.weight._instance(layer)
    a = None if q_config is None or q_config.activation is None else q_config.activation._instance(layer)
    return w, a


class QuantedLinear(nn.Layer):
    """Linear on fake-quantized input and weight (Paddle's `paddle.nn.quant.qat.QuantedLinear`).

    Args:
        layer: the Linear to quantize (its weight and bias are shared).
        q_config: the layer's config (activation and weight factories).
    """

    def __init__(self, layer: nn.Linear, q_config: Any):
        super().__init__()
        _share_params(self, layer, "weight", "bias")
        self.weight_quanter, self.activation_quanter = _quanters(layer, q_config)

    def forward(self, input: Any) -> Any:
        x = self.activation_quanter(input) if self.activation_quanter is not None else input
        w = self.weight_quanter(self.weight) if self.weight_quanter is not None else self.weight
        return F.linear(x, w, self.bias)

    def weights_to_quanters(self) -> list[tuple[str, str]]:
        return [("weight", "weight_quanter")]

    def activation_quanters(self) -> list[str]:
        return ["activation_quanter"]


class QuantedConv2D(nn.Layer):
    """Conv2D on fake-quantized input and weight (Paddle's `paddle.nn.quant.qat.QuantedConv2D`).

    Args:
        layer: the Conv2D to quantize (its weight, bias and settings are used).
        q_config: the layer's config.
    """

    def __init__(self, layer: nn.Conv2D, q_config: Any):
        super().__init__()
        _share_params(self, layer, "weight", "bias")
        self._stride, self._padding, self._dilation = layer._stride, layer._padding, layer._dilation
        self._groups, self._data_format = layer._groups, layer._data_format
        self._padding_mode = layer._padding_mode
        self.weight_quanter, self.activation_quanter = _quanters(layer, q_config)

    def _pad(self, x: Any) -> tuple[Any, Any]:
        if self._padding_mode == "zeros":
            return x, self._padding
        pads = [int(self._padding)] * 4
        return F.pad(x, pads, mode=self._padding_mode, data_format=self._data_format), 0

    def forward(self, input: Any) -> Any:
        x, padding = self._pad(input)
        x = self.activation_quanter(x) if self.activation_quanter is not None else x
        w = self.weight_quanter(self.weight) if self.weight_quanter is not None else self.weight
        return F.conv2d(x, w, self.bias, stride=self._stride, padding=padding, dilation=self._dilation,
                        groups=self._groups, data_format=self._data_format)

    def weights_to_quanters(self) -> list[tuple[str, str]]:
        return [("weight", "weight_quanter")]

    def activation_quanters(self) -> list[str]:
        return ["activation_quanter"]


class LinearQuanterDequanter(nn.Layer):
    """Fake quantization with a fixed scale: what a bare observer becomes after `convert`.

    Args:
        scales: the abs-max scale(s).
        bit_length: the bits of the quantized integers.
        quant_axis: the channel axis of per-channel scales (-1 or None: one scale).
    """

    def __init__(self, scales: Any, bit_length: int = 8, quant_axis: int | None = None):
        super().__init__()
        self.register_buffer("_scales", padax.to_tensor(scales, dtype="float32"))
        self._bit_length = int(bit_length)
        self._quant_axis = None if quant_axis in (None, -1) else int(quant_axis)

    @staticmethod
    def from_quanter(quanter: BaseQuanter) -> "LinearQuanterDequanter":
        """The fixed fake quantization of what `quanter` calibrated."""
        return LinearQuanterDequanter(quanter.scales(), quanter.bit_length(), quanter.quant_axis())

    def forward(self, input: Any) -> Any:
        return _math.fake_quant(input, self._scales, self._bit_length, self._quant_axis)


def _int_weight(w: Any, scale: Any, bits: int, axis: int | None) -> Any:
    return _math.quantize(w.astype("float32"), scale, bits, axis).astype("int8")


def _scale_of(quanter: Any, what: str, layer: str) -> Any:
    s = quanter.scales()
    if s is None:
        raise ValueError(f"padax.quantization convert: the {what} quanter of {layer} has no scale yet; run "
                         "calibration data through the model (PTQ) or train it (QAT) before convert")
    return padax.to_tensor(s, dtype="float32")


class _Quantized(nn.Layer):
    """Common parts of the int8 layers: int8 `weight`, `weight_scale`, optional `activation_scale`."""

    def _setup(self, quanted: Any, name: str) -> None:
        wq, aq = quanted.weight_quanter, quanted.activation_quanter
        if wq is None:
            raise ValueError(f"padax.quantization convert: {name} has no weight quanter")
        bits = int(wq.bit_length())
        if bits > 8:
            raise ValueError(f"padax.quantization convert: {name}: int8 layers hold at most 8 bits, got {bits}")
        axis = wq.quant_axis()
        axis = None if axis in (None, -1) else int(axis)
        w_scale = _scale_of(wq, "weight", name)
        if axis is None:
            w_scale = padax.reshape(w_scale, [])
        self._weight_bits, self._weight_axis = bits, axis
        self.register_buffer("weight", _int_weight(quanted.weight, w_scale, bits, axis))
        self.register_buffer("weight_scale", w_scale)
        _share_params(self, quanted, "bias")
        if aq is not None:
            a_bits = int(aq.bit_length())
            if a_bits > 8:
                raise ValueError(f"padax.quantization convert: {name}: activations of at most 8 bits, got {a_bits}")
            self._act_bits = a_bits
            self.register_buffer("activation_scale", padax.reshape(_scale_of(aq, "activation", name), []))
        else:
            self._act_bits = 0

    def _dequantized_weight(self, dtype: Any) -> Any:
        s = _math.broadcast_scale(self.weight_scale, self.weight.ndim, self._weight_axis)
        return self.weight.astype(dtype) * (s / _math.qmax(self._weight_bits)).astype(dtype)

    def _int_input(self, x: Any) -> Any:
        return _math.quantize(x, self.activation_scale, self._act_bits).astype("int8")

    def _rescale(self) -> Any:
        return (self.activation_scale / _math.qmax(self._act_bits)) * (self.weight_scale / _math.qmax(
            self._weight_bits))


class QuantizedLinear(_Quantized):
    """An int8 Linear: int8 weight [in, out] with per-tensor or per-output-channel float32 scales; the input
    is quantized to int8 with `activation_scale` and multiplied with an int32 accumulator.

    Args:
        quanted: the calibrated or trained QuantedLinear.
    """

    def __init__(self, quanted: QuantedLinear):
        super().__init__()
        self._setup(quanted, "QuantedLinear")

    def forward(self, input: Any) -> Any:
        if not self._act_bits:
            return F.linear(input, self._dequantized_weight(input.dtype), self.bias)
        xq = self._int_input(input)
        acc = lax.dot_general(xq, self.weight, (((xq.ndim - 1,), (0,)), ((), ())),
                              preferred_element_type=padax.int32)
        y = acc.astype(input.dtype) * self._rescale().astype(input.dtype)
        return y if self.bias is None else y + self.bias.astype(input.dtype)

    def extra_repr(self) -> str:
        return f"in_features={self.weight.shape[0]}, out_features={self.weight.shape[1]}, dtype=int8"


INT8_CONV_CPU_FLOAT32 = True
"""On CPU, run a QuantizedConv2D's int8 x int8 convolution on the same integer values in float32 when every
sum is exact there (kernel volume * 127 * 127 < 2**24): bit-identical to the int32 accumulator, and XLA's
CPU backend has no fast int8 convolution. Set False to always use the int32-accumulating int8 convolution."""


def _exact_in_float32(layer: Any) -> bool:
    k = int(np.prod(layer.weight.shape[1:]))
    bound = k * _math.qmax(layer._act_bits) * _math.qmax(layer._weight_bits)
    return INT8_CONV_CPU_FLOAT32 and bound < 2 ** 24 and padax.default_backend() == "cpu"


class QuantizedConv2D(_Quantized):
    """An int8 Conv2D: int8 weight [out, in/groups, kh, kw] with per-tensor or per-output-channel scales; the
    input is quantized to int8 and convolved with an int32 accumulator.

    Args:
        quanted: the calibrated or trained QuantedConv2D.
    """

    def __init__(self, quanted: QuantedConv2D):
        super().__init__()
        self._setup(quanted, "QuantedConv2D")
        self._stride, self._padding, self._dilation = quanted._stride, quanted._padding, quanted._dilation
        self._groups, self._data_format = quanted._groups, quanted._data_format
        self._padding_mode = quanted._padding_mode

    def forward(self, input: Any) -> Any:
        x, padding = QuantedConv2D._pad(self, input)
        last = self._data_format == "NHWC"
        if not self._act_bits:
            return F.conv2d(x, self._dequantized_weight(x.dtype), self.bias, stride=self._stride, padding=padding,
                            dilation=self._dilation, groups=self._groups, data_format=self._data_format)
        op = "QuantizedConv2D"
        strides = static_ints(op, self._stride, 2, "stride", minimum=1)
        dilations = static_ints(op, self._dilation, 2, "dilation", minimum=1)
        mode, pads = explicit_padding(op, padding, 2, last)
        if mode == "SAME":
            sizes = x.shape[1:3] if last else x.shape[2:]
            pads, dilations = same_pads(sizes, self.weight.shape[2:], strides), (1, 1)
        dn = ("NHWC", "OIHW", "NHWC") if last else ("NCHW", "OIHW", "NCHW")
        xq = self._int_input(x)
        if _exact_in_float32(self):  # XLA's CPU int8 convolution is a slow loop: the same integers, faster
            acc = lax.conv_general_dilated(xq.astype("float32"), self.weight.astype("float32"), strides, pads,
                                           rhs_dilation=dilations, dimension_numbers=dn,
                                           feature_group_count=self._groups)
        else:
            acc = lax.conv_general_dilated(xq, self.weight, strides, pads, rhs_dilation=dilations,
                                           dimension_numbers=dn, feature_group_count=self._groups,
                                           preferred_element_type=padax.int32)
        shape = [1, 1, 1, -1] if last else [1, -1, 1, 1]
        scale = padax.reshape(padax.broadcast_to(self._rescale(), [self.weight.shape[0]]), shape)
        y = acc.astype(x.dtype) * scale.astype(x.dtype)
        return y if self.bias is None else y + padax.reshape(self.bias.astype(x.dtype), shape)

    def extra_repr(self) -> str:
        return f"{self.weight.shape[1] * self._groups}, {self.weight.shape[0]}, dtype=int8"
