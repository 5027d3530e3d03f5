"""Quantization with Paddle's API (`paddle.quantization`): `QuantConfig`, observers and quanters, `PTQ`
(post-training calibration) and `QAT` (quantization-aware training), and `convert` to int8 inference layers
whose weights are int8 Tensors with float32 scales and whose matmuls and convolutions run int8 x int8 with
an int32 accumulator. Converted models save with `padax.jit.save` (the weights stay int8 in the file).
See docs/quantization.md.
"""
from __future__ import annotations

from padax.quantization import observers, quanters
from padax.quantization.base import BaseObserver, BaseQuanter, ObserverFactory, QuanterFactory, quanter
from padax.quantization.config import QuantConfig, SingleLayerConfig
from padax.quantization.layers import (
    LinearQuanterDequanter,
    ObserveWrapper,
    QuantedConv2D,
    QuantedLinear,
    QuantizedConv2D,
    QuantizedLinear,
)
from padax.quantization.quantize import PTQ, QAT, Quantization

__all__ = ["BaseObserver", "BaseQuanter", "LinearQuanterDequanter", "ObserveWrapper", "ObserverFactory", "PTQ",
           "QAT", "QuantConfig", "QuantedConv2D", "QuantedLinear", "QuanterFactory", "Quantization",
           "QuantizedConv2D", "QuantizedLinear", "SingleLayerConfig", "observers", "quanter", "quanters"]
