"""Timing, statistics, tables and result files shared by every benchmark module.

A workload module (``benchmarks/<name>.py``, listed in ``benchmarks.MODULES``)
defines ``workloads() -> list[Workload]``. A `Workload` maps each framework
name to a *setup* function; setup imports the framework (only there: jax and
paddle are never imported at module level), builds inputs, and returns a
zero-argument *thunk* that performs one operation and waits for its result.
A setup raises `Unavailable` (or ImportError) when its framework cannot run
the workload; that framework is then reported as skipped.

`run_workload` warms every thunk up (excluded from timing), calibrates how
many calls make one sample, then takes samples alternating between padax
and jax (the order swaps each round, so drift in machine load hits both
alike), times paddle and numpy afterwards in blocks of their own (their
thread pools spin after a call and would slow the next framework down), and
reports per-call median, min and max.
"""
from __future__ import annotations

import dataclasses
import datetime
import gc
import importlib.util
import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from typing import Any, Callable, Sequence

FRAMEWORKS = ("padax", "jax", "paddle", "numpy")  # numpy: a practical-limit reference for compute workloads
BASELINE = "baseline"  # a workload's padax baseline (Workload.baseline), timed like a framework
PEERS = ("jax", "paddle")
_SETTLE_S = 0.3  # pause between blocks of different frameworks (idle spinning thread pools)

Thunk = Callable[[], Any]
Setup = Callable[[], Thunk]


class Unavailable(Exception):
    """Raised by a setup when its framework is missing or cannot run the workload."""


@dataclasses.dataclass
class Workload:
    """One thing to time, implemented once per framework."""

    name: str                      # unique within its module, e.g. "eager_add"
    description: str               # one line for the table
    impls: dict[str, Setup]        # framework -> setup() -> thunk
    target: float | None = None    # the padax/jax median ratio to stay at or under
    fresh: bool = False            # every call does the whole work once (e.g. compile): 1 call per sample
    group: str = ""                # the module, filled in by the runner
    baseline: Setup | None = None  # padax without the thing measured (e.g. without a debug.print): timed
    baseline_target: float | None = None  # alternately with padax; padax/baseline should stay at or under this

    @property
    def full_name(self) -> str:
        return f"{self.group}.{self.name}" if self.group else self.name


@dataclasses.dataclass
class Settings:
    repeats: int = 21              # samples per framework (fresh workloads: see fresh_repeats)
    fresh_repeats: int = 9
    min_sample_s: float = 0.02     # calibrate calls per sample so one sample lasts at least this
    warmup_calls: int = 5          # untimed calls before calibration (fresh workloads: 1)
    smoke: bool = False

    @classmethod
    def for_smoke(cls) -> "Settings":
        return cls(repeats=2, fresh_repeats=1, min_sample_s=0.0, warmup_calls=1, smoke=True)


@dataclasses.dataclass
class Timing:
    """The outcome for one framework on one workload."""

    status: str                    # "ok", "skipped" (not installed / not supported) or "error"
    reason: str = ""
    samples: list[float] = dataclasses.field(default_factory=list)   # seconds per call
    calls_per_sample: int = 0

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    @property
    def min(self) -> float:
        return min(self.samples)

    @property
    def max(self) -> float:
        return max(self.samples)

    def to_json(self) -> dict:
        d: dict[str, Any] = {"status": self.status}
        if self.reason:
            d["reason"] = self.reason
        if self.status == "ok":
            d.update(median_s=self.median, min_s=self.min, max_s=self.max,
                     repeats=len(self.samples), calls_per_sample=self.calls_per_sample,
                     samples_s=self.samples)
        return d


@dataclasses.dataclass
class Result:
    workload: Workload
    timings: dict[str, Timing]

    def ratio(self, peer: str) -> float | None:
        a, b = self.timings.get("padax"), self.timings.get(peer)
        if a is None or b is None or a.status != "ok" or b.status != "ok":
            return None
        if peer in ("jax", BASELINE) and len(a.samples) == len(b.samples):
            # paired: padax's and jax's samples of one round were taken back to back, so a change
            # in machine load hits both; the median of the per-round ratios discounts it
            return statistics.median(x / y for x, y in zip(a.samples, b.samples))
        return a.median / b.median

    @property
    def target_met(self) -> bool | None:
        r = self.ratio("jax")
        if self.workload.target is None or r is None:
            return None
        return r <= self.workload.target

    @property
    def baseline_met(self) -> bool | None:
        r = self.ratio(BASELINE)
        if self.workload.baseline_target is None or r is None:
            return None
        return r <= self.workload.baseline_target

    def to_json(self) -> dict:
        w = self.workload
        out = {"name": w.full_name, "description": w.description, "target_padax_over_jax": w.target,
               "timings": {fw: t.to_json() for fw, t in self.timings.items()},
               "padax_over_jax": self.ratio("jax"), "padax_over_paddle": self.ratio("paddle"),
               "target_met": self.target_met}
        if w.baseline is not None:
            out.update(padax_over_baseline=self.ratio(BASELINE), target_padax_over_baseline=w.baseline_target,
                       baseline_met=self.baseline_met)
        return out


# -- running ------------------------------------------------------------------------------

def framework_installed(fw: str) -> bool:
    return importlib.util.find_spec(fw) is not None


def _short_error(e: BaseException) -> str:
    msg = str(e).strip().splitlines()
    return f"{type(e).__name__}: {msg[0] if msg else ''}"[:200]


def _time_calls(thunk: Thunk, number: int) -> float:
    """Seconds for `number` calls, with the garbage collector off (as timeit does). A thunk with a
    `time_calls(number)` method times itself (e.g. in a process of its own: benchmarks/dispatch.py)."""
    timer = getattr(thunk, "time_calls", None)
    if timer is not None:
        return timer(number)
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        t0 = time.perf_counter()
        for _ in range(number):
            thunk()
        return time.perf_counter() - t0
    finally:
        if gc_was_enabled:
            gc.enable()


def _calibrate(thunk: Thunk, min_sample_s: float) -> int:
    """Calls per sample so that one sample lasts about `min_sample_s`."""
    if min_sample_s <= 0:
        return 1
    number = 1
    while True:
        t = _time_calls(thunk, number)
        if t >= min_sample_s / 5 or number >= 1 << 20:
            return max(1, min(1 << 20, math.ceil(number * min_sample_s / max(t, 1e-9))))
        number *= 4


def run_workload(w: Workload, frameworks: Sequence[str], settings: Settings,
                 log: Callable[[str], None] = lambda s: None) -> Result:
    timings: dict[str, Timing] = {}
    thunks: dict[str, Thunk] = {}
    numbers: dict[str, int] = {}
    impls = dict(w.impls)
    if w.baseline is not None and "padax" in frameworks:
        impls[BASELINE] = w.baseline
        frameworks = list(frameworks) + [BASELINE]
    for fw in frameworks:
        setup = impls.get(fw)
        if setup is None:
            timings[fw] = Timing("skipped", "no implementation of this workload")
            continue
        if not framework_installed("padax" if fw == BASELINE else fw):
            timings[fw] = Timing("skipped", f"{fw} is not installed")
            continue
        try:
            thunk = setup()
            for _ in range(1 if w.fresh else settings.warmup_calls):
                thunk()
            numbers[fw] = 1 if w.fresh else _calibrate(thunk, settings.min_sample_s)
        except Unavailable as e:
            timings[fw] = Timing("skipped", str(e))
            continue
        except ImportError as e:
            timings[fw] = Timing("skipped", _short_error(e))
            continue
        except Exception as e:  # a benchmark bug or a framework failure: report, keep going
            timings[fw] = Timing("error", _short_error(e))
            log(f"  {w.full_name} [{fw}] failed:\n" + traceback.format_exc())
            continue
        thunks[fw] = thunk
        timings[fw] = Timing("ok", calls_per_sample=numbers[fw])

    repeats = settings.fresh_repeats if w.fresh else settings.repeats
    # padax and jax (the ratio with a target) alternate sample by sample, their order swapping
    # each round; the other peers are timed afterwards, each in a block of its own: numpy's
    # BLAS and paddle's thread pools keep spinning for a while after a call and would slow
    # down whichever framework ran next.
    paired = [fw for fw in thunks if fw in ("padax", "jax", BASELINE)]
    rounds = [(paired[r % len(paired):] + paired[:r % len(paired)]) for r in range(repeats)] if paired else []
    for fw in thunks:
        if fw not in paired:
            rounds += [[fw]] * repeats
    for i, group in enumerate(rounds):
        if i and group[0] not in rounds[i - 1]:
            time.sleep(_SETTLE_S)  # a new block: let the previous framework's threads go idle
        for fw in group:
            if timings[fw].status != "ok":
                continue
            if w.fresh:
                gc.collect()
            try:
                t = _time_calls(thunks[fw], numbers[fw])
            except Exception as e:
                timings[fw] = Timing("error", _short_error(e))
                log(f"  {w.full_name} [{fw}] failed while timing:\n" + traceback.format_exc())
                continue
            timings[fw].samples.append(t / numbers[fw])
    for fw, t in timings.items():
        if t.status == "ok" and not t.samples:
            timings[fw] = Timing("error", "no samples")
    return Result(w, timings)


# -- machine description -------------------------------------------------------------------

def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _version(module: str) -> str | None:
    mod = sys.modules.get(module)
    if mod is None:
        try:
            from importlib.metadata import version
            return version({"paddle": "paddlepaddle"}.get(module, module))
        except Exception:
            return None
    return getattr(mod, "__version__", None)


def _git(*args: str) -> str | None:
    try:
        out = subprocess.run(["git", *args], capture_output=True, text=True, timeout=10,
                             cwd=os.path.dirname(os.path.abspath(__file__)))
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def machine_info() -> dict:
    commit = _git("rev-parse", "--short", "HEAD")
    dirty = _git("status", "--porcelain", "--untracked-files=no")
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count()
    try:
        load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        load = "?"
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "nproc": usable,
        "cpu_count": os.cpu_count(),
        "cpu_model": _cpu_model(),
        "loadavg_at_start": load,
        "os": platform.platform(),
        "python": platform.python_version(),
        "numpy": _version("numpy"),
        "jaxlib": _version("jaxlib"),
        "padax": _version("padax"),
        "padax_commit": (commit + ("+dirty" if dirty else "")) if commit else None,
        "jax": _version("jax") if framework_installed("jax") else None,
        "paddle": _version("paddle") if framework_installed("paddle") else None,
        "padax_cpu_dispatch": _padax_cpu_dispatch(),
    }


def _padax_cpu_dispatch() -> str:
    """How padax's CPU client runs single-device programs (jax's default is async), and its malloc tuning."""
    from padax.config import config
    from padax.runtime.host_memory import tune_host_allocator
    mode = "async" if config.cpu_async_dispatch else "inline"
    tuned = tune_host_allocator()  # what padax applies with its CPU client anyway (process-wide)
    if tuned:
        mode += (f"; glibc malloc thresholds mmap {tuned['mmap_threshold'] >> 20} MiB / trim "
                 f"{tuned['trim_threshold'] >> 20} MiB, process-wide, so jax runs with them too")
    return mode


# -- reporting ----------------------------------------------------------------------------

def fmt_time(s: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if s >= scale:
            return f"{s / scale:.3g} {unit}"
    return f"{s / 1e-9:.3g} ns"


def _cell(t: Timing | None) -> str:
    if t is None:
        return "-"
    if t.status != "ok":
        return t.status
    return f"{fmt_time(t.median)} ({fmt_time(t.min)}–{fmt_time(t.max)})"


def _ratio(r: float | None) -> str:
    return "-" if r is None else f"{r:.2f}"


def table(results: Sequence[Result], frameworks: Sequence[str]) -> str:
    """A Markdown table: median (min–max) per call for each framework, ratios, targets."""
    peers = [p for p in PEERS if p in frameworks]
    head = ["workload"] + [f"{fw} median (min–max)" for fw in frameworks]
    if "jax" in peers:
        head += ["padax/jax", "target", "met"]
    if "paddle" in peers:
        head += ["padax/paddle"]
    with_numpy = "numpy" in frameworks and any(
        r.timings.get("numpy") is not None and r.timings["numpy"].status == "ok" for r in results)
    if with_numpy:
        head += ["padax/numpy"]
    with_baseline = any(r.workload.baseline is not None for r in results)
    if with_baseline:
        head += ["padax/baseline", "baseline target", "baseline met"]
    if not with_numpy and "numpy" in frameworks:
        frameworks = [f for f in frameworks if f != "numpy"]
        head = [h for h in head if not h.startswith("numpy ")]
    rows = [head, ["---"] * len(head)]
    for res in results:
        row = [f"`{res.workload.full_name}`"] + [_cell(res.timings.get(fw)) for fw in frameworks]
        if "jax" in peers:
            met = res.target_met
            tgt = res.workload.target
            row += [_ratio(res.ratio("jax")), "-" if tgt is None else f"<= {tgt:g}",
                    "-" if met is None else ("yes" if met else "**no**")]
        if "paddle" in peers:
            row += [_ratio(res.ratio("paddle"))]
        if with_numpy:
            row += [_ratio(res.ratio("numpy"))]
        if with_baseline:
            bt, bm = res.workload.baseline_target, res.baseline_met
            row += [_ratio(res.ratio(BASELINE)), "-" if bt is None else f"<= {bt:g}",
                    "-" if bm is None else ("yes" if bm else "**no**")]
        rows.append(row)
    return "\n".join("| " + " | ".join(r) + " |" for r in rows)


def notes(results: Sequence[Result]) -> list[str]:
    """Workload descriptions and the reasons for skipped/failed cells."""
    out = []
    for res in results:
        out.append(f"- `{res.workload.full_name}`: {res.workload.description}")
        for fw, t in res.timings.items():
            if t.status != "ok":
                out.append(f"  - {fw}: {t.status}: {t.reason}")
    return out


def write_results(results: Sequence[Result], frameworks: Sequence[str], settings: Settings,
                  meta: dict, out_dir: str, command: str) -> tuple[str, str]:
    """Write RESULTS.md and results.json into `out_dir`; returns their paths."""
    os.makedirs(out_dir, exist_ok=True)
    json_path = os.path.join(out_dir, "results.json")
    md_path = os.path.join(out_dir, "RESULTS.md")
    payload = {"meta": meta, "settings": dataclasses.asdict(settings), "frameworks": list(frameworks),
               "command": command, "results": [r.to_json() for r in results]}
    with open(json_path, "w") as f:
        json.dump(payload, f, indent=1)
        f.write("\n")
    m = meta
    busy = []
    try:
        load1 = float(str(m["loadavg_at_start"]).split()[0])
        if m["nproc"] and load1 > 0.75 * m["nproc"]:
            busy = [f"**Note:** the machine was busy when this run started (1-minute load {load1:.1f} "
                    f"on {m['nproc']} cores): other processes competed for the CPU, so absolute times "
                    "and the min–max spreads are inflated; the alternating order keeps the ratios "
                    "roughly fair, but rerun on an idle machine before drawing fine conclusions.", ""]
    except (ValueError, IndexError, KeyError):
        pass
    lines = [
        "# Benchmark results",
        "",
        f"Generated by `{command}` on {m['date']}. Regenerate with `python -m benchmarks` "
        "(see `python -m benchmarks --help`); raw samples are in `results.json`.",
        "",
        "## Machine",
        "",
        f"- CPU: {m['cpu_model']}, {m['nproc']} usable cores (nproc; {m['cpu_count']} online), "
        f"load average at start {m['loadavg_at_start']}",
        f"- {m['os']}",
        f"- Python {m['python']}, numpy {m['numpy']}, jaxlib {m['jaxlib']}, "
        f"padax {m['padax']} (commit {m['padax_commit']}), jax {m['jax'] or 'not installed'}, "
        f"paddlepaddle {m['paddle'] or 'not installed'}",
        f"- CPU dispatch of single-device programs: padax {m.get('padax_cpu_dispatch', '?')} "
        "(`padax.config.cpu_async_dispatch`), jax async (its default)",
        "",
        "## Results",
        "",
        *busy,
        "Time per call: median (min–max) over "
        f"{settings.repeats} samples ({settings.fresh_repeats} for compile workloads), "
        "each sample averaging enough back-to-back calls to last at least "
        f"{settings.min_sample_s * 1e3:g} ms; warm-up calls excluded; padax and jax alternate "
        "sample by sample in one process, paddle and numpy are timed after them in blocks of "
        "their own (their thread pools keep spinning after a call and would slow down whichever "
        "framework ran next). padax/jax is the median over rounds of the ratio of the round's two "
        "back-to-back samples (a paired comparison); the other ratios are padax's median over the peer's "
        "(lower is better for padax); `target` is the goal for padax/jax. Where a workload has a "
        "baseline (padax without the thing measured, e.g. without an unused debug.print), it is sampled "
        "in the same rounds as padax and padax/baseline is the paired median ratio, with its own target.",
        "",
        table(results, frameworks),
        "",
        "## Workloads",
        "",
        *notes(results),
        "",
    ]
    profiling = os.path.join(os.path.dirname(os.path.abspath(__file__)), "PROFILING.md")
    if os.path.exists(profiling):  # hand-written analysis, carried into every regenerated report
        with open(profiling, encoding="utf-8") as f:
            lines += [f.read()]
    with open(md_path, "w") as f:
        f.write("\n".join(lines))
    return md_path, json_path


# -- new processes ------------------------------------------------------------------------------

_PYCACHE: list[str] = []


def subprocess_env(extra: dict | None = None) -> dict:
    """The environment of a timed new process: bytecode caching on, as for an installed package.

    Where PYTHONDONTWRITEBYTECODE is set (as in some development and CI shells), every new process
    would compile padax's sources again (~0.35 s of CPU) while jax's installed .pyc files are read;
    the processes then share a private PYTHONPYCACHEPREFIX instead (filled by the untimed warm-up).
    """
    env = dict(os.environ, **(extra or {}))
    if env.pop("PYTHONDONTWRITEBYTECODE", None) is not None and "PYTHONPYCACHEPREFIX" not in env:
        if not _PYCACHE:
            _PYCACHE.append(tempfile.mkdtemp(prefix="padax-bench-pycache-"))
        env["PYTHONPYCACHEPREFIX"] = _PYCACHE[0]
    return env


def with_warm_cache(run: Callable[[str], None]) -> Callable[[], Thunk]:
    """A workload setup timing `run(cache_dir)` on a compilation cache that one untimed `run` filled."""
    def setup():
        warm = tempfile.mkdtemp(prefix="padax-bench-cache-")
        run(warm)
        return lambda: run(warm)
    return setup


def with_cold_cache(run: Callable[[str], None]) -> Callable[[], Thunk]:
    """A workload setup timing `run(cache_dir)` on a new, empty compilation cache each time."""
    def setup():
        def once():
            cold = tempfile.mkdtemp(prefix="padax-bench-cache-")
            try:
                run(cold)
            finally:
                shutil.rmtree(cold, ignore_errors=True)
        return once
    return setup
