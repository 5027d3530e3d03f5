"""`python -m benchmarks`: run every workload for padax, jax and paddle and report ratios.

Writes benchmarks/RESULTS.md and benchmarks/results.json unless --no-write.
Exit status: 0 on success (targets missed are reported, not failures), 1 if
any installed framework failed on a workload, 2 on bad arguments.
"""
from __future__ import annotations

import argparse
import fnmatch
import importlib
import os
import shlex
import sys
import time

from benchmarks import MODULES
from benchmarks.harness import FRAMEWORKS, Settings, machine_info, run_workload, table, write_results


def _parse(argv):
    p = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    p.add_argument("--smoke", action="store_true",
                   help="run each workload a couple of times only: checks that everything runs")
    p.add_argument("--no-write", action="store_true", help="print the table only; write no files")
    p.add_argument("--only", default="", metavar="PATTERNS",
                   help="comma-separated name patterns (fnmatch, or substrings), e.g. 'dispatch.eager_*'")
    p.add_argument("--frameworks", default=",".join(FRAMEWORKS),
                   help="comma-separated subset of padax,jax,paddle (default: all that are installed)")
    p.add_argument("--repeats", type=int, help="samples per framework (default 21, compile workloads 9)")
    p.add_argument("--min-sample-ms", type=float, help="calibrate each sample to last this long (default 20)")
    p.add_argument("--out-dir", default=os.path.dirname(os.path.abspath(__file__)),
                   help="where RESULTS.md and results.json go (default: the benchmarks folder)")
    p.add_argument("--list", action="store_true", help="list the workloads and exit")
    return p.parse_args(argv)


def _selected(name: str, patterns: list[str]) -> bool:
    return not patterns or any(fnmatch.fnmatch(name, pat) or pat in name for pat in patterns)


def main(argv=None) -> int:
    args = _parse(argv)
    frameworks = [f.strip() for f in args.frameworks.split(",") if f.strip()]
    bad = [f for f in frameworks if f not in FRAMEWORKS]
    if bad or "padax" not in frameworks:
        print(f"--frameworks: must include padax, from {FRAMEWORKS}; got {frameworks}", file=sys.stderr)
        return 2
    frameworks = [f for f in FRAMEWORKS if f in frameworks]
    settings = Settings.for_smoke() if args.smoke else Settings()
    if args.repeats is not None:
        settings.repeats = settings.fresh_repeats = max(1, args.repeats)
    if args.min_sample_ms is not None:
        settings.min_sample_s = args.min_sample_ms / 1e3

    patterns = [s.strip() for s in args.only.split(",") if s.strip()]
    workloads = []
    for mod_name in MODULES:
        mod = importlib.import_module(f"benchmarks.{mod_name}")
        for w in mod.workloads():
            w.group = mod_name
            if _selected(w.full_name, patterns):
                workloads.append(w)
    if args.list:
        for w in workloads:
            print(f"{w.full_name:28s} {w.description}")
        return 0
    if not workloads:
        print(f"no workload matches --only {args.only!r}", file=sys.stderr)
        return 2

    meta = machine_info()
    print(f"# {meta['date']} | {meta['cpu_model']} | nproc {meta['nproc']} | load {meta['loadavg_at_start']} | "
          f"python {meta['python']} | jaxlib {meta['jaxlib']} | jax {meta['jax']} | paddle {meta['paddle']}",
          flush=True)
    results = []
    failed = False
    t_all = time.perf_counter()
    for w in workloads:
        t0 = time.perf_counter()
        res = run_workload(w, frameworks, settings, log=lambda s: print(s, file=sys.stderr, flush=True))
        results.append(res)
        states = ", ".join(f"{fw}: {t.status}" for fw, t in res.timings.items())
        print(f"  {w.full_name:28s} {time.perf_counter() - t0:6.1f}s  ({states})", flush=True)
        failed |= any(t.status == "error" for t in res.timings.values())
    # versions of the frameworks the run imported
    meta.update({k: v for k, v in machine_info().items() if k in ("jax", "paddle")})

    print()
    print(table(results, frameworks))
    for res in results:
        for fw, t in res.timings.items():
            if t.status != "ok":
                print(f"  {res.workload.full_name} [{fw}] {t.status}: {t.reason}")
    print(f"\n{len(results)} workloads in {time.perf_counter() - t_all:.1f}s")
    if not args.no_write:
        command = "python -m benchmarks" + ("" if argv is None and len(sys.argv) <= 1 else
                                            " " + shlex.join(sys.argv[1:] if argv is None else argv))
        md, js = write_results(results, frameworks, settings, meta, args.out_dir, command)
        print(f"wrote {md} and {js}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
