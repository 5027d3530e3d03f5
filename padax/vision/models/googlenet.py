"""GoogLeNet (Inception v1) with Paddle's names and its two auxiliary heads; forward returns three logits."""
from __future__ import annotations

from typing import Any

import padax
from padax import nn
from padax.nn import functional as F
from padax.nn.initializer import Uniform
from padax.vision.models._utils import load_pretrained

# inception modules: (name, input, 1x1, 3x3 reduce, 3x3, 5x5 reduce, 5x5, pool projection)
INCEPTIONS = [("_ince3a", 192, 64, 96, 128, 16, 32, 32), ("_ince3b", 256, 128, 128, 192, 32, 96, 64),
              ("_ince4a", 480, 192, 96, 208, 16, 48, 64), ("_ince4b", 512, 160, 112, 224, 24, 64, 64),
              ("_ince4c", 512, 128, 128, 256, 24, 64, 64), ("_ince4d", 512, 112, 144, 288, 32, 64, 64),
              ("_ince4e", 528, 256, 160, 320, 32, 128, 128), ("_ince5a", 832, 256, 160, 320, 32, 128, 128),
              ("_ince5b", 832, 384, 192, 384, 48, 128, 128)]


def _xavier(channels: int, filter_size: int) -> nn.ParamAttr:
    stdv = (3.0 / (filter_size ** 2 * channels)) ** 0.5
    return nn.ParamAttr(initializer=Uniform(-stdv, stdv))


class ConvLayer(nn.Layer):
    """A bias-free 'same'-padded Conv2D."""

    def __init__(self, num_channels: int, num_filters: int, filter_size: int, stride: Any = 1, groups: int = 1
                 ) -> None:
        super().__init__()
        self._conv = nn.Conv2D(num_channels, num_filters, filter_size, stride=stride,
                               padding=(filter_size - 1) // 2, groups=groups, bias_attr=False)

    def forward(self, inputs):
        return self._conv(inputs)


class Inception(nn.Layer):
    """Four parallel branches (1x1, 1x1->3x3, 1x1->5x5, pool->1x1), concatenated, then ReLU."""

    def __init__(self, input_channels: int, output_channels: int, filter1: int, filter3R: int, filter3: int,
                 filter5R: int, filter5: int, proj: int) -> None:
        super().__init__()
        self._conv1 = ConvLayer(input_channels, filter1, 1)
        self._conv3r = ConvLayer(input_channels, filter3R, 1)
        self._conv3 = ConvLayer(filter3R, filter3, 3)
        self._conv5r = ConvLayer(input_channels, filter5R, 1)
        self._conv5 = ConvLayer(filter5R, filter5, 5)
        self._pool = nn.MaxPool2D(kernel_size=3, stride=1, padding=1)
        self._convprj = ConvLayer(input_channels, proj, 1)

    def forward(self, inputs):
        branches = [self._conv1(inputs), self._conv3(self._conv3r(inputs)), self._conv5(self._conv5r(inputs)),
                    self._convprj(self._pool(inputs))]
        return F.relu(padax.concat(branches, axis=1))


class GoogLeNet(nn.Layer):
    """GoogLeNet; forward returns (main logits, auxiliary logits 1, auxiliary logits 2) as Paddle's does.

    Args:
        num_classes: outputs of the main and the two auxiliary classifiers; `<= 0` leaves the classifier out and returns
            the features.
        with_pool: apply the global average pool (to 1x1) before the classifier.

    Returns:
        A layer mapping NCHW float images to a tuple (main logits, auxiliary logits 1, auxiliary logits 2), each (N,
        num_classes).

    Examples:
        >>> import padax
        >>> from padax.vision.models import GoogLeNet
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return GoogLeNet(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())
        8491486
        >>> out = padax.eval_shape(lambda m, x: m.eval()(x), net, padax.ShapeDtypeStruct((1, 3, 224, 224), "float32"))
        >>> [o.shape for o in out]
        [(1, 10), (1, 10), (1, 10)]
    """

    def __init__(self, num_classes: int = 1000, with_pool: bool = True) -> None:
        super().__init__()
        self.num_classes, self.with_pool = num_classes, with_pool
        self._conv = ConvLayer(3, 64, 7, 2)
        self._pool = nn.MaxPool2D(kernel_size=3, stride=2)
        self._conv_1 = ConvLayer(64, 64, 1)
        self._conv_2 = ConvLayer(64, 192, 3)
        for name, cin, *filters in INCEPTIONS:
            setattr(self, name, Inception(cin, cin, *filters))
        if with_pool:
            self._pool_5 = nn.AdaptiveAvgPool2D(1)
            self._pool_o1 = nn.AvgPool2D(kernel_size=5, stride=3)
            self._pool_o2 = nn.AvgPool2D(kernel_size=5, stride=3)
        if num_classes > 0:
            self._drop = nn.Dropout(p=0.4, mode="downscale_in_infer")
            self._fc_out = nn.Linear(1024, num_classes, weight_attr=_xavier(1024, 1))
            self._conv_o1 = ConvLayer(512, 128, 1)
            self._fc_o1 = nn.Linear(1152, 1024, weight_attr=_xavier(2048, 1))
            self._drop_o1 = nn.Dropout(p=0.7, mode="downscale_in_infer")
            self._out1 = nn.Linear(1024, num_classes, weight_attr=_xavier(1024, 1))
            self._conv_o2 = ConvLayer(528, 128, 1)
            self._fc_o2 = nn.Linear(1152, 1024, weight_attr=_xavier(2048, 1))
            self._drop_o2 = nn.Dropout(p=0.7, mode="downscale_in_infer")
            self._out2 = nn.Linear(1024, num_classes, weight_attr=_xavier(1024, 1))

    def forward(self, inputs):
        x = self._pool(self._conv(inputs))
        x = self._pool(self._conv_2(self._conv_1(x)))
        x = self._pool(self._ince3b(self._ince3a(x)))
        ince4a = self._ince4a(x)
        ince4d = self._ince4d(self._ince4c(self._ince4b(ince4a)))
        x = self._pool(self._ince4e(ince4d))
        out, out1, out2 = self._ince5b(self._ince5a(x)), ince4a, ince4d
        if self.with_pool:
            out, out1, out2 = self._pool_5(out), self._pool_o1(out1), self._pool_o2(out2)
        if self.num_classes > 0:
            out = self._fc_out(padax.squeeze(self._drop(out), axis=[2, 3]))
            out1 = self._fc_o1(padax.flatten(self._conv_o1(out1), start_axis=1, stop_axis=-1))
            out1 = self._out1(self._drop_o1(F.relu(out1)))
            out2 = self._fc_o2(padax.flatten(self._conv_o2(out2), start_axis=1, stop_axis=-1))
            out2 = self._out2(self._drop_o2(out2))
        return out, out1, out2


def googlenet(pretrained: bool = False, **kwargs: Any) -> GoogLeNet:
    """GoogLeNet (Inception v1).

    Args:
        pretrained: load Paddle's published ImageNet weights from the local cache (see `weights_dir`; padax does not
            download); raises if the file is missing.
        **kwargs: passed on to `GoogLeNet` (`num_classes`, `with_pool`).

    Returns:
        A `GoogLeNet` layer (parameters initialised from the current `padax.nn.rng_scope` unless pretrained).

    Examples:
        >>> import padax
        >>> from padax.vision.models import googlenet
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return googlenet(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())  # as Paddle's googlenet(num_classes=10)
        8491486
    """
    model = GoogLeNet(**kwargs)
    return load_pretrained(model, "googlenet") if pretrained else model
