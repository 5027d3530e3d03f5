"""checkpoint / recompute: equal gradients, fewer saved residuals, more recomputation."""
import numpy as np
import pytest

import padax
import padax.lax as lax

W = np.random.default_rng(0).standard_normal((4, 4)).astype(np.float32)


def block(x):
    return lax.sin(lax.dot_general(lax.tanh(x), W, (((1,), (0,)), ((), ()))))


def loss(x, f):
    return lax.reduce_sum(f(f(x)), (0, 1))


X = np.random.default_rng(1).standard_normal((2, 4)).astype(np.float32)


def _counts(f):
    text = str(padax.make_jaxpr(lambda x: padax.grad(loss)(x, f))(X))
    return text.count(" tanh "), text.count(" dot_general[")


@pytest.mark.parametrize("policy", [None, padax.checkpoint_policies.dots_saveable])
def test_checkpoint_gives_equal_gradients(policy):
    expected = padax.grad(loss)(X, block).numpy()
    got = padax.grad(loss)(X, padax.checkpoint(block, policy=policy)).numpy()
    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-7)
    jitted = padax.jit(padax.grad(loss), static_argnums=1)(X, padax.checkpoint(block, policy=policy))
    np.testing.assert_allclose(jitted.numpy(), expected, rtol=1e-5, atol=1e-6)


def test_recomputation_is_visible_in_the_jaxpr():
    # plain: 2 tanh (forward), 2 dots forward + 2 transposed dots backward
    assert _counts(block) == (2, 4)
    # save nothing: tanh and dot are recomputed in the backward pass
    assert _counts(padax.checkpoint(block)) == (4, 6)
    # save dots: matmul outputs are kept, only tanh is recomputed
    assert _counts(padax.checkpoint(block, policy=padax.checkpoint_policies.dots_saveable)) == (4, 4)


def test_recompute_alias_and_forward_value():
    assert padax.recompute is padax.checkpoint
    np.testing.assert_allclose(padax.checkpoint(block)(X).numpy(), block(X).numpy(), rtol=1e-6)


def test_checkpoint_under_vmap_and_higher_order():
    xs = np.stack([X, X * 0.5])
    per_ex = padax.vmap(padax.grad(lambda x: loss(x, padax.checkpoint(block))))(xs)
    loop = np.stack([padax.grad(loss)(x, block).numpy() for x in xs])
    np.testing.assert_allclose(per_ex.numpy(), loop, rtol=1e-5, atol=1e-6)
    f = lambda x: lax.sin(lax.mul(x, x))  # noqa: E731
    g2 = padax.grad(padax.grad(padax.checkpoint(f)))(0.3)
    g2_ref = padax.grad(padax.grad(f))(0.3)
    np.testing.assert_allclose(float(g2), float(g2_ref), rtol=1e-5)
