"""Pooling layers with Paddle's names, signatures and defaults, each applying its nn.functional op."""
from __future__ import annotations

from typing import Any

from padax.nn import functional as F
from padax.nn.layer._functional import FunctionalLayer


class _Pool(FunctionalLayer):
    _floating = True


class MaxPool1D(_Pool):
    """Max over windows of an [N, C, L] input (return_mask also gives the flat argmax indices).

    Args:
        kernel_size: the window size: an int or 1 ints.
        stride: an int or 1 ints (None: kernel_size).
        padding: 'same', 'valid', an int, 1 ints or 2 ints (before/after per axis).
        ceil_mode: round the output size up (extra windows at the high end).
        return_mask: also return the int32 flat spatial index of each maximum.

    Returns:
        layer(x): a float [N, C, L] Tensor -> the pooled Tensor; with return_mask, (pooled, mask).

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[[1.0, 5.0, 2.0, 0.0, 3.0, 4.0]]])  # [N=1, C=1, L=6]
        >>> padax.nn.MaxPool1D(kernel_size=2)(x).tolist()
        [[[5.0, 2.0, 4.0]]]
    """

    _op, _ranks, _layout = staticmethod(F.max_pool1d), (3,), "(NCL)"

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, return_mask: bool = False,
                 ceil_mode: bool = False, name: str | None = None) -> None:
        super().__init__(kernel_size=kernel_size, stride=stride, padding=padding, return_mask=return_mask,
                         ceil_mode=ceil_mode)


class MaxPool2D(_Pool):
    """Max over windows of an NCHW/NHWC input.

    Args:
        kernel_size: the window size: an int or 2 ints.
        stride: an int or 2 ints (None: kernel_size).
        padding: 'same', 'valid', an int, 2 ints or 4 ints (before/after per axis).
        ceil_mode: round the output size up (extra windows at the high end).
        data_format: 'NCHW' or 'NHWC'.
        return_mask: also return the int32 flat H*W index of each maximum (NCHW only).

    Returns:
        layer(x): a float [N, C, H, W] Tensor -> the pooled Tensor; with return_mask, (pooled, mask).

    Examples:
        >>> import padax
        >>> x = padax.arange(16, dtype="float32").reshape([1, 1, 4, 4])
        >>> padax.nn.MaxPool2D(kernel_size=2, stride=2)(x).tolist()
        [[[[5.0, 7.0], [13.0, 15.0]]]]
        >>> out, mask = padax.nn.MaxPool2D(2, return_mask=True)(x)
        >>> mask.tolist()
        [[[[5, 7], [13, 15]]]]
    """

    _op, _ranks, _layout = staticmethod(F.max_pool2d), (4,), "(NCHW or NHWC)"

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, return_mask: bool = False,
                 ceil_mode: bool = False, data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__(kernel_size=kernel_size, stride=stride, padding=padding, return_mask=return_mask,
                         ceil_mode=ceil_mode, data_format=data_format)


class MaxPool3D(_Pool):
    """Max over windows of an NCDHW/NDHWC input.

    Args:
        kernel_size: the window size: an int or 3 ints.
        stride: an int or 3 ints (None: kernel_size).
        padding: 'same', 'valid', an int, 3 ints or 6 ints (before/after per axis).
        ceil_mode: round the output size up (extra windows at the high end).
        data_format: 'NCDHW' or 'NDHWC'.
        return_mask: also return the int32 flat spatial index of each maximum.

    Returns:
        layer(x): a float [N, C, D, H, W] Tensor -> the pooled Tensor; with return_mask, (pooled, mask).

    Examples:
        >>> import padax
        >>> x = padax.arange(8, dtype="float32").reshape([1, 1, 2, 2, 2])
        >>> padax.nn.MaxPool3D(kernel_size=2)(x).tolist()
        [[[[[7.0]]]]]
    """

    _op, _ranks, _layout = staticmethod(F.max_pool3d), (5,), "(NCDHW or NDHWC)"

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, return_mask: bool = False,
                 ceil_mode: bool = False, data_format: str = "NCDHW", name: str | None = None) -> None:
        super().__init__(kernel_size=kernel_size, stride=stride, padding=padding, return_mask=return_mask,
                         ceil_mode=ceil_mode, data_format=data_format)


class AvgPool1D(_Pool):
    """Mean over windows of an [N, C, L] input (`exclusive` leaves padding out of the count).

    Args:
        kernel_size: the window size: an int or 1 ints.
        stride: an int or 1 ints (None: kernel_size).
        padding: 'same', 'valid', an int, 1 ints or 2 ints (before/after per axis).
        ceil_mode: round the output size up (extra windows at the high end).
        exclusive: divide by the number of in-range elements (padding left out) rather than the whole window.

    Returns:
        layer(x): a float [N, C, L] Tensor -> the pooled Tensor.

    Examples:
        >>> import padax
        >>> padax.nn.AvgPool1D(kernel_size=2)(padax.to_tensor([[[1.0, 2.0, 3.0, 4.0]]])).tolist()
        [[[1.5, 3.5]]]
    """

    _op, _ranks, _layout = staticmethod(F.avg_pool1d), (3,), "(NCL)"

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, exclusive: bool = True,
                 ceil_mode: bool = False, name: str | None = None) -> None:
        super().__init__(kernel_size=kernel_size, stride=stride, padding=padding, exclusive=exclusive,
                         ceil_mode=ceil_mode)


class AvgPool2D(_Pool):
    """Mean over windows of an NCHW/NHWC input.

    Args:
        kernel_size: the window size: an int or 2 ints.
        stride: an int or 2 ints (None: kernel_size).
        padding: 'same', 'valid', an int, 2 ints or 4 ints (before/after per axis).
        ceil_mode: round the output size up (extra windows at the high end).
        data_format: 'NCHW' or 'NHWC'.
        exclusive: divide by the number of in-range elements (padding left out) rather than the whole window.
        divisor_override: a number replacing every window's divisor.

    Returns:
        layer(x): a float [N, C, H, W] Tensor -> the pooled Tensor.

    Examples:
        >>> import padax
        >>> x = padax.arange(16, dtype="float32").reshape([1, 1, 4, 4])
        >>> padax.nn.AvgPool2D(kernel_size=2, stride=2)(x).tolist()
        [[[[2.5, 4.5], [10.5, 12.5]]]]
    """

    _op, _ranks, _layout = staticmethod(F.avg_pool2d), (4,), "(NCHW or NHWC)"

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
                 exclusive: bool = True, divisor_override: float | None = None, data_format: str = "NCHW",
                 name: str | None = None) -> None:
        super().__init__(kernel_size=kernel_size, stride=stride, padding=padding, ceil_mode=ceil_mode,
                         exclusive=exclusive, divisor_override=divisor_override, data_format=data_format)


class AvgPool3D(_Pool):
    """Mean over windows of an NCDHW/NDHWC input.

    Args:
        kernel_size: the window size: an int or 3 ints.
        stride: an int or 3 ints (None: kernel_size).
        padding: 'same', 'valid', an int, 3 ints or 6 ints (before/after per axis).
        ceil_mode: round the output size up (extra windows at the high end).
        data_format: 'NCDHW' or 'NDHWC'.
        exclusive: divide by the number of in-range elements (padding left out) rather than the whole window.
        divisor_override: a number replacing every window's divisor.

    Returns:
        layer(x): a float [N, C, D, H, W] Tensor -> the pooled Tensor.

    Examples:
        >>> import padax
        >>> x = padax.arange(8, dtype="float32").reshape([1, 1, 2, 2, 2])
        >>> padax.nn.AvgPool3D(kernel_size=2)(x).tolist()
        [[[[[3.5]]]]]
    """

    _op, _ranks, _layout = staticmethod(F.avg_pool3d), (5,), "(NCDHW or NDHWC)"

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
                 exclusive: bool = True, divisor_override: float | None = None, data_format: str = "NCDHW",
                 name: str | None = None) -> None:
        super().__init__(kernel_size=kernel_size, stride=stride, padding=padding, ceil_mode=ceil_mode,
                         exclusive=exclusive, divisor_override=divisor_override, data_format=data_format)


class LPPool1D(_Pool):
    """(sum of x^norm_type over each window)^(1/norm_type) of an NCL/NLC input.

    Args:
        norm_type: the power p (inf gives max pooling).
        kernel_size: the window size: an int or 1 ints.
        stride: an int or 1 ints (None: kernel_size).
        padding: 'same', 'valid', an int, 1 ints or 2 ints (before/after per axis).
        ceil_mode: round the output size up (extra windows at the high end).
        data_format: 'NCL' or 'NLC'.

    Returns:
        layer(x): a float [N, C, L] Tensor -> the pooled Tensor.

    Examples:
        >>> import padax
        >>> padax.nn.LPPool1D(norm_type=2, kernel_size=2)(padax.to_tensor([[[3.0, 4.0, 1.0, 1.0]]])).tolist()
        [[[5.0, 1.4142]]]
    """

    _op, _ranks, _layout = staticmethod(F.lp_pool1d), (3,), "(NCL or NLC)"

    def __init__(self, norm_type: float, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 ceil_mode: bool = False, data_format: str = "NCL", name: str | None = None) -> None:
        super().__init__(norm_type=norm_type, kernel_size=kernel_size, stride=stride, padding=padding,
                         ceil_mode=ceil_mode, data_format=data_format)


class LPPool2D(_Pool):
    """Power-average pooling of an NCHW/NHWC input.

    Args:
        norm_type: the power p (inf gives max pooling).
        kernel_size: the window size: an int or 2 ints.
        stride: an int or 2 ints (None: kernel_size).
        padding: 'same', 'valid', an int, 2 ints or 4 ints (before/after per axis).
        ceil_mode: round the output size up (extra windows at the high end).
        data_format: 'NCHW' or 'NHWC'.

    Returns:
        layer(x): a float [N, C, H, W] Tensor -> the pooled Tensor.

    Examples:
        >>> import padax
        >>> padax.nn.LPPool2D(norm_type=1, kernel_size=2)(padax.ones([1, 1, 2, 4])).tolist()
        [[[[4.0, 4.0]]]]
    """

    _op, _ranks, _layout = staticmethod(F.lp_pool2d), (4,), "(NCHW or NHWC)"

    def __init__(self, norm_type: float, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 ceil_mode: bool = False, data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__(norm_type=norm_type, kernel_size=kernel_size, stride=stride, padding=padding,
                         ceil_mode=ceil_mode, data_format=data_format)


class AdaptiveAvgPool1D(_Pool):
    """Mean pooling of an [N, C, L] input to `output_size` positions.

    Args:
        output_size: the output length.

    Returns:
        layer(x): a float [N, C, L] Tensor -> the pooled Tensor.

    Examples:
        >>> import padax
        >>> padax.nn.AdaptiveAvgPool1D(output_size=2)(padax.to_tensor([[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]]])).tolist()
        [[[2.0, 5.0]]]
    """

    _op, _ranks, _layout = staticmethod(F.adaptive_avg_pool1d), (3,), "(NCL)"

    def __init__(self, output_size: int, name: str | None = None) -> None:
        super().__init__(output_size=output_size)


class AdaptiveAvgPool2D(_Pool):
    """Mean pooling of an NCHW/NHWC input to `output_size` (None keeps that axis).

    Args:
        output_size: an int or one entry per spatial axis (None keeps that axis's size).
        data_format: 'NCHW' or 'NHWC'.

    Returns:
        layer(x): a float [N, C, H, W] Tensor -> the pooled Tensor.

    Examples:
        >>> import padax
        >>> x = padax.arange(16, dtype="float32").reshape([1, 1, 4, 4])
        >>> padax.nn.AdaptiveAvgPool2D(output_size=1)(x).tolist()
        [[[[7.5]]]]
    """

    _op, _ranks, _layout = staticmethod(F.adaptive_avg_pool2d), (4,), "(NCHW or NHWC)"

    def __init__(self, output_size: Any, data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__(output_size=output_size, data_format=data_format)


class AdaptiveAvgPool3D(_Pool):
    """Mean pooling of an NCDHW/NDHWC input to `output_size`.

    Args:
        output_size: an int or one entry per spatial axis (None keeps that axis's size).
        data_format: 'NCDHW' or 'NDHWC'.

    Returns:
        layer(x): a float [N, C, D, H, W] Tensor -> the pooled Tensor.

    Examples:
        >>> import padax
        >>> padax.nn.AdaptiveAvgPool3D(output_size=[1, 2, 3])(padax.ones([2, 3, 4, 5, 6])).shape
        (2, 3, 1, 2, 3)
    """

    _op, _ranks, _layout = staticmethod(F.adaptive_avg_pool3d), (5,), "(NCDHW or NDHWC)"

    def __init__(self, output_size: Any, data_format: str = "NCDHW", name: str | None = None) -> None:
        super().__init__(output_size=output_size, data_format=data_format)


class AdaptiveMaxPool1D(_Pool):
    """Max pooling of an [N, C, L] input to `output_size` positions.

    Args:
        output_size: the output length.
        return_mask: also return the int32 flat spatial index of each maximum.

    Returns:
        layer(x): a float [N, C, L] Tensor -> the pooled Tensor; with return_mask, (pooled, mask).

    Examples:
        >>> import padax
        >>> padax.nn.AdaptiveMaxPool1D(output_size=2)(padax.to_tensor([[[1.0, 5.0, 2.0, 7.0]]])).tolist()
        [[[5.0, 7.0]]]
    """

    _op, _ranks, _layout = staticmethod(F.adaptive_max_pool1d), (3,), "(NCL)"

    def __init__(self, output_size: Any, return_mask: bool = False, name: str | None = None) -> None:
        super().__init__(output_size=output_size, return_mask=return_mask)


class AdaptiveMaxPool2D(_Pool):
    """Max pooling of an NCHW input to `output_size`.

    Args:
        output_size: an int or one entry per spatial axis (None keeps that axis's size).
        return_mask: also return the int32 flat spatial index of each maximum.

    Returns:
        layer(x): a float [N, C, H, W] Tensor -> the pooled Tensor; with return_mask, (pooled, mask).

    Examples:
        >>> import padax
        >>> x = padax.arange(16, dtype="float32").reshape([1, 1, 4, 4])
        >>> padax.nn.AdaptiveMaxPool2D(output_size=2)(x).tolist()
        [[[[5.0, 7.0], [13.0, 15.0]]]]
    """

    _op, _ranks, _layout = staticmethod(F.adaptive_max_pool2d), (4,), "(NCHW)"

    def __init__(self, output_size: Any, return_mask: bool = False, name: str | None = None) -> None:
        super().__init__(output_size=output_size, return_mask=return_mask)


class AdaptiveMaxPool3D(_Pool):
    """Max pooling of an NCDHW input to `output_size`.

    Args:
        output_size: an int or one entry per spatial axis (None keeps that axis's size).
        return_mask: also return the int32 flat spatial index of each maximum.

    Returns:
        layer(x): a float [N, C, D, H, W] Tensor -> the pooled Tensor; with return_mask, (pooled, mask).

    Examples:
        >>> import padax
        >>> x = padax.arange(8, dtype="float32").reshape([1, 1, 2, 2, 2])
        >>> padax.nn.AdaptiveMaxPool3D(output_size=1)(x).reshape([-1]).tolist()
        [7.0]
    """

    _op, _ranks, _layout = staticmethod(F.adaptive_max_pool3d), (5,), "(NCDHW)"

    def __init__(self, output_size: Any, return_mask: bool = False, name: str | None = None) -> None:
        super().__init__(output_size=output_size, return_mask=return_mask)


class _Unpool(_Pool):
    def forward(self, x: Any, indices: Any) -> Any:
        return super().forward(x, indices)


class MaxUnPool1D(_Unpool):
    """Scatters a max_pool1d output back to its argmax positions (the inverse of MaxPool1D).

    Args:
        kernel_size, stride, padding: those of the pooling (ints or 1 ints; stride None: kernel_size).
        data_format: 'NCL' only.
        output_size: the unpooled spatial size (default (in - 1) * stride + kernel - 2 * padding).

    Returns:
        layer(x, indices): the pooled NCL Tensor and its mask -> the unpooled Tensor, zeros except at indices.

    Examples:
        >>> import padax
        >>> out, mask = padax.nn.MaxPool1D(2, return_mask=True)(padax.to_tensor([[[1.0, 5.0, 2.0, 0.0]]]))
        >>> padax.nn.MaxUnPool1D(kernel_size=2)(out, mask).tolist()
        [[[0.0, 5.0, 2.0, 0.0]]]
    """

    _op, _ranks, _layout = staticmethod(F.max_unpool1d), (3,), "(NCL)"

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, data_format: str = "NCL",
                 output_size: Any = None, name: str | None = None) -> None:
        super().__init__(kernel_size=kernel_size, stride=stride, padding=padding, data_format=data_format,
                         output_size=output_size)


class MaxUnPool2D(_Unpool):
    """Scatters a max_pool2d output back to its argmax positions.

    Args:
        kernel_size, stride, padding: those of the pooling (ints or 2 ints; stride None: kernel_size).
        data_format: 'NCHW' only.
        output_size: the unpooled spatial size (default (in - 1) * stride + kernel - 2 * padding).

    Returns:
        layer(x, indices): the pooled NCHW Tensor and its mask -> the unpooled Tensor, zeros except at indices.

    Examples:
        >>> import padax
        >>> out, mask = padax.nn.MaxPool2D(2, return_mask=True)(padax.to_tensor([[[[1.0, 2.0], [4.0, 3.0]]]]))
        >>> padax.nn.MaxUnPool2D(kernel_size=2)(out, mask).tolist()
        [[[[0.0, 0.0], [4.0, 0.0]]]]
    """

    _op, _ranks, _layout = staticmethod(F.max_unpool2d), (4,), "(NCHW)"

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, data_format: str = "NCHW",
                 output_size: Any = None, name: str | None = None) -> None:
        super().__init__(kernel_size=kernel_size, stride=stride, padding=padding, data_format=data_format,
                         output_size=output_size)


class MaxUnPool3D(_Unpool):
    """Scatters a max_pool3d output back to its argmax positions.

    Args:
        kernel_size, stride, padding: those of the pooling (ints or 3 ints; stride None: kernel_size).
        data_format: 'NCDHW' only.
        output_size: the unpooled spatial size (default (in - 1) * stride + kernel - 2 * padding).

    Returns:
        layer(x, indices): the pooled NCDHW Tensor and its mask -> the unpooled Tensor, zeros except at indices.

    Examples:
        >>> import padax
        >>> x = padax.arange(8, dtype="float32").reshape([1, 1, 2, 2, 2])
        >>> out, mask = padax.nn.MaxPool3D(2, return_mask=True)(x)
        >>> padax.nn.MaxUnPool3D(kernel_size=2)(out, mask).reshape([-1]).tolist()
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 7.0]
    """

    _op, _ranks, _layout = staticmethod(F.max_unpool3d), (5,), "(NCDHW)"

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, data_format: str = "NCDHW",
                 output_size: Any = None, name: str | None = None) -> None:
        super().__init__(kernel_size=kernel_size, stride=stride, padding=padding, data_format=data_format,
                         output_size=output_size)


class FractionalMaxPool2D(_Pool):
    """Fractional max pooling of an NCHW input to `output_size` (random_u fixes the windows).

    Args:
        output_size: an int or 2 ints (None keeps that axis's size).
        kernel_size: None for disjoint windows tiling each axis, or an int / 2 ints for overlapping windows.
        random_u: a float in (0, 1) fixing the window sequence; None draws it from padax's global key.
        return_mask: also return the int32 flat spatial index of each maximum.

    Returns:
        layer(x): a float [N, C, H, W] Tensor -> the pooled Tensor; with return_mask, (pooled, mask).

    Examples:
        >>> import padax
        >>> x = padax.arange(25, dtype="float32").reshape([1, 1, 5, 5])
        >>> padax.nn.FractionalMaxPool2D(output_size=2, random_u=0.5)(x).tolist()
        [[[[12.0, 14.0], [22.0, 24.0]]]]
    """

    _op, _ranks, _layout = staticmethod(F.fractional_max_pool2d), (4,), "(NCHW)"

    def __init__(self, output_size: Any, kernel_size: Any = None, random_u: float | None = None,
                 return_mask: bool = False, name: str | None = None) -> None:
        super().__init__(output_size=output_size, kernel_size=kernel_size, random_u=random_u,
                         return_mask=return_mask)


class FractionalMaxPool3D(_Pool):
    """Fractional max pooling of an NCDHW input to `output_size` (random_u fixes the windows).

    Args:
        output_size: an int or 3 ints (None keeps that axis's size).
        kernel_size: None for disjoint windows tiling each axis, or an int / 3 ints for overlapping windows.
        random_u: a float in (0, 1) fixing the window sequence; None draws it from padax's global key.
        return_mask: also return the int32 flat spatial index of each maximum.

    Returns:
        layer(x): a float [N, C, D, H, W] Tensor -> the pooled Tensor; with return_mask, (pooled, mask).

    Examples:
        >>> import padax
        >>> x = padax.arange(27, dtype="float32").reshape([1, 1, 3, 3, 3])
        >>> padax.nn.FractionalMaxPool3D(output_size=2, random_u=0.5)(x).reshape([-1]).tolist()
        [13.0, 14.0, 16.0, 17.0, 22.0, 23.0, 25.0, 26.0]
    """

    _op, _ranks, _layout = staticmethod(F.fractional_max_pool3d), (5,), "(NCDHW)"

    def __init__(self, output_size: Any, kernel_size: Any = None, random_u: float | None = None,
                 return_mask: bool = False, name: str | None = None) -> None:
        super().__init__(output_size=output_size, kernel_size=kernel_size, random_u=random_u,
                         return_mask=return_mask)
