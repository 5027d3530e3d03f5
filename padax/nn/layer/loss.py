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
    smoothing."""

    _op = staticmethod(F.cross_entropy)

    def __init__(self, weight: Any = None, ignore_index: int = -100, reduction: str = "mean",
                 soft_label: bool = False, axis: int = -1, use_softmax: bool = True, label_smoothing: float = 0.0,
                 name: str | None = None) -> None:
        super().__init__(weight=weight, ignore_index=ignore_index, reduction=reduction, soft_label=soft_label,
                         axis=axis, use_softmax=use_softmax, label_smoothing=label_smoothing)


class NLLLoss(_Loss):
    """Negative log likelihood of log-probabilities [N, C, ...] at integer labels."""

    _op = staticmethod(F.nll_loss)

    def __init__(self, weight: Any = None, ignore_index: int = -100, reduction: str = "mean",
                 name: str | None = None) -> None:
        super().__init__(weight=weight, ignore_index=ignore_index, reduction=reduction)


class MSELoss(_Loss):
    """Mean squared error."""

    _op = staticmethod(F.mse_loss)

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__(reduction=reduction)


class L1Loss(_Loss):
    """Mean absolute error."""

    _op = staticmethod(F.l1_loss)

    def __init__(self, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__(reduction=reduction)


class SmoothL1Loss(_Loss):
    """Huber loss with threshold `delta` (Paddle's HuberLoss is this class)."""

    _op = staticmethod(F.smooth_l1_loss)

    def __init__(self, reduction: str = "mean", delta: float = 1.0, is_huber: bool = True,
                 name: str | None = None) -> None:
        super().__init__(reduction=reduction, delta=delta, is_huber=is_huber)


HuberLoss = SmoothL1Loss


class BCELoss(_Loss):
    """Binary cross entropy of probabilities."""

    _op = staticmethod(F.binary_cross_entropy)

    def __init__(self, weight: Any = None, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__(weight=weight, reduction=reduction)


class BCEWithLogitsLoss(_Loss):
    """Binary cross entropy of logits (numerically stable), with element and positive-class weights."""

    _op = staticmethod(F.binary_cross_entropy_with_logits)

    def __init__(self, weight: Any = None, reduction: str = "mean", pos_weight: Any = None,
                 name: str | None = None) -> None:
        super().__init__(weight=weight, reduction=reduction, pos_weight=pos_weight)


class KLDivLoss(_Loss):
    """Kullback-Leibler divergence of log-probabilities `input` from `label`."""

    _op = staticmethod(F.kl_div)

    def __init__(self, reduction: str = "mean", log_target: bool = False) -> None:
        if reduction not in _REDUCTIONS + ("batchmean",):
            raise ValueError(f"KLDivLoss: unknown reduction {reduction!r}")
        FunctionalLayer.__init__(self, reduction=reduction, log_target=log_target)


class MarginRankingLoss(_Loss):
    """max(0, -label * (input - other) + margin)."""

    _op = staticmethod(F.margin_ranking_loss)

    def __init__(self, margin: float = 0.0, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__(margin=margin, reduction=reduction)


class HingeEmbeddingLoss(_Loss):
    """x where label is 1, max(0, margin - x) where label is -1."""

    _op = staticmethod(F.hinge_embedding_loss)

    def __init__(self, margin: float = 1.0, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__(margin=margin, reduction=reduction)


class CosineEmbeddingLoss(_Loss):
    """1 - cos(x1, x2) for label 1, max(0, cos(x1, x2) - margin) for label -1."""

    _op = staticmethod(F.cosine_embedding_loss)

    def __init__(self, margin: float = 0, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__(margin=margin, reduction=reduction)


class TripletMarginLoss(_Loss):
    """max(d(a, p) - d(a, n) + margin, 0) with the p-norm distance."""

    _op = staticmethod(F.triplet_margin_loss)

    def __init__(self, margin: float = 1.0, p: float = 2.0, epsilon: float = 1e-06, swap: bool = False,
                 reduction: str = "mean", name: str | None = None) -> None:
        super().__init__(margin=margin, p=p, epsilon=epsilon, swap=swap, reduction=reduction)


class TripletMarginWithDistanceLoss(_Loss):
    """TripletMarginLoss with a custom distance_function (pairwise_distance by default)."""

    _op = staticmethod(F.triplet_margin_with_distance_loss)

    def __init__(self, distance_function: Callable | None = None, margin: float = 1.0, swap: bool = False,
                 reduction: str = "mean", name: str | None = None) -> None:
        super().__init__(distance_function=distance_function, margin=margin, swap=swap, reduction=reduction)


class MultiLabelSoftMarginLoss(_Loss):
    """Per-class binary logistic loss averaged over classes."""

    _op = staticmethod(F.multi_label_soft_margin_loss)

    def __init__(self, weight: Any = None, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__(weight=weight, reduction=reduction)


class MultiLabelMarginLoss(_Loss):
    """Multi-class multi-label hinge loss (labels listed first, -1 terminated)."""

    _op = staticmethod(F.multi_label_margin_loss)

    def __init__(self, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__(reduction=reduction)


class MultiMarginLoss(_Loss):
    """Multi-class hinge loss max(0, margin - x[y] + x[i])^p averaged over the classes i != y."""

    _op = staticmethod(F.multi_margin_loss)

    def __init__(self, p: int = 1, margin: float = 1.0, weight: Any = None, reduction: str = "mean",
                 name: str | None = None) -> None:
        super().__init__(p=p, margin=margin, weight=weight, reduction=reduction)


class SoftMarginLoss(_Loss):
    """log(1 + exp(-label * input))."""

    _op = staticmethod(F.soft_margin_loss)

    def __init__(self, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__(reduction=reduction)


class PoissonNLLLoss(_Loss):
    """Poisson negative log likelihood (of log-rates when log_input)."""

    _op = staticmethod(F.poisson_nll_loss)

    def __init__(self, log_input: bool = True, full: bool = False, epsilon: float = 1e-08, reduction: str = "mean",
                 name: str | None = None) -> None:
        super().__init__(log_input=log_input, full=full, epsilon=epsilon, reduction=reduction)


class GaussianNLLLoss(_Loss):
    """Gaussian negative log likelihood of `label` under mean `input` and `variance`."""

    _op = staticmethod(F.gaussian_nll_loss)

    def __init__(self, full: bool = False, epsilon: float = 1e-06, reduction: str = "mean",
                 name: str | None = None) -> None:
        super().__init__(full=full, epsilon=epsilon, reduction=reduction)


class CTCLoss(_Loss):
    """Connectionist temporal classification loss of log-probabilities [T, N, C]."""

    _op = staticmethod(F.ctc_loss)

    def __init__(self, blank: int = 0, reduction: str = "mean", zero_infinity: bool = False) -> None:
        super().__init__(blank=blank, reduction=reduction, zero_infinity=zero_infinity)

    def forward(self, log_probs: Any, labels: Any, input_lengths: Any, label_lengths: Any,
                norm_by_times: bool = False) -> Any:
        s = self._settings
        return F.ctc_loss(log_probs, labels, input_lengths, label_lengths, s["blank"], s["reduction"],
                          norm_by_times=norm_by_times, zero_infinity=s["zero_infinity"])
