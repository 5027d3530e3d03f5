"""Common layers' functions: linear, pad / zeropad2d, unfold (im2col) and fold (col2im)."""
from __future__ import annotations

from typing import Any

import numpy as np

from padax.core.errors import op_value_error
from padax.functional import math as M
from padax.functional._arrays import asarray
from padax.functional._checks import arg
from padax.functional.einsum import einsum as _einsum
from padax.functional.lax.conv import ConvDimensionNumbers, conv_general_dilated
from padax.functional.linalg_basic import matmul
from padax.functional.manipulation import pad as _pad, reshape
from padax.nn.functional._util import static_ints
from padax.nn.functional.conv import conv2d_transpose as _conv2d_transpose


def linear(x: Any, weight: Any, bias: Any = None, name: str | None = None) -> Any:
    """x @ weight + bias, with weight of shape [in_features, out_features] (Paddle's layout).

    Args:
        x: [..., in_features].
        weight: [in_features, out_features].
        bias: [out_features] or None.

    Returns:
        A Tensor [..., out_features].

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.to_tensor([[1.0, 2.0]])
        >>> w = padax.to_tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]])  # [in_features=2, out_features=3]
        >>> F.linear(x, w, bias=padax.to_tensor([0.0, 0.0, 10.0])).tolist()
        [[1.0, 2.0, 13.0]]
    """
    out = matmul(x, weight)
    return out if bias is None else M.add(out, bias)


def bilinear(x1: Any, x2: Any, weight: Any, bias: Any = None, name: str | None = None) -> Any:
    """out[n, o] = sum_ij x1[n, i] * weight[o, i, j] * x2[n, j] + bias[0, o] (weight [out, in1, in2]).

    Args:
        x1: [N, in1]; x2: [N, in2].
        weight: [out, in1, in2].
        bias: [1, out] or None.

    Returns:
        A Tensor [N, out].

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x1, x2 = padax.to_tensor([[1.0, 2.0]]), padax.to_tensor([[3.0]])
        >>> F.bilinear(x1, x2, padax.ones([2, 2, 1]), padax.to_tensor([[0.0, 1.0]])).tolist()
        [[9.0, 10.0]]
    """
    x1, x2, weight = asarray(x1), asarray(x2), asarray(weight)
    if weight.aval.ndim != 3 or x1.aval.ndim != 2 or x2.aval.ndim != 2 \
            or x1.aval.shape[1] != weight.aval.shape[1] or x2.aval.shape[1] != weight.aval.shape[2] \
            or x1.aval.shape[0] != x2.aval.shape[0]:
        raise op_value_error("bilinear", f"expected x1 [N, in1], x2 [N, in2] and weight [out, in1, in2], got "
                             f"{x1.aval.str_short()}, {x2.aval.str_short()}, {weight.aval.str_short()}")
    out = _einsum("ni,oij,nj->no", x1, weight, x2)
    return out if bias is None else M.add(out, bias)


def pad(x: Any, pad: Any, mode: str = "constant", value: float = 0.0, data_format: str | None = None,
        pad_from_left_axis: bool = True, name: str | None = None) -> Any:
    """Paddle's pad: 'constant', 'reflect', 'replicate' or 'circular' padding (see padax.pad).

    Args:
        pad: a list of ints: 2*ndim of them pad every axis from the first on ([before0, after0, before1, ...]);
            otherwise the spatial axes of `data_format`, the last first ([left, right, top, bottom, ...]).
        mode: 'constant' (with `value`), 'reflect', 'replicate' or 'circular'.
        pad_from_left_axis: accepted for Paddle's signature.

    Returns:
        The padded Tensor.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.to_tensor([[[1.0, 2.0, 3.0]]])  # [N, C, L]
        >>> F.pad(x, [1, 2], value=9.0).tolist()
        [[[9.0, 1.0, 2.0, 3.0, 9.0, 9.0]]]
        >>> F.pad(x, [2, 0], mode="reflect").tolist()
        [[[3.0, 2.0, 1.0, 2.0, 3.0]]]
        >>> F.pad(padax.ones([2, 3]), [0, 1, 1, 0]).shape
        (3, 4)
    """
    return _pad(x, pad, mode, value, data_format, pad_from_left_axis)


def zeropad2d(x: Any, padding: Any, data_format: str = "NCHW", name: str | None = None) -> Any:
    """Zero padding of a 4-D x by [left, right, top, bottom] (an int pads all four sides).

    Args:
        x: a 4-D Tensor.
        padding: an int or [left, right, top, bottom].
        data_format: 'NCHW' or 'NHWC'.

    Returns:
        The padded Tensor of x's dtype.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.zeropad2d(padax.ones([1, 1, 1, 2]), [1, 0, 0, 1]).tolist()
        [[[[0.0, 1.0, 1.0], [0.0, 0.0, 0.0]]]]
    """
    p = [int(padding)] * 4 if isinstance(padding, (int, np.integer)) else [int(v) for v in padding]
    if len(p) != 4:
        raise op_value_error("zeropad2d", f"padding must be an int or 4 ints [left, right, top, bottom], got {padding!r}")
    return _pad(x, p, "constant", 0.0, data_format)


def _patch_args(op: str, kernel_sizes, strides, paddings, dilations):
    k = static_ints(op, kernel_sizes, 2, "kernel_sizes")
    s = static_ints(op, strides, 2, "strides")
    d = static_ints(op, dilations, 2, "dilations")
    if isinstance(paddings, (int, np.integer)):
        p = [int(paddings)] * 4
    else:
        p = [int(v) for v in paddings]
        if len(p) == 2:
            p = p * 2
        if len(p) != 4:
            raise op_value_error(op, f"paddings must be an int, [pad_h, pad_w] or [top, left, bottom, right], "
                                     f"got {paddings!r}")
    if min(k + s + d) < 1 or min(p) < 0:
        raise op_value_error(op, f"kernel_sizes {list(k)}, strides {list(s)} and dilations {list(d)} must be "
                                 f"positive and paddings {p} non-negative")
    return k, s, [(p[0], p[2]), (p[1], p[3])], d


def _selector(c: int, k: tuple[int, int], dtype) -> Any:
    """The one-hot kernel [c*kh*kw, 1, kh, kw] that copies each window position into a channel."""
    kk = k[0] * k[1]
    eye = np.eye(kk, dtype=dtype).reshape(kk, 1, k[0], k[1])
    return asarray(np.tile(eye, (c, 1, 1, 1)))


_NCHW = ConvDimensionNumbers((0, 1, 2, 3), (0, 1, 2, 3), (0, 1, 2, 3))


def unfold(x: Any, kernel_sizes: Any, strides: Any = 1, paddings: Any = 0, dilations: Any = 1,
           name: str | None = None) -> Any:
    """im2col: x [N, C, H, W] -> [N, C*kh*kw, L], a column per sliding window (channel-major rows).

    Args:
        x: [N, C, H, W].
        kernel_sizes: the block size [kh, kw] (or one int).
        strides, paddings, dilations: an int or per-axis ints (paddings also [top, left, bottom, right]).

    Returns:
        A Tensor [N, C*kh*kw, L] of x's dtype, L the number of blocks.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.arange(9, dtype="float32").reshape([1, 1, 3, 3])
        >>> cols = F.unfold(x, kernel_sizes=2)
        >>> cols.shape, cols[0].tolist()
        ((1, 4, 4), [[0.0, 1.0, 3.0, 4.0], [1.0, 2.0, 4.0, 5.0], [3.0, 4.0, 6.0, 7.0], [4.0, 5.0, 7.0, 8.0]])
    """
    op = "unfold"
    x = arg(op, x, "x")
    if x.aval.ndim != 4:
        raise op_value_error(op, f"x must be [N, C, H, W], got {x.aval.str_short()}")
    k, s, p, d = _patch_args(op, kernel_sizes, strides, paddings, dilations)
    n, c = x.aval.shape[:2]
    y = conv_general_dilated(x, _selector(c, k, x.aval.dtype), s, p, rhs_dilation=d, dimension_numbers=_NCHW,
                             feature_group_count=c)
    if 0 in y.aval.shape[2:] and 0 not in x.aval.shape[2:]:
        raise op_value_error(op, f"kernel_sizes {list(k)} (dilations {list(d)}) do not fit in x of shape "
                                 f"{list(x.aval.shape)} with paddings {p}: no block fits")
    return reshape(y, [n, c * k[0] * k[1], -1])


def fold(x: Any, output_sizes: Any, kernel_sizes: Any, strides: Any = 1, paddings: Any = 0, dilations: Any = 1,
         name: str | None = None) -> Any:
    """col2im, the adjoint of unfold: x [N, C*kh*kw, L] -> [N, C, H, W] summing overlapping windows.

    Args:
        x: columns [N, C*kh*kw, L].
        output_sizes: the image size [H, W] (or one int).
        kernel_sizes: the block size [kh, kw] (or one int).
        strides, paddings, dilations: an int or per-axis ints (paddings also [top, left, bottom, right]).

    Returns:
        A Tensor [N, C, H, W] of x's dtype.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.arange(9, dtype="float32").reshape([1, 1, 3, 3])
        >>> F.fold(F.unfold(x, 2), output_sizes=[3, 3], kernel_sizes=2).tolist()
        [[[[0.0, 2.0, 2.0], [6.0, 16.0, 10.0], [6.0, 14.0, 8.0]]]]
    """
    op = "fold"
    x = arg(op, x, "x")
    out = static_ints(op, output_sizes, 2, "output_sizes")
    k, s, p, d = _patch_args(op, kernel_sizes, strides, paddings, dilations)
    kk = k[0] * k[1]
    if x.aval.ndim != 3 or x.aval.shape[1] % kk:
        raise op_value_error(op, f"x must be [N, C*kh*kw, L] with C*kh*kw divisible by {kk}, got {x.aval.str_short()}")
    blocks = [(o + lo + hi - (dd * (kq - 1) + 1)) // ss + 1 for o, (lo, hi), dd, kq, ss in zip(out, p, d, k, s)]
    if min(blocks) < 1 or blocks[0] * blocks[1] != x.aval.shape[2]:
        raise op_value_error(op, f"x {x.aval.str_short()} must have {blocks[0]} x {blocks[1]} = "
                                 f"{blocks[0] * blocks[1]} columns for output_sizes {list(out)}")
    n, ckk = x.aval.shape[:2]
    c = ckk // kk
    cols = reshape(x, [n, ckk, *blocks])
    # the transposed convolution of the one-hot kernel: each column adds back at its window
    kernel = reshape(_selector(c, k, x.aval.dtype), [ckk, 1, *k])
    pads = [p[0][0], p[0][1], p[1][0], p[1][1]]
    return _conv2d_transpose(cols, kernel, None, s, pads, dilation=d, groups=c, output_size=out)
