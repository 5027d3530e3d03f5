"""Compile StableHLO through PJRT, with an opt-in on-disk cache of executables.

Set `padax.config.update("compilation_cache_dir", path)` (or
`PADAX_COMPILATION_CACHE_DIR`) to keep compiled programs across processes.
Entries are keyed by a hash of the module bytecode, jaxlib's version, the
platform and the devices; they are written atomically (temp file + rename).
Only point the cache at a directory you trust: loading an executable runs
native code.
"""
from __future__ import annotations

import hashlib
import os
import tempfile
from typing import Sequence

from padax.config import config
from padax.devices import _jaxlib
from padax.lowering.mlir import LoweredModule


class CompileError(Exception):
    """XLA rejected a program padax produced."""


def _cache_key(lowered: LoweredModule, devices: Sequence) -> str:
    h = hashlib.sha256()
    h.update(lowered.bytecode)
    h.update(_jaxlib.JAXLIB_VERSION.encode())
    h.update(repr([(d.platform, d.id) for d in devices]).encode())
    h.update(str(lowered.num_partitions).encode())
    return h.hexdigest()


def _options(lowered: LoweredModule, devices: Sequence):
    n = lowered.num_partitions
    if n > 1:
        return _jaxlib.compile_options(1, n, [[d.id for d in devices]],
                                       propagate_outputs=lowered.propagate_outputs)
    if devices[0] != devices[0].client.local_devices()[0]:  # one device, not the first: say which
        return _jaxlib.compile_options(1, 1, [[devices[0].id]])
    return _jaxlib.compile_options()


def compile_lowered(lowered: LoweredModule, devices: Sequence):
    """A loaded executable for `lowered` on `devices` (one per partition)."""
    client = devices[0].client
    options = _options(lowered, devices)
    cache_dir = config.compilation_cache_dir
    path = None
    if cache_dir:
        path = os.path.join(cache_dir, _cache_key(lowered, devices) + ".xla")
        if os.path.exists(path):
            try:
                with open(path, "rb") as f:
                    return _jaxlib.deserialize_executable(client, f.read(), devices, options)
            except Exception:
                pass  # stale or corrupt entry: recompile and overwrite
    try:
        exe = _jaxlib.compile(client, lowered.bytecode, devices, options)
    except _jaxlib.XlaRuntimeError as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise CompileError(f"XLA failed to compile a padax program: {first}") from None
    if path is not None:
        atomic_write(path, _jaxlib.serialize_executable(client, exe))
    return exe


def _file_mode() -> int:
    """rw for whom the umask allows (a temp file starts private; the saved file should not be)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


_FILE_MODE = _file_mode()


def atomic_write(path: str, data: bytes) -> None:
    """Write `data` to `path` all at once (temp file in the same folder, fsync, rename): never half a file."""
    directory = os.path.dirname(path) or "."
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=directory, suffix=".tmp")
    try:
        os.fchmod(fd, _FILE_MODE)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def memory_analysis(lowered: LoweredModule, devices: Sequence) -> dict[str, int]:
    """Compile `lowered` and report the bytes XLA assigns it (temp, argument, output, alias, generated_code)."""
    return _jaxlib.compiled_memory_stats(compile_lowered(lowered, devices))
