"""Where `padax.distributed.initialize()` finds the run's coordinator, size and rank when not told.

Schedulers and launchers each describe a multi-process run in their own
environment variables; `detect()` reads the first one present, in this order:

- padax's launcher: PADAX_COORDINATOR, PADAX_NUM_PROCESSES, PADAX_PROCESS_ID;
- Paddle's launcher: PADDLE_TRAINER_ENDPOINTS (the first endpoint, rank 0's,
  hosts the coordinator) or PADDLE_MASTER, PADDLE_TRAINERS_NUM, PADDLE_TRAINER_ID;
- torchrun / Kubernetes style: MASTER_ADDR, MASTER_PORT, WORLD_SIZE, RANK (LOCAL_RANK); under
  torchrun, whose agent serves MASTER_PORT itself, the coordinator takes MASTER_PORT + 1;
- SLURM (srun): SLURM_JOB_ID, SLURM_STEP_NODELIST, SLURM_NTASKS, SLURM_PROCID, SLURM_LOCALID;
  the coordinator is the step's first node, on a port derived from the job id;
- Open MPI (mpirun): OMPI_MCA_orte_hnp_uri, OMPI_COMM_WORLD_SIZE, OMPI_COMM_WORLD_RANK,
  OMPI_COMM_WORLD_LOCAL_RANK; the coordinator is the launcher's host, on a port derived from the job id.

The SLURM and Open MPI conventions (node list, URI and port derivations) are
those jax's cluster detection uses, so a padax and a jax program started the
same way agree on them.
"""
from __future__ import annotations

import dataclasses
import os
import re
from typing import Mapping

_EPHEMERAL_BASE = 65535 - 2 ** 12 + 1  # derived ports land in [61440, 65535]


@dataclasses.dataclass(frozen=True)
class ClusterEnv:
    """A multi-process run as one scheduler's environment describes it."""

    name: str
    coordinator_address: str
    num_processes: int
    process_id: int
    local_process_id: int | None = None


def _int(env: Mapping[str, str], name: str) -> int:
    value = env.get(name, "")
    try:
        return int(value)
    except ValueError:
        raise ValueError(f"padax.distributed: environment variable {name}={value!r} is not an integer") from None


def _present(env: Mapping[str, str], *names: str) -> bool:
    return all(env.get(n, "") != "" for n in names)


def _padax(env: Mapping[str, str]) -> ClusterEnv | None:
    if not _present(env, "PADAX_COORDINATOR", "PADAX_NUM_PROCESSES", "PADAX_PROCESS_ID"):
        return None
    local = _int(env, "PADAX_LOCAL_PROCESS_ID") if _present(env, "PADAX_LOCAL_PROCESS_ID") else None
    return ClusterEnv("padax", env["PADAX_COORDINATOR"], _int(env, "PADAX_NUM_PROCESSES"),
                      _int(env, "PADAX_PROCESS_ID"), local)


def _paddle(env: Mapping[str, str]) -> ClusterEnv | None:
    if not _present(env, "PADDLE_TRAINERS_NUM", "PADDLE_TRAINER_ID"):
        return None
    endpoints = [e for e in env.get("PADDLE_TRAINER_ENDPOINTS", "").split(",") if e]
    address = endpoints[0] if endpoints else env.get("PADDLE_MASTER", "")
    if not address:
        return None
    local = _int(env, "PADDLE_LOCAL_RANK") if _present(env, "PADDLE_LOCAL_RANK") else None
    return ClusterEnv("paddle", address, _int(env, "PADDLE_TRAINERS_NUM"), _int(env, "PADDLE_TRAINER_ID"), local)


def _torchrun(env: Mapping[str, str]) -> ClusterEnv | None:
    if not _present(env, "MASTER_ADDR", "MASTER_PORT", "WORLD_SIZE", "RANK"):
        return None
    local = _int(env, "LOCAL_RANK") if _present(env, "LOCAL_RANK") else None
    port = _int(env, "MASTER_PORT")
    if env.get("TORCHELASTIC_USE_AGENT_STORE", "").lower() == "true":
        port += 1  # torchrun's agent already serves its key-value store on MASTER_PORT
    return ClusterEnv("torchrun", f"{env['MASTER_ADDR']}:{port}", _int(env, "WORLD_SIZE"), _int(env, "RANK"), local)


def first_slurm_host(node_list: str) -> str:
    """The first host of a SLURM node list: 'n001', 'n001,h2', 'n[001-015],h2', 'n[001,007-015]' -> 'n001'."""
    m = re.match(r"([^,\[]*)(?:\[([^,\-\]]*))?", node_list)
    prefix, first_index = m.group(1), m.group(2)
    return prefix + (first_index or "")


def _slurm(env: Mapping[str, str]) -> ClusterEnv | None:
    if not _present(env, "SLURM_JOB_ID", "SLURM_STEP_NODELIST", "SLURM_NTASKS", "SLURM_PROCID", "SLURM_LOCALID"):
        return None
    port = _int(env, "SLURM_JOB_ID") % 2 ** 12 + _EPHEMERAL_BASE
    return ClusterEnv("slurm", f"{first_slurm_host(env['SLURM_STEP_NODELIST'])}:{port}", _int(env, "SLURM_NTASKS"),
                      _int(env, "SLURM_PROCID"), _int(env, "SLURM_LOCALID"))


def _ompi(env: Mapping[str, str]) -> ClusterEnv | None:
    uri = env.get("OMPI_MCA_orte_hnp_uri", "")
    if not uri:
        return None
    # e.g. "1531576320.0;tcp://10.96.0.1,10.148.0.1:34911" or "...;tcp6://[fe80::1,2620::2]:43370"
    m = re.search(r"tcp://(.+?)[,:]|tcp6://\[(.+?)[,\]]", uri)
    if m is None:
        raise ValueError(f"padax.distributed: cannot read the launcher's address from OMPI_MCA_orte_hnp_uri={uri!r}")
    host = m.group(1) or m.group(2)
    if ":" in host:
        host = f"[{host}]"
    job_id = int(uri.split(".", 1)[0]) // 2 ** 12  # Open MPI job ids are multiples of 2**12
    port = job_id % 2 ** 12 + _EPHEMERAL_BASE
    local = _int(env, "OMPI_COMM_WORLD_LOCAL_RANK") if _present(env, "OMPI_COMM_WORLD_LOCAL_RANK") else None
    return ClusterEnv("ompi", f"{host}:{port}", _int(env, "OMPI_COMM_WORLD_SIZE"),
                      _int(env, "OMPI_COMM_WORLD_RANK"), local)


DETECTORS = (_padax, _paddle, _torchrun, _slurm, _ompi)


def detect(env: Mapping[str, str] | None = None) -> ClusterEnv | None:
    """The run described by the first launcher/scheduler whose variables are set (None when none is)."""
    env = os.environ if env is None else env
    for detector in DETECTORS:
        found = detector(env)
        if found is not None:
            return found
    return None
