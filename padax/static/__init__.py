"""Paddle's `paddle.static` names that make sense in padax: `padax.static.nn` control flow."""
from padax.static import nn  # noqa: F401
