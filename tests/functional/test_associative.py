"""associative_scan, reduce, cumlogsumexp, reduce_precision against jax and sequential scans."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import padax
from padax import lax
from padax.test_util import check_grads

jax.config.update("jax_enable_x64", True)

_RNG = np.random.default_rng(0)


@pytest.fixture(autouse=True)
def _x64():
    with padax.enable_x64(True):
        yield


@pytest.mark.parametrize("n", [1, 2, 5, 8, 13])
@pytest.mark.parametrize("reverse", [False, True])
def test_associative_scan_add_matches_jax(n, reverse):
    x = _RNG.standard_normal((3, n))
    got = lax.associative_scan(lax.add, x, reverse=reverse, axis=1)
    np.testing.assert_allclose(np.asarray(got), jax.lax.associative_scan(jnp.add, x, reverse=reverse, axis=1),
                               rtol=1e-12)


def _affine_p(a, b):  # composition of affine maps x -> A x + v (b after a): non-commutative
    return padax.matmul(b[0], a[0]), padax.matmul(b[0], a[1][..., None])[..., 0] + b[1]


def _affine_j(a, b):
    return jnp.matmul(b[0], a[0]), jnp.matmul(b[0], a[1][..., None])[..., 0] + b[1]


def test_non_commutative_pytree_scan_matches_jax_and_sequential_scan():
    mats, vs = _RNG.standard_normal((9, 2, 2)) * 0.7, _RNG.standard_normal((9, 2))
    got = lax.associative_scan(_affine_p, (mats, vs))
    want = jax.lax.associative_scan(_affine_j, (mats, vs))
    np.testing.assert_allclose(np.asarray(got[0]), want[0], rtol=1e-12)
    np.testing.assert_allclose(np.asarray(got[1]), want[1], rtol=1e-12)

    def step(c, e):
        c = _affine_p(c, e)
        return c, c
    _, seq = lax.scan(step, (np.eye(2), np.zeros(2)), (mats, vs))
    np.testing.assert_allclose(np.asarray(got[1]), np.asarray(seq[1]), rtol=1e-12)


def test_associative_scan_gradients_vmap_jit():
    x = _RNG.uniform(0.5, 1.5, (6,))
    check_grads(lambda v: lax.associative_scan(lax.mul, v), (x,), order=2)
    check_grads(lambda m, v: lax.associative_scan(_affine_p, (m, v))[1],
                (_RNG.standard_normal((5, 2, 2)) * 0.7, _RNG.standard_normal((5, 2))), order=1)
    xs = _RNG.standard_normal((4, 7))
    got = padax.jit(padax.vmap(lambda v: lax.associative_scan(lax.max, v)))(xs)
    np.testing.assert_allclose(np.asarray(got), np.maximum.accumulate(xs, axis=1))


def test_associative_scan_rejects_shape_changing_fn():
    with pytest.raises(TypeError, match="fn changed a shape"):
        lax.associative_scan(lambda a, b: (a + b).sum(0), np.ones((4, 3)))
    with pytest.raises(TypeError, match="structure of its inputs"):
        lax.associative_scan(lambda a, b: (a, b), np.ones(4))
    with pytest.raises(ValueError, match="same length"):
        lax.associative_scan(lambda a, b: a, (np.ones(4), np.ones(3)))


def test_reduce_monoids_and_general_computations():
    x = _RNG.standard_normal((4, 6))
    np.testing.assert_allclose(np.asarray(lax.reduce(x, 0.0, lax.add, (1,))), x.sum(1), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(lax.reduce(x, -np.inf, lax.max, (0, 1))), x.max())
    idx = np.broadcast_to(np.arange(6), (4, 6))

    def argmax_step(a, b):
        pick = a[0] >= b[0]
        return lax.max(a[0], b[0]), lax.select(pick, a[1], b[1])
    vals, where = lax.reduce((x, idx), (-np.inf, 0), argmax_step, (1,))
    np.testing.assert_array_equal(np.asarray(where), x.argmax(1))
    want = jax.lax.reduce((x, idx), (-np.inf, 0), lambda a, b: (jnp.maximum(a[0], b[0]),
                                                               jnp.where(a[0] >= b[0], a[1], b[1])), (1,))
    np.testing.assert_allclose(np.asarray(vals), want[0])
    # a general (non-monoid) smooth computation is differentiable: log-sum-exp by pairwise logaddexp
    lse = lambda v: lax.reduce(v, -np.inf, lambda a, b: jnp_free_logaddexp(a, b), (1,))  # noqa: E731
    np.testing.assert_allclose(np.asarray(lse(x)), np.log(np.exp(x).sum(1)), rtol=1e-12)
    check_grads(lse, (x,), order=1)


def jnp_free_logaddexp(a, b):
    m = lax.max(a, b)
    return m + lax.log(lax.exp(a - m) + lax.exp(b - m))


def test_cumlogsumexp_matches_jax_with_gradients():
    x = _RNG.standard_normal((3, 5))
    for axis, rev in ((1, False), (0, True)):
        np.testing.assert_allclose(np.asarray(lax.cumlogsumexp(x, axis, reverse=rev)),
                                   jax.lax.cumlogsumexp(x, axis, reverse=rev), rtol=1e-12)
    g = padax.grad(lambda v: lax.cumlogsumexp(v, 1).sum())(x)
    np.testing.assert_allclose(np.asarray(g), jax.grad(lambda v: jax.lax.cumlogsumexp(v, 1).sum())(x), rtol=1e-10)
    big = np.array([-np.inf, -np.inf, 1000.0, 0.0])
    np.testing.assert_allclose(np.asarray(lax.cumlogsumexp(big)), [-np.inf, -np.inf, 1000.0, 1000.0])
    with pytest.raises(TypeError, match="floating operand"):
        lax.cumlogsumexp(np.arange(3))


def test_reduce_precision_matches_jax():
    x = _RNG.standard_normal(16).astype(np.float32) * 100
    for e, m in ((5, 10), (8, 7), (4, 3)):
        np.testing.assert_array_equal(np.asarray(lax.reduce_precision(x, e, m)), jax.lax.reduce_precision(x, e, m))
        np.testing.assert_array_equal(np.asarray(padax.jit(lambda v: lax.reduce_precision(v, e, m))(x)),
                                      jax.lax.reduce_precision(x, e, m))
    g = padax.grad(lambda v: (lax.reduce_precision(v, 5, 10) * v).sum())(np.ones(3, np.float32) * 1.1)
    want = jax.grad(lambda v: (jax.lax.reduce_precision(v, 5, 10) * v).sum())(np.ones(3, np.float32) * 1.1)
    np.testing.assert_allclose(np.asarray(g), want)
    np.testing.assert_array_equal(np.asarray(padax.vmap(lambda v: lax.reduce_precision(v, 5, 10))(x.reshape(4, 4))),
                                  jax.lax.reduce_precision(x, 5, 10).reshape(4, 4))
    with pytest.raises(TypeError, match="floating operand"):
        lax.reduce_precision(np.arange(3), 5, 10)
