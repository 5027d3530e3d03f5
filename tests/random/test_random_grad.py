"""Parameter gradients of the random samplers.

gamma (and loggamma, beta, dirichlet, built on it) differentiate by implicit
reparameterisation: dx/da = -(dP(a, x)/da) / pdf(x; a) at the drawn sample. padax's
Marsaglia-Tsang rejection loop draws different numbers than jax's for the same key, but
the gradient is a function of (a, x) only, so it is compared with jax's
`random_gamma_grad(a, x)` at padax's samples. Independently: numerically, as the
derivative of the quantile function at the sample's fixed quantile (scipy's
gammaincinv, central differences), and statistically, E[dx/da] = dE[x]/da.
Finite differences of the sampler itself are not the implicit gradient (the rejection
sampler is not the inverse CDF), which is why check_grads is applied to the
deterministic transformations around the draws instead.
poisson's output is an integer: its rate gets a float0 (zero) tangent, as in jax.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.special as sp

import padax
import padax.random as R
from padax.random._gamma_grad import gamma_log_sample_grad
from padax.test_util import check_grads

jax.config.update("jax_enable_x64", True)

SHAPES = np.array([1e-3, 0.05, 0.4, 1.0, 2.0, 5.0, 30.0, 200.0, 3000.0])
REPS = 16


def _alphas(dtype):
    return np.repeat(SHAPES, REPS).astype(dtype)


def _sample_and_grad(key, a):
    x = R.gamma(key, a)
    g = padax.grad(lambda t: R.gamma(key, t).sum())(a)
    return x, g


_sample_and_grad_jit = padax.jit(_sample_and_grad)


@pytest.mark.parametrize("dtype,rtol", [(np.float32, 5e-6), (np.float64, 1e-11)], ids=["float32", "float64"])
def test_gamma_grad_matches_jax(dtype, rtol):
    """padax.grad of gamma's samples == jax's random_gamma_grad(a, x) at those samples,
    computed in float64 (jax's own float32 result is less accurate for large a). The
    series/continued fraction cancel to about sqrt(a) ulps, hence the tolerance's growth."""
    with padax.enable_x64(dtype == np.float64):
        a = _alphas(dtype)
        x, g = (np.asarray(t) for t in _sample_and_grad_jit(R.key(3), a))
    assert g.dtype == dtype and g.shape == a.shape
    want = np.asarray(jax.lax.random_gamma_grad(jnp.asarray(a, jnp.float64), jnp.asarray(x, jnp.float64)))
    ok = x > 0   # samples of a = 1e-3 underflow to 0 in float32: gradient 0 (jax: 0 too)
    tol = rtol * np.maximum(1.0, np.sqrt(a))
    bad = np.abs(g - want) > tol * np.abs(want)
    assert not (bad & ok).any(), list(zip(a[bad & ok], g[bad & ok], want[bad & ok]))
    np.testing.assert_array_equal(g[~ok], 0)
    assert np.isfinite(g).all()


def test_gamma_grad_is_the_quantile_derivative(x64):
    """Numerically: with u = P(a, x) fixed, x(a) = P^{-1}(a, u); central differences of
    scipy's inverse agree with the implicit gradient."""
    a = _alphas(np.float64)
    x, g = (np.asarray(t) for t in _sample_and_grad_jit(R.key(4), a))
    u = sp.gammainc(a, x)
    keep = (u > 1e-8) & (u < 1 - 1e-8)
    h = 1e-6 * a
    num = (sp.gammaincinv(a + h, u) - sp.gammaincinv(a - h, u)) / (2 * h)
    np.testing.assert_allclose(g[keep], num[keep], rtol=1e-5)
    assert keep.sum() > 0.8 * keep.size


def test_gamma_grad_unbiased():
    """E[x] = a, so E[dx/da] = 1; E[x^2] = a(a+1), so E[2 x dx/da] = 2a + 1."""
    a = np.float32(2.5)
    key = R.key(11)
    n = 20000
    f = padax.jit(lambda t: R.gamma(key, t, (n,)))
    x = np.asarray(f(a), np.float64)
    _, pull = padax.vjp(f, a)
    g1 = float(np.asarray(pull(np.ones(n, np.float32))[0])) / n
    g2 = float(np.asarray(pull((2 * x).astype(np.float32))[0])) / n
    # standard errors: sd(dx/da) ~ 0.55, sd(2x dx/da) ~ 5 at a = 2.5
    assert abs(g1 - 1.0) < 4 * 0.6 / np.sqrt(n), g1
    assert abs(g2 - 6.0) < 4 * 6.0 / np.sqrt(n), g2


def test_loggamma_beta_dirichlet_chain_rule():
    """loggamma: d(log x)/da = (dx/da)/x. beta and dirichlet draw their gammas as
    loggamma of the stacked/broadcast parameters with the same key, so their gradients are
    the chain rule through X/(X+Y) (resp. the normalisation) of those gammas' gradients."""
    key = R.key(5)
    a = np.array([0.7, 2.0, 9.0], np.float32)
    b = np.array([1.5, 0.3, 4.0], np.float32)
    lg = np.asarray(R.loggamma(key, a), np.float64)
    g_lg = np.asarray(padax.jacfwd(lambda t: R.loggamma(key, t))(a))
    dxda = np.asarray(jax.lax.random_gamma_grad(jnp.asarray(a, jnp.float64), jnp.exp(lg)))
    np.testing.assert_allclose(np.diag(g_lg), dxda / np.exp(lg), rtol=1e-4)
    np.testing.assert_allclose(g_lg - np.diag(np.diag(g_lg)), 0, atol=0)

    # beta(a, b) = X / (X + Y) with (log X, log Y) = loggamma(key, stack([a, b]))
    lxy = np.asarray(R.loggamma(key, np.stack([a, b])), np.float64)
    X, Y = np.exp(lxy)
    gx = np.asarray(jax.lax.random_gamma_grad(jnp.asarray(a, jnp.float64), X))
    gy = np.asarray(jax.lax.random_gamma_grad(jnp.asarray(b, jnp.float64), Y))
    ga, gb = padax.grad(lambda s, t: R.beta(key, s, t).sum(), argnums=(0, 1))(a, b)
    np.testing.assert_allclose(np.asarray(R.beta(key, a, b)), X / (X + Y), rtol=1e-5)
    np.testing.assert_allclose(np.asarray(ga), gx * Y / (X + Y) ** 2, rtol=1e-4)
    np.testing.assert_allclose(np.asarray(gb), -gy * X / (X + Y) ** 2, rtol=1e-4)

    # dirichlet(alpha) = G / sum(G), G = exp(loggamma(key, alpha)) (shape (K,))
    alpha = np.array([0.5, 1.0, 4.0], np.float32)
    G = np.exp(np.asarray(R.loggamma(key, alpha), np.float64))
    gG = np.asarray(jax.lax.random_gamma_grad(jnp.asarray(alpha, jnp.float64), G))
    S = G.sum()
    want = (np.eye(3) / S - G[:, None] / S ** 2) * gG[None, :]    # d(G_i/S)/d alpha_j
    np.testing.assert_allclose(np.asarray(padax.jacfwd(lambda t: R.dirichlet(key, t))(alpha)), want,
                               rtol=1e-4, atol=1e-7)


def test_reverse_equals_forward_and_vmap_equals_loop():
    key = R.key(6)
    a = np.array([0.2, 1.0, 3.0, 40.0], np.float32)
    f = lambda t: R.beta(key, t, 2.0 * t)  # noqa: E731
    np.testing.assert_allclose(np.asarray(padax.jacrev(f)(a)), np.asarray(padax.jacfwd(f)(a)), rtol=1e-5)
    g = padax.grad(lambda t: R.gamma(key, t))
    got = np.asarray(padax.jit(padax.vmap(g))(a))
    np.testing.assert_allclose(got, [float(g(t)) for t in a], rtol=1e-6)


def test_gradients_through_surrounding_transformations_check_grads(x64):
    """check_grads on the deterministic transformations of the draws (scale and rate
    parameterisations): with the draw held at fixed noise, these are ordinary functions."""
    key = R.key(8)

    def scaled(scale, loc):
        return loc + scale * R.normal(key, (5,), dtype=np.float64)

    def exp_rate(rate):
        return R.exponential(key, (5,), dtype=np.float64) / rate

    check_grads(scaled, (np.float64(1.5), np.float64(-0.3)), order=2, modes=("fwd", "rev"))
    check_grads(exp_rate, (np.float64(2.0),), order=2, modes=("fwd", "rev"))


def test_gamma_grad_edge_values(x64):
    """a <= 0 or NaN: NaN gradient (like the sample); a zero sample: gradient 0."""
    a = np.array([0.0, -1.0, np.nan, 2.0])
    lx = np.array([-np.inf, 0.1, 0.1, -np.inf])
    g = np.asarray(padax.jit(gamma_log_sample_grad)(a, lx))
    assert np.isnan(g[:3]).all()
    assert g[3] == 0


def test_poisson_rate_gets_zero_tangent_like_jax():
    """Integer counts: the rate's tangent is float0 (jvp), and a float function of the counts
    has gradient 0 with respect to the rate; jax behaves the same."""
    lam = np.array([0.5, 3.0, 40.0], np.float32)
    key = R.key(9)
    out, t = padax.jvp(lambda l_: R.poisson(key, l_), (lam,), (np.ones(3, np.float32),))
    jout, jt = jax.jvp(lambda l_: jax.random.poisson(jax.random.key(9), l_), (lam,), (np.ones(3, np.float32),))
    assert np.asarray(out).dtype == np.int64
    assert t.dtype == jt.dtype == jax.dtypes.float0 and t.shape == jt.shape
    g = padax.grad(lambda l_: R.poisson(key, l_).astype("float32").sum())(lam)
    jg = jax.grad(lambda l_: jax.random.poisson(jax.random.key(9), l_).astype(jnp.float32).sum())(lam)
    np.testing.assert_array_equal(np.asarray(g), 0)
    np.testing.assert_array_equal(np.asarray(jg), 0)
    assert np.asarray(g).dtype == np.float32
