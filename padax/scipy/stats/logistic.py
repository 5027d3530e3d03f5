"""The logistic distribution: scipy.stats.logistic's functions (x, loc=0, scale=1).

Examples:
    >>> import padax
    >>> from padax.scipy import stats
    >>> stats.logistic.pdf(padax.to_tensor([0.0, 1.0])).tolist()
    [0.25, 0.1966]
    >>> float(stats.logistic.cdf(1.0))
    0.7311
"""
from padax import numpy as pnp
from padax.scipy.special import expit, logit
from padax.scipy.stats._family import continuous


def _log_expit(z):
    return -pnp.logaddexp(0.0, -z)


_f = continuous("logistic", (), logpdf=lambda z: -pnp.abs(z) - 2.0 * pnp.log1p(pnp.exp(-pnp.abs(z))),
                cdf=expit, sf=lambda z: expit(-z), logcdf=_log_expit, logsf=lambda z: _log_expit(-z),
                ppf=logit, isf=lambda q: -logit(q))
logpdf, pdf, cdf, logcdf, sf, logsf, ppf, isf = (_f[k] for k in ("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf",
                                                                 "ppf", "isf"))
__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf"]
