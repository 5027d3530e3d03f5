"""Max, average and power-average pooling (1D/2D/3D) with Paddle's signatures and output sizes.

Windows are XLA reduce_windows; a max pool's gradient is XLA's SelectAndScatter (the first
maximum of each window takes it, as in Paddle). ceil_mode adds windows at the high end whose
out-of-range part counts as padding. Average pools divide by the in-range count (exclusive) or by
the count inside the explicitly padded input, a host constant; masks (return_mask) are int32 flat
indices into each channel's spatial input, as in Paddle.
"""
from __future__ import annotations

import itertools
from typing import Any, NamedTuple

import numpy as np

from padax import dtypes
from padax.core.errors import op_value_error
from padax.functional import math as M
from padax.functional._arrays import asarray, full
from padax.functional._checks import arg
from padax.functional.lax import elementwise as E, structural as S
from padax.functional.lax.windowed import reduce_window_max, reduce_window_sum
from padax.nn.functional._util import (
    LOW_PRECISION,
    channel_last,
    explicit_padding,
    same_pads,
    spatial_axes,
    static_ints,
)

MASK_DTYPE = np.dtype(np.int32)


class Windows(NamedTuple):
    """A pooling's windows over the whole array: sizes, strides and (lo, hi) padding per axis
    (ceil_mode's extra windows included), and the spatial axes."""
    dims: tuple[int, ...]
    strides: tuple[int, ...]
    padding: tuple[tuple[int, int], ...]
    spatial: tuple[int, ...]


def pool_input(op: str, x: Any, nsp: int) -> Any:
    x = arg(op, x, "x")
    if x.aval.ndim != nsp + 2:
        raise op_value_error(op, f"x must be {nsp + 2}-D, got {x.aval.str_short()}")
    if not dtypes.is_floating(x.aval.dtype):
        raise op_value_error(op, f"x must be a floating-point Tensor, got {x.aval.str_short()}")
    return x


def windows(op: str, x: Any, nsp: int, kernel_size: Any, stride: Any, padding: Any, ceil_mode: bool,
            last: bool) -> Windows:
    """Paddle's pooling geometry: out = (n + lo + hi - k [+ s - 1 with ceil_mode]) // s + 1."""
    k = static_ints(op, kernel_size, nsp, "kernel_size")
    s = k if stride is None else static_ints(op, stride, nsp, "stride")
    if min(k) < 1 or min(s) < 1:
        raise op_value_error(op, f"kernel_size {list(k)} and stride {list(s)} must be positive")
    mode, pads = explicit_padding(op, padding, nsp, last)
    sp = spatial_axes(nsp + 2, last)
    sizes = [x.aval.shape[a] for a in sp]
    if mode == "VALID" and ceil_mode:
        raise op_value_error(op, "ceil_mode must be False with padding 'VALID'")
    if mode == "SAME":
        pads = same_pads(sizes, k, s)
    full_pads = []
    for n, kk, ss, (lo, hi) in zip(sizes, k, s, pads):
        span = n + lo + hi - kk
        if span < 0:
            raise op_value_error(op, f"kernel_size {list(k)} is larger than the padded input {x.aval.str_short()} "
                                     f"(padding {pads})")
        out = (span + (ss - 1 if ceil_mode else 0)) // ss + 1
        full_pads.append((lo, max(hi, (out - 1) * ss + kk - n - lo)))
    nd = nsp + 2
    dims, strides, padding_all = [1] * nd, [1] * nd, [(0, 0)] * nd
    for a, kk, ss, p in zip(sp, k, s, full_pads):
        dims[a], strides[a], padding_all[a] = kk, ss, p
    return Windows(tuple(dims), tuple(strides), tuple(padding_all), sp)


def _max_pool(op: str, nsp: int, x, kernel_size, stride, padding, return_mask, ceil_mode, data_format):
    x = pool_input(op, x, nsp)
    last = channel_last(op, data_format, nsp)
    if return_mask and last:
        raise op_value_error(op, f"return_mask needs a channel-first data_format, got {data_format!r}")
    w = windows(op, x, nsp, kernel_size, stride, padding, ceil_mode, last)
    out = reduce_window_max(x, w.dims, w.strides, w.padding)
    if not return_mask:
        return out
    return out, window_argmax(x, out, w)


def window_argmax(x: Any, out: Any, w: Windows) -> Any:
    """Flat spatial index (int32) of each window's first maximum: one strided slice per window
    offset, scanned from the last offset back so that the first match wins."""
    sp = w.spatial
    sizes = [x.aval.shape[a] for a in sp]
    flat = np.arange(int(np.prod(sizes)), dtype=MASK_DTYPE).reshape(sizes)
    index = S.broadcast_in_dim(asarray(flat), x.aval.shape, sp)
    cfg = [(lo, hi, 0) for lo, hi in w.padding]
    lowest = float("-inf")
    xp = S.pad(x, asarray(lowest, x.aval.dtype), cfg)
    ip = S.pad(index, asarray(-1, MASK_DTYPE), cfg)
    out_shape = out.aval.shape
    mask = None
    for off in reversed(list(itertools.product(*(range(d) for d in w.dims)))):
        start = off
        limit = tuple(o + (m - 1) * s + 1 for o, m, s in zip(off, out_shape, w.strides))
        xs = S.slice(xp, start, limit, w.strides)
        iv = S.slice(ip, start, limit, w.strides)
        mask = iv if mask is None else S.select(E.eq(xs, out), iv, mask)
    return mask


def max_pool1d(x: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, return_mask: bool = False,
               ceil_mode: bool = False, name: str | None = None) -> Any:
    """Max over windows of x [N, C, L]; with return_mask also the int32 index of each maximum.

    Args:
        x: a float Tensor, [N, C, L] (3-D).
        kernel_size: the window size: an int or 1 ints.
        stride: an int or 1 ints (None: kernel_size).
        padding: 'same', 'valid', an int, 1 ints, 2 ints (before/after per axis) or one pair per axis of x.
        ceil_mode: round the output size up (extra windows at the high end).
        return_mask: also return the int32 flat spatial index of each maximum.

    Returns:
        The pooled Tensor of x's dtype; with return_mask, (pooled, mask).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.to_tensor([[[1.0, 5.0, 2.0, 0.0, 3.0, 4.0]]])  # [N=1, C=1, L=6]
        >>> F.max_pool1d(x, kernel_size=2).tolist()
        [[[5.0, 2.0, 4.0]]]
        >>> out, mask = F.max_pool1d(x, kernel_size=3, stride=3, return_mask=True)
        >>> out.tolist(), mask.tolist()
        ([[[5.0, 4.0]]], [[[1, 5]]])
    """
    return _max_pool("max_pool1d", 1, x, kernel_size, stride, padding, return_mask, ceil_mode, "NCL")


def max_pool2d(x: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, return_mask: bool = False,
               ceil_mode: bool = False, data_format: str = "NCHW", name: str | None = None) -> Any:
    """Max over windows of x [N, C, H, W] (or NHWC); return_mask gives flat H*W indices (NCHW only).

    Args:
        x: a float Tensor, [N, C, H, W] or NHWC (4-D).
        kernel_size: the window size: an int or 2 ints.
        stride: an int or 2 ints (None: kernel_size).
        padding: 'same', 'valid', an int, 2 ints, 4 ints (before/after per axis) or one pair per axis of x.
        ceil_mode: round the output size up (extra windows at the high end).
        data_format: 'NCHW' or 'NHWC'.
        return_mask: also return the int32 flat H*W index of each maximum (NCHW only).

    Returns:
        The pooled Tensor of x's dtype; with return_mask, (pooled, mask).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.arange(16, dtype="float32").reshape([1, 1, 4, 4])
        >>> F.max_pool2d(x, kernel_size=2, stride=2).tolist()
        [[[[5.0, 7.0], [13.0, 15.0]]]]
        >>> F.max_pool2d(x, kernel_size=3, stride=2, padding=1, ceil_mode=True).shape
        (1, 1, 3, 3)
    """
    return _max_pool("max_pool2d", 2, x, kernel_size, stride, padding, return_mask, ceil_mode, data_format)


def max_pool3d(x: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, return_mask: bool = False,
               ceil_mode: bool = False, data_format: str = "NCDHW", name: str | None = None) -> Any:
    """Max over windows of x [N, C, D, H, W] (or NDHWC); return_mask gives flat D*H*W indices.

    Args:
        x: a float Tensor, [N, C, D, H, W] or NDHWC (5-D).
        kernel_size: the window size: an int or 3 ints.
        stride: an int or 3 ints (None: kernel_size).
        padding: 'same', 'valid', an int, 3 ints, 6 ints (before/after per axis) or one pair per axis of x.
        ceil_mode: round the output size up (extra windows at the high end).
        data_format: 'NCDHW' or 'NDHWC'.
        return_mask: also return the int32 flat D*H*W index of each maximum.

    Returns:
        The pooled Tensor of x's dtype; with return_mask, (pooled, mask).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.arange(8, dtype="float32").reshape([1, 1, 2, 2, 2])
        >>> out, mask = F.max_pool3d(x, kernel_size=2, return_mask=True)
        >>> out.tolist(), mask.tolist()
        ([[[[[7.0]]]]], [[[[[7]]]]])
    """
    return _max_pool("max_pool3d", 3, x, kernel_size, stride, padding, return_mask, ceil_mode, data_format)


def _counts(x: Any, w: Windows, out_shape: tuple[int, ...], exclusive: bool) -> np.ndarray:
    """Elements per window inside the input (exclusive) or inside the padded input, a product of
    per-axis counts. As Paddle's kernels, the padded input is [-lo, n + lo): the low pad is taken
    for both ends."""
    per_axis = []
    for a in w.spatial:
        n, k, s, lo = x.aval.shape[a], w.dims[a], w.strides[a], w.padding[a][0]
        start = np.arange(out_shape[a]) * s - lo
        lo_b, hi_b = (0, n) if exclusive else (-lo, n + lo)
        per_axis.append(np.maximum(np.minimum(start + k, hi_b) - np.maximum(start, lo_b), 0))
    counts = per_axis[0]
    for c in per_axis[1:]:
        counts = np.multiply.outer(counts, c)
    return counts


def _avg_pool(op: str, nsp: int, x, kernel_size, stride, padding, ceil_mode, exclusive, divisor_override,
              data_format):
    x = pool_input(op, x, nsp)
    last = channel_last(op, data_format, nsp)
    w = windows(op, x, nsp, kernel_size, stride, padding, ceil_mode, last)
    dt = x.aval.dtype
    xf = M.cast(x, dtypes.float32) if dt in LOW_PRECISION else x
    total = reduce_window_sum(xf, w.dims, w.strides, w.padding)
    if divisor_override and not exclusive:
        out = E.div(total, full(total.aval.shape, float(divisor_override), total.aval.dtype))
    else:
        counts = np.maximum(_counts(x, w, total.aval.shape, exclusive), 1).astype(np.float64)
        if divisor_override:  # Paddle: the exclusive mean scaled by window size / divisor_override
            counts = counts * float(divisor_override) / np.prod([w.dims[a] for a in w.spatial])
        counts = counts.astype(total.aval.dtype)
        out = E.div(total, S.broadcast_in_dim(asarray(counts), total.aval.shape, w.spatial))
    return M.cast(out, dt)


def avg_pool1d(x: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, exclusive: bool = True,
               ceil_mode: bool = False, name: str | None = None) -> Any:
    """Mean over windows of x [N, C, L]; exclusive=True leaves padding out of the divisor.

    Args:
        x: a float Tensor, [N, C, L] (3-D).
        kernel_size: the window size: an int or 1 ints.
        stride: an int or 1 ints (None: kernel_size).
        padding: 'same', 'valid', an int, 1 ints, 2 ints (before/after per axis) or one pair per axis of x.
        ceil_mode: round the output size up (extra windows at the high end).
        exclusive: divide by the number of in-range elements (padding left out) rather than the whole window.

    Returns:
        The pooled Tensor of x's dtype.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.to_tensor([[[1.0, 2.0, 3.0, 4.0]]])
        >>> F.avg_pool1d(x, kernel_size=2).tolist()
        [[[1.5, 3.5]]]
        >>> F.avg_pool1d(x, kernel_size=2, padding=1, exclusive=False).tolist()
        [[[0.5, 2.5, 2.0]]]
    """
    return _avg_pool("avg_pool1d", 1, x, kernel_size, stride, padding, ceil_mode, exclusive, None, "NCL")


def avg_pool2d(x: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
               exclusive: bool = True, divisor_override: float | None = None, data_format: str = "NCHW",
               name: str | None = None) -> Any:
    """Mean over windows of x [N, C, H, W] (or NHWC); divisor_override replaces the divisor.

    Args:
        x: a float Tensor, [N, C, H, W] or NHWC (4-D).
        kernel_size: the window size: an int or 2 ints.
        stride: an int or 2 ints (None: kernel_size).
        padding: 'same', 'valid', an int, 2 ints, 4 ints (before/after per axis) or one pair per axis of x.
        ceil_mode: round the output size up (extra windows at the high end).
        data_format: 'NCHW' or 'NHWC'.
        exclusive: divide by the number of in-range elements (padding left out) rather than the whole window.
        divisor_override: a number replacing every window's divisor.

    Returns:
        The pooled Tensor of x's dtype.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.arange(16, dtype="float32").reshape([1, 1, 4, 4])
        >>> F.avg_pool2d(x, kernel_size=2, stride=2).tolist()
        [[[[2.5, 4.5], [10.5, 12.5]]]]
        >>> F.avg_pool2d(x, kernel_size=2, stride=2, divisor_override=1).tolist()
        [[[[10.0, 18.0], [42.0, 50.0]]]]
    """
    return _avg_pool("avg_pool2d", 2, x, kernel_size, stride, padding, ceil_mode, exclusive, divisor_override,
                     data_format)


def avg_pool3d(x: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
               exclusive: bool = True, divisor_override: float | None = None, data_format: str = "NCDHW",
               name: str | None = None) -> Any:
    """Mean over windows of x [N, C, D, H, W] (or NDHWC).

    Args:
        x: a float Tensor, [N, C, D, H, W] or NDHWC (5-D).
        kernel_size: the window size: an int or 3 ints.
        stride: an int or 3 ints (None: kernel_size).
        padding: 'same', 'valid', an int, 3 ints, 6 ints (before/after per axis) or one pair per axis of x.
        ceil_mode: round the output size up (extra windows at the high end).
        data_format: 'NCDHW' or 'NDHWC'.
        exclusive: divide by the number of in-range elements (padding left out) rather than the whole window.
        divisor_override: a number replacing every window's divisor.

    Returns:
        The pooled Tensor of x's dtype.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.arange(8, dtype="float32").reshape([1, 1, 2, 2, 2])
        >>> F.avg_pool3d(x, kernel_size=2).tolist()
        [[[[[3.5]]]]]
    """
    return _avg_pool("avg_pool3d", 3, x, kernel_size, stride, padding, ceil_mode, exclusive, divisor_override,
                     data_format)


def _lp_pool(op: str, nsp: int, x, norm_type, kernel_size, stride, padding, ceil_mode, data_format):
    x = pool_input(op, x, nsp)
    last = channel_last(op, data_format, nsp)
    w = windows(op, x, nsp, kernel_size, stride, padding, ceil_mode, last)
    p = float(norm_type)
    if p == float("inf"):
        return reduce_window_max(x, w.dims, w.strides, w.padding)
    if p == 0:
        raise op_value_error(op, "norm_type must be nonzero")
    dt = x.aval.dtype
    xf = M.cast(x, dtypes.float32) if dt in LOW_PRECISION else x
    total = reduce_window_sum(M.pow(xf, p), w.dims, w.strides, w.padding)
    return M.cast(M.pow(total, 1.0 / p), dt)


def lp_pool1d(x: Any, norm_type: float, kernel_size: Any, stride: Any = None, padding: Any = 0,
              ceil_mode: bool = False, data_format: str = "NCL", name: str | None = None) -> Any:
    """(sum of x ** p over each window) ** (1 / p); norm_type inf is max pooling.

    Args:
        x: a float Tensor, [N, C, L] or NLC (3-D).
        norm_type: the power p (inf gives max pooling).
        kernel_size: the window size: an int or 1 ints.
        stride: an int or 1 ints (None: kernel_size).
        padding: 'same', 'valid', an int, 1 ints, 2 ints (before/after per axis) or one pair per axis of x.
        ceil_mode: round the output size up (extra windows at the high end).
        data_format: 'NCL' or 'NLC'.

    Returns:
        The pooled Tensor of x's dtype.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.to_tensor([[[3.0, 4.0, 1.0, 1.0]]])
        >>> F.lp_pool1d(x, norm_type=2, kernel_size=2).tolist()
        [[[5.0, 1.4142]]]
        >>> F.lp_pool1d(x, norm_type=float("inf"), kernel_size=2).tolist()
        [[[4.0, 1.0]]]
    """
    return _lp_pool("lp_pool1d", 1, x, norm_type, kernel_size, stride, padding, ceil_mode, data_format)


def lp_pool2d(x: Any, norm_type: float, kernel_size: Any, stride: Any = None, padding: Any = 0,
              ceil_mode: bool = False, data_format: str = "NCHW", name: str | None = None) -> Any:
    """2-D power-average pooling: (sum of x ** p over each window) ** (1 / p).

    Args:
        x: a float Tensor, [N, C, H, W] or NHWC (4-D).
        norm_type: the power p (inf gives max pooling).
        kernel_size: the window size: an int or 2 ints.
        stride: an int or 2 ints (None: kernel_size).
        padding: 'same', 'valid', an int, 2 ints, 4 ints (before/after per axis) or one pair per axis of x.
        ceil_mode: round the output size up (extra windows at the high end).
        data_format: 'NCHW' or 'NHWC'.

    Returns:
        The pooled Tensor of x's dtype.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.lp_pool2d(padax.ones([1, 1, 2, 4]), norm_type=1, kernel_size=2).tolist()
        [[[[4.0, 4.0]]]]
    """
    return _lp_pool("lp_pool2d", 2, x, norm_type, kernel_size, stride, padding, ceil_mode, data_format)
