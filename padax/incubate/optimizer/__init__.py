"""`padax.incubate.optimizer`: Paddle's functional quasi-Newton minimisers."""
from padax.incubate.optimizer import functional  # noqa: F401
