"""The beta distribution: scipy.stats.beta's functions (x, a, b, loc=0, scale=1).

Examples:
    >>> import padax
    >>> from padax.scipy import stats
    >>> stats.beta.pdf(padax.to_tensor([0.25, 0.5]), 2.0, 3.0).tolist()
    [1.6875, 1.5]
    >>> float(stats.beta.cdf(0.5, 2.0, 3.0))
    0.6875
"""
import numpy as np

from padax import numpy as pnp
from padax.scipy.special import betainc, betaln, xlog1py, xlogy
from padax.scipy.stats._family import continuous, quantile_pair


def _logpdf(z, a, b):
    inside = (z >= 0) & (z <= 1)
    zs = pnp.where(inside, z, 0.5)
    return pnp.where(inside, xlogy(a - 1.0, zs) + xlog1py(b - 1.0, -zs) - betaln(a, b), -np.inf)


def _cdf(z, a, b):
    return betainc(a, b, pnp.clip(z, 0.0, 1.0))


def _sf(z, a, b):
    return betainc(b, a, pnp.clip(1.0 - z, 0.0, 1.0))


_ppf, _isf = quantile_pair(_cdf, _sf, _logpdf, "unit")
_f = continuous("beta", ("a", "b"), logpdf=_logpdf, cdf=_cdf, sf=_sf, ppf=_ppf, isf=_isf)
logpdf, pdf, cdf, logcdf, sf, logsf, ppf, isf = (_f[k] for k in ("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf",
                                                                 "ppf", "isf"))
__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf"]
