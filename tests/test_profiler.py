"""padax.profiler: Paddle's Profiler on XLA's profiler: traces with programs and their ops, schedules, summary."""
import gzip
import json
import os

import pytest

import padax
import padax.profiler as profiler
from padax.profiler import ProfilerState as St


@padax.jit
def train_step(x):
    return padax.tanh(x @ x).sum()


def test_profiler_writes_a_chrome_trace_with_the_program_and_its_ops(tmp_path):
    x = padax.ones([32, 32])
    train_step(x)  # compiled before recording

    @profiler.RecordEvent("load_batch")
    def load():
        return x

    with profiler.Profiler(on_trace_ready=profiler.export_chrome_tracing(str(tmp_path))) as p:
        for _ in range(3):
            train_step(load()).block_until_ready()
            p.step()
    (path,) = list(tmp_path.glob("*.paddle_trace.json"))
    trace = json.loads(path.read_text())
    events = [e for e in trace["traceEvents"] if e["ph"] == "X"]
    assert all(isinstance(e["ts"], (int, float)) and e["dur"] >= 0 for e in events)
    ops = [e for e in events if e["args"].get("hlo_module") == "jit_train_step"]
    assert ops and all("hlo_op" in e["args"] for e in ops)
    names = {e["name"] for e in events}
    assert "PjitFunction(train_step)" in names and "load_batch" in names
    assert {"ProfileStep#0", "ProfileStep#1", "ProfileStep#2"} <= names
    text = p.summary(time_unit="us")
    assert "jit_train_step" in text and "train_step" in text and "load_batch" in text
    loaded = profiler.load_profiler_result(str(path))
    assert len(loaded.events) == len(events)


def test_padax_spans_for_tracing_lowering_compiling(tmp_path):
    with profiler.Profiler(on_trace_ready=lambda prof: None) as p:
        padax.jit(lambda v: v * 3 + 1)(padax.ones([4]))
    names = {e.name for e in p.profiler_result.events}
    assert {"padax.trace", "padax.lower", "padax.compile", "padax.dispatch"} <= names
    p.export(str(tmp_path / "t.pb"), "pb")
    assert (tmp_path / "t.pb").stat().st_size > 0


def test_scheduler_states_follow_paddle():
    s = profiler.make_scheduler(closed=1, ready=1, record=2, repeat=2, skip_first=1)
    C, Re, R, RR = St.CLOSED, St.READY, St.RECORD, St.RECORD_AND_RETURN
    assert [s(i) for i in range(11)] == [C, C, Re, R, RR, C, Re, R, RR, C, C]
    with pytest.raises(ValueError):
        profiler.make_scheduler(closed=0, ready=0, record=0)


def test_scheduled_recording_hands_over_each_period():
    got = []
    p = profiler.Profiler(scheduler=profiler.make_scheduler(closed=1, ready=0, record=2, repeat=2),
                          on_trace_ready=lambda prof: got.append(
                              sorted(e.name for e in prof.profiler_result.events if e.name.startswith("ProfileStep"))))
    p.start()
    for _ in range(7):
        train_step(padax.ones([4, 4]))
        p.step()
    p.stop()
    assert got == [["ProfileStep#1", "ProfileStep#2"], ["ProfileStep#4", "ProfileStep#5"]]


def test_starting_twice_says_so():
    with profiler.Profiler(on_trace_ready=lambda prof: None):
        with pytest.raises(RuntimeError, match="already recording"):
            profiler.Profiler(on_trace_ready=lambda prof: None).start()
        with pytest.raises(RuntimeError, match="already recording"):
            profiler.start_trace("/tmp/never")


def test_timer_only_step_info():
    p = profiler.Profiler(timer_only=True, on_trace_ready=lambda prof: None)
    p.start()
    for _ in range(3):
        p.step(num_samples=8)
    info = p.step_info(unit="images")
    assert info.startswith("batch_cost:") and "images/s" in info
    p.stop()


def test_tensorboard_layout(tmp_path):
    with profiler.trace(str(tmp_path)):
        train_step(padax.ones([8, 8])).block_until_ready()
    runs = list((tmp_path / "plugins" / "profile").iterdir())
    assert len(runs) == 1
    files = {f.name.split(".", 1)[1] for f in runs[0].iterdir()}
    assert {"xplane.pb", "trace.json.gz"} <= files
    (gz,) = [f for f in runs[0].iterdir() if f.name.endswith(".trace.json.gz")]
    assert "traceEvents" in json.loads(gzip.decompress(gz.read_bytes()))
    assert os.path.getsize(next(f for f in runs[0].iterdir() if f.name.endswith("xplane.pb"))) > 0


def test_profiler_server_starts_once():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = profiler.start_server(port)
    try:
        assert server is not None
        with pytest.raises(RuntimeError, match="already running"):
            profiler.start_server(port)
    finally:
        profiler.stop_server()
    with pytest.raises(RuntimeError, match="no profiler server"):
        profiler.stop_server()
