"""`padax.data`: small real datasets that ship inside the package (no network).

Everything here returns plain numpy arrays; turn them into device arrays
with `padax.device_put` (or `padax.to_tensor`) when you need them.

- `load_digits()`: the UCI optical handwritten digits (1797 8x8 images,
  10 classes), as distributed with scikit-learn. See `padax/data/README.md`
  for its source and license.
"""
from __future__ import annotations

import os

import numpy as np

__all__ = ["load_digits", "DIGITS_PATH"]

DIGITS_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "digits.npz")


def load_digits() -> tuple[np.ndarray, np.ndarray]:
    """The handwritten-digits dataset as ``(images, labels)``.

    images: uint8 array of shape [1797, 8, 8], pixel counts in 0..16.
    labels: int64 array of shape [1797], the digit 0..9 in each image.

    The arrays are read from the bundled ``digits.npz`` without pickle and
    are fresh copies on every call, so callers may modify them.

    Examples:
        >>> from padax.data import load_digits
        >>> images, labels = load_digits()
        >>> images.shape, images.dtype, int(images.max()), labels[:5].tolist()
        ((1797, 8, 8), dtype('uint8'), 16, [0, 1, 2, 3, 4])
    """
    with np.load(DIGITS_PATH, allow_pickle=False) as f:
        images = np.array(f["images"], dtype=np.uint8)
        labels = np.array(f["labels"], dtype=np.int64)
    if images.shape != (1797, 8, 8) or labels.shape != (1797,):
        raise ValueError(f"padax.data: {DIGITS_PATH} is damaged: images {images.shape}, "
                         f"labels {labels.shape}")
    return images, labels
