"""The Penn Treebank language-model corpus of Mikolov's simple-examples.tgz: n-grams or sequences of ids."""
from __future__ import annotations

import collections
import tarfile
from typing import Any

import numpy as np

from padax.io.dataset import Dataset
from padax.text.datasets._common import check_mode, locate

URL = "https://dataset.bj.bcebos.com/imikolov%2Fsimple-examples.tgz"


def _key(word: Any) -> bytes:
    return word if isinstance(word, bytes) else word.encode()


class Imikolov(Dataset):
    """PTB sentences as word ids: data_type 'NGRAM' gives tuples of window_size int64 scalars (sliding over
    '<s>' sentence '<e>'), 'SEQ' gives (src, trg) = ('<s>' + sentence, sentence + '<e>').

    The vocabulary is the words of ptb.train.txt and ptb.valid.txt seen more than min_word_freq times (with
    '<s>' and '<e>' counted once per line), by decreasing count, then '<unk>' last; corpus words are bytes
    (the keys of `word_idx`), the markers str, as Paddle's (so the corpus's own '<unk>' token is a word).

    Args:
        data_file: simple-examples.tgz (default: <data home>/imikolov/; padax does not download).
        data_type: 'NGRAM' (default) or 'SEQ'.
        window_size: the n-gram length (NGRAM needs one > -1); for SEQ, sequences longer are dropped
            when it is > 0 (default -1).
        mode: 'train' (default) or 'test' (ptb.test.txt).
        min_word_freq: the minimum count (exclusive) of a vocabulary word (default 50).
        download: unused (padax never downloads); it only changes the missing-file message.

    Returns:
        The dataset.

    Examples:
        >>> import padax
        >>> try:
        ...     padax.text.Imikolov(data_file="/nonexistent/simple-examples.tgz", window_size=2)
        ... except FileNotFoundError as e:
        ...     print("Imikolov" in str(e))
        True
    """

    def __init__(self, data_file: str | None = None, data_type: str = "NGRAM", window_size: int = -1,
                 mode: str = "train", min_word_freq: int = 50, download: bool = True) -> None:
        if not isinstance(data_type, str) or data_type.upper() not in ("NGRAM", "SEQ"):
            raise ValueError(f"Imikolov: data_type must be 'NGRAM' or 'SEQ', got {data_type!r}")
        self.data_type = data_type.upper()
        self.mode = check_mode("Imikolov", mode, ("train", "test"))
        if self.data_type == "NGRAM" and window_size <= -1:
            raise ValueError("Imikolov: data_type='NGRAM' needs window_size >= 0")
        self.window_size, self.min_word_freq = window_size, min_word_freq
        self.data_file = locate("Imikolov", "data_file", data_file, "imikolov", URL, download)
        with tarfile.open(self.data_file) as tar:
            lines = {split: tar.extractfile(f"./simple-examples/data/ptb.{split}.txt").read().splitlines()
                     for split in ("train", "valid", self.mode)}
        self.word_idx = self._build_work_dict(lines["train"] + lines["valid"], min_word_freq)
        self.data = self._load(lines[self.mode])

    @staticmethod
    def _build_work_dict(lines: list[bytes], cutoff: int) -> dict[Any, int]:
        freq: dict[Any, int] = collections.defaultdict(int)
        for line in lines:
            for w in line.strip().split():
                freq[w] += 1
            freq["<s>"] += 1
            freq["<e>"] += 1
        freq.pop("<unk>", None)
        kept = sorted(((w, c) for w, c in freq.items() if c > cutoff), key=lambda x: (-x[1], _key(x[0])))
        word_idx: dict[Any, int] = {w: i for i, (w, _) in enumerate(kept)}
        word_idx["<unk>"] = len(kept)
        return word_idx

    def _load(self, lines: list[bytes]) -> list[tuple]:
        unk, data = self.word_idx["<unk>"], []
        for line in lines:
            if self.data_type == "NGRAM":
                words = ["<s>", *line.strip().split(), "<e>"]
                if len(words) >= self.window_size:
                    ids = [self.word_idx.get(w, unk) for w in words]
                    data.extend(tuple(ids[i - self.window_size:i]) for i in range(self.window_size, len(ids) + 1))
            else:
                ids = [self.word_idx.get(w, unk) for w in line.strip().split()]
                src, trg = [self.word_idx["<s>"], *ids], [*ids, self.word_idx["<e>"]]
                if self.window_size > 0 and len(src) > self.window_size:
                    continue
                data.append((src, trg))
        return data

    def __getitem__(self, idx: int) -> tuple[np.ndarray, ...]:
        return tuple(np.array(d, dtype=np.int64) for d in self.data[idx])

    def __len__(self) -> int:
        return len(self.data)
