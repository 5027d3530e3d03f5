"""padax.random: keys, samplers and Paddle's stateful helpers.

Compilation dominates the cost here, so every sampler is called with one fixed
signature (the SAMPLERS table): the statistical tests, the determinism test and
the eager == jit test share the compiled programs. Statistical bounds are loose
(several standard errors) on moderately sized samples from fixed keys, so the
tests are deterministic yet would catch a wrong distribution.
"""
from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest
import scipy.stats as st

import padax
import padax.random as R

N = 10000
A_GAMMA = np.array([0.5, 3.0, 0.0, -1.0], np.float32)   # two valid shapes, then the edge values
LAM = np.array([3.0, 50.0, 0.0, -1.0], np.float32)       # Knuth branch, PTRS branch, edges
ALPHA = np.array([1.0, 2.0, 3.0], np.float32)
P3 = np.array([0.2, 0.3, 0.5], np.float32)
P4 = np.array([0.1, 0.2, 0.3, 0.4], np.float32)
CHOICES = np.array([10.0, 20.0, 30.0, 40.0], np.float32)

SAMPLERS = {
    "bits": lambda k: R.bits(k, (N,)),
    "uniform": lambda k: R.uniform(k, (N,)),
    "uniform_range": lambda k: R.uniform(k, (N,), minval=-2.0, maxval=3.0),
    "normal": lambda k: R.normal(k, (N,)),
    "truncated_normal": lambda k: R.truncated_normal(k, -1.0, 2.0, (N,)),
    "exponential": lambda k: R.exponential(k, (N,)),
    "gumbel": lambda k: R.gumbel(k, (N,)),
    "gamma": lambda k: R.gamma(k, A_GAMMA[:, None], (4, N)),
    "beta": lambda k: R.beta(k, 2.0, 3.0, (N,)),
    "dirichlet": lambda k: R.dirichlet(k, ALPHA, (N,)),
    "poisson": lambda k: R.poisson(k, LAM[:, None], (4, N)),
    "bernoulli": lambda k: R.bernoulli(k, 0.3, (N,)),
    "categorical": lambda k: R.categorical(k, np.log(P3), shape=(N,)),
    "randint": lambda k: R.randint(k, (N,), -3, 4),
    "multinomial": lambda k: R.multinomial(k, 20, P3, shape=(2000,)),
    "permutation": lambda k: R.permutation(k, 50),
    "permutation_rows": lambda k: R.permutation(k, np.arange(24, dtype=np.int32).reshape(4, 6), axis=1,
                                                independent=True),
    "choice_distinct": lambda k: R.choice(k, 100, (50,), replace=False),
    "choice_weighted": lambda k: R.choice(k, CHOICES, (N,), p=P4),
    "choice_weighted_distinct": lambda k: R.choice(k, 10, (5,), replace=False, p=np.arange(1.0, 11.0)),
}
KEYS = {name: R.key(1000 + i) for i, name in enumerate(SAMPLERS)}


def draw(name):
    """The eager sample of a table entry (compiled once per process, then cached)."""
    return np.asarray(SAMPLERS[name](KEYS[name]))


# ---- keys -------------------------------------------------------------------------------------

def test_key_layout_and_seeds():
    assert np.asarray(R.key(0)).tolist() == [0, 0]
    assert np.asarray(R.PRNGKey(42)).tolist() == [0, 42]
    assert np.asarray(R.key(2 ** 40 + 5)).tolist() == [256, 5]
    assert np.asarray(R.key(-1)).tolist() == [2 ** 32 - 1, 2 ** 32 - 1]  # 64-bit two's complement
    # the same words from a traced seed of any integer dtype, so key(s) under jit == eager
    keyfn = padax.jit(lambda s: R.key(s))
    assert np.array_equal(keyfn(np.int32(-1)), R.key(-1))
    assert np.array_equal(keyfn(np.uint8(200)), R.key(200))
    k = R.key(7)
    assert k.dtype == np.uint32 and k.shape == (2,)
    assert R.key_impl(k) == "threefry2x32" and R.key_data(k) is k
    kr = R.key(7, impl="rbg")
    assert kr.shape == (4,) and np.asarray(kr).tolist() == [0, 7, 0, 7] and R.key_impl(kr) == "rbg"
    assert R.wrap_key_data(np.array([1, 2], np.uint32)).shape == (2,)


def test_split_and_fold_in_give_distinct_streams():
    k = R.key(0)
    ks = np.asarray(R.split(k, 4))
    assert ks.shape == (4, 2) and ks.dtype == np.uint32
    assert len({tuple(r) for r in ks.tolist()} | {(0, 0)}) == 5            # distinct, and not the parent
    assert np.array_equal(R.split(k, 4), ks)                                # deterministic
    assert R.split(k, (2, 3)).shape == (2, 3, 2)
    f = [tuple(np.asarray(R.fold_in(k, i)).tolist()) for i in (0, 1, 2 ** 32 + 1)]
    assert f[0] != f[1] and f[1] == f[2]                                    # low 32 bits of the data
    assert f[0] == tuple(ks[0].tolist())         # fold_in(k, i) == split(k, n)[i], as in jax
    draws = [np.asarray(R.bits(kk, (N,))) for kk in R.split(k, 2)] + [draw("bits")]
    assert not np.array_equal(draws[0], draws[1])
    assert abs(np.corrcoef(draws[0].astype(float), draws[1].astype(float))[0, 1]) < 0.05


def test_threefry_matches_jax():
    """Keys, split, fold_in and bits are jax.random's threefry bits; so are the float samplers
    built the same way (a strong end-to-end check of the Threefry-2x32 implementation)."""
    jax = pytest.importorskip("jax")
    jr = jax.random
    # other test modules switch jax's x64 mode on globally; the oracle needs jax's 32-bit default
    with jax.enable_x64(False):
        k, jk = R.key(1006), jr.PRNGKey(1006)
        assert np.array_equal(R.split(k, (3, 2)), jr.key_data(jr.split(jk, (3, 2))))
        assert np.array_equal(R.fold_in(k, 2 ** 31 + 5), jr.key_data(jr.fold_in(jk, 2 ** 31 + 5)))
        assert np.array_equal(R.bits(KEYS["bits"], (N,)), jr.bits(jr.PRNGKey(1000), (N,)))
        assert np.array_equal(R.bits(k, (5,), np.uint8), jr.bits(jk, (5,), np.uint8))
        assert np.array_equal(draw("uniform"), jr.uniform(jr.PRNGKey(1001), (N,)))
        assert np.array_equal(draw("normal"), jr.normal(jr.PRNGKey(1003), (N,)))
        assert np.array_equal(draw("exponential"), jr.exponential(jr.PRNGKey(1005), (N,)))


# ---- determinism: eager twice, and eager == jit ------------------------------------------------

def test_same_key_same_values_and_eager_equals_jit():
    eager = {name: draw(name) for name in SAMPLERS}
    again = {name: draw(name) for name in SAMPLERS}
    jitted = padax.jit(lambda keys: {n: f(keys[n]) for n, f in SAMPLERS.items()})(KEYS)
    for name, e in eager.items():
        j = np.asarray(jitted[name])
        assert np.array_equal(e, again[name], equal_nan=e.dtype.kind == "f"), name
        assert j.dtype == e.dtype and j.shape == e.shape, name
        if e.dtype.kind == "f":
            # the same program; XLA may fuse the standalone and the inlined copy differently,
            # which can move a float by an ulp, never a discrete decision
            np.testing.assert_allclose(j, e, rtol=1e-6, atol=1e-7, err_msg=name)
        else:
            np.testing.assert_array_equal(j, e, err_msg=name)


# ---- distributions -----------------------------------------------------------------------------

def _check_moments(x, mean, var, tol=0.05):
    assert abs(x.mean() - mean) <= tol * max(1.0, math.sqrt(var)), (x.mean(), mean)
    assert abs(x.var() - var) <= 2 * tol * max(1.0, var), (x.var(), var)


def test_uniform():
    u = draw("uniform")
    assert u.dtype == np.float32 and u.min() >= 0.0 and u.max() < 1.0
    _check_moments(u, 0.5, 1 / 12, 0.01)
    assert st.kstest(u, "uniform").pvalue > 1e-3
    v = draw("uniform_range")
    assert v.min() >= -2.0 and v.max() < 3.0
    assert st.kstest(v, st.uniform(-2.0, 5.0).cdf).pvalue > 1e-3


def test_normal_and_truncated_normal():
    z = draw("normal")
    assert z.dtype == np.float32 and np.isfinite(z).all()
    _check_moments(z, 0.0, 1.0)
    assert st.kstest(z, "norm").pvalue > 1e-3
    t = draw("truncated_normal")
    assert t.min() > -1.0 and t.max() < 2.0
    ref = st.truncnorm(-1.0, 2.0)
    _check_moments(t, ref.mean(), ref.var())
    assert st.kstest(t, ref.cdf).pvalue > 1e-3


def test_exponential_and_gumbel():
    e = draw("exponential")
    assert e.min() >= 0 and np.isfinite(e).all()
    _check_moments(e, 1.0, 1.0)
    g = draw("gumbel")
    assert np.isfinite(g).all()
    _check_moments(g, np.euler_gamma, np.pi ** 2 / 6)


def test_gamma_beta_dirichlet():
    g = draw("gamma")
    assert g.shape == (4, N) and g.dtype == np.float32
    for row, a in zip(g[:2], A_GAMMA[:2]):
        assert row.min() >= 0
        _check_moments(row, a, a)
        assert st.kstest(row, st.gamma(a).cdf).pvalue > 1e-3
    assert (g[2] == 0).all() and np.isnan(g[3]).all()          # a == 0 -> 0; a < 0 -> NaN
    b = draw("beta")
    assert b.min() >= 0 and b.max() <= 1
    _check_moments(b, 0.4, 0.04)
    d = draw("dirichlet")
    assert d.shape == (N, 3) and d.min() >= 0
    np.testing.assert_allclose(d.sum(-1), 1.0, rtol=1e-5)
    np.testing.assert_allclose(d.mean(0), ALPHA / ALPHA.sum(), atol=0.01)


def test_poisson():
    p = draw("poisson")
    assert p.shape == (4, N) and p.dtype == np.int64
    for row, lam in zip(p[:2], LAM[:2]):                            # Knuth, then PTRS
        assert row.min() >= 0
        _check_moments(row.astype(np.float64), lam, lam)
        # frequencies of the most likely values against the pmf
        ks = np.arange(int(lam) - 2, int(lam) + 3)
        np.testing.assert_allclose([(row == k).mean() for k in ks], st.poisson(lam).pmf(ks), atol=0.015)
    assert (p[2] == 0).all() and (p[3] == -1).all()


def test_discrete_frequencies():
    b = draw("bernoulli")
    assert b.dtype == np.bool_ and abs(b.mean() - 0.3) < 0.02
    c = draw("categorical")
    np.testing.assert_allclose(np.bincount(c, minlength=3) / N, P3, atol=0.02)
    r = draw("randint")
    assert r.dtype == np.int64 and r.min() == -3 and r.max() == 3
    counts = np.bincount(r + 3, minlength=7)
    assert st.chisquare(counts).pvalue > 1e-3
    m = draw("multinomial")
    assert m.shape == (2000, 3) and m.dtype == np.float32 and (m.sum(-1) == 20).all()
    np.testing.assert_allclose(m.mean(0), 20 * P3, rtol=0.05)


def test_permutation_and_choice():
    p = draw("permutation")
    assert sorted(p.tolist()) == list(range(50)) and p.tolist() != list(range(50))
    rows = draw("permutation_rows")
    assert all(sorted(r) == list(range(6 * i, 6 * i + 6)) for i, r in enumerate(rows.tolist()))
    assert len({tuple(np.argsort(r)) for r in rows.tolist()}) > 1          # independent per row
    shared = np.asarray(R.permutation(R.key(3), np.arange(24, dtype=np.int32).reshape(4, 6), axis=1))
    assert len({tuple(r - r.min()) for r in shared}) == 1                  # one permutation for all rows
    c = draw("choice_distinct")
    assert c.shape == (50,) and len(set(c.tolist())) == 50 and c.min() >= 0 and c.max() < 100
    w = draw("choice_weighted")
    assert set(np.unique(w).tolist()) <= set(CHOICES.tolist())
    np.testing.assert_allclose([(w == v).mean() for v in CHOICES], P4, atol=0.02)
    wd = draw("choice_weighted_distinct")
    assert len(set(wd.tolist())) == 5 and wd.min() >= 0 and wd.max() < 10


# ---- vmap over keys, shapes and dtypes, rbg ----------------------------------------------------

def test_vmap_over_keys_equals_loop():
    keys = R.split(R.key(5), 3)
    fns = {"normal": lambda k: R.normal(k, (4,)),
           "randint": lambda k: R.randint(k, (4,), 0, 1000),
           "permutation": lambda k: R.permutation(k, 6),
           "gamma": lambda k: R.gamma(k, 1.5, (4,))}
    batched = padax.vmap(lambda k: {n: f(k) for n, f in fns.items()})(keys)
    for name, f in fns.items():
        loop = np.stack([np.asarray(f(k)) for k in keys])
        np.testing.assert_allclose(np.asarray(batched[name]), loop, rtol=1e-6, err_msg=name)


def test_shapes_and_dtypes():
    bf16 = np.dtype(ml_dtypes.bfloat16)

    def f(k):
        ks = R.split(k, 8)
        return {"u16": R.uniform(ks[0], (3, 2), np.float16, -1.0, 1.0), "ubf": R.uniform(ks[1], (5,), bf16),
                "n16": R.normal(ks[2], (2, 2), np.float16), "nc": R.normal(ks[3], (3,), np.complex64),
                "i8": R.randint(ks[4], (2, 3), -128, 128, np.int8), "u8": R.randint(ks[5], (6,), 250, 1000, np.uint8),
                "b16": R.bits(ks[6], (2,), np.uint16), "scalar": R.uniform(ks[7]),
                "bern": R.bernoulli(ks[7], np.array([0.0, 1.0], np.float32)),
                "cat": R.categorical(ks[7], np.zeros((2, 5), np.float32), axis=0)}
    out = {n: np.asarray(v) for n, v in padax.jit(f)(R.key(9)).items()}
    expect = {"u16": ((3, 2), np.float16), "ubf": ((5,), bf16), "n16": ((2, 2), np.float16),
              "nc": ((3,), np.complex64), "i8": ((2, 3), np.int8), "u8": ((6,), np.uint8),
              "b16": ((2,), np.uint16), "scalar": ((), np.float32), "bern": ((2,), np.bool_),
              "cat": ((5,), np.int64)}
    for n, (shape, dt) in expect.items():
        assert out[n].shape == shape and out[n].dtype == dt, (n, out[n].shape, out[n].dtype)
    assert out["u16"].min() >= -1 and out["u16"].max() < 1
    assert out["u8"].min() >= 250                      # maxval above 255: 255 is reachable, no wrap
    assert out["bern"].tolist() == [False, True]
    assert out["cat"].min() >= 0 and out["cat"].max() < 2


def test_randint_full_range_and_x64(x64):
    r = np.asarray(R.randint(R.key(1), (2000,), -2 ** 63, 2 ** 63, np.int64))
    assert r.dtype == np.int64 and (r < 0).mean() > 0.4 and (r > 0).mean() > 0.4
    assert np.abs(r).max() > 2 ** 62                   # reaches the top of the 64-bit range
    u = np.asarray(R.uniform(R.key(1), (3,), np.float64))
    assert u.dtype == np.float64 and len(set(u.tolist())) == 3


def test_rbg_keys():
    k = R.key(3, impl="rbg")
    assert R.split(k, 3).shape == (3, 4) and R.fold_in(k, 1).shape == (4,)
    f = padax.jit(lambda kk: R.normal(kk, (64,)))
    x = np.asarray(R.normal(k, (64,)))
    np.testing.assert_allclose(np.asarray(f(k)), x, rtol=1e-6)
    assert not np.allclose(x, np.asarray(R.normal(R.key(3), (64,))))  # not the threefry stream
    keys = R.split(k, 2)
    v = np.asarray(padax.vmap(lambda kk: R.uniform(kk, (5,)))(keys))
    np.testing.assert_array_equal(v, np.stack([np.asarray(R.uniform(kk, (5,))) for kk in keys]))


# ---- Paddle's stateful helpers -----------------------------------------------------------------

def test_global_seed_helpers():
    def run():
        return [np.asarray(x) for x in (padax.rand([2, 3]), padax.randn([4]), padax.randint(0, 10, [5]),
                                        padax.randperm(6), padax.normal(1.0, 2.0, [3]), padax.uniform([3]),
                                        padax.rand([2, 3]))]
    padax.seed(123)
    a = run()
    padax.seed(123)
    b = run()
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    assert not np.array_equal(a[0], a[-1])                       # the global key advances
    assert a[0].dtype == np.float32 and a[0].shape == (2, 3)
    assert a[2].dtype == np.int64 and a[2].min() >= 0 and a[2].max() < 10
    assert sorted(a[3].tolist()) == list(range(6))
    assert a[5].min() >= -1 and a[5].max() < 1
    # a per-call seed repeats and leaves the global key alone
    s1 = np.asarray(padax.uniform([3], min=0.0, max=5.0, seed=7))
    nxt = np.asarray(padax.rand([2, 3]))
    padax.seed(123)
    run()
    assert np.array_equal(s1, np.asarray(padax.uniform([3], min=0.0, max=5.0, seed=7)))
    assert np.array_equal(nxt, np.asarray(padax.rand([2, 3])))
    assert np.asarray(padax.randint(3, shape=[50])).max() <= 2   # high=None: [0, low)
    m = padax.normal(padax.to_tensor(np.zeros((2, 2), np.float32)), 1.0)
    assert m.shape == (2, 2)
    # inside eager grad the draw is a constant; inside jit it is refused
    g = padax.grad(lambda mu: padax.sum(padax.normal(mu, 1.0)))(padax.to_tensor(np.zeros(3, np.float32)))
    np.testing.assert_array_equal(np.asarray(g), np.ones(3, np.float32))
    with pytest.raises(RuntimeError, match="hidden global key"):
        padax.jit(lambda x: x + padax.rand([2]))(np.zeros(2, np.float32))
    st_ = R.get_rng_state()
    x1 = np.asarray(padax.randn([3]))
    R.set_rng_state(st_)
    assert np.array_equal(x1, np.asarray(padax.randn([3])))


# ---- errors ------------------------------------------------------------------------------------

def test_errors():
    k = R.key(0)
    with pytest.raises(TypeError, match=r"randint: dtype must be an integer type, got float32"):
        R.randint(k, (2,), 0, 5, np.float32)
    with pytest.raises(TypeError, match=r"uniform: dtype must be a floating type"):
        R.uniform(k, (2,), np.int32)
    with pytest.raises(ValueError, match=r"normal: expected a single PRNG key.*u(int)?32\[3\]"):
        R.normal(np.array([1, 2, 3], np.uint32), (2,))
    with pytest.raises(ValueError, match=r"normal: expected a single PRNG key.*vmap"):
        R.normal(R.split(k, 3), (2,))
    with pytest.raises(TypeError, match=r"uniform: a PRNG key must be uint32"):
        R.uniform(padax.to_tensor(np.array([0, 1], np.int32)))
    with pytest.raises(TypeError, match=r"split: expected a PRNG key"):
        R.split(0)
    with pytest.raises(ValueError, match=r"normal: shape \(2, -1\) has a negative dimension"):
        R.normal(k, (2, -1))
    with pytest.raises(ValueError, match=r"uniform: minval of shape \(3,\) does not broadcast to the sample shape \(2,\)"):
        R.uniform(k, (2,), minval=np.zeros(3, np.float32))
    with pytest.raises(ValueError, match=r"choice: cannot take 5 distinct samples from 3"):
        R.choice(k, 3, (5,), replace=False)
    with pytest.raises(ValueError, match=r"choice: p must have shape \(3,\)"):
        R.choice(k, 3, (2,), p=np.ones(4, np.float32))
    with pytest.raises(TypeError, match=r"multinomial: n must be a non-negative Python int"):
        R.multinomial(k, 2.5, P3)
    with pytest.raises(TypeError, match=r"bits: dtype must be an unsigned integer type"):
        R.bits(k, (2,), np.float32)
    with pytest.raises(TypeError, match=r"randint: minval must be an integer"):
        R.randint(k, (2,), 0.5, 3)
    with pytest.raises(ValueError, match=r"unknown PRNG implementation 'philox'"):
        R.key(0, impl="philox")
    with pytest.raises(TypeError, match=r"key: seed must be an integer scalar"):
        R.key(1.5)
    with pytest.raises(OverflowError):
        R.key(2 ** 64)
    with pytest.raises(ValueError, match=r"categorical: axis 2 is out of range"):
        R.categorical(k, np.zeros((2, 3), np.float32), axis=2)
    with pytest.raises(ValueError, match=r"randint: high \(1\) must be greater than low \(1\)"):
        padax.randint(1, 1)


def test_threefry_counter_words_past_the_low_word():
    """Draws of 2**32 or more elements count with both uint32 words (checked on a 4-bit low word)."""
    from padax.random._keys import _counter
    hi, lo = _counter((3, 7), word_bits=4, tile_bits=2)
    want_hi, want_lo = np.divmod(np.arange(21, dtype=np.uint32).reshape(3, 7), 16)
    np.testing.assert_array_equal(np.asarray(hi), want_hi)
    np.testing.assert_array_equal(np.asarray(lo), want_lo)
    hi, lo = _counter((3, 4))  # the ordinary case: hi is zero, lo the flat index
    np.testing.assert_array_equal(np.asarray(hi), 0)
    np.testing.assert_array_equal(np.asarray(lo), np.arange(12).reshape(3, 4))
