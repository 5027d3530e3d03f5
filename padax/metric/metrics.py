"""Paddle's metrics: a jittable device-side `compute` and host-side running totals.

`compute` runs with padax ops so that it can sit inside a jitted eval step; `update`,
`accumulate` and `reset` keep plain Python/numpy totals on the host (one small transfer per
batch), exactly as Paddle's metrics do.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

import padax
from padax.core.errors import op_value_error, require_members


class Metric:
    """Base class: subclasses define `reset`, `update`, `accumulate` and `name`; `compute` (the device-side
    preprocessing whose outputs `update` receives) passes its inputs through unless overridden.

    Examples:
        >>> import padax
        >>> class MeanError(padax.metric.Metric):
        ...     def __init__(self):
        ...         self.reset()
        ...     def reset(self):
        ...         self.total, self.count = 0.0, 0
        ...     def update(self, err):
        ...         self.total += float(err.sum())
        ...         self.count += err.shape[0]
        ...     def accumulate(self):
        ...         return self.total / self.count
        ...     def name(self):
        ...         return 'mean_error'
        ...
        >>> m = MeanError()
        >>> m.update(padax.to_tensor([1.0, 3.0]))
        >>> m.accumulate()
        2.0
    """

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        require_members(cls, "padax metric", {"reset": "reset()", "update": "update(*computed)",
                                              "accumulate": "accumulate()", "name": "name()"})

    def compute(self, *args: Any) -> Any:
        """The device-side part of a batch's evaluation (jittable); by default the inputs unchanged."""
        return args


def _host(x: Any, what: str, op: str) -> np.ndarray:
    """A Tensor or array as numpy (Paddle's metrics take both)."""
    try:
        return np.asarray(x)
    except Exception as e:
        raise TypeError(f"{op}: {what} must be a Tensor or a numpy array, got {type(x).__name__}") from e


class Accuracy(Metric):
    """Top-k classification accuracy for each k in `topk` (name `acc`, or `acc_top{k}` per k).

    Args:
        topk: the k values (an int or a sequence of ints >= 1).
        name: the base name in logs (default 'acc').
        *args, **kwargs: accepted for Paddle compatibility; unused.

    Returns:
        The metric; `compute(pred, label)` then `update(...)`, and `accumulate()` for the running accuracy per k.

    Examples:
        >>> import padax
        >>> pred = padax.to_tensor([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7]])
        >>> label = padax.to_tensor([[1], [1], [1]])
        >>> m = padax.metric.Accuracy()
        >>> m.update(m.compute(pred, label))
        0.6667
        >>> m.accumulate()
        0.6667
    """

    def __init__(self, topk: Sequence[int] = (1,), name: str | None = None, *args: Any, **kwargs: Any):
        topk = tuple(topk) if isinstance(topk, (list, tuple)) else (topk,)
        if not topk or any(isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1 for k in topk):
            raise ValueError(f"Accuracy: topk must be positive integers, got {topk!r}")
        self.topk = tuple(int(k) for k in topk)
        self.maxk = max(self.topk)
        base = name or "acc"
        self._name = [f"{base}_top{k}" for k in self.topk] if self.maxk != 1 else [base]
        self.reset()

    def compute(self, pred: Any, label: Any, *args: Any) -> Any:
        """float32 mask [batch, ..., maxk]: whether the j-th highest score of each row is the label.

        `pred` is [batch, ..., num_classes]; `label` holds class indices ([batch, ..., 1] or [batch]) or is one-hot
        ([batch, ..., num_classes])."""
        pred, label = padax.to_tensor(pred), padax.to_tensor(label)
        if pred.ndim < 1 or pred.shape[-1] < self.maxk:
            raise op_value_error("Accuracy.compute", f"pred must be [batch, ..., num_classes] with num_classes >= "
                                 f"max(topk) = {self.maxk}, got shape {list(pred.shape)}")
        top = padax.argsort(pred, axis=-1, descending=True)[..., :self.maxk]
        if label.ndim == 1 or (label.ndim == 2 and label.shape[-1] == 1):
            label = label.reshape([-1, 1])
        elif label.shape[-1] != 1:
            label = padax.argmax(label, axis=-1, keepdim=True)
        if tuple(label.shape[:-1]) != tuple(top.shape[:-1]):
            raise op_value_error("Accuracy.compute", f"label of shape {list(label.shape)} does not match pred of "
                                 f"shape {list(pred.shape)}: expected pred [batch, ..., num_classes] and label as class "
                                 "indices [batch, ..., 1] or [batch], or one-hot shaped like pred")
        return (top == label.astype(top.dtype)).astype("float32")

    def update(self, correct: Any, *args: Any) -> float | list[float]:
        """Add a `compute` mask to the totals; returns this batch's accuracy (a list when several k)."""
        correct = _host(correct, "correct", "Accuracy.update")
        if correct.ndim < 1:
            raise op_value_error("Accuracy.update", "correct must be the [batch, ..., maxk] mask from compute, "
                                 f"got a scalar")
        num_samples = int(np.prod(correct.shape[:-1]))
        accs = []
        for i, k in enumerate(self.topk):
            hits = float(correct[..., :k].sum())
            accs.append(hits / num_samples if num_samples else 0.0)
            self.total[i] += hits
            self.count[i] += num_samples
        return accs[0] if len(self.topk) == 1 else accs

    def reset(self) -> None:
        self.total = [0.0] * len(self.topk)
        self.count = [0] * len(self.topk)

    def accumulate(self) -> float | list[float]:
        res = [t / c if c > 0 else 0.0 for t, c in zip(self.total, self.count)]
        return res[0] if len(self.topk) == 1 else res

    def name(self) -> list[str]:
        return self._name


def _binary_inputs(op: str, preds: Any, labels: Any) -> tuple[np.ndarray, np.ndarray]:
    """Binary predictions (a vector of positive-class probabilities, or a column) and labels, flattened."""
    p, y = _host(preds, "preds", op), _host(labels, "labels", op)
    if p.ndim > 2 or (p.ndim == 2 and p.shape[1] != 1) or p.size != y.size:
        raise op_value_error(op, f"preds must be a vector or a column of probabilities with one label each, got "
                             f"preds of shape {list(p.shape)} and labels of shape {list(y.shape)}")
    return p.reshape(-1), y.reshape(-1)


class Precision(Metric):
    """Binary precision tp / (tp + fp); a prediction is positive when it rounds (half up) to 1.

    Args:
        name: the metric's name in logs (default 'precision').
        *args, **kwargs: accepted for Paddle compatibility; unused.

    Returns:
        The metric; `update(preds, labels)` and `accumulate()` for the precision.

    Examples:
        >>> import padax
        >>> m = padax.metric.Precision()
        >>> m.update(padax.to_tensor([0.9, 0.8, 0.3, 0.6]), padax.to_tensor([1, 0, 1, 1]))
        >>> m.accumulate()
        0.6667
    """

    def __init__(self, name: str = "precision", *args: Any, **kwargs: Any):
        self._name = name
        self.reset()

    def update(self, preds: Any, labels: Any) -> None:
        p, y = _binary_inputs("Precision.update", preds, labels)
        positive = np.floor(p + 0.5).astype(np.int32) == 1
        self.tp += int(np.sum(positive & (y == 1)))
        self.fp += int(np.sum(positive & (y != 1)))

    def reset(self) -> None:
        self.tp = self.fp = 0

    def accumulate(self) -> float:
        n = self.tp + self.fp
        return self.tp / n if n else 0.0

    def name(self) -> str:
        return self._name


class Recall(Metric):
    """Binary recall tp / (tp + fn); a prediction is positive when it rounds (half to even, as Paddle) to 1.

    Args:
        name: the metric's name in logs (default 'recall').
        *args, **kwargs: accepted for Paddle compatibility; unused.

    Returns:
        The metric; `update(preds, labels)` and `accumulate()` for the recall.

    Examples:
        >>> import padax
        >>> m = padax.metric.Recall()
        >>> m.update(padax.to_tensor([0.9, 0.8, 0.3, 0.6]), padax.to_tensor([1, 0, 1, 1]))
        >>> m.accumulate()
        0.6667
    """

    def __init__(self, name: str = "recall", *args: Any, **kwargs: Any):
        self._name = name
        self.reset()

    def update(self, preds: Any, labels: Any) -> None:
        p, y = _binary_inputs("Recall.update", preds, labels)
        hit = np.rint(p).astype(np.int32) == 1
        self.tp += int(np.sum((y == 1) & hit))
        self.fn += int(np.sum((y == 1) & ~hit))

    def reset(self) -> None:
        self.tp = self.fn = 0

    def accumulate(self) -> float:
        n = self.tp + self.fn
        return self.tp / n if n else 0.0

    def name(self) -> str:
        return self._name


class Auc(Metric):
    """Area under the ROC (or precision-recall) curve from `num_thresholds + 1` score buckets.

    `update(preds, labels)`: preds [batch, 2] class probabilities (column 1 is the positive class, as in
    Paddle) or a [batch] / [batch, 1] positive-class probability; labels 0/1. Scores bucket as
    int(score * num_thresholds). ROC is Paddle's trapezoidal area; 'PR' is the trapezoidal area under
    (recall, precision) from recall 0 at precision 1, the thresholds taken from high to low.

    Args:
        curve: 'ROC' or 'PR'.
        num_thresholds: number of score buckets minus one.
        name: the metric's name in logs (default 'auc').
        *args, **kwargs: accepted for Paddle compatibility; unused.

    Returns:
        The metric; `update(preds, labels)` and `accumulate()` for the area.

    Examples:
        >>> import padax
        >>> m = padax.metric.Auc()
        >>> preds = padax.to_tensor([[0.9, 0.1], [0.2, 0.8], [0.4, 0.6], [0.7, 0.3]])
        >>> m.update(preds, padax.to_tensor([[0], [1], [1], [0]]))
        >>> m.accumulate()
        1.0
    """

    def __init__(self, curve: str = "ROC", num_thresholds: int = 4095, name: str = "auc", *args: Any,
                 **kwargs: Any):
        if curve not in ("ROC", "PR"):
            raise ValueError(f"Auc: curve must be 'ROC' or 'PR', got {curve!r}")
        if isinstance(num_thresholds, bool) or not isinstance(num_thresholds, (int, np.integer)) or num_thresholds < 1:
            raise ValueError(f"Auc: num_thresholds must be a positive integer, got {num_thresholds!r}")
        self._curve, self._num_thresholds, self._name = curve, int(num_thresholds), name
        self.reset()

    def update(self, preds: Any, labels: Any) -> None:
        p, y = _host(preds, "preds", "Auc.update"), _host(labels, "labels", "Auc.update")
        if p.ndim == 2 and p.shape[1] == 2:
            p = p[:, 1]
        elif not (p.ndim == 1 or (p.ndim == 2 and p.shape[1] == 1)):
            raise op_value_error("Auc.update", f"preds must be [batch, 2] class probabilities or a [batch] "
                                 f"positive-class probability, got shape {list(p.shape)}")
        p, y = p.reshape(-1), y.reshape(-1)
        if p.size != y.size:
            raise op_value_error("Auc.update", f"{p.size} predictions but {y.size} labels")
        if p.size and (not np.all(np.isfinite(p)) or p.min() < 0 or p.max() > 1):
            raise op_value_error("Auc.update", "predicted probabilities must lie in [0, 1]")
        bins = (p.astype(np.float64) * self._num_thresholds).astype(np.int64)
        size = self._num_thresholds + 1
        self._stat_pos += np.bincount(bins[y != 0], minlength=size)
        self._stat_neg += np.bincount(bins[y == 0], minlength=size)

    def reset(self) -> None:
        self._stat_pos = np.zeros(self._num_thresholds + 1)
        self._stat_neg = np.zeros(self._num_thresholds + 1)

    def accumulate(self) -> float:
        pos = np.cumsum(self._stat_pos[::-1])  # true positives at thresholds from high to low
        neg = np.cumsum(self._stat_neg[::-1])  # false positives
        tot_pos, tot_neg = (pos[-1], neg[-1]) if pos.size else (0.0, 0.0)
        if self._curve == "ROC":
            if tot_pos <= 0 or tot_neg <= 0:
                return 0.0
            pos_prev = np.concatenate([[0.0], pos[:-1]])
            return float(np.sum(self._stat_neg[::-1] * (pos + pos_prev) / 2) / tot_pos / tot_neg)
        if tot_pos <= 0:
            return 0.0
        seen = (pos + neg) > 0
        recall = np.concatenate([[0.0], pos[seen] / tot_pos])
        precision = np.concatenate([[1.0], pos[seen] / (pos + neg)[seen]])
        return float(np.sum(np.diff(recall) * (precision[1:] + precision[:-1]) / 2))

    def name(self) -> str:
        return self._name


def accuracy(input: Any, label: Any, k: int = 1, correct: Any = None, total: Any = None,  # noqa: A002
             name: str | None = None) -> Any:
    """Fraction of rows whose label is among the top-k scores (a float32 scalar; jittable).

    input: [batch, num_classes] scores; label: [batch, 1] or [batch] class indices. `correct` and `total`
    (Paddle's output buffers) are not written: padax Tensors are immutable.

    Args:
        input: [batch, num_classes] scores.
        label: [batch, 1] or [batch] class indices.
        k: how many top scores count as a hit.
        correct, total: Paddle's output buffers; not written (padax Tensors are immutable).

    Returns:
        A float32 scalar Tensor, the fraction of hits.

    Examples:
        >>> import padax
        >>> pred = padax.to_tensor([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7]])
        >>> label = padax.to_tensor([[1], [1], [1]])
        >>> float(padax.metric.accuracy(pred, label))
        0.6667
        >>> float(padax.metric.accuracy(pred, label, k=2))
        1.0
    """
    input, label = padax.to_tensor(input), padax.to_tensor(label)  # noqa: A001
    if input.ndim != 2 or input.shape[-1] < k:
        raise op_value_error("accuracy", f"input must be [batch, num_classes] with num_classes >= k = {k}, got "
                             f"shape {list(input.shape)}")
    if label.ndim not in (1, 2) or (label.ndim == 2 and label.shape[1] != 1) or label.shape[0] != input.shape[0]:
        raise op_value_error("accuracy", f"label must be [batch, 1] or [batch] class indices for input of shape "
                             f"{list(input.shape)}, got shape {list(label.shape)}")
    _, idx = padax.topk(input, k)
    hit = padax.any(idx == label.reshape([-1, 1]).astype(idx.dtype), axis=-1)
    return padax.mean(hit.astype("float32"))
