"""The exponential distribution: scipy.stats.expon's functions (x, loc=0, scale=1).

Examples:
    >>> import padax
    >>> from padax.scipy import stats
    >>> stats.expon.pdf(padax.to_tensor([0.0, 1.0])).tolist()
    [1.0, 0.3679]
    >>> float(stats.expon.cdf(1.0))
    0.6321
"""
import numpy as np

from padax import numpy as pnp
from padax.scipy.stats._family import continuous, log1mexp

_f = continuous(
    "expon", (), logpdf=lambda z: pnp.where(z >= 0, -z, -np.inf),
    cdf=lambda z: -pnp.expm1(-pnp.maximum(z, 0.0)), sf=lambda z: pnp.exp(-pnp.maximum(z, 0.0)),
    logcdf=lambda z: pnp.where(z > 0, log1mexp(-pnp.maximum(z, 1e-300)), -np.inf),
    logsf=lambda z: -pnp.maximum(z, 0.0), ppf=lambda q: -pnp.log1p(-q), isf=lambda q: -pnp.log(q))
logpdf, pdf, cdf, logcdf, sf, logsf, ppf, isf = (_f[k] for k in ("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf",
                                                                 "ppf", "isf"))
__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf"]
