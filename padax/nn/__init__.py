"""`padax.nn`: Paddle's neural-network namespace (layers come later; `functional` is here)."""
from padax.nn import functional  # noqa: F401
