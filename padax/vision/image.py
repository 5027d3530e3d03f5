"""The image backend the datasets use: 'pil' (PIL Images) or 'cv2' (numpy arrays), as Paddle.

padax reads every image with Pillow; 'cv2' only means "hand out HWC numpy arrays", in RGB
channel order (OpenCV itself is not used, so `image_load(..., 'cv2')` gives RGB where
OpenCV's imread would give BGR).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from padax.vision.transforms._image import pillow as _pillow

_BACKENDS = ("pil", "cv2")
_state = {"backend": "pil"}


def set_image_backend(backend: str) -> None:
    """Make `backend` ('pil' or 'cv2') the default of the datasets and `image_load`.

    Args:
        backend: 'pil' (PIL Images) or 'cv2' (HWC numpy arrays in RGB order; OpenCV is not used).

    Returns:
        None; raises ValueError for any other name.

    Examples:
        >>> import padax
        >>> padax.vision.set_image_backend("cv2")  # image_load now returns numpy arrays
        >>> padax.vision.get_image_backend()
        'cv2'
        >>> padax.vision.set_image_backend("pil")
    """
    if backend not in _BACKENDS:
        raise ValueError(f"set_image_backend: backend must be 'pil' or 'cv2', got {backend!r}")
    _state["backend"] = backend


def get_image_backend() -> str:
    """The default image backend ('pil' unless set_image_backend changed it).

    Examples:
        >>> import padax
        >>> padax.vision.get_image_backend()
        'pil'
    """
    return _state["backend"]


def image_load(path: str, backend: str | None = None) -> Any:
    """The image file at `path`: a PIL Image ('pil') or an RGB numpy array ('cv2').

    Args:
        path: the image file to read (with Pillow).
        backend: 'pil' or 'cv2'; None uses `get_image_backend()`.

    Returns:
        A PIL Image for 'pil'; for 'cv2' a uint8 numpy array, HWC in RGB order (HW for grayscale images).

    Examples:
        >>> import os, tempfile
        >>> import numpy as np
        >>> from PIL import Image
        >>> import padax
        >>> with tempfile.TemporaryDirectory() as d:
        ...     path = os.path.join(d, "red.png")
        ...     Image.fromarray(np.full((2, 3, 3), [255, 0, 0], np.uint8)).save(path)
        ...     pil, arr = padax.vision.image_load(path), padax.vision.image_load(path, backend="cv2")
        ...
        >>> pil.size, arr.shape, arr[0, 0].tolist()  # PIL's (width, height); the array is RGB
        ((3, 2), (2, 3, 3), [255, 0, 0])
    """
    backend = get_image_backend() if backend is None else backend
    if backend not in _BACKENDS:
        raise ValueError(f"image_load: backend must be 'pil' or 'cv2', got {backend!r}")
    img = _pillow().open(path)
    return img if backend == "pil" else np.array(img.convert("RGB") if img.mode not in ("L", "RGB") else img)
