"""Batch samplers with Paddle's names: iterables of lists of indices (one list per batch)."""
from __future__ import annotations

import math
from typing import Any, Iterable, Iterator

import numpy as np

import padax
from padax.io.dataset import IterableDataset
from padax.io.sampler import RandomSampler, Sampler, SequenceSampler, _check_bool, _check_positive_int


def _batches(indices: Iterable[int], batch_size: int, drop_last: bool) -> Iterator[list[int]]:
    batch: list[int] = []
    for idx in indices:
        batch.append(idx)
        if len(batch) == batch_size:
            yield batch
            batch = []
    if batch and not drop_last:
        yield batch


class BatchSampler(Sampler):
    """Groups a sampler's indices into lists of `batch_size`.

    Give either `dataset` (then `shuffle` picks a RandomSampler or a SequenceSampler) or a
    `sampler` (any iterable of indices).

    Args:
        dataset: a Dataset to sample from (give this or `sampler`).
        sampler: an iterable of indices.
        shuffle: with `dataset`, a random order each epoch.
        batch_size: the indices per batch.
        drop_last: drop a last batch shorter than batch_size.

    Returns:
        iter(sampler): lists of indices; len(sampler): the number of batches.

    Examples:
        >>> import padax
        >>> list(padax.io.BatchSampler(dataset=range(5), batch_size=2))
        [[0, 1], [2, 3], [4]]
        >>> list(padax.io.BatchSampler(dataset=range(5), batch_size=2, drop_last=True))
        [[0, 1], [2, 3]]
    """

    def __init__(self, dataset: Any = None, sampler: Any = None, shuffle: bool = False, batch_size: int = 1,
                 drop_last: bool = False):
        if dataset is None:
            if sampler is None:
                raise ValueError("BatchSampler: give a dataset or a sampler")
            if shuffle:
                raise ValueError("BatchSampler: shuffle must be False when a sampler is given "
                                 "(the sampler decides the order)")
            self.sampler = sampler
        else:
            if sampler is not None:
                raise ValueError("BatchSampler: give a dataset or a sampler, not both")
            if isinstance(dataset, IterableDataset):
                raise TypeError("BatchSampler: an IterableDataset has no indices to sample")
            shuffle = _check_bool("BatchSampler", "shuffle", shuffle)
            self.sampler = RandomSampler(dataset) if shuffle else SequenceSampler(dataset)
        super().__init__(dataset)
        self.batch_size = _check_positive_int("BatchSampler", "batch_size", batch_size)
        self.shuffle = shuffle
        self.drop_last = _check_bool("BatchSampler", "drop_last", drop_last)

    def __iter__(self) -> Iterator[list[int]]:
        # iter() of the sampler now, not at the first next(): its random order is drawn here
        return _batches(iter(self.sampler), self.batch_size, self.drop_last)

    def __len__(self) -> int:
        n = len(self.sampler)
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)

    def state_dict(self) -> dict:
        inner = getattr(self.sampler, "state_dict", None)
        return {"sampler": inner()} if callable(inner) else {}

    def set_state_dict(self, state: dict) -> None:
        if "sampler" in state:
            self.sampler.set_state_dict(state["sampler"])


class DistributedBatchSampler(BatchSampler):
    """The share of the batches that belongs to replica `rank` of `num_replicas` (data parallelism).

    The dataset is padded (by repeating it from the start) to a multiple of `num_replicas`;
    each global batch of `batch_size * num_replicas` indices gives `batch_size` consecutive ones
    to each replica. With `shuffle`, epoch e's order is numpy's RandomState(e) shuffle (Paddle's,
    the same on every replica), and the epoch advances after each iteration; `set_epoch` sets it.
    `num_replicas`/`rank` default to padax's process count and index.

    Args:
        dataset: the Dataset (only its length is used).
        batch_size: the indices per batch on each replica.
        num_replicas, rank: the replica count and this replica's index (None: the process count and index).
        shuffle: a new order each epoch (the same on every replica).
        drop_last: drop a last batch shorter than batch_size.

    Returns:
        iter(sampler): this replica's lists of indices; len(sampler): their number.

    Examples:
        >>> import padax
        >>> list(padax.io.DistributedBatchSampler(range(10), batch_size=2, num_replicas=2, rank=0))
        [[0, 1], [4, 5], [8]]
        >>> list(padax.io.DistributedBatchSampler(range(10), batch_size=2, num_replicas=2, rank=1))
        [[2, 3], [6, 7], [9]]
    """

    def __init__(self, dataset: Any, batch_size: int, num_replicas: int | None = None, rank: int | None = None,
                 shuffle: bool = False, drop_last: bool = False):
        self.dataset = self.data_source = dataset
        self.sampler = None
        self.batch_size = _check_positive_int("DistributedBatchSampler", "batch_size", batch_size)
        self.shuffle = _check_bool("DistributedBatchSampler", "shuffle", shuffle)
        self.drop_last = _check_bool("DistributedBatchSampler", "drop_last", drop_last)
        if num_replicas is None or rank is None:
            num_replicas = padax.process_count() if num_replicas is None else num_replicas
            rank = padax.process_index() if rank is None else rank
        self.nranks = _check_positive_int("DistributedBatchSampler", "num_replicas", num_replicas)
        if isinstance(rank, bool) or not isinstance(rank, (int, np.integer)) or not 0 <= rank < self.nranks:
            raise ValueError(f"DistributedBatchSampler: rank must be an integer in [0, {self.nranks}), got {rank!r}")
        self.local_rank = int(rank)
        self.epoch = 0
        self.num_samples = int(math.ceil(len(dataset) / self.nranks))
        self.total_size = self.num_samples * self.nranks

    def _local_indices(self) -> list[int]:
        indices = np.resize(np.arange(len(self.dataset)), self.total_size).tolist()
        if self.shuffle:
            np.random.RandomState(self.epoch).shuffle(indices)
            self.epoch += 1
        if self.nranks == 1:
            return indices
        bs, r = self.batch_size, self.local_rank
        step = bs * self.nranks
        full = self.total_size - self.total_size % step
        mine = [i for start in range(r * bs, full, step) for i in indices[start:start + bs]]
        tail = indices[full:]
        share = len(tail) // self.nranks
        return mine + tail[r * share:(r + 1) * share]

    def __iter__(self) -> Iterator[list[int]]:
        return _batches(self._local_indices(), self.batch_size, self.drop_last)

    def __len__(self) -> int:
        n = self.num_samples
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)

    def set_epoch(self, epoch: int) -> None:
        """Make the next iteration use epoch `epoch`'s shuffle (call it at each epoch's start, as in Paddle)."""
        self.epoch = int(epoch)

    def state_dict(self) -> dict:
        return {"epoch": self.epoch}

    def set_state_dict(self, state: dict) -> None:
        self.epoch = int(state["epoch"])
