"""MobileNetV3 small and large with Paddle's names (`conv`, `blocks`, `lastconv`, `classifier`)."""
from __future__ import annotations

import functools
from typing import Any, Callable

import padax
from padax import nn
from padax.vision.models._utils import ConvNormActivation, load_pretrained, make_divisible

_ACTIVATIONS = {"relu": nn.ReLU, "hardswish": nn.Hardswish}
# (in, kernel, expanded, out, squeeze-excite, activation, stride), before scaling
SMALL = [(16, 3, 16, 16, True, "relu", 2), (16, 3, 72, 24, False, "relu", 2), (24, 3, 88, 24, False, "relu", 1),
         (24, 5, 96, 40, True, "hardswish", 2), (40, 5, 240, 40, True, "hardswish", 1),
         (40, 5, 240, 40, True, "hardswish", 1), (40, 5, 120, 48, True, "hardswish", 1),
         (48, 5, 144, 48, True, "hardswish", 1), (48, 5, 288, 96, True, "hardswish", 2),
         (96, 5, 576, 96, True, "hardswish", 1), (96, 5, 576, 96, True, "hardswish", 1)]
LARGE = [(16, 3, 16, 16, False, "relu", 1), (16, 3, 64, 24, False, "relu", 2), (24, 3, 72, 24, False, "relu", 1),
         (24, 5, 72, 40, True, "relu", 2), (40, 5, 120, 40, True, "relu", 1), (40, 5, 120, 40, True, "relu", 1),
         (40, 3, 240, 80, False, "hardswish", 2), (80, 3, 200, 80, False, "hardswish", 1),
         (80, 3, 184, 80, False, "hardswish", 1), (80, 3, 184, 80, False, "hardswish", 1),
         (80, 3, 480, 112, True, "hardswish", 1), (112, 3, 672, 112, True, "hardswish", 1),
         (112, 5, 672, 160, True, "hardswish", 2), (160, 5, 960, 160, True, "hardswish", 1),
         (160, 5, 960, 160, True, "hardswish", 1)]


class SqueezeExcitation(nn.Layer):
    """Channel attention: global average, 1x1 conv squeeze, activation, 1x1 conv expand, gate."""

    def __init__(self, input_channels: int, squeeze_channels: int, activation: Callable = nn.ReLU,
                 scale_activation: Callable = nn.Sigmoid) -> None:
        super().__init__()
        self.avgpool = nn.AdaptiveAvgPool2D(1)
        self.fc1 = nn.Conv2D(input_channels, squeeze_channels, 1)
        self.fc2 = nn.Conv2D(squeeze_channels, input_channels, 1)
        self.activation = activation()
        self.scale_activation = scale_activation()

    def forward(self, input):
        scale = self.fc2(self.activation(self.fc1(self.avgpool(input))))
        return self.scale_activation(scale) * input


class InvertedResidual(nn.Layer):
    """Expand (1x1), depthwise (kxk), optional squeeze-excite, linear project (1x1); residual when shapes allow."""

    def __init__(self, in_channels: int, expanded_channels: int, out_channels: int, filter_size: int, stride: int,
                 use_se: bool, activation_layer: Callable, norm_layer: Callable) -> None:
        super().__init__()
        self.use_res_connect = stride == 1 and in_channels == out_channels
        self.use_se = use_se
        self.expand = in_channels != expanded_channels
        if self.expand:
            self.expand_conv = ConvNormActivation(in_channels, expanded_channels, kernel_size=1, stride=1,
                                                  padding=0, norm_layer=norm_layer, activation_layer=activation_layer)
        self.bottleneck_conv = ConvNormActivation(expanded_channels, expanded_channels, kernel_size=filter_size,
                                                  stride=stride, padding=(filter_size - 1) // 2,
                                                  groups=expanded_channels, norm_layer=norm_layer,
                                                  activation_layer=activation_layer)
        if use_se:
            self.mid_se = SqueezeExcitation(expanded_channels, make_divisible(expanded_channels // 4),
                                            scale_activation=nn.Hardsigmoid)
        self.linear_conv = ConvNormActivation(expanded_channels, out_channels, kernel_size=1, stride=1, padding=0,
                                              norm_layer=norm_layer, activation_layer=None)

    def forward(self, x):
        identity = x
        if self.expand:
            x = self.expand_conv(x)
        x = self.bottleneck_conv(x)
        if self.use_se:
            x = self.mid_se(x)
        x = self.linear_conv(x)
        return identity + x if self.use_res_connect else x


class MobileNetV3(nn.Layer):
    """MobileNetV3 from a block table (`SMALL` or `LARGE`) and the classifier's hidden width."""

    def __init__(self, config: list, last_channel: int, scale: float = 1.0, num_classes: int = 1000,
                 with_pool: bool = True) -> None:
        super().__init__()
        self.scale, self.last_channel = scale, last_channel
        self.num_classes, self.with_pool = num_classes, with_pool
        def ch(c: int) -> int:
            return make_divisible(c * scale, 8)

        norm_layer = functools.partial(nn.BatchNorm2D, epsilon=0.001, momentum=0.99)
        self.conv = ConvNormActivation(3, ch(config[0][0]), kernel_size=3, stride=2, padding=1, groups=1,
                                       activation_layer=nn.Hardswish, norm_layer=norm_layer)
        self.blocks = nn.Sequential(*[
            InvertedResidual(ch(cin), ch(exp), ch(cout), k, s, se, _ACTIVATIONS[act], norm_layer)
            for cin, k, exp, cout, se, act, s in config])
        lastconv_in = ch(config[-1][0])
        self.lastconv = ConvNormActivation(lastconv_in, lastconv_in * 6, kernel_size=1, stride=1, padding=0,
                                           groups=1, norm_layer=norm_layer, activation_layer=nn.Hardswish)
        if with_pool:
            self.avgpool = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.classifier = nn.Sequential(nn.Linear(lastconv_in * 6, last_channel), nn.Hardswish(),
                                            nn.Dropout(p=0.2), nn.Linear(last_channel, num_classes))

    def forward(self, x):
        x = self.lastconv(self.blocks(self.conv(x)))
        if self.with_pool:
            x = self.avgpool(x)
        if self.num_classes > 0:
            x = self.classifier(padax.flatten(x, 1))
        return x


class MobileNetV3Small(MobileNetV3):
    """MobileNetV3-Small.

    Args:
        scale: width multiplier (channels rounded to multiples of 8).
        num_classes: outputs of the final classifier; `<= 0` leaves the classifier out and returns the features.
        with_pool: apply the global average pool (to 1x1) before the classifier.

    Returns:
        A layer mapping NCHW float images to (N, num_classes) logits, or the feature map when `num_classes <= 0`.

    Examples:
        >>> import padax
        >>> from padax.vision.models import MobileNetV3Small
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return MobileNetV3Small(scale=0.5, num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())
        415538
        >>> out = padax.eval_shape(lambda m, x: m.eval()(x), net, padax.ShapeDtypeStruct((1, 3, 32, 32), "float32"))
        >>> out.shape
        (1, 10)
    """

    def __init__(self, scale: float = 1.0, num_classes: int = 1000, with_pool: bool = True) -> None:
        super().__init__(SMALL, make_divisible(1024 * scale, 8), scale, num_classes, with_pool)


class MobileNetV3Large(MobileNetV3):
    """MobileNetV3-Large.

    Args:
        scale: width multiplier (channels rounded to multiples of 8).
        num_classes: outputs of the final classifier; `<= 0` leaves the classifier out and returns the features.
        with_pool: apply the global average pool (to 1x1) before the classifier.

    Returns:
        A layer mapping NCHW float images to (N, num_classes) logits, or the feature map when `num_classes <= 0`.

    Examples:
        >>> import padax
        >>> from padax.vision.models import MobileNetV3Large
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return MobileNetV3Large(scale=0.5, num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())
        1112338
        >>> out = padax.eval_shape(lambda m, x: m.eval()(x), net, padax.ShapeDtypeStruct((1, 3, 32, 32), "float32"))
        >>> out.shape
        (1, 10)
    """

    def __init__(self, scale: float = 1.0, num_classes: int = 1000, with_pool: bool = True) -> None:
        super().__init__(LARGE, make_divisible(1280 * scale, 8), scale, num_classes, with_pool)


def mobilenet_v3_small(pretrained: bool = False, scale: float = 1.0, **kwargs: Any) -> MobileNetV3Small:
    """MobileNetV3-Small; Paddle publishes weights for scale 1.0.

    Args:
        pretrained: load Paddle's published ImageNet weights from the local cache (see `weights_dir`; padax does not
            download); raises if the file is missing.
        scale: width multiplier; weights exist only for 1.0.
        **kwargs: passed on to `MobileNetV3Small` (`num_classes`, `with_pool`).

    Returns:
        A `MobileNetV3Small` layer (parameters initialised from the current `padax.nn.rng_scope` unless pretrained).

    Examples:
        >>> import padax
        >>> from padax.vision.models import mobilenet_v3_small
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return mobilenet_v3_small(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())  # as Paddle's mobilenet_v3_small(num_classes=10)
        1540218
    """
    model = MobileNetV3Small(scale=scale, **kwargs)
    return load_pretrained(model, f"mobilenet_v3_small_x{scale}") if pretrained else model


def mobilenet_v3_large(pretrained: bool = False, scale: float = 1.0, **kwargs: Any) -> MobileNetV3Large:
    """MobileNetV3-Large; Paddle publishes weights for scale 1.0.

    Args:
        pretrained: load Paddle's published ImageNet weights from the local cache (see `weights_dir`; padax does not
            download); raises if the file is missing.
        scale: width multiplier; weights exist only for 1.0.
        **kwargs: passed on to `MobileNetV3Large` (`num_classes`, `with_pool`).

    Returns:
        A `MobileNetV3Large` layer (parameters initialised from the current `padax.nn.rng_scope` unless pretrained).

    Examples:
        >>> import padax
        >>> from padax.vision.models import mobilenet_v3_large
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return mobilenet_v3_large(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())  # as Paddle's mobilenet_v3_large(num_classes=10)
        4239242
    """
    model = MobileNetV3Large(scale=scale, **kwargs)
    return load_pretrained(model, f"mobilenet_v3_large_x{scale}") if pretrained else model
