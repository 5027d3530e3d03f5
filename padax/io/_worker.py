"""The loop a DataLoader worker process runs, and what it shares with the main process.

A worker only runs host code (the dataset, collate_fn, worker_init_fn on numpy); it never
starts padax's XLA runtime on its own account (it is pinned to the CPU platform in case user
code computes). Messages, all pickled through multiprocessing queues:
  main -> worker:  ("batch", epoch tag, batch number, indices, epoch seed) or None (exit)
  worker -> main:  (epoch tag, batch number, worker id, kind, payload) with kind
                   "ok" (a host batch), "error" (a RemoteError) or "end" (an iterable dataset is exhausted)
Large arrays of a batch travel through shared memory when `use_shared_memory` is on.
"""
from __future__ import annotations

import queue
import random
import signal
from multiprocessing import shared_memory
from typing import Any, Callable

import numpy as np

import padax
from padax.io._fetch import Fetcher, RemoteError

SHM_MIN_BYTES = 1 << 16  # smaller arrays go through the pipe: a shared-memory segment costs a few syscalls
POLL_S = 0.2             # how often a waiting worker checks that the main process is alive


class WorkerInfo:
    """What `padax.io.get_worker_info()` returns inside a worker: id, num_workers, dataset, seed.

    Args:
        id: this worker's index in [0, num_workers).
        num_workers: the DataLoader's worker count.
        dataset: the worker's copy of the dataset.
        seed: this worker's random seed.

    Examples:
        >>> import padax
        >>> info = padax.io.WorkerInfo(id=0, num_workers=2, dataset=None, seed=7)
        >>> info
        WorkerInfo(id=0, num_workers=2, seed=7)
        >>> info.id = 1
        Traceback (most recent call last):
            ...
        AttributeError: WorkerInfo is read-only (tried to set 'id')
    """

    __slots__ = ("id", "num_workers", "dataset", "seed")

    def __init__(self, id: int, num_workers: int, dataset: Any, seed: int):  # noqa: A002
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "num_workers", num_workers)
        object.__setattr__(self, "dataset", dataset)
        object.__setattr__(self, "seed", seed)

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError(f"WorkerInfo is read-only (tried to set {key!r})")

    def __repr__(self) -> str:
        return f"WorkerInfo(id={self.id}, num_workers={self.num_workers}, seed={self.seed})"


_worker_info: WorkerInfo | None = None


def get_worker_info() -> WorkerInfo | None:
    """In a DataLoader worker process: its WorkerInfo (id, num_workers, dataset, seed); elsewhere None.

    Examples:
        >>> import padax
        >>> padax.io.get_worker_info() is None  # in the main process
        True
    """
    return _worker_info


def batch_seed(epoch_seed: int, batch: int) -> np.random.SeedSequence:
    """The seed of one batch: its randomness depends on (epoch, batch number) only, not on the worker."""
    return np.random.SeedSequence([epoch_seed, batch])


def _seed_host_rngs(seq: np.random.SeedSequence) -> None:
    """Seed Python's and numpy's global generators (what dataset code usually draws from)."""
    state = seq.generate_state(4)
    np.random.seed(state)
    random.seed(int(state[0]) << 32 | int(state[1]))


class SharedArray:
    """An array left in a shared-memory segment by a worker; the main process copies it out and frees it."""

    __slots__ = ("name", "shape", "dtype")

    def __init__(self, name: str, shape: tuple, dtype: np.dtype):
        self.name, self.shape, self.dtype = name, shape, dtype

    def take(self, consume: Callable[[np.ndarray], Any]) -> Any:
        """`consume(view)` of the array (it must copy what it keeps); the segment is then unlinked."""
        seg = shared_memory.SharedMemory(name=self.name)
        try:
            view = np.ndarray(self.shape, self.dtype, buffer=seg.buf)
            out = consume(view)
            del view
            return out
        finally:
            seg.close()
            seg.unlink()

    def discard(self) -> None:
        try:
            seg = shared_memory.SharedMemory(name=self.name)
        except FileNotFoundError:
            return
        seg.close()
        seg.unlink()


def _to_shared(arr: np.ndarray) -> SharedArray:
    seg = shared_memory.SharedMemory(create=True, size=arr.nbytes)
    try:
        np.ndarray(arr.shape, arr.dtype, buffer=seg.buf)[...] = arr
        return SharedArray(seg.name, arr.shape, arr.dtype)
    finally:
        seg.close()


def encode(batch: Any) -> Any:
    """The batch with its large numeric arrays moved to shared memory."""
    if isinstance(batch, np.ndarray):
        if batch.nbytes >= SHM_MIN_BYTES and batch.dtype.kind in "biufcV" and not batch.dtype.hasobject:
            return _to_shared(batch)
        return batch
    if type(batch) is dict:
        return {k: encode(v) for k, v in batch.items()}
    if type(batch) in (list, tuple):
        return type(batch)(encode(v) for v in batch)
    return batch


def walk_shared(batch: Any, fn: Callable[[SharedArray], Any]) -> Any:
    """`batch` with every SharedArray replaced by fn(it)."""
    if isinstance(batch, SharedArray):
        return fn(batch)
    if type(batch) is dict:
        return {k: walk_shared(v, fn) for k, v in batch.items()}
    if type(batch) in (list, tuple):
        return type(batch)(walk_shared(v, fn) for v in batch)
    return batch


def _pin_host_platform() -> None:
    """Keep a worker off accelerators: if user code computes with padax, it runs on the CPU."""
    try:
        padax.config.update("platforms", "cpu")
    except Exception:  # config locked (a backend already chosen): nothing to pin
        pass


def worker_loop(worker_id: int, num_workers: int, dataset: Any, iterable: bool, auto_collate: bool,
                collate_fn: Callable, drop_last: bool, init_fn: Callable | None, base_seed: int,
                index_queue: Any, data_queue: Any, current_tag: Any, lifeline: Any, use_shm: bool) -> None:
    """Serve batch requests until told to exit, or until the main process is gone."""
    global _worker_info
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the main process's to handle; it stops us
    _pin_host_platform()
    _worker_info = WorkerInfo(worker_id, num_workers, dataset, base_seed + worker_id)
    _seed_host_rngs(np.random.SeedSequence([base_seed, worker_id, 1]))  # for worker_init_fn
    init_error = None
    try:
        if init_fn is not None:
            init_fn(worker_id)
    except Exception as e:
        init_error = e
    fetcher, fetcher_tag, exhausted = None, None, False
    orphaned = False
    try:
        while True:
            try:
                msg = index_queue.get(timeout=POLL_S)
            except queue.Empty:
                if lifeline.poll():  # the main process closed its end, or died
                    orphaned = True
                    break
                continue
            if msg is None:
                break
            _, tag, batch, indices, epoch_seed = msg
            if tag < current_tag.value:
                continue  # an abandoned epoch (persistent workers): the main process no longer wants it
            if tag != fetcher_tag:  # a new epoch: a fresh pass over an iterable dataset
                fetcher = Fetcher(dataset, iterable, auto_collate, collate_fn, drop_last)
                fetcher_tag, exhausted = tag, False
            if init_error is not None:
                data_queue.put((tag, batch, worker_id, "error", RemoteError(init_error, worker_id, batch)))
                init_error = None
                continue
            if exhausted:
                data_queue.put((tag, batch, worker_id, "end", None))
                continue
            try:
                _seed_host_rngs(batch_seed(epoch_seed, batch))
                out = fetcher.fetch(indices)
            except StopIteration:
                exhausted = True
                data_queue.put((tag, batch, worker_id, "end", None))
            except Exception as e:
                data_queue.put((tag, batch, worker_id, "error", RemoteError(e, worker_id, batch)))
            else:
                data_queue.put((tag, batch, worker_id, "ok", encode(out) if use_shm else out))
    except KeyboardInterrupt:
        orphaned = True
    finally:
        if orphaned:  # nobody will read what is still buffered: do not wait to hand it over
            data_queue.cancel_join_thread()
        data_queue.close()  # otherwise exit once the main process (draining while it waits) has it all
