"""`padax.io.DataLoader`: batches from a dataset, loaded by worker processes and already on the device.

    loader = DataLoader(dataset, batch_size=64, shuffle=True, drop_last=True, num_workers=2)
    for epoch in range(epochs):
        for images, labels in loader:          # Tensors on the default device (or on `sharding`)
            params, opt_state, loss = train_step(params, opt_state, images, labels)

How it works. Samples are fetched and collated on the host, in the main process
(num_workers=0) or in worker processes (started with 'forkserver', see padax.io._pool),
`prefetch_factor` batches ahead per worker. A background thread then puts the next
`reader_buffer_size` batches on the device (a Device, or a Sharding to split each batch over
devices for data parallelism) while the current step runs (Paddle's `use_buffer_reader`).
Batches come out in the sampler's order whatever the number of workers.

Randomness. Shuffling draws its seed from padax's global key (`padax.seed`) at the first epoch;
each epoch's order then follows from (seed, epoch). Workers seed Python's and numpy's global
generators before each batch from (loader seed, epoch, batch number), so random augmentations
are the same for any num_workers > 0 and after resuming.

Resuming. `state_dict()` is the loader's position (epoch, batches consumed, sampler state);
`set_state_dict(state)` makes the next iteration continue from exactly there.

Workers never outlive their loader: they stop at the end of an epoch (or, with
persistent_workers, when the loader is collected), when the iterator is closed or collected,
on an error or KeyboardInterrupt, and at interpreter exit; they also exit on their own when the
main process dies. An error in a worker is re-raised in the main process (as its own type where
possible) with the worker's traceback in a note.
"""
from __future__ import annotations

import functools
import itertools
import threading
import weakref
from typing import Any, Callable, Iterator

import numpy as np

from padax.io import _pool
from padax.io._fetch import Fetcher
from padax.io.batch_sampler import BatchSampler
from padax.io.collate import default_collate_fn, default_convert_fn
from padax.io.dataset import IterableDataset
from padax.io.device import Prefetcher, resolve_target, to_device
from padax.io.sampler import global_seed


def _check_int(name: str, value: Any, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise ValueError(f"DataLoader: {name} must be an integer >= {minimum}, got {value!r}")
    return int(value)


class DataLoader:
    """Iterate a dataset in batches on the device (Paddle's arguments; `sharding` is padax's addition).

    Args:
        dataset: a map-style `Dataset` (or anything with __getitem__/__len__) or an `IterableDataset`.
        batch_size, shuffle, drop_last: build a BatchSampler (batch_size=None: no batching, each sample is
            a batch). Or give `batch_sampler` (any iterable of index lists) instead.
        collate_fn: list of samples -> batch (default: Paddle's default_collate_fn); runs in the workers.
        num_workers: worker processes (0: load in the main process). prefetch_factor: batches requested ahead
            per worker. use_shared_memory: large arrays come back through shared memory. timeout: seconds to
            wait for a batch (0: forever). worker_init_fn(worker_id): runs first in each worker.
            persistent_workers: keep the workers from one epoch to the next.
        places: the device for batches (a Device or 'cpu' / 'gpu:0'); sharding: a Sharding (e.g.
            NamedSharding(mesh, P('data'))) to split every array of a batch over devices instead.
        use_buffer_reader / reader_buffer_size: put batches on the device from a background thread,
            this many ahead (off: each batch is loaded when asked for).
        return_list: accepted for Paddle's signature; batches keep the structure collate_fn gives them
            (as Paddle's dynamic mode does). feed_list is Paddle's static-graph feeding and is refused.

    Examples:
        >>> import numpy as np
        >>> import padax
        >>> ds = padax.io.TensorDataset([np.arange(10, dtype="float32").reshape(5, 2), np.arange(5)])
        >>> loader = padax.io.DataLoader(ds, batch_size=2, drop_last=True)
        >>> len(loader), [(x.shape, y.tolist()) for x, y in loader]
        (2, [((2, 2), [0, 1]), ((2, 2), [2, 3])])
        >>> shuffled = padax.io.DataLoader(ds, batch_size=5, shuffle=True)
        >>> _ = padax.seed(0)
        >>> next(iter(shuffled))[1].tolist()  # a random order, fixed by padax.seed
        [2, 0, 4, 3, 1]
    """

    def __init__(self, dataset: Any, feed_list: Any = None, places: Any = None, return_list: bool = True,
                 batch_sampler: Any = None, batch_size: int | None = 1, shuffle: bool = False,
                 drop_last: bool = False, collate_fn: Callable | None = None, num_workers: int = 0,
                 use_buffer_reader: bool = True, reader_buffer_size: int = 2, prefetch_factor: int = 2,
                 use_shared_memory: bool = True, timeout: float = 0, worker_init_fn: Callable | None = None,
                 persistent_workers: bool = False, *, sharding: Any = None):
        if feed_list is not None:
            raise ValueError("DataLoader: feed_list feeds Paddle's static graph, which padax does not have; "
                             "iterate the loader and pass the batches to your (jitted) step function")
        self.dataset = dataset
        self.iterable = isinstance(dataset, IterableDataset)
        self.num_workers = _check_int("num_workers", num_workers, 0)
        self.prefetch_factor = _check_int("prefetch_factor", prefetch_factor, 1)
        self.reader_buffer_size = _check_int("reader_buffer_size", reader_buffer_size, 1)
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout < 0:
            raise ValueError(f"DataLoader: timeout must be a number >= 0, got {timeout!r}")
        self.timeout = float(timeout)
        self.return_list, self.use_buffer_reader = return_list, bool(use_buffer_reader)
        self.use_shared_memory = bool(use_shared_memory) and self.num_workers > 0
        self.worker_init_fn, self.persistent_workers = worker_init_fn, bool(persistent_workers)
        self.drop_last = bool(drop_last)
        if self.iterable and (shuffle or batch_sampler is not None):
            raise ValueError("DataLoader: an IterableDataset cannot be shuffled or given a batch_sampler; "
                             "it decides its own order")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or drop_last:
                raise ValueError("DataLoader: batch_size, shuffle and drop_last must be left at their defaults "
                                 "when a batch_sampler is given (it decides them)")
            self.batch_sampler, self.batch_size = batch_sampler, None
        elif batch_size is None:
            self.batch_sampler, self.batch_size = None, None
        else:
            self.batch_size = _check_int("batch_size", batch_size, 1)
            self.batch_sampler = None if self.iterable else BatchSampler(
                dataset, shuffle=shuffle, batch_size=self.batch_size, drop_last=self.drop_last)
        self.auto_collate = batch_sampler is not None or batch_size is not None
        self.collate_fn = collate_fn or (default_collate_fn if self.auto_collate else default_convert_fn)
        if isinstance(places, (list, tuple)):
            if len(places) != 1:
                raise ValueError("DataLoader: give one place; to split batches over several devices pass "
                                 "sharding=NamedSharding(mesh, P('data'))")
            places = places[0]
        if places is not None and sharding is not None:
            raise ValueError("DataLoader: give places or sharding, not both")
        self.places, self.sharding = places, sharding
        self._epoch = 0               # iterations started
        self._resume_at = 0           # batches to skip at the start of the next iteration (set_state_dict)
        self._seed: int | None = None  # the workers' base seed, drawn at the first iteration with workers
        self._pool: _pool.WorkerPool | None = None  # persistent workers
        self._current: Callable[[], Any] = lambda: None

    def __len__(self) -> int:
        if self.iterable:
            raise TypeError("DataLoader over an IterableDataset has no length")
        return len(self.batch_sampler) if self.batch_sampler is not None else len(self.dataset)

    def __iter__(self) -> "_LoaderIterator":
        return _LoaderIterator(self)

    def __call__(self) -> "_LoaderIterator":
        return self.__iter__()

    # -- resuming ----------------------------------------------------------------------------------
    def state_dict(self) -> dict:
        """The position: {"epoch", "position" (batches consumed in it), "batch_sampler", "seed"}. Taken
        mid-epoch, `set_state_dict` of it resumes that epoch at the next batch."""
        it = self._current()
        if it is not None and not it.finished:
            return {"epoch": it.epoch, "position": it.position, "batch_sampler": it.sampler_state,
                    "seed": self._seed}
        return {"epoch": self._epoch, "position": 0, "batch_sampler": self._sampler_state(), "seed": self._seed}

    def set_state_dict(self, state: dict) -> None:
        """Continue from a `state_dict()`: the next iteration is that epoch, from that batch on."""
        missing = {"epoch", "position", "batch_sampler", "seed"} - set(state)
        if missing:
            raise KeyError(f"DataLoader.set_state_dict: the state lacks {sorted(missing)}")
        self._epoch, self._resume_at = int(state["epoch"]), int(state["position"])
        self._seed = None if state["seed"] is None else int(state["seed"])
        if state["batch_sampler"]:
            setter = getattr(self.batch_sampler, "set_state_dict", None)
            if setter is None:
                raise TypeError(f"DataLoader.set_state_dict: the batch_sampler ({type(self.batch_sampler).__name__})"
                                " has no set_state_dict to restore its state into")
            setter(state["batch_sampler"])

    def _sampler_state(self) -> dict:
        getter = getattr(self.batch_sampler, "state_dict", None)
        return getter() if callable(getter) else {}

    # -- pieces of an iteration ------------------------------------------------------------------
    def _index_iter(self) -> Iterator:
        if self.iterable:
            return itertools.repeat([None] * self.batch_size) if self.auto_collate else itertools.repeat(None)
        if self.batch_sampler is not None:
            return iter(self.batch_sampler)
        return iter(range(len(self.dataset)))

    def _fetcher(self) -> Fetcher:
        return Fetcher(self.dataset, self.iterable, self.auto_collate, self.collate_fn, self.drop_last)

    def _worker_seed(self) -> int:
        if self._seed is None:
            self._seed = global_seed()
        return self._seed

    def _new_pool(self) -> _pool.WorkerPool:
        return _pool.WorkerPool(self.num_workers, self.dataset, self.iterable, self.auto_collate, self.collate_fn,
                                self.drop_last, self.worker_init_fn, self._worker_seed(), self.use_shared_memory)

    def _persistent_pool(self) -> _pool.WorkerPool:
        if self._pool is None or self._pool.res.closed:
            self._pool = self._new_pool()
        return self._pool

    @property
    def worker_pids(self) -> list[int]:
        """The process ids of the persistent workers (empty when there are none running)."""
        return self._pool.pids if self._pool is not None and not self._pool.res.closed else []


_TAGS = itertools.count(1)  # tells one iteration's worker results from an abandoned one's


def _epoch_seed(loader_seed: int, epoch: int) -> int:
    a, b = np.random.SeedSequence([loader_seed, epoch]).generate_state(2)
    return int(a) << 32 | int(b)


def _in_process(fetcher: Fetcher, index_iter: Iterator) -> Iterator:
    for indices in index_iter:
        try:
            batch = fetcher.fetch(indices)
        except StopIteration:
            return
        yield batch


def _skip(source: Iterator, n: int) -> Iterator:
    """`source` without its first n items (an iterable dataset resumed mid-epoch: loaded and dropped)."""
    for _ in itertools.islice(source, n):
        pass
    return source


class _Sync:
    """Batches loaded and put on the device when asked for (use_buffer_reader=False)."""

    def __init__(self, source: Iterator, convert: Callable, on_close: Callable[[], None] | None):
        self.source, self.convert = source, convert
        self._finalizer = weakref.finalize(self, on_close) if on_close is not None else None

    def __next__(self) -> Any:
        return self.convert(next(self.source))

    def close(self) -> None:
        if self._finalizer is not None:
            self._finalizer()


class _LoaderIterator:
    """One pass over a DataLoader (an epoch)."""

    def __init__(self, loader: DataLoader):
        self.loader = loader
        start, loader._resume_at = loader._resume_at, 0
        self.epoch, loader._epoch = loader._epoch, loader._epoch + 1
        ensure_seed = getattr(loader.batch_sampler, "_ensure_seed", None)
        if callable(ensure_seed):
            ensure_seed()  # the shuffle seed is drawn now, before anything else draws (state_dict never draws)
        self.sampler_state = loader._sampler_state()
        self.position, self.finished = start, False
        self.worker_pids: list[int] = []
        index_iter = loader._index_iter()
        if not loader.iterable:  # skip the consumed batches' indices without loading them
            for _ in itertools.islice(index_iter, start):
                pass
        target = resolve_target(loader.places, loader.sharding)
        convert = lambda batch: to_device(batch, target)  # noqa: E731
        stop = threading.Event()
        on_close = None
        if loader.num_workers == 0:
            source = _in_process(loader._fetcher(), index_iter)
        else:
            pool = loader._persistent_pool() if loader.persistent_workers else loader._new_pool()
            first = 0 if loader.iterable else start
            source = _pool.WorkerBatches(pool, index_iter, first, next(_TAGS),
                                         _epoch_seed(loader._worker_seed(), self.epoch), loader.prefetch_factor,
                                         loader.timeout, stop)
            self.worker_pids = pool.pids
            on_close = functools.partial(source.close, not loader.persistent_workers)
        if loader.iterable and start:
            source = _skip(source, start)
        if loader.use_buffer_reader:
            self._source: Any = Prefetcher(source, convert, loader.reader_buffer_size, on_close, stop)
        else:
            self._source = _Sync(source, convert, on_close)
        loader._current = weakref.ref(self)

    def __iter__(self) -> "_LoaderIterator":
        return self

    def __next__(self) -> Any:
        if self.finished:
            raise StopIteration
        try:
            batch = next(self._source)
        except StopIteration:
            self.finished = True
            self.close()
            raise
        except BaseException:  # an error, or KeyboardInterrupt: stop the workers before it propagates
            self.finished = True
            self.close()
            raise
        self.position += 1
        return batch

    def __len__(self) -> int:
        return len(self.loader)

    def close(self) -> None:
        """Stop loading: the prefetch thread ends and this iteration's workers exit."""
        self._source.close()
