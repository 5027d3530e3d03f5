"""The Laplace distribution: scipy.stats.laplace's functions (x, loc=0, scale=1).

Examples:
    >>> import padax
    >>> from padax.scipy import stats
    >>> stats.laplace.pdf(padax.to_tensor([0.0, 1.0])).tolist()
    [0.5, 0.1839]
    >>> float(stats.laplace.cdf(1.0))
    0.8161
"""

from padax import numpy as pnp
from padax.scipy.stats._family import continuous

_LOG2 = 0.6931471805599453


def _cdf(z):
    return pnp.where(z < 0, 0.5 * pnp.exp(pnp.minimum(z, 0.0)), 1.0 - 0.5 * pnp.exp(-pnp.maximum(z, 0.0)))


def _logcdf(z):
    return pnp.where(z < 0, z - _LOG2, pnp.log1p(-0.5 * pnp.exp(-pnp.maximum(z, 0.0))))


def _ppf(q):
    return pnp.where(q < 0.5, pnp.log(2.0 * q), -pnp.log(2.0 * (1.0 - q)))


_f = continuous("laplace", (), logpdf=lambda z: -pnp.abs(z) - _LOG2, cdf=_cdf, sf=lambda z: _cdf(-z),
                logcdf=_logcdf, logsf=lambda z: _logcdf(-z), ppf=_ppf, isf=lambda q: -_ppf(q))
logpdf, pdf, cdf, logcdf, sf, logsf, ppf, isf = (_f[k] for k in ("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf",
                                                                 "ppf", "isf"))
__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf"]
