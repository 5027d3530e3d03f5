"""The image backend the datasets use: 'pil' (PIL Images) or 'cv2' (numpy arrays), as Paddle.

padax reads every image with Pillow; 'cv2' only means "hand out HWC numpy arrays", in RGB
channel order (OpenCV itself is not used, so `image_load(..., 'cv2')` gives RGB where
OpenCV's imread would give BGR).
"""
from __future__ import annotations

from typing import Any

import numpy as np

_BACKENDS = ("pil", "cv2")
_state = {"backend": "pil"}


def set_image_backend(backend: str) -> None:
    """Make `backend` ('pil' or 'cv2') the default of the datasets and `image_load`."""
    if backend not in _BACKENDS:
        raise ValueError(f"set_image_backend: backend must be 'pil' or 'cv2', got {backend!r}")
    _state["backend"] = backend


def get_image_backend() -> str:
    """The default image backend ('pil' unless set_image_backend changed it)."""
    return _state["backend"]


def image_load(path: str, backend: str | None = None) -> Any:
    """The image file at `path`: a PIL Image ('pil') or an RGB numpy array ('cv2')."""
    backend = get_image_backend() if backend is None else backend
    if backend not in _BACKENDS:
        raise ValueError(f"image_load: backend must be 'pil' or 'cv2', got {backend!r}")
    from padax.vision.transforms._image import pillow
    img = pillow().open(path)
    return img if backend == "pil" else np.array(img.convert("RGB") if img.mode not in ("L", "RGB") else img)
