"""The uniform distribution on [loc, loc + scale]: scipy.stats.uniform's functions (x, loc=0, scale=1).

Examples:
    >>> import padax
    >>> from padax.scipy import stats
    >>> stats.uniform.pdf(padax.to_tensor([0.5, 2.0]), 0.0, 1.0).tolist()
    [1.0, 0.0]
    >>> float(stats.uniform.cdf(0.25))
    0.25
"""
import numpy as np

from padax import numpy as pnp
from padax.scipy.stats._family import continuous

_f = continuous("uniform", (), logpdf=lambda z: pnp.where((z >= 0) & (z <= 1), 0.0, -np.inf),
                cdf=lambda z: pnp.clip(z, 0.0, 1.0), sf=lambda z: pnp.clip(1.0 - z, 0.0, 1.0),
                ppf=lambda q: q, isf=lambda q: 1.0 - q)
logpdf, pdf, cdf, logcdf, sf, logsf, ppf, isf = (_f[k] for k in ("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf",
                                                                 "ppf", "isf"))
__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf"]
