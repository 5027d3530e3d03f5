"""ppf/isf of the distributions without a closed-form quantile (t, beta, gamma, chi2, gennorm)
against scipy.stats over a grid reaching far into both tails, in float64 and float32, and their
first derivatives (in q and in the shape parameters) against 1/pdf and scipy's finite differences."""
import warnings

import numpy as np
import pytest
import scipy.stats as st

import padax
import padax.scipy.stats as ps

Q = np.array([0.0, 1e-100, 1e-30, 1e-10, 1e-3, 0.1, 0.3, 0.5, 0.7, 0.9, 0.999, 1 - 1e-10, 1.0])
CASES = [("t", (3.5,)), ("t", (0.7,)), ("t", (250.0,)), ("beta", (2.5, 0.7)), ("beta", (0.3, 0.2)),
         ("gamma", (2.5,)), ("gamma", (0.3,)), ("gamma", (80.0,)), ("chi2", (4.0,)), ("gennorm", (1.3,))]


def _scipy(name, fn, q, *shape, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return getattr(getattr(st, name), fn)(q, *shape, **kw)


FAST = {("t", (3.5,))}  # the rest run with --runslow
PARAMS = [pytest.param(n, s, id=f"{n}{s}", marks=() if (n, s) in FAST else pytest.mark.slow) for n, s in CASES]
PARAMS64 = [pytest.param(n, s, id=f"{n}{s}", marks=() if n == "t" and s == (3.5,) else pytest.mark.slow)
            for n, s in CASES]


@pytest.mark.parametrize("name,shape", PARAMS64)
def test_quantiles_float64(name, shape):
    mod = getattr(ps, name)
    for fn in ("ppf", "isf"):
        got = getattr(mod, fn)(Q, *shape)
        assert got.dtype == np.float64
        want = _scipy(name, fn, Q, *shape)
        if name == "beta" and shape == (0.3, 0.2) and fn == "ppf":
            want[1] = 0.0       # the quantile underflows (scipy clamps it to the smallest normal float)
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12, atol=0)
        got = getattr(mod, fn)(Q, *shape, loc=0.7, scale=1.9)
        np.testing.assert_allclose(np.asarray(got), _scipy(name, fn, Q, *shape, loc=0.7, scale=1.9), rtol=1e-12)
    # out of [0, 1] (or a non-positive scale) is nan, as in scipy
    assert np.isnan(np.asarray(mod.ppf(np.array([-0.1, 1.1]), *shape))).all()
    assert np.isnan(np.asarray(mod.isf(0.3, *shape, scale=-1.0)))


def test_t_quantile_beyond_scipy():
    # scipy's t.ppf(1e-200, 3.5) = -9.1e56 has cdf 7.8e-200; ours gives 1e-200 back through scipy's cdf
    x = ps.t.ppf(np.array([1e-200, 1e-300]), 3.5)
    np.testing.assert_allclose(st.t.cdf(np.asarray(x), 3.5), [1e-200, 1e-300], rtol=1e-12)
    np.testing.assert_allclose(st.t.sf(np.asarray(ps.t.isf(np.array(1e-200), 3.5)), 3.5), 1e-200, rtol=1e-12)


@pytest.mark.parametrize("name,shape", PARAMS)
def test_quantiles_float32(name, shape):
    mod = getattr(ps, name)
    q32 = Q.astype(np.float32)
    for fn in ("ppf", "isf"):
        got = getattr(mod, fn)(q32, *(np.float32(s) for s in shape))
        assert got.dtype == np.float32
        want = _scipy(name, fn, q32.astype(np.float64), *shape)
        with np.errstate(over="ignore"):
            want32 = want.astype(np.float32)
        # where the float64 quantile is outside float32's normal range, float32 cdfs cannot reach it
        fine = (np.abs(want32) >= np.finfo(np.float32).tiny) & (np.abs(want) < 1e18) | (want == 0) | np.isinf(want)
        np.testing.assert_allclose(np.asarray(got)[fine], want32[fine], rtol=4e-5, atol=0)


@pytest.mark.parametrize("name,shape", [("t", (3.5,))] + [pytest.param(n, s, marks=pytest.mark.slow) for n, s in
                                                          (("beta", (2.5, 0.7)), ("gamma", (0.3,)), ("chi2", (4.0,)))])
def test_quantile_derivatives(name, shape):
    mod = getattr(ps, name)
    q = np.array([1e-6, 0.2, 0.5, 0.9, 1 - 1e-6]) if name != "t" else np.array([1e-6, 0.2, 0.7, 1 - 1e-6])
    for fn, sign in (("ppf", 1.0), ("isf", -1.0)):
        x = _scipy(name, fn, q, *shape)
        dq = padax.vmap(padax.grad(lambda qq: getattr(mod, fn)(qq, *shape)))(padax.to_tensor(q))
        np.testing.assert_allclose(np.asarray(dq), sign / _scipy(name, "pdf", x, *shape), rtol=1e-9)
        for i in range(len(shape)):
            def f(s, qq):
                sh = list(shape)
                sh[i] = s
                return getattr(mod, fn)(qq, *sh)
            ds = padax.vmap(padax.grad(f), in_axes=(None, 0))(padax.to_tensor(shape[i]), padax.to_tensor(q))
            h = 1e-6 * shape[i]
            up, dn = list(shape), list(shape)
            up[i] += h
            dn[i] -= h
            fd = (_scipy(name, fn, q, *up) - _scipy(name, fn, q, *dn)) / (2 * h)
            np.testing.assert_allclose(np.asarray(ds), fd, rtol=2e-5, atol=1e-9)


@pytest.mark.slow
def test_quantiles_jit_and_low_precision():
    f = padax.jit(lambda q, a: ps.gamma.ppf(q, a))
    np.testing.assert_allclose(np.asarray(f(Q, 2.5)), st.gamma.ppf(Q, 2.5), rtol=1e-12)
    got = ps.beta.ppf(padax.to_tensor([0.1, 0.5, 0.9], dtype="float16"), 2.0, 3.0)
    assert got.dtype == padax.float16
    np.testing.assert_allclose(np.asarray(got).astype(np.float64), st.beta.ppf([0.1, 0.5, 0.9], 2.0, 3.0), rtol=2e-3)
