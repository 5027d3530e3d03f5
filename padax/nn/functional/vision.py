"""Spatial sampling and rearrangement: grid_sample, affine_grid, pixel_shuffle, pixel_unshuffle,
channel_shuffle (Paddle's signatures; grid_sample and affine_grid default to align_corners=True).

grid_sample reads, for every output location, the input at the grid's normalised (x, y[, z])
coordinates: the corner taps are gathers from each sample's flattened spatial input (their
gradient is a scatter-add) and the interpolation weights are differentiable in the grid.
"""
from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from padax import dtypes
from padax.core.errors import op_value_error
from padax.functional import math as M
from padax.functional._arrays import asarray, broadcast_to, static_int
from padax.functional._checks import arg
from padax.functional.indexed import take_along
from padax.functional.lax.elementwise import round as lax_round
from padax.functional.linalg_basic import matmul
from padax.functional.manipulation import reshape, transpose, unsqueeze
from padax.nn.functional._util import float_array


def _unnormalize(g: Any, size: int, align_corners: bool) -> Any:
    if align_corners:
        return M.multiply(M.add(g, 1.0), (size - 1) / 2)
    return M.divide(M.subtract(M.multiply(M.add(g, 1.0), size), 1.0), 2.0)


def _reflect(c: Any, lo: float, hi: float) -> Any:
    """Reflect coordinates into [lo, hi] (repeatedly, as a triangle wave)."""
    span = hi - lo
    if span <= 0:
        return M.multiply(c, 0.0)
    d = M.abs(M.subtract(c, lo))
    flips = M.floor(M.divide(d, span))
    extra = M.subtract(d, M.multiply(flips, span))
    even = M.equal(M.remainder(flips, 2.0), 0.0)
    return M.where(even, M.add(extra, lo), M.subtract(hi, extra))


def _source_coords(g: Any, size: int, padding_mode: str, align_corners: bool) -> Any:
    c = _unnormalize(g, size, align_corners)
    if padding_mode == "border":
        return M.clip(c, 0.0, float(size - 1))
    if padding_mode == "reflection":
        c = _reflect(c, 0.0, float(size - 1)) if align_corners else _reflect(c, -0.5, size - 0.5)
        return M.clip(c, 0.0, float(size - 1))
    return c


def grid_sample(x: Any, grid: Any, mode: str = "bilinear", padding_mode: str = "zeros",
                align_corners: bool = True, name: str | None = None) -> Any:
    """Sample x [N, C, (D,) H, W] at grid [N, (Do,) Ho, Wo, 2 or 3] holding normalised (x, y[, z])
    in [-1, 1]; mode 'bilinear' or 'nearest', padding_mode 'zeros', 'border' or 'reflection'.

    Args:
        x: [N, C, H, W] or [N, C, D, H, W].
        grid: [N, Ho, Wo, 2] or [N, Do, Ho, Wo, 3] of normalised coordinates.
        mode: 'bilinear' or 'nearest'.
        padding_mode: 'zeros', 'border' or 'reflection' for points outside.
        align_corners: -1 and 1 name the centres of the corner pixels (True) or their outer edges.

    Returns:
        A Tensor [N, C, Ho, Wo] (or [N, C, Do, Ho, Wo]) of x's dtype.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.to_tensor([[[[0.0, 1.0], [2.0, 3.0]]]])
        >>> grid = padax.to_tensor([[[[-1.0, -1.0], [0.0, 0.0], [1.0, 1.0]]]])  # [N=1, Ho=1, Wo=3, (x, y)]
        >>> F.grid_sample(x, grid).tolist()
        [[[[0.0, 1.5, 3.0]]]]
        >>> far = padax.to_tensor([[[[0.8, -0.6], [3.0, 3.0]]]])  # (3, 3) lies outside: 'border' clamps it
        >>> F.grid_sample(x, far, padding_mode="border").tolist()
        [[[[1.3, 3.0]]]]
    """
    op = "grid_sample"
    x = float_array(op, x, "x")
    grid = M.cast(arg(op, grid, "grid"), x.aval.dtype)
    nsp = x.aval.ndim - 2
    if nsp not in (2, 3) or grid.aval.ndim != nsp + 2 or grid.aval.shape[-1] != nsp \
            or grid.aval.shape[0] != x.aval.shape[0]:
        raise op_value_error(op, f"x must be [N, C, H, W] (or 5-D) and grid [N, Ho, Wo, 2] (or [N, Do, Ho, Wo, 3]), "
                                 f"got x {x.aval.str_short()} and grid {grid.aval.str_short()}")
    if mode not in ("bilinear", "nearest"):
        raise op_value_error(op, f"mode must be 'bilinear' or 'nearest', got {mode!r}")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise op_value_error(op, f"padding_mode must be 'zeros', 'border' or 'reflection', got {padding_mode!r}")
    n, c = x.aval.shape[:2]
    sizes = x.aval.shape[2:]                      # (D,) H, W
    out_sp = grid.aval.shape[1:-1]
    # grid's last axis lists (x, y[, z]): x indexes the last spatial axis
    coords = [_source_coords(grid[..., nsp - 1 - a], sizes[a], padding_mode, align_corners) for a in range(nsp)]
    flat = reshape(x, [n, c, int(np.prod(sizes))])
    strides = np.cumprod((1,) + tuple(sizes[::-1]))[:-1][::-1]
    points = int(np.prod(out_sp))

    def tap(idx: list[Any]) -> Any:
        """x at integer coordinates idx (one [N, *out] array per axis), 0 outside."""
        inside = None
        lin = None
        for a, i in enumerate(idx):
            ok = M.logical_and(M.greater_equal(i, 0), M.less_equal(i, sizes[a] - 1))
            inside = ok if inside is None else M.logical_and(inside, ok)
            term = M.multiply(M.clip(i, 0, sizes[a] - 1), int(strides[a]))
            lin = term if lin is None else M.add(lin, term)
        lin = broadcast_to(unsqueeze(reshape(lin, [n, points]), 1), (n, c, points))
        vals = reshape(take_along(flat, lin, 2), [n, c, *out_sp])
        return M.where(unsqueeze(inside, 1), vals, 0.0)

    if mode == "nearest":
        return tap([M.cast(lax_round(cc, 1), dtypes.int32) for cc in coords])
    lows = [M.floor(cc) for cc in coords]
    fracs = [M.subtract(cc, lo) for cc, lo in zip(coords, lows)]
    lows = [M.cast(lo, dtypes.int32) for lo in lows]
    out = None
    for corner in itertools.product((0, 1), repeat=nsp):
        w = None
        for a, bit in enumerate(corner):
            wa = fracs[a] if bit else M.subtract(1.0, fracs[a])
            w = wa if w is None else M.multiply(w, wa)
        v = M.multiply(tap([M.add(lo, bit) for lo, bit in zip(lows, corner)]), unsqueeze(w, 1))
        out = v if out is None else M.add(out, v)
    return out


def affine_grid(theta: Any, out_shape: Any, align_corners: bool = True, name: str | None = None) -> Any:
    """The sampling grid [N, H, W, 2] (or [N, D, H, W, 3]) of affine maps theta [N, 2, 3] (or
    [N, 3, 4]) over an output of shape out_shape [N, C, H, W] (or [N, C, D, H, W]).

    Args:
        theta: affine maps [N, 2, 3] (2-D) or [N, 3, 4] (3-D).
        out_shape: the output shape [N, C, H, W] or [N, C, D, H, W].
        align_corners: -1 and 1 name the centres of the corner pixels (True) or their outer edges.

    Returns:
        The grid [N, H, W, 2] or [N, D, H, W, 3], theta's dtype.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> identity = padax.to_tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])
        >>> F.affine_grid(identity, [1, 1, 2, 2]).tolist()
        [[[[-1.0, -1.0], [1.0, -1.0]], [[-1.0, 1.0], [1.0, 1.0]]]]
    """
    op = "affine_grid"
    theta = float_array(op, theta, "theta")
    shape = [int(s) for s in (np.asarray(out_shape).reshape(-1).tolist())]
    nsp = len(shape) - 2
    if nsp not in (2, 3) or theta.aval.shape != (shape[0], nsp, nsp + 1):
        raise op_value_error(op, f"theta must be [N, 2, 3] with a 4-entry out_shape or [N, 3, 4] with 5 entries, "
                                 f"got theta {theta.aval.str_short()} and out_shape {shape}")

    def axis(size: int) -> np.ndarray:
        if size <= 1:
            return np.zeros(max(size, 0))
        if align_corners:
            return np.linspace(-1.0, 1.0, size)
        return (np.arange(size) * 2.0 + 1.0) / size - 1.0
    sp = shape[2:]
    mesh = np.meshgrid(*[axis(s) for s in sp], indexing="ij")       # (D,) H, W
    base = np.stack(list(mesh[::-1]) + [np.ones(sp)], axis=-1)          # (x, y[, z], 1)
    base = asarray(base.reshape(-1, nsp + 1).astype(theta.aval.dtype))
    grid = matmul(base, transpose(theta, [0, 2, 1]))                 # [N, P, nsp]
    return reshape(grid, [shape[0], *sp, nsp])


def _check4(op: str, x: Any, data_format: str) -> bool:
    if x.aval.ndim != 4:
        raise op_value_error(op, f"x must be 4-D, got {x.aval.str_short()}")
    if data_format not in ("NCHW", "NHWC"):
        raise op_value_error(op, f"data_format must be 'NCHW' or 'NHWC', got {data_format!r}")
    return data_format == "NHWC"


def pixel_shuffle(x: Any, upscale_factor: int, data_format: str = "NCHW", name: str | None = None) -> Any:
    """[N, C*r*r, H, W] -> [N, C, H*r, W*r]: each group of r*r channels becomes an r x r block.

    Args:
        x: a 4-D Tensor.
        upscale_factor: r.
        data_format: 'NCHW' or 'NHWC'.

    Returns:
        A Tensor [N, C, H*r, W*r] (NCHW) of x's dtype.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.arange(8, dtype="float32").reshape([1, 8, 1, 1])
        >>> F.pixel_shuffle(x, 2).tolist()
        [[[[0.0, 1.0], [2.0, 3.0]], [[4.0, 5.0], [6.0, 7.0]]]]
    """
    op = "pixel_shuffle"
    x = arg(op, x, "x")
    last = _check4(op, x, data_format)
    r = static_int(op, upscale_factor, "upscale_factor")
    if last:
        n, h, w, cr = x.aval.shape
    else:
        n, cr, h, w = x.aval.shape
    if r < 1:
        raise op_value_error(op, f"upscale_factor must be a positive int, got {r}")
    if cr % (r * r):
        raise op_value_error(op, f"the {cr} channels of x {x.aval.str_short()} must be divisible by "
                                 f"upscale_factor**2 = {r * r}")
    c = cr // (r * r)
    if last:
        y = transpose(reshape(x, [n, h, w, c, r, r]), [0, 1, 4, 2, 5, 3])
        return reshape(y, [n, h * r, w * r, c])
    y = transpose(reshape(x, [n, c, r, r, h, w]), [0, 1, 4, 2, 5, 3])
    return reshape(y, [n, c, h * r, w * r])


def pixel_unshuffle(x: Any, downscale_factor: int, data_format: str = "NCHW", name: str | None = None) -> Any:
    """[N, C, H*r, W*r] -> [N, C*r*r, H, W], the inverse of pixel_shuffle.

    Args:
        x: a 4-D Tensor.
        downscale_factor: r (dividing H and W).
        data_format: 'NCHW' or 'NHWC'.

    Returns:
        A Tensor [N, C*r*r, H, W] (NCHW) of x's dtype.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.arange(16, dtype="float32").reshape([1, 1, 4, 4])
        >>> y = F.pixel_unshuffle(x, 2)
        >>> y.shape, y[0, :, 0, 0].tolist()
        ((1, 4, 2, 2), [0.0, 1.0, 4.0, 5.0])
    """
    op = "pixel_unshuffle"
    x = arg(op, x, "x")
    last = _check4(op, x, data_format)
    r = static_int(op, downscale_factor, "downscale_factor")
    if last:
        n, hr, wr, c = x.aval.shape
    else:
        n, c, hr, wr = x.aval.shape
    if r < 1:
        raise op_value_error(op, f"downscale_factor must be a positive int, got {r}")
    if hr % r or wr % r:
        raise op_value_error(op, f"the spatial sizes of x {x.aval.str_short()} must be divisible by "
                                 f"downscale_factor={r}")
    h, w = hr // r, wr // r
    if last:
        y = transpose(reshape(x, [n, h, r, w, r, c]), [0, 1, 3, 5, 2, 4])
        return reshape(y, [n, h, w, c * r * r])
    y = transpose(reshape(x, [n, c, h, r, w, r]), [0, 1, 3, 5, 2, 4])
    return reshape(y, [n, c * r * r, h, w])


def channel_shuffle(x: Any, groups: int, data_format: str = "NCHW", name: str | None = None) -> Any:
    """Split the channels into `groups` groups and interleave them (ShuffleNet).

    Args:
        x: a 4-D Tensor.
        groups: the number of groups (dividing C).
        data_format: 'NCHW' or 'NHWC'.

    Returns:
        A Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.arange(6, dtype="float32").reshape([1, 6, 1, 1])
        >>> F.channel_shuffle(x, groups=3).reshape([-1]).tolist()
        [0.0, 2.0, 4.0, 1.0, 3.0, 5.0]
    """
    op = "channel_shuffle"
    x = arg(op, x, "x")
    last = _check4(op, x, data_format)
    c = x.aval.shape[3 if last else 1]
    if groups < 1 or c % groups:
        raise op_value_error(op, f"groups={groups} must divide the {c} channels of x {x.aval.str_short()}")
    if last:
        n, h, w, _ = x.aval.shape
        y = transpose(reshape(x, [n, h, w, groups, c // groups]), [0, 1, 2, 4, 3])
        return reshape(y, [n, h, w, c])
    n, _, h, w = x.aval.shape
    y = transpose(reshape(x, [n, groups, c // groups, h, w]), [0, 2, 1, 3, 4])
    return reshape(y, [n, c, h, w])

