"""The persistent compilation cache: compiled programs kept on disk across processes.

One file per program, `<sha256 key>.xla`, in `config.compilation_cache_dir`
(by default `$XDG_CACHE_HOME/padax/xla`, i.e. `~/.cache/padax/xla`, created
private to the user). Safe with several processes at once: an entry is
written to a temporary file and renamed into place (readers see a whole
entry or none), every entry carries a format line and a SHA-256 of its
bytes that a read checks before anything reaches XLA (a truncated, corrupt
or foreign file is a miss: recompiled and replaced),
and eviction tolerates files another process removed first. The cache is
bounded by `config.compilation_cache_max_size` bytes: the least recently
used entries (a hit refreshes an entry's mtime) are removed until the rest
fits. Listing a large cache takes a while (~70 ms for 15,000 entries), so
the bound is enforced after a write at most once a minute for all processes
together (a marker file keeps the time) and whenever a process has written a
quarter of the bound (at most 64 MiB) since it last enforced it. Programs
that took at least `config.compilation_cache_min_compile_time` seconds to
compile are written (by default all: loading even a one-op program is ~10x
faster than compiling it).
A directory that cannot be created or written warns once and padax runs
without the cache.

Only point the cache at a directory you trust: loading an entry runs the
native code in it.
"""
from __future__ import annotations

import hashlib
import logging
import os
import tempfile
import time
import warnings

from padax.config import config

logger = logging.getLogger("padax.compilation_cache")
_SUFFIX = ".xla"
_unusable: set[str] = set()   # directories that failed (warned about once)
_ready: set[str] = set()      # directories created and checked writable
_MARKER = ".last-eviction"    # its mtime: when a process last enforced the size bound
_EVICT_EVERY_S = 60.0
_HEADER = b"padax-compilation-cache-entry-1\n"   # then the payload's SHA-256 digest, then the payload
_written_since_eviction: dict[str, int] = {}  # per directory, bytes this process wrote since it last evicted


def cache_dir() -> str | None:
    """The directory in use, or None when the cache is off or the directory is unusable."""
    d = config.compilation_cache_dir if config.enable_compilation_cache else None
    if not d:
        return None
    d = os.path.expanduser(d)
    if d in _ready:
        return d
    if d in _unusable:
        return None
    try:
        os.makedirs(d, mode=0o700, exist_ok=True)
        if not os.access(d, os.W_OK | os.X_OK):
            raise PermissionError(f"no write permission on {d}")
    except OSError as e:
        _give_up(d, e)
        return None
    _ready.add(d)
    return d


def _give_up(d: str, error: BaseException) -> None:
    _unusable.add(d)
    _ready.discard(d)
    warnings.warn(f"padax: the compilation cache directory {d!r} cannot be used ({error}); running without "
                  "the persistent compilation cache. Set padax.config.update('compilation_cache_dir', path) or "
                  "PADAX_COMPILATION_CACHE_DIR to a writable directory, or None to switch the cache off.",
                  RuntimeWarning, stacklevel=4)


def get(key: str) -> bytes | None:
    """The entry's bytes (and mark it recently used), or None."""
    d = cache_dir()
    if d is None:
        return None
    path = os.path.join(d, key + _SUFFIX)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    payload = _verified(data)
    if payload is None:
        logger.debug("compilation cache entry %s is corrupt or from another format; recompiling", key)
        return None
    try:
        os.utime(path)
    except OSError:
        pass
    logger.debug("compilation cache hit %s", key)
    return payload


def _verified(data: bytes) -> bytes | None:
    """The payload of a stored entry whose header and checksum match, else None."""
    start = len(_HEADER) + 32
    if not data.startswith(_HEADER) or len(data) < start:
        return None
    payload = data[start:]
    return payload if hashlib.sha256(payload).digest() == data[len(_HEADER):start] else None


def put(key: str, data: bytes) -> None:
    """Store an entry atomically, then evict least recently used entries beyond the size bound."""
    d = cache_dir()
    if d is None:
        return
    try:
        _write_atomic(os.path.join(d, key + _SUFFIX), _HEADER + hashlib.sha256(data).digest() + data)
    except OSError as e:
        _give_up(d, e)
        return
    logger.debug("compilation cache write %s (%d bytes)", key, len(data))
    _written_since_eviction[d] = _written_since_eviction.get(d, 0) + len(data)
    max_size = config.compilation_cache_max_size
    if _eviction_due(d, max_size):
        try:
            with open(os.path.join(d, _MARKER), "wb"):
                pass  # (touch first: processes writing at the same moment skip their scan)
        except OSError:
            pass
        _written_since_eviction[d] = 0
        evict(d, max_size)


def _eviction_due(d: str, max_size: int | None) -> bool:
    """Whether a write should be followed by a scan enforcing the size bound (see the module docstring)."""
    if max_size is None or max_size < 0:
        return False
    if _written_since_eviction.get(d, 0) >= min(64 << 20, max_size // 4):
        return True
    try:
        return time.time() - os.stat(os.path.join(d, _MARKER)).st_mtime >= _EVICT_EVERY_S
    except OSError:
        return True


def _write_atomic(path: str, data: bytes) -> None:
    """Temp file in the same folder, renamed into place (no fsync: a lost entry is only recompiled)."""
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def evict(d: str, max_size: int) -> int:
    """Remove the least recently used entries until the directory holds at most `max_size` bytes."""
    if max_size is None or max_size < 0:
        return 0
    entries = []
    with os.scandir(d) as it:
        for e in it:
            if e.name.endswith(_SUFFIX):
                try:
                    st = e.stat()
                except OSError:
                    continue
                entries.append((st.st_mtime, st.st_size, e.path))
    total = sum(size for _, size, _ in entries)
    removed = 0
    for _, size, path in sorted(entries):
        if total <= max_size:
            break
        try:
            os.unlink(path)
            removed += 1
        except FileNotFoundError:
            pass  # another process evicted it first
        except OSError:
            continue
        total -= size
    return removed


def size_bytes() -> int:
    """Bytes the cache directory's entries take (0 without a cache)."""
    d = cache_dir()
    if d is None:
        return 0
    with os.scandir(d) as it:
        return sum(e.stat().st_size for e in it if e.name.endswith(_SUFFIX))
