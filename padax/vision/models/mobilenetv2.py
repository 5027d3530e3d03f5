"""MobileNetV2 with Paddle's names (`features` inverted-residual stack, `classifier`)."""
from __future__ import annotations

from typing import Any

import padax
from padax import nn
from padax.vision.models._utils import ConvNormActivation, load_pretrained, make_divisible

# (expansion t, channels c, repeats n, first stride s)
SETTINGS = [[1, 16, 1, 1], [6, 24, 2, 2], [6, 32, 3, 2], [6, 64, 4, 2], [6, 96, 3, 1], [6, 160, 3, 2],
            [6, 320, 1, 1]]


class InvertedResidual(nn.Layer):
    """1x1 expansion (if t != 1), 3x3 depthwise, 1x1 linear projection; residual when shapes allow."""

    def __init__(self, inp: int, oup: int, stride: int, expand_ratio: float, norm_layer: Any = nn.BatchNorm2D
                 ) -> None:
        super().__init__()
        if stride not in (1, 2):
            raise ValueError(f"InvertedResidual: stride must be 1 or 2, got {stride}")
        self.stride = stride
        hidden_dim = int(round(inp * expand_ratio))
        self.use_res_connect = stride == 1 and inp == oup
        layers: list = []
        if expand_ratio != 1:
            layers.append(ConvNormActivation(inp, hidden_dim, kernel_size=1, norm_layer=norm_layer,
                                             activation_layer=nn.ReLU6))
        layers += [ConvNormActivation(hidden_dim, hidden_dim, stride=stride, groups=hidden_dim,
                                      norm_layer=norm_layer, activation_layer=nn.ReLU6),
                   nn.Conv2D(hidden_dim, oup, 1, 1, 0, bias_attr=False), norm_layer(oup)]
        self.conv = nn.Sequential(*layers)

    def forward(self, x):
        return x + self.conv(x) if self.use_res_connect else self.conv(x)


class MobileNetV2(nn.Layer):
    """MobileNetV2 with width multiplier `scale`.

    Args:
        scale: width multiplier (channels rounded to multiples of 8).
        num_classes: outputs of the final classifier; `<= 0` leaves the classifier out and returns the features.
        with_pool: apply the global average pool (to 1x1) before the classifier.

    Returns:
        A layer mapping NCHW float images to (N, num_classes) logits, or the feature map when `num_classes <= 0`.

    Examples:
        >>> import padax
        >>> from padax.vision.models import MobileNetV2
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return MobileNetV2(scale=0.5, num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())
        719034
        >>> out = padax.eval_shape(lambda m, x: m.eval()(x), net, padax.ShapeDtypeStruct((1, 3, 32, 32), "float32"))
        >>> out.shape
        (1, 10)
    """

    def __init__(self, scale: float = 1.0, num_classes: int = 1000, with_pool: bool = True) -> None:
        super().__init__()
        self.num_classes, self.with_pool = num_classes, with_pool
        input_channel = make_divisible(32 * scale, 8)
        self.last_channel = make_divisible(1280 * max(1.0, scale), 8)
        features: list = [ConvNormActivation(3, input_channel, stride=2, activation_layer=nn.ReLU6)]
        for t, c, n, s in SETTINGS:
            output_channel = make_divisible(c * scale, 8)
            for i in range(n):
                features.append(InvertedResidual(input_channel, output_channel, s if i == 0 else 1, expand_ratio=t))
                input_channel = output_channel
        features.append(ConvNormActivation(input_channel, self.last_channel, kernel_size=1,
                                           activation_layer=nn.ReLU6))
        self.features = nn.Sequential(*features)
        if with_pool:
            self.pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.classifier = nn.Sequential(nn.Dropout(0.2), nn.Linear(self.last_channel, num_classes))

    def forward(self, x):
        x = self.features(x)
        if self.with_pool:
            x = self.pool2d_avg(x)
        if self.num_classes > 0:
            x = self.classifier(padax.flatten(x, 1))
        return x


def mobilenet_v2(pretrained: bool = False, scale: float = 1.0, **kwargs: Any) -> MobileNetV2:
    """MobileNetV2; Paddle publishes weights for scale 1.0.

    Args:
        pretrained: load Paddle's published ImageNet weights from the local cache (see `weights_dir`; padax does not
            download); raises if the file is missing.
        scale: width multiplier; weights exist only for 1.0.
        **kwargs: passed on to `MobileNetV2` (`num_classes`, `with_pool`).

    Returns:
        A `MobileNetV2` layer (parameters initialised from the current `padax.nn.rng_scope` unless pretrained).

    Examples:
        >>> import padax
        >>> from padax.vision.models import mobilenet_v2
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return mobilenet_v2(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())  # as Paddle's mobilenet_v2(num_classes=10)
        2270794
    """
    model = MobileNetV2(scale=scale, **kwargs)
    return load_pretrained(model, f"mobilenetv2_{scale}") if pretrained else model
