"""Every activation of paddle.nn as a layer (Paddle's names, constructor arguments and defaults).

Each applies the nn.functional op of the same name; PReLU holds its learnable slopes `_weight`.
"""
from __future__ import annotations

from typing import Any

from padax.nn import functional as F
from padax.nn.initializer import Constant
from padax.nn.layer._calls import check_input
from padax.nn.layer._functional import FunctionalLayer
from padax.nn.layer.layers import Layer


class CELU(FunctionalLayer):
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1))."""

    _op = staticmethod(F.celu)

    def __init__(self, alpha: float = 1.0, name: str | None = None) -> None:
        super().__init__(alpha=alpha)


class ELU(FunctionalLayer):
    """x if x > 0 else alpha * (exp(x) - 1)."""

    _op = staticmethod(F.elu)

    def __init__(self, alpha: float = 1.0, name: str | None = None) -> None:
        super().__init__(alpha=alpha)


class GELU(FunctionalLayer):
    """Gaussian error linear unit (tanh approximation when `approximate`)."""

    _op = staticmethod(F.gelu)

    def __init__(self, approximate: Any = False, name: str | None = None) -> None:
        super().__init__(approximate=approximate)


class GLU(FunctionalLayer):
    """Gated linear unit: the first half of `axis` times the sigmoid of the second half."""

    _op = staticmethod(F.glu)

    def __init__(self, axis: int = -1, name: str | None = None) -> None:
        super().__init__(axis=axis)


class Hardshrink(FunctionalLayer):
    """x where |x| > threshold, else 0."""

    _op = staticmethod(F.hardshrink)

    def __init__(self, threshold: float = 0.5, name: str | None = None) -> None:
        super().__init__(threshold=threshold)


class Softshrink(FunctionalLayer):
    """x - sign(x) * threshold where |x| > threshold, else 0."""

    _op = staticmethod(F.softshrink)

    def __init__(self, threshold: float = 0.5, name: str | None = None) -> None:
        super().__init__(threshold=threshold)


class Hardtanh(FunctionalLayer):
    """clip(x, min, max)."""

    _op = staticmethod(F.hardtanh)

    def __init__(self, min: float = -1.0, max: float = 1.0, name: str | None = None) -> None:  # noqa: A002
        super().__init__(min=min, max=max)


class LeakyReLU(FunctionalLayer):
    """x if x >= 0 else negative_slope * x."""

    _op = staticmethod(F.leaky_relu)

    def __init__(self, negative_slope: float = 0.01, name: str | None = None) -> None:
        super().__init__(negative_slope=negative_slope)


class LogSoftmax(FunctionalLayer):
    """log(softmax(x)) along `axis`."""

    _op = staticmethod(F.log_softmax)

    def __init__(self, axis: int = -1, name: str | None = None) -> None:
        super().__init__(axis=axis)


class Softmax(FunctionalLayer):
    """softmax along `axis`."""

    _op = staticmethod(F.softmax)

    def __init__(self, axis: int = -1, name: str | None = None) -> None:
        super().__init__(axis=axis)


class Softmax2D(FunctionalLayer):
    """softmax over the channels of a [C, H, W] or [N, C, H, W] input."""

    _op = staticmethod(F.softmax)
    _ranks, _layout = (3, 4), "([N,] C, H, W)"

    def __init__(self, name: str | None = None) -> None:
        super().__init__(axis=-3)

    def extra_repr(self) -> str:
        return ""


class Maxout(FunctionalLayer):
    """The maximum over `groups` consecutive channels along `axis`."""

    _op = staticmethod(F.maxout)

    def __init__(self, groups: int, axis: int = 1, name: str | None = None) -> None:
        super().__init__(groups=groups, axis=axis)


class RReLU(FunctionalLayer):
    """Randomized leaky ReLU: a random slope in [lower, upper] in training mode, their mean in eval mode."""

    _op = staticmethod(F.rrelu)
    _with_training = True

    def __init__(self, lower: float = 1.0 / 8.0, upper: float = 1.0 / 3.0, name: str | None = None) -> None:
        super().__init__(lower=lower, upper=upper)


class SELU(FunctionalLayer):
    """scale * (x if x > 0 else alpha * (exp(x) - 1))."""

    _op = staticmethod(F.selu)

    def __init__(self, scale: float = 1.0507009873554804934193349852946,
                 alpha: float = 1.6732632423543772848170429916717, name: str | None = None) -> None:
        super().__init__(scale=scale, alpha=alpha)


class Softplus(FunctionalLayer):
    """log(1 + exp(beta * x)) / beta, linear above `threshold`."""

    _op = staticmethod(F.softplus)

    def __init__(self, beta: float = 1, threshold: float = 20, name: str | None = None) -> None:
        super().__init__(beta=beta, threshold=threshold)


class ThresholdedReLU(FunctionalLayer):
    """x if x > threshold else value."""

    _op = staticmethod(F.thresholded_relu)

    def __init__(self, threshold: float = 1.0, value: float = 0.0, name: str | None = None) -> None:
        super().__init__(threshold=threshold, value=value)


class SiLU(FunctionalLayer):
    """x * sigmoid(x)."""

    _op = staticmethod(F.silu)

    def __init__(self, inplace: bool = False, name: str | None = None) -> None:
        super().__init__()


def _plain(name: str, op: Any, doc: str) -> type:
    """A parameter-free activation layer taking only `name` (ReLU, Tanh, ...)."""

    def __init__(self: Any, name: str | None = None) -> None:
        FunctionalLayer.__init__(self)

    return type(name, (FunctionalLayer,), {"__doc__": doc, "__init__": __init__, "_op": staticmethod(op),
                                          "__module__": __name__})


ReLU = _plain("ReLU", F.relu, "max(x, 0).")
ReLU6 = _plain("ReLU6", F.relu6, "min(max(x, 0), 6).")
Sigmoid = _plain("Sigmoid", F.sigmoid, "1 / (1 + exp(-x)).")
Tanh = _plain("Tanh", F.tanh, "tanh(x).")
Hardsigmoid = _plain("Hardsigmoid", F.hardsigmoid, "clip(x / 6 + 1 / 2, 0, 1).")
Hardswish = _plain("Hardswish", F.hardswish, "x * clip(x + 3, 0, 6) / 6.")
LogSigmoid = _plain("LogSigmoid", F.log_sigmoid, "log(sigmoid(x)).")
Mish = _plain("Mish", F.mish, "x * tanh(softplus(x)).")
Softsign = _plain("Softsign", F.softsign, "x / (1 + |x|).")
Swish = _plain("Swish", F.swish, "x * sigmoid(x).")
Tanhshrink = _plain("Tanhshrink", F.tanhshrink, "x - tanh(x).")
Silu = SiLU


class PReLU(Layer):
    """x if x >= 0 else weight * x, with `num_parameters` learnable slopes (1, or one per channel) in `_weight`
    initialised to `init`."""

    def __init__(self, num_parameters: int = 1, init: float = 0.25, weight_attr: Any = None,
                 data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__()
        self._num_parameters, self._init, self._data_format, self._name = num_parameters, init, data_format, name
        self._weight = self.create_parameter([num_parameters], attr=weight_attr, default_initializer=Constant(init))

    def forward(self, x: Any) -> Any:
        if self._num_parameters != 1:
            axis = 1 if self._data_format[1] == "C" else -1
            check_input(self, x, axis=axis, size=self._num_parameters, layout=f"({self._data_format})")
        return F.prelu(x, self._weight, data_format=self._data_format)

    def extra_repr(self) -> str:
        name = f", name={self._name}" if self._name else ""
        return f"num_parameters={self._num_parameters}, data_format={self._data_format}, init={self._init}, " \
               f"dtype={self._dtype}{name}"
