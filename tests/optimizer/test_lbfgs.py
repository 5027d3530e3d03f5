"""LBFGS: Paddle's iterates on the Rosenbrock function (with and without strong-Wolfe), and convergence."""
import numpy as np
import pytest

import padax
from tests.conftest import paddle_oracle

X0 = np.array([-1.2, 1.0, -0.5, 0.8])


def rosen(params):
    x = params["x"]
    return padax.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)


@pytest.mark.parametrize("line_search_fn", [None, "strong_wolfe"])
def test_iterates_match_paddle(line_search_fn, x64):
    paddle = paddle_oracle()
    x = paddle.create_parameter([4], "float64", default_initializer=paddle.nn.initializer.Assign(X0))
    kw = dict(learning_rate=1.0 if line_search_fn else 1e-3, max_iter=6, history_size=3,
              line_search_fn=line_search_fn)
    popt = paddle.optimizer.LBFGS(parameters=[x], **kw)

    def closure():
        popt.clear_grad()
        loss = paddle.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)
        loss.backward()
        return loss

    opt = padax.optimizer.LBFGS(**kw)
    params, state = {"x": padax.to_tensor(X0)}, opt.init()
    for _ in range(3):
        ref_loss = float(popt.step(closure))
        params, state = opt.step(params, rosen, state)
        assert state["loss"] == pytest.approx(ref_loss, rel=1e-10)
        np.testing.assert_allclose(np.asarray(params["x"]), x.numpy(), rtol=1e-8, atol=1e-10)
    assert state["func_evals"] == popt.state["func_evals"] and state["n_iter"] == popt.state["n_iter"]


def test_minimises_rosenbrock_to_1e6(x64):
    opt = padax.optimizer.LBFGS(max_iter=200, line_search_fn="strong_wolfe", tolerance_grad=1e-12,
                                tolerance_change=1e-15)
    params, state = opt.step({"x": padax.to_tensor(X0)}, rosen)
    np.testing.assert_allclose(np.asarray(params["x"]), np.ones(4), atol=1e-6)
    assert float(rosen(params)) < 1e-12
    ok, calls, x, value, grad = padax.optimizer.minimize_lbfgs(lambda v: rosen({"x": v}), padax.to_tensor(X0),
                                                               tolerance_change=1e-15, tolerance_grad=1e-7,
                                                               max_iters=200)
    assert ok and calls > 10 and float(value) < 1e-12
    np.testing.assert_allclose(np.asarray(x), np.ones(4), atol=1e-6)


def test_layer_and_float32():
    net = padax.nn.Linear(2, 1)
    xs = np.random.default_rng(0).normal(size=(32, 2)).astype(np.float32)
    ys = xs @ np.array([[2.0], [-1.0]], np.float32) + 0.5

    def loss(model):
        return padax.mean((model(padax.to_tensor(xs)) - padax.to_tensor(ys)) ** 2)

    opt = padax.optimizer.LBFGS(max_iter=50, line_search_fn="strong_wolfe")
    fitted, _ = opt.step(net, loss)
    assert str(fitted.weight.dtype) == "float32"
    np.testing.assert_allclose(np.asarray(fitted.weight).reshape(-1), [2.0, -1.0], atol=1e-4)
    np.testing.assert_allclose(np.asarray(fitted.bias), [0.5], atol=1e-4)


def test_bad_arguments():
    with pytest.raises(ValueError, match="strong_wolfe"):
        padax.optimizer.LBFGS(line_search_fn="backtracking")
    with pytest.raises(ValueError, match="add the penalty to the loss"):
        padax.optimizer.LBFGS(weight_decay=0.1)
    with pytest.raises(TypeError, match="scalar output"):
        padax.optimizer.LBFGS().step({"x": padax.ones([2])}, lambda p: p["x"] * 2)
