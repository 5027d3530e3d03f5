"""The truncated normal distribution on [a, b] (in standard units): scipy.stats.truncnorm's
functions (x, a, b, loc=0, scale=1).

Masses Phi(b) - Phi(a) are computed in log space from the tail on the side of the interval
(log_ndtr of the nearer tail and log(1 - exp)), so far tails keep their precision.

Examples:
    >>> import padax
    >>> from padax.scipy import stats
    >>> stats.truncnorm.pdf(padax.to_tensor([0.0, 0.5]), -1.0, 1.0).tolist()
    [0.5844, 0.5157]
    >>> float(stats.truncnorm.cdf(0.0, -1.0, 1.0))
    0.5
"""
import numpy as np

from padax import numpy as pnp
from padax.scipy.special import log_ndtr, ndtr, ndtri
from padax.scipy.special._base import LOG_SQRT_2PI
from padax.scipy.stats._family import continuous, log1mexp


def _log_diff(hi, lo):
    """log(exp(hi) - exp(lo)) for hi >= lo."""
    return hi + log1mexp(pnp.minimum(lo - hi, 0.0))


def log_mass(a, b):
    """log(Phi(b) - Phi(a)) for a <= b."""
    left = _log_diff(log_ndtr(b), log_ndtr(a))            # both in the lower half
    right = _log_diff(log_ndtr(-a), log_ndtr(-b))         # both in the upper half
    middle = pnp.log1p(-ndtr(a) - ndtr(-b))
    return pnp.where(b <= 0, left, pnp.where(a >= 0, right, middle))


def _logpdf(z, a, b):
    inside = (z >= a) & (z <= b)
    return pnp.where(inside, -0.5 * z * z - LOG_SQRT_2PI - log_mass(a, b), -np.inf)


def _log_parts(z, a, b):
    """(log cdf, log sf), each from log1p(-other) where it is above 1/2."""
    zc = pnp.clip(z, a, b)
    total = log_mass(a, b)
    lc, ls = log_mass(a, zc) - total, log_mass(zc, b) - total
    half = -0.6931471805599453
    lc, ls = pnp.where(lc > half, pnp.log1p(-pnp.exp(ls)), lc), pnp.where(ls > half, pnp.log1p(-pnp.exp(lc)), ls)
    lc = pnp.where(z <= a, -np.inf, pnp.where(z >= b, 0.0, lc))
    ls = pnp.where(z >= b, -np.inf, pnp.where(z <= a, 0.0, ls))
    return lc, ls


def _logcdf(z, a, b):
    return _log_parts(z, a, b)[0]


def _logsf(z, a, b):
    return _log_parts(z, a, b)[1]


def _ppf(q, a, b):
    # from the lower tail when the interval lies below the median, from the upper one otherwise
    lower = ndtri(ndtr(a) + q * (ndtr(b) - ndtr(a)))
    upper = -ndtri(ndtr(-a) - q * (ndtr(-a) - ndtr(-b)))
    out = pnp.clip(pnp.where(a > 0, upper, lower), a, b)
    return pnp.where(q == 0, a, pnp.where(q == 1, b, out))


def _isf(q, a, b):
    return -_ppf(q, -b, -a)


_f = continuous("truncnorm", ("a", "b"), logpdf=_logpdf, cdf=lambda z, a, b: pnp.exp(_logcdf(z, a, b)),
                sf=lambda z, a, b: pnp.exp(_logsf(z, a, b)), logcdf=_logcdf, logsf=_logsf, ppf=_ppf, isf=_isf)
logpdf, pdf, cdf, logcdf, sf, logsf, ppf, isf = (_f[k] for k in ("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf",
                                                                 "ppf", "isf"))
__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf"]
