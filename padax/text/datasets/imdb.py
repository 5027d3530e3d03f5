"""IMDB movie reviews (aclImdb_v1.tar.gz): sentiment classification over word ids."""
from __future__ import annotations

import collections
import re
import string
import tarfile
from typing import Any

import numpy as np

from padax.io.dataset import Dataset
from padax.text.datasets._common import check_mode, locate

URL = "https://dataset.bj.bcebos.com/imdb%2FaclImdb_v1.tar.gz"
_PUNCT = string.punctuation.encode("latin-1")


class Imdb(Dataset):
    """IMDB reviews: (word ids int64 [n], label int64 [1]) with label 0 positive and 1 negative.

    The vocabulary is every word of the train and test reviews seen more than `cutoff` times, by
    decreasing count (ties by the word), plus '<unk>' last; words are the review's bytes lower-cased,
    without punctuation, split on whitespace (the keys of `word_idx` are bytes, as Paddle's).

    Args:
        data_file: aclImdb_v1.tar.gz (default: <data home>/imdb/; padax does not download).
        mode: 'train' (default) or 'test'.
        cutoff: the minimum count (exclusive) of a vocabulary word (default 150).
        download: unused (padax never downloads); it only changes the missing-file message.

    Returns:
        The dataset.

    Examples:
        >>> import padax
        >>> try:
        ...     padax.text.Imdb(data_file="/nonexistent/aclImdb_v1.tar.gz")
        ... except FileNotFoundError as e:
        ...     print("does not exist" in str(e))
        True
    """

    def __init__(self, data_file: str | None = None, mode: str = "train", cutoff: int = 150,
                 download: bool = True) -> None:
        self.mode = check_mode("Imdb", mode, ("train", "test"))
        self.data_file = locate("Imdb", "data_file", data_file, "imdb", URL, download)
        docs = self._read()
        self.word_idx = self._build_work_dict(docs, cutoff)
        unk = self.word_idx["<unk>"]
        self.docs, self.labels = [], []
        for label, kind in ((0, "pos"), (1, "neg")):
            pattern = re.compile(rf"aclImdb/{self.mode}/{kind}/.*\.txt$")
            for name, doc in docs:
                if pattern.match(name):
                    self.docs.append([self.word_idx.get(w, unk) for w in doc])
                    self.labels.append(label)

    def _read(self) -> list[tuple[str, list[bytes]]]:
        pattern = re.compile(r"aclImdb/((train)|(test))/((pos)|(neg))/.*\.txt$")
        docs = []
        with tarfile.open(self.data_file) as tar:
            for member in tar:
                if pattern.match(member.name):
                    text = tar.extractfile(member).read()
                    docs.append((member.name, text.rstrip(b"\n\r").translate(None, _PUNCT).lower().split()))
        return docs

    @staticmethod
    def _build_work_dict(docs: list, cutoff: int) -> dict[Any, int]:
        freq: dict[bytes, int] = collections.defaultdict(int)
        for _, doc in docs:
            for w in doc:
                freq[w] += 1
        words = [w for w, _ in sorted(((w, c) for w, c in freq.items() if c > cutoff), key=lambda x: (-x[1], x[0]))]
        word_idx: dict[Any, int] = {w: i for i, w in enumerate(words)}
        word_idx["<unk>"] = len(words)
        return word_idx

    def __getitem__(self, idx: int) -> tuple[np.ndarray, np.ndarray]:
        return np.array(self.docs[idx], dtype=np.int64), np.array([self.labels[idx]], dtype=np.int64)

    def __len__(self) -> int:
        return len(self.docs)
