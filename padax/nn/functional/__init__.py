"""`padax.nn.functional`: Paddle's functional neural-network ops, one module per family.

Written against the public functional API only (new primitives go to padax/functional/lax first).
"""
from padax.nn.functional.activation import (celu, elu, gelu, glu, gumbel_softmax, hardshrink,  # noqa: F401
                                            hardsigmoid, hardswish, hardtanh, leaky_relu, log_sigmoid,
                                            log_softmax, maxout, mish, prelu, relu, relu6, rrelu, selu,
                                            sigmoid, silu, softmax, softplus, softshrink, softsign, swiglu,
                                            swish, tanh, tanhshrink, thresholded_relu)
from padax.nn.functional.attention import dot_product_attention, scaled_dot_product_attention  # noqa: F401
from padax.nn.functional.common import fold, linear, pad, unfold, zeropad2d  # noqa: F401
from padax.nn.functional import flash_attention  # noqa: F401  (a module, callable as its function)
from padax.nn.functional.flash_attention import (flash_attention_with_sparse_mask, flash_attn_qkvpacked,  # noqa: F401
                                                 flash_attn_unpadded, flashmask_attention)
from padax.nn.functional.conv import (conv1d, conv1d_transpose, conv2d, conv2d_transpose, conv3d,  # noqa: F401
                                      conv3d_transpose)
from padax.nn.functional.ctc import ctc_loss  # noqa: F401
from padax.nn.functional.distance import cosine_similarity, pairwise_distance, pdist  # noqa: F401
from padax.nn.functional.extension import (diag_embed, gather_tree, npair_loss, sequence_mask,  # noqa: F401
                                           temporal_shift)
from padax.nn.functional.interpolate import interpolate, upsample  # noqa: F401
from padax.nn.functional.loss import (binary_cross_entropy, binary_cross_entropy_with_logits,  # noqa: F401
                                      cross_entropy, dice_loss, gaussian_nll_loss, kl_div, l1_loss, label_smooth,
                                      log_loss, mse_loss, nll_loss, one_hot, poisson_nll_loss, sigmoid_focal_loss,
                                      smooth_l1_loss, softmax_with_cross_entropy, square_error_cost)
from padax.nn.functional.loss_tree import adaptive_log_softmax_with_loss, hsigmoid_loss  # noqa: F401
from padax.nn.functional.rnnt import rnnt_loss  # noqa: F401
from padax.nn.functional.loss_margin import (cosine_embedding_loss, hinge_embedding_loss,  # noqa: F401
                                             margin_ranking_loss, multi_label_margin_loss,
                                             multi_label_soft_margin_loss, multi_margin_loss, soft_margin_loss,
                                             triplet_margin_loss, triplet_margin_with_distance_loss)
from padax.nn.functional.norm import (group_norm, instance_norm, layer_norm, local_response_norm,  # noqa: F401
                                      normalize, rms_norm)
from padax.nn.functional.pooling import (avg_pool1d, avg_pool2d, avg_pool3d, lp_pool1d, lp_pool2d,  # noqa: F401
                                         max_pool1d, max_pool2d, max_pool3d)
from padax.nn.functional.pooling_fractional import fractional_max_pool2d, fractional_max_pool3d  # noqa: F401
from padax.nn.functional.pooling_adaptive import (adaptive_avg_pool1d, adaptive_avg_pool2d,  # noqa: F401
                                                  adaptive_avg_pool3d, adaptive_max_pool1d, adaptive_max_pool2d,
                                                  adaptive_max_pool3d, max_unpool1d, max_unpool2d, max_unpool3d)
from padax.nn.functional.vision import (affine_grid, channel_shuffle, grid_sample, pixel_shuffle,  # noqa: F401
                                        pixel_unshuffle)
from padax.nn.functional.common import bilinear  # noqa: F401
from padax.nn.functional.dropout import (alpha_dropout, dropout, dropout2d, dropout3d,  # noqa: F401
                                         feature_alpha_dropout)
from padax.nn.functional.input import embedding  # noqa: F401
from padax.nn.functional.norm_batch import batch_norm, batch_norm_with_stats  # noqa: F401

logsigmoid = log_sigmoid

