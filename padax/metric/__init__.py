"""`padax.metric`: Paddle's evaluation metrics (Accuracy, Precision, Recall, Auc) and `accuracy`.

A metric follows Paddle's protocol: `compute(pred, label)` is the device-side part (padax ops,
jittable: run it inside the eval step), `update(...)` folds one batch's result into host-side
totals, `accumulate()` gives the metric so far, `reset()` clears it, `name()` names it.
"""
from padax.metric.metrics import Accuracy, Auc, Metric, Precision, Recall, accuracy

__all__ = ["Accuracy", "Auc", "Metric", "Precision", "Recall", "accuracy"]
