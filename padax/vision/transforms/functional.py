"""Functional image transforms with Paddle's names (`paddle.vision.transforms.functional`).

Each function takes a numpy image (HW or HWC, uint8 or float), a padax Tensor (CHW, some NCHW)
or a PIL Image, and returns the same kind. uint8 arrays and PIL Images follow Paddle's Pillow
backend (the values Pillow computes); float arrays and Tensors follow Paddle's Tensor backend.
Everything but Tensor warps runs in numpy/Pillow on the host, so it is safe in DataLoader workers.
`to_tensor` returns a float32 numpy array (see its docstring).
"""
from __future__ import annotations

import math
import numbers
from typing import Any, Sequence

import numpy as np

import padax
from padax.core.errors import op_type_error, op_value_error
from padax.nn.functional import interpolate
from padax.vision.transforms import _tensor_ops as T
from padax.vision.transforms._image import (
    channel_first,
    channels_first,
    image_kind,
    pil_fill,
    pillow,
    restore,
    through_pil,
)

__all__ = ["adjust_brightness", "adjust_contrast", "adjust_hue", "adjust_saturation", "affine", "center_crop",
           "crop", "erase", "hflip", "normalize", "pad", "perspective", "resize", "rotate", "to_grayscale",
           "to_tensor", "vflip"]

INTERPOLATIONS = ("nearest", "bilinear", "bicubic", "box", "lanczos", "hamming")


def _resample(op: str, interpolation: str, allowed: Sequence[str] = INTERPOLATIONS):
    if interpolation not in allowed:
        raise op_value_error(op, f"interpolation must be one of {list(allowed)}, got {interpolation!r}")
    return getattr(pillow().Resampling, interpolation.upper())


def _apply_pil(kind: str, img: Any, fn) -> Any:
    """Run a Pillow function on a PIL Image or, plane-wise where needed, on a numpy image."""
    if kind == "chw":
        return np.ascontiguousarray(np.moveaxis(through_pil(np.moveaxis(img, 0, -1), fn), -1, 0))
    return fn(img) if kind == "pil" else through_pil(np.asarray(img), fn)


def _size_wh(kind: str, img: Any) -> tuple[int, int]:
    if kind == "pil":
        return img.size
    shape = tuple(img.shape)
    return (shape[-1], shape[-2]) if channel_first(kind) else (shape[1], shape[0])


# -- conversion and normalisation --------------------------------------------------------------------

def to_tensor(pic: Any, data_format: str = "CHW") -> np.ndarray:
    """The image as a float32 numpy array in `data_format` ('CHW' or 'HWC'), uint8 scaled to [0, 1].

    Paddle returns a paddle.Tensor; padax keeps transforms on the host (they run in DataLoader
    workers), so this is a numpy array that the DataLoader batches into a Tensor
    (`padax.to_tensor(x)` converts one directly). Other dtypes keep their values and dtype."""
    op = "to_tensor"
    if data_format not in ("CHW", "HWC"):
        raise op_value_error(op, f"data_format must be 'CHW' or 'HWC', got {data_format!r}")
    kind = image_kind(op, pic)
    if channel_first(kind):
        a = np.asarray(pic)
        return a if data_format == "CHW" else np.moveaxis(a, -3, -1)
    if kind == "pil":
        mode = pic.mode
        a = np.asarray(pic, np.int32 if mode in ("I", "I;16") else np.float32 if mode == "F" else None)
        a = a.astype(np.uint8) * 255 if mode == "1" else a
    else:
        a = np.asarray(pic)
    a = a[..., None] if a.ndim == 2 else a
    if a.dtype == np.uint8:
        a = a.astype(np.float32) / np.float32(255.0)
    return np.ascontiguousarray(np.moveaxis(a, -1, 0) if data_format == "CHW" else a)


def normalize(img: Any, mean: Any, std: Any, data_format: str = "CHW", to_rgb: bool = False) -> Any:
    """(img - mean) / std per channel; numpy and PIL images become float32 arrays. `data_format`
    says where the channel axis is; `to_rgb` reverses the channel order first (BGR -> RGB)."""
    op = "normalize"
    if data_format.upper() not in ("CHW", "HWC"):
        raise op_value_error(op, f"data_format must be 'CHW' or 'HWC', got {data_format!r}")
    kind = "array" if isinstance(img, np.ndarray) else image_kind(op, img)
    shape = (-1, 1, 1) if data_format.upper() == "CHW" else (1, 1, -1)
    if kind == "tensor":
        m = padax.to_tensor(np.asarray(mean, np.float32).reshape(shape)).astype(img.dtype)
        s = padax.to_tensor(np.asarray(std, np.float32).reshape(shape)).astype(img.dtype)
        if to_rgb:
            img = padax.flip(img, axis=[-3 if data_format.upper() == "CHW" else -1])
        return (img - m) / s
    a = np.asarray(img).astype(np.float32) if kind == "pil" else np.asarray(img)
    if to_rgb:
        a = a[::-1] if data_format.upper() == "CHW" else a[..., ::-1]
    return (a - np.float32(np.asarray(mean, np.float32).reshape(shape))) / np.asarray(std, np.float32).reshape(shape)


# -- geometry ---------------------------------------------------------------------------------------

def _output_size(op: str, size: Any, w: int, h: int) -> tuple[int, int] | None:
    """(out_h, out_w) for Resize's size (an int sets the shorter side); None when nothing changes."""
    if isinstance(size, numbers.Integral) and not isinstance(size, bool):
        if (w <= h and w == size) or (h <= w and h == size):
            return None
        return (int(size * h / w), size) if w < h else (size, int(size * w / h))
    if isinstance(size, (list, tuple)) and len(size) == 2:
        return int(size[0]), int(size[1])
    raise op_type_error(op, f"size must be an int or a (height, width) pair, got {size!r}")


def resize(img: Any, size: Any, interpolation: str = "bilinear") -> Any:
    """Resize to `size`: an int sets the shorter side (aspect kept), (h, w) sets both. Pillow's
    filters for numpy/PIL images ('nearest', 'bilinear', 'bicubic', 'box', 'lanczos', 'hamming';
    antialiased when shrinking); `padax.nn.functional.interpolate` for Tensors, as Paddle does."""
    op = "resize"
    kind = image_kind(op, img)
    w, h = _size_wh(kind, img)
    out = _output_size(op, size, w, h)
    if out is None:
        return img
    if kind == "tensor":
        x = img[None] if img.ndim == 3 else img
        y = interpolate(x, size=list(out), mode=interpolation.lower(), data_format="NCHW")
        return y[0] if img.ndim == 3 else y
    f = _resample(op, interpolation)
    return _apply_pil(kind, img, lambda im: im.resize((out[1], out[0]), f))


def _padding_ltrb(op: str, padding: Any) -> tuple[int, int, int, int]:
    if isinstance(padding, numbers.Integral):
        return (int(padding),) * 4
    if isinstance(padding, (list, tuple)) and len(padding) == 2:
        return int(padding[0]), int(padding[1]), int(padding[0]), int(padding[1])
    if isinstance(padding, (list, tuple)) and len(padding) == 4:
        return tuple(int(p) for p in padding)
    raise op_value_error(op, f"padding must be an int or a sequence of 2 or 4 ints, got {padding!r}")


def pad(img: Any, padding: Any, fill: Any = 0, padding_mode: str = "constant") -> Any:
    """Pad the borders: padding is an int (all sides), (left/right, top/bottom) or (left, top,
    right, bottom); padding_mode 'constant' (with `fill`, a number or one per channel), 'edge',
    'reflect' or 'symmetric'."""
    op = "pad"
    if padding_mode not in ("constant", "edge", "reflect", "symmetric"):
        raise op_value_error(op, f"padding_mode must be 'constant', 'edge', 'reflect' or 'symmetric', "
                                 f"got {padding_mode!r}")
    kind = image_kind(op, img)
    left, top, right, bottom = _padding_ltrb(op, padding)
    if kind == "pil":
        if padding_mode == "constant":
            from PIL import ImageOps  # optional dependency: Pillow
            return ImageOps.expand(img, border=(left, top, right, bottom), fill=pil_fill(img, fill))
        out = pad(np.asarray(img), padding, fill, padding_mode)
        palette = img.getpalette() if img.mode == "P" else None
        out = pillow().fromarray(out, img.mode if img.mode in ("L", "RGB", "RGBA", "P") else None)
        if palette is not None:
            out.putpalette(palette)
        return out
    chw = channels_first(kind, img)
    widths = [(0, 0)] * (chw.ndim - 2) + [(top, bottom), (left, right)]
    if padding_mode == "constant":
        fills = np.broadcast_to(np.asarray(fill, np.float64).reshape(-1), (chw.shape[-3],))
        out = np.stack([np.pad(chw[..., k, :, :], widths[:-3] + widths[-2:], constant_values=fills[k])
                        for k in range(chw.shape[-3])], axis=-3).astype(chw.dtype)
    else:
        out = np.pad(chw, widths, padding_mode)
    return restore(kind, out, img)


def crop(img: Any, top: int, left: int, height: int, width: int) -> Any:
    """The height x width window whose top-left corner is (top, left)."""
    kind = image_kind("crop", img)
    if kind == "pil":
        return img.crop((left, top, left + width, top + height))
    if channel_first(kind):
        return img[..., top:top + height, left:left + width]
    return np.asarray(img)[top:top + height, left:left + width].copy()


def center_crop(img: Any, output_size: Any) -> Any:
    """The central output_size (an int, or (height, width)) window."""
    kind = image_kind("center_crop", img)
    if isinstance(output_size, numbers.Number):
        output_size = (int(output_size), int(output_size))
    w, h = _size_wh(kind, img)
    ch, cw = output_size
    return crop(img, int(round((h - ch) / 2.0)), int(round((w - cw) / 2.0)), ch, cw)


def hflip(img: Any) -> Any:
    """Mirror left-right."""
    kind = image_kind("hflip", img)
    if kind == "pil":
        return img.transpose(pillow().Transpose.FLIP_LEFT_RIGHT)
    return img[..., ::-1] if channel_first(kind) else np.asarray(img)[:, ::-1].copy()


def vflip(img: Any) -> Any:
    """Mirror top-bottom."""
    kind = image_kind("vflip", img)
    if kind == "pil":
        return img.transpose(pillow().Transpose.FLIP_TOP_BOTTOM)
    return img[..., ::-1, :] if channel_first(kind) else np.asarray(img)[::-1].copy()


def _affine_matrix(center: Sequence[float], angle: float, translate: Sequence[float], scale: float,
                   shear: Sequence[float]) -> list[float]:
    """The inverse affine map (output pixel -> input pixel) of rotating by angle about center,
    shearing, scaling and translating, as the six numbers Pillow's AFFINE transform takes."""
    rot, sx, sy = math.radians(angle), math.radians(shear[0]), math.radians(shear[1])
    a = math.cos(rot - sy) / math.cos(sy)
    b = -math.cos(rot - sy) * math.tan(sx) / math.cos(sy) - math.sin(rot)
    c = math.sin(rot - sy) / math.cos(sy)
    d = -math.sin(rot - sy) * math.tan(sx) / math.cos(sy) + math.cos(rot)
    cx, cy = center
    tx, ty = translate
    m = [v / scale for v in (d, -b, 0.0, -c, a, 0.0)]
    m[2] += m[0] * (-cx - tx) + m[1] * (-cy - ty) + cx
    m[5] += m[3] * (-cx - tx) + m[4] * (-cy - ty) + cy
    return m


def affine(img: Any, angle: float, translate: Sequence[float], scale: float, shear: Any,
           interpolation: str = "nearest", fill: Any = 0, center: Sequence[float] | None = None) -> Any:
    """Rotate by `angle` degrees (counter-clockwise) about `center` (default: the image centre),
    translate by (tx, ty) pixels, scale, and shear by (x, y) degrees; outside pixels take `fill`."""
    op = "affine"
    kind = image_kind(op, img)
    if not isinstance(translate, (list, tuple)) or len(translate) != 2:
        raise op_type_error(op, f"translate must be a sequence of 2 numbers, got {translate!r}")
    if scale <= 0.0:
        raise op_value_error(op, f"scale must be positive, got {scale}")
    shear = [float(shear), 0.0] if isinstance(shear, numbers.Number) else list(shear)
    shear = shear * 2 if len(shear) == 1 else shear
    if len(shear) != 2:
        raise op_value_error(op, f"shear must be a number or a sequence of 1 or 2 numbers, got {shear}")
    w, h = _size_wh(kind, img)
    if kind == "tensor":
        c = [0.0, 0.0] if center is None else [p - s * 0.5 for p, s in zip(center, (w, h))]
        m = np.array(_affine_matrix(c, float(angle), [float(t) for t in translate], scale, shear))
        return T.grid_warp(img, T.affine_grid(m, w, h, w, h), interpolation, _tensor_fill(fill))
    m = _affine_matrix(center if center is not None else (w * 0.5, h * 0.5), float(angle), translate, scale, shear)
    f = _resample(op, interpolation, ("nearest", "bilinear", "bicubic"))
    return _apply_pil(kind, img, lambda im: im.transform(im.size, pillow().Transform.AFFINE, m, f,
                                                         fillcolor=pil_fill(im, fill)))


def _tensor_fill(fill: Any) -> Any:
    return tuple([fill] * 3) if isinstance(fill, int) else fill


def rotate(img: Any, angle: float, interpolation: str = "nearest", expand: bool = False,
           center: Sequence[float] | None = None, fill: Any = 0) -> Any:
    """Rotate by `angle` degrees counter-clockwise about `center` (default: the centre); `expand`
    grows the output to hold the whole rotated image; outside pixels take `fill`."""
    op = "rotate"
    kind = image_kind(op, img)
    center = tuple(center) if center is not None else None
    if kind == "tensor":
        w, h = _size_wh(kind, img)
        m = T.rotation_matrix(float(angle), w, h, center)
        ow, oh = T.expanded_size(m, w, h) if expand else (w, h)
        return T.grid_warp(img, T.affine_grid(m, w, h, ow, oh), interpolation, _tensor_fill(fill))
    f = _resample(op, interpolation, ("nearest", "bilinear", "bicubic"))
    return _apply_pil(kind, img, lambda im: im.rotate(angle, f, expand, center, fillcolor=pil_fill(im, fill)))


def _perspective_coeffs(startpoints: Any, endpoints: Any) -> list[float]:
    """The 8 coefficients of the projective map from end points back to start points (least squares)."""
    a = np.zeros((2 * len(startpoints), 8))
    for i, (p1, p2) in enumerate(zip(endpoints, startpoints)):
        a[2 * i] = [p1[0], p1[1], 1, 0, 0, 0, -p2[0] * p1[0], -p2[0] * p1[1]]
        a[2 * i + 1] = [0, 0, 0, p1[0], p1[1], 1, -p2[1] * p1[0], -p2[1] * p1[1]]
    return list(np.linalg.lstsq(a, np.asarray(startpoints, np.float64).reshape(8), rcond=None)[0])


def perspective(img: Any, startpoints: Any, endpoints: Any, interpolation: str = "nearest", fill: Any = 0) -> Any:
    """Warp so that the four `startpoints` ([x, y], clockwise from top-left) move to `endpoints`."""
    op = "perspective"
    kind = image_kind(op, img)
    coeffs = _perspective_coeffs(startpoints, endpoints)
    if kind == "tensor":
        w, h = _size_wh(kind, img)
        return T.grid_warp(img, T.perspective_grid(coeffs, w, h), interpolation, _tensor_fill(fill))
    f = _resample(op, interpolation, ("nearest", "bilinear", "bicubic"))
    return _apply_pil(kind, img, lambda im: im.transform(im.size, pillow().Transform.PERSPECTIVE, coeffs, f,
                                                         fillcolor=pil_fill(im, fill)))


# -- colour -----------------------------------------------------------------------------------------

def _channels(op: str, chw: np.ndarray, allowed: Sequence[int] = (1, 3)) -> int:
    c = chw.shape[-3]
    if c not in allowed:
        raise op_value_error(op, f"expected an image with {' or '.join(map(str, allowed))} channels, "
                                 f"got shape {list(chw.shape)} (channel-first view)")
    return c


def _check_factor(op: str, name: str, value: float) -> None:
    if value < 0:
        raise op_value_error(op, f"{name} must be non-negative, got {value}")


def _enhance(op: str, img: Any, factor: float, enhancer: str, target) -> Any:
    """Pillow's ImageEnhance for uint8/PIL images; Paddle's Tensor-backend blend with `target(chw)` else."""
    kind = image_kind(op, img)
    if kind in ("pil", "uint8"):
        from PIL import ImageEnhance  # optional dependency: Pillow
        if kind == "uint8":
            _channels(op, channels_first(kind, img))
        return _apply_pil(kind, img, lambda im: getattr(ImageEnhance, enhancer)(im).enhance(factor))
    chw = channels_first(kind, img)
    c = _channels(op, chw)
    tgt = target(chw, c)
    return img if tgt is None else restore(kind, T.blend(chw, tgt, factor), img)


def adjust_brightness(img: Any, brightness_factor: float) -> Any:
    """Scale brightness: 0 gives black, 1 the original, 2 twice as bright (clipped)."""
    _check_factor("adjust_brightness", "brightness_factor", brightness_factor)
    return _enhance("adjust_brightness", img, brightness_factor, "Brightness", lambda chw, c: 0.0)


def adjust_contrast(img: Any, contrast_factor: float) -> Any:
    """Blend with the mean grey level: 0 gives a flat grey image, 1 the original."""
    _check_factor("adjust_contrast", "contrast_factor", contrast_factor)

    def mean_grey(chw, c):
        g = chw.astype(np.float64) if c == 1 else T.grayscale(chw)
        if chw.dtype.kind != "f" and c == 3:
            g = g.astype(chw.dtype)  # Paddle's uint8 Tensors take the grey image in their own dtype
        return g.mean(axis=(-3, -2, -1), keepdims=True)
    return _enhance("adjust_contrast", img, contrast_factor, "Contrast", mean_grey)


def adjust_saturation(img: Any, saturation_factor: float) -> Any:
    """Blend with the grey image: 0 gives grey, 1 the original, 2 doubles the saturation."""
    _check_factor("adjust_saturation", "saturation_factor", saturation_factor)

    def grey(chw, c):
        if c == 1:
            return None
        g = T.grayscale(chw)
        return g.astype(chw.dtype).astype(np.float64) if chw.dtype.kind != "f" else g
    return _enhance("adjust_saturation", img, saturation_factor, "Color", grey)


def adjust_hue(img: Any, hue_factor: float) -> Any:
    """Shift the hue by hue_factor (in [-0.5, 0.5], a fraction of the colour circle)."""
    op = "adjust_hue"
    if not -0.5 <= hue_factor <= 0.5:
        raise op_value_error(op, f"hue_factor must be in [-0.5, 0.5], got {hue_factor}")
    kind = image_kind(op, img)
    if kind in ("pil", "uint8"):
        if kind == "uint8" and _channels(op, channels_first(kind, img)) == 1:
            return img
        if kind == "pil" and img.mode in ("L", "1", "I", "F"):
            return img

        def shift(im):
            mode = im.mode
            h, s, v = im.convert("HSV").split()
            nh = ((np.asarray(h).astype(np.int16) + int(hue_factor * 255)) % 256).astype(np.uint8)
            return pillow().merge("HSV", (pillow().fromarray(nh, "L"), s, v)).convert(mode)
        return _apply_pil(kind, img, shift)
    chw = channels_first(kind, img)
    if _channels(op, chw) == 1:
        return img
    return restore(kind, T.adjust_hue(chw, hue_factor), img)


def to_grayscale(img: Any, num_output_channels: int = 1) -> Any:
    """The luma image with 1 or 3 (equal) channels."""
    op = "to_grayscale"
    if num_output_channels not in (1, 3):
        raise op_value_error(op, f"num_output_channels must be 1 or 3, got {num_output_channels}")
    kind = image_kind(op, img)
    if kind == "pil":
        g = img.convert("L")
        return g if num_output_channels == 1 else pillow().merge("RGB", (g, g, g))
    chw = channels_first(kind, img)
    if kind == "uint8":
        g = through_pil(np.moveaxis(chw, 0, -1), lambda im: im.convert("L"))[..., :1] if chw.shape[0] != 1 \
            else np.moveaxis(chw, 0, -1)
        return np.ascontiguousarray(np.repeat(g, num_output_channels, axis=-1))
    _channels(op, chw, (3,))
    g = T.grayscale(chw).astype(chw.dtype)
    g = np.repeat(g, num_output_channels, axis=-3)
    if channel_first(kind):
        return restore(kind, g, img)
    return np.ascontiguousarray(np.moveaxis(g, -3, -1))


def erase(img: Any, i: int, j: int, h: int, w: int, v: Any, inplace: bool = False) -> Any:
    """Replace the h x w window at (i, j) with `v` (a value, one per channel, or an array of the
    window's shape: HWC for numpy/PIL images, CHW for Tensors). `inplace` writes into a numpy
    image; Tensors are immutable, so they always get a new Tensor."""
    kind = image_kind("erase", img)
    if kind == "pil":
        a = np.array(img)
        a[i:i + h, j:j + w, ...] = v
        return pillow().fromarray(a, img.mode)
    if kind == "tensor":
        a = np.array(img)
        a[..., i:i + h, j:j + w] = np.asarray(v)
        return restore(kind, a, img)
    if kind == "chw":
        a = img if inplace else np.array(img)
        a[..., i:i + h, j:j + w] = np.asarray(v)
        return a
    a = img if inplace else np.array(img)
    a[i:i + h, j:j + w, ...] = v
    return a
