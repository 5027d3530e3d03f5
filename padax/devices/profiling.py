"""XLA's profiler, as padax uses it: named spans (TraceMe), profiler sessions and the profiler server.

The spans (`span("padax.compile")`) appear in the same trace as the HLO ops
of compiled programs: padax marks tracing, lowering, compiling and dispatch
with them. They cost about 0.1 us when no profiler is recording. The session
functions are what `padax.profiler` is built on; `profile_data_events`
reads a finished session's events without going through files.
"""
from __future__ import annotations

import contextlib
from typing import Any, Iterator

from jaxlib import _profiler

TraceMe = _profiler.TraceMe
_null = contextlib.nullcontext()


def recording() -> bool:
    """Whether a profiler session (ours, or one TensorBoard started through the server) is recording."""
    return TraceMe.is_enabled()


def span(name: str, **metadata: Any):
    """A context manager marking a named span in the profile (a no-op unless one is recording)."""
    if TraceMe.is_enabled():
        return TraceMe(name, **metadata)
    return _null


@contextlib.contextmanager
def always_span(name: str, **metadata: Any) -> Iterator[None]:
    """A span recorded whenever a session is active (checked at exit too: for user-level RecordEvents)."""
    with TraceMe(name, **metadata):
        yield


def start_session(host_tracer_level: int = 2, python_tracer_level: int = 0):
    """Start recording: host (TraceMe) events up to `host_tracer_level`, Python calls if the
    python level is 1. Raises if a session is already recording in this process."""
    options = _profiler.ProfileOptions()
    options.host_tracer_level = host_tracer_level
    options.python_tracer_level = python_tracer_level
    options.raise_error_on_start_failure = True
    return _profiler.ProfilerSession(options)


def stop_and_export(session, log_dir: str) -> None:
    """Stop and write TensorBoard's profile-plugin layout: log_dir/plugins/profile/<run>/<host>.xplane.pb
    and <host>.trace.json.gz (Chrome trace events)."""
    session.stop_and_export(log_dir)


def start_server(port: int):
    """XLA's profiler server (TensorBoard's 'capture profile' connects to it)."""
    return _profiler.start_server(port)
