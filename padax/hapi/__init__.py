"""`padax.hapi`: Paddle's high-level training API on padax's functional core.

`Model` (prepare / fit / evaluate / predict / save / load), the callbacks (`padax.callbacks`),
`summary` and `flops`, and resumable checkpoints as plain functions (`save_checkpoint` /
`load_checkpoint`, one atomically written file holding any training-state pytree).
"""
from padax.hapi import callbacks
from padax.hapi.checkpoint import CheckpointMismatchError, load_checkpoint, save_checkpoint
from padax.hapi.model import Model
from padax.hapi.model_summary import flops, summary
from padax.hapi.progressbar import ProgressBar

__all__ = ["CheckpointMismatchError", "Model", "ProgressBar", "callbacks", "flops", "load_checkpoint",
           "save_checkpoint", "summary"]
