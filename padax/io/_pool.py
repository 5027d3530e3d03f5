"""DataLoader worker processes, seen from the main process: starting them, handing out batches in order,
and making sure none is ever left behind.

Workers are started with multiprocessing's 'forkserver' method (padax refuses to compute in a
child forked after XLA started, so plain fork is out). The fork server is one fresh process
that has imported padax once; each worker forks from it in ~20 ms, where 'spawn' takes ~2 s
per worker to import padax again. Where 'forkserver' does not exist (Windows), 'spawn' is used.
"""
from __future__ import annotations

import multiprocessing
import pickle
import queue
import signal
import threading
import time
import weakref
from typing import Any, Callable, Iterator

from padax.io import _worker
from padax.io._fetch import RemoteError

_WAIT_S = 0.1          # how often a waiting main process checks its workers and its stop flag
_EXIT_GRACE_S = 5.0    # how long closing waits for workers to exit before terminating them


def mp_context() -> multiprocessing.context.BaseContext:
    """'forkserver' (with padax preloaded in the server) where it exists, else 'spawn'."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["padax.io._worker"])
        return ctx
    return multiprocessing.get_context("spawn")


def _exit_description(code: int | None) -> str:
    if code is None:
        return "is still running"
    if code < 0:
        try:
            return f"was killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with code {code}"


class _PoolResources:
    """Everything a pool must release; kept apart from the pool so a finalizer can hold it."""

    def __init__(self) -> None:
        self.procs: list = []
        self.index_queues: list = []
        self.data_queue: Any = None
        self.lifeline_w: Any = None
        self.closed = False

    def close(self) -> None:
        """Stop every worker (asking, then terminating, then killing) and free undelivered shared memory."""
        if self.closed:
            return
        self.closed = True
        for q in self.index_queues:
            try:
                q.put(None)
            except (OSError, ValueError):
                pass
        if self.lifeline_w is not None:
            self.lifeline_w.close()
        deadline = time.monotonic() + _EXIT_GRACE_S
        while any(p.is_alive() for p in self.procs) and time.monotonic() < deadline:
            self.drain()
            for p in self.procs:
                p.join(timeout=0.02)
        for p in self.procs:
            if p.is_alive():
                p.terminate()
                p.join(timeout=1.0)
            if p.is_alive():
                p.kill()
                p.join()
        self.drain()
        for q in self.index_queues + [self.data_queue]:
            if q is not None:
                q.cancel_join_thread()
                q.close()

    def drain(self) -> None:
        """Read and drop whatever results are waiting (unlinking their shared memory)."""
        if self.data_queue is None:
            return
        while True:
            try:
                msg = self.data_queue.get_nowait()
            except (queue.Empty, OSError, ValueError, EOFError):
                return
            discard(msg)


def discard(msg: Any) -> None:
    """Free a result message nobody will use."""
    if msg[3] == "ok":
        _worker.walk_shared(msg[4], lambda shared: shared.discard())


def _explain_pickling(error: Exception, parts: dict[str, Any]) -> Exception:
    for name, obj in parts.items():
        try:
            pickle.dumps(obj)
        except Exception as e:
            return TypeError(
                f"DataLoader(num_workers > 0): the {name} ({type(obj).__name__}) cannot be sent to the worker "
                f"processes: {type(e).__name__}: {e}. Workers are started with '{mp_context().get_start_method()}' "
                "(a process forked from one running XLA cannot compute), so what they run must be picklable: define "
                "datasets, collate_fn and worker_init_fn at module level (not lambdas or local classes)")
    return error


class WorkerPool:
    """`num_workers` processes serving one loader; persistent workers keep one pool across epochs."""

    def __init__(self, num_workers: int, dataset: Any, iterable: bool, auto_collate: bool, collate_fn: Callable,
                 drop_last: bool, init_fn: Callable | None, base_seed: int, use_shm: bool):
        ctx = mp_context()
        self.num_workers = num_workers
        self.res = _PoolResources()
        self._finalizer = weakref.finalize(self, self.res.close)
        self.current_tag = ctx.Value("q", 0, lock=False)
        lifeline_r, self.res.lifeline_w = ctx.Pipe(duplex=False)
        self.res.data_queue = ctx.Queue()
        try:
            for wid in range(num_workers):
                iq = ctx.Queue()
                self.res.index_queues.append(iq)
                p = ctx.Process(target=_worker.worker_loop, name=f"padax-io-worker-{wid}", daemon=True,
                                args=(wid, num_workers, dataset, iterable, auto_collate, collate_fn, drop_last,
                                      init_fn, base_seed, iq, self.res.data_queue, self.current_tag, lifeline_r,
                                      use_shm))
                try:
                    p.start()
                except Exception as e:
                    raise _explain_pickling(e, {"dataset": dataset, "collate_fn": collate_fn,
                                                "worker_init_fn": init_fn}) from e
                self.res.procs.append(p)
        except BaseException:
            self.close()
            raise
        finally:
            lifeline_r.close()

    @property
    def pids(self) -> list[int]:
        return [p.pid for p in self.res.procs]

    def close(self) -> None:
        self._finalizer()

    def dead_worker(self, busy: set[int]) -> str | None:
        """A description of a worker that died while it had work, if one did."""
        for wid, p in enumerate(self.res.procs):
            if p.exitcode is not None and (wid in busy or p.exitcode != 0):
                return (f"DataLoader worker {wid} (pid {p.pid}) {_exit_description(p.exitcode)} unexpectedly. "
                        "If it was killed by SIGKILL the machine may be out of memory; if it exited with code 1 "
                        "before loading anything, its start failed (its error is printed above: e.g. a dataset "
                        "class defined in an interactive session cannot be found by the worker)")
        return None


_HOLE = object()  # a batch number an exhausted iterable dataset will never fill


class WorkerBatches:
    """One epoch over a pool: sends batch requests ahead (prefetch_factor per worker) round-robin, and yields
    the host batches in order (their large arrays may still be in shared memory: see _worker.SharedArray)."""

    def __init__(self, pool: WorkerPool, index_iter: Iterator, start: int, tag: int, epoch_seed: int,
                 prefetch_factor: int, timeout: float, stop: threading.Event):
        self.pool, self.index_iter, self.tag, self.epoch_seed = pool, index_iter, tag, epoch_seed
        self.capacity = prefetch_factor * pool.num_workers
        self.timeout, self.stop = timeout, stop
        self.send_idx = self.rcvd_idx = start
        self.task_worker: dict[int, int] = {}
        self.results: dict[int, Any] = {}
        self.active = [True] * pool.num_workers
        self._next_worker = 0
        self.sampler_done = False
        pool.current_tag.value = tag

    def _dispatch(self) -> None:
        while len(self.task_worker) < self.capacity and not self.sampler_done:
            wid = self._pick_worker()
            if wid is None:
                self.sampler_done = True
                return
            try:
                indices = next(self.index_iter)
            except StopIteration:
                self.sampler_done = True
                return
            self.pool.res.index_queues[wid].put(("batch", self.tag, self.send_idx, indices, self.epoch_seed))
            self.task_worker[self.send_idx] = wid
            self.send_idx += 1

    def _pick_worker(self) -> int | None:
        for _ in range(self.pool.num_workers):
            wid = self._next_worker
            self._next_worker = (wid + 1) % self.pool.num_workers
            if self.active[wid]:
                return wid
        return None

    def __iter__(self) -> "WorkerBatches":
        return self

    def __next__(self) -> Any:
        while True:
            self._dispatch()
            if self.rcvd_idx in self.results:
                result = self.results.pop(self.rcvd_idx)
                self.task_worker.pop(self.rcvd_idx, None)
                self.rcvd_idx += 1
                if result is _HOLE:
                    continue
                if isinstance(result, RemoteError):
                    raise result.exception()
                return result
            if self.sampler_done and self.rcvd_idx >= self.send_idx:
                raise StopIteration
            self._receive()

    def _receive(self) -> None:
        """Wait for one result of this epoch (checking the stop flag, the workers' health and the timeout)."""
        waited = 0.0
        while True:
            if self.stop.is_set():
                raise _Stopped()
            try:
                msg = self.pool.res.data_queue.get(timeout=_WAIT_S)
            except queue.Empty:
                waited += _WAIT_S
                dead = self.pool.dead_worker(set(self.task_worker.values()))
                if dead:
                    raise RuntimeError(dead)
                if self.timeout and waited >= self.timeout:
                    wid = self.task_worker.get(self.rcvd_idx)
                    raise TimeoutError(f"DataLoader: no batch from the workers in {self.timeout} s (timeout="
                                       f"{self.timeout}); batch {self.rcvd_idx} is with worker {wid} (pid "
                                       f"{self.pool.pids[wid] if wid is not None else '?'})")
                continue
            tag, idx, wid, kind, payload = msg
            if tag != self.tag:
                discard(msg)
                continue
            if kind == "end":
                self.active[wid] = False
                self.results[idx] = _HOLE
            elif kind == "error":
                self.results[idx] = payload
            else:
                self.results[idx] = payload
            return

    def close(self, close_pool: bool) -> None:
        """Free the results received but not yet yielded (their shared memory), then close the pool if asked."""
        for r in self.results.values():
            if r is not _HOLE and not isinstance(r, RemoteError):
                _worker.walk_shared(r, lambda shared: shared.discard())
        self.results.clear()
        if close_pool:
            self.pool.close()


class _Stopped(Exception):
    """The consumer stopped the epoch (internal: ends the producer thread quietly)."""
