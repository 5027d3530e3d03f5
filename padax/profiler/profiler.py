"""Paddle's profiler API on XLA's profiler: Profiler, its scheduler states, exporters."""
from __future__ import annotations

import datetime
import enum
import os
import socket
import time
import warnings
from typing import Any, Callable, Iterable

from padax.profiler import _session
from padax.profiler.result import ProfilerResult, SortedKeys, SummaryView
from padax.profiler.utils import RecordEvent


class ProfilerState(enum.Enum):
    """CLOSED: not recording; READY: about to record; RECORD: recording; RECORD_AND_RETURN: the last
    recorded step of a period (the data is handed to on_trace_ready after it).

    Args:
        value: the member's value (members are usually reached by name, e.g. `ProfilerState.RECORD`).

    Returns:
        The `ProfilerState` member.

    Examples:
        >>> import padax
        >>> schedule = padax.profiler.make_scheduler(closed=1, ready=1, record=1)
        >>> schedule(2) is padax.profiler.ProfilerState.RECORD_AND_RETURN
        True
    """

    CLOSED = 0
    READY = 1
    RECORD = 2
    RECORD_AND_RETURN = 3


class ProfilerTarget(enum.Enum):
    """Devices to profile. padax records the host and what XLA reports for its devices in any case.

    Args:
        value: the member's value (members are usually reached by name, e.g. `ProfilerTarget.CPU`).

    Returns:
        The `ProfilerTarget` member.

    Examples:
        >>> import padax
        >>> padax.profiler.Profiler(targets=[padax.profiler.ProfilerTarget.CPU, padax.profiler.ProfilerTarget.GPU])
        padax.profiler.Profiler(step 0, RECORD)
    """

    CPU = 0
    GPU = 1
    XPU = 2
    CUSTOM_DEVICE = 3


def make_scheduler(*, closed: int, ready: int, record: int, repeat: int = 0,
                   skip_first: int = 0) -> Callable[[int], ProfilerState]:
    """A step -> state function: `skip_first` closed steps, then periods of `closed` closed, `ready`
    ready and `record` recorded steps (the last one RECORD_AND_RETURN), `repeat` times (0: forever).

    Args:
        closed: closed steps at the start of each period.
        ready: ready steps after them.
        record: recorded steps (> 0) ending the period.
        repeat: number of periods (0: forever).
        skip_first: closed steps before the first period.

    Returns:
        A function step -> ProfilerState.

    Examples:
        >>> import padax
        >>> schedule = padax.profiler.make_scheduler(closed=1, ready=1, record=2, repeat=1)
        >>> [schedule(step).name for step in range(5)]
        ['CLOSED', 'READY', 'RECORD', 'RECORD_AND_RETURN', 'CLOSED']
    """
    if not (closed >= 0 and ready >= 0 and record > 0 and repeat >= 0 and skip_first >= 0):
        raise ValueError(f"make_scheduler: closed, ready, repeat and skip_first must be >= 0 and record > 0; got "
                         f"closed={closed}, ready={ready}, record={record}, repeat={repeat}, skip_first={skip_first}")
    period = closed + ready + record

    def state(step: int) -> ProfilerState:
        if step < skip_first:
            return ProfilerState.CLOSED
        step -= skip_first
        if repeat > 0 and step // period >= repeat:
            return ProfilerState.CLOSED
        k = step % period
        if k < closed:
            return ProfilerState.CLOSED
        if k < closed + ready:
            return ProfilerState.READY
        return ProfilerState.RECORD if k < period - 1 else ProfilerState.RECORD_AND_RETURN
    return state


def _default_scheduler(step: int) -> ProfilerState:
    return ProfilerState.RECORD


def _file_name(worker_name: str | None, suffix: str) -> str:
    worker = worker_name or f"host_{socket.gethostname()}pid_{os.getpid()}"
    return f"{worker}_time_{datetime.datetime.now().strftime('%Y_%m_%d_%H_%M_%S_%f')}{suffix}"


def export_chrome_tracing(dir_name: str, worker_name: str | None = None) -> Callable[["Profiler"], None]:
    """An on_trace_ready that writes each recording as Chrome trace JSON (Perfetto, chrome://tracing)
    into `dir_name` (created when the first one is written), named `<worker>_time_<timestamp>.paddle_trace.json`.

    Args:
        dir_name: the folder to write into (created when the first file is written).
        worker_name: the file name's prefix (default: host name and process id).

    Returns:
        An on_trace_ready callback writing `<worker>_time_<timestamp>.paddle_trace.json`.

    Examples:
        >>> import os, tempfile, padax
        >>> with tempfile.TemporaryDirectory() as d:
        ...     with padax.profiler.Profiler(on_trace_ready=padax.profiler.export_chrome_tracing(d, "w0")):
        ...         _ = padax.ones([2]) * 2
        ...     print(os.listdir(d))
        ['w0_time_..._....paddle_trace.json']
    """
    def handle(prof: "Profiler") -> None:
        prof.export(os.path.join(dir_name, _file_name(worker_name, ".paddle_trace.json")), "json")
    return handle


def export_protobuf(dir_name: str, worker_name: str | None = None) -> Callable[["Profiler"], None]:
    """An on_trace_ready that writes each recording as XLA's XSpace protobuf (`.paddle_trace.pb`).

    Args:
        dir_name: the folder to write into.
        worker_name: the file name's prefix (default: host name and process id).

    Returns:
        An on_trace_ready callback writing `<worker>_time_<timestamp>.paddle_trace.pb`.

    Examples:
        >>> import os, tempfile, padax
        >>> with tempfile.TemporaryDirectory() as d:
        ...     with padax.profiler.Profiler(on_trace_ready=padax.profiler.export_protobuf(d, "w0")):
        ...         _ = padax.ones([2]) * 2
        ...     print(os.listdir(d))
        ['w0_time_..._....paddle_trace.pb']
    """
    def handle(prof: "Profiler") -> None:
        prof.export(os.path.join(dir_name, _file_name(worker_name, ".paddle_trace.pb")), "pb")
    return handle


class _StepTimer:
    """Step times and throughput for step_info() (what timer_only measures)."""

    def __init__(self) -> None:
        self.last = None
        self.times: list[float] = []
        self.samples: list[int | None] = []

    def begin(self) -> None:
        self.last = time.perf_counter()

    def step(self, num_samples: int | None) -> None:
        now = time.perf_counter()
        if self.last is not None:
            self.times.append(now - self.last)
            self.samples.append(num_samples)
        self.last = now

    def info(self, unit: str) -> str:
        if not self.times:
            return "no step finished yet"
        cost = sum(self.times) / len(self.times)
        if all(s is not None for s in self.samples):
            ips, what = sum(self.samples) / sum(self.times), f"{unit}/s"
        else:
            ips, what = len(self.times) / sum(self.times), "steps/s"
        self.times, self.samples = [], []
        return f"batch_cost: {cost:.5f} s ips: {ips:.3f} {what}"


class Profiler:
    """Record what a run does, step by step, with XLA's profiler (Paddle's `paddle.profiler.Profiler`).

        with padax.profiler.Profiler(scheduler=(2, 5),
                                     on_trace_ready=padax.profiler.export_chrome_tracing("./log")) as p:
            for batch in data:
                train_step(...)
                p.step()
        p.summary()

    The trace holds the HLO ops of compiled programs (with their module, e.g. `jit_train_step`),
    jit dispatch, padax's tracing/lowering/compiling spans, `RecordEvent` spans and one
    `ProfileStep#N` span per step. `scheduler` is a `make_scheduler(...)` function or a
    `(start, end)` step range; `timer_only=True` only times steps (`step_info()`). Only one
    profiler records at a time: starting a second one raises.

    Args:
        targets: ProfilerTargets to profile (default CPU); XLA's device activity is recorded in any case.
        scheduler: a step -> ProfilerState function (`make_scheduler`) or a (start, end) step range; None records every
            step.
        on_trace_ready: called with the profiler after each recording (default:
            `export_chrome_tracing('./profiler_log/')`).
        record_shapes, profile_memory, with_flops: accepted for Paddle compatibility and stored; they add nothing to the
            trace.
        timer_only: only time the steps (`step_info()`), no trace.
        emit_nvtx, custom_device_types: accepted for Paddle compatibility; unused.
        python_tracer: also record Python function calls.

    Returns:
        The profiler; use it as a context manager (or start()/stop()) and call `step()` after every step.

    Examples:
        >>> import padax
        >>> double = padax.jit(lambda x: x * 2)
        >>> with padax.profiler.Profiler(on_trace_ready=lambda prof: None) as prof:
        ...     for step in range(2):
        ...         _ = double(padax.ones([4]))
        ...         prof.step()
        >>> sorted({e.name for e in prof.profiler_result.events if e.name.startswith("ProfileStep")})
        ['ProfileStep#0', 'ProfileStep#1', 'ProfileStep#2']
        >>> print(prof.summary())
        Steps
        ...
    """

    def __init__(self, *, targets: Iterable[ProfilerTarget] | None = None,
                 scheduler: Callable[[int], ProfilerState] | tuple[int, int] | None = None,
                 on_trace_ready: Callable[["Profiler"], None] | None = None, record_shapes: bool = False,
                 profile_memory: bool = False, timer_only: bool = False, emit_nvtx: bool = False,
                 custom_device_types: list | None = None, with_flops: bool = False,
                 python_tracer: bool = False) -> None:
        self.targets = set(targets) if targets else {ProfilerTarget.CPU}
        if callable(scheduler):
            self.scheduler = scheduler
        elif isinstance(scheduler, (tuple, list)):
            if len(scheduler) != 2 or scheduler[1] <= scheduler[0]:
                raise ValueError(f"Profiler: scheduler=(start, end) needs end > start, got {scheduler!r}")
            start, end = max(int(scheduler[0]), 0), int(scheduler[1])
            self.scheduler = make_scheduler(closed=max(start - 1, 0), ready=1 if start >= 1 else 0,
                                            record=end - start, repeat=1)
        elif scheduler is None:
            self.scheduler = _default_scheduler
        else:
            raise TypeError(f"Profiler: scheduler must be a callable or a (start, end) pair, got {scheduler!r}")
        self.on_trace_ready = on_trace_ready if on_trace_ready is not None else \
            export_chrome_tracing("./profiler_log/")
        self.timer_only = timer_only
        self.record_shapes, self.profile_memory, self.with_flops = record_shapes, profile_memory, with_flops
        self.python_tracer = python_tracer
        self.step_num = 0
        self.previous_state = ProfilerState.CLOSED
        self.current_state = self.scheduler(self.step_num)
        self.profiler_result: ProfilerResult | None = None
        self._recording = False
        self._step_event: RecordEvent | None = None
        self._timer = _StepTimer()

    def __repr__(self) -> str:
        return f"padax.profiler.Profiler(step {self.step_num}, {self.current_state.name})"

    def __enter__(self) -> "Profiler":
        self.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    # -- recording -------------------------------------------------------------------------------
    def _record_start(self) -> None:
        if not self._recording:
            _session.start(self, "Profiler.start()", python_tracer_level=1 if self.python_tracer else 0)
            self._recording = True

    def _record_stop(self) -> bytes | None:
        if not self._recording:
            return None
        self._recording = False
        return _session.stop(self)

    def _deliver(self, xspace: bytes | None) -> None:
        if xspace is None:
            return
        self.profiler_result = ProfilerResult(xspace)
        if self.on_trace_ready is not None:
            self.on_trace_ready(self)

    def _begin_step(self) -> None:
        self._step_event = RecordEvent(f"ProfileStep#{self.step_num}", _kind="step")
        self._step_event.begin()

    def _end_step(self) -> None:
        if self._step_event is not None:
            self._step_event.end()
            self._step_event = None

    def start(self) -> None:
        """Start step 0 (recording if the scheduler says so)."""
        self._timer.begin()
        if self.timer_only:
            return
        if _session.recording_owner() is not None:
            raise RuntimeError(f"padax.profiler: cannot start {self!r}: a profiler is already recording "
                               f"({_session.recording_owner()!r}); stop it first")
        if self.current_state in (ProfilerState.RECORD, ProfilerState.RECORD_AND_RETURN):
            self._record_start()
        self._begin_step()

    def stop(self) -> None:
        """End the run: a recording in progress is finished and handed to on_trace_ready."""
        if self.timer_only:
            return
        self._end_step()
        if self.current_state == ProfilerState.READY:
            warnings.warn("Profiler stopped in the READY state: nothing was recorded", stacklevel=2)
        self._deliver(self._record_stop())

    def step(self, num_samples: int | None = None) -> None:
        """Mark the end of a step (e.g. one training batch) and move the scheduler on."""
        self._timer.step(num_samples)
        if self.timer_only:
            return
        self._end_step()
        self.previous_state = self.current_state
        self.step_num += 1
        self.current_state = self.scheduler(self.step_num)
        self._transition(self.previous_state, self.current_state)
        self._begin_step()

    def _transition(self, prev: ProfilerState, cur: ProfilerState) -> None:
        recording = (ProfilerState.RECORD, ProfilerState.RECORD_AND_RETURN)
        if prev == ProfilerState.RECORD_AND_RETURN:
            self._deliver(self._record_stop())  # a period ended: hand its data over
            if cur in recording:
                self._record_start()
        elif prev == ProfilerState.RECORD and cur not in recording:
            warnings.warn(f"Profiler: the schedule went from RECORD to {cur.name} without RECORD_AND_RETURN; "
                          "the recording is dropped", stacklevel=3)
            self._record_stop()
        elif prev in (ProfilerState.CLOSED, ProfilerState.READY) and cur in recording:
            self._record_start()

    def step_info(self, unit: str | None = None) -> str:
        """Average step time and throughput since the last call (`unit` names num_samples' unit)."""
        return self._timer.info(unit or "samples")

    # -- results -----------------------------------------------------------------------------------
    def export(self, path: str = "", format: str = "json") -> None:  # noqa: A002
        """Write the last recording: 'json' (Chrome trace events) or 'pb' (XSpace protobuf)."""
        if self.profiler_result is not None:
            self.profiler_result.save(path, format)

    def summary(self, sorted_by: SortedKeys = SortedKeys.CPUTotal, op_detail: bool = True,
                thread_sep: bool = False, time_unit: str = "ms",
                views: SummaryView | list[SummaryView] | None = None) -> str | None:
        """Print (and return) tables of the last recording: compiled programs with host and device
        time, their HLO ops, padax's phases and user RecordEvents."""
        if self.profiler_result is None:
            return None
        if isinstance(views, SummaryView):
            views = [views]
        text = self.profiler_result.summary(sorted_by, op_detail, time_unit, views)
        print(text)
        return text
