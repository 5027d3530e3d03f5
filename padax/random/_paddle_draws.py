"""Paddle's stateful draws from distributions, on the global key of `_state` (eager conveniences).

`bernoulli(x)`, `poisson(x)`, `standard_gamma(x)`, `binomial(count, prob)` and
`multinomial(x, num_samples)` take their parameters as Tensors and draw one
sample per element (or per row); `standard_normal`, `log_normal` and the
`*_like` helpers make new Tensors. Dtypes follow Paddle: a draw keeps the
float dtype of its parameter, counts and indices (binomial, multinomial) are
int64, `*_like` keep the input's dtype unless `dtype` is given. Like
`padax.rand`, they cannot be used while jit traces (see `_state`); inside jit,
pass a key to the `padax.random` samplers.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from padax import dtypes
from padax.core.errors import op_type_error, op_value_error
from padax.functional._arrays import Tensor, asarray, aval_of, broadcast_to, static_int
from padax.functional._checks import placed, write_out
from padax.functional.lax.elementwise import add, exp, log
from padax.functional.lax.sorting import top_k
from padax.functional.lax.structural import convert_element_type, transpose
from padax.random import _samplers
from padax.random._state import _eager, _paddle_shape, next_key, normal

_FLOATS = (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64)


def _float_param(op: str, x: Any, what: str = "x"):
    x = asarray(x)
    if x.aval.dtype not in _FLOATS:
        raise op_type_error(op, f"{what} must be a floating Tensor (float16, bfloat16, float32, float64), "
                                f"got {x.aval.str_short()}")
    return x


def bernoulli(x: Any, p: float | None = None, name: str | None = None) -> Any:
    """1.0 with probability x (or with probability `p` for every element, if given), else 0.0; x's dtype.

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> padax.bernoulli(padax.to_tensor([0.0, 1.0, 0.0, 1.0])).tolist()
        [0.0, 1.0, 0.0, 1.0]
    """
    x = _float_param("bernoulli", x)
    prob = x if p is None else broadcast_to(asarray(float(p), x.aval.dtype), x.aval.shape)
    key = next_key("bernoulli")
    hit = _eager(_samplers.bernoulli, key, convert_element_type(prob, dtypes.float32), x.aval.shape)
    return _eager(convert_element_type, hit, x.aval.dtype)


def poisson(x: Any, name: str | None = None) -> Any:
    """A Poisson(x) count per element, in x's float dtype.

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> x = padax.poisson(padax.full([1000], 3.0))
        >>> abs(float(x.mean()) - 3.0) < 0.2
        True
    """
    x = _float_param("poisson", x)
    key = next_key("poisson")
    n = _eager(_samplers.poisson, key, x, None, dtypes.int64)
    return _eager(convert_element_type, n, x.aval.dtype)


def standard_gamma(x: Any, name: str | None = None) -> Any:
    """A Gamma(x, 1) sample per element (x is the shape parameter), in x's float dtype.

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> x = padax.standard_gamma(padax.full([1000], 2.0))
        >>> abs(float(x.mean()) - 2.0) < 0.2, bool((x > 0).all())
        (True, True)
    """
    x = _float_param("standard_gamma", x)
    key = next_key("standard_gamma")
    return _eager(_samplers.gamma, key, x, None, x.aval.dtype)


def binomial(count: Any, prob: Any, name: str | None = None) -> Any:
    """A Binomial(count, prob) sample per element (count and prob broadcast together), as int64; count may
    be integer or float (whole numbers), as in Paddle.

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> padax.binomial(padax.to_tensor([5, 5]), padax.to_tensor([0.0, 1.0])).tolist()
        [0, 5]
    """
    count = asarray(count)
    if not (dtypes.is_integer(count.aval.dtype) or dtypes.is_floating(count.aval.dtype)):
        raise op_type_error("binomial", f"count must be a real Tensor, got {count.aval.str_short()}")
    prob = _float_param("binomial", prob, "prob")
    key = next_key("binomial")
    k = _eager(_samplers.binomial, key, count, prob, None, dtypes.float64)
    return _eager(convert_element_type, k, dtypes.canonicalize_dtype(dtypes.int64))


def multinomial(x: Any, num_samples: int = 1, replacement: bool = False, name: str | None = None, *,
                out: Any = None) -> Any:
    """`num_samples` category indices (int64) per row of the weights x ([K] or [N, K]; they need not sum to 1),
    drawn with replacement or without (then num_samples <= K and each index appears at most once). Negative
    or non-finite weights raise eagerly, as in Paddle (under jit they are not checked).

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> padax.multinomial(padax.to_tensor([0.0, 1.0, 0.0]), num_samples=3, replacement=True).tolist()
        [1, 1, 1]
        >>> sorted(padax.multinomial(padax.to_tensor([0.2, 0.3, 0.5]), num_samples=3).tolist())
        [0, 1, 2]
    """
    if out is not None:
        result = multinomial(
            x=x, num_samples=num_samples, replacement=replacement, name=name)
        return write_out(out, result, "multinomial")
    x = _float_param("multinomial", x)
    if x.aval.ndim not in (1, 2):
        raise op_value_error("multinomial", f"x must be 1-D or 2-D (rows of category weights), got "
                                            f"{x.aval.str_short()}")
    k = x.aval.shape[-1]
    num_samples = static_int("multinomial", num_samples, "num_samples")
    if num_samples < 1 or (not replacement and num_samples > k):
        raise op_value_error("multinomial", f"num_samples must be in [1, {k}] without replacement (>= 1 with), "
                                            f"got {num_samples}")
    if isinstance(x, Tensor):  # as Paddle: negative, non-finite or all-zero weights are refused (eagerly)
        w = np.asarray(x)
        if not np.isfinite(w).all() or (w < 0).any():
            bad = w[~np.isfinite(w) | (w < 0)].ravel()[0]
            raise op_value_error("multinomial", f"the weights must be finite and non-negative, got {bad}")
        if (w.reshape(-1, k).sum(axis=-1) <= 0).any():
            raise op_value_error("multinomial", "each row of weights must have a positive sum")
    key = next_key("multinomial")
    logits = _eager(log, convert_element_type(x, dtypes.float32) if x.aval.dtype != dtypes.float64 else x)
    idt = dtypes.canonicalize_dtype(dtypes.int64)
    batch = x.aval.shape[:-1]
    if replacement:
        draws = _eager(_samplers.categorical, key, logits, -1, (num_samples,) + batch)
        perm = tuple(range(1, len(batch) + 1)) + (0,)
        return _eager(convert_element_type, _eager(transpose, draws, perm), idt)
    # without replacement: the top num_samples of logits + Gumbel noise (Gumbel-top-k)
    noise = _eager(_samplers.gumbel, key, x.aval.shape, logits.aval.dtype)
    _, idx = _eager(top_k, _eager(add, logits, noise), num_samples)
    return _eager(convert_element_type, idx, idt)


def standard_normal(shape: Any, dtype: Any = None, name: str | None = None, *, out: Any = None,
                    device: Any = None, requires_grad: bool = False) -> Any:
    """Standard normal samples of `shape` (dtype default: the default float dtype).

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> padax.standard_normal([2, 3]).shape
        (2, 3)
    """
    if out is not None:
        result = standard_normal(
            shape=shape, dtype=dtype, name=name, device=device, requires_grad=requires_grad)
        return write_out(out, result, "standard_normal")
    key = next_key("standard_normal")
    return placed(_eager(_samplers.normal, key, _paddle_shape("standard_normal", shape),
                         dtypes.default_float_dtype() if dtype is None else dtypes.canonicalize_dtype(dtype)), device)


def log_normal(mean: Any = 1.0, std: Any = 2.0, shape: Any = None, name: str | None = None) -> Any:
    """exp of normal(mean, std, shape): samples whose logarithm has that mean and standard deviation.

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> x = padax.log_normal(mean=0.0, std=0.5, shape=[1000])
        >>> bool((x > 0).all()), abs(float(padax.log(x).mean())) < 0.1
        (True, True)
    """
    return _eager(exp, normal(mean, std, shape))


def _like_dtype(op: str, x: Any, dtype: Any):
    return aval_of(x).dtype if dtype is None else dtypes.canonicalize_dtype(dtypes.to_dtype(dtype))


def rand_like(input: Any, name: str | None = None, *, dtype: Any = None, device: Any = None,  # noqa: A002
              requires_grad: bool = False) -> Any:
    """Uniform [0, 1) samples of input's shape (and dtype, unless `dtype` is given).

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> x = padax.rand_like(padax.zeros([2, 2], dtype='float64'))
        >>> x.shape, x.dtype
        ((2, 2), dtype('float64'))
    """
    dt = _like_dtype("rand_like", input, dtype)
    key = next_key("rand_like")
    return placed(_eager(_samplers.uniform, key, aval_of(input).shape, dt), device)


def randn_like(x: Any, dtype: Any = None, name: str | None = None, *, device: Any = None,
               requires_grad: bool = False) -> Any:
    """Standard normal samples of x's shape (and dtype, unless `dtype` is given).

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> padax.randn_like(padax.zeros([3])).shape
        (3,)
    """
    dt = _like_dtype("randn_like", x, dtype)
    key = next_key("randn_like")
    return placed(_eager(_samplers.normal, key, aval_of(x).shape, dt), device)


def randint_like(x: Any, low: int = 0, high: int | None = None, dtype: Any = None, name: str | None = None) -> Any:
    """Uniform integers in [low, high) (or [0, low)) of x's shape, in x's dtype unless `dtype` is given
    (a float dtype holds whole numbers).

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> x = padax.randint_like(padax.zeros([4]), low=0, high=3)
        >>> x.dtype, bool(((x >= 0) & (x < 3)).all())
        (dtype('float32'), True)
    """
    if high is None:
        low, high = 0, low
    if int(high) <= int(low):
        raise op_value_error("randint_like", f"high ({high}) must be greater than low ({low})")
    dt = _like_dtype("randint_like", x, dtype)
    key = next_key("randint_like")
    draw_dt = dt if dtypes.is_integer(dt) else dtypes.canonicalize_dtype(dtypes.int64)
    v = _eager(_samplers.randint, key, aval_of(x).shape, int(low), int(high), draw_dt)
    return v if draw_dt == dt else _eager(convert_element_type, v, dt)
