"""`padax.nn.functional`: Paddle's functional neural-network ops, one module per family.

Written against the public functional API only (new primitives go to padax/functional/lax first).
"""
from padax.nn.functional.activation import (elu, gelu, hardsigmoid, hardswish, leaky_relu,  # noqa: F401
                                            log_sigmoid, log_softmax, mish, relu, relu6, sigmoid, silu,
                                            softmax, softplus, swish, tanh)
from padax.nn.functional.common import linear  # noqa: F401
from padax.nn.functional.loss import cross_entropy, l1_loss, mse_loss, nll_loss, one_hot  # noqa: F401
from padax.nn.functional.common import bilinear  # noqa: F401
from padax.nn.functional.dropout import (alpha_dropout, dropout, dropout2d, dropout3d,  # noqa: F401
                                         feature_alpha_dropout)
from padax.nn.functional.input import embedding  # noqa: F401
from padax.nn.functional.norm_batch import batch_norm, batch_norm_with_stats  # noqa: F401
