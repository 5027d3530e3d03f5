"""`padax.incubate`: Paddle's incubating APIs that padax provides (functional autograd with lazy Jacobian and
Hessian objects, LookAhead and ModelAverage, the masked softmaxes, segment reductions, and nn's fused layers
and ops)."""
from padax.geometric import segment_max, segment_mean, segment_min, segment_sum
from padax.incubate import autograd, nn, optimizer  # noqa: F401
from padax.incubate.operators import graph_send_recv, softmax_mask_fuse, softmax_mask_fuse_upper_triangle
from padax.incubate.optimizer import LookAhead, ModelAverage

__all__ = ["LookAhead", "ModelAverage", "graph_send_recv", "segment_max", "segment_mean", "segment_min",
           "segment_sum", "softmax_mask_fuse", "softmax_mask_fuse_upper_triangle"]
