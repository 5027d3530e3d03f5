"""Oxford 102 Flowers: the jpg archive plus the imagelabels.mat / setid.mat label files."""
from __future__ import annotations

import io
import tarfile
from typing import Any, Callable

import numpy as np

import padax
from padax.io.dataset import Dataset
from padax.vision.datasets._files import check_backend, check_mode, finish_sample, locate, pil_image

URL_PREFIX = "http://paddlemodels.bj.bcebos.com/flowers/"
# Paddle's split: its 'train' is the official test ids (the larger set) and 'test' the train ids
SPLITS = {"train": "tstid", "test": "trnid", "valid": "valid"}


def _loadmat(path: str, key: str, dataset: str) -> np.ndarray:
    import scipy.io  # startup time: scipy.io loads only to read the .mat label files
    try:
        mat = scipy.io.loadmat(path)
    except Exception as e:  # scipy raises several types for a file that is not a .mat
        raise ValueError(f"{dataset}: {path!r} is not a readable MATLAB .mat file ({e})") from None
    if key not in mat:
        raise ValueError(f"{dataset}: {path!r} has no {key!r} entry (it has {sorted(k for k in mat if k[0] != '_')})")
    return np.asarray(mat[key]).reshape(-1)


class Flowers(Dataset):
    """(image, label) pairs, label an int64 array [1] in 1..102.

    data_file: 102flowers.tgz (jpg/image_XXXXX.jpg), label_file: imagelabels.mat, setid_file:
    setid.mat (defaults: the cache directory); mode 'train', 'valid' or 'test' as Paddle splits
    them; backend 'pil' gives PIL Images, 'cv2' numpy HWC uint8 arrays. Images are read from the
    archive as needed, without unpacking it to disk."""

    def __init__(self, data_file: str | None = None, label_file: str | None = None, setid_file: str | None = None,
                 mode: str = "train", transform: Callable | None = None, download: bool = True,
                 backend: str | None = None):
        name = "Flowers"
        self.mode = check_mode(name, mode, ("train", "valid", "test"))
        self.backend = check_backend(name, backend)
        self.data_file = locate(name, "data_file", data_file or None, "flowers", URL_PREFIX + "102flowers.tgz", download)
        label_file = locate(name, "label_file", label_file or None, "flowers", URL_PREFIX + "imagelabels.mat", download)
        setid_file = locate(name, "setid_file", setid_file or None, "flowers", URL_PREFIX + "setid.mat", download)
        self.transform = transform
        self.labels = _loadmat(label_file, "labels", name).astype(np.int64)
        self.indexes = _loadmat(setid_file, SPLITS[self.mode], name).astype(np.int64)
        self._members = self._index_archive(name)
        self._tar = None
        self.dtype = np.dtype(padax.get_default_dtype())

    def _index_archive(self, name: str) -> dict[str, tarfile.TarInfo]:
        with tarfile.open(self.data_file) as tar:
            members = {m.name.lstrip("./"): m for m in tar.getmembers() if m.isfile()}
        missing = [i for i in self.indexes if f"jpg/image_{i:05}.jpg" not in members]
        if missing:
            raise ValueError(f"{name}: {self.data_file!r} lacks jpg/image_{missing[0]:05}.jpg "
                             f"({len(missing)} images of the '{self.mode}' split are missing)")
        return members

    def _read(self, member: str) -> bytes:
        if self._tar is None:  # opened lazily, so that each DataLoader worker opens its own
            self._tar = tarfile.open(self.data_file)
        return self._tar.extractfile(self._members[member]).read()

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["_tar"] = None
        return state

    def __getitem__(self, idx: int) -> tuple[Any, np.ndarray]:
        index = int(self.indexes[idx])
        label = np.array([self.labels[index - 1]], np.int64)
        image = pil_image().open(io.BytesIO(self._read(f"jpg/image_{index:05}.jpg")))
        if self.backend == "cv2":
            image = np.array(image)
        return finish_sample(image, label, self.transform, self.backend, self.dtype)

    def __len__(self) -> int:
        return len(self.indexes)
