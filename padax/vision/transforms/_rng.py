"""Where random transforms draw from: an explicit generator, else padax's global seed.

A transform given `generator=` (an int seed, a numpy Generator or a numpy RandomState) draws
from it. Without one it draws, in a `padax.io.DataLoader` worker, from numpy's global generator,
which the loader seeds before each batch from (loader seed, epoch, batch number), so augmentations
repeat for any number of workers; in the main process, from a host generator seeded from padax's
global key, so `padax.seed(s)` makes the following draws reproducible. Every draw is numpy on the
host: no device work happens inside a transform.
"""
from __future__ import annotations

import numbers
import threading
from typing import Any

import numpy as np

from padax.io import get_worker_info
from padax.io.sampler import global_seed
from padax.random._state import _state


class HostRandom:
    """Uniform draws with one interface over numpy's Generator and RandomState."""

    __slots__ = ("rng",)

    def __init__(self, rng: Any):
        self.rng = rng

    def uniform(self, low: float, high: float) -> float:
        return float(self.rng.uniform(low, high))

    def random(self) -> float:
        return float(self.rng.random())

    def randint(self, low: int, high: int) -> int:
        """An int in [low, high] (both ends included, as Python's random.randint)."""
        if isinstance(self.rng, np.random.Generator):
            return int(self.rng.integers(low, high + 1))
        return int(self.rng.randint(low, high + 1))

    def normal(self, size: Any) -> np.ndarray:
        return self.rng.normal(size=size)

    def shuffle(self, items: list) -> None:
        order = self.rng.permutation(len(items))
        items[:] = [items[i] for i in order]


class _MainState:
    lock = threading.Lock()
    key = None  # padax's global key object the host generator was seeded after
    rng = None


_main = _MainState()


def _from_global_key() -> np.random.Generator:
    """The main process's host generator; reseeded whenever padax's global key changed (padax.seed)."""
    with _main.lock:
        if _main.rng is None or _state.key is not _main.key:
            _main.rng = np.random.default_rng(global_seed())
            _main.key = _state.key
        return _main.rng


def check_generator(op: str, generator: Any) -> Any:
    """Validate a transform's `generator=` argument; an int seed becomes its own numpy Generator."""
    if generator is None or isinstance(generator, (np.random.Generator, np.random.RandomState)):
        return generator
    if isinstance(generator, numbers.Integral) and not isinstance(generator, bool):
        return np.random.default_rng(int(generator))
    raise TypeError(f"{op}: generator must be None, an int seed, a numpy.random.Generator or "
                    f"numpy.random.RandomState, got {type(generator).__name__}")


def host_random(generator: Any) -> HostRandom:
    """The generator a transform draws from now (see the module docstring)."""
    if generator is not None:
        return HostRandom(generator)
    if get_worker_info() is not None:
        return HostRandom(np.random.mtrand._rand)
    return HostRandom(_from_global_key())
