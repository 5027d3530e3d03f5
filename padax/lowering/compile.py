"""Compile StableHLO through PJRT, with the persistent on-disk cache of executables.

The cache (padax/lowering/compile_cache.py) is on by default in a per-user
directory; entries are keyed by a hash of the program, jaxlib's version, the
platform and its version, the devices, the compile options and XLA_FLAGS.
The program is its module bytecode, or, for a single-device jaxpr with a
fingerprint (padax/lowering/fingerprint.py), that fingerprint: a process
that finds such a program in the cache never lowers it (nor imports jaxlib's
MLIR bindings). Programs that call back into Python (debug.print,
pure_callback, ...) are never cached: the functions live only in this
process.
"""
from __future__ import annotations

import hashlib
import os
import time
from typing import TYPE_CHECKING, Sequence

from padax.config import config, logger
from padax.lowering import compile_cache
from padax.lowering.fingerprint import program_fingerprint
from padax.runtime import _jaxlib, backend
from padax.runtime.profiling import span

if TYPE_CHECKING:
    from padax.core.jaxpr import Jaxpr
    from padax.lowering.mlir import LoweredModule


class CompileError(Exception):
    """XLA rejected a program padax produced."""


def _cache_key(program: bytes, num_partitions: int, devices: Sequence, options) -> str:
    h = hashlib.sha256()
    h.update(program)
    h.update(_jaxlib.JAXLIB_VERSION.encode())
    h.update(repr([(d.platform, d.id) for d in devices]).encode())
    h.update(repr(devices[0].client.platform_version).encode())
    h.update(str(num_partitions).encode())
    h.update(_jaxlib.serialize_compile_options(options))
    h.update(os.environ.get("XLA_FLAGS", "").encode())
    return h.hexdigest()


def _single_device_options(device):
    if device != device.client.local_devices()[0]:  # one device, not the first: say which
        return _jaxlib.compile_options(1, 1, [[device.id]])
    return _jaxlib.compile_options()


def _options(lowered: LoweredModule, devices: Sequence):
    n = lowered.num_partitions
    if n > 1:
        return _jaxlib.compile_options(1, n, [[d.id for d in devices]],
                                       propagate_outputs=lowered.propagate_outputs)
    return _single_device_options(devices[0])


# A fingerprint-keyed entry starts with this line and a line naming the program's runtime needs.
_FP_ENTRY = b"padax-fingerprint-entry-1\n"


def compile_jaxpr_on(jaxpr: Jaxpr, name: str, donated: Sequence[bool], device) -> tuple:
    """(loaded executable, host callbacks) of `lower_jaxpr(jaxpr, name=name, donated=donated)` on one device.

    With the persistent cache on and a fingerprint for the jaxpr, a cached program is loaded without
    lowering; otherwise the jaxpr is lowered and compiled (and cached under its fingerprint if it has one).
    """
    backend.check_not_forked()
    key = None
    if compile_cache.cache_dir() is not None:
        fp = program_fingerprint(jaxpr, name, donated)
        if fp is not None:
            options = _single_device_options(device)
            key = _cache_key(b"fingerprint:" + fp, 1, [device], options)
            exe = _load_fingerprinted(key, device, options)
            if exe is not None:
                return exe, ()
    from padax.lowering.mlir import lower_jaxpr  # startup time: jaxlib's MLIR bindings load on the first lowering
    lowered = lower_jaxpr(jaxpr, name=name, donated=donated)
    return compile_lowered(lowered, [device], key), lowered.host_callbacks


def _load_fingerprinted(key: str, device, options):
    data = compile_cache.get(key)
    if data is None or not data.startswith(_FP_ENTRY):
        return None
    needs, _, exe_bytes = data[len(_FP_ENTRY):].partition(b"\n")
    try:
        for need in filter(None, needs.decode().split(",")):
            _jaxlib.RUNTIME_SETUP[need]()
    except Exception:
        return None
    return _load(device.client, exe_bytes, [device], options)


def _load(client, data: bytes, devices: Sequence, options):
    """The executable serialized in a cache entry, or None if it no longer loads (then recompile, overwrite)."""
    try:
        with span("padax.load_cached_executable"):
            exe = _jaxlib.deserialize_executable(client, data, devices, options)
    except Exception:
        return None
    _count_new_executable(client)
    return exe


# Every few hundred new executables, the number alive is checked against config.live_executable_limit
# (each holds ~3 memory mappings of machine code; past Linux's 65,530 per process, XLA's JIT fails).
_CHECK_EVERY = 256
_new_since_check = 0


def _count_new_executable(client) -> None:
    global _new_since_check, _warned_held
    _new_since_check += 1
    if _new_since_check < _CHECK_EVERY:
        return
    _new_since_check = 0
    limit = config.live_executable_limit
    if limit <= 0 or backend.live_executable_count(client) <= limit:
        return
    backend.empty_client_caches()
    held = backend.live_executable_count(client)
    if held > limit and not _warned_held:
        _warned_held = True
        logger.warning("padax: %d compiled programs stay alive after emptying padax's caches (limit %d, "
                       "config.live_executable_limit): objects outside them hold them, such as AOT-compiled "
                       "programs", held, limit)


_warned_held = False


def compile_lowered(lowered: LoweredModule, devices: Sequence, fingerprint_key: str | None = None):
    """A loaded executable for `lowered` on `devices` (one per partition).

    `fingerprint_key` (from `compile_jaxpr_on`) caches the program under its jaxpr's fingerprint instead of
    its module, with the runtime needs its lowering recorded.
    """
    backend.check_not_forked()
    client = devices[0].client
    options = _options(lowered, devices)
    key = None
    if not lowered.host_callbacks and compile_cache.cache_dir() is not None:
        key = fingerprint_key or _cache_key(lowered.bytecode, lowered.num_partitions, devices, options)
        data = compile_cache.get(key) if fingerprint_key is None else None
        exe = None if data is None else _load(client, data, devices, options)
        if exe is not None:
            return exe
    t0 = time.perf_counter()
    try:
        with span("padax.compile"):
            exe = _jaxlib.compile(client, lowered.bytecode, devices, options, lowered.host_callbacks,
                                  lowered.module)
    except _jaxlib.XlaRuntimeError as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise CompileError(f"XLA failed to compile a padax program: {first}") from None
    _count_new_executable(client)
    if key is not None and time.perf_counter() - t0 >= config.compilation_cache_min_compile_time:
        try:
            data = _jaxlib.serialize_executable(client, exe)
        except Exception:  # (XLA could not serialize this program) the cache is an optimisation: run uncached
            return exe
        if fingerprint_key is not None:
            data = _FP_ENTRY + ",".join(lowered.runtime_needs).encode() + b"\n" + data
        compile_cache.put(key, data)
    return exe
