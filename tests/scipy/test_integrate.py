"""padax.scipy.integrate against scipy.integrate; derivatives of quad in parameters and limits."""
import numpy as np
import pytest
import scipy.integrate as si

import padax
import padax.numpy as pnp
from padax.scipy import integrate as pi

RNG = np.random.default_rng(5)


@pytest.mark.parametrize("n", [2, 7, 12])
def test_sampled_rules_match_scipy(n):
    x = np.sort(RNG.random(n)) * 3
    y = np.stack([np.sin(3 * x), x ** 3])
    for fn in ("trapezoid", "simpson"):
        np.testing.assert_allclose(np.asarray(getattr(pi, fn)(y, x=x)), getattr(si, fn)(y, x=x), rtol=1e-12)
        np.testing.assert_allclose(np.asarray(getattr(pi, fn)(y.T, dx=0.3, axis=0)),
                                   getattr(si, fn)(y.T, dx=0.3, axis=0), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(pi.cumulative_trapezoid(y, x, initial=0)),
                               si.cumulative_trapezoid(y, x, initial=0), rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(np.asarray(pi.cumulative_trapezoid(y.T, dx=0.5, axis=0)),
                               si.cumulative_trapezoid(y.T, dx=0.5, axis=0), rtol=1e-12)


def test_sampled_rules_gradients():
    from padax.test_util import check_grads
    x = np.sort(RNG.random(9))
    check_grads(lambda y: pi.simpson(y, x=x), (np.sin(x),), order=1)
    check_grads(lambda y: pi.cumulative_trapezoid(y, x), (np.cos(x),), order=1)


@pytest.mark.parametrize("f,np_f,a,b", [
    (lambda x: pnp.sqrt(x) * pnp.log(x), lambda x: np.sqrt(x) * np.log(x), 0.0, 1.0),
    (lambda x: 1 / (1 + x * x), lambda x: 1 / (1 + x * x), -np.inf, np.inf),
    (lambda x: pnp.exp(-x) * x ** 3, lambda x: np.exp(-x) * x ** 3, 1.0, np.inf),
    (lambda x: pnp.exp(x), lambda x: np.exp(x), -np.inf, 0.5),
    (lambda x: pnp.cos(20 * x), lambda x: np.cos(20 * x), 2.0, 0.0),
])
def test_quad_matches_scipy(f, np_f, a, b):
    val, err = pi.quad(f, np.float64(a), np.float64(b))
    ref = si.quad(np_f, a, b)[0]
    np.testing.assert_allclose(float(val), ref, rtol=1e-9, atol=1e-12)
    assert float(err) < 1e-6


def test_quad_is_differentiable_in_parameters_and_limits():
    f = lambda x, a: pnp.exp(-a * x * x)  # noqa: E731
    g = padax.grad(lambda a: pi.quad(f, -np.inf, np.inf, (a,))[0])(np.float64(2.0))
    np.testing.assert_allclose(float(g), -0.5 * np.sqrt(np.pi) * 2.0 ** -1.5, rtol=1e-8)
    db = padax.grad(lambda b: pi.quad(lambda x: pnp.sin(x), np.float64(0.0), b)[0])(np.float64(1.0))
    np.testing.assert_allclose(float(db), np.sin(1.0), rtol=1e-10)
    vals = padax.jit(padax.vmap(lambda a: pi.quad(f, 0.0, 1.0, (a,))[0]))(np.array([0.5, 1.0, 2.0]))
    np.testing.assert_allclose(np.asarray(vals), [si.quad(lambda x: np.exp(-a * x * x), 0, 1)[0]
                                                  for a in (0.5, 1.0, 2.0)], rtol=1e-10)


def test_solve_ivp_matches_scipy():
    def f(t, y, k):
        return pnp.stack([y[1], -k * y[0]])
    te = np.linspace(0, 3, 7)
    r = pi.solve_ivp(f, (0.0, 3.0), np.array([1.0, 0.0]), t_eval=te, args=(np.float64(4.0),), rtol=1e-9,
                     atol=1e-9)
    ref = si.solve_ivp(lambda t, y: [y[1], -4 * y[0]], (0, 3), [1.0, 0.0], t_eval=te, rtol=1e-11, atol=1e-11)
    assert int(r.status) == 0 and bool(r.success)
    np.testing.assert_allclose(np.asarray(r.y), ref.y, atol=1e-7)
    with pytest.raises(ValueError, match="method"):
        pi.solve_ivp(f, (0.0, 1.0), np.array([1.0, 0.0]), method="Euler")


def test_quad_non_tuple_args_is_one_argument_as_scipy():
    """scipy wraps a non-tuple args; padax unpacked an array into several arguments."""
    c = np.array([2.0, 3.0])
    want = si.quad(lambda x, c: float(np.sum(c)) * x, 0.0, 1.0, args=c)[0]
    got = pi.quad(lambda x, c: pnp.sum(c) * x, 0.0, 1.0, args=c)[0]
    np.testing.assert_allclose(float(got), want, rtol=1e-6)
    np.testing.assert_allclose(float(pi.quad(lambda x, k: k * x, 0.0, 1.0, args=np.float64(4.0))[0]),
                               si.quad(lambda x, k: k * x, 0.0, 1.0, args=4.0)[0], rtol=1e-6)
