"""Pieces shared by the vision models: channel rounding, Conv-Norm-Activation blocks, name checks, and
loading pretrained weights from the local cache folder."""
from __future__ import annotations

import os
from typing import Any, Callable, Iterable

from padax import nn
from padax.serialization import load

# Where Paddle publishes each architecture's weights (padax reads the downloaded file locally, by its name).
_HAPI = "https://paddle-hapi.bj.bcebos.com/models/"
_IMAGENET = "https://paddle-imagenet-models-name.bj.bcebos.com/dygraph/"
WEIGHT_URLS = {
    "alexnet": _IMAGENET + "AlexNet_pretrained.pdparams",
    "densenet121": _IMAGENET + "DenseNet121_pretrained.pdparams",
    "densenet161": _IMAGENET + "DenseNet161_pretrained.pdparams",
    "densenet169": _IMAGENET + "DenseNet169_pretrained.pdparams",
    "densenet201": _IMAGENET + "DenseNet201_pretrained.pdparams",
    "densenet264": _IMAGENET + "DenseNet264_pretrained.pdparams",
    "googlenet": _IMAGENET + "GoogLeNet_pretrained.pdparams",
    "inception_v3": _HAPI + "inception_v3.pdparams",
    "mobilenetv1_1.0": _HAPI + "mobilenetv1_1.0.pdparams",
    "mobilenetv2_1.0": _HAPI + "mobilenet_v2_x1.0.pdparams",
    "mobilenet_v3_small_x1.0": _HAPI + "mobilenet_v3_small_x1.0.pdparams",
    "mobilenet_v3_large_x1.0": _HAPI + "mobilenet_v3_large_x1.0.pdparams",
    "resnet18": _HAPI + "resnet18.pdparams",
    "resnet34": _HAPI + "resnet34.pdparams",
    "resnet50": _HAPI + "resnet50.pdparams",
    "resnet101": _HAPI + "resnet101.pdparams",
    "resnet152": _HAPI + "resnet152.pdparams",
    "resnext50_32x4d": _HAPI + "resnext50_32x4d.pdparams",
    "resnext50_64x4d": _HAPI + "resnext50_64x4d.pdparams",
    "resnext101_32x4d": _HAPI + "resnext101_32x4d.pdparams",
    "resnext101_64x4d": _HAPI + "resnext101_64x4d.pdparams",
    "resnext152_32x4d": _HAPI + "resnext152_32x4d.pdparams",
    "resnext152_64x4d": _HAPI + "resnext152_64x4d.pdparams",
    "wide_resnet50_2": _HAPI + "wide_resnet50_2.pdparams",
    "wide_resnet101_2": _HAPI + "wide_resnet101_2.pdparams",
    "shufflenet_v2_x0_25": _HAPI + "shufflenet_v2_x0_25.pdparams",
    "shufflenet_v2_x0_33": _HAPI + "shufflenet_v2_x0_33.pdparams",
    "shufflenet_v2_x0_5": _HAPI + "shufflenet_v2_x0_5.pdparams",
    "shufflenet_v2_x1_0": _HAPI + "shufflenet_v2_x1_0.pdparams",
    "shufflenet_v2_x1_5": _HAPI + "shufflenet_v2_x1_5.pdparams",
    "shufflenet_v2_x2_0": _HAPI + "shufflenet_v2_x2_0.pdparams",
    "shufflenet_v2_swish": _HAPI + "shufflenet_v2_swish.pdparams",
    "squeezenet1_0": _IMAGENET + "SqueezeNet1_0_pretrained.pdparams",
    "squeezenet1_1": _IMAGENET + "SqueezeNet1_1_pretrained.pdparams",
    "vgg16": _HAPI + "vgg16.pdparams",
    "vgg19": _HAPI + "vgg19.pdparams",
}


def weights_dir() -> str:
    """Where pretrained weights are looked for: $PADAX_HOME/hapi/weights, else ~/.cache/padax/hapi/weights.

    Examples:
        >>> import os
        >>> from padax.vision.models import weights_dir
        >>> weights_dir().endswith(os.path.join("hapi", "weights"))  # under $PADAX_HOME, else ~/.cache/padax
        True
    """
    home = os.environ.get("PADAX_HOME") or os.path.join(os.path.expanduser("~"), ".cache", "padax")
    return os.path.join(home, "hapi", "weights")


def _paddle_weights_dir() -> str:
    return os.path.join(os.path.expanduser("~"), ".cache", "paddle", "hapi", "weights")


def load_pretrained(model: nn.Layer, arch: str) -> nn.Layer:
    """Load Paddle's published weights for `arch` into `model` from the local cache (no network access).

    The file is looked for in `weights_dir()`, then in Paddle's own cache (~/.cache/paddle/hapi/weights).
    """
    if arch not in WEIGHT_URLS:
        raise ValueError(f"{arch}: Paddle publishes no pretrained weights for this model; build it with "
                         f"pretrained=False. Models with weights: {sorted(WEIGHT_URLS)}")
    url = WEIGHT_URLS[arch]
    filename = url.rsplit("/", 1)[1]
    for folder in (weights_dir(), _paddle_weights_dir()):
        path = os.path.join(folder, filename)
        if os.path.isfile(path):
            model.set_state_dict(load(path, return_numpy=True))
            return model
    raise FileNotFoundError(
        f"{arch}: pretrained weights {filename!r} not found. padax does not download; put Paddle's file "
        f"{filename!r} (published at {url}) into {weights_dir()!r} (set $PADAX_HOME to move it), "
        "then build the model again.")


def check_choice(what: str, value: Any, valid: Iterable[Any]) -> None:
    """A clear error listing the valid values when `value` is not one of them."""
    valid = list(valid)
    if value not in valid:
        raise ValueError(f"{what} {value!r} is not supported; valid values are {valid}")


def make_divisible(v: float, divisor: int = 8, min_value: int | None = None) -> int:
    """`v` rounded to a multiple of `divisor` (never below `min_value`, nor more than 10% under `v`)."""
    min_value = divisor if min_value is None else min_value
    rounded = max(min_value, int(v + divisor / 2) // divisor * divisor)
    return rounded + divisor if rounded < 0.9 * v else rounded


class ConvNormActivation(nn.Sequential):
    """Conv2D, then a norm layer (BatchNorm2D by default), then an activation (ReLU by default); Paddle's
    `paddle.vision.ops.ConvNormActivation`, with the same sublayer names (0, 1, 2).

    Args:
        in_channels, out_channels: channels of the Conv2D.
        kernel_size, stride, dilation, groups: as in `padax.nn.Conv2D`.
        padding: the Conv2D padding; None pads `(kernel_size - 1) // 2 * dilation` ('same' for odd kernels).
        norm_layer: class called with `out_channels` (default BatchNorm2D); None leaves the norm out.
        activation_layer: class called with no arguments (default ReLU); None leaves the activation out.
        bias: whether the conv has a bias; None means "only when there is no norm layer".

    Returns:
        A `padax.nn.Sequential` of the conv, norm and activation layers.

    Examples:
        >>> import padax
        >>> from padax.vision.models import ConvNormActivation
        >>> def build(key):
        ...     with padax.nn.rng_scope(key):
        ...         return ConvNormActivation(3, 8, kernel_size=3, stride=2)  # Conv2D (no bias), BatchNorm2D, ReLU
        ...
        >>> block = padax.eval_shape(build, padax.random.key(0))
        >>> [type(layer).__name__ for layer in block.children()]
        ['Conv2D', 'BatchNorm2D', 'ReLU']
        >>> padax.eval_shape(lambda m, x: m.eval()(x), block, padax.ShapeDtypeStruct((1, 3, 32, 32), "float32")).shape
        (1, 8, 16, 16)
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any = 3, stride: Any = 1,
                 padding: Any = None, groups: int = 1, norm_layer: Callable[..., nn.Layer] | None = nn.BatchNorm2D,
                 activation_layer: Callable[..., nn.Layer] | None = nn.ReLU, dilation: int = 1,
                 bias: bool | None = None) -> None:
        if padding is None:
            padding = (kernel_size - 1) // 2 * dilation
        if bias is None:
            bias = norm_layer is None
        layers = [nn.Conv2D(in_channels, out_channels, kernel_size, stride, padding, dilation=dilation,
                            groups=groups, bias_attr=None if bias else False)]
        if norm_layer is not None:
            layers.append(norm_layer(out_channels))
        if activation_layer is not None:
            layers.append(activation_layer())
        super().__init__(*layers)


def run_named(layer: nn.Layer, names: Iterable[str], x: Any) -> Any:
    """Apply `layer`'s sublayers `names` in order (models that keep their blocks under custom names)."""
    for name in names:
        x = getattr(layer, name)(x)
    return x
