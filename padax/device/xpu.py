"""`padax.device.xpu`: Paddle's Kunlun XPU queries. padax has no XPU backend, so there are no XPU devices."""
from __future__ import annotations

from typing import Any

from padax.runtime.place import resolve_device


def device_count() -> int:
    """The number of XPUs padax can use: always 0 (no XPU backend)."""
    return 0


def synchronize(device: Any = None) -> None:
    """There is no XPU to wait for: a ValueError, as for any device that does not exist."""
    resolve_device("xpu" if device is None else device)


__all__ = ["device_count", "synchronize"]
