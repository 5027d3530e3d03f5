"""Sharded checkpoints: save on one mesh, load on another (8 CPU devices); commit marker and missing shards."""
import json
import os

import ml_dtypes
import numpy as np
import pytest

import padax
from padax.sharding import NamedSharding, P

W = np.arange(8 * 12, dtype=np.float32).reshape(8, 12)
B = (np.arange(16) - 8).astype(ml_dtypes.bfloat16)
STEP = np.int64(7)


def _state(mesh, w_spec, b_spec):
    return {"model": {"w": padax.device_put(W, NamedSharding(mesh, w_spec)),
                      "b": padax.device_put(B, NamedSharding(mesh, b_spec))},
            "step": np.asarray(STEP)}


def _zeros_like_state(mesh, w_spec, b_spec):
    return {"model": {"w": padax.device_put(np.zeros_like(W), NamedSharding(mesh, w_spec)),
                      "b": padax.device_put(np.zeros_like(B), NamedSharding(mesh, b_spec))},
            "step": np.zeros((), np.int64)}


@pytest.mark.spmd
def test_save_on_4x2_load_on_2x4_and_one_device(tmp_path, mesh42):
    import padax.distributed as dist
    path = str(tmp_path / "ckpt")
    dist.save_state_dict(_state(mesh42, P("x", "y"), P(("x", "y"))), path)
    names = sorted(os.listdir(path))
    assert names == ["0.commit", "0.metadata", "0_0.distcp"], names
    meta = json.load(open(os.path.join(path, "0.metadata")))
    w = meta["tensors"]["model.w"]
    assert w["shape"] == [8, 12] and w["dtype"] == "float32" and len(w["shards"]) == 8
    assert w["sharding"]["mesh"] == {"x": 4, "y": 2} and w["sharding"]["spec"] == ["x", "y"]
    assert sorted((s["offsets"], s["lengths"]) for s in w["shards"])[:2] == [([0, 0], [2, 6]), ([0, 6], [2, 6])]
    assert meta["tensors"]["model.b"]["dtype"] == "bfloat16"
    # a replicated axis is stored once: (4, 2) mesh with w split over x only -> 4 shards
    dist.save_state_dict({"w": padax.device_put(W, NamedSharding(mesh42, P("x")))}, str(tmp_path / "rep"))
    assert len(json.load(open(tmp_path / "rep" / "0.metadata"))["tensors"]["w"]["shards"]) == 4

    mesh24 = padax.make_mesh((2, 4), ("a", "b"))
    for w_spec, b_spec in [(P("b", "a"), P("b")), (P(("b", "a")), P()), (P(), P("a"))]:
        target = _zeros_like_state(mesh24, w_spec, b_spec)
        dist.load_state_dict(target, path)
        got_w, got_b = target["model"]["w"], target["model"]["b"]
        assert got_w.sharding == NamedSharding(mesh24, w_spec) and got_b.sharding == NamedSharding(mesh24, b_spec)
        np.testing.assert_array_equal(got_w.numpy(), W)
        assert got_b.dtype == B.dtype
        np.testing.assert_array_equal(got_b.numpy().astype(np.float32), B.astype(np.float32))
        assert isinstance(target["step"], np.ndarray) and target["step"] == STEP
    one = {"model": {"w": padax.zeros([8, 12]), "b": padax.zeros([16], dtype="bfloat16")},
           "step": np.zeros((), np.int64)}
    dist.load_state_dict(one, path)
    assert len(one["model"]["w"].devices()) == 1
    np.testing.assert_array_equal(one["model"]["w"].numpy(), W)
    host = {"model": {"w": np.zeros((8, 12), np.float32)}}  # a subset of names, into host arrays
    dist.load_state_dict(host, path)
    np.testing.assert_array_equal(host["model"]["w"], W)


@pytest.mark.spmd
def test_checkpoint_ids_commit_marker_and_missing_pieces(tmp_path, mesh42):
    import padax.distributed as dist
    from padax.distributed import CheckpointError
    path = str(tmp_path / "ckpt")
    dist.save_state_dict({"w": padax.device_put(W, NamedSharding(mesh42, P("x", "y")))}, path)
    dist.save_state_dict({"w": padax.device_put(W + 1, NamedSharding(mesh42, P("y")))}, path)  # id 1
    target = {"w": padax.device_put(np.zeros_like(W), NamedSharding(mesh42, P()))}
    dist.load_state_dict(target, path)  # the newest committed one
    np.testing.assert_array_equal(target["w"].numpy(), W + 1)
    dist.load_state_dict(target, path, unique_id=0)
    np.testing.assert_array_equal(target["w"].numpy(), W)

    # a save interrupted before its commit marker: it does not exist for load, and the previous one stays usable
    os.unlink(os.path.join(path, "1.commit"))
    with pytest.raises(CheckpointError, match=r"checkpoint 1 in .* has no commit marker \(1.commit\): its save "
                                              "was interrupted"):
        dist.load_state_dict(target, path, unique_id=1)
    dist.load_state_dict(target, path)
    np.testing.assert_array_equal(target["w"].numpy(), W)
    lonely = str(tmp_path / "lonely")
    dist.save_state_dict({"w": target["w"]}, lonely)
    os.unlink(os.path.join(lonely, "0.commit"))
    with pytest.raises(CheckpointError, match="holds no complete checkpoint.*no commit marker"):
        dist.load_state_dict(target, lonely)

    # missing shard file: the error names the file and the shard
    os.unlink(os.path.join(path, "0_0.distcp"))
    with pytest.raises(CheckpointError, match=r"shard \[0:2, 0:6\] of 'w' is in '.*0_0.distcp', which is missing"):
        dist.load_state_dict(target, path, unique_id=0)

    good = str(tmp_path / "good")
    dist.save_state_dict({"w": padax.device_put(W, NamedSharding(mesh42, P("x")))}, good)
    dist.save_state_dict({"w": padax.device_put(-W, NamedSharding(mesh42, P("y")))}, good, unique_id=0)  # rewrite
    assert sorted(os.listdir(good)) == ["0.commit", "0.metadata", "0_0.distcp"]
    dist.load_state_dict(target, good)
    np.testing.assert_array_equal(target["w"].numpy(), -W)
    with pytest.raises(CheckpointError, match=r"has no entries named \['v'\]; it holds \['w'\]"):
        dist.load_state_dict({"v": target["w"]}, good)
    with pytest.raises(CheckpointError, match=r"'w' was saved with shape \[8, 12\] but the state dict's has shape "
                                              r"\[12, 8\]"):
        dist.load_state_dict({"w": padax.zeros([12, 8])}, good)
    with pytest.raises(CheckpointError, match="saved as float32, which does not convert to the state dict's int32"):
        dist.load_state_dict({"w": padax.zeros([8, 12], dtype="int32")}, good)
    with pytest.raises(CheckpointError, match="holds no checkpoint"):
        dist.load_state_dict({"w": target["w"]}, str(tmp_path))
    with pytest.raises(TypeError, match="'w' is a list"):
        dist.save_state_dict({"w": [1, 2]}, good)
