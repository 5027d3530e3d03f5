"""linear_transpose of a jvp through lax.scan (the primal half of the jvp'd loop is computed by partial
evaluation, only the tangent loop is transposed) and third-order derivatives through scan, against jax."""
import numpy as np
import pytest

import padax
import padax.numpy as pnp
from padax import lax

X = np.array([0.3, -0.5, 0.7, 0.2])
T = np.array([1.0, 0.5, -2.0, 0.25])


def _body(xp, sin):
    def body(c, xi):
        c = sin(c) * xi + c * c * 0.5
        return c, c * xi
    return body


def _f(x):
    c, ys = lax.scan(_body(pnp, pnp.sin), x[0], x)
    return c + ys.sum()


def _jax_f(jax):
    jnp = jax.numpy

    def f(x):
        c, ys = jax.lax.scan(_body(jnp, jnp.sin), x[0], x)
        return c + ys.sum()
    return f


@pytest.fixture
def jax():
    jax = pytest.importorskip("jax")
    prev = jax.config.read("jax_enable_x64")
    jax.config.update("jax_enable_x64", True)
    yield jax
    jax.config.update("jax_enable_x64", prev)


def test_linear_transpose_of_jvp_through_scan(jax):
    x = padax.to_tensor(X)
    g = lambda t: padax.jvp(_f, (x,), (t,))[1]  # noqa: E731
    got = padax.linear_transpose(g, x)(padax.to_tensor(np.float64(1.5)))[0]
    fj = _jax_f(jax)
    want = jax.linear_transpose(lambda t: jax.jvp(fj, (X,), (t,))[1], X)(1.5)[0]
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-13)
    # its transpose is the vjp
    np.testing.assert_allclose(np.asarray(got), 1.5 * np.asarray(padax.grad(_f)(x)), rtol=1e-13)
    # and linear in the cotangent; the cotangent must have the output's dtype
    with pytest.raises(TypeError, match="linear_transpose: a cotangent f32"):
        padax.linear_transpose(g, x)(padax.to_tensor(1.0, dtype="float32"))


@pytest.mark.slow
def test_third_order_through_scan(jax):
    x = padax.to_tensor(X)
    got = padax.jacfwd(padax.jacrev(padax.jacrev(_f)))(x)
    want = jax.jacfwd(jax.jacrev(jax.jacrev(_jax_f(jax))))(X)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-11, atol=1e-13)
    # the transposed jvp of a jvp (a Hessian-vector product's row) through scan
    hvp = lambda t: padax.jvp(padax.grad(_f), (x,), (t,))[1]  # noqa: E731
    got = padax.linear_transpose(hvp, x)(padax.to_tensor(T))[0]
    np.testing.assert_allclose(np.asarray(got), np.asarray(jax.hessian(_jax_f(jax))(X)).T @ T, rtol=1e-12)
