"""The negative binomial distribution (failures before the n-th success): scipy.stats.nbinom's
functions (k, n, p, loc=0).

Examples:
    >>> import padax
    >>> from padax.scipy import stats
    >>> stats.nbinom.pmf(padax.to_tensor([0.0, 1.0]), 2, 0.5).tolist()
    [0.25, 0.25]
    >>> float(stats.nbinom.cdf(1.0, 2, 0.5))
    0.5
"""
import numpy as np

from padax import numpy as pnp
from padax.scipy.special import betainc, betaln, xlog1py, xlogy
from padax.scipy.stats._family import discrete, integer_support


def _logpmf(k, n, p):
    ok = integer_support(k)
    ks = pnp.where(ok, k, 0.0)
    log_comb = -pnp.log(ks + n) - betaln(n, ks + 1.0)      # log C(k + n - 1, k)
    return pnp.where(ok, log_comb + xlogy(n, p) + xlog1py(ks, -p), -np.inf)


def _cdf(k, n, p):
    return pnp.where(k < 0, 0.0, betainc(n, pnp.maximum(k, 0.0) + 1.0, p))


def _sf(k, n, p):
    return pnp.where(k < 0, 1.0, betainc(pnp.maximum(k, 0.0) + 1.0, n, 1.0 - p))


_f = discrete("nbinom", ("n", "p"), logpmf=_logpmf, cdf=_cdf, sf=_sf)
logpmf, pmf, cdf, logcdf, sf, logsf = (_f[k] for k in ("logpmf", "pmf", "cdf", "logcdf", "sf", "logsf"))
__all__ = ["logpmf", "pmf", "cdf", "logcdf", "sf", "logsf"]
