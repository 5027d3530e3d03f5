"""Every padax.io test must leave no DataLoader worker process behind."""
import gc
import multiprocessing
import time

import pytest


def _workers():
    return [p for p in multiprocessing.active_children() if p.name.startswith("padax-io-worker")]


@pytest.fixture(autouse=True)
def no_worker_survives():
    yield
    gc.collect()
    deadline = time.monotonic() + 5.0
    while _workers() and time.monotonic() < deadline:
        time.sleep(0.05)
    left = _workers()
    assert not left, f"DataLoader worker processes outlived the test: {[p.pid for p in left]}"
