"""Region-of-interest pooling: roi_align, roi_pool and psroi_pool (and their Layers), as Paddle.

Each RoI is a box [x1, y1, x2, y2] in input-image coordinates (scaled by spatial_scale onto the
feature map) and `boxes_num` says how many RoIs belong to each image of the batch. They are built
from gathers, masks and reductions, so they jit and differentiate with respect to x.
"""
from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

import padax
from padax.core.errors import op_value_error
from padax.nn.layer.layers import Layer
from padax.vision.ops._common import check_boxes_num, float_tensor, host, pair, roi_batch_index, round_half_away


def _check_inputs(op: str, x: Any, boxes: Any, boxes_num: Any) -> tuple[Any, Any, Any]:
    """x, boxes (in x's dtype) and boxes_num, checked."""
    x = float_tensor(op, x, "x", ndim=4)
    boxes = float_tensor(op, boxes, "boxes", ndim=2, last=4).astype(x.dtype)
    return x, boxes, check_boxes_num(op, boxes_num, boxes.shape[0], x.shape[0])


def _bilinear_taps(y: Any, x: Any, h: int, w: int):
    """The four (flat index, weight) taps of RoIAlign's bilinear sample at (y, x): zero weight
    outside [-1, size], coordinates clamped to the last row/column as Paddle's kernel does."""
    outside = (y < -1.0) | (y > h) | (x < -1.0) | (x > w)
    y, x = padax.maximum(y, 0.0), padax.maximum(x, 0.0)
    y_low, x_low = padax.floor(y), padax.floor(x)
    y_edge, x_edge = y_low >= h - 1, x_low >= w - 1
    y_low, x_low = padax.where(y_edge, float(h - 1), y_low), padax.where(x_edge, float(w - 1), x_low)
    y, x = padax.where(y_edge, y_low, y), padax.where(x_edge, x_low, x)
    y_high, x_high = padax.where(y_edge, y_low, y_low + 1), padax.where(x_edge, x_low, x_low + 1)
    ly, lx = y - y_low, x - x_low
    hy, hx = 1.0 - ly, 1.0 - lx
    keep = padax.logical_not(outside).astype(y.dtype)
    taps = []
    for yy, xx, wt in ((y_low, x_low, hy * hx), (y_low, x_high, hy * lx), (y_high, x_low, ly * hx),
                       (y_high, x_high, ly * lx)):
        taps.append(((yy * w + xx).astype("int32"), wt * keep))
    return taps


def _grid_max(op: str, boxes: Any, scale: float, offset: float, aligned: bool, bins: tuple[int, int]) -> tuple[int, int]:
    """The largest per-RoI sample grid (sampling_ratio <= 0), computed on the host in x's precision."""
    b = host(op, boxes, "sampling_ratio <= 0 (a sample count per RoI)", "pass sampling_ratio > 0 to roi_align inside jit")
    b = b * b.dtype.type(scale) - b.dtype.type(offset)
    rw, rh = b[:, 2] - b[:, 0], b[:, 3] - b[:, 1]
    if not aligned:
        rw, rh = np.maximum(rw, 1), np.maximum(rh, 1)
    if b.shape[0] == 0:
        return 1, 1
    return (max(1, int(np.ceil(rh / b.dtype.type(bins[0])).max())),
            max(1, int(np.ceil(rw / b.dtype.type(bins[1])).max())))


def roi_align(x: Any, boxes: Any, boxes_num: Any, output_size: Any, spatial_scale: float = 1.0,
              sampling_ratio: int = -1, aligned: bool = True, name: str | None = None) -> Any:
    """RoIAlign: [R, C, ph, pw], each bin the mean of bilinear samples on a regular grid.

    sampling_ratio > 0 samples that many points per bin side; <= 0 picks ceil(roi size / bins)
    per RoI, which needs concrete boxes (pass sampling_ratio > 0 inside jit). aligned shifts the
    boxes by half a pixel (Detectron2's alignment)."""
    op = "roi_align"
    x, boxes, counts = _check_inputs(op, x, boxes, boxes_num)
    ph, pw = pair(op, output_size, "output_size")
    offset = 0.5 if aligned else 0.0
    grid = ((int(sampling_ratio),) * 2 if sampling_ratio > 0
            else _grid_max(op, boxes, spatial_scale, offset, aligned, (ph, pw)))
    return _roi_align(x, boxes, counts, bins=(ph, pw), scale=float(spatial_scale), ratio=int(sampling_ratio),
                      aligned=bool(aligned), grid=grid)


@partial(padax.jit, static_argnames=("bins", "scale", "ratio", "aligned", "grid"))
def _roi_align(x: Any, boxes: Any, counts: Any, *, bins, scale, ratio, aligned, grid) -> Any:
    n, c, h, w = x.shape
    (ph, pw), (gh_max, gw_max) = bins, grid
    batch = roi_batch_index(counts, boxes.shape[0])
    b = boxes * scale - (0.5 if aligned else 0.0)
    x1, y1, x2, y2 = b[:, 0], b[:, 1], b[:, 2], b[:, 3]
    rw, rh = x2 - x1, y2 - y1
    if not aligned:
        rw, rh = padax.maximum(rw, 1.0), padax.maximum(rh, 1.0)
    bin_h, bin_w = rh / ph, rw / pw
    if ratio > 0:
        grid_h = grid_w = padax.full([boxes.shape[0]], float(ratio), dtype=x.dtype)
    else:
        grid_h, grid_w = padax.ceil(bin_h), padax.ceil(bin_w)
    # sample coordinates: ys [R, ph, gh], xs [R, pw, gw]
    iy = padax.arange(gh_max, dtype=x.dtype)
    ix = padax.arange(gw_max, dtype=x.dtype)
    gh, gw = padax.maximum(grid_h, 1.0)[:, None, None], padax.maximum(grid_w, 1.0)[:, None, None]
    ys = (y1[:, None, None] + padax.arange(ph, dtype=x.dtype)[None, :, None] * bin_h[:, None, None]
          + (iy[None, None, :] + 0.5) * bin_h[:, None, None] / gh)
    xs = (x1[:, None, None] + padax.arange(pw, dtype=x.dtype)[None, :, None] * bin_w[:, None, None]
          + (ix[None, None, :] + 0.5) * bin_w[:, None, None] / gw)
    valid_y = (iy[None, None, :] < grid_h[:, None, None]).astype(x.dtype)  # [R, 1, gh]
    valid_x = (ix[None, None, :] < grid_w[:, None, None]).astype(x.dtype)
    # broadcast to [R, ph, gh, pw, gw]
    Y = ys[:, :, :, None, None] + padax.zeros([1, 1, 1, pw, gw_max], dtype=x.dtype)
    X = xs[:, None, None, :, :] + padax.zeros([1, ph, gh_max, 1, 1], dtype=x.dtype)
    valid = valid_y[:, :, :, None, None] * valid_x[:, None, None, :, :]
    feat = x.transpose([0, 2, 3, 1]).reshape([n * h * w, c])
    base = (batch * (h * w))[:, None, None, None, None]
    out = 0.0
    for idx, wt in _bilinear_taps(Y, X, h, w):
        vals = padax.gather(feat, (idx + base).reshape([-1])).reshape(list(idx.shape) + [c])
        out = out + vals * (wt * valid)[..., None]
    count = padax.maximum(grid_h * grid_w, 1.0)[:, None, None, None]
    out = out.sum(axis=[2, 4]) / count  # [R, ph, pw, C]
    return out.transpose([0, 3, 1, 2])


def _bin_masks(start: Any, end: Any, size: int):
    """[R, bins, size] masks of the pixels in each bin, [start, end) clamped to the map (start and end
    integers), and the bins' pixel counts."""
    lo = padax.clip(start, 0, size)
    hi = padax.clip(end, 0, size)
    pos = padax.arange(size, dtype=lo.dtype)[None, None, :]
    return (pos >= lo[..., None]) & (pos < hi[..., None]), hi - lo


def roi_pool(x: Any, boxes: Any, boxes_num: Any, output_size: Any, spatial_scale: float = 1.0,
             name: str | None = None) -> Any:
    """RoIPool: [R, C, ph, pw], each bin the max over its pixels (0 for an empty bin); box corners
    are rounded to whole feature-map pixels."""
    op = "roi_pool"
    x, boxes, counts = _check_inputs(op, x, boxes, boxes_num)
    return _roi_pool(x, boxes, counts, bins=pair(op, output_size, "output_size"), scale=float(spatial_scale))


@partial(padax.jit, static_argnames=("bins", "scale"))
def _roi_pool(x: Any, boxes: Any, counts: Any, *, bins, scale) -> Any:
    n, c, h, w = x.shape
    (ph, pw), spatial_scale = bins, scale
    batch = roi_batch_index(counts, boxes.shape[0])
    r = round_half_away(boxes * spatial_scale).astype("int32")  # whole pixels: the bins use exact integer math
    sw, sh, ew, eh = r[:, 0], r[:, 1], r[:, 2], r[:, 3]
    rh, rw = padax.maximum(eh - sh + 1, 1)[:, None], padax.maximum(ew - sw + 1, 1)[:, None]
    i = padax.arange(ph, dtype="int32")[None, :]
    j = padax.arange(pw, dtype="int32")[None, :]
    mh, nh = _bin_masks(padax.floor_divide(i * rh, ph) + sh[:, None],
                        -padax.floor_divide(-(i + 1) * rh, ph) + sh[:, None], h)
    mw, nw = _bin_masks(padax.floor_divide(j * rw, pw) + sw[:, None],
                        -padax.floor_divide(-(j + 1) * rw, pw) + sw[:, None], w)
    xr = padax.gather(x, batch)  # [R, C, H, W]
    neg = padax.full([], -np.inf, dtype=x.dtype)
    along_w = padax.where(mw[:, None, None, :, :], xr[:, :, :, None, :], neg).max(axis=-1)  # [R, C, H, pw]
    both = padax.where(mh[:, None, :, None, :], along_w.transpose([0, 1, 3, 2])[:, :, None, :, :], neg).max(axis=-1)
    empty = ((nh <= 0)[:, :, None] | (nw <= 0)[:, None, :])[:, None]  # [R, 1, ph, pw]
    return padax.where(empty, padax.zeros([], dtype=x.dtype), both)


def psroi_pool(x: Any, boxes: Any, boxes_num: Any, output_size: Any, spatial_scale: float = 1.0,
               name: str | None = None) -> Any:
    """Position-sensitive RoI pooling (R-FCN): x has C = out_channels * ph * pw channels; bin (i, j)
    of output channel k averages input channel (k * ph + i) * pw + j over the bin."""
    op = "psroi_pool"
    x, boxes, counts = _check_inputs(op, x, boxes, boxes_num)
    ph, pw = pair(op, output_size, "output_size")
    if x.shape[1] % (ph * pw):
        raise op_value_error(op, f"x's channels ({x.shape[1]}) must be a multiple of output_size {ph}x{pw}")
    return _psroi_pool(x, boxes, counts, bins=(ph, pw), scale=float(spatial_scale))


@partial(padax.jit, static_argnames=("bins", "scale"))
def _psroi_pool(x: Any, boxes: Any, counts: Any, *, bins, scale) -> Any:
    n, c, h, w = x.shape
    (ph, pw), spatial_scale = bins, scale
    batch = roi_batch_index(counts, boxes.shape[0])
    r = round_half_away(boxes)
    sw, sh = r[:, 0] * spatial_scale, r[:, 1] * spatial_scale
    ew, eh = (r[:, 2] + 1.0) * spatial_scale, (r[:, 3] + 1.0) * spatial_scale
    bh, bw = padax.maximum(eh - sh, 0.1) / ph, padax.maximum(ew - sw, 0.1) / pw
    i = padax.arange(ph, dtype=x.dtype)[None, :]
    j = padax.arange(pw, dtype=x.dtype)[None, :]
    mh, nh = _bin_masks(padax.floor(i * bh[:, None] + sh[:, None]), padax.ceil((i + 1) * bh[:, None] + sh[:, None]), h)
    mw, nw = _bin_masks(padax.floor(j * bw[:, None] + sw[:, None]), padax.ceil((j + 1) * bw[:, None] + sw[:, None]), w)
    xr = padax.gather(x, batch).reshape([boxes.shape[0], c // (ph * pw), ph, pw, h, w])
    sums = padax.einsum("rih,rjw,rkijhw->rkij", mh.astype(x.dtype), mw.astype(x.dtype), xr)
    area = (nh[:, :, None] * nw[:, None, :])[:, None].astype(x.dtype)
    return padax.where(area > 0, sums / padax.maximum(area, 1.0), padax.zeros([], dtype=x.dtype))


class _RoILayer(Layer):
    def __init__(self, output_size: Any, spatial_scale: float = 1.0):
        super().__init__()
        self._output_size, self._spatial_scale = output_size, spatial_scale

    def extra_repr(self) -> str:
        return f"output_size={self._output_size}, spatial_scale={self._spatial_scale}"


class RoIAlign(_RoILayer):
    """Layer form of roi_align."""

    def forward(self, x: Any, boxes: Any, boxes_num: Any, aligned: bool = True) -> Any:
        return roi_align(x, boxes, boxes_num, self._output_size, self._spatial_scale, aligned=aligned)


class RoIPool(_RoILayer):
    """Layer form of roi_pool."""

    def forward(self, x: Any, boxes: Any, boxes_num: Any) -> Any:
        return roi_pool(x, boxes, boxes_num, self._output_size, self._spatial_scale)


class PSRoIPool(_RoILayer):
    """Layer form of psroi_pool."""

    def forward(self, x: Any, boxes: Any, boxes_num: Any) -> Any:
        return psroi_pool(x, boxes, boxes_num, self._output_size, self._spatial_scale)
