"""`.safetensors` files (flat dicts of named arrays) through the maintained `safetensors` library.

Every dtype safetensors knows round-trips, bfloat16 and float8 included (`pip install padax[safetensors]`).
"""
from __future__ import annotations

from padax.serialization._safetensors import loads, looks_like_safetensors, save

__all__ = ["loads", "looks_like_safetensors", "save"]
