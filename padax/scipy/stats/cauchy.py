"""The Cauchy distribution: scipy.stats.cauchy's functions (x, loc=0, scale=1).

cdf(z) = atan2(1, -z) / pi keeps full relative precision in the lower tail (0.5 + atan(z)/pi
would cancel there)."""
import numpy as np

from padax import numpy as pnp
from padax.scipy.stats._family import continuous

_f = continuous(
    "cauchy", (), logpdf=lambda z: -float(np.log(np.pi)) - pnp.log1p(z * z),
    cdf=lambda z: pnp.arctan2(1.0, -z) / np.pi, sf=lambda z: pnp.arctan2(1.0, z) / np.pi,
    ppf=lambda q: pnp.tan(np.pi * (q - 0.5)), isf=lambda q: pnp.tan(np.pi * (0.5 - q)))
logpdf, pdf, cdf, logcdf, sf, logsf, ppf, isf = (_f[k] for k in ("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf",
                                                                 "ppf", "isf"))
__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf"]
