"""Convolutions and transposed convolutions (1D/2D/3D) with Paddle's signatures and weight layouts.

conv weight: [out_channels, in_channels / groups, *kernel]; conv_transpose weight:
[in_channels, out_channels / groups, *kernel]. Channel-last data formats are handed to XLA's
convolution as dimension numbers (no transposes).
"""
from __future__ import annotations

from typing import Any

from padax.core.errors import op_type_error, op_value_error
from padax.functional import math as M
from padax.functional._checks import arg
from padax.functional.lax.conv import ConvDimensionNumbers, conv_general_dilated
from padax.functional.lax.structural import rev
from padax.functional.manipulation import reshape, transpose
from padax.nn.functional._util import channel_last, explicit_padding, same_pads, static_ints


def _dims(nd: int, last: bool, kernel_io: bool) -> ConvDimensionNumbers:
    sp = tuple(range(1, nd - 1)) if last else tuple(range(2, nd))
    act = (0, nd - 1) + sp if last else tuple(range(nd))
    kernel = (1, 0) + tuple(range(2, nd)) if kernel_io else tuple(range(nd))
    return ConvDimensionNumbers(act, kernel, act)


def _checked(op: str, x: Any, weight: Any, nsp: int, data_format: str, groups: int):
    x, weight = arg(op, x, "x"), arg(op, weight, "weight")
    last = channel_last(op, data_format, nsp)
    where = f"x {x.aval.str_short()}, weight {weight.aval.str_short()}"
    if x.aval.ndim != nsp + 2 or weight.aval.ndim != nsp + 2:
        raise op_value_error(op, f"x and weight must be {nsp + 2}-D ({where})")
    if x.aval.dtype != weight.aval.dtype:
        raise op_type_error(op, f"x and weight must have the same dtype ({where})")
    if not isinstance(groups, int) or groups < 1:
        raise op_value_error(op, f"groups must be a positive int, got {groups!r}")
    channels = x.aval.shape[-1 if last else 1]
    if channels % groups:
        raise op_value_error(op, f"the {channels} input channels are not divisible by groups={groups} ({where})")
    return x, weight, last, channels, where


def _add_bias(op: str, y: Any, bias: Any, last: bool) -> Any:
    if bias is None:
        return y
    bias = arg(op, bias, "bias")
    c = y.aval.shape[-1 if last else 1]
    if bias.aval.shape != (c,):
        raise op_value_error(op, f"bias {bias.aval.str_short()} must have one entry per output channel ({c})")
    shape = [1] * y.aval.ndim
    shape[-1 if last else 1] = c
    return M.add(y, reshape(M.cast(bias, y.aval.dtype), shape))


def _check_window_fits(op: str, sizes, kernel, dilations, pads, where: str) -> None:
    """Paddle refuses a (dilated) kernel larger than the padded input instead of returning an empty tensor."""
    for k, (n, w, d, (lo, hi)) in enumerate(zip(sizes, kernel, dilations, pads)):
        span = (w - 1) * d + 1
        if n + lo + hi < span:
            raise op_value_error(op, f"the kernel (size {w}, dilation {d}: spans {span}) is larger than the padded "
                                     f"input along spatial dim {k} (size {n} + padding {lo}+{hi}) ({where}); "
                                     "use a smaller kernel or more padding")


def _conv_nd(op: str, nsp: int, x, weight, bias, stride, padding, dilation, groups, data_format):
    x, weight, last, channels, where = _checked(op, x, weight, nsp, data_format, groups)
    if weight.aval.shape[1] * groups != channels:
        raise op_value_error(op, f"weight's in_channels/groups {weight.aval.shape[1]} times groups={groups} "
                                 f"must equal the {channels} input channels ({where})")
    if weight.aval.shape[0] % groups:
        raise op_value_error(op, f"the {weight.aval.shape[0]} output channels are not divisible by "
                                 f"groups={groups} ({where})")
    strides = static_ints(op, stride, nsp, "stride", minimum=1)
    dilations = static_ints(op, dilation, nsp, "dilation", minimum=1)
    mode, pads = explicit_padding(op, padding, nsp, last)
    kernel = weight.aval.shape[2:]
    sizes = x.aval.shape[1:-1] if last else x.aval.shape[2:]
    if mode == "SAME":  # Paddle: ceil(n / stride) outputs, and the kernel taken undilated
        pads, dilations = same_pads(sizes, kernel, strides), (1,) * nsp
    _check_window_fits(op, sizes, kernel, dilations, pads, where)
    y = conv_general_dilated(x, weight, strides, pads, rhs_dilation=dilations,
                             dimension_numbers=_dims(nsp + 2, last, False), feature_group_count=groups)
    return _add_bias(op, y, bias, last)


def conv1d(x: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0, dilation: Any = 1,
           groups: int = 1, data_format: str = "NCL", name: str | None = None) -> Any:
    """1-D convolution of x [N, C, L] (or NLC) with weight [out_channels, C/groups, k].

    Args:
        x: [N, C, L] (NCL) or channels-last (NLC).
        weight: [out_channels, C/groups, k].
        bias: [out_channels] or None.
        stride, dilation: an int or 1 ints.
        padding: 'same', 'valid', an int, 1 ints, 2 ints or one pair per axis of x.
        groups: split the channels into this many independent convolutions.
        data_format: 'NCL' or 'NLC'.

    Returns:
        A Tensor [N, out_channels, ...] (NCL) of x's dtype.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.to_tensor([[[1.0, 2.0, 3.0, 4.0]]])  # [N=1, C=1, L=4]
        >>> F.conv1d(x, padax.to_tensor([[[1.0, -1.0]]])).tolist()
        [[[-1.0, -1.0, -1.0]]]
        >>> F.conv1d(x, padax.ones([2, 1, 3]), bias=padax.to_tensor([0.0, 10.0]), padding=1).tolist()
        [[[3.0, 6.0, 9.0, 7.0], [13.0, 16.0, 19.0, 17.0]]]
    """
    return _conv_nd("conv1d", 1, x, weight, bias, stride, padding, dilation, groups, data_format)


def conv2d(x: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0, dilation: Any = 1,
           groups: int = 1, data_format: str = "NCHW", name: str | None = None) -> Any:
    """2-D convolution of x [N, C, H, W] (or NHWC) with weight [out_channels, C/groups, kh, kw].

    Args:
        x: [N, C, H, W] (NCHW) or channels-last (NHWC).
        weight: [out_channels, C/groups, kh, kw].
        bias: [out_channels] or None.
        stride, dilation: an int or 2 ints.
        padding: 'same', 'valid', an int, 2 ints, 4 ints or one pair per axis of x.
        groups: split the channels into this many independent convolutions.
        data_format: 'NCHW' or 'NHWC'.

    Returns:
        A Tensor [N, out_channels, ...] (NCHW) of x's dtype.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.arange(16, dtype="float32").reshape([1, 1, 4, 4])
        >>> F.conv2d(x, padax.ones([1, 1, 2, 2]), stride=2).tolist()
        [[[[10.0, 18.0], [42.0, 50.0]]]]
        >>> F.conv2d(x, padax.ones([3, 1, 3, 3]), padding="same").shape
        (1, 3, 4, 4)
    """
    return _conv_nd("conv2d", 2, x, weight, bias, stride, padding, dilation, groups, data_format)


def conv3d(x: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0, dilation: Any = 1,
           groups: int = 1, data_format: str = "NCDHW", name: str | None = None) -> Any:
    """3-D convolution of x [N, C, D, H, W] (or NDHWC) with weight [out_channels, C/groups, kd, kh, kw].

    Args:
        x: [N, C, D, H, W] (NCDHW) or channels-last (NDHWC).
        weight: [out_channels, C/groups, kd, kh, kw].
        bias: [out_channels] or None.
        stride, dilation: an int or 3 ints.
        padding: 'same', 'valid', an int, 3 ints, 6 ints or one pair per axis of x.
        groups: split the channels into this many independent convolutions.
        data_format: 'NCDHW' or 'NDHWC'.

    Returns:
        A Tensor [N, out_channels, ...] (NCDHW) of x's dtype.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.conv3d(padax.ones([1, 1, 3, 3, 3]), padax.ones([2, 1, 3, 3, 3])).reshape([-1]).tolist()
        [27.0, 27.0]
        >>> F.conv3d(padax.ones([2, 4, 5, 5, 5]), padax.ones([6, 2, 3, 3, 3]), groups=2, dilation=2).shape
        (2, 6, 1, 1, 1)
    """
    return _conv_nd("conv3d", 3, x, weight, bias, stride, padding, dilation, groups, data_format)


def _transpose_kernel(weight: Any, groups: int) -> tuple[Any, bool]:
    """[Cin, Cout/g, *k] -> a kernel for a forward conv: spatially reversed, and for groups > 1
    regrouped to [Cout, Cin/g, *k]; returns (kernel, whether its layout is IO rather than OI)."""
    k = rev(weight, tuple(range(2, weight.aval.ndim)))
    if groups == 1:
        return k, True
    cin, cout_g, *ks = k.aval.shape
    k = reshape(k, [groups, cin // groups, cout_g, *ks])
    k = transpose(k, [0, 2, 1] + list(range(3, k.aval.ndim)))
    return reshape(k, [groups * cout_g, cin // groups, *ks]), False


def _conv_transpose_nd(op: str, nsp: int, x, weight, bias, stride, padding, output_padding, dilation, groups,
                       output_size, data_format):
    x, weight, last, channels, where = _checked(op, x, weight, nsp, data_format, groups)
    if weight.aval.shape[0] != channels:
        raise op_value_error(op, f"weight's in_channels {weight.aval.shape[0]} must equal the {channels} input "
                                 f"channels ({where})")
    strides = static_ints(op, stride, nsp, "stride", minimum=1)
    dilations = static_ints(op, dilation, nsp, "dilation", minimum=1)
    out_pad = static_ints(op, output_padding, nsp, "output_padding")
    mode, pads = explicit_padding(op, padding, nsp, last)
    kernel = weight.aval.shape[2:]
    sizes = x.aval.shape[1:-1] if last else x.aval.shape[2:]
    if mode == "SAME":
        pads, dilations = same_pads(sizes, kernel, strides), (1,) * nsp
    if output_size is not None:
        if any(out_pad):
            raise op_value_error(op, "output_padding and output_size are mutually exclusive")
        want = static_ints(op, output_size, nsp, "output_size")
        out_pad = []
        for n, k, s, d, (lo, hi), w in zip(sizes, kernel, strides, dilations, pads, want):
            base = (n - 1) * s - lo - hi + d * (k - 1) + 1
            if not base <= w < base + s:
                raise op_value_error(op, f"output_size {list(want)} must lie in [{base}, {base + s}) for input "
                                         f"{x.aval.str_short()}, stride {s}, padding ({lo}, {hi}), kernel {k}")
            out_pad.append(w - base)
    for p, s, d in zip(out_pad, strides, dilations):
        if p >= max(s, d):
            raise op_value_error(op, f"output_padding {list(out_pad)} must be smaller than stride or dilation "
                                     f"({list(strides)}, {list(dilations)})")
    k, io = _transpose_kernel(weight, groups)
    conv_pads = [(d * (kk - 1) - lo, d * (kk - 1) - hi + p)
                 for kk, d, (lo, hi), p in zip(kernel, dilations, pads, out_pad)]
    y = conv_general_dilated(x, k, (1,) * nsp, conv_pads, lhs_dilation=strides, rhs_dilation=dilations,
                             dimension_numbers=_dims(nsp + 2, last, io), feature_group_count=groups)
    return _add_bias(op, y, bias, last)


def conv1d_transpose(x: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0,
                     output_padding: Any = 0, groups: int = 1, dilation: Any = 1, output_size: Any = None,
                     data_format: str = "NCL", name: str | None = None) -> Any:
    """Transposed 1-D convolution (the gradient of conv1d) with weight [C, out_channels/groups, k].

    Args:
        x: [N, C, L] (NCL) or channels-last (NLC).
        weight: [C, out_channels/groups, k].
        bias: [out_channels] or None.
        stride, dilation: an int or 1 ints.
        padding: 'same', 'valid', an int, 1 ints or 2 ints (the padding of the forward convolution).
        output_padding: extra size added at the high end of each spatial axis.
        groups: split the channels into this many independent convolutions.
        output_size: the spatial output size, instead of output_padding.
        data_format: 'NCL' or 'NLC'.

    Returns:
        A Tensor [N, out_channels, ...] (NCL) of x's dtype.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.conv1d_transpose(padax.to_tensor([[[1.0, 2.0]]]), padax.to_tensor([[[1.0, 10.0]]])).tolist()
        [[[1.0, 12.0, 20.0]]]
        >>> F.conv1d_transpose(padax.ones([1, 3, 4]), padax.ones([3, 2, 3]), stride=2).shape
        (1, 2, 9)
    """
    return _conv_transpose_nd("conv1d_transpose", 1, x, weight, bias, stride, padding, output_padding,
                              dilation, groups, output_size, data_format)


def conv2d_transpose(x: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0,
                     output_padding: Any = 0, dilation: Any = 1, groups: int = 1, output_size: Any = None,
                     data_format: str = "NCHW", name: str | None = None) -> Any:
    """Transposed 2-D convolution with weight [C, out_channels/groups, kh, kw].

    Args:
        x: [N, C, H, W] (NCHW) or channels-last (NHWC).
        weight: [C, out_channels/groups, kh, kw].
        bias: [out_channels] or None.
        stride, dilation: an int or 2 ints.
        padding: 'same', 'valid', an int, 2 ints or 4 ints (the padding of the forward convolution).
        output_padding: extra size added at the high end of each spatial axis.
        groups: split the channels into this many independent convolutions.
        output_size: the spatial output size, instead of output_padding.
        data_format: 'NCHW' or 'NHWC'.

    Returns:
        A Tensor [N, out_channels, ...] (NCHW) of x's dtype.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> y = F.conv2d_transpose(padax.ones([1, 1, 2, 2]), padax.ones([1, 1, 2, 2]), stride=2)
        >>> y.shape, float(y.sum())
        ((1, 1, 4, 4), 16.0)
        >>> x, w = padax.ones([1, 4, 5, 5]), padax.ones([4, 2, 3, 3])
        >>> F.conv2d_transpose(x, w, stride=2, padding=1, output_size=[10, 10]).shape
        (1, 2, 10, 10)
    """
    return _conv_transpose_nd("conv2d_transpose", 2, x, weight, bias, stride, padding, output_padding,
                              dilation, groups, output_size, data_format)


def conv3d_transpose(x: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0,
                     output_padding: Any = 0, groups: int = 1, dilation: Any = 1, output_size: Any = None,
                     data_format: str = "NCDHW", name: str | None = None) -> Any:
    """Transposed 3-D convolution with weight [C, out_channels/groups, kd, kh, kw].

    Args:
        x: [N, C, D, H, W] (NCDHW) or channels-last (NDHWC).
        weight: [C, out_channels/groups, kd, kh, kw].
        bias: [out_channels] or None.
        stride, dilation: an int or 3 ints.
        padding: 'same', 'valid', an int, 3 ints or 6 ints (the padding of the forward convolution).
        output_padding: extra size added at the high end of each spatial axis.
        groups: split the channels into this many independent convolutions.
        output_size: the spatial output size, instead of output_padding.
        data_format: 'NCDHW' or 'NDHWC'.

    Returns:
        A Tensor [N, out_channels, ...] (NCDHW) of x's dtype.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.conv3d_transpose(padax.ones([1, 2, 2, 2, 2]), padax.ones([2, 3, 2, 2, 2]), stride=2).shape
        (1, 3, 4, 4, 4)
    """
    return _conv_transpose_nd("conv3d_transpose", 3, x, weight, bias, stride, padding, output_padding,
                              dilation, groups, output_size, data_format)
