"""`padax.device.cuda`: Paddle's GPU queries, answered for the GPU backend installed here (none: 0 devices).

Memory figures come from the device allocator's statistics (XLA's BFC allocator);
`empty_cache` has nothing to give back because XLA's allocator keeps its pool for
the process, so it only waits for queued work, as Paddle's does first.
"""
from __future__ import annotations

from typing import Any, NamedTuple

from padax.runtime import backend
from padax.runtime.place import _gpu_devices, get_available_device, resolve_device


class DeviceProperties(NamedTuple):
    """What Paddle's `get_device_properties` reports: name, compute capability, memory, SM count."""
    name: str
    major: int
    minor: int
    total_memory: int
    multi_processor_count: int


def _gpu(device: Any = None):
    devs = _gpu_devices()
    if not devs:
        raise ValueError("padax.device.cuda: there is no GPU backend here (install a PJRT CUDA plugin, "
                         "e.g. jax-cuda12-plugin); available: " + ", ".join(get_available_device()))
    if device is None:
        default = backend.default_device()
        return default if default in devs else devs[0]
    if isinstance(device, int) and not isinstance(device, bool):
        device = f"gpu:{device}"
    return resolve_device(device)


def device_count() -> int:
    """The number of GPUs padax can use here (0 without a GPU backend)."""
    return len(_gpu_devices())


def is_available() -> bool:
    return device_count() > 0


def synchronize(device: Any = None) -> None:
    """Wait until the GPU (default: the current one) has finished its queued work."""
    backend.synchronize(_gpu(device))


def get_device_name(device: Any = None) -> str:
    """The GPU's model name, e.g. 'NVIDIA H100 80GB HBM3'."""
    return _gpu(device).device_kind


def get_device_capability(device: Any = None) -> tuple[int, int]:
    """The GPU's compute capability (major, minor)."""
    cc = str(getattr(_gpu(device), "compute_capability", "0.0"))
    major, _, minor = cc.partition(".")
    return int(major or 0), int(minor or 0)


def get_device_properties(device: Any = None) -> DeviceProperties:
    d = _gpu(device)
    major, minor = get_device_capability(d)
    total = int(backend.memory_stats(d).get("bytes_limit", 0))
    return DeviceProperties(d.device_kind, major, minor, total, int(getattr(d, "core_count", 0)))


def _stat(device: Any, key: str) -> int:
    return int(backend.memory_stats(_gpu(device)).get(key, 0))


def memory_allocated(device: Any = None) -> int:
    """Bytes held by live arrays on the GPU."""
    return _stat(device, "bytes_in_use")


def max_memory_allocated(device: Any = None) -> int:
    """The peak of `memory_allocated` since the process started."""
    return _stat(device, "peak_bytes_in_use")


def memory_reserved(device: Any = None) -> int:
    """Bytes the allocator has reserved from the GPU (its pool)."""
    return _stat(device, "bytes_reserved") or _stat(device, "bytes_limit")


def max_memory_reserved(device: Any = None) -> int:
    return _stat(device, "peak_bytes_reserved") or memory_reserved(device)


def empty_cache() -> None:
    """Wait for queued GPU work; XLA's allocator keeps its pool for the process, so no memory is returned."""
    if device_count():
        synchronize()


__all__ = ["device_count", "is_available", "synchronize", "get_device_name", "get_device_capability",
           "get_device_properties", "memory_allocated", "max_memory_allocated", "memory_reserved",
           "max_memory_reserved", "empty_cache"]
