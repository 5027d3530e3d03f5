"""The generalised normal distribution: scipy.stats.gennorm's functions (x, beta, loc=0, scale=1).

Examples:
    >>> import padax
    >>> from padax.scipy import stats
    >>> stats.gennorm.pdf(padax.to_tensor([0.0, 1.0]), 2.0).tolist()
    [0.5642, 0.2076]
    >>> float(stats.gennorm.cdf(1.0, 2.0))
    0.9214
"""

from padax import lax, numpy as pnp
from padax.scipy.special import gammaincc
from padax.scipy.stats._family import continuous, quantile_pair


def _logpdf(z, beta):
    return pnp.log(0.5 * beta) - lax.lgamma(1.0 / beta) - pnp.power(pnp.abs(z), beta)


def _sf(z, beta):
    tail = 0.5 * gammaincc(1.0 / beta, pnp.power(pnp.abs(z), beta))     # P(Z > |z|)
    return pnp.where(z > 0, tail, 1.0 - tail)


def _cdf(z, beta):
    return _sf(-z, beta)


_ppf, _isf = quantile_pair(_cdf, _sf, _logpdf, "symmetric")
_f = continuous("gennorm", ("beta",), logpdf=_logpdf, cdf=_cdf, sf=_sf, ppf=_ppf, isf=_isf)
logpdf, pdf, cdf, logcdf, sf, logsf, ppf, isf = (_f[k] for k in ("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf",
                                                                 "ppf", "isf"))
__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf"]
