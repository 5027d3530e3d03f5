"""Global switches: 64-bit types, disabling jit, the on-disk compilation cache, the CPU client.

`padax.config.update(name, value)` sets one (jax's names, e.g.
`jax_enable_x64`, are accepted too); environment variables give the
defaults (`PADAX_ENABLE_X64=0`, `PADAX_DEFAULT_DTYPE=float64`, `PADAX_DISABLE_JIT=1`,
`PADAX_COMPILATION_CACHE_DIR=/path`, `PADAX_NUM_CPU_DEVICES=8`,
`PADAX_CPU_ASYNC_DISPATCH=1`).

`enable_x64` (default on): 64-bit types exist, as in Paddle; defaults stay
Paddle's (float32 for Python floats, int64 for Python ints). Off, padax runs
in JAX's 32-bit-only mode: every 64-bit request becomes its 32-bit sibling
(for accelerators where 64-bit arithmetic is slow or missing).

`default_dtype` (default float32): the dtype of Python floats, Paddle's
`set_default_dtype`/`get_default_dtype` (float16, bfloat16, float32 or float64).

`platforms` (default: every installed one, accelerators first): the platforms
to use, e.g. "cpu" (`PADAX_PLATFORMS`/`JAX_PLATFORMS`; jax's `jax_platforms`).

`default_matmul_precision` (default None, the backend's default): the precision
of matrix products and convolutions that do not pass `precision=`.

`log_compiles` (default off): log (warning level, logger "padax") each program
jit compiles, with its argument shapes.

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

import numpy as np


def _env_flag(name: str, default: bool = False) -> bool:
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    return value in ("1", "true", "yes", "on")


# jax's setting names that mean the same as one of padax's
_JAX_NAMES = {"jax_enable_x64": "enable_x64", "jax_disable_jit": "disable_jit",
              "jax_compilation_cache_dir": "compilation_cache_dir", "jax_num_cpu_devices": "num_cpu_devices",
              "jax_cpu_enable_async_dispatch": "cpu_async_dispatch", "jax_platforms": "platforms",
              "jax_platform_name": "platforms", "jax_default_matmul_precision": "default_matmul_precision",
              "jax_log_compiles": "log_compiles", "jax_debug_nans": "debug_nans", "jax_debug_infs": "debug_infs",
              "jax_threefry_partitionable": "threefry_partitionable", "jax_default_prng_impl": "default_prng_impl",
              "jax_numpy_rank_promotion": "numpy_rank_promotion"}

# jax settings padax answers with its one behaviour: reading gives it, setting it is accepted,
# setting anything else is an error
_FIXED = {"threefry_partitionable": True, "default_prng_impl": "threefry2x32", "numpy_rank_promotion": "allow"}

# matmul precisions jax's setting takes (padax.lax.Precision reads the same names)
MATMUL_PRECISIONS = ("default", "high", "highest", "bfloat16", "tensorfloat32", "float32", "fastest")


_DEFAULT_DTYPES = ("float16", "bfloat16", "float32", "float64")


def _default_dtype_name(value: Any) -> str:
    """The name of a dtype allowed as the default float dtype (a TypeError otherwise)."""
    if isinstance(value, str):
        name = value.lower().removeprefix("paddle.")
    else:
        try:
            name = np.dtype(value).name
        except TypeError:
            name = str(value)
    if name not in _DEFAULT_DTYPES:
        raise TypeError(f"set_default_dtype: the default dtype must be one of {', '.join(_DEFAULT_DTYPES)}; "
                        f"got {value!r}")
    return name


def _device_count(value: Any, where: str) -> int:
    """A positive number of CPU devices (a clear ValueError for 0, negatives, floats or text)."""
    try:
        n = int(value) if isinstance(value, str) else value
        ok = isinstance(n, int) and not isinstance(n, bool) and n >= 1
    except ValueError:
        ok = False
    if not ok:
        raise ValueError(f"{where}: the number of CPU devices must be a positive integer, got {value!r}")
    return n


class Config:
    """Named settings with change listeners (caches that depend on them subscribe)."""

    _names = ("enable_x64", "default_dtype", "disable_jit", "compilation_cache_dir", "num_cpu_devices",
              "cpu_async_dispatch", "platforms", "default_matmul_precision", "log_compiles")

    def __init__(self) -> None:
        self.enable_x64: bool = _env_flag("PADAX_ENABLE_X64", default=True)
        self.default_dtype: str = _default_dtype_name(os.environ.get("PADAX_DEFAULT_DTYPE", "float32"))
        self.disable_jit: bool = _env_flag("PADAX_DISABLE_JIT")
        self.compilation_cache_dir: str | None = os.environ.get("PADAX_COMPILATION_CACHE_DIR") or None
        self.num_cpu_devices: int = _device_count(os.environ.get("PADAX_NUM_CPU_DEVICES", "1"),
                                                  "the environment variable PADAX_NUM_CPU_DEVICES")
        self.cpu_async_dispatch: bool = _env_flag("PADAX_CPU_ASYNC_DISPATCH")
        self.platforms: str | None = os.environ.get("PADAX_PLATFORMS") or os.environ.get("JAX_PLATFORMS") or None
        self.default_matmul_precision: str | None = None
        self.log_compiles: bool = _env_flag("PADAX_LOG_COMPILES")
        self._listeners: list[Callable[[str, Any], None]] = []

    @staticmethod
    def _canonical_name(name: str) -> str:
        name = _JAX_NAMES.get(name, name)
        return name[len("padax_"):] if name.startswith("padax_") else name

    def __getattr__(self, name: str) -> Any:
        """jax's spellings read the same settings: `config.jax_enable_x64`."""
        canonical = Config._canonical_name(name)
        if canonical in _FIXED:
            return _FIXED[canonical]
        if canonical != name and not name.startswith("_"):
            return getattr(self, canonical)
        raise AttributeError(f"padax.config has no setting {name!r}")

    def update(self, name: str, value: Any) -> None:
        """Set a setting by name, e.g. `padax.config.update("enable_x64", True)` (or jax's `jax_enable_x64`)."""
        name = self._canonical_name(name)
        if name in _FIXED:
            if value != _FIXED[name]:
                raise ValueError(f"padax.config.update: padax implements only {name}={_FIXED[name]!r}, "
                                 f"got {value!r}")
            return
        if name not in self._names:
            raise ValueError(f"padax.config.update: unknown setting {name!r}; known: {', '.join(self._names)}")
        if name in ("enable_x64", "disable_jit", "cpu_async_dispatch", "log_compiles"):
            value = bool(value)
        elif name == "default_dtype":
            value = _default_dtype_name(value)
        elif name == "num_cpu_devices":
            value = _device_count(value, "padax.config.update('num_cpu_devices', ...)")
        elif name == "default_matmul_precision" and value is not None:
            value = str(value).lower()
            if value not in MATMUL_PRECISIONS:
                raise ValueError(f"padax.config.update: default_matmul_precision must be None or one of "
                                 f"{', '.join(MATMUL_PRECISIONS)}; got {value!r}")
        elif name == "platforms" and value is not None:
            value = str(value)
        if getattr(self, name) == value:  # nothing changes (and the CPU client is not replaced)
            return
        object.__setattr__(self, name, value)
        for fn in self._listeners:
            fn(name, value)

    def read(self, name: str) -> Any:
        return getattr(self, self._canonical_name(name))

    def on_change(self, fn: Callable[[str, Any], None]) -> None:
        self._listeners.append(fn)

    @contextlib.contextmanager
    def override(self, name: str, value: Any) -> Iterator[None]:
        name = self._canonical_name(name)
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
    """Context manager turning 64-bit types on (or, with False, JAX's 32-bit-only mode) for a block."""
    return config.override("enable_x64", flag)


def disable_jit(disable: bool = True):
    """Context manager running `jit`-decorated functions op by op (for debugging)."""
    return config.override("disable_jit", disable)


def default_matmul_precision(precision: str | None):
    """Context manager setting the precision of matrix products and convolutions that do not name
    one (`"float32"`/`"highest"`, `"tensorfloat32"`/`"high"`, `"bfloat16"`/`"default"`)."""
    return config.override("default_matmul_precision", precision)
