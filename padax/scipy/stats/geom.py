"""The geometric distribution (trials up to the first success, k >= 1): scipy.stats.geom's
functions (k, p, loc=0).

Examples:
    >>> import padax
    >>> from padax.scipy import stats
    >>> stats.geom.pmf(padax.to_tensor([1.0, 2.0]), 0.5).tolist()
    [0.5, 0.25]
    >>> float(stats.geom.cdf(2.0, 0.5))
    0.75
"""
import numpy as np

from padax import numpy as pnp
from padax.scipy.special import xlog1py
from padax.scipy.stats._family import discrete, integer_support


def _logpmf(k, p):
    ok = integer_support(k, 1.0)
    return pnp.where(ok, xlog1py(pnp.where(ok, k, 1.0) - 1.0, -p) + pnp.log(p), -np.inf)


def _cdf(k, p):
    return pnp.where(k < 1, 0.0, -pnp.expm1(pnp.maximum(k, 1.0) * pnp.log1p(-p)))


def _sf(k, p):
    return pnp.where(k < 1, 1.0, pnp.exp(pnp.maximum(k, 1.0) * pnp.log1p(-p)))


def _ppf(q, p):
    return pnp.where(q == 0, 0.0, pnp.maximum(pnp.ceil(pnp.log1p(-q) / pnp.log1p(-p)), 1.0))


_f = discrete("geom", ("p",), logpmf=_logpmf, cdf=_cdf, sf=_sf, ppf=_ppf)
logpmf, pmf, cdf, logcdf, sf, logsf, ppf = (_f[k] for k in ("logpmf", "pmf", "cdf", "logcdf", "sf", "logsf", "ppf"))
__all__ = ["logpmf", "pmf", "cdf", "logcdf", "sf", "logsf", "ppf"]
