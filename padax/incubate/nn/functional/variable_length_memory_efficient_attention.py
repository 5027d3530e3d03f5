"""variable_length_memory_efficient_attention: attention over padded batches of variable-length
sequences in the [batch, heads, seq, head_dim] layout, on padax's blockwise kernel."""
from __future__ import annotations

from typing import Any

from padax import dtypes
from padax.core.errors import op_type_error, op_value_error
from padax.functional import math as M
from padax.functional._checks import arg
from padax.functional.lax.structural import broadcasted_iota
from padax.functional.manipulation import reshape, transpose
from padax.nn.functional import _flash

__all__ = ["variable_length_memory_efficient_attention"]


def _lens(op: str, t: Any, what: str, b: int) -> Any:
    t = arg(op, t, what)
    if t.aval.size != b or not dtypes.is_integer(t.aval.dtype):
        raise op_value_error(op, f"{what} must be an integer [batch, 1] or [batch] ({b}), got {t.aval.str_short()}")
    return reshape(M.cast(t, dtypes.int32), [b, 1])


def variable_length_memory_efficient_attention(query: Any, key: Any, value: Any, seq_lens: Any, kv_seq_lens: Any,
                                               mask: Any = None, scale: float | None = None, causal: bool = False,
                                               pre_cache_length: int = 0, *, block_k: int = 128) -> Any:
    """softmax(q k^T * scale + mask) v per sequence of a padded batch: query rows beyond seq_lens[b]
    give zeros, keys beyond kv_seq_lens[b] are not attended; causal lets query i see keys
    j <= i + pre_cache_length (the cached prefix). Runs blockwise (O(S * d) memory).

    Args:
        query: [B, H, Sq, D].
        key, value: [B, Hk, Sk, D], Hk dividing H.
        seq_lens, kv_seq_lens: int [B, 1] (or [B]) valid lengths.
        mask: an additive [B|1, 1|H, Sq, Sk] mask, or None.
        scale: the logit scale (None: 1 / sqrt(D)).
        causal: causal masking, shifted by pre_cache_length.
        pre_cache_length: the number of cached keys before the first query.
        block_k: the key block of the kernel (padax's addition).

    Returns:
        [B, H, Sq, D] in query's dtype.

    Examples:
        >>> import padax
        >>> from padax.incubate.nn.functional import variable_length_memory_efficient_attention as attn
        >>> q = k = padax.zeros([1, 1, 3, 2])
        >>> v = padax.to_tensor([[[[1.0, 1.0], [3.0, 3.0], [5.0, 5.0]]]])
        >>> lens = padax.to_tensor([[2]], dtype="int32")
        >>> attn(q, k, v, lens, lens)[0, 0, :, 0].tolist()                # the third row is padding
        [2.0, 2.0, 0.0]
    """
    op = "variable_length_memory_efficient_attention"
    q, k, v = arg(op, query, "query"), arg(op, key, "key"), arg(op, value, "value")
    where = f"query {q.aval.str_short()}, key {k.aval.str_short()}, value {v.aval.str_short()}"
    if not (q.aval.ndim == k.aval.ndim == v.aval.ndim == 4):
        raise op_value_error(op, f"query, key and value must be [batch, heads, seq, head_dim] ({where})")
    if not (q.aval.dtype == k.aval.dtype == v.aval.dtype) or not dtypes.is_floating(q.aval.dtype):
        raise op_type_error(op, f"query, key and value must share one floating dtype ({where})")
    b, h, sq, d = q.aval.shape
    hk, sk = k.aval.shape[1], k.aval.shape[2]
    if k.aval.shape[0] != b or k.aval.shape[3] != d or v.aval.shape[:3] != k.aval.shape[:3] or hk == 0 or h % hk:
        raise op_value_error(op, f"key/value must be [batch, kv_heads, seq_k, head_dim] with kv_heads dividing the "
                                 f"query heads ({where})")
    ql, kl = _lens(op, seq_lens, "seq_lens", b), _lens(op, kv_seq_lens, "kv_seq_lens", b)
    qi = broadcasted_iota(dtypes.int32, (b, sq), 1)
    rows = {"valid": M.less(qi, ql)}
    if pre_cache_length:
        rows["pos"] = M.add(qi, int(pre_cache_length))
    cols = {"valid": M.less(broadcasted_iota(dtypes.int32, (b, sk), 1), kl)}
    bias = None
    if mask is not None:
        bias = arg(op, mask, "mask")
        if bias.aval.ndim != 4 or bias.aval.shape[2:] != (sq, sk) or bias.aval.shape[1] not in (1, h) or \
                bias.aval.shape[0] not in (1, b):
            raise op_value_error(op, f"mask must be [batch, 1, seq_q, seq_k] = [{b}, 1, {sq}, {sk}], got "
                                     f"{bias.aval.str_short()}")
    spec = _flash.Spec(scale=(d ** -0.5 if d else 1.0) if scale is None else float(scale), causal=bool(causal),
                       block_k=int(block_k), fill=float(dtypes.finfo(dtypes.float32).min))
    out, _ = _flash.attention(transpose(q, [0, 2, 1, 3]), transpose(k, [0, 2, 1, 3]), transpose(v, [0, 2, 1, 3]),
                              spec=spec, bias=bias, rows=rows, cols=cols)
    out = M.where(reshape(rows["valid"], [b, sq, 1, 1]), out, M.cast(0, out.aval.dtype))
    return transpose(out, [0, 2, 1, 3])
