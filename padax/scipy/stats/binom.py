"""The binomial distribution: scipy.stats.binom's functions (k, n, p, loc=0).

Examples:
    >>> import padax
    >>> from padax.scipy import stats
    >>> stats.binom.pmf(padax.to_tensor([0.0, 2.0]), 4, 0.5).tolist()
    [0.0625, 0.375]
    >>> float(stats.binom.cdf(2.0, 4, 0.5))
    0.6875
"""
import numpy as np

from padax import numpy as pnp
from padax.scipy.special import betainc, betaln, xlog1py, xlogy
from padax.scipy.stats._family import discrete, integer_support


def _logpmf(k, n, p):
    ok = integer_support(k) & (k <= n)
    ks = pnp.where(ok, k, 0.0)
    log_comb = -pnp.log1p(n) - betaln(n - ks + 1.0, ks + 1.0)
    return pnp.where(ok, log_comb + xlogy(ks, p) + xlog1py(n - ks, -p), -np.inf)


def _cdf(k, n, p):
    inside = (k >= 0) & (k < n)
    ks = pnp.where(inside, k, 0.0)
    return pnp.where(k < 0, 0.0, pnp.where(k >= n, 1.0, betainc(n - ks, ks + 1.0, 1.0 - p)))


def _sf(k, n, p):
    inside = (k >= 0) & (k < n)
    ks = pnp.where(inside, k, 0.0)
    return pnp.where(k < 0, 1.0, pnp.where(k >= n, 0.0, betainc(ks + 1.0, n - ks, p)))


_f = discrete("binom", ("n", "p"), logpmf=_logpmf, cdf=_cdf, sf=_sf)
logpmf, pmf, cdf, logcdf, sf, logsf = (_f[k] for k in ("logpmf", "pmf", "cdf", "logcdf", "sf", "logsf"))
__all__ = ["logpmf", "pmf", "cdf", "logcdf", "sf", "logsf"]
