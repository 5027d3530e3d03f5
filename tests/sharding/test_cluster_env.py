"""initialize() finds the run in the environment of padax's or Paddle's launcher, torchrun, SLURM or Open MPI."""
import pytest

from padax.distributed.cluster import ClusterEnv, detect, first_slurm_host


def test_each_launcher_environment():
    assert detect({}) is None
    assert detect({"PADAX_COORDINATOR": "h:1", "PADAX_NUM_PROCESSES": "4", "PADAX_PROCESS_ID": "2",
                   "PADAX_LOCAL_PROCESS_ID": "0"}) == ClusterEnv("padax", "h:1", 4, 2, 0)
    paddle = {"PADDLE_TRAINER_ENDPOINTS": "10.0.0.1:6170,10.0.0.2:6170", "PADDLE_TRAINERS_NUM": "2",
              "PADDLE_TRAINER_ID": "1", "PADDLE_LOCAL_RANK": "0", "PADDLE_MASTER": "10.0.0.1:6070"}
    assert detect(paddle) == ClusterEnv("paddle", "10.0.0.1:6170", 2, 1, 0)
    del paddle["PADDLE_TRAINER_ENDPOINTS"]
    assert detect(paddle).coordinator_address == "10.0.0.1:6070"
    torchrun = {"MASTER_ADDR": "pod-0.svc", "MASTER_PORT": "29500", "WORLD_SIZE": "8", "RANK": "5",
                "LOCAL_RANK": "1"}
    assert detect(torchrun) == ClusterEnv("torchrun", "pod-0.svc:29500", 8, 5, 1)
    assert detect(dict(torchrun, TORCHELASTIC_USE_AGENT_STORE="True")).coordinator_address == "pod-0.svc:29501"
    slurm = {"SLURM_JOB_ID": "4100", "SLURM_STEP_NODELIST": "gpu[007-015],cpu1", "SLURM_NTASKS": "16",
             "SLURM_PROCID": "9", "SLURM_LOCALID": "1"}
    assert detect(slurm) == ClusterEnv("slurm", f"gpu007:{4100 % 4096 + 61440}", 16, 9, 1)
    ompi = {"OMPI_MCA_orte_hnp_uri": "1531576320.0;tcp://10.96.0.1,10.148.0.1:34911", "OMPI_COMM_WORLD_SIZE": "4",
            "OMPI_COMM_WORLD_RANK": "3", "OMPI_COMM_WORLD_LOCAL_RANK": "1"}
    assert detect(ompi) == ClusterEnv("ompi", f"10.96.0.1:{1531576320 // 4096 % 4096 + 61440}", 4, 3, 1)
    ompi6 = dict(ompi, OMPI_MCA_orte_hnp_uri="1314521088.0;tcp6://[fe80::b9b:ac5d:9cf0:b858,2620:10d:c083::2]:43370")
    assert detect(ompi6).coordinator_address == f"[fe80::b9b:ac5d:9cf0:b858]:{1314521088 // 4096 % 4096 + 61440}"
    # the first launcher in the documented order wins; an incomplete set is ignored
    assert detect({**slurm, **torchrun}).name == "torchrun"
    assert detect({**slurm, "MASTER_ADDR": "x"}).name == "slurm"
    with pytest.raises(ValueError, match="WORLD_SIZE='eight' is not an integer"):
        detect(dict(torchrun, WORLD_SIZE="eight"))


def test_slurm_node_lists():
    assert first_slurm_host("node001") == "node001"
    assert first_slurm_host("node001,host2") == "node001"
    assert first_slurm_host("node[001-0015],host2") == "node001"
    assert first_slurm_host("node[001,007-015],host2") == "node001"


def test_initialize_uses_the_detected_environment(monkeypatch):
    import padax.distributed as dist
    for k in ("PADAX_COORDINATOR", "PADAX_NUM_PROCESSES", "PADAX_PROCESS_ID", "PADDLE_TRAINERS_NUM",
              "PADDLE_TRAINER_ID", "SLURM_JOB_ID", "OMPI_MCA_orte_hnp_uri"):
        monkeypatch.delenv(k, raising=False)
    monkeypatch.setenv("MASTER_ADDR", "127.0.0.1")
    monkeypatch.setenv("MASTER_PORT", "1")
    monkeypatch.setenv("WORLD_SIZE", "2")
    monkeypatch.setenv("RANK", "7")  # checked before anything connects
    with pytest.raises(dist.DistributedError, match=r"process_id 7 is not in \[0, 2\)"):
        dist.initialize()
    monkeypatch.delenv("RANK")
    with pytest.raises(dist.DistributedError, match="process_id not given and no launcher's environment found.*"
                                                    "torchrun"):
        dist.initialize()
    monkeypatch.setenv("PADAX_INIT_TIMEOUT", "soon")
    with pytest.raises(dist.DistributedError, match="PADAX_INIT_TIMEOUT='soon' is not a number of seconds"):
        dist.initialize()
    assert not dist.is_initialized()
