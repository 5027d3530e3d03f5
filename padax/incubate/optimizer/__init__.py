"""`padax.incubate.optimizer`: Paddle's LookAhead and ModelAverage wrappers and its functional quasi-Newton
minimisers."""
from padax.incubate.optimizer import functional  # noqa: F401
from padax.incubate.optimizer.lookahead import LookAhead
from padax.incubate.optimizer.modelaverage import ModelAverage

__all__ = ["LookAhead", "ModelAverage"]
