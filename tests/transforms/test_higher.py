"""hvp, laplacian (collapsed Taylor mode, Hutchinson, Hessian trace), hessian_diag, jacobian_diag."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import padax
from padax import lax

jax.config.update("jax_enable_x64", True)

_RNG = np.random.default_rng(0)
_WS = [_RNG.standard_normal((6, 8)) * 0.5, _RNG.standard_normal((8, 8)) * 0.4, _RNG.standard_normal((8, 3))]


def _mlp(np_like, x):
    for w in _WS[:-1]:
        x = np_like.tanh(x @ w)
    return x @ _WS[-1]


@pytest.fixture(autouse=True)
def _x64():
    with padax.enable_x64(True):
        yield


def test_hvp_matches_jax_hessian():
    x, v = _RNG.standard_normal(6), _RNG.standard_normal(6)
    f = lambda z: _mlp(padax, z).sum() + (z ** 3).sum()  # noqa: E731
    hj = jax.hessian(lambda z: _mlp(jnp, z).sum() + (z ** 3).sum())(x)
    np.testing.assert_allclose(np.asarray(padax.hvp(f, (x,), (v,))), hj @ v, rtol=1e-10)
    # two arguments: the Hessian over both, applied to both tangents
    g = lambda a, b: (lax.sin(a) * b).sum()  # noqa: E731
    a, b, ta, tb = (_RNG.standard_normal(3) for _ in range(4))
    ha, hb = padax.hvp(g, (a, b), (ta, tb))
    np.testing.assert_allclose(np.asarray(ha), -np.sin(a) * b * ta + np.cos(a) * tb, rtol=1e-12)
    np.testing.assert_allclose(np.asarray(hb), np.cos(a) * ta, rtol=1e-12)
    with pytest.raises(ValueError, match="2 primals but 1 tangents"):
        padax.hvp(g, (a, b), (ta,))


def test_hessian_values():
    np.testing.assert_allclose(np.asarray(padax.hessian(lambda z: lax.sin(z).sum())(np.ones(3))),
                               np.diag(-np.sin(np.ones(3))), rtol=1e-12)


@pytest.mark.parametrize("jit", [False, True])
def test_laplacian_equals_trace_of_hessian(jit):
    x = _RNG.standard_normal(6)
    want = np.trace(np.asarray(jax.hessian(lambda z: _mlp(jnp, z))(x)), axis1=1, axis2=2)
    lap = padax.laplacian(lambda z: _mlp(padax, z))
    got = (padax.jit(lap) if jit else lap)(x)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-10)
    ref = padax.laplacian(lambda z: _mlp(padax, z), method="hessian")(x)
    np.testing.assert_allclose(np.asarray(ref), want, rtol=1e-10)


def test_laplacian_through_control_flow_and_extra_args():
    def f(x, c):
        y = lax.fori_loop(0, 2, lambda i, y: lax.sin(y) * c + x, x)
        y = padax.jit(lambda z: lax.exp(z) * z)(y)
        return lax.cond(c > 0, lambda z: (z ** 2).sum(), lambda z: z.sum(), y)
    x, c = _RNG.standard_normal((2, 3)), np.float64(0.7)
    h = np.asarray(padax.hessian(f)(x, c)).reshape(6, 6)
    np.testing.assert_allclose(np.asarray(padax.laplacian(f)(x, c)), np.trace(h), rtol=1e-10)


def _pointwise_mix(np_like, x):
    """Every kind of step of the forward Laplacian: unary functions, an operation with a constant
    operand on either side, powers, and a product of two series (not collapsed pointwise)."""
    w = np.linspace(0.5, 1.5, 15).reshape(5, 3)
    h = np_like.tanh(x @ w)
    a = np_like.exp(h) * np.full(3, 0.3) + np_like.log1p(h * h) - np_like.sin(h) / np.full(3, 2.0)
    b = np.full(3, 1.5) / (np_like.cosh(h) + 1.0) + (h ** 3) * np.full(3, 0.2) + np_like.sqrt(h * h + 1.0)
    c = np_like.arctan(a) if np_like is jnp else lax.atan(a)
    return (c * b + (np_like.abs(a) + 1.0) ** np.full(3, 1.7)).sum()


@pytest.mark.parametrize("method", ["taylor", "hutchinson"])
def test_forward_laplacian_pointwise_steps_match_hessian_trace(method):
    x = _RNG.standard_normal(5)
    h = jax.hessian(lambda z: _pointwise_mix(jnp, z))(x)
    lap = padax.laplacian(lambda z: _pointwise_mix(padax, z), method=method, key=padax.random.key(1),
                          num_samples=20000, distribution="normal")
    if method == "taylor":
        np.testing.assert_allclose(float(padax.jit(lap)(x)), np.trace(h), rtol=1e-10)
        batched = padax.vmap(lap)(np.stack([x, 2 * x]))
        want = np.trace(jax.hessian(lambda z: _pointwise_mix(jnp, z))(2 * x))
        np.testing.assert_allclose(np.asarray(batched), [np.trace(h), want], rtol=1e-10)
    else:
        assert abs(float(lap(x)) - np.trace(h)) < 0.05 * max(1.0, abs(np.trace(h)))


def test_laplacian_gradient_wrt_weights_matches_hessian_trace():
    """PINN training differentiates the Laplacian with respect to the network's weights."""
    x, w = _RNG.standard_normal(6), _RNG.standard_normal((6, 8)) * 0.5

    def f(np_like, w, z):
        return (np_like.tanh(np_like.exp(z * 0.1) @ w) @ _WS[1] @ _WS[2]).sum()
    got = padax.grad(lambda w: padax.laplacian(lambda z: f(padax, w, z))(x))(w)
    want = jax.grad(lambda w: jnp.trace(jax.hessian(lambda z: f(jnp, w, z))(x)))(w)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-9, atol=1e-12)


def test_hutchinson_is_unbiased_and_keyed():
    x = _RNG.standard_normal(6)
    f = lambda z: _mlp(padax, z)[0]  # noqa: E731
    exact = float(padax.laplacian(f)(x))
    key = padax.random.key(3)
    est = padax.laplacian(f, method="hutchinson", key=key, num_samples=4000)(x)
    assert abs(float(est) - exact) < 0.05 * max(1.0, abs(exact))
    again = padax.laplacian(f, method="hutchinson", key=key, num_samples=4000)(x)
    assert float(again) == float(est)  # same key, same estimate
    gauss = padax.laplacian(f, method="hutchinson", key=key, num_samples=4000, distribution="normal")(x)
    assert abs(float(gauss) - exact) < 0.1 * max(1.0, abs(exact))
    with pytest.raises(ValueError, match="needs a random key"):
        padax.laplacian(f, method="hutchinson")(x)
    with pytest.raises(ValueError, match="method must be"):
        padax.laplacian(f, method="magic")


def test_laplacian_rejects_integer_input():
    with pytest.raises(TypeError, match="real floating array"):
        padax.laplacian(lambda z: z.sum())(np.arange(3))


def test_hessian_diag_and_jacobian_diag():
    x = _RNG.standard_normal(6)
    hj = jax.hessian(lambda z: _mlp(jnp, z))(x)                 # (3, 6, 6)
    np.testing.assert_allclose(np.asarray(padax.hessian_diag(lambda z: _mlp(padax, z))(x)),
                               np.diagonal(hj, axis1=1, axis2=2), rtol=1e-10)
    f = lambda z: lax.sin(z) * z.sum()  # noqa: E731
    jj = jax.jacfwd(lambda z: jnp.sin(z) * z.sum())(x)
    np.testing.assert_allclose(np.asarray(padax.jacobian_diag(f)(x)), np.diag(jj), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(padax.jacobian_diag(lax.tanh, elementwise=True)(x)),
                               1 - np.tanh(x) ** 2, rtol=1e-12)
    with pytest.raises(TypeError, match="same shape"):
        padax.jacobian_diag(lambda z: z.sum())(x)
