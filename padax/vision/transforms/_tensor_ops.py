"""The formulas of Paddle's Tensor backend for float images and padax Tensors (channel-first arrays).

Colour adjustments blend with a target image and clip to [0, 1] (float) or [0, 255] (ints);
geometric warps on Tensors sample with `padax.nn.functional.grid_sample` on Paddle's pixel grid,
and a fill colour replaces pixels sampled from outside the image.
"""
from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

import padax
from padax.nn.functional import grid_sample

GRAY_WEIGHTS = np.array([0.2989, 0.587, 0.114])


def _max_value(a: np.ndarray) -> float:
    return 1.0 if a.dtype.kind == "f" else 255.0


def blend(img: np.ndarray, target: Any, ratio: float) -> np.ndarray:
    """target + ratio * (img - target), clipped to the dtype's range, in img's dtype."""
    f = img.astype(np.float64)
    out = np.clip(target + float(ratio) * (f - target), 0, _max_value(img))
    return out.astype(img.dtype)


def grayscale(chw: np.ndarray) -> np.ndarray:
    """The luma of a 3-channel CHW image, keeping a channel axis of 1."""
    w = GRAY_WEIGHTS.reshape(3, 1, 1)
    return (chw.astype(np.float64) * w).sum(axis=-3, keepdims=True)


def rgb_to_hsv(rgb: np.ndarray) -> np.ndarray:
    maxc, minc = rgb.max(axis=-3), rgb.min(axis=-3)
    equal = maxc == minc
    delta = maxc - minc
    s = delta / np.where(equal, 1.0, maxc)
    r, g, b = rgb[..., 0, :, :], rgb[..., 1, :, :], rgb[..., 2, :, :]
    div = np.where(equal, 1.0, delta)
    rc, gc, bc = (maxc - r) / div, (maxc - g) / div, (maxc - b) / div
    h = ((maxc == r) * (bc - gc) + ((maxc == g) & (maxc != r)) * (rc - bc + 2.0)
         + ((maxc != r) & (maxc != g)) * (gc - rc + 4.0))
    h = h / 6.0 + 1.0
    h = h - np.trunc(h)
    return np.stack([h, s, maxc], axis=-3)


def hsv_to_rgb(hsv: np.ndarray) -> np.ndarray:
    h, s, v = hsv[..., 0, :, :], hsv[..., 1, :, :], hsv[..., 2, :, :]
    f = h * 6.0
    i = np.floor(f)
    f = f - i
    i = i.astype(np.int64) % 6
    p = np.clip(v * (1.0 - s), 0.0, 1.0)
    q = np.clip(v * (1.0 - s * f), 0.0, 1.0)
    t = np.clip(v * (1.0 - s * (1.0 - f)), 0.0, 1.0)
    table = [(v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q)]
    out = np.zeros(h.shape[:-2] + (3,) + h.shape[-2:], np.float64)
    for k, (r, g, b) in enumerate(table):
        m = i == k
        out[..., 0, :, :] += m * r
        out[..., 1, :, :] += m * g
        out[..., 2, :, :] += m * b
    return out


def adjust_hue(chw: np.ndarray, hue_factor: float) -> np.ndarray:
    f = chw.astype(np.float64) / (255.0 if chw.dtype == np.uint8 else 1.0)
    hsv = rgb_to_hsv(f)
    hsv[..., 0, :, :] = hsv[..., 0, :, :] + hue_factor
    hsv[..., 0, :, :] -= np.floor(hsv[..., 0, :, :])
    rgb = hsv_to_rgb(hsv)
    if chw.dtype == np.uint8:
        return (rgb * 255.0).astype(np.uint8)
    return rgb.astype(chw.dtype)


# -- warps of padax Tensors (grid_sample on Paddle's grids) ------------------------------------------

def affine_grid(theta: np.ndarray, w: int, h: int, ow: int, oh: int) -> np.ndarray:
    """Normalised sampling grid [1, oh, ow, 2] of the 2x3 pixel-space matrix theta (centred coordinates)."""
    xs = np.linspace(-ow * 0.5 + 0.5, ow * 0.5 - 0.5, ow)
    ys = np.linspace(-oh * 0.5 + 0.5, oh * 0.5 - 0.5, oh)
    base = np.stack(np.broadcast_arrays(xs[None, :], ys[:, None], np.ones((oh, ow))), -1)
    scaled = theta.reshape(2, 3).T / np.array([0.5 * w, 0.5 * h])
    return (base.reshape(-1, 3) @ scaled).reshape(1, oh, ow, 2)


def perspective_grid(coeffs: Sequence[float], ow: int, oh: int) -> np.ndarray:
    c = np.asarray(coeffs, np.float64)
    xs = np.linspace(0.5, ow - 0.5, ow)
    ys = np.linspace(0.5, oh - 0.5, oh)
    base = np.stack(np.broadcast_arrays(xs[None, :], ys[:, None], np.ones((oh, ow))), -1).reshape(-1, 3)
    num = base @ (c[:6].reshape(2, 3).T / np.array([0.5 * ow, 0.5 * oh]))
    den = base @ np.array([[c[6], c[6]], [c[7], c[7]], [1.0, 1.0]])
    return (num / den - 1.0).reshape(1, oh, ow, 2)


def grid_warp(img: Any, grid: np.ndarray, mode: str, fill: Any) -> Any:
    """Sample a [C, H, W] or [N, C, H, W] Tensor at `grid`; pixels from outside take `fill` (None: 0)."""
    squeeze = img.ndim == 3
    x = img[None] if squeeze else img
    dtype = x.dtype
    xf = x.astype("float32") if not padax.is_floating_point(x) else x
    n, c = xf.shape[0], xf.shape[1]
    g = np.broadcast_to(grid, (n,) + grid.shape[1:]).astype(np.dtype(str(xf.dtype)) if str(xf.dtype) != "bfloat16"
                                                             else np.float32)
    if fill is not None:
        xf = padax.concat([xf, padax.ones([n, 1] + list(xf.shape[2:]), dtype=xf.dtype)], axis=1)
    out = grid_sample(xf, padax.to_tensor(g), mode=mode, padding_mode="zeros", align_corners=False)
    if fill is not None:
        mask, out = out[:, -1:], out[:, :-1]
        fills = np.asarray(fill, np.float64).reshape(-1)
        fill_img = padax.to_tensor(np.broadcast_to(fills.reshape(1, -1, 1, 1), (1, c, 1, 1)).astype(np.float32)
                                   ).astype(out.dtype)
        if mode == "nearest":
            m = (mask < 0.5).astype(out.dtype)
            out = out * (1.0 - m) + m * fill_img
        else:
            out = out * mask + (1.0 - mask) * fill_img
    out = out.astype(dtype)
    return out[0] if squeeze else out


def rotation_matrix(angle: float, w: int, h: int, center: Any) -> np.ndarray:
    """Paddle's Tensor-backend rotation matrix (centred coordinates) for `angle` degrees."""
    a = math.radians(-angle % 360)
    cx, cy = (0.0, 0.0) if center is None else (center[0] - w * 0.5, center[1] - h * 0.5)
    m = np.array([math.cos(a), math.sin(a), 0.0, -math.sin(a), math.cos(a), 0.0])
    m[2] += m[0] * -cx + m[1] * -cy + cx
    m[5] += m[3] * -cx + m[4] * -cy + cy
    return m


def expanded_size(m: np.ndarray, w: int, h: int) -> tuple[int, int]:
    """The (width, height) that holds the whole image after rotating it by matrix m."""
    corners = np.array([[-0.5 * w, -0.5 * h, 1.0], [-0.5 * w, 0.5 * h, 1.0], [0.5 * w, 0.5 * h, 1.0],
                        [0.5 * w, -0.5 * h, 1.0]])
    pos = corners @ m.reshape(2, 3).T
    size = np.ceil(pos.max(0)) - np.floor(pos.min(0))
    return int(size[0]), int(size[1])
