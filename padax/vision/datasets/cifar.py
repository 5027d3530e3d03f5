"""CIFAR-10 and CIFAR-100 from the python-version archives, read without pickle execution."""
from __future__ import annotations

import tarfile
from typing import Any, Callable

import numpy as np

import padax
from padax.io.dataset import Dataset
from padax.paddle_format import restricted_loads
from padax.vision.datasets._files import check_backend, check_mode, finish_sample, locate, pil_image

URL_PREFIX = "https://dataset.bj.bcebos.com/cifar/"


def _get(batch: dict, key: str) -> Any:
    """batch[key] for a batch pickled by Python 2 (bytes keys) or 3 (str keys)."""
    for k in (key.encode(), key):
        if k in batch:
            return batch[k]
    return None


class Cifar10(Dataset):
    """CIFAR-10: (image, label) pairs, label an int64 scalar array.

    data_file: cifar-10-python.tar.gz (default: the cache directory); mode 'train' or 'test';
    backend 'pil' gives PIL RGB Images, 'cv2' uint8 HWC arrays [32, 32, 3] to the transform
    and the default float dtype after it. The batches inside
    are pickles: they are read with a restricted unpickler that runs no code from the file."""

    URL, FOLDER = URL_PREFIX + "cifar-10-python.tar.gz", "cifar"
    FLAGS = {"train": "data_batch", "test": "test_batch"}
    LABEL_KEYS = ("labels",)

    def __init__(self, data_file: str | None = None, mode: str = "train", transform: Callable | None = None,
                 download: bool = True, backend: str | None = None):
        name = type(self).__name__
        self.mode = check_mode(name, mode, ("train", "test"))
        self.backend = check_backend(name, backend)
        self.data_file = locate(name, "data_file", data_file, self.FOLDER, self.URL, download)
        self.flag = self.FLAGS[self.mode]
        self.transform = transform
        self.images, self.labels = self._load(name)
        self.dtype = np.dtype(padax.get_default_dtype())

    def _load(self, name: str) -> tuple[np.ndarray, np.ndarray]:
        images, labels = [], []
        with tarfile.open(self.data_file, mode="r") as tar:
            members = sorted((m for m in tar.getmembers() if m.isfile() and self.flag in m.name.rsplit("/", 1)[-1]),
                             key=lambda m: m.name)
            for m in members:
                batch = restricted_loads(tar.extractfile(m).read(), encoding="bytes",
                                         what=f"{name}: {self.data_file}:{m.name}")
                data = _get(batch, "data") if isinstance(batch, dict) else None
                found = [_get(batch, k) for k in self.LABEL_KEYS] if isinstance(batch, dict) else [None]
                lab = next((v for v in found if v is not None), None)
                if data is None or lab is None:
                    raise ValueError(f"{name}: {self.data_file}:{m.name} is not a CIFAR batch "
                                     f"(no data/{'/'.join(self.LABEL_KEYS)} entries)")
                images.append(np.asarray(data, np.uint8).reshape(-1, 3, 32, 32))
                labels.append(np.asarray(lab, np.int64))
        if not images:
            raise ValueError(f"{name}: {self.data_file!r} holds no '{self.flag}' batch")
        return np.concatenate(images), np.concatenate(labels)

    def __getitem__(self, idx: int) -> tuple[Any, np.ndarray]:
        image = self.images[idx].transpose(1, 2, 0)
        image = pil_image().fromarray(np.ascontiguousarray(image)) if self.backend == "pil" else image.copy()
        label = np.asarray(self.labels[idx], np.int64)
        return finish_sample(image, label, self.transform, self.backend, self.dtype)

    def __len__(self) -> int:
        return len(self.labels)


class Cifar100(Cifar10):
    """CIFAR-100 (cifar-100-python.tar.gz) with its 100 fine labels; arguments as Cifar10."""

    URL = URL_PREFIX + "cifar-100-python.tar.gz"
    FLAGS = {"train": "train", "test": "test"}
    LABEL_KEYS = ("fine_labels", "labels")
