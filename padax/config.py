"""Global settings: types, jit, the on-disk compilation cache, the CPU client, debugging checks, logging.

`padax.config.update(name, value)` sets one (jax's names, e.g.
`jax_enable_x64`, are accepted too); environment variables give the
defaults (`PADAX_<NAME>`, e.g. `PADAX_ENABLE_X64=0`, `PADAX_DEBUG_NANS=1`).
`padax.config.describe()` lists every setting with its value and where the
value came from (default, env or set).

`enable_x64` (default on): 64-bit types exist, as in Paddle; defaults stay
Paddle's (float32 for Python floats, int64 for Python ints). Off, padax runs
in JAX's 32-bit-only mode: every 64-bit request becomes its 32-bit sibling
(for accelerators where 64-bit arithmetic is slow or missing). jax's spelling,
`config.update("jax_enable_x64", True)`, also makes float64 the default float
dtype, as it is in jax (scientific code written for jax expects it).

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

The persistent compilation cache (`padax/lowering/compile.py`) is on by
default in `$XDG_CACHE_HOME/padax/xla` (`~/.cache/padax/xla`):
`compilation_cache_dir` moves it (None or "" switches it off, as does
`enable_compilation_cache=False`), `compilation_cache_max_size` bounds it in
bytes (least recently used entries go first; -1: no bound) and
`compilation_cache_min_compile_time` (seconds, default 0: every program,
eager one-op programs included) skips programs that compile faster than that.

`live_executable_limit` (default 4096; 0: none) bounds the compiled programs a
process keeps alive: each holds ~3 memory mappings of machine code, and Linux
allows 65,530 per process (vm.max_map_count), past which XLA's JIT fails and
the process can crash. When more are alive, padax empties its in-memory
program caches as `padax.clear_caches()` does (the persistent cache reloads
them in about a millisecond each).

Debugging: `debug_nans` / `debug_infs` re-run a program that produced a NaN /
an infinity op by op and raise FloatingPointError naming the primitive and
the line (padax/transforms/debug_nans.py); `check_tracer_leaks` reports tracers
that outlive their transformation. `log_level` (`PADAX_LOG_LEVEL`: debug,
info, warning, error) sets padax's Python logger and the level of jaxlib's C++
log lines; the C++ level is read once, when the first device client is made,
so set it before that (the environment variable always is).
"""
from __future__ import annotations

import contextlib
import logging
import os
from typing import Any, Callable, Iterator

import numpy as np


def _flag(value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in ("1", "true", "yes", "on")
    return bool(value)


# jax's setting names that mean the same as one of padax's
_JAX_NAMES = {"jax_enable_x64": "enable_x64", "jax_disable_jit": "disable_jit",
              "jax_compilation_cache_dir": "compilation_cache_dir", "jax_num_cpu_devices": "num_cpu_devices",
              "jax_cpu_enable_async_dispatch": "cpu_async_dispatch", "jax_debug_nans": "debug_nans",
              "jax_debug_infs": "debug_infs", "jax_check_tracer_leaks": "check_tracer_leaks",
              "jax_enable_compilation_cache": "enable_compilation_cache",
              "jax_compilation_cache_max_size": "compilation_cache_max_size",
              "jax_persistent_cache_min_compile_time_secs": "compilation_cache_min_compile_time",
              "jax_logging_level": "log_level", "jax_platforms": "platforms", "jax_platform_name": "platforms",
              "jax_default_matmul_precision": "default_matmul_precision", "jax_log_compiles": "log_compiles",
              "jax_threefry_partitionable": "threefry_partitionable", "jax_default_prng_impl": "default_prng_impl",
              "jax_numpy_rank_promotion": "numpy_rank_promotion"}

# jax settings padax answers with its one behaviour: reading gives it, setting it is accepted,
# setting anything else is an error
_FIXED = {"threefry_partitionable": True, "default_prng_impl": "threefry2x32", "numpy_rank_promotion": "allow"}

# matmul precisions jax's setting takes (padax.lax.Precision reads the same names)
MATMUL_PRECISIONS = ("default", "high", "highest", "bfloat16", "tensorfloat32", "float32", "fastest")


_DEFAULT_DTYPES = ("float16", "bfloat16", "float32", "float64")
LOG_LEVELS = ("debug", "info", "warning", "error")


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


def _log_level_name(value: Any) -> str:
    name = str(value).strip().lower()
    aliases = {"0": "info", "1": "warning", "2": "error", "3": "error", "warn": "warning",
               "critical": "error", "fatal": "error"}
    name = aliases.get(name, name)
    if name not in LOG_LEVELS:
        raise ValueError(f"padax.config: log_level must be one of {', '.join(LOG_LEVELS)}; got {value!r}")
    return name


def _cache_dir(value: Any) -> str | None:
    return str(value) if value else None


def _int_at_least(what: str, minimum: int = 1) -> Callable[[Any], int]:
    """A parser of integers >= minimum (a clear ValueError for smaller ones, bools, floats or text)."""
    kind = "a positive integer" if minimum == 1 else f"an integer >= {minimum}"

    def parse(value: Any) -> int:
        try:
            n = int(value) if isinstance(value, str) else value
            ok = isinstance(n, int) and not isinstance(n, bool) and n >= minimum
        except ValueError:
            ok = False
        if not ok:
            raise ValueError(f"padax.config: {what} must be {kind}, got {value!r}")
        return n
    return parse


_device_count = _int_at_least("the number of CPU devices (num_cpu_devices, PADAX_NUM_CPU_DEVICES)")
_cache_size = _int_at_least("jit_cache_size (PADAX_JIT_CACHE_SIZE), the programs kept per jitted function,")
_live_limit = _int_at_least("live_executable_limit (PADAX_LIVE_EXECUTABLE_LIMIT)", minimum=0)


def _matmul_precision(value: Any) -> str | None:
    if value is None:
        return None
    name = str(value).lower()
    if name not in MATMUL_PRECISIONS:
        raise ValueError(f"padax.config: default_matmul_precision must be None or one of "
                         f"{', '.join(MATMUL_PRECISIONS)}; got {value!r}")
    return name


def _platforms(value: Any) -> str | None:
    return str(value) if value else None


def default_cache_dir() -> str:
    """The per-user compilation cache: $XDG_CACHE_HOME/padax/xla, else ~/.cache/padax/xla."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "padax", "xla")


class _Setting:
    __slots__ = ("name", "parse", "default", "env", "doc")

    def __init__(self, name: str, parse: Callable[[Any], Any], default: Any, doc: str):
        self.name, self.parse, self.default, self.doc = name, parse, default, doc
        self.env = "PADAX_" + name.upper()


# name -> (parser, default, one line of documentation); the environment variable is PADAX_<NAME>
_SETTINGS = {s.name: s for s in (
    _Setting("enable_x64", _flag, True, "64-bit types exist (off: JAX's 32-bit-only mode)"),
    _Setting("default_dtype", _default_dtype_name, "float32", "dtype of Python floats"),
    _Setting("disable_jit", _flag, False, "run jit-decorated functions op by op"),
    _Setting("compilation_cache_dir", _cache_dir, default_cache_dir(),
             "persistent compilation cache directory (None: no disk cache)"),
    _Setting("enable_compilation_cache", _flag, True, "use the persistent compilation cache"),
    _Setting("compilation_cache_max_size", int, 1 << 30,
             "bound on the cache's size in bytes, least recently used entries evicted (-1: no bound)"),
    _Setting("compilation_cache_min_compile_time", float, 0.0,
             "only programs that took at least this many seconds to compile are written to the cache"),
    _Setting("num_cpu_devices", _device_count, 1, "CPU devices of the CPU client"),
    _Setting("cpu_async_dispatch", _flag, False, "run single-device CPU programs on a worker thread"),
    _Setting("debug_nans", _flag, False, "find the primitive that produced a NaN and raise"),
    _Setting("debug_infs", _flag, False, "find the primitive that produced an infinity and raise"),
    _Setting("check_tracer_leaks", _flag, False, "raise when a tracer outlives its transformation"),
    _Setting("log_level", _log_level_name, "warning", "padax's logger and jaxlib's C++ log lines"),
    _Setting("platforms", _platforms, None, "platforms to use, e.g. 'cpu' (None: every installed one)"),
    _Setting("default_matmul_precision", _matmul_precision, None,
             "precision of matmuls and convolutions that name none (None: the backend's)"),
    _Setting("log_compiles", _flag, False, "log each program jit compiles, with its argument shapes"),
    _Setting("jit_cache_size", _cache_size, 1024,
             "compiled programs kept per jitted function, least recently used evicted (padax.clear_caches())"),
    _Setting("live_executable_limit", _live_limit, 4096,
             "past this many compiled programs alive, padax empties its program caches (0: no bound)"),
)}


class Config:
    """Named settings with change listeners (caches that depend on them subscribe)."""

    _names = tuple(_SETTINGS)

    def __init__(self) -> None:
        self._listeners: list[Callable[[str, Any], None]] = []
        self._sources: dict[str, str] = {}
        for s in _SETTINGS.values():
            raw = os.environ.get(s.env)
            if raw is None and s.name == "platforms":
                raw = os.environ.get("JAX_PLATFORMS")
            if raw is not None and (raw.strip() or s.name == "compilation_cache_dir"):
                object.__setattr__(self, s.name, s.parse(raw))
                self._sources[s.name] = f"env {s.env}"
            else:
                object.__setattr__(self, s.name, s.default)
                self._sources[s.name] = "default"

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
        """Set a setting by name, e.g. `padax.config.update("enable_x64", True)` (or jax's `jax_enable_x64`).

        jax's `jax_enable_x64` also gives jax's defaults: on, Python floats and creation functions
        without a dtype are float64 (as in jax); off, padax runs in the 32-bit mode with float32.
        """
        if name == "jax_enable_x64":
            self.update("default_dtype", "float64" if _flag(value) else "float32")
        name = self._canonical_name(name)
        if name in _FIXED:
            if value != _FIXED[name]:
                raise ValueError(f"padax.config.update: padax implements only {name}={_FIXED[name]!r}, "
                                 f"got {value!r}")
            return
        setting = _SETTINGS.get(name)
        if setting is None:
            raise ValueError(f"padax.config.update: unknown setting {name!r}; known: {', '.join(self._names)}")
        value = setting.parse(value) if value is not None or name != "compilation_cache_dir" else None
        self._sources[name] = "set"
        if getattr(self, name) == value:  # nothing changes (and the CPU client is not replaced)
            return
        object.__setattr__(self, name, value)
        for fn in self._listeners:
            fn(name, value)

    def read(self, name: str) -> Any:
        return getattr(self, self._canonical_name(name))

    def source(self, name: str) -> str:
        """Where a setting's value came from: 'default', 'env PADAX_...' or 'set'."""
        return self._sources[name]

    def describe(self) -> str:
        """A table of every setting: name, current value, source and what it does."""
        rows = [(n, repr(getattr(self, n)), self._sources[n], _SETTINGS[n].doc) for n in self._names]
        w = [max(len(r[i]) for r in rows + [("setting", "value", "source", "")]) for i in range(3)]
        lines = [f"{'setting':{w[0]}}  {'value':{w[1]}}  {'source':{w[2]}}  meaning"]
        lines += [f"{n:{w[0]}}  {v:{w[1]}}  {s:{w[2]}}  {d}" for n, v, s, d in rows]
        return "\n".join(lines)

    def on_change(self, fn: Callable[[str, Any], None]) -> None:
        self._listeners.append(fn)

    @contextlib.contextmanager
    def override(self, name: str, value: Any) -> Iterator[None]:
        name = self._canonical_name(name)
        old, old_source = getattr(self, name), self._sources.get(name)
        self.update(name, value)
        try:
            yield
        finally:
            self.update(name, old)
            self._sources[name] = old_source

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _SETTINGS:
            self.update(name, value)
        else:
            object.__setattr__(self, name, value)

    def __repr__(self) -> str:
        return "Config(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in self._names) + ")"


config = Config()


# -- logging: padax's Python logger, and the minimum level of jaxlib's C++ log lines ------------------

_CPP_LEVEL = {"debug": "0", "info": "0", "warning": "1", "error": "2"}
logger = logging.getLogger("padax")


def _apply_log_level(level: str, explicit: bool) -> None:
    """Python logger level, and the C++ one (TF_CPP_MIN_LOG_LEVEL, as jax sets it): a level the
    user asked padax for replaces it, the default only fills it in when it is unset."""
    logger.setLevel(getattr(logging, level.upper()))
    if explicit:
        os.environ["TF_CPP_MIN_LOG_LEVEL"] = _CPP_LEVEL[level]
    else:
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", _CPP_LEVEL[level])


_apply_log_level(config.log_level, config.source("log_level") != "default")
config.on_change(lambda name, value: _apply_log_level(value, True) if name == "log_level" else None)


def enable_x64(flag: bool = True):
    """Context manager turning 64-bit types on (or, with False, JAX's 32-bit-only mode) for a block.

    Args:
        flag: True turns 64-bit types on, False gives JAX's 32-bit-only mode, inside the block.

    Returns:
        A context manager; the previous value comes back on exit.

    Examples:
        >>> import padax
        >>> with padax.enable_x64(False):
        ...     print(padax.arange(3).dtype, padax.to_tensor([1.0], dtype='float64').dtype)
        int32 float32
        >>> padax.arange(3).dtype
        dtype('int64')
    """
    return config.override("enable_x64", flag)


def disable_jit(disable: bool = True):
    """Context manager running `jit`-decorated functions op by op (for debugging: print values, pdb).

    Args:
        disable: True runs jitted functions op by op inside the block.

    Returns:
        A context manager.

    Examples:
        >>> import padax
        >>> @padax.jit
        ... def f(x):
        ...     print(type(x).__name__)
        ...     return x + 1.0
        >>> with padax.disable_jit():
        ...     float(f(padax.to_tensor(1.0)))
        Tensor
        2.0
    """
    return config.override("disable_jit", disable)


def default_matmul_precision(precision: str | None):
    """Context manager setting the precision of matrix products and convolutions that do not name
    one (`"float32"`/`"highest"`, `"tensorfloat32"`/`"high"`, `"bfloat16"`/`"default"`).

    Args:
        precision: 'float32'/'highest', 'tensorfloat32'/'high', 'bfloat16'/'default', or None.

    Returns:
        A context manager; the previous value comes back on exit.

    Examples:
        >>> import padax
        >>> with padax.default_matmul_precision("float32"):
        ...     print(padax.config.default_matmul_precision)
        float32
        >>> print(padax.config.default_matmul_precision)
        None
    """
    return config.override("default_matmul_precision", precision)
