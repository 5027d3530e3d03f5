"""The normal distribution: scipy.stats.norm's functions (x, loc=0, scale=1).

Examples:
    >>> import padax
    >>> from padax.scipy import stats
    >>> stats.norm.pdf(padax.to_tensor([0.0, 1.0])).tolist()
    [0.3989, 0.242]
    >>> float(stats.norm.ppf(0.975))
    1.96
"""
from padax.scipy.special import log_ndtr, ndtr, ndtri
from padax.scipy.special._base import LOG_SQRT_2PI
from padax.scipy.stats._family import continuous

_f = continuous("norm", (), logpdf=lambda z: -0.5 * z * z - LOG_SQRT_2PI, cdf=ndtr, sf=lambda z: ndtr(-z),
                logcdf=log_ndtr, logsf=lambda z: log_ndtr(-z), ppf=ndtri, isf=lambda q: -ndtri(q))
logpdf, pdf, cdf, logcdf, sf, logsf, ppf, isf = (_f[k] for k in ("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf",
                                                                 "ppf", "isf"))
__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf"]
