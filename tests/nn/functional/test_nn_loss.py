"""padax.nn.functional losses vs Paddle: every reduction, weights, ignore_index, soft labels, label
smoothing; input gradients (Paddle gives none for labels; padax's are checked numerically)."""
from __future__ import annotations

import numpy as np
import pytest

import padax
import padax.nn.functional as F
from padax.test_util import check_grads
from tests.conftest import paddle_oracle
from tests.nn.functional.oracle import check, check_vmap

RNG = np.random.default_rng(0)
REDS = ("none", "mean", "sum")


def f32(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


LOGITS = f32(6, 5)
LAB_IGNORED = np.array([0, 4, 2, -100, 1, 3])
LAB = np.array([0, 4, 2, 1, 1, 3])
W5 = RNG.uniform(0.5, 2, 5).astype(np.float32)
SOFT = np.exp(f32(6, 5))
SOFT /= SOFT.sum(-1, keepdims=True)
A, B = f32(4, 3), f32(4, 3)
T = (B > 0).astype(np.float32)


def all_reductions(fn):
    """fn(reduction=...) for 'none', 'mean' and 'sum', as one tuple."""
    return lambda *a: tuple(fn(*a, reduction=r) for r in REDS)


def test_cross_entropy_hard_labels():
    PF = paddle_oracle().nn.functional

    def run(M, x, y, y2, w):
        return (*[M.cross_entropy(x, y, reduction=r) for r in REDS],          # mean over all labels (-100 < 0)
                *[M.cross_entropy(x, y, w, reduction=r) for r in REDS],
                *[M.cross_entropy(x, y2, w, ignore_index=1, reduction=r) for r in REDS],
                M.cross_entropy(x, y2, ignore_index=1), M.cross_entropy(x, y2[:, None], reduction="none"),
                *[M.cross_entropy(x, y2, w, label_smoothing=0.1, reduction=r) for r in REDS])
    check(lambda *a: run(F, *a), lambda *a: run(PF, *a), [LOGITS, LAB_IGNORED, LAB, W5])


def test_cross_entropy_soft_labels_axis_and_probabilities():
    PF = paddle_oracle().nn.functional
    x4, l4 = f32(2, 5, 3, 4), RNG.integers(0, 5, (2, 1, 3, 4))
    onehot = np.eye(5, dtype=np.float32)[LAB]

    def run(M, x, soft, w, onehot, x4, l4, probs, y):
        return (*[M.cross_entropy(x, soft, soft_label=True, reduction=r) for r in REDS],
                *[M.cross_entropy(x, soft, w, soft_label=True, reduction=r) for r in REDS],
                M.cross_entropy(x, onehot, soft_label=True),
                *[M.cross_entropy(x4, l4, axis=1, reduction=r) for r in REDS],
                *[M.cross_entropy(probs, y, use_softmax=False, reduction=r) for r in REDS],
                M.softmax_with_cross_entropy(x, y[:, None]))
    check(lambda *a: run(F, *a), lambda *a: run(PF, *a), [LOGITS, SOFT, W5, onehot, x4, l4, SOFT, LAB],
          diff=(0, 4, 6))
    # (Paddle's returned softmax has no gradient path: values only)
    check(lambda x, y: F.softmax_with_cross_entropy(x, y, return_softmax=True),
          lambda x, y: PF.softmax_with_cross_entropy(x, y, return_softmax=True), [LOGITS, LAB[:, None]], diff=())
    # soft labels get a gradient in padax (Paddle's kernel has none): -log_softmax(x)
    g = padax.grad(lambda p: F.cross_entropy(padax.to_tensor(LOGITS), p, soft_label=True, reduction="sum"))(
        padax.to_tensor(SOFT))
    ls = LOGITS - np.log(np.exp(LOGITS).sum(-1, keepdims=True))
    np.testing.assert_allclose(np.asarray(g), -ls, rtol=1e-5, atol=1e-5)


def test_nll_and_regression_losses():
    PF = paddle_oracle().nn.functional
    lp = np.log(SOFT)
    x4 = np.log(np.abs(f32(2, 5, 3)))

    def run(M, lp, y, y2, w, x4, l4, a, b):
        return (*[M.nll_loss(lp, y, reduction=r) for r in REDS], *[M.nll_loss(lp, y2, w, ignore_index=1, reduction=r)
                                                                   for r in REDS],
                M.nll_loss(x4, l4, reduction="none"),
                *[M.mse_loss(a, b, reduction=r) for r in REDS], *[M.l1_loss(a, b, reduction=r) for r in REDS],
                *[M.smooth_l1_loss(a, b, reduction=r) for r in REDS], M.smooth_l1_loss(a, b, delta=0.5),
                M.smooth_l1_loss(a, b, "none", delta=0.5, is_huber=False), M.square_error_cost(a, b))
    check(lambda *a: run(F, *a), lambda *a: run(PF, *a),
          [lp, LAB_IGNORED, LAB, W5, x4, RNG.integers(0, 5, (2, 3)), A, B], diff=(0, 4, 6, 7))


def test_binary_losses():
    PF = paddle_oracle().nn.functional
    p = 1 / (1 + np.exp(-A))
    ww, pw = np.abs(f32(4, 3)), np.abs(f32(3)) + 0.5

    def run(M, p, t, w, x, pw, norm):
        return (*[M.binary_cross_entropy(p, t, reduction=r) for r in REDS], M.binary_cross_entropy(p, t, w),
                *[M.binary_cross_entropy_with_logits(x, t, reduction=r) for r in REDS],
                M.binary_cross_entropy_with_logits(x, t, w, "none", pos_weight=pw),
                *[M.sigmoid_focal_loss(x, t, reduction=r) for r in REDS],
                M.sigmoid_focal_loss(x, t, norm, alpha=0.4, gamma=1.5, reduction="none"),
                M.log_loss(p[:, :1], t[:, :1]),
                *[M.multi_label_soft_margin_loss(x, t, reduction=r) for r in REDS],
                M.multi_label_soft_margin_loss(x, t, w[0]))
    check(lambda *a: run(F, *a), lambda *a: run(PF, *a), [p, T, ww, A * 5, pw, np.array([3.0], np.float32)],
          diff=(0, 3))


def test_distribution_losses():
    PF = paddle_oracle().nn.functional
    var = np.abs(A) + 0.1

    def run(M, a, b, c, v, lq, lp, llp):
        return (*[M.poisson_nll_loss(a, b, reduction=r) for r in REDS], M.poisson_nll_loss(a, b, log_input=False),
                M.poisson_nll_loss(a, b, full=True, reduction="none"),
                *[M.gaussian_nll_loss(c, b, v, reduction=r) for r in REDS],
                M.gaussian_nll_loss(c, b, v[:, 0], full=True, reduction="none"),
                *[M.kl_div(lq, lp, reduction=r) for r in REDS], M.kl_div(lq, lp, reduction="batchmean"),
                M.kl_div(lq, llp, log_target=True, reduction="none"))
    check(lambda *a: run(F, *a), lambda *a: run(PF, *a),
          [np.abs(A) + 0.1, np.abs(B) * 3, A, var, np.log(SOFT[::-1].copy()), SOFT, np.log(SOFT)],
          diff=(0, 1, 2, 4, 5))


def test_gaussian_nll_variance_gets_a_gradient():
    """Paddle clamps the variance under no_grad and so gives it no gradient; padax passes the
    gradient through the clamp: d/dv 0.5 (log v + r^2 / v) = 0.5 (1 / v - r^2 / v^2)."""
    v = np.abs(A) + 0.1
    g = padax.grad(lambda v: F.gaussian_nll_loss(padax.to_tensor(A), padax.to_tensor(B), v, reduction="sum"))(
        padax.to_tensor(v))
    np.testing.assert_allclose(np.asarray(g), 0.5 * (1 / v - (A - B) ** 2 / v ** 2), rtol=1e-5)


def test_margin_and_embedding_losses():
    PF = paddle_oracle().nn.functional
    n = f32(4, 3)
    sign = np.sign(f32(4)).astype(np.float32)
    yl = np.array([0, 2, 1, 2])
    ml = np.array([[0, 2, -1], [1, -1, 2], [2, 1, 0], [-1, 0, 1]])

    def run(M, a, b, n, s, si, yl, w, ml, sb):
        cos = (lambda u, v: 1 - M.cosine_similarity(u, v))
        return (*[M.margin_ranking_loss(a[:, 0], b[:, 0], s, 0.3, r) for r in REDS],
                *[M.hinge_embedding_loss(a, sb, 0.5, r) for r in REDS],
                *[M.cosine_embedding_loss(a, b, si, 0.2, r) for r in REDS],
                *[M.triplet_margin_loss(a, b, n, reduction=r) for r in REDS],
                M.triplet_margin_loss(a, b, n, 0.5, p=1, swap=True, reduction="none"),
                M.triplet_margin_with_distance_loss(a, b, n, swap=True),
                M.triplet_margin_with_distance_loss(a, b, n, distance_function=cos, reduction="none"),
                *[M.soft_margin_loss(a, sb, r) for r in REDS],
                *[M.multi_margin_loss(a, yl, reduction=r) for r in REDS], M.multi_margin_loss(a, yl, 2, 0.7, w),
                *[M.multi_label_margin_loss(a, ml, r) for r in REDS])
    check(lambda *a: run(F, *a), lambda *a: run(PF, *a),
          [A, B, n, sign, sign.astype(np.int64), yl, W5[:3], ml, np.sign(B)], diff=(0, 1, 2))


def test_dice_label_smooth_one_hot_distances():
    PF = paddle_oracle().nn.functional
    onehot = np.eye(5, dtype=np.float32)[LAB]

    def run(M, soft, y, onehot, prior, a, b, c, d):
        return (M.dice_loss(soft, y[:, None]), M.label_smooth(onehot, epsilon=0.2),
                M.label_smooth(onehot, prior, epsilon=0.2), M.one_hot(y, 6),
                M.pairwise_distance(a, b), M.pairwise_distance(a, b, 1, keepdim=True),
                M.pairwise_distance(a, b, float("inf"), 0.0), M.pdist(a), M.cosine_similarity(a, b, axis=-1),
                M.cosine_similarity(c, d))
    check(lambda *a: run(F, *a), lambda *a: run(PF, *a), [SOFT, LAB, onehot, SOFT[:1], A, B, f32(2, 3, 4), f32(1, 3, 4)],
          diff=(0, 4, 5, 6, 7))
    assert F.one_hot(padax.to_tensor(LAB)).shape == (6, 5)    # num_classes=-1: max + 1


CTC = dict(lg=f32(7, 3, 5), labels=np.array([[1, 2, 2], [3, 1, 0], [4, 4, 4]], np.int32),
           il=np.array([7, 6, 7], np.int64), ll=np.array([3, 2, 1], np.int64))


def test_ctc_loss():
    PF = paddle_oracle().nn.functional
    blank4 = np.array([[1, 2, 2], [3, 1, 0], [0, 0, 0]], np.int32)

    def run(M, lg, lab, il, ll, lab4):
        return (*[M.ctc_loss(lg, lab, il, ll, reduction=r) for r in REDS],
                M.ctc_loss(lg, lab, il, ll, reduction="none", norm_by_times=True),
                M.ctc_loss(lg, lab4, il, ll, blank=4, reduction="none"))
    check(lambda *a: run(F, *a), lambda *a: run(PF, *a), [*CTC.values(), blank4], rtol=1e-4, atol=1e-4)
    # labels too long for 3 frames give 0, a possible length with no alignment (a blank label) inf
    short = lambda M, lg, lab, il, ll: (M.ctc_loss(lg[:3], lab, il * 0 + 3, ll * 0 + 3, reduction="none"),  # noqa
                                        M.ctc_loss(lg[:3], lab, il * 0 + 3, ll * 0 + 3, reduction="none",
                                                   zero_infinity=True))
    out = check(lambda *a: short(F, *a), lambda *a: short(PF, *a), list(CTC.values()), diff=())
    np.testing.assert_array_equal(out[0], [0, np.inf, 0])


def test_vmap():
    check_vmap(lambda x, y, w: (F.cross_entropy(x, y, w), F.nll_loss(x, y, reduction="none"),
                                F.binary_cross_entropy_with_logits(x, F.one_hot(y, 5)),
                                F.triplet_margin_loss(x, w * x, x * x)), [LOGITS, LAB, W5], batched=(0, 1, 2))
    check_vmap(lambda lg, lab: F.ctc_loss(lg, lab, CTC["il"], CTC["ll"], reduction="none"),
               [CTC["lg"], CTC["labels"]], batched=(0, 1), rtol=1e-4, atol=1e-4)


def test_second_order(x64):
    x = RNG.standard_normal((3, 4))
    y = np.array([0, 3, 1])
    check_grads(lambda x: F.cross_entropy(x, y, label_smoothing=0.1), (x,), order=2, modes=("rev",))
    check_grads(lambda x: F.binary_cross_entropy_with_logits(x, (x > 0) * 1.0, pos_weight=np.full(4, 2.0)), (x,),
                order=2, modes=("fwd",))
    check_grads(lambda x: F.triplet_margin_loss(x, x[::-1] * 2, x + 1), (x,), order=2, modes=("rev",))


@pytest.mark.slow
def test_ctc_second_order(x64):
    lg = RNG.standard_normal((4, 2, 3))
    check_grads(lambda lg: F.ctc_loss(lg, np.array([[1, 2], [2, 2]]), np.array([4, 4]), np.array([2, 1])), (lg,),
                order=2, modes=("rev",))


def test_errors():
    x = padax.ones([4, 3])
    with pytest.raises(ValueError, match=r"cross_entropy: label of shape \[2\] does not match input .*test_nn_loss"):
        F.cross_entropy(x, padax.to_tensor([0, 1]))
    with pytest.raises(TypeError, match="cross_entropy: hard labels must be integers"):
        F.cross_entropy(x, padax.ones([4], dtype="complex64"))
    # as Paddle: float class indices are read as integers
    np.testing.assert_allclose(np.asarray(F.cross_entropy(x, padax.ones([4]))),
                               np.asarray(F.cross_entropy(x, padax.ones([4], dtype="int64"))), rtol=1e-6)
    with pytest.raises(ValueError, match="mse_loss: reduction must be"):
        F.mse_loss(x, x, reduction="avg")
    with pytest.raises(ValueError, match=r"binary_cross_entropy: shapes must match, got input \[4, 3\], label \[3\]"):
        F.binary_cross_entropy(x, padax.ones([3]))
    with pytest.raises(ValueError, match=r"ctc_loss: log_probs must be \[T, B, C\]"):
        F.ctc_loss(x, padax.ones([4, 2], dtype="int32"), padax.ones([4], dtype="int64"), padax.ones([4], dtype="int64"))
    with pytest.raises(ValueError, match="one_hot: num_classes=-1 reads max"):
        padax.jit(lambda y: F.one_hot(y))(padax.to_tensor(LAB))
