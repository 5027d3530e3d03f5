"""lbfgs_minimize: the pure L-BFGS under jit reproduces the eager LBFGS iterates and minimises Rosenbrock."""
import numpy as np
import pytest

import padax

X0 = np.array([-1.2, 1.0, -0.5, 0.8])


def rosen(params):
    x = params["x"]
    return padax.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)


@pytest.mark.parametrize("line_search_fn", [None, "strong_wolfe"])
def test_matches_eager_lbfgs_iterates(line_search_fn, x64):
    # history_size=3 < iterations, so the curvature-pair ring buffer wraps
    kw = dict(learning_rate=1.0 if line_search_fn else 1e-3, max_iter=12, history_size=3,
              line_search_fn=line_search_fn)
    opt = padax.optimizer.LBFGS(**kw)
    params, state = opt.step({"x": padax.to_tensor(X0)}, rosen, opt.init())
    res = padax.jit(lambda p: padax.optimizer.lbfgs_minimize(rosen, p, **kw))({"x": padax.to_tensor(X0)})
    np.testing.assert_allclose(np.asarray(res.position["x"]), np.asarray(params["x"]), rtol=1e-12, atol=1e-14)
    assert int(res.n_iter) == state["n_iter"] and int(res.func_evals) == state["func_evals"]
    assert bool(res.converged) == state["converged"]


def test_minimises_rosenbrock_to_1e6_under_jit(x64):
    @padax.jit
    def solve(x0, shift):
        res = padax.optimizer.lbfgs_minimize(lambda p: rosen({"x": p["x"] - shift}), x0, max_iter=200,
                                             line_search_fn="strong_wolfe", tolerance_grad=1e-12,
                                             tolerance_change=1e-15)
        return res
    res = solve({"x": padax.to_tensor(X0)}, padax.to_tensor(0.5))
    np.testing.assert_allclose(np.asarray(res.position["x"]), np.full(4, 1.5), atol=1e-6)
    assert float(res.value) < 1e-12 and bool(res.converged) and 10 < int(res.n_iter) < 200
    # Paddle's result tuple, jitted too
    ok, calls, x, value, _ = padax.jit(lambda v: padax.optimizer.minimize_lbfgs(
        lambda z: rosen({"x": z}), v, tolerance_change=1e-15, tolerance_grad=1e-7, max_iters=200))(padax.to_tensor(X0))
    assert bool(ok) and int(calls) > 10 and float(value) < 1e-12
    np.testing.assert_allclose(np.asarray(x), np.ones(4), atol=1e-6)


def test_bad_input():
    with pytest.raises(TypeError, match="floating"):
        padax.optimizer.lbfgs_minimize(lambda x: (x * x).sum(), padax.to_tensor(np.array([1, 2])))
    with pytest.raises(ValueError, match="line_search_fn"):
        padax.optimizer.lbfgs_minimize(lambda x: (x * x).sum(), padax.ones([2]), line_search_fn="armijo")
