"""`python -m benchmarks`: the harness's bookkeeping, and a smoke run of every workload."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from benchmarks import MODULES  # noqa: E402
from benchmarks.harness import (Settings, Timing, Unavailable, Workload, fmt_time,  # noqa: E402
                                run_workload, table, write_results)


def _raises(exc):
    def setup():
        raise exc
    return setup


def test_run_workload_statuses_and_ratios():
    calls = []

    def counting_setup():
        return lambda: calls.append(1)

    w = Workload("fake", "a fake workload", {"padax": counting_setup, "jax": _raises(Unavailable("nope"))},
                 target=1.0, group="test")
    res = run_workload(w, ["padax", "jax", "paddle"], Settings(repeats=3, min_sample_s=0.0, warmup_calls=2))
    assert res.timings["padax"].status == "ok" and len(res.timings["padax"].samples) == 3
    assert len(calls) == 2 + 3          # warm-up, samples (min_sample_s=0: no calibration calls)
    assert res.timings["jax"].status == "skipped" and res.timings["jax"].reason == "nope"
    assert res.timings["paddle"].status == "skipped"
    assert res.ratio("jax") is None and res.target_met is None


def test_errors_are_reported_not_raised():
    w = Workload("bad", "broken", {"padax": _raises(RuntimeError("boom"))}, group="test")
    res = run_workload(w, ["padax"], Settings.for_smoke())
    assert res.timings["padax"].status == "error" and "boom" in res.timings["padax"].reason


def test_ratio_target_and_table(tmp_path):
    from benchmarks.harness import Result
    w = Workload("r", "ratio", {}, target=1.5, group="test")
    res = Result(w, {"padax": Timing("ok", samples=[3.0, 2.0, 100.0]), "jax": Timing("ok", samples=[1.0, 1.0, 1.0]),
                     "paddle": Timing("skipped", "not installed")})
    assert res.ratio("jax") == pytest.approx(3.0)     # medians: 3.0 / 1.0
    assert res.target_met is False
    text = table([res], ["padax", "jax", "paddle"])
    assert "3.00" in text and "**no**" in text and "skipped" in text and "<= 1.5" in text
    meta = {"date": "d", "cpu_model": "cpu", "nproc": 2, "cpu_count": 2, "loadavg_at_start": "0",
            "os": "os", "python": "3", "numpy": "2", "jaxlib": "0.10.2", "padax": "0.1.0",
            "padax_commit": "abc", "jax": None, "paddle": None}
    md, js = write_results([res], ["padax", "jax", "paddle"], Settings(), meta, str(tmp_path), "cmd")
    assert "| `test.r` |" in open(md).read()
    import json
    data = json.load(open(js))
    assert data["results"][0]["padax_over_jax"] == pytest.approx(3.0)
    assert fmt_time(2.5e-6) == "2.5 µs" and fmt_time(0.0123) == "12.3 ms"


def test_every_module_defines_workloads():
    import importlib
    names = set()
    for m in MODULES:
        for w in importlib.import_module(f"benchmarks.{m}").workloads():
            assert "padax" in w.impls and w.description
            names.add(f"{m}.{w.name}")
    assert {"dispatch.eager_add", "dispatch.eager_matmul", "dispatch.jit_call", "dispatch.compile_mlp"} <= names


def test_smoke_run_exits_zero():
    out = subprocess.run([sys.executable, "-m", "benchmarks", "--smoke", "--no-write"], cwd=ROOT,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert "| workload |" in out.stdout
    for name in ("eager_add", "eager_matmul", "jit_call", "compile_mlp"):
        line = next(l for l in out.stdout.splitlines() if f"dispatch.{name} " in l and "padax:" in l)
        assert "padax: ok" in line and "error" not in line
