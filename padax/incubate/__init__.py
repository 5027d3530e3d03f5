"""`padax.incubate`: Paddle's incubating APIs that padax provides (optimizer.functional)."""
from padax.incubate import optimizer  # noqa: F401
