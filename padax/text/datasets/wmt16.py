"""WMT'16 (Multi30k) English-German translation (wmt16.tar.gz); dictionaries are built from the train file."""
from __future__ import annotations

import collections
import tarfile

import numpy as np

from padax.io.dataset import Dataset
from padax.text.datasets._common import check_mode, locate

DATA_URL = "http://paddlemodels.bj.bcebos.com/wmt/wmt16.tar.gz"
TOTAL_EN_WORDS, TOTAL_DE_WORDS = 11250, 19220
START_MARK, END_MARK, UNK_MARK = "<s>", "<e>", "<unk>"


class WMT16(Dataset):
    """WMT'16 en-de: (src ids, trg ids, trg ids next) int64 arrays, with '<s>' = 0, '<e>' = 1, '<unk>' = 2.

    Each language's dictionary is '<s>', '<e>', '<unk>' and then the words of that language's column of
    wmt16/train by decreasing count (ties in order of appearance), cut to dict_size entries; it is built
    in memory (Paddle caches it as a file, and builds the target dictionary from the source column).

    Args:
        data_file: wmt16.tar.gz holding wmt16/train, wmt16/test and wmt16/val, tab-separated English and
            German (default: <data home>/wmt16/; padax does not download).
        mode: 'train' (default), 'test' or 'val'.
        src_dict_size: the source dictionary's size (default -1: every word).
        trg_dict_size: the target dictionary's size (default -1: every word).
        lang: the source language, 'en' (default) or 'de'.
        download: unused (padax never downloads); it only changes the missing-file message.

    Returns:
        The dataset.

    Examples:
        >>> import padax
        >>> try:
        ...     padax.text.WMT16(data_file="/nonexistent/wmt16.tar.gz")
        ... except FileNotFoundError as e:
        ...     print("WMT16" in str(e))
        True
    """

    def __init__(self, data_file: str | None = None, mode: str = "train", src_dict_size: int = -1,
                 trg_dict_size: int = -1, lang: str = "en", download: bool = True) -> None:
        self.mode = check_mode("WMT16", mode, ("train", "test", "val"))
        if lang not in ("en", "de"):
            raise ValueError(f"WMT16: lang must be 'en' or 'de', got {lang!r}")
        self.data_file = locate("WMT16", "data_file", data_file, "wmt16", DATA_URL, download)
        self.lang = lang
        self.src_dict_size = min(src_dict_size, TOTAL_EN_WORDS if lang == "en" else TOTAL_DE_WORDS)
        self.trg_dict_size = min(trg_dict_size, TOTAL_DE_WORDS if lang == "en" else TOTAL_EN_WORDS)
        with tarfile.open(self.data_file, mode="r") as tar:
            self._train = self._pairs(tar, "train")
            rows = self._train if self.mode == "train" else self._pairs(tar, self.mode)
        self._dicts: dict[tuple[str, int], dict[str, int]] = {}
        self.src_dict = self._load_dict(lang, src_dict_size)
        self.trg_dict = self._load_dict("de" if lang == "en" else "en", trg_dict_size)
        self._load_data(rows)

    def _pairs(self, tar: tarfile.TarFile, split: str) -> list[list[str]]:
        try:
            f = tar.extractfile(f"wmt16/{split}")
        except KeyError as e:
            raise ValueError(f"WMT16: {self.data_file!r} holds no wmt16/{split}") from e
        return [p for p in (line.strip().split("\t") for line in f.read().decode().splitlines()) if len(p) == 2]

    def _load_dict(self, lang: str, dict_size: int, reverse: bool = False) -> dict:
        key = (lang, dict_size)
        if key not in self._dicts:
            col = 0 if lang == "en" else 1
            counts: dict[str, int] = collections.defaultdict(int)
            for pair in self._train:
                for w in pair[col].split():
                    counts[w] += 1
            words = [START_MARK, END_MARK, UNK_MARK] + [w for w, _ in sorted(counts.items(), key=lambda x: x[1],
                                                                                reverse=True)]
            if dict_size > 0:
                words = words[:dict_size]
            self._dicts[key] = {w: i for i, w in enumerate(words)}
        d = self._dicts[key]
        return {i: w for w, i in d.items()} if reverse else d

    def _load_data(self, rows: list[list[str]]) -> None:
        start, end, unk = self.src_dict[START_MARK], self.src_dict[END_MARK], self.src_dict[UNK_MARK]
        src_col = 0 if self.lang == "en" else 1
        self.src_ids, self.trg_ids, self.trg_ids_next = [], [], []
        for pair in rows:
            src = [start] + [self.src_dict.get(w, unk) for w in pair[src_col].split()] + [end]
            trg = [self.trg_dict.get(w, unk) for w in pair[1 - src_col].split()]
            self.src_ids.append(src)
            self.trg_ids.append([start, *trg])
            self.trg_ids_next.append([*trg, end])

    def __getitem__(self, idx: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return (np.array(self.src_ids[idx], dtype=np.int64), np.array(self.trg_ids[idx], dtype=np.int64),
                np.array(self.trg_ids_next[idx], dtype=np.int64))

    def __len__(self) -> int:
        return len(self.src_ids)

    def get_dict(self, lang: str, reverse: bool = False) -> dict:
        """The dictionary of `lang` ('en' or 'de'), word -> id, or id -> word with reverse=True."""
        size = self.src_dict_size if lang == self.lang else self.trg_dict_size
        return self._load_dict(lang, size, reverse)
