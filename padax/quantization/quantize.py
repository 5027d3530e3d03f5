"""`PTQ` and `QAT` (Paddle's `paddle.quantization.PTQ` / `QAT`): prepare a model copy with quanters or
observers, then `convert` it to int8 inference layers.

    q_model = PTQ(config).quantize(model)          # observers in; the model must be in eval mode
    for x in calibration_batches: q_model(x)       # collect abs-max statistics
    int8_model = ptq.convert(q_model)              # QuantizedLinear / QuantizedConv2D: int8 weights + scales

QAT is the same with fake quanters in a training-mode model, trained as usual (straight-through gradients).
"""
from __future__ import annotations

import copy

from padax import nn
from padax.quantization.base import BaseQuanter
from padax.quantization.config import QuantConfig
from padax.quantization.layers import (
    LinearQuanterDequanter,
    QuantedConv2D,
    QuantedLinear,
    QuantizedConv2D,
    QuantizedLinear,
)

__all__ = ["PTQ", "QAT", "Quantization"]

_CONVERTED = {QuantedLinear: QuantizedLinear, QuantedConv2D: QuantizedConv2D}


class Quantization:
    """The common part of PTQ and QAT: a copy of the config, and `convert`.

    Args:
        config: the QuantConfig.
    """

    def __init__(self, config: QuantConfig):
        if not isinstance(config, QuantConfig):
            raise TypeError(f"padax.quantization: expected a QuantConfig, got {type(config).__name__}")
        self._config = copy.deepcopy(config)

    def quantize(self, model: nn.Layer, inplace: bool = False) -> nn.Layer:
        raise NotImplementedError

    def convert(self, model: nn.Layer, inplace: bool = False, remain_weight: bool = False) -> nn.Layer:
        """The model with each QuantedLinear / QuantedConv2D replaced by its int8 layer (int8 weights, float32
        scales, int8 x int8 -> int32 compute where the activation was quantized) and each bare quanter by a
        fixed fake quantization.

        Args:
            model: the calibrated (PTQ) or trained (QAT) model from `quantize`.
            inplace: change `model` itself instead of a copy.
            remain_weight: keep the QuantedLinear / QuantedConv2D float layers (simulated quantization only).

        Returns:
            The converted model, in eval mode.
        """
        out = model if inplace else copy.deepcopy(model)
        self._convert(out, remain_weight)
        return out.eval()

    def _convert(self, layer: nn.Layer, remain_weight: bool) -> None:
        subs = layer.__dict__["_sub_layers"]
        for name, child in list(subs.items()):
            if child is None:
                continue
            target = _CONVERTED.get(type(child))
            if target is not None and child.weight_quanter is not None and not remain_weight:
                setattr(layer, name, target(child))  # keeps its place among the sublayers
            elif isinstance(child, BaseQuanter):
                if child.scales() is not None:
                    setattr(layer, name, LinearQuanterDequanter.from_quanter(child))
            else:
                self._convert(child, remain_weight)

    def _convert_to_quant_layers(self, model: nn.Layer, config: QuantConfig) -> None:
        subs = model.__dict__["_sub_layers"]
        for name, child in list(subs.items()):
            if child is None:
                continue
            if config._is_quantifiable(child) and type(child) in config.qat_layer_mappings:
                setattr(model, name, config._get_qat_layer(child))
            else:
                self._convert_to_quant_layers(child, config)

    def _insert_activation_observers(self, model: nn.Layer, config: QuantConfig) -> None:
        mapped = set(config.qat_layer_mappings.values())
        subs = model.__dict__["_sub_layers"]
        for name, child in list(subs.items()):
            if child is None:
                continue
            if config._need_observe(child):
                setattr(model, name, config._get_observe_wrapper(child))
            elif type(child) not in mapped:
                self._insert_activation_observers(child, config)

    def _prepare(self, model: nn.Layer) -> nn.Layer:
        self._config._specify(model)
        self._convert_to_quant_layers(model, self._config)
        self._insert_activation_observers(model, self._config)
        return model

    def __repr__(self) -> str:
        return self._config.details()


class PTQ(Quantization):
    """Post-training quantization: observers collect abs-max statistics on calibration data (Paddle's PTQ).

    Args:
        config: the QuantConfig (observers, e.g. AbsmaxObserver, as its factories).

    Examples:
        >>> import padax
        >>> from padax.quantization import PTQ, QuantConfig
        >>> from padax.quantization.observers import AbsmaxObserver, AbsMaxChannelWiseWeightObserver
        >>> _ = padax.seed(0)
        >>> model = padax.nn.Sequential(padax.nn.Linear(4, 8), padax.nn.ReLU(), padax.nn.Linear(8, 2)).eval()
        >>> ptq = PTQ(QuantConfig(activation=AbsmaxObserver(), weight=AbsMaxChannelWiseWeightObserver()))
        >>> q = ptq.quantize(model)
        >>> x = padax.randn([16, 4])
        >>> _ = q(x)                                   # calibrate
        >>> int8 = ptq.convert(q)
        >>> int8.state_dict()["0.weight"].dtype.name, type(int8[0]).__name__
        ('int8', 'QuantizedLinear')
        >>> bool(padax.abs(int8(x) - model(x)).max() < 0.05)
        True
    """

    def quantize(self, model: nn.Layer, inplace: bool = False) -> nn.Layer:
        """A copy of `model` (or the model itself, inplace=True) with observers inserted.

        Args:
            model: the float model, in eval mode.
            inplace: change `model` itself.

        Returns:
            The model to calibrate (run data through it), then `convert`.
        """
        if model.training:
            raise ValueError("padax.quantization.PTQ.quantize: post-training quantization works on a model in "
                             "evaluation mode; call model.eval() first")
        out = model if inplace else copy.deepcopy(model)
        return self._prepare(out.eval())


class QAT(Quantization):
    """Quantization-aware training: fake quanters in the model, trained with straight-through gradients
    (Paddle's QAT).

    Args:
        config: the QuantConfig (quanters, e.g. FakeQuanterWithAbsMaxObserver, as its factories).

    Examples:
        >>> import padax
        >>> from padax.quantization import QAT, QuantConfig
        >>> from padax.quantization.quanters import FakeQuanterWithAbsMaxObserver
        >>> q = FakeQuanterWithAbsMaxObserver()
        >>> qat = QAT(QuantConfig(activation=q, weight=q))
        >>> model = qat.quantize(padax.nn.Sequential(padax.nn.Linear(4, 2)))
        >>> type(model[0]).__name__, type(model[0].weight_quanter).__name__
        ('QuantedLinear', 'FakeQuanterWithAbsMaxObserverLayer')
    """

    def quantize(self, model: nn.Layer, inplace: bool = False) -> nn.Layer:
        """A copy of `model` (or the model itself, inplace=True) with fake quanters inserted.

        Args:
            model: the float model, in training mode.
            inplace: change `model` itself.

        Returns:
            The model to train, then `convert`.
        """
        if not model.training:
            raise ValueError("padax.quantization.QAT.quantize: quantization-aware training works on a model in "
                             "training mode; call model.train() first")
        out = model if inplace else copy.deepcopy(model)
        return self._prepare(out)
