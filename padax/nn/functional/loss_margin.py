"""Margin and embedding losses with Paddle's signatures: ranking, hinge, cosine, triplet,
soft-margin and multi-class margin losses."""
from __future__ import annotations

from typing import Any, Callable

from padax import dtypes
from padax.core.errors import op_value_error
from padax.functional import math as M, reduction as R
from padax.functional._checks import arg
from padax.functional.indexed import take_along, take_axis
from padax.functional.manipulation import reshape, unsqueeze
from padax.nn.functional._util import reduction_of
from padax.nn.functional.activation import log_sigmoid, relu
from padax.nn.functional.distance import pairwise_distance
from padax.nn.functional.loss import _class_mask, _floats, _same_shape, check_class_indices, reduce_loss


def margin_ranking_loss(input: Any, other: Any, label: Any, margin: float = 0.0, reduction: str = "mean",
                        name: str | None = None) -> Any:
    """relu(-label * (input - other) + margin).

    Args:
        input, other: the two scores compared.
        label: 1 where input should rank higher, -1 where other should.
        margin: the required gap.
        reduction: 'mean', 'sum' or 'none'.

    Returns:
        A scalar Tensor, or the per-element losses for reduction='none'.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x, o, y = padax.to_tensor([1.0, 2.0]), padax.to_tensor([2.0, 0.0]), padax.to_tensor([1.0, 1.0])
        >>> F.margin_ranking_loss(x, o, y, margin=0.5, reduction="none").tolist()
        [1.5, 0.0]
    """
    op = "margin_ranking_loss"
    reduction_of(op, reduction)
    x, o, y = _floats(op, ("input", input), ("other", other), ("label", label))
    return reduce_loss(op, relu(M.add(M.multiply(M.subtract(o, x), y), margin)), reduction)


def hinge_embedding_loss(input: Any, label: Any, margin: float = 1.0, reduction: str = "mean",
                         name: str | None = None) -> Any:
    """input where label == 1, relu(margin - input) where label == -1 (0 for other labels).

    Args:
        input: distances (or scores).
        label: 1 or -1 per element, input's shape.
        margin: the margin for label -1.
        reduction: 'mean', 'sum' or 'none'.

    Returns:
        A scalar Tensor, or the per-element losses for reduction='none'.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x, y = padax.to_tensor([0.3, 0.3, 2.0]), padax.to_tensor([1.0, -1.0, -1.0])
        >>> F.hinge_embedding_loss(x, y, reduction="none").tolist()
        [0.3, 0.7, 0.0]
    """
    op = "hinge_embedding_loss"
    reduction_of(op, reduction)
    x, y = _floats(op, ("input", input), ("label", label))
    loss = M.add(M.where(M.equal(y, 1.0), x, 0.0), M.where(M.equal(y, -1.0), relu(M.subtract(margin, x)), 0.0))
    return reduce_loss(op, loss, reduction)


def cosine_embedding_loss(input1: Any, input2: Any, label: Any, margin: float = 0, reduction: str = "mean",
                          name: str | None = None) -> Any:
    """1 - cos(input1, input2) where label == 1, max(0, cos - margin) where label == -1 (rows of
    1-D or 2-D inputs, cosine along the last axis).

    Args:
        input1, input2: [N, D] or [D] embeddings.
        label: 1 (similar) or -1 (dissimilar) per row, [N] or a scalar.
        margin: the cosine below which dissimilar pairs cost nothing.
        reduction: 'mean', 'sum' or 'none'.

    Returns:
        A scalar Tensor, or the per-sample losses [N] for reduction='none'.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> a, b = padax.to_tensor([[1.0, 0.0], [1.0, 0.0]]), padax.to_tensor([[1.0, 1.0], [1.0, 1.0]])
        >>> F.cosine_embedding_loss(a, b, padax.to_tensor([1, -1]), reduction="none").tolist()
        [0.2929, 0.7071]
    """
    op = "cosine_embedding_loss"
    reduction_of(op, reduction)
    x1, x2 = _floats(op, ("input1", input1), ("input2", input2))
    y = arg(op, label, "label")
    _same_shape(op, input1=x1, input2=x2)
    if y.aval.ndim != 1 or x1.aval.ndim > 2:
        raise op_value_error(op, f"label must be 1-D and inputs 1-D or 2-D, got label {y.aval.str_short()}, "
                                 f"input1 {x1.aval.str_short()}")
    dot = R.sum(M.multiply(x1, x2), axis=-1)
    m1 = M.add(R.sum(M.square(x1), axis=-1), 1e-11)
    m2 = M.add(R.sum(M.square(x2), axis=-1), 1e-11)
    cos = M.divide(dot, M.sqrt(M.multiply(m1, m2)))
    loss = M.add(M.where(M.equal(y, 1), M.subtract(1.0, cos), 0.0),
                 M.where(M.equal(y, -1), M.maximum(M.subtract(cos, margin), 0.0), 0.0))
    return reduce_loss(op, loss, reduction)


def _triplet(op: str, input, positive, negative, distance: Callable, margin, swap, reduction):
    reduction_of(op, reduction)
    if margin < 0:
        raise op_value_error(op, f"margin must be non-negative, got {margin}")
    a, p, n = _floats(op, ("input", input), ("positive", positive), ("negative", negative))
    _same_shape(op, input=a, positive=p, negative=n)
    d_pos, d_neg = distance(a, p), distance(a, n)
    if swap:
        d_neg = M.minimum(d_neg, distance(p, n))
    return reduce_loss(op, M.maximum(M.add(M.subtract(d_pos, d_neg), margin), 0.0), reduction)


def triplet_margin_loss(input: Any, positive: Any, negative: Any, margin: float = 1.0, p: float = 2,
                        epsilon: float = 1e-06, swap: bool = False, reduction: str = "mean",
                        name: str | None = None) -> Any:
    """max(d(input, positive) - d(input, negative) + margin, 0) with d the pairwise p-distance;
    `swap` uses min(d(a, n), d(p, n)) as the negative distance.

    Args:
        input, positive, negative: anchor, positive and negative embeddings [N, D].
        margin: the required gap between the two distances.
        p: the order of the distance norm.
        epsilon: added to the differences (as pairwise_distance).
        swap: use min(d(a, n), d(p, n)) as the negative distance.
        reduction: 'mean', 'sum' or 'none'.

    Returns:
        A scalar Tensor, or the per-sample losses [N] for reduction='none'.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> a, p, n = padax.to_tensor([[0.0, 0.0]]), padax.to_tensor([[3.0, 4.0]]), padax.to_tensor([[1.0, 0.0]])
        >>> F.triplet_margin_loss(a, p, n, margin=1.0, epsilon=0.0).item()
        5.0
        >>> F.triplet_margin_loss(a, p, n, p=1, epsilon=0.0).item()
        7.0
    """
    dist = lambda u, v: pairwise_distance(u, v, p, epsilon)  # noqa: E731
    return _triplet("triplet_margin_loss", input, positive, negative, dist, margin, swap, reduction)


def triplet_margin_with_distance_loss(input: Any, positive: Any, negative: Any,
                                      distance_function: Callable | None = None, margin: float = 1.0,
                                      swap: bool = False, reduction: str = "mean", name: str | None = None) -> Any:
    """The triplet margin loss with any distance function (default: the pairwise 2-norm distance).

    Args:
        input, positive, negative: anchor, positive and negative embeddings [N, D].
        distance_function: a callable (x, y) -> [N] distances; None is pairwise_distance.
        margin: the required gap between the two distances.
        swap: use min(d(a, n), d(p, n)) as the negative distance.
        reduction: 'mean', 'sum' or 'none'.

    Returns:
        A scalar Tensor, or the per-sample losses [N] for reduction='none'.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> a, p, n = padax.to_tensor([[0.0, 0.0]]), padax.to_tensor([[3.0, 4.0]]), padax.to_tensor([[1.0, 0.0]])
        >>> l1 = lambda u, v: (u - v).abs().sum(axis=-1)
        >>> F.triplet_margin_with_distance_loss(a, p, n, distance_function=l1, margin=0.5).item()
        6.5
    """
    dist = distance_function if distance_function is not None else (lambda u, v: pairwise_distance(u, v, 2.0))
    return _triplet("triplet_margin_with_distance_loss", input, positive, negative, dist, margin, swap, reduction)


def soft_margin_loss(input: Any, label: Any, reduction: str = "mean", name: str | None = None) -> Any:
    """log(1 + exp(-label * input)).

    Args:
        input: scores.
        label: 1 or -1 per element, input's shape.
        reduction: 'mean', 'sum' or 'none'.

    Returns:
        A scalar Tensor, or the per-element losses for reduction='none'.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.soft_margin_loss(padax.to_tensor([0.0, 2.0]), padax.to_tensor([1.0, -1.0]), reduction="none").tolist()
        [0.6931, 2.1269]
    """
    op = "soft_margin_loss"
    reduction_of(op, reduction)
    x = arg(op, input, "input")
    x, y = _floats(op, ("input", x), ("label", M.cast(arg(op, label, "label"), x.aval.dtype)))
    _same_shape(op, input=x, label=y)
    return reduce_loss(op, M.neg(log_sigmoid(M.multiply(y, x))), reduction)


def multi_label_soft_margin_loss(input: Any, label: Any, weight: Any = None, reduction: str = "mean",
                                 name: str | None = None) -> Any:
    """The mean over classes (last axis) of -(y log sigmoid(x) + (1 - y) log sigmoid(-x)) * weight.

    Args:
        input: scores [N, C].
        label: 0/1 targets [N, C].
        weight: class weights broadcast against input.
        reduction: 'mean', 'sum' or 'none'.

    Returns:
        A scalar Tensor, or the per-sample losses [N] for reduction='none'.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x, y = padax.to_tensor([[0.0, 0.0], [10.0, -10.0]]), padax.to_tensor([[1.0, 0.0], [1.0, 0.0]])
        >>> F.multi_label_soft_margin_loss(x, y, reduction="none").tolist()
        [0.6931, 4.54e-05]
    """
    op = "multi_label_soft_margin_loss"
    reduction_of(op, reduction)
    x, y = _floats(op, ("input", input), ("label", label))
    _same_shape(op, input=x, label=y)
    loss = M.neg(M.add(M.multiply(y, log_sigmoid(x)), M.multiply(M.subtract(1.0, y), log_sigmoid(M.neg(x)))))
    if weight is not None:
        loss = M.multiply(loss, M.cast(arg(op, weight, "weight"), loss.aval.dtype))
    return reduce_loss(op, R.mean(loss, axis=-1), reduction)


def _labels(op: str, x: Any, label: Any) -> Any:
    label = arg(op, label, "label")
    if not dtypes.is_integer(label.aval.dtype):
        raise op_value_error(op, f"label must be integers, got {label.aval.str_short()}")
    return label


def multi_margin_loss(input: Any, label: Any, p: int = 1, margin: float = 1.0, weight: Any = None,
                      reduction: str = "mean", name: str | None = None) -> Any:
    """For x [N, C] and labels y [N]: mean over classes j != y of w[y] * max(0, margin - x[y] + x[j]) ** p.

    Args:
        input: scores [N, C].
        label: int classes [N].
        p: 1 or 2, the exponent of the hinge.
        margin: the required gap.
        weight: a [C] Tensor of class weights.
        reduction: 'mean', 'sum' or 'none'.

    Returns:
        A scalar Tensor, or the per-sample losses [N] for reduction='none'.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.to_tensor([[0.1, 0.2, 0.4], [2.0, 0.0, 0.0]])
        >>> F.multi_margin_loss(x, padax.to_tensor([2, 0]), reduction="none").tolist()
        [0.5, 0.0]
    """
    op = "multi_margin_loss"
    reduction_of(op, reduction)
    (x,) = _floats(op, ("input", input))
    y = _labels(op, x, label)
    if x.aval.ndim != 2 or y.aval.size != x.aval.shape[0]:
        raise op_value_error(op, f"input must be [N, C] and label [N], got {x.aval.str_short()} and {y.aval.str_short()}")
    c = x.aval.shape[1]
    check_class_indices(op, y, c)  # as Paddle (an out-of-range label read a clamped score)
    y = M.cast(reshape(y, [-1]), dtypes.int32)
    picked = take_along(x, unsqueeze(y, 1), 1)
    terms = M.pow(M.maximum(M.add(M.subtract(margin, picked), x), 0.0), p)
    if weight is None:
        return reduce_loss(op, M.subtract(R.mean(terms, axis=1), margin ** p / c), reduction)
    w = take_axis(M.cast(arg(op, weight, "weight"), x.aval.dtype), y, 0)
    loss = M.subtract(R.mean(M.multiply(unsqueeze(w, 1), terms), axis=1), M.multiply(w, margin ** p / c))
    return reduce_loss(op, loss, reduction)


def multi_label_margin_loss(input: Any, label: Any, reduction: str = "mean", name: str | None = None) -> Any:
    """For x [N, C] and label [N, C] holding target classes up to the first -1: the sum over targets j
    and non-targets k of max(0, 1 - x[j] + x[k]), divided by C.

    Args:
        input: scores [N, C].
        label: int [N, C]: target classes, ended by the first -1.
        reduction: 'mean', 'sum' or 'none'.

    Returns:
        A scalar Tensor, or the per-sample losses [N] for reduction='none'.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.to_tensor([[0.1, 0.2, 0.4, 0.8]])
        >>> F.multi_label_margin_loss(x, padax.to_tensor([[3, 0, -1, 1]]), reduction="none").tolist()
        [0.85]
    """
    op = "multi_label_margin_loss"
    reduction_of(op, reduction)
    (x,) = _floats(op, ("input", input))
    y = _labels(op, x, label)
    if x.aval.ndim != 2 or y.aval.shape != x.aval.shape:
        raise op_value_error(op, f"input and label must both be [N, C], got {x.aval.str_short()} and "
                                 f"{y.aval.str_short()}")
    c = x.aval.shape[1]
    valid = M.cast(R.cumprod(M.cast(M.not_equal(y, -1), dtypes.int32), dim=1), dtypes.bool_)   # [N, J]
    check_class_indices(op, M.where(valid, y, -1), c, ignore_index=-1)  # the targets before a row's first -1
    safe = M.where(valid, y, 0)
    is_target = R.any(M.logical_and(_class_mask(safe, c, 2), unsqueeze(valid, 2)), axis=1)   # [N, C]
    x_t = take_along(x, safe, 1)                                                              # [N, J]
    margins = M.maximum(M.add(M.subtract(1.0, unsqueeze(x_t, 2)), unsqueeze(x, 1)), 0.0)     # [N, J, C]
    keep = M.logical_and(unsqueeze(valid, 2), unsqueeze(M.logical_not(is_target), 1))
    loss = M.divide(R.sum(M.where(keep, margins, 0.0), axis=[1, 2]), c)
    return reduce_loss(op, loss, reduction)

