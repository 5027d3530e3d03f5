"""`python -m padax.distributed.launch` across "nodes": two launchers on one machine over loopback."""
import os
import subprocess
import sys
import textwrap
import time

import pytest

import padax
from padax.distributed.launch import free_port

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(padax.__file__)))

_NODE_SCRIPT = textwrap.dedent('''
    import os, sys, numpy as np, padax, padax.distributed as dist
    from padax.sharding import NamedSharding, P
    dist.initialize()
    rank = dist.get_rank()
    env_ok = (os.environ["PADDLE_TRAINER_ID"] == str(rank) and os.environ["PADDLE_TRAINERS_NUM"] == "2"
              and os.environ["PADAX_NODE_RANK"] == str(rank) and os.environ["PADAX_LOCAL_PROCESS_ID"] == "0")
    mesh = padax.make_mesh((2,), ("p",))
    x = dist.make_array_from_process_local_data(NamedSharding(mesh, P("p")), np.full((1, 3), rank + 1.0, np.float32))
    summed = padax.jit(padax.shard_map(lambda b: padax.lax.psum(b, "p"), mesh, P("p"), P()))(x)
    print("RESULT", rank, env_ok, summed.numpy().tolist(), flush=True)
    if sys.argv[1] == f"die{rank}":
        os._exit(3)           # this rank dies; the other must not hang
    dist.barrier("end", timeout=60)
    dist.shutdown()
''')


def _env():
    """The children import this checkout's padax (their script's folder, not the cwd, leads sys.path)."""
    e = dict(os.environ, PYTHONPATH=os.pathsep.join([_ROOT, os.environ.get("PYTHONPATH", "")]))
    e.pop("PADAX_NUM_CPU_DEVICES", None)
    return e


def _start_nodes(script, tmp_path, mode, master, extra=()):
    procs = []
    for node in (0, 1):
        cmd = [sys.executable, "-m", "padax.distributed.launch", "--nnodes", "2", "--node_rank", str(node),
               "--master", master, "--nproc_per_node", "1", "--log_dir", str(tmp_path / f"{mode}{node}"),
               "--heartbeat_timeout", "3", "--grace", "1", "--timeout", "90", *extra, str(script), mode]
        procs.append(subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env()))
    return procs


def _finish(procs, limit):
    outs = []
    for p in procs:
        try:
            out, err = p.communicate(timeout=limit)
        except subprocess.TimeoutExpired:
            for q in procs:
                q.kill()
            pytest.fail("a launcher hung")
        outs.append((p.returncode, out, err))
    return outs


def test_two_nodes_psum_then_a_dead_rank_stops_both_nodes(tmp_path):
    script = tmp_path / "node.py"
    script.write_text(_NODE_SCRIPT)
    # a psum crosses the two "nodes"; then rank 1 (node 1) dies, and node 0's rank, waiting at a barrier, ends too
    t0 = time.monotonic()
    (rc0, out0, err0), (rc1, out1, err1) = _finish(_start_nodes(script, tmp_path, "die1", f"127.0.0.1:{free_port()}"),
                                                   120)
    elapsed = time.monotonic() - t0
    assert "[0] RESULT 0 True [[3.0, 3.0, 3.0]]" in out0, out0[-2000:] + err0[-2000:]
    assert "[1] RESULT 1 True [[3.0, 3.0, 3.0]]" in out1, out1[-2000:] + err1[-2000:]
    assert "RESULT 1 True" in (tmp_path / "die11" / "workerlog.1").read_text()
    assert rc1 == 3 and "rank 1 (node 1, local rank 0) exited with status 3" in err1, err1[-2000:]
    assert "workerlog.1" in err1
    assert rc0 != 0 and "rank 0 (node 0, local rank 0)" in err0 and "the run has failed" in err0, err0[-2000:]
    assert elapsed < 60, elapsed


@pytest.mark.slow
def test_when_node_0_the_coordinator_host_dies_node_1_ends_too(tmp_path):
    script = tmp_path / "node.py"
    script.write_text(_NODE_SCRIPT)
    (rc0, _, err0), (rc1, out1, err1) = _finish(_start_nodes(script, tmp_path, "die0", f"127.0.0.1:{free_port()}"),
                                                120)
    assert rc0 == 3 and "rank 0 (node 0, local rank 0) exited with status 3" in err0, err0[-2000:]
    assert "RESULT 1 True" in out1 and rc1 != 0 and "rank 1 (node 1, local rank 0)" in err1, err1[-2000:]


@pytest.mark.slow
def test_two_nodes_finish_cleanly(tmp_path):
    script = tmp_path / "node.py"
    script.write_text(_NODE_SCRIPT)
    ok = _finish(_start_nodes(script, tmp_path, "ok", f"127.0.0.1:{free_port()}"), 120)
    for node, (rc, out, err) in enumerate(ok):
        assert rc == 0, out[-2000:] + err[-3000:]
        assert f"[{node}] RESULT {node} True [[3.0, 3.0, 3.0]]" in out, out[-2000:] + err[-2000:]
        assert f"RESULT {node} True" in (tmp_path / f"ok{node}" / f"workerlog.{node}").read_text()


@pytest.mark.slow  # (test_distributed checks the same error from initialize directly)
def test_node_that_cannot_reach_the_master_fails_naming_it(tmp_path):
    script = tmp_path / "node.py"
    script.write_text(_NODE_SCRIPT)
    master = f"127.0.0.1:{free_port()}"  # nobody listens there: node 0 is never started
    cmd = [sys.executable, "-m", "padax.distributed.launch", "--nnodes", "2", "--node_rank", "1", "--master", master,
           "--nproc_per_node", "1", "--log_dir", str(tmp_path), "--elastic_timeout", "2", str(script), "ok"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=_env())
    assert proc.returncode != 0
    assert f"could not join the run through the coordinator at {master}" in proc.stdout, proc.stdout + proc.stderr
    assert "rank 1 (node 1, local rank 0) exited with status 1" in proc.stderr
    assert "DistributedTimeoutError" in (tmp_path / "workerlog.1").read_text()


def test_launcher_rejects_bad_node_configs(tmp_path):
    from padax.distributed.launch import NodeConfig, main
    with pytest.raises(ValueError, match="--master HOST:PORT is needed for 2 nodes"):
        NodeConfig(1, nnodes=2)
    with pytest.raises(ValueError, match=r"--node_rank 2 is not in \[0, 2\)"):
        NodeConfig(1, nnodes=2, node_rank=2, master="h:1")
    with pytest.raises(ValueError, match="cannot be split evenly"):
        NodeConfig(2, devices=("0", "1", "2"))
    cfg = NodeConfig(2, nnodes=3, node_rank=1, master="10.0.0.1:6070", devices=("0", "1", "2", "3"))
    env = cfg.rank_env(1)
    assert (env["PADAX_PROCESS_ID"], env["PADDLE_TRAINER_ID"], env["PADAX_NUM_PROCESSES"]) == ("3", "3", "6")
    assert (env["PADDLE_LOCAL_RANK"], env["PADAX_LOCAL_DEVICE_IDS"], env["PADDLE_MASTER"]) == ("1", "2,3",
                                                                                                "10.0.0.1:6070")
    assert cfg.log_path(1).endswith("workerlog.3")
    assert main(["--nnodes", "2:4", "x.py"]) == 2
    assert main(["--ips", "10.9.9.1,10.9.9.2", "--host", "10.9.9.3", "x.py"]) == 2


def test_paddle_flag_names_and_ips_form():
    from padax.distributed.launch import _node_from_ips, parser
    ns = parser().parse_args(["--gpus", "0,1", "--rank", "1", "--nnodes", "2", "--master", "h:1", "--log_dir", "d",
                              "--elastic_timeout", "5", "train.py", "--lr", "0.1"])
    assert (ns.devices, ns.node_rank, ns.nnodes, ns.master, ns.log_dir, ns.init_timeout) == ("0,1", 1, "2", "h:1",
                                                                                           "d", 5.0)
    assert (ns.training_script, ns.training_script_args) == ("train.py", ["--lr", "0.1"])
    assert _node_from_ips("10.0.0.1, 10.0.0.2", "10.0.0.2", 6070) == (2, "10.0.0.1:6070", 1)
    assert _node_from_ips("10.0.0.1,10.0.0.2", "10.9.9.9", 6070)[2] is None
