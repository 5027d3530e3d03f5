"""The Bernoulli distribution: scipy.stats.bernoulli's functions (k, p, loc=0).

Examples:
    >>> import padax
    >>> from padax.scipy import stats
    >>> stats.bernoulli.pmf(padax.to_tensor([0.0, 1.0]), 0.3).tolist()
    [0.7, 0.3]
    >>> float(stats.bernoulli.cdf(0.0, 0.3))
    0.7
"""
import numpy as np

from padax import numpy as pnp
from padax.scipy.special import xlog1py, xlogy
from padax.scipy.stats._family import discrete


def _logpmf(k, p):
    ok = (k == 0) | (k == 1)
    return pnp.where(ok, xlogy(k, p) + xlog1py(1.0 - k, -p), -np.inf)


def _cdf(k, p):
    return pnp.where(k < 0, 0.0, pnp.where(k < 1, 1.0 - p, 1.0))


def _ppf(q, p):
    return pnp.where(q == 0, -1.0, pnp.where(q > 1.0 - p, 1.0, 0.0))      # (scipy: ppf(0) = min support - 1)


_f = discrete("bernoulli", ("p",), logpmf=_logpmf, cdf=_cdf, ppf=_ppf)
logpmf, pmf, cdf, logcdf, sf, logsf, ppf = (_f[k] for k in ("logpmf", "pmf", "cdf", "logcdf", "sf", "logsf", "ppf"))
__all__ = ["logpmf", "pmf", "cdf", "logcdf", "sf", "logsf", "ppf"]
