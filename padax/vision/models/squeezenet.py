"""SqueezeNet 1.0 and 1.1 with Paddle's names (`_conv`, fire modules `_conv1`..`_conv8`, `_conv9`)."""
from __future__ import annotations

from typing import Any

import padax
from padax import nn
from padax.nn import functional as F
from padax.vision.models._utils import check_choice, load_pretrained

# fire modules: (input, squeeze, expand 1x1, expand 3x3) -- the same for both versions after the stem
FIRES = [(None, 16, 64, 64), (128, 16, 64, 64), (128, 32, 128, 128), (256, 32, 128, 128), (256, 48, 192, 192),
         (384, 48, 192, 192), (384, 64, 256, 256), (512, 64, 256, 256)]
# after which fire modules (1-based) a max pool follows, by version
POOL_AFTER = {"1.0": (3, 7), "1.1": (2, 4)}


class MakeFireConv(nn.Layer):
    """Conv2D then ReLU."""

    def __init__(self, input_channels: int, output_channels: int, filter_size: Any, padding: Any = 0) -> None:
        super().__init__()
        self._conv = nn.Conv2D(input_channels, output_channels, filter_size, padding=padding)

    def forward(self, x):
        return F.relu(self._conv(x))


class MakeFire(nn.Layer):
    """Fire module: a 1x1 squeeze, then 1x1 and 3x3 expansions concatenated."""

    def __init__(self, input_channels: int, squeeze_channels: int, expand1x1_channels: int,
                 expand3x3_channels: int) -> None:
        super().__init__()
        self._conv = MakeFireConv(input_channels, squeeze_channels, 1)
        self._conv_path1 = MakeFireConv(squeeze_channels, expand1x1_channels, 1)
        self._conv_path2 = MakeFireConv(squeeze_channels, expand3x3_channels, 3, padding=1)

    def forward(self, inputs):
        x = self._conv(inputs)
        return padax.concat([self._conv_path1(x), self._conv_path2(x)], axis=1)


class SqueezeNet(nn.Layer):
    """SqueezeNet `version` '1.0' or '1.1'.

    Args:
        version: '1.0' or '1.1' (1.1 has a smaller stem and earlier pooling).
        num_classes: output channels of the final 1x1 conv classifier; `<= 0` skips it.
        with_pool: average-pool to 1x1 and squeeze the spatial axes.

    Returns:
        A layer mapping NCHW float images to (N, num_classes) logits when `with_pool`, else a feature map.

    Examples:
        >>> import padax
        >>> from padax.vision.models import SqueezeNet
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return SqueezeNet("1.1", num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())
        727626
        >>> out = padax.eval_shape(lambda m, x: m.eval()(x), net, padax.ShapeDtypeStruct((1, 3, 64, 64), "float32"))
        >>> out.shape
        (1, 10)
    """

    def __init__(self, version: str, num_classes: int = 1000, with_pool: bool = True) -> None:
        super().__init__()
        check_choice("SqueezeNet version", version, POOL_AFTER)
        self.version, self.num_classes, self.with_pool = version, num_classes, with_pool
        if version == "1.0":
            self._conv, stem = nn.Conv2D(3, 96, 7, stride=2), 96
        else:
            self._conv, stem = nn.Conv2D(3, 64, 3, stride=2, padding=1), 64
        self._pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=0)
        for i, (cin, sq, e1, e3) in enumerate(FIRES):
            setattr(self, f"_conv{i + 1}", MakeFire(cin or stem, sq, e1, e3))
        self._drop = nn.Dropout(p=0.5, mode="downscale_in_infer")
        self._conv9 = nn.Conv2D(512, num_classes, 1)
        self._avg_pool = nn.AdaptiveAvgPool2D(1)

    def forward(self, inputs):
        x = self._pool(F.relu(self._conv(inputs)))
        pools = POOL_AFTER[self.version]
        for i in range(1, len(FIRES) + 1):
            x = getattr(self, f"_conv{i}")(x)
            if i in pools:
                x = self._pool(x)
        if self.num_classes > 0:
            x = self._conv9(self._drop(x))
        if self.with_pool:
            x = padax.squeeze(self._avg_pool(F.relu(x)), axis=[2, 3])
        return x


def squeezenet1_0(pretrained: bool = False, **kwargs: Any) -> SqueezeNet:
    """SqueezeNet 1.0.

    Args:
        pretrained: load Paddle's published ImageNet weights from the local cache (see `weights_dir`; padax does not
            download); raises if the file is missing.
        **kwargs: passed on to `SqueezeNet` (`num_classes`, `with_pool`).

    Returns:
        A `SqueezeNet` layer (parameters initialised from the current `padax.nn.rng_scope` unless pretrained).

    Examples:
        >>> import padax
        >>> from padax.vision.models import squeezenet1_0
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return squeezenet1_0(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())  # as Paddle's squeezenet1_0(num_classes=10)
        740554
    """
    model = SqueezeNet("1.0", **kwargs)
    return load_pretrained(model, "squeezenet1_0") if pretrained else model


def squeezenet1_1(pretrained: bool = False, **kwargs: Any) -> SqueezeNet:
    """SqueezeNet 1.1.

    Args:
        pretrained: load Paddle's published ImageNet weights from the local cache (see `weights_dir`; padax does not
            download); raises if the file is missing.
        **kwargs: passed on to `SqueezeNet` (`num_classes`, `with_pool`).

    Returns:
        A `SqueezeNet` layer (parameters initialised from the current `padax.nn.rng_scope` unless pretrained).

    Examples:
        >>> import padax
        >>> from padax.vision.models import squeezenet1_1
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return squeezenet1_1(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())  # as Paddle's squeezenet1_1(num_classes=10)
        727626
    """
    model = SqueezeNet("1.1", **kwargs)
    return load_pretrained(model, "squeezenet1_1") if pretrained else model
