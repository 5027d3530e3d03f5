"""Start the processes of a padax run on one node: `python -m padax.distributed.launch ... train.py args`.

Flags follow Paddle's launcher: `--nnodes N --node_rank R` (alias `--rank`)
`--master HOST:PORT --nproc_per_node K [--devices 0,1,..] [--log_dir log]`,
or `--ips host0,host1` (node R is this host's position in the list, the
master is host0:--start_port). Run the same command on every node with its
own rank. Process `node_rank * K + i` is this node's i-th; it gets

- PADAX_COORDINATOR (the master address), PADAX_NUM_PROCESSES, PADAX_PROCESS_ID,
  PADAX_LOCAL_PROCESS_ID, PADAX_NUM_NODES, PADAX_NODE_RANK, PADAX_INIT_TIMEOUT,
  PADAX_HEARTBEAT_TIMEOUT (what `padax.distributed.initialize()` reads);
- Paddle's PADDLE_MASTER, PADDLE_TRAINER_ID, PADDLE_TRAINERS_NUM, PADDLE_GLOBAL_RANK,
  PADDLE_LOCAL_RANK, PADDLE_RANK_IN_NODE, PADDLE_GLOBAL_SIZE, PADDLE_LOCAL_SIZE, PADDLE_NNODES;
- with --devices, its share of them in PADAX_LOCAL_DEVICE_IDS, FLAGS_selected_devices
  and CUDA_VISIBLE_DEVICES.

Process 0 (node 0) runs jaxlib's coordination service at the master address;
every process registers with it, and a process that cannot reach it fails
after --elastic_timeout seconds with an error naming the address. Each
process's output goes to `<log_dir>/workerlog.<rank>` and, prefixed with
`[rank]`, to the launcher's output.

Failures end the whole run: when a process exits with an error, the launcher
stops its other processes and exits with that status, naming the rank and
its log. Processes on other nodes learn it from the coordination service,
whose heartbeat (--heartbeat_timeout seconds) marks the stopped processes as
failed; jaxlib then terminates them, and their launchers exit in turn.
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from typing import Sequence

_TAIL_LINES = 8


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port that was free a moment ago (the coordinator binds it right after)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


@dataclasses.dataclass
class NodeConfig:
    """One node's share of a run: which processes it starts and how they find each other."""

    nproc_per_node: int = 1
    nnodes: int = 1
    node_rank: int = 0
    master: str | None = None
    devices: tuple[str, ...] = ()
    log_dir: str | None = "log"
    log_overwrite: bool = False
    init_timeout: float = 60.0
    heartbeat_timeout: float = 10.0

    def __post_init__(self) -> None:
        if self.nproc_per_node < 1:
            raise ValueError(f"--nproc_per_node must be at least 1, got {self.nproc_per_node}")
        if self.nnodes < 1:
            raise ValueError(f"--nnodes must be at least 1, got {self.nnodes}")
        if not 0 <= self.node_rank < self.nnodes:
            raise ValueError(f"--node_rank {self.node_rank} is not in [0, {self.nnodes}) (--nnodes {self.nnodes})")
        if self.master is None:
            if self.nnodes > 1:
                raise ValueError(f"--master HOST:PORT is needed for {self.nnodes} nodes (the address of node 0, "
                                 "where process 0 runs the coordination service)")
            self.master = f"127.0.0.1:{free_port()}"
        host, _, port = self.master.rpartition(":")
        if not host or not port.isdigit():
            raise ValueError(f"--master must be HOST:PORT, got {self.master!r}")
        if self.devices and len(self.devices) % self.nproc_per_node:
            raise ValueError(f"--devices lists {len(self.devices)} devices, which cannot be split evenly over "
                             f"--nproc_per_node {self.nproc_per_node} processes")

    @property
    def world_size(self) -> int:
        return self.nnodes * self.nproc_per_node

    def global_rank(self, local_rank: int) -> int:
        return self.node_rank * self.nproc_per_node + local_rank

    def rank_env(self, local_rank: int) -> dict[str, str]:
        """The environment variables that tell process `local_rank` of this node who it is."""
        rank, size = str(self.global_rank(local_rank)), str(self.world_size)
        env = {
            "PADAX_COORDINATOR": self.master, "PADAX_NUM_PROCESSES": size, "PADAX_PROCESS_ID": rank,
            "PADAX_LOCAL_PROCESS_ID": str(local_rank), "PADAX_NUM_NODES": str(self.nnodes),
            "PADAX_NODE_RANK": str(self.node_rank), "PADAX_INIT_TIMEOUT": str(self.init_timeout),
            "PADAX_HEARTBEAT_TIMEOUT": str(self.heartbeat_timeout),
            "PADDLE_MASTER": self.master, "PADDLE_TRAINER_ID": rank, "PADDLE_TRAINERS_NUM": size,
            "PADDLE_GLOBAL_RANK": rank, "PADDLE_LOCAL_RANK": str(local_rank),
            "PADDLE_RANK_IN_NODE": str(local_rank), "PADDLE_GLOBAL_SIZE": size,
            "PADDLE_LOCAL_SIZE": str(self.nproc_per_node), "PADDLE_NNODES": str(self.nnodes),
        }
        if self.devices:
            per = len(self.devices) // self.nproc_per_node
            mine = ",".join(self.devices[local_rank * per:(local_rank + 1) * per])
            env.update(PADAX_LOCAL_DEVICE_IDS=mine, FLAGS_selected_devices=mine, CUDA_VISIBLE_DEVICES=mine)
        return env

    def log_path(self, local_rank: int) -> str | None:
        if not self.log_dir:
            return None
        return os.path.join(self.log_dir, f"workerlog.{self.global_rank(local_rank)}")


def _pump(stream, prefix: str, out, log) -> None:
    for line in iter(stream.readline, ""):
        if log is not None:
            log.write(line)
            log.flush()
        if out is not None:
            out.write(prefix + line)
            out.flush()
    stream.close()


def describe_exit(status: int) -> str:
    """'exited with status 3' / 'was killed by SIGABRT' (with what that usually means here)."""
    if status >= 0:
        return f"exited with status {status}"
    try:
        name = signal.Signals(-status).name
    except ValueError:
        name = f"signal {-status}"
    why = {"SIGABRT": " (jaxlib's coordination service aborts a process when another process of the run "
                      "failed or stopped answering; look for the first failure)",
           "SIGKILL": " (killed from outside, e.g. out of memory)"}.get(name, "")
    return f"was killed by {name}{why}"


def _log_tail(path: str | None) -> str:
    if not path or not os.path.exists(path):
        return ""
    with open(path, errors="replace") as f:
        lines = f.readlines()[-_TAIL_LINES:]
    return "".join("    | " + line for line in lines)


def _end_with_parent() -> None:
    """In the child before exec (Linux): get SIGTERM when the launcher dies, so no process outlives it."""
    if sys.platform.startswith("linux"):
        import ctypes
        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)


class LaunchError(RuntimeError):
    """The launcher was given an impossible configuration."""


def launch(script_args: Sequence[str], nproc: int = 1, coordinator: str | None = None, module: bool = False,
           timeout: float | None = None, grace: float = 5.0, env: dict | None = None,
           prefix_output: bool = True, *, nnodes: int = 1, node_rank: int = 0, devices: Sequence[str] = (),
           log_dir: str | None = "log", log_overwrite: bool = False, init_timeout: float = 60.0,
           heartbeat_timeout: float = 10.0) -> int:
    """Run this node's `nproc` processes of a script (or `-m module`) as part of one run; returns the exit status.

    Returns 0 when every process succeeded; otherwise the first failure's
    status (128 + signal number for a process killed by a signal), or 124
    when `timeout` seconds passed.
    """
    try:
        cfg = NodeConfig(nproc, nnodes, node_rank, coordinator, tuple(devices), log_dir, log_overwrite,
                         init_timeout, heartbeat_timeout)
    except ValueError as e:
        raise LaunchError(f"padax.distributed.launch: {e}") from None
    if cfg.log_dir:
        os.makedirs(cfg.log_dir, exist_ok=True)
    base = dict(os.environ if env is None else env)
    cmd = [sys.executable, "-u"] + (["-m"] if module else []) + list(script_args)
    procs, pumps, logs = [], [], []
    # (a pre-exec hook is only safe in a process without threads, and the death signal follows the forking thread)
    alone = threading.current_thread() is threading.main_thread() and threading.active_count() == 1
    for i in range(cfg.nproc_per_node):  # all processes before the output threads, for the same reason
        path = cfg.log_path(i)
        logs.append(open(path, "w" if cfg.log_overwrite else "a") if path else None)
        procs.append(subprocess.Popen(cmd, env=dict(base, **cfg.rank_env(i)), stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, text=True, bufsize=1, errors="replace",
                                      preexec_fn=_end_with_parent if alone else None))
    for i, (p, log) in enumerate(zip(procs, logs)):
        prefix = f"[{cfg.global_rank(i)}] " if prefix_output else ""
        t = threading.Thread(target=_pump, args=(p.stdout, prefix, sys.stdout, log), daemon=True)
        t.start()
        pumps.append(t)
    try:
        return _watch(cfg, procs, timeout)
    finally:
        _stop(procs, grace)
        for t in pumps:
            t.join(timeout=2.0)
        for log in logs:
            if log is not None:
                log.close()


def _watch(cfg: NodeConfig, procs: list, timeout: float | None) -> int:
    """Wait until all processes succeed, one fails, or time runs out; say which."""
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        codes = [p.poll() for p in procs]
        failed = [(i, c) for i, c in enumerate(codes) if c not in (None, 0)]
        if failed:
            i, c = failed[0]
            others = sum(1 for x in codes if x is None)
            where = f"; its log: {cfg.log_path(i)}" if cfg.log_path(i) else ""
            sys.stderr.write(f"padax.distributed.launch: rank {cfg.global_rank(i)} (node {cfg.node_rank}, local "
                             f"rank {i}) {describe_exit(c)}{where}; the run has failed, stopping this node's "
                             f"{others} other running process(es)\n" + _log_tail(cfg.log_path(i)))
            sys.stderr.flush()
            return c if c > 0 else 128 - c
        if all(c == 0 for c in codes):
            return 0
        if deadline is not None and time.monotonic() > deadline:
            sys.stderr.write(f"padax.distributed.launch: timed out after {timeout} s; stopping\n")
            return 124
        time.sleep(0.05)


def _stop(procs, grace: float) -> None:
    """Let running processes end by themselves for `grace` seconds, then SIGTERM, then SIGKILL."""
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


def _node_from_ips(ips: str, host: str | None, start_port: int) -> tuple[int, str, int | None]:
    """Paddle's --ips form: (nnodes, master, this node's rank if this host is in the list)."""
    hosts = [h.strip() for h in ips.split(",") if h.strip()]
    if not hosts:
        raise LaunchError(f"padax.distributed.launch: --ips {ips!r} lists no hosts")
    if host is None:
        try:
            host = socket.gethostbyname(socket.gethostname())
        except OSError:
            host = None
    rank = hosts.index(host) if host in hosts else None
    return len(hosts), f"{hosts[0]}:{start_port}", rank


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m padax.distributed.launch",
                                 description="Start this node's processes of a (multi-node) padax run.")
    ap.add_argument("--nproc_per_node", "--nproc", type=int, default=None,
                    help="processes on this node (default: one per --devices entry, else 1)")
    ap.add_argument("--nnodes", type=str, default="1", help="number of nodes (default 1)")
    ap.add_argument("--node_rank", "--rank", dest="node_rank", type=int, default=None,
                    help="this node's rank in [0, nnodes) (default 0, or PADDLE_TRAINER_ID)")
    ap.add_argument("--master", "--coordinator", dest="master", default=None,
                    help="HOST:PORT of node 0, where process 0 runs the coordination service "
                         "(default for one node: 127.0.0.1:<free port>)")
    ap.add_argument("--ips", default=None, help="Paddle's form: comma-separated node hosts; node 0's is the master")
    ap.add_argument("--host", default=None, help="this node's address as written in --ips")
    ap.add_argument("--start_port", type=int, default=6070, help="master port with --ips (default 6070)")
    ap.add_argument("--devices", "--gpus", "--xpus", "--npus", dest="devices", default=None,
                    help="comma-separated device ids of this node, split evenly over its processes")
    ap.add_argument("--log_dir", default="log", help="folder of the per-process logs workerlog.<rank> (default log)")
    ap.add_argument("--log_overwrite", type=lambda v: v.lower() in ("1", "true", "yes", "y", "on"), default=False,
                    help="truncate the logs instead of appending to them (default False)")
    ap.add_argument("--job_id", default="default", help="accepted for Paddle compatibility")
    ap.add_argument("--elastic_timeout", "--init_timeout", dest="init_timeout", type=float, default=60.0,
                    help="seconds a process waits for the master and its peers (default 60)")
    ap.add_argument("--heartbeat_timeout", type=float, default=10.0,
                    help="seconds of silence after which a process counts as dead (default 10)")
    ap.add_argument("--timeout", type=float, default=None, help="stop everything after this many seconds")
    ap.add_argument("--grace", type=float, default=5.0,
                    help="seconds the other processes get to end by themselves after a failure (default 5)")
    ap.add_argument("-m", dest="module", action="store_true", help="the target is a module name")
    ap.add_argument("training_script", help="the script (or module with -m)")
    ap.add_argument("training_script_args", nargs=argparse.REMAINDER, help="arguments for the script")
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    ns = parser().parse_args(argv)
    try:
        if ":" in ns.nnodes:
            raise LaunchError(f"padax.distributed.launch: --nnodes {ns.nnodes!r}: elastic node ranges are not "
                              "supported; give the number of nodes")
        nnodes, master, node_rank = int(ns.nnodes), ns.master, ns.node_rank
        if ns.ips:
            nnodes, ips_master, ips_rank = _node_from_ips(ns.ips, ns.host, ns.start_port)
            master = master or ips_master
            if node_rank is None and ips_rank is None:
                raise LaunchError(f"padax.distributed.launch: this host ({ns.host or 'its own address'}) is not in "
                                  f"--ips {ns.ips}; pass --host <its entry> or --node_rank")
            node_rank = ips_rank if node_rank is None else node_rank
        if node_rank is None:
            node_rank = int(os.environ.get("PADDLE_TRAINER_ID", "0") or 0)
        devices = tuple(d.strip() for d in ns.devices.split(",") if d.strip()) if ns.devices else ()
        nproc = ns.nproc_per_node or (len(devices) if devices else 1)
        _forward_signals()
        return launch([ns.training_script, *ns.training_script_args], nproc, master, ns.module, ns.timeout,
                      ns.grace, nnodes=nnodes, node_rank=node_rank, devices=devices, log_dir=ns.log_dir,
                      log_overwrite=ns.log_overwrite,
                      init_timeout=ns.init_timeout, heartbeat_timeout=ns.heartbeat_timeout)
    except LaunchError as e:
        sys.stderr.write(f"{e}\n")
        return 2


def _forward_signals() -> None:
    """SIGTERM/SIGINT to the launcher become a clean stop of its processes (through launch's finally)."""
    def handler(signum, frame):
        raise SystemExit(128 + signum)
    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)


if __name__ == "__main__":
    sys.exit(main())
