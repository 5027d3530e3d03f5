"""`padax.numpy`: the Python Array API standard (2023.12) and common NumPy names on padax.

    import padax.numpy as pnp
    x = pnp.linspace(0.0, 1.0, 5)
    y = pnp.sum(pnp.sin(x) ** 2, axis=0)

Everything is built from padax's lax primitives, so it works eagerly and
under `padax.jit`, `grad` and `vmap`. Arrays are `padax.Tensor`s (tracers
inside transformations); `Tensor.__array_namespace__()` returns this module,
so Array-API-generic code (`array_api_compat.array_namespace(x)`) finds it.

Differences from Paddle's top-level API (`padax.*`) that matter here:

- signatures are the standard's (positional-only arrays, keyword-only
  `axis=`, `keepdims=`, `dtype=`, `device=`, `copy=`), and NumPy's and
  jax.numpy's calls work too (`sum(x, 0)`, `zeros(3, float32)`,
  `std(x, ddof=1)`, `tensordot(a, b, 2)`; see `_positional.py`); an empty
  `axis=()` reduces nothing;
- default dtypes are padax's (Paddle's): int64, the default float
  (float32 unless `padax.set_default_dtype` changes it) and its complex
  type; explicit 64-bit dtypes and float64 numpy data are kept. JAX's
  32-bit-only mode is `padax.config.update("enable_x64", False)`;
- type promotion is the standard's table; the pairs it leaves open follow
  JAX (int with float gives the float; uint64 with a signed int gives the
  default float). See `padax/numpy/_dtypes.py`.
- functions with data-dependent output shapes (`nonzero`, `unique_*`,
  `repeat` with per-element counts, `bincount`) run eagerly; under `jit`
  give them a static `size=` / `length=` / `total_repeat_length=`;
- arrays are immutable: `empty` is zero-filled and `copy=` never matters;
- out-of-range indices in `take`/`take_along_axis` read a fill value (NaN
  for floats) instead of raising.
"""
from __future__ import annotations

import math as _math
import sys as _sys

from padax.runtime.array import Tensor as _Tensor
from padax.runtime.put import device_put as _device_put
from padax.core.trace import Tracer as _Tracer

from padax.numpy import _dtypes
from padax.numpy._dtypes import can_cast, finfo, iinfo, isdtype, result_type  # noqa: F401
from padax.numpy._scalar_types import *  # noqa: F401,F403
from padax.numpy._scalar_types import bool_ as bool  # noqa: A001
from padax.numpy._creation import *  # noqa: F401,F403
from padax.numpy._elementwise import *  # noqa: F401,F403
from padax.numpy._manipulation import *  # noqa: F401,F403
from padax.numpy._indexing import *  # noqa: F401,F403
from padax.numpy._statistical import *  # noqa: F401,F403
from padax.numpy._searching import *  # noqa: F401,F403
from padax.numpy._linalg_core import *  # noqa: F401,F403
from padax.numpy._misc import *  # noqa: F401,F403
from padax.numpy._misc import __array_namespace_info__  # noqa: F401
# jax.numpy's extras beyond the Array API (cov, histogram, poly*, mgrid, insert, vectorize, save/load, ...)
from padax.numpy._covariance import *  # noqa: F401,F403
from padax.numpy._histograms import *  # noqa: F401,F403
from padax.numpy._nanfunctions import *  # noqa: F401,F403
from padax.numpy._set_ops import *  # noqa: F401,F403
from padax.numpy._polynomial import *  # noqa: F401,F403
from padax.numpy._calculus import *  # noqa: F401,F403
from padax.numpy._ufunclike import *  # noqa: F401,F403
from padax.numpy._windows import *  # noqa: F401,F403
from padax.numpy._ordering import *  # noqa: F401,F403
from padax.numpy._index_tricks import *  # noqa: F401,F403
from padax.numpy._insert_delete import *  # noqa: F401,F403
from padax.numpy._shape_helpers import *  # noqa: F401,F403
from padax.numpy._diagonals import *  # noqa: F401,F403
from padax.numpy._selection import *  # noqa: F401,F403
from padax.numpy._contractions import *  # noqa: F401,F403
from padax.numpy._function_helpers import *  # noqa: F401,F403
from padax.numpy._bits import *  # noqa: F401,F403
from padax.numpy._printing import *  # noqa: F401,F403
from padax.numpy._predicates import *  # noqa: F401,F403
from padax.numpy._npyio import *  # noqa: F401,F403
from padax.numpy import fft, linalg  # noqa: F401
from padax.runtime.printing import printoptions  # noqa: F401,E402  (numpy's, as jax.numpy.printoptions)

__array_api_version__ = "2023.12"

# NumPy's / jax.numpy's positional options and keywords (sum(x, 0), zeros(3, float32), std(x, ddof=1), ...)
from padax.numpy import _positional  # noqa: E402
_positional.install(globals())
from padax.numpy import _masked  # noqa: E402
_masked.install(globals())  # where=/initial= of the reductions

# constants
e = _math.e
pi = _math.pi
inf = _math.inf
nan = _math.nan
newaxis = None
euler_gamma = 0.5772156649015329

# NumPy aliases of dtypes and types
bool_ = bool
float_ = double = float64
single = float32
half = float16
int_ = intp = int64
uint = uintp = uint64
complex_ = cdouble = complex128
csingle = complex64
dtype = _dtypes.np.dtype
ndarray = _Tensor

# NumPy aliases of functions
arccos, arcsin, arctan, arccosh, arcsinh, arctanh, arctan2 = acos, asin, atan, acosh, asinh, atanh, atan2  # noqa: F405


_API_VERSIONS = ("2021.12", "2022.12", "2023.12")


def _array_namespace(self, /, *, api_version: str | None = None):
    """The Array API namespace of padax arrays: `padax.numpy`."""
    if api_version is not None and api_version not in _API_VERSIONS:
        raise ValueError(f"padax.numpy implements Array API versions {', '.join(_API_VERSIONS)}; "
                         f"got api_version={api_version!r}")
    return _sys.modules[__name__]


def _to_device(self, device, /, *, stream=None):
    """Copy the array to `device` (Array API `to_device`)."""
    return _device_put(self, device)


# `x.__array_namespace__()` on Tensors and tracers (attached here, where the namespace lives)
for _cls in (_Tensor, _Tracer):
    _cls.__array_namespace__ = _array_namespace
if not hasattr(_Tensor, "to_device"):
    _Tensor.to_device = _to_device
del _cls
