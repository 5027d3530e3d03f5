"""MoELayer: a mixture-of-experts feed-forward block with stacked expert weights and ragged_dot."""
from __future__ import annotations

from typing import Any, Callable

import padax
from padax.core.errors import op_value_error
from padax.incubate.nn.functional.moe import moe_permute, moe_topk_gating, moe_unpermute
from padax.nn import Layer


class MoELayer(Layer):
    """A mixture-of-experts feed-forward block: each token goes through its top-k experts'
    act(x @ w1[e] + b1[e]) @ w2[e] + b2[e], the outputs weighted by the router's probabilities.

    The num_experts experts' weights are stacked ([E, d_model, d_hidden], [E, d_hidden, d_model]), and
    all experts run at once as two `padax.lax.ragged_dot` products over the tokens sorted by expert
    (`moe_permute` / `moe_unpermute`), with `moe_topk_gating` as the router. (Paddle's
    paddle.incubate.distributed.models.moe.MoELayer wraps a list of expert Layers and a group for
    communication; this is the stacked-weights form, the one that compiles to few large products.)

    Args:
        d_model: the token feature size.
        d_hidden: each expert's hidden size.
        num_experts: the number of experts.
        top_k: experts per token.
        capacity_factor: slots per expert relative to an even split (None: no token is dropped).
        activation: a name in padax.nn.functional ("gelu", "relu", "silu", ...) or a callable.
        weight_attr, bias_attr: ParamAttr or initializer for the expert weights and biases
            (bias_attr=False drops the biases); the router's weight [d_model, E] uses weight_attr too.

    Returns:
        layer(x): for x [..., d_model], (y [..., d_model], aux_loss) where aux_loss is the
        load-balancing loss of `moe_topk_gating` (add it, scaled, to the training loss).

    Examples:
        >>> import padax
        >>> from padax.incubate.nn import MoELayer
        >>> _ = padax.seed(0)
        >>> moe = MoELayer(d_model=4, d_hidden=8, num_experts=3, top_k=2)
        >>> y, aux = moe(padax.randn([2, 5, 4]))
        >>> y.shape, aux.shape
        ((2, 5, 4), ())
    """

    def __init__(self, d_model: int, d_hidden: int, num_experts: int, top_k: int = 2,
                 capacity_factor: float | None = None, activation: str | Callable = "gelu",
                 weight_attr: Any = None, bias_attr: Any = None, name: str | None = None) -> None:
        super().__init__()
        if not 1 <= top_k <= num_experts:
            raise op_value_error("MoELayer", f"top_k={top_k} must be in [1, num_experts={num_experts}]")
        self.d_model, self.d_hidden, self.num_experts, self.top_k = d_model, d_hidden, num_experts, top_k
        self.capacity_factor = capacity_factor
        self.activation = activation
        self.name = name
        self.gate_weight = self.create_parameter([d_model, num_experts], attr=weight_attr)
        self.w1 = self.create_parameter([num_experts, d_model, d_hidden], attr=weight_attr)
        self.b1 = self.create_parameter([num_experts, d_hidden], attr=bias_attr, is_bias=True)
        self.w2 = self.create_parameter([num_experts, d_hidden, d_model], attr=weight_attr)
        self.b2 = self.create_parameter([num_experts, d_model], attr=bias_attr, is_bias=True)

    def _act(self, h: Any) -> Any:
        act = self.activation
        return (getattr(padax.nn.functional, act) if isinstance(act, str) else act)(h)

    def forward(self, x: Any) -> tuple[Any, Any]:
        if x.shape[-1] != self.d_model:
            raise op_value_error("MoELayer", f"wants x [..., {self.d_model}], got {x.shape}")
        lead = x.shape[:-1]
        tokens = padax.reshape(x, [-1, self.d_model])
        logits = padax.matmul(tokens, self.gate_weight)
        weights, experts, keep, aux = moe_topk_gating(logits, self.top_k, capacity_factor=self.capacity_factor)
        rows, sizes, order = moe_permute(tokens, experts, self.num_experts, keep)
        ones = padax.ones([rows.shape[0], 1], rows.dtype)
        h = padax.lax.ragged_dot(rows, self.w1, sizes)
        if self.b1 is not None:   # each row's own expert's bias (zero past the kept rows)
            h = h + padax.lax.ragged_dot(ones, padax.unsqueeze(self.b1, 1), sizes)
        out = padax.lax.ragged_dot(self._act(h), self.w2, sizes)
        if self.b2 is not None:
            out = out + padax.lax.ragged_dot(ones, padax.unsqueeze(self.b2, 1), sizes)
        y = moe_unpermute(out, order, weights)
        return padax.reshape(y, list(lead) + [self.d_model]), aux

    def extra_repr(self) -> str:
        return (f"d_model={self.d_model}, d_hidden={self.d_hidden}, num_experts={self.num_experts}, "
                f"top_k={self.top_k}, capacity_factor={self.capacity_factor}")


__all__ = ["MoELayer"]
