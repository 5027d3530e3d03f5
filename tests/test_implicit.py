"""padax.implicit_diff: fixed points and argmins differentiated through their optimality
conditions, checked against unrolled iterations and closed forms."""
import numpy as np
import pytest

import padax
from padax import lax

_RNG = np.random.default_rng(0)
_N = 4
_W = _RNG.standard_normal((_N, _N)) * 0.3
_X = _RNG.standard_normal((20, _N))
_Y = _RNG.standard_normal(20)


@pytest.fixture(autouse=True)
def _x64():
    with padax.enable_x64(True):
        yield


def _T(x, theta):
    return lax.tanh(_W @ x + theta)


def _unrolled(theta):
    return lax.fori_loop(0, 200, lambda i, x: _T(x, theta), np.zeros(_N))


@pytest.mark.parametrize("solve", ["dense", "normal_cg", "auto"])
def test_fixed_point_matches_unrolled_to_second_order(solve):
    @padax.implicit_diff(fixed_point_fn=_T, solve=solve)
    def fixed_point(init, theta):
        return lax.fori_loop(0, 200, lambda i, x: _T(x, theta), init)

    theta = _RNG.standard_normal(_N)
    li = lambda t: (fixed_point(np.zeros(_N), t) ** 2).sum()  # noqa: E731
    lu = lambda t: (_unrolled(t) ** 2).sum()  # noqa: E731
    np.testing.assert_allclose(np.asarray(padax.grad(li)(theta)), np.asarray(padax.grad(lu)(theta)), rtol=1e-9)
    np.testing.assert_allclose(np.asarray(padax.jit(padax.hessian(li))(theta)),
                               np.asarray(padax.jit(padax.hessian(lu))(theta)), rtol=1e-8, atol=1e-12)


def _objective(w, lam):
    return ((_X @ w - _Y) ** 2).sum() / 2 + lam * (w ** 2).sum() / 2


def _ridge_closed_form(lam):
    return padax.linalg.solve(_X.T @ _X + lam * padax.eye(_N, dtype="float64"), _X.T @ _Y)


def test_argmin_by_gradient_descent_matches_closed_form():
    @padax.implicit_diff(padax.grad(_objective), solve="cg")
    def ridge(init, lam):
        return lax.fori_loop(0, 500, lambda i, w: w - 0.01 * padax.grad(_objective)(w, lam), init)

    lam = np.float64(0.7)
    w0 = np.zeros(_N)
    np.testing.assert_allclose(np.asarray(ridge(w0, lam)), np.asarray(_ridge_closed_form(lam)), rtol=1e-9)
    np.testing.assert_allclose(np.asarray(padax.jacfwd(ridge, 1)(w0, lam)),
                               np.asarray(padax.jacfwd(_ridge_closed_form)(lam)), rtol=1e-8)
    np.testing.assert_allclose(np.asarray(padax.jacrev(ridge, 1)(w0, lam)),
                               np.asarray(padax.jacrev(_ridge_closed_form)(lam)), rtol=1e-8)
    # no gradient flows to the initial guess
    g_init = padax.grad(lambda w: ridge(w, lam).sum())(w0)
    np.testing.assert_allclose(np.asarray(g_init), np.zeros(_N))


def test_pytree_solution_aux_kwargs_and_custom_solve():
    def optimality(x, a, *, scale):
        return {"p": x["p"] * scale - a, "q": x["q"] - a * 2}

    def my_solve(matvec, b):  # a user linear solver: diagonal system here
        ones = padax.tree.map(lambda v: v * 0 + 1, b)
        d = matvec(ones)
        return padax.tree.map(lambda bb, dd: bb / dd, b, d)

    @padax.implicit_diff(optimality, solve=my_solve, has_aux=True)
    def solver(init, a, *, scale):
        return {"p": a / scale, "q": a * 2}, padax.to_tensor(7)

    a = np.array([1.0, 2.0])
    (x, aux) = solver({"p": np.zeros(2), "q": np.zeros(2)}, a, scale=4.0)
    assert int(aux) == 7
    g = padax.grad(lambda v: (solver({"p": np.zeros(2), "q": np.zeros(2)}, v, scale=4.0)[0]["p"]).sum())(a)
    np.testing.assert_allclose(np.asarray(g), [0.25, 0.25])


def test_bad_arguments():
    with pytest.raises(TypeError, match="exactly one"):
        padax.implicit_diff()
    with pytest.raises(ValueError, match="solve must be"):
        padax.implicit_diff(lambda x: x, solve="magic")

    @padax.implicit_diff(fixed_point_fn=_T)
    def wrong(init, theta):
        return (init, init)

    with pytest.raises(TypeError, match="solve returned a solution with structure"):
        wrong(np.zeros(_N), np.zeros(_N))


def test_implicit_gradient_needs_far_less_memory_than_unrolling():
    """XLA's buffer assignment for grad through 1000 iterations: the unrolled loop keeps every
    iterate for the backward pass, the implicit one none."""
    n, iters = 64, 1000
    w = (_RNG.standard_normal((n, n)) * (0.5 / np.sqrt(n))).astype(np.float32)
    theta = _RNG.standard_normal(n).astype(np.float32)

    def step(x, t):
        return lax.tanh(padax.to_tensor(w) @ x + t)

    @padax.implicit_diff(fixed_point_fn=step, solve="normal_cg")
    def implicit(init, t):
        return lax.fori_loop(0, iters, lambda i, x: step(x, t), init)

    def unrolled(init, t):
        return lax.fori_loop(0, iters, lambda i, x: step(x, t), init)

    def grad_of(solver):
        return padax.jit(padax.grad(lambda t: (solver(t * 0, t) ** 2).sum()))

    with padax.enable_x64(False):
        mem = {name: grad_of(s).lower(theta).compile().memory_analysis().temp_size_in_bytes
               for name, s in (("implicit", implicit), ("unrolled", unrolled))}
        np.testing.assert_allclose(np.asarray(grad_of(implicit)(theta)), np.asarray(grad_of(unrolled)(theta)),
                                   rtol=2e-3, atol=1e-5)
    assert mem["unrolled"] >= iters * n * 4             # one float32 iterate per step, at least
    assert mem["implicit"] * 10 <= mem["unrolled"]
