"""padax.scipy.stats against scipy.stats: every function of every distribution over its support
and beyond (with loc/scale), derivatives, jit/vmap; gaussian_kde, mode, rankdata, pearsonr."""
import warnings

import numpy as np
import pytest
import scipy.stats as st

import padax
import padax.scipy.stats as ps
from padax.test_util import check_grads

RNG = np.random.default_rng(99)
N = 40
X = np.concatenate([RNG.uniform(-6, 6, N - 4), [0.0, -30.0, 40.0, 1.0]])
POS = np.concatenate([RNG.uniform(0.01, 12, N - 4), [0.0, 1e-3, 60.0, -1.0]])
UNIT = np.concatenate([RNG.uniform(0.001, 0.999, N - 4), [0.0, 1.0, 0.5, 1e-12]])
K = np.concatenate([RNG.integers(0, 15, N - 4).astype(float), [-1.0, 0.0, 2.5, 40.0]])
Q = np.concatenate([RNG.uniform(0.001, 0.999, N - 3), [0.0, 1.0, 1e-10]])

# name: (module, x values, shape params, loc/scale or loc, function names)
CONT = ("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf")
CASES = {
    "norm": (ps.norm, X, (), CONT + ("ppf", "isf")),
    "t": (ps.t, X, (3.5,), CONT),
    "t_large_df": (ps.t, X, (250.0,), CONT),
    "beta": (ps.beta, UNIT, (2.5, 0.7), CONT),
    "gamma": (ps.gamma, POS, (2.5,), CONT),
    "gamma_small_a": (ps.gamma, POS, (0.3,), CONT),
    "chi2": (ps.chi2, POS, (4.0,), CONT),
    "expon": (ps.expon, POS, (), CONT + ("ppf", "isf")),
    "laplace": (ps.laplace, X, (), CONT + ("ppf", "isf")),
    "logistic": (ps.logistic, X, (), CONT + ("ppf", "isf")),
    "cauchy": (ps.cauchy, X, (), CONT + ("ppf", "isf")),
    "uniform": (ps.uniform, X / 4, (), CONT + ("ppf", "isf")),
    "truncnorm": (ps.truncnorm, X, (-1.0, 2.0), CONT + ("ppf", "isf")),
    "truncnorm_tail": (ps.truncnorm, X, (3.0, 9.0), CONT + ("ppf",)),     # (isf: see test_truncnorm_tail_isf)
    "vonmises": (ps.vonmises, X, (2.5,), ("logpdf", "pdf")),
    "gennorm": (ps.gennorm, X, (1.3,), CONT),
}
DISC = ("logpmf", "pmf", "cdf", "logcdf", "sf", "logsf")
DISCRETE = {
    "poisson": (ps.poisson, K, (4.5,), DISC),
    "bernoulli": (ps.bernoulli, np.clip(K, -1, 2), (0.3,), DISC + ("ppf",)),
    "binom": (ps.binom, K, (12.0, 0.35), DISC),
    "nbinom": (ps.nbinom, K, (3.0, 0.4), DISC),
    "geom": (ps.geom, K, (0.25,), DISC + ("ppf",)),
}


def test_truncnorm_tail_isf():
    # scipy.stats.truncnorm.isf(1e-10, 3, 9) = 7.308580279664025 is off by 1.4e-8; 50-digit mpmath:
    _check(ps.truncnorm.isf(np.array([1e-10, 0.3]), 3.0, 9.0), [7.308580178421866, 3.349375721157416], rtol=1e-13)


def _check(got, want, rtol=1e-12, atol=1e-300):
    np.testing.assert_allclose(np.asarray(got), want, rtol=rtol, atol=atol, equal_nan=True)


def _scipy(name, fn, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return getattr(getattr(st, name), fn)(*args, **kw)


@pytest.mark.parametrize("case", sorted(CASES))
def test_continuous(case):
    mod, x, shape, fns = CASES[case]
    dist = mod.__name__.rsplit(".", 1)[1]
    for fn in fns:
        arg = Q if fn in ("ppf", "isf") else x
        _check(getattr(mod, fn)(arg, *shape), _scipy(dist, fn, arg, *shape), rtol=1e-11)
        _check(getattr(mod, fn)(arg, *shape, loc=0.7, scale=1.9),
               _scipy(dist, fn, arg, *shape, loc=0.7, scale=1.9), rtol=1e-11)
    # a non-positive scale gives nan, as in scipy
    assert np.isnan(np.asarray(getattr(mod, fns[0])(x[:2], *shape, scale=-1.0))).all()


@pytest.mark.parametrize("case", sorted(DISCRETE))
def test_discrete(case):
    mod, k, shape, fns = DISCRETE[case]
    dist = mod.__name__.rsplit(".", 1)[1]
    for fn in fns:
        arg = Q if fn == "ppf" else k
        atol = 1e-20 if fn.startswith("log") else 1e-300    # (scipy rounds log cdf = -2e-25 to 0)
        _check(getattr(mod, fn)(arg, *shape), _scipy(dist, fn, arg, *shape), rtol=1e-11, atol=atol)
        _check(getattr(mod, fn)(arg, *shape, loc=2.0), _scipy(dist, fn, arg, *shape, loc=2.0), rtol=1e-11, atol=atol)


def test_float32_and_python_scalars():
    got = ps.norm.logpdf(X.astype(np.float32), 0.5, 2.0)
    assert got.dtype == np.float32
    _check(got, st.norm.logpdf(X.astype(np.float32), 0.5, 2.0), rtol=2e-6)
    assert ps.norm.cdf(1.0).dtype == padax.get_default_dtype()
    got = ps.gamma.cdf(POS.astype(np.float32), np.float32(2.5))
    _check(got, st.gamma.cdf(POS.astype(np.float32), 2.5), rtol=5e-6, atol=1e-30)


def test_multivariate_normal_and_dirichlet():
    mean = np.array([0.5, -1.0, 2.0])
    a = RNG.standard_normal((3, 3))
    cov = a @ a.T + np.eye(3)
    x = RNG.standard_normal((4, 5, 3))
    _check(ps.multivariate_normal.logpdf(x, mean, cov), st.multivariate_normal.logpdf(x, mean, cov))
    _check(ps.multivariate_normal.pdf(x[0, 0], mean, cov), st.multivariate_normal.pdf(x[0, 0], mean, cov))
    _check(ps.multivariate_normal.logpdf(x, mean, np.diag(cov)),
           st.multivariate_normal.logpdf(x, mean, np.diag(np.diag(cov))))
    _check(ps.multivariate_normal.logpdf(x[..., 0], 0.5, 2.0), st.norm.logpdf(x[..., 0], 0.5, np.sqrt(2.0)))
    singular = np.array([[1.0, 1.0, 0.0], [1.0, 1.0, 0.0], [0.0, 0.0, 2.0]])
    y = np.array([[0.3, 0.3, 1.0], [-1.0, -1.0, 0.5]])
    _check(ps.multivariate_normal.logpdf(y, np.zeros(3), singular, allow_singular=True),
           st.multivariate_normal.logpdf(y, np.zeros(3), singular, allow_singular=True), rtol=1e-10)
    alpha = np.array([1.5, 0.8, 3.0])
    pts = RNG.dirichlet(alpha, 6).T
    _check(ps.dirichlet.logpdf(pts, alpha), st.dirichlet.logpdf(pts, alpha), rtol=1e-11)
    _check(ps.dirichlet.pdf(pts[:, 0], alpha), st.dirichlet.pdf(pts[:, 0], alpha), rtol=1e-11)
    assert np.asarray(ps.dirichlet.logpdf(np.array([0.5, 0.6, 0.1]), alpha)) == -np.inf


def test_gaussian_kde():
    data = RNG.standard_normal((2, 60)) * np.array([[1.0], [3.0]])
    w = RNG.uniform(0.5, 2.0, 60)
    pts = RNG.standard_normal((2, 7))
    for bw in (None, "silverman", 0.4):
        kde, ref = ps.gaussian_kde(data, bw_method=bw, weights=w), st.gaussian_kde(data, bw_method=bw, weights=w)
        _check(kde(pts), ref(pts))
        _check(kde.logpdf(pts), ref.logpdf(pts))
        _check(kde.covariance, ref.covariance)
        _check(kde.neff, ref.neff)
    one = ps.gaussian_kde(data[0])
    ref = st.gaussian_kde(data[0])
    _check(one.integrate_box_1d(-0.5, 1.5), ref.integrate_box_1d(-0.5, 1.5))
    _check(one.integrate_gaussian(0.3, 2.0), ref.integrate_gaussian(0.3, 2.0))
    # a pytree: through jit, and differentiable in the evaluation points
    kde = ps.gaussian_kde(data)
    _check(padax.jit(lambda k, p: k(p))(kde, pts), st.gaussian_kde(data)(pts))
    g = padax.grad(lambda p: padax.numpy.sum(kde.logpdf(p)))(pts)
    eps = 1e-6
    fd = (np.asarray(kde.logpdf(pts + np.array([[eps], [0.0]]))) - np.asarray(kde.logpdf(pts - np.array([[eps], [0.0]])))) / (2 * eps)
    _check(np.asarray(g)[0], fd, rtol=1e-6)
    draws = kde.resample(padax.random.key(0), (2000,))
    assert draws.shape == (2, 2000)
    np.testing.assert_allclose(np.asarray(draws).mean(axis=1), data.mean(axis=1), atol=0.25)


def test_mode_rankdata_pearsonr():
    a = RNG.integers(0, 5, (6, 30))
    res = ps.mode(a, axis=1)
    ref = st.mode(a, axis=1)
    np.testing.assert_array_equal(np.asarray(res.mode), ref.mode)
    np.testing.assert_array_equal(np.asarray(res.count), ref.count)
    np.testing.assert_array_equal(np.asarray(ps.mode(a, axis=None, keepdims=True).mode),
                                  st.mode(a, axis=None, keepdims=True).mode)
    for method in ("average", "min", "max", "dense", "ordinal"):
        np.testing.assert_array_equal(np.asarray(ps.rankdata(a, method)), st.rankdata(a, method))
        np.testing.assert_array_equal(np.asarray(ps.rankdata(a, method, axis=1)), st.rankdata(a, method, axis=1))
    x, y = RNG.standard_normal(25), RNG.standard_normal(25)
    y = y + 0.4 * x
    for alt in ("two-sided", "less", "greater"):
        got, want = ps.pearsonr(x, y, alternative=alt), st.pearsonr(x, y, alternative=alt)
        _check(got.statistic, want.statistic)
        _check(got.pvalue, want.pvalue, rtol=1e-10)
    xs, ys = RNG.standard_normal((10, 3)), RNG.standard_normal((10, 3))
    _check(ps.pearsonr(xs, ys).statistic, st.pearsonr(xs, ys).statistic)
    with pytest.raises(ValueError, match="method"):
        ps.rankdata(a, "random")


def test_derivatives_and_transforms():
    x = np.array([-1.3, 0.2, 0.9, 2.5])
    check_grads(lambda v, m, s: ps.norm.logcdf(v, m, s), (x, np.full(4, 0.3), np.full(4, 1.7)), order=2)
    check_grads(lambda v, df: ps.t.logpdf(v, df), (x, np.full(4, 3.5)), order=2)
    check_grads(lambda v, a: ps.gamma.cdf(v, a), (np.abs(x) + 0.1, np.array([0.7, 2.0, 5.0, 9.0])), order=1)
    check_grads(lambda v, a, b: ps.truncnorm.logpdf(v, a, b), (x / 3, np.full(4, -1.0), np.full(4, 1.5)), order=1)
    check_grads(lambda m: ps.poisson.logpmf(np.array([0.0, 1.0, 4.0, 9.0]), m), (np.array([0.5, 2.0, 4.0, 8.0]),),
                order=2)
    # jit and vmap
    f = padax.jit(padax.vmap(lambda v, s: ps.cauchy.logcdf(v, scale=s)))
    _check(f(x, np.array([0.5, 1.0, 2.0, 3.0])), st.cauchy.logcdf(x, scale=[0.5, 1.0, 2.0, 3.0]))
    with pytest.raises(TypeError, match="t.logpdf is missing its shape parameter"):
        ps.t.logpdf(x)
    with pytest.raises(TypeError, match="unexpected keyword"):
        ps.norm.logpdf(x, mu=1.0)
