"""TESS (Toronto emotional speech set), read from the extracted archive's folder of WAV files."""
from __future__ import annotations

import os
from typing import Any, NamedTuple

from padax.audio.datasets.dataset import AudioClassificationDataset
from padax.vision.datasets._files import locate_dir


class TESS(AudioClassificationDataset):
    """TESS: 2800 utterances named <speaker>_<word>_<emotion>.wav in 7 emotions; a sample is (feature, label).

    The data is the extracted folder TESS_Toronto_emotional_speech_set: pass it as data_dir, or put it at
    <data home>/TESS_Toronto_emotional_speech_set; padax does not download. The files (sorted by path, so
    the folds are the same on every machine) are dealt into n_folds folds in turn; mode 'train' takes
    the folds other than `split`, any other mode the fold `split`.

    Args:
        mode: 'train' (default) or 'dev'.
        n_folds: the number of folds (default 5).
        split: the held-out fold, 1..n_folds (default 1).
        feat_type: 'raw' (default), 'melspectrogram', 'mfcc', 'logmelspectrogram' or 'spectrogram'.
        archive: unused (Paddle's download address).
        data_dir: padax's keyword: the TESS_Toronto_emotional_speech_set folder.
        **kwargs: the feature layer's arguments.

    Returns:
        The dataset.

    Examples:
        >>> import padax
        >>> padax.audio.datasets.TESS.label_list[:3]
        ['angry', 'disgust', 'fear']
    """

    archive = {"url": "https://bj.bcebos.com/paddleaudio/datasets/TESS_Toronto_emotional_speech_set.zip",
               "md5": "1465311b24d1de704c4c63e4ccc470c7"}
    label_list = ["angry", "disgust", "fear", "happy", "neutral", "ps", "sad"]
    audio_path = "TESS_Toronto_emotional_speech_set"

    class meta_info(NamedTuple):
        speaker: str
        word: str
        emotion: str

    def __init__(self, mode: str = "train", n_folds: int = 5, split: int = 1, feat_type: str = "raw",
                 archive: dict | None = None, data_dir: str | None = None, **kwargs: Any) -> None:
        if not isinstance(n_folds, int) or n_folds < 1:
            raise ValueError(f"TESS: n_folds must be an int >= 1, got {n_folds!r}")
        if split not in range(1, n_folds + 1):
            raise ValueError(f"TESS: split must be an int in 1..{n_folds}, got {split!r}")
        if archive is not None:
            self.archive = archive
        self.data_dir = locate_dir("TESS", "data_dir", data_dir, self.audio_path, self.archive["url"])
        files, labels = self._get_data(mode, n_folds, split)
        super().__init__(files=files, labels=labels, feat_type=feat_type, **kwargs)

    def _get_meta_info(self, files: list[str]) -> list:
        return [self.meta_info(*os.path.basename(f)[:-4].split("_")) for f in files]

    def _get_data(self, mode: str, n_folds: int, split: int) -> tuple[list[str], list[int]]:
        wav_files = sorted(os.path.join(root, f) for root, _, names in os.walk(self.data_dir)
                           for f in names if f.endswith(".wav"))
        files, labels = [], []
        for idx, sample in enumerate(self._get_meta_info(wav_files)):
            fold = idx % n_folds + 1
            if (mode == "train") == (fold != split):
                files.append(wav_files[idx])
                labels.append(self.label_list.index(sample.emotion))
        return files, labels
