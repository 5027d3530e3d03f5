"""Backends (PJRT clients) and devices.

CPU is always available; a GPU/TPU backend appears when its PJRT plugin
package is installed (e.g. `jax-cuda12-plugin`) and becomes the default.
`PADAX_PLATFORMS=cpu` (or `padax.config.update("platforms", "cpu")`, jax's
`jax_platforms`) forces a platform.
"""
from __future__ import annotations

import functools
import os
from typing import Any

from padax.config import config
from padax.core.errors import ForkedProcessError
from padax.runtime import _jaxlib, sharding
from padax.runtime.host_memory import tune_host_allocator

_clients: dict[str, Any] = {}
_cpu_client_factory = None  # set by padax.distributed.initialize
_PLUGIN_PLATFORMS = ("cuda", "rocm", "tpu")


def _client(platform: str):
    c = _clients.get(platform)
    if c is None:
        check_not_forked()
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
                raise PlatformUnavailableError(f"padax: no PJRT plugin for platform {platform!r} is installed")
        _clients[platform] = c
    return c


def _wanted_platforms() -> list[str]:
    if config.platforms:  # PADAX_PLATFORMS / JAX_PLATFORMS, or config.update("platforms", "cpu")
        return [p.strip() for p in config.platforms.split(",") if p.strip()]
    return [*_PLUGIN_PLATFORMS, "cpu"]


class PlatformUnavailableError(RuntimeError, ValueError):
    """A platform was named whose PJRT plugin is not installed (a bad value, so also a ValueError)."""


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
    """All devices of a platform (default: the default platform), like `jax.devices()`: in a multi-process
    run, the devices of every process.

    Args:
        backend: a platform name ('cpu', 'cuda', ...); None for the default one.

    Returns:
        A list of Device objects (`.platform`, `.id`, `.process_index`, ...).

    Examples:
        >>> import padax
        >>> d = padax.devices('cpu')[0]
        >>> d, d.platform, d.id
        (CpuDevice(id=0), 'cpu', 0)
    """
    return list(get_client(backend).devices())


def local_devices(backend: str | None = None) -> list:
    """The devices of a platform that this process drives (all of them in a single-process run).

    Args:
        backend: the platform ('cpu', 'gpu', ...); None is the default backend.

    Returns:
        A list of this process's Device objects.

    Examples:
        >>> import padax
        >>> padax.local_devices('cpu')[0]
        CpuDevice(id=0)
    """
    return list(get_client(backend).local_devices())


def process_index(backend: str | None = None) -> int:
    """This process's index among the processes of a multi-process run (0 otherwise).

    Args:
        backend: the platform ('cpu', 'gpu', ...); None is the default backend.

    Returns:
        This process's index (int, 0 in a single-process run).

    Examples:
        >>> import padax
        >>> padax.process_index()
        0
    """
    return get_client(backend).process_index()


def process_count(backend: str | None = None) -> int:
    """The number of processes of a multi-process run (padax.distributed.initialize), 1 otherwise.

    Args:
        backend: the platform ('cpu', 'gpu', ...); None is the default backend.

    Returns:
        The number of processes (int, 1 in a single-process run).

    Examples:
        >>> import padax
        >>> padax.process_count()
        1
    """
    return len({d.process_index for d in devices(backend)})


def local_device_count(backend: str | None = None) -> int:
    """The number of devices this process drives.

    Args:
        backend: the platform ('cpu', 'gpu', ...); None is the default backend.

    Returns:
        The number of this process's devices (int).

    Examples:
        >>> import padax
        >>> padax.local_device_count('cpu') == len(padax.local_devices('cpu'))
        True
    """
    return len(local_devices(backend))


def default_backend() -> str:
    """The platform of the default device ('cpu', 'cuda', 'rocm', 'tpu').

    Examples:
        >>> import padax
        >>> padax.default_backend()  # on a machine without accelerators
        'cpu'
    """
    return default_platform()


def device_count(backend: str | None = None) -> int:
    """The number of devices of a platform, over all processes (for several CPU devices in one process set
    PADAX_NUM_CPU_DEVICES before importing padax).

    Args:
        backend: the platform ('cpu', 'gpu', ...); None is the default backend.

    Returns:
        The number of devices, over all processes (int).

    Examples:
        >>> import padax
        >>> padax.device_count('cpu') == len(padax.devices('cpu'))
        True
    """
    return len(devices(backend))


@functools.lru_cache(maxsize=None)
def _default_device_cached(platform: str):
    return get_client(platform).local_devices()[0]


_chosen_device = None  # set by set_default_device (padax.device.set_device)


def default_device():
    """The device new Tensors and compiled programs go to: the one set_default_device chose, else the first
    local device of the default platform.

    Examples:
        >>> import padax
        >>> padax.default_device()  # on a machine without accelerators
        CpuDevice(id=0)
    """
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
    if name == "platforms":  # the default platform is chosen afresh; clients stay
        default_platform.cache_clear()
        _default_device_cached.cache_clear()
    if name in ("num_cpu_devices", "cpu_async_dispatch"):
        global _chosen_device
        _chosen_device = None
        _clients.pop("cpu", None)
        default_platform.cache_clear()
        _default_device_cached.cache_clear()
        single_device_sharding.cache_clear()
        sharding.clear_caches()
        for fn in _client_reset_hooks:
            fn()


_client_reset_hooks: list = []


def on_client_reset(fn) -> None:
    """Call `fn()` whenever the CPU client is replaced (caches of compiled programs subscribe)."""
    _client_reset_hooks.append(fn)


def live_executable_count(client=None) -> int:
    """How many compiled programs of `client` (default: the CPU client) are alive in this process."""
    return len((client or default_device().client).live_executables())


def empty_client_caches() -> None:
    """Empty every cache that subscribed with on_client_reset, keeping the client (padax.clear_caches)."""
    for fn in _client_reset_hooks:
        fn()


config.on_change(_reset_on_change)


# -- fork safety ------------------------------------------------------------------------------
# XLA's client owns thread pools; after os.fork() only the forking thread exists in the child, so
# compiling or running a program there waits forever on threads that are gone. A child forked after
# the parent made a client refuses at once instead (reading arrays already on the host still works).

_forked_after_client = False
_fork_hooks: list = []

_FORK_MESSAGE = (
    "padax cannot compute in a process forked (os.fork, or multiprocessing's default 'fork' start method) "
    "after the parent process started padax's XLA runtime: XLA's worker threads do not survive a fork, so "
    "the child would hang. Start worker processes with multiprocessing.get_context('spawn') or "
    "'forkserver' (padax.io.DataLoader does), or fork before the parent first computes with padax.")


def check_not_forked() -> None:
    """Raise ForkedProcessError in a child forked after the parent had an XLA client."""
    if _forked_after_client:
        raise ForkedProcessError(_FORK_MESSAGE)


def on_fork_in_child(fn) -> None:
    """Call `fn()` in a child forked after a client existed (the jit dispatcher drops its C++ fast path)."""
    _fork_hooks.append(fn)


def _after_fork_in_child() -> None:
    global _forked_after_client
    if _clients:
        _forked_after_client = True
        for fn in _fork_hooks:
            fn()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
