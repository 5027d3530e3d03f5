"""kl_divergence(p, q) by multiple dispatch on the pair of types, and register_kl to add rules.

Rules are looked up for the most specific registered pair of (super)classes, as in Paddle; an
unknown pair raises TypeError naming both types.
"""
from __future__ import annotations

import functools
import warnings
from typing import Any, Callable

import padax
from padax import lax, numpy as pnp
from padax.distribution._base import Distribution, ExponentialFamily
from padax.distribution._composite import Independent, LogNormal
from padax.distribution._continuous import (
    Beta,
    Cauchy,
    ContinuousBernoulli,
    Exponential,
    Gamma,
    Laplace,
    Normal,
    Uniform,
)
from padax.distribution._discrete import Bernoulli, Binomial, Categorical, Geometric, Poisson
from padax.distribution._multivariate import Dirichlet, MultivariateNormal, _tril_solve
from padax.distribution.transform import _sum_rightmost
from padax.scipy.special import betaln, digamma, xlog1py, xlogy

_REGISTRY: dict[tuple[type, type], Callable] = {}


def register_kl(cls_p: type, cls_q: type) -> Callable:
    """Decorator registering `f(p, q)` as KL(p || q) for p of type cls_p and q of type cls_q.

    Args:
        cls_p, cls_q: Distribution subclasses; the rule also serves their subclasses (the most specific match wins).

    Returns:
        A decorator that registers f(p, q) and returns f unchanged.

    Examples:
        >>> import padax
        >>> from padax import distribution
        >>> class Point(distribution.Normal):
        ...     pass
        ...
        >>> @distribution.register_kl(Point, Point)
        ... def _kl_point(p, q):
        ...     return (p.loc - q.loc) ** 2
        ...
        >>> float(distribution.kl_divergence(Point(1.0, 1.0), Point(3.0, 1.0)))
        4.0
    """
    if not (isinstance(cls_p, type) and issubclass(cls_p, Distribution)
            and isinstance(cls_q, type) and issubclass(cls_q, Distribution)):
        raise TypeError("register_kl: cls_p and cls_q must be subclasses of Distribution")

    def decorator(f: Callable) -> Callable:
        _REGISTRY[cls_p, cls_q] = f
        _dispatch.cache_clear()
        return f
    return decorator


@functools.total_ordering
class _Order:
    def __init__(self, *classes):
        self.classes = classes

    def __eq__(self, other):
        return self.classes == other.classes

    def __le__(self, other):
        for x, y in zip(self.classes, other.classes):
            if not issubclass(x, y):
                return False
            if x is not y:
                break
        return True


@functools.lru_cache(maxsize=None)
def _dispatch(cls_p: type, cls_q: type) -> Callable | None:
    matches = [(p, q) for p, q in _REGISTRY if issubclass(cls_p, p) and issubclass(cls_q, q)]
    if not matches:
        return None
    left = min(_Order(*m) for m in matches).classes
    right = min(_Order(*reversed(m)) for m in matches).classes
    if _REGISTRY[left] is not _REGISTRY[right[::-1]]:
        warnings.warn(f"Ambiguous kl_divergence({cls_p.__name__}, {cls_q.__name__}); register_kl"
                      f"({left[0].__name__}, {right[0].__name__}) to resolve it", RuntimeWarning)
    return _REGISTRY[left]


def kl_divergence(p: Distribution, q: Distribution) -> Any:
    """KL(p || q) = E_p[log p(X) - log q(X)].

    Args:
        p, q: Distributions with a registered rule for their types (a TypeError otherwise).

    Returns:
        The divergence, an array of the broadcast batch shape.

    Examples:
        >>> import padax
        >>> from padax import distribution
        >>> p, q = distribution.Normal(0.0, 1.0), distribution.Normal(1.0, 2.0)
        >>> float(distribution.kl_divergence(p, q))
        0.4431
    """
    fn = _dispatch(type(p), type(q))
    if fn is None:
        raise TypeError(f"kl_divergence: no rule for ({type(p).__name__}, {type(q).__name__}); "
                        f"add one with padax.distribution.register_kl")
    return fn(p, q)


@register_kl(Normal, Normal)
def _normal_normal(p, q):
    r = p.scale / q.scale
    return 0.5 * (r * r + ((p.loc - q.loc) / q.scale) ** 2 - 1.0) - pnp.log(r)


@register_kl(LogNormal, LogNormal)
def _lognormal_lognormal(p, q):
    return _normal_normal(p._base, q._base)


@register_kl(Uniform, Uniform)
def _uniform_uniform(p, q):
    inside = (q.low <= p.low) & (p.high <= q.high)
    return pnp.where(inside, pnp.log((q.high - q.low) / (p.high - p.low)), float("inf"))


@register_kl(Exponential, Exponential)
def _exponential_exponential(p, q):
    r = q.rate / p.rate
    return r - 1.0 - pnp.log(r)


@register_kl(Laplace, Laplace)
def _laplace_laplace(p, q):
    r = p.scale / q.scale
    d = pnp.abs(p.loc - q.loc) / q.scale
    return -pnp.log(r) + d + r * pnp.exp(-pnp.abs(p.loc - q.loc) / p.scale) - 1.0


@register_kl(Cauchy, Cauchy)
def _cauchy_cauchy(p, q):
    return pnp.log(((p.scale + q.scale) ** 2 + (p.loc - q.loc) ** 2) / (4.0 * p.scale * q.scale))


@register_kl(Gamma, Gamma)
def _gamma_gamma(p, q):
    a, b, c, d = p.concentration, p.rate, q.concentration, q.rate
    return ((a - c) * digamma(a) - lax.lgamma(a) + lax.lgamma(c) + c * (pnp.log(b) - pnp.log(d))
            + a * (d - b) / b)


@register_kl(Beta, Beta)
def _beta_beta(p, q):
    a1, b1, a2, b2 = p.alpha, p.beta, q.alpha, q.beta
    s1 = a1 + b1
    return (betaln(a2, b2) - betaln(a1, b1) + (a1 - a2) * digamma(a1) + (b1 - b2) * digamma(b1)
            + (a2 - a1 + b2 - b1) * digamma(s1))


@register_kl(Dirichlet, Dirichlet)
def _dirichlet_dirichlet(p, q):
    a, b = p.concentration, q.concentration
    a0 = pnp.sum(a, axis=-1)
    return (lax.lgamma(a0) - pnp.sum(lax.lgamma(a), axis=-1) - lax.lgamma(pnp.sum(b, axis=-1))
            + pnp.sum(lax.lgamma(b), axis=-1) + pnp.sum((a - b) * (digamma(a) - digamma(a0)[..., None]), axis=-1))


@register_kl(Bernoulli, Bernoulli)
def _bernoulli_bernoulli(p, q):
    a, b = p.probs, q.probs
    return xlogy(a, a) - xlogy(a, b) + xlog1py(1.0 - a, -a) - xlog1py(1.0 - a, -b)


@register_kl(Binomial, Binomial)
def _binomial_binomial(p, q):
    n = p.total_count
    a, b = p.probs, q.probs
    kl = n * (xlogy(a, a) - xlogy(a, b) + xlog1py(1.0 - a, -a) - xlog1py(1.0 - a, -b))
    return pnp.where(q.total_count >= n, kl, float("inf"))


@register_kl(Categorical, Categorical)
def _categorical_categorical(p, q):
    # as Paddle: logits are read as log-probabilities here (softmax-normalised)
    lp = p.logits - pnp.max(p.logits, axis=-1, keepdims=True)
    lq = q.logits - pnp.max(q.logits, axis=-1, keepdims=True)
    zp = pnp.log(pnp.sum(pnp.exp(lp), axis=-1, keepdims=True))
    zq = pnp.log(pnp.sum(pnp.exp(lq), axis=-1, keepdims=True))
    prob = pnp.exp(lp - zp)
    return pnp.sum(prob * (lp - zp - lq + zq), axis=-1, keepdims=True)


@register_kl(Geometric, Geometric)
def _geometric_geometric(p, q):
    a, b = p.probs, q.probs
    return (1.0 - a) / a * (pnp.log1p(-a) - pnp.log1p(-b)) + pnp.log(a) - pnp.log(b)


@register_kl(Poisson, Poisson)
def _poisson_poisson(p, q):
    return xlogy(p.rate, p.rate) - xlogy(p.rate, q.rate) - p.rate + q.rate


@register_kl(ContinuousBernoulli, ContinuousBernoulli)
def _cb_cb(p, q):
    t1 = p.mean * (pnp.log(p.probs) + pnp.log1p(-q.probs) - pnp.log(q.probs) - pnp.log1p(-p.probs))
    t2 = p._log_constant() + pnp.log1p(-p.probs)
    t3 = -q._log_constant() - pnp.log1p(-q.probs)
    return t1 + t2 + t3


@register_kl(MultivariateNormal, MultivariateNormal)
def _mvn_mvn(p, q):
    k = p.event_shape[0]
    half_log_det = lambda d: pnp.sum(pnp.log(pnp.diagonal(d.scale_tril, axis1=-2, axis2=-1)), axis=-1)  # noqa: E731
    m = _tril_solve(q.scale_tril, p.scale_tril)                  # Lq^-1 Lp
    trace = pnp.sum(m * m, axis=(-2, -1))
    diff = _tril_solve(q.scale_tril, (q.loc - p.loc)[..., None])[..., 0]
    return half_log_det(q) - half_log_det(p) + 0.5 * (trace + pnp.sum(diff * diff, axis=-1) - k)


@register_kl(Independent, Independent)
def _independent_independent(p, q):
    if p.reinterpreted_batch_rank != q.reinterpreted_batch_rank:
        raise TypeError("kl_divergence(Independent, Independent) needs equal reinterpreted_batch_rank")
    return _sum_rightmost(kl_divergence(p.base, q.base), p.reinterpreted_batch_rank)


@register_kl(ExponentialFamily, ExponentialFamily)
def _expfamily_expfamily(p, q):
    """The Bregman divergence of the log normaliser: A(eta_q) - A(eta_p) - <eta_q - eta_p, grad A(eta_p)>."""
    if type(p) is not type(q):
        raise TypeError(f"kl_divergence: no rule for ({type(p).__name__}, {type(q).__name__})")
    eta_p, eta_q = tuple(p._natural_parameters), tuple(q._natural_parameters)
    a_p, f_vjp = padax.vjp(lambda *e: p._log_normalizer(*e), *eta_p)
    grads = f_vjp(pnp.ones_like(a_p))
    out = q._log_normalizer(*eta_q) - a_p
    for ep, eq, g in zip(eta_p, eta_q, grads):
        out = out - _sum_rightmost((eq - ep) * g, len(q.event_shape))
    return out


__all__ = ["kl_divergence", "register_kl"]
