"""Transform classes with Paddle's names and constructor arguments (`paddle.vision.transforms`).

Each is a callable object. `BaseTransform(keys=...)` applies one transform to several inputs
(an image and, e.g., its label passed through) in a tuple: `_apply_<key>` for each key. Random
transforms take a keyword `generator=` (an int seed, a numpy Generator or RandomState); without
one they draw from padax's global seed (`padax.seed`) in the main process and from numpy's
global generator, which the loader seeds per batch, in DataLoader workers (see `_rng`).
"""
from __future__ import annotations

import math
import numbers
from typing import Any, Callable, Sequence

import numpy as np

from padax.core.errors import op_type_error, op_value_error
from padax.vision.transforms import functional as F
from padax.vision.transforms._image import image_kind, is_tensor
from padax.vision.transforms._rng import check_generator, host_random

__all__ = ["BaseTransform", "BrightnessTransform", "CenterCrop", "ColorJitter", "Compose", "ContrastTransform",
           "Grayscale", "HueTransform", "Normalize", "Pad", "RandomAffine", "RandomCrop", "RandomErasing",
           "RandomHorizontalFlip", "RandomPerspective", "RandomResizedCrop", "RandomRotation",
           "RandomVerticalFlip", "Resize", "SaturationTransform", "ToTensor", "Transpose"]


def _image_size(img: Any) -> tuple[int, int]:
    """(width, height) of any image kind."""
    kind = image_kind("transform", img)
    return F._size_wh(kind, img)


class Compose:
    """Apply transforms one after the other."""

    def __init__(self, transforms: Sequence[Callable]):
        self.transforms = list(transforms)

    def __call__(self, data: Any) -> Any:
        for t in self.transforms:
            try:
                data = t(data)
            except Exception as e:
                e.add_note(f"in Compose, while applying {t!r}")
                raise
        return data

    def __repr__(self) -> str:
        inner = "".join(f"\n    {t!r}," for t in self.transforms)
        return f"Compose([{inner}\n])"


class BaseTransform:
    """A transform over a tuple of inputs named by `keys` (default ('image',)): input i goes through
    `self._apply_<keys[i]>`; inputs past the keys pass unchanged. `_get_params(inputs)` runs first
    and its result is `self.params`, so every key sees the same random draw."""

    def __init__(self, keys: Sequence[str] | None = None):
        if keys is None:
            keys = ("image",)
        elif isinstance(keys, str) or not isinstance(keys, Sequence):
            raise ValueError(f"{type(self).__name__}: keys must be a sequence of names, got {keys!r}")
        for k in keys:
            if self._get_apply(k) is None:
                raise ValueError(f"{type(self).__name__}: no _apply_{k} method for key {k!r}")
        self.keys = tuple(keys)
        self.params = None

    def _get_params(self, inputs: tuple) -> Any:
        return None

    def __call__(self, inputs: Any) -> Any:
        single = not isinstance(inputs, tuple)
        inputs = (inputs,) if single else inputs
        self.params = self._get_params(inputs)
        outputs = [self._get_apply(k)(x) for k, x in zip(self.keys, inputs)]
        outputs.extend(inputs[len(self.keys):])
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    def _get_apply(self, key: str) -> Callable | None:
        return getattr(self, f"_apply_{key}", None)

    def _apply_image(self, image: Any) -> Any:
        return image

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class _RandomTransform(BaseTransform):
    """A BaseTransform that draws: `self._random()` is its HostRandom for the current call."""

    def __init__(self, keys: Sequence[str] | None, generator: Any):
        super().__init__(keys)
        self.generator = check_generator(type(self).__name__, generator)

    def _random(self):
        return host_random(self.generator)


class ToTensor(BaseTransform):
    """uint8 HWC images to float32 arrays in [0, 1], laid out as `data_format` (see F.to_tensor)."""

    def __init__(self, data_format: str = "CHW", keys: Sequence[str] | None = None):
        super().__init__(keys)
        self.data_format = data_format

    def _apply_image(self, img: Any) -> Any:
        return F.to_tensor(img, self.data_format)


class Resize(BaseTransform):
    """Resize to `size` (an int: the shorter side; or (h, w)) with `interpolation`."""

    def __init__(self, size: Any, interpolation: str = "bilinear", keys: Sequence[str] | None = None):
        super().__init__(keys)
        if not (isinstance(size, int) or (isinstance(size, Sequence) and len(size) == 2)):
            raise op_type_error("Resize", f"size must be an int or a (height, width) pair, got {size!r}")
        self.size, self.interpolation = size, interpolation

    def _apply_image(self, img: Any) -> Any:
        return F.resize(img, self.size, self.interpolation)


class RandomResizedCrop(_RandomTransform):
    """Crop a random window (area fraction in `scale`, aspect ratio in `ratio`) and resize it to `size`."""

    def __init__(self, size: Any, scale: Sequence[float] = (0.08, 1.0), ratio: Sequence[float] = (3.0 / 4, 4.0 / 3),
                 interpolation: str = "bilinear", keys: Sequence[str] | None = None, *, generator: Any = None):
        super().__init__(keys, generator)
        self.size = (size, size) if isinstance(size, int) else tuple(size)
        if scale[0] > scale[1] or ratio[0] > ratio[1]:
            raise op_value_error("RandomResizedCrop", f"scale and ratio must be (min, max), got {scale}, {ratio}")
        self.scale, self.ratio, self.interpolation = scale, ratio, interpolation

    def _get_param(self, image: Any, attempts: int = 10) -> tuple[int, int, int, int]:
        width, height = _image_size(image)
        area = height * width
        rnd = self._random()
        log_ratio = (math.log(self.ratio[0]), math.log(self.ratio[1]))
        for _ in range(attempts):
            target_area = rnd.uniform(*self.scale) * area
            aspect = math.exp(rnd.uniform(*log_ratio))
            w = int(round(math.sqrt(target_area * aspect)))
            h = int(round(math.sqrt(target_area / aspect)))
            if 0 < w <= width and 0 < h <= height:
                return rnd.randint(0, height - h), rnd.randint(0, width - w), h, w
        in_ratio = width / height
        if in_ratio < min(self.ratio):
            w, h = width, int(round(width / min(self.ratio)))
        elif in_ratio > max(self.ratio):
            w, h = int(round(height * max(self.ratio))), height
        else:
            w, h = width, height
        return (height - h) // 2, (width - w) // 2, h, w

    def _apply_image(self, img: Any) -> Any:
        i, j, h, w = self._get_param(img)
        return F.resize(F.crop(img, i, j, h, w), self.size, self.interpolation)


class CenterCrop(BaseTransform):
    """Crop the central `size` (an int or (h, w)) window."""

    def __init__(self, size: Any, keys: Sequence[str] | None = None):
        super().__init__(keys)
        self.size = (int(size), int(size)) if isinstance(size, numbers.Number) else tuple(size)

    def _apply_image(self, img: Any) -> Any:
        return F.center_crop(img, self.size)


class _RandomFlip(_RandomTransform):
    flip = staticmethod(F.hflip)

    def __init__(self, prob: float = 0.5, keys: Sequence[str] | None = None, *, generator: Any = None):
        super().__init__(keys, generator)
        if not 0 <= prob <= 1:
            raise op_value_error(type(self).__name__, f"prob must be in [0, 1], got {prob}")
        self.prob = prob

    def _apply_image(self, img: Any) -> Any:
        return type(self).flip(img) if self._random().random() < self.prob else img


class RandomHorizontalFlip(_RandomFlip):
    """Mirror left-right with probability `prob`."""
    flip = staticmethod(F.hflip)


class RandomVerticalFlip(_RandomFlip):
    """Mirror top-bottom with probability `prob`."""
    flip = staticmethod(F.vflip)


class Normalize(BaseTransform):
    """(img - mean) / std per channel; `data_format` says where the channel axis is."""

    def __init__(self, mean: Any = 0.0, std: Any = 1.0, data_format: str = "CHW", to_rgb: bool = False,
                 keys: Sequence[str] | None = None):
        super().__init__(keys)
        self.mean = [mean] * 3 if isinstance(mean, numbers.Number) else mean
        self.std = [std] * 3 if isinstance(std, numbers.Number) else std
        self.data_format, self.to_rgb = data_format, to_rgb

    def _apply_image(self, img: Any) -> Any:
        return F.normalize(img, self.mean, self.std, self.data_format, self.to_rgb)


class Transpose(BaseTransform):
    """Permute the axes (default HWC -> CHW); a HW image gets a channel axis first."""

    def __init__(self, order: Sequence[int] = (2, 0, 1), keys: Sequence[str] | None = None):
        super().__init__(keys)
        self.order = tuple(order)

    def _apply_image(self, img: Any) -> Any:
        if is_tensor(img):
            return img.transpose(list(self.order))
        a = np.asarray(img)
        a = a[..., None] if a.ndim == 2 else a
        if a.ndim != len(self.order):
            raise op_value_error("Transpose", f"order {list(self.order)} does not fit an image of shape {list(a.shape)}")
        return a.transpose(self.order)


def _check_range(op: str, value: Any, name: str, center: float = 1.0, bound=(0.0, float("inf")),
                 clip_first_on_zero: bool = True) -> list[float] | None:
    """A jitter range [lo, hi] around `center` from a number or a pair; None when it is no change."""
    if isinstance(value, numbers.Number):
        if value < 0:
            raise op_value_error(op, f"{name}, a single number, must be non-negative; got {value}")
        value = [center - value, center + value]
        if clip_first_on_zero:
            value[0] = max(value[0], 0.0)
    elif isinstance(value, (tuple, list)) and len(value) == 2:
        if not bound[0] <= value[0] <= value[1] <= bound[1]:
            raise op_value_error(op, f"{name} must be a (min, max) pair within {bound}, got {value}")
        value = list(value)
    else:
        raise op_type_error(op, f"{name} must be a number or a (min, max) pair, got {value!r}")
    return None if value[0] == value[1] == center else value


class _ColorTransform(_RandomTransform):
    name, center, bound, clip = "brightness", 1.0, (0.0, float("inf")), True
    adjust = staticmethod(F.adjust_brightness)

    def __init__(self, value: Any, keys: Sequence[str] | None = None, *, generator: Any = None):
        super().__init__(keys, generator)
        self.value = _check_range(type(self).__name__, value, self.name, self.center, self.bound, self.clip)

    def _apply_image(self, img: Any) -> Any:
        if self.value is None:
            return img
        return type(self).adjust(img, self._random().uniform(self.value[0], self.value[1]))


class BrightnessTransform(_ColorTransform):
    """Scale brightness by a factor drawn from [max(0, 1 - value), 1 + value] (or the given pair)."""


class ContrastTransform(_ColorTransform):
    """Scale contrast by a factor drawn from [max(0, 1 - value), 1 + value] (or the given pair)."""
    name = "contrast"
    adjust = staticmethod(F.adjust_contrast)


class SaturationTransform(_ColorTransform):
    """Scale saturation by a factor drawn from [max(0, 1 - value), 1 + value] (or the given pair)."""
    name = "saturation"
    adjust = staticmethod(F.adjust_saturation)


class HueTransform(_ColorTransform):
    """Shift hue by a factor drawn from [-value, value] (value <= 0.5, or a pair within [-0.5, 0.5])."""
    name, center, bound, clip = "hue", 0.0, (-0.5, 0.5), False
    adjust = staticmethod(F.adjust_hue)


class ColorJitter(_RandomTransform):
    """Brightness, contrast, saturation and hue jitter, applied in a random order."""

    def __init__(self, brightness: Any = 0, contrast: Any = 0, saturation: Any = 0, hue: Any = 0,
                 keys: Sequence[str] | None = None, *, generator: Any = None):
        super().__init__(keys, generator)
        self.brightness, self.contrast, self.saturation, self.hue = brightness, contrast, saturation, hue
        kw = dict(keys=keys, generator=self.generator)
        self._parts = [cls(v, **kw) for cls, v in ((BrightnessTransform, brightness), (ContrastTransform, contrast),
                                                   (SaturationTransform, saturation), (HueTransform, hue))
                       if v is not None]

    def _apply_image(self, img: Any) -> Any:
        parts = list(self._parts)
        self._random().shuffle(parts)
        for t in parts:
            img = t._apply_image(img)
        return img


class RandomCrop(_RandomTransform):
    """Crop a random `size` window, after optional `padding` (and padding up to size if `pad_if_needed`)."""

    def __init__(self, size: Any, padding: Any = None, pad_if_needed: bool = False, fill: Any = 0,
                 padding_mode: str = "constant", keys: Sequence[str] | None = None, *, generator: Any = None):
        super().__init__(keys, generator)
        self.size = (int(size), int(size)) if isinstance(size, numbers.Number) else tuple(size)
        self.padding, self.pad_if_needed, self.fill, self.padding_mode = padding, pad_if_needed, fill, padding_mode

    def _get_param(self, img: Any, output_size: Sequence[int]) -> tuple[int, int, int, int]:
        w, h = _image_size(img)
        th, tw = output_size
        if w == tw and h == th:
            return 0, 0, h, w
        if h < th or w < tw:
            raise op_value_error("RandomCrop", f"crop size {(th, tw)} is larger than the image ({h}, {w}); "
                                               "pass padding or pad_if_needed=True")
        rnd = self._random()
        return rnd.randint(0, h - th), rnd.randint(0, w - tw), th, tw

    def _apply_image(self, img: Any) -> Any:
        if self.padding is not None:
            img = F.pad(img, self.padding, self.fill, self.padding_mode)
        w, h = _image_size(img)
        if self.pad_if_needed and w < self.size[1]:
            img = F.pad(img, (self.size[1] - w, 0), self.fill, self.padding_mode)
        if self.pad_if_needed and h < self.size[0]:
            img = F.pad(img, (0, self.size[0] - h), self.fill, self.padding_mode)
        i, j, h, w = self._get_param(img, self.size)
        return F.crop(img, i, j, h, w)


class Pad(BaseTransform):
    """Pad the borders (see F.pad)."""

    def __init__(self, padding: Any, fill: Any = 0, padding_mode: str = "constant", keys: Sequence[str] | None = None):
        super().__init__(keys)
        if isinstance(padding, Sequence) and len(padding) not in (2, 4):
            raise op_value_error("Pad", f"padding must be an int or a sequence of 2 or 4, got {padding!r}")
        if padding_mode not in ("constant", "edge", "reflect", "symmetric"):
            raise op_value_error("Pad", f"padding_mode must be constant, edge, reflect or symmetric, got {padding_mode!r}")
        self.padding = tuple(padding) if isinstance(padding, list) else padding
        self.fill = tuple(fill) if isinstance(fill, list) else fill
        self.padding_mode = padding_mode

    def _apply_image(self, img: Any) -> Any:
        return F.pad(img, self.padding, self.fill, self.padding_mode)


def _angle_range(op: str, x: Any, name: str, sizes: Sequence[int] = (2,)) -> list[float]:
    if isinstance(x, numbers.Number):
        if x < 0:
            raise op_value_error(op, f"{name}, a single number, must be non-negative; got {x}")
        return [-float(x), float(x)]
    if not isinstance(x, Sequence) or len(x) not in sizes:
        raise op_value_error(op, f"{name} must be a number or a sequence of length {' or '.join(map(str, sizes))}")
    return [float(d) for d in x]


class RandomAffine(_RandomTransform):
    """A random affine map: angle from `degrees`, translation up to `translate` (fractions of the
    size), scale from `scale`, shear from `shear` (x range, or x and y ranges)."""

    def __init__(self, degrees: Any, translate: Any = None, scale: Any = None, shear: Any = None,
                 interpolation: str = "nearest", fill: Any = 0, center: Any = None,
                 keys: Sequence[str] | None = None, *, generator: Any = None):
        super().__init__(keys, generator)
        op = "RandomAffine"
        self.degrees = _angle_range(op, degrees, "degrees")
        if interpolation not in ("nearest", "bilinear", "bicubic"):
            raise op_value_error(op, f"interpolation must be nearest, bilinear or bicubic, got {interpolation!r}")
        if translate is not None and (len(translate) != 2 or not all(0.0 <= t <= 1.0 for t in translate)):
            raise op_value_error(op, f"translate must be two fractions in [0, 1], got {translate!r}")
        if scale is not None and (len(scale) != 2 or any(s <= 0 for s in scale)):
            raise op_value_error(op, f"scale must be two positive numbers, got {scale!r}")
        self.shear = None if shear is None else _angle_range(op, shear, "shear", (2, 4))
        self.interpolation, self.translate, self.scale = interpolation, translate, scale
        self.fill, self.center = (0 if fill is None else fill), center

    def _get_param(self, img_size: Sequence[int]) -> tuple:
        rnd = self._random()
        angle = rnd.uniform(*self.degrees)
        if self.translate is not None:
            max_dx, max_dy = self.translate[0] * img_size[0], self.translate[1] * img_size[1]
            translations = (int(rnd.uniform(-max_dx, max_dx)), int(rnd.uniform(-max_dy, max_dy)))
        else:
            translations = (0, 0)
        scale = rnd.uniform(*self.scale) if self.scale is not None else 1.0
        shear = [0.0, 0.0]
        if self.shear is not None:
            shear[0] = rnd.uniform(self.shear[0], self.shear[1])
            if len(self.shear) == 4:
                shear[1] = rnd.uniform(self.shear[2], self.shear[3])
        return angle, translations, scale, tuple(shear)

    def _apply_image(self, img: Any) -> Any:
        angle, translations, scale, shear = self._get_param(list(_image_size(img)))
        return F.affine(img, angle, translations, scale, shear, self.interpolation, self.fill, self.center)


class RandomRotation(_RandomTransform):
    """Rotate by an angle drawn from `degrees` ((-d, d) for a number)."""

    def __init__(self, degrees: Any, interpolation: str = "nearest", expand: bool = False, center: Any = None,
                 fill: Any = 0, keys: Sequence[str] | None = None, *, generator: Any = None):
        super().__init__(keys, generator)
        self.degrees = _angle_range("RandomRotation", degrees, "degrees")
        self.interpolation, self.expand, self.center, self.fill = interpolation, expand, center, fill

    def _apply_image(self, img: Any) -> Any:
        angle = self._random().uniform(*self.degrees)
        return F.rotate(img, angle, self.interpolation, self.expand, self.center, self.fill)


class RandomPerspective(_RandomTransform):
    """With probability `prob`, move each corner inwards by up to `distortion_scale` of half the size."""

    def __init__(self, prob: float = 0.5, distortion_scale: float = 0.5, interpolation: str = "nearest",
                 fill: Any = 0, keys: Sequence[str] | None = None, *, generator: Any = None):
        super().__init__(keys, generator)
        if not (0 <= prob <= 1 and 0 <= distortion_scale <= 1):
            raise op_value_error("RandomPerspective", f"prob and distortion_scale must be in [0, 1], got "
                                                      f"{prob}, {distortion_scale}")
        self.prob, self.distortion_scale, self.interpolation, self.fill = prob, distortion_scale, interpolation, fill

    def get_params(self, width: int, height: int, distortion_scale: float, rnd: Any = None) -> tuple[list, list]:
        """(startpoints, endpoints): the image corners and where they move."""
        rnd = rnd or self._random()
        dx, dy = int(distortion_scale * (width // 2)), int(distortion_scale * (height // 2))
        left = lambda: int(rnd.uniform(0, dx + 1))  # noqa: E731
        top = lambda: int(rnd.uniform(0, dy + 1))  # noqa: E731
        right = lambda: int(rnd.uniform(width - dx - 1, width))  # noqa: E731
        bottom = lambda: int(rnd.uniform(height - dy - 1, height))  # noqa: E731
        topleft = [left(), top()]
        topright = [right(), top()]
        botright = [right(), bottom()]
        botleft = [left(), bottom()]
        start = [[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]]
        return start, [topleft, topright, botright, botleft]

    def _apply_image(self, img: Any) -> Any:
        width, height = _image_size(img)
        rnd = self._random()
        if rnd.random() < self.prob:
            start, end = self.get_params(width, height, self.distortion_scale, rnd)
            return F.perspective(img, start, end, self.interpolation, self.fill)
        return img


class Grayscale(BaseTransform):
    """Convert to grey with 1 or 3 output channels."""

    def __init__(self, num_output_channels: int = 1, keys: Sequence[str] | None = None):
        super().__init__(keys)
        self.num_output_channels = num_output_channels

    def _apply_image(self, img: Any) -> Any:
        return F.to_grayscale(img, self.num_output_channels)


class RandomErasing(_RandomTransform):
    """With probability `prob`, erase a random window (area fraction in `scale`, aspect in `ratio`)
    with `value` (a number, one per channel, or 'random' for normal noise)."""

    def __init__(self, prob: float = 0.5, scale: Sequence[float] = (0.02, 0.33), ratio: Sequence[float] = (0.3, 3.3),
                 value: Any = 0, inplace: bool = False, keys: Sequence[str] | None = None, *, generator: Any = None):
        super().__init__(keys, generator)
        op = "RandomErasing"
        if not (0 <= scale[0] <= scale[1] <= 1 and 0 <= ratio[0] <= ratio[1] and 0 <= prob <= 1):
            raise op_value_error(op, f"need 0 <= prob <= 1, scale a (min, max) in [0, 1] and ratio a (min, max); "
                                     f"got prob={prob}, scale={scale}, ratio={ratio}")
        if isinstance(value, str) and value != "random":
            raise op_value_error(op, f"value must be a number, a sequence or 'random', got {value!r}")
        if isinstance(value, (list, tuple)) and len(value) not in (1, 3):
            raise op_value_error(op, f"value must have 1 or 3 entries (one per channel), got {len(value)}")
        self.prob, self.scale, self.ratio, self.value, self.inplace = prob, scale, ratio, value, inplace

    def _get_param(self, img: Any, rnd: Any) -> tuple:
        tensor = image_kind("RandomErasing", img) in ("tensor", "chw")
        shape = tuple(np.shape(img)) if not tensor else tuple(img.shape)
        if len(shape) == 2:
            shape = shape + (1,)
        c, h, w = shape[-3:] if tensor else (shape[-1], shape[-3], shape[-2])
        value = [self.value] if isinstance(self.value, numbers.Number) else (
            None if isinstance(self.value, str) else list(self.value))
        log_ratio = np.log(self.ratio)
        for _ in range(10):
            area = rnd.uniform(*self.scale) * h * w
            aspect = math.exp(rnd.uniform(log_ratio[0], log_ratio[1]))
            eh, ew = int(round(math.sqrt(area * aspect))), int(round(math.sqrt(area / aspect)))
            if eh >= h or ew >= w:
                continue
            if value is None:
                v = rnd.normal([c, eh, ew] if tensor else [eh, ew, c]) * (1.0 if tensor else 255.0)
            else:
                v = np.asarray(value, np.float64)
                v = v[:, None, None] if tensor else v[None, None, :]
            return rnd.randint(0, h - eh), rnd.randint(0, w - ew), eh, ew, v
        return 0, 0, h, w, None

    def _apply_image(self, img: Any) -> Any:
        rnd = self._random()
        if rnd.random() < self.prob:
            i, j, h, w, v = self._get_param(img, rnd)
            if v is not None:
                return F.erase(img, i, j, h, w, v, self.inplace)
        return img
