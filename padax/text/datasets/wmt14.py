"""WMT'14 English-French translation (the preprocessed wmt14.tgz with its dictionaries)."""
from __future__ import annotations

import tarfile

import numpy as np

from padax.io.dataset import Dataset
from padax.text.datasets._common import check_mode, locate

URL_TRAIN = "http://paddlemodels.bj.bcebos.com/wmt/wmt14.tgz"
START, END, UNK = "<s>", "<e>", "<unk>"
UNK_IDX = 2


class WMT14(Dataset):
    """WMT'14 en-fr: (src ids, trg ids, trg ids next) int64 arrays: '<s>' src '<e>', '<s>' trg, trg '<e>'.

    The archive holds src.dict, trg.dict (one word per line, the line number is the id) and the
    tab-separated parallel files <mode>/<mode>; pairs whose source (with markers) or target exceed 80
    words are dropped, unknown words are id 2.

    Args:
        data_file: wmt14.tgz (default: <data home>/wmt14/; padax does not download).
        mode: 'train' (default), 'test' or 'gen'.
        dict_size: the number of dictionary lines kept (default -1: all of them).
        download: unused (padax never downloads); it only changes the missing-file message.

    Returns:
        The dataset.

    Examples:
        >>> import padax
        >>> try:
        ...     padax.text.WMT14(data_file="/nonexistent/wmt14.tgz")
        ... except FileNotFoundError as e:
        ...     print("WMT14" in str(e))
        True
    """

    def __init__(self, data_file: str | None = None, mode: str = "train", dict_size: int = -1,
                 download: bool = True) -> None:
        self.mode = check_mode("WMT14", mode, ("train", "test", "gen"))
        self.data_file = locate("WMT14", "data_file", data_file, "wmt14", URL_TRAIN, download)
        self.dict_size = dict_size
        self._load_data()

    def _load_data(self) -> None:
        def to_dict(fd) -> dict[str, int]:
            lines = fd.read().splitlines()
            if self.dict_size > 0:
                lines = lines[:self.dict_size]
            return {line.strip().decode(): i for i, line in enumerate(lines)}

        self.src_ids, self.trg_ids, self.trg_ids_next = [], [], []
        with tarfile.open(self.data_file, mode="r") as tar:
            members = tar.getmembers()

            def named(suffix):
                return [m for m in members if m.name.endswith(suffix)]

            for what in ("src.dict", "trg.dict"):
                if not named(what):
                    raise ValueError(f"WMT14: {self.data_file!r} holds no {what}")
            self.src_dict = to_dict(tar.extractfile(named("src.dict")[0]))
            self.trg_dict = to_dict(tar.extractfile(named("trg.dict")[0]))
            for member in named(f"{self.mode}/{self.mode}"):
                for line in tar.extractfile(member).read().decode().splitlines():
                    parts = line.strip().split("\t")
                    if len(parts) != 2:
                        continue
                    src = [self.src_dict.get(w, UNK_IDX) for w in [START, *parts[0].split(), END]]
                    trg = [self.trg_dict.get(w, UNK_IDX) for w in parts[1].split()]
                    if len(src) > 80 or len(trg) > 80:
                        continue
                    self.src_ids.append(src)
                    self.trg_ids.append([self.trg_dict[START], *trg])
                    self.trg_ids_next.append([*trg, self.trg_dict[END]])

    def __getitem__(self, idx: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return (np.array(self.src_ids[idx], dtype=np.int64), np.array(self.trg_ids[idx], dtype=np.int64),
                np.array(self.trg_ids_next[idx], dtype=np.int64))

    def __len__(self) -> int:
        return len(self.src_ids)

    def get_dict(self, reverse: bool = False) -> tuple[dict, dict]:
        """The (source, target) dictionaries, word -> id, or id -> word with reverse=True."""
        if reverse:
            return {v: k for k, v in self.src_dict.items()}, {v: k for k, v in self.trg_dict.items()}
        return self.src_dict, self.trg_dict
