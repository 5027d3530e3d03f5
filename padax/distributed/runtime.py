"""Several processes as one program: `initialize`, `shutdown`, process rank and count.

Process 0 runs the coordination service at the coordinator address; every
process (0 included) connects a client to it, exchanges its devices'
descriptions, and builds a CPU client whose devices are those of all
processes (each process can only touch its own, the "addressable" ones).
Collectives between processes go through gloo over TCP. Afterwards jit and
shard_map programs over a mesh of all devices run in every process at once
(each process calls them with its local data, see
`make_array_from_process_local_data`). Called without arguments,
`initialize` finds the run in the environment a launcher or scheduler set
(`padax.distributed.cluster`).

Timeouts are short and configurable: a coordinator that cannot be reached
(or peers that never show up) fail `initialize` after about `timeout`
seconds with a DistributedTimeoutError. A peer that dies later makes
collectives with it fail at once ("Connection closed by peer"), and the
heartbeat notices it after `heartbeat_timeout` seconds: the surviving
processes then log which peers stopped and terminate instead of hanging.
"""
from __future__ import annotations

import os
import sys
import threading
from typing import Any

from padax.config import config as _config
from padax.distributed import cluster as _cluster
from padax.runtime import _jaxlib, backend


class DistributedError(RuntimeError):
    """padax.distributed could not set up or keep up the multi-process runtime.

    Args:
        *args: the message, as for any RuntimeError.

    Returns:
        The exception (raise it).

    Examples:
        >>> import padax.distributed as dist
        >>> issubclass(dist.DistributedTimeoutError, dist.DistributedError), issubclass(dist.DistributedError, RuntimeError)
        (True, True)
    """


class DistributedTimeoutError(DistributedError, TimeoutError):
    """The coordinator or a peer did not answer in time.

    Args:
        *args: the message, as for any TimeoutError.

    Returns:
        The exception (raise it).

    Examples:
        >>> import padax.distributed as dist
        >>> issubclass(dist.DistributedTimeoutError, TimeoutError)  # what barrier raises when a peer never arrives
        True
    """


class _State:
    def __init__(self) -> None:
        self.service: Any = None
        self.client: Any = None
        self.process_id = 0
        self.num_processes = 1
        self.coordinator: str | None = None
        self.lock = threading.Lock()


_state = _State()

ENV_COORDINATOR = "PADAX_COORDINATOR"
ENV_NUM_PROCESSES = "PADAX_NUM_PROCESSES"
ENV_PROCESS_ID = "PADAX_PROCESS_ID"
ENV_INIT_TIMEOUT = "PADAX_INIT_TIMEOUT"
ENV_HEARTBEAT_TIMEOUT = "PADAX_HEARTBEAT_TIMEOUT"


def is_initialized() -> bool:
    """Whether this process has joined a multi-process run (`initialize` called, `shutdown` not yet).

    Examples:
        >>> import padax.distributed as dist
        >>> dist.is_initialized()  # until initialize() joins a multi-process run
        False
    """
    return _state.client is not None


def _on_missed_heartbeat(*args: Any) -> None:
    """Given to the runtime client so that a failed `connect` raises instead of aborting the process.

    (jaxlib 0.10.2 cannot hand the status of a later heartbeat failure to
    Python: the process then terminates, after logging which peers stopped
    sending heartbeats. Collectives with a dead peer fail at once with a
    "Connection closed by peer" error.)
    """
    sys.stderr.write("padax.distributed: lost contact with the other processes (heartbeat timeout); exiting\n")
    sys.stderr.flush()
    os._exit(70)


def _env_seconds(name: str, default: float) -> float:
    v = os.environ.get(name, "")
    try:
        return float(v) if v else default
    except ValueError:
        raise DistributedError(f"padax.distributed.initialize: {name}={v!r} is not a number of seconds") from None


def initialize(coordinator_address: str | None = None, num_processes: int | None = None,
               process_id: int | None = None, *, local_device_count: int | None = None,
               timeout: float | None = None, heartbeat_timeout: float | None = None,
               shutdown_timeout: float = 10) -> None:
    """Join a multi-process run (call once per process, before creating arrays).

    coordinator_address: "host:port" where process 0 runs the coordination
    service; num_processes, process_id: this run's size and this process's
    rank. What is not given is read from the environment that padax's or
    Paddle's launcher, torchrun/Kubernetes, SLURM or Open MPI set (see
    `padax.distributed.cluster`). local_device_count: CPU devices per
    process (default: padax.config.num_cpu_devices).
    timeout: seconds to wait for the coordinator and all peers (default
    PADAX_INIT_TIMEOUT or 60). heartbeat_timeout: seconds of silence after
    which a peer counts as dead (default PADAX_HEARTBEAT_TIMEOUT or 20).

    Args:
        coordinator_address: 'host:port' where process 0 runs the coordination service.
        num_processes: the number of processes in the run.
        process_id: this process's rank. Any of these three left out is read from the launcher's environment (see
            `padax.distributed.cluster`).
        local_device_count: CPU devices per process (default padax.config.num_cpu_devices).
        timeout: seconds to wait for the coordinator and all peers (default PADAX_INIT_TIMEOUT or 60).
        heartbeat_timeout: seconds of silence after which a peer counts as dead (default PADAX_HEARTBEAT_TIMEOUT or 20).
        shutdown_timeout: seconds to wait for the peers at shutdown.

    Returns:
        None; afterwards padax.devices() lists the devices of every process.

    Examples:
        >>> import padax.distributed as dist
        >>> dist.is_initialized(), dist.get_world_size()  # before initialize(): one process
        (False, 1)
    """
    timeout = _env_seconds(ENV_INIT_TIMEOUT, 60) if timeout is None else timeout
    heartbeat_timeout = _env_seconds(ENV_HEARTBEAT_TIMEOUT, 20) if heartbeat_timeout is None else heartbeat_timeout
    with _state.lock:
        if _state.client is not None:
            raise DistributedError("padax.distributed.initialize was already called in this process")
        found = None
        if None in (coordinator_address, num_processes, process_id):
            try:
                found = _cluster.detect()
            except ValueError as e:
                raise DistributedError(str(e)) from None
        address = coordinator_address or (found.coordinator_address if found else None)
        n = num_processes if num_processes is not None else (found.num_processes if found else None)
        pid = process_id if process_id is not None else (found.process_id if found else None)
        missing = [what for what, v in (("coordinator_address", address), ("num_processes", n),
                                        ("process_id", pid)) if v is None]
        if missing:
            raise DistributedError(
                f"padax.distributed.initialize: {', '.join(missing)} not given and no launcher's environment "
                f"found; pass them, or set {ENV_COORDINATOR}, {ENV_NUM_PROCESSES}, {ENV_PROCESS_ID} (python -m "
                "padax.distributed.launch does that), or run under Paddle's launcher, torchrun (MASTER_ADDR, "
                "MASTER_PORT, WORLD_SIZE, RANK), SLURM or Open MPI")
        if not 0 <= pid < n:
            raise DistributedError(f"padax.distributed.initialize: process_id {pid} is not in [0, {n})")
        if ":" not in address:
            raise DistributedError(f"padax.distributed.initialize: coordinator address {address!r} is not host:port")
        ndev = int(local_device_count or _config.num_cpu_devices)
        t, hb, st = max(1, int(round(timeout))), max(1, int(round(heartbeat_timeout))), max(1, int(shutdown_timeout))
        service = None
        if pid == 0:
            port = address.rsplit(":", 1)[1]
            try:
                service = _jaxlib.start_distributed_service(f"[::]:{port}", n, heartbeat_timeout=hb,
                                                            cluster_register_timeout=t, shutdown_timeout=st)
            except _jaxlib.XlaRuntimeError as e:
                raise DistributedError(f"padax.distributed.initialize: process 0 could not start the coordination "
                                       f"service on port {port}: {_first_line(e)}") from None
        try:
            client = _jaxlib.connect_distributed_client(address, pid, init_timeout=t, heartbeat_timeout=hb,
                                                        shutdown_timeout=st, rpc_timeout=t,
                                                        missed_heartbeat_callback=_on_missed_heartbeat)
        except (_jaxlib.XlaRuntimeError, RuntimeError) as e:
            if service is not None:
                service.shutdown()
            raise DistributedTimeoutError(
                f"padax.distributed.initialize: process {pid} of {n} could not join the run through the "
                f"coordinator at {address} within {t} s ({_first_line(e)}). Check that process 0 is running "
                f"with the same address and that all {n} processes were started.") from None
        _state.service, _state.client = service, client
        _state.process_id, _state.num_processes, _state.coordinator = pid, n, address
        backend.set_cpu_client_factory(lambda: _jaxlib.make_distributed_cpu_client(
            client, pid, n, ndev, _config.cpu_async_dispatch))
    try:
        backend.get_client("cpu")  # exchange device topologies now (bounded by the timeouts above)
    except (_jaxlib.XlaRuntimeError, RuntimeError) as e:
        shutdown()
        raise DistributedTimeoutError(f"padax.distributed.initialize: building the {n}-process CPU client "
                                      f"failed: {_first_line(e)}") from None


def _first_line(e: Exception) -> str:
    text = str(e).strip()
    if not text or text == "std::bad_cast":  # jaxlib could not convert the status: say what it means
        return "no answer before the deadline"
    return text.splitlines()[0]


def shutdown() -> None:
    """Leave the multi-process run (client first, then process 0's service); idempotent.

    Examples:
        >>> import padax.distributed as dist
        >>> dist.shutdown()  # idempotent: nothing to leave in a single-process run
        >>> dist.is_initialized(), dist.get_rank()
        (False, 0)
    """
    with _state.lock:
        client, service = _state.client, _state.service
        _state.client = _state.service = None
        if client is not None:
            backend.set_cpu_client_factory(None)
            try:
                client.shutdown()
            except _jaxlib.XlaRuntimeError:
                pass
        if service is not None:
            service.shutdown()
        _state.process_id, _state.num_processes = 0, 1


def process_index() -> int:
    """This process's rank (0 in a single-process run)."""
    return _state.process_id if is_initialized() else 0


def process_count() -> int:
    """Number of processes in the run (1 in a single-process run)."""
    return _state.num_processes if is_initialized() else 1


def barrier(name: str = "padax_barrier", timeout: float = 60) -> None:
    """Wait until every process reaches the barrier of this name.

    Args:
        name: the barrier's name; every process must use the same one.
        timeout: seconds to wait before raising DistributedTimeoutError.

    Returns:
        None once every process has arrived (at once in a single-process run).

    Examples:
        >>> import padax.distributed as dist
        >>> dist.barrier("step_1") is None  # returns at once in a single-process run
        True
    """
    if _state.client is None:
        return
    try:
        _state.client.wait_at_barrier(name, int(timeout * 1000))
    except (_jaxlib.XlaRuntimeError, RuntimeError) as e:
        raise DistributedTimeoutError(f"padax.distributed.barrier {name!r}: not every process arrived within "
                                      f"{timeout} s ({_first_line(e)})") from None


def publish(key: str, value: str) -> None:
    """Put `key` = `value` in the run's key-value store (the coordination service); no-op in one process."""
    if _state.client is not None:
        _state.client.key_value_set(key, value, allow_overwrite=True)


def wait_published(key: str, timeout: float = 60) -> str:
    """The value some process published under `key` (waits up to `timeout` seconds for it)."""
    if _state.client is None:
        raise DistributedError("wait_published needs padax.distributed.initialize() first")
    return _get_published(key, timeout)


def _get_published(key: str, timeout: float) -> str:
    try:
        return _state.client.blocking_key_value_get(key, int(timeout * 1000))
    except (_jaxlib.XlaRuntimeError, RuntimeError) as e:
        raise DistributedTimeoutError(f"padax.distributed: no process published {key!r} within {timeout} s "
                                      f"({_first_line(e)}); a process may have failed or skipped this step") from None


def gather_published(key_prefix: str, timeout: float = 60) -> list[str]:
    """The values every process published under `key_prefix + str(rank)`, in rank order (waits for them)."""
    if _state.client is None:
        raise DistributedError("gather_published needs padax.distributed.initialize() first")
    return [_get_published(f"{key_prefix}{r}", timeout) for r in range(_state.num_processes)]
