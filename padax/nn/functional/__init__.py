"""`padax.nn.functional`: Paddle's functional neural-network ops, one module per family.

Written against the public functional API only (new primitives go to padax/functional/lax first).
"""
from padax.nn.functional.activation import (celu, elu, gelu, glu, gumbel_softmax, hardshrink,  # noqa: F401
                                            hardsigmoid, hardswish, hardtanh, leaky_relu, log_sigmoid,
                                            log_softmax, maxout, mish, prelu, relu, relu6, rrelu, selu,
                                            sigmoid, silu, softmax, softplus, softshrink, softsign, swiglu,
                                            swish, tanh, tanhshrink, thresholded_relu)
from padax.nn.functional.common import linear  # noqa: F401
from padax.nn.functional.loss import cross_entropy, l1_loss, mse_loss, nll_loss, one_hot  # noqa: F401
from padax.nn.functional.conv import (conv1d, conv1d_transpose, conv2d, conv2d_transpose, conv3d,  # noqa: F401
                                      conv3d_transpose)
from padax.nn.functional.pooling import (avg_pool1d, avg_pool2d, avg_pool3d, lp_pool1d, lp_pool2d,  # noqa: F401
                                         max_pool1d, max_pool2d, max_pool3d)
from padax.nn.functional.pooling_adaptive import (adaptive_avg_pool1d, adaptive_avg_pool2d,  # noqa: F401
                                                  adaptive_avg_pool3d, adaptive_max_pool1d, adaptive_max_pool2d,
                                                  adaptive_max_pool3d, max_unpool1d, max_unpool2d, max_unpool3d)
from padax.nn.functional.norm import (group_norm, instance_norm, layer_norm, local_response_norm,  # noqa: F401
                                      normalize, rms_norm)

logsigmoid = log_sigmoid
