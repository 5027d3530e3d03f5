"""`padax.experimental.shard_map`: jax.experimental.shard_map's module path for `padax.shard_map`
(its `check_rep=` spelling is accepted, as `check_vma=`)."""
from padax.transforms.shard_map import shard_map

__all__ = ["shard_map"]
