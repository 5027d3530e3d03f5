"""padax.nn.functional activations vs Paddle (values and gradients in one program), the random ones
(rrelu, gumbel_softmax) by their distributions and keys, vmap and second order."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import padax
import padax.nn.functional as F
from padax.test_util import check_grads
from tests.conftest import paddle_oracle
from tests.nn.functional.oracle import check, check_vmap

RNG = np.random.default_rng(0)
X = RNG.uniform(-4, 4, (3, 8, 5)).astype(np.float32)
X4 = RNG.uniform(-4, 4, (2, 6, 3, 4)).astype(np.float32)

ELEMENTWISE = [("relu", {}), ("relu6", {}), ("leaky_relu", dict(negative_slope=0.2)), ("elu", dict(alpha=0.5)),
               ("celu", dict(alpha=1.5)), ("selu", {}), ("gelu", {}), ("gelu", dict(approximate=True)),
               ("gelu", dict(approximate="tanh")), ("gelu", dict(approximate="none")), ("silu", {}), ("swish", {}),
               ("sigmoid", {}), ("hardsigmoid", {}), ("hardsigmoid", dict(slope=0.2, offset=0.4)), ("hardswish", {}),
               ("hardtanh", dict(min=-2.0, max=1.5)), ("mish", {}), ("softplus", dict(beta=2, threshold=3)),
               ("softsign", {}), ("softshrink", dict(threshold=0.7)), ("hardshrink", dict(threshold=0.7)),
               ("tanhshrink", {}), ("thresholded_relu", dict(threshold=0.5, value=-1.0)), ("log_sigmoid", {}),
               ("tanh", {}), ("glu", dict(axis=1)), ("softmax", dict(axis=1)), ("log_softmax", {})]


def test_activations_against_paddle():
    PF = paddle_oracle().nn.functional
    check(lambda x: [getattr(F, n)(x, **kw) for n, kw in ELEMENTWISE],
          lambda x: [getattr(PF, n)(x, **kw) for n, kw in ELEMENTWISE], [X], rtol=2e-5, atol=2e-5)


# the kinks sit exactly on the samples: Paddle's kernels pick one side there (relu'(0) = 0, hardtanh'
# and relu6' are 0 on their bounds, hardshrink keeps |x| == threshold), where a max/min-based clip
# would split the gradient 0.5/0.5
KINKS = np.array([-3.0, -2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 3.0, 6.0, 20.0, 7.0], np.float32)
KINKED = [("relu", {}), ("relu6", {}), ("hardtanh", {}), ("hardtanh", dict(min=-0.5, max=1.5)),
          ("hardsigmoid", dict(slope=0.5, offset=0.5)), ("hardswish", {}), ("softplus", {}),
          ("softplus", dict(beta=2, threshold=3)), ("hardshrink", {}), ("hardshrink", dict(threshold=1.0))]


def test_activation_gradients_at_their_kinks_match_paddle():
    PF = paddle_oracle().nn.functional
    check(lambda x: [getattr(F, n)(x, **kw) for n, kw in KINKED],
          lambda x: [getattr(PF, n)(x, **kw) for n, kw in KINKED], [KINKS], rtol=1e-6, atol=1e-6)
    assert F.relu(padax.to_tensor([float("nan")])).tolist() == [0.0]  # Paddle's kernel: NaN > 0 is false
    ties = np.round(X4 / 2)  # maxout: the first maximum of a run takes the gradient, not a 0.5/0.5 split
    check(lambda x: [F.maxout(x, 2), F.maxout(x, 2, axis=-1)], lambda x: [PF.maxout(x, 2), PF.maxout(x, 2, axis=-1)],
          [ties], rtol=1e-6, atol=1e-6)


def test_channel_activations_against_paddle():
    PF = paddle_oracle().nn.functional
    w = RNG.uniform(0, 1, (6,)).astype(np.float32)
    xl = np.moveaxis(X4, 1, -1).copy()

    def run(M, x, w, xl, y):
        return (M.maxout(x, 2), M.maxout(x, 3), M.maxout(x, 2, axis=-1), M.swiglu(x), M.swiglu(x, y),
                M.prelu(x, w), M.prelu(xl, w, data_format="NHWC"), M.prelu(x, w[:1]), M.rrelu(x, training=False))
    check(lambda *a: run(F, *a), lambda *a: run(PF, *a), [X4, w, xl, X4[::-1].copy()], diff=(0, 1, 2, 3))


def test_rrelu_and_gumbel_softmax_draw_from_a_key_or_the_global_seed():
    x = padax.to_tensor(X)
    y = np.asarray(F.rrelu(x, key=padax.random.key(0)))
    neg = X < 0
    slope = y[neg] / X[neg]
    assert (slope >= 1 / 8).all() and (slope <= 1 / 3).all() and slope.std() > 0.03
    np.testing.assert_array_equal(y[~neg], X[~neg])
    np.testing.assert_array_equal(np.asarray(F.rrelu(x, key=padax.random.key(0))), y)
    padax.seed(5)
    a = np.asarray(F.rrelu(x))
    b = np.asarray(F.rrelu(x))
    padax.seed(5)
    np.testing.assert_array_equal(np.asarray(F.rrelu(x)), a)
    assert not np.array_equal(a, b)
    jitted = padax.jit(lambda x, k: F.gumbel_softmax(x, temperature=0.5, key=k))
    g = np.asarray(jitted(x, padax.random.key(1)))
    np.testing.assert_allclose(g.sum(-1), 1, rtol=1e-5)
    assert not np.array_equal(g, np.asarray(jitted(x, padax.random.key(2))))
    h = F.gumbel_softmax(x, hard=True, axis=1, key=padax.random.key(1))
    assert set(np.unique(np.asarray(h))) == {0.0, 1.0} and (np.asarray(h).sum(1) == 1).all()
    # hard samples carry the soft sample's gradient (straight-through)
    gh = padax.grad(lambda x: (F.gumbel_softmax(x, hard=True, key=padax.random.key(1)) * x).sum())(x)
    assert np.abs(np.asarray(gh)).sum() > 0
    # the argmax of x + gumbel noise follows softmax(x)
    logits = np.log(np.array([0.1, 0.6, 0.3], np.float32))
    keys = padax.random.split(padax.random.key(3), 2000)
    picks = np.asarray(padax.vmap(lambda k: F.gumbel_softmax(padax.to_tensor(logits), hard=True, key=k))(keys))
    np.testing.assert_allclose(picks.mean(0), [0.1, 0.6, 0.3], atol=0.04)
    with pytest.raises(RuntimeError, match="global key"):
        padax.jit(lambda x: F.rrelu(x))(x)


def test_low_precision_dtypes_are_kept():
    xb = padax.to_tensor(X.astype(ml_dtypes.bfloat16))
    for n, kw in ELEMENTWISE:
        assert getattr(F, n)(xb, **kw).dtype == ml_dtypes.bfloat16, n
    ref = np.asarray(F.celu(padax.to_tensor(X), 1.5))
    np.testing.assert_allclose(np.asarray(F.celu(xb, 1.5)).astype(np.float32), ref, rtol=2e-2, atol=2e-2)


def test_vmap_and_second_order(x64):
    check_vmap(lambda x: [getattr(F, n)(x, **kw) for n, kw in ELEMENTWISE[:12]], [X], rtol=1e-5, atol=1e-5)
    x = RNG.uniform(-2, 2, (3, 4))
    for n in ("celu", "selu", "gelu", "mish", "softsign", "tanhshrink", "log_sigmoid", "glu"):
        check_grads(getattr(F, n), (x,), order=2, modes=("rev",))


def test_errors():
    with pytest.raises(ValueError, match="gelu: approximate must be True, False, 'tanh' or 'none'"):
        F.gelu(padax.ones([2]), approximate="fast")
    with pytest.raises(ValueError, match=r"maxout: groups=4 must divide the 6 channels .*test_nn_activation"):
        F.maxout(padax.to_tensor(X4), 4)
    with pytest.raises(ValueError, match=r"prelu: weight f32\[5\] must have 1 element or one per channel \(6\)"):
        F.prelu(padax.to_tensor(X4), padax.ones([5]))
    with pytest.raises(ValueError, match=r"glu: axis 2 of x f32\[3,8,5\] must have an even size"):
        F.glu(padax.to_tensor(X))
