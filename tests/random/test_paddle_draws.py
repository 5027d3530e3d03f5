"""Paddle's stateful draws follow their distributions (moments and frequencies against scipy), replay
under get_rng_state/set_rng_state, and keep Paddle's dtypes; padax.random.binomial against scipy."""
from __future__ import annotations

import re

import numpy as np
import pytest
import scipy.stats as st

import padax

N = 20000


def _draws(fn, *args, **kwargs):
    padax.seed(1234)
    return np.asarray(fn(*args, **kwargs))


def _close(sample, mean, var, k=5.0):
    """The sample mean within k standard errors, the variance within 10%."""
    se = np.sqrt(var / sample.size)
    assert abs(sample.mean() - mean) < k * se + 1e-12, (sample.mean(), mean)
    assert abs(sample.var() - var) < 0.1 * var + 1e-12, (sample.var(), var)


def test_bernoulli_poisson_gamma_moments():
    p = padax.full([N], 0.3)
    b = _draws(padax.bernoulli, p)
    assert b.dtype == np.float32 and set(np.unique(b)) <= {0.0, 1.0}
    _close(b, 0.3, 0.21)
    _close(_draws(padax.bernoulli, padax.zeros([N], dtype="float64"), 0.7), 0.7, 0.21)
    lam = padax.full([N], 4.0, dtype="float64")
    pois = _draws(padax.poisson, lam)
    assert pois.dtype == np.float64 and np.all(pois == np.round(pois))
    _close(pois, 4.0, 4.0)
    _close(_draws(padax.poisson, padax.full([N], 30.0)), 30.0, 30.0)
    g = _draws(padax.standard_gamma, padax.full([N], 2.5))
    _close(g, 2.5, 2.5)


def test_binomial_matches_scipy():
    for n, p in ((5, 0.3), (40, 0.5), (1000, 0.9), (100000, 0.02)):
        k = _draws(padax.binomial, padax.full([N], n, dtype="int64"), padax.full([N], p))
        assert k.dtype == np.int64 and k.min() >= 0 and k.max() <= n
        _close(k.astype(np.float64), n * p, n * p * (1 - p))
    k = _draws(padax.binomial, padax.full([N], 12, dtype="int32"), padax.full([N], 0.35))
    observed = np.bincount(k, minlength=13)
    expected = st.binom.pmf(np.arange(13), 12, 0.35) * N
    assert st.chisquare(observed[expected > 5], expected[expected > 5] * observed[expected > 5].sum()
                        / expected[expected > 5].sum()).pvalue > 1e-4
    edges = padax.random.binomial(padax.random.key(0), padax.to_tensor([0.0, 7.0, 7.0, 3.0]),
                                  padax.to_tensor([0.5, 0.0, 1.0, 1.5]))
    np.testing.assert_array_equal(np.asarray(edges)[:3], [0.0, 0.0, 7.0])
    assert np.isnan(np.asarray(edges)[3])


def test_multinomial_with_and_without_replacement():
    w = padax.to_tensor([1.0, 2.0, 3.0, 4.0])
    with_r = _draws(padax.multinomial, padax.tile(w[None], [N // 10, 1]), 10, True)
    assert with_r.shape == (N // 10, 10) and with_r.dtype == np.int64
    freq = np.bincount(with_r.reshape(-1), minlength=4) / with_r.size
    np.testing.assert_allclose(freq, [0.1, 0.2, 0.3, 0.4], atol=0.01)
    without = _draws(padax.multinomial, padax.tile(w[None], [2000, 1]), 4)
    assert all(sorted(row) == [0, 1, 2, 3] for row in without.tolist())
    first = np.bincount(without[:, 0], minlength=4) / 2000
    np.testing.assert_allclose(first, [0.1, 0.2, 0.3, 0.4], atol=0.03)
    with pytest.raises(ValueError, match="num_samples"):
        padax.multinomial(w, 5)


def test_normal_family_and_like_helpers():
    z = _draws(padax.standard_normal, [N], "float64")
    assert z.dtype == np.float64
    _close(z, 0.0, 1.0)
    ln = _draws(padax.log_normal, 0.0, 0.5, [N])
    _close(np.log(ln), 0.0, 0.25)
    c = _draws(padax.normal, 1 + 1j, 2.0, [N])
    assert c.dtype == np.complex64
    _close(c.real, 1.0, 2.0)
    _close(c.imag, 1.0, 2.0)
    m = padax.to_tensor(np.full(N, 3.0))
    x = _draws(padax.normal, m, padax.full([N], 0.5))
    assert x.dtype == np.float64
    _close(x, 3.0, 0.25)
    u = _draws(padax.uniform, [N])
    assert 0.0 <= u.min() and u.max() < 1.0  # Paddle's default range is [0, 1)
    cu = _draws(padax.rand, [N], "complex64")
    assert cu.dtype == np.complex64 and 0 <= cu.real.min() and cu.imag.max() < 1
    ref = padax.ones([4, 5], dtype="float64")
    assert padax.rand_like(ref).dtype == np.float64 and padax.randn_like(ref, "float32").dtype == np.float32
    r = np.asarray(padax.randint_like(padax.ones([N], dtype="int32"), 2, 6))
    assert r.dtype == np.int32 and r.min() == 2 and r.max() == 5


def test_rng_state_replays_draws():
    state = padax.get_rng_state()
    assert isinstance(state, list) and len(state) == 1
    a = np.asarray(padax.rand([5]))
    b = np.asarray(padax.bernoulli(padax.full([5], 0.5)))
    padax.set_rng_state(state)
    np.testing.assert_array_equal(np.asarray(padax.rand([5])), a)
    np.testing.assert_array_equal(np.asarray(padax.bernoulli(padax.full([5], 0.5))), b)
    assert padax.get_cuda_rng_state() == []
    padax.set_cuda_rng_state(padax.get_cuda_rng_state())  # nothing to restore apart from the global key
    padax.set_cuda_rng_state(state)
    np.testing.assert_array_equal(np.asarray(padax.rand([5])), a)


def test_create_parameter_initialises_as_paddle():
    padax.seed(0)
    w = padax.create_parameter([64, 32], "float32")
    limit = np.sqrt(6.0 / (64 + 32))
    assert w.shape == (64, 32) and w.dtype == np.float32
    assert np.abs(np.asarray(w)).max() <= limit and np.asarray(w).std() > limit / 3
    b = padax.create_parameter([8], "float64", is_bias=True)
    np.testing.assert_array_equal(np.asarray(b), np.zeros(8))
    custom = padax.create_parameter([3], "float32", default_initializer=lambda shape, dtype: padax.full(shape, 0.5, dtype))
    np.testing.assert_array_equal(np.asarray(custom), np.full(3, 0.5, np.float32))


def test_draws_refuse_jit():
    with pytest.raises(RuntimeError, match="hidden global key"):
        padax.jit(lambda p: padax.bernoulli(p))(padax.full([3], 0.5))


@pytest.mark.parametrize("weights,words", [([0.5, -0.5], "finite and non-negative, got -0.5"),
                                           ([[0.0, 1.0], [np.nan, 1.0]], "finite and non-negative, got nan"),
                                           ([0.0, 0.0], "positive sum")])
def test_multinomial_refuses_bad_weights_eagerly_as_paddle(weights, words):
    """Negative weights used to give a sample (index 1 for [0.5, -0.5]); Paddle refuses them."""
    from tests.conftest import paddle_oracle
    paddle = paddle_oracle()
    w = np.array(weights, np.float32)
    with pytest.raises(Exception):
        paddle.multinomial(paddle.to_tensor(w), 1)
    with pytest.raises(ValueError, match=rf"multinomial: .*{re.escape(words)}"):
        padax.multinomial(padax.to_tensor(w), 1)
