"""padax.lax.custom_linear_solve and padax.lax.custom_root against jax, to second derivatives."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import padax
from padax import lax
from padax.test_util import check_grads

jax.config.update("jax_enable_x64", True)

_RNG = np.random.default_rng(0)
_A = _RNG.standard_normal((3, 3)) + 3 * np.eye(3)
_B = _RNG.standard_normal(3)
_S = _A @ _A.T  # symmetric positive definite


@pytest.fixture(autouse=True)
def _x64():
    with padax.enable_x64(True):
        yield


def _solve_p(mv, b):
    return padax.linalg.solve(padax.jacfwd(mv)(b), b)


def _solve_j(mv, b):
    return jnp.linalg.solve(jax.jacfwd(mv)(b), b)


def _lin_p(a, b, symmetric=False):
    return lax.custom_linear_solve(lambda x: a @ x, b, _solve_p, None if symmetric else _solve_p,
                                   symmetric=symmetric)


def _lin_j(a, b, symmetric=False):
    return jax.lax.custom_linear_solve(lambda x: a @ x, b, _solve_j, None if symmetric else _solve_j,
                                       symmetric=symmetric)


@pytest.mark.parametrize("symmetric", [False, True])
def test_custom_linear_solve_matches_jax_to_second_order(symmetric):
    a = _S if symmetric else _A
    fp = lambda m, b: (lax.sin(_lin_p(m, b, symmetric)) ** 2).sum()  # noqa: E731
    fj = lambda m, b: (jnp.sin(_lin_j(m, b, symmetric)) ** 2).sum()  # noqa: E731
    np.testing.assert_allclose(np.asarray(_lin_p(a, _B, symmetric)), _lin_j(a, _B, symmetric), rtol=1e-12)
    for num in (0, 1):
        gp, gj = padax.grad(fp, num)(a, _B), jax.grad(fj, num)(a, _B)
        np.testing.assert_allclose(np.asarray(gp), gj, rtol=1e-10, atol=1e-12)
    hp = padax.jit(padax.hessian(fp, 0))(a, _B)   # second order through dA (forward over reverse)
    np.testing.assert_allclose(np.asarray(hp), jax.hessian(fj, 0)(a, _B), rtol=1e-9, atol=1e-11)
    if symmetric:
        rr = padax.jit(padax.jacrev(padax.jacrev(fp, 1), 1))(a, _B)   # reverse over reverse
        np.testing.assert_allclose(np.asarray(rr), jax.hessian(fj, 1)(a, _B), rtol=1e-9, atol=1e-11)
    check_grads(lambda b: _lin_p(a, b, symmetric), (_B,), order=1)


def test_custom_linear_solve_pytree_aux_jit_vmap():
    def mv(x):
        return {"u": x["u"] * 2.0 + x["v"], "v": x["v"] * 3.0}

    def solve(matvec, b):
        v = b["v"] / 3.0
        return {"u": (b["u"] - v) / 2.0, "v": v}, {"iters": padax.to_tensor(1)}

    b = {"u": np.array([1.0, 2.0]), "v": np.array([3.0, 6.0])}
    x, aux = lax.custom_linear_solve(mv, b, solve, solve, has_aux=True)
    np.testing.assert_allclose(np.asarray(x["u"]), [0.0, 0.0])
    np.testing.assert_allclose(np.asarray(x["v"]), [1.0, 2.0])
    assert int(aux["iters"]) == 1
    batched = padax.jit(padax.vmap(lambda a, bb: _lin_p(a, bb)))(np.stack([_A, _A.T]), np.stack([_B, 2 * _B]))
    want = jax.vmap(lambda a, bb: _lin_j(a, bb))(np.stack([_A, _A.T]), np.stack([_B, 2 * _B]))
    np.testing.assert_allclose(np.asarray(batched), want, rtol=1e-12)
    jac = padax.vmap(padax.jacrev(lambda bb: _lin_p(_A, bb)))(np.stack([_B, 2 * _B]))
    np.testing.assert_allclose(np.asarray(jac[0]), np.linalg.inv(_A), rtol=1e-10)


def test_custom_linear_solve_errors():
    with pytest.raises(TypeError, match="matvec's output must have the structure of b"):
        lax.custom_linear_solve(lambda x: (x, x), _B, _solve_p)
    with pytest.raises(TypeError, match="solve's solution must have b's shapes"):
        lax.custom_linear_solve(lambda x: _A @ x, _B, lambda mv, b: b[:2])
    no_t = lambda b: (lax.custom_linear_solve(lambda x: _A @ x, b, _solve_p) ** 2).sum()  # noqa: E731
    with pytest.raises(TypeError, match="needs transpose_solve"):
        padax.grad(no_t)(_B)
    np.testing.assert_allclose(np.asarray(padax.jvp(no_t, (_B,), (_B,))[1]),  # forward mode needs none
                               jax.jvp(lambda b: (_lin_j(_A, b) ** 2).sum(), (_B,), (_B,))[1], rtol=1e-10)


def _newton_p(f, x0):
    return lax.fori_loop(0, 40, lambda i, x: x - f(x) / padax.grad(f)(x), x0)


def _newton_j(f, x0):
    return jax.lax.fori_loop(0, 40, lambda i, x: x - f(x) / jax.grad(f)(x), x0)


def _cube_root_p(a):
    return lax.custom_root(lambda x: x ** 3 - a * lax.sin(a), np.float64(1.0), _newton_p, lambda g, y: y / g(1.0))


def _cube_root_j(a):
    return jax.lax.custom_root(lambda x: x ** 3 - a * jnp.sin(a), 1.0, _newton_j, lambda g, y: y / g(1.0))


def test_custom_root_scalar_matches_jax_to_third_order():
    a = np.float64(1.3)
    np.testing.assert_allclose(float(_cube_root_p(a)), float(_cube_root_j(a)), rtol=1e-12)
    d = _cube_root_p
    dj = _cube_root_j
    for _ in range(3):
        d, dj = padax.grad(d), jax.grad(dj)
        np.testing.assert_allclose(float(d(a)), float(dj(a)), rtol=1e-9)
    fwd = padax.jacfwd(padax.jacfwd(_cube_root_p))(a)
    np.testing.assert_allclose(float(fwd), float(jax.hessian(_cube_root_j)(a)), rtol=1e-9)
    _, terms = padax.jet(_cube_root_p, (a,), ([1.0, 0.0, 0.0],))
    np.testing.assert_allclose(float(terms[2]), float(jax.grad(jax.grad(jax.grad(_cube_root_j)))(a)), rtol=1e-8)


def test_custom_root_vector_with_aux_matches_jax():
    w = _RNG.standard_normal((3, 3)) * 0.3

    def fixed_p(theta):
        f = lambda x: lax.tanh(w @ x + theta) - x  # noqa: E731

        def solve(f, x0):
            x = lax.fori_loop(0, 200, lambda i, x: f(x) + x, x0)
            return x, padax.to_tensor(200)
        tangent = lambda g, y: _solve_p(g, y)  # noqa: E731
        return lax.custom_root(f, np.zeros(3), solve, tangent, has_aux=True)

    def fixed_j(theta):
        f = lambda x: jnp.tanh(w @ x + theta) - x  # noqa: E731

        def solve(f, x0):
            return jax.lax.fori_loop(0, 200, lambda i, x: f(x) + x, x0), jnp.float64(200.0)
        return jax.lax.custom_root(f, jnp.zeros(3), solve, lambda g, y: _solve_j(g, y), has_aux=True)

    theta = _RNG.standard_normal(3)
    (xp, it), (xj, _) = fixed_p(theta), fixed_j(theta)
    np.testing.assert_allclose(np.asarray(xp), xj, rtol=1e-12)
    assert int(it) == 200
    lp = lambda t: (fixed_p(t)[0] ** 2).sum()  # noqa: E731
    lj = lambda t: (fixed_j(t)[0] ** 2).sum()  # noqa: E731
    np.testing.assert_allclose(np.asarray(padax.grad(lp)(theta)), jax.grad(lj)(theta), rtol=1e-10)
    np.testing.assert_allclose(np.asarray(padax.hessian(lp)(theta)), jax.hessian(lj)(theta), rtol=1e-8, atol=1e-12)
    batched = padax.vmap(lambda t: fixed_p(t)[0])(np.stack([theta, -theta]))
    np.testing.assert_allclose(np.asarray(batched), jax.vmap(lambda t: fixed_j(t)[0])(np.stack([theta, -theta])),
                               rtol=1e-12)


def test_custom_root_bad_structures_say_which():
    f = lambda x: x - 1.0  # noqa: E731
    tangent = lambda g, y: y / g(1.0)  # noqa: E731
    with pytest.raises(TypeError, match="solve returned a solution with structure"):
        lax.custom_root(f, np.float64(0.0), lambda f, x0: (x0, x0), tangent)
    with pytest.raises(TypeError, match="solve returned a solution of types"):
        lax.custom_root(f, np.float64(0.0), lambda f, x0: np.float32(1.0), tangent)
    with pytest.raises(TypeError, match="f must map initial_guess"):
        lax.custom_root(lambda x: (x, x), np.float64(0.0), lambda f, x0: x0, tangent)
    with pytest.raises(TypeError, match="pair"):
        lax.custom_root(f, np.float64(0.0), lambda f, x0: x0, tangent, has_aux=True)
