"""VGG 11/13/16/19, with or without batch norm (Paddle's `features` / `avgpool` / `classifier` layout)."""
from __future__ import annotations

from typing import Any, Sequence

import padax
from padax import nn
from padax.vision.models._utils import load_pretrained

# channels per conv layer; "M" is a 2x2 max pool
CONFIGS = {
    11: [64, "M", 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"],
    13: [64, 64, "M", 128, 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"],
    16: [64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M", 512, 512, 512, "M"],
    19: [64, 64, "M", 128, 128, "M", 256, 256, 256, 256, "M", 512, 512, 512, 512, "M", 512, 512, 512, 512, "M"],
}


class VGG(nn.Layer):
    """A VGG network around a `features` stack (see `make_layers`).

    Args:
        features: the convolutional stack (`make_layers`); must end with 512 channels.
        num_classes: outputs of the three-Linear classifier; `<= 0` leaves it out and returns the features.
        with_pool: adaptive-average-pool the features to 7x7 before the classifier.

    Returns:
        A layer mapping NCHW float images to (N, num_classes) logits, or the feature map when `num_classes <= 0`.

    Examples:
        >>> import padax
        >>> from padax.vision.models import VGG
        >>> from padax.vision.models.vgg import make_layers
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return VGG(make_layers([8, 'M', 512, 'M']), num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())
        119624426
        >>> out = padax.eval_shape(lambda m, x: m.eval()(x), net, padax.ShapeDtypeStruct((1, 3, 32, 32), "float32"))
        >>> out.shape
        (1, 10)
    """

    def __init__(self, features: nn.Layer, num_classes: int = 1000, with_pool: bool = True) -> None:
        super().__init__()
        self.features = features
        self.num_classes = num_classes
        self.with_pool = with_pool
        if with_pool:
            self.avgpool = nn.AdaptiveAvgPool2D((7, 7))
        if num_classes > 0:
            self.classifier = nn.Sequential(nn.Linear(512 * 7 * 7, 4096), nn.ReLU(), nn.Dropout(),
                                            nn.Linear(4096, 4096), nn.ReLU(), nn.Dropout(),
                                            nn.Linear(4096, num_classes))

    def forward(self, x):
        x = self.features(x)
        if self.with_pool:
            x = self.avgpool(x)
        if self.num_classes > 0:
            x = self.classifier(padax.flatten(x, 1))
        return x


def make_layers(cfg: Sequence[Any], batch_norm: bool = False) -> nn.Sequential:
    """The convolutional stack of a VGG configuration (3x3 convs, optional BatchNorm2D, ReLU, max pools)."""
    layers: list = []
    in_channels = 3
    for v in cfg:
        if v == "M":
            layers.append(nn.MaxPool2D(kernel_size=2, stride=2))
            continue
        layers.append(nn.Conv2D(in_channels, v, kernel_size=3, padding=1))
        if batch_norm:
            layers.append(nn.BatchNorm2D(v))
        layers.append(nn.ReLU())
        in_channels = v
    return nn.Sequential(*layers)


def _vgg(depth: int, pretrained: bool, batch_norm: bool, **kwargs: Any) -> VGG:
    model = VGG(make_layers(CONFIGS[depth], batch_norm=batch_norm), **kwargs)
    arch = f"vgg{depth}" + ("_bn" if batch_norm else "")
    return load_pretrained(model, arch) if pretrained else model


def vgg11(pretrained: bool = False, batch_norm: bool = False, **kwargs: Any) -> VGG:
    """VGG-11 (configuration A).

    Args:
        pretrained: load Paddle's published ImageNet weights from the local cache (see `weights_dir`; padax does not
            download); raises if the file is missing.
        batch_norm: put a BatchNorm2D after every conv (Paddle publishes weights only for vgg16 and vgg19
            without it; other variants raise with pretrained=True).
        **kwargs: passed on to `VGG` (`num_classes`, `with_pool`).

    Returns:
        A `VGG` layer (parameters initialised from the current `padax.nn.rng_scope` unless pretrained).

    Examples:
        >>> import padax
        >>> from padax.vision.models import vgg11
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return vgg11(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())  # as Paddle's vgg11(num_classes=10)
        128807306
    """
    return _vgg(11, pretrained, batch_norm, **kwargs)


def vgg13(pretrained: bool = False, batch_norm: bool = False, **kwargs: Any) -> VGG:
    """VGG-13 (configuration B).

    Args:
        pretrained: load Paddle's published ImageNet weights from the local cache (see `weights_dir`; padax does not
            download); raises if the file is missing.
        batch_norm: put a BatchNorm2D after every conv (Paddle publishes weights only for vgg16 and vgg19
            without it; other variants raise with pretrained=True).
        **kwargs: passed on to `VGG` (`num_classes`, `with_pool`).

    Returns:
        A `VGG` layer (parameters initialised from the current `padax.nn.rng_scope` unless pretrained).

    Examples:
        >>> import padax
        >>> from padax.vision.models import vgg13
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return vgg13(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())  # as Paddle's vgg13(num_classes=10)
        128991818
    """
    return _vgg(13, pretrained, batch_norm, **kwargs)


def vgg16(pretrained: bool = False, batch_norm: bool = False, **kwargs: Any) -> VGG:
    """VGG-16 (configuration D).

    Args:
        pretrained: load Paddle's published ImageNet weights from the local cache (see `weights_dir`; padax does not
            download); raises if the file is missing.
        batch_norm: put a BatchNorm2D after every conv (Paddle publishes weights only for vgg16 and vgg19
            without it; other variants raise with pretrained=True).
        **kwargs: passed on to `VGG` (`num_classes`, `with_pool`).

    Returns:
        A `VGG` layer (parameters initialised from the current `padax.nn.rng_scope` unless pretrained).

    Examples:
        >>> import padax
        >>> from padax.vision.models import vgg16
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return vgg16(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())  # as Paddle's vgg16(num_classes=10)
        134301514
    """
    return _vgg(16, pretrained, batch_norm, **kwargs)


def vgg19(pretrained: bool = False, batch_norm: bool = False, **kwargs: Any) -> VGG:
    """VGG-19 (configuration E).

    Args:
        pretrained: load Paddle's published ImageNet weights from the local cache (see `weights_dir`; padax does not
            download); raises if the file is missing.
        batch_norm: put a BatchNorm2D after every conv (Paddle publishes weights only for vgg16 and vgg19
            without it; other variants raise with pretrained=True).
        **kwargs: passed on to `VGG` (`num_classes`, `with_pool`).

    Returns:
        A `VGG` layer (parameters initialised from the current `padax.nn.rng_scope` unless pretrained).

    Examples:
        >>> import padax
        >>> from padax.vision.models import vgg19
        >>> def build(key):  # padax.eval_shape builds the model from shapes only: no weights are drawn
        ...     with padax.nn.rng_scope(key):
        ...         return vgg19(num_classes=10)
        ...
        >>> net = padax.eval_shape(build, padax.random.key(0))
        >>> sum(p.size for p in net.parameters())  # as Paddle's vgg19(num_classes=10)
        139611210
    """
    return _vgg(19, pretrained, batch_norm, **kwargs)
