"""Every activation of paddle.nn as a layer (Paddle's names, constructor arguments and defaults).

Each applies the nn.functional op of the same name; PReLU holds its learnable slopes `_weight`.
"""
from __future__ import annotations

from typing import Any

from padax.functional._docs import example_doc
from padax.nn import functional as F
from padax.nn.initializer import Constant
from padax.nn.layer._calls import check_input
from padax.nn.layer._functional import FunctionalLayer
from padax.nn.layer.layers import Layer


class CELU(FunctionalLayer):
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1)).

    Args:
        alpha: the scale of the negative branch (nonzero).

    Returns:
        layer(x): a Tensor -> the activation of x, same shape.

    Examples:
        >>> import padax
        >>> padax.nn.CELU(alpha=2.0)(padax.to_tensor([-1.0, 2.0])).tolist()
        [-0.7869, 2.0]
    """

    _op = staticmethod(F.celu)

    def __init__(self, alpha: float = 1.0, name: str | None = None) -> None:
        super().__init__(alpha=alpha)


class ELU(FunctionalLayer):
    """x if x > 0 else alpha * (exp(x) - 1).

    Args:
        alpha: the scale of the negative branch.

    Returns:
        layer(x): a Tensor -> the activation of x, same shape.

    Examples:
        >>> import padax
        >>> padax.nn.ELU()(padax.to_tensor([-1.0, 2.0])).tolist()
        [-0.6321, 2.0]
    """

    _op = staticmethod(F.elu)

    def __init__(self, alpha: float = 1.0, name: str | None = None) -> None:
        super().__init__(alpha=alpha)


class GELU(FunctionalLayer):
    """Gaussian error linear unit (tanh approximation when `approximate`).

    Args:
        approximate: True or 'tanh' for the tanh approximation; False or 'none' for the exact erf form.

    Returns:
        layer(x): a Tensor -> the activation of x, same shape.

    Examples:
        >>> import padax
        >>> padax.nn.GELU()(padax.to_tensor([-1.0, 1.0])).tolist()
        [-0.1587, 0.8413]
        >>> padax.nn.GELU(approximate=True)(padax.to_tensor([1.0])).tolist()
        [0.8412]
    """

    _op = staticmethod(F.gelu)

    def __init__(self, approximate: Any = False, name: str | None = None) -> None:
        super().__init__(approximate=approximate)


class GLU(FunctionalLayer):
    """Gated linear unit: the first half of `axis` times the sigmoid of the second half.

    Args:
        axis: the axis split in two halves (its size must be even).

    Returns:
        layer(x): a Tensor -> a float Tensor with `axis` halved.

    Examples:
        >>> import padax
        >>> padax.nn.GLU(axis=1)(padax.to_tensor([[1.0, 2.0, 0.0, 100.0]])).tolist()
        [[0.5, 2.0]]
    """

    _op = staticmethod(F.glu)

    def __init__(self, axis: int = -1, name: str | None = None) -> None:
        super().__init__(axis=axis)


class Hardshrink(FunctionalLayer):
    """x where |x| > threshold, else 0.

    Args:
        threshold: values with |x| <= threshold become 0.

    Returns:
        layer(x): a Tensor -> the activation of x, same shape.

    Examples:
        >>> import padax
        >>> padax.nn.Hardshrink(threshold=1.0)(padax.to_tensor([-2.0, 0.5, 1.5])).tolist()
        [-2.0, 0.0, 1.5]
    """

    _op = staticmethod(F.hardshrink)

    def __init__(self, threshold: float = 0.5, name: str | None = None) -> None:
        super().__init__(threshold=threshold)


class Softshrink(FunctionalLayer):
    """x - sign(x) * threshold where |x| > threshold, else 0.

    Args:
        threshold: a non-negative width of the zero band.

    Returns:
        layer(x): a Tensor -> the activation of x, same shape.

    Examples:
        >>> import padax
        >>> padax.nn.Softshrink(threshold=1.0)(padax.to_tensor([-2.0, 0.5, 1.5])).tolist()
        [-1.0, 0.0, 0.5]
    """

    _op = staticmethod(F.softshrink)

    def __init__(self, threshold: float = 0.5, name: str | None = None) -> None:
        super().__init__(threshold=threshold)


class Hardtanh(FunctionalLayer):
    """clip(x, min, max).

    Args:
        min, max: the clip bounds.

    Returns:
        layer(x): a Tensor -> the activation of x, same shape.

    Examples:
        >>> import padax
        >>> padax.nn.Hardtanh(min=-2.0, max=2.0)(padax.to_tensor([-3.0, 1.0, 5.0])).tolist()
        [-2.0, 1.0, 2.0]
    """

    _op = staticmethod(F.hardtanh)

    def __init__(self, min: float = -1.0, max: float = 1.0, name: str | None = None) -> None:  # noqa: A002
        super().__init__(min=min, max=max)


class LeakyReLU(FunctionalLayer):
    """x if x >= 0 else negative_slope * x.

    Args:
        negative_slope: the slope for x < 0.

    Returns:
        layer(x): a Tensor -> the activation of x, same shape.

    Examples:
        >>> import padax
        >>> padax.nn.LeakyReLU(negative_slope=0.5)(padax.to_tensor([-2.0, 3.0])).tolist()
        [-1.0, 3.0]
    """

    _op = staticmethod(F.leaky_relu)

    def __init__(self, negative_slope: float = 0.01, name: str | None = None) -> None:
        super().__init__(negative_slope=negative_slope)


class LogSoftmax(FunctionalLayer):
    """log(softmax(x)) along `axis`.

    Args:
        axis: the axis normalised over.

    Returns:
        layer(x): a Tensor -> the activation of x, same shape.

    Examples:
        >>> import padax
        >>> padax.nn.LogSoftmax()(padax.to_tensor([[0.0, 0.0]])).tolist()
        [[-0.6931, -0.6931]]
    """

    _op = staticmethod(F.log_softmax)

    def __init__(self, axis: int = -1, name: str | None = None) -> None:
        super().__init__(axis=axis)


class Softmax(FunctionalLayer):
    """softmax along `axis`.

    Args:
        axis: the axis normalised over.

    Returns:
        layer(x): a Tensor -> the activation of x, same shape.

    Examples:
        >>> import padax
        >>> padax.nn.Softmax(axis=0)(padax.to_tensor([[1.0], [1.0]])).tolist()
        [[0.5], [0.5]]
    """

    _op = staticmethod(F.softmax)

    def __init__(self, axis: int = -1, name: str | None = None) -> None:
        super().__init__(axis=axis)


class Softmax2D(FunctionalLayer):
    """softmax over the channels of a [C, H, W] or [N, C, H, W] input.

    Examples:
        >>> import padax
        >>> y = padax.nn.Softmax2D()(padax.to_tensor([[[[1.0]], [[1.0]], [[2.0]]]]))  # [N=1, C=3, H=1, W=1]
        >>> y.shape, y.sum(axis=1).tolist()
        ((1, 3, 1, 1), [[[1.0]]])
    """

    _op = staticmethod(F.softmax)
    _ranks, _layout = (3, 4), "([N,] C, H, W)"

    def __init__(self, name: str | None = None) -> None:
        super().__init__(axis=-3)

    def extra_repr(self) -> str:
        return ""


class Maxout(FunctionalLayer):
    """The maximum over `groups` consecutive channels along `axis`.

    Args:
        groups: the run length; must divide the channels.
        axis: the channel axis of the 4-D input, 1, 3 or -1.

    Returns:
        layer(x): a 4-D Tensor -> the same with its channels divided by `groups`.

    Examples:
        >>> import padax
        >>> x = padax.arange(4, dtype="float32").reshape([1, 4, 1, 1])
        >>> padax.nn.Maxout(groups=2)(x).reshape([-1]).tolist()
        [1.0, 3.0]
    """

    _op = staticmethod(F.maxout)

    def __init__(self, groups: int, axis: int = 1, name: str | None = None) -> None:
        super().__init__(groups=groups, axis=axis)


class RReLU(FunctionalLayer):
    """Randomized leaky ReLU: a random slope in [lower, upper] in training mode, their mean in eval mode.

    Args:
        lower, upper: the range of the random negative slope, 0 <= lower <= upper <= 1.

    Returns:
        layer(x): a Tensor -> the activation of x, same shape.

    Examples:
        >>> import padax
        >>> layer = padax.nn.RReLU(0.1, 0.3)
        >>> layer.eval()
        RReLU(lower=0.1, upper=0.3)
        >>> layer(padax.to_tensor([-3.0, 2.0])).tolist()
        [-0.6, 2.0]
    """

    _op = staticmethod(F.rrelu)
    _with_training = True

    def __init__(self, lower: float = 1.0 / 8.0, upper: float = 1.0 / 3.0, name: str | None = None) -> None:
        super().__init__(lower=lower, upper=upper)


class SELU(FunctionalLayer):
    """scale * (x if x > 0 else alpha * (exp(x) - 1)).

    Args:
        scale, alpha: the constants of the self-normalising network (their defaults).

    Returns:
        layer(x): a Tensor -> the activation of x, same shape.

    Examples:
        >>> import padax
        >>> padax.nn.SELU()(padax.to_tensor([-1.0, 1.0])).tolist()
        [-1.1113, 1.0507]
    """

    _op = staticmethod(F.selu)

    def __init__(self, scale: float = 1.0507009873554804934193349852946,
                 alpha: float = 1.6732632423543772848170429916717, name: str | None = None) -> None:
        super().__init__(scale=scale, alpha=alpha)


class Softplus(FunctionalLayer):
    """log(1 + exp(beta * x)) / beta, linear above `threshold`.

    Args:
        beta: the sharpness; larger values approach relu.
        threshold: above this beta * x the result is x itself.

    Returns:
        layer(x): a Tensor -> the activation of x, same shape.

    Examples:
        >>> import padax
        >>> padax.nn.Softplus(beta=2.0)(padax.to_tensor([0.0, 1.0])).tolist()
        [0.3466, 1.0635]
    """

    _op = staticmethod(F.softplus)

    def __init__(self, beta: float = 1, threshold: float = 20, name: str | None = None) -> None:
        super().__init__(beta=beta, threshold=threshold)


class ThresholdedReLU(FunctionalLayer):
    """x if x > threshold else value.

    Args:
        threshold: values <= threshold are replaced.
        value: what replaces them.

    Returns:
        layer(x): a Tensor -> the activation of x, same shape.

    Examples:
        >>> import padax
        >>> padax.nn.ThresholdedReLU(threshold=0.5)(padax.to_tensor([0.2, 0.7])).tolist()
        [0.0, 0.7]
    """

    _op = staticmethod(F.thresholded_relu)

    def __init__(self, threshold: float = 1.0, value: float = 0.0, name: str | None = None) -> None:
        super().__init__(threshold=threshold, value=value)


class SiLU(FunctionalLayer):
    """x * sigmoid(x).

    Args:
        inplace: accepted for Paddle compatibility (padax arrays are immutable).

    Returns:
        layer(x): a Tensor -> the activation of x, same shape.

    Examples:
        >>> import padax
        >>> padax.nn.SiLU()(padax.to_tensor([-1.0, 2.0])).tolist()
        [-0.2689, 1.7616]
    """

    _op = staticmethod(F.silu)

    def __init__(self, inplace: bool = False, name: str | None = None) -> None:
        super().__init__()


def _plain(name: str, op: Any, doc: str, out: str, x: str = "[-1.0, 0.0, 2.0]") -> type:
    """A parameter-free activation layer taking only `name` (ReLU, Tanh, ...); its docstring is `doc` and
    an example applying it to the list `x`, whose result is `out`."""

    def __init__(self: Any, name: str | None = None) -> None:
        FunctionalLayer.__init__(self)

    doc = example_doc(doc, [(f"padax.nn.{name}()(padax.to_tensor({x})).tolist()", out)])
    return type(name, (FunctionalLayer,), {"__doc__": doc, "__init__": __init__,
                                          "_op": staticmethod(op), "__module__": __name__})


ReLU = _plain("ReLU", F.relu, "max(x, 0).", "[0.0, 0.0, 2.0]")
ReLU6 = _plain("ReLU6", F.relu6, "min(max(x, 0), 6).", "[0.0, 2.0, 6.0]", x="[-1.0, 2.0, 8.0]")
Sigmoid = _plain("Sigmoid", F.sigmoid, "1 / (1 + exp(-x)).", "[0.2689, 0.5, 0.8808]")
Tanh = _plain("Tanh", F.tanh, "tanh(x).", "[-0.7616, 0.0, 0.964]")
Hardsigmoid = _plain("Hardsigmoid", F.hardsigmoid, "clip(x / 6 + 1 / 2, 0, 1).", "[0.3333, 0.5, 0.8333]")
Hardswish = _plain("Hardswish", F.hardswish, "x * clip(x + 3, 0, 6) / 6.", "[-0.3333, 0.0, 1.6667]")
LogSigmoid = _plain("LogSigmoid", F.log_sigmoid, "log(sigmoid(x)).", "[-1.3133, -0.6931, -0.1269]")
Mish = _plain("Mish", F.mish, "x * tanh(softplus(x)).", "[-0.3034, 0.0, 1.944]")
Softsign = _plain("Softsign", F.softsign, "x / (1 + |x|).", "[-0.5, 0.0, 0.6667]")
Swish = _plain("Swish", F.swish, "x * sigmoid(x).", "[-0.2689, 0.0, 1.7616]")
Tanhshrink = _plain("Tanhshrink", F.tanhshrink, "x - tanh(x).", "[-0.2384, 0.0, 1.036]")
Silu = SiLU


class PReLU(Layer):
    """x if x >= 0 else weight * x, with `num_parameters` learnable slopes (1, or one per channel) in `_weight`
    initialised to `init`.

    Args:
        num_parameters: 1 (one shared slope) or the number of channels.
        init: the initial slope.
        weight_attr: a ParamAttr or initializer of the slopes.
        data_format: where the channel axis is: 'NCHW'-like (axis 1) or channel-last ('NHWC', ...).

    Returns:
        layer(x): a Tensor -> a float Tensor of x's shape.

    Examples:
        >>> import padax
        >>> layer = padax.nn.PReLU(num_parameters=2, init=0.5)
        >>> layer(padax.to_tensor([[-2.0, -4.0], [1.0, 3.0]])).tolist()
        [[-1.0, -2.0], [1.0, 3.0]]
        >>> [p.shape for p in layer.parameters()]
        [(2,)]
    """

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
