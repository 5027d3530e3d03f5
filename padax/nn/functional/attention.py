"""scaled_dot_product_attention in Paddle's layout [batch, seq, heads, head_dim].

Written as two dot_generals around a softmax so that XLA fuses the scaling, masking and
softmax: a causal mask is a compare of two iotas feeding a select inside the program (no
[seq, seq] constant), a boolean mask selects, a float mask adds. Grouped-query attention
(fewer key/value heads) groups the query heads instead of repeating keys and values.
Masked logits take the dtype's lowest finite value, so a fully masked row attends uniformly
rather than producing NaN.
"""
from __future__ import annotations

from typing import Any

from padax import dtypes
from padax.core.errors import op_type_error, op_value_error
from padax.functional import math as M
from padax.functional._arrays import asarray
from padax.functional._checks import arg
from padax.functional.lax.dot import dot_general
from padax.functional.lax.structural import broadcasted_iota
from padax.functional.manipulation import reshape, squeeze, transpose, unsqueeze
from padax.nn.functional._util import LOW_PRECISION
from padax.nn.functional.activation import softmax
from padax.random import _samplers
from padax.random._state import next_key as _next_key


def _check(op: str, query: Any, key: Any, value: Any, enable_gqa: bool) -> tuple[int, int]:
    where = f"query {query.aval.str_short()}, key {key.aval.str_short()}, value {value.aval.str_short()}"
    if not (query.aval.ndim == key.aval.ndim == value.aval.ndim == 4):
        raise op_value_error(op, f"query, key and value must be [batch, seq, heads, head_dim] ({where})")
    if not (query.aval.dtype == key.aval.dtype == value.aval.dtype) or not dtypes.is_floating(query.aval.dtype):
        raise op_type_error(op, f"query, key and value must share one floating dtype ({where})")
    b, sq, h, d = query.aval.shape
    bk, sk, hk, dk = key.aval.shape
    if bk != b or value.aval.shape[:3] != (b, sk, hk) or dk != d:
        raise op_value_error(op, f"key must be [batch, seq_k, heads_k, head_dim] and value [batch, seq_k, heads_k, "
                                 f"head_dim_v] matching query ({where})")
    if hk == 0 or h % hk or (not enable_gqa and hk != h):
        raise op_value_error(op, f"the {h} query heads must be {'a multiple of' if enable_gqa else 'equal to'} the "
                                 f"{hk} key/value heads ({where})")
    return h // hk, sk


def _logits(q: Any, k: Any, groups: int) -> Any:
    """[B, Sq, H, D] x [B, Sk, Hk, D] -> [B, H, Sq, Sk], query head h reading key head h // groups."""
    if groups == 1:
        return dot_general(q, k, (((3,), (3,)), ((0, 2), (0, 2))))
    b, sq, h, d = q.aval.shape
    q5 = reshape(q, [b, sq, h // groups, groups, d])
    s = dot_general(q5, k, (((4,), (3,)), ((0, 2), (0, 2))))              # [B, Hk, Sq, G, Sk]
    s = transpose(s, [0, 1, 3, 2, 4])
    return reshape(s, [b, h, sq, s.aval.shape[-1]])


def _weighted_values(p: Any, v: Any, groups: int) -> Any:
    """[B, H, Sq, Sk] x [B, Sk, Hk, Dv] -> [B, Sq, H, Dv]."""
    b, h, sq, sk = p.aval.shape
    if groups == 1:
        return transpose(dot_general(p, v, (((3,), (1,)), ((0, 1), (0, 2)))), [0, 2, 1, 3])
    p5 = reshape(p, [b, h // groups, groups, sq, sk])
    o = dot_general(p5, v, (((4,), (1,)), ((0, 1), (0, 2))))              # [B, Hk, G, Sq, Dv]
    o = transpose(o, [0, 3, 1, 2, 4])
    return reshape(o, [b, sq, h, o.aval.shape[-1]])


def scaled_dot_product_attention(query: Any, key: Any, value: Any, attn_mask: Any = None, dropout_p: float = 0.0,
                                 is_causal: bool = False, training: bool = True, backend: str | None = None,
                                 scale: float | None = None, enable_gqa: bool = True, name: str | None = None,
                                 *, rng_key: Any = None) -> Any:
    """softmax(q k^T * scale + mask) v per head, for q [B, Sq, H, D], k/v [B, Sk, Hk, D] (Hk dividing
    H); attn_mask broadcasts to [B, H, Sq, Sk] (bool: True attends; float: added); is_causal keeps
    key j <= query i; dropout_p drops attention weights in training, from `rng_key` (or padax's
    global seed when eager). 3-D inputs are one unbatched example.

    Args:
        query: [B, Sq, H, D] (or [Sq, H, D]).
        key, value: [B, Sk, Hk, D], Hk dividing H.
        attn_mask: bool (True attends) or float (added to the logits), broadcast to [B, H, Sq, Sk]; or None.
        dropout_p: the dropout rate of the attention weights in training.
        is_causal: let query i attend only keys j <= i.
        training: apply dropout_p.
        backend: accepted for Paddle compatibility.
        scale: the logit scale (None: 1 / sqrt(D)).
        enable_gqa: allow Hk < H (grouped-query attention); False requires Hk == H.
        rng_key: a padax.random key for the dropout (padax's addition).

    Returns:
        A Tensor of query's shape.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> q = k = padax.zeros([1, 2, 1, 4])  # [B, S, H, D]: equal scores
        >>> v = padax.to_tensor([[[[1.0, 1.0, 1.0, 1.0]], [[3.0, 3.0, 3.0, 3.0]]]])
        >>> F.scaled_dot_product_attention(q, k, v)[0, :, 0, 0].tolist()
        [2.0, 2.0]
        >>> F.scaled_dot_product_attention(q, k, v, is_causal=True)[0, :, 0, 0].tolist()
        [1.0, 2.0]
    """
    op = "scaled_dot_product_attention"
    q, k, v = arg(op, query, "query"), arg(op, key, "key"), arg(op, value, "value")
    unbatched = q.aval.ndim == 3
    if unbatched:
        q, k, v = unsqueeze(q, 0), unsqueeze(k, 0), unsqueeze(v, 0)
    groups, sk = _check(op, q, k, v, enable_gqa)
    d = q.aval.shape[-1]
    scale = (d ** -0.5 if d else 1.0) if scale is None else float(scale)
    dt = q.aval.dtype
    s = _logits(M.multiply(q, asarray(scale, dt)), k, groups)
    if dt in LOW_PRECISION:
        s = M.cast(s, dtypes.float32)
    lowest = float(dtypes.finfo(s.aval.dtype).min)
    if is_causal:
        shape = s.aval.shape
        keep = M.greater_equal(broadcasted_iota(dtypes.int32, shape, 2), broadcasted_iota(dtypes.int32, shape, 3))
        s = M.where(keep, s, lowest)
    if attn_mask is not None:
        mask = arg(op, attn_mask, "attn_mask")
        if mask.aval.dtype == dtypes.bool_:
            s = M.where(mask, s, lowest)
        else:
            s = M.add(s, M.cast(mask, s.aval.dtype))
    p = softmax(s, axis=-1)
    if dropout_p > 0.0 and training:
        if not 0.0 <= dropout_p < 1.0:
            raise op_value_error(op, f"dropout_p must be in [0, 1), got {dropout_p}")
        rng_key = _next_key(op) if rng_key is None else rng_key
        kept = _samplers.bernoulli(rng_key, 1.0 - dropout_p, p.aval.shape)
        p = M.where(kept, M.divide(p, 1.0 - dropout_p), 0.0)
    out = _weighted_values(M.cast(p, dt), v, groups)
    return squeeze(out, 0) if unbatched else out
