"""Start N local processes of a padax script: `python -m padax.distributed.launch --nproc 2 train.py ...`.

Each process gets PADAX_COORDINATOR (127.0.0.1 and a free port, or
--coordinator), PADAX_NUM_PROCESSES and PADAX_PROCESS_ID, which
`padax.distributed.initialize()` reads when called without arguments. Their
output is prefixed with the rank. If one process fails, the others are
stopped (after --grace seconds) and the launcher exits with its status.
"""
from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from typing import Sequence


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port that was free a moment ago (the coordinator binds it right after)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def _pump(stream, prefix: str, out) -> None:
    for line in iter(stream.readline, ""):
        out.write(prefix + line)
        out.flush()
    stream.close()


def launch(script_args: Sequence[str], nproc: int, coordinator: str | None = None, module: bool = False,
           timeout: float | None = None, grace: float = 5.0, env: dict | None = None,
           prefix_output: bool = True) -> int:
    """Run `nproc` copies of a script (or `-m module`) as one multi-process padax run; returns the exit code."""
    if nproc < 1:
        raise ValueError("--nproc must be at least 1")
    address = coordinator or f"127.0.0.1:{free_port()}"
    base = dict(os.environ if env is None else env)
    cmd = [sys.executable] + (["-m"] if module else []) + list(script_args)
    procs, pumps = [], []
    for rank in range(nproc):
        penv = dict(base, PADAX_COORDINATOR=address, PADAX_NUM_PROCESSES=str(nproc), PADAX_PROCESS_ID=str(rank))
        p = subprocess.Popen(cmd, env=penv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             bufsize=1)
        procs.append(p)
        t = threading.Thread(target=_pump, args=(p.stdout, f"[{rank}] " if prefix_output else "", sys.stdout),
                             daemon=True)
        t.start()
        pumps.append(t)
    deadline = None if timeout is None else time.monotonic() + timeout
    status = 0
    try:
        while True:
            codes = [p.poll() for p in procs]
            failed = [(i, c) for i, c in enumerate(codes) if c not in (None, 0)]
            if failed:
                status = failed[0][1]
                sys.stderr.write(f"padax.distributed.launch: process {failed[0][0]} exited with status "
                                 f"{failed[0][1]}; stopping the others\n")
                break
            if all(c == 0 for c in codes):
                break
            if deadline is not None and time.monotonic() > deadline:
                sys.stderr.write(f"padax.distributed.launch: timed out after {timeout} s; stopping\n")
                status = 124
                break
            time.sleep(0.05)
    finally:
        _stop(procs, grace)
        for t in pumps:
            t.join(timeout=1.0)
    return status


def _stop(procs, grace: float) -> None:
    live = [p for p in procs if p.poll() is None]
    end = time.monotonic() + grace
    while live and time.monotonic() < end:
        time.sleep(0.05)
        live = [p for p in live if p.poll() is None]
    for p in live:
        p.send_signal(signal.SIGTERM)
    for p in live:
        try:
            p.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m padax.distributed.launch",
                                 description="Start N local processes of a padax script as one run.")
    ap.add_argument("--nproc", "--nproc_per_node", type=int, default=2, help="number of processes (default 2)")
    ap.add_argument("--coordinator", default=None, help="host:port of process 0 (default 127.0.0.1:<free port>)")
    ap.add_argument("--timeout", type=float, default=None, help="stop everything after this many seconds")
    ap.add_argument("-m", dest="module", action="store_true", help="the target is a module name")
    ap.add_argument("script", help="the script (or module with -m)")
    ap.add_argument("args", nargs=argparse.REMAINDER, help="arguments for the script")
    ns = ap.parse_args(argv)
    return launch([ns.script, *ns.args], ns.nproc, ns.coordinator, ns.module, ns.timeout)


if __name__ == "__main__":
    sys.exit(main())
