"""Distributions built from others: Independent, TransformedDistribution, and the two Paddle
defines as transformed ones, LogNormal (exp of a Normal) and Gumbel (an affine map of a
standard Gumbel)."""
from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from padax import numpy as pnp, random
from padax.core.errors import op_value_error
from padax.distribution._base import Distribution, as_params, as_value, check_param
from padax.distribution._continuous import Normal, Uniform
from padax.distribution.transform import AffineTransform, ChainTransform, ExpTransform, Transform, Type, _sum_rightmost


class Independent(Distribution):
    """`base` with its `reinterpreted_batch_rank` rightmost batch axes made part of the event.

    Args:
        base: the distribution to reinterpret.
        reinterpreted_batch_rank: how many rightmost batch axes join the event (1 .. len(base.batch_shape)).

    Examples:
        >>> import padax
        >>> from padax import distribution
        >>> base = distribution.Normal(padax.zeros([3]), padax.ones([3]))
        >>> d = distribution.Independent(base, 1)
        >>> d.batch_shape, d.event_shape
        ((), (3,))
        >>> float(d.log_prob(padax.zeros([3])))
        -2.7568
    """

    def __init__(self, base: Distribution, reinterpreted_batch_rank: int) -> None:
        if not isinstance(base, Distribution):
            raise TypeError(f"Independent: base must be a Distribution, got {type(base).__name__}")
        n = int(reinterpreted_batch_rank)
        if not 0 < n <= len(base.batch_shape):
            raise op_value_error("Independent", f"reinterpreted_batch_rank must be in (0, {len(base.batch_shape)}], "
                                                f"got {reinterpreted_batch_rank}")
        self._params(base=base)
        self.reinterpreted_batch_rank = n
        shape = base.batch_shape + base.event_shape
        cut = len(base.batch_shape) - n
        super().__init__(shape[:cut], shape[cut:])

    @property
    def mean(self):
        return self.base.mean

    @property
    def variance(self):
        return self.base.variance

    def sample(self, shape: Sequence[int] = (), key: Any = None):
        return self.base.sample(shape, key)

    def rsample(self, shape: Sequence[int] = (), key: Any = None):
        return self.base.rsample(shape, key)

    def log_prob(self, value):
        return _sum_rightmost(self.base.log_prob(value), self.reinterpreted_batch_rank)

    def entropy(self):
        return _sum_rightmost(self.base.entropy(), self.reinterpreted_batch_rank)


class TransformedDistribution(Distribution):
    """The distribution of f(X) for X ~ base and f the composition of `transforms`.

    Args:
        base: the distribution of X.
        transforms: a sequence of Transforms applied in order (the first to X).

    Examples:
        >>> import padax
        >>> from padax import distribution
        >>> d = distribution.TransformedDistribution(distribution.Normal(0.0, 1.0), [distribution.ExpTransform()])
        >>> float(d.log_prob(padax.to_tensor(1.0)))
        -0.9189
        >>> d.sample([2], key=padax.random.key(0)).shape
        (2,)
    """

    def __init__(self, base: Distribution, transforms: Sequence[Transform]) -> None:
        if not isinstance(base, Distribution):
            raise TypeError(f"TransformedDistribution: base must be a Distribution, got {type(base).__name__}")
        transforms = tuple(transforms)
        if not all(isinstance(t, Transform) for t in transforms):
            raise TypeError("TransformedDistribution: every element of transforms must be a Transform")
        chain = ChainTransform(transforms)
        base_shape = base.batch_shape + base.event_shape
        if len(base_shape) < chain._domain_rank:
            raise op_value_error("TransformedDistribution", f"the base's shape {base_shape} has fewer dimensions "
                                                            f"than the transforms need ({chain._domain_rank})")
        if chain._domain_rank > len(base.event_shape):
            base = Independent(base, chain._domain_rank - len(base.event_shape))
        self._params(_base=base, _transforms=transforms)
        shape = chain.forward_shape(base.batch_shape + base.event_shape)
        rank = chain._codomain_rank + max(len(base.event_shape) - chain._domain_rank, 0)
        super().__init__(shape[:len(shape) - rank], shape[len(shape) - rank:])

    @property
    def base(self) -> Distribution:
        return self._base

    @property
    def transforms(self) -> tuple[Transform, ...]:
        return self._transforms

    def sample(self, shape: Sequence[int] = (), key: Any = None):
        x = self._base.sample(shape, key)
        for t in self._transforms:
            x = t.forward(x)
        return x

    def rsample(self, shape: Sequence[int] = (), key: Any = None):
        x = self._base.rsample(shape, key)
        for t in self._transforms:
            x = t.forward(x)
        return x

    def log_prob(self, value):
        y = value
        log_prob = 0.0
        rank = len(self.event_shape)
        for t in reversed(self._transforms):
            x = t.inverse(y)
            rank += t._domain_rank - t._codomain_rank
            log_prob = log_prob - _sum_rightmost(t.forward_log_det_jacobian(x), rank - t._domain_rank)
            y = x
        return log_prob + _sum_rightmost(self._base.log_prob(y), rank - len(self._base.event_shape))


class LogNormal(TransformedDistribution):
    """exp(X) for X ~ Normal(loc, scale).

    Parameters are float arrays or Python numbers, broadcast together; their shape is the batch shape.

    Args:
        loc: the mean of log X.
        scale: the standard deviation of log X (> 0).
        validate_args: check the parameters' constraints (when their values are concrete) and raise
            a ValueError naming a violated one.

    Examples:
        >>> import padax
        >>> from padax import distribution
        >>> d = distribution.LogNormal(0.0, 1.0)
        >>> float(d.mean)
        1.6487
        >>> float(d.log_prob(padax.to_tensor(1.0)))
        -0.9189
        >>> d.sample([4], key=padax.random.key(0)).shape
        (4,)
    """

    def __init__(self, loc: Any, scale: Any, validate_args: bool = False) -> None:
        super().__init__(Normal(loc, scale, validate_args=validate_args), [ExpTransform()])

    @property
    def loc(self):
        return self._base.loc

    @property
    def scale(self):
        return self._base.scale

    @property
    def mean(self):
        return pnp.exp(self.loc + 0.5 * self.scale ** 2)

    @property
    def variance(self):
        s2 = self.scale ** 2
        return pnp.expm1(s2) * pnp.exp(2.0 * self.loc + s2)

    def entropy(self):
        return self._base.entropy() + self.loc


_EULER = 0.57721566490153286061


class Gumbel(TransformedDistribution):
    """The Gumbel (type I extreme value) distribution with location `loc` and scale `scale`.

    Parameters are float arrays or Python numbers, broadcast together; their shape is the batch shape.

    Args:
        loc: the location.
        scale: the scale (> 0).
        validate_args: check the parameters' constraints (when their values are concrete) and raise
            a ValueError naming a violated one.

    Examples:
        >>> import padax
        >>> from padax import distribution
        >>> d = distribution.Gumbel(0.0, 1.0)
        >>> float(d.mean)
        0.5772
        >>> float(d.log_prob(padax.to_tensor(1.0)))
        -1.3679
        >>> d.sample([4], key=padax.random.key(0)).shape
        (4,)
    """

    def __init__(self, loc: Any, scale: Any, validate_args: bool = False) -> None:
        loc, scale = as_params("Gumbel", loc, scale)
        check_param("Gumbel", "scale", scale, scale > 0, "positive", validate_args)
        dt = loc.dtype
        tiny = float(np.finfo(dt).tiny)
        base = Uniform(pnp.full(loc.shape, tiny, dtype=dt), pnp.full(loc.shape, 1.0 - float(np.finfo(dt).eps), dtype=dt))
        # U -> -log(-log U) -> loc + scale * that
        super().__init__(base, [_NegLogNegLog(), AffineTransform(loc, scale)])
        self.loc, self.scale = loc, scale
        self._children = self._children + ("loc", "scale")

    @property
    def mean(self):
        return self.loc + self.scale * _EULER

    @property
    def variance(self):
        return (math.pi ** 2 / 6.0) * self.scale ** 2

    @property
    def stddev(self):
        return math.pi / math.sqrt(6.0) * self.scale

    def log_prob(self, value):
        z = (as_value(value, self.loc) - self.loc) / self.scale
        return -(z + pnp.exp(-z)) - pnp.log(self.scale)

    def cdf(self, value):
        z = (as_value(value, self.loc) - self.loc) / self.scale
        return pnp.exp(-pnp.exp(-z))

    def entropy(self):
        return pnp.log(self.scale) + 1.0 + _EULER

    def rsample(self, shape: Sequence[int] = (), key: Any = None):
        g = random.gumbel(self._key(key, "rsample"), self._extend_shape(shape), self.loc.dtype)
        return self.loc + self.scale * g


class _NegLogNegLog(Transform):
    """y = -log(-log x) on (0, 1): a uniform variable becomes a standard Gumbel one."""

    _type = Type.BIJECTION

    def _forward(self, x):
        return -pnp.log(-pnp.log(x))

    def _inverse(self, y):
        return pnp.exp(-pnp.exp(-y))

    def _forward_log_det_jacobian(self, x):
        return -pnp.log(-pnp.log(x)) - pnp.log(x)


__all__ = ["Independent", "TransformedDistribution", "LogNormal", "Gumbel"]
