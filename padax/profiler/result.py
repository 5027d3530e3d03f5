"""What a profiler run recorded: the events, as a Chrome/Perfetto trace or XSpace, and summary tables."""
from __future__ import annotations

import collections
import enum
import gzip
import json
import os
import statistics
from typing import Any, Sequence

from padax.runtime.profiling import Event, xspace_events


class SortedKeys(enum.Enum):
    """How Profiler.summary() orders its rows (Paddle's names; GPU means device time).

    Args:
        value: the member's value (members are usually reached by name, e.g. `SortedKeys.CPUTotal`).

    Returns:
        The `SortedKeys` member.

    Examples:
        >>> import padax
        >>> with padax.profiler.Profiler(on_trace_ready=lambda prof: None) as prof:
        ...     _ = padax.ones([2]) * 2
        >>> text = prof.profiler_result.summary(sorted_by=padax.profiler.SortedKeys.CPUMax)
        >>> text.splitlines()[0]
        'Steps'
    """

    CPUTotal = 0
    CPUAvg = 1
    CPUMax = 2
    CPUMin = 3
    GPUTotal = 4
    GPUAvg = 5
    GPUMax = 6
    GPUMin = 7


class SummaryView(enum.Enum):
    """The tables Profiler.summary() can print.

    Args:
        value: the member's value (members are usually reached by name, e.g. `SummaryView.OverView`).

    Returns:
        The `SummaryView` member.

    Examples:
        >>> import padax
        >>> with padax.profiler.Profiler(on_trace_ready=lambda prof: None) as prof:
        ...     _ = padax.ones([2]) * 2
        >>> text = prof.profiler_result.summary(views=[padax.profiler.SummaryView.OverView])
        >>> text.splitlines()[0]
        'Steps'
    """

    DeviceView = 0
    OverView = 1
    ModelView = 2
    DistributedView = 3
    KernelView = 4
    OperatorView = 5
    MemoryView = 6
    MemoryManipulationView = 7
    UDFView = 8


_PADAX_PHASES = ("padax.trace", "padax.lower", "padax.compile", "padax.load_cached_executable",
                 "padax.dispatch")
_UNITS = {"s": 1e9, "ms": 1e6, "us": 1e3, "ns": 1.0}


class ProfilerResult:
    """The events of one recording (from XLA's profiler) plus the step marks padax added; a Profiler's
    `profiler_result` after it recorded.

    Args:
        xspace: XLA's XSpace protobuf bytes, or None.
        events: the events; None parses them from `xspace`.

    Returns:
        The result (`events`, and `save(path, format)`).

    Examples:
        >>> import padax
        >>> with padax.profiler.Profiler(on_trace_ready=lambda prof: None) as prof:
        ...     _ = padax.jit(lambda x: x + 1)(padax.ones([2]))
        >>> result = prof.profiler_result
        >>> {"padax.trace", "ProfileStep#0"} <= {e.name for e in result.events}
        True
        >>> sorted(result.chrome_trace())
        ['displayTimeUnit', 'traceEvents']
    """

    def __init__(self, xspace: bytes | None, events: Sequence[Event] | None = None):
        self.xspace = xspace
        self.events = list(events) if events is not None else xspace_events(xspace)

    # -- files -------------------------------------------------------------------------------
    def chrome_trace(self) -> dict:
        """Chrome trace-event JSON (opens in Perfetto and chrome://tracing): one process per plane,
        one thread per line, complete ('X') events in microseconds."""
        pids: dict[str, int] = {}
        out: list[dict] = []
        threads = set()
        for e in self.events:
            pid = pids.setdefault(e.plane, len(pids) + 1)
            if (pid, e.thread_id) not in threads:
                threads.add((pid, e.thread_id))
                out.append({"ph": "M", "pid": pid, "tid": e.thread_id, "name": "thread_name",
                            "args": {"name": e.line}})
            out.append({"ph": "X", "pid": pid, "tid": e.thread_id, "name": e.name, "ts": e.start_ns / 1e3,
                        "dur": e.duration_ns / 1e3, "args": {k: _jsonable(v) for k, v in e.stats.items()}})
        for plane, pid in pids.items():
            out.append({"ph": "M", "pid": pid, "name": "process_name", "args": {"name": plane}})
        return {"displayTimeUnit": "ns", "traceEvents": out}

    def save(self, path: str, format: str = "json") -> None:  # noqa: A002
        """Write the trace: 'json' (Chrome trace events; gzipped if the path ends in .gz) or 'pb'
        (the XSpace protobuf TensorBoard's profile plugin reads)."""
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        if format == "json":
            data = json.dumps(self.chrome_trace()).encode()
            if path.endswith(".gz"):
                data = gzip.compress(data)
        elif format == "pb":
            if self.xspace is None:
                raise ValueError("ProfilerResult.save: this result was loaded from JSON and has no XSpace")
            data = self.xspace
        else:
            raise ValueError(f"ProfilerResult.save: format must be 'json' or 'pb', got {format!r}")
        tmp = path + ".tmp"
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)

    # -- tables --------------------------------------------------------------------------------
    def summary(self, sorted_by: SortedKeys = SortedKeys.CPUTotal, op_detail: bool = True,
                time_unit: str = "ms", views: Sequence[SummaryView] | None = None) -> str:
        """Tables: compiled programs (host and device time), their HLO ops (device time), padax's own
        phases (trace/lower/compile/dispatch) and user RecordEvents, each with calls, total, avg, max, min."""
        if time_unit not in _UNITS:
            raise ValueError(f"summary: time_unit must be one of {', '.join(_UNITS)}, got {time_unit!r}")
        views = set(views) if views is not None else set(SummaryView)
        scale = _UNITS[time_unit]
        ops: dict = collections.defaultdict(list)
        program_device: dict = collections.defaultdict(list)
        program_host: dict = collections.defaultdict(list)
        phases: dict = collections.defaultdict(list)
        user: dict = collections.defaultdict(list)
        steps: list = []
        open_calls: dict = {}  # (thread, name) -> end of the enclosing dispatch span (the C++ jit nests two)
        for e in sorted(self.events, key=lambda e: e.start_ns):
            module = e.stats.get("hlo_module")
            if module is not None and "hlo_op" in e.stats:
                ops[(str(e.stats["hlo_op"]), str(module))].append(e.duration_ns)
                program_device[(str(module), e.stats.get("run_id"))].append(e.duration_ns)
            elif e.name.startswith("PjitFunction("):
                key = (e.plane, e.thread_id, e.name)
                if open_calls.get(key, -1.0) >= e.start_ns + e.duration_ns:
                    continue  # nested in the same call
                open_calls[key] = e.start_ns + e.duration_ns
                program_host[e.name[len("PjitFunction("):-1]].append(e.duration_ns)
            elif e.name in _PADAX_PHASES:
                phases[e.name].append(e.duration_ns)
            elif e.name.startswith("ProfileStep#"):
                steps.append(e.duration_ns)
            elif e.stats.get("padax_user_event"):
                user[e.name].append(e.duration_ns)
        per_program: dict = collections.defaultdict(list)
        for (module, _), durs in program_device.items():
            per_program[module].append(sum(durs))
        parts = []
        if steps and SummaryView.OverView in views:
            parts.append(_table("Steps", ["steps"], {("ProfileStep",): steps}, scale, time_unit, "host"))
        if SummaryView.ModelView in views or SummaryView.OverView in views:
            rows = {(name,): t for name, t in program_host.items()}
            parts.append(_table("Compiled programs: host time per call (jit dispatch, from Python to results)",
                                ["function"], rows, scale, time_unit, "host", sorted_by))
            rows = {(m,): t for m, t in per_program.items()}
            parts.append(_table("Compiled programs: device time per run (sum of their ops)", ["module"], rows,
                                scale, time_unit, "device", sorted_by))
        if op_detail and (SummaryView.OperatorView in views or SummaryView.KernelView in views):
            parts.append(_table("Operators (HLO ops of compiled programs): device time", ["op", "module"], ops,
                                scale, time_unit, "device", sorted_by))
        if SummaryView.OverView in views:
            parts.append(_table("padax phases: host time", ["phase"], {(k,): v for k, v in phases.items()},
                                scale, time_unit, "host", sorted_by))
        if SummaryView.UDFView in views and user:
            parts.append(_table("User-defined events (RecordEvent): host time", ["name"],
                                {(k,): v for k, v in user.items()}, scale, time_unit, "host", sorted_by))
        return "\n\n".join(p for p in parts if p)


def _jsonable(v: Any) -> Any:
    return v if isinstance(v, (int, float, str, bool)) or v is None else str(v)


def _table(title: str, keys: list[str], rows: dict, scale: float, unit: str, kind: str,
           sorted_by: SortedKeys = SortedKeys.CPUTotal) -> str:
    if not rows:
        return f"{title}\n  (none recorded)"
    stat = {0: sum, 1: statistics.fmean, 2: max, 3: min}[sorted_by.value % 4]
    total = sum(sum(v) for v in rows.values()) or 1.0
    items = sorted(rows.items(), key=lambda kv: -stat(kv[1]))
    head = keys + ["calls", f"{kind} total ({unit})", "avg", "max", "min", "ratio (%)"]
    body = [[*k, str(len(v)), f"{sum(v) / scale:.4f}", f"{statistics.fmean(v) / scale:.4f}",
             f"{max(v) / scale:.4f}", f"{min(v) / scale:.4f}", f"{100 * sum(v) / total:.2f}"]
            for k, v in items]
    widths = [max(len(r[i]) for r in [head] + body) for i in range(len(head))]
    widths[0] = min(widths[0], 60)
    line = "-" * (sum(widths) + 2 * len(widths))
    fmt = "  ".join(f"{{:<{w}}}" if i < len(keys) else f"{{:>{w}}}" for i, w in enumerate(widths))
    lines = [title, line, fmt.format(*head), line]
    lines += [fmt.format(*[c[:widths[i]] if i == 0 else c for i, c in enumerate(r)]) for r in body]
    lines.append(line)
    return "\n".join(lines)


def load_profiler_result(filename: str) -> ProfilerResult:
    """A result saved with `save(path, 'json')` (Chrome trace events) or `'pb'` (XSpace).

    Args:
        filename: a file saved with `save(path, 'json')` (optionally .gz) or `'pb'` (.pb).

    Returns:
        A ProfilerResult.

    Examples:
        >>> import os, tempfile, padax
        >>> with padax.profiler.Profiler(on_trace_ready=lambda prof: None) as prof:
        ...     _ = padax.ones([2]) * 2
        >>> with tempfile.TemporaryDirectory() as d:
        ...     prof.profiler_result.save(os.path.join(d, "run.json"))
        ...     loaded = padax.profiler.load_profiler_result(os.path.join(d, "run.json"))
        >>> len(loaded.events) == len(prof.profiler_result.events)
        True
    """
    with open(filename, "rb") as f:
        data = f.read()
    if filename.endswith(".pb"):
        return ProfilerResult(data)
    if filename.endswith(".gz"):
        data = gzip.decompress(data)
    trace = json.loads(data)
    planes = {e["pid"]: e["args"]["name"] for e in trace["traceEvents"]
              if e.get("ph") == "M" and e.get("name") == "process_name"}
    lines = {(e["pid"], e["tid"]): e["args"]["name"] for e in trace["traceEvents"]
             if e.get("ph") == "M" and e.get("name") == "thread_name"}
    events = [Event(planes.get(e["pid"], ""), lines.get((e["pid"], e["tid"]), ""), e["tid"], e["name"],
                    e["ts"] * 1e3, e["dur"] * 1e3, dict(e.get("args", {})))
              for e in trace["traceEvents"] if e.get("ph") == "X"]
    return ProfilerResult(None, events)
