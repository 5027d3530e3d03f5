"""Paddle's `paddle.static` names that make sense in padax: `padax.static.nn` control flow and `InputSpec`."""
from padax.static import nn  # noqa: F401
from padax.static.input_spec import InputSpec  # noqa: F401
