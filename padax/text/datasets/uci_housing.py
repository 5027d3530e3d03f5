"""The UCI Boston housing regression data (housing.data): 13 normalised features and the price."""
from __future__ import annotations

import numpy as np

import padax
from padax.io.dataset import Dataset
from padax.text.datasets._common import check_mode, locate

URL = "http://paddlemodels.bj.bcebos.com/uci_housing/housing.data"
feature_names = ["CRIM", "ZN", "INDUS", "CHAS", "NOX", "RM", "AGE", "DIS", "RAD", "TAX", "PTRATIO", "B", "LSTAT"]


class UCIHousing(Dataset):
    """Boston housing: (features [13], price [1]) in the default float dtype.

    Each feature is centred on its mean and divided by its range over the whole file; the first 80%
    of the rows are 'train', the rest 'test'.

    Args:
        data_file: housing.data, whitespace-separated numbers, 14 per row (default:
            <data home>/uci_housing/; padax does not download).
        mode: 'train' (default) or 'test'.
        download: unused (padax never downloads); it only changes the missing-file message.

    Returns:
        The dataset.

    Examples:
        >>> import os, tempfile, numpy as np, padax
        >>> path = os.path.join(tempfile.mkdtemp(), "housing.data")
        >>> np.savetxt(path, np.arange(70.0).reshape(5, 14))
        >>> x, y = padax.text.UCIHousing(data_file=path)[0]
        >>> x.shape, y.tolist()
        ((13,), [13.0])
    """

    def __init__(self, data_file: str | None = None, mode: str = "train", download: bool = True) -> None:
        self.mode = check_mode("UCIHousing", mode, ("train", "test"))
        self.data_file = locate("UCIHousing", "data_file", data_file, "uci_housing", URL, download)
        self._load_data()
        self.dtype = np.dtype(padax.get_default_dtype())

    def _load_data(self, feature_num: int = 14, ratio: float = 0.8) -> None:
        data = np.fromfile(self.data_file, sep=" ")
        if data.size % feature_num:
            raise ValueError(f"UCIHousing: {self.data_file!r} holds {data.size} numbers, not rows of {feature_num}")
        data = data.reshape(data.size // feature_num, feature_num)
        maximums, minimums, avgs = data.max(axis=0), data.min(axis=0), data.sum(axis=0) / data.shape[0]
        data[:, :-1] = (data[:, :-1] - avgs[:-1]) / (maximums[:-1] - minimums[:-1])
        offset = int(data.shape[0] * ratio)
        self.data = data[:offset] if self.mode == "train" else data[offset:]

    def __getitem__(self, idx: int) -> tuple[np.ndarray, np.ndarray]:
        row = self.data[idx]
        return np.array(row[:-1]).astype(self.dtype), np.array(row[-1:]).astype(self.dtype)

    def __len__(self) -> int:
        return len(self.data)
