"""`padax.flatten_util`: jax.flatten_util's `ravel_pytree`, a pytree of arrays as one flat vector and the
function mapping such a vector back (implemented in padax/transforms/flatten_util.py).
"""
from __future__ import annotations

from padax.transforms.flatten_util import ravel_pytree

__all__ = ["ravel_pytree"]
