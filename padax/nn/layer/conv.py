"""Convolution layers with Paddle's names, signatures, default initializers and weight layouts.

Conv weights are [out_channels, in_channels/groups, *kernel] initialised Normal(0, sqrt(2 / (in_channels *
prod(kernel)))) as Paddle does; transposed-conv weights are [in_channels, out_channels/groups, *kernel]
(XavierUniform, Paddle's default). Biases start at zero.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from padax.nn import functional as F
from padax.nn.initializer import Normal
from padax.nn.layer._calls import check_input
from padax.nn.layer.layers import Layer, config_ints

_PADDING_MODES = ("zeros", "reflect", "replicate", "circular")
_FORMATS = {1: ("NCL", "NLC"), 2: ("NCHW", "NHWC"), 3: ("NCDHW", "NDHWC")}


def _to_list(value: Any, n: int, what: str) -> list[int]:
    """`value` (an int or n ints) as a list of n ints (Paddle's convert_to_list)."""
    if isinstance(value, (int, np.integer)):
        return [int(value)] * n
    out = [int(v) for v in value]
    if len(out) != n:
        raise ValueError(f"{what} must be an int or {n} ints, got {value!r}")
    return out


class _ConvNd(Layer):
    """Shared constructor of the convolution layers (Paddle's _ConvNd)."""

    _dims: int = 2
    _transposed: bool = False
    _functional: Any = None

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 padding_mode: str = "zeros", output_padding: Any = 0, dilation: Any = 1, groups: int = 1,
                 weight_attr: Any = None, bias_attr: Any = None, data_format: str = "NCHW",
                 dtype: Any = None) -> None:
        super().__init__(dtype=dtype or "float32")
        cls, dims = type(self).__name__, self._dims
        if weight_attr is False:
            raise ValueError(f"{cls}: weight_attr must not be False")
        if padding_mode not in _PADDING_MODES:
            raise ValueError(f"{cls}: padding_mode must be one of {_PADDING_MODES}, got {padding_mode!r}")
        if padding_mode != "zeros" and not isinstance(padding, (int, np.integer)):
            raise TypeError(f"{cls}: with padding_mode {padding_mode!r} padding must be an int, got {padding!r}")
        if data_format not in _FORMATS[dims]:
            raise ValueError(f"{cls}: data_format must be one of {_FORMATS[dims]}, got {data_format!r}")
        if groups < 1 or in_channels % groups or out_channels % groups:
            raise ValueError(f"{cls}: in_channels ({in_channels}) and out_channels ({out_channels}) must be "
                             f"divisible by groups ({groups})")
        self._in_channels, self._out_channels, self._groups = config_ints(self, in_channels=in_channels,
                                                                          out_channels=out_channels, groups=groups)
        self._kernel_size = _to_list(kernel_size, dims, f"{cls}: kernel_size")
        self._stride = _to_list(stride, dims, f"{cls}: stride")
        self._dilation = _to_list(dilation, dims, f"{cls}: dilation")
        self._padding, self._padding_mode, self.output_padding = padding, padding_mode, output_padding
        self._data_format = data_format
        self._channel_dim = 1 if data_format[1] == "C" else dims + 1
        if self._transposed:
            shape = [self._in_channels, self._out_channels // groups, *self._kernel_size]
            init = None
        else:
            shape = [self._out_channels, self._in_channels // groups, *self._kernel_size]
            init = Normal(0.0, (2.0 / (np.prod(self._kernel_size) * self._in_channels)) ** 0.5)
        self.weight = self.create_parameter(shape, attr=weight_attr, dtype=dtype, default_initializer=init)
        self.bias = self.create_parameter([self._out_channels], attr=bias_attr, dtype=dtype, is_bias=True)

    def _check(self, x: Any) -> None:
        layout = f"({self._data_format})"
        check_input(self, x, ndims=(self._dims + 2,), layout=layout, floating=True)
        check_input(self, x, axis=self._channel_dim, size=self._in_channels, layout=layout)

    def extra_repr(self) -> str:
        s = f"{self._in_channels}, {self._out_channels}, kernel_size={self._kernel_size}"
        if self._stride != [1] * self._dims:
            s += f", stride={self._stride}"
        if self._padding != 0:
            s += f", padding={self._padding}"
        if self._padding_mode != "zeros":
            s += f", padding_mode={self._padding_mode}"
        if self.output_padding != 0:
            s += f", output_padding={self.output_padding}"
        if self._dilation != [1] * self._dims:
            s += f", dilation={self._dilation}"
        if self._groups != 1:
            s += f", groups={self._groups}"
        return s + f", data_format={self._data_format}"


def _conv_init(default_format: str) -> Any:
    """The constructor of Conv{n}D with Paddle's signature and its data_format default."""

    def __init__(self: Any, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, dilation: Any = 1, groups: int = 1, *, bias: bool = True,
                 padding_mode: str = "zeros", device: Any = None, dtype: Any = None, weight_attr: Any = None,
                 bias_attr: Any = None, data_format: str = default_format) -> None:
        _ConvNd.__init__(self, in_channels, out_channels, kernel_size, stride, padding, padding_mode, 0, dilation,
                         groups, weight_attr, False if bias is False else bias_attr, data_format, dtype)

    return __init__


def _conv_transpose_init(default_format: str) -> Any:
    """The constructor of Conv{2,3}DTranspose with Paddle's signature and its data_format default."""

    def __init__(self: Any, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, output_padding: Any = 0, dilation: Any = 1, groups: int = 1,
                 weight_attr: Any = None, bias_attr: Any = None, data_format: str = default_format) -> None:
        _ConvNd.__init__(self, in_channels, out_channels, kernel_size, stride, padding, "zeros", output_padding,
                         dilation, groups, weight_attr, bias_attr, data_format)

    return __init__


class _Conv(_ConvNd):
    """A forward convolution; padding_mode other than 'zeros' pads the input with F.pad first."""

    def forward(self, x: Any) -> Any:
        self._check(x)
        padding = self._padding
        if self._padding_mode != "zeros":
            # F.pad takes (before, after) pairs starting from the last spatial axis
            pads = [int(self._padding)] * (2 * self._dims)
            x = F.pad(x, pads, mode=self._padding_mode, data_format=self._data_format)
            padding = 0
        return type(self)._functional(x, self.weight, self.bias, stride=self._stride, padding=padding,
                                      dilation=self._dilation, groups=self._groups, data_format=self._data_format)


class _ConvTranspose(_ConvNd):
    """A transposed convolution; forward takes an optional output_size as Paddle's."""

    _transposed = True

    def forward(self, x: Any, output_size: Any = None) -> Any:
        self._check(x)
        output_padding = self.output_padding if output_size is None else 0
        return type(self)._functional(x, self.weight, self.bias, stride=self._stride, padding=self._padding,
                                      output_padding=output_padding, groups=self._groups,
                                      dilation=self._dilation, output_size=output_size,
                                      data_format=self._data_format)


class Conv1D(_Conv):
    """1-D convolution of [N, C, L] ('NCL') or [N, L, C] ('NLC') inputs; weight [out, in/groups, k].

    Args:
        padding: an int, a list, 'same' or 'valid'; padding_mode 'zeros', 'reflect', 'replicate' or 'circular'.
        weight_attr, bias_attr: a ParamAttr or initializer (the weight defaults to Normal(0, sqrt(2 / fan_in)),
            the bias to zeros); bias_attr=False drops the bias.

    Examples:
        >>> import padax
        >>> conv = padax.nn.Conv1D(1, 2, kernel_size=2, weight_attr=padax.nn.initializer.Constant(1.0))
        >>> conv.weight.shape, conv(padax.to_tensor([[[1.0, 2.0, 3.0]]])).tolist()
        ((2, 1, 2), [[[3.0, 5.0], [3.0, 5.0]]])
        >>> padax.nn.Conv1D(3, 4, kernel_size=3, padding="same")(padax.ones([2, 3, 10])).shape
        (2, 4, 10)
    """

    _dims, _functional = 1, staticmethod(F.conv1d)
    __init__ = _conv_init("NCL")


class Conv2D(_Conv):
    """2-D convolution of NCHW/NHWC inputs; weight [out, in/groups, kh, kw].

    Args:
        in_channels, out_channels: the channel counts.
        kernel_size, stride, dilation: an int or 2 ints.
        padding: an int, a list, 'same' or 'valid'; padding_mode 'zeros', 'reflect', 'replicate' or 'circular'.
        groups: split the channels into this many independent convolutions.
        bias: False drops the bias (as bias_attr=False).
        device: accepted for compatibility; dtype: the parameters' dtype.
        weight_attr, bias_attr: a ParamAttr or initializer (the weight defaults to Normal(0, sqrt(2 / fan_in)),
            the bias to zeros); bias_attr=False drops the bias.
        data_format: 'NCHW' or 'NHWC'.

    Returns:
        layer(x): [N, in_channels, H, W] -> [N, out_channels, ...] (NCHW).

    Examples:
        >>> import padax
        >>> conv = padax.nn.Conv2D(1, 1, kernel_size=2, weight_attr=padax.nn.initializer.Constant(1.0))
        >>> conv(padax.arange(9, dtype="float32").reshape([1, 1, 3, 3])).tolist()
        [[[[8.0, 12.0], [20.0, 24.0]]]]
        >>> _ = padax.seed(0)
        >>> padax.nn.Conv2D(3, 8, 3, stride=2, padding=1)(padax.ones([2, 3, 8, 8])).shape
        (2, 8, 4, 4)
    """

    _dims, _functional = 2, staticmethod(F.conv2d)
    __init__ = _conv_init("NCHW")


class Conv3D(_Conv):
    """3-D convolution of NCDHW/NDHWC inputs; weight [out, in/groups, kd, kh, kw].

    Args:
        in_channels, out_channels: the channel counts.
        kernel_size, stride, dilation: an int or 3 ints.
        padding: an int, a list, 'same' or 'valid'; padding_mode 'zeros', 'reflect', 'replicate' or 'circular'.
        groups: split the channels into this many independent convolutions.
        bias: False drops the bias (as bias_attr=False).
        device: accepted for compatibility; dtype: the parameters' dtype.
        weight_attr, bias_attr: a ParamAttr or initializer (the weight defaults to Normal(0, sqrt(2 / fan_in)),
            the bias to zeros); bias_attr=False drops the bias.
        data_format: 'NCDHW' or 'NDHWC'.

    Returns:
        layer(x): [N, in_channels, D, H, W] -> [N, out_channels, ...] (NCDHW).

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> conv = padax.nn.Conv3D(2, 4, kernel_size=3, padding=1, groups=2)
        >>> conv.weight.shape, conv(padax.ones([1, 2, 4, 4, 4])).shape
        ((4, 1, 3, 3, 3), (1, 4, 4, 4, 4))
    """

    _dims, _functional = 3, staticmethod(F.conv3d)
    __init__ = _conv_init("NCDHW")


class Conv1DTranspose(_ConvTranspose):
    """1-D transposed convolution; weight [in, out/groups, k].

    Args:
        in_channels, out_channels: the channel counts.
        kernel_size, stride, dilation: an int or 1 ints.
        padding: an int, a list, 'same' or 'valid' (the padding of the forward convolution).
        output_padding: extra size added at the high end of each spatial axis.
        groups: split the channels into this many independent convolutions.
        weight_attr, bias_attr: a ParamAttr or initializer; bias_attr=False drops the bias.
        data_format: 'NCL' or 'NLC'.

    Returns:
        layer(x, output_size=None): [N, in_channels, L] -> [N, out_channels, ...] (NCL); output_size
        fixes the spatial size instead of output_padding.

    Examples:
        >>> import padax
        >>> ones = padax.nn.initializer.Constant(1.0)
        >>> conv = padax.nn.Conv1DTranspose(1, 1, kernel_size=2, stride=2, weight_attr=ones)
        >>> conv.weight.shape, conv(padax.to_tensor([[[1.0, 2.0]]])).tolist()
        ((1, 1, 2), [[[1.0, 1.0, 2.0, 2.0]]])
    """

    _dims, _functional = 1, staticmethod(F.conv1d_transpose)

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 output_padding: Any = 0, groups: int = 1, dilation: Any = 1, weight_attr: Any = None,
                 bias_attr: Any = None, data_format: str = "NCL") -> None:
        _ConvNd.__init__(self, in_channels, out_channels, kernel_size, stride, padding, "zeros", output_padding,
                         dilation, groups, weight_attr, bias_attr, data_format)


class Conv2DTranspose(_ConvTranspose):
    """2-D transposed convolution; weight [in, out/groups, kh, kw].

    Args:
        in_channels, out_channels: the channel counts.
        kernel_size, stride, dilation: an int or 2 ints.
        padding: an int, a list, 'same' or 'valid' (the padding of the forward convolution).
        output_padding: extra size added at the high end of each spatial axis.
        groups: split the channels into this many independent convolutions.
        weight_attr, bias_attr: a ParamAttr or initializer; bias_attr=False drops the bias.
        data_format: 'NCHW' or 'NHWC'.

    Returns:
        layer(x, output_size=None): [N, in_channels, H, W] -> [N, out_channels, ...] (NCHW); output_size
        fixes the spatial size instead of output_padding.

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> conv = padax.nn.Conv2DTranspose(4, 2, kernel_size=3, stride=2, padding=1, output_padding=1)
        >>> conv.weight.shape, conv(padax.ones([1, 4, 5, 5])).shape
        ((4, 2, 3, 3), (1, 2, 10, 10))
    """

    _dims, _functional = 2, staticmethod(F.conv2d_transpose)
    __init__ = _conv_transpose_init("NCHW")


class Conv3DTranspose(_ConvTranspose):
    """3-D transposed convolution; weight [in, out/groups, kd, kh, kw].

    Args:
        in_channels, out_channels: the channel counts.
        kernel_size, stride, dilation: an int or 3 ints.
        padding: an int, a list, 'same' or 'valid' (the padding of the forward convolution).
        output_padding: extra size added at the high end of each spatial axis.
        groups: split the channels into this many independent convolutions.
        weight_attr, bias_attr: a ParamAttr or initializer; bias_attr=False drops the bias.
        data_format: 'NCDHW' or 'NDHWC'.

    Returns:
        layer(x, output_size=None): [N, in_channels, D, H, W] -> [N, out_channels, ...] (NCDHW); output_size
        fixes the spatial size instead of output_padding.

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> conv = padax.nn.Conv3DTranspose(2, 3, kernel_size=2, stride=2)
        >>> conv.weight.shape, conv(padax.ones([1, 2, 2, 2, 2])).shape
        ((2, 3, 2, 2, 2), (1, 3, 4, 4, 4))
    """

    _dims, _functional = 3, staticmethod(F.conv3d_transpose)
    __init__ = _conv_transpose_init("NCDHW")
