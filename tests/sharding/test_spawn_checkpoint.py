"""padax.distributed.spawn with 2 processes, each saving and loading its own shards of a sharded checkpoint."""
import json
import os

import numpy as np
import pytest

W = np.arange(8 * 12, dtype=np.float32).reshape(8, 12)


def _save_and_reshard(path):
    """Runs in each of 2 spawned processes (2 CPU devices each): save on a (2,2) mesh, load on (4,)."""
    import padax
    import padax.distributed as dist
    from padax.sharding import NamedSharding, P
    rank = dist.get_rank()
    assert dist.get_world_size() == 2 and padax.device_count() == 4 and len(padax.local_devices()) == 2
    mesh = padax.make_mesh((2, 2), ("p", "q"))  # row p of the mesh = process p's devices
    w = dist.make_array_from_process_local_data(NamedSharding(mesh, P("p", "q")), W[rank * 4:(rank + 1) * 4])
    dist.save_state_dict({"w": w, "lr": np.float32(0.5)}, path)
    mesh4 = padax.make_mesh((4,), ("r",))
    target = {"w": dist.make_array_from_process_local_data(NamedSharding(mesh4, P(None, "r")),
                                                           np.zeros((8, 6), np.float32))}
    dist.load_state_dict(target, path)
    for shard in target["w"].addressable_shards:  # each column block read from both processes' files
        np.testing.assert_array_equal(shard.data.numpy(), W[shard.index])
    host = {"w": np.zeros((8, 12), np.float32), "lr": np.zeros((), np.float32)}
    dist.load_state_dict(host, path)
    np.testing.assert_array_equal(host["w"], W)
    assert host["lr"] == 0.5
    mismatched = {"w": w} if rank == 0 else {"w": w, "extra": np.zeros(2, np.float32)}
    try:
        dist.save_state_dict(mismatched, path + "_bad")
        raise AssertionError("a save with different state dicts per process was committed")
    except dist.CheckpointError as e:
        assert "the state dicts of processes [1] differ from process 0's" in str(e), e
    assert not os.path.exists(os.path.join(path + "_bad", "0.commit"))


def _fail_on_rank_1():
    import padax.distributed as dist
    if dist.get_rank() == 1:
        raise ValueError("boom on rank 1")
    dist.barrier("never", timeout=60)


def test_spawn_two_processes_save_their_own_shards_and_reshard(tmp_path):
    import padax
    import padax.distributed as dist
    path = str(tmp_path / "ckpt")
    dist.spawn(_save_and_reshard, args=(path,), nprocs=2, local_device_count=2, timeout=60)
    assert sorted(os.listdir(path)) == ["0.commit", "0.metadata", "0_0.distcp", "1_0.distcp"]
    meta = json.load(open(os.path.join(path, "0.metadata")))
    assert meta["num_processes"] == 2
    files = sorted({s["file"] for s in meta["tensors"]["w"]["shards"]})
    assert files == ["0_0.distcp", "1_0.distcp"]
    # written by 2 processes on 4 devices, read back here by one process on one device
    one = {"w": padax.zeros([8, 12]), "lr": np.zeros((), np.float32)}
    dist.load_state_dict(one, path)
    np.testing.assert_array_equal(one["w"].numpy(), W)


@pytest.mark.slow
def test_spawn_raises_the_failing_process_error():
    import padax.distributed as dist
    with pytest.raises(dist.DistributedError, match="process 1 of 2 failed: ValueError: boom on rank 1"):
        dist.spawn(_fail_on_rank_1, nprocs=2, timeout=60)
