"""jax.nn's lowercase functions in padax.nn, with jax's signatures and defaults.

`import padax as jax` finds `jax.nn.relu`, `jax.nn.gelu`, `jax.nn.softmax`, ... here; Paddle's
layers (`nn.ReLU`, `nn.Linear`) and its functional ops (`nn.functional.gelu`, whose default is the
exact erf form) keep their Paddle behaviour. Where the two differ the jax name follows jax:
`gelu` defaults to the tanh approximation, `one_hot` encodes out-of-range ids as zeros, `softmax`
and `log_softmax` take `where=`. All are compositions of padax.numpy operations, so jit, grad and
vmap apply.
"""
from __future__ import annotations

import math
from typing import Any

import padax.numpy as jnp
from padax import dtypes, lax
from padax.nn import functional as F
from padax.scipy.special import logsumexp

__all__ = ["celu", "elu", "gelu", "glu", "hard_sigmoid", "hard_silu", "hard_swish", "hard_tanh", "identity",
           "leaky_relu", "log1mexp", "log_sigmoid", "log_softmax", "logmeanexp", "logsumexp", "mish", "one_hot",
           "relu", "relu6", "selu", "sigmoid", "silu", "soft_sign", "softmax", "softplus", "sparse_plus",
           "sparse_sigmoid", "squareplus", "standardize", "swish", "tanh"]


def identity(x: Any) -> Any:
    """`x` unchanged (jax.nn.identity).

    Examples:
        >>> import padax
        >>> padax.nn.identity(padax.to_tensor([1.0, -1.0])).tolist()
        [1.0, -1.0]
    """
    return jnp.asarray(x)


def relu(x: Any) -> Any:
    """max(x, 0), with gradient 0 at 0 (jax.nn.relu).

    Examples:
        >>> import padax
        >>> padax.nn.relu(padax.to_tensor([-1.0, 2.0])).tolist()
        [0.0, 2.0]
    """
    return F.relu(jnp.asarray(x))


def relu6(x: Any) -> Any:
    """min(max(x, 0), 6) (jax.nn.relu6).

    Examples:
        >>> import padax
        >>> padax.nn.relu6(padax.to_tensor([-1.0, 7.0])).tolist()
        [0.0, 6.0]
    """
    return jnp.minimum(relu(x), 6.0)


def sigmoid(x: Any) -> Any:
    """1 / (1 + exp(-x)) (jax.nn.sigmoid).

    Examples:
        >>> import padax
        >>> padax.nn.sigmoid(padax.to_tensor([0.0])).tolist()
        [0.5]
    """
    return F.sigmoid(jnp.asarray(x))


def tanh(x: Any) -> Any:
    """The hyperbolic tangent (jax.nn.tanh).

    Examples:
        >>> import padax
        >>> padax.nn.tanh(padax.to_tensor([0.0])).tolist()
        [0.0]
    """
    return jnp.tanh(x)


def softplus(x: Any) -> Any:
    """log(1 + exp(x)), computed stably as logaddexp(x, 0) (jax.nn.softplus).

    Examples:
        >>> import padax
        >>> round(float(padax.nn.softplus(padax.to_tensor(0.0))), 5)
        0.69315
    """
    return jnp.logaddexp(x, 0.0)


def soft_sign(x: Any) -> Any:
    """x / (|x| + 1) (jax.nn.soft_sign).

    Examples:
        >>> import padax
        >>> padax.nn.soft_sign(padax.to_tensor([1.0, -3.0])).tolist()
        [0.5, -0.75]
    """
    x = jnp.asarray(x)
    return x / (jnp.abs(x) + 1)


def silu(x: Any) -> Any:
    """x * sigmoid(x) (jax.nn.silu, also `swish`).

    Examples:
        >>> import padax
        >>> padax.nn.silu(padax.to_tensor([0.0])).tolist()
        [0.0]
    """
    x = jnp.asarray(x)
    return x * sigmoid(x)


swish = silu


def log_sigmoid(x: Any) -> Any:
    """log(sigmoid(x)) = -softplus(-x) (jax.nn.log_sigmoid).

    Examples:
        >>> import padax
        >>> round(float(padax.nn.log_sigmoid(padax.to_tensor(0.0))), 5)
        -0.69315
    """
    return -softplus(-jnp.asarray(x))


def mish(x: Any) -> Any:
    """x * tanh(softplus(x)) (jax.nn.mish).

    Examples:
        >>> import padax
        >>> padax.nn.mish(padax.to_tensor([0.0])).tolist()
        [0.0]
    """
    x = jnp.asarray(x)
    return x * jnp.tanh(softplus(x))


def elu(x: Any, alpha: Any = 1.0) -> Any:
    """x for x > 0, else alpha * (exp(x) - 1) (jax.nn.elu).

    Examples:
        >>> import padax
        >>> round(float(padax.nn.elu(padax.to_tensor(-1.0))), 5)
        -0.63212
    """
    x = jnp.asarray(x)
    safe = jnp.where(x > 0, 0.0, x)
    return jnp.where(x > 0, x, alpha * jnp.expm1(safe))


def celu(x: Any, alpha: Any = 1.0) -> Any:
    """max(x, 0) + alpha * min(exp(x / alpha) - 1, 0) (jax.nn.celu).

    Examples:
        >>> import padax
        >>> round(float(padax.nn.celu(padax.to_tensor(-1.0), alpha=2.0)), 5)
        -0.78694
    """
    x = jnp.asarray(x)
    return jnp.maximum(x, 0.0) + alpha * jnp.expm1(jnp.minimum(x, 0.0) / alpha)


def selu(x: Any) -> Any:
    """scale * elu(x, alpha) with the self-normalising constants (jax.nn.selu).

    Examples:
        >>> import padax
        >>> round(float(padax.nn.selu(padax.to_tensor(1.0))), 5)
        1.0507
    """
    alpha, scale = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946
    return scale * elu(x, alpha)


def leaky_relu(x: Any, negative_slope: Any = 1e-2) -> Any:
    """x for x >= 0, else negative_slope * x (jax.nn.leaky_relu).

    Examples:
        >>> import padax
        >>> padax.nn.leaky_relu(padax.to_tensor([-2.0, 3.0]), 0.5).tolist()
        [-1.0, 3.0]
    """
    x = jnp.asarray(x)
    return jnp.where(x >= 0, x, negative_slope * x)


def hard_tanh(x: Any) -> Any:
    """x clipped to [-1, 1] (jax.nn.hard_tanh).

    Examples:
        >>> import padax
        >>> padax.nn.hard_tanh(padax.to_tensor([-2.0, 0.5, 3.0])).tolist()
        [-1.0, 0.5, 1.0]
    """
    x = jnp.asarray(x)
    return jnp.where(x > 1, 1.0, jnp.where(x < -1, -1.0, x))


def hard_sigmoid(x: Any) -> Any:
    """relu6(x + 3) / 6 (jax.nn.hard_sigmoid).

    Examples:
        >>> import padax
        >>> padax.nn.hard_sigmoid(padax.to_tensor([0.0, 3.0])).tolist()
        [0.5, 1.0]
    """
    return relu6(jnp.asarray(x) + 3.0) / 6.0


def hard_silu(x: Any) -> Any:
    """x * hard_sigmoid(x) (jax.nn.hard_silu, also `hard_swish`).

    Examples:
        >>> import padax
        >>> padax.nn.hard_silu(padax.to_tensor([3.0])).tolist()
        [3.0]
    """
    x = jnp.asarray(x)
    return x * hard_sigmoid(x)


hard_swish = hard_silu


def sparse_plus(x: Any) -> Any:
    """0 for x <= -1, (x + 1)^2 / 4 for |x| < 1, x for x >= 1: a smooth, sparse relu (jax.nn.sparse_plus).

    Examples:
        >>> import padax
        >>> padax.nn.sparse_plus(padax.to_tensor([-2.0, 0.0, 2.0])).tolist()
        [0.0, 0.25, 2.0]
    """
    x = jnp.asarray(x)
    return jnp.where(x <= -1.0, 0.0, jnp.where(x >= 1.0, x, (x + 1.0) ** 2 / 4))


def sparse_sigmoid(x: Any) -> Any:
    """The derivative of sparse_plus: 0, (x + 1) / 2, 1 on the same pieces (jax.nn.sparse_sigmoid).

    Examples:
        >>> import padax
        >>> padax.nn.sparse_sigmoid(padax.to_tensor([-2.0, 0.0, 2.0])).tolist()
        [0.0, 0.5, 1.0]
    """
    x = jnp.asarray(x)
    return 0.5 * jnp.clip(x + 1.0, 0.0, 2.0)


def squareplus(x: Any, b: Any = 4) -> Any:
    """(x + sqrt(x^2 + b)) / 2, a smooth relu (jax.nn.squareplus).

    Examples:
        >>> import padax
        >>> padax.nn.squareplus(padax.to_tensor([0.0])).tolist()
        [1.0]
    """
    x = jnp.asarray(x)
    return (x + jnp.sqrt(x * x + b)) / 2


def log1mexp(x: Any) -> Any:
    """log(1 - exp(-x)) for x > 0, stable on both ends (jax.nn.log1mexp).

    Examples:
        >>> import padax
        >>> round(float(padax.nn.log1mexp(padax.to_tensor(1.0))), 5)
        -0.45868
    """
    x = jnp.asarray(x)
    return jnp.where(x < math.log(2.0), jnp.log(-jnp.expm1(-x)), jnp.log1p(-jnp.exp(-x)))


def gelu(x: Any, approximate: bool = True) -> Any:
    """The Gaussian error linear unit; jax's default is the tanh approximation (jax.nn.gelu).

    Paddle's `nn.functional.gelu` defaults to the exact form (approximate=False).

    Examples:
        >>> import padax
        >>> round(float(padax.nn.gelu(padax.to_tensor(1.0))), 5)
        0.84119
    """
    return F.gelu(jnp.asarray(x), approximate=bool(approximate))


def glu(x: Any, axis: int = -1) -> Any:
    """a * sigmoid(b) for the two halves a, b of `x` along `axis` (jax.nn.glu).

    Examples:
        >>> import padax
        >>> padax.nn.glu(padax.to_tensor([2.0, 0.0])).tolist()
        [1.0]
    """
    x = jnp.asarray(x)
    n = x.shape[axis]
    if n % 2:
        raise ValueError(f"glu: the size of axis {axis} must be even, got {n} (shape {list(x.shape)})")
    a, b = jnp.split(x, 2, axis=axis)
    return a * sigmoid(b)


def _masked(x: Any, where: Any, fill: float) -> Any:
    return x if where is None else jnp.where(where, x, fill)


def log_softmax(x: Any, axis: Any = -1, where: Any = None, initial: Any = None) -> Any:
    """x - logsumexp(x) along `axis`; entries outside `where` are excluded (jax.nn.log_softmax).

    Examples:
        >>> import padax
        >>> [round(v, 4) for v in padax.nn.log_softmax(padax.to_tensor([0.0, 0.0])).tolist()]
        [-0.6931, -0.6931]
    """
    x = jnp.asarray(x)
    shifted = x - lax.stop_gradient(jnp.max(_masked(x, where, -jnp.inf), axis=axis, keepdims=True))
    lse = jnp.log(jnp.sum(_masked(jnp.exp(shifted), where, 0.0), axis=axis, keepdims=True))
    out = shifted - lse
    return out if where is None else jnp.where(where, out, -jnp.inf)


def softmax(x: Any, axis: Any = -1, where: Any = None, initial: Any = None) -> Any:
    """exp(x) / sum(exp(x)) along `axis`; entries outside `where` get 0 (jax.nn.softmax).

    Examples:
        >>> import padax
        >>> padax.nn.softmax(padax.to_tensor([1.0, 1.0])).tolist()
        [0.5, 0.5]
    """
    x = jnp.asarray(x)
    unnormalized = jnp.exp(x - lax.stop_gradient(jnp.max(_masked(x, where, -jnp.inf), axis=axis, keepdims=True)))
    unnormalized = _masked(unnormalized, where, 0.0)
    return unnormalized / jnp.sum(unnormalized, axis=axis, keepdims=True)


def logmeanexp(x: Any, axis: Any = None, where: Any = None, keepdims: bool = False) -> Any:
    """log(mean(exp(x))) along `axis`, stably (jax.nn.logmeanexp).

    Examples:
        >>> import padax
        >>> float(padax.nn.logmeanexp(padax.to_tensor([0.0, 0.0])))
        0.0
    """
    x = jnp.asarray(x)
    lse = logsumexp(_masked(x, where, -jnp.inf), axis=axis, keepdims=keepdims)
    count = jnp.sum(jnp.ones_like(x) if where is None else jnp.asarray(where, x.dtype), axis=axis,
                    keepdims=keepdims)
    return lse - jnp.log(count)


def standardize(x: Any, axis: Any = -1, mean: Any = None, variance: Any = None, epsilon: float = 1e-5,
                where: Any = None) -> Any:
    """(x - mean) / sqrt(variance + epsilon), the statistics taken along `axis` unless given
    (jax.nn.standardize).

    Examples:
        >>> import padax
        >>> [round(v, 3) for v in padax.nn.standardize(padax.to_tensor([1.0, 3.0])).tolist()]
        [-1.0, 1.0]
    """
    x = jnp.asarray(x)
    if mean is None:
        mean = jnp.mean(x, axis=axis, keepdims=True, where=where)
    if variance is None:
        variance = jnp.mean(jnp.square(x), axis=axis, keepdims=True, where=where) - jnp.square(mean)
    return jnp.subtract(x, mean) * lax.rsqrt(variance + epsilon)


def one_hot(x: Any, num_classes: int, *, dtype: Any = None, axis: Any = -1) -> Any:
    """One-hot vectors of length `num_classes` along `axis`; ids outside [0, num_classes) give all
    zeros, as in jax (Paddle's `nn.functional.one_hot` refuses them instead).

    Examples:
        >>> import padax
        >>> padax.nn.one_hot(padax.to_tensor([0, 2, 5]), 3).tolist()
        [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, 0.0]]
    """
    if not isinstance(num_classes, int) or isinstance(num_classes, bool):
        raise TypeError(f"one_hot: num_classes must be a Python int, got {type(num_classes).__name__}")
    x = jnp.asarray(x)
    out_axis = axis % (x.ndim + 1) if isinstance(axis, int) else axis
    ids = jnp.expand_dims(x, out_axis)
    shape = [1] * (x.ndim + 1)
    shape[out_axis] = num_classes
    classes = jnp.arange(num_classes, dtype=x.dtype).reshape(shape)
    return jnp.asarray(ids == classes, dtype if dtype is not None else dtypes.default_float_dtype())
