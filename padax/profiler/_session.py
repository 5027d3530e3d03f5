"""The one profiler session of the process (XLA records one at a time): who holds it, starting, stopping."""
from __future__ import annotations

import threading
from typing import Any

from padax.runtime import profiling

_lock = threading.Lock()
_owner: Any = None
_session = None


def start(owner: Any, what: str, python_tracer_level: int = 0) -> None:
    """Start recording for `owner`; a second start (by anyone) while one records is an error."""
    global _owner, _session
    with _lock:
        if _session is not None:
            raise RuntimeError(f"padax.profiler: cannot start {what}: a profiler is already recording "
                               f"({_owner!r}). Stop it first (Profiler.stop() / padax.profiler.stop_trace()).")
        _session = profiling.start_session(python_tracer_level=python_tracer_level)
        _owner = owner


def stop(owner: Any) -> bytes:
    """Stop the session `owner` started; the recorded XSpace."""
    global _owner, _session
    with _lock:
        if _session is None or _owner is not owner:
            raise RuntimeError("padax.profiler: this profiler is not recording (it was not started, or was "
                               "already stopped)")
        session, _session, _owner = _session, None, None
    return profiling.stop(session)


def stop_and_export(owner: Any, log_dir: str) -> None:
    global _owner, _session
    with _lock:
        if _session is None or _owner is not owner:
            raise RuntimeError("padax.profiler.stop_trace: no trace was started (padax.profiler.start_trace)")
        session, _session, _owner = _session, None, None
    profiling.stop_and_export(session, log_dir)


def recording_owner() -> Any:
    return _owner
