"""`padax.data`: small real datasets that ship inside the package (no network).

Everything here returns plain numpy arrays; turn them into device arrays
with `padax.device_put` (or `padax.to_tensor`) when you need them.

- `load_digits()`: the UCI optical handwritten digits (1797 8x8 images,
  10 classes), as distributed with scikit-learn. See `padax/data/README.md`
  for its source and license.
- `load_tiny_text()`: a short self-written English text (about 2.5 KB, 29
  distinct characters) for character-level language models.
"""
from __future__ import annotations

import os

import numpy as np

__all__ = ["load_digits", "load_tiny_text", "DIGITS_PATH", "TINY_TEXT_PATH"]

DIGITS_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "digits.npz")
TINY_TEXT_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tiny_text.txt")


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


def load_tiny_text() -> str:
    """The bundled ``tiny_text.txt``: simple English sentences (lowercase letters, spaces, newlines
    and , . :) written for padax, small enough to train a character-level language model in seconds.

    Examples:
        >>> from padax.data import load_tiny_text
        >>> text = load_tiny_text()
        >>> text.splitlines()[0], len(set(text))
        ('the river runs down from the hill to the sea.', 29)
    """
    with open(TINY_TEXT_PATH, encoding="utf-8") as f:
        return f.read()
