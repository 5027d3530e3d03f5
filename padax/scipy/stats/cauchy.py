"""The Cauchy distribution: scipy.stats.cauchy's functions (x, loc=0, scale=1).

cdf(z) = atan2(1, -z) / pi keeps full relative precision in the lower tail (0.5 + atan(z)/pi
would cancel there).

Examples:
    >>> import padax
    >>> from padax.scipy import stats
    >>> stats.cauchy.pdf(padax.to_tensor([0.0, 1.0])).tolist()
    [0.3183, 0.1592]
    >>> float(stats.cauchy.cdf(1.0))
    0.75
"""
import numpy as np

from padax import numpy as pnp
from padax.scipy.stats._family import continuous


def _ppf(q):
    """-cot(pi q) from the nearer end (q or 1 - q is exact there): full precision in both tails."""
    lower = q < 0.5
    r = pnp.where(lower, q, 1.0 - q)
    t = pnp.cos(np.pi * r) / pnp.sin(np.pi * r)
    out = pnp.where(lower, -t, t)
    return pnp.where(q == 0, -np.inf, pnp.where(q == 1, np.inf, pnp.where(q == 0.5, 0.0, out)))


_f = continuous(
    "cauchy", (), logpdf=lambda z: -float(np.log(np.pi)) - pnp.log1p(z * z),
    cdf=lambda z: pnp.arctan2(1.0, -z) / np.pi, sf=lambda z: pnp.arctan2(1.0, z) / np.pi,
    ppf=_ppf, isf=lambda q: -_ppf(q))
logpdf, pdf, cdf, logcdf, sf, logsf, ppf, isf = (_f[k] for k in ("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf",
                                                                 "ppf", "isf"))
__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf"]
