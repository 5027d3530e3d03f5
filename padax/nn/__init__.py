"""`padax.nn`: Paddle's neural-network namespace: layers (pytrees), functional ops, initializers, utils."""
from padax.nn import functional  # noqa: F401
from padax.nn import initializer  # noqa: F401
from padax.nn.clip import ClipGradByGlobalNorm, ClipGradByNorm, ClipGradByValue  # noqa: F401
from padax.nn.filtering import (combine, filter_grad, filter_value_and_grad, is_inexact_array,  # noqa: F401
                                partition, trainable_mask)
from padax.nn.functional._rng import rng_scope  # noqa: F401
from padax.nn.layer.container import LayerDict, LayerList, ParameterList, Sequential  # noqa: F401
from padax.nn.layer.layers import Layer, LayerStateError  # noqa: F401
from padax.nn.param_attr import ParamAttr, ParamInfo  # noqa: F401
from padax.nn import utils  # noqa: F401
from padax.nn.layer.common import (AlphaDropout, Bilinear, Dropout, Dropout2D, Dropout3D, Embedding,  # noqa: F401
                                   FeatureAlphaDropout, Flatten, Identity, Linear, Unflatten)
from padax.nn.layer.norm import BatchNorm, BatchNorm1D, BatchNorm2D, BatchNorm3D, SyncBatchNorm  # noqa: F401
from padax.nn.layer.activation import (CELU, ELU, GELU, GLU, PReLU, ReLU, ReLU6, RReLU, SELU, Hardshrink,  # noqa: F401
                                       Hardsigmoid, Hardswish, Hardtanh, LeakyReLU, LogSigmoid, LogSoftmax, Maxout,
                                       Mish, Sigmoid, SiLU, Silu, Softmax, Softmax2D, Softplus, Softshrink, Softsign,
                                       Swish, Tanh, Tanhshrink, ThresholdedReLU)
from padax.nn.layer.conv import (Conv1D, Conv1DTranspose, Conv2D, Conv2DTranspose, Conv3D,  # noqa: F401
                                 Conv3DTranspose)
from padax.nn.layer.loss import (BCELoss, BCEWithLogitsLoss, CosineEmbeddingLoss, CrossEntropyLoss,  # noqa: F401
                                 CTCLoss, GaussianNLLLoss, HingeEmbeddingLoss, HuberLoss, KLDivLoss, L1Loss,
                                 MarginRankingLoss, MSELoss, MultiLabelMarginLoss, MultiLabelSoftMarginLoss,
                                 MultiMarginLoss, NLLLoss, PoissonNLLLoss, SmoothL1Loss, SoftMarginLoss,
                                 TripletMarginLoss, TripletMarginWithDistanceLoss)
from padax.nn.layer.norm_other import (GroupNorm, InstanceNorm1D, InstanceNorm2D, InstanceNorm3D,  # noqa: F401
                                       LayerNorm, LocalResponseNorm, RMSNorm)
from padax.nn.layer.pooling import (AdaptiveAvgPool1D, AdaptiveAvgPool2D, AdaptiveAvgPool3D,  # noqa: F401
                                    AdaptiveMaxPool1D, AdaptiveMaxPool2D, AdaptiveMaxPool3D, AvgPool1D, AvgPool2D,
                                    AvgPool3D, LPPool1D, LPPool2D, MaxPool1D, MaxPool2D, MaxPool3D, MaxUnPool1D,
                                    MaxUnPool2D, MaxUnPool3D)
from padax.nn.layer.vision import (ChannelShuffle, CircularPad1D, CircularPad2D, CircularPad3D,  # noqa: F401
                                   ConstantPad1D, ConstantPad2D, ConstantPad3D, CosineSimilarity, Fold, Pad1D, Pad2D,
                                   Pad3D, PairwiseDistance, PixelShuffle, PixelUnshuffle, ReflectionPad1D,
                                   ReflectionPad2D, ReflectionPad3D, ReplicationPad1D, ReplicationPad2D,
                                   ReplicationPad3D, Unfold, Upsample, UpsamplingBilinear2D, UpsamplingNearest2D,
                                   ZeroPad1D, ZeroPad2D, ZeroPad3D)
from padax.nn.layer.rnn import GRU, LSTM, RNN, BiRNN, RNNBase, SimpleRNN  # noqa: F401
from padax.nn.layer.rnn_cells import GRUCell, LSTMCell, RNNCellBase, SimpleRNNCell  # noqa: F401
from padax.nn.layer.transformer import (MultiHeadAttention, Transformer, TransformerDecoder,  # noqa: F401
                                        TransformerDecoderLayer, TransformerEncoder, TransformerEncoderLayer)
from padax.nn.layer.container import ParameterDict  # noqa: F401

# Paddle's PyTorch-style aliases (the same classes)
Module, ModuleList, ModuleDict = Layer, LayerList, LayerDict
Conv1d, Conv2d, Conv3d = Conv1D, Conv2D, Conv3D
AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveAvgPool3d = AdaptiveAvgPool1D, AdaptiveAvgPool2D, AdaptiveAvgPool3D
AdaptiveMaxPool1d, AdaptiveMaxPool2d, AdaptiveMaxPool3d = AdaptiveMaxPool1D, AdaptiveMaxPool2D, AdaptiveMaxPool3D
LPPool1d, LPPool2d = LPPool1D, LPPool2D
MaxUnpool1d, MaxUnpool2d, MaxUnpool3d = MaxUnPool1D, MaxUnPool2D, MaxUnPool3D
UpsamplingBilinear2d, UpsamplingNearest2d = UpsamplingBilinear2D, UpsamplingNearest2D
CircularPad1d, CircularPad2d, CircularPad3d = CircularPad1D, CircularPad2D, CircularPad3D
ConstantPad1d, ConstantPad2d, ConstantPad3d = ConstantPad1D, ConstantPad2D, ConstantPad3D
ReflectionPad1d, ReflectionPad2d, ReflectionPad3d = ReflectionPad1D, ReflectionPad2D, ReflectionPad3D
ReplicationPad1d, ReplicationPad2d, ReplicationPad3d = ReplicationPad1D, ReplicationPad2D, ReplicationPad3D
ZeroPad1d, ZeroPad2d, ZeroPad3d = ZeroPad1D, ZeroPad2D, ZeroPad3D
from padax.nn.layer.spectral_norm import SpectralNorm  # noqa: F401
from padax.nn.layer.pooling import FractionalMaxPool2D, FractionalMaxPool3D  # noqa: F401
from padax.nn.parameter import Parameter  # noqa: F401
from padax.nn.decode import BeamSearchDecoder, dynamic_decode  # noqa: F401
from padax.nn.layer.loss_structured import AdaptiveLogSoftmaxWithLoss, HSigmoidLoss, RNNTLoss  # noqa: F401
# jax.nn's lowercase functions and jax.nn.initializers (jax's behaviour; `import padax as jax` finds them)
from padax.nn import initializers  # noqa: F401,E402
from padax.nn._jax_nn import (celu, elu, gelu, glu, hard_sigmoid, hard_silu, hard_swish, hard_tanh,  # noqa: F401,E402
                              identity, leaky_relu, log1mexp, log_sigmoid, log_softmax, logmeanexp, logsumexp, mish,
                              one_hot, relu, relu6, selu, sigmoid, silu, soft_sign, softmax, softplus, sparse_plus,
                              sparse_sigmoid, squareplus, standardize, swish, tanh)
