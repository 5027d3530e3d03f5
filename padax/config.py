"""Global switches: 64-bit types, disabling jit, the on-disk compilation cache, the CPU client.

`padax.config.update(name, value)` sets one; environment variables give the
defaults (`PADAX_ENABLE_X64=1`, `PADAX_DISABLE_JIT=1`,
`PADAX_COMPILATION_CACHE_DIR=/path`, `PADAX_NUM_CPU_DEVICES=8`,
`PADAX_CPU_ASYNC_DISPATCH=1`).

`cpu_async_dispatch` (default off): whether a single-device CPU program runs on
a worker thread while Python goes on (jax's default) or on the calling thread.
Inline is the lower-latency choice: a call then costs no thread hand-offs (on a
2-core machine an eager 256x256 matmul took 0.7-0.8x the time; see
benchmarks/PROFILING.md). Async dispatch only pays when Python has other work to
overlap with a long computation. Multi-device programs always run one thread
per device. Changing either CPU setting replaces the CPU client.
"""
from __future__ import annotations

import contextlib
import os
from typing import Any, Callable, Iterator


def _env_flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


class Config:
    """Named settings with change listeners (caches that depend on them subscribe)."""

    _names = ("enable_x64", "disable_jit", "compilation_cache_dir", "num_cpu_devices", "cpu_async_dispatch")

    def __init__(self) -> None:
        self.enable_x64: bool = _env_flag("PADAX_ENABLE_X64")
        self.disable_jit: bool = _env_flag("PADAX_DISABLE_JIT")
        self.compilation_cache_dir: str | None = os.environ.get("PADAX_COMPILATION_CACHE_DIR") or None
        self.num_cpu_devices: int = int(os.environ.get("PADAX_NUM_CPU_DEVICES", "1"))
        self.cpu_async_dispatch: bool = _env_flag("PADAX_CPU_ASYNC_DISPATCH")
        self._listeners: list[Callable[[str, Any], None]] = []

    def update(self, name: str, value: Any) -> None:
        """Set a setting by name, e.g. `padax.config.update("enable_x64", True)`."""
        if name.startswith("padax_"):
            name = name[len("padax_"):]
        if name not in self._names:
            raise ValueError(f"padax.config.update: unknown setting {name!r}; known: {', '.join(self._names)}")
        if name in ("enable_x64", "disable_jit", "cpu_async_dispatch"):
            value = bool(value)
        if getattr(self, name) == value:  # nothing changes (and the CPU client is not replaced)
            return
        object.__setattr__(self, name, value)
        for fn in self._listeners:
            fn(name, value)

    def read(self, name: str) -> Any:
        return getattr(self, name)

    def on_change(self, fn: Callable[[str, Any], None]) -> None:
        self._listeners.append(fn)

    @contextlib.contextmanager
    def override(self, name: str, value: Any) -> Iterator[None]:
        old = getattr(self, name)
        self.update(name, value)
        try:
            yield
        finally:
            self.update(name, old)

    def __repr__(self) -> str:
        return "Config(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in self._names) + ")"


config = Config()


def enable_x64(flag: bool = True):
    """Context manager turning 64-bit types on (or off) for a block."""
    return config.override("enable_x64", flag)


def disable_jit(disable: bool = True):
    """Context manager running `jit`-decorated functions op by op (for debugging)."""
    return config.override("disable_jit", disable)
