"""A ref made inside a differentiated function from a constant (zeros) accumulates differentiated values,
as in jax: its tangent ref belongs to the linear program."""
import numpy as np
import pytest

import padax

jax = pytest.importorskip("jax")
jnp = jax.numpy


def _loss(new, freeze, zeros):
    def loss(w):
        acc = new(zeros(()))
        for k in range(3):
            acc[...] += (w * k).sum() ** 2
        acc[...] = acc[...] * 2.0
        return freeze(acc)
    return loss


@pytest.mark.parametrize("jit", [False, True])
def test_grad_through_an_accumulator_made_from_zeros(jit):
    w = np.array([0.5, -1.5, 2.0], np.float32)
    want = jax.grad(_loss(jax.new_ref, jax.freeze, jnp.zeros))(jnp.asarray(w))
    g = padax.grad(_loss(padax.new_ref, padax.freeze, lambda s: padax.zeros(list(s))))
    got = (padax.jit(g) if jit else g)(padax.to_tensor(w))
    np.testing.assert_allclose(got.numpy(), np.asarray(want), rtol=1e-6)


def test_value_and_grad_of_the_accumulator_matches_a_numerical_gradient():
    f = _loss(padax.new_ref, padax.freeze, lambda s: padax.zeros(list(s), dtype="float64"))
    w = np.array([0.3, 0.7], np.float64)
    val, g = padax.value_and_grad(f)(padax.to_tensor(w))
    eps = 1e-6
    num = [(float(f(padax.to_tensor(w + eps * e))) - float(f(padax.to_tensor(w - eps * e)))) / (2 * eps)
           for e in np.eye(2)]
    np.testing.assert_allclose(g.numpy(), num, rtol=1e-6)
    assert float(val) == pytest.approx(2 * sum((w.sum() * k) ** 2 for k in range(3)))
