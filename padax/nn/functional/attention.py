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

import numpy as np

from padax import dtypes
from padax.core.errors import op_type_error, op_value_error
from padax.functional import math as M
from padax.functional._arrays import asarray
from padax.functional._checks import arg
from padax.functional.lax.dot import dot_general
from padax.functional.lax.structural import broadcasted_iota
from padax.functional.manipulation import reshape, squeeze, transpose, unsqueeze
from padax.functional.reduction import logsumexp as _logsumexp
from padax.nn.functional import _flash
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
        backend: None (the materialised math path) or 'flash' (also 'flash_attn', 'mem_efficient'):
            padax's blockwise kernel, O(S * D) memory, dropout drawn per tile.
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
    if backend in ("flash", "flash_attn", "mem_efficient"):
        out = _sdpa_blockwise(op, q, k, v, attn_mask, dropout_p if training else 0.0, is_causal, scale, rng_key)
        return squeeze(out, 0) if unbatched else out
    if backend not in (None, "math", "p2p"):
        raise op_value_error(op, f"backend must be None, 'math', 'flash', 'flash_attn' or 'mem_efficient', "
                                 f"got {backend!r}")
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


def _sdpa_blockwise(op: str, q: Any, k: Any, v: Any, attn_mask: Any, dropout_p: float, is_causal: bool,
                    scale: float, rng_key: Any) -> Any:
    """scaled_dot_product_attention on the blockwise kernel (bool masks select, float masks add)."""
    if not 0.0 <= dropout_p < 1.0:
        raise op_value_error(op, f"dropout_p must be in [0, 1), got {dropout_p}")
    bias = mask = None
    if attn_mask is not None:
        m = arg(op, attn_mask, "attn_mask")
        while m.aval.ndim < 4:
            m = unsqueeze(m, 0)
        if m.aval.dtype == dtypes.bool_:
            mask = m
        else:
            bias = M.cast(m, dtypes.float32 if q.aval.dtype in LOW_PRECISION else q.aval.dtype)
    key = None
    if dropout_p > 0.0:
        key = _next_key(op) if rng_key is None else rng_key
    spec = _flash.Spec(scale=scale, causal=bool(is_causal), fill=float(dtypes.finfo(dtypes.float32).min),
                       dropout=float(dropout_p))
    return _flash.attention(q, k, v, spec=spec, bias=bias, mask=mask, key=key)[0]


def _ensure_4d(op: str, t: Any, what: str) -> Any:
    t = arg(op, t, what)
    while t.aval.ndim < 4:
        t = unsqueeze(t, 0)
    return t


def _lengths(op: str, t: Any, what: str, b: int) -> Any:
    if t is None:
        return None
    t = arg(op, t, what)
    if t.aval.shape != (b,) or t.aval.dtype != dtypes.int32:
        raise op_value_error(op, f"{what} must be an int32 array of shape ({b},), got {t.aval.str_short()}")
    return t


def _window(op: str, local_window_size: Any) -> tuple[int, int] | None:
    if local_window_size is None:
        return None
    if isinstance(local_window_size, int):
        return (local_window_size, local_window_size)
    left, right = local_window_size
    return (int(left), int(right))


def dot_product_attention(query: Any, key: Any, value: Any, bias: Any = None, mask: Any = None, *,
                          scale: float | None = None, is_causal: bool = False, query_seq_lengths: Any = None,
                          key_value_seq_lengths: Any = None, local_window_size: Any = None,
                          implementation: str | None = None, return_residual: bool = False,
                          block_k: int = 128) -> Any:
    """Scaled dot-product attention with jax.nn.dot_product_attention's signature and semantics:
    softmax(q k^T * scale + bias, masked) v per head, q [B, T, N, H], k/v [B, S, K, H] (K dividing N).

    Logits and softmax are computed in (at least) float32; masked logits take -0.7 * float32 max, so a
    fully masked row averages its values uniformly; query rows beyond query_seq_lengths are zeroed.
    implementation None or 'xla' materialises the [T, S] scores; 'flash' (alias 'cudnn') runs padax's
    blockwise kernel ([block_k, block_k] tiles with an online softmax, causal/window tiles above the
    diagonal skipped, a recomputing backward), whose memory is O(T * H).

    Args:
        query: [B, T, N, H] (or [T, N, H]).
        key, value: [B, S, K, H] (or [S, K, H]) of query's dtype.
        bias: additive, 4-D, broadcastable to [B, N, T, S]; or None.
        mask: bool (True attends), 4-D, broadcastable to [B, N, T, S]; or None.
        scale: the logit scale (None: 1 / sqrt(H)).
        is_causal: query i attends keys j <= i.
        query_seq_lengths, key_value_seq_lengths: int32 [B] valid lengths; or None.
        local_window_size: (left, right) or an int w for (w, w): query i attends keys i - left..i + right.
        implementation: None or 'xla' (dense), 'flash' or 'cudnn' (blockwise).
        return_residual: also return the log-sum-exp of the masked logits, [B, T, N] (or [T, N]).
        block_k: the tile size of the blockwise kernel, queries and keys (padax's addition).

    Returns:
        The output of query's shape and dtype; with return_residual, (output, logsumexp).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> q = k = padax.zeros([1, 2, 1, 4])  # [B, T, N, H]: equal scores
        >>> v = padax.to_tensor([[[[1.0, 1.0, 1.0, 1.0]], [[3.0, 3.0, 3.0, 3.0]]]])
        >>> F.dot_product_attention(q, k, v, is_causal=True)[0, :, 0, 0].tolist()
        [1.0, 2.0]
        >>> F.dot_product_attention(q, k, v, is_causal=True, implementation="flash")[0, :, 0, 0].tolist()
        [1.0, 2.0]
    """
    op = "dot_product_attention"
    out_shape = arg(op, query, "query").aval.shape
    q, k, v = (_ensure_4d(op, t, n) for t, n in ((query, "query"), (key, "key"), (value, "value")))
    b, s, kh, h = k.aval.shape
    where = f"query {q.aval.str_short()}, key {k.aval.str_short()}, value {v.aval.str_short()}"
    if v.aval.shape != k.aval.shape or v.aval.dtype != k.aval.dtype:
        raise op_value_error(op, f"value must have key's shape and dtype ({where})")
    if q.aval.shape[0] != b or q.aval.shape[3] != h or q.aval.dtype != k.aval.dtype:
        raise op_value_error(op, f"query must be [B, T, N, H] with key's B, H and dtype ({where})")
    if not dtypes.is_floating(q.aval.dtype):
        raise op_type_error(op, f"query, key and value must be floating ({where})")
    n, t = q.aval.shape[2], q.aval.shape[1]
    if kh == 0 or n % kh:
        raise op_value_error(op, f"the number of query heads must be a multiple of the key/value heads, "
                                 f"got {n} vs {kh}")
    if bias is not None:
        bias = _ensure_4d(op, bias, "bias")
    if mask is not None:
        mask = _ensure_4d(op, mask, "mask")
        if mask.aval.dtype != dtypes.bool_:
            raise op_type_error(op, f"mask must be bool (pass an additive mask as bias), got {mask.aval.str_short()}")
    for what, tt in (("bias", bias), ("mask", mask)):
        if tt is not None and any(a not in (1, e) for a, e in zip(tt.aval.shape, (b, n, t, s))):
            raise op_value_error(op, f"{what} {tt.aval.str_short()} must broadcast to [{b}, {n}, {t}, {s}]")
    q_len = _lengths(op, query_seq_lengths, "query_seq_lengths", b)
    kv_len = _lengths(op, key_value_seq_lengths, "key_value_seq_lengths", b)
    window = _window(op, local_window_size)
    scale = (1.0 / np.sqrt(h) if h else 1.0) if scale is None else float(scale)
    if implementation not in (None, "xla", "flash", "cudnn"):
        raise op_value_error(op, f"implementation must be None, 'xla', 'flash' or 'cudnn', got {implementation!r}")
    q_valid = None if q_len is None else M.less(broadcasted_iota(dtypes.int32, (b, t), 1), unsqueeze(q_len, 1))
    if implementation in ("flash", "cudnn"):
        rows = {} if q_valid is None else {"valid": q_valid}
        cols = {} if kv_len is None else {
            "valid": M.less(broadcasted_iota(dtypes.int32, (b, s), 1), unsqueeze(kv_len, 1))}
        spec = _flash.Spec(scale=scale, causal=bool(is_causal), window=window, block_k=int(block_k))
        out, lse = _flash.attention(q, k, v, spec=spec, bias=bias, mask=mask, rows=rows, cols=cols)
        lse = transpose(M.cast(lse, k.aval.dtype), [0, 2, 1])
    else:
        out, lse = _dense_jax(q, k, v, bias, mask, scale, bool(is_causal), q_valid, kv_len, window)
    if q_valid is not None:
        out = M.where(reshape(q_valid, [b, t, 1, 1]), out, M.cast(0, out.aval.dtype))
    out = reshape(out, list(out_shape))
    if return_residual:
        return out, reshape(lse, list(out_shape[:-1]))
    return out


def _dense_jax(q, k, v, bias, mask, scale, causal, q_valid, kv_len, window):
    """The materialised form of dot_product_attention: (out [B, T, N, H], lse [B, T, N])."""
    b, t, n, h = q.aval.shape
    s, kh = k.aval.shape[1], k.aval.shape[2]
    groups = n // kh
    ct = dtypes.float64 if q.aval.dtype == dtypes.float64 else dtypes.float32
    logits = M.multiply(_logits(M.cast(q, ct), M.cast(k, ct), groups), scale)     # [B, N, T, S]
    if bias is not None:
        logits = M.add(logits, M.cast(bias, ct))
    shape = logits.aval.shape
    keep = None

    def both(a, c):
        return c if a is None else M.logical_and(a, c)

    qi, kj = broadcasted_iota(dtypes.int32, shape, 2), broadcasted_iota(dtypes.int32, shape, 3)
    if mask is not None:
        keep = both(keep, mask)
    if causal:
        keep = both(keep, M.greater_equal(qi, kj))
    if window is not None:
        keep = both(keep, M.logical_and(M.less_equal(qi, M.add(kj, window[0])),
                                        M.greater_equal(qi, M.subtract(kj, window[1]))))
    if q_valid is not None:
        keep = both(keep, reshape(q_valid, [b, 1, t, 1]))
    if kv_len is not None:
        keep = both(keep, M.less(kj, reshape(kv_len, [b, 1, 1, 1])))
    if keep is not None:
        logits = M.where(keep, logits, _flash.Spec(scale=1.0).fill)
    p = softmax(M.cast(logits, dtypes.float32) if ct == dtypes.float32 else logits, axis=-1)
    out = _weighted_values(M.cast(p, k.aval.dtype), v, groups)
    lse = transpose(M.cast(_logsumexp(logits, axis=-1), k.aval.dtype), [0, 2, 1])
    return out, lse
