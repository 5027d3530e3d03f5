"""`padax.incubate.nn`: Paddle's incubating neural-network APIs (the fused functional ops, MoELayer)."""
from padax.incubate.nn import functional  # noqa: F401
from padax.incubate.nn.moe_layer import MoELayer  # noqa: F401
