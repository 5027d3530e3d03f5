"""Deformable convolution (v1, and v2 with a modulation mask): deform_conv2d and DeformConv2D.

Every kernel tap samples the input bilinearly at its regular position plus a learned offset
(zero outside the image), optionally scaled by a mask; the sampled columns then meet the
weights in one grouped matrix product. Built from gathers, so it jits and differentiates with
respect to x, offset, mask, weight and bias.
"""
from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

import padax
from padax.core.errors import op_value_error
from padax.nn.initializer import Normal
from padax.nn.layer.layers import Layer
from padax.vision.ops._common import float_tensor, pair


def _sample(xg: Any, py: Any, px: Any, h: int, w: int) -> Any:
    """Bilinear samples of xg [N, G, Cg, H*W] at py, px [N, G, P] (zero outside): [N, G, Cg, P]."""
    y0, x0 = padax.floor(py), padax.floor(px)
    ly, lx = py - y0, px - x0
    out = 0.0
    for dy, dx, wt in ((0, 0, (1 - ly) * (1 - lx)), (0, 1, (1 - ly) * lx), (1, 0, ly * (1 - lx)), (1, 1, ly * lx)):
        yy, xx = y0 + dy, x0 + dx
        inside = ((yy >= 0) & (yy <= h - 1) & (xx >= 0) & (xx <= w - 1)).astype(xg.dtype)
        idx = (padax.clip(yy, 0, h - 1) * w + padax.clip(xx, 0, w - 1)).astype("int32")
        vals = padax.take_along_axis(xg, idx[:, :, None, :], axis=3)
        out = out + vals * (wt * inside)[:, :, None, :]
    return out


def deform_conv2d(x: Any, offset: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0,
                  dilation: Any = 1, deformable_groups: int = 1, groups: int = 1, mask: Any = None,
                  name: str | None = None) -> Any:
    """Deformable 2-D convolution of x [N, Cin, H, W] with weight [Cout, Cin/groups, kh, kw].

    offset [N, 2 * deformable_groups * kh * kw, Ho, Wo] holds (dy, dx) per group and kernel tap;
    mask [N, deformable_groups * kh * kw, Ho, Wo] (optional) scales each sample (DCN v2)."""
    op = "deform_conv2d"
    x = float_tensor(op, x, "x", ndim=4)
    weight = float_tensor(op, weight, "weight", ndim=4).astype(x.dtype)
    offset = float_tensor(op, offset, "offset", ndim=4).astype(x.dtype)
    n, cin, h, w = x.shape
    cout, cin_g, kh, kw = weight.shape
    sh, sw = pair(op, stride, "stride")
    pdh, pdw = pair(op, padding, "padding")
    dh, dw = pair(op, dilation, "dilation")
    dg, k = int(deformable_groups), kh * kw
    ho, wo = (h + 2 * pdh - (dh * (kh - 1) + 1)) // sh + 1, (w + 2 * pdw - (dw * (kw - 1) + 1)) // sw + 1
    if cin % groups or cout % groups or cin_g != cin // groups:
        raise op_value_error(op, f"weight {list(weight.shape)} does not fit x {list(x.shape)} with groups={groups}")
    if cin % dg:
        raise op_value_error(op, f"x's channels ({cin}) must be a multiple of deformable_groups={dg}")
    if list(offset.shape) != [n, 2 * dg * k, ho, wo]:
        raise op_value_error(op, f"offset must have shape {[n, 2 * dg * k, ho, wo]} for x {list(x.shape)}, "
                                 f"weight {list(weight.shape)}, deformable_groups={dg}; got {list(offset.shape)}")
    if mask is not None:
        mask = float_tensor(op, mask, "mask", ndim=4).astype(x.dtype)
        if list(mask.shape) != [n, dg * k, ho, wo]:
            raise op_value_error(op, f"mask must have shape {[n, dg * k, ho, wo]}, got {list(mask.shape)}")
    if bias is not None:
        bias = float_tensor(op, bias, "bias", ndim=1).astype(x.dtype)
        if bias.shape[0] != cout:
            raise op_value_error(op, f"bias must have {cout} entries, got {list(bias.shape)}")
    return _deform_conv2d(x, offset, weight, bias, mask, stride=(sh, sw), padding=(pdh, pdw), dilation=(dh, dw),
                          dg=dg, groups=int(groups))


@partial(padax.jit, static_argnames=("stride", "padding", "dilation", "dg", "groups"))
def _deform_conv2d(x: Any, offset: Any, weight: Any, bias: Any, mask: Any, *, stride, padding, dilation, dg,
                   groups) -> Any:
    n, cin, h, w = x.shape
    cout, _, kh, kw = weight.shape
    (sh, sw), (pdh, pdw), (dh, dw) = stride, padding, dilation
    k, ho, wo = kh * kw, offset.shape[2], offset.shape[3]
    off = offset.reshape([n, dg, k, 2, ho * wo])
    ki = np.repeat(np.arange(kh) * dh, kw).astype(np.float64)  # tap row offsets, [K]
    kj = np.tile(np.arange(kw) * dw, kh).astype(np.float64)
    base_y = (np.arange(ho) * sh - pdh)[None, :, None] + ki[:, None, None]  # [K, Ho, 1]
    base_x = (np.arange(wo) * sw - pdw)[None, None, :] + kj[:, None, None]  # [K, 1, Wo]
    grid_y = np.broadcast_to(base_y, (k, ho, wo)).reshape(k, ho * wo)
    grid_x = np.broadcast_to(base_x, (k, ho, wo)).reshape(k, ho * wo)
    py = (off[:, :, :, 0] + padax.to_tensor(grid_y).astype(x.dtype)).reshape([n, dg, k * ho * wo])
    px = (off[:, :, :, 1] + padax.to_tensor(grid_x).astype(x.dtype)).reshape([n, dg, k * ho * wo])
    cols = _sample(x.reshape([n, dg, cin // dg, h * w]), py, px, h, w)  # [N, dg, Cg, K*L]
    cols = cols.reshape([n, dg, cin // dg, k, ho * wo])
    if mask is not None:
        cols = cols * mask.reshape([n, dg, 1, k, ho * wo])
    cols = cols.reshape([n, groups, cin // groups, k, ho * wo])
    wg = weight.reshape([groups, cout // groups, cin // groups, k])
    out = padax.einsum("goik,ngikl->ngol", wg, cols).reshape([n, cout, ho, wo])
    return out if bias is None else out + bias.reshape([1, cout, 1, 1])


class DeformConv2D(Layer):
    """Layer form of deform_conv2d: weight [out, in/groups, kh, kw] ~ Normal(0, sqrt(2 / (kh*kw*in))),
    bias zeros; forward(x, offset, mask=None)."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 dilation: Any = 1, deformable_groups: int = 1, groups: int = 1, weight_attr: Any = None,
                 bias_attr: Any = None):
        super().__init__()
        if weight_attr is False:
            raise ValueError("DeformConv2D: weight_attr cannot be False (the layer needs its weight)")
        if in_channels % groups:
            raise ValueError(f"DeformConv2D: in_channels ({in_channels}) must be divisible by groups ({groups})")
        op = "DeformConv2D"
        self._in_channels, self._out_channels = in_channels, out_channels
        self._kernel_size = list(pair(op, kernel_size, "kernel_size"))
        self._stride, self._padding = list(pair(op, stride, "stride")), list(pair(op, padding, "padding"))
        self._dilation = list(pair(op, dilation, "dilation"))
        self._deformable_groups, self._groups = deformable_groups, groups
        std = (2.0 / (np.prod(self._kernel_size) * in_channels)) ** 0.5
        self.weight = self.create_parameter([out_channels, in_channels // groups, *self._kernel_size],
                                            attr=weight_attr, default_initializer=Normal(0.0, std))
        self.bias = self.create_parameter([out_channels], attr=bias_attr, is_bias=True)

    def forward(self, x: Any, offset: Any, mask: Any = None) -> Any:
        return deform_conv2d(x, offset, self.weight, self.bias, self._stride, self._padding, self._dilation,
                             self._deformable_groups, self._groups, mask)

    def extra_repr(self) -> str:
        return (f"{self._in_channels}, {self._out_channels}, kernel_size={self._kernel_size}, "
                f"stride={self._stride}, padding={self._padding}, deformable_groups={self._deformable_groups}")
