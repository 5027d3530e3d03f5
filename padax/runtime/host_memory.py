"""Keep XLA's CPU buffers in the process: glibc malloc thresholds for programs that allocate megabytes per call.

XLA's CPU runtime allocates each call's temporaries and results with malloc.
With glibc's defaults, the freed top of the heap beyond ~2x the largest
recent allocation goes back to the kernel after every call, so the next call
page-faults all of it in again (zeroed pages). On the benchmark machine that
doubled the median time of a vmap(grad) program with ~20 MB of temporaries
when it ran on the calling thread (benchmarks/PROFILING.md). padax therefore
fixes the mmap threshold at glibc's own dynamic maximum (32 MiB: smaller
blocks come from the heap and are reused) and keeps up to 256 MiB of free heap
before trimming. Set `PADAX_MALLOC_TUNING=0` to leave malloc alone.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys

MMAP_THRESHOLD = 32 << 20
TRIM_THRESHOLD = 256 << 20
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameter numbers
_applied: dict | None = None


def tune_host_allocator() -> dict | None:
    """Apply the thresholds once (glibc only); returns what was set, or None if nothing was."""
    global _applied
    if _applied is not None:
        return _applied or None
    _applied = {}
    if os.environ.get("PADAX_MALLOC_TUNING", "1").strip().lower() in ("0", "false", "no", "off"):
        return None
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.gnu_get_libc_version  # noqa: B018 (only glibc has mallopt with these parameters)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return None
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    if mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1 and mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD) == 1:
        _applied = {"mmap_threshold": MMAP_THRESHOLD, "trim_threshold": TRIM_THRESHOLD}
    return _applied or None
