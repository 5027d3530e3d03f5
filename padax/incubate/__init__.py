"""`padax.incubate`: Paddle's incubating APIs that padax provides (nn.functional's fused ops, optimizer.functional)."""
from padax.incubate import nn, optimizer  # noqa: F401
