"""Datasets from folders of image files: DatasetFolder (one subfolder per class) and ImageFolder."""
from __future__ import annotations

import functools
import os
from typing import Any, Callable, Sequence

import numpy as np

from padax.io.dataset import Dataset
from padax.vision.datasets._files import pil_image
from padax.vision.image import get_image_backend as _get_image_backend

IMG_EXTENSIONS = (".jpg", ".jpeg", ".png", ".ppm", ".bmp", ".pgm", ".tif", ".tiff", ".webp")


def has_valid_extension(filename: str, extensions: Sequence[str]) -> bool:
    """Whether filename ends with one of extensions (case-insensitive)."""
    if not isinstance(extensions, (list, tuple)):
        raise TypeError(f"extensions must be a list or tuple, got {type(extensions).__name__}")
    return filename.lower().endswith(tuple(x.lower() for x in extensions))


def pil_loader(path: str) -> Any:
    """The image file at `path` as an RGB PIL Image."""
    with open(path, "rb") as f:
        return pil_image().open(f).convert("RGB")


def default_loader(path: str, backend: str | None = None) -> Any:
    """An RGB PIL Image, or an RGB numpy array when the image backend (default: the current one) is 'cv2'."""
    img = pil_loader(path)
    return np.array(img) if (backend or _get_image_backend()) == "cv2" else img


def _loader_for_now() -> Callable:
    """default_loader bound to the current image backend (so DataLoader workers use the same one)."""
    return functools.partial(default_loader, backend=_get_image_backend())


def _valid_check(extensions: Sequence[str] | None, is_valid_file: Callable | None) -> Callable[[str], bool]:
    if extensions is not None and is_valid_file is not None:
        raise ValueError("pass either extensions or is_valid_file, not both")
    if is_valid_file is not None:
        return is_valid_file
    return lambda p: has_valid_extension(p, extensions)


def _walk(folder: str, valid: Callable[[str], bool]) -> list[str]:
    files = []
    for root, _, names in sorted(os.walk(folder, followlinks=True)):
        files.extend(os.path.join(root, n) for n in sorted(names) if valid(os.path.join(root, n)))
    return files


class DatasetFolder(Dataset):
    """root/<class>/**/<file>: (sample, class index) pairs, classes sorted by folder name.

    loader reads a file (default: an RGB PIL Image); extensions (default: common image types)
    or is_valid_file select the files; `transform` is applied to the sample."""

    def __init__(self, root: str, loader: Callable | None = None, extensions: Sequence[str] | None = None,
                 transform: Callable | None = None, is_valid_file: Callable | None = None):
        self.root = root
        if not os.path.isdir(os.path.expanduser(root)):
            raise FileNotFoundError(f"DatasetFolder: root {root!r} is not a folder")
        if extensions is None and is_valid_file is None:
            extensions = IMG_EXTENSIONS
        valid = _valid_check(extensions, is_valid_file)
        self.classes = sorted(d.name for d in os.scandir(os.path.expanduser(root)) if d.is_dir())
        self.class_to_idx = {c: i for i, c in enumerate(self.classes)}
        self.samples = [(p, self.class_to_idx[c]) for c in self.classes
                        for p in _walk(os.path.join(os.path.expanduser(root), c), valid)]
        if not self.samples:
            raise RuntimeError(f"DatasetFolder: found no files in the class subfolders of {root!r}"
                               + (f"; supported extensions are {','.join(extensions)}" if extensions else ""))
        self.targets = [t for _, t in self.samples]
        self.loader = _loader_for_now() if loader is None else loader
        self.extensions, self.transform = extensions, transform

    def __getitem__(self, index: int) -> tuple[Any, int]:
        path, target = self.samples[index]
        sample = self.loader(path)
        if self.transform is not None:
            sample = self.transform(sample)
        return sample, target

    def __len__(self) -> int:
        return len(self.samples)


class ImageFolder(Dataset):
    """Every image file under root (recursively), without labels: each sample is [image]."""

    def __init__(self, root: str, loader: Callable | None = None, extensions: Sequence[str] | None = None,
                 transform: Callable | None = None, is_valid_file: Callable | None = None):
        self.root = root
        if not os.path.isdir(os.path.expanduser(root)):
            raise FileNotFoundError(f"ImageFolder: root {root!r} is not a folder")
        if extensions is None and is_valid_file is None:
            extensions = IMG_EXTENSIONS
        self.samples = _walk(os.path.expanduser(root), _valid_check(extensions, is_valid_file))
        if not self.samples:
            raise RuntimeError(f"ImageFolder: found no files under {root!r}"
                               + (f"; supported extensions are {','.join(extensions)}" if extensions else ""))
        self.loader = _loader_for_now() if loader is None else loader
        self.extensions, self.transform = extensions, transform

    def __getitem__(self, index: int) -> list:
        sample = self.loader(self.samples[index])
        if self.transform is not None:
            sample = self.transform(sample)
        return [sample]

    def __len__(self) -> int:
        return len(self.samples)
