"""Dropout family: rate of zeros, scaling, modes, reproducibility from keys, jit/vmap, global-seed fallback."""
import numpy as np
import pytest

import padax
from padax import nn

F = nn.functional
X = padax.ones([64, 256])


def test_rate_scaling_and_modes():
    padax.seed(3)
    y = F.dropout(X, 0.3).numpy()
    assert abs((y == 0).mean() - 0.3) < 0.01
    np.testing.assert_allclose(np.unique(y), [0.0, 1 / 0.7], rtol=1e-6)
    y = F.dropout(X, 0.3, mode="downscale_in_infer").numpy()
    np.testing.assert_array_equal(np.unique(y), [0.0, 1.0])
    np.testing.assert_allclose(F.dropout(X, 0.3, training=False, mode="downscale_in_infer").numpy(), 0.7)
    assert F.dropout(X, 0.3, training=False) is not None
    np.testing.assert_array_equal(F.dropout(X, 0.3, training=False).numpy(), 1.0)
    np.testing.assert_array_equal(F.dropout(X, 0.0).numpy(), 1.0)
    np.testing.assert_array_equal(F.dropout(X, 1.0).numpy(), 0.0)


def test_axis_shares_mask():
    y = F.dropout(X, 0.5, axis=1, key=padax.random.key(0)).numpy()
    assert (y == y[:1]).all()  # the same mask value down axis 0
    y = F.dropout2d(padax.ones([4, 8, 3, 3]), 0.5, key=padax.random.key(1)).numpy()
    assert (y == y[:, :, :1, :1]).all() and 0 < (y == 0).mean() < 1
    y = F.dropout3d(padax.ones([2, 8, 2, 2, 2]), 0.5, data_format="NDHWC", key=padax.random.key(1)).numpy()
    assert (y == y[:, :1, :1, :1, :]).all()


def test_reproducible_from_key_and_fresh_per_key():
    def draw(key):
        with nn.rng_scope(key):
            return F.dropout(X, 0.5), F.dropout(X, 0.5)

    a1, b1 = draw(padax.random.key(0))
    a2, _ = draw(padax.random.key(0))
    a3, _ = draw(padax.random.key(1))
    np.testing.assert_array_equal(a1.numpy(), a2.numpy())
    assert not np.array_equal(a1.numpy(), b1.numpy())  # consecutive draws differ
    assert not np.array_equal(a1.numpy(), a3.numpy())
    jitted = padax.jit(lambda k: draw(k)[0])
    np.testing.assert_array_equal(jitted(padax.random.key(0)).numpy(), a1.numpy())
    assert not np.array_equal(jitted(padax.random.key(1)).numpy(), a1.numpy())
    assert jitted._cache_size() == 1


def test_vmap_keys_give_members_their_own_masks():
    keys = padax.random.split(padax.random.key(0), 3)

    def one(k):
        with nn.rng_scope(k):
            return nn.Dropout(0.5)(padax.ones([100]))
    ys = padax.vmap(one)(keys).numpy()
    assert ys.shape == (3, 100) and not np.array_equal(ys[0], ys[1])
    np.testing.assert_array_equal(ys[1], one(keys[1]).numpy())


def test_global_seed_fallback_and_errors_under_jit():
    padax.seed(7)
    a = nn.Dropout(0.5)(X).numpy()
    padax.seed(7)
    np.testing.assert_array_equal(nn.Dropout(0.5)(X).numpy(), a)
    with nn.rng_scope(padax.random.key(0)):
        with pytest.raises(RuntimeError, match="opened outside"):
            padax.jit(lambda x: F.dropout(x, 0.5))(X)
    with pytest.raises(ValueError, match=r"p must be in \[0, 1\]"):
        F.dropout(X, 1.5)
    with pytest.raises(ValueError, match="mode"):
        F.dropout(X, 0.5, mode="bogus")


def test_dropout_in_jit_draws_from_the_global_seed():
    """Paddle's rule under to_static: no key to thread, a fresh mask per call, replayed by seed(n)."""
    x = padax.ones([64])
    step = padax.jit(lambda x: nn.Dropout(0.5)(x))
    padax.seed(11)
    a, b = step(x).numpy(), step(x).numpy()
    assert not np.array_equal(a, b) and set(np.unique(a)) <= {0.0, 2.0}
    padax.seed(11)
    np.testing.assert_array_equal(step(x).numpy(), a)
    np.testing.assert_array_equal(step(x).numpy(), b)
    # one stream: eager draws after seed(n) give the masks the compiled program gives
    padax.seed(11)
    np.testing.assert_array_equal(F.dropout(x, 0.5).numpy(), a)
    # under grad inside jit, and in a scan body: new masks per call and per iteration
    g = padax.jit(padax.grad(lambda x: F.dropout(x, 0.5).sum()))
    padax.seed(11)
    np.testing.assert_array_equal(g(x).numpy(), a)
    body = lambda c, _: (c, F.dropout(c, 0.5))
    padax.seed(3)
    _, ys = padax.jit(lambda x: padax.lax.scan(body, x, None, length=3))(x)
    ys = ys.numpy()
    assert not np.array_equal(ys[0], ys[1]) and not np.array_equal(ys[1], ys[2])
    # rng_scope still gives explicit control, and make_jaxpr shows the key read and written back
    k = padax.random.key(5)
    f = padax.jit(lambda x, k: _scoped_dropout(x, k))
    np.testing.assert_array_equal(f(x, k).numpy(), f(x, k).numpy())
    text = str(padax.make_jaxpr(lambda x: F.dropout(x, 0.5))(x))
    assert "Ref{u32[2]}" in text and "<- a[...]" in text


def _scoped_dropout(x, k):
    with nn.rng_scope(k):
        return F.dropout(x, 0.5)


def test_layers_respect_mode_and_grad():
    d = nn.Dropout(0.4)
    d.eval()
    np.testing.assert_array_equal(d(X).numpy(), 1.0)
    d.train()
    key = padax.random.key(2)

    def loss(x):
        with nn.rng_scope(key):
            return d(x).sum()
    g = padax.grad(loss)(X).numpy()
    with nn.rng_scope(key):
        mask = d(X).numpy()
    np.testing.assert_allclose(g, mask, rtol=1e-6)  # d/dx of sum(mask * x / (1-p)) is the scaled mask


def test_alpha_dropout_keeps_mean_and_variance():
    x = padax.random.normal(padax.random.key(0), (400, 100))

    def run(layer, key):
        with nn.rng_scope(key):
            return layer(x)
    for layer in (nn.AlphaDropout(0.2), nn.FeatureAlphaDropout(0.2)):
        y = padax.jit(run)(layer, padax.random.key(1)).numpy()
        assert abs(y.mean()) < 0.03 and abs(y.std() - 1) < 0.03
        dropped = np.unique(y, return_counts=True)[1].max() / y.size  # every dropped element has one value
        assert 0.15 < dropped < 0.25
    layer = nn.AlphaDropout(0.2)
    layer.eval()
    assert layer(x) is x
    assert "p=0.2" in repr(layer)
