"""`padax.incubate.nn`: Paddle's incubating neural-network APIs (the fused functional ops)."""
from padax.incubate.nn import functional  # noqa: F401
