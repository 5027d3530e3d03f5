"""The gamma distribution: scipy.stats.gamma's functions (x, a, loc=0, scale=1).

Examples:
    >>> import padax
    >>> from padax.scipy import stats
    >>> stats.gamma.pdf(padax.to_tensor([1.0, 2.0]), 2.0).tolist()
    [0.3679, 0.2707]
    >>> float(stats.gamma.cdf(2.0, 2.0))
    0.594
"""
import numpy as np

from padax import lax, numpy as pnp
from padax.scipy.special import gammainc, gammaincc, xlogy
from padax.scipy.stats._family import continuous, quantile_pair


def standard_logpdf(z, a):
    """log density of Gamma(a, 1) (shared with chi2)."""
    zs = pnp.where(z >= 0, z, 1.0)
    return pnp.where(z >= 0, xlogy(a - 1.0, zs) - zs - lax.lgamma(a), -np.inf)


def standard_cdf(z, a):
    return gammainc(a, pnp.maximum(z, 0.0))


def standard_sf(z, a):
    return gammaincc(a, pnp.maximum(z, 0.0))


_ppf, _isf = quantile_pair(standard_cdf, standard_sf, standard_logpdf, "positive")
_f = continuous("gamma", ("a",), logpdf=standard_logpdf, cdf=standard_cdf, sf=standard_sf, ppf=_ppf, isf=_isf)
logpdf, pdf, cdf, logcdf, sf, logsf, ppf, isf = (_f[k] for k in ("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf",
                                                                 "ppf", "isf"))
__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf"]
