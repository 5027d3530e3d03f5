"""Sharded checkpoints (Paddle's `save_state_dict` / `load_state_dict`): each process writes its own shards.

    dist.save_state_dict({"w": w_sharded_on_4x2}, "ckpt")        # every process calls it
    target = {"w": dist.shard_tensor(np.zeros(shape), mesh_2x4, placements)}
    dist.load_state_dict(target, "ckpt")                          # target["w"] now holds the saved value

The folder holds one file of shards per process, JSON metadata with every
tensor's global shape, dtype, sharding and shard index ranges, and a commit
marker written last (see `layout`). Loading reshards onto whatever layout
the target state dict has: another mesh shape, one device, or host arrays.
"""
from padax.distributed.checkpoint.layout import CheckpointError
from padax.distributed.checkpoint.load import load_state_dict
from padax.distributed.checkpoint.save import save_state_dict

__all__ = ["save_state_dict", "load_state_dict", "CheckpointError"]
