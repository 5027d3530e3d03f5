"""padax.scipy.optimize against scipy.optimize; implicit derivatives of solutions against
finite differences and closed forms."""
import numpy as np
import pytest
import scipy.optimize as so

import padax
import padax.numpy as pnp
from padax.scipy import optimize as po


def rosen(x):
    return pnp.sum(100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)


@pytest.mark.parametrize("method", ["BFGS", "L-BFGS-B", "Newton-CG", "trust-exact"])
def test_minimize_rosenbrock_matches_scipy(method):
    x0 = np.linspace(-1.0, 0.5, 8)
    r = padax.jit(lambda x: po.minimize(rosen, x, method=method))(x0)
    hess = {"hess": so.rosen_hess} if method == "trust-exact" else {}
    ref = so.minimize(so.rosen, x0, jac=so.rosen_der, method=method, **hess)
    assert bool(r.success) and int(r.status) == 0 and r.message.startswith("Optimization terminated")
    np.testing.assert_allclose(np.asarray(r.x), ref.x, atol=1e-4)
    np.testing.assert_allclose(np.asarray(r.x), np.ones(8), atol=1e-4)
    assert float(r.fun) < 1e-8 and int(r.nit) < 400


def test_trust_exact_iterates_like_scipy_and_handles_the_hard_case():
    x0 = np.array([-1.2, 1.0])
    r = po.minimize(rosen, x0, method="trust-exact", options={"gtol": 1e-8})
    ref = so.minimize(so.rosen, x0, method="trust-exact", jac=so.rosen_der, hess=so.rosen_hess)
    np.testing.assert_allclose(np.asarray(r.x), ref.x, atol=1e-10)
    assert abs(int(r.nit) - ref.nit) <= 2
    # a saddle with the gradient orthogonal to the negative-curvature direction (the hard case)
    r = po.minimize(lambda x: x[0] ** 2 - x[1] ** 2 + 0.25 * x[1] ** 4, np.array([1.0, 0.0]), method="trust-exact")
    np.testing.assert_allclose(np.abs(np.asarray(r.x)), [0.0, np.sqrt(2.0)], atol=1e-6)
    assert bool(r.success)


def test_minimize_pytree_bounds_and_maxiter_status():
    def f(p):
        return pnp.sum((p["a"] - 3.0) ** 2) + (p["b"] + 1.0) ** 2
    r = po.minimize(f, {"a": np.zeros(2), "b": np.float64(0.0)}, method="BFGS")
    np.testing.assert_allclose(np.asarray(r.x["a"]), [3.0, 3.0], atol=1e-6)
    np.testing.assert_allclose(float(r.x["b"]), -1.0, atol=1e-6)
    rb = po.minimize(lambda x: pnp.sum((x - np.array([3.0, -2.0, 0.5])) ** 2), np.zeros(3), method="L-BFGS-B",
                     bounds=po.Bounds(np.array([0.0, -1.0, 0.0]), np.array([2.0, 1.0, 1.0])))
    ref = so.minimize(lambda x: np.sum((x - np.array([3.0, -2.0, 0.5])) ** 2), np.zeros(3), method="L-BFGS-B",
                      bounds=[(0, 2), (-1, 1), (0, 1)])
    np.testing.assert_allclose(np.asarray(rb.x), ref.x, atol=1e-6)
    short = po.minimize(rosen, np.zeros(6), options={"maxiter": 3})
    assert int(short.status) == 1 and not bool(short.success) and "Maximum" in short.message
    with pytest.raises(ValueError, match="method"):
        po.minimize(rosen, np.zeros(2), method="Nelder-Mead")


def _quad(x):
    return pnp.sum((x - 1.0) ** 2)


def _quad_np(x):
    return np.sum((x - 1.0) ** 2)


@pytest.mark.parametrize("bounds", [
    [(0, 2), (0, 2)],                                   # two variables: pairs, not (lower, upper) arrays
    [(1.5, 2), (None, 0.25)],
    [(0, 2), (None, 0.5), (2, None), (0, 3), (-1, 1)],  # five variables
    so.Bounds([0.0, 1.5], 2.0),
    so.Bounds(-np.inf, [0.5, 0.25, 3.0]),
    np.array([[0.0, 0.5], [0.0, 2.0], [-1.0, 0.0]]),
])
def test_minimize_bounds_in_scipys_forms(bounds):
    n = len(bounds) if isinstance(bounds, (list, np.ndarray)) else np.size(bounds.ub)
    x0 = np.linspace(3.0, -1.0, n)
    ref = so.minimize(_quad_np, x0, method="L-BFGS-B", bounds=bounds)
    r = po.minimize(_quad, x0, method="L-BFGS-B", bounds=bounds)
    assert bool(r.success)
    np.testing.assert_allclose(np.asarray(r.x), ref.x, atol=1e-5)
    if not isinstance(bounds, so.Bounds):
        pb = po.Bounds(*zip(*[(-np.inf if lo is None else lo, np.inf if hi is None else hi) for lo, hi in bounds]))
        np.testing.assert_allclose(np.asarray(po.minimize(_quad, x0, method="L-BFGS-B", bounds=pb).x), ref.x,
                                   atol=1e-5)


def test_minimize_default_method_follows_scipy():
    """method=None (the default) is L-BFGS-B with bounds and BFGS without, as scipy; padax's default
    'BFGS' refused bounds given without a method."""
    x0 = np.array([3.0, -1.0])
    ref = so.minimize(_quad_np, x0, bounds=[(1.5, 2), (None, 0.25)])
    assert ref.message.startswith("CONVERGENCE")  # scipy chose L-BFGS-B
    np.testing.assert_allclose(np.asarray(po.minimize(_quad, x0, bounds=[(1.5, 2), (None, 0.25)]).x), ref.x,
                               atol=1e-5)
    np.testing.assert_allclose(np.asarray(po.minimize(_quad, x0, method=None).x), [1.0, 1.0], atol=1e-5)


def test_minimize_bounds_traced_and_refused_forms():
    x0 = np.array([3.0, -1.0])
    x = padax.jit(lambda lo: po.minimize(_quad, x0, method="L-BFGS-B", bounds=[(lo, 2.0), (lo, None)]).x)(
        np.float64(1.5))
    np.testing.assert_allclose(np.asarray(x), [1.5, 1.5], atol=1e-6)
    # two arrays of two: scipy reads each as one variable's (lo, hi) pair, and so does padax
    rows = (np.zeros(2), np.ones(2) * 2)
    np.testing.assert_allclose(np.asarray(po.minimize(_quad, x0, method="L-BFGS-B", bounds=rows).x),
                               so.minimize(_quad_np, x0, method="L-BFGS-B", bounds=rows).x, atol=1e-6)
    for bad, msg in [((np.zeros(3), np.ones(3)), "not a \\(lo, hi\\) pair"), ((0, 2), "bounds\\[0\\] is 0"),
                     ([(0, 1, 2), (0, 1)], "bounds\\[0\\]"), ([(0, 2)], "1 \\(lo, hi\\) pairs but x0 has 2"),
                     ("box", "got str"), ([(2, 0), (0, 1)], "lower bound exceeds the upper bound at variable 0"),
                     (so.Bounds([0, 0, 0], 1), "bounds.lb has shape \\(3,\\)")]:
        with pytest.raises(ValueError, match="minimize: .*" + msg):
            po.minimize(_quad, x0, method="L-BFGS-B", bounds=bad)


def test_optimize_argument_conventions_match_scipy():
    a = np.array([2.0, -1.0])
    # a non-tuple args is one argument (scipy wraps it), not unpacked
    f = lambda x, a: pnp.sum((x - a) ** 2)  # noqa: E731
    np.testing.assert_allclose(np.asarray(po.minimize(f, np.zeros(2), a).x),
                               so.minimize(lambda x, a: np.sum((x - a) ** 2), np.zeros(2), a).x, atol=1e-5)
    np.testing.assert_allclose(np.asarray(po.root(lambda x, a: x - a, np.zeros(2), a).x), a, atol=1e-8)
    r = po.root_scalar(lambda x, c: x * x - c, 2.0, bracket=[0.0, 3.0])
    ref = so.root_scalar(lambda x, c: x * x - c, 2.0, bracket=[0.0, 3.0])
    np.testing.assert_allclose(float(r.root), ref.root, rtol=1e-6)
    # integer x0 is taken as float64, as scipy
    assert po.minimize(f, np.zeros(2, np.int64), (a,)).x.dtype == np.float64
    assert po.root(lambda x: x * x - 4.0, np.array([1])).x.dtype == np.float64
    # root's fifth positional argument is jac, as scipy; jac=True means fun returns (value, Jacobian)
    F = lambda x: (x ** 3 - 8.0, pnp.diag(3 * x ** 2))  # noqa: E731
    ref = so.root(lambda x: (x ** 3 - 8.0, np.diag(3 * x ** 2)), np.ones(2), (), "hybr", True)
    np.testing.assert_allclose(np.asarray(po.root(F, np.ones(2), (), "hybr", True).x), ref.x, atol=1e-8)
    np.testing.assert_allclose(np.asarray(po.root(lambda x: x ** 3 - 8.0, np.ones(2), jac=lambda x: pnp.diag(
        3 * x ** 2)).x), [2.0, 2.0], atol=1e-8)
    # root_scalar's fprime=True: f returns (f, f')
    r = po.root_scalar(lambda x: (x ** 3 - 2.0, 3 * x ** 2), x0=1.0, fprime=True, method="newton")
    ref = so.root_scalar(lambda x: (x ** 3 - 2.0, 3 * x ** 2), x0=1.0, fprime=True, method="newton")
    np.testing.assert_allclose(float(r.root), ref.root, rtol=1e-6)
    # options that would have no effect are refused, not ignored
    with pytest.raises(ValueError, match="root: unknown options \\[.factor.\\]"):
        po.root(lambda x: x - 1.0, np.zeros(1), options={"factor": 10.0})
    with pytest.raises(ValueError, match="root_scalar: unknown options \\['k'\\]"):
        po.root_scalar(lambda x: x - 1.0, x0=0.0, options={"k": 2})
    po.minimize(f, np.zeros(2), (a,), options={"disp": False})
    # least_squares: bounds is (lb, ub), as scipy; per-variable pairs are refused
    with pytest.raises(ValueError, match="least_squares: bounds must be a 2-tuple"):
        po.least_squares(lambda x: x - 1.0, np.zeros(3), bounds=[(0, 2)] * 3)
    with pytest.raises(ValueError, match="least_squares: bounds' lb has shape \\(2,\\)"):
        po.least_squares(lambda x: x - 1.0, np.zeros(3), bounds=([0, 0], 2))


def test_minimize_solution_is_differentiated_implicitly():
    def f(x, a):
        return pnp.sum((x - a) ** 2) + 0.1 * pnp.sum(x ** 4)
    a = np.array([1.0, 2.0, 3.0])
    jac = padax.jacrev(lambda a: po.minimize(f, np.zeros(3), (a,), options={"gtol": 1e-12}).x)(a)
    x = np.asarray(po.minimize(f, np.zeros(3), (a,), options={"gtol": 1e-12}).x)
    # stationarity 2(x - a) + 0.4 x^3 = 0  =>  dx/da = 2 / (2 + 1.2 x^2) on the diagonal
    np.testing.assert_allclose(np.asarray(jac), np.diag(2 / (2 + 1.2 * x ** 2)), atol=1e-8)
    # the same through vmap
    xs = padax.vmap(lambda a: po.minimize(f, np.zeros(3), (a,)).x)(np.stack([a, 2 * a]))
    np.testing.assert_allclose(np.asarray(xs)[0], x, atol=1e-5)
    jt = padax.jacrev(lambda a: po.minimize(f, np.zeros(3), (a,), method="trust-exact",
                                            options={"gtol": 1e-12}).x)(a)
    np.testing.assert_allclose(np.asarray(jt), np.asarray(jac), atol=1e-8)


def test_root_and_its_implicit_derivative():
    def F(x, a):
        return pnp.stack([x[0] ** 2 + x[1] - a, x[0] - x[1] ** 3])
    r = po.root(F, np.array([1.0, 1.0]), (np.float64(3.0),))
    ref = so.root(lambda x: [x[0] ** 2 + x[1] - 3, x[0] - x[1] ** 3], [1.0, 1.0])
    assert int(r.status) == 0
    np.testing.assert_allclose(np.asarray(r.x), ref.x, atol=1e-10)
    dx = padax.jacfwd(lambda a: po.root(F, np.array([1.0, 1.0]), (a,)).x)(np.float64(3.0))
    x = ref.x
    J = np.array([[2 * x[0], 1.0], [1.0, -3 * x[1] ** 2]])
    np.testing.assert_allclose(np.asarray(dx), np.linalg.solve(J, [1.0, 0.0]), rtol=1e-8)


_SCALAR_METHODS = [("bisect", {"bracket": [0.0, 3.0]}), ("brentq", {"bracket": [0.0, 3.0]}),
                   ("brenth", {"bracket": [0.0, 3.0]}), ("ridder", {"bracket": [0.0, 3.0]}),
                   ("newton", {"x0": np.float64(1.0)}), ("halley", {"x0": 1.0}),
                   ("secant", {"x0": 1.0, "x1": 1.5})]


@pytest.mark.parametrize("method,kw", _SCALAR_METHODS, ids=[m for m, _ in _SCALAR_METHODS])
def test_root_scalar(method, kw):
    f = lambda x, a: x ** 3 - a  # noqa: E731
    r = po.root_scalar(f, (np.float64(2.0),), method=method, **kw)
    extra = {"fprime": lambda x: 3 * x ** 2, "fprime2": lambda x: 6 * x} if method in ("newton", "halley") else {}
    np.testing.assert_allclose(float(r.root), so.root_scalar(lambda x: x ** 3 - 2, method=method,
                                                             **extra, **kw).root, rtol=1e-12)
    assert bool(r.converged)
    d = padax.grad(lambda a: po.root_scalar(f, (a,), method=method, **kw).root)(np.float64(2.0))
    np.testing.assert_allclose(float(d), (1 / 3) * 2 ** (-2 / 3), rtol=1e-10)


@pytest.mark.parametrize("method", ["brentq", "brenth"])
def test_brent_iteration_counts_match_scipy(method):
    """Brent's interpolation steps converge like scipy's (not bisection or false position)."""
    import math
    for f, np_f, br in [(lambda x: x ** 3 - 2 * x - 5, lambda x: x ** 3 - 2 * x - 5, [2.0, 3.0]),
                        (lambda x: padax.numpy.exp(x) - 12.0, lambda x: math.exp(x) - 12.0, [-5.0, 5.0]),
                        (lambda x: padax.numpy.cos(x) - x, lambda x: math.cos(x) - x, [0.0, 2.0])]:
        r = po.root_scalar(lambda x, s: f(x), (np.float64(0.0),), method=method, bracket=br)
        R = so.root_scalar(np_f, method=method, bracket=br)
        np.testing.assert_allclose(float(r.root), R.root, rtol=1e-12)
        assert int(r.iterations) <= R.iterations + 1


def test_root_scalar_jit_and_vmap():
    f = lambda x, a: x ** 3 - a  # noqa: E731
    roots = padax.vmap(lambda a: po.root_scalar(f, (a,), method="brentq", bracket=[0.0, 5.0]).root)(
        np.array([1.0, 8.0, 27.0]))
    np.testing.assert_allclose(np.asarray(roots), [1.0, 2.0, 3.0], rtol=1e-12)


def test_root_scalar_bad_bracket():
    with pytest.raises(ValueError, match="different signs"):
        po.root_scalar(lambda x: x ** 2 + 1.0, bracket=[0.0, 1.0], method="brentq")


@pytest.mark.slow
def test_least_squares_levenberg_marquardt_and_sensitivity():
    t = np.linspace(0, 1, 20)
    y = 2 * np.exp(-3 * t) + 0.01 * np.sin(7 * t)

    def resid(p, t, y):
        return p[0] * pnp.exp(-p[1] * t) - y
    tight = dict(ftol=1e-14, xtol=1e-14, gtol=1e-14)
    r = po.least_squares(resid, np.array([1.0, 1.0]), method="lm", args=(t, y), **tight)
    ref = so.least_squares(lambda p: p[0] * np.exp(-p[1] * t) - y, [1.0, 1.0], method="lm", xtol=1e-14,
                           ftol=1e-14)
    np.testing.assert_allclose(np.asarray(r.x), ref.x, rtol=1e-7)
    dp = padax.jacfwd(lambda y: po.least_squares(resid, np.array([1.0, 1.0]), args=(t, y), **tight).x)(y)
    eps = 1e-6
    e = np.zeros(20)
    e[5] = eps
    fd = (so.least_squares(lambda p: p[0] * np.exp(-p[1] * t) - y - e, ref.x, method="lm", xtol=1e-15,
                           ftol=1e-15).x
          - so.least_squares(lambda p: p[0] * np.exp(-p[1] * t) - y + e, ref.x, method="lm", xtol=1e-15,
                             ftol=1e-15).x) / (2 * eps)
    np.testing.assert_allclose(np.asarray(dp)[:, 5], fd, rtol=1e-4)


_LSQ_CASES = [{}, {"bounds": ([0.0, 3.5], [1.8, 10.0])}, {"loss": "soft_l1"}, {"loss": "huber", "f_scale": 0.1},
              {"loss": "cauchy"}, {"loss": "arctan"}, {"bounds": ([0.0, 0.0], [1.5, np.inf]), "loss": "soft_l1"}]


@pytest.mark.parametrize("kw", _LSQ_CASES, ids=[str(i) for i in range(len(_LSQ_CASES))])
def test_least_squares_bounds_and_losses_match_scipy(kw):
    t = np.linspace(0, 1, 20)
    y = 2 * np.exp(-3 * t) + 0.01 * np.sin(7 * t)
    y[3] += 1.0                                               # an outlier for the robust losses
    tight = dict(ftol=1e-15, xtol=1e-15, gtol=1e-15)
    r = po.least_squares(lambda p, t, y: p[0] * pnp.exp(-p[1] * t) - y, np.array([1.0, 3.6]), args=(t, y),
                         **tight, **kw)
    ref = so.least_squares(lambda p: p[0] * np.exp(-p[1] * t) - y, [1.0, 3.6], **tight, **kw)
    np.testing.assert_allclose(np.asarray(r.x), ref.x, atol=1e-7)
    np.testing.assert_allclose(float(r.cost), ref.cost, rtol=1e-9)
    np.testing.assert_array_equal(np.asarray(r.active_mask), ref.active_mask)
    assert bool(r.success)


def test_least_squares_bounded_solution_is_differentiated_implicitly():
    t = np.linspace(0, 1, 20)

    def fit(y):
        return po.least_squares(lambda p, y: p[0] * pnp.exp(-p[1] * t) - y, np.array([1.0, 3.6]),
                                bounds=([0.0, 3.5], [10.0, 10.0]), args=(y,), ftol=1e-14, xtol=1e-14,
                                gtol=1e-14).x
    y = 2 * np.exp(-3 * t)
    dp = np.asarray(padax.jacfwd(fit)(y))
    np.testing.assert_allclose(dp[1], 0.0, atol=1e-10)      # the rate sits at its lower bound
    e = np.zeros(20)
    e[4] = 1e-6
    fd = (np.asarray(fit(y + e)) - np.asarray(fit(y - e))) / 2e-6
    np.testing.assert_allclose(dp[:, 4], fd, rtol=1e-5, atol=1e-9)


def test_least_squares_bad_input():
    f = lambda p: p - 1.0  # noqa: E731
    with pytest.raises(ValueError, match="infeasible"):
        po.least_squares(f, np.array([5.0]), bounds=(0.0, 2.0))
    with pytest.raises(ValueError, match="bounds"):
        po.least_squares(f, np.array([1.0]), bounds=(0.0, 2.0), method="lm")
    with pytest.raises(ValueError, match="loss"):
        po.least_squares(f, np.array([1.0]), loss="l3")


def test_linear_sum_assignment_matches_scipy_under_jit():
    c = np.random.default_rng(0).random((5, 7))
    for maximize in (False, True):
        r, col = padax.jit(lambda c: po.linear_sum_assignment(c, maximize=maximize))(c)
        rr, cc = so.linear_sum_assignment(c, maximize=maximize)
        np.testing.assert_array_equal(np.asarray(r), rr)
        np.testing.assert_array_equal(np.asarray(col), cc)


@pytest.mark.slow
def test_paddle_incubate_minimize_bfgs_lbfgs_against_paddle():
    from tests.conftest import paddle_oracle
    quad = np.diag([1.0, 4.0, 9.0])

    def f(x):
        return pnp.sum(x * (pnp.asarray(quad) @ x)) + pnp.sum(x)
    x0 = np.array([1.0, -1.0, 2.0])
    conv, nfev, x, val, g, H = padax.incubate.optimizer.functional.minimize_bfgs(f, x0, dtype="float64")
    xs = -0.5 * np.linalg.solve(quad, np.ones(3))
    assert bool(conv)
    np.testing.assert_allclose(np.asarray(x), xs, atol=1e-7)
    conv2, _, x2, _, _ = padax.incubate.optimizer.functional.minimize_lbfgs(f, x0, dtype="float64")
    np.testing.assert_allclose(np.asarray(x2), xs, atol=1e-7)
    paddle = paddle_oracle()
    if paddle is not None:
        from paddle.incubate.optimizer.functional import minimize_bfgs
        q = paddle.to_tensor(quad)
        out = minimize_bfgs(lambda x: (x * paddle.matmul(q, x)).sum() + x.sum(), paddle.to_tensor(x0),
                            dtype="float64")
        np.testing.assert_allclose(np.asarray(x), out[2].numpy(), atol=1e-5)   # Paddle stops on tolerance_change


def _big_system(x, xp=pnp):
    # a 3-D system with unknowns ~1e5: at the root |F| floors near 1e-7 from rounding, above tol=1e-10
    return xp.stack([x[0] ** 2 + x[1] ** 2 + x[2] ** 2 - 3.7e10, x[0] * x[1] - 1.3e10, xp.exp(x[0] / 1e5) - x[2]])


def test_root_3d_large_unknowns_succeeds_at_the_solution():
    want = so.root(lambda x: _big_system(x, np), [9e4, 1.1e5, 2.0])
    assert want.success
    for x0 in ([9e4, 1.1e5, 2.0], want.x):
        r = po.root(_big_system, np.asarray(x0, np.float64))
        assert bool(r.success) and int(r.status) == 0
        np.testing.assert_allclose(np.asarray(r.x), want.x, rtol=1e-10)
    r32 = po.root(_big_system, np.asarray(want.x, np.float32))
    assert bool(r32.success)
    np.testing.assert_allclose(np.asarray(r32.x), want.x, rtol=1e-5)
    # a step below xtol still counts as converged; an unreachable tol with xtol=0 does not
    assert not bool(po.root(_big_system, np.asarray(want.x), options={"xtol": 0.0}).success)


@pytest.mark.parametrize("method", ["brentq", "brenth", "ridder", "bisect", "newton"])
def test_python_floats_solve_in_float64_as_scipy(method):
    f = lambda x: x ** 3 - 2 * x - 5  # noqa: E731
    true = 2.0945514815423265
    kw = {"x0": 2.0} if method == "newton" else {"bracket": [2.0, 3.0]}
    r = po.root_scalar(f, method=method, **kw)
    want = so.root_scalar(f, method=method, **kw).root
    assert r.root.dtype == np.float64
    tol = 4e-12 if method in ("bisect", "ridder") else 1e-15    # scipy's own xtol for these is 2e-12
    assert abs(float(r.root) - true) <= tol and abs(float(r.root) - want) <= tol
    # float32 data keeps float32; with 64-bit types off Python floats are float32
    assert po.root_scalar(f, method=method, **{k: np.float32(v) if k == "x0" else np.float32(v)
                                                for k, v in kw.items()}).root.dtype == np.float32
    with padax.enable_x64(False):
        assert po.root_scalar(f, method=method, **kw).root.dtype == np.float32


def test_python_float_starting_points_are_float64():
    assert po.minimize(lambda x: (x - 1.0 / 3) ** 2, 0.0, method="BFGS").x.dtype == np.float64
    assert po.least_squares(lambda x: x - 1.0 / 3, 1.0).x.dtype == np.float64
    r = po.root(lambda x: [x[0] ** 2 - 2.0, x[1] - 1.0 / 3], [1.0, 1.0])
    np.testing.assert_allclose([float(v) for v in r.x], [np.sqrt(2.0), 1.0 / 3], rtol=1e-10)
