"""Pascal VOC 2012 segmentation: images and class masks read from the VOCtrainval tar."""
from __future__ import annotations

import io
import tarfile
from typing import Any, Callable

import numpy as np

import padax
from padax.io.dataset import Dataset
from padax.vision.datasets._files import check_backend, check_mode, locate, pil_image

VOC_URL = "https://dataset.bj.bcebos.com/voc/VOCtrainval_11-May-2012.tar"
SET_FILE = "VOCdevkit/VOC2012/ImageSets/Segmentation/{}.txt"
DATA_FILE = "VOCdevkit/VOC2012/JPEGImages/{}.jpg"
LABEL_FILE = "VOCdevkit/VOC2012/SegmentationClass/{}.png"
# Paddle's split names: its 'train' is VOC's trainval list, 'test' VOC's train, 'valid' VOC's val
SPLITS = {"train": "trainval", "test": "train", "valid": "val"}


class VOC2012(Dataset):
    """(image, label) pairs: the photo and its segmentation mask (palette PNG: class ids, 255 = border).

    data_file: VOCtrainval_11-May-2012.tar (default: the cache directory); mode 'train', 'valid'
    or 'test' as Paddle splits them; backend 'pil' gives PIL Images, 'cv2' float arrays (the
    default dtype) for both. Members are read from the tar as needed."""

    def __init__(self, data_file: str | None = None, mode: str = "train", transform: Callable | None = None,
                 download: bool = True, backend: str | None = None):
        name = "VOC2012"
        self.mode = check_mode(name, mode, ("train", "valid", "test"))
        self.backend = check_backend(name, backend)
        self.flag = SPLITS[self.mode]
        self.data_file = locate(name, "data_file", data_file, "voc2012", VOC_URL, download)
        self.transform = transform
        self._tar = None
        with tarfile.open(self.data_file) as tar:
            self._members = {m.name: m for m in tar.getmembers() if m.isfile()}
            set_file = SET_FILE.format(self.flag)
            if set_file not in self._members:
                raise ValueError(f"{name}: {self.data_file!r} has no {set_file}")
            ids = [ln.strip().decode() for ln in tar.extractfile(self._members[set_file]) if ln.strip()]
        self.data = [DATA_FILE.format(i) for i in ids]
        self.labels = [LABEL_FILE.format(i) for i in ids]
        missing = [f for f in self.data + self.labels if f not in self._members]
        if missing:
            raise ValueError(f"{name}: {self.data_file!r} lacks {missing[0]} ({len(missing)} files missing)")
        self.dtype = np.dtype(padax.get_default_dtype())

    def _read(self, member: str) -> Any:
        if self._tar is None:  # opened lazily, so that each DataLoader worker opens its own
            self._tar = tarfile.open(self.data_file)
        return pil_image().open(io.BytesIO(self._tar.extractfile(self._members[member]).read()))

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["_tar"] = None
        return state

    def __getitem__(self, idx: int) -> tuple[Any, Any]:
        data, label = self._read(self.data[idx]), self._read(self.labels[idx])
        if self.backend == "cv2":
            data, label = np.array(data), np.array(label)
        if self.transform is not None:
            data = self.transform(data)
        if self.backend == "cv2":
            return np.asarray(data).astype(self.dtype), label.astype(self.dtype)
        return data, label

    def __len__(self) -> int:
        return len(self.data)

    def __del__(self):
        if getattr(self, "_tar", None) is not None:
            self._tar.close()
