"""XLA's profiler, as padax uses it: named spans (TraceMe), profiler sessions and the profiler server.

The spans (`span("padax.compile")`) appear in the same trace as the HLO ops
of compiled programs: padax marks tracing, lowering, compiling and dispatch
with them. They cost about 0.1 us when no profiler is recording. The session
functions are what `padax.profiler` is built on; `xspace_events` reads a
finished session's events (XLA's XSpace protobuf) into plain tuples.
"""
from __future__ import annotations

import contextlib
from typing import Any, NamedTuple

from padax.runtime import _jaxlib

TraceMe = _jaxlib.TraceMe
_null = contextlib.nullcontext()


def recording() -> bool:
    """Whether a profiler session (ours, or one TensorBoard started through the server) is recording."""
    return TraceMe.is_enabled()


def span(name: str, **metadata: Any):
    """A context manager marking a named span in the profile (a no-op unless one is recording)."""
    if TraceMe.is_enabled():
        return TraceMe(name, **metadata)
    return _null


def start_session(host_tracer_level: int = 2, python_tracer_level: int = 0):
    """Start recording: host (TraceMe) events up to `host_tracer_level`, Python calls if the
    python level is 1 (padax.profiler allows one session at a time: see padax/profiler/_session.py)."""
    return _jaxlib.profiler_session(host_tracer_level, python_tracer_level)


def stop_and_export(session, log_dir: str) -> None:
    """Stop and write TensorBoard's profile-plugin layout: log_dir/plugins/profile/<run>/<host>.xplane.pb
    and <host>.trace.json.gz (Chrome trace events)."""
    session.stop_and_export(log_dir)


def start_server(port: int):
    """XLA's profiler server (TensorBoard's 'capture profile' connects to it)."""
    return _jaxlib.profiler_server(port)


def stop(session) -> bytes:
    """Stop recording; the serialized XSpace (what TensorBoard's .xplane.pb files hold)."""
    return session.stop()


class Event(NamedTuple):
    plane: str      # e.g. "/host:CPU"
    line: str       # a thread, e.g. "python"
    thread_id: int
    name: str
    start_ns: float
    duration_ns: float
    stats: dict     # e.g. {"hlo_op": "fusion", "hlo_module": "jit_f"} for an op of a compiled program


def xspace_events(xspace: bytes) -> list[Event]:
    """Every event of a serialized XSpace, with its plane, thread and stats (internal `_` stats dropped)."""
    out = []
    for plane in _jaxlib.xspace_planes(xspace):
        for tid, line in enumerate(plane.lines):
            for e in line.events:
                stats = {k: v for k, v in e.stats if not k.startswith("_")}
                out.append(Event(plane.name, line.name, tid, e.name, e.start_ns, e.duration_ns, stats))
    return out
