"""Inception v3 with Paddle's names (`inception_stem`, `inception_block_list`, `fc`)."""
from __future__ import annotations

import math
from typing import Any

import padax
from padax import nn
from padax.nn.initializer import Uniform
from padax.vision.models._utils import ConvNormActivation, load_pretrained


def _cbr(cin: int, cout: int, kernel_size: Any, stride: int = 1, padding: Any = 0) -> ConvNormActivation:
    """Conv (no bias), BatchNorm2D, ReLU."""
    return ConvNormActivation(cin, cout, kernel_size=kernel_size, stride=stride, padding=padding,
                              activation_layer=nn.ReLU)


def _avg_pool() -> nn.AvgPool2D:
    return nn.AvgPool2D(kernel_size=3, stride=1, padding=1, exclusive=False)


class InceptionStem(nn.Layer):
    """Five conv layers and two max pools: 299x299x3 -> 35x35x192."""

    def __init__(self) -> None:
        super().__init__()
        self.conv_1a_3x3 = _cbr(3, 32, 3, stride=2)
        self.conv_2a_3x3 = _cbr(32, 32, 3)
        self.conv_2b_3x3 = _cbr(32, 64, 3, padding=1)
        self.max_pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=0)
        self.conv_3b_1x1 = _cbr(64, 80, 1)
        self.conv_4a_3x3 = _cbr(80, 192, 3)

    def forward(self, x):
        x = self.max_pool(self.conv_2b_3x3(self.conv_2a_3x3(self.conv_1a_3x3(x))))
        return self.max_pool(self.conv_4a_3x3(self.conv_3b_1x1(x)))


class InceptionA(nn.Layer):
    """1x1, 5x5, double 3x3 and pooled branches."""

    def __init__(self, num_channels: int, pool_features: int) -> None:
        super().__init__()
        self.branch1x1 = _cbr(num_channels, 64, 1)
        self.branch5x5_1 = _cbr(num_channels, 48, 1)
        self.branch5x5_2 = _cbr(48, 64, 5, padding=2)
        self.branch3x3dbl_1 = _cbr(num_channels, 64, 1)
        self.branch3x3dbl_2 = _cbr(64, 96, 3, padding=1)
        self.branch3x3dbl_3 = _cbr(96, 96, 3, padding=1)
        self.branch_pool = _avg_pool()
        self.branch_pool_conv = _cbr(num_channels, pool_features, 1)

    def forward(self, x):
        b5 = self.branch5x5_2(self.branch5x5_1(x))
        b3 = self.branch3x3dbl_3(self.branch3x3dbl_2(self.branch3x3dbl_1(x)))
        bp = self.branch_pool_conv(self.branch_pool(x))
        return padax.concat([self.branch1x1(x), b5, b3, bp], axis=1)


class InceptionB(nn.Layer):
    """Grid reduction: strided 3x3, strided double 3x3 and max-pool branches."""

    def __init__(self, num_channels: int) -> None:
        super().__init__()
        self.branch3x3 = _cbr(num_channels, 384, 3, stride=2)
        self.branch3x3dbl_1 = _cbr(num_channels, 64, 1)
        self.branch3x3dbl_2 = _cbr(64, 96, 3, padding=1)
        self.branch3x3dbl_3 = _cbr(96, 96, 3, stride=2)
        self.branch_pool = nn.MaxPool2D(kernel_size=3, stride=2)

    def forward(self, x):
        b3 = self.branch3x3dbl_3(self.branch3x3dbl_2(self.branch3x3dbl_1(x)))
        return padax.concat([self.branch3x3(x), b3, self.branch_pool(x)], axis=1)


class InceptionC(nn.Layer):
    """Factorised 7x7 branches (1x7 and 7x1 convs)."""

    def __init__(self, num_channels: int, channels_7x7: int) -> None:
        super().__init__()
        c = channels_7x7
        self.branch1x1 = _cbr(num_channels, 192, 1)
        self.branch7x7_1 = _cbr(num_channels, c, 1)
        self.branch7x7_2 = _cbr(c, c, (1, 7), padding=(0, 3))
        self.branch7x7_3 = _cbr(c, 192, (7, 1), padding=(3, 0))
        self.branch7x7dbl_1 = _cbr(num_channels, c, 1)
        self.branch7x7dbl_2 = _cbr(c, c, (7, 1), padding=(3, 0))
        self.branch7x7dbl_3 = _cbr(c, c, (1, 7), padding=(0, 3))
        self.branch7x7dbl_4 = _cbr(c, c, (7, 1), padding=(3, 0))
        self.branch7x7dbl_5 = _cbr(c, 192, (1, 7), padding=(0, 3))
        self.branch_pool = _avg_pool()
        self.branch_pool_conv = _cbr(num_channels, 192, 1)

    def forward(self, x):
        b7 = self.branch7x7_3(self.branch7x7_2(self.branch7x7_1(x)))
        bd = x
        for i in range(1, 6):
            bd = getattr(self, f"branch7x7dbl_{i}")(bd)
        bp = self.branch_pool_conv(self.branch_pool(x))
        return padax.concat([self.branch1x1(x), b7, bd, bp], axis=1)


class InceptionD(nn.Layer):
    """Grid reduction: 1x1->strided 3x3, 1x1->1x7->7x1->strided 3x3, and max-pool branches."""

    def __init__(self, num_channels: int) -> None:
        super().__init__()
        self.branch3x3_1 = _cbr(num_channels, 192, 1)
        self.branch3x3_2 = _cbr(192, 320, 3, stride=2)
        self.branch7x7x3_1 = _cbr(num_channels, 192, 1)
        self.branch7x7x3_2 = _cbr(192, 192, (1, 7), padding=(0, 3))
        self.branch7x7x3_3 = _cbr(192, 192, (7, 1), padding=(3, 0))
        self.branch7x7x3_4 = _cbr(192, 192, 3, stride=2)
        self.branch_pool = nn.MaxPool2D(kernel_size=3, stride=2)

    def forward(self, x):
        b3 = self.branch3x3_2(self.branch3x3_1(x))
        b7 = self.branch7x7x3_4(self.branch7x7x3_3(self.branch7x7x3_2(self.branch7x7x3_1(x))))
        return padax.concat([b3, b7, self.branch_pool(x)], axis=1)


class InceptionE(nn.Layer):
    """Expanded branches whose 3x3s split into parallel 1x3 and 3x1 convs."""

    def __init__(self, num_channels: int) -> None:
        super().__init__()
        self.branch1x1 = _cbr(num_channels, 320, 1)
        self.branch3x3_1 = _cbr(num_channels, 384, 1)
        self.branch3x3_2a = _cbr(384, 384, (1, 3), padding=(0, 1))
        self.branch3x3_2b = _cbr(384, 384, (3, 1), padding=(1, 0))
        self.branch3x3dbl_1 = _cbr(num_channels, 448, 1)
        self.branch3x3dbl_2 = _cbr(448, 384, 3, padding=1)
        self.branch3x3dbl_3a = _cbr(384, 384, (1, 3), padding=(0, 1))
        self.branch3x3dbl_3b = _cbr(384, 384, (3, 1), padding=(1, 0))
        self.branch_pool = _avg_pool()
        self.branch_pool_conv = _cbr(num_channels, 192, 1)

    def forward(self, x):
        b3 = self.branch3x3_1(x)
        b3 = padax.concat([self.branch3x3_2a(b3), self.branch3x3_2b(b3)], axis=1)
        bd = self.branch3x3dbl_2(self.branch3x3dbl_1(x))
        bd = padax.concat([self.branch3x3dbl_3a(bd), self.branch3x3dbl_3b(bd)], axis=1)
        bp = self.branch_pool_conv(self.branch_pool(x))
        return padax.concat([self.branch1x1(x), b3, bd, bp], axis=1)


class InceptionV3(nn.Layer):
    """Inception v3 for 299x299 RGB images.

    Args:
        num_classes: outputs of the final classifier; `<= 0` leaves the classifier out and returns the features.
        with_pool: apply the global average pool (to 1x1) before the classifier.

    Returns:
        A layer mapping NCHW float images to (N, num_classes) logits (299x299 input), or the features when `num_classes
        <= 0`.

    Examples:
        >>> import padax
        >>> from padax.vision.models import InceptionV3
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return InceptionV3(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())
        21840490
        >>> out = padax.eval_shape(lambda m, x: m.eval()(x), net, padax.ShapeDtypeStruct((1, 3, 96, 96), "float32"))
        >>> out.shape
        (1, 10)
    """

    def __init__(self, num_classes: int = 1000, with_pool: bool = True) -> None:
        super().__init__()
        self.num_classes, self.with_pool = num_classes, with_pool
        self.inception_stem = InceptionStem()
        blocks = [InceptionA(c, p) for c, p in zip([192, 256, 288], [32, 64, 64])]
        blocks += [InceptionB(288)]
        blocks += [InceptionC(c, c7) for c, c7 in zip([768, 768, 768, 768], [128, 160, 160, 192])]
        blocks += [InceptionD(768)]
        blocks += [InceptionE(c) for c in (1280, 2048)]
        self.inception_block_list = nn.LayerList(blocks)
        if with_pool:
            self.avg_pool = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.dropout = nn.Dropout(p=0.2, mode="downscale_in_infer")
            stdv = 1.0 / math.sqrt(2048 * 1.0)
            self.fc = nn.Linear(2048, num_classes, weight_attr=nn.ParamAttr(initializer=Uniform(-stdv, stdv)))

    def forward(self, x):
        x = self.inception_stem(x)
        for block in self.inception_block_list:
            x = block(x)
        if self.with_pool:
            x = self.avg_pool(x)
        if self.num_classes > 0:
            x = self.fc(self.dropout(padax.reshape(x, [-1, 2048])))
        return x


def inception_v3(pretrained: bool = False, **kwargs: Any) -> InceptionV3:
    """Inception v3.

    Args:
        pretrained: load Paddle's published ImageNet weights from the local cache (see `weights_dir`; padax does not
            download); raises if the file is missing.
        **kwargs: passed on to `InceptionV3` (`num_classes`, `with_pool`).

    Returns:
        A `InceptionV3` layer (parameters initialised from the current `padax.nn.rng_scope` unless pretrained).

    Examples:
        >>> import padax
        >>> from padax.vision.models import inception_v3
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return inception_v3(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())  # as Paddle's inception_v3(num_classes=10)
        21840490
    """
    model = InceptionV3(**kwargs)
    return load_pretrained(model, "inception_v3") if pretrained else model
