"""`padax.scipy.stats`: scipy.stats' distributions as modules of functions (jax.scipy.stats's
conventions: `norm.logpdf(x, loc=0, scale=1)`, `poisson.logpmf(k, mu, loc=0)`, ...), plus
gaussian_kde, mode, rankdata and pearsonr. Everything works under jit/vmap/grad."""
from padax.scipy.stats import (bernoulli, beta, binom, cauchy, chi2, dirichlet, expon, gamma, geom,  # noqa: F401
                               gennorm, laplace, logistic, multivariate_normal, nbinom, norm, poisson, t,
                               truncnorm, uniform, vonmises)
from padax.scipy.stats._descriptive import ModeResult, PearsonRResult, mode, pearsonr, rankdata  # noqa: F401
from padax.scipy.stats._kde import gaussian_kde  # noqa: F401

__all__ = ["bernoulli", "beta", "binom", "cauchy", "chi2", "dirichlet", "expon", "gamma", "geom", "gennorm",
           "laplace", "logistic", "multivariate_normal", "nbinom", "norm", "poisson", "t", "truncnorm", "uniform",
           "vonmises", "gaussian_kde", "mode", "rankdata", "pearsonr", "ModeResult", "PearsonRResult"]
