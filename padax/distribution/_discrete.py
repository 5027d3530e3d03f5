"""Discrete distributions with Paddle's constructors: Bernoulli, Binomial, Categorical,
Multinomial, Geometric, Poisson. Their samples carry no gradient; Bernoulli also has Paddle's
relaxed (logistic-noise) rsample."""
from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from padax import lax, numpy as pnp, random, stop_gradient
from padax.core.errors import op_value_error
from padax.core.trace import Tracer
from padax.distribution._base import Distribution, ExponentialFamily, as_params, as_value, check_param
from padax.numpy._util import to_array
from padax.scipy.special import betaln, gammaincc, xlog1py, xlogy


def _static_max(op: str, value: Any) -> int:
    """The largest value of a concrete parameter (support bounds that must be static)."""
    if isinstance(value, Tracer):
        raise op_value_error(op, "needs a concrete total_count to bound its support; build the distribution "
                                 "outside jit (it can then be passed in as an argument)")
    return int(np.max(np.asarray(value))) if np.size(np.asarray(value)) else 0


class Bernoulli(ExponentialFamily):
    """The Bernoulli distribution with success probability `probs`.

    Parameters are float arrays or Python numbers, broadcast together; their shape is the batch shape.

    Args:
        probs: the success probability, in [0, 1].
        validate_args: check the parameters' constraints (when their values are concrete) and raise
            a ValueError naming a violated one.

    Examples:
        >>> import padax
        >>> from padax import distribution
        >>> d = distribution.Bernoulli(0.3)
        >>> float(d.mean)
        0.3
        >>> float(d.log_prob(padax.to_tensor(1.0)))
        -1.204
        >>> d.sample([4], key=padax.random.key(0)).shape
        (4,)
    """

    def __init__(self, probs: Any, name: str | None = None, validate_args: bool = False) -> None:
        probs, = as_params("Bernoulli", probs)
        check_param("Bernoulli", "probs", probs, (probs >= 0) & (probs <= 1), "in [0, 1]", validate_args)
        self._params(probs=probs)
        super().__init__(probs.shape)

    @property
    def logits(self):
        return pnp.log(self.probs) - pnp.log1p(-self.probs)

    @property
    def mean(self):
        return self.probs

    @property
    def variance(self):
        return self.probs * (1.0 - self.probs)

    def sample(self, shape: Sequence[int] = (), key: Any = None):
        out_shape = self._extend_shape(shape)
        u = random.uniform(self._key(key, "sample"), out_shape, self._dtype())
        return (u < stop_gradient(self.probs)).astype(self._dtype())

    def rsample(self, shape: Sequence[int] = (), key: Any = None, temperature: float = 1.0):
        """Paddle's relaxed sample (logit(u) + logits) / temperature; apply a sigmoid to map it to (0, 1)."""
        dt = self._dtype()
        u = random.uniform(self._key(key, "rsample"), self._extend_shape(shape), dt,
                           minval=float(np.finfo(dt).tiny), maxval=1.0)
        return (pnp.log(u) - pnp.log1p(-u) + self.logits) / temperature

    def log_prob(self, value):
        v = as_value(value, self.probs)
        return xlogy(v, self.probs) + xlog1py(1.0 - v, -self.probs)

    def cdf(self, value):
        v = as_value(value, self.probs)
        return pnp.where(v < 0, 0.0, pnp.where(v < 1, 1.0 - self.probs, 1.0))

    def entropy(self):
        return -(xlogy(self.probs, self.probs) + xlog1py(1.0 - self.probs, -self.probs))

    @property
    def _natural_parameters(self):
        return (self.logits,)

    def _log_normalizer(self, x):
        return pnp.logaddexp(0.0, x)

    @property
    def _mean_carrier_measure(self):
        return 0.0


class Binomial(Distribution):
    """The binomial distribution: successes in `total_count` trials of probability `probs`.

    Parameters are float arrays or Python numbers, broadcast together; their shape is the batch shape.

    Args:
        total_count: the number of trials (non-negative integers).
        probs: the success probability, in [0, 1].
        validate_args: check the parameters' constraints (when their values are concrete) and raise
            a ValueError naming a violated one.

    Examples:
        >>> import padax
        >>> from padax import distribution
        >>> d = distribution.Binomial(10, 0.5)
        >>> float(d.mean)
        5.0
        >>> float(d.log_prob(padax.to_tensor(5.0)))
        -1.402
        >>> d.sample([4], key=padax.random.key(0)).shape
        (4,)
    """

    def __init__(self, total_count: Any, probs: Any, validate_args: bool = False) -> None:
        total_count, probs = as_params("Binomial", total_count, probs)
        check_param("Binomial", "total_count", total_count,
                    (total_count >= 0) & (total_count == pnp.floor(total_count)), "a non-negative integer",
                    validate_args)
        check_param("Binomial", "probs", probs, (probs >= 0) & (probs <= 1), "in [0, 1]", validate_args)
        self._params(total_count=total_count, probs=probs)
        self._support_max = None if isinstance(total_count, Tracer) else _static_max("Binomial", total_count)
        super().__init__(probs.shape)

    @property
    def mean(self):
        return self.total_count * self.probs

    @property
    def variance(self):
        return self.total_count * self.probs * (1.0 - self.probs)

    def sample(self, shape: Sequence[int] = (), key: Any = None):
        n_max = self._support_max if self._support_max is not None else _static_max("Binomial.sample",
                                                                                    self.total_count)
        out_shape = self._extend_shape(shape)
        u = random.uniform(self._key(key, "sample"), (n_max,) + out_shape, self._dtype())
        trial = pnp.arange(n_max, dtype=self._dtype()).reshape((n_max,) + (1,) * len(out_shape))
        hits = (u < stop_gradient(self.probs)) & (trial < stop_gradient(self.total_count))
        return pnp.sum(hits.astype(self._dtype()), axis=0)

    def log_prob(self, value):
        k = as_value(value, self.probs)
        n = self.total_count
        ok = (k >= 0) & (k <= n) & (k == pnp.floor(k))
        ks = pnp.where(ok, k, 0.0)
        log_comb = -pnp.log1p(n) - betaln(n - ks + 1.0, ks + 1.0)
        return pnp.where(ok, log_comb + xlogy(ks, self.probs) + xlog1py(n - ks, -self.probs), -np.inf)

    def entropy(self):
        n_max = self._support_max if self._support_max is not None else _static_max("Binomial.entropy",
                                                                                    self.total_count)
        ks = pnp.arange(n_max + 1, dtype=self._dtype()).reshape((n_max + 1,) + (1,) * len(self.batch_shape))
        lp = self.log_prob(ks)
        return -pnp.sum(pnp.where(lp > -np.inf, pnp.exp(lp) * lp, 0.0), axis=0)


class Categorical(Distribution):
    """A categorical distribution over the last axis of `logits`.

    As in Paddle, `prob`, `log_prob` and `sample` read `logits` as unnormalised probabilities
    (normalised by their sum), while `entropy` and `kl_divergence` read them as log-probabilities
    (normalised by a softmax).

    Args:
        logits: the category weights on the last axis (see above); the other axes are the batch shape.
        validate_args: accepted for Paddle compatibility; logits have no constraint to check.

    Examples:
        >>> import padax
        >>> from padax import distribution
        >>> d = distribution.Categorical(padax.to_tensor([1.0, 1.0, 2.0]))
        >>> float(d.entropy())
        0.9753
        >>> float(d.log_prob(padax.to_tensor(2)))
        -0.6931
        >>> d.sample([4], key=padax.random.key(0)).shape
        (4,)
    """

    def __init__(self, logits: Any, name: str | None = None, validate_args: bool = False) -> None:
        logits, = as_params("Categorical", logits)
        if logits.ndim < 1:
            raise op_value_error("Categorical", f"logits must have at least one dimension, got shape {logits.shape}")
        self._params(logits=logits)
        super().__init__(logits.shape[:-1])

    @property
    def _prob(self):
        return self.logits / pnp.sum(self.logits, axis=-1, keepdims=True)

    def sample(self, shape: Sequence[int] = (), key: Any = None):
        out_shape = tuple(int(d) for d in shape) + self.batch_shape
        draws = random.categorical(self._key(key, "sample"), pnp.log(stop_gradient(self._prob)), axis=-1,
                                   shape=out_shape)
        return to_array(draws)

    def probs(self, value):
        """probability of the category index `value` (Paddle's broadcasting rules)."""
        v = pnp.asarray(value).astype(np.int64)
        p = self._prob
        if p.ndim == 1:
            return pnp.take(p, v.reshape(-1)).reshape(v.shape)
        if v.ndim == 1:
            v = pnp.broadcast_to(v, p.shape[:-1] + v.shape)
        return pnp.take_along_axis(p, v, axis=-1)

    def prob(self, value):
        return self.probs(value)

    def log_prob(self, value):
        return pnp.log(self.probs(value))

    def entropy(self):
        z = self.logits - pnp.max(self.logits, axis=-1, keepdims=True)
        log_norm = pnp.log(pnp.sum(pnp.exp(z), axis=-1, keepdims=True))
        p = pnp.exp(z - log_norm)
        return -pnp.sum(p * (z - log_norm), axis=-1)


class Multinomial(Distribution):
    """Counts of `total_count` draws from the categories of `probs` (last axis).

    Args:
        total_count: the number of draws, a positive Python int.
        probs: non-negative category weights on the last axis (normalised to sum to 1); the other axes are the batch
            shape.
        validate_args: check the parameters' constraints (when their values are concrete) and raise
            a ValueError naming a violated one.

    Examples:
        >>> import padax
        >>> from padax import distribution
        >>> d = distribution.Multinomial(4, padax.to_tensor([0.25, 0.75]))
        >>> d.mean.tolist()
        [1.0, 3.0]
        >>> float(d.log_prob(padax.to_tensor([1.0, 3.0])))
        -0.863
        >>> d.sample([4], key=padax.random.key(0)).shape
        (4, 2)
    """

    def __init__(self, total_count: int, probs: Any, validate_args: bool = False) -> None:
        if not isinstance(total_count, (int, np.integer)) or total_count < 1:
            raise op_value_error("Multinomial", f"parameter total_count must be a positive int, got {total_count!r}")
        probs, = as_params("Multinomial", probs)
        if probs.ndim < 1:
            raise op_value_error("Multinomial", "parameter probs must have at least one dimension")
        check_param("Multinomial", "probs", probs, probs >= 0, "non-negative", validate_args)
        self.total_count = int(total_count)
        self._params(probs=probs / pnp.sum(probs, axis=-1, keepdims=True))
        super().__init__(probs.shape[:-1], probs.shape[-1:])

    @property
    def mean(self):
        return self.total_count * self.probs

    @property
    def variance(self):
        return self.total_count * self.probs * (1.0 - self.probs)

    def sample(self, shape: Sequence[int] = (), key: Any = None):
        shape = tuple(int(d) for d in shape)
        return random.multinomial(self._key(key, "sample"), self.total_count, stop_gradient(self.probs),
                                  shape=shape + self.batch_shape, dtype=self._dtype())

    def log_prob(self, value):
        v = as_value(value, self.probs)
        n = float(self.total_count)
        return (math.lgamma(n + 1.0) - pnp.sum(lax.lgamma(v + 1.0), axis=-1)
                + pnp.sum(xlogy(v, self.probs), axis=-1))

    def entropy(self):
        n = self.total_count
        k = pnp.arange(n + 1, dtype=self._dtype()).reshape((n + 1,) + (1,) * self.probs.ndim)
        p = self.probs
        log_comb = -math.log1p(n) - betaln(n - k + 1.0, k + 1.0)
        log_pmf = log_comb + xlogy(k, p) + xlog1py(n - k, -p)           # binomial marginals
        term = pnp.sum(pnp.exp(log_pmf) * lax.lgamma(k + 1.0), axis=(0, -1))
        return -math.lgamma(n + 1.0) - n * pnp.sum(xlogy(p, p), axis=-1) + term


class Geometric(Distribution):
    """The number of failures before the first success, P(k) = (1 - p)**k p, k = 0, 1, ...  (Paddle's).

    Parameters are float arrays or Python numbers, broadcast together; their shape is the batch shape.

    Args:
        probs: the success probability, in (0, 1].
        validate_args: check the parameters' constraints (when their values are concrete) and raise
            a ValueError naming a violated one.

    Examples:
        >>> import padax
        >>> from padax import distribution
        >>> d = distribution.Geometric(0.5)
        >>> float(d.mean)
        1.0
        >>> float(d.log_prob(padax.to_tensor(2.0)))
        -2.0794
        >>> d.sample([4], key=padax.random.key(0)).shape
        (4,)
    """

    def __init__(self, probs: Any, validate_args: bool = False) -> None:
        probs, = as_params("Geometric", probs)
        check_param("Geometric", "probs", probs, (probs > 0) & (probs <= 1), "in (0, 1]", validate_args)
        self._params(probs=probs)
        super().__init__(probs.shape)

    @property
    def mean(self):
        return 1.0 / self.probs - 1.0

    @property
    def variance(self):
        return (1.0 / self.probs - 1.0) / self.probs

    def rsample(self, shape: Sequence[int] = (), key: Any = None):
        dt = self._dtype()
        u = random.uniform(self._key(key, "rsample"), self._extend_shape(shape), dt,
                           minval=float(np.finfo(np.float32).tiny), maxval=1.0)
        return pnp.floor(pnp.log(u) / pnp.log1p(-self.probs))

    def pmf(self, k):
        return pnp.exp(self.log_pmf(k))

    def log_pmf(self, k):
        v = as_value(k, self.probs)
        return xlog1py(v, -self.probs) + pnp.log(self.probs)

    def log_prob(self, value):
        return self.log_pmf(value)

    def entropy(self):
        p = self.probs
        return -(xlog1py(1.0 - p, -p) + xlogy(p, p)) / p

    def cdf(self, k):
        v = as_value(k, self.probs)
        return -pnp.expm1((v + 1.0) * pnp.log1p(-self.probs))


class Poisson(Distribution):
    """The Poisson distribution with rate `rate`.

    Parameters are float arrays or Python numbers, broadcast together; their shape is the batch shape.

    Args:
        rate: the rate (>= 0).
        validate_args: check the parameters' constraints (when their values are concrete) and raise
            a ValueError naming a violated one.

    Examples:
        >>> import padax
        >>> from padax import distribution
        >>> d = distribution.Poisson(3.0)
        >>> float(d.mean)
        3.0
        >>> float(d.log_prob(padax.to_tensor(2.0)))
        -1.4959
        >>> d.sample([4], key=padax.random.key(0)).shape
        (4,)
    """

    def __init__(self, rate: Any, validate_args: bool = False) -> None:
        rate, = as_params("Poisson", rate)
        check_param("Poisson", "rate", rate, rate >= 0, "non-negative", validate_args)
        self._params(rate=rate)
        super().__init__(rate.shape)

    @property
    def mean(self):
        return self.rate

    @property
    def variance(self):
        return self.rate

    def sample(self, shape: Sequence[int] = (), key: Any = None):
        out_shape = self._extend_shape(shape)
        lam = pnp.broadcast_to(stop_gradient(self.rate), out_shape)
        return random.poisson(self._key(key, "sample"), lam, out_shape).astype(self._dtype())

    def log_prob(self, value):
        k = as_value(value, self.rate)
        ok = (k >= 0) & (k == pnp.floor(k))
        ks = pnp.where(ok, k, 0.0)
        return pnp.where(ok, xlogy(ks, self.rate) - self.rate - lax.lgamma(ks + 1.0), -np.inf)

    def cdf(self, value):
        k = pnp.floor(as_value(value, self.rate))
        return pnp.where(k < 0, 0.0, gammaincc(pnp.maximum(k, 0.0) + 1.0, self.rate))

    def entropy(self):
        """A direct sum over k < 160 for rates below 50, the asymptotic series above."""
        lam = self.rate
        small = lam < 50.0
        ls = pnp.where(small, lam, 1.0)
        k = pnp.arange(160, dtype=self._dtype()).reshape((160,) + (1,) * lam.ndim)
        lp = xlogy(k, ls) - ls - lax.lgamma(k + 1.0)
        direct = -pnp.sum(pnp.exp(lp) * lp, axis=0)
        lb = pnp.where(small, 50.0, lam)
        asym = (0.5 * pnp.log(2 * np.pi * np.e * lb) - 1.0 / (12.0 * lb) - 1.0 / (24.0 * lb ** 2)
                - 19.0 / (360.0 * lb ** 3))
        return pnp.where(small, direct, asym)


__all__ = ["Bernoulli", "Binomial", "Categorical", "Multinomial", "Geometric", "Poisson"]
