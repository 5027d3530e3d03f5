"""The chi-squared distribution: scipy.stats.chi2's functions (x, df, loc=0, scale=1): Gamma(df/2, 2).

Examples:
    >>> import padax
    >>> from padax.scipy import stats
    >>> stats.chi2.pdf(padax.to_tensor([1.0, 2.0]), 3.0).tolist()
    [0.242, 0.2076]
    >>> float(stats.chi2.cdf(2.0, 3.0))
    0.4276
"""
import numpy as np

from padax.scipy.stats._family import continuous, quantile_pair
from padax.scipy.stats.gamma import standard_cdf, standard_logpdf, standard_sf


def _logpdf(z, df):
    return standard_logpdf(0.5 * z, 0.5 * df) - float(np.log(2.0))


def _cdf(z, df):
    return standard_cdf(0.5 * z, 0.5 * df)


def _sf(z, df):
    return standard_sf(0.5 * z, 0.5 * df)


_ppf, _isf = quantile_pair(_cdf, _sf, _logpdf, "positive")
_f = continuous("chi2", ("df",), logpdf=_logpdf, cdf=_cdf, sf=_sf, ppf=_ppf, isf=_isf)
logpdf, pdf, cdf, logcdf, sf, logsf, ppf, isf = (_f[k] for k in ("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf",
                                                                 "ppf", "isf"))
__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf"]
