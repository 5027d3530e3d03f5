"""Paddle's top-level names that point elsewhere: cat/concatenate (concat), ger (outer), manual_seed
(seed), inverse/cholesky/eigvalsh/norm/vecdot (padax.linalg), and `create_parameter`."""
from __future__ import annotations

import math
from typing import Any

from padax.core import dtypes
from padax.functional import linalg_basic as _basic
from padax.functional import manipulation as _manip


def cat(x: Any, axis: Any = 0, name: str | None = None, *, out: Any = None) -> Any:
    """concat(x, axis): the Tensors of x joined along `axis`."""
    return _manip.concat(x, axis, out=out)


concatenate = cat


def ger(x: Any, y: Any, name: str | None = None, *, out: Any = None) -> Any:
    """outer(x, y): the outer product of two 1-D Tensors."""
    return _basic.outer(x, y, out=out)


def manual_seed(seed: int) -> Any:
    """seed(seed): reset padax's global random key."""
    from padax.random._state import seed as _seed
    return _seed(seed)


def inverse(x: Any, name: str | None = None) -> Any:
    """linalg.inv(x): the inverse of a (batch of) square matrices."""
    from padax.linalg import inv
    return inv(x)


def cholesky(x: Any, upper: bool = False, name: str | None = None) -> Any:
    """linalg.cholesky(x, upper)."""
    from padax.linalg import cholesky as _cholesky
    return _cholesky(x, upper)


def eigvalsh(x: Any, UPLO: str = "L", name: str | None = None) -> Any:  # noqa: N803  (Paddle's name)
    """linalg.eigvalsh(x, UPLO)."""
    from padax.linalg import eigvalsh as _eigvalsh
    return _eigvalsh(x, UPLO)


def norm(x: Any, p: Any = None, axis: Any = None, keepdim: bool = False, out: Any = None, dtype: Any = None,
         name: str | None = None) -> Any:
    """linalg.norm(x, p, axis, keepdim, dtype=dtype)."""
    from padax.linalg import norm as _norm
    return _norm(x, p, axis, keepdim, out, dtype)


def vecdot(x: Any, y: Any, axis: int = -1, name: str | None = None) -> Any:
    """linalg.vecdot(x, y, axis): sum(conj(x) * y) along `axis`."""
    from padax.linalg import vecdot as _vecdot
    return _vecdot(x, y, axis)


def from_dlpack(dlpack: Any, *, device: Any = None, copy: bool | None = None) -> Any:
    """A Tensor with the values of an array from another library that speaks DLPack (an object with
    `__dlpack__`: a numpy array, a Paddle or torch Tensor, ...); the values are copied."""
    import numpy as np
    from padax.functional._checks import placed
    from padax.functional.creation import to_tensor
    if not hasattr(dlpack, "__dlpack__"):
        raise TypeError(f"from_dlpack: expected an array with __dlpack__ (pass the array itself, not a DLPack "
                        f"capsule), got {type(dlpack).__name__}")
    return placed(to_tensor(np.from_dlpack(dlpack)), device)


def to_dlpack(x: Any) -> Any:
    """A DLPack capsule of x's values (a host copy) for another library's from_dlpack."""
    from padax.functional._arrays import asarray
    return asarray(x).__dlpack__()


def create_parameter(shape: Any, dtype: Any, name: str | None = None, attr: Any = None, is_bias: bool = False,
                     default_initializer: Any = None) -> Any:
    """A new parameter Tensor of `shape` and `dtype`, initialised as Paddle does: by the initializer of
    `attr` (a ParamAttr-like object with `.initializer`) or `default_initializer` (either called as
    `init(shape, dtype)`), else zeros for a bias and Xavier-uniform for a weight (limit
    sqrt(6 / (fan_in + fan_out)), fans as Paddle counts them), drawn from padax's global key."""
    from padax.functional.creation import normalize_shape, zeros
    shape = list(normalize_shape("create_parameter", shape))
    dt = dtypes.canonicalize(dtypes.to_dtype(dtype))
    init = getattr(attr, "initializer", None) or default_initializer
    if init is not None:
        return init(shape, dt)
    if is_bias:
        return zeros(shape, dt)
    if len(shape) == 0:
        fan_in = fan_out = 1
    elif len(shape) == 1:
        fan_in = fan_out = shape[0]
    elif len(shape) == 2:
        fan_in, fan_out = shape
    else:  # a convolution kernel [out, in, *window]
        window = math.prod(shape[2:])
        fan_in, fan_out = shape[1] * window, shape[0] * window
    limit = math.sqrt(6.0 / max(fan_in + fan_out, 1))
    from padax.random._state import uniform
    return uniform(shape, dt, -limit, limit)


__all__ = ["cat", "concatenate", "ger", "manual_seed", "inverse", "cholesky", "eigvalsh", "norm", "vecdot",
           "from_dlpack", "to_dlpack", "create_parameter"]
