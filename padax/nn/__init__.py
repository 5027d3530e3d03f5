"""`padax.nn`: Paddle's neural-network namespace (layers come later; `functional` and gradient clipping are here)."""
from padax.nn import functional  # noqa: F401
from padax.nn.clip import ClipGradByGlobalNorm, ClipGradByNorm, ClipGradByValue  # noqa: F401
