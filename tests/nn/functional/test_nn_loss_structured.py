"""hsigmoid_loss (default and custom trees), rnnt_loss (FastEmit, blank, reductions) and
adaptive_log_softmax_with_loss vs Paddle: values and gradients; their layers; errors."""
from __future__ import annotations

import numpy as np
import pytest

import padax
import padax.nn.functional as F
from padax import nn
from padax.test_util import check_grads
from tests.conftest import paddle_oracle
from tests.nn.functional.oracle import check
from tests.nn.oracle import copy_weights

RNG = np.random.default_rng(0)


def _pf():
    return paddle_oracle().nn.functional


@pytest.mark.parametrize("num_classes", [2, 11])
def test_hsigmoid_default_tree_vs_paddle(num_classes):
    x = RNG.standard_normal((7, 4)).astype(np.float32)
    w = RNG.standard_normal((num_classes - 1, 4)).astype(np.float32)
    b = RNG.standard_normal((num_classes - 1, 1)).astype(np.float32)
    lab = RNG.integers(0, num_classes, (7,))
    check(lambda x, w, b, l: (F.hsigmoid_loss(x, l, num_classes, w, b), F.hsigmoid_loss(x, l[:, None], num_classes, w)),
          lambda x, w, b, l: (_pf().hsigmoid_loss(x, l, num_classes, w, b),
                              _pf().hsigmoid_loss(x, l[:, None], num_classes, w)),
          [x, w, b, lab], diff=(0, 1, 2), rtol=2e-5, atol=2e-5)


def test_hsigmoid_custom_tree_and_clip_vs_paddle():
    # 4 inner nodes; paths end at the first -1 (padded positions still add log 2, as Paddle)
    table = np.array([[0, 1, -1], [0, 1, 3], [0, 2, -1], [0, -1, -1], [0, 2, 3]], np.int64)
    code = np.array([[1, 0, 0], [0, 1, 1], [1, 1, 0], [0, 0, 0], [0, 0, 1]], np.int64)
    x = RNG.standard_normal((5, 3)) * np.array([[1.0], [1.0], [30.0], [1.0], [1.0]])  # row 2 hits the +-40 clip
    w = RNG.standard_normal((4, 3))
    b = RNG.standard_normal((4, 1))
    lab = np.array([0, 1, 2, 3, 4], np.int64)
    check(lambda x, w, b, t, c, l: F.hsigmoid_loss(x, l, 4, w, b, path_table=t, path_code=c, is_sparse=True),
          lambda x, w, b, t, c, l: _pf().hsigmoid_loss(x, l, 4, w, b, path_table=t, path_code=c),  # sparse: segfault
          [x, w, b, table, code, lab], diff=(0, 1, 2), rtol=1e-10, atol=1e-10)


def test_hsigmoid_layer_vs_paddle_and_grads(x64):
    paddle = paddle_oracle()
    p = paddle.nn.HSigmoidLoss(4, 6)
    m = copy_weights(nn.HSigmoidLoss(4, 6), p)
    assert m.weight.shape == (5, 4) and m.bias.shape == (5, 1)
    x = RNG.standard_normal((3, 4)).astype(np.float32)
    lab = np.array([0, 3, 5])
    np.testing.assert_allclose(np.asarray(m(padax.to_tensor(x), padax.to_tensor(lab))),
                               p(paddle.to_tensor(x), paddle.to_tensor(lab)).numpy(), rtol=1e-5, atol=1e-6)
    w, b = np.asarray(m.weight, np.float64), np.asarray(m.bias, np.float64)
    check_grads(padax.jit(lambda x, w: F.hsigmoid_loss(x, padax.to_tensor(lab), 6, w, b)), (x.astype(np.float64), w),
                order=1)
    with pytest.raises(ValueError, match="num_classes must be at least 2"):
        nn.HSigmoidLoss(4, 1)


def _rnnt_case(dtype, log_softmax=True):
    b, t, u, v = 3, 5, 3, 6
    x = RNG.standard_normal((b, t, u + 1, v))
    if log_softmax:
        x = x - np.log(np.exp(x).sum(-1, keepdims=True))
    lab = RNG.integers(1, v, (b, u)).astype(np.int32)
    return [x.astype(dtype), lab, np.array([5, 4, 2], np.int32), np.array([3, 2, 1], np.int32)]


def test_rnnt_vs_paddle():
    def variants(f):  # FastEmit changes only the gradient: each reduction with its own lambda
        return lambda x, l, il, ll: (f(x, l, il, ll, fastemit_lambda=0.0, reduction="none"),
                                     f(x, l, il, ll, fastemit_lambda=0.5, reduction="mean"),
                                     f(x, l, il, ll, reduction="sum"))
    check(variants(F.rnnt_loss), variants(_pf().rnnt_loss), _rnnt_case(np.float64), rtol=1e-10, atol=1e-10)
    check(lambda *a: F.rnnt_loss(*a, reduction="none"), lambda *a: _pf().rnnt_loss(*a, reduction="none"),
          _rnnt_case(np.float32), rtol=2e-5, atol=2e-5)


def test_rnnt_raw_scores_blank_and_layer_vs_paddle():
    paddle = paddle_oracle()
    # Paddle's CPU kernel uses `input` as log-probabilities as given (no normalisation): so do we
    args = _rnnt_case(np.float64, log_softmax=False)
    args[1] = np.where(args[1] == 2, 1, args[1])  # label 2 is the blank below
    check(lambda x, l, il, ll: F.rnnt_loss(x, l, il, ll, blank=2, reduction="none"),
          lambda x, l, il, ll: _pf().rnnt_loss(x, l, il, ll, blank=2, reduction="none"), args, rtol=1e-10,
          atol=1e-10)
    ours = nn.RNNTLoss(blank=2, fastemit_lambda=0.1, reduction="sum")
    theirs = paddle.nn.RNNTLoss(blank=2, fastemit_lambda=0.1, reduction="sum")
    np.testing.assert_allclose(np.asarray(ours(*[padax.to_tensor(a) for a in args])),
                               theirs(*[paddle.to_tensor(a) for a in args]).numpy(), rtol=1e-10)


def test_rnnt_numerical_grad(x64):
    x, lab, il, ll = _rnnt_case(np.float64)
    small = [padax.to_tensor(a) for a in (lab[:1, :2], np.array([3], np.int32), np.array([2], np.int32))]
    check_grads(padax.jit(lambda x: F.rnnt_loss(x, *small, fastemit_lambda=0.0)), (x[:1, :3, :3],), order=1,
                modes=("rev",))


def _adaptive_arrays():
    d, cuts = 6, [3, 6, 10]
    head = RNG.standard_normal((d, 3 + 2)).astype(np.float32)
    t1 = [RNG.standard_normal((d, 3)).astype(np.float32), RNG.standard_normal((3, 3)).astype(np.float32)]
    t2 = [RNG.standard_normal((d, 1)).astype(np.float32), RNG.standard_normal((1, 4)).astype(np.float32)]
    x = RNG.standard_normal((8, d)).astype(np.float32)
    lab = np.array([0, 4, 9, 2, 6, 5, 8, 1], np.int64)
    hb = RNG.standard_normal(5).astype(np.float32)
    return cuts, [x, lab, head, *t1, *t2, hb]


def test_adaptive_log_softmax_vs_paddle():
    cuts, arrays = _adaptive_arrays()

    def run(f):
        def call(x, lab, head, a1, b1, a2, b2, hb):
            out = f(x, lab, head, [[a1, b1], [a2, b2]], cuts, hb)
            one = f(x[1], lab[1], head, [[a1, b1], [a2, b2]], cuts)  # unbatched
            return (*out, *one)
        return call
    check(run(F.adaptive_log_softmax_with_loss), run(_pf().adaptive_log_softmax_with_loss), arrays,
          diff=(0, 2, 3, 4, 5, 6, 7), rtol=1e-5, atol=1e-5)


def test_adaptive_log_softmax_layer_vs_paddle():
    paddle = paddle_oracle()
    p = paddle.nn.AdaptiveLogSoftmaxWithLoss(6, 10, [3, 6], div_value=2.0, head_bias=True)
    m = nn.AdaptiveLogSoftmaxWithLoss(6, 10, [3, 6], div_value=2.0, head_bias=True)
    m.set_state_dict({"head_weight": p.head_weight.numpy(), "head_bias": p.head_bias.numpy(),
                      **{f"tail_weights.{k}.{j}": p.tail_weights[k][j].numpy() for k in range(2) for j in range(2)}})
    assert [tuple(w.shape) for pair in m.tail_weights for w in pair] == [(6, 3), (3, 3), (6, 1), (1, 4)]
    x = RNG.standard_normal((9, 6)).astype(np.float32)
    lab = np.array([0, 1, 2, 3, 4, 5, 6, 7, 9])
    for ours, theirs in zip(m(padax.to_tensor(x), padax.to_tensor(lab)), p(paddle.to_tensor(x), paddle.to_tensor(lab))):
        np.testing.assert_allclose(np.asarray(ours), theirs.numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(np.asarray(m.log_prob(padax.to_tensor(x))), p.log_prob(paddle.to_tensor(x)).numpy(),
                               rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(np.asarray(m.predict(padax.to_tensor(x))),
                                  p.predict(paddle.to_tensor(x)).numpy().astype(np.float32))
    g = padax.jit(padax.grad(lambda mm, x, lab: mm(x, lab)[1]))(m, padax.to_tensor(x), padax.to_tensor(lab))
    assert float(np.abs(np.asarray(g.tail_weights[1][1])).sum()) > 0


def test_errors():
    x = padax.ones([2, 3])
    with pytest.raises(ValueError, match=r"hsigmoid_loss: path_table and path_code must be given together"):
        F.hsigmoid_loss(x, padax.to_tensor([0, 1]), 4, padax.ones([3, 3]), path_table=padax.to_tensor([[0, 1]] * 2))
    with pytest.raises(ValueError, match=r"rnnt_loss: input must be \[B, T, U \+ 1, V\]"):
        F.rnnt_loss(padax.ones([1, 2, 2, 3]), padax.to_tensor([[1, 1]]), padax.to_tensor([2]), padax.to_tensor([2]))
    with pytest.raises(ValueError, match=r"adaptive_log_softmax_with_loss: label values must be in \[0, 9\]"):
        cuts, arrays = _adaptive_arrays()
        F.adaptive_log_softmax_with_loss(padax.to_tensor(arrays[0]), padax.to_tensor(np.full(8, 10)),
                                         padax.to_tensor(arrays[2]), [arrays[3:5], arrays[5:7]], cuts)
    with pytest.raises(ValueError, match="cutoffs must be unique positive ints"):
        nn.AdaptiveLogSoftmaxWithLoss(6, 10, [6, 3])
