"""one_hot and the losses, with Paddle's signatures."""
from __future__ import annotations

from typing import Any

from padax.core import dtypes
from padax.functional import math as M
from padax.functional import reduction as R
from padax.functional._arrays import asarray, canonicalize_axis
from padax.functional.manipulation import squeeze, unsqueeze
from padax.nn.functional._util import float_input
from padax.nn.functional.activation import log_softmax

# ---- one_hot and losses ---------------------------------------------------------------------

def _class_mask(label: Any, num_classes: int, axis: int) -> Any:
    """Boolean one-hot of integer `label`, the class axis inserted at `axis` of the result."""
    from padax import lax
    label = asarray(label)
    shape = list(label.aval.shape)
    shape.insert(axis, num_classes)
    classes = lax.broadcasted_iota(label.aval.dtype, tuple(shape), axis)
    return M.equal(classes, unsqueeze(label, axis))


def one_hot(x: Any, num_classes: int, name: str | None = None) -> Any:
    """float32 one-hot encoding of integer labels, the class axis last."""
    x = asarray(x)
    if not dtypes.is_integer(x.aval.dtype):
        raise TypeError(f"one_hot: labels must be integers, got {x.aval.str_short()}")
    return M.cast(_class_mask(x, int(num_classes), x.aval.ndim), dtypes.float32)


def _reduce_loss(op: str, loss: Any, reduction: str) -> Any:
    if reduction == "none":
        return loss
    if reduction == "sum":
        return R.sum(loss)
    if reduction == "mean":
        return R.mean(loss)
    raise ValueError(f"{op}: reduction must be 'none', 'mean' or 'sum', got {reduction!r}")


def _check_reduction(op: str, reduction: str) -> None:
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{op}: reduction must be 'none', 'mean' or 'sum', got {reduction!r}")


def _weighted_mean(loss: Any, w: Any) -> Any:
    total = R.sum(w)
    return M.divide(R.sum(loss), M.where(M.equal(total, 0), M.add(total, 1), total))


def cross_entropy(input: Any, label: Any, weight: Any = None, ignore_index: int = -100,
                  reduction: str = "mean", soft_label: bool = False, axis: int = -1,
                  use_softmax: bool = True, label_smoothing: float = 0.0, name: str | None = None) -> Any:
    """Softmax cross entropy of logits `input` against integer class labels (shape [N] or [N, 1]
    style: the class axis dropped or of size 1) or, with `soft_label`, class probabilities."""
    _check_reduction("cross_entropy", reduction)
    x, dt = float_input(input)
    nd = x.aval.ndim
    a = canonicalize_axis("cross_entropy", axis, nd)
    c = x.aval.shape[a]
    logp = log_softmax(x, axis=a) if use_softmax else M.log(x)
    label = asarray(label)
    keep_axis = True
    if not soft_label and label_smoothing > 0 and label.aval.ndim == nd and label.aval.shape[a] == c != 1:
        soft_label = True  # as Paddle: with smoothing, a one-hot (float) label is a distribution
    if not soft_label:
        if dtypes.is_floating(label.aval.dtype):
            label = M.cast(label, dtypes.int64)  # as Paddle: float class indices are read as integers
        if not dtypes.is_integer(label.aval.dtype):
            raise TypeError(f"cross_entropy: hard labels must be integers, got {label.aval.str_short()}; "
                            "pass soft_label=True for probabilities")
        if label.aval.ndim == nd:
            if label.aval.shape[a] != 1:
                raise ValueError(f"cross_entropy: label of shape {list(label.aval.shape)} must have size 1 on "
                                 f"the class axis {a} of input {list(x.aval.shape)}")
            label = squeeze(label, a)
        elif label.aval.ndim == nd - 1:
            keep_axis = False
        else:
            raise ValueError(f"cross_entropy: label of shape {list(label.aval.shape)} does not match input "
                             f"of shape {list(x.aval.shape)}")
        expect = x.aval.shape[:a] + x.aval.shape[a + 1:]
        if label.aval.shape != expect:
            raise ValueError(f"cross_entropy: label of shape {list(label.aval.shape)} does not match input of "
                             f"shape {list(x.aval.shape)} (expected {list(expect)} without the class axis)")
        valid = M.not_equal(label, ignore_index)
        safe = M.where(valid, label, 0)
        onehot = M.cast(_class_mask(safe, c, a), logp.dtype)
        if label_smoothing > 0:
            onehot = M.add(M.multiply(onehot, 1.0 - label_smoothing), label_smoothing / c)
        loss = M.neg(R.sum(M.multiply(onehot, logp), axis=a))
        w = M.cast(valid, logp.dtype)
        if weight is not None:
            wb = _along(asarray(weight), a, nd)
            w = M.multiply(w, R.sum(M.multiply(M.cast(_class_mask(safe, c, a), logp.dtype), wb), axis=a))
        loss = M.multiply(loss, w)
        if reduction == "mean":
            out = _weighted_mean(loss, w)
        elif reduction == "sum":
            out = R.sum(loss)
        else:
            out = unsqueeze(loss, a) if keep_axis else loss
        return M.cast(out, dt)
    # soft labels: probabilities over the class axis
    label = M.cast(label, logp.dtype)
    if label_smoothing > 0:
        label = M.add(M.multiply(label, 1.0 - label_smoothing), label_smoothing / c)
    loss = M.neg(R.sum(M.multiply(label, logp), axis=a, keepdim=True))
    if weight is not None:
        w = R.sum(M.multiply(label, _along(asarray(weight), a, nd)), axis=a, keepdim=True)
        loss = M.multiply(loss, w)
        if reduction == "mean":
            return M.cast(_weighted_mean(loss, w), dt)
    return M.cast(_reduce_loss("cross_entropy", loss, reduction), dt)


def _along(w: Any, axis: int, nd: int) -> Any:
    """A per-class 1-D weight shaped to broadcast along `axis` of an `nd`-D array."""
    from padax.functional.manipulation import reshape
    shape = [1] * nd
    shape[axis] = w.aval.shape[0]
    return reshape(w, shape)


def nll_loss(input: Any, label: Any, weight: Any = None, ignore_index: int = -100, reduction: str = "mean",
             name: str | None = None) -> Any:
    """Negative log-likelihood of log-probabilities `input` [N, C, ...] at integer labels [N, ...]."""
    _check_reduction("nll_loss", reduction)
    x = asarray(input)
    label = asarray(label)
    if x.aval.ndim < 1:
        raise ValueError(f"nll_loss: input must have a class axis, got {x.aval.str_short()}")
    a = 1 if x.aval.ndim > 1 else 0
    c = x.aval.shape[a]
    expect = x.aval.shape[:a] + x.aval.shape[a + 1:]
    if label.aval.shape != expect:
        raise ValueError(f"nll_loss: label of shape {list(label.aval.shape)} does not match input of shape "
                         f"{list(x.aval.shape)} (expected {list(expect)})")
    valid = M.not_equal(label, ignore_index)
    safe = M.where(valid, label, 0)
    onehot = M.cast(_class_mask(safe, c, a), x.dtype)
    w = M.cast(valid, x.dtype)
    if weight is not None:
        w = M.multiply(w, R.sum(M.multiply(onehot, _along(asarray(weight), a, x.aval.ndim)), axis=a))
    loss = M.multiply(M.neg(R.sum(M.multiply(onehot, x), axis=a)), w)
    if reduction == "mean":
        return _weighted_mean(loss, w)
    return _reduce_loss("nll_loss", loss, reduction)


def mse_loss(input: Any, label: Any, reduction: str = "mean", name: str | None = None) -> Any:
    """Mean squared error (reduction 'mean', 'sum' or 'none')."""
    _check_reduction("mse_loss", reduction)
    return _reduce_loss("mse_loss", M.square(M.subtract(input, label)), reduction)


def l1_loss(input: Any, label: Any, reduction: str = "mean", name: str | None = None) -> Any:
    """Mean absolute error (reduction 'mean', 'sum' or 'none')."""
    _check_reduction("l1_loss", reduction)
    return _reduce_loss("l1_loss", M.abs(M.subtract(input, label)), reduction)
