"""padax.metric against Paddle's metrics and numpy references."""
import numpy as np
import pytest

import padax
from padax import metric
from tests.conftest import paddle_oracle

RNG = np.random.default_rng(0)


def test_accuracy_matches_paddle_topk_and_onehot():
    paddle = paddle_oracle()
    pred = RNG.random((16, 6)).astype(np.float32)
    label = RNG.integers(0, 6, (16, 1))
    for topk, lab in (((1,), label), ((1, 3), label), ((2, 5), np.eye(6)[label[:, 0]])):
        ours, ref = metric.Accuracy(topk=topk), paddle.metric.Accuracy(topk=topk)
        assert ours.name() == ref.name()
        for half in (slice(0, 8), slice(8, 16)):
            c = ours.compute(pred[half], lab[half])
            r = ref.compute(paddle.to_tensor(pred[half]), paddle.to_tensor(lab[half]))
            np.testing.assert_array_equal(np.asarray(c), r.numpy())
            assert ours.update(c) == pytest.approx(ref.update(r))
        assert ours.accumulate() == pytest.approx(ref.accumulate())
        ours.reset()
        assert ours.accumulate() == (0.0 if len(topk) == 1 else [0.0] * len(topk))
    # numpy reference: top-3 accuracy
    ref3 = np.mean([label[i, 0] in np.argsort(-pred[i])[:3] for i in range(16)])
    acc = metric.Accuracy(topk=(3,))
    acc.update(acc.compute(pred, label))
    assert acc.accumulate() == pytest.approx(ref3)


def test_accuracy_compute_is_jittable_and_checks_rank():
    acc = metric.Accuracy(topk=(1, 2))
    pred = RNG.random((5, 4)).astype(np.float32)
    label = RNG.integers(0, 4, (5, 1))
    np.testing.assert_array_equal(np.asarray(padax.jit(acc.compute)(pred, label)), np.asarray(acc.compute(pred, label)))
    with pytest.raises(ValueError, match=r"num_classes >= max\(topk\) = 2.*\[5, 1\]"):
        acc.compute(pred[:, :1], label)
    with pytest.raises(ValueError, match=r"pred of shape \[5\]: expected pred \[batch, ..., num_classes\]"):
        acc.compute(pred[:, 0], label)
    with pytest.raises(ValueError, match=r"label of shape \[4, 1\]"):
        acc.compute(pred, label[:4])


def test_functional_accuracy_matches_paddle():
    paddle = paddle_oracle()
    pred = RNG.random((12, 5)).astype(np.float32)
    label = RNG.integers(0, 5, (12, 1))
    for k in (1, 2):
        ref = paddle.metric.accuracy(paddle.to_tensor(pred), paddle.to_tensor(label), k=k)
        got = padax.jit(lambda p, y: metric.accuracy(p, y, k=k))(pred, label)
        assert str(got.dtype) == "float32"
        np.testing.assert_allclose(np.asarray(got), ref.numpy(), rtol=1e-6)
    with pytest.raises(ValueError, match="input must be"):
        metric.accuracy(pred[0], label)


@pytest.mark.parametrize("cls", ["Precision", "Recall"])
def test_precision_recall_match_paddle(cls):
    paddle = paddle_oracle()
    preds = np.concatenate([RNG.random(40), [0.5, 0.5, 1.5 - 1]]).astype(np.float32)  # ties at 0.5 round apart
    labels = np.concatenate([RNG.integers(0, 2, 40), [1, 0, 1]]).astype(np.int64)
    ours, ref = getattr(metric, cls)(), getattr(paddle.metric, cls)()
    for part in (slice(0, 20), slice(20, None)):
        ours.update(padax.to_tensor(preds[part]), labels[part])
        ref.update(preds[part].reshape(-1, 1), labels[part].reshape(-1, 1))
    assert ours.accumulate() == pytest.approx(ref.accumulate()) and ours.name() == ref.name()
    ours.reset()
    assert ours.accumulate() == 0.0
    with pytest.raises(ValueError, match="one label each"):
        ours.update(preds[:4], labels[:3])


def test_auc_roc_matches_paddle_and_exact_auc():
    paddle = paddle_oracle()
    p1 = RNG.random(200)
    y = (RNG.random(200) < p1).astype(np.int64)
    preds = np.stack([1 - p1, p1], axis=1).astype(np.float32)
    ours, ref = metric.Auc(num_thresholds=1000), paddle.metric.Auc(num_thresholds=1000)
    for part in (slice(0, 120), slice(120, None)):
        ours.update(preds[part], y[part])
        ref.update(preds[part], y[part].reshape(-1, 1))
    assert ours.accumulate() == pytest.approx(ref.accumulate(), rel=1e-12)
    # the exact ROC AUC (Mann-Whitney), which fine buckets approach
    pos, neg = p1[y == 1], p1[y == 0]
    exact = np.mean((pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :]))
    fine = metric.Auc(num_thresholds=100000)
    fine.update(p1.reshape(-1, 1), y)
    assert fine.accumulate() == pytest.approx(exact, abs=1e-4)
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        fine.update(np.array([1.5]), np.array([1]))


def test_auc_pr_against_numpy_reference():
    p = RNG.random(300)
    y = (RNG.random(300) < p).astype(np.int64)
    auc = metric.Auc(curve="PR", num_thresholds=50)
    auc.update(p, y)
    # reference: walk thresholds from high to low, trapezoids in (recall, precision) from (0, 1)
    bins = (p * 50).astype(int)
    r_prev, pr_prev, area = 0.0, 1.0, 0.0
    for t in range(50, -1, -1):
        sel = bins >= t
        if not sel.any():
            continue
        tp = np.sum(y[sel] == 1)
        r, pr = tp / np.sum(y == 1), tp / sel.sum()
        area += (r - r_prev) * (pr + pr_prev) / 2
        r_prev, pr_prev = r, pr
    assert auc.accumulate() == pytest.approx(area, rel=1e-12)
    assert 0.5 < area < 1.0


def test_metric_subclass_must_define_protocol():
    with pytest.raises(TypeError, match="must define accumulate"):
        class Half(metric.Metric):
            def reset(self): ...
            def update(self, x): ...
            def name(self): ...
