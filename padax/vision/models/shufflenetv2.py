"""ShuffleNetV2 (x0.25 .. x2.0, and the swish variant) with Paddle's names (`_conv1`, `2_1`.., `_fc`)."""
from __future__ import annotations

from typing import Any

import padax
from padax import nn
from padax.vision.models._utils import ConvNormActivation, check_choice, load_pretrained, run_named

# output channels of stem, three stages and last conv, by scale
STAGE_CHANNELS = {0.25: [24, 24, 48, 96, 512], 0.33: [24, 32, 64, 128, 512], 0.5: [24, 48, 96, 192, 1024],
                  1.0: [24, 116, 232, 464, 1024], 1.5: [24, 176, 352, 704, 1024], 2.0: [24, 224, 488, 976, 2048]}
STAGE_REPEATS = [4, 8, 4]
_ACTIVATIONS = {"relu": nn.ReLU, "swish": nn.Swish, None: None}


def channel_shuffle(x: Any, groups: int) -> Any:
    """Interleave the channels of an NCHW tensor across `groups`."""
    n, c, h, w = x.shape[0:4]
    x = padax.reshape(x, [n, groups, c // groups, h, w])
    return padax.reshape(padax.transpose(x, [0, 2, 1, 3, 4]), [n, c, h, w])


class InvertedResidual(nn.Layer):
    """Stride-1 unit: half the channels pass through, the other half go 1x1 -> 3x3 depthwise -> 1x1."""

    def __init__(self, in_channels: int, out_channels: int, stride: int, activation_layer: Any = nn.ReLU) -> None:
        super().__init__()
        half = out_channels // 2
        self._conv_pw = ConvNormActivation(in_channels // 2, half, 1, 1, 0, activation_layer=activation_layer)
        self._conv_dw = ConvNormActivation(half, half, 3, stride, 1, groups=half, activation_layer=None)
        self._conv_linear = ConvNormActivation(half, half, 1, 1, 0, activation_layer=activation_layer)

    def forward(self, inputs):
        c = inputs.shape[1] // 2
        x1, x2 = padax.split(inputs, [c, c], axis=1)
        x2 = self._conv_linear(self._conv_dw(self._conv_pw(x2)))
        return channel_shuffle(padax.concat([x1, x2], axis=1), 2)


class InvertedResidualDS(nn.Layer):
    """Down-sampling unit: two strided branches (depthwise then 1x1, and 1x1 -> depthwise -> 1x1)."""

    def __init__(self, in_channels: int, out_channels: int, stride: int, activation_layer: Any = nn.ReLU) -> None:
        super().__init__()
        half = out_channels // 2
        self._conv_dw_1 = ConvNormActivation(in_channels, in_channels, 3, stride, 1, groups=in_channels,
                                             activation_layer=None)
        self._conv_linear_1 = ConvNormActivation(in_channels, half, 1, 1, 0, activation_layer=activation_layer)
        self._conv_pw_2 = ConvNormActivation(in_channels, half, 1, 1, 0, activation_layer=activation_layer)
        self._conv_dw_2 = ConvNormActivation(half, half, 3, stride, 1, groups=half, activation_layer=None)
        self._conv_linear_2 = ConvNormActivation(half, half, 1, 1, 0, activation_layer=activation_layer)

    def forward(self, inputs):
        x1 = self._conv_linear_1(self._conv_dw_1(inputs))
        x2 = self._conv_linear_2(self._conv_dw_2(self._conv_pw_2(inputs)))
        return channel_shuffle(padax.concat([x1, x2], axis=1), 2)


class ShuffleNetV2(nn.Layer):
    """ShuffleNetV2 at width `scale` (0.25, 0.33, 0.5, 1.0, 1.5, 2.0) with activation `act` ('relu', 'swish').

    Args:
        scale: width multiplier, one of 0.25, 0.33, 0.5, 1.0, 1.5, 2.0.
        act: activation of every block, 'relu' or 'swish'.
        num_classes: outputs of the final classifier; `<= 0` leaves the classifier out and returns the features.
        with_pool: apply the global average pool (to 1x1) before the classifier.

    Returns:
        A layer mapping NCHW float images to (N, num_classes) logits, or the feature map when `num_classes <= 0`.

    Examples:
        >>> import padax
        >>> from padax.vision.models import ShuffleNetV2
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return ShuffleNetV2(scale=0.25, num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())
        99842
        >>> out = padax.eval_shape(lambda m, x: m.eval()(x), net, padax.ShapeDtypeStruct((1, 3, 32, 32), "float32"))
        >>> out.shape
        (1, 10)
    """

    def __init__(self, scale: float = 1.0, act: str | None = "relu", num_classes: int = 1000,
                 with_pool: bool = True) -> None:
        super().__init__()
        check_choice("ShuffleNetV2 scale", scale, STAGE_CHANNELS)
        check_choice("ShuffleNetV2 act", act, _ACTIVATIONS)
        self.scale, self.num_classes, self.with_pool = scale, num_classes, with_pool
        channels, activation = STAGE_CHANNELS[scale], _ACTIVATIONS[act]
        self._conv1 = ConvNormActivation(3, channels[0], 3, 2, 1, activation_layer=activation)
        self._max_pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=1)
        names = []
        for stage, repeats in enumerate(STAGE_REPEATS):
            for i in range(repeats):
                name = f"{stage + 2}_{i + 1}"
                block = (InvertedResidualDS(channels[stage], channels[stage + 1], 2, activation) if i == 0 else
                         InvertedResidual(channels[stage + 1], channels[stage + 1], 1, activation))
                self.add_sublayer(name, block)
                names.append(name)
        self._block_names = tuple(names)
        self._last_conv = ConvNormActivation(channels[-2], channels[-1], 1, 1, 0, activation_layer=activation)
        if with_pool:
            self._pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self._out_c = channels[-1]
            self._fc = nn.Linear(channels[-1], num_classes)

    def forward(self, inputs):
        x = run_named(self, self._block_names, self._max_pool(self._conv1(inputs)))
        x = self._last_conv(x)
        if self.with_pool:
            x = self._pool2d_avg(x)
        if self.num_classes > 0:
            x = self._fc(padax.flatten(x, start_axis=1, stop_axis=-1))
        return x


def _shufflenet_v2(arch: str, scale: float, pretrained: bool, **kwargs: Any) -> ShuffleNetV2:
    model = ShuffleNetV2(scale=scale, **kwargs)
    return load_pretrained(model, arch) if pretrained else model


def shufflenet_v2_x0_25(pretrained: bool = False, **kwargs: Any) -> ShuffleNetV2:
    """ShuffleNetV2 x0.25.

    Args:
        pretrained: load Paddle's published ImageNet weights from the local cache (see `weights_dir`; padax does not
            download); raises if the file is missing.
        **kwargs: passed on to `ShuffleNetV2` (`num_classes`, `with_pool`).

    Returns:
        A `ShuffleNetV2` layer (parameters initialised from the current `padax.nn.rng_scope` unless pretrained).

    Examples:
        >>> import padax
        >>> from padax.vision.models import shufflenet_v2_x0_25
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return shufflenet_v2_x0_25(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())  # as Paddle's shufflenet_v2_x0_25(num_classes=10)
        99842
    """
    return _shufflenet_v2("shufflenet_v2_x0_25", 0.25, pretrained, **kwargs)


def shufflenet_v2_x0_33(pretrained: bool = False, **kwargs: Any) -> ShuffleNetV2:
    """ShuffleNetV2 x0.33.

    Args:
        pretrained: load Paddle's published ImageNet weights from the local cache (see `weights_dir`; padax does not
            download); raises if the file is missing.
        **kwargs: passed on to `ShuffleNetV2` (`num_classes`, `with_pool`).

    Returns:
        A `ShuffleNetV2` layer (parameters initialised from the current `padax.nn.rng_scope` unless pretrained).

    Examples:
        >>> import padax
        >>> from padax.vision.models import shufflenet_v2_x0_33
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return shufflenet_v2_x0_33(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())  # as Paddle's shufflenet_v2_x0_33(num_classes=10)
        144394
    """
    return _shufflenet_v2("shufflenet_v2_x0_33", 0.33, pretrained, **kwargs)


def shufflenet_v2_x0_5(pretrained: bool = False, **kwargs: Any) -> ShuffleNetV2:
    """ShuffleNetV2 x0.5.

    Args:
        pretrained: load Paddle's published ImageNet weights from the local cache (see `weights_dir`; padax does not
            download); raises if the file is missing.
        **kwargs: passed on to `ShuffleNetV2` (`num_classes`, `with_pool`).

    Returns:
        A `ShuffleNetV2` layer (parameters initialised from the current `padax.nn.rng_scope` unless pretrained).

    Examples:
        >>> import padax
        >>> from padax.vision.models import shufflenet_v2_x0_5
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return shufflenet_v2_x0_5(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())  # as Paddle's shufflenet_v2_x0_5(num_classes=10)
        359994
    """
    return _shufflenet_v2("shufflenet_v2_x0_5", 0.5, pretrained, **kwargs)


def shufflenet_v2_x1_0(pretrained: bool = False, **kwargs: Any) -> ShuffleNetV2:
    """ShuffleNetV2 x1.0.

    Args:
        pretrained: load Paddle's published ImageNet weights from the local cache (see `weights_dir`; padax does not
            download); raises if the file is missing.
        **kwargs: passed on to `ShuffleNetV2` (`num_classes`, `with_pool`).

    Returns:
        A `ShuffleNetV2` layer (parameters initialised from the current `padax.nn.rng_scope` unless pretrained).

    Examples:
        >>> import padax
        >>> from padax.vision.models import shufflenet_v2_x1_0
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return shufflenet_v2_x1_0(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())  # as Paddle's shufflenet_v2_x1_0(num_classes=10)
        1280034
    """
    return _shufflenet_v2("shufflenet_v2_x1_0", 1.0, pretrained, **kwargs)


def shufflenet_v2_x1_5(pretrained: bool = False, **kwargs: Any) -> ShuffleNetV2:
    """ShuffleNetV2 x1.5.

    Args:
        pretrained: load Paddle's published ImageNet weights from the local cache (see `weights_dir`; padax does not
            download); raises if the file is missing.
        **kwargs: passed on to `ShuffleNetV2` (`num_classes`, `with_pool`).

    Returns:
        A `ShuffleNetV2` layer (parameters initialised from the current `padax.nn.rng_scope` unless pretrained).

    Examples:
        >>> import padax
        >>> from padax.vision.models import shufflenet_v2_x1_5
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return shufflenet_v2_x1_5(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())  # as Paddle's shufflenet_v2_x1_5(num_classes=10)
        2512314
    """
    return _shufflenet_v2("shufflenet_v2_x1_5", 1.5, pretrained, **kwargs)


def shufflenet_v2_x2_0(pretrained: bool = False, **kwargs: Any) -> ShuffleNetV2:
    """ShuffleNetV2 x2.0.

    Args:
        pretrained: load Paddle's published ImageNet weights from the local cache (see `weights_dir`; padax does not
            download); raises if the file is missing.
        **kwargs: passed on to `ShuffleNetV2` (`num_classes`, `with_pool`).

    Returns:
        A `ShuffleNetV2` layer (parameters initialised from the current `padax.nn.rng_scope` unless pretrained).

    Examples:
        >>> import padax
        >>> from padax.vision.models import shufflenet_v2_x2_0
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return shufflenet_v2_x2_0(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())  # as Paddle's shufflenet_v2_x2_0(num_classes=10)
        5371442
    """
    return _shufflenet_v2("shufflenet_v2_x2_0", 2.0, pretrained, **kwargs)


def shufflenet_v2_swish(pretrained: bool = False, **kwargs: Any) -> ShuffleNetV2:
    """ShuffleNetV2 x1.0 with swish activations.

    Args:
        pretrained: load Paddle's published ImageNet weights from the local cache (see `weights_dir`; padax does not
            download); raises if the file is missing.
        **kwargs: passed on to `ShuffleNetV2` (`num_classes`, `with_pool`).

    Returns:
        A `ShuffleNetV2` layer (parameters initialised from the current `padax.nn.rng_scope` unless pretrained).

    Examples:
        >>> import padax
        >>> from padax.vision.models import shufflenet_v2_swish
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return shufflenet_v2_swish(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())  # as Paddle's shufflenet_v2_swish(num_classes=10)
        1280034
    """
    return _shufflenet_v2("shufflenet_v2_swish", 1.0, pretrained, act="swish", **kwargs)
