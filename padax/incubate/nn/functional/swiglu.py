"""swiglu under Paddle's incubate path (Paddle 3.3 moved it to paddle.nn.functional.swiglu)."""
from padax.nn.functional.activation import swiglu

__all__ = ["swiglu"]
