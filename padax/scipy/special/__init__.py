"""`padax.scipy.special`: scipy's / jax.scipy's special functions, built from padax ops.

Every function is elementwise with numpy broadcasting (integers become the default float),
works eagerly (one compiled program per signature), under jit and vmap, and is differentiable;
float16/bfloat16 inputs are computed in float32. Accuracy, algorithms and derivatives are
described in each family's module (_gamma, _beta, _erf, _bessel, _zeta, _elliptic, _legendre).
"""
from padax.scipy.special._beta import beta, betainc, betaln, comb  # noqa: F401
from padax.scipy.special._bessel import i0, i0e, i1, i1e, iv, ive, j0, j1, kv, kve, y0, y1  # noqa: F401
from padax.scipy.special._elliptic import ellipe, ellipk  # noqa: F401
from padax.scipy.special._erf import erf, erfc, erfcinv, erfcx, erfinv, log_ndtr, ndtr, ndtri  # noqa: F401
from padax.scipy.special._gamma import (digamma, factorial, gamma, gammainc, gammaincc, gammaln,  # noqa: F401
                                        gammasgn, multigammaln, poch, polygamma, psi, rgamma)
from padax.scipy.special._legendre import assoc_legendre_p_all, lpmn, lpmn_values, sph_harm_y  # noqa: F401
from padax.scipy.special._logs import (entr, expit, kl_div, log_softmax, logit, logsumexp, rel_entr,  # noqa: F401
                                       softmax, xlog1py, xlogy)
from padax.scipy.special._zeta import bernoulli, exp1, expn, zeta  # noqa: F401

__all__ = ["assoc_legendre_p_all", "bernoulli", "beta", "betainc", "betaln", "comb", "digamma", "ellipe",
           "ellipk", "entr", "erf", "erfc", "erfcinv", "erfcx", "erfinv", "exp1", "expit", "expn", "factorial",
           "gamma", "gammainc", "gammaincc", "gammaln", "gammasgn", "i0", "i0e", "i1", "i1e", "iv", "ive", "j0",
           "j1", "kl_div", "kv", "kve", "log_ndtr", "log_softmax", "logit", "logsumexp", "lpmn", "lpmn_values",
           "multigammaln", "ndtr", "ndtri", "poch", "polygamma", "psi", "rel_entr", "rgamma", "softmax",
           "sph_harm_y", "xlog1py", "xlogy", "y0", "y1", "zeta"]
