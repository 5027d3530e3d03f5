"""Gradients at the edges (ties, bounds, zeros, NaN) against paddle.grad: padax.grad of sum(w * f(x)) must
give Paddle's numbers where Paddle picks a convention (clip's closed bounds, fmax's ties, relu at 0, the
p-norm at the zero vector, x ** 0 at x == 0)."""
from __future__ import annotations

import numpy as np
import pytest

import padax
import padax.nn.functional as XF
from tests.conftest import paddle_oracle

NAN, INF = float("nan"), float("inf")
_X = [-1.0, 0.0, 0.5, 1.0, 2.0, NAN]
_PAIR = ([1.0, NAN, 3.0, 2.0, NAN, 0.0], [NAN, 2.0, 1.0, 2.0, NAN, 0.0])
_ACT = [-4.0, -3.0, -1.0, 0.0, 0.5, 1.0, 3.0, 6.0, 7.0]

# id -> (padax/Paddle function of the framework module, inputs); `m` is padax or paddle, `f` its nn.functional
CASES = {
    "clip": (lambda m, f, x: m.clip(x, 0.0, 1.0), [_X]),
    "clip_min_only": (lambda m, f, x: m.clip(x, min=0.0), [_X]),
    "maximum": (lambda m, f, x, y: m.maximum(x, y), list(_PAIR)),
    "minimum": (lambda m, f, x, y: m.minimum(x, y), list(_PAIR)),
    "fmax": (lambda m, f, x, y: m.fmax(x, y), list(_PAIR)),
    "fmin": (lambda m, f, x, y: m.fmin(x, y), list(_PAIR)),
    "pow_tensor": (lambda m, f, x, y: m.pow(x, y), [[0.0, 0.0, -1.0, 2.0, 3.0], [0.0, 2.0, 2.0, 0.0, 0.5]]),
    "pow_scalar_0": (lambda m, f, x: m.pow(x, 0.0), [[0.0, 1.0, -2.0]]),
    "norm_zero": (lambda m, f, x: m.norm(x), [[0.0, 0.0, 0.0]]),
    "norm_p3_zero": (lambda m, f, x: m.norm(x, p=3), [[0.0, 0.0]]),
    "norm_fro_zero_rows": (lambda m, f, x: m.linalg.norm(x, axis=1), [[[0.0, 0.0], [3.0, 4.0]]]),
    "matrix_norm_fro_zero": (lambda m, f, x: m.linalg.matrix_norm(x), [[[0.0, 0.0], [0.0, 0.0]]]),
    "vector_norm_zero": (lambda m, f, x: m.linalg.vector_norm(x, 2.5), [[0.0, 0.0]]),
    "dist_equal": (lambda m, f, x, y: m.dist(x, y), [[1.0, 2.0], [1.0, 2.0]]),
    "relu": (lambda m, f, x: f.relu(x), [_ACT]),
    "relu6": (lambda m, f, x: f.relu6(x), [_ACT]),
    "hardtanh": (lambda m, f, x: f.hardtanh(x), [_ACT]),
    "hardswish": (lambda m, f, x: f.hardswish(x), [_ACT]),
}


@pytest.fixture(scope="module")
def paddle():
    return paddle_oracle()


def _paddle_grads(paddle, fn, hosts, w):
    xs = [paddle.to_tensor(h, stop_gradient=False) for h in hosts]
    loss = (fn(paddle, paddle.nn.functional, *xs) * paddle.to_tensor(w)).sum()
    return [np.zeros_like(h) if g is None else g.numpy() for h, g in
            zip(hosts, paddle.grad(loss, xs, allow_unused=True))]


@pytest.mark.parametrize("name", sorted(CASES))
def test_grad_matches_paddle(name: str, paddle) -> None:
    fn, values = CASES[name]
    hosts = [np.asarray(v, np.float32) for v in values]
    out_shape = tuple(fn(padax, XF, *[padax.to_tensor(h) for h in hosts]).shape)
    w = np.linspace(0.5, 1.5, int(np.prod(out_shape))).astype(np.float32).reshape(out_shape)
    want = _paddle_grads(paddle, fn, hosts, w)
    got = padax.grad(lambda *xs: (fn(padax, XF, *xs) * padax.to_tensor(w)).sum(),
                     argnums=tuple(range(len(hosts))))(*[padax.to_tensor(h) for h in hosts])
    for g, e in zip(got, want):
        np.testing.assert_allclose(np.asarray(g), e, rtol=1e-5, atol=1e-6, equal_nan=True)
