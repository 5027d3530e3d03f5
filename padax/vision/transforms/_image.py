"""What kind of image a transform got, and moving uint8 arrays through Pillow and back.

Three kinds of input, each returned as the same kind:
- a PIL Image: Pillow does the work (Paddle's 'pil' backend);
- a numpy array, HW or HWC: uint8 arrays go through Pillow too, so that they get exactly the
  values Paddle's pil backend gives; other dtypes (float images) follow the formulas of Paddle's
  Tensor backend, computed in numpy on the host;
- a padax Tensor, CHW (or NCHW): the Tensor backend's formulas;
- a float numpy array laid out CHW (what ToTensor returns: a 3-D array with 1, 3 or 4 leading
  channels and a last axis longer than 4) is treated as a Tensor is, and stays numpy.
"""
from __future__ import annotations

import sys
from typing import Any, Callable

import numpy as np

import padax
from padax.core.errors import op_type_error, op_value_error
from padax.functional._arrays import asarray as _asarray

PIL_MODES = {1: "L", 3: "RGB", 4: "RGBA"}


def pillow():
    """The PIL.Image module, or an error saying how to install Pillow."""
    try:
        from PIL import Image  # optional dependency: Pillow
    except ImportError as e:  # pragma: no cover - Pillow is in the test extra
        raise ImportError("padax.vision.transforms needs Pillow for PIL images and uint8 arrays: "
                          "pip install 'padax[vision]' (or pip install pillow)") from e
    return Image


def is_pil(img: Any) -> bool:
    mod = sys.modules.get("PIL.Image")
    return mod is not None and isinstance(img, mod.Image)


def is_tensor(img: Any) -> bool:
    return isinstance(img, padax.Tensor)


def image_kind(op: str, img: Any) -> str:
    """'pil', 'uint8' (numpy uint8 HW/HWC), 'array' (numpy float/int HW/HWC), 'chw' (numpy float
    CHW, as ToTensor gives) or 'tensor' (CHW/NCHW);
    anything else is an error saying what was expected."""
    if is_pil(img):
        return "pil"
    if is_tensor(img):
        shape = tuple(img.shape)
        if len(shape) not in (3, 4):
            raise op_value_error(op, f"a Tensor image must be CHW (3-D) or NCHW (4-D), got shape {list(shape)}")
        if shape[-3] > 4 and shape[-1] in (1, 3, 4):
            raise op_value_error(op, f"a Tensor image is channel-first (CHW), but shape {list(shape)} looks "
                                     "HWC: transpose it with x.transpose([2, 0, 1])")
        return "tensor"
    if isinstance(img, np.ndarray):
        if img.ndim not in (2, 3):
            raise op_value_error(op, f"a numpy image must be HW or HWC, got shape {list(img.shape)}")
        if img.ndim == 3 and img.shape[-1] > 4 and img.shape[0] in (1, 3, 4):
            if img.dtype.kind == "f":
                return "chw"
            raise op_value_error(op, f"a numpy image is channel-last (HWC), but shape {list(img.shape)} looks "
                                     "CHW: transpose it with img.transpose(1, 2, 0), or pass a padax Tensor")
        if img.dtype == np.uint8:
            return "uint8"
        if img.dtype.kind in "fiu":
            return "array"
        raise op_type_error(op, f"a numpy image must be uint8 or a float/int dtype, got {img.dtype}")
    raise op_type_error(op, "expected a numpy HWC image (uint8 or float), a CHW padax Tensor or a PIL Image, "
                            f"got {type(img).__name__}")


def channels_first(kind: str, img: Any) -> np.ndarray:
    """The image as a numpy CHW (or NCHW) array (a HW array gets one channel)."""
    if kind in ("tensor", "chw"):
        return np.asarray(img)
    a = np.asarray(img)
    return a[None] if a.ndim == 2 else np.moveaxis(a, -1, -3)


def restore(kind: str, chw: np.ndarray, like: Any) -> Any:
    """The inverse of `channels_first`: back to the kind and layout of `like` (not a PIL Image)."""
    if kind == "tensor":
        return _asarray(np.ascontiguousarray(chw))
    if kind == "chw":
        return np.ascontiguousarray(chw)
    a = np.moveaxis(chw, -3, -1)
    return np.ascontiguousarray(a[..., 0] if np.ndim(like) == 2 else a)


def channel_first(kind: str) -> bool:
    return kind in ("tensor", "chw")


def through_pil(a: np.ndarray, fn: Callable, per_channel: bool = False) -> np.ndarray:
    """Apply `fn` (PIL Image -> PIL Image) to a HW/HWC array: uint8 arrays with 1, 3 or 4 channels as
    one L/RGB/RGBA image, other arrays (or `per_channel`) channel by channel as 'L' or 'F' images."""
    Image = pillow()
    if a.ndim == 2:
        return through_pil(a[..., None], fn, per_channel)[..., 0]
    c = a.shape[-1]
    if a.dtype == np.uint8 and not per_channel and c in PIL_MODES:
        img = Image.fromarray(np.ascontiguousarray(a if c > 1 else a[..., 0]), PIL_MODES[c])
        out = np.asarray(fn(img))
        return np.array(out if out.ndim == 3 else out[..., None])
    if a.dtype == np.uint8:
        planes = [np.asarray(fn(Image.fromarray(np.ascontiguousarray(a[..., k]), "L"))) for k in range(c)]
        return np.stack(planes, -1)
    planes = [np.asarray(fn(Image.fromarray(np.ascontiguousarray(a[..., k], np.float32), "F"))) for k in range(c)]
    return np.stack(planes, -1).astype(a.dtype)


def pil_fill(img: Any, fill: Any) -> Any:
    """`fill` as the colour a Pillow image of this mode takes (a number, or one value per band)."""
    bands = len(img.getbands())
    if isinstance(fill, (list, tuple)):
        return tuple(fill[:bands]) if bands > 1 else fill[0]
    return tuple([fill] * bands) if bands > 1 else fill
