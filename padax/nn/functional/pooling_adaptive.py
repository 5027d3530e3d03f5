"""Adaptive pooling (output size given; window i spans [floor(i*n/m), ceil((i+1)*n/m))) and max unpooling.

When every size divides evenly the windows are regular and the ordinary pools run. Otherwise an
average is a separable matrix product per spatial axis, and a max gathers each window (padded
to the longest by repeating its last element) and takes the first maximum, as Paddle does.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from padax import dtypes
from padax.core.errors import op_value_error
from padax.functional import math as M, reduction as R
from padax.functional._arrays import asarray, broadcast_to, full
from padax.functional._checks import arg
from padax.functional.indexed import put_along_axis, take_along, take_axis
from padax.functional.linalg_basic import tensordot
from padax.functional.manipulation import moveaxis, reshape, transpose
from padax.nn.functional._util import LOW_PRECISION, channel_last, spatial_axes, static_ints
from padax.nn.functional.pooling import MASK_DTYPE, _avg_pool, _max_pool, pool_input


def _output_size(op: str, x: Any, output_size: Any, sp: tuple[int, ...]) -> tuple[int, ...]:
    """Paddle's output_size: an int, or one entry per spatial axis where None keeps the input size."""
    n = len(sp)
    if isinstance(output_size, (list, tuple)):
        if len(output_size) != n:
            raise op_value_error(op, f"output_size {list(output_size)} needs {n} entries")
        out = tuple(x.aval.shape[a] if o is None else int(o) for a, o in zip(sp, output_size))
    else:
        out = static_ints(op, output_size, n, "output_size")
    if min(out) < 1:
        raise op_value_error(op, f"output_size must be positive, got {list(out)}")
    return out


def _bounds(n: int, m: int) -> tuple[np.ndarray, np.ndarray]:
    i = np.arange(m)
    return (i * n) // m, -((-(i + 1) * n) // m)


def _regular(x: Any, sp: tuple[int, ...], out: tuple[int, ...]) -> bool:
    return all(x.aval.shape[a] % m == 0 for a, m in zip(sp, out))


def _adaptive_avg(op: str, nsp: int, x, output_size, data_format):
    x = pool_input(op, x, nsp)
    last = channel_last(op, data_format, nsp)
    sp = spatial_axes(nsp + 2, last)
    out = _output_size(op, x, output_size, sp)
    if _regular(x, sp, out):
        k = [x.aval.shape[a] // m for a, m in zip(sp, out)]
        return _avg_pool(op, nsp, x, k, k, 0, False, True, None, data_format)
    dt = x.aval.dtype
    y = M.cast(x, dtypes.float32) if dt in LOW_PRECISION else x
    for a, m in zip(sp, out):
        n = x.aval.shape[a]
        lo, hi = _bounds(n, m)
        i = np.arange(n)
        weights = ((i >= lo[:, None]) & (i < hi[:, None])) / (hi - lo)[:, None]
        y = moveaxis(tensordot(y, asarray(weights.T.astype(y.aval.dtype)), axes=[[a], [0]]), -1, a)
    return M.cast(y, dt)


def adaptive_avg_pool1d(x: Any, output_size: int, name: str | None = None) -> Any:
    """Mean over adaptive windows of x [N, C, L] giving output_size positions.

    Args:
        x: a float Tensor [N, C, L].
        output_size: the output length.

    Returns:
        A Tensor of x's dtype with the spatial axes of output_size.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.adaptive_avg_pool1d(padax.to_tensor([[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]]]), output_size=2).tolist()
        [[[2.0, 5.0]]]
        >>> F.adaptive_avg_pool1d(padax.to_tensor([[[1.0, 2.0, 3.0, 4.0, 5.0]]]), output_size=2).tolist()
        [[[2.0, 4.0]]]
    """
    return _adaptive_avg("adaptive_avg_pool1d", 1, x, output_size, "NCL")


def adaptive_avg_pool2d(x: Any, output_size: Any, data_format: str = "NCHW", name: str | None = None) -> Any:
    """Mean over adaptive windows of x [N, C, H, W] (or NHWC); None in output_size keeps that size.

    Args:
        x: a float Tensor [N, C, H, W] (or NHWC).
        output_size: an int or one entry per spatial axis (None keeps that axis's size).
        data_format: 'NCHW' or 'NHWC'.

    Returns:
        A Tensor of x's dtype with the spatial axes of output_size.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.arange(16, dtype="float32").reshape([1, 1, 4, 4])
        >>> F.adaptive_avg_pool2d(x, output_size=1).tolist()
        [[[[7.5]]]]
        >>> F.adaptive_avg_pool2d(x, output_size=[2, None]).shape
        (1, 1, 2, 4)
    """
    return _adaptive_avg("adaptive_avg_pool2d", 2, x, output_size, data_format)


def adaptive_avg_pool3d(x: Any, output_size: Any, data_format: str = "NCDHW", name: str | None = None) -> Any:
    """Mean over adaptive windows of x [N, C, D, H, W] (or NDHWC).

    Args:
        x: a float Tensor [N, C, D, H, W] (or NDHWC).
        output_size: an int or one entry per spatial axis (None keeps that axis's size).
        data_format: 'NCDHW' or 'NDHWC'.

    Returns:
        A Tensor of x's dtype with the spatial axes of output_size.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.adaptive_avg_pool3d(padax.ones([2, 3, 4, 5, 6]), output_size=[1, 2, 3]).shape
        (2, 3, 1, 2, 3)
    """
    return _adaptive_avg("adaptive_avg_pool3d", 3, x, output_size, data_format)


def _adaptive_max(op: str, nsp: int, x, output_size, return_mask):
    x = pool_input(op, x, nsp)
    sp = spatial_axes(nsp + 2, False)
    out = _output_size(op, x, output_size, sp)
    if _regular(x, sp, out):
        k = [x.aval.shape[a] // m for a, m in zip(sp, out)]
        return _max_pool(op, nsp, x, k, k, 0, return_mask, False, ("NCL", "NCHW", "NCDHW")[nsp - 1])
    return window_max(x, [_bounds(x.aval.shape[a], m) for a, m in zip(sp, out)], return_mask)


def window_max(x: Any, bounds: list[tuple[np.ndarray, np.ndarray]], return_mask: bool) -> Any:
    """Max of x [N, C, *spatial] over the static windows [lo, hi) given per spatial axis (every window
    non-empty); the first maximum wins, and the mask holds its flat index into the spatial input."""
    nsp = len(bounds)
    sp = tuple(range(2, 2 + nsp))
    sizes = [x.aval.shape[a] for a in sp]
    out = [len(lo) for lo, _ in bounds]
    # windows per axis: [m, K] indices, short windows padded with their last index
    idx, flat = [], np.zeros((), np.int64)
    for lo, hi in bounds:
        kmax = int((hi - lo).max())
        idx.append(np.minimum(lo[:, None] + np.arange(kmax), hi[:, None] - 1))
    y = x
    for a, ix in zip(sp, idx):  # [N, C, m0, K0, m1, K1, ...] as each axis is gathered in turn
        shape = y.aval.shape
        g = take_axis(y, asarray(ix.reshape(-1).astype(np.int32)), a + (a - 2))
        y = reshape(g, shape[:a + (a - 2)] + ix.shape + shape[a + (a - 2) + 1:])
    perm = [0, 1] + [2 + 2 * i for i in range(nsp)] + [3 + 2 * i for i in range(nsp)]
    y = transpose(y, perm)
    ks = [ix.shape[1] for ix in idx]
    y = reshape(y, [*y.aval.shape[:2 + nsp], int(np.prod(ks))])
    best = R.argmax(y, axis=-1, keepdim=True)
    value = reshape(take_along(y, best, y.aval.ndim - 1), y.aval.shape[:-1])
    if not return_mask:
        return value
    # flat input index of every (window, offset) pair, picked at the argmax
    strides = np.cumprod([1] + sizes[::-1][:-1])[::-1]
    for d, ix in enumerate(idx):
        shape = [1] * (2 * nsp)
        shape[d], shape[nsp + d] = ix.shape
        flat = flat + (ix * strides[d]).reshape(shape)
    flat = flat.reshape(tuple(out) + (-1,)).astype(MASK_DTYPE)
    table = broadcast_to(asarray(flat), y.aval.shape)
    mask = take_along(table, best, y.aval.ndim - 1)
    return value, reshape(mask, y.aval.shape[:-1])


def adaptive_max_pool1d(x: Any, output_size: Any, return_mask: bool = False, name: str | None = None) -> Any:
    """Max over adaptive windows of x [N, C, L]; return_mask adds the int32 index of each maximum.

    Args:
        x: a float Tensor [N, C, L].
        output_size: the output length.
        return_mask: also return the int32 flat spatial index of each maximum.

    Returns:
        A Tensor of x's dtype with the spatial axes of output_size; with return_mask, (pooled, mask).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.to_tensor([[[1.0, 5.0, 2.0, 7.0]]])
        >>> out, mask = F.adaptive_max_pool1d(x, output_size=2, return_mask=True)
        >>> out.tolist(), mask.tolist()
        ([[[5.0, 7.0]]], [[[1, 3]]])
    """
    return _adaptive_max("adaptive_max_pool1d", 1, x, output_size, return_mask)


def adaptive_max_pool2d(x: Any, output_size: Any, return_mask: bool = False, name: str | None = None) -> Any:
    """Max over adaptive windows of x [N, C, H, W]; the mask holds flat H*W indices.

    Args:
        x: a float Tensor [N, C, H, W].
        output_size: an int or one entry per spatial axis (None keeps that axis's size).
        return_mask: also return the int32 flat spatial index of each maximum.

    Returns:
        A Tensor of x's dtype with the spatial axes of output_size; with return_mask, (pooled, mask).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.arange(16, dtype="float32").reshape([1, 1, 4, 4])
        >>> F.adaptive_max_pool2d(x, output_size=2).tolist()
        [[[[5.0, 7.0], [13.0, 15.0]]]]
    """
    return _adaptive_max("adaptive_max_pool2d", 2, x, output_size, return_mask)


def adaptive_max_pool3d(x: Any, output_size: Any, return_mask: bool = False, name: str | None = None) -> Any:
    """Max over adaptive windows of x [N, C, D, H, W]; the mask holds flat D*H*W indices.

    Args:
        x: a float Tensor [N, C, D, H, W].
        output_size: an int or one entry per spatial axis (None keeps that axis's size).
        return_mask: also return the int32 flat spatial index of each maximum.

    Returns:
        A Tensor of x's dtype with the spatial axes of output_size; with return_mask, (pooled, mask).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.arange(8, dtype="float32").reshape([1, 1, 2, 2, 2])
        >>> F.adaptive_max_pool3d(x, output_size=1).reshape([-1]).tolist()
        [7.0]
    """
    return _adaptive_max("adaptive_max_pool3d", 3, x, output_size, return_mask)


def _max_unpool(op: str, nsp: int, x, indices, kernel_size, stride, padding, data_format, output_size):
    x = pool_input(op, x, nsp)
    indices = arg(op, indices, "indices")
    if data_format != ("NCL", "NCHW", "NCDHW")[nsp - 1]:
        raise op_value_error(op, f"data_format must be {('NCL', 'NCHW', 'NCDHW')[nsp - 1]!r}, got {data_format!r}")
    if indices.aval.shape != x.aval.shape or not dtypes.is_integer(indices.aval.dtype):
        raise op_value_error(op, f"indices {indices.aval.str_short()} must be integers of x's shape "
                                 f"{list(x.aval.shape)}")
    k = static_ints(op, kernel_size, nsp, "kernel_size")
    s = k if stride is None else static_ints(op, stride, nsp, "stride")
    p = static_ints(op, padding, nsp, "padding")
    default = [(n - 1) * ss + kk - 2 * pp for n, kk, ss, pp in zip(x.aval.shape[2:], k, s, p)]
    if output_size is None:
        size = default
    else:
        size = [int(v) for v in output_size]
        size = size[2:] if len(size) == nsp + 2 else size
        if len(size) != nsp or any(not d - ss < v < d + ss for v, d, ss in zip(size, default, s)):
            raise op_value_error(op, f"output_size {list(output_size)} must have {nsp} entries, each within "
                                     f"a stride of {default}")
    n, c = x.aval.shape[:2]
    total = int(np.prod(size))
    out = put_along_axis(full((n, c, total), 0, x.aval.dtype), reshape(indices, [n, c, -1]), reshape(x, [n, c, -1]), axis=2)
    return reshape(out, [n, c, *size])


def max_unpool1d(x: Any, indices: Any, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 data_format: str = "NCL", output_size: Any = None, name: str | None = None) -> Any:
    """Inverse of max_pool1d: x placed at `indices` (its mask) in zeros of the pooled input's size.

    Args:
        x: the pooled float Tensor (NCL).
        indices: its integer mask from max_pool1d(return_mask=True), x's shape.
        kernel_size, stride, padding: those of the pooling (ints or 1 ints; stride None: kernel_size).
        data_format: 'NCL' only.
        output_size: the unpooled spatial size, within a stride of the default
            (in - 1) * stride + kernel - 2 * padding.

    Returns:
        A Tensor of x's dtype, zeros except at `indices`.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.to_tensor([[[1.0, 5.0, 2.0, 0.0]]])
        >>> out, mask = F.max_pool1d(x, kernel_size=2, return_mask=True)
        >>> F.max_unpool1d(out, mask, kernel_size=2).tolist()
        [[[0.0, 5.0, 2.0, 0.0]]]
    """
    return _max_unpool("max_unpool1d", 1, x, indices, kernel_size, stride, padding, data_format, output_size)


def max_unpool2d(x: Any, indices: Any, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 data_format: str = "NCHW", output_size: Any = None, name: str | None = None) -> Any:
    """Inverse of max_pool2d: x placed at the flat H*W `indices` in zeros.

    Args:
        x: the pooled float Tensor (NCHW).
        indices: its integer mask from max_pool2d(return_mask=True), x's shape.
        kernel_size, stride, padding: those of the pooling (ints or 2 ints; stride None: kernel_size).
        data_format: 'NCHW' only.
        output_size: the unpooled spatial size, within a stride of the default
            (in - 1) * stride + kernel - 2 * padding.

    Returns:
        A Tensor of x's dtype, zeros except at `indices`.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.to_tensor([[[[1.0, 2.0], [4.0, 3.0]]]])
        >>> out, mask = F.max_pool2d(x, kernel_size=2, return_mask=True)
        >>> F.max_unpool2d(out, mask, kernel_size=2).tolist()
        [[[[0.0, 0.0], [4.0, 0.0]]]]
    """
    return _max_unpool("max_unpool2d", 2, x, indices, kernel_size, stride, padding, data_format, output_size)


def max_unpool3d(x: Any, indices: Any, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 data_format: str = "NCDHW", output_size: Any = None, name: str | None = None) -> Any:
    """Inverse of max_pool3d: x placed at the flat D*H*W `indices` in zeros.

    Args:
        x: the pooled float Tensor (NCDHW).
        indices: its integer mask from max_pool3d(return_mask=True), x's shape.
        kernel_size, stride, padding: those of the pooling (ints or 3 ints; stride None: kernel_size).
        data_format: 'NCDHW' only.
        output_size: the unpooled spatial size, within a stride of the default
            (in - 1) * stride + kernel - 2 * padding.

    Returns:
        A Tensor of x's dtype, zeros except at `indices`.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.arange(8, dtype="float32").reshape([1, 1, 2, 2, 2])
        >>> out, mask = F.max_pool3d(x, kernel_size=2, return_mask=True)
        >>> F.max_unpool3d(out, mask, kernel_size=2).reshape([-1]).tolist()
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 7.0]
    """
    return _max_unpool("max_unpool3d", 3, x, indices, kernel_size, stride, padding, data_format, output_size)
