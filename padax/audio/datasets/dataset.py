"""The audio classification dataset base: (feature, label) samples from a list of audio files."""
from __future__ import annotations

from typing import Any

import padax
from padax.audio import backends
from padax.audio.features import MFCC, LogMelSpectrogram, MelSpectrogram, Spectrogram
from padax.io.dataset import Dataset

FEAT_FUNCS = {"raw": None, "melspectrogram": MelSpectrogram, "mfcc": MFCC, "logmelspectrogram": LogMelSpectrogram,
              "spectrogram": Spectrogram}


class AudioClassificationDataset(Dataset):
    """Audio files with integer labels; a sample is (feature, label), the feature the raw waveform [T]
    (feat_type='raw') or a feature layer's output for it, built with `**kwargs` (and sr= the file's rate).

    Args:
        files: the audio file paths.
        labels: one int label per file.
        feat_type: 'raw', 'melspectrogram', 'mfcc', 'logmelspectrogram' or 'spectrogram'.
        sample_rate: unused until a file is read (it becomes that file's rate).
        **kwargs: the feature layer's arguments (n_fft=, n_mels=, ...).

    Returns:
        The dataset.

    Examples:
        >>> import os, tempfile, padax
        >>> from padax.audio.datasets.dataset import AudioClassificationDataset
        >>> path = os.path.join(tempfile.mkdtemp(), "a.wav")
        >>> padax.audio.save(path, padax.zeros([1, 64]), 8000)
        >>> feat, label = AudioClassificationDataset([path], [3])[0]
        >>> feat.shape, label
        ((64,), 3)
    """

    def __init__(self, files: list[str], labels: list[int], feat_type: str = "raw", sample_rate: int | None = None,
                 **kwargs: Any) -> None:
        if feat_type not in FEAT_FUNCS:
            raise ValueError(f"{type(self).__name__}: unknown feat_type {feat_type!r}; one of {list(FEAT_FUNCS)}")
        self.files, self.labels = list(files), list(labels)
        self.feat_type, self.sample_rate, self.feat_config = feat_type, sample_rate, kwargs
        self._extractors: dict[int, Any] = {}          # one feature layer per sample rate met

    def _convert_to_record(self, idx: int) -> tuple[Any, int]:
        waveform, self.sample_rate = backends.load(self.files[idx])
        if waveform.ndim == 2:
            waveform = waveform[0]
        waveform = waveform.astype(padax.float32)
        feat_func = FEAT_FUNCS[self.feat_type]
        if feat_func is None:
            return waveform, self.labels[idx]
        if self.sample_rate not in self._extractors:
            config = dict(self.feat_config) if self.feat_type == "spectrogram" else {"sr": self.sample_rate,
                                                                                      **self.feat_config}
            self._extractors[self.sample_rate] = feat_func(**config)
        return self._extractors[self.sample_rate](waveform[None])[0], self.labels[idx]

    def __getitem__(self, idx: int) -> tuple[Any, int]:
        return self._convert_to_record(idx)

    def __len__(self) -> int:
        return len(self.files)


