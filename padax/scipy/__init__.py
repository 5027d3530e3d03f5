"""`padax.scipy`: SciPy's names on padax arrays (like `jax.scipy`), for what padax has so far.

`padax.scipy.special` (logsumexp, expit, logit, erf, erfc, erfinv, gammaln,
digamma, xlogy, xlog1py, ndtr, ndtri) and `padax.scipy.stats.norm`. Everything
is built from padax primitives, so it works under jit, grad and vmap.
"""
from padax.scipy import special, stats  # noqa: F401
