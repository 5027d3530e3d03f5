"""`padax.incubate.nn`: Paddle's incubating neural-network APIs (the fused layers and functional ops,
MoELayer)."""
from padax.incubate.nn import functional  # noqa: F401
from padax.incubate.nn.fused_layers import (
    FusedBiasDropoutResidualLayerNorm,
    FusedDropoutAdd,
    FusedFeedForward,
    FusedLinear,
    FusedMultiHeadAttention,
    FusedTransformerEncoderLayer,
)
from padax.incubate.nn.moe_layer import MoELayer

__all__ = ["FusedBiasDropoutResidualLayerNorm", "FusedDropoutAdd", "FusedFeedForward", "FusedLinear",
           "FusedMultiHeadAttention", "FusedTransformerEncoderLayer", "MoELayer"]
