"""CoNLL-2005 semantic role labelling (the WSJ test section of conll05st-tests.tar.gz)."""
from __future__ import annotations

import gzip
import tarfile

import numpy as np

from padax.io.dataset import Dataset
from padax.text.datasets._common import locate

DATA_URL = "http://paddlemodels.bj.bcebos.com/conll05st/conll05st-tests.tar.gz"
WORDDICT_URL = "http://paddlemodels.bj.bcebos.com/conll05st%2FwordDict.txt"
VERBDICT_URL = "http://paddlemodels.bj.bcebos.com/conll05st%2FverbDict.txt"
TRGDICT_URL = "http://paddlemodels.bj.bcebos.com/conll05st%2FtargetDict.txt"
EMB_URL = "http://paddlemodels.bj.bcebos.com/conll05st%2Femb"
UNK_IDX = 0
_WORDS = "conll05st-release/test.wsj/words/test.wsj.words.gz"
_PROPS = "conll05st-release/test.wsj/props/test.wsj.props.gz"


def _bio(column: list[str]) -> list[str]:
    """One predicate's bracketed argument column ('(A0*', '*', '*)', '(V*)') as B-/I-/O tags."""
    tags, tag, inside = [], "O", False
    for mark in column:
        if mark == "*":
            tags.append("I-" + tag if inside else "O")
        elif mark == "*)":
            tags.append("I-" + tag)
            inside = False
        elif "(" in mark:
            tag = mark[1:mark.find("*")]
            tags.append("B-" + tag)
            inside = ")" not in mark
        else:
            raise ValueError(f"Conll05st: unexpected label {mark!r}")
    return tags


class Conll05st(Dataset):
    """CoNLL-05 SRL: one sample per (sentence, predicate): 9 int64 arrays of the sentence's length: word ids,
    the ids of the words two before, one before, at, one after and two after the predicate (repeated),
    the predicate's id (repeated), the mark of the 5-word window around the predicate, and the tag ids.

    The label dictionary numbers B-X, I-X for each tag X of targetDict.txt (sorted; Paddle uses set order,
    which changes between runs), then 'O'. Unknown words are id 0.

    Args:
        data_file: conll05st-tests.tar.gz (default: <data home>/conll05st/; padax does not download).
        word_dict_file: wordDict.txt, one word per line.
        verb_dict_file: verbDict.txt, one predicate per line.
        target_dict_file: targetDict.txt, one tag (B-X / I-X / O) per line.
        emb_file: the embedding file (only its path is kept: `get_embedding`).
        download: unused (padax never downloads); it only changes the missing-file message.

    Returns:
        The dataset.

    Examples:
        >>> import padax
        >>> try:
        ...     padax.text.Conll05st(data_file="/nonexistent/conll05st-tests.tar.gz")
        ... except FileNotFoundError as e:
        ...     print("Conll05st" in str(e))
        True
    """

    def __init__(self, data_file: str | None = None, word_dict_file: str | None = None,
                 verb_dict_file: str | None = None, target_dict_file: str | None = None, emb_file: str | None = None,
                 download: bool = True) -> None:
        name = "Conll05st"
        self.data_file = locate(name, "data_file", data_file, "conll05st", DATA_URL, download)
        self.word_dict_file = locate(name, "word_dict_file", word_dict_file, "conll05st", WORDDICT_URL, download)
        self.verb_dict_file = locate(name, "verb_dict_file", verb_dict_file, "conll05st", VERBDICT_URL, download)
        self.target_dict_file = locate(name, "target_dict_file", target_dict_file, "conll05st", TRGDICT_URL,
                                       download)
        self.emb_file = locate(name, "emb_file", emb_file, "conll05st", EMB_URL, download)
        self.word_dict = self._load_dict(self.word_dict_file)
        self.predicate_dict = self._load_dict(self.verb_dict_file)
        self.label_dict = self._load_label_dict(self.target_dict_file)
        self._load_anno()

    @staticmethod
    def _load_dict(filename: str) -> dict[str, int]:
        with open(filename) as f:
            return {line.strip(): i for i, line in enumerate(f)}

    @staticmethod
    def _load_label_dict(filename: str) -> dict[str, int]:
        with open(filename) as f:
            tags = sorted({line.strip()[2:] for line in f if line.strip().startswith(("B-", "I-"))})
        d = {}
        for tag in tags:
            d["B-" + tag], d["I-" + tag] = len(d), len(d) + 1
        d["O"] = len(d)
        return d

    def _load_anno(self) -> None:
        self.sentences, self.predicates, self.labels = [], [], []
        with tarfile.open(self.data_file) as tar:
            words = gzip.decompress(tar.extractfile(_WORDS).read()).decode().splitlines()
            props = gzip.decompress(tar.extractfile(_PROPS).read()).decode().splitlines()
        sentence, rows = [], []
        for word, prop in zip(words, props):
            cols = prop.strip().split()
            if cols:
                sentence.append(word.strip())
                rows.append(cols)
                continue
            if rows:                                   # a blank line ends a sentence
                columns = [[r[i] for r in rows] for i in range(len(rows[0]))]
                verbs = [v for v in columns[0] if v != "-"]
                for i, column in enumerate(columns[1:]):
                    self.sentences.append(sentence)
                    self.predicates.append(verbs[i])
                    self.labels.append(_bio(column))
            sentence, rows = [], []

    def __getitem__(self, idx: int) -> tuple[np.ndarray, ...]:
        sentence, predicate, labels = self.sentences[idx], self.predicates[idx], self.labels[idx]
        n = len(sentence)
        v = labels.index("B-V")
        mark = [0] * len(labels)
        for k in range(max(v - 2, 0), min(v + 3, len(labels))):
            mark[k] = 1
        ctx = [sentence[v + d] if 0 <= v + d < len(labels) else ("bos" if d < 0 else "eos") for d in (-2, -1, 0, 1, 2)]
        wid = self.word_dict.get
        out = [[wid(w, UNK_IDX) for w in sentence]] + [[wid(c, UNK_IDX)] * n for c in ctx]
        out += [[self.predicate_dict.get(predicate)] * n, mark, [self.label_dict.get(t) for t in labels]]
        return tuple(np.array(o, dtype=np.int64) for o in out)

    def __len__(self) -> int:
        return len(self.sentences)

    def get_dict(self) -> tuple[dict, dict, dict]:
        """(word_dict, predicate_dict, label_dict)."""
        return self.word_dict, self.predicate_dict, self.label_dict

    def get_embedding(self) -> str:
        """The path of the embedding file."""
        return self.emb_file
