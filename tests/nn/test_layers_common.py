"""Linear, Bilinear, Embedding, Identity, Flatten, Unflatten against numpy and against Paddle (same weights)."""
import numpy as np
import pytest

import padax
from padax import nn
from tests.conftest import paddle_oracle
from tests.nn.oracle import assert_same_run, copy_weights

RNG = np.random.default_rng(0)


def test_linear_numpy_and_layout():
    m = nn.Linear(3, 5)
    assert m.weight.shape == (3, 5) and m.bias.shape == (5,)
    x = RNG.standard_normal((4, 3)).astype(np.float32)
    np.testing.assert_allclose(m(padax.to_tensor(x)).numpy(), x @ m.weight.numpy() + m.bias.numpy(), rtol=1e-5)
    np.testing.assert_array_equal(m.bias.numpy(), 0)
    assert nn.Linear(3, 5, bias_attr=False).bias is None
    assert repr(m) == "Linear(in_features=3, out_features=5, dtype=float32)"


def test_linear_vs_paddle():
    paddle = paddle_oracle()
    p = paddle.nn.Linear(6, 4)
    m = copy_weights(nn.Linear(6, 4), p)
    assert_same_run(m, p, [RNG.standard_normal((2, 3, 6)).astype(np.float32)], params=["weight", "bias"])
    assert repr(m) == repr(p)


def test_bilinear_vs_paddle():
    paddle = paddle_oracle()
    p = paddle.nn.Bilinear(3, 4, 5)
    m = copy_weights(nn.Bilinear(3, 4, 5), p)
    assert m.weight.shape == (5, 3, 4) and m.bias.shape == (1, 5)
    x1 = RNG.standard_normal((6, 3)).astype(np.float32)
    x2 = RNG.standard_normal((6, 4)).astype(np.float32)
    assert_same_run(m, p, [x1, x2], params=["weight", "bias"])
    w, b = m.weight.numpy(), m.bias.numpy()
    ref = np.einsum("ni,oij,nj->no", x1, w, x2) + b
    np.testing.assert_allclose(m(padax.to_tensor(x1), padax.to_tensor(x2)).numpy(), ref, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("padding_idx,kw", [(None, {}), (2, {}), (-1, {}), (None, dict(scale_grad_by_freq=True)),
                                            (2, dict(scale_grad_by_freq=True, max_norm=0.5))])
def test_embedding_vs_paddle(padding_idx, kw):
    # scale_grad_by_freq divides a row's gradient by its id's count; with max_norm Paddle renormalises
    # the table in place and then looks up, so the rows' gradient is a plain lookup's
    paddle = paddle_oracle()
    p = paddle.nn.Embedding(7, 4, padding_idx=padding_idx, **kw)
    m = copy_weights(nn.Embedding(7, 4, padding_idx=padding_idx, **kw), p)
    ids = np.array([[0, 2, 6], [2, 5, 0]], np.int64)
    assert_same_run(m, p, [ids], params=["weight"])
    if padding_idx is not None:
        np.testing.assert_array_equal(nn.Embedding(7, 4, padding_idx=padding_idx).weight.numpy()[padding_idx], 0)


def test_embedding_numpy_max_norm_and_errors():
    w = RNG.standard_normal((5, 3)).astype(np.float32) * 3
    ids = np.array([1, 4, 1])
    out = nn.functional.embedding(padax.to_tensor(ids), padax.to_tensor(w), max_norm=1.0).numpy()
    rows = w[ids]
    ref = rows * np.minimum(1.0, 1.0 / (np.linalg.norm(rows, axis=1, keepdims=True) + 1e-7))
    np.testing.assert_allclose(out, ref, rtol=1e-5)
    with pytest.raises(TypeError, match="ids must be integers"):
        nn.functional.embedding(padax.ones([2]), padax.to_tensor(w))
    with pytest.raises(ValueError, match="padding_idx"):
        nn.Embedding(4, 2, padding_idx=4)


def test_identity_flatten_unflatten():
    x = padax.to_tensor(RNG.standard_normal((2, 3, 4, 5)).astype(np.float32))
    assert nn.Identity(1, 2, a=3)(x) is x
    assert nn.Flatten()(x).shape == (2, 60)
    assert nn.Flatten(0, 2)(x).shape == (24, 5)
    y = nn.Unflatten(1, [3, 1])(x)
    assert y.shape == (2, 3, 1, 4, 5)
    np.testing.assert_array_equal(y.numpy(), x.numpy().reshape(2, 3, 1, 4, 5))
    paddle = paddle_oracle()
    assert repr(nn.Flatten()) == repr(paddle.nn.Flatten())
