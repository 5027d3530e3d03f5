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
