"""Pooling layers with Paddle's names, signatures and defaults, each applying its nn.functional op."""
from __future__ import annotations

from typing import Any

from padax.nn import functional as F
from padax.nn.layer._functional import FunctionalLayer


class _Pool(FunctionalLayer):
    _floating = True


class MaxPool1D(_Pool):
    """Max over windows of an [N, C, L] input (return_mask also gives the flat argmax indices)."""

    _op, _ranks, _layout = staticmethod(F.max_pool1d), (3,), "(NCL)"

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, return_mask: bool = False,
                 ceil_mode: bool = False, name: str | None = None) -> None:
        super().__init__(kernel_size=kernel_size, stride=stride, padding=padding, return_mask=return_mask,
                         ceil_mode=ceil_mode)


class MaxPool2D(_Pool):
    """Max over windows of an NCHW/NHWC input."""

    _op, _ranks, _layout = staticmethod(F.max_pool2d), (4,), "(NCHW or NHWC)"

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, return_mask: bool = False,
                 ceil_mode: bool = False, data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__(kernel_size=kernel_size, stride=stride, padding=padding, return_mask=return_mask,
                         ceil_mode=ceil_mode, data_format=data_format)


class MaxPool3D(_Pool):
    """Max over windows of an NCDHW/NDHWC input."""

    _op, _ranks, _layout = staticmethod(F.max_pool3d), (5,), "(NCDHW or NDHWC)"

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, return_mask: bool = False,
                 ceil_mode: bool = False, data_format: str = "NCDHW", name: str | None = None) -> None:
        super().__init__(kernel_size=kernel_size, stride=stride, padding=padding, return_mask=return_mask,
                         ceil_mode=ceil_mode, data_format=data_format)


class AvgPool1D(_Pool):
    """Mean over windows of an [N, C, L] input (`exclusive` leaves padding out of the count)."""

    _op, _ranks, _layout = staticmethod(F.avg_pool1d), (3,), "(NCL)"

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, exclusive: bool = True,
                 ceil_mode: bool = False, name: str | None = None) -> None:
        super().__init__(kernel_size=kernel_size, stride=stride, padding=padding, exclusive=exclusive,
                         ceil_mode=ceil_mode)


class AvgPool2D(_Pool):
    """Mean over windows of an NCHW/NHWC input."""

    _op, _ranks, _layout = staticmethod(F.avg_pool2d), (4,), "(NCHW or NHWC)"

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
                 exclusive: bool = True, divisor_override: float | None = None, data_format: str = "NCHW",
                 name: str | None = None) -> None:
        super().__init__(kernel_size=kernel_size, stride=stride, padding=padding, ceil_mode=ceil_mode,
                         exclusive=exclusive, divisor_override=divisor_override, data_format=data_format)


class AvgPool3D(_Pool):
    """Mean over windows of an NCDHW/NDHWC input."""

    _op, _ranks, _layout = staticmethod(F.avg_pool3d), (5,), "(NCDHW or NDHWC)"

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
                 exclusive: bool = True, divisor_override: float | None = None, data_format: str = "NCDHW",
                 name: str | None = None) -> None:
        super().__init__(kernel_size=kernel_size, stride=stride, padding=padding, ceil_mode=ceil_mode,
                         exclusive=exclusive, divisor_override=divisor_override, data_format=data_format)


class LPPool1D(_Pool):
    """(sum of x^norm_type over each window)^(1/norm_type) of an NCL/NLC input."""

    _op, _ranks, _layout = staticmethod(F.lp_pool1d), (3,), "(NCL or NLC)"

    def __init__(self, norm_type: float, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 ceil_mode: bool = False, data_format: str = "NCL", name: str | None = None) -> None:
        super().__init__(norm_type=norm_type, kernel_size=kernel_size, stride=stride, padding=padding,
                         ceil_mode=ceil_mode, data_format=data_format)


class LPPool2D(_Pool):
    """Power-average pooling of an NCHW/NHWC input."""

    _op, _ranks, _layout = staticmethod(F.lp_pool2d), (4,), "(NCHW or NHWC)"

    def __init__(self, norm_type: float, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 ceil_mode: bool = False, data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__(norm_type=norm_type, kernel_size=kernel_size, stride=stride, padding=padding,
                         ceil_mode=ceil_mode, data_format=data_format)


class AdaptiveAvgPool1D(_Pool):
    """Mean pooling of an [N, C, L] input to `output_size` positions."""

    _op, _ranks, _layout = staticmethod(F.adaptive_avg_pool1d), (3,), "(NCL)"

    def __init__(self, output_size: int, name: str | None = None) -> None:
        super().__init__(output_size=output_size)


class AdaptiveAvgPool2D(_Pool):
    """Mean pooling of an NCHW/NHWC input to `output_size` (None keeps that axis)."""

    _op, _ranks, _layout = staticmethod(F.adaptive_avg_pool2d), (4,), "(NCHW or NHWC)"

    def __init__(self, output_size: Any, data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__(output_size=output_size, data_format=data_format)


class AdaptiveAvgPool3D(_Pool):
    """Mean pooling of an NCDHW/NDHWC input to `output_size`."""

    _op, _ranks, _layout = staticmethod(F.adaptive_avg_pool3d), (5,), "(NCDHW or NDHWC)"

    def __init__(self, output_size: Any, data_format: str = "NCDHW", name: str | None = None) -> None:
        super().__init__(output_size=output_size, data_format=data_format)


class AdaptiveMaxPool1D(_Pool):
    """Max pooling of an [N, C, L] input to `output_size` positions."""

    _op, _ranks, _layout = staticmethod(F.adaptive_max_pool1d), (3,), "(NCL)"

    def __init__(self, output_size: Any, return_mask: bool = False, name: str | None = None) -> None:
        super().__init__(output_size=output_size, return_mask=return_mask)


class AdaptiveMaxPool2D(_Pool):
    """Max pooling of an NCHW input to `output_size`."""

    _op, _ranks, _layout = staticmethod(F.adaptive_max_pool2d), (4,), "(NCHW)"

    def __init__(self, output_size: Any, return_mask: bool = False, name: str | None = None) -> None:
        super().__init__(output_size=output_size, return_mask=return_mask)


class AdaptiveMaxPool3D(_Pool):
    """Max pooling of an NCDHW input to `output_size`."""

    _op, _ranks, _layout = staticmethod(F.adaptive_max_pool3d), (5,), "(NCDHW)"

    def __init__(self, output_size: Any, return_mask: bool = False, name: str | None = None) -> None:
        super().__init__(output_size=output_size, return_mask=return_mask)


class _Unpool(_Pool):
    def forward(self, x: Any, indices: Any) -> Any:
        return super().forward(x, indices)


class MaxUnPool1D(_Unpool):
    """Scatters a max_pool1d output back to its argmax positions (the inverse of MaxPool1D)."""

    _op, _ranks, _layout = staticmethod(F.max_unpool1d), (3,), "(NCL)"

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, data_format: str = "NCL",
                 output_size: Any = None, name: str | None = None) -> None:
        super().__init__(kernel_size=kernel_size, stride=stride, padding=padding, data_format=data_format,
                         output_size=output_size)


class MaxUnPool2D(_Unpool):
    """Scatters a max_pool2d output back to its argmax positions."""

    _op, _ranks, _layout = staticmethod(F.max_unpool2d), (4,), "(NCHW)"

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, data_format: str = "NCHW",
                 output_size: Any = None, name: str | None = None) -> None:
        super().__init__(kernel_size=kernel_size, stride=stride, padding=padding, data_format=data_format,
                         output_size=output_size)


class MaxUnPool3D(_Unpool):
    """Scatters a max_pool3d output back to its argmax positions."""

    _op, _ranks, _layout = staticmethod(F.max_unpool3d), (5,), "(NCDHW)"

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, data_format: str = "NCDHW",
                 output_size: Any = None, name: str | None = None) -> None:
        super().__init__(kernel_size=kernel_size, stride=stride, padding=padding, data_format=data_format,
                         output_size=output_size)


class FractionalMaxPool2D(_Pool):
    """Fractional max pooling of an NCHW input to `output_size` (random_u fixes the windows)."""

    _op, _ranks, _layout = staticmethod(F.fractional_max_pool2d), (4,), "(NCHW)"

    def __init__(self, output_size: Any, kernel_size: Any = None, random_u: float | None = None,
                 return_mask: bool = False, name: str | None = None) -> None:
        super().__init__(output_size=output_size, kernel_size=kernel_size, random_u=random_u,
                         return_mask=return_mask)


class FractionalMaxPool3D(_Pool):
    """Fractional max pooling of an NCDHW input to `output_size` (random_u fixes the windows)."""

    _op, _ranks, _layout = staticmethod(F.fractional_max_pool3d), (5,), "(NCDHW)"

    def __init__(self, output_size: Any, kernel_size: Any = None, random_u: float | None = None,
                 return_mask: bool = False, name: str | None = None) -> None:
        super().__init__(output_size=output_size, kernel_size=kernel_size, random_u=random_u,
                         return_mask=return_mask)
