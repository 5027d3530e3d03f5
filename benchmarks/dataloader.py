"""DataLoader throughput: one epoch over a decode-heavy synthetic dataset with 2 worker processes.

Each sample is a 96x96x3 image stored zlib-compressed (a stand-in for JPEG files): `__getitem__`
decompresses it, flips it at random, and normalises it to float32 CHW, the usual per-sample CPU work.
256 samples, batch 32, `num_workers=2`, persistent workers (so the timing is the steady-state
throughput, not the workers' start-up). padax's batches arrive as device arrays (via the prefetch
thread); Paddle's as CPU Tensors. The issue's goal: padax at least as fast as Paddle (padax/paddle <= 1).
"""
from __future__ import annotations

import zlib

import numpy as np

from benchmarks.harness import Workload

_N, _BATCH, _WORKERS, _SIDE = 256, 32, 2, 96


def _blobs() -> list[bytes]:
    rng = np.random.default_rng(0)
    base = rng.integers(0, 256, (_SIDE, _SIDE, 3), dtype=np.uint8)
    out = []
    for i in range(_N):  # smooth-ish images compress like photos rather than noise
        img = (base.astype(np.int32) // 4 + np.arange(_SIDE)[:, None, None] * (i % 7)).astype(np.uint8)
        out.append(zlib.compress(img.tobytes(), 6))
    return out


_MEAN = np.array([0.485, 0.456, 0.406], np.float32).reshape(3, 1, 1)
_STD = np.array([0.229, 0.224, 0.225], np.float32).reshape(3, 1, 1)


def decode(blob: bytes, flip: bool) -> tuple[np.ndarray, np.int64]:
    img = np.frombuffer(zlib.decompress(blob), np.uint8).reshape(_SIDE, _SIDE, 3)
    if flip:
        img = img[:, ::-1]
    chw = np.ascontiguousarray(img.transpose(2, 0, 1)).astype(np.float32) / 255.0
    return (chw - _MEAN) / _STD, np.int64(len(blob) % 10)


class _Images:
    """The dataset's logic, shared by the padax and Paddle Dataset classes below."""

    def __init__(self):
        self.blobs = _blobs()

    def __getitem__(self, i):
        return decode(self.blobs[i], bool(np.random.randint(2)))

    def __len__(self):
        return len(self.blobs)


class PadaxImages(_Images):
    """Module-level (picklable for the worker processes); a padax.io.Dataset by duck typing."""


class PaddleImages(_Images):
    """Module-level (picklable); Paddle's DataLoader takes any map-style dataset with __getitem__/__len__."""


def padax_epoch():
    import padax
    loader = padax.io.DataLoader(PadaxImages(), batch_size=_BATCH, shuffle=True, num_workers=_WORKERS,
                                 persistent_workers=True)

    def run():
        last = None
        for last in loader:
            pass
        last[0].block_until_ready()
    return run


def paddle_epoch():
    import paddle
    loader = paddle.io.DataLoader(PaddleImages(), batch_size=_BATCH, shuffle=True, num_workers=_WORKERS,
                                  persistent_workers=True)

    def run():
        for _ in loader:
            pass
    return run


def workloads() -> list[Workload]:
    return [Workload("epoch_2_workers",
                     f"{_N} zlib-decoded {_SIDE}x{_SIDE} images, batch {_BATCH}, {_WORKERS} workers, one epoch",
                     {"padax": padax_epoch, "paddle": paddle_epoch})]
