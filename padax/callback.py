"""`padax.callback`: calling Python from traced and compiled code, `pure_callback` and `io_callback`
(see padax/transforms/callback.py, their implementation, for the rules and a scipy example with a
derivative rule).
"""
from __future__ import annotations

from padax.transforms.callback import CallbackResultError, io_callback, pure_callback

__all__ = ["pure_callback", "io_callback", "CallbackResultError"]
