"""Putting host batches on the device ahead of use: `to_device` and `prefetch_to_device`.

A background thread copies batch k+1 to the device (optionally laid out on a sharding, for data
parallelism) while the compiled step runs on batch k; the consumer then finds it ready. jaxlib
releases the GIL while a compiled program runs, so the copy overlaps the step.
"""
from __future__ import annotations

import queue
import threading
import weakref
from typing import Any, Callable, Iterable, Iterator

import numpy as np

import padax
from padax import sharding as _sharding
from padax.io._pool import _Stopped
from padax.io._worker import SharedArray
from padax.runtime.put import device_by_name as _device_by_name
from padax.runtime.sharding import resolve_sharding as _resolve_sharding

_WAIT_S = 0.1
_JOIN_S = 5.0


def _put(x: Any, target: Any, where: str) -> Any:
    try:
        return padax.device_put(x, target)
    except Exception as e:
        if not isinstance(target, _sharding.Sharding):
            raise
        raise ValueError(f"cannot lay out the batch field{where or ''} of shape {tuple(np.shape(x))} on {target}: {e}. "
                         "With a data-parallel sharding every batch must divide evenly over the devices: use "
                         "drop_last=True and a batch size that is a multiple of the device count") from e


def to_device(batch: Any, target: Any = None, where: str = "") -> Any:
    """`batch` with its arrays on the device: numpy arrays (and Tensors) are put on `target` (a Device, a
    Sharding, or None for the default device); strings and other values are kept; dicts, lists and tuples
    keep their structure.

    Args:
        batch: a pytree of numpy arrays, Tensors and other values.
        target: a Device, a Sharding, or None for the default device.
        where: the batch's path, used in error messages (internal; leave it empty).

    Returns:
        The batch with its arrays as device Tensors.

    Examples:
        >>> import numpy as np
        >>> import padax
        >>> batch = padax.io.to_device({"x": np.ones((2, 3), np.float32), "id": "a"})
        >>> type(batch["x"]).__name__, batch["x"].shape, batch["id"]
        ('Tensor', (2, 3), 'a')
    """
    if isinstance(batch, SharedArray):
        return batch.take(lambda view: _put(view, target, where))
    if isinstance(batch, (np.ndarray, np.generic, padax.Tensor)):
        return _put(batch, target, where)
    if isinstance(batch, dict):
        return type(batch)((k, to_device(v, target, f"{where}[{k!r}]")) for k, v in batch.items())
    if isinstance(batch, list):
        return [to_device(v, target, f"{where}[{i}]") for i, v in enumerate(batch)]
    if isinstance(batch, tuple):
        items = [to_device(v, target, f"{where}[{i}]") for i, v in enumerate(batch)]
        return type(batch)(*items) if hasattr(batch, "_fields") else type(batch)(items)
    return batch


def to_host(batch: Any) -> Any:
    """`batch` with arrays left in shared memory by a worker copied into ordinary numpy arrays."""
    if isinstance(batch, SharedArray):
        return batch.take(np.array)
    if isinstance(batch, dict):
        return type(batch)((k, to_host(v)) for k, v in batch.items())
    if isinstance(batch, list):
        return [to_host(v) for v in batch]
    if isinstance(batch, tuple):
        items = [to_host(v) for v in batch]
        return type(batch)(*items) if hasattr(batch, "_fields") else type(batch)(items)
    return batch


def resolve_target(device: Any = None, sharding: Any = None) -> Any:
    """Where batches go: a sharding, a device (a Device or a name like 'cpu' / 'gpu:0'), or the default device.
    Resolved on the calling thread, so the backend starts there and not in the prefetch thread."""
    if sharding is not None and device is not None:
        raise ValueError("give a device or a sharding, not both")
    if sharding is not None:
        if isinstance(sharding, _sharding.PartitionSpec):
            sharding = _resolve_sharding(sharding, "padax.io")
        if not isinstance(sharding, _sharding.Sharding):
            raise TypeError(f"sharding must be a padax sharding (e.g. NamedSharding(mesh, P('data'))), "
                            f"got {type(sharding).__name__}")
        return sharding
    if device is None:
        return padax.default_device()
    return _device_by_name(device) if isinstance(device, str) else device


class _Closer:
    """What stops a prefetch thread; kept apart from the iterator so that a finalizer can hold it."""

    def __init__(self, stop: threading.Event, out: queue.Queue, on_close: Callable[[], None] | None):
        self.stop, self.out, self.on_close = stop, out, on_close
        self.thread: threading.Thread | None = None

    def __call__(self) -> None:
        self.stop.set()
        if self.thread is not None and self.thread is not threading.current_thread():
            self.thread.join(timeout=_JOIN_S)
        while True:
            try:
                self.out.get_nowait()
            except queue.Empty:
                break
        if self.on_close is not None:
            self.on_close()


class Prefetcher:
    """Iterates `source` on a background thread, applying `convert` (e.g. to_device), `size` items ahead.

    An exception raised by the source or by `convert` is re-raised by `__next__`. `close()` (also run
    when the Prefetcher is garbage collected, and at interpreter exit) stops the thread and then calls
    `on_close`.
    """

    def __init__(self, source: Iterator, convert: Callable[[Any], Any], size: int = 2,
                 on_close: Callable[[], None] | None = None, stop: threading.Event | None = None):
        if size < 1:
            raise ValueError(f"prefetch size must be >= 1, got {size}")
        self._out: queue.Queue = queue.Queue(maxsize=size)
        self._stop = stop or threading.Event()
        self._closer = _Closer(self._stop, self._out, on_close)
        self._finalizer = weakref.finalize(self, self._closer)
        thread = threading.Thread(target=_produce, args=(source, convert, self._out, self._stop), daemon=True,
                                  name="padax-io-prefetch")
        self._closer.thread = thread
        self._done = False
        thread.start()

    def __iter__(self) -> "Prefetcher":
        return self

    def __next__(self) -> Any:
        if self._done:
            raise StopIteration
        while True:
            try:
                kind, value = self._out.get(timeout=_WAIT_S)
                break
            except queue.Empty:
                if not self._closer.thread.is_alive() and self._out.empty():
                    kind, value = "error", RuntimeError("the prefetch thread ended without a result")
                    break
        if kind == "ok":
            return value
        self._done = True
        self.close()
        if kind == "end":
            raise StopIteration
        raise value

    def close(self) -> None:
        self._finalizer()


def _produce(source: Iterator, convert: Callable, out: queue.Queue, stop: threading.Event) -> None:

    def put(item) -> bool:
        while not stop.is_set():
            try:
                out.put(item, timeout=_WAIT_S)
                return True
            except queue.Full:
                continue
        return False

    try:
        for host in source:
            if stop.is_set():
                return
            if not put(("ok", convert(host))):
                return
        put(("end", None))
    except _Stopped:
        return
    except BaseException as e:  # delivered to the consumer, who re-raises it
        put(("error", e))


def prefetch_to_device(iterable: Iterable, size: int = 2, sharding: Any = None, device: Any = None) -> Prefetcher:
    """Iterate `iterable` of host batches (pytrees of numpy arrays) with each batch already on the device:
    a background thread puts the next `size` batches there (laid out on `sharding`, or on `device`, default
    the default device) while the current one is used.

    Args:
        iterable: host batches (pytrees of numpy arrays).
        size: how many batches to keep on the device ahead.
        sharding: a Sharding each batch is laid out on (None: `device`).
        device: the Device (None: the default device).

    Returns:
        A Prefetcher: an iterator over the device batches.

    Examples:
        >>> import numpy as np
        >>> import padax
        >>> host_batches = [np.full((2,), i, np.float32) for i in range(3)]
        >>> [b.tolist() for b in padax.io.prefetch_to_device(host_batches, size=2)]
        [[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]]
    """
    target = resolve_target(device, sharding)
    return Prefetcher(iter(iterable), lambda b: to_device(b, target), size)
