"""The von Mises distribution: scipy.stats.vonmises's density (x, kappa, loc=0, scale=1).

As in scipy the density is 2 pi-periodic (jax's is restricted to [-pi, pi]); its normaliser
uses i0e, so large kappa does not overflow.

Examples:
    >>> import padax
    >>> from padax.scipy import stats
    >>> stats.vonmises.pdf(padax.to_tensor([0.0, 1.0]), 2.0).tolist()
    [0.5159, 0.2057]
    >>> float(stats.vonmises.logpdf(0.0, 2.0))
    -0.6619
"""
import numpy as np

from padax import numpy as pnp
from padax.scipy.special import i0e
from padax.scipy.stats._family import continuous

_f = continuous("vonmises", ("kappa",),
                logpdf=lambda z, kappa: kappa * (pnp.cos(z) - 1.0) - float(np.log(2 * np.pi)) - pnp.log(i0e(kappa)))
logpdf, pdf = _f["logpdf"], _f["pdf"]
__all__ = ["logpdf", "pdf"]
