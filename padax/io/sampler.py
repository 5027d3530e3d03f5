"""Samplers with Paddle's names: iterables of dataset indices, resumable by `state_dict`/`set_state_dict`.

Random samplers draw one base seed (from an explicit `generator`, or else from padax's
global key, `padax.seed`) the first time they are iterated or asked for their state,
and derive each epoch's order from (base seed, epoch). So a sampler's whole future
is its state `{"seed", "epoch"}`: `set_state_dict` of a saved state replays the
same orders, which is what resumable checkpoints need.
"""
from __future__ import annotations

import numbers
from typing import Any, Iterator, Sequence

import numpy as np

import padax

_SEED_BOUND = 2 ** 62


def global_seed() -> int:
    """A fresh seed drawn from padax's global key (reproducible after `padax.seed(s)`)."""
    return int(padax.randint(0, _SEED_BOUND, [1], dtype="int64").numpy()[0])


def resolve_rng(generator: Any) -> np.random.Generator:
    """A numpy Generator from an int seed, a numpy Generator, or None (a seed from padax's global key)."""
    if isinstance(generator, np.random.Generator):
        return generator
    return np.random.default_rng(_seed_from(generator, "generator"))


def _seed_from(generator: Any, where: str) -> int:
    if generator is None:
        return global_seed()
    if isinstance(generator, (bool, np.bool_)) or not isinstance(generator, (numbers.Integral, np.random.Generator)):
        raise TypeError(f"{where}: expected an int seed, a numpy.random.Generator or None, "
                        f"got {type(generator).__name__}")
    if isinstance(generator, np.random.Generator):
        return int(generator.integers(_SEED_BOUND))
    return int(generator)


class Sampler:
    """Base class: an iterable of indices into `data_source`. Subclasses define `__iter__` (and `__len__`).

    Args:
        data_source: the dataset indexed (subclasses use its length).

    Examples:
        >>> import padax
        >>> class EvenFirst(padax.io.Sampler):
        ...     def __iter__(self):
        ...         n = len(self.data_source)
        ...         return iter(list(range(0, n, 2)) + list(range(1, n, 2)))
        ...     def __len__(self):
        ...         return len(self.data_source)
        >>> list(EvenFirst(range(5)))
        [0, 2, 4, 1, 3]
        >>> list(padax.io.BatchSampler(sampler=EvenFirst(range(5)), batch_size=2))
        [[0, 2], [4, 1], [3]]
    """

    def __init__(self, data_source: Any = None):
        self.data_source = data_source

    def state_dict(self) -> dict:
        """What the next `iter()` starts from (empty for a deterministic sampler)."""
        return {}

    def set_state_dict(self, state: dict) -> None:
        """Restore a `state_dict()`: the next `iter()` gives what it would have given then."""


class SequenceSampler(Sampler):
    """0, 1, ..., len(data_source) - 1.

    Args:
        data_source: the dataset (its length sets the range).

    Examples:
        >>> import padax
        >>> list(padax.io.SequenceSampler(range(4)))
        [0, 1, 2, 3]
    """

    def __init__(self, data_source: Any):
        super().__init__(data_source)

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class _EpochSeeded(Sampler):
    """A sampler whose epoch-e order is a function of (base seed, e); its state is {"seed", "epoch"}."""

    def _init_seed(self, generator: Any) -> None:
        self.generator = generator
        self._seed: int | None = None
        self.epoch = 0

    def _ensure_seed(self) -> int:
        if self._seed is None:
            self._seed = _seed_from(self.generator, type(self).__name__)
        return self._seed

    def _next_epoch_rng(self) -> np.random.Generator:
        """The generator of the epoch about to be iterated (the epoch counter then advances)."""
        rng = np.random.default_rng([self._ensure_seed(), self.epoch])
        self.epoch += 1
        return rng

    def set_epoch(self, epoch: int) -> None:
        """Make the next iteration epoch `epoch`'s order."""
        self.epoch = int(epoch)

    def state_dict(self) -> dict:
        return {"seed": self._ensure_seed(), "epoch": self.epoch}

    def set_state_dict(self, state: dict) -> None:
        self._seed, self.epoch = int(state["seed"]), int(state["epoch"])


def _check_positive_int(op: str, name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value <= 0:
        raise ValueError(f"{op}: {name} must be a positive integer, got {value!r}")
    return int(value)


def _check_bool(op: str, name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{op}: {name} must be a bool, got {value!r}")
    return value


class RandomSampler(_EpochSeeded):
    """A random order of the dataset's indices each epoch (with `replacement`, `num_samples` draws).

    `generator` is an int seed or a numpy Generator (the base seed is drawn from it once), None
    (padax's global key), or, as in Paddle, an iterator that yields the indices itself.

    Args:
        data_source: the dataset.
        replacement: draw with replacement.
        num_samples: the draws per epoch (None: len(data_source); at most that without replacement).
        generator: an int seed, a numpy Generator, None (padax's global key), or an iterator of indices.

    Examples:
        >>> import padax
        >>> s = padax.io.RandomSampler(range(5), generator=0)
        >>> sorted(s), len(s)
        ([0, 1, 2, 3, 4], 5)
        >>> len(padax.io.RandomSampler(range(5), replacement=True, num_samples=8, generator=0))
        8
    """

    def __init__(self, data_source: Any, replacement: bool = False, num_samples: int | None = None,
                 generator: Any = None):
        super().__init__(data_source)
        self.replacement = _check_bool("RandomSampler", "replacement", replacement)
        self._num_samples = None if num_samples is None else _check_positive_int("RandomSampler", "num_samples",
                                                                                  num_samples)
        if not replacement and self.num_samples > len(data_source):
            raise ValueError(f"RandomSampler: num_samples ({self.num_samples}) must be at most the dataset's length "
                             f"({len(data_source)}) when replacement=False")
        self._index_iterator = generator if _yields_indices(generator) else None
        self._init_seed(None if self._index_iterator is not None else generator)

    @property
    def num_samples(self) -> int:
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self) -> Iterator[int]:
        if self._index_iterator is not None:
            return _take(self._index_iterator, self.num_samples)
        n, rng = len(self.data_source), self._next_epoch_rng()
        if self.replacement:
            return iter(rng.integers(0, n, self.num_samples).tolist())
        return iter(rng.permutation(n)[:self.num_samples].tolist())

    def __len__(self) -> int:
        return self.num_samples


def _yields_indices(generator: Any) -> bool:
    return generator is not None and hasattr(generator, "__next__") and not isinstance(generator, np.random.Generator)


def _take(it: Iterator[int], n: int) -> Iterator[int]:
    for _, index in zip(range(n), it):
        yield index


class WeightedRandomSampler(_EpochSeeded):
    """`num_samples` indices drawn with probability proportional to `weights` (1-D; a 2-D array draws
    `num_samples` per row, one after the other).

    Args:
        weights: non-negative 1-D weights (or 2-D: one distribution per row).
        num_samples: the draws per epoch (per row).
        replacement: draw with replacement.
        generator: an int seed, a numpy Generator or None (padax's global key).

    Examples:
        >>> import padax
        >>> draws = list(padax.io.WeightedRandomSampler([0.0, 1.0, 0.0, 3.0], num_samples=6, generator=0))
        >>> len(draws), sorted(set(draws))
        (6, [1, 3])
    """

    def __init__(self, weights: Any, num_samples: int, replacement: bool = True, generator: Any = None):
        super().__init__(None)
        self.num_samples = _check_positive_int("WeightedRandomSampler", "num_samples", num_samples)
        self.replacement = _check_bool("WeightedRandomSampler", "replacement", replacement)
        w = np.asarray(weights, dtype=np.float64)
        if w.ndim not in (1, 2) or w.shape[-1] == 0:
            raise ValueError(f"WeightedRandomSampler: weights must be a non-empty 1-D or 2-D array, "
                             f"got shape {w.shape}")
        w = w.reshape(-1, w.shape[-1])
        if not np.all(np.isfinite(w)) or np.any(w < 0):
            raise ValueError("WeightedRandomSampler: weights must be finite and non-negative")
        positive = (w > 0).sum(axis=1)
        if np.any(positive == 0):
            raise ValueError("WeightedRandomSampler: every row of weights needs a positive entry")
        if not replacement and np.any(positive < num_samples):
            raise ValueError(f"WeightedRandomSampler: replacement=False needs at least num_samples "
                             f"({num_samples}) positive weights per row, got {positive.min()}")
        self.weights = weights
        self._probs = w / w.sum(axis=1, keepdims=True)
        self._init_seed(generator)

    def __iter__(self) -> Iterator[int]:
        rng = self._next_epoch_rng()
        n = self._probs.shape[1]
        rows = [rng.choice(n, self.num_samples, replace=self.replacement, p=p) for p in self._probs]
        return iter(np.concatenate(rows).tolist())

    def __len__(self) -> int:
        return self.num_samples * self._probs.shape[0]


class SubsetRandomSampler(_EpochSeeded):
    """The given indices in a random order each epoch.

    Args:
        indices: the indices permuted.
        generator: an int seed, a numpy Generator or None (padax's global key).

    Examples:
        >>> import padax
        >>> sorted(padax.io.SubsetRandomSampler([3, 7, 9], generator=0))
        [3, 7, 9]
    """

    def __init__(self, indices: Sequence[int], generator: Any = None):
        super().__init__(None)
        if len(indices) == 0:
            raise ValueError("SubsetRandomSampler: indices must not be empty")
        self.indices = indices
        self._init_seed(generator)

    def __iter__(self) -> Iterator[int]:
        order = self._next_epoch_rng().permutation(len(self.indices))
        return iter([self.indices[i] for i in order])

    def __len__(self) -> int:
        return len(self.indices)
