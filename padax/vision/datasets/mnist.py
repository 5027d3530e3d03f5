"""MNIST and Fashion-MNIST from their idx-ubyte files (gzipped or not)."""
from __future__ import annotations

import gzip
import struct
from typing import Any, Callable

import numpy as np

import padax
from padax.io.dataset import Dataset
from padax.vision.datasets._files import check_backend, check_mode, finish_sample, locate, pil_image

IMAGE_MAGIC, LABEL_MAGIC = 2051, 2049


def read_idx(path: str, magic: int, what: str) -> np.ndarray:
    """The uint8 array of an idx file (images [N, rows, cols] for magic 2051, labels [N] for 2049)."""
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    ndim = 3 if magic == IMAGE_MAGIC else 1
    header = ">" + "I" * (1 + ndim)
    if len(raw) < struct.calcsize(header):
        raise ValueError(f"{what}: {path!r} is too short to be an idx file")
    found, *shape = struct.unpack_from(header, raw)
    if found != magic:
        raise ValueError(f"{what}: {path!r} is not an idx {'image' if ndim == 3 else 'label'} file "
                         f"(magic number {found}, expected {magic})")
    data = np.frombuffer(raw, np.uint8, offset=struct.calcsize(header))
    if data.size != int(np.prod(shape)):
        raise ValueError(f"{what}: {path!r} holds {data.size} bytes of data, its header says {shape}")
    return data.reshape(shape)


class MNIST(Dataset):
    """The MNIST handwritten digits: (image, label) pairs, label an int64 array of shape [1].

    image_path / label_path: the idx files (default: the cache directory, see
    padax.vision.datasets); mode 'train' or 'test'; backend 'pil' gives PIL 'L' Images, 'cv2'
    float arrays [28, 28] (the default dtype); `transform` is applied to the image."""

    NAME = "mnist"
    URL_PREFIX = "https://dataset.bj.bcebos.com/mnist/"
    FILES = {"train": ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"),
             "test": ("t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz")}

    def __init__(self, image_path: str | None = None, label_path: str | None = None, mode: str = "train",
                 transform: Callable | None = None, download: bool = True, backend: str | None = None):
        name = type(self).__name__
        self.mode = check_mode(name, mode, ("train", "test"))
        self.backend = check_backend(name, backend)
        image_file, label_file = self.FILES[self.mode]
        self.image_path = locate(name, "image_path", image_path, self.NAME, self.URL_PREFIX + image_file, download)
        self.label_path = locate(name, "label_path", label_path, self.NAME, self.URL_PREFIX + label_file, download)
        self.transform = transform
        self.images = read_idx(self.image_path, IMAGE_MAGIC, name)
        self.labels = read_idx(self.label_path, LABEL_MAGIC, name).astype(np.int64)
        if len(self.images) != len(self.labels):
            raise ValueError(f"{name}: {len(self.images)} images but {len(self.labels)} labels "
                             f"({self.image_path!r}, {self.label_path!r})")
        self.dtype = np.dtype(padax.get_default_dtype())

    def __getitem__(self, idx: int) -> tuple[Any, np.ndarray]:
        image, label = self.images[idx], np.array([self.labels[idx]], np.int64)
        image = pil_image().fromarray(image, mode="L") if self.backend == "pil" else image.astype(self.dtype)
        return finish_sample(image, label, self.transform, self.backend, self.dtype)

    def __len__(self) -> int:
        return len(self.labels)


class FashionMNIST(MNIST):
    """Zalando's Fashion-MNIST (clothing images in MNIST's format); arguments as MNIST."""

    NAME = "fashion-mnist"
    URL_PREFIX = "https://dataset.bj.bcebos.com/fashion_mnist/"
