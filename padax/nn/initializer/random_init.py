"""Random initializers with Paddle's names and formulas: Normal, TruncatedNormal, Uniform, Xavier*, Kaiming*."""
from __future__ import annotations

import math

from padax.nn.initializer._base import Initializer, calculate_gain, compute_fans, random_key
from padax.random import _samplers


class Normal(Initializer):
    """Samples of N(mean, std^2).

    Args:
        mean, std: the mean and standard deviation.

    Returns:
        init(shape, dtype=None, key=None) (or init(param)) -> a Tensor of that shape (default float dtype).

    Examples:
        >>> import padax
        >>> w = padax.nn.initializer.Normal(mean=2.0, std=0.5)([10000], key=padax.random.key(0))
        >>> round(float(w.mean()), 1), round(float(w.std()), 1)
        (2.0, 0.5)
    """

    _random = True

    def __init__(self, mean: float = 0.0, std: float = 1.0, name: str | None = None) -> None:
        self.mean, self.std = float(mean), float(std)

    def _init(self, shape, dtype, key):
        z = _samplers.normal(random_key(key, "Normal"), shape, dtype)
        return z * self.std + self.mean


class TruncatedNormal(Initializer):
    """Samples of N(mean, std^2) conditioned on a <= x <= b (a, b are absolute cut-offs, as in Paddle).

    Args:
        mean, std: the mean and standard deviation before truncation.
        a, b: the absolute cut-offs.

    Returns:
        init(shape, dtype=None, key=None) (or init(param)) -> a Tensor of that shape (default float dtype).

    Examples:
        >>> import padax
        >>> w = padax.nn.initializer.TruncatedNormal(std=1.0, a=-1.0, b=1.0)([1000], key=padax.random.key(0))
        >>> bool(w.min() >= -1.0), bool(w.max() <= 1.0)
        (True, True)
    """

    _random = True

    def __init__(self, mean: float = 0.0, std: float = 1.0, a: float = -2.0, b: float = 2.0,
                 name: str | None = None) -> None:
        if not a < b:
            raise ValueError(f"TruncatedNormal: need a < b, got a={a}, b={b}")
        self.mean, self.std, self.a, self.b = float(mean), float(std), float(a), float(b)

    def _init(self, shape, dtype, key):
        lo, hi = (self.a - self.mean) / self.std, (self.b - self.mean) / self.std
        z = _samplers.truncated_normal(random_key(key, "TruncatedNormal"), lo, hi, shape, dtype)
        return z * self.std + self.mean


class Uniform(Initializer):
    """Samples of U[low, high).

    Args:
        low, high: the range.

    Returns:
        init(shape, dtype=None, key=None) (or init(param)) -> a Tensor of that shape (default float dtype).

    Examples:
        >>> import padax
        >>> w = padax.nn.initializer.Uniform(low=2.0, high=3.0)([1000], key=padax.random.key(0))
        >>> bool(w.min() >= 2.0), bool(w.max() < 3.0), round(float(w.mean()), 1)
        (True, True, 2.5)
    """

    _random = True

    def __init__(self, low: float = -1.0, high: float = 1.0, name: str | None = None) -> None:
        if high < low:
            raise ValueError(f"Uniform: high ({high}) must be >= low ({low})")
        self.low, self.high = float(low), float(high)

    def _init(self, shape, dtype, key):
        return _samplers.uniform(random_key(key, "Uniform"), shape, dtype, self.low, self.high)


def _xavier_fans(init, shape):
    fan_in, fan_out = compute_fans(shape)
    return (fan_in if init.fan_in is None else init.fan_in), (fan_out if init.fan_out is None else init.fan_out)


class _Xavier(Initializer):
    """Glorot's initializers: the scale comes from fan_in + fan_out (taken from the shape unless given)."""

    _random = True

    def __init__(self, fan_in: float | None = None, fan_out: float | None = None, gain: float = 1.0,
                 name: str | None = None) -> None:
        self.fan_in, self.fan_out, self.gain = fan_in, fan_out, float(gain)


class XavierUniform(_Xavier):
    """U[-limit, limit], limit = gain * sqrt(6 / (fan_in + fan_out)) (Paddle's default for weights).

    Args:
        fan_in, fan_out: the fans to use (None: computed from the shape).
        gain: a multiplier of the scale.

    Returns:
        init(shape, dtype=None, key=None) (or init(param)) -> a Tensor of that shape (default float dtype).

    Examples:
        >>> import padax
        >>> w = padax.nn.initializer.XavierUniform()([200, 300], key=padax.random.key(0))  # limit sqrt(6 / 500)
        >>> round(float(w.abs().max()), 2), round(float(w.std()), 3)
        (0.11, 0.063)
    """

    def _init(self, shape, dtype, key):
        fan_in, fan_out = _xavier_fans(self, shape)
        limit = 0.0 if fan_in + fan_out == 0 else self.gain * math.sqrt(6.0 / (fan_in + fan_out))
        return _samplers.uniform(random_key(key, "XavierUniform"), shape, dtype, -limit, limit)


class XavierNormal(_Xavier):
    """N(0, std^2), std = gain * sqrt(2 / (fan_in + fan_out)).

    Args:
        fan_in, fan_out: the fans to use (None: computed from the shape).
        gain: a multiplier of the scale.

    Returns:
        init(shape, dtype=None, key=None) (or init(param)) -> a Tensor of that shape (default float dtype).

    Examples:
        >>> import padax
        >>> w = padax.nn.initializer.XavierNormal()([200, 300], key=padax.random.key(0))  # std sqrt(2 / 500)
        >>> round(float(w.std()), 3)
        0.063
    """

    def _init(self, shape, dtype, key):
        fan_in, fan_out = _xavier_fans(self, shape)
        std = 0.0 if fan_in + fan_out == 0 else self.gain * math.sqrt(2.0 / (fan_in + fan_out))
        return _samplers.normal(random_key(key, "XavierNormal"), shape, dtype) * std


class _Kaiming(Initializer):
    _random = True

    def __init__(self, fan_in: float | None = None, negative_slope: float = 0.0, nonlinearity: str = "relu",
                 mode: str = "fan_in") -> None:
        if mode not in ("fan_in", "fan_out"):
            raise ValueError(f"{type(self).__name__}: mode must be 'fan_in' or 'fan_out', got {mode!r}")
        if mode == "fan_out" and fan_in is not None:
            raise ValueError(f"{type(self).__name__}: mode is 'fan_out' but fan_in is set; leave fan_in None")
        calculate_gain(nonlinearity, negative_slope)  # validates the name
        self.fan_in, self.negative_slope, self.nonlinearity, self.mode = fan_in, float(negative_slope), \
            nonlinearity, mode

    def _fan_and_gain(self, shape):
        f_in, f_out = compute_fans(shape)
        fan = (f_in if self.fan_in is None else self.fan_in) if self.mode == "fan_in" else f_out
        return fan, calculate_gain(self.nonlinearity, self.negative_slope)


class KaimingNormal(_Kaiming):
    """N(0, std^2), std = gain / sqrt(fan) (fan_in, or fan_out with mode='fan_out').

    Args:
        fan_in: the fan-in to use (None: from the shape; must be None with mode='fan_out').
        negative_slope: the slope passed to calculate_gain for 'leaky_relu'.
        nonlinearity: the activation the gain is computed for.
        mode: 'fan_in' (keeps the forward variance) or 'fan_out' (the backward one).

    Returns:
        init(shape, dtype=None, key=None) (or init(param)) -> a Tensor of that shape (default float dtype).

    Examples:
        >>> import padax
        >>> w = padax.nn.initializer.KaimingNormal()([800, 100], key=padax.random.key(0))  # std sqrt(2 / fan_in=800)
        >>> round(float(w.std()), 3)
        0.05
    """

    def _init(self, shape, dtype, key):
        fan, gain = self._fan_and_gain(shape)
        std = 0.0 if fan == 0 else gain / math.sqrt(fan)
        return _samplers.normal(random_key(key, "KaimingNormal"), shape, dtype) * std


class KaimingUniform(_Kaiming):
    """U[-limit, limit], limit = gain * sqrt(3 / fan).

    Args:
        fan_in: the fan-in to use (None: from the shape; must be None with mode='fan_out').
        negative_slope: the slope passed to calculate_gain for 'leaky_relu'.
        nonlinearity: the activation the gain is computed for.
        mode: 'fan_in' (keeps the forward variance) or 'fan_out' (the backward one).

    Returns:
        init(shape, dtype=None, key=None) (or init(param)) -> a Tensor of that shape (default float dtype).

    Examples:
        >>> import padax
        >>> w = padax.nn.initializer.KaimingUniform()([600, 100], key=padax.random.key(0))  # limit sqrt(6 / fan_in=600)
        >>> round(float(w.abs().max()), 2)
        0.1
        >>> padax.nn.Conv2D(4, 8, 3, weight_attr=padax.nn.initializer.KaimingUniform()).weight.shape
        (8, 4, 3, 3)
    """

    def _init(self, shape, dtype, key):
        fan, gain = self._fan_and_gain(shape)
        limit = 0.0 if fan == 0 else gain * math.sqrt(3.0 / fan)
        return _samplers.uniform(random_key(key, "KaimingUniform"), shape, dtype, -limit, limit)
