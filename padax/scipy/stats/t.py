"""Student's t distribution: scipy.stats.t's functions (x, df, loc=0, scale=1).

cdf and sf come from the regularised incomplete beta function, I_{df/(df+z^2)}(df/2, 1/2) / 2
being the tail beyond |z| (no cancellation in either tail).

Examples:
    >>> import padax
    >>> from padax.scipy import stats
    >>> stats.t.pdf(padax.to_tensor([0.0, 1.0]), 3.0).tolist()
    [0.3676, 0.2067]
    >>> float(stats.t.cdf(1.0, 3.0))
    0.8045
"""
import numpy as np

from padax import lax, numpy as pnp
from padax.scipy.special import betainc
from padax.scipy.stats._family import continuous, quantile_pair


def _logpdf(z, df):
    return (lax.lgamma(0.5 * (df + 1.0)) - lax.lgamma(0.5 * df) - 0.5 * pnp.log(df * np.pi)
            - 0.5 * (df + 1.0) * pnp.log1p(z * z / df))


def _tail(z, df):
    """P(T > |z|)."""
    return 0.5 * betainc(0.5 * df, pnp.full_like(df, 0.5), df / (df + z * z))


def _cdf(z, df):
    tail = _tail(z, df)
    return pnp.where(z < 0, tail, 1.0 - tail)


def _sf(z, df):
    return _cdf(-z, df)


_ppf, _isf = quantile_pair(_cdf, _sf, _logpdf, "symmetric")
_f = continuous("t", ("df",), logpdf=_logpdf, cdf=_cdf, sf=_sf, ppf=_ppf, isf=_isf)
logpdf, pdf, cdf, logcdf, sf, logsf, ppf, isf = (_f[k] for k in ("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf",
                                                                 "ppf", "isf"))
__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf"]
