"""Losses over structured outputs, as Paddle's layers: hierarchical sigmoid and adaptive softmax (with
their parameters) and the RNN-Transducer loss."""
from __future__ import annotations

from typing import Any, Sequence

from padax import dtypes
from padax.functional import math as M, reduction as R
from padax.functional.manipulation import concat, unsqueeze
from padax.nn import functional as F
from padax.nn.layer._calls import check_input
from padax.nn.layer.container import LayerList, ParameterList
from padax.nn.layer.layers import Layer
from padax.nn.layer.loss import _Loss


class HSigmoidLoss(Layer):
    """Hierarchical sigmoid loss with its node weights [nodes, feature_size] (XavierUniform) and bias
    [nodes, 1] (zeros): nodes = num_classes - 1 for the default tree, num_classes with is_custom.

    Args:
        feature_size: the input feature size D.
        num_classes: the number of classes.
        weight_attr, bias_attr: ParamAttr or initializer of the node weights and biases; bias_attr=False drops the bias.
        is_custom: a custom tree is passed to forward (path_table, path_code).
        is_sparse: accepted for Paddle compatibility.

    Returns:
        layer(input, label, path_table=None, path_code=None): input [N, D], label [N] -> losses [N, 1].

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> layer = padax.nn.HSigmoidLoss(feature_size=3, num_classes=4)
        >>> layer.weight.shape, layer.bias.shape
        ((3, 3), (3, 1))
        >>> layer(padax.ones([2, 3]), padax.to_tensor([0, 3])).shape
        (2, 1)
    """

    def __init__(self, feature_size: int, num_classes: int, weight_attr: Any = None, bias_attr: Any = None,
                 is_custom: bool = False, is_sparse: bool = False, name: str | None = None) -> None:
        super().__init__()
        if num_classes < 2 and not is_custom:
            raise ValueError(f"HSigmoidLoss: num_classes must be at least 2 with the default tree, got {num_classes}")
        self._feature_size, self._num_classes, self._is_custom = feature_size, num_classes, is_custom
        nodes = num_classes if is_custom else num_classes - 1
        self.weight = self.create_parameter([nodes, feature_size], attr=weight_attr)
        self.bias = self.create_parameter([nodes, 1], attr=bias_attr, is_bias=True)

    def forward(self, input: Any, label: Any, path_table: Any = None, path_code: Any = None) -> Any:  # noqa: A002
        check_input(self, input, ndims=(2,), axis=1, size=self._feature_size, floating=True,
                    layout="[N, feature_size]")
        return F.hsigmoid_loss(input, label, self._num_classes, self.weight, self.bias, path_table=path_table,
                               path_code=path_code)

    def extra_repr(self) -> str:
        return f"feature_size={self._feature_size}, num_classes={self._num_classes}, is_custom={self._is_custom}"


class RNNTLoss(_Loss):
    """RNN-Transducer loss of log-probabilities [B, T, U + 1, V] (FastEmit regularisation of the gradient).

    Args:
        blank: the index of the blank symbol.
        fastemit_lambda: FastEmit: scales the gradient of each label emission by 1 + lambda.
        reduction: 'mean' (summed loss / B), 'sum' or 'none'.

    Returns:
        layer(input, label, input_lengths, label_lengths): -> a scalar, or the losses [B] for 'none'.

    Examples:
        >>> import padax
        >>> logp = padax.log(padax.full([1, 1, 2, 2], 0.5))  # [B=1, T=1, U+1=2, V=2] log-probabilities
        >>> one = padax.to_tensor([1], dtype="int32")
        >>> padax.nn.RNNTLoss()(logp, one.reshape([1, 1]), one, one).item()
        1.3863
    """

    _op = staticmethod(F.rnnt_loss)

    def __init__(self, blank: int = 0, fastemit_lambda: float = 0.001, reduction: str = "mean",
                 name: str | None = None) -> None:
        super().__init__(blank=blank, fastemit_lambda=fastemit_lambda, reduction=reduction)


class AdaptiveLogSoftmaxWithLoss(Layer):
    """Adaptive softmax over n_classes split at `cutoffs`: a head [in_features, cutoffs[0] + clusters]
    and per cluster a projection [in_features, in_features // div_value**k] and output weight.
    forward gives (log-probability of each label, mean loss); log_prob and predict score every class.
    The tail weights are parameters here (tail_weights.k.0 / .1 in state_dict); Paddle keeps them in a
    plain list, so its state_dict holds only head_weight (and head_bias).

    Args:
        in_features: the feature size D.
        n_classes: the number of classes.
        cutoffs: increasing class boundaries below n_classes.
        weight_attr, bias_attr: ParamAttr or initializer of the weights and the head bias.
        div_value: each cluster's projection size shrinks by this factor.
        head_bias: give the head a bias.

    Returns:
        layer(input, label): input [N, D], label [N] -> (log-probability of each label [N], mean loss).

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> asm = padax.nn.AdaptiveLogSoftmaxWithLoss(in_features=8, n_classes=6, cutoffs=[2], div_value=2.0)
        >>> asm.head_weight.shape, [w.shape for w in asm.tail_weights[0]]
        ((8, 3), [(8, 4), (4, 4)])
        >>> logp, loss = asm(padax.ones([3, 8]), padax.to_tensor([0, 3, 5]))
        >>> logp.shape, loss.shape
        ((3,), ())
        >>> asm.log_prob(padax.ones([3, 8])).exp().sum(axis=1).tolist()
        [1.0, 1.0, 1.0]
    """

    def __init__(self, in_features: int, n_classes: int, cutoffs: Sequence[int], weight_attr: Any = None,
                 bias_attr: Any = None, div_value: float = 4.0, head_bias: bool = False,
                 name: str | None = None) -> None:
        super().__init__()
        cuts = list(cutoffs)
        if (cuts != sorted(cuts) or not cuts or min(cuts) <= 0 or max(cuts) > n_classes - 1
                or len(set(cuts)) != len(cuts) or any(int(c) != c for c in cuts)):
            raise ValueError("AdaptiveLogSoftmaxWithLoss: cutoffs must be unique positive ints in increasing order, "
                             f"each between 1 and n_classes - 1 = {n_classes - 1}, got {cuts}")
        self.in_features, self.n_classes, self.div_value = in_features, n_classes, div_value
        self.cutoffs = [int(c) for c in cuts] + [n_classes]
        self.shortlist_size, self.n_clusters = self.cutoffs[0], len(cuts)
        self.head_size = self.shortlist_size + self.n_clusters
        self.head_weight = self.create_parameter([in_features, self.head_size], attr=weight_attr)
        self.head_bias = (self.create_parameter([self.head_size], attr=bias_attr, is_bias=True) if head_bias
                          else None)
        tails = []
        for k in range(self.n_clusters):
            hidden = int(in_features // (div_value ** (k + 1)))
            size = self.cutoffs[k + 1] - self.cutoffs[k]
            tails.append(ParameterList([self.create_parameter([in_features, hidden], attr=weight_attr),
                                        self.create_parameter([hidden, size], attr=weight_attr)]))
        self.tail_weights = LayerList(tails)

    def forward(self, input: Any, label: Any) -> tuple[Any, Any]:  # noqa: A002
        return F.adaptive_log_softmax_with_loss(input, label, self.head_weight, self.tail_weights, self.cutoffs,
                                                self.head_bias)

    def _head(self, input: Any) -> Any:  # noqa: A002
        check_input(self, input, ndims=(2,), axis=1, size=self.in_features, floating=True,
                    layout="[N, in_features]")
        return F.linear(input, self.head_weight, self.head_bias)

    def _full_log_prob(self, input: Any, head: Any) -> Any:  # noqa: A002
        head_lp = F.log_softmax(head, axis=1)
        parts = [head_lp[:, :self.shortlist_size]]
        for k, (proj, out) in enumerate(self.tail_weights):
            cluster = F.log_softmax(F.linear(F.linear(input, proj), out), axis=1)
            parts.append(M.add(cluster, unsqueeze(head_lp[:, self.shortlist_size + k], 1)))
        return concat(parts, axis=1)

    def log_prob(self, input: Any) -> Any:  # noqa: A002
        """Log-probabilities [N, n_classes] of every class."""
        return self._full_log_prob(input, self._head(input))

    def predict(self, input: Any) -> Any:  # noqa: A002
        """The most likely class of each row, as float32 (Paddle's dtype for this method). A head that
        prefers a shortlist class already decides the row, so this is the argmax of log_prob."""
        return M.cast(R.argmax(self.log_prob(input), axis=1), dtypes.float32)

    def extra_repr(self) -> str:
        return f"in_features={self.in_features}, n_classes={self.n_classes}, cutoffs={self.cutoffs[:-1]}, " \
               f"div_value={self.div_value}"
