"""`padax.profiler`: Paddle's profiler API, recorded by XLA's profiler (jaxlib's profiler session).

    import padax.profiler as profiler
    with profiler.Profiler(scheduler=profiler.make_scheduler(closed=1, ready=1, record=3),
                           on_trace_ready=profiler.export_chrome_tracing("./log")) as p:
        for step in range(10):
            train_step(...)
            p.step()
    p.summary()     # programs (host/device time), HLO ops, padax phases, RecordEvents

The trace files are Chrome trace-event JSON (open them in https://ui.perfetto.dev or
chrome://tracing). For TensorBoard's profile plugin: `profiler.trace(log_dir)` /
`start_trace` / `stop_trace` write its `plugins/profile` layout, and
`profiler.start_server(port)` lets TensorBoard capture a running process.
"""
from padax.profiler.profiler import (Profiler, ProfilerState, ProfilerTarget, export_chrome_tracing,
                                     export_protobuf, make_scheduler)
from padax.profiler.result import ProfilerResult, SortedKeys, SummaryView, load_profiler_result
from padax.profiler.utils import (RecordEvent, TraceAnnotation, annotate_function, start_server, start_trace,
                                  stop_server, stop_trace, trace)

__all__ = ["Profiler", "ProfilerState", "ProfilerTarget", "make_scheduler", "export_chrome_tracing",
           "export_protobuf", "RecordEvent", "TraceAnnotation", "annotate_function", "SortedKeys", "SummaryView",
           "ProfilerResult", "load_profiler_result", "start_server", "stop_server", "start_trace", "stop_trace",
           "trace"]
