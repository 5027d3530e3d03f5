"""Datasets with Paddle's names: map-style (`Dataset`, indexed by an int) and iterable (`IterableDataset`).

Datasets live on the host: they return numpy arrays, Python numbers, strings and
dicts/lists/tuples of them, and `padax.io.DataLoader` batches them and puts the
batches on the device. Worker processes only ever run this host code.
"""
from __future__ import annotations

import bisect
import math
import warnings
from typing import Any, Iterable, Iterator, Sequence

import numpy as np

from padax.io.sampler import resolve_rng as _resolve_rng


class Dataset:
    """A map-style dataset: subclasses define `__getitem__(idx)` and `__len__()`.

    Examples:
        >>> import numpy as np
        >>> import padax
        >>> class Squares(padax.io.Dataset):
        ...     def __len__(self):
        ...         return 4
        ...     def __getitem__(self, i):
        ...         return np.float32(i), np.float32(i * i)
        >>> ds = Squares()
        >>> len(ds), [float(v) for v in ds[3]]
        (4, [3.0, 9.0])
        >>> x, y = next(iter(padax.io.DataLoader(ds, batch_size=4)))
        >>> x.tolist(), y.tolist()
        ([0.0, 1.0, 2.0, 3.0], [0.0, 1.0, 4.0, 9.0])
    """

    def __getitem__(self, idx: int) -> Any:
        raise TypeError(f"{type(self).__name__} is a padax.io.Dataset but does not define __getitem__")

    def __len__(self) -> int:
        raise TypeError(f"{type(self).__name__} is a padax.io.Dataset but does not define __len__")


class IterableDataset(Dataset):
    """A stream of samples: subclasses define `__iter__()`.

    With `num_workers > 0` every worker process iterates its own copy of the dataset; split the
    stream with `padax.io.get_worker_info()` (its `id` and `num_workers`) to avoid duplicates.

    Examples:
        >>> import numpy as np
        >>> import padax
        >>> class Count(padax.io.IterableDataset):
        ...     def __iter__(self):
        ...         return iter(np.arange(5, dtype="float32"))
        >>> [b.tolist() for b in padax.io.DataLoader(Count(), batch_size=2)]
        [[0.0, 1.0], [2.0, 3.0], [4.0]]
    """

    def __iter__(self) -> Iterator[Any]:
        raise TypeError(f"{type(self).__name__} is a padax.io.IterableDataset but does not define __iter__")

    def __getitem__(self, idx: int) -> Any:
        raise TypeError(f"{type(self).__name__} is an IterableDataset: it cannot be indexed, only iterated")

    def __len__(self) -> int:
        raise TypeError(f"{type(self).__name__} is an IterableDataset: it has no length")


class TensorDataset(Dataset):
    """Rows of equally long arrays: sample i is `tuple(t[i] for t in tensors)`.

    The arrays (padax Tensors or numpy arrays) are copied to the host once, and samples are
    numpy rows: indexing a device array per sample would cost a device operation each.

    Args:
        tensors: padax Tensors or numpy arrays with the same first dimension.

    Examples:
        >>> import numpy as np
        >>> import padax
        >>> ds = padax.io.TensorDataset([np.arange(6.0).reshape(3, 2), np.array([0, 1, 0])])
        >>> len(ds), [v.tolist() for v in ds[1]]
        (3, [[2.0, 3.0], 1])
    """

    def __init__(self, tensors: Sequence[Any]):
        if not isinstance(tensors, (list, tuple)) or not tensors:
            raise TypeError("TensorDataset: tensors must be a non-empty list or tuple of arrays")
        self.tensors = [np.asarray(t) for t in tensors]
        lengths = [t.shape[0] if t.ndim else None for t in self.tensors]
        if any(n is None for n in lengths) or len(set(lengths)) != 1:
            shapes = ", ".join(str(tuple(t.shape)) for t in self.tensors)
            raise ValueError(f"TensorDataset: all tensors must have the same first dimension, got shapes {shapes}")

    def __getitem__(self, idx: int) -> tuple:
        return tuple(t[idx] for t in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].shape[0]


def _as_list(value: Any) -> list:
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _check_map_style(op: str, datasets: Sequence[Any]) -> list:
    datasets = list(datasets)
    if not datasets:
        raise ValueError(f"{op}: datasets must not be empty")
    for d in datasets:
        if isinstance(d, IterableDataset):
            raise TypeError(f"{op}: takes map-style datasets, got the IterableDataset {type(d).__name__}")
    return datasets


class ComposeDataset(Dataset):
    """Datasets of the same length side by side: sample i concatenates the fields of each one's sample i.

    Args:
        datasets: map-style Datasets of one length.

    Examples:
        >>> import numpy as np
        >>> import padax
        >>> a = padax.io.TensorDataset([np.array([1.0, 2.0])])
        >>> b = padax.io.TensorDataset([np.array([10, 20]), np.array([7, 8])])
        >>> ds = padax.io.ComposeDataset([a, b])
        >>> len(ds), [int(v) for v in ds[1]]
        (2, [2, 20, 8])
    """

    def __init__(self, datasets: Sequence[Dataset]):
        self.datasets = _check_map_style("ComposeDataset", datasets)
        lengths = [len(d) for d in self.datasets]
        if len(set(lengths)) != 1:
            raise ValueError(f"ComposeDataset: the datasets must have the same length, got {lengths}")

    def __len__(self) -> int:
        return len(self.datasets[0])

    def __getitem__(self, idx: int) -> tuple:
        return tuple(field for d in self.datasets for field in _as_list(d[idx]))


class ConcatDataset(Dataset):
    """Datasets one after the other: indices run through the first, then the second, ...

    Args:
        datasets: map-style Datasets.

    Examples:
        >>> import numpy as np
        >>> import padax
        >>> first, second = padax.io.TensorDataset([np.arange(3)]), padax.io.TensorDataset([np.arange(10, 12)])
        >>> ds = padax.io.ConcatDataset([first, second])
        >>> len(ds), int(ds[3][0]), int(ds[-1][0])
        (5, 10, 11)
    """

    def __init__(self, datasets: Iterable[Dataset]):
        self.datasets = _check_map_style("ConcatDataset", datasets)
        self.cumulative_sizes = np.cumsum([len(d) for d in self.datasets]).tolist()

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx: int) -> Any:
        n = len(self)
        if not -n <= idx < n:
            raise IndexError(f"ConcatDataset: index {idx} is out of range for {n} samples")
        idx = idx + n if idx < 0 else idx
        which = bisect.bisect_right(self.cumulative_sizes, idx)
        start = self.cumulative_sizes[which - 1] if which else 0
        return self.datasets[which][idx - start]


class ChainDataset(IterableDataset):
    """IterableDatasets one after the other.

    Args:
        datasets: the IterableDatasets, iterated in order.

    Examples:
        >>> import padax
        >>> class Range(padax.io.IterableDataset):
        ...     def __init__(self, n):
        ...         self.n = n
        ...     def __iter__(self):
        ...         return iter(range(self.n))
        >>> list(padax.io.ChainDataset([Range(2), Range(3)]))
        [0, 1, 0, 1, 2]
    """

    def __init__(self, datasets: Iterable[IterableDataset]):
        self.datasets = list(datasets)
        if not self.datasets:
            raise ValueError("ChainDataset: datasets must not be empty")
        for d in self.datasets:
            if not isinstance(d, IterableDataset):
                raise TypeError(f"ChainDataset: takes IterableDatasets, got {type(d).__name__}")

    def __iter__(self) -> Iterator[Any]:
        for d in self.datasets:
            yield from d


class Subset(Dataset):
    """The samples of `dataset` at `indices`, in that order.

    Args:
        dataset: the Dataset.
        indices: the indices kept, in order.

    Examples:
        >>> import numpy as np
        >>> import padax
        >>> ds = padax.io.Subset(padax.io.TensorDataset([np.arange(10, 15)]), indices=[4, 0])
        >>> len(ds), int(ds[0][0]), int(ds[1][0])
        (2, 14, 10)
    """

    def __init__(self, dataset: Dataset, indices: Sequence[int]):
        self.dataset, self.indices = dataset, indices

    def __getitem__(self, idx: int) -> Any:
        return self.dataset[self.indices[idx]]

    def __len__(self) -> int:
        return len(self.indices)


def _split_lengths(n: int, lengths: Sequence[float]) -> list[int]:
    """Paddle's rule: fractions summing to 1 become floor(n * f), the remainder dealt out round-robin."""
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        for i, frac in enumerate(lengths):
            if not 0 <= frac <= 1:
                raise ValueError(f"random_split: fraction at index {i} is {frac}, not between 0 and 1")
        counts = [int(math.floor(n * frac)) for frac in lengths]
        for i in range(n - sum(counts)):
            counts[i % len(counts)] += 1
        for i, c in enumerate(counts):
            if c == 0:
                warnings.warn(f"random_split: split {i} is empty", stacklevel=3)
        return counts
    counts = [int(x) for x in lengths]
    if any(c != x or c < 0 for c, x in zip(counts, lengths)):
        raise ValueError(f"random_split: lengths must be non-negative integers or fractions summing to 1, "
                         f"got {list(lengths)}")
    if sum(counts) != n:
        raise ValueError(f"random_split: the lengths sum to {sum(counts)} but the dataset has {n} samples")
    return counts


def random_split(dataset: Dataset, lengths: Sequence[float], generator: Any = None) -> list[Subset]:
    """Split `dataset` into non-overlapping random `Subset`s of the given lengths (or fractions summing to 1).

    The permutation comes from `generator` (an int seed or a numpy Generator) or, by default,
    from padax's global seed (`padax.seed`).

    Args:
        lengths: the sizes of the parts (summing to len(dataset)), or fractions summing to 1.
        generator: an int seed or a numpy Generator; None draws the seed from padax's global key.

    Returns:
        A list of Subsets.

    Examples:
        >>> import numpy as np
        >>> import padax
        >>> train, val = padax.io.random_split(padax.io.TensorDataset([np.arange(10)]), [0.8, 0.2], generator=0)
        >>> len(train), len(val)
        (8, 2)
        >>> sorted([int(s[0]) for s in train] + [int(s[0]) for s in val]) == list(range(10))
        True
    """
    counts = _split_lengths(len(dataset), lengths)
    order = _resolve_rng(generator).permutation(sum(counts)).tolist()
    offsets = np.cumsum([0] + counts).tolist()
    return [Subset(dataset, order[a:b]) for a, b in zip(offsets[:-1], offsets[1:])]
