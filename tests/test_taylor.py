"""padax.taylor: derivatives in one pass and Taylor coefficients of ODE solutions."""
import math

import numpy as np
import pytest

import padax
from padax import lax


@pytest.fixture(autouse=True)
def _x64():
    with padax.enable_x64(True):
        yield


def test_scalar_derivatives_of_sin():
    x = np.float64(0.7)
    ds = padax.taylor.derivatives(lax.sin, x, 6)
    want = [np.sin(x), np.cos(x), -np.sin(x), -np.cos(x)] * 2
    np.testing.assert_allclose([float(d) for d in ds], want[:7], rtol=1e-12)


def test_directional_derivatives_of_a_vector_function():
    x, v = np.array([0.3, -0.2]), np.array([1.0, 2.0])
    f = lambda z: {"s": lax.exp(z[0] * z[1])}  # noqa: E731
    ds = padax.taylor.derivatives(f, x, 3, direction=v)
    # g(t) = exp((x0 + t)(x1 + 2t)) = exp(a + b t + 2 t^2), a = x0 x1, b = 2 x0 + x1
    a, b = x[0] * x[1], 2 * x[0] + x[1]
    g = np.exp(a)
    want = [g, g * b, g * (b * b + 4), g * (b ** 3 + 12 * b)]
    np.testing.assert_allclose([float(d["s"]) for d in ds], want, rtol=1e-12)
    with pytest.raises(TypeError, match="direction is required"):
        padax.taylor.derivatives(f, x, 2)
    with pytest.raises(ValueError, match="non-negative int"):
        padax.taylor.derivatives(lax.sin, np.float64(1.0), -1)


def test_ode_coefficients_closed_forms():
    ks = range(8)
    c = padax.taylor.ode_coefficients(lambda y: y, np.float64(2.0), 7)           # y = 2 e^t
    np.testing.assert_allclose([float(v) for v in c], [2 / math.factorial(k) for k in ks], rtol=1e-13)
    c = padax.taylor.ode_coefficients(lambda y: y * y, np.float64(1.0), 7)       # y = 1 / (1 - t)
    np.testing.assert_allclose([float(v) for v in c], [1.0] * 8, rtol=1e-13)
    c = padax.taylor.ode_coefficients(lambda y, t: t * y, np.float64(1.0), 6, t0=np.float64(0.0))  # exp(t^2/2)
    np.testing.assert_allclose([float(v) for v in c], [1, 0, 0.5, 0, 0.125, 0, 1 / 48], rtol=1e-13, atol=1e-15)


def test_ode_coefficients_pytree_oscillator_and_evaluate():
    def f(state):
        return {"x": state["v"], "v": -state["x"]}
    c = padax.taylor.ode_coefficients(f, {"x": np.array([1.0]), "v": np.array([0.0])}, 12)
    xs = [float(ci["x"][0]) for ci in c]
    np.testing.assert_allclose(xs, [(-1) ** (k // 2) / math.factorial(k) if k % 2 == 0 else 0.0
                                    for k in range(13)], atol=1e-15)
    np.testing.assert_allclose(float(padax.taylor.evaluate(c, 0.5)["x"][0]), np.cos(0.5), rtol=1e-12)
    jitted = padax.jit(lambda y0: padax.taylor.ode_coefficients(f, y0, 5))({"x": np.ones(1), "v": np.zeros(1)})
    np.testing.assert_allclose(float(jitted[4]["x"][0]), 1 / 24, rtol=1e-13)
    with pytest.raises(TypeError, match="structure of y0"):
        padax.taylor.ode_coefficients(lambda s: s["x"], {"x": np.ones(1)}, 2)
