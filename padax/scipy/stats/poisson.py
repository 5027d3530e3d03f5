"""The Poisson distribution: scipy.stats.poisson's functions (k, mu, loc=0).

Examples:
    >>> import padax
    >>> from padax.scipy import stats
    >>> stats.poisson.pmf(padax.to_tensor([0.0, 2.0]), 2.0).tolist()
    [0.1353, 0.2707]
    >>> float(stats.poisson.cdf(2.0, 2.0))
    0.6767
"""
import numpy as np

from padax import lax, numpy as pnp
from padax.scipy.special import gammainc, gammaincc, xlogy
from padax.scipy.stats._family import discrete, integer_support


def _logpmf(k, mu):
    ok = integer_support(k)
    ks = pnp.where(ok, k, 0.0)
    return pnp.where(ok, xlogy(ks, mu) - mu - lax.lgamma(ks + 1.0), -np.inf)


def _cdf(k, mu):
    return pnp.where(k < 0, 0.0, gammaincc(pnp.maximum(k, 0.0) + 1.0, mu))


def _sf(k, mu):
    return pnp.where(k < 0, 1.0, gammainc(pnp.maximum(k, 0.0) + 1.0, mu))


_f = discrete("poisson", ("mu",), logpmf=_logpmf, cdf=_cdf, sf=_sf)
logpmf, pmf, cdf, logcdf, sf, logsf = (_f[k] for k in ("logpmf", "pmf", "cdf", "logcdf", "sf", "logsf"))
__all__ = ["logpmf", "pmf", "cdf", "logcdf", "sf", "logsf"]
