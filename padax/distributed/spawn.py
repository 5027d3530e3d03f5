"""`padax.distributed.spawn(fn, args, nprocs)`: run `fn` in `nprocs` new processes that form one padax run.

Like Paddle's spawn: each process is started with multiprocessing's `spawn`
method, joins the run (`initialize`, process 0 hosting the coordinator on a
free local port), calls `fn(*args)`, and leaves. An exception in any process
ends the others and is raised in the parent with that process's traceback
(sent back as text, never pickled).
"""
from __future__ import annotations

import json
import multiprocessing
import multiprocessing.connection
import os
import time
import traceback
from typing import Any, Callable, Iterable

from padax.distributed import runtime as _runtime
from padax.distributed.runtime import DistributedError
from padax.runtime import backend as _backend


class ProcessRaisedError(DistributedError):
    """A spawned process raised; the message holds its rank and traceback."""


def _worker(fn: Callable, args: tuple, rank: int, nprocs: int, address: str, options: dict, conn) -> None:
    try:
        _runtime.initialize(address, nprocs, rank, **options)
        fn(*args)
        _runtime.shutdown()
    except BaseException as e:  # noqa: BLE001 (every failure goes back to the parent as text)
        conn.send_bytes(json.dumps({"rank": rank, "error": f"{type(e).__name__}: {e}",
                                    "traceback": traceback.format_exc()}).encode())
        conn.close()
        os._exit(1)  # no orderly shutdown: the others would wait for this process at its barrier
    conn.close()


class MultiprocessContext:
    """The spawned processes; `join()` waits for them and raises the first failure."""

    def __init__(self, processes: list, pipes: list):
        self.processes, self._pipes = processes, pipes

    def pids(self) -> list[int]:
        return [p.pid for p in self.processes]

    def _failure(self, rank: int) -> str:
        conn = self._pipes[rank]
        if conn.poll():
            try:
                report = json.loads(conn.recv_bytes().decode())
                return f"{report['error']}\n\n{report['traceback']}"
            except (EOFError, ValueError, KeyError):
                pass
        return f"exited with status {self.processes[rank].exitcode}"

    def join(self, timeout: float | None = None) -> bool:
        """Wait until all processes end (True), or `timeout` seconds pass (False); raise if one failed."""
        end = None if timeout is None else time.monotonic() + timeout
        while True:
            codes = [p.exitcode for p in self.processes]
            bad = [r for r, c in enumerate(codes) if c not in (None, 0)]
            if bad:
                for p in self.processes:
                    if p.exitcode is None:
                        p.terminate()
                for p in self.processes:
                    p.join(5)
                rank = bad[0]
                raise ProcessRaisedError(f"padax.distributed.spawn: process {rank} of {len(self.processes)} "
                                         f"failed: {self._failure(rank)}")
            if all(c == 0 for c in codes):
                return True
            if end is not None and time.monotonic() > end:
                return False
            multiprocessing.connection.wait([p.sentinel for p in self.processes if p.exitcode is None], 0.1)


def spawn(fn: Callable[..., Any], args: Iterable[Any] = (), nprocs: int = -1, join: bool = True,
          daemon: bool = False, **options: Any) -> MultiprocessContext:
    """Run `fn(*args)` in `nprocs` processes of one padax run (Paddle's paddle.distributed.spawn).

    nprocs=-1 starts one process per local device of the default backend.
    `options` may set initialize's `timeout`, `heartbeat_timeout` and
    `local_device_count`. `fn` must be importable by the new processes (a
    module-level function). With join=False the caller joins the returned context.

    Args:
        fn: a module-level function, called as `fn(*args)` in every process.
        args: the positional arguments for `fn`.
        nprocs: number of processes; -1 starts one per local device.
        join: wait for every process to finish (errors in a child are raised here).
        daemon: start daemonic processes.
        **options: initialize's `timeout`, `heartbeat_timeout` and `local_device_count`.

    Returns:
        The MultiprocessContext of the started processes (already joined when `join`).

    Examples:
        >>> import padax.distributed as dist
        >>> ctx = dist.spawn(dist.barrier, nprocs=1)  # fn must be importable by the new process
        >>> [p.exitcode for p in ctx.processes]
        [0]
    """
    from padax.distributed.launch import free_port  # runpy: `python -m` of launch warns if the package loaded it
    allowed = {"timeout", "heartbeat_timeout", "local_device_count"}
    unknown = sorted(set(options) - allowed)
    if unknown:
        raise TypeError(f"padax.distributed.spawn: unknown options {unknown}; allowed: {sorted(allowed)}")
    if nprocs == -1:
        nprocs = len(_backend.local_devices())
    if nprocs < 1:
        raise ValueError(f"padax.distributed.spawn: nprocs must be at least 1 (or -1), got {nprocs}")
    ctx = multiprocessing.get_context("spawn")
    address = f"127.0.0.1:{free_port()}"
    procs, pipes = [], []
    for rank in range(nprocs):
        parent_end, child_end = ctx.Pipe(duplex=False)
        p = ctx.Process(target=_worker, args=(fn, tuple(args), rank, nprocs, address, options, child_end),
                        daemon=daemon)
        p.start()
        child_end.close()
        procs.append(p)
        pipes.append(parent_end)
    context = MultiprocessContext(procs, pipes)
    if join:
        context.join()
    return context
