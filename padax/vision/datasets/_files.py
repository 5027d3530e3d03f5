"""Where dataset files are found: a path the user passes, or the cache directory.

padax does not download. The cache directory is $PADAX_DATA_HOME, else
$XDG_CACHE_HOME/padax/dataset (~/.cache/padax/dataset); a dataset's files go in a folder
named after it, e.g. ~/.cache/padax/dataset/mnist/train-images-idx3-ubyte.gz, as Paddle keeps
them under ~/.cache/paddle/dataset. A missing file is an error naming the file, where it was
looked for and where to get it.
"""
from __future__ import annotations

import os
from typing import Any

import numpy as np

from padax.vision.image import get_image_backend
from padax.vision.transforms._image import pillow

SAMPLES_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                           "data", "vision_samples")


def data_home() -> str:
    """The dataset cache directory (see the module docstring)."""
    if os.environ.get("PADAX_DATA_HOME"):
        return os.environ["PADAX_DATA_HOME"]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "padax", "dataset")


def sample_path(*parts: str) -> str:
    """A file of the small samples that ship with padax (padax/data/vision_samples), in each
    dataset's standard format: pass it as the dataset's file argument to try a reader offline."""
    return os.path.join(SAMPLES_DIR, *parts)


def locate(dataset: str, arg: str, path: str | None, folder: str, url: str, download: bool) -> str:
    """The file for argument `arg`: `path` when given (it must exist), else the cache copy.

    `download=True` cannot fetch (padax has no network code): it only changes the message."""
    if path is not None:
        path = os.fspath(path)
        if not os.path.isfile(path):
            raise FileNotFoundError(f"{dataset}: {arg}={path!r} does not exist (the file is distributed at {url})")
        return path
    cached = os.path.join(data_home(), folder, url.rsplit("/", 1)[-1])
    if os.path.isfile(cached):
        return cached
    how = ("padax does not download datasets" if download else "download=False and no file was given")
    raise FileNotFoundError(f"{dataset}: {arg} is not set and {cached!r} does not exist ({how}). Get the "
                            f"file from {url} and put it there, or pass {arg}='/path/to/{os.path.basename(cached)}'")


def locate_dir(dataset: str, arg: str, path: str | None, folder: str, url: str, must_hold: tuple[str, ...] = ()) -> str:
    """The extracted folder for argument `arg`: `path` when given, else <data_home()>/<folder>; it must exist
    and hold the relative paths `must_hold`. A missing one is an error naming it and where to get it."""
    where = os.fspath(path) if path is not None else os.path.join(data_home(), folder)
    missing = [where] if not os.path.isdir(where) else [os.path.join(where, m) for m in must_hold
                                                          if not os.path.exists(os.path.join(where, m))]
    if not missing:
        return where
    how = (f"{arg}={where!r}" if path is not None else
           f"{arg} is not set and the cache folder {where!r}")
    raise FileNotFoundError(f"{dataset}: {how} does not hold {missing[0]!r} (padax does not download datasets). "
                            f"Get the archive from {url}, extract it to {where!r}, or pass {arg}='/path/to/{folder}'")


def check_mode(dataset: str, mode: str, modes: tuple[str, ...]) -> str:
    if not isinstance(mode, str) or mode.lower() not in modes:
        raise ValueError(f"{dataset}: mode must be one of {list(modes)}, got {mode!r}")
    return mode.lower()


def check_backend(dataset: str, backend: str | None) -> str:
    """'pil' (samples are PIL Images) or 'cv2' (numpy arrays; padax reads them with Pillow, not OpenCV);
    None: `padax.vision.get_image_backend()`."""
    backend = get_image_backend() if backend is None else backend
    if backend not in ("pil", "cv2"):
        raise ValueError(f"{dataset}: backend must be 'pil' or 'cv2', got {backend!r}")
    return backend


def pil_image():
    return pillow()


def finish_sample(image: Any, label: Any, transform: Any, backend: str, dtype: Any) -> tuple[Any, Any]:
    """Apply `transform`, then return (image, label) as Paddle's readers do: the PIL image (or whatever the
    transform made) for backend 'pil', a numpy array of `dtype` otherwise."""
    if transform is not None:
        image = transform(image)
    if backend == "pil":
        return image, label
    return np.asarray(image).astype(dtype), label
