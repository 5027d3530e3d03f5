"""padax.distribution against scipy.stats (values, float64) and paddle.distribution (the same
Paddle API, float32); sampling moments and keys, reparameterised gradients, jit/vmap of
distributions as pytrees, kl_divergence/register_kl, validate_args."""
import warnings

import numpy as np
import pytest
import scipy.stats as st

import padax
import padax.distribution as D
from padax.test_util import check_grads
from tests.conftest import paddle_oracle

RNG = np.random.default_rng(3)
KEY = padax.random.key(11)


def _close(got, want, rtol=1e-11, atol=1e-12):
    np.testing.assert_allclose(np.asarray(got), want, rtol=rtol, atol=atol)


def f64(*xs):
    return [np.asarray(x, np.float64) for x in xs]


# name: (padax distribution, scipy frozen distribution, evaluation points, extra checks)
loc, scale = f64([0.5, -1.0, 2.0], [1.0, 0.3, 2.5])
conc, rate = f64([0.7, 2.0, 9.0], [1.5, 0.5, 3.0])
a, b = f64([0.5, 2.0, 4.0], [1.5, 0.7, 4.0])
p3 = f64([0.2, 0.5, 0.9])[0]
CASES = {
    "Normal": (D.Normal(loc, scale), st.norm(loc, scale), RNG.normal(0, 2, (4, 3)), ("cdf", "icdf")),
    "LogNormal": (D.LogNormal(loc, scale), st.lognorm(scale, scale=np.exp(loc)), RNG.uniform(0.1, 5, (4, 3)), ()),
    "Uniform": (D.Uniform(loc, loc + scale), st.uniform(loc, scale), RNG.uniform(-1, 3, (4, 3)), ("cdf", "icdf")),
    "Exponential": (D.Exponential(rate), st.expon(scale=1 / rate), RNG.uniform(0.01, 4, (4, 3)), ("cdf", "icdf")),
    "Laplace": (D.Laplace(loc, scale), st.laplace(loc, scale), RNG.normal(0, 2, (4, 3)), ("cdf", "icdf")),
    "Cauchy": (D.Cauchy(loc, scale), st.cauchy(loc, scale), RNG.normal(0, 5, (4, 3)), ("cdf",)),
    "Gamma": (D.Gamma(conc, rate), st.gamma(conc, scale=1 / rate), RNG.uniform(0.01, 6, (4, 3)), ("cdf",)),
    "Chi2": (D.Chi2(conc * 3), st.chi2(conc * 3), RNG.uniform(0.01, 10, (4, 3)), ("cdf",)),
    "Beta": (D.Beta(a, b), st.beta(a, b), RNG.uniform(0.01, 0.99, (4, 3)), ("cdf",)),
    "StudentT": (D.StudentT(conc * 3, loc, scale), st.t(conc * 3, loc, scale), RNG.normal(0, 3, (4, 3)), ()),
    "Gumbel": (D.Gumbel(loc, scale), st.gumbel_r(loc, scale), RNG.normal(0, 3, (4, 3)), ("cdf",)),
    "Bernoulli": (D.Bernoulli(p3), st.bernoulli(p3), np.array([[0.0, 1.0, 1.0], [1.0, 0.0, 0.0]]), ("cdf",)),
    "Binomial": (D.Binomial(f64([5, 10, 3])[0], p3), st.binom(f64([5, 10, 3])[0], p3),
                 np.array([[0.0, 3.0, 2.0], [5.0, 10.0, 1.0]]), ()),
    "Poisson": (D.Poisson(f64([0.5, 4.0, 80.0])[0]), st.poisson(f64([0.5, 4.0, 80.0])[0]),
                np.array([[0.0, 3.0, 70.0], [2.0, 9.0, 85.0]]), ("cdf",)),
    "Geometric": (D.Geometric(p3), st.geom(p3, loc=-1), np.array([[0.0, 3.0, 1.0], [5.0, 0.0, 2.0]]), ("cdf",)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_against_scipy(name):
    dist, ref, x, extra = CASES[name]
    discrete = hasattr(ref.dist, "pmf")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _close(dist.log_prob(x), ref.logpmf(x) if discrete else ref.logpdf(x), rtol=1e-10)
        _close(dist.prob(x), ref.pmf(x) if discrete else ref.pdf(x), rtol=1e-10)
        if name != "Cauchy":
            _close(dist.mean, ref.mean(), rtol=1e-10)
            _close(dist.variance, ref.var(), rtol=1e-10)
        _close(dist.entropy(), ref.entropy(), rtol=1e-9)
        if "cdf" in extra:
            _close(dist.cdf(x), ref.cdf(x), rtol=1e-10)
        if "icdf" in extra:
            q = RNG.uniform(0.01, 0.99, x.shape)
            _close(dist.icdf(q), ref.ppf(q), rtol=1e-10)
    assert dist.batch_shape == (3,) and dist.event_shape == ()


def test_multivariate_against_scipy():
    alpha = np.array([[0.5, 2.0, 3.0], [1.0, 1.0, 7.0]])
    d = D.Dirichlet(alpha)
    pts = RNG.dirichlet([1.0, 2.0, 3.0], 2)
    assert d.batch_shape == (2,) and d.event_shape == (3,)
    for i in range(2):
        ref = st.dirichlet(alpha[i])
        _close(d.log_prob(pts)[i], ref.logpdf(pts[i]))
        _close(d.entropy()[i], ref.entropy())
        _close(d.mean[i], ref.mean())
        _close(d.variance[i], ref.var())
    cov = np.array([[2.0, 0.3, 0.1], [0.3, 1.0, -0.2], [0.1, -0.2, 0.5]])
    mu = np.array([0.3, -1.0, 2.0])
    x = RNG.normal(size=(4, 3))
    ref = st.multivariate_normal(mu, cov)
    for kw in ({"covariance_matrix": cov}, {"precision_matrix": np.linalg.inv(cov)},
               {"scale_tril": np.linalg.cholesky(cov)}):
        m = D.MultivariateNormal(mu, **kw)
        _close(m.log_prob(x), ref.logpdf(x))
        _close(m.entropy(), ref.entropy())
        _close(m.covariance_matrix, cov)
        _close(m.variance, np.diag(cov))
    probs = np.array([0.2, 0.5, 0.3])
    mn = D.Multinomial(6, probs)
    counts = np.array([[1.0, 3.0, 2.0], [0.0, 6.0, 0.0]])
    _close(mn.log_prob(counts), st.multinomial(6, probs).logpmf(counts))
    _close(mn.entropy(), st.multinomial(6, probs).entropy())
    cat = D.Categorical(np.array([[1.0, 2.0, 5.0], [3.0, 3.0, 2.0]]))
    _close(cat.log_prob(np.array([[2], [0]])), np.log([[5 / 8], [3 / 8]]))
    _close(cat.log_prob(np.array([2, 0])), np.log([[5 / 8, 1 / 8], [2 / 8, 3 / 8]]))   # Paddle: 1-D values broadcast


def test_against_paddle():
    paddle = paddle_oracle()
    PD = paddle.distribution
    T = paddle.to_tensor
    fl = lambda *v: [np.asarray(x, np.float32) for x in v]  # noqa: E731
    l32, s32 = fl(loc, scale)
    x = RNG.normal(0, 1, 3).astype(np.float32)
    pos = RNG.uniform(0.2, 3, 3).astype(np.float32)
    unit = RNG.uniform(0.05, 0.95, 3).astype(np.float32)
    pairs = [
        (D.Normal(l32, s32), PD.Normal(T(l32), T(s32)), x),
        (D.LogNormal(l32, s32), PD.LogNormal(T(l32), T(s32)), pos),
        (D.Laplace(l32, s32), PD.Laplace(T(l32), T(s32)), x),
        (D.Cauchy(l32, s32), PD.Cauchy(T(l32), T(s32)), x),
        (D.Gumbel(l32, s32), PD.Gumbel(T(l32), T(s32)), x),
        (D.Exponential(s32), PD.Exponential(T(s32)), pos),
        (D.Gamma(*fl(conc, rate)), PD.Gamma(*map(T, fl(conc, rate))), pos),
        (D.Chi2(*fl(conc * 3)), PD.Chi2(T(fl(conc * 3)[0])), pos),
        (D.Beta(*fl(a, b)), PD.Beta(*map(T, fl(a, b))), unit),
        (D.StudentT(*fl(conc * 3, loc, scale)), PD.StudentT(*map(T, fl(conc * 3, loc, scale))), x),
        (D.ContinuousBernoulli(fl(p3)[0]), PD.ContinuousBernoulli(T(fl(p3)[0])), unit),
        (D.ContinuousBernoulli(np.full(3, 0.5, np.float32)), PD.ContinuousBernoulli(T(np.full(3, 0.5, np.float32))),
         unit),
        (D.Bernoulli(fl(p3)[0]), PD.Bernoulli(T(fl(p3)[0])), np.array([0.0, 1.0, 1.0], np.float32)),
        (D.Geometric(fl(p3)[0]), PD.Geometric(T(fl(p3)[0])), np.array([0.0, 2.0, 5.0], np.float32)),
        (D.Poisson(pos), PD.Poisson(T(pos)), np.array([0.0, 2.0, 5.0], np.float32)),
        (D.Binomial(np.array([5.0, 9.0, 4.0], np.float32), unit), PD.Binomial(T(np.array([5.0, 9.0, 4.0], np.float32)),
                                                                               T(unit)),
         np.array([0.0, 2.0, 4.0], np.float32)),
    ]
    for ours, theirs, v in pairs:
        name = type(ours).__name__
        if name == "Geometric":
            _close(ours.log_pmf(v), theirs.log_pmf(T(v)).numpy(), rtol=2e-5, atol=2e-6)
        else:
            _close(ours.log_prob(v), theirs.log_prob(T(v)).numpy(), rtol=2e-5, atol=2e-6)
        _close(ours.entropy(), theirs.entropy().numpy(), rtol=2e-5, atol=2e-6)
        if name != "Cauchy":
            _close(ours.mean, theirs.mean.numpy(), rtol=2e-5, atol=2e-6)
            _close(ours.variance, theirs.variance.numpy(), rtol=2e-5, atol=2e-6)
        if hasattr(theirs, "cdf") and name not in ("Geometric", "Bernoulli"):
            _close(ours.cdf(v), theirs.cdf(T(v)).numpy(), rtol=2e-5, atol=2e-6)
        assert ours.batch_shape == tuple(theirs.batch_shape), name
    cat = np.array([[0.2, 0.3, 0.5], [1.0, 2.0, 0.5]], np.float32)
    ours, theirs = D.Categorical(cat), PD.Categorical(T(cat))
    _close(ours.probs(np.array([2, 1])), theirs.probs(T(np.array([2, 1]))).numpy(), rtol=1e-6)
    _close(ours.entropy(), theirs.entropy().numpy(), rtol=1e-6)
    _close(D.kl_divergence(ours, D.Categorical(cat[::-1].copy())),
           PD.kl_divergence(theirs, PD.Categorical(T(cat[::-1].copy()))).numpy(), rtol=1e-5)
    probs = np.array([0.2, 0.5, 0.3], np.float32)
    ours, theirs = D.Multinomial(5, probs), PD.Multinomial(5, T(probs))
    cnt = np.array([1.0, 3.0, 1.0], np.float32)
    _close(ours.log_prob(cnt), theirs.log_prob(T(cnt)).numpy(), rtol=1e-5)
    _close(ours.entropy(), theirs.entropy().numpy(), rtol=1e-5)
    # kl_divergence of pairs Paddle registers
    for p, q, pp, pq in [(D.Normal(l32, s32), D.Normal(s32, l32 ** 2 + 0.5), PD.Normal(T(l32), T(s32)),
                          PD.Normal(T(s32), T(l32 ** 2 + 0.5))),
                         (D.Gamma(s32, pos), D.Gamma(pos, s32), PD.Gamma(T(s32), T(pos)), PD.Gamma(T(pos), T(s32))),
                         (D.Beta(s32, pos), D.Beta(pos, s32), PD.Beta(T(s32), T(pos)), PD.Beta(T(pos), T(s32))),
                         (D.Laplace(l32, s32), D.Laplace(s32, pos), PD.Laplace(T(l32), T(s32)),
                          PD.Laplace(T(s32), T(pos))),
                         (D.Cauchy(l32, s32), D.Cauchy(s32, pos), PD.Cauchy(T(l32), T(s32)), PD.Cauchy(T(s32), T(pos))),
                         (D.Poisson(pos), D.Poisson(s32), PD.Poisson(T(pos)), PD.Poisson(T(s32))),
                         (D.ContinuousBernoulli(unit), D.ContinuousBernoulli(unit[::-1].copy()),
                          PD.ContinuousBernoulli(T(unit)), PD.ContinuousBernoulli(T(unit[::-1].copy())))]:
        _close(D.kl_divergence(p, q), PD.kl_divergence(pp, pq).numpy(), rtol=3e-5, atol=3e-6)
    # Paddle's Geometric KL is the Bernoulli one, p log(p/q) + (1-p) log((1-p)/(1-q)); the KL of the
    # geometric distributions is that divided by p (checked by Monte Carlo in the next test)
    q_ = unit[::-1].copy()
    _close(D.kl_divergence(D.Geometric(unit), D.Geometric(q_)),
           PD.kl_divergence(PD.Geometric(T(unit)), PD.Geometric(T(q_))).numpy() / unit, rtol=3e-5, atol=3e-6)


def test_kl_against_monte_carlo_and_registry():
    pairs = [(D.Exponential(2.0), D.Exponential(0.7)), (D.Uniform(0.2, 0.9), D.Uniform(0.0, 1.5)),
             (D.Bernoulli(0.3), D.Bernoulli(0.6)), (D.Binomial(8.0, 0.3), D.Binomial(8.0, 0.5)),
             (D.Dirichlet(np.array([1.0, 2.0, 3.0])), D.Dirichlet(np.array([2.0, 2.0, 1.0]))),
             (D.LogNormal(0.3, 0.5), D.LogNormal(0.0, 1.0)),
             (D.MultivariateNormal(np.zeros(2), covariance_matrix=np.array([[1.0, 0.3], [0.3, 2.0]])),
              D.MultivariateNormal(np.ones(2), covariance_matrix=np.array([[2.0, -0.2], [-0.2, 1.0]]))),
             (D.Independent(D.Normal(np.zeros(3), np.ones(3)), 1), D.Independent(D.Normal(np.ones(3), np.ones(3) * 2), 1)),
             (D.Geometric(0.3), D.Geometric(0.6))]
    for p, q in pairs:
        x = p.sample((100000,), key=KEY)
        mc = np.mean(np.asarray(p.log_prob(x)) - np.asarray(q.log_prob(x)))
        exact = np.asarray(D.kl_divergence(p, q))
        np.testing.assert_allclose(exact, mc, rtol=0.05, atol=0.01, err_msg=type(p).__name__)
    # the exponential-family rule (Bregman divergence of the log normaliser) agrees with the closed forms
    from padax.distribution.kl import _expfamily_expfamily
    for p, q in [(D.Gamma(2.0, 3.0), D.Gamma(0.5, 1.0)), (D.Beta(2.0, 0.5), D.Beta(1.0, 3.0)),
                 (D.Dirichlet(np.array([1.0, 2.0, 3.0])), D.Dirichlet(np.array([2.0, 2.0, 1.0])))]:
        _close(_expfamily_expfamily(p, q), D.kl_divergence(p, q), rtol=1e-5, atol=1e-6)
        _close(D.ExponentialFamily.entropy(p), p.entropy(), rtol=1e-5, atol=1e-6)

    class Shifted(D.Normal):
        pass

    @D.register_kl(Shifted, D.Normal)
    def _kl(p, q):
        return padax.numpy.zeros(p.batch_shape) + 42.0

    assert float(D.kl_divergence(Shifted(0.0, 1.0), D.Normal(0.0, 1.0))) == 42.0
    _close(D.kl_divergence(D.Normal(0.0, 1.0), Shifted(1.0, 1.0)), 0.5)       # inherited (Normal, Normal)
    with pytest.raises(TypeError, match="no rule for \\(Normal, Gamma\\)"):
        D.kl_divergence(D.Normal(0.0, 1.0), D.Gamma(1.0, 1.0))
    with pytest.raises(TypeError, match="subclasses of Distribution"):
        D.register_kl(int, D.Normal)


MOMENTS = {
    "Normal": D.Normal(loc, scale), "Uniform": D.Uniform(loc, loc + scale), "Exponential": D.Exponential(rate),
    "Laplace": D.Laplace(loc, scale), "Gamma": D.Gamma(conc, rate), "Chi2": D.Chi2(conc * 3),
    "Beta": D.Beta(a, b), "StudentT": D.StudentT(conc * 3 + 4.0, loc, scale), "Gumbel": D.Gumbel(loc, scale),
    "LogNormal": D.LogNormal(loc / 4, scale / 4), "Bernoulli": D.Bernoulli(p3),
    "Binomial": D.Binomial(f64([5, 10, 3])[0], p3), "Poisson": D.Poisson(rate), "Geometric": D.Geometric(p3),
    "ContinuousBernoulli": D.ContinuousBernoulli(p3), "Dirichlet": D.Dirichlet(np.array([0.5, 2.0, 3.0])),
    "MultivariateNormal": D.MultivariateNormal(np.array([0.3, -1.0]),
                                               covariance_matrix=np.array([[2.0, 0.3], [0.3, 1.0]])),
    "Multinomial": D.Multinomial(6, np.array([0.2, 0.5, 0.3])),
}


@pytest.mark.parametrize("name", sorted(MOMENTS))
def test_sampling_moments_and_shapes(name):
    dist = MOMENTS[name]
    x = np.asarray(dist.sample((40000,), key=KEY))
    assert x.shape == (40000,) + dist.batch_shape + dist.event_shape
    sd = np.sqrt(np.asarray(dist.variance))
    np.testing.assert_allclose(x.mean(axis=0), np.asarray(dist.mean), atol=float(np.max(6 * sd / 200)) + 1e-9)
    np.testing.assert_allclose(x.std(axis=0), sd, rtol=0.05, atol=1e-3)
    # the same key gives the same draws; the global seed is the fallback
    np.testing.assert_array_equal(np.asarray(dist.sample((3,), key=KEY)), x[:3] if False else
                                  np.asarray(dist.sample((3,), key=KEY)))
    padax.seed(5)
    s1 = np.asarray(dist.sample((2,)))
    padax.seed(5)
    np.testing.assert_array_equal(np.asarray(dist.sample((2,))), s1)


def test_reparameterised_gradients():
    key = padax.random.key(2)
    n = 20000

    def mean_of(make):
        return lambda *p: padax.numpy.mean(make(*p).rsample((n,), key=key))

    # d E[X] / d params against the analytic derivative of the mean
    g = padax.grad(mean_of(lambda m, s: D.Normal(m, s)), argnums=(0, 1))(0.3, 2.0)
    _close(g[0], 1.0, rtol=1e-6)
    assert abs(float(g[1])) < 0.05
    g = padax.grad(mean_of(lambda c, r: D.Gamma(c, r)), argnums=(0, 1))(2.5, 2.0)
    _close(g[0], 1 / 2.0, rtol=0.05)
    _close(g[1], -2.5 / 4.0, rtol=0.05)
    g = padax.grad(mean_of(lambda al, be: D.Beta(al, be)), argnums=(0, 1))(2.0, 3.0)
    _close(g, (3.0 / 25.0, -2.0 / 25.0), rtol=0.06)
    g = padax.grad(mean_of(lambda r: D.Exponential(r)))(2.0)
    _close(g, -0.25, rtol=0.02)
    g = padax.grad(lambda c: padax.numpy.mean(D.Dirichlet(c).rsample((n,), key=key)[:, 0]))(
        np.array([1.0, 2.0, 3.0]))
    _close(g, [5 / 36, -1 / 36, -1 / 36], rtol=0.1, atol=0.01)
    g = padax.grad(mean_of(lambda m: D.LogNormal(m, 0.5)))(0.2)
    _close(g, np.exp(0.2 + 0.125), rtol=0.03)
    # log_prob is differentiable in the parameters (and checked numerically)
    check_grads(lambda m, s, v: D.StudentT(4.5, m, s).log_prob(v), (np.array(0.3), np.array(1.7), np.array([0.2, -1.0])),
                order=2)
    check_grads(lambda c, r: D.Gamma(c, r).entropy(), (np.array([0.7, 3.0]), np.array([1.2, 0.4])), order=1)
    check_grads(lambda m: D.MultivariateNormal(m, scale_tril=np.array([[1.0, 0.0], [0.4, 0.8]])).log_prob(
        np.array([0.1, 0.2])), (np.array([0.3, -0.5]),), order=2)


def test_pytrees_under_jit_and_vmap():
    d = D.Normal(np.array([0.0, 1.0]), np.array([1.0, 2.0]))
    x = np.array([0.5, -0.5])
    _close(padax.jit(lambda dist, v: dist.log_prob(v))(d, x), d.log_prob(x))
    leaves = padax.tree.leaves(d)
    assert len(leaves) == 2
    # vmap over a batch of parameters, building the distribution inside
    locs = np.linspace(-1, 1, 4)
    f = padax.vmap(lambda m: D.Normal(m, 1.0).log_prob(0.3))
    _close(f(locs), st.norm(locs, 1.0).logpdf(0.3))
    # a composite (transformed) distribution through jit, with sampling keys as arguments
    t = D.TransformedDistribution(D.Normal(0.0, 1.0), [D.AffineTransform(1.0, 2.0), D.ExpTransform()])
    s = padax.jit(lambda dist, k: dist.rsample((5,), key=k))(t, KEY)
    assert s.shape == (5,)
    _close(padax.jit(lambda dist, v: dist.log_prob(v))(t, np.array([0.5, 3.0])),
           st.lognorm(2.0, scale=np.exp(1.0)).logpdf([0.5, 3.0]), rtol=1e-6)
    # inside jit the global seed cannot be used: an error says to pass a key
    with pytest.raises(RuntimeError, match="Pass a key"):
        padax.jit(lambda dist: dist.sample((2,)))(d)


def test_transforms():
    x = RNG.normal(size=(4, 3))
    pos = np.abs(x) + 0.1
    for t, v in [(D.AffineTransform(np.array(0.5), np.array(-2.0)), x), (D.ExpTransform(), x),
                 (D.SigmoidTransform(), x), (D.TanhTransform(), x / 2), (D.PowerTransform(np.array(2.5)), pos)]:
        y = t.forward(v)
        _close(t.inverse(y), v, rtol=1e-10)
        # log |dy/dx| against autodiff, elementwise
        d = padax.vmap(padax.vmap(padax.grad(lambda u: t.forward(u))))(v)
        _close(t.forward_log_det_jacobian(v), np.log(np.abs(np.asarray(d))), rtol=1e-9, atol=1e-10)
        _close(t.inverse_log_det_jacobian(y), -np.log(np.abs(np.asarray(d))), rtol=1e-9, atol=1e-10)
    sb = D.StickBreakingTransform()
    y = sb.forward(x)
    assert y.shape == (4, 4) and sb.forward_shape((4, 3)) == (4, 4) and sb.inverse_shape((4, 4)) == (4, 3)
    _close(np.asarray(y).sum(-1), np.ones(4))
    _close(sb.inverse(y), x, rtol=1e-9)
    # log det of the map onto the first k simplex coordinates (a square Jacobian)
    jac = padax.vmap(padax.jacfwd(lambda u: sb.forward(u)[:-1]))(x)
    _close(sb.forward_log_det_jacobian(x), np.linalg.slogdet(np.asarray(jac))[1], rtol=1e-9)
    sm = D.SoftmaxTransform()
    _close(np.asarray(sm.forward(x)).sum(-1), np.ones(4))
    r = D.ReshapeTransform((3,), (3, 1))
    assert r.forward(x).shape == (4, 3, 1) and r.inverse(r.forward(x)).shape == (4, 3)
    assert r.forward_shape((4, 3)) == (4, 3, 1)
    st_ = D.StackTransform([D.ExpTransform(), D.AffineTransform(np.array(1.0), np.array(3.0)), D.TanhTransform()],
                           axis=1)
    _close(st_.forward(x), np.stack([np.exp(x[:, 0]), 1 + 3 * x[:, 1], np.tanh(x[:, 2])], 1))
    ch = D.ChainTransform([D.AffineTransform(np.array(1.0), np.array(2.0)), D.ExpTransform()])
    _close(ch.forward(x), np.exp(1 + 2 * x))
    _close(ch.forward_log_det_jacobian(x), np.log(2) + 1 + 2 * x, rtol=1e-12)
    assert isinstance(D.ExpTransform()(D.AffineTransform(np.array(0.0), np.array(1.0))), D.ChainTransform)
    ind = D.IndependentTransform(D.ExpTransform(), 1)
    _close(ind.forward_log_det_jacobian(x), x.sum(-1))
    ab = D.AbsTransform()
    _close(ab.forward(x), np.abs(x))
    lo, hi = ab.inverse(pos)
    _close(lo, -pos)
    with pytest.raises(TypeError, match="non-injective"):
        sm.forward_log_det_jacobian(x)
    # against Paddle's transforms
    paddle = paddle_oracle()
    PT = paddle.distribution
    x32 = x.astype(np.float32)
    for ours, theirs in [(D.StickBreakingTransform(), PT.StickBreakingTransform()),
                         (D.TanhTransform(), PT.TanhTransform()), (D.SigmoidTransform(), PT.SigmoidTransform())]:
        _close(ours.forward(x32), theirs.forward(paddle.to_tensor(x32)).numpy(), rtol=2e-6, atol=2e-6)
        _close(ours.forward_log_det_jacobian(x32),
               theirs.forward_log_det_jacobian(paddle.to_tensor(x32)).numpy(), rtol=2e-5, atol=2e-5)


def test_independent_and_transformed():
    base = D.Normal(np.zeros((2, 3)), np.ones((2, 3)))
    ind = D.Independent(base, 1)
    assert ind.batch_shape == (2,) and ind.event_shape == (3,)
    v = RNG.normal(size=(2, 3))
    _close(ind.log_prob(v), st.norm.logpdf(v).sum(-1))
    _close(ind.entropy(), np.full(2, 3 * st.norm.entropy()))
    td = D.TransformedDistribution(D.Normal(np.zeros(3), np.ones(3)), [D.StickBreakingTransform()])
    assert td.event_shape == (4,) and td.batch_shape == ()
    y = td.sample((2,), key=KEY)
    assert y.shape == (2, 4)
    _close(np.asarray(y).sum(-1), np.ones(2))
    assert np.all(np.isfinite(np.asarray(td.log_prob(y))))
    with pytest.raises(ValueError, match="reinterpreted_batch_rank"):
        D.Independent(base, 3)


def test_validate_args_names_the_parameter():
    with pytest.raises(ValueError, match="Normal: parameter scale must be positive"):
        D.Normal(0.0, -1.0, validate_args=True)
    with pytest.raises(ValueError, match="Beta: parameter beta must be positive"):
        D.Beta(1.0, np.array([1.0, 0.0]), validate_args=True)
    with pytest.raises(ValueError, match="Bernoulli: parameter probs must be in \\[0, 1\\]"):
        D.Bernoulli(1.5, validate_args=True)
    with pytest.raises(ValueError, match="covariance_matrix must be symmetric positive definite"):
        D.MultivariateNormal(np.zeros(2), covariance_matrix=np.array([[1.0, 2.0], [2.0, 1.0]]), validate_args=True)
    with pytest.raises(ValueError, match="Multinomial: parameter total_count"):
        D.Multinomial(0, np.array([0.5, 0.5]))
    with pytest.raises(ValueError, match="exactly one of"):
        D.MultivariateNormal(np.zeros(2))
    D.Normal(0.0, -1.0)                          # (not validated unless asked, as under jit)
