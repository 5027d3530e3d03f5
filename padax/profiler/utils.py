"""RecordEvent (Paddle) and jax's TensorBoard-style entry points: start_server, trace, start/stop_trace."""
from __future__ import annotations

import contextlib
import functools
import os
from typing import Any, Callable, Iterator

from padax.profiler import _session
from padax.runtime import profiling

_server = None


class RecordEvent(contextlib.ContextDecorator):
    """A named span in the profile: `with RecordEvent("data"):`, `@RecordEvent("step")`, or begin()/end().

    It is recorded while a profiler (or a TensorBoard capture) is recording; otherwise it costs
    next to nothing. `TraceAnnotation` (JAX's name) is the same class.

    Args:
        name: the span's name in the trace.
        event_type: accepted for Paddle compatibility (stored).

    Returns:
        The event: a context manager and decorator, also with begin()/end().

    Examples:
        >>> import padax
        >>> with padax.profiler.Profiler(on_trace_ready=lambda prof: None) as prof:
        ...     with padax.profiler.RecordEvent("load_batch"):
        ...         batch = padax.ones([8])
        >>> [e.name for e in prof.profiler_result.events if e.name == "load_batch"]
        ['load_batch']
    """

    def __init__(self, name: str, event_type: Any = None, *, _kind: str = "user") -> None:
        self.name = name
        self.event_type = event_type
        self._kind = _kind
        self._event = None

    def __enter__(self) -> "RecordEvent":
        self.begin()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.end()

    def begin(self) -> None:
        if profiling.recording():
            meta = {"padax_user_event": 1} if self._kind == "user" else {}
            self._event = profiling.TraceMe(self.name, **meta)
            self._event.__enter__()

    def end(self) -> None:
        if self._event is not None:
            event, self._event = self._event, None
            event.__exit__(None, None, None)


TraceAnnotation = RecordEvent  # jax's name for a span


def annotate_function(func: Callable | None = None, name: str | None = None):
    """Decorator recording each call of `func` as a span named after it (or `name`).

    Args:
        func: the function to wrap (leave it out to pass `name` first).
        name: the span's name (default: the function's qualified name).

    Returns:
        The wrapped function, or a decorator when `func` is None.

    Examples:
        >>> import padax
        >>> @padax.profiler.annotate_function
        ... def preprocess(x):
        ...     return x / 255.0
        >>> with padax.profiler.Profiler(on_trace_ready=lambda prof: None) as prof:
        ...     _ = preprocess(padax.ones([4]))
        >>> [e.name for e in prof.profiler_result.events if e.name == "preprocess"]
        ['preprocess']
    """
    if func is None:
        return functools.partial(annotate_function, name=name)
    label = name or getattr(func, "__qualname__", getattr(func, "__name__", "function"))

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        with RecordEvent(label):
            return func(*args, **kwargs)
    return wrapper


def start_server(port: int):
    """Start XLA's profiler server on `port`: TensorBoard's profile plugin ('Capture profile') connects to it.

    Args:
        port: the TCP port to listen on.

    Returns:
        The profiler server object (one per process; a second call raises).

    Examples:
        >>> import padax
        >>> server = padax.profiler.start_server(0)  # 0: any free port
        >>> padax.profiler.stop_server()
    """
    global _server
    if _server is not None:
        raise RuntimeError("padax.profiler.start_server: the profiler server is already running")
    _server = profiling.start_server(int(port))
    return _server


def stop_server() -> None:
    """Stop the server start_server started (a RuntimeError if none runs).

    Examples:
        >>> import padax
        >>> _ = padax.profiler.start_server(0)
        >>> padax.profiler.stop_server()
        >>> padax.profiler.stop_server()
        Traceback (most recent call last):
        RuntimeError: padax.profiler.stop_server: no profiler server is running
    """
    global _server
    if _server is None:
        raise RuntimeError("padax.profiler.stop_server: no profiler server is running")
    _server = None


class _TraceOwner:
    def __init__(self, log_dir: str):
        self.log_dir = log_dir

    def __repr__(self) -> str:
        return f"padax.profiler.start_trace({self.log_dir!r})"


_trace_owner: _TraceOwner | None = None


def start_trace(log_dir: str) -> None:
    """Start recording for TensorBoard: stop_trace() writes log_dir/plugins/profile/<run>/<host>.xplane.pb
    (and <host>.trace.json.gz), the layout TensorBoard's profile plugin reads.

    Args:
        log_dir: TensorBoard's log folder.

    Returns:
        None; `stop_trace()` writes the files.

    Examples:
        >>> import os, tempfile, padax
        >>> with tempfile.TemporaryDirectory() as d:
        ...     padax.profiler.start_trace(d)
        ...     _ = (padax.ones([2]) * 2).block_until_ready()
        ...     padax.profiler.stop_trace()
        ...     print(sorted(f.split(".", 1)[1] for _, _, fs in os.walk(d) for f in fs))
        ['trace.json.gz', 'xplane.pb']
    """
    global _trace_owner
    owner = _TraceOwner(os.fspath(log_dir))
    _session.start(owner, f"start_trace({owner.log_dir!r})")
    _trace_owner = owner


def stop_trace() -> None:
    """Stop the recording start_trace began and write its files under its log_dir.

    Examples:
        >>> import os, tempfile, padax
        >>> with tempfile.TemporaryDirectory() as d:
        ...     padax.profiler.start_trace(d)
        ...     padax.profiler.stop_trace()
        ...     print(os.listdir(d))
        ['plugins']
    """
    global _trace_owner
    owner, _trace_owner = _trace_owner, None
    _session.stop_and_export(owner, owner.log_dir if owner is not None else "")


@contextlib.contextmanager
def trace(log_dir: str) -> Iterator[None]:
    """`with padax.profiler.trace(log_dir):` records the block for TensorBoard (see start_trace).

    Examples:
        >>> import os, tempfile, padax
        >>> with tempfile.TemporaryDirectory() as d:
        ...     with padax.profiler.trace(d):
        ...         _ = (padax.ones([2]) * 2).block_until_ready()
        ...     print(os.listdir(os.path.join(d, "plugins")))
        ['profile']
    """
    start_trace(log_dir)
    try:
        yield
    finally:
        stop_trace()
