"""jax.nn.initializers: functions `init(key, shape, dtype)` that draw initial weights from a key.

jax's functional counterparts of Paddle's initializer classes (`padax.nn.initializer`, singular):
each builder returns an `init` function, so `padax.nn.initializers.glorot_uniform()(key, (3, 4))`
gives the same numbers as jax for the same key (padax.random is bit-compatible with jax.random).
Fans follow jax: the input axis -2, the output axis -1, other axes the receptive field.
"""
from __future__ import annotations

import math
from typing import Any, Callable, Sequence

import numpy as np

import padax.numpy as jnp
from padax import dtypes, random

Initializer = Callable[..., Any]

__all__ = ["Initializer", "constant", "delta_orthogonal", "glorot_normal", "glorot_uniform", "he_normal",
           "he_uniform", "kaiming_normal", "kaiming_uniform", "lecun_normal", "lecun_uniform", "normal", "ones",
           "orthogonal", "truncated_normal", "uniform", "variance_scaling", "xavier_normal", "xavier_uniform",
           "zeros"]


def _dtype(dtype: Any) -> Any:
    return dtypes.default_float_dtype() if dtype is None else dtype


def zeros(key: Any, shape: Sequence[int], dtype: Any = None) -> Any:
    """An array of zeros (the key is not used).

    Examples:
        >>> import padax
        >>> padax.nn.initializers.zeros(padax.random.key(0), (2,)).tolist()
        [0.0, 0.0]
    """
    return jnp.zeros(shape, _dtype(dtype))


def ones(key: Any, shape: Sequence[int], dtype: Any = None) -> Any:
    """An array of ones (the key is not used).

    Examples:
        >>> import padax
        >>> padax.nn.initializers.ones(padax.random.key(0), (2,)).tolist()
        [1.0, 1.0]
    """
    return jnp.ones(shape, _dtype(dtype))


def constant(value: Any, dtype: Any = None) -> Initializer:
    """An initializer filling arrays with `value`.

    Examples:
        >>> import padax
        >>> padax.nn.initializers.constant(-7)(padax.random.key(0), (2,)).tolist()
        [-7.0, -7.0]
    """
    def init(key: Any, shape: Sequence[int], dtype: Any = dtype) -> Any:
        return jnp.full(shape, value, dtype=_dtype(dtype))
    return init


def uniform(scale: Any = 1e-2, dtype: Any = None) -> Initializer:
    """An initializer drawing uniformly from [0, scale).

    Examples:
        >>> import padax
        >>> padax.nn.initializers.uniform(1.0)(padax.random.key(0), (3,)).shape
        (3,)
    """
    def init(key: Any, shape: Sequence[int], dtype: Any = dtype) -> Any:
        dt = _dtype(dtype)
        return random.uniform(key, tuple(shape), dt) * jnp.asarray(scale, dt)
    return init


def normal(stddev: Any = 1e-2, dtype: Any = None) -> Initializer:
    """An initializer drawing from a normal distribution with mean 0 and `stddev`.

    Examples:
        >>> import padax
        >>> padax.nn.initializers.normal(1.0)(padax.random.key(0), (2, 2)).shape
        (2, 2)
    """
    def init(key: Any, shape: Sequence[int], dtype: Any = dtype) -> Any:
        dt = _dtype(dtype)
        return random.normal(key, tuple(shape), dt) * jnp.asarray(stddev, dt)
    return init


def truncated_normal(stddev: Any = 1e-2, dtype: Any = None, lower: Any = -2.0, upper: Any = 2.0) -> Initializer:
    """An initializer drawing a normal truncated to [lower, upper], then scaled by `stddev` (no
    variance correction, as jax).

    Examples:
        >>> import padax
        >>> w = padax.nn.initializers.truncated_normal(1.0)(padax.random.key(0), (100,))
        >>> bool((abs(w) <= 2.0).all())
        True
    """
    def init(key: Any, shape: Sequence[int], dtype: Any = dtype) -> Any:
        dt = _dtype(dtype)
        return random.truncated_normal(key, lower, upper, tuple(shape), dt) * jnp.asarray(stddev, dt)
    return init


def _axes_size(shape: Sequence[int], axes: Any) -> int:
    return shape[axes] if isinstance(axes, int) else math.prod(shape[i] for i in axes)


def _compute_fans(shape: Sequence[int], in_axis: Any, out_axis: Any, batch_axis: Any) -> tuple[float, float]:
    if isinstance(in_axis, int) and in_axis == -2 and len(shape) <= 1:
        raise ValueError(f"variance_scaling: cannot compute the fans of a {len(shape)}-D weight (shape "
                         f"{list(shape)}) with the default in_axis=-2; give in_axis explicitly")
    fan_in, fan_out = _axes_size(shape, in_axis), _axes_size(shape, out_axis)
    receptive = math.prod(shape) / fan_in / fan_out / _axes_size(shape, batch_axis)
    return fan_in * receptive, fan_out * receptive


def variance_scaling(scale: float, mode: str, distribution: str, in_axis: Any = -2, out_axis: Any = -1,
                     batch_axis: Any = (), dtype: Any = None) -> Initializer:
    """An initializer whose variance is `scale` divided by the fan (`mode`: fan_in, fan_out, fan_avg or
    fan_geo_avg), drawn from `distribution` (truncated_normal, normal or uniform), as jax's.

    Examples:
        >>> import padax
        >>> init = padax.nn.initializers.variance_scaling(2.0, "fan_in", "normal")
        >>> init(padax.random.key(0), (64, 32)).shape
        (64, 32)
    """
    modes = ("fan_in", "fan_out", "fan_avg", "fan_geo_avg")
    if mode not in modes:
        raise ValueError(f"variance_scaling: mode must be one of {modes}, got {mode!r}")
    if distribution not in ("truncated_normal", "normal", "uniform"):
        raise ValueError(f"variance_scaling: distribution must be 'truncated_normal', 'normal' or 'uniform', "
                         f"got {distribution!r}")

    def init(key: Any, shape: Sequence[int], dtype: Any = dtype) -> Any:
        dt, shape = _dtype(dtype), tuple(shape)
        fan_in, fan_out = _compute_fans(shape, in_axis, out_axis, batch_axis)
        denominator = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2,
                       "fan_geo_avg": (fan_in * fan_out) ** 0.5}[mode]
        variance = jnp.asarray(scale / denominator, dt)
        if distribution == "truncated_normal":
            # the standard deviation of a unit normal truncated to [-2, 2]
            stddev = jnp.sqrt(variance) / jnp.asarray(0.87962566103423978, dt)
            return random.truncated_normal(key, -2, 2, shape, dt) * stddev
        if distribution == "normal":
            return random.normal(key, shape, dt) * jnp.sqrt(variance)
        return random.uniform(key, shape, dt, -1, 1) * jnp.sqrt(3 * variance)
    return init


def glorot_uniform(in_axis: Any = -2, out_axis: Any = -1, batch_axis: Any = (), dtype: Any = None) -> Initializer:
    """Glorot (Xavier) uniform: variance_scaling(1.0, "fan_avg", "uniform")."""
    return variance_scaling(1.0, "fan_avg", "uniform", in_axis, out_axis, batch_axis, dtype)


def glorot_normal(in_axis: Any = -2, out_axis: Any = -1, batch_axis: Any = (), dtype: Any = None) -> Initializer:
    """Glorot (Xavier) normal: variance_scaling(1.0, "fan_avg", "truncated_normal")."""
    return variance_scaling(1.0, "fan_avg", "truncated_normal", in_axis, out_axis, batch_axis, dtype)


def lecun_uniform(in_axis: Any = -2, out_axis: Any = -1, batch_axis: Any = (), dtype: Any = None) -> Initializer:
    """LeCun uniform: variance_scaling(1.0, "fan_in", "uniform")."""
    return variance_scaling(1.0, "fan_in", "uniform", in_axis, out_axis, batch_axis, dtype)


def lecun_normal(in_axis: Any = -2, out_axis: Any = -1, batch_axis: Any = (), dtype: Any = None) -> Initializer:
    """LeCun normal: variance_scaling(1.0, "fan_in", "truncated_normal")."""
    return variance_scaling(1.0, "fan_in", "truncated_normal", in_axis, out_axis, batch_axis, dtype)


def he_uniform(in_axis: Any = -2, out_axis: Any = -1, batch_axis: Any = (), dtype: Any = None) -> Initializer:
    """He (Kaiming) uniform: variance_scaling(2.0, "fan_in", "uniform")."""
    return variance_scaling(2.0, "fan_in", "uniform", in_axis, out_axis, batch_axis, dtype)


def he_normal(in_axis: Any = -2, out_axis: Any = -1, batch_axis: Any = (), dtype: Any = None) -> Initializer:
    """He (Kaiming) normal: variance_scaling(2.0, "fan_in", "truncated_normal")."""
    return variance_scaling(2.0, "fan_in", "truncated_normal", in_axis, out_axis, batch_axis, dtype)


xavier_uniform, xavier_normal = glorot_uniform, glorot_normal
kaiming_uniform, kaiming_normal = he_uniform, he_normal


def _random_orthogonal(key: Any, n: int, m: int, dtype: Any) -> Any:
    """An (n, m) matrix with orthonormal columns (rows if n < m), Haar-distributed: the QR factor of a
    normal draw with the signs of R's diagonal folded in."""
    z = random.normal(key, (max(n, m), min(n, m)), dtype)
    q, r = jnp.linalg.qr(z)
    q = q * jnp.expand_dims(jnp.sign(jnp.diagonal(r, axis1=-2, axis2=-1)), -2)
    return q.T if n < m else q


def orthogonal(scale: Any = 1.0, column_axis: int = -1, dtype: Any = None) -> Initializer:
    """An initializer of (scaled) orthogonal matrices, the rest of the shape flattened into rows.

    Examples:
        >>> import padax, numpy as np
        >>> w = padax.nn.initializers.orthogonal()(padax.random.key(0), (3, 3))
        >>> bool(np.allclose(np.asarray(w).T @ np.asarray(w), np.eye(3), atol=1e-5))
        True
    """
    def init(key: Any, shape: Sequence[int], dtype: Any = dtype) -> Any:
        dt, shape = _dtype(dtype), tuple(shape)
        if len(shape) < 2:
            raise ValueError(f"orthogonal: needs at least a 2-D shape, got {list(shape)}")
        if 0 in shape:
            return jnp.zeros(shape, dt)
        n_cols = shape[column_axis]
        q = _random_orthogonal(key, math.prod(shape) // n_cols, n_cols, dt)
        q = jnp.reshape(q, tuple(np.delete(shape, column_axis)) + (n_cols,))
        return jnp.asarray(scale, dt) * jnp.moveaxis(q, -1, column_axis)
    return init


def delta_orthogonal(scale: Any = 1.0, column_axis: int = -1, dtype: Any = None) -> Initializer:
    """An initializer for 3-5-D convolution kernels: an orthogonal matrix at the spatial centre, zeros
    elsewhere (the delta-orthogonal kernel).

    Examples:
        >>> import padax
        >>> padax.nn.initializers.delta_orthogonal()(padax.random.key(0), (3, 2, 2)).shape
        (3, 2, 2)
    """
    def init(key: Any, shape: Sequence[int], dtype: Any = dtype) -> Any:
        dt, shape = _dtype(dtype), tuple(shape)
        if len(shape) not in (3, 4, 5):
            raise ValueError(f"delta_orthogonal: needs a 3-D, 4-D or 5-D shape, got {list(shape)}")
        if shape[-1] < shape[-2]:
            raise ValueError(f"delta_orthogonal: fan_in (shape[-2] = {shape[-2]}) must be at most fan_out "
                             f"(shape[-1] = {shape[-1]})")
        centre = tuple((k - 1) // 2 for k in shape[:-2])
        ortho = orthogonal(scale, column_axis, dt)(key, shape[-2:])
        return jnp.zeros(shape, dt).at[centre].set(ortho)
    return init
