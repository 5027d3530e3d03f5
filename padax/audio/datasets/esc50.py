"""ESC-50 environmental sound classification, read from the extracted ESC-50-master archive."""
from __future__ import annotations

import os
from typing import Any, NamedTuple

from padax.audio.datasets.dataset import AudioClassificationDataset
from padax.vision.datasets._files import locate_dir

_CATEGORIES = (
    "Dog, Rooster, Pig, Cow, Frog, Cat, Hen, Insects (flying), Sheep, Crow, Rain, Sea waves, Crackling fire, "
    "Crickets, Chirping birds, Water drops, Wind, Pouring water, Toilet flush, Thunderstorm, Crying baby, Sneezing, "
    "Clapping, Breathing, Coughing, Footsteps, Laughing, Brushing teeth, Snoring, Drinking| sipping, Door knock, "
    "Mouse click, Keyboard typing, Door| wood creaks, Can opening, Washing machine, Vacuum cleaner, Clock alarm, "
    "Clock tick, Glass breaking, Helicopter, Chainsaw, Siren, Car horn, Engine, Train, Church bells, Airplane, "
    "Fireworks, Hand saw")


class ESC50(AudioClassificationDataset):
    """ESC-50: 2000 five-second clips in 50 classes, in 5 folds; a sample is (feature, label int).

    The data is the extracted archive ESC-50-master (meta/esc50.csv and audio/*.wav): pass its folder
    as data_dir, or put it at <data home>/ESC-50-master (padax.vision.datasets.data_home()); padax does not
    download. mode 'train' takes the folds other than `split`, any other mode the fold `split`.

    Args:
        mode: 'train' (default) or 'dev'.
        split: the held-out fold, 1..5 (default 1).
        feat_type: 'raw' (default), 'melspectrogram', 'mfcc', 'logmelspectrogram' or 'spectrogram'.
        archive: unused (Paddle's download address).
        data_dir: padax's keyword: the ESC-50-master folder.
        **kwargs: the feature layer's arguments.

    Returns:
        The dataset.

    Examples:
        >>> import padax
        >>> try:
        ...     padax.audio.datasets.ESC50(data_dir="/nonexistent/ESC-50-master")
        ... except FileNotFoundError as e:
        ...     print("does not download" in str(e))
        True
    """

    archive = {"url": "https://paddleaudio.bj.bcebos.com/datasets/ESC-50-master.zip",
               "md5": "7771e4b9d86d0945acce719c7a59305a"}
    label_list = [c.strip().replace("|", ",") for c in _CATEGORIES.split(",")]
    meta = os.path.join("meta", "esc50.csv")
    audio_path = "audio"
    FOLDER = "ESC-50-master"

    class meta_info(NamedTuple):
        filename: str
        fold: str
        target: str
        category: str
        esc10: str
        src_file: str
        take: str

    def __init__(self, mode: str = "train", split: int = 1, feat_type: str = "raw", archive: dict | None = None,
                 data_dir: str | None = None, **kwargs: Any) -> None:
        if split not in range(1, 6):
            raise ValueError(f"ESC50: split must be an int in 1..5, got {split!r}")
        if archive is not None:
            self.archive = archive
        self.data_dir = locate_dir("ESC50", "data_dir", data_dir, self.FOLDER, self.archive["url"],
                                   (self.meta, self.audio_path))
        files, labels = self._get_data(mode, split)
        super().__init__(files=files, labels=labels, feat_type=feat_type, **kwargs)

    def _get_meta_info(self) -> list:
        with open(os.path.join(self.data_dir, self.meta)) as f:
            lines = f.read().splitlines()[1:]
        return [self.meta_info(*line.strip().split(",")) for line in lines if line.strip()]

    def _get_data(self, mode: str, split: int) -> tuple[list[str], list[int]]:
        files, labels = [], []
        for sample in self._get_meta_info():
            if (mode == "train") == (int(sample.fold) != split):
                files.append(os.path.join(self.data_dir, self.audio_path, sample.filename))
                labels.append(int(sample.target))
        return files, labels
