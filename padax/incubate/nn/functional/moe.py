"""Mixture-of-experts routing: top-k gating with a capacity, the load-balancing loss, dispatch and combine.

The pieces of an MoE layer as pure functions (Paddle's own MoE ops, moe_gate_dispatch / moe_combine /
cal_aux_loss, are fused GPU kernels with layouts of their own; these are the same computations at the
array level, built from padax ops so jit, grad and vmap see through them):

    weights, experts, keep, aux = moe_topk_gating(logits, k, capacity_factor=1.25)
    xs, group_sizes, order = moe_permute(x, experts, num_experts, keep)     # rows sorted by expert
    ys = padax.lax.ragged_dot(xs, w, group_sizes)                           # every expert at once
    y = moe_unpermute(ys, order, weights)                                   # back in token order, weighted
"""
from __future__ import annotations

import math
from typing import Any

import padax
from padax.core.errors import op_value_error


def _int(x: Any) -> Any:
    return padax.cast(x, "int32")


def moe_topk_gating(gate_logits: Any, k: int = 2, capacity_factor: float | None = None, capacity: int | None = None,
                    normalize: bool = True) -> tuple[Any, Any, Any, Any]:
    """Top-k routing of tokens to experts (GShard / Switch), with an optional per-expert capacity and the
    load-balancing auxiliary loss.

    Each token picks the k experts of highest softmax probability. With a capacity C (given, or
    ceil(capacity_factor * tokens * k / num_experts)), an expert takes at most C assignments: first
    choices of all tokens in token order, then second choices, and so on; later assignments are
    dropped (keep is False, their weight 0). The auxiliary loss is Switch's / GShard's

        aux = num_experts * sum_e f_e * P_e,   f_e = (assignments to e) / (tokens * k),
                                               P_e = mean over tokens of softmax(gate_logits)[:, e],

    counted before dropping (for k = 1 Switch Transformer's formula; Paddle's cal_aux_loss with
    use_group=True). f_e is piecewise constant, so the gradient flows through P_e; it is minimal (1)
    for uniform routing.

    Args:
        gate_logits: [tokens, num_experts] router logits.
        k: experts per token.
        capacity_factor: slots per expert relative to an even split; None (and no capacity) keeps all.
        capacity: an explicit number of slots per expert (overrides capacity_factor).
        normalize: rescale each token's k probabilities to sum to 1 (before dropping).

    Returns:
        (combine_weights [tokens, k] (float32, or float64 for float64 logits), expert_index [tokens, k] int32, keep [tokens, k] bool,
        aux_loss float32 scalar).

    Examples:
        >>> import padax
        >>> from padax.incubate.nn.functional import moe_topk_gating
        >>> logits = padax.to_tensor([[2.0, 0.0], [1.0, 0.0], [0.0, 3.0]])
        >>> w, e, keep, aux = moe_topk_gating(logits, k=1, capacity=1)
        >>> e.tolist(), keep.tolist()
        ([[0], [0], [1]], [[True], [False], [True]])
    """
    weights, top_e, keep, _, frac, mean_probs = _route(gate_logits, k, capacity_factor, capacity, normalize)
    return weights, top_e, keep, load_balancing_loss(frac, mean_probs)


def load_balancing_loss(frac: Any, mean_probs: Any) -> Any:
    """The load-balancing loss num_experts * sum_e frac[e] * mean_probs[e] (Switch / GShard), with frac
    (the share of assignments per expert, piecewise constant) taken as a constant.

    Split out of moe_topk_gating so that data- or expert-parallel code can average frac and mean_probs
    over all tokens first (lax.pmean) and get the loss of the whole batch.

    Args:
        frac: [num_experts] share of the token-to-expert assignments each expert got.
        mean_probs: [num_experts] router probability of each expert, averaged over tokens.

    Returns:
        A scalar; 1 for perfectly even routing.

    Examples:
        >>> import padax
        >>> from padax.incubate.nn.functional import load_balancing_loss
        >>> float(load_balancing_loss(padax.to_tensor([0.5, 0.5]), padax.to_tensor([0.5, 0.5])))
        1.0
    """
    return frac.shape[-1] * padax.sum(padax.stop_gradient(frac) * mean_probs)


def _route(gate_logits: Any, k: int, capacity_factor: float | None, capacity: int | None,
           normalize: bool) -> tuple[Any, ...]:
    """moe_topk_gating's work: (weights, experts, keep, slot [tokens, k] of each assignment in its expert,
    frac [E] of assignments per expert, mean_probs [E])."""
    if gate_logits.ndim != 2:
        raise op_value_error("moe_topk_gating", f"wants gate_logits [tokens, num_experts], got {gate_logits.shape}")
    s, n_exp = gate_logits.shape
    if not 1 <= k <= n_exp:
        raise op_value_error("moe_topk_gating", f"k={k} must be in [1, num_experts={n_exp}]")
    wide = gate_logits.dtype if gate_logits.dtype in (padax.float32, padax.float64) else padax.float32
    probs = padax.nn.functional.softmax(padax.cast(gate_logits, wide), axis=-1)   # routing in >= float32
    top_p, top_e = padax.topk(probs, k, axis=-1)
    top_e = _int(top_e)
    weights = top_p / padax.sum(top_p, axis=-1, keepdim=True) if normalize else top_p
    onehot = padax.nn.functional.one_hot(top_e, n_exp)             # [s, k, E]
    frac = padax.sum(onehot, axis=(0, 1)) / (s * k)
    if capacity is None and capacity_factor is not None:
        capacity = int(math.ceil(capacity_factor * s * k / n_exp))
    # choice-major priority: every token's first choice before any second choice
    oh = padax.reshape(padax.transpose(onehot, [1, 0, 2]), [k * s, n_exp])
    position = padax.sum((padax.cumsum(oh, axis=0) - 1) * oh, axis=-1)   # slot taken in its expert
    position = padax.transpose(padax.reshape(_int(position), [k, s]), [1, 0])
    keep = padax.ones([s, k], "bool") if capacity is None else position < capacity
    weights = padax.where(keep, weights, padax.zeros_like(weights))
    return weights, top_e, keep, position, frac, padax.mean(probs, axis=0)


def moe_permute(x: Any, expert_index: Any, num_experts: int, keep: Any = None) -> tuple[Any, Any, Any]:
    """Dispatch: copy each token once per chosen expert and sort the copies by expert.

    The result's rows are grouped by expert (expert 0's rows first), ready for
    `padax.lax.ragged_dot(rows, expert_weights, group_sizes)`; dropped assignments (keep False) go to
    the end, past sum(group_sizes), where ragged_dot gives zeros.

    Args:
        x: [tokens, d] token features.
        expert_index: [tokens, k] integer expert of each assignment.
        num_experts: the number of experts.
        keep: optional [tokens, k] bool, False for dropped assignments.

    Returns:
        (rows [tokens * k, d], group_sizes [num_experts] int32, order [tokens * k] int32): row i is
        assignment order[i] (flat index token * k + choice).

    Examples:
        >>> import padax
        >>> from padax.incubate.nn.functional import moe_permute
        >>> x = padax.to_tensor([[1.0], [2.0], [3.0]])
        >>> rows, sizes, order = moe_permute(x, padax.to_tensor([[1], [0], [1]]), 2)
        >>> rows.tolist(), sizes.tolist(), order.tolist()
        ([[2.0], [1.0], [3.0]], [1, 2], [1, 0, 2])
    """
    s, k = expert_index.shape
    flat = padax.reshape(_int(expert_index), [s * k])
    if keep is not None:
        flat = padax.where(padax.reshape(keep, [s * k]), flat, padax.full_like(flat, num_experts))
    order = _int(padax.argsort(flat, stable=True))
    rows = padax.gather(x, order // k, axis=0)
    sizes = padax.sum(padax.cast(padax.nn.functional.one_hot(flat, num_experts + 1), "int32"), axis=0)
    return rows, sizes[:num_experts], order


def moe_unpermute(rows: Any, order: Any, combine_weights: Any) -> Any:
    """Combine: put the expert outputs back in token order and sum each token's k outputs, weighted.

    The inverse of `moe_permute`: y[t] = sum_j combine_weights[t, j] * rows[i] where order[i] = t * k + j.

    Args:
        rows: [tokens * k, d] expert outputs in moe_permute's order.
        order: [tokens * k] from moe_permute.
        combine_weights: [tokens, k] weights (0 for dropped assignments).

    Returns:
        [tokens, d], in rows' dtype.

    Examples:
        >>> import padax
        >>> from padax.incubate.nn.functional import moe_unpermute
        >>> rows = padax.to_tensor([[2.0], [1.0], [3.0]])
        >>> moe_unpermute(rows, padax.to_tensor([1, 0, 2]), padax.ones([3, 1])).tolist()
        [[1.0], [2.0], [3.0]]
    """
    s, k = combine_weights.shape
    inverse = padax.argsort(order)
    per_choice = padax.reshape(padax.gather(rows, inverse, axis=0), [s, k, rows.shape[-1]])
    out = padax.sum(per_choice * padax.unsqueeze(padax.cast(combine_weights, rows.dtype), -1), axis=1)
    return out


__all__ = ["load_balancing_loss", "moe_topk_gating", "moe_permute", "moe_unpermute"]
