"""padax: PaddlePaddle's API as a JAX-style functional library on XLA (jaxlib)."""
from padax.devices import _jaxlib as _jaxlib_guard  # noqa: F401  (installs the jax-import guard first)

from padax import lowering as _lowering  # noqa: F401  (registers lowering rules)
from padax.config import config, disable_jit, enable_x64
from padax.core import tree
from padax.devices import Array, Tensor, default_device, device_count, device_put, devices, local_devices
from padax.transforms import dispatch as _dispatch  # noqa: F401  (installs eager execution)
from padax.transforms.jit import jit
from padax.transforms.staging import ShapeDtypeStruct, eval_shape, make_jaxpr

__version__ = "0.1.0"

# dtypes (Paddle's names; 64-bit ones shrink to 32-bit unless x64 is enabled)
from padax.core.dtypes import (bfloat16, complex64, complex128, finfo, float8_e4m3fn, float8_e5m2, float16,  # noqa: E402
                               float32, float64, iinfo, int8, int16, int32, int64, uint8, uint16, uint32, uint64)
from padax.core.dtypes import bool_ as bool  # noqa: E402,A001

# the Paddle-named tensor API
from padax.functional.creation import (arange, empty, empty_like, eye, full, full_like, linspace, ones,  # noqa: E402
                                       ones_like, to_tensor, zeros, zeros_like)
from padax.functional.linalg_basic import bmm, dot, matmul, mm, t  # noqa: E402
from padax.functional.manipulation import (broadcast_tensors, broadcast_to, chunk, concat, expand,  # noqa: E402
                                           expand_as, flatten, flip, moveaxis, reshape, split, squeeze, stack,
                                           tile, transpose, unbind, unsqueeze)
from padax.functional.math import (abs, acos, acosh, add, asin, asinh, astype, atan, atan2, atanh,  # noqa: E402,A004
                                   bitwise_and, bitwise_invert, bitwise_left_shift, bitwise_not, bitwise_or,
                                   bitwise_right_shift, bitwise_xor, cast, ceil, clip, cos, cosh, digamma, divide,
                                   equal, equal_all, erf, erfinv, exp, expm1, floor, floor_divide, floor_mod, fmax,
                                   fmin, greater_equal, greater_than, hypot, isfinite, isinf, isnan, less_equal,
                                   less_than, lgamma, log, log1p, log2, log10, logaddexp, logical_and, logical_not,
                                   logical_or, logical_xor, maximum, minimum, mod, multiply, neg, negative,
                                   not_equal, pow, reciprocal, remainder, round, rsqrt, scale, sigmoid, sign, sin,
                                   sinh, sqrt, square, subtract, tan, tanh, trunc, where)
from padax.functional.reduction import (all, amax, amin, any, argmax, argmin, argsort, cumprod, cumsum,  # noqa: E402,A004
                                        logsumexp, max, mean, min, prod, sort, sum, topk)
from padax.functional import methods as _methods  # noqa: E402,F401  (attaches operators and Tensor methods)
from padax import nn  # noqa: E402,F401

# transformations (JAX's function-in, function-out signatures)
from padax.transforms.ad import (grad, hessian, jacfwd, jacrev, jvp, linear_transpose, linearize,  # noqa: E402
                                 value_and_grad, vjp)
from padax.transforms.batching import vmap  # noqa: E402
from padax.transforms.custom import custom_jvp, custom_vjp, stop_gradient  # noqa: E402
from padax import test_util  # noqa: E402,F401
from padax import lax  # noqa: E402,F401
from padax.transforms.remat import checkpoint, checkpoint_policies, recompute  # noqa: E402
from padax import autograd  # noqa: E402,F401
from padax import fft  # noqa: E402,F401
from padax import linalg  # noqa: E402,F401
from padax import random  # noqa: E402,F401
from padax.random._state import (normal, rand, randint, randn, randperm, seed,  # noqa: E402,F401
                                 uniform)
from padax import static  # noqa: E402,F401
