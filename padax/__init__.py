"""padax: PaddlePaddle's API as a JAX-style functional library on XLA (jaxlib)."""
from padax.runtime import _jaxlib as _jaxlib_guard  # noqa: F401  (installs the jax-import guard first)

from padax import lowering as _lowering  # noqa: F401  (its rules load on the first lowering)
from padax.config import config, default_matmul_precision, disable_jit, enable_x64
from padax.runtime import tree
from padax.runtime import Array, Device, Tensor, default_device, device_count, device_put, devices, local_devices
from padax.runtime.backend import default_backend, local_device_count, process_count, process_index
from padax.runtime.put import block_until_ready, device_get
from padax.core.ad_util import float0
from padax.transforms import dispatch as _dispatch  # noqa: F401  (installs eager execution)
from padax.transforms.jit import clear_caches, jit
from padax.transforms.staging import ShapeDtypeStruct, eval_shape, make_jaxpr

from padax.core.version import __version__  # noqa: E402,F401

# dtypes (Paddle's names; 64-bit ones shrink to 32-bit only in the 32-bit-only mode, enable_x64=False)
from padax.core.dtypes import (bfloat16, complex64, complex128, float8_e4m3fn, float8_e5m2, float16,  # noqa: E402
                               float32, float64, int8, int16, int32, int64, uint8, uint16, uint32, uint64)
from padax.functional.type_info import finfo, iinfo  # noqa: E402
from padax.core.dtypes import bool_ as bool  # noqa: E402,A001
from padax.core.dtypes import get_default_dtype, set_default_dtype  # noqa: E402

# the Paddle-named tensor API
from padax.functional.creation import (arange, assign, clone, complex, diag, diag_embed,  # noqa: E402,A004
                                       diagflat, empty, empty_like, eye, full, full_like, linspace, logspace,
                                       meshgrid, ones, ones_like, polar, to_tensor, tril, tril_indices, triu,
                                       triu_indices, vander, zeros, zeros_like)
from padax.functional.linalg_basic import (addmm, baddbmm, bmm, cdist, cross, dist, dot, inner, kron,  # noqa: E402
                                           matmul, mm, mv, outer, pdist, t, tensordot, trace)
from padax.functional.manipulation import (as_complex, as_real, as_strided, atleast_1d,  # noqa: E402,A004
                                           atleast_2d, atleast_3d, block_diag, broadcast_shape, broadcast_tensors,
                                           broadcast_to, cartesian_prod, chunk, column_stack, combinations, concat,
                                           crop, diagonal, dsplit, dstack, expand, expand_as, flatten, flip,
                                           hsplit, hstack, moveaxis, numel, pad, rank, repeat_interleave, reshape,
                                           roll, rot90, row_stack, shape, shard_index, slice, split, squeeze,
                                           stack, strided_slice, swapaxes, swapdims, tensor_split, tile, tolist,
                                           transpose, unbind, unflatten, unfold, unsqueeze, unstack, view, view_as,
                                           vsplit, vstack)
from padax.functional.math import (abs, acos, acosh, add, add_n, allclose, angle, asin, asinh,  # noqa: E402,A004
                                   astype, atan, atan2, atanh, bitwise_and, bitwise_invert, bitwise_left_shift,
                                   bitwise_not, bitwise_or, bitwise_right_shift, bitwise_xor, cast, ceil, clip,
                                   conj, copysign, cos, cosh, cumulative_trapezoid, deg2rad, diff, digamma, divide,
                                   equal, equal_all, erf, erfinv, exp, exp2, expm1, floor, floor_divide, floor_mod,
                                   fmax, fmin, frac, frexp, gammaln, gcd, greater_equal, greater_than, heaviside,
                                   hypot, imag, increment, is_complex, is_empty, is_floating_point, is_integer,
                                   is_tensor, isclose, isfinite, isinf, isnan, isneginf, isposinf, isreal, lcm,
                                   ldexp, lerp, less_equal, less_than, lgamma, log, log10, log1p, log2, logaddexp,
                                   logical_and, logical_not, logical_or, logical_xor, logit, maximum, minimum, mod,
                                   multigammaln, multiply, nan_to_num, neg, negative, nextafter, not_equal,
                                   polygamma, positive, pow, rad2deg, real, reciprocal, remainder, renorm, round,
                                   rsqrt, scale, sgn, sigmoid, sign, signbit, sin, sinc, sinh, sqrt, square, stanh,
                                   subtract, tan, tanh, trapezoid, trunc, where)
from padax.functional.reduction import (all, amax, amin, any, argmax, argmin, argsort,  # noqa: E402,A004
                                        count_nonzero, cummax, cummin, cumprod, cumsum, logcumsumexp, logsumexp,
                                        max, mean, min, nanmean, nansum, prod, reduce_as, sort, std, sum, topk,
                                        var)
from padax.functional.stats import (histogram, kthvalue, median, mode, nanmedian, nanquantile,  # noqa: E402
                                    quantile)
from padax.functional.search import (bincount, bucketize, isin, masked_select, nonzero, searchsorted,  # noqa: E402
                                     unique, unique_consecutive)
from padax.functional.indexed import (diagonal_scatter, gather, gather_nd, index_add, index_fill,  # noqa: E402
                                      index_put, index_sample, index_select, masked_fill, masked_scatter,
                                      multiplex, put_along_axis, scatter, scatter_nd, scatter_nd_add,
                                      select_scatter, slice_scatter, take, take_along_axis)
from padax.functional.einsum import einsum  # noqa: E402
from padax.functional import methods as _methods  # noqa: E402,F401  (attaches operators and Tensor methods)
# Paddle's dygraph tape: x.stop_gradient / backward() / .grad, and its grad modes
from padax.functional.tape_api import enable_grad, is_grad_enabled, no_grad, set_grad_enabled  # noqa: E402

# transformations (JAX's function-in, function-out signatures)
from padax.transforms.ad import (grad, hessian, jacfwd, jacrev, jvp, linear_transpose, linearize,  # noqa: E402
                                 value_and_grad, vjp)
from padax.transforms.ad import jacrev as jacobian  # noqa: E402  (jax's alias)
from padax.transforms.batching import vmap  # noqa: E402
from padax.transforms.custom import custom_jvp, custom_vjp, stop_gradient  # noqa: E402
from padax import lax  # noqa: E402,F401
from padax import ref  # noqa: E402,F401
from padax.ref import Ref, empty_ref, freeze, new_ref  # noqa: E402
from padax.transforms.remat import checkpoint, checkpoint_policies, recompute, remat  # noqa: E402
from padax import tree_util  # noqa: E402,F401
from padax import flatten_util  # noqa: E402,F401
from padax import dtypes  # noqa: E402,F401
from padax import numpy  # noqa: E402,F401
from padax import tensor  # noqa: E402,F401

# Paddle's names beyond the tensor API: devices and places, printing, aliases and torch-style names
from padax import device  # noqa: E402,F401
from padax.device import (CPUPlace, CUDAPlace, XPUPlace, get_default_device, get_device,  # noqa: E402,F401
                          set_default_device, set_device)
from padax.device import (is_compiled_with_cinn, is_compiled_with_cuda, is_compiled_with_custom_device,  # noqa: E402,F401
                          is_compiled_with_distribute, is_compiled_with_ipu, is_compiled_with_rocm,
                          is_compiled_with_xpu)
from padax.runtime.printing import set_printoptions  # noqa: E402,F401
from padax.functional.creation import as_tensor, asarray, from_numpy, range  # noqa: E402,F401,A004
from padax.functional.indexed import scatter_add, scatter_reduce, take_along_dim  # noqa: E402,F401
from padax.functional.manipulation import (broadcast_shapes, matrix_transpose, narrow, permute, ravel,  # noqa: E402,F401
                                           reverse, view_as_complex, view_as_real)
from padax.functional.math import (clamp, div, eq, ge, greater, gt, le, less, lt, mul, ne, sub,  # noqa: E402,F401
                                   true_divide)
from padax.functional.reduction import msort  # noqa: E402,F401
from padax.functional.search import argwhere  # noqa: E402,F401
from padax.functional.stats import histogram_bin_edges, histogramdd  # noqa: E402,F401
from padax.functional.manipulation import cat, concatenate  # noqa: E402,F401
from padax.functional.linalg_basic import ger  # noqa: E402,F401
from padax.functional.dlpack import from_dlpack, to_dlpack  # noqa: E402,F401
from padax._battery_aliases import cholesky, eigvalsh, inverse, manual_seed, norm, vecdot  # noqa: E402,F401
from padax.functional.inplace import (  # noqa: E402,F401  (Paddle's module-level in-place functions)
    abs_, acos_, acosh_, addmm_, asin_, asinh_, atan_, atanh_, baddbmm_, bernoulli_, bitwise_and_,
    bitwise_invert_, bitwise_left_shift_, bitwise_not_, bitwise_or_, bitwise_right_shift_, bitwise_xor_,
    cast_, cauchy_, copysign_, cos_, cosh_, cumprod_, cumsum_, digamma_, div_, divide_, equal_, erf_,
    expm1_, flatten_, floor_divide_, floor_mod_, frac_, gammainc_, gammaincc_, gammaln_, gcd_,
    geometric_, greater_equal_, greater_than_, hypot_, i0_, index_add_, index_fill_, index_put_, lcm_,
    ldexp_, less_, less_equal_, less_than_, lgamma_, log10_, log1p_, log2_, log_, log_normal_,
    logical_and_, logical_not_, logical_or_, logical_xor_, logit_, masked_fill_, masked_scatter_, mod_,
    multigammaln_, multiply_, nan_to_num_, neg_, normal_, not_equal_, polygamma_, pow_, remainder_,
    renorm_, reshape_, scatter_, scatter_add_, sin_, sinc_, sinh_, square_, squeeze_, sub_, subtract_,
    t_, tan_, tanh_, transpose_, tril_, triu_, trunc_, unsqueeze_, where_
)
from padax.functional import inplace as _inplace  # noqa: E402
_LATE_INPLACE = {**dict.fromkeys(("bernoulli_", "cauchy_", "exponential_", "geometric_", "log_normal_", "normal_",
                                  "random_", "uniform_"), "padax.random._inplace"),
                 **dict.fromkeys(("gammainc_", "gammaincc_", "i0_"), "padax.scipy.special._paddle")}


def _load_inplace(name: str) -> None:
    """Load the battery module that registers the in-place method `name` (padax/functional/inplace.py)."""
    import importlib  # startup time: the module loads at the first call of one of its in-place methods
    importlib.import_module(_LATE_INPLACE[name])


_inplace.late_loader = _load_inplace

# -- loaded on first use (PEP 562): the batteries and the less common transformations --------------
# `import padax` loads the tensor API, jit/grad/vmap and the device layer; `padax.nn`, `padax.scipy`,
# `padax.optimizer`, ... and the names below import their module when first read, so start-up does
# not pay for what a script never touches.
_LAZY_MODULES = ("ad_checkpoint", "amp", "autograd", "callbacks", "checkify", "debug", "distributed", "distribution",
                 "experimental", "extend", "fft", "hapi", "incubate", "inference", "io", "linalg", "metric", "nn", "onnx",
                 "ode", "optimizer", "profiler", "quantization", "random", "regularizer", "scipy", "sharding", "signal",
                 "static", "taylor", "test_util", "utils", "vision", "geometric", "audio", "text", "sparse", "ffi")
_LAZY_NAMES = {
    "ParamAttr": "padax.nn.param_attr", "load": "padax.serialization", "save": "padax.serialization",
    **dict.fromkeys(("normal", "rand", "randint", "randn", "randperm", "seed", "uniform", "get_cuda_rng_state",
                     "get_rng_state", "set_cuda_rng_state", "set_rng_state"), "padax.random._state"),
    **dict.fromkeys(("bernoulli", "binomial", "log_normal", "multinomial", "poisson", "rand_like", "randint_like",
                     "randn_like", "standard_gamma", "standard_normal"), "padax.random._paddle_draws"),
    **dict.fromkeys(("NamedSharding", "P", "make_mesh", "reshard", "set_mesh", "typeof",
                     "visualize_array_sharding"), "padax.sharding"),
    "shard_map": "padax.transforms.shard_map",
    **dict.fromkeys(("disable_static", "enable_static", "in_dynamic_mode"), "padax.static.mode"),
    "pure_callback": "padax.transforms.callback", "jet": "padax.transforms.jet",
    "named_scope": "padax.core.source_info",
    **dict.fromkeys(("hessian_diag", "hvp", "jacobian_diag", "laplacian"), "padax._differential_operators"),
    "implicit_diff": "padax.transforms.implicit",
    **dict.fromkeys(("closure_convert", "custom_gradient"), "padax.transforms.closure"),
    **dict.fromkeys(("gammainc", "gammaincc", "i0", "i0e", "i1", "i1e"), "padax.scipy.special._paddle"),
    **dict.fromkeys(("Model", "flops", "summary"), "padax.hapi"),
    "DataParallel": "padax.distributed.fleet.model",
    "create_parameter": "padax.nn.parameter",  # registers the parameter for Layer assignment
}


def __getattr__(name: str):
    import importlib
    if name in _LAZY_MODULES:
        return importlib.import_module(f"padax.{name}")
    module = _LAZY_NAMES.get(name)
    if module is None:
        raise AttributeError(f"module 'padax' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list:
    return sorted(set(globals()) | set(_LAZY_MODULES) | set(_LAZY_NAMES))


def _inference_entry(name: str):
    """`padax.jit.<name>` (to_static, save, load): padax.inference's function, imported at the first call."""
    def entry(*args, **kwargs):
        from padax import inference  # startup time: padax.inference (and the lowering) load at the first call
        return getattr(inference, name)(*args, **kwargs)
    entry.__name__ = entry.__qualname__ = name
    entry.__doc__ = f"padax.inference.{name} (Paddle's paddle.jit.{name}); padax.inference loads at the first call."
    return entry


jit.to_static, jit.save, jit.load = (_inference_entry(n) for n in ("to_static", "save", "load"))

