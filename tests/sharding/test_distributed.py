"""padax.distributed: Paddle's placement API and collectives (8 devices), and real multi-process runs."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import padax
from padax.sharding import NamedSharding, P

X = np.arange(8 * 6, dtype=np.float32).reshape(8, 6)


@pytest.mark.spmd
def test_process_mesh_placements_and_reshard():
    import padax.distributed as dist
    mesh = dist.ProcessMesh([[0, 1, 2, 3], [4, 5, 6, 7]], dim_names=["dp", "mp"])
    assert mesh.shape == [2, 4] and mesh.get_dim_size("mp") == 4
    with pytest.raises(ValueError, match="not divisible by mesh axis 'mp'"):
        dist.shard_tensor(X, mesh, [dist.Shard(0), dist.Shard(1)])  # 6 columns over 4 devices
    t = dist.shard_tensor(X[:, :4], mesh, [dist.Shard(0), dist.Shard(1)])
    assert t.sharding == NamedSharding(mesh.mesh, P("dp", "mp"))
    t = dist.shard_tensor(X, mesh, [dist.Replicate(), dist.Shard(0)])
    assert t.sharding.spec == P("mp")
    np.testing.assert_array_equal(t.numpy(), X)
    t2 = dist.shard_tensor(X, mesh, [dist.Shard(0), dist.Shard(0)])  # both mesh dims split dim 0
    assert t2.sharding.spec == P(("dp", "mp"))
    r = dist.reshard(t, mesh, [dist.Shard(1), dist.Replicate()])
    assert r.sharding.spec == P(None, "dp")
    np.testing.assert_array_equal(r.numpy(), X)
    p = dist.shard_tensor(X, mesh, [dist.Partial(), dist.Replicate()])
    assert p.sharding.is_fully_replicated
    o = dist.dtensor_from_fn(padax.ones, mesh, [dist.Shard(0), dist.Replicate()], [4, 3])
    assert o.sharding.spec == P("dp") and float(o.sum()) == 12
    with pytest.raises(ValueError, match="one Shard/Replicate/Partial per mesh dimension"):
        dist.shard_tensor(X, mesh, [dist.Shard(0)])
    # reshard inside jit is a sharding constraint
    f = padax.jit(lambda a: dist.reshard(a * 2, mesh, [dist.Shard(1), dist.Replicate()]))
    assert 'sdy.sharding_constraint %1 <@mesh, [{}, {"dp"}]>' in f.lower(t).as_text()
    np.testing.assert_array_equal(f(t).numpy(), 2 * X)


@pytest.mark.spmd
def test_paddle_collectives_in_shard_map():
    import padax.distributed as dist
    mesh = padax.make_mesh((8,), ("g",))
    blocks = X.reshape(8, 1, 6)

    def run(fn, in_spec=P("g"), out_spec=P()):
        return padax.jit(padax.shard_map(fn, mesh, in_spec, out_spec))(X).numpy()

    np.testing.assert_allclose(run(lambda b: dist.all_reduce(b, group="g")), blocks.sum(0))
    np.testing.assert_allclose(run(lambda b: dist.all_reduce(b, dist.ReduceOp.MAX, group="g")), blocks.max(0))
    np.testing.assert_allclose(run(lambda b: dist.all_reduce(b, dist.ReduceOp.AVG, group="g")), blocks.mean(0))
    np.testing.assert_allclose(run(lambda b: dist.all_reduce(b / 10 + 1, dist.ReduceOp.PROD, group="g")),
                               np.prod(blocks / 10 + 1, axis=0), rtol=1e-5)
    np.testing.assert_allclose(run(lambda b: dist.all_gather(b, group="g", tiled=True)), X)

    def gather_list(b):
        out = []
        dist.all_gather(out, b, group="g")
        assert len(out) == 8
        return padax.concat(out)
    np.testing.assert_allclose(run(gather_list), X)
    np.testing.assert_allclose(run(lambda b: dist.broadcast(b, src=5, group="g"), P("g"), P()), blocks[5])
    np.testing.assert_allclose(run(lambda b: dist.reduce_scatter(b, group="g"), P(), P("g")), 8 * X)
    sent = run(lambda b: dist.send(b, dst=2, group="g", src=6), P("g"), P("g")).reshape(8, 1, 6)
    assert np.allclose(sent[2], blocks[6]) and np.allclose(np.delete(sent, 2, 0), 0)
    got = run(lambda b: dist.recv(b, src=1, group="g", dst=7), P("g"), P("g")).reshape(8, 1, 6)
    assert np.allclose(got[7], blocks[1])
    y = np.arange(64, dtype=np.float32).reshape(64, 1)
    out = padax.shard_map(lambda b: dist.all_to_all(b, group="g"), mesh, P("g"), P("g"))(y).numpy()
    yb = y.reshape(8, 8, 1)
    np.testing.assert_array_equal(out, np.stack([yb[:, j] for j in range(8)]).reshape(64, 1))
    assert dist.get_rank() == 0 and dist.get_world_size() == 1 and not dist.is_initialized()


_TWO_PROCESS_SCRIPT = textwrap.dedent('''
    import numpy as np, padax, padax.distributed as dist
    from padax.sharding import NamedSharding, P
    dist.initialize(timeout=60, heartbeat_timeout=30)
    rank = dist.get_rank()
    assert dist.get_world_size() == 2 and padax.device_count() == 2 and len(padax.local_devices()) == 1
    mesh = padax.make_mesh((2,), ("p",))
    x = dist.make_array_from_process_local_data(NamedSharding(mesh, P("p")),
                                                np.full((1, 3), rank + 1.0, np.float32))
    assert x.shape == (2, 3) and not x.is_fully_addressable
    total = padax.jit(lambda a: a.sum(0) * 2, out_shardings=NamedSharding(mesh, P()))(x)
    summed = padax.jit(padax.shard_map(lambda b: padax.lax.psum(b, "p"), mesh, P("p"), P()))(x)
    print("RESULT", rank, total.numpy().tolist(), summed.numpy().tolist(), flush=True)
    dist.shutdown()
''')


def _run(args, timeout, env=None):
    root = os.path.dirname(os.path.dirname(os.path.abspath(padax.__file__)))  # the children import this padax
    e = dict(os.environ, PYTHONPATH=os.pathsep.join([root, os.environ.get("PYTHONPATH", "")]), **(env or {}))
    e.pop("PADAX_NUM_CPU_DEVICES", None)
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=timeout, env=e)


def test_two_processes_all_reduce_in_jit(tmp_path):
    script = tmp_path / "two.py"
    script.write_text(_TWO_PROCESS_SCRIPT)
    proc = _run(["-m", "padax.distributed.launch", "--nproc", "2", "--timeout", "100", "--log_dir", str(tmp_path),
                 str(script)], timeout=120)
    lines = sorted(l for l in proc.stdout.splitlines() if "RESULT" in l)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert lines == ["[0] RESULT 0 [6.0, 6.0, 6.0] [[3.0, 3.0, 3.0]]",
                     "[1] RESULT 1 [6.0, 6.0, 6.0] [[3.0, 3.0, 3.0]]"], proc.stdout[-3000:]


def test_initialize_errors_when_coordinator_is_unreachable():
    code = textwrap.dedent('''
        import time, padax.distributed as dist
        try:
            dist.initialize()
        except dist.DistributedError as e:
            print("NOARGS", e)
        t = time.time()
        try:
            dist.initialize("127.0.0.1:1", 2, 1, timeout=1)
        except dist.DistributedTimeoutError as e:
            print("TIMEOUT", round(time.time() - t), e)
    ''')
    env = {"PADAX_COORDINATOR": "", "PADAX_NUM_PROCESSES": "", "PADAX_PROCESS_ID": ""}
    proc = _run(["-c", code], timeout=60, env=env)
    out = proc.stdout
    assert "NOARGS" in out and "PADAX_COORDINATOR" in out, out + proc.stderr[-2000:]
    assert "TIMEOUT" in out and "could not join the run through the coordinator at 127.0.0.1:1" in out, \
        out + proc.stderr[-2000:]
    assert int(out.split("TIMEOUT")[1].split()[0]) < 30


@pytest.mark.slow
def test_lost_peer_fails_instead_of_hanging(tmp_path):
    script = tmp_path / "lost.py"
    script.write_text(textwrap.dedent('''
        import os, time, numpy as np, padax, padax.distributed as dist
        from padax.sharding import NamedSharding, P
        dist.initialize(timeout=60, heartbeat_timeout=5)
        rank = dist.get_rank()
        mesh = padax.make_mesh((2,), ("p",))
        x = dist.make_array_from_process_local_data(NamedSharding(mesh, P("p")), np.ones((1, 2), np.float32))
        f = padax.jit(lambda a: a.sum(0), out_shardings=NamedSharding(mesh, P()))
        print("first", rank, f(x).numpy().tolist(), flush=True)
        if rank == 1:
            os._exit(0)
        time.sleep(0.5)
        try:
            f(x).block_until_ready()
            print("NO ERROR", flush=True)
        except Exception as e:
            print("FAILED FAST", type(e).__name__, flush=True)
    '''))
    proc = _run(["-m", "padax.distributed.launch", "--nproc", "2", "--timeout", "100", "--log_dir", str(tmp_path),
                 str(script)], timeout=120)
    assert "[0] FAILED FAST" in proc.stdout or "heartbeat" in (proc.stdout + proc.stderr), \
        proc.stdout[-3000:] + proc.stderr[-3000:]
