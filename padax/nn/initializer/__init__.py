"""`padax.nn.initializer`: Paddle's parameter initializers as functions of (shape, dtype, key)."""
from padax.nn.initializer._base import Initializer, calculate_gain, set_global_initializer  # noqa: F401
from padax.nn.initializer.random_init import (KaimingNormal, KaimingUniform, Normal, TruncatedNormal,  # noqa: F401
                                              Uniform, XavierNormal, XavierUniform)
from padax.nn.initializer.structured import Assign, Bilinear, Constant, Dirac, Orthogonal  # noqa: F401

__all__ = ["Initializer", "Constant", "Normal", "TruncatedNormal", "Uniform", "XavierNormal", "XavierUniform",
           "KaimingNormal", "KaimingUniform", "Orthogonal", "Dirac", "Assign", "Bilinear", "calculate_gain",
           "set_global_initializer"]
