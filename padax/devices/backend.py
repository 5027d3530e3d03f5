"""Backends (PJRT clients) and devices.

CPU is always available; a GPU/TPU backend appears when its PJRT plugin
package is installed (e.g. `jax-cuda12-plugin`) and becomes the default.
`PADAX_PLATFORMS=cpu` (or `padax.config`) forces a platform.
"""
from __future__ import annotations

import functools
import os
from typing import Any

from padax.config import config
from padax.devices import _jaxlib
from padax.devices.host_memory import tune_host_allocator

_clients: dict[str, Any] = {}
_cpu_client_factory = None  # set by padax.distributed.initialize
_PLUGIN_PLATFORMS = ("cuda", "rocm", "tpu")


def _client(platform: str):
    c = _clients.get(platform)
    if c is None:
        if platform == "cpu":
            tune_host_allocator()  # XLA's per-call buffers stay in the process (see host_memory.py)
            _jaxlib.register_lapack_targets()  # LAPACK kernels for padax.linalg
            if _cpu_client_factory is not None:  # multi-process (padax.distributed.initialize)
                c = _cpu_client_factory()
            else:
                c = _jaxlib.make_cpu_client(config.num_cpu_devices, config.cpu_async_dispatch)
        else:
            c = _jaxlib.make_plugin_client(platform)
            if c is None:
                raise RuntimeError(f"padax: no PJRT plugin for platform {platform!r} is installed")
        _clients[platform] = c
    return c


def _wanted_platforms() -> list[str]:
    env = os.environ.get("PADAX_PLATFORMS") or os.environ.get("JAX_PLATFORMS")
    if env:
        return [p.strip() for p in env.split(",") if p.strip()]
    return [*_PLUGIN_PLATFORMS, "cpu"]


@functools.lru_cache(maxsize=None)
def default_platform() -> str:
    for p in _wanted_platforms():
        try:
            _client(p)
            return p
        except RuntimeError:
            continue
    raise RuntimeError("padax: no usable backend")


def get_client(platform: str | None = None):
    return _client(platform or default_platform())


def devices(backend: str | None = None) -> list:
    """All devices of a platform (default: the default platform), like `jax.devices()`."""
    return list(get_client(backend).devices())


def local_devices(backend: str | None = None) -> list:
    return list(get_client(backend).local_devices())


def process_index(backend: str | None = None) -> int:
    """This process's index among the processes of a multi-process run (0 otherwise)."""
    return get_client(backend).process_index()


def process_count(backend: str | None = None) -> int:
    return len({d.process_index for d in devices(backend)})


def device_count(backend: str | None = None) -> int:
    return len(devices(backend))


@functools.lru_cache(maxsize=None)
def _default_device_cached(platform: str):
    return get_client(platform).local_devices()[0]


_chosen_device = None  # set by set_default_device (padax.device.set_device)


def default_device():
    if _chosen_device is not None:
        return _chosen_device
    return _default_device_cached(default_platform())


def set_default_device(device) -> None:
    """Make `device` the default of new Tensors and compiled programs (Paddle's set_device).

    Compiled programs and cached constants belong to the old default device, so the
    caches that hold them are emptied (as when the CPU client is replaced).
    """
    global _chosen_device
    if device == default_device():
        return
    _chosen_device = device
    single_device_sharding.cache_clear()
    for fn in _client_reset_hooks:
        fn()


def synchronize(device) -> None:
    """Wait for every array the device holds or is computing (what is queued on it has finished)."""
    for arr in device.client.live_arrays():
        if device in arr._sharding._internal_device_list:
            arr.block_until_ready()


def memory_stats(device) -> dict:
    """The allocator's statistics of a device (bytes_in_use, peak_bytes_in_use, bytes_limit, ...); {} on CPU."""
    return device.memory_stats() or {}


def client_of(device):
    return device.client


@functools.lru_cache(maxsize=None)
def single_device_sharding(device):
    """A replicated sharding over one device (what eager arrays carry)."""
    return _jaxlib.replicated_sharding((device,))


def set_cpu_client_factory(factory) -> None:
    """Make the CPU client with `factory()` from now on (None: the plain one); drops the current one."""
    global _cpu_client_factory
    _cpu_client_factory = factory
    _reset_on_change("num_cpu_devices", config.num_cpu_devices)


def _reset_on_change(name: str, value: Any) -> None:
    if name in ("num_cpu_devices", "cpu_async_dispatch"):
        global _chosen_device
        _chosen_device = None
        _clients.pop("cpu", None)
        default_platform.cache_clear()
        _default_device_cached.cache_clear()
        single_device_sharding.cache_clear()
        from padax.devices import sharding
        sharding.clear_caches()
        for fn in _client_reset_hooks:
            fn()


_client_reset_hooks: list = []


def on_client_reset(fn) -> None:
    """Call `fn()` whenever the CPU client is replaced (caches of compiled programs subscribe)."""
    _client_reset_hooks.append(fn)


config.on_change(_reset_on_change)
