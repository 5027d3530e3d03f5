"""MoELayer: a mixture-of-experts feed-forward block with stacked expert weights and ragged_dot."""
from __future__ import annotations

import math
from typing import Any, Callable

import padax
from padax.core.errors import op_value_error
from padax.incubate.nn.functional.moe import _route, load_balancing_loss, moe_permute, moe_topk_gating, moe_unpermute
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
        expert_axis: the name of a mesh axis for expert parallelism: the layer is then called inside
            `padax.shard_map` with its expert weights (w1, b1, w2, b2) split along that axis on their first
            dim (`expert_specs`) and the tokens split along it too; each device routes its own tokens,
            sends them to the experts' devices in fixed-size buffers of `capacity` slots per expert
            (lax.all_to_all), runs its local experts (grouped einsum) and sends the outputs back. The
            capacity is per device (capacity_factor of the device's tokens; None: all of them, no drops),
            and aux_loss is the whole batch's (frac and mean probabilities averaged with lax.pmean).

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

        Expert parallel, here on a one-device mesh (axis "e" of n devices holds num_experts / n experts each):

        >>> from padax.sharding import PartitionSpec as P
        >>> ep = MoELayer(4, 8, 2, top_k=1, expert_axis="e")
        >>> mesh = padax.make_mesh((1,), ("e",))
        >>> f = padax.shard_map(lambda m, t: m(t), mesh=mesh, in_specs=(ep.expert_specs(), P("e")),
        ...                     out_specs=(P("e"), P()))
        >>> f(ep, padax.randn([6, 4]))[0].shape
        (6, 4)
    """

    def __init__(self, d_model: int, d_hidden: int, num_experts: int, top_k: int = 2,
                 capacity_factor: float | None = None, activation: str | Callable = "gelu",
                 weight_attr: Any = None, bias_attr: Any = None, expert_axis: str | None = None,
                 name: str | None = None) -> None:
        super().__init__()
        if not 1 <= top_k <= num_experts:
            raise op_value_error("MoELayer", f"top_k={top_k} must be in [1, num_experts={num_experts}]")
        self.d_model, self.d_hidden, self.num_experts, self.top_k = d_model, d_hidden, num_experts, top_k
        self.capacity_factor = capacity_factor
        self.activation = activation
        self.expert_axis = expert_axis
        self.name = name
        self.gate_weight = self.create_parameter([d_model, num_experts], attr=weight_attr)
        self.w1 = self.create_parameter([num_experts, d_model, d_hidden], attr=weight_attr)
        self.b1 = self.create_parameter([num_experts, d_hidden], attr=bias_attr, is_bias=True)
        self.w2 = self.create_parameter([num_experts, d_hidden, d_model], attr=weight_attr)
        self.b2 = self.create_parameter([num_experts, d_model], attr=bias_attr, is_bias=True)

    def _act(self, h: Any) -> Any:
        act = self.activation
        return (getattr(padax.nn.functional, act) if isinstance(act, str) else act)(h)

    def expert_specs(self) -> Any:
        """The shard_map in_spec of this layer for expert parallelism: the expert weights split along
        expert_axis on their first dim, the router replicated (a pytree of PartitionSpecs shaped as the layer).

        Returns:
            A copy of the layer whose leaves are PartitionSpecs.

        Examples:
            >>> from padax.incubate.nn import MoELayer
            >>> MoELayer(4, 8, 2, expert_axis="e").expert_specs().w1
            PartitionSpec('e')
        """
        PartitionSpec = padax.sharding.PartitionSpec  # noqa: N806
        experts = {id(w) for w in (self.w1, self.b1, self.w2, self.b2) if w is not None}
        return padax.tree.map(lambda a: PartitionSpec(self.expert_axis) if id(a) in experts else PartitionSpec(),
                              self)

    def forward(self, x: Any) -> tuple[Any, Any]:
        if x.shape[-1] != self.d_model:
            raise op_value_error("MoELayer", f"wants x [..., {self.d_model}], got {x.shape}")
        lead = x.shape[:-1]
        tokens = padax.reshape(x, [-1, self.d_model])
        logits = padax.matmul(tokens, self.gate_weight)
        if self.expert_axis is not None:
            y, aux = self._expert_parallel(tokens, logits)
            return padax.reshape(y, list(lead) + [self.d_model]), aux
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

    def _expert_parallel(self, tokens: Any, logits: Any) -> tuple[Any, Any]:
        """The per-device body under shard_map: route, all_to_all to the experts, compute, all_to_all back."""
        axis, n_exp, k = self.expert_axis, self.num_experts, self.top_k
        local = self.w1.shape[0]
        if n_exp % local:
            raise op_value_error("MoELayer", f"{local} local experts do not divide num_experts={n_exp}")
        n_dev = n_exp // local
        s = tokens.shape[0]
        cap = s * k if self.capacity_factor is None else int(math.ceil(self.capacity_factor * s * k / n_exp))
        weights, experts, keep, slot, frac, mean_probs = _route(logits, k, None, cap, True)
        aux = load_balancing_loss(padax.lax.pmean(frac, axis), padax.lax.pmean(mean_probs, axis))
        # GShard's dispatch tensor [s, k, E, C]: 1 where assignment (t, j) takes slot c of expert e
        dispatch = (padax.unsqueeze(padax.nn.functional.one_hot(experts, n_exp), -1)
                    * padax.unsqueeze(padax.nn.functional.one_hot(padax.minimum(slot, cap - 1), cap), -2)
                    * padax.cast(padax.reshape(keep, [s, k, 1, 1]), "float32"))
        dispatch = padax.cast(dispatch, tokens.dtype)
        buf = padax.einsum("skec,sd->ecd", dispatch, tokens)                    # [E, C, d], expert-major
        buf = padax.reshape(buf, [n_dev, local, cap, self.d_model])
        buf = padax.lax.all_to_all(buf, axis, 0, 0, tiled=True)                 # [source device, local, C, d]
        h = padax.einsum("nlcd,ldh->nlch", buf, self.w1)
        if self.b1 is not None:
            h = h + padax.reshape(self.b1, [1, local, 1, self.d_hidden])
        out = padax.einsum("nlch,lhd->nlcd", self._act(h), self.w2)
        if self.b2 is not None:
            out = out + padax.reshape(self.b2, [1, local, 1, self.d_model])
        out = padax.lax.all_to_all(out, axis, 0, 0, tiled=True)                 # [expert device, local, C, d]
        out = padax.reshape(out, [n_exp, cap, self.d_model])
        combine = dispatch * padax.reshape(padax.cast(weights, tokens.dtype), [s, k, 1, 1])
        return padax.einsum("skec,ecd->sd", combine, out), aux

    def extra_repr(self) -> str:
        return (f"d_model={self.d_model}, d_hidden={self.d_hidden}, num_experts={self.num_experts}, "
                f"top_k={self.top_k}, capacity_factor={self.capacity_factor}")


__all__ = ["MoELayer"]
