"""Paddle's in-place random fills (`x.uniform_()`, `x.normal_()`, `x.bernoulli_(p)`, ...) from the global key.

Each computes a fresh draw of x's shape and dtype from the key that `padax.seed` sets (so a run
replays after `padax.seed(n)`) and rebinds x to it (padax/functional/inplace.py). Like the other
global-key helpers they are eager conveniences: inside jit they raise (pass a key there).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from padax import dtypes
from padax.core.errors import op_type_error, op_value_error
from padax.functional import inplace, math as M
from padax.functional._arrays import asarray, aval_of
from padax.random import _keys, _samplers
from padax.random._state import _eager, _uniform_draw, next_key


def _float_aval(op: str, x: Any):
    aval = aval_of(x)
    if not dtypes.is_floating(aval.dtype):
        raise op_type_error(op, f"x must be a floating-point Tensor, got {aval.str_short()}")
    return aval


def _u(op: str, x: Any, lo: float = 0.0, hi: float = 1.0):
    aval = _float_aval(op, x)
    return _uniform_draw(next_key(op), tuple(aval.shape), aval.dtype, lo, hi)


def uniform_(x: Any, min: float = 0, max: float = 1.0, seed: int = 0, name: str | None = None) -> Any:  # noqa: A002
    """Uniform in [min, max); seed != 0 draws from padax.random.key(seed) (the global key is left alone)."""
    aval = _float_aval("uniform_", x)
    if int(seed) != 0:
        key = _eager(_keys.key, int(seed))
        return _uniform_draw(key, tuple(aval.shape), aval.dtype, float(min), float(max))
    return _u("uniform_", x, float(min), float(max))


def normal_(x: Any, mean: Any = 0.0, std: float = 1.0, name: str | None = None) -> Any:
    """mean + std * z, z standard normal."""
    aval = _float_aval("normal_", x)
    z = _eager(_samplers.normal, next_key("normal_"), tuple(aval.shape), aval.dtype)
    return M.add(M.multiply(z, asarray(std, aval.dtype)), asarray(mean, aval.dtype))


def log_normal_(x: Any, mean: float = 1.0, std: float = 2.0, name: str | None = None) -> Any:
    """exp(mean + std * z): log-normal with the underlying normal's mean and std."""
    return M.exp(normal_(x, mean, std))


def bernoulli_(x: Any, p: Any = 0.5, name: str | None = None) -> Any:
    """1 with probability p (a number or a Tensor broadcast to x), else 0, in x's dtype."""
    aval = aval_of(x)
    dt = aval.dtype if dtypes.is_floating(aval.dtype) else dtypes.float32
    u = _uniform_draw(next_key("bernoulli_"), tuple(aval.shape), dt, 0.0, 1.0)
    return M.cast(M.less_than(u, M.cast(asarray(p), dt)), aval.dtype)


def exponential_(x: Any, lam: float = 1.0, name: str | None = None) -> Any:
    """Exponential with rate lam."""
    aval = _float_aval("exponential_", x)
    e = _eager(_samplers.exponential, next_key("exponential_"), tuple(aval.shape), aval.dtype)
    return M.divide(e, asarray(lam, aval.dtype))


def cauchy_(x: Any, loc: float = 0, scale: float = 1, name: str | None = None) -> Any:
    """loc + scale * tan(pi * (u - 1/2)), u uniform in [0, 1)."""
    aval = _float_aval("cauchy_", x)
    u = _u("cauchy_", x)
    t = M.tan(M.multiply(M.subtract(u, asarray(0.5, aval.dtype)), asarray(np.pi, aval.dtype)))
    return M.add(M.multiply(t, asarray(scale, aval.dtype)), asarray(loc, aval.dtype))


def geometric_(x: Any, probs: Any, name: str | None = None) -> Any:
    """log(u) / log1p(-probs), u uniform in [tiny, 1): Paddle's (continuous) geometric fill."""
    aval = _float_aval("geometric_", x)
    u = _u("geometric_", x, float(np.finfo(aval.dtype).tiny), 1.0)
    return M.divide(M.log(u), M.log1p(M.neg(M.cast(asarray(probs), aval.dtype))))


_MANTISSA = {np.dtype(np.float16): 11, np.dtype(np.float32): 24, np.dtype(np.float64): 53}


def random_(x: Any, from_: int = 0, to: int | None = None, *, generator: Any = None) -> Any:
    """Integers uniform in [from_, to) in x's dtype; to=None: [0, 2**mantissa] for floats (every value
    exact), [0, dtype max) for integers; with only from_ given, [0, from_)."""
    aval = aval_of(x)
    dt = np.dtype(aval.dtype)
    if to is None:
        if from_ == 0:
            to = 2 ** _MANTISSA.get(dt, 8) if dtypes.is_floating(dt) else int(np.iinfo(dt).max)
        else:
            from_, to = 0, from_
    if from_ >= to:
        raise op_value_error("random_", f"from ({from_}) must be less than to ({to})")
    int_dt = dt if dtypes.is_integer(dt) else np.dtype(np.int64)
    r = _eager(_samplers.randint, next_key("random_"), tuple(aval.shape), int(from_), int(to),
               dtypes.canonicalize_dtype(int_dt))
    return M.cast(r, dt)


for _name in ("uniform_", "normal_", "log_normal_", "bernoulli_", "exponential_", "cauchy_", "geometric_",
              "random_"):
    inplace.register(_name, globals()[_name])
del _name
