"""MobileNetV1 with Paddle's names (`conv1`, `conv2_1` .. `conv6` depthwise-separable blocks, `fc`)."""
from __future__ import annotations

from typing import Any

import padax
from padax import nn
from padax.vision.models._utils import ConvNormActivation, load_pretrained, run_named

# (block name, input channels, depthwise channels, pointwise channels, groups, stride), before scaling
BLOCKS = ([("conv2_1", 32, 32, 64, 32, 1), ("conv2_2", 64, 64, 128, 64, 2), ("conv3_1", 128, 128, 128, 128, 1),
           ("conv3_2", 128, 128, 256, 128, 2), ("conv4_1", 256, 256, 256, 256, 1),
           ("conv4_2", 256, 256, 512, 256, 2)]
          + [(f"conv5_{i + 1}", 512, 512, 512, 512, 1) for i in range(5)]
          + [("conv5_6", 512, 512, 1024, 512, 2), ("conv6", 1024, 1024, 1024, 1024, 1)])


class DepthwiseSeparable(nn.Layer):
    """A 3x3 depthwise ConvNormActivation, then a 1x1 pointwise one."""

    def __init__(self, in_channels: int, out_channels1: int, out_channels2: int, num_groups: int, stride: int,
                 scale: float) -> None:
        super().__init__()
        self._depthwise_conv = ConvNormActivation(in_channels, int(out_channels1 * scale), kernel_size=3,
                                                  stride=stride, padding=1, groups=int(num_groups * scale))
        self._pointwise_conv = ConvNormActivation(int(out_channels1 * scale), int(out_channels2 * scale),
                                                  kernel_size=1, stride=1, padding=0)

    def forward(self, x):
        return self._pointwise_conv(self._depthwise_conv(x))


class MobileNetV1(nn.Layer):
    """MobileNetV1 with channel multiplier `scale`.

    Args:
        scale: channel multiplier applied to every layer.
        num_classes: outputs of the final classifier; `<= 0` leaves the classifier out and returns the features.
        with_pool: apply the global average pool (to 1x1) before the classifier.

    Returns:
        A layer mapping NCHW float images to (N, num_classes) logits, or the feature map when `num_classes <= 0`.

    Examples:
        >>> import padax
        >>> from padax.vision.models import MobileNetV1
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return MobileNetV1(scale=0.25, num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())
        221114
        >>> out = padax.eval_shape(lambda m, x: m.eval()(x), net, padax.ShapeDtypeStruct((1, 3, 32, 32), "float32"))
        >>> out.shape
        (1, 10)
    """

    def __init__(self, scale: float = 1.0, num_classes: int = 1000, with_pool: bool = True) -> None:
        super().__init__()
        self.scale, self.num_classes, self.with_pool = scale, num_classes, with_pool
        self.conv1 = ConvNormActivation(3, int(32 * scale), kernel_size=3, stride=2, padding=1)
        for name, cin, c1, c2, groups, stride in BLOCKS:
            self.add_sublayer(name, DepthwiseSeparable(int(cin * scale), c1, c2, groups, stride, scale))
        self._block_names = tuple(b[0] for b in BLOCKS)
        if with_pool:
            self.pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.fc = nn.Linear(int(1024 * scale), num_classes)

    def forward(self, x):
        x = run_named(self, self._block_names, self.conv1(x))
        if self.with_pool:
            x = self.pool2d_avg(x)
        if self.num_classes > 0:
            x = self.fc(padax.flatten(x, 1))
        return x


def mobilenet_v1(pretrained: bool = False, scale: float = 1.0, **kwargs: Any) -> MobileNetV1:
    """MobileNetV1; Paddle publishes weights for scale 1.0.

    Args:
        pretrained: load Paddle's published ImageNet weights from the local cache (see `weights_dir`; padax does not
            download); raises if the file is missing.
        scale: channel multiplier; weights exist only for 1.0.
        **kwargs: passed on to `MobileNetV1` (`num_classes`, `with_pool`).

    Returns:
        A `MobileNetV1` layer (parameters initialised from the current `padax.nn.rng_scope` unless pretrained).

    Examples:
        >>> import padax
        >>> from padax.vision.models import mobilenet_v1
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return mobilenet_v1(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())  # as Paddle's mobilenet_v1(num_classes=10)
        3239114
    """
    model = MobileNetV1(scale=scale, **kwargs)
    return load_pretrained(model, f"mobilenetv1_{scale}") if pretrained else model
