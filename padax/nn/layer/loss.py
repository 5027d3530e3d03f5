"""Every loss of paddle.nn as a layer (Paddle's names, constructor arguments and defaults), each applying
the nn.functional loss of the same name. Class-weight tensors are kept as non-persistable buffers."""
from __future__ import annotations

from typing import Any, Callable

from padax.nn import functional as F
from padax.nn.layer._functional import FunctionalLayer

_REDUCTIONS = ("mean", "sum", "none")


class _Loss(FunctionalLayer):
    def __init__(self, **settings: Any) -> None:
        reduction = settings.get("reduction", "mean")
        if reduction not in _REDUCTIONS:
            raise ValueError(f"{type(self).__name__}: reduction must be one of {_REDUCTIONS}, got {reduction!r}")
        super().__init__(**settings)


class CrossEntropyLoss(_Loss):
    """Softmax cross entropy with hard (class index) or soft labels, class weights, ignore_index and label
    smoothing.

    Args:
        weight: a [C] Tensor of class weights.
        ignore_index: a hard label whose positions add nothing.
        reduction: 'mean', 'sum' or 'none' (the unreduced losses).
        soft_label: labels are class probabilities instead of indices.
        axis: the class axis.
        use_softmax: input holds logits (True) or probabilities (False).
        label_smoothing: the weight of the uniform distribution mixed into the labels.

    Returns:
        layer(input, label) -> a scalar (the unreduced losses for 'none').

    Examples:
        >>> import padax
        >>> loss_fn = padax.nn.CrossEntropyLoss()
        >>> loss_fn(padax.to_tensor([[2.0, 0.0, 0.0], [0.0, 0.0, 0.0]]), padax.to_tensor([0, 1])).item()
        0.6691
        >>> padax.nn.CrossEntropyLoss(label_smoothing=0.2)(padax.to_tensor([[2.0, 0.0]]), padax.to_tensor([0])).item()
        0.3269
    """

    _op = staticmethod(F.cross_entropy)

    def __init__(self, weight: Any = None, ignore_index: int = -100, reduction: str = "mean",
                 soft_label: bool = False, axis: int = -1, use_softmax: bool = True, label_smoothing: float = 0.0,
                 name: str | None = None) -> None:
        super().__init__(weight=weight, ignore_index=ignore_index, reduction=reduction, soft_label=soft_label,
                         axis=axis, use_softmax=use_softmax, label_smoothing=label_smoothing)


class NLLLoss(_Loss):
    """Negative log likelihood of log-probabilities [N, C, ...] at integer labels.

    Args:
        weight: a [C] Tensor of class weights.
        ignore_index: a label whose positions add nothing.
        reduction: 'mean', 'sum' or 'none' (the unreduced losses).

    Returns:
        layer(input [N, C, ...] log-probabilities, label [N, ...] ints) -> a scalar (the unreduced losses for 'none').

    Examples:
        >>> import padax
        >>> logp = padax.log(padax.to_tensor([[0.5, 0.25, 0.25], [0.1, 0.8, 0.1]]))
        >>> padax.nn.NLLLoss(reduction="sum")(logp, padax.to_tensor([0, 1])).item()
        0.9163
    """

    _op = staticmethod(F.nll_loss)

    def __init__(self, weight: Any = None, ignore_index: int = -100, reduction: str = "mean",
                 name: str | None = None) -> None:
        super().__init__(weight=weight, ignore_index=ignore_index, reduction=reduction)


class MSELoss(_Loss):
    """Mean squared error.

    Args:
        reduction: 'mean', 'sum' or 'none' (the unreduced losses).

    Returns:
        layer(input, label of one shape) -> a scalar (the unreduced losses for 'none').

    Examples:
        >>> import padax
        >>> padax.nn.MSELoss()(padax.to_tensor([1.0, 3.0]), padax.to_tensor([0.0, 0.0])).item()
        5.0
    """

    _op = staticmethod(F.mse_loss)

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__(reduction=reduction)


class L1Loss(_Loss):
    """Mean absolute error.

    Args:
        reduction: 'mean', 'sum' or 'none' (the unreduced losses).

    Returns:
        layer(input, label of one shape) -> a scalar (the unreduced losses for 'none').

    Examples:
        >>> import padax
        >>> padax.nn.L1Loss(reduction="none")(padax.to_tensor([1.0, -3.0]), padax.to_tensor([0.0, 0.0])).tolist()
        [1.0, 3.0]
    """

    _op = staticmethod(F.l1_loss)

    def __init__(self, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__(reduction=reduction)


class SmoothL1Loss(_Loss):
    """Huber loss with threshold `delta` (Paddle's HuberLoss is this class).

    Args:
        reduction: 'mean', 'sum' or 'none' (the unreduced losses).
        delta: the threshold on |input - label| between the quadratic and linear parts.
        is_huber: True for the Huber loss; False divides it by delta (smooth L1).

    Returns:
        layer(input, label of one shape) -> a scalar (the unreduced losses for 'none').

    Examples:
        >>> import padax
        >>> padax.nn.SmoothL1Loss(reduction="none")(padax.to_tensor([0.5, 3.0]), padax.to_tensor([0.0, 0.0])).tolist()
        [0.125, 2.5]
        >>> padax.nn.HuberLoss is padax.nn.SmoothL1Loss
        True
    """

    _op = staticmethod(F.smooth_l1_loss)

    def __init__(self, reduction: str = "mean", delta: float = 1.0, is_huber: bool = True,
                 name: str | None = None) -> None:
        super().__init__(reduction=reduction, delta=delta, is_huber=is_huber)


HuberLoss = SmoothL1Loss


class BCELoss(_Loss):
    """Binary cross entropy of probabilities.

    Args:
        weight: a Tensor weighing each element (broadcast).
        reduction: 'mean', 'sum' or 'none' (the unreduced losses).

    Returns:
        layer(input probabilities, label in [0, 1]) -> a scalar (the unreduced losses for 'none').

    Examples:
        >>> import padax
        >>> padax.nn.BCELoss()(padax.to_tensor([0.9, 0.2]), padax.to_tensor([1.0, 0.0])).item()
        0.1643
    """

    _op = staticmethod(F.binary_cross_entropy)

    def __init__(self, weight: Any = None, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__(weight=weight, reduction=reduction)


class BCEWithLogitsLoss(_Loss):
    """Binary cross entropy of logits (numerically stable), with element and positive-class weights.

    Args:
        weight: a Tensor weighing each element (broadcast).
        reduction: 'mean', 'sum' or 'none' (the unreduced losses).
        pos_weight: the weight of the positive term per class (broadcast along the last axis).

    Returns:
        layer(logit, label in [0, 1]) -> a scalar (the unreduced losses for 'none').

    Examples:
        >>> import padax
        >>> loss_fn = padax.nn.BCEWithLogitsLoss(reduction="none")
        >>> loss_fn(padax.to_tensor([0.0, 2.0]), padax.to_tensor([1.0, 0.0])).tolist()
        [0.6931, 2.1269]
    """

    _op = staticmethod(F.binary_cross_entropy_with_logits)

    def __init__(self, weight: Any = None, reduction: str = "mean", pos_weight: Any = None,
                 name: str | None = None) -> None:
        super().__init__(weight=weight, reduction=reduction, pos_weight=pos_weight)


class KLDivLoss(_Loss):
    """Kullback-Leibler divergence of log-probabilities `input` from `label`.

    Args:
        reduction: 'mean', 'sum', 'batchmean' (sum / batch size) or 'none'.
        log_target: label holds log-probabilities.

    Returns:
        layer(input log-probabilities, label) -> a scalar (the unreduced losses for 'none').

    Examples:
        >>> import padax
        >>> logq, p = padax.log(padax.to_tensor([[0.5, 0.5]])), padax.to_tensor([[0.25, 0.75]])
        >>> padax.nn.KLDivLoss(reduction="sum")(logq, p).item()
        0.1308
    """

    _op = staticmethod(F.kl_div)

    def __init__(self, reduction: str = "mean", log_target: bool = False) -> None:
        if reduction not in _REDUCTIONS + ("batchmean",):
            raise ValueError(f"KLDivLoss: unknown reduction {reduction!r}")
        FunctionalLayer.__init__(self, reduction=reduction, log_target=log_target)


class MarginRankingLoss(_Loss):
    """max(0, -label * (input - other) + margin).

    Args:
        margin: the required gap.
        reduction: 'mean', 'sum' or 'none' (the unreduced losses).

    Returns:
        layer(input, other, label of 1 or -1) -> a scalar (the unreduced losses for 'none').

    Examples:
        >>> import padax
        >>> loss_fn = padax.nn.MarginRankingLoss(margin=0.5, reduction="none")
        >>> loss_fn(padax.to_tensor([1.0, 2.0]), padax.to_tensor([2.0, 0.0]), padax.to_tensor([1.0, 1.0])).tolist()
        [1.5, 0.0]
    """

    _op = staticmethod(F.margin_ranking_loss)

    def __init__(self, margin: float = 0.0, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__(margin=margin, reduction=reduction)


class HingeEmbeddingLoss(_Loss):
    """x where label is 1, max(0, margin - x) where label is -1.

    Args:
        margin: the margin for label -1.
        reduction: 'mean', 'sum' or 'none' (the unreduced losses).

    Returns:
        layer(input, label of 1 or -1) -> a scalar (the unreduced losses for 'none').

    Examples:
        >>> import padax
        >>> loss_fn = padax.nn.HingeEmbeddingLoss(margin=1.0, reduction="none")
        >>> loss_fn(padax.to_tensor([0.3, 0.3]), padax.to_tensor([1.0, -1.0])).tolist()
        [0.3, 0.7]
    """

    _op = staticmethod(F.hinge_embedding_loss)

    def __init__(self, margin: float = 1.0, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__(margin=margin, reduction=reduction)


class CosineEmbeddingLoss(_Loss):
    """1 - cos(x1, x2) for label 1, max(0, cos(x1, x2) - margin) for label -1.

    Args:
        margin: the cosine below which dissimilar pairs cost nothing.
        reduction: 'mean', 'sum' or 'none' (the unreduced losses).

    Returns:
        layer(input1 [N, D], input2 [N, D], label [N] of 1 or -1) -> a scalar (the unreduced losses for 'none').

    Examples:
        >>> import padax
        >>> a, b = padax.to_tensor([[1.0, 0.0], [1.0, 0.0]]), padax.to_tensor([[1.0, 1.0], [0.0, 1.0]])
        >>> padax.nn.CosineEmbeddingLoss(reduction="none")(a, b, padax.to_tensor([1, -1])).tolist()
        [0.2929, 0.0]
    """

    _op = staticmethod(F.cosine_embedding_loss)

    def __init__(self, margin: float = 0, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__(margin=margin, reduction=reduction)


class TripletMarginLoss(_Loss):
    """max(d(a, p) - d(a, n) + margin, 0) with the p-norm distance.

    Args:
        margin: the required gap between the two distances.
        p: the order of the distance norm.
        epsilon: added to the differences (as pairwise_distance).
        swap: use min(d(a, n), d(p, n)) as the negative distance.
        reduction: 'mean', 'sum' or 'none' (the unreduced losses).

    Returns:
        layer(input, positive, negative [N, D]) -> a scalar (the unreduced losses for 'none').

    Examples:
        >>> import padax
        >>> a, p, n = padax.to_tensor([[0.0, 0.0]]), padax.to_tensor([[3.0, 4.0]]), padax.to_tensor([[1.0, 0.0]])
        >>> padax.nn.TripletMarginLoss(margin=1.0, epsilon=0.0)(a, p, n).item()
        5.0
    """

    _op = staticmethod(F.triplet_margin_loss)

    def __init__(self, margin: float = 1.0, p: float = 2.0, epsilon: float = 1e-06, swap: bool = False,
                 reduction: str = "mean", name: str | None = None) -> None:
        super().__init__(margin=margin, p=p, epsilon=epsilon, swap=swap, reduction=reduction)


class TripletMarginWithDistanceLoss(_Loss):
    """TripletMarginLoss with a custom distance_function (pairwise_distance by default).

    Args:
        distance_function: a callable (x, y) -> [N] distances; None is pairwise_distance.
        margin: the required gap between the two distances.
        swap: use min(d(a, n), d(p, n)) as the negative distance.
        reduction: 'mean', 'sum' or 'none' (the unreduced losses).

    Returns:
        layer(input, positive, negative [N, D]) -> a scalar (the unreduced losses for 'none').

    Examples:
        >>> import padax
        >>> a, p, n = padax.to_tensor([[0.0, 0.0]]), padax.to_tensor([[3.0, 4.0]]), padax.to_tensor([[1.0, 0.0]])
        >>> padax.nn.TripletMarginWithDistanceLoss(margin=1.0)(a, p, n).item()
        5.0
    """

    _op = staticmethod(F.triplet_margin_with_distance_loss)

    def __init__(self, distance_function: Callable | None = None, margin: float = 1.0, swap: bool = False,
                 reduction: str = "mean", name: str | None = None) -> None:
        super().__init__(distance_function=distance_function, margin=margin, swap=swap, reduction=reduction)


class MultiLabelSoftMarginLoss(_Loss):
    """Per-class binary logistic loss averaged over classes.

    Args:
        weight: class weights broadcast against input.
        reduction: 'mean', 'sum' or 'none' (the unreduced losses).

    Returns:
        layer(input [N, C], label [N, C] of 0/1) -> a scalar (the unreduced losses for 'none').

    Examples:
        >>> import padax
        >>> x, y = padax.to_tensor([[0.0, 0.0]]), padax.to_tensor([[1.0, 0.0]])
        >>> padax.nn.MultiLabelSoftMarginLoss()(x, y).item()
        0.6931
    """

    _op = staticmethod(F.multi_label_soft_margin_loss)

    def __init__(self, weight: Any = None, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__(weight=weight, reduction=reduction)


class MultiLabelMarginLoss(_Loss):
    """Multi-class multi-label hinge loss (labels listed first, -1 terminated).

    Args:
        reduction: 'mean', 'sum' or 'none' (the unreduced losses).

    Returns:
        layer(input [N, C], label [N, C] int targets ended by -1) -> a scalar (the unreduced losses for 'none').

    Examples:
        >>> import padax
        >>> x, y = padax.to_tensor([[0.1, 0.2, 0.4, 0.8]]), padax.to_tensor([[3, 0, -1, 1]])
        >>> padax.nn.MultiLabelMarginLoss()(x, y).item()
        0.85
    """

    _op = staticmethod(F.multi_label_margin_loss)

    def __init__(self, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__(reduction=reduction)


class MultiMarginLoss(_Loss):
    """Multi-class hinge loss max(0, margin - x[y] + x[i])^p averaged over the classes i != y.

    Args:
        p: 1 or 2, the exponent of the hinge.
        margin: the required gap.
        weight: a [C] Tensor of class weights.
        reduction: 'mean', 'sum' or 'none' (the unreduced losses).

    Returns:
        layer(input [N, C], label [N] ints) -> a scalar (the unreduced losses for 'none').

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[0.1, 0.2, 0.4]])
        >>> padax.nn.MultiMarginLoss(p=1, margin=1.0)(x, padax.to_tensor([2])).item()
        0.5
    """

    _op = staticmethod(F.multi_margin_loss)

    def __init__(self, p: int = 1, margin: float = 1.0, weight: Any = None, reduction: str = "mean",
                 name: str | None = None) -> None:
        super().__init__(p=p, margin=margin, weight=weight, reduction=reduction)


class SoftMarginLoss(_Loss):
    """log(1 + exp(-label * input)).

    Args:
        reduction: 'mean', 'sum' or 'none' (the unreduced losses).

    Returns:
        layer(input, label of 1 or -1) -> a scalar (the unreduced losses for 'none').

    Examples:
        >>> import padax
        >>> loss_fn = padax.nn.SoftMarginLoss(reduction="none")
        >>> loss_fn(padax.to_tensor([0.0, 2.0]), padax.to_tensor([1.0, -1.0])).tolist()
        [0.6931, 2.1269]
    """

    _op = staticmethod(F.soft_margin_loss)

    def __init__(self, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__(reduction=reduction)


class PoissonNLLLoss(_Loss):
    """Poisson negative log likelihood (of log-rates when log_input).

    Args:
        log_input: input holds log-rates.
        full: add Stirling's approximation of log(label!).
        epsilon: added inside the log when log_input is False.
        reduction: 'mean', 'sum' or 'none' (the unreduced losses).

    Returns:
        layer(input rates, label counts) -> a scalar (the unreduced losses for 'none').

    Examples:
        >>> import padax
        >>> padax.nn.PoissonNLLLoss(reduction="none")(padax.to_tensor([0.0, 1.0]), padax.to_tensor([1.0, 2.0])).tolist()
        [1.0, 0.7183]
    """

    _op = staticmethod(F.poisson_nll_loss)

    def __init__(self, log_input: bool = True, full: bool = False, epsilon: float = 1e-08, reduction: str = "mean",
                 name: str | None = None) -> None:
        super().__init__(log_input=log_input, full=full, epsilon=epsilon, reduction=reduction)


class GaussianNLLLoss(_Loss):
    """Gaussian negative log likelihood of `label` under mean `input` and `variance`.

    Args:
        full: add the constant 0.5 * log(2 * pi).
        epsilon: the lower clamp on the variance.
        reduction: 'mean', 'sum' or 'none' (the unreduced losses).

    Returns:
        layer(input means, label, variance) -> a scalar (the unreduced losses for 'none').

    Examples:
        >>> import padax
        >>> mu, y, var = padax.to_tensor([[0.0, 1.0]]), padax.to_tensor([[1.0, 1.0]]), padax.to_tensor([[1.0, 4.0]])
        >>> padax.nn.GaussianNLLLoss(reduction="none")(mu, y, var).tolist()
        [[0.5, 0.6931]]
    """

    _op = staticmethod(F.gaussian_nll_loss)

    def __init__(self, full: bool = False, epsilon: float = 1e-06, reduction: str = "mean",
                 name: str | None = None) -> None:
        super().__init__(full=full, epsilon=epsilon, reduction=reduction)


class CTCLoss(_Loss):
    """Connectionist temporal classification loss of log-probabilities [T, N, C].

    Args:
        blank: the index of the blank class.
        reduction: 'mean' (each loss divided by its label length, then averaged), 'sum' or 'none'.
        zero_infinity: replace infinite losses (impossible alignments) by 0.

    Returns:
        layer(log_probs [T, N, C], labels [N, S], input_lengths [N], label_lengths [N], norm_by_times=False)
        -> a scalar, or the losses [N] for 'none'.

    Examples:
        >>> import padax
        >>> log_probs = padax.log(padax.full([2, 1, 2], 0.5))  # [T=2, B=1, C=2], class 0 is the blank
        >>> labels, input_lengths, label_lengths = padax.to_tensor([[1]]), padax.to_tensor([2]), padax.to_tensor([1])
        >>> padax.nn.CTCLoss(blank=0)(log_probs, labels, input_lengths, label_lengths).item()
        0.2877
    """

    _op = staticmethod(F.ctc_loss)

    def __init__(self, blank: int = 0, reduction: str = "mean", zero_infinity: bool = False) -> None:
        super().__init__(blank=blank, reduction=reduction, zero_infinity=zero_infinity)

    def forward(self, log_probs: Any, labels: Any, input_lengths: Any, label_lengths: Any,
                norm_by_times: bool = False) -> Any:
        s = self._settings
        return F.ctc_loss(log_probs, labels, input_lengths, label_lengths, s["blank"], s["reduction"],
                          norm_by_times=norm_by_times, zero_infinity=s["zero_infinity"])
