"""`padax.distribution`: Paddle's probability distributions as pytrees.

Each distribution keeps its parameters as arrays, so it passes through jit, vmap and grad;
`sample`/`rsample` take an explicit `key` (padax.random) or draw one from Paddle's global seed
(`padax.seed`, eager only); continuous distributions have reparameterised `rsample`s.
`kl_divergence` dispatches on the pair of types (`register_kl` adds rules); `transform` holds
Paddle's transforms (AffineTransform, ExpTransform, ...). With `validate_args=True`, invalid
concrete parameters raise a ValueError naming the parameter.
"""
from padax.distribution import transform  # noqa: F401
from padax.distribution._base import Distribution, ExponentialFamily  # noqa: F401
from padax.distribution._composite import Gumbel, Independent, LogNormal, TransformedDistribution  # noqa: F401
from padax.distribution._continuous import (Beta, Cauchy, Chi2, ContinuousBernoulli, Exponential, Gamma,  # noqa: F401
                                            Laplace, Normal, StudentT, Uniform)
from padax.distribution._discrete import (Bernoulli, Binomial, Categorical, Geometric, Multinomial,  # noqa: F401
                                          Poisson)
from padax.distribution._multivariate import Dirichlet, MultivariateNormal  # noqa: F401
from padax.distribution.kl import kl_divergence, register_kl  # noqa: F401
from padax.distribution.transform import (AbsTransform, AffineTransform, ChainTransform, ExpTransform,  # noqa: F401
                                          IndependentTransform, PowerTransform, ReshapeTransform, SigmoidTransform,
                                          SoftmaxTransform, StackTransform, StickBreakingTransform, TanhTransform,
                                          Transform)

__all__ = ["Distribution", "ExponentialFamily", "Normal", "LogNormal", "Uniform", "Bernoulli", "Binomial",
           "Categorical", "Multinomial", "Beta", "Dirichlet", "Gamma", "Exponential", "Laplace", "Gumbel",
           "Geometric", "Poisson", "Cauchy", "StudentT", "Chi2", "MultivariateNormal", "ContinuousBernoulli",
           "Independent", "TransformedDistribution", "kl_divergence", "register_kl", "transform",
           "AbsTransform", "AffineTransform", "ChainTransform", "ExpTransform", "IndependentTransform",
           "PowerTransform", "ReshapeTransform", "SigmoidTransform", "SoftmaxTransform", "StackTransform",
           "StickBreakingTransform", "TanhTransform", "Transform"]
