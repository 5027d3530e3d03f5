"""AlexNet with Paddle's layer names (`_conv1`.. `_conv5`, `_fc6`.. `_fc8`) and initialisation."""
from __future__ import annotations

import math
from typing import Any

import padax
from padax import nn
from padax.nn import functional as F
from padax.nn.initializer import Uniform
from padax.vision.models._utils import load_pretrained


def _uniform(stdv: float) -> nn.ParamAttr:
    return nn.ParamAttr(initializer=Uniform(-stdv, stdv))


class ConvPoolLayer(nn.Layer):
    """Conv2D (uniform init), optional ReLU, then a 3x3 stride-2 max pool."""

    def __init__(self, input_channels: int, output_channels: int, filter_size: Any, stride: Any, padding: Any,
                 stdv: float, groups: int = 1, act: str | None = None) -> None:
        super().__init__()
        self.relu = nn.ReLU() if act == "relu" else None
        self._conv = nn.Conv2D(input_channels, output_channels, filter_size, stride=stride, padding=padding,
                               groups=groups, weight_attr=_uniform(stdv), bias_attr=_uniform(stdv))
        self._pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=0)

    def forward(self, inputs):
        x = self._conv(inputs)
        if self.relu is not None:
            x = self.relu(x)
        return self._pool(x)


class AlexNet(nn.Layer):
    """AlexNet for 224x224 RGB images (`num_classes <= 0` returns the last feature map).

    Args:
        num_classes: outputs of the final classifier; `<= 0` leaves the classifier out and returns the features.

    Returns:
        A layer mapping NCHW float images to (N, num_classes) logits (224x224 input), or the last feature map when
        `num_classes <= 0`.

    Examples:
        >>> import padax
        >>> from padax.vision.models import AlexNet
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return AlexNet(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())
        57044810
        >>> out = padax.eval_shape(lambda m, x: m.eval()(x), net, padax.ShapeDtypeStruct((1, 3, 224, 224), "float32"))
        >>> out.shape
        (1, 10)
    """

    def __init__(self, num_classes: int = 1000) -> None:
        super().__init__()
        self.num_classes = num_classes
        self._conv1 = ConvPoolLayer(3, 64, 11, 4, 2, 1.0 / math.sqrt(3 * 11 * 11), act="relu")
        self._conv2 = ConvPoolLayer(64, 192, 5, 1, 2, 1.0 / math.sqrt(64 * 5 * 5), act="relu")
        stdv = 1.0 / math.sqrt(192 * 3 * 3)
        self._conv3 = nn.Conv2D(192, 384, 3, stride=1, padding=1, weight_attr=_uniform(stdv), bias_attr=_uniform(stdv))
        stdv = 1.0 / math.sqrt(384 * 3 * 3)
        self._conv4 = nn.Conv2D(384, 256, 3, stride=1, padding=1, weight_attr=_uniform(stdv), bias_attr=_uniform(stdv))
        self._conv5 = ConvPoolLayer(256, 256, 3, 1, 1, 1.0 / math.sqrt(256 * 3 * 3), act="relu")
        if num_classes > 0:
            stdv = 1.0 / math.sqrt(256 * 6 * 6)
            self._drop1 = nn.Dropout(p=0.5, mode="downscale_in_infer")
            self._fc6 = nn.Linear(256 * 6 * 6, 4096, weight_attr=_uniform(stdv), bias_attr=_uniform(stdv))
            self._drop2 = nn.Dropout(p=0.5, mode="downscale_in_infer")
            self._fc7 = nn.Linear(4096, 4096, weight_attr=_uniform(stdv), bias_attr=_uniform(stdv))
            self._fc8 = nn.Linear(4096, num_classes, weight_attr=_uniform(stdv), bias_attr=_uniform(stdv))

    def forward(self, inputs):
        x = self._conv2(self._conv1(inputs))
        x = F.relu(self._conv3(x))
        x = F.relu(self._conv4(x))
        x = self._conv5(x)
        if self.num_classes > 0:
            x = self._drop1(padax.flatten(x, start_axis=1, stop_axis=-1))
            x = self._drop2(F.relu(self._fc6(x)))
            x = self._fc8(F.relu(self._fc7(x)))
        return x


def alexnet(pretrained: bool = False, **kwargs: Any) -> AlexNet:
    """AlexNet; `pretrained=True` loads Paddle's ImageNet weights from the local cache (see `weights_dir`).

    Args:
        pretrained: load Paddle's published ImageNet weights from the local cache (see `weights_dir`; padax does not
            download); raises if the file is missing.
        **kwargs: passed on to `AlexNet` (`num_classes`).

    Returns:
        A `AlexNet` layer (parameters initialised from the current `padax.nn.rng_scope` unless pretrained).

    Examples:
        >>> import padax
        >>> from padax.vision.models import alexnet
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return alexnet(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())  # as Paddle's alexnet(num_classes=10)
        57044810
    """
    model = AlexNet(**kwargs)
    return load_pretrained(model, "alexnet") if pretrained else model
