"""DenseNet 121/161/169/201/264 with Paddle's names (`conv1_func`, `db_conv_2`.., `tr_conv2_blk`.., `out`)."""
from __future__ import annotations

import math
from typing import Any

import padax
from padax import nn
from padax.nn.initializer import Uniform
from padax.vision.models._utils import check_choice, load_pretrained, run_named

# initial features, growth rate, layers per dense block
SPECS = {121: (64, 32, [6, 12, 24, 16]), 161: (96, 48, [6, 12, 36, 24]), 169: (64, 32, [6, 12, 32, 32]),
         201: (64, 32, [6, 12, 48, 32]), 264: (64, 32, [6, 12, 64, 48])}


class BNACConvLayer(nn.Layer):
    """BatchNorm + activation, then a bias-free Conv2D (pre-activation)."""

    def __init__(self, num_channels: int, num_filters: int, filter_size: Any, stride: Any = 1, pad: Any = 0,
                 groups: int = 1, act: str = "relu") -> None:
        super().__init__()
        self._batch_norm = nn.BatchNorm(num_channels, act=act)
        self._conv = nn.Conv2D(num_channels, num_filters, filter_size, stride=stride, padding=pad, groups=groups,
                               bias_attr=False)

    def forward(self, input):
        return self._conv(self._batch_norm(input))


class DenseLayer(nn.Layer):
    """Bottleneck (1x1 to bn_size*growth) then 3x3 to `growth_rate` channels, concatenated to the input."""

    def __init__(self, num_channels: int, growth_rate: int, bn_size: int, dropout: float) -> None:
        super().__init__()
        self.dropout = dropout
        self.bn_ac_func1 = BNACConvLayer(num_channels, bn_size * growth_rate, 1, pad=0, stride=1)
        self.bn_ac_func2 = BNACConvLayer(bn_size * growth_rate, growth_rate, 3, pad=1, stride=1)
        if dropout:
            self.dropout_func = nn.Dropout(p=dropout, mode="downscale_in_infer")

    def forward(self, input):
        conv = self.bn_ac_func2(self.bn_ac_func1(input))
        if self.dropout:
            conv = self.dropout_func(conv)
        return padax.concat([input, conv], axis=1)


class DenseBlock(nn.Layer):
    """`num_layers` DenseLayers named `{name}_1`, `{name}_2`, ..."""

    def __init__(self, num_channels: int, num_layers: int, bn_size: int, growth_rate: int, dropout: float,
                 name: str | None = None) -> None:
        super().__init__()
        self.dropout = dropout
        names = []
        for i in range(num_layers):
            names.append(f"{name}_{i + 1}")
            self.add_sublayer(names[-1], DenseLayer(num_channels + i * growth_rate, growth_rate, bn_size, dropout))
        self._layer_names = tuple(names)

    def forward(self, input):
        return run_named(self, self._layer_names, input)


class TransitionLayer(nn.Layer):
    """BN-ReLU-1x1 conv then 2x2 average pooling between dense blocks."""

    def __init__(self, num_channels: int, num_output_features: int) -> None:
        super().__init__()
        self.conv_ac_func = BNACConvLayer(num_channels, num_output_features, 1, pad=0, stride=1)
        self.pool2d_avg = nn.AvgPool2D(kernel_size=2, stride=2, padding=0)

    def forward(self, input):
        return self.pool2d_avg(self.conv_ac_func(input))


class ConvBNLayer(nn.Layer):
    """Bias-free Conv2D then BatchNorm + activation."""

    def __init__(self, num_channels: int, num_filters: int, filter_size: Any, stride: Any = 1, pad: Any = 0,
                 groups: int = 1, act: str = "relu") -> None:
        super().__init__()
        self._conv = nn.Conv2D(num_channels, num_filters, filter_size, stride=stride, padding=pad, groups=groups,
                               bias_attr=False)
        self._batch_norm = nn.BatchNorm(num_filters, act=act)

    def forward(self, input):
        return self._batch_norm(self._conv(input))


class DenseNet(nn.Layer):
    """DenseNet with `layers` in (121, 161, 169, 201, 264).

    Args:
        layers: depth, one of 121, 161, 169, 201, 264 (sets growth rate and blocks per stage).
        bn_size: bottleneck width of each dense layer, in multiples of the growth rate.
        dropout: dropout rate after each dense layer (0 disables it).
        num_classes: outputs of the final classifier; `<= 0` leaves the classifier out and returns the features.
        with_pool: apply the global average pool (to 1x1) before the classifier.

    Returns:
        A layer mapping NCHW float images to (N, num_classes) logits, or the feature map when `num_classes <= 0`.

    Examples:
        >>> import padax
        >>> from padax.vision.models import DenseNet
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return DenseNet(layers=121, num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())
        7047754
        >>> out = padax.eval_shape(lambda m, x: m.eval()(x), net, padax.ShapeDtypeStruct((1, 3, 32, 32), "float32"))
        >>> out.shape
        (1, 10)
    """

    def __init__(self, layers: int = 121, bn_size: int = 4, dropout: float = 0.0, num_classes: int = 1000,
                 with_pool: bool = True) -> None:
        super().__init__()
        check_choice("DenseNet layers", layers, SPECS)
        self.num_classes, self.with_pool = num_classes, with_pool
        num_init_features, growth_rate, block_config = SPECS[layers]
        self.block_config = tuple(block_config)
        self.conv1_func = ConvBNLayer(3, num_init_features, 7, stride=2, pad=3, act="relu")
        self.pool2d_max = nn.MaxPool2D(kernel_size=3, stride=2, padding=1)
        order, num_features = [], num_init_features
        for i, num_layers in enumerate(block_config):
            self.add_sublayer(f"db_conv_{i + 2}", DenseBlock(num_features, num_layers, bn_size, growth_rate, dropout,
                                                            name=f"conv{i + 2}"))
            order.append(f"db_conv_{i + 2}")
            num_features += num_layers * growth_rate
            if i != len(block_config) - 1:
                self.add_sublayer(f"tr_conv{i + 2}_blk", TransitionLayer(num_features, num_features // 2))
                order.append(f"tr_conv{i + 2}_blk")
                num_features //= 2
        self._block_names = tuple(order)
        self.batch_norm = nn.BatchNorm(num_features, act="relu")
        if with_pool:
            self.pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            stdv = 1.0 / math.sqrt(num_features * 1.0)
            self.out = nn.Linear(num_features, num_classes,
                                 weight_attr=nn.ParamAttr(initializer=Uniform(-stdv, stdv)))

    def forward(self, input):
        y = self.pool2d_max(self.conv1_func(input))
        y = self.batch_norm(run_named(self, self._block_names, y))
        if self.with_pool:
            y = self.pool2d_avg(y)
        if self.num_classes > 0:
            y = self.out(padax.flatten(y, start_axis=1, stop_axis=-1))
        return y


def _densenet(layers: int, pretrained: bool, **kwargs: Any) -> DenseNet:
    model = DenseNet(layers=layers, **kwargs)
    return load_pretrained(model, f"densenet{layers}") if pretrained else model


def densenet121(pretrained: bool = False, **kwargs: Any) -> DenseNet:
    """DenseNet-121.

    Args:
        pretrained: load Paddle's published ImageNet weights from the local cache (see `weights_dir`; padax does not
            download); raises if the file is missing.
        **kwargs: passed on to `DenseNet` (`bn_size`, `dropout`, `num_classes`, `with_pool`).

    Returns:
        A `DenseNet` layer (parameters initialised from the current `padax.nn.rng_scope` unless pretrained).

    Examples:
        >>> import padax
        >>> from padax.vision.models import densenet121
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return densenet121(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())  # as Paddle's densenet121(num_classes=10)
        7047754
    """
    return _densenet(121, pretrained, **kwargs)


def densenet161(pretrained: bool = False, **kwargs: Any) -> DenseNet:
    """DenseNet-161.

    Args:
        pretrained: load Paddle's published ImageNet weights from the local cache (see `weights_dir`; padax does not
            download); raises if the file is missing.
        **kwargs: passed on to `DenseNet` (`bn_size`, `dropout`, `num_classes`, `with_pool`).

    Returns:
        A `DenseNet` layer (parameters initialised from the current `padax.nn.rng_scope` unless pretrained).

    Examples:
        >>> import padax
        >>> from padax.vision.models import densenet161
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return densenet161(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())  # as Paddle's densenet161(num_classes=10)
        26714026
    """
    return _densenet(161, pretrained, **kwargs)


def densenet169(pretrained: bool = False, **kwargs: Any) -> DenseNet:
    """DenseNet-169.

    Args:
        pretrained: load Paddle's published ImageNet weights from the local cache (see `weights_dir`; padax does not
            download); raises if the file is missing.
        **kwargs: passed on to `DenseNet` (`bn_size`, `dropout`, `num_classes`, `with_pool`).

    Returns:
        A `DenseNet` layer (parameters initialised from the current `padax.nn.rng_scope` unless pretrained).

    Examples:
        >>> import padax
        >>> from padax.vision.models import densenet169
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return densenet169(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())  # as Paddle's densenet169(num_classes=10)
        12659530
    """
    return _densenet(169, pretrained, **kwargs)


def densenet201(pretrained: bool = False, **kwargs: Any) -> DenseNet:
    """DenseNet-201.

    Args:
        pretrained: load Paddle's published ImageNet weights from the local cache (see `weights_dir`; padax does not
            download); raises if the file is missing.
        **kwargs: passed on to `DenseNet` (`bn_size`, `dropout`, `num_classes`, `with_pool`).

    Returns:
        A `DenseNet` layer (parameters initialised from the current `padax.nn.rng_scope` unless pretrained).

    Examples:
        >>> import padax
        >>> from padax.vision.models import densenet201
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return densenet201(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())  # as Paddle's densenet201(num_classes=10)
        18341194
    """
    return _densenet(201, pretrained, **kwargs)


def densenet264(pretrained: bool = False, **kwargs: Any) -> DenseNet:
    """DenseNet-264.

    Args:
        pretrained: load Paddle's published ImageNet weights from the local cache (see `weights_dir`; padax does not
            download); raises if the file is missing.
        **kwargs: passed on to `DenseNet` (`bn_size`, `dropout`, `num_classes`, `with_pool`).

    Returns:
        A `DenseNet` layer (parameters initialised from the current `padax.nn.rng_scope` unless pretrained).

    Examples:
        >>> import padax
        >>> from padax.vision.models import densenet264
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return densenet264(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())  # as Paddle's densenet264(num_classes=10)
        31074122
    """
    return _densenet(264, pretrained, **kwargs)
