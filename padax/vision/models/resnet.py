"""ResNet 18-152, ResNeXt and Wide ResNet with Paddle's names (`conv1`, `bn1`, `layer1`..`layer4`, `fc`)."""
from __future__ import annotations

from typing import Any

import padax
from padax import nn
from padax.vision.models._utils import check_choice, load_pretrained

# blocks per stage, by depth
STAGES = {18: [2, 2, 2, 2], 34: [3, 4, 6, 3], 50: [3, 4, 6, 3], 101: [3, 4, 23, 3], 152: [3, 8, 36, 3]}


class BasicBlock(nn.Layer):
    """Two 3x3 convs with batch norm and a residual connection."""

    expansion = 1

    def __init__(self, inplanes: int, planes: int, stride: int = 1, downsample: nn.Layer | None = None,
                 groups: int = 1, base_width: int = 64, dilation: int = 1, norm_layer: Any = None) -> None:
        super().__init__()
        norm_layer = norm_layer or nn.BatchNorm2D
        if dilation > 1:
            raise ValueError("BasicBlock: dilation > 1 is not supported (Paddle's BasicBlock has none)")
        self.conv1 = nn.Conv2D(inplanes, planes, 3, padding=1, stride=stride, bias_attr=False)
        self.bn1 = norm_layer(planes)
        self.relu = nn.ReLU()
        self.conv2 = nn.Conv2D(planes, planes, 3, padding=1, bias_attr=False)
        self.bn2 = norm_layer(planes)
        self.downsample = downsample
        self.stride = stride

    def forward(self, x):
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        identity = x if self.downsample is None else self.downsample(x)
        return self.relu(out + identity)


class BottleneckBlock(nn.Layer):
    """1x1 reduce, 3x3 (grouped for ResNeXt), 1x1 expand (x4), with batch norm and a residual connection."""

    expansion = 4

    def __init__(self, inplanes: int, planes: int, stride: int = 1, downsample: nn.Layer | None = None,
                 groups: int = 1, base_width: int = 64, dilation: int = 1, norm_layer: Any = None) -> None:
        super().__init__()
        norm_layer = norm_layer or nn.BatchNorm2D
        width = int(planes * (base_width / 64.0)) * groups
        self.conv1 = nn.Conv2D(inplanes, width, 1, bias_attr=False)
        self.bn1 = norm_layer(width)
        self.conv2 = nn.Conv2D(width, width, 3, padding=dilation, stride=stride, groups=groups, dilation=dilation,
                               bias_attr=False)
        self.bn2 = norm_layer(width)
        self.conv3 = nn.Conv2D(width, planes * self.expansion, 1, bias_attr=False)
        self.bn3 = norm_layer(planes * self.expansion)
        self.relu = nn.ReLU()
        self.downsample = downsample
        self.stride = stride

    def forward(self, x):
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        identity = x if self.downsample is None else self.downsample(x)
        return self.relu(out + identity)


class ResNet(nn.Layer):
    """ResNet of `depth` (18, 34, 50, 101, 152) built from `block`; `width` is the bottleneck base width
    (ResNeXt / Wide ResNet), `groups` the grouped-conv count (ResNeXt).

    Args:
        block: `BasicBlock` (ResNet-18/34) or `BottleneckBlock` (50 and deeper, ResNeXt, Wide ResNet).
        depth: 18, 34, 50, 101 or 152; picks the number of blocks per stage.
        width: base width of the bottleneck's 3x3 conv (64 for ResNet, 4 for ResNeXt, 128 for Wide ResNet).
        num_classes: outputs of the final classifier; `<= 0` leaves the classifier out and returns the features.
        with_pool: apply the global average pool (to 1x1) before the classifier.
        groups: groups of the bottleneck's 3x3 conv (32 or 64 for ResNeXt).

    Returns:
        A layer mapping NCHW float images to (N, num_classes) logits, or the feature map when `num_classes <= 0`.

    Examples:
        >>> import padax
        >>> from padax.vision.models import ResNet
        >>> from padax.vision.models.resnet import BasicBlock
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return ResNet(BasicBlock, depth=18, num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())
        11191242
        >>> out = padax.eval_shape(lambda m, x: m.eval()(x), net, padax.ShapeDtypeStruct((1, 3, 32, 32), "float32"))
        >>> out.shape
        (1, 10)
    """

    def __init__(self, block: type, depth: int = 50, width: int = 64, num_classes: int = 1000,
                 with_pool: bool = True, groups: int = 1) -> None:
        super().__init__()
        check_choice("ResNet depth", depth, STAGES)
        if block not in (BasicBlock, BottleneckBlock):
            raise TypeError(f"ResNet: block must be BasicBlock or BottleneckBlock, got {block!r}")
        layers = STAGES[depth]
        self.groups, self.base_width = groups, width
        self.num_classes, self.with_pool = num_classes, with_pool
        self.inplanes, self.dilation = 64, 1
        self.conv1 = nn.Conv2D(3, self.inplanes, kernel_size=7, stride=2, padding=3, bias_attr=False)
        self.bn1 = nn.BatchNorm2D(self.inplanes)
        self.relu = nn.ReLU()
        self.maxpool = nn.MaxPool2D(kernel_size=3, stride=2, padding=1)
        self.layer1 = self._make_layer(block, 64, layers[0])
        self.layer2 = self._make_layer(block, 128, layers[1], stride=2)
        self.layer3 = self._make_layer(block, 256, layers[2], stride=2)
        self.layer4 = self._make_layer(block, 512, layers[3], stride=2)
        if with_pool:
            self.avgpool = nn.AdaptiveAvgPool2D((1, 1))
        if num_classes > 0:
            self.fc = nn.Linear(512 * block.expansion, num_classes)

    def _make_layer(self, block: type, planes: int, blocks: int, stride: int = 1) -> nn.Sequential:
        downsample = None
        if stride != 1 or self.inplanes != planes * block.expansion:
            downsample = nn.Sequential(
                nn.Conv2D(self.inplanes, planes * block.expansion, 1, stride=stride, bias_attr=False),
                nn.BatchNorm2D(planes * block.expansion))
        layers = [block(self.inplanes, planes, stride, downsample, self.groups, self.base_width, self.dilation)]
        self.inplanes = planes * block.expansion
        for _ in range(1, blocks):
            layers.append(block(self.inplanes, planes, groups=self.groups, base_width=self.base_width))
        return nn.Sequential(*layers)

    def forward(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        if self.with_pool:
            x = self.avgpool(x)
        if self.num_classes > 0:
            x = self.fc(padax.flatten(x, 1))
        return x


def _resnet(arch: str, block: type, depth: int, pretrained: bool, **kwargs: Any) -> ResNet:
    model = ResNet(block, depth, **kwargs)
    return load_pretrained(model, arch) if pretrained else model


def resnet18(pretrained: bool = False, **kwargs: Any) -> ResNet:
    """ResNet-18.

    Args:
        pretrained: load Paddle's published ImageNet weights from the local cache (see `weights_dir`; padax does not
            download); raises if the file is missing.
        **kwargs: passed on to `ResNet` (`num_classes`, `with_pool`).

    Returns:
        A `ResNet` layer (parameters initialised from the current `padax.nn.rng_scope` unless pretrained).

    Examples:
        >>> import padax
        >>> from padax.vision.models import resnet18
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return resnet18(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())  # as Paddle's resnet18(num_classes=10)
        11191242
    """
    return _resnet("resnet18", BasicBlock, 18, pretrained, **kwargs)


def resnet34(pretrained: bool = False, **kwargs: Any) -> ResNet:
    """ResNet-34.

    Args:
        pretrained: load Paddle's published ImageNet weights from the local cache (see `weights_dir`; padax does not
            download); raises if the file is missing.
        **kwargs: passed on to `ResNet` (`num_classes`, `with_pool`).

    Returns:
        A `ResNet` layer (parameters initialised from the current `padax.nn.rng_scope` unless pretrained).

    Examples:
        >>> import padax
        >>> from padax.vision.models import resnet34
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return resnet34(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())  # as Paddle's resnet34(num_classes=10)
        21306826
    """
    return _resnet("resnet34", BasicBlock, 34, pretrained, **kwargs)


def resnet50(pretrained: bool = False, **kwargs: Any) -> ResNet:
    """ResNet-50.

    Args:
        pretrained: load Paddle's published ImageNet weights from the local cache (see `weights_dir`; padax does not
            download); raises if the file is missing.
        **kwargs: passed on to `ResNet` (`num_classes`, `with_pool`).

    Returns:
        A `ResNet` layer (parameters initialised from the current `padax.nn.rng_scope` unless pretrained).

    Examples:
        >>> import padax
        >>> from padax.vision.models import resnet50
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return resnet50(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())  # as Paddle's resnet50(num_classes=10)
        23581642
    """
    return _resnet("resnet50", BottleneckBlock, 50, pretrained, **kwargs)


def resnet101(pretrained: bool = False, **kwargs: Any) -> ResNet:
    """ResNet-101.

    Args:
        pretrained: load Paddle's published ImageNet weights from the local cache (see `weights_dir`; padax does not
            download); raises if the file is missing.
        **kwargs: passed on to `ResNet` (`num_classes`, `with_pool`).

    Returns:
        A `ResNet` layer (parameters initialised from the current `padax.nn.rng_scope` unless pretrained).

    Examples:
        >>> import padax
        >>> from padax.vision.models import resnet101
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return resnet101(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())  # as Paddle's resnet101(num_classes=10)
        42625994
    """
    return _resnet("resnet101", BottleneckBlock, 101, pretrained, **kwargs)


def resnet152(pretrained: bool = False, **kwargs: Any) -> ResNet:
    """ResNet-152.

    Args:
        pretrained: load Paddle's published ImageNet weights from the local cache (see `weights_dir`; padax does not
            download); raises if the file is missing.
        **kwargs: passed on to `ResNet` (`num_classes`, `with_pool`).

    Returns:
        A `ResNet` layer (parameters initialised from the current `padax.nn.rng_scope` unless pretrained).

    Examples:
        >>> import padax
        >>> from padax.vision.models import resnet152
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return resnet152(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())  # as Paddle's resnet152(num_classes=10)
        58315722
    """
    return _resnet("resnet152", BottleneckBlock, 152, pretrained, **kwargs)


def _resnext(depth: int, groups: int, pretrained: bool, **kwargs: Any) -> ResNet:
    kwargs["groups"], kwargs["width"] = groups, 4
    return _resnet(f"resnext{depth}_{groups}x4d", BottleneckBlock, depth, pretrained, **kwargs)


def resnext50_32x4d(pretrained: bool = False, **kwargs: Any) -> ResNet:
    """ResNeXt-50, 32 groups of width 4.

    Args:
        pretrained: load Paddle's published ImageNet weights from the local cache (see `weights_dir`; padax does not
            download); raises if the file is missing.
        **kwargs: passed on to `ResNet` (`num_classes`, `with_pool`).

    Returns:
        A `ResNet` layer (parameters initialised from the current `padax.nn.rng_scope` unless pretrained).

    Examples:
        >>> import padax
        >>> from padax.vision.models import resnext50_32x4d
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return resnext50_32x4d(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())  # as Paddle's resnext50_32x4d(num_classes=10)
        23068618
    """
    return _resnext(50, 32, pretrained, **kwargs)


def resnext50_64x4d(pretrained: bool = False, **kwargs: Any) -> ResNet:
    """ResNeXt-50, 64 groups of width 4.

    Args:
        pretrained: load Paddle's published ImageNet weights from the local cache (see `weights_dir`; padax does not
            download); raises if the file is missing.
        **kwargs: passed on to `ResNet` (`num_classes`, `with_pool`).

    Returns:
        A `ResNet` layer (parameters initialised from the current `padax.nn.rng_scope` unless pretrained).

    Examples:
        >>> import padax
        >>> from padax.vision.models import resnext50_64x4d
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return resnext50_64x4d(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())  # as Paddle's resnext50_64x4d(num_classes=10)
        43262410
    """
    return _resnext(50, 64, pretrained, **kwargs)


def resnext101_32x4d(pretrained: bool = False, **kwargs: Any) -> ResNet:
    """ResNeXt-101, 32 groups of width 4.

    Args:
        pretrained: load Paddle's published ImageNet weights from the local cache (see `weights_dir`; padax does not
            download); raises if the file is missing.
        **kwargs: passed on to `ResNet` (`num_classes`, `with_pool`).

    Returns:
        A `ResNet` layer (parameters initialised from the current `padax.nn.rng_scope` unless pretrained).

    Examples:
        >>> import padax
        >>> from padax.vision.models import resnext101_32x4d
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return resnext101_32x4d(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())  # as Paddle's resnext101_32x4d(num_classes=10)
        42287050
    """
    return _resnext(101, 32, pretrained, **kwargs)


def resnext101_64x4d(pretrained: bool = False, **kwargs: Any) -> ResNet:
    """ResNeXt-101, 64 groups of width 4.

    Args:
        pretrained: load Paddle's published ImageNet weights from the local cache (see `weights_dir`; padax does not
            download); raises if the file is missing.
        **kwargs: passed on to `ResNet` (`num_classes`, `with_pool`).

    Returns:
        A `ResNet` layer (parameters initialised from the current `padax.nn.rng_scope` unless pretrained).

    Examples:
        >>> import padax
        >>> from padax.vision.models import resnext101_64x4d
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return resnext101_64x4d(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())  # as Paddle's resnext101_64x4d(num_classes=10)
        81629642
    """
    return _resnext(101, 64, pretrained, **kwargs)


def resnext152_32x4d(pretrained: bool = False, **kwargs: Any) -> ResNet:
    """ResNeXt-152, 32 groups of width 4.

    Args:
        pretrained: load Paddle's published ImageNet weights from the local cache (see `weights_dir`; padax does not
            download); raises if the file is missing.
        **kwargs: passed on to `ResNet` (`num_classes`, `with_pool`).

    Returns:
        A `ResNet` layer (parameters initialised from the current `padax.nn.rng_scope` unless pretrained).

    Examples:
        >>> import padax
        >>> from padax.vision.models import resnext152_32x4d
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return resnext152_32x4d(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())  # as Paddle's resnext152_32x4d(num_classes=10)
        58122186
    """
    return _resnext(152, 32, pretrained, **kwargs)


def resnext152_64x4d(pretrained: bool = False, **kwargs: Any) -> ResNet:
    """ResNeXt-152, 64 groups of width 4.

    Args:
        pretrained: load Paddle's published ImageNet weights from the local cache (see `weights_dir`; padax does not
            download); raises if the file is missing.
        **kwargs: passed on to `ResNet` (`num_classes`, `with_pool`).

    Returns:
        A `ResNet` layer (parameters initialised from the current `padax.nn.rng_scope` unless pretrained).

    Examples:
        >>> import padax
        >>> from padax.vision.models import resnext152_64x4d
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return resnext152_64x4d(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())  # as Paddle's resnext152_64x4d(num_classes=10)
        113238474
    """
    return _resnext(152, 64, pretrained, **kwargs)


def wide_resnet50_2(pretrained: bool = False, **kwargs: Any) -> ResNet:
    """Wide ResNet-50-2 (bottleneck width doubled).

    Args:
        pretrained: load Paddle's published ImageNet weights from the local cache (see `weights_dir`; padax does not
            download); raises if the file is missing.
        **kwargs: passed on to `ResNet` (`num_classes`, `with_pool`).

    Returns:
        A `ResNet` layer (parameters initialised from the current `padax.nn.rng_scope` unless pretrained).

    Examples:
        >>> import padax
        >>> from padax.vision.models import wide_resnet50_2
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return wide_resnet50_2(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())  # as Paddle's wide_resnet50_2(num_classes=10)
        66922954
    """
    kwargs["width"] = 128
    return _resnet("wide_resnet50_2", BottleneckBlock, 50, pretrained, **kwargs)


def wide_resnet101_2(pretrained: bool = False, **kwargs: Any) -> ResNet:
    """Wide ResNet-101-2 (bottleneck width doubled).

    Args:
        pretrained: load Paddle's published ImageNet weights from the local cache (see `weights_dir`; padax does not
            download); raises if the file is missing.
        **kwargs: passed on to `ResNet` (`num_classes`, `with_pool`).

    Returns:
        A `ResNet` layer (parameters initialised from the current `padax.nn.rng_scope` unless pretrained).

    Examples:
        >>> import padax
        >>> from padax.vision.models import wide_resnet101_2
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return wide_resnet101_2(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())  # as Paddle's wide_resnet101_2(num_classes=10)
        124996042
    """
    kwargs["width"] = 128
    return _resnet("wide_resnet101_2", BottleneckBlock, 101, pretrained, **kwargs)
