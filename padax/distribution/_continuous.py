"""Univariate continuous distributions with Paddle's constructors: Normal, Uniform, Exponential,
Laplace, Cauchy, Gamma, Chi2, Beta, StudentT, ContinuousBernoulli.

All are reparameterised: rsample transforms parameter-free noise (Gamma, Chi2, Beta and
StudentT use padax.random's gamma draws, whose implicit reparameterisation gradients carry
through), so samples are differentiable in the parameters.
"""
from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from padax import lax, numpy as pnp, random
from padax.distribution._base import Distribution, ExponentialFamily, as_params, as_value, check_param
from padax.scipy.special import betainc, betaln, digamma, gammainc, ndtr, ndtri, xlog1py, xlogy

_LOG_2PI = math.log(2 * math.pi)


def _u01(key, shape, dtype, low=0.0):
    """Uniform draws in (low, 1): strictly inside, so logs and inverse CDFs stay finite."""
    tiny = float(np.finfo(dtype).tiny)
    return random.uniform(key, shape, dtype, minval=max(low, tiny), maxval=1.0)


class Normal(Distribution):
    """The normal distribution N(loc, scale**2).

    Parameters are float arrays or Python numbers, broadcast together; their shape is the batch shape.

    Args:
        loc: the mean.
        scale: the standard deviation (> 0).
        validate_args: check the parameters' constraints (when their values are concrete) and raise
            a ValueError naming a violated one.

    Examples:
        >>> import padax
        >>> from padax import distribution
        >>> d = distribution.Normal(0.0, 2.0)
        >>> float(d.mean)
        0.0
        >>> float(d.log_prob(padax.to_tensor(1.0)))
        -1.7371
        >>> d.sample([4], key=padax.random.key(0)).shape
        (4,)
    """

    def __init__(self, loc: Any, scale: Any, name: str | None = None, validate_args: bool = False) -> None:
        loc, scale = as_params("Normal", loc, scale)
        check_param("Normal", "scale", scale, scale > 0, "positive", validate_args)
        self._params(loc=loc, scale=scale)
        super().__init__(loc.shape)

    @property
    def mean(self):
        return self.loc

    @property
    def variance(self):
        return self.scale ** 2

    def rsample(self, shape: Sequence[int] = (), key: Any = None):
        eps = random.normal(self._key(key, "rsample"), self._extend_shape(shape), self._dtype())
        return self.loc + self.scale * eps

    def log_prob(self, value):
        z = (as_value(value, self.loc) - self.loc) / self.scale
        return -0.5 * z * z - pnp.log(self.scale) - 0.5 * _LOG_2PI

    def entropy(self):
        return 0.5 + 0.5 * _LOG_2PI + pnp.log(self.scale)

    def cdf(self, value):
        return ndtr((as_value(value, self.loc) - self.loc) / self.scale)

    def icdf(self, value):
        return self.loc + self.scale * ndtri(as_value(value, self.loc))


class Uniform(Distribution):
    """The uniform distribution on [low, high).

    Parameters are float arrays or Python numbers, broadcast together; their shape is the batch shape.

    Args:
        low: the lower bound (inclusive).
        high: the upper bound (exclusive, > low).
        validate_args: check the parameters' constraints (when their values are concrete) and raise
            a ValueError naming a violated one.

    Examples:
        >>> import padax
        >>> from padax import distribution
        >>> d = distribution.Uniform(0.0, 4.0)
        >>> float(d.mean)
        2.0
        >>> float(d.log_prob(padax.to_tensor(1.0)))
        -1.3863
        >>> d.sample([4], key=padax.random.key(0)).shape
        (4,)
    """

    def __init__(self, low: Any, high: Any, name: str | None = None, validate_args: bool = False) -> None:
        low, high = as_params("Uniform", low, high)
        check_param("Uniform", "high", high, high > low, "greater than low", validate_args)
        self._params(low=low, high=high)
        super().__init__(low.shape)

    @property
    def mean(self):
        return 0.5 * (self.low + self.high)

    @property
    def variance(self):
        return (self.high - self.low) ** 2 / 12.0

    def rsample(self, shape: Sequence[int] = (), key: Any = None):
        u = random.uniform(self._key(key, "rsample"), self._extend_shape(shape), self._dtype())
        return self.low + (self.high - self.low) * u

    def log_prob(self, value):
        v = as_value(value, self.low)
        inside = (v >= self.low) & (v < self.high)
        return pnp.where(inside, -pnp.log(self.high - self.low), -np.inf)

    def entropy(self):
        return pnp.log(self.high - self.low)

    def cdf(self, value):
        v = as_value(value, self.low)
        return pnp.clip((v - self.low) / (self.high - self.low), 0.0, 1.0)

    def icdf(self, value):
        return self.low + (self.high - self.low) * as_value(value, self.low)


class Exponential(ExponentialFamily):
    """The exponential distribution with rate `rate` (mean 1 / rate).

    Parameters are float arrays or Python numbers, broadcast together; their shape is the batch shape.

    Args:
        rate: the rate (> 0).
        validate_args: check the parameters' constraints (when their values are concrete) and raise
            a ValueError naming a violated one.

    Examples:
        >>> import padax
        >>> from padax import distribution
        >>> d = distribution.Exponential(2.0)
        >>> float(d.mean)
        0.5
        >>> float(d.log_prob(padax.to_tensor(1.0)))
        -1.3069
        >>> d.sample([4], key=padax.random.key(0)).shape
        (4,)
    """

    def __init__(self, rate: Any, validate_args: bool = False) -> None:
        rate, = as_params("Exponential", rate)
        check_param("Exponential", "rate", rate, rate > 0, "positive", validate_args)
        self._params(rate=rate)
        super().__init__(rate.shape)

    @property
    def mean(self):
        return 1.0 / self.rate

    @property
    def variance(self):
        return self.rate ** -2.0

    def rsample(self, shape: Sequence[int] = (), key: Any = None):
        return random.exponential(self._key(key, "rsample"), self._extend_shape(shape), self._dtype()) / self.rate

    def log_prob(self, value):
        v = as_value(value, self.rate)
        return pnp.where(v >= 0, pnp.log(self.rate) - self.rate * v, -np.inf)

    def entropy(self):
        return 1.0 - pnp.log(self.rate)

    def cdf(self, value):
        return -pnp.expm1(-self.rate * pnp.maximum(as_value(value, self.rate), 0.0))

    def icdf(self, value):
        return -pnp.log1p(-as_value(value, self.rate)) / self.rate

    @property
    def _natural_parameters(self):
        return (-self.rate,)

    def _log_normalizer(self, x):
        return -pnp.log(-x)

    @property
    def _mean_carrier_measure(self):
        return 0.0


class Laplace(Distribution):
    """The Laplace distribution with location `loc` and scale `scale`.

    Parameters are float arrays or Python numbers, broadcast together; their shape is the batch shape.

    Args:
        loc: the location (mean and median).
        scale: the scale (> 0).
        validate_args: check the parameters' constraints (when their values are concrete) and raise
            a ValueError naming a violated one.

    Examples:
        >>> import padax
        >>> from padax import distribution
        >>> d = distribution.Laplace(0.0, 1.0)
        >>> float(d.mean)
        0.0
        >>> float(d.log_prob(padax.to_tensor(1.0)))
        -1.6931
        >>> d.sample([4], key=padax.random.key(0)).shape
        (4,)
    """

    def __init__(self, loc: Any, scale: Any, validate_args: bool = False) -> None:
        loc, scale = as_params("Laplace", loc, scale)
        check_param("Laplace", "scale", scale, scale > 0, "positive", validate_args)
        self._params(loc=loc, scale=scale)
        super().__init__(loc.shape)

    @property
    def mean(self):
        return self.loc

    @property
    def variance(self):
        return 2.0 * self.scale ** 2

    @property
    def stddev(self):
        return math.sqrt(2.0) * self.scale

    def rsample(self, shape: Sequence[int] = (), key: Any = None):
        dt = self._dtype()
        u = random.uniform(self._key(key, "rsample"), self._extend_shape(shape), dt,
                           minval=float(np.nextafter(np.array(-1.0, dt), np.array(0.0, dt))), maxval=1.0)
        return self.loc - self.scale * pnp.sign(u) * pnp.log1p(-pnp.abs(u))

    def log_prob(self, value):
        return -math.log(2.0) - pnp.log(self.scale) - pnp.abs(as_value(value, self.loc) - self.loc) / self.scale

    def entropy(self):
        return 1.0 + math.log(2.0) + pnp.log(self.scale)

    def cdf(self, value):
        z = (as_value(value, self.loc) - self.loc) / self.scale
        return 0.5 - 0.5 * pnp.sign(z) * pnp.expm1(-pnp.abs(z))

    def icdf(self, value):
        t = as_value(value, self.loc) - 0.5
        return self.loc - self.scale * pnp.sign(t) * pnp.log1p(-2.0 * pnp.abs(t))


class Cauchy(Distribution):
    """The Cauchy distribution with location `loc` and scale `scale` (no mean or variance).

    Parameters are float arrays or Python numbers, broadcast together; their shape is the batch shape.

    Args:
        loc: the location (median).
        scale: the half-width at half-maximum (> 0).
        validate_args: check the parameters' constraints (when their values are concrete) and raise
            a ValueError naming a violated one.

    Examples:
        >>> import padax
        >>> from padax import distribution
        >>> d = distribution.Cauchy(0.0, 1.0)
        >>> float(d.entropy())
        2.531
        >>> float(d.log_prob(padax.to_tensor(1.0)))
        -1.8379
        >>> d.sample([4], key=padax.random.key(0)).shape
        (4,)
    """

    def __init__(self, loc: Any, scale: Any, name: str | None = None, validate_args: bool = False) -> None:
        loc, scale = as_params("Cauchy", loc, scale)
        check_param("Cauchy", "scale", scale, scale > 0, "positive", validate_args)
        self._params(loc=loc, scale=scale)
        super().__init__(loc.shape)

    @property
    def mean(self):
        raise ValueError("Cauchy distribution has no mean")

    @property
    def variance(self):
        raise ValueError("Cauchy distribution has no variance")

    @property
    def stddev(self):
        raise ValueError("Cauchy distribution has no stddev")

    def rsample(self, shape: Sequence[int] = (), key: Any = None):
        u = _u01(self._key(key, "rsample"), self._extend_shape(shape), self._dtype())
        return self.loc + self.scale * pnp.tan(np.pi * (u - 0.5))

    def log_prob(self, value):
        z = (as_value(value, self.loc) - self.loc) / self.scale
        return -math.log(math.pi) - pnp.log(self.scale) - pnp.log1p(z * z)

    def entropy(self):
        return math.log(4 * math.pi) + pnp.log(self.scale)

    def cdf(self, value):
        z = (as_value(value, self.loc) - self.loc) / self.scale
        return pnp.arctan2(1.0, -z) / np.pi


class Gamma(ExponentialFamily):
    """The gamma distribution with shape `concentration` and rate `rate`.

    Parameters are float arrays or Python numbers, broadcast together; their shape is the batch shape.

    Args:
        concentration: the shape (> 0).
        rate: the rate (> 0; the scale is 1 / rate).
        validate_args: check the parameters' constraints (when their values are concrete) and raise
            a ValueError naming a violated one.

    Examples:
        >>> import padax
        >>> from padax import distribution
        >>> d = distribution.Gamma(2.0, 1.0)
        >>> float(d.mean)
        2.0
        >>> float(d.log_prob(padax.to_tensor(1.0)))
        -1.0
        >>> d.sample([4], key=padax.random.key(0)).shape
        (4,)
    """

    def __init__(self, concentration: Any, rate: Any, validate_args: bool = False) -> None:
        concentration, rate = as_params("Gamma", concentration, rate)
        check_param("Gamma", "concentration", concentration, concentration > 0, "positive", validate_args)
        check_param("Gamma", "rate", rate, rate > 0, "positive", validate_args)
        self._params(concentration=concentration, rate=rate)
        super().__init__(concentration.shape)

    @property
    def mean(self):
        return self.concentration / self.rate

    @property
    def variance(self):
        return self.concentration / self.rate ** 2

    def rsample(self, shape: Sequence[int] = (), key: Any = None):
        out_shape = self._extend_shape(shape)
        a = pnp.broadcast_to(self.concentration, out_shape)
        return random.gamma(self._key(key, "rsample"), a, out_shape, self._dtype()) / self.rate

    def log_prob(self, value):
        v = as_value(value, self.rate)
        vs = pnp.where(v >= 0, v, 1.0)
        out = (xlogy(self.concentration, self.rate) + xlogy(self.concentration - 1.0, vs) - self.rate * vs
               - lax.lgamma(self.concentration))
        return pnp.where(v >= 0, out, -np.inf)

    def entropy(self):
        a = self.concentration
        return a - pnp.log(self.rate) + lax.lgamma(a) + (1.0 - a) * digamma(a)

    def cdf(self, value):
        return gammainc(self.concentration, self.rate * pnp.maximum(as_value(value, self.rate), 0.0))

    @property
    def _natural_parameters(self):
        return (self.concentration - 1.0, -self.rate)

    def _log_normalizer(self, x, y):
        return lax.lgamma(x + 1.0) + (x + 1.0) * pnp.log(-1.0 / y)

    @property
    def _mean_carrier_measure(self):
        return 0.0


class Chi2(Gamma):
    """The chi-squared distribution with `df` degrees of freedom (Gamma(df/2, 1/2)).

    Parameters are float arrays or Python numbers, broadcast together; their shape is the batch shape.

    Args:
        df: the degrees of freedom (> 0).
        validate_args: check the parameters' constraints (when their values are concrete) and raise
            a ValueError naming a violated one.

    Examples:
        >>> import padax
        >>> from padax import distribution
        >>> d = distribution.Chi2(3.0)
        >>> float(d.mean)
        3.0
        >>> float(d.log_prob(padax.to_tensor(1.0)))
        -1.4189
        >>> d.sample([4], key=padax.random.key(0)).shape
        (4,)
    """

    def __init__(self, df: Any, validate_args: bool = False) -> None:
        df, = as_params("Chi2", df)
        check_param("Chi2", "df", df, df > 0, "positive", validate_args)
        super().__init__(0.5 * df, pnp.full_like(df, 0.5))
        self.df = df
        self._children = ("concentration", "rate", "df")


class Beta(ExponentialFamily):
    """The beta distribution with shape parameters `alpha` and `beta`.

    Parameters are float arrays or Python numbers, broadcast together; their shape is the batch shape.

    Args:
        alpha: the first shape parameter (> 0).
        beta: the second shape parameter (> 0).
        validate_args: check the parameters' constraints (when their values are concrete) and raise
            a ValueError naming a violated one.

    Examples:
        >>> import padax
        >>> from padax import distribution
        >>> d = distribution.Beta(2.0, 3.0)
        >>> float(d.mean)
        0.4
        >>> float(d.log_prob(padax.to_tensor(0.5)))
        0.4055
        >>> d.sample([4], key=padax.random.key(0)).shape
        (4,)
    """

    def __init__(self, alpha: Any, beta: Any, validate_args: bool = False) -> None:
        alpha, beta = as_params("Beta", alpha, beta)
        check_param("Beta", "alpha", alpha, alpha > 0, "positive", validate_args)
        check_param("Beta", "beta", beta, beta > 0, "positive", validate_args)
        self._params(alpha=alpha, beta=beta)
        super().__init__(alpha.shape)

    @property
    def mean(self):
        return self.alpha / (self.alpha + self.beta)

    @property
    def variance(self):
        s = self.alpha + self.beta
        return self.alpha * self.beta / (s * s * (s + 1.0))

    def rsample(self, shape: Sequence[int] = (), key: Any = None):
        out_shape = self._extend_shape(shape)
        a, b = pnp.broadcast_to(self.alpha, out_shape), pnp.broadcast_to(self.beta, out_shape)
        return random.beta(self._key(key, "rsample"), a, b, out_shape, self._dtype())

    def log_prob(self, value):
        v = as_value(value, self.alpha)
        inside = (v >= 0) & (v <= 1)
        vs = pnp.where(inside, v, 0.5)
        out = xlogy(self.alpha - 1.0, vs) + xlog1py(self.beta - 1.0, -vs) - betaln(self.alpha, self.beta)
        return pnp.where(inside, out, -np.inf)

    def entropy(self):
        a, b = self.alpha, self.beta
        s = a + b
        return betaln(a, b) - (a - 1.0) * digamma(a) - (b - 1.0) * digamma(b) + (s - 2.0) * digamma(s)

    def cdf(self, value):
        return betainc(self.alpha, self.beta, pnp.clip(as_value(value, self.alpha), 0.0, 1.0))

    @property
    def _natural_parameters(self):
        return (self.alpha - 1.0, self.beta - 1.0)      # statistics log x, log(1 - x); carrier 1

    def _log_normalizer(self, x, y):
        return lax.lgamma(x + 1.0) + lax.lgamma(y + 1.0) - lax.lgamma(x + y + 2.0)

    @property
    def _mean_carrier_measure(self):
        return 0.0


class StudentT(Distribution):
    """Student's t distribution with `df` degrees of freedom, location `loc` and scale `scale`.

    Parameters are float arrays or Python numbers, broadcast together; their shape is the batch shape.

    Args:
        df: the degrees of freedom (> 0).
        loc: the location.
        scale: the scale (> 0).
        validate_args: check the parameters' constraints (when their values are concrete) and raise
            a ValueError naming a violated one.

    Examples:
        >>> import padax
        >>> from padax import distribution
        >>> d = distribution.StudentT(3.0, 0.0, 1.0)
        >>> float(d.mean)
        0.0
        >>> float(d.log_prob(padax.to_tensor(1.0)))
        -1.5763
        >>> d.sample([4], key=padax.random.key(0)).shape
        (4,)
    """

    def __init__(self, df: Any, loc: Any, scale: Any, name: str | None = None, validate_args: bool = False) -> None:
        df, loc, scale = as_params("StudentT", df, loc, scale)
        check_param("StudentT", "df", df, df > 0, "positive", validate_args)
        check_param("StudentT", "scale", scale, scale > 0, "positive", validate_args)
        self._params(df=df, loc=loc, scale=scale)
        super().__init__(df.shape)

    @property
    def mean(self):
        return pnp.where(self.df > 1.0, self.loc, np.nan)

    @property
    def variance(self):
        v = self.scale ** 2 * self.df / (self.df - 2.0)
        return pnp.where(self.df > 2.0, v, pnp.where(self.df > 1.0, np.inf, np.nan))

    def rsample(self, shape: Sequence[int] = (), key: Any = None):
        out_shape = self._extend_shape(shape)
        k1, k2 = random.split(self._key(key, "rsample"))
        z = random.normal(k1, out_shape, self._dtype())
        half_df = pnp.broadcast_to(0.5 * self.df, out_shape)
        g = random.gamma(k2, half_df, out_shape, self._dtype())        # chi2(df) / 2
        return self.loc + self.scale * z * pnp.sqrt(half_df / g)

    def log_prob(self, value):
        z = (as_value(value, self.loc) - self.loc) / self.scale
        df = self.df
        return (lax.lgamma(0.5 * (df + 1.0)) - lax.lgamma(0.5 * df) - 0.5 * pnp.log(df * np.pi)
                - pnp.log(self.scale) - 0.5 * (df + 1.0) * pnp.log1p(z * z / df))

    def entropy(self):
        df = self.df
        return (pnp.log(self.scale) + 0.5 * (df + 1.0) * (digamma(0.5 * (df + 1.0)) - digamma(0.5 * df))
                + 0.5 * pnp.log(df) + betaln(0.5 * df, pnp.full_like(df, 0.5)))


class ContinuousBernoulli(Distribution):
    """The continuous Bernoulli distribution on [0, 1] with parameter `probs` (Loaiza-Ganem &
    Cunningham 2019); Taylor expansions inside `lims` around 1/2, as Paddle.

    Parameters are float arrays or Python numbers, broadcast together; their shape is the batch shape.

    Args:
        probs: the parameter, in [0, 1] (clipped to [eps, 1 - eps]).
        lims: the interval around 1/2 where Taylor expansions replace the exact formulas (default (0.499, 0.501)).
        validate_args: check the parameters' constraints (when their values are concrete) and raise
            a ValueError naming a violated one.

    Examples:
        >>> import padax
        >>> from padax import distribution
        >>> d = distribution.ContinuousBernoulli(0.3)
        >>> float(d.mean)
        0.4302
        >>> float(d.log_prob(padax.to_tensor(0.5)))
        -0.0297
        >>> d.sample([4], key=padax.random.key(0)).shape
        (4,)
    """

    def __init__(self, probs: Any, lims: tuple[float, float] = (0.499, 0.501), validate_args: bool = False) -> None:
        probs, = as_params("ContinuousBernoulli", probs)
        check_param("ContinuousBernoulli", "probs", probs, (probs >= 0) & (probs <= 1), "in [0, 1]", validate_args)
        eps = float(np.finfo(probs.aval.dtype).eps)
        self._params(probs=pnp.clip(probs, eps, 1.0 - eps))
        self.lims = (float(lims[0]), float(lims[1]))
        super().__init__(probs.shape)

    def _outside(self):
        return (self.probs <= self.lims[0]) | (self.probs > self.lims[1])

    def _cut(self):
        return pnp.where(self._outside(), self.probs, self.lims[0])

    def _log_constant(self):
        p = self._cut()
        log_c = pnp.log(2.0 * pnp.abs(pnp.arctanh(1.0 - 2.0 * p))) - pnp.where(
            p <= 0.5, pnp.log1p(-2.0 * pnp.minimum(p, 0.5)), pnp.log(2.0 * pnp.maximum(p, 0.5) - 1.0))
        x = (self.probs - 0.5) ** 2
        taylor = math.log(2.0) + (4.0 / 3.0 + 104.0 / 45.0 * x) * x
        return pnp.where(self._outside(), log_c, taylor)

    @property
    def mean(self):
        p = self._cut()
        prop = p / (2.0 * p - 1.0) + 1.0 / (2.0 * pnp.arctanh(1.0 - 2.0 * p))
        x = self.probs - 0.5
        return pnp.where(self._outside(), prop, 0.5 + (1.0 / 3.0 + 16.0 / 45.0 * x * x) * x)

    @property
    def variance(self):
        p = self._cut()
        prop = p * (p - 1.0) / (1.0 - 2.0 * p) ** 2 + 1.0 / (pnp.log1p(-p) - pnp.log(p)) ** 2
        x = (self.probs - 0.5) ** 2
        return pnp.where(self._outside(), prop, 1.0 / 12.0 - (1.0 / 15.0 - 128.0 / 945.0 * x) * x)

    def rsample(self, shape: Sequence[int] = (), key: Any = None):
        u = _u01(self._key(key, "rsample"), self._extend_shape(shape), self._dtype())
        return self.icdf(u)

    def log_prob(self, value):
        v = as_value(value, self.probs)
        return self._log_constant() + xlogy(v, self.probs) + xlog1py(1.0 - v, -self.probs)

    def entropy(self):
        log_p0, log_p1 = pnp.log1p(-self.probs), pnp.log(self.probs)
        return -self._log_constant() + self.mean * (log_p0 - log_p1) - log_p0

    def cdf(self, value):
        v = as_value(value, self.probs)
        p = self._cut()
        unbounded = (pnp.power(p, v) * pnp.power(1.0 - p, 1.0 - v) + p - 1.0) / (2.0 * p - 1.0)
        out = pnp.where(self._outside(), unbounded, v)
        return pnp.where(v <= 0, 0.0, pnp.where(v >= 1, 1.0, out))

    def icdf(self, value):
        v = as_value(value, self.probs)
        p = self._cut()
        out = (pnp.log1p(-p + v * (2.0 * p - 1.0)) - pnp.log1p(-p)) / (pnp.log(p) - pnp.log1p(-p))
        return pnp.where(self._outside(), out, v)


__all__ = ["Normal", "Uniform", "Exponential", "Laplace", "Cauchy", "Gamma", "Chi2", "Beta", "StudentT",
           "ContinuousBernoulli"]
