"""one_hot and the classification / regression losses, with Paddle's signatures and reductions.

Paddle's conventions are kept where they are observable: cross_entropy's 'mean' with a negative
ignore_index divides by every label (ignored ones included) while a non-negative ignore_index
divides by the kept ones; label smoothing turns hard labels into soft ones (class weights then
act through the smoothed distribution); losses on logits are computed stably.
"""
from __future__ import annotations

import math as _pymath
from typing import Any

import numpy as np

from padax import dtypes, lax, stop_gradient as _stop_gradient
from padax.amp.policy import float32_inputs as _float32_inputs
from padax.core.errors import op_type_error, op_value_error
from padax.core.trace import EvalTrace as _EvalTrace, trace_state as _trace_state
from padax.functional import math as M, reduction as R
from padax.functional._arrays import Tensor, asarray, canonicalize_axis, is_array, result_dtype, static_int
from padax.functional._checks import arg
from padax.functional.lax.checks import value_check
from padax.functional.manipulation import reshape, squeeze, unsqueeze
from padax.nn.functional._util import float_array, float_input, reduction_of
from padax.nn.functional.activation import log_sigmoid, log_softmax, softmax

# ---- helpers ------------------------------------------------------------------------------------

def _class_mask(label: Any, num_classes: int, axis: int) -> Any:
    """Boolean one-hot of integer `label`, the class axis inserted at `axis` of the result."""
    label = asarray(label)
    shape = list(label.aval.shape)
    shape.insert(axis, num_classes)
    classes = lax.broadcasted_iota(label.aval.dtype, tuple(shape), axis)
    return M.equal(classes, unsqueeze(label, axis))


def check_class_indices(op: str, label: Any, num_classes: int, ignore_index: int | None = None) -> None:
    """The rule for class indices outside [0, num_classes) (other than ignore_index), and for float
    labels that are not whole numbers: eagerly a ValueError, as Paddle. Under jit the values are
    unknown while tracing and a compiled program cannot raise: such a label matches no class (its
    one-hot row is zero) and `padax.checkify.checkify(f, errors=checkify.index_checks)` reports it."""
    label = asarray(label)
    if not label.aval.size:
        return
    floating = dtypes.is_floating(label.aval.dtype)
    kept = f" (or ignore_index={ignore_index})" if ignore_index is not None else ""
    if not isinstance(label, Tensor):
        bad = M.logical_or(M.less(label, 0), M.greater_equal(label, num_classes))
        if floating:
            bad = M.logical_or(bad, M.not_equal(label, M.floor(label)))
        if ignore_index is not None:
            bad = M.logical_and(bad, M.not_equal(label, ignore_index))
        flat = reshape(bad, [-1])
        first = R.argmax(M.cast(flat, dtypes.int32))
        what = "is out of range or not a whole number" if floating else "is out of range"
        value_check(M.logical_not(R.any(flat)), f"{op}: label {{}} at flat index {{}} {what}: class indices must be "
                                                f"in [0, {num_classes}){kept}", reshape(label, [-1])[first], first)
        return
    vals = np.asarray(label)
    if floating:
        frac = vals != np.floor(vals)
        if frac.any():
            where = tuple(int(i) for i in np.argwhere(frac)[0])
            raise op_value_error(op, f"float label {str(vals[where])} at index {list(where)} is not a whole number: hard "
                                     "labels are class indices (Paddle would truncate it); cast them to int64, or "
                                     "pass soft_label=True for class probabilities")
    bad = (vals < 0) | (vals >= num_classes)
    if ignore_index is not None:
        bad &= vals != ignore_index
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        shown = int(vals[where]) if not floating else vals[where]
        raise op_value_error(op, f"label {shown} at index {list(where)} is out of range: class indices "
                                 f"must be in [0, {num_classes}){kept}; {int(bad.sum())} of {vals.size} labels "
                                 "are out of range")


def _weighted_logp(p: Any, logp: Any) -> Any:
    """p * logp with 0 * -inf read as 0, as Paddle: a masked class (logit -inf) that the label gives no
    weight contributes nothing, where the product would be NaN (the gradient with respect to p is logp)."""
    masked = M.logical_and(M.equal(p, 0), M.equal(logp, -np.inf))
    return M.multiply(p, M.where(masked, 0.0, logp))


def reduce_loss(op: str, loss: Any, reduction: str) -> Any:
    """'none' keeps the elementwise loss; 'sum' and 'mean' reduce over every element."""
    reduction_of(op, reduction)
    if reduction == "sum":
        return R.sum(loss)
    if reduction == "mean":
        return R.mean(loss)
    return loss


def _safe_ratio(total: Any, count: Any) -> Any:
    """total / count, with count 0 read as 1 (Paddle's guard for all-ignored batches)."""
    return M.divide(total, M.add(count, M.cast(M.equal(count, 0), count.aval.dtype)))


def _along(op: str, w: Any, axis: int, nd: int) -> Any:
    """A per-class 1-D weight shaped to broadcast along `axis` of an `nd`-D array."""
    if w.aval.ndim != 1:
        raise op_value_error(op, f"weight must be a 1-D Tensor of per-class weights, got shape {list(w.aval.shape)}")
    shape = [1] * nd
    shape[axis] = w.aval.shape[0]
    return reshape(w, shape)


def _same_shape(op: str, **arrays: Any) -> None:
    shapes = {k: v.aval.shape for k, v in arrays.items()}
    if len(set(shapes.values())) > 1:
        raise op_value_error(op, "shapes must match, got " + ", ".join(f"{k} {list(s)}" for k, s in shapes.items()))


def _floats(op: str, *pairs: tuple[str, Any]) -> list[Any]:
    """The arrays as floats of one promoted dtype (Paddle's losses take float32/float64 inputs)."""
    xs = [float_array(op, v, name) for name, v in pairs]
    dt, _ = result_dtype(*xs)
    return [M.cast(x, dt) for x in xs]


# ---- one_hot, label_smooth ------------------------------------------------------------------------

def one_hot(x: Any, num_classes: int = -1, name: str | None = None) -> Any:
    """float32 one-hot encoding of integer labels, the class axis last; num_classes=-1 takes
    max(x) + 1 (eager only: the output shape depends on the values). A label outside
    [0, num_classes) raises eagerly; under jit its row is all zeros (checkify's index_checks
    report it).

    Args:
        x: an integer Tensor of class indices.
        num_classes: the length of the class axis; -1 takes max(x) + 1 (eager only).

    Returns:
        A float32 Tensor of shape x.shape + [num_classes].

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> y = F.one_hot(padax.to_tensor([0, 2]), num_classes=3)
        >>> y.tolist(), y.dtype
        ([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]], dtype('float32'))
    """
    x = asarray(x)
    if not dtypes.is_integer(x.aval.dtype):
        raise op_type_error("one_hot", f"labels must be integers, got {x.aval.str_short()}")
    if is_array(num_classes):
        num_classes = static_int("one_hot", num_classes, "num_classes")
    if isinstance(num_classes, int) and num_classes == -1:
        if type(_trace_state.trace) is not _EvalTrace:
            raise op_value_error("one_hot", "num_classes=-1 reads max(x) + 1 from the values, which is unknown while "
                                            "tracing; pass num_classes")
        num_classes = int(R.max(x)) + 1 if x.aval.size else 0
    num_classes = static_int("one_hot", num_classes, "num_classes")
    if num_classes < 0:
        raise op_value_error("one_hot", f"num_classes must be a non-negative int (or -1 for max(x) + 1), "
                                        f"got {num_classes}")
    check_class_indices("one_hot", x, num_classes)
    return M.cast(_class_mask(x, num_classes, x.aval.ndim), dtypes.float32)


def label_smooth(label: Any, prior_dist: Any = None, epsilon: float = 0.1, name: str | None = None) -> Any:
    """(1 - epsilon) * label + epsilon * prior_dist (uniform 1 / num_classes when None), the classes
    along the last axis.

    Args:
        label: one-hot (or soft) labels, the classes along the last axis.
        prior_dist: the distribution mixed in, of shape [1, num_classes]; None is uniform.

    Returns:
        A float Tensor of label's shape.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.label_smooth(padax.to_tensor([[0.0, 1.0]]), epsilon=0.2).tolist()
        [[0.1, 0.9]]
    """
    if not 0.0 <= epsilon <= 1.0:
        raise op_value_error("label_smooth", f"epsilon must be in [0, 1], got {epsilon}")
    label = float_array("label_smooth", label, "label")
    if label.aval.ndim == 0:
        raise op_value_error("label_smooth", f"label must have a class axis (at least 1-D), got {label.aval.str_short()}")
    if prior_dist is None:
        return M.add(M.multiply(label, 1.0 - epsilon), epsilon / label.aval.shape[-1])
    prior = M.cast(arg("label_smooth", prior_dist, "prior_dist"), label.aval.dtype)
    return M.add(M.multiply(label, 1.0 - epsilon), M.multiply(prior, epsilon))


# ---- cross entropy family ---------------------------------------------------------------------

def _hard_label(op: str, label: Any, x_shape: tuple[int, ...], a: int, ignore_index: int) -> tuple[Any, bool]:
    """Integer labels without the class axis, and whether the caller gave that axis (size 1);
    in eager mode each must be a class index or ignore_index."""
    nd = len(x_shape)
    if not (dtypes.is_integer(label.aval.dtype) or dtypes.is_floating(label.aval.dtype)):
        raise op_type_error(op, f"hard labels must be integers, got {label.aval.str_short()}; pass "
                                "soft_label=True for probabilities")
    kept = label.aval.ndim == nd
    if kept:
        if label.aval.shape[a] != 1:
            raise op_value_error(op, f"label of shape {list(label.aval.shape)} must have size 1 on the class "
                                     f"axis {a} of input {list(x_shape)}")
        label = squeeze(label, a)
    elif label.aval.ndim != nd - 1:
        raise op_value_error(op, f"label of shape {list(label.aval.shape)} does not match input of shape "
                                 f"{list(x_shape)}")
    expect = x_shape[:a] + x_shape[a + 1:]
    if label.aval.shape != expect:
        raise op_value_error(op, f"label of shape {list(label.aval.shape)} does not match input of shape "
                                 f"{list(x_shape)} (expected {list(expect)} without the class axis)")
    # as Paddle, float labels holding whole numbers are class indices; others are refused (eagerly)
    check_class_indices(op, label, x_shape[a], ignore_index)
    if dtypes.is_floating(label.aval.dtype):
        label = M.cast(label, dtypes.int64)
    return label, kept


def cross_entropy(input: Any, label: Any, weight: Any = None, ignore_index: int = -100,
                  reduction: str = "mean", soft_label: bool = False, axis: int = -1,
                  use_softmax: bool = True, label_smoothing: float = 0.0, name: str | None = None) -> Any:
    """Softmax cross entropy of logits `input` (probabilities when use_softmax=False) against
    integer class labels (the class axis dropped or of size 1) or, with `soft_label`, class
    probabilities; `weight` weighs classes, `label_smoothing` mixes in the uniform distribution.
    A hard label outside [0, C) (other than ignore_index), or a float label that is not a whole
    number, raises in eager mode; under jit it matches no class and adds 0 to the loss (the
    values are unknown while tracing): run `padax.checkify.checkify(f, errors=index_checks)` to
    have it reported. Float labels holding whole numbers are class indices, as in Paddle.

    Args:
        input: logits (or probabilities) with the classes on `axis`.
        label: int class indices of input's shape without the class axis (or with it of size 1); float
            class probabilities of input's shape with soft_label=True.
        weight: a [C] Tensor of class weights ('mean' then divides by the summed weights of the labels).
        ignore_index: a hard label whose positions add nothing to the loss (nor to the mean's count).
        reduction: 'mean', 'sum' or 'none' (the per-sample losses, shaped like a hard label; soft labels
            keep the class axis with size 1).

    Returns:
        A scalar, or the unreduced losses for reduction='none'.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> logits = padax.to_tensor([[2.0, 0.0, 0.0], [0.0, 0.0, 0.0]])
        >>> F.cross_entropy(logits, padax.to_tensor([0, 1])).item()
        0.6691
        >>> F.cross_entropy(logits, padax.to_tensor([[0], [1]]), reduction="none").tolist()
        [[0.2395], [1.0986]]
        >>> F.cross_entropy(logits, padax.to_tensor([[1.0, 0.0, 0.0], [0.0, 0.5, 0.5]]), soft_label=True).item()
        0.6691
    """
    input, = _float32_inputs("cross_entropy", input)  # Paddle's AMP black list: float32
    op = "cross_entropy"
    reduction_of(op, reduction)
    x, dt = float_input(input)
    nd = x.aval.ndim
    if nd == 0:
        raise op_value_error(op, f"input must have a class axis, got a 0-d {x.aval.str_short()}")
    a = canonicalize_axis(op, axis, nd)
    c = x.aval.shape[a]
    logp = log_softmax(x, axis=a) if use_softmax else M.log(x)
    label = asarray(label)
    w_cls = None if weight is None else _along(op, M.cast(arg(op, weight, "weight"), logp.aval.dtype), a, nd)
    if weight is not None and w_cls.aval.shape[a] != c:
        raise op_value_error(op, f"weight of {w_cls.aval.shape[a]} classes does not match the {c} classes of input "
                                 f"{list(x.aval.shape)}")
    if not soft_label and label_smoothing > 0 and label.aval.ndim == nd and label.aval.shape[a] == c != 1:
        soft_label = True  # as Paddle: with smoothing, a one-hot (float) label is a distribution
    if not soft_label and label_smoothing == 0:
        label, kept = _hard_label(op, label, x.aval.shape, a, ignore_index)
        valid = M.not_equal(label, ignore_index)
        onehot = M.cast(_class_mask(M.where(valid, label, 0), c, a), logp.aval.dtype)
        loss = M.neg(R.sum(_weighted_logp(onehot, logp), axis=a))
        w = M.cast(valid, logp.aval.dtype)
        if w_cls is not None:
            w = M.multiply(w, R.sum(M.multiply(onehot, w_cls), axis=a))
        loss = M.multiply(loss, w)
        if reduction == "mean":
            out = R.mean(loss) if weight is None and ignore_index < 0 else _safe_ratio(R.sum(loss), R.sum(w))
        elif reduction == "sum":
            out = R.sum(loss)
        else:
            out = unsqueeze(loss, a) if kept else loss
        return M.cast(out, dt)
    if not soft_label:  # label smoothing: hard labels become smoothed one-hot distributions
        label, _ = _hard_label(op, label, x.aval.shape, a, ignore_index)
        label = M.cast(_class_mask(label, c, a), logp.aval.dtype)
    label = M.cast(label, logp.aval.dtype)
    if label.aval.shape != x.aval.shape:
        raise op_value_error(op, f"soft label of shape {list(label.aval.shape)} must match input {list(x.aval.shape)}")
    if label_smoothing > 0:
        label = M.add(M.multiply(label, 1.0 - label_smoothing), label_smoothing / c)
    loss = M.neg(R.sum(_weighted_logp(label, logp), axis=a, keepdim=True))
    if w_cls is not None:
        w = R.sum(M.multiply(label, w_cls), axis=a, keepdim=True)
        loss = M.multiply(loss, w)
        if reduction == "mean":
            return M.cast(_safe_ratio(R.sum(loss), R.sum(w)), dt)
    return M.cast(reduce_loss(op, loss, reduction), dt)


def softmax_with_cross_entropy(logits: Any, label: Any, soft_label: bool = False, ignore_index: int = -100,
                               numeric_stable_mode: bool = True, return_softmax: bool = False,
                               axis: int = -1) -> Any:
    """Unreduced softmax cross entropy, the class axis kept with size 1 (and the softmax when asked).

    Args:
        logits: unnormalised scores with the classes on `axis`.
        label: int class indices with `axis` of size 1, or class probabilities of logits' shape (soft_label).
        soft_label: whether label holds probabilities.
        ignore_index: a hard label whose positions give loss 0.
        numeric_stable_mode: accepted for Paddle compatibility (the computation is always stabilised).
        return_softmax: also return softmax(logits).
        axis: the class axis.

    Returns:
        The losses, logits' shape with `axis` of size 1; with return_softmax, (losses, softmax).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> logits = padax.to_tensor([[2.0, 0.0, 0.0], [0.0, 0.0, 0.0]])
        >>> loss, prob = F.softmax_with_cross_entropy(logits, padax.to_tensor([[0], [1]]), return_softmax=True)
        >>> loss.tolist(), prob.shape
        ([[0.2395], [1.0986]], (2, 3))
    """
    logits, = _float32_inputs("softmax_with_cross_entropy", logits)  # Paddle's AMP black list: float32
    loss = cross_entropy(logits, label, ignore_index=ignore_index, reduction="none", soft_label=soft_label,
                         axis=axis)
    a = canonicalize_axis("softmax_with_cross_entropy", axis, asarray(logits).aval.ndim)
    if loss.aval.ndim < asarray(logits).aval.ndim:
        loss = unsqueeze(loss, a)
    return (loss, softmax(logits, axis=a)) if return_softmax else loss


def nll_loss(input: Any, label: Any, weight: Any = None, ignore_index: int = -100, reduction: str = "mean",
             name: str | None = None) -> Any:
    """Negative log-likelihood of log-probabilities `input` [N, C, ...] at integer labels [N, ...];
    'mean' divides by the summed weights of the kept labels. A label outside [0, C) (other than
    ignore_index) raises eagerly; under jit it adds 0 (checkify's index_checks report it).

    Args:
        input: log-probabilities [N, C] or [N, C, d1, ...].
        label: int class indices [N] or [N, d1, ...].
        weight: a [C] Tensor of class weights.
        ignore_index: a label whose positions add nothing (nor to the mean's weight).
        reduction: 'mean', 'sum' or 'none' (the elementwise losses).

    Returns:
        A scalar Tensor, or the losses of label's shape for reduction='none'.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> logp = padax.log(padax.to_tensor([[0.5, 0.25, 0.25], [0.1, 0.8, 0.1]]))
        >>> F.nll_loss(logp, padax.to_tensor([0, 1]), reduction="none").tolist()
        [0.6931, 0.2231]
        >>> F.nll_loss(logp, padax.to_tensor([0, 1]), weight=padax.to_tensor([1.0, 3.0, 1.0])).item()
        0.3406
    """
    input, = _float32_inputs("nll_loss", input)  # Paddle's AMP black list: float32
    op = "nll_loss"
    reduction_of(op, reduction)
    x = float_array(op, input, "input")
    label = asarray(label)
    if not dtypes.is_integer(label.aval.dtype):
        raise op_type_error(op, f"label must hold integer class indices, got {label.aval.str_short()}")
    if x.aval.ndim < 1:
        raise op_value_error(op, f"input must have a class axis, got {x.aval.str_short()}")
    a = 1 if x.aval.ndim > 1 else 0
    c = x.aval.shape[a]
    expect = x.aval.shape[:a] + x.aval.shape[a + 1:]
    if label.aval.shape != expect:
        raise op_value_error(op, f"label of shape {list(label.aval.shape)} does not match input of shape "
                                 f"{list(x.aval.shape)} (expected {list(expect)})")
    check_class_indices(op, label, c, ignore_index)
    valid = M.not_equal(label, ignore_index)
    onehot = M.cast(_class_mask(M.where(valid, label, 0), c, a), x.aval.dtype)
    w = M.cast(valid, x.aval.dtype)
    if weight is not None:
        w = M.multiply(w, R.sum(M.multiply(onehot, _along(op, M.cast(asarray(weight), x.aval.dtype), a, x.aval.ndim)),
                                axis=a))
    loss = M.multiply(M.neg(R.sum(_weighted_logp(onehot, x), axis=a)), w)
    if reduction == "mean":
        return _safe_ratio(R.sum(loss), R.sum(w))
    return reduce_loss(op, loss, reduction)


# ---- regression -----------------------------------------------------------------------------------

def mse_loss(input: Any, label: Any, reduction: str = "mean", name: str | None = None) -> Any:
    """Mean squared error (reduction 'mean', 'sum' or 'none').

    Args:
        input, label: Tensors of the same shape.
        reduction: 'mean', 'sum' or 'none' (the elementwise losses).

    Returns:
        A scalar Tensor, or the losses of input's shape for reduction='none'.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x, y = padax.to_tensor([1.0, 2.0, 3.0]), padax.to_tensor([1.0, 0.0, 0.0])
        >>> F.mse_loss(x, y).item(), F.mse_loss(x, y, reduction="sum").item()
        (4.3333, 13.0)
    """
    reduction_of("mse_loss", reduction)
    return reduce_loss("mse_loss", M.square(M.subtract(input, label)), reduction)


def l1_loss(input: Any, label: Any, reduction: str = "mean", name: str | None = None) -> Any:
    """Mean absolute error (reduction 'mean', 'sum' or 'none').

    Args:
        input, label: Tensors of the same shape.
        reduction: 'mean', 'sum' or 'none' (the elementwise losses).

    Returns:
        A scalar Tensor, or the losses of input's shape for reduction='none'.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x, y = padax.to_tensor([1.0, 2.0, 3.0]), padax.to_tensor([1.0, 0.0, 0.0])
        >>> F.l1_loss(x, y).item(), F.l1_loss(x, y, reduction="none").tolist()
        (1.6667, [0.0, 2.0, 3.0])
    """
    reduction_of("l1_loss", reduction)
    return reduce_loss("l1_loss", M.abs(M.subtract(input, label)), reduction)


def square_error_cost(input: Any, label: Any) -> Any:
    """(input - label) ** 2, elementwise.

    Args:
        input, label: Tensors of the same shape.

    Returns:
        A Tensor of input's shape.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.square_error_cost(padax.to_tensor([1.0, 3.0]), padax.to_tensor([2.0, 0.0])).tolist()
        [1.0, 9.0]
    """
    return M.square(M.subtract(input, label))


def smooth_l1_loss(input: Any, label: Any, reduction: str = "mean", delta: float = 1.0, is_huber: bool = True,
                   name: str | None = None) -> Any:
    """Huber loss: 0.5 r**2 where |r| <= delta, else delta * (|r| - delta / 2); divided by delta
    when is_huber is False (the smooth L1 loss).

    Args:
        input, label: Tensors of the same shape.
        reduction: 'mean', 'sum' or 'none' (the elementwise losses).
        delta: the threshold on |input - label| between the quadratic and linear parts.
        is_huber: True for the Huber loss; False divides it by delta (smooth L1).

    Returns:
        A scalar Tensor, or the losses of input's shape for reduction='none'.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x, y = padax.to_tensor([0.5, 3.0]), padax.to_tensor([0.0, 0.0])
        >>> F.smooth_l1_loss(x, y, reduction="none").tolist()
        [0.125, 2.5]
        >>> F.smooth_l1_loss(x, y, reduction="none", delta=2.0, is_huber=False).tolist()
        [0.0625, 2.0]
    """
    op = "smooth_l1_loss"
    reduction_of(op, reduction)
    x, y = _floats(op, ("input", input), ("label", label))
    if x.aval.ndim != y.aval.ndim:  # as Paddle (a [N, 1] input against a [N] label would broadcast to [N, N])
        raise op_value_error(op, f"input {x.aval.str_short()} and label {y.aval.str_short()} must have the same rank")
    r = M.abs(M.subtract(y, x))
    out = M.where(M.less_equal(r, delta), M.multiply(M.square(r), 0.5), M.multiply(M.subtract(r, 0.5 * delta), delta))
    if not is_huber:
        out = M.divide(out, delta)
    return reduce_loss(op, out, reduction)


def poisson_nll_loss(input: Any, label: Any, log_input: bool = True, full: bool = False, epsilon: float = 1e-08,
                     reduction: str = "mean", name: str | None = None) -> Any:
    """exp(input) - label * input (log_input), else input - label * log(input + epsilon); `full` adds
    Stirling's term for labels > 1.

    Args:
        input: the predicted rates (log-rates when log_input).
        label: the observed counts, input's shape.
        log_input: whether input holds log-rates.
        full: add Stirling's approximation of log(label!).
        epsilon: added inside the log when log_input is False.
        reduction: 'mean', 'sum' or 'none' (the elementwise losses).

    Returns:
        A scalar Tensor, or the losses of input's shape for reduction='none'.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.poisson_nll_loss(padax.to_tensor([0.0, 1.0]), padax.to_tensor([1.0, 2.0]), reduction="none").tolist()
        [1.0, 0.7183]
        >>> F.poisson_nll_loss(padax.to_tensor([1.0, 2.0]), padax.to_tensor([1.0, 2.0]), log_input=False).item()
        0.8069
    """
    op = "poisson_nll_loss"
    reduction_of(op, reduction)
    if epsilon <= 0:
        raise op_value_error(op, f"epsilon must be positive, got {epsilon}")
    x, y = _floats(op, ("input", input), ("label", label))
    _same_shape(op, input=x, label=y)
    if log_input:
        loss = M.subtract(M.exp(x), M.multiply(y, x))
    else:
        loss = M.subtract(x, M.multiply(y, M.log(M.add(x, epsilon))))
    if full:
        big = M.greater_than(y, 1)
        ys = M.where(big, y, 1.0)
        stirling = M.add(M.subtract(M.multiply(ys, M.log(ys)), ys), M.multiply(M.log(M.multiply(ys, 2 * _pymath.pi)), 0.5))
        loss = M.add(loss, M.where(big, stirling, 0.0))
    return reduce_loss(op, loss, reduction)


def gaussian_nll_loss(input: Any, label: Any, variance: Any, full: bool = False, epsilon: float = 1e-06,
                      reduction: str = "mean", name: str | None = None) -> Any:
    """0.5 * (log(var) + (input - label)**2 / var) [+ 0.5 log(2 pi) when full], var clamped below at
    epsilon; variance may lack the last axis or have size 1 there (one variance per row).

    Args:
        input: the predicted means.
        label: the targets, input's shape.
        variance: positive variances: input's shape, or without / with size 1 on the last axis.
        full: add the constant 0.5 * log(2 * pi).
        epsilon: the lower clamp on the variance.
        reduction: 'mean', 'sum' or 'none' (the elementwise losses).

    Returns:
        A scalar Tensor, or the losses of input's shape for reduction='none'.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> mu, y = padax.to_tensor([[0.0, 1.0]]), padax.to_tensor([[1.0, 1.0]])
        >>> F.gaussian_nll_loss(mu, y, padax.to_tensor([[1.0, 4.0]]), reduction="none").tolist()
        [[0.5, 0.6931]]
        >>> F.gaussian_nll_loss(mu, y, padax.to_tensor([[1.0, 1.0]]), full=True).item()
        1.1689
    """
    op = "gaussian_nll_loss"
    reduction_of(op, reduction)
    x, y, var = _floats(op, ("input", input), ("label", label), ("variance", variance))
    if var.aval.shape != x.aval.shape:
        if var.aval.shape == x.aval.shape[:-1]:
            var = unsqueeze(var, -1)
        elif not (var.aval.shape[:-1] == x.aval.shape[:-1] and var.aval.ndim and var.aval.shape[-1] == 1):
            raise op_value_error(op, f"variance {var.aval.str_short()} does not fit input {x.aval.str_short()}")
    # the clamp passes gradients straight through, as a clamp done in place under no_grad does
    var = M.add(var, _stop_gradient(M.subtract(M.maximum(var, epsilon), var)))
    loss = M.multiply(M.add(M.log(var), M.divide(M.square(M.subtract(x, y)), var)), 0.5)
    if full:
        loss = M.add(loss, 0.5 * _pymath.log(2 * _pymath.pi))
    return reduce_loss(op, loss, reduction)


def kl_div(input: Any, label: Any, reduction: str = "mean", log_target: bool = False,
           name: str | None = None) -> Any:
    """label * (log(label) - input) (0 where label <= 0), or exp(label) * (label - input) with
    log_target; reduction 'mean', 'sum', 'batchmean' (sum / batch size) or 'none'.

    Args:
        input: log-probabilities.
        label: probabilities (log-probabilities with log_target), input's shape.
        reduction: 'mean', 'sum', 'batchmean' (sum / batch size) or 'none'.
        log_target: whether label holds log-probabilities.

    Returns:
        A scalar Tensor, or the losses of input's shape for reduction='none'.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> logq = padax.log(padax.to_tensor([[0.5, 0.5]]))
        >>> p = padax.to_tensor([[0.25, 0.75]])
        >>> F.kl_div(logq, p, reduction="none").tolist()
        [[-0.1733, 0.3041]]
        >>> F.kl_div(logq, p, reduction="batchmean").item()
        0.1308
    """
    op = "kl_div"
    if reduction not in ("none", "mean", "sum", "batchmean"):
        raise op_value_error(op, f"reduction must be 'none', 'mean', 'sum' or 'batchmean', got {reduction!r}")
    x, y = _floats(op, ("input", input), ("label", label))
    if log_target:
        loss = M.multiply(M.exp(y), M.subtract(y, x))
    else:
        pos = M.greater_than(y, 0)
        ys = M.where(pos, y, 1.0)
        loss = M.where(pos, M.multiply(y, M.subtract(M.log(ys), x)), 0.0)
    if reduction == "batchmean":
        return M.divide(R.sum(loss), x.aval.shape[0]) if x.aval.ndim else R.sum(loss)
    return reduce_loss(op, loss, reduction)


# ---- binary ---------------------------------------------------------------------------------------

def binary_cross_entropy(input: Any, label: Any, weight: Any = None, reduction: str = "mean",
                         name: str | None = None) -> Any:
    """-(label * log(input) + (1 - label) * log(1 - input)), each log clamped at -100, times weight.

    Args:
        input: probabilities in [0, 1].
        label: targets in [0, 1], input's shape.
        weight: a Tensor broadcast against input, weighing each element.
        reduction: 'mean', 'sum' or 'none' (the elementwise losses).

    Returns:
        A scalar Tensor, or the losses of input's shape for reduction='none'.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> p, y = padax.to_tensor([0.9, 0.2]), padax.to_tensor([1.0, 0.0])
        >>> F.binary_cross_entropy(p, y, reduction="none").tolist()
        [0.1054, 0.2231]
        >>> F.binary_cross_entropy(p, y, weight=padax.to_tensor([2.0, 0.0])).item()
        0.1054
    """
    op = "binary_cross_entropy"
    reduction_of(op, reduction)
    x, y = _floats(op, ("input", input), ("label", label))
    _same_shape(op, input=x, label=y)
    log_x = M.maximum(M.log(x), -100.0)
    log_1mx = M.maximum(M.log1p(M.neg(x)), -100.0)
    out = M.neg(M.add(M.multiply(y, log_x), M.multiply(M.subtract(1.0, y), log_1mx)))
    if weight is not None:
        out = M.multiply(out, M.cast(arg(op, weight, "weight"), out.aval.dtype))
    return reduce_loss(op, out, reduction)


def _sigmoid_ce(x: Any, y: Any, pos_weight: Any = None) -> Any:
    """Stable -(y log sigmoid(x) + (1 - y) log sigmoid(-x)), the positive term times pos_weight."""
    if pos_weight is None:
        return M.subtract(M.multiply(M.subtract(1.0, y), x), log_sigmoid(x))
    pw = M.add(M.multiply(y, M.subtract(pos_weight, 1.0)), 1.0)
    return M.subtract(M.multiply(M.subtract(1.0, y), x), M.multiply(pw, log_sigmoid(x)))


def binary_cross_entropy_with_logits(logit: Any, label: Any, weight: Any = None, reduction: str = "mean",
                                     pos_weight: Any = None, name: str | None = None) -> Any:
    """Binary cross entropy of sigmoid(logit), computed stably; pos_weight weighs the positive term
    (per class, broadcast), weight each element. Labels equal to -100 contribute 0, as in Paddle.

    Args:
        logit: unnormalised scores.
        label: targets in [0, 1], logit's shape.
        weight: a Tensor broadcast against logit, weighing each element.
        reduction: 'mean', 'sum' or 'none' (the elementwise losses).
        pos_weight: the weight of the positive term, per class (broadcast along the last axis).

    Returns:
        A scalar Tensor, or the losses of logit's shape for reduction='none'.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> z, y = padax.to_tensor([0.0, 2.0]), padax.to_tensor([1.0, 0.0])
        >>> F.binary_cross_entropy_with_logits(z, y, reduction="none").tolist()
        [0.6931, 2.1269]
        >>> F.binary_cross_entropy_with_logits(z, y, pos_weight=padax.to_tensor([3.0]), reduction="none").tolist()
        [2.0794, 2.1269]
    """
    op = "binary_cross_entropy_with_logits"
    reduction_of(op, reduction)
    x, y = _floats(op, ("logit", logit), ("label", label))
    _same_shape(op, logit=x, label=y)
    pw = None if pos_weight is None else M.cast(arg(op, pos_weight, "pos_weight"), x.aval.dtype)
    out = _sigmoid_ce(x, y, pw)
    out = M.where(M.equal(y, -100.0), 0.0, out)
    if weight is not None:
        out = M.multiply(out, M.cast(arg(op, weight, "weight"), out.aval.dtype))
    return reduce_loss(op, out, reduction)


def sigmoid_focal_loss(logit: Any, label: Any, normalizer: Any = None, alpha: float = 0.25, gamma: float = 2.0,
                       reduction: str = "sum", name: str | None = None) -> Any:
    """alpha_t * (1 - p_t) ** gamma * BCE(sigmoid(logit), label), divided by `normalizer` if given.

    Args:
        normalizer: a Tensor of one element dividing the loss (e.g. the number of positive samples).
        alpha: the weight of the positive class (1 - alpha for the negative one).
        gamma: the focusing exponent: larger values shrink the loss of well-classified examples.

    Returns:
        A Tensor of logit's shape for reduction='none', else a scalar.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> z, y = padax.to_tensor([[0.0, 3.0]]), padax.to_tensor([[1.0, 1.0]])
        >>> F.sigmoid_focal_loss(z, y, reduction="none").tolist()
        [[0.0433, 2.73e-05]]
        >>> F.sigmoid_focal_loss(z, y, gamma=0.0, reduction="none").tolist()
        [[0.1733, 0.0121]]
    """
    op = "sigmoid_focal_loss"
    reduction_of(op, reduction)
    x, y = _floats(op, ("logit", logit), ("label", label))
    ce = _sigmoid_ce(x, y)
    p = M.sigmoid(x)
    p_t = M.add(M.multiply(p, y), M.multiply(M.subtract(1.0, p), M.subtract(1.0, y)))
    alpha_t = M.add(M.multiply(y, alpha), M.multiply(M.subtract(1.0, y), 1.0 - alpha))
    loss = M.multiply(M.multiply(alpha_t, ce), M.pow(M.subtract(1.0, p_t), gamma))
    if normalizer is not None:
        norm = M.cast(arg(op, normalizer, "normalizer"), loss.aval.dtype)
        if norm.aval.ndim > 1:
            raise op_value_error(op, f"normalizer must be 0-D or 1-D, got {norm.aval.str_short()}")
        loss = M.divide(loss, norm)
    return reduce_loss(op, loss, reduction)


def log_loss(input: Any, label: Any, epsilon: float = 0.0001, name: str | None = None) -> Any:
    """-label * log(input + epsilon) - (1 - label) * log(1 - input + epsilon), elementwise.

    Args:
        input: predicted probabilities.
        label: targets in [0, 1], input's shape.
        epsilon: added inside the logs.

    Returns:
        The elementwise losses, input's shape.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.log_loss(padax.to_tensor([[0.9], [0.2]]), padax.to_tensor([[1.0], [0.0]]), epsilon=0.0).tolist()
        [[0.1054], [0.2231]]
    """
    x, y = _floats("log_loss", ("input", input), ("label", label))
    return M.subtract(M.neg(M.multiply(y, M.log(M.add(x, epsilon)))),
                      M.multiply(M.subtract(1.0, y), M.log(M.add(M.subtract(1.0, x), epsilon))))


def dice_loss(input: Any, label: Any, epsilon: float = 1e-05, name: str | None = None) -> Any:
    """1 - 2 |X n Y| / (|X| + |Y| + epsilon) per sample, averaged; input holds class probabilities on
    its last axis, label the integer classes with a trailing axis of size 1.

    Args:
        input: class probabilities [N, ..., C].
        label: int classes [N, ..., 1].
        epsilon: added to the denominator.

    Returns:
        A scalar Tensor: the loss averaged over the samples.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> probs = padax.to_tensor([[[1.0, 0.0], [0.0, 1.0]], [[0.5, 0.5], [0.5, 0.5]]])  # [N=2, 2 points, 2 classes]
        >>> F.dice_loss(probs, padax.to_tensor([[[0], [1]], [[0], [0]]])).item()
        0.25
    """
    op = "dice_loss"
    x = float_array(op, input, "input")
    label = asarray(label)
    if x.aval.ndim < 2 or label.aval.ndim != x.aval.ndim or label.aval.shape[-1] != 1 \
            or label.aval.shape[:-1] != x.aval.shape[:-1] or not dtypes.is_integer(label.aval.dtype):
        raise op_value_error(op, f"label {label.aval.str_short()} must be integers shaped like input "
                                 f"{x.aval.str_short()} with a last axis of size 1")
    onehot = M.cast(_class_mask(squeeze(label, -1), x.aval.shape[-1], x.aval.ndim - 1), x.aval.dtype)
    axes = list(range(1, x.aval.ndim))
    inter = R.sum(M.multiply(x, onehot), axis=axes)
    denom = M.add(R.sum(x, axis=axes), R.sum(onehot, axis=axes))
    return R.mean(M.subtract(1.0, M.divide(M.multiply(inter, 2.0), M.add(denom, epsilon))))
