"""LayerNorm, GroupNorm, InstanceNorm1D/2D/3D, LocalResponseNorm and RMSNorm with Paddle's parameter names,
shapes and defaults (scales start at one, shifts at zero)."""
from __future__ import annotations

from typing import Any

import numpy as np

from padax.functional import manipulation
from padax.nn import functional as F
from padax.nn.initializer import Constant
from padax.nn.layer._calls import check_input, input_error
from padax.nn.layer._functional import FunctionalLayer
from padax.nn.layer.layers import Layer, config_ints


def _shape_list(normalized_shape: Any) -> list[int]:
    if isinstance(normalized_shape, (int, np.integer)):
        return [int(normalized_shape)]
    return [int(s) for s in normalized_shape]


def _check_trailing(layer: Layer, x: Any, shape: list[int]) -> None:
    got = list(x.shape)
    if got[len(got) - len(shape):] != shape or len(got) < len(shape):
        raise input_error(f"{type(layer).__name__} input", f"trailing dimensions {shape}", f"shape {got}")


def _flat_affine(p: Any, shape: list[int]) -> Any:
    """Paddle keeps LayerNorm's scale and shift flat, [prod(normalized_shape)]."""
    return None if p is None or len(shape) == 1 else manipulation.reshape(p, shape)


class LayerNorm(Layer):
    """Standardises the trailing `normalized_shape` dims; weight and bias are flat [prod(normalized_shape)].

    Args:
        normalized_shape: an int or the list of trailing dimensions normalised together.
        epsilon: added to the variance.
        elementwise_affine: False drops weight and bias; bias: False drops the bias.
        device: accepted for compatibility; dtype: the parameters' dtype.
        weight_attr, bias_attr: ParamAttr or initializer (ones, zeros); False drops that parameter.

    Returns:
        layer(input): [..., *normalized_shape] -> the normalised Tensor of its shape.

    Examples:
        >>> import padax
        >>> ln = padax.nn.LayerNorm([2, 3])
        >>> ln.weight.shape, ln.bias.shape
        ((6,), (6,))
        >>> ln(padax.arange(6, dtype="float32").reshape([1, 2, 3]))[0, 0].tolist()
        [-1.4638, -0.8783, -0.2928]
    """

    def __init__(self, normalized_shape: Any, epsilon: float = 1e-05, *, elementwise_affine: bool = True,
                 bias: bool = True, device: Any = None, dtype: Any = None, weight_attr: Any = None,
                 bias_attr: Any = None, name: str | None = None) -> None:
        super().__init__(dtype=dtype or "float32")
        self._normalized_shape, self._epsilon = _shape_list(normalized_shape), float(epsilon)
        if not elementwise_affine:
            weight_attr = bias_attr = False
        elif not bias:
            bias_attr = False
        shape = [int(np.prod(self._normalized_shape))]
        self.weight = self.create_parameter(shape, attr=weight_attr, dtype=dtype, default_initializer=Constant(1.0))
        self.bias = self.create_parameter(shape, attr=bias_attr, dtype=dtype, is_bias=True,
                                          default_initializer=Constant(0.0))

    def forward(self, input: Any) -> Any:  # noqa: A002
        _check_trailing(self, input, self._normalized_shape)
        shape = self._normalized_shape
        w = self.weight if len(shape) == 1 else _flat_affine(self.weight, shape)
        b = self.bias if len(shape) == 1 else _flat_affine(self.bias, shape)
        return F.layer_norm(input, shape, w, b, self._epsilon)

    def extra_repr(self) -> str:
        return f"normalized_shape={self._normalized_shape}, epsilon={self._epsilon}"


class RMSNorm(Layer):
    """x / sqrt(mean(x^2) + epsilon) * weight over the trailing `normalized_shape` dims (weight starts at one).

    Paddle 3.3 has only the functional rms_norm; this layer keeps LayerNorm's conventions (flat weight).

    Args:
        normalized_shape: an int or the list of trailing dimensions normalised together.
        epsilon: added to the mean square.
        weight_attr: ParamAttr or initializer of the weight (ones).

    Returns:
        layer(input): [..., *normalized_shape] -> the normalised Tensor of its shape.

    Examples:
        >>> import padax
        >>> rms = padax.nn.RMSNorm(2, epsilon=0.0)
        >>> rms.weight.tolist(), rms(padax.to_tensor([[3.0, 4.0]])).tolist()
        ([1.0, 1.0], [[0.8485, 1.1314]])
    """

    def __init__(self, normalized_shape: Any, epsilon: float = 1e-05, weight_attr: Any = None,
                 name: str | None = None) -> None:
        super().__init__()
        self._normalized_shape, self._epsilon = _shape_list(normalized_shape), float(epsilon)
        shape = [int(np.prod(self._normalized_shape))]
        self.weight = self.create_parameter(shape, attr=weight_attr, default_initializer=Constant(1.0))

    def forward(self, input: Any) -> Any:  # noqa: A002
        _check_trailing(self, input, self._normalized_shape)
        shape = self._normalized_shape
        w = self.weight if len(shape) == 1 else _flat_affine(self.weight, shape)
        return F.rms_norm(input, shape, w, self._epsilon)[0]

    def extra_repr(self) -> str:
        return f"normalized_shape={self._normalized_shape}, epsilon={self._epsilon}"


class GroupNorm(Layer):
    """Standardises each of `num_groups` channel groups; weight and bias are [num_channels].

    Args:
        num_groups: the number of groups (dividing num_channels).
        num_channels: C.
        epsilon: added to the variance.
        affine: False drops weight and bias.
        device: accepted for compatibility; dtype: the parameters' dtype.
        weight_attr, bias_attr: ParamAttr or initializer (ones, zeros); False drops that parameter.
        data_format: channels first ('NCL', 'NCHW', 'NCDHW') or last ('NLC', 'NHWC', 'NDHWC').

    Returns:
        layer(input): [N, C, ...] -> the normalised Tensor of its shape.

    Examples:
        >>> import padax
        >>> gn = padax.nn.GroupNorm(num_groups=2, num_channels=4)
        >>> gn.weight.shape, gn(padax.to_tensor([[[1.0], [3.0], [10.0], [20.0]]])).reshape([-1]).tolist()
        ((4,), [-1.0, 1.0, -1.0, 1.0])
    """

    def __init__(self, num_groups: int, num_channels: int, epsilon: float = 1e-05, *, affine: bool = True,
                 device: Any = None, dtype: Any = None, weight_attr: Any = None, bias_attr: Any = None,
                 data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__(dtype=dtype or "float32")
        if data_format not in ("NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC"):
            raise ValueError(f"GroupNorm: unsupported data_format {data_format!r}")
        if num_groups < 1 or num_channels % num_groups:
            raise ValueError(f"GroupNorm: num_channels ({num_channels}) must be divisible by num_groups "
                             f"({num_groups})")
        self._num_groups, self._num_channels = config_ints(self, num_groups=num_groups, num_channels=num_channels)
        self._epsilon = float(epsilon)
        self._data_format = "NCHW" if data_format[1] == "C" else "NHWC"
        if not affine:
            weight_attr = bias_attr = False
        self.weight = self.create_parameter([num_channels], attr=weight_attr, dtype=dtype,
                                            default_initializer=Constant(1.0))
        self.bias = self.create_parameter([num_channels], attr=bias_attr, dtype=dtype, is_bias=True)

    def forward(self, input: Any) -> Any:  # noqa: A002
        check_input(self, input, ndims=(3, 4, 5), floating=True)
        nd = len(input.shape)
        last = self._data_format == "NHWC"
        check_input(self, input, axis=nd - 1 if last else 1, size=self._num_channels)
        fmt = {3: "NLC", 4: "NHWC", 5: "NDHWC"}[nd] if last else {3: "NCL", 4: "NCHW", 5: "NCDHW"}[nd]
        return F.group_norm(input, self._num_groups, self._epsilon, self.weight, self.bias, fmt)

    def extra_repr(self) -> str:
        return f"num_groups={self._num_groups}, num_channels={self._num_channels}, epsilon={self._epsilon}"


class _InstanceNormBase(Layer):
    """Standardises each (sample, channel) over its positions; scale and bias are [num_features]."""

    _ranks: tuple[int, ...] = (4,)

    def __init__(self, num_features: int, epsilon: float = 1e-05, momentum: float = 0.9, weight_attr: Any = None,
                 bias_attr: Any = None, data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__()
        if (weight_attr is False) != (bias_attr is False):
            raise ValueError(f"{type(self).__name__}: weight_attr and bias_attr must be False together")
        (self._num_features,) = config_ints(self, num_features=num_features)
        self._epsilon, self._momentum = float(epsilon), float(momentum)
        self._data_format = data_format
        self.scale = self.create_parameter([num_features], attr=weight_attr, default_initializer=Constant(1.0))
        self.bias = self.create_parameter([num_features], attr=bias_attr, is_bias=True,
                                          default_initializer=Constant(0.0))

    def forward(self, input: Any) -> Any:  # noqa: A002
        check_input(self, input, ndims=self._ranks, floating=True, layout=f"({self._data_format})")
        check_input(self, input, axis=1, size=self._num_features, layout=f"({self._data_format})")
        fmt = {2: "NC", 3: "NCL", 4: "NCHW", 5: "NCDHW"}[len(input.shape)]
        return F.instance_norm(input, weight=self.scale, bias=self.bias, momentum=self._momentum,
                               eps=self._epsilon, data_format=fmt)

    def extra_repr(self) -> str:
        return f"num_features={self._num_features}, epsilon={self._epsilon}"


class InstanceNorm1D(_InstanceNormBase):
    """Instance norm of [N, C] or [N, C, L] inputs.

    Args:
        num_features: the number of channels C.
        epsilon: added to the variance.
        momentum: accepted for Paddle compatibility (no running statistics are kept).
        weight_attr, bias_attr: ParamAttr or initializer of the scale (ones) and shift (zeros); both False drops them.
        data_format: 'NCL' (or 'NC').

    Returns:
        layer(input): [N, C] or [N, C, L] -> the normalised Tensor of its shape.

    Examples:
        >>> import padax
        >>> inorm = padax.nn.InstanceNorm1D(2)
        >>> inorm(padax.to_tensor([[[1.0, 3.0], [0.0, 10.0]]])).tolist()
        [[[-1.0, 1.0], [-1.0, 1.0]]]
    """

    _ranks = (2, 3)

    def __init__(self, num_features: int, epsilon: float = 1e-05, momentum: float = 0.9, weight_attr: Any = None,
                 bias_attr: Any = None, data_format: str = "NCL", name: str | None = None) -> None:
        super().__init__(num_features, epsilon, momentum, weight_attr, bias_attr, data_format, name)


class InstanceNorm2D(_InstanceNormBase):
    """Instance norm of [N, C, H, W] inputs.

    Args:
        num_features: the number of channels C.
        epsilon: added to the variance.
        momentum: accepted for Paddle compatibility (no running statistics are kept).
        weight_attr, bias_attr: ParamAttr or initializer of the scale (ones) and shift (zeros); both False drops them.
        data_format: 'NCHW'.

    Returns:
        layer(input): [N, C, H, W] -> the normalised Tensor of its shape.

    Examples:
        >>> import padax
        >>> inorm = padax.nn.InstanceNorm2D(3)
        >>> inorm.scale.shape, inorm(padax.ones([2, 3, 4, 4])).shape
        ((3,), (2, 3, 4, 4))
    """

    _ranks = (4,)


class InstanceNorm3D(_InstanceNormBase):
    """Instance norm of [N, C, D, H, W] inputs.

    Args:
        num_features: the number of channels C.
        epsilon: added to the variance.
        momentum: accepted for Paddle compatibility (no running statistics are kept).
        weight_attr, bias_attr: ParamAttr or initializer of the scale (ones) and shift (zeros); both False drops them.
        data_format: 'NCDHW'.

    Returns:
        layer(input): [N, C, D, H, W] -> the normalised Tensor of its shape.

    Examples:
        >>> import padax
        >>> padax.nn.InstanceNorm3D(2)(padax.ones([1, 2, 2, 2, 2])).shape
        (1, 2, 2, 2, 2)
    """

    _ranks = (5,)

    def __init__(self, num_features: int, epsilon: float = 1e-05, momentum: float = 0.9, weight_attr: Any = None,
                 bias_attr: Any = None, data_format: str = "NCDHW", name: str | None = None) -> None:
        super().__init__(num_features, epsilon, momentum, weight_attr, bias_attr, data_format, name)


class LocalResponseNorm(FunctionalLayer):
    """x / (k + alpha * mean of x^2 over `size` neighbouring channels)^beta.

    Args:
        size: the number of neighbouring channels.
        alpha, beta, k: the constants of the formula.
        data_format: e.g. 'NCHW' or 'NHWC'.

    Returns:
        layer(input): a Tensor of rank 3 or more -> the same shape.

    Examples:
        >>> import padax
        >>> lrn = padax.nn.LocalResponseNorm(size=3, alpha=3.0, beta=1.0)
        >>> lrn(padax.ones([1, 3, 1, 1])).reshape([-1]).tolist()
        [0.3333, 0.25, 0.3333]
    """

    _op, _ranks, _floating = staticmethod(F.local_response_norm), (3, 4, 5), True

    def __init__(self, size: int, alpha: float = 0.0001, beta: float = 0.75, k: float = 1.0,
                 data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__(size=size, alpha=alpha, beta=beta, k=k, data_format=data_format)
