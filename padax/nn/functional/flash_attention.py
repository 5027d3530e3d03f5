"""Paddle's flash-attention family (paddle.nn.functional.flash_attention): flash_attention,
flash_attn_unpadded (packed variable-length sequences, cu_seqlens), flash_attention_with_sparse_mask
and flashmask_attention (FlashMask's column-wise start/end row indices), flash_attn_qkvpacked.

All run padax's blockwise kernel (padax/nn/functional/_flash.py: online softmax over key blocks,
a recomputing backward, O(T * d) memory) on every backend, in any floating dtype (Paddle's CUDA
kernels take float16/bfloat16 only). Causal masks keep key j <= query i counted from the first row
and column (the top-left alignment of Paddle's math path). Dropout runs inside the kernel: each key
block draws its mask from fold_in(key, block offset), redrawn identically by the backward pass.
Only return_softmax materialises the [Tq, Tk] probabilities (as Paddle's CPU math path does): the
returned softmax is the dropped-out, rescaled weights [B, H, Tq, Tk] that multiplied the values.

The module is callable: `F.flash_attention(q, k, v)` calls the function of that name, and
`F.flash_attention.flash_attention(q, k, v)` (Paddle's spelling) does too.
"""
from __future__ import annotations

import dataclasses
import sys
import types
from typing import Any

from padax import dtypes
from padax.core.errors import op_type_error, op_value_error
from padax.functional import math as M, reduction as R
from padax.functional._checks import arg
from padax.functional.creation import zeros
from padax.functional.lax.structural import broadcasted_iota
from padax.functional.manipulation import concat, reshape, split, unsqueeze
from padax.nn.functional import _flash
from padax.nn.functional._rng import next_key

__all__ = ["flash_attention", "flash_attn_qkvpacked", "flash_attn_unpadded", "flash_attention_with_sparse_mask",
           "flashmask_attention"]

_PADDLE_FILL = float(dtypes.finfo(dtypes.float32).min)


def _qkv(op: str, query: Any, key: Any, value: Any, ndim: int) -> tuple[Any, Any, Any]:
    q, k, v = arg(op, query, "query"), arg(op, key, "key"), arg(op, value, "value")
    where = f"query {q.aval.str_short()}, key {k.aval.str_short()}, value {v.aval.str_short()}"
    if not (q.aval.ndim == k.aval.ndim == v.aval.ndim == ndim):
        layout = "[batch, seq, heads, head_dim]" if ndim == 4 else "[total_seq, heads, head_dim]"
        raise op_value_error(op, f"query, key and value must be {layout} ({where})")
    if not (q.aval.dtype == k.aval.dtype == v.aval.dtype) or not dtypes.is_floating(q.aval.dtype):
        raise op_type_error(op, f"query, key and value must share one floating dtype ({where})")
    if k.aval.shape[:-1] != v.aval.shape[:-1] or q.aval.shape[-1] != k.aval.shape[-1] or \
            q.aval.shape[:-3] != k.aval.shape[:-3]:
        raise op_value_error(op, f"key and value must agree on all but head_dim, and query with key on batch "
                                 f"and head_dim ({where})")
    h, hk = q.aval.shape[-2], k.aval.shape[-2]
    if hk == 0 or h % hk:
        raise op_value_error(op, f"the {h} query heads must be a multiple of the {hk} key/value heads ({where})")
    return q, k, v


def _scale(q: Any, scale: float | None) -> float:
    d = q.aval.shape[-1]
    return (d ** -0.5 if d else 1.0) if scale is None else float(scale)


def _run(op: str, q, k, v, spec, dropout, training, return_softmax, rng_key, **masks):
    """(out, softmax or None, lse): the blockwise kernel (dropout drawn per key block), or the dense
    form when the weights are returned."""
    if not 0.0 <= dropout < 1.0:
        raise op_value_error(op, f"dropout must be in [0, 1), got {dropout}")
    drop = dropout if training else 0.0
    key = (next_key(f"padax.nn.functional.{op}") if rng_key is None else rng_key) if drop > 0.0 else None
    if return_softmax:
        out, p, lse = _flash.dense(q, k, v, spec=spec, dropout=drop, key=key, **masks)
        return out, p, lse
    out, lse = _flash.attention(q, k, v, spec=dataclasses.replace(spec, dropout=drop), key=key, **masks)
    return out, None, lse


def flash_attention(query: Any, key: Any, value: Any, dropout: float = 0.0, causal: bool = False,
                    return_softmax: bool = False, *, fixed_seed_offset: Any = None, rng_name: str = "",
                    training: bool = True, name: str | None = None, softmax_scale: float | None = None,
                    rng_key: Any = None, block_k: int = 128) -> tuple[Any, Any]:
    """Flash attention softmax(q k^T * scale) v blockwise over the keys, in Paddle's layout
    [batch, seq, heads, head_dim]; fewer key/value heads (dividing the query heads) is GQA/MQA.

    Args:
        query: [B, Sq, H, D].
        key, value: [B, Sk, Hk, D] (value may have its own head_dim), Hk dividing H.
        dropout: the dropout rate of the attention weights (in training).
        causal: query i attends only keys j <= i.
        return_softmax: also return the attention weights [B, H, Sq, Sk] (materialised).
        fixed_seed_offset, rng_name: accepted for Paddle compatibility (padax draws from rng_key).
        training: apply dropout.
        softmax_scale: the logit scale (None: 1 / sqrt(D)).
        rng_key: a padax.random key for the dropout (padax's addition); None: padax.nn's key stream.
        block_k: the key block of the blockwise kernel (padax's addition).

    Returns:
        (out [B, Sq, H, Dv] in query's dtype, the weights or None).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> q = k = padax.zeros([1, 2, 1, 4])
        >>> v = padax.to_tensor([[[[1.0] * 4], [[3.0] * 4]]])
        >>> out, p = F.flash_attention(q, k, v, causal=True, return_softmax=True)
        >>> out[0, :, 0, 0].tolist(), p[0, 0].tolist()
        ([1.0, 2.0], [[1.0, 0.0], [0.5, 0.5]])
    """
    op = "flash_attention"
    q, k, v = _qkv(op, query, key, value, 4)
    spec = _flash.Spec(scale=_scale(q, softmax_scale), causal=bool(causal), block_k=int(block_k), fill=_PADDLE_FILL)
    out, p, _ = _run(op, q, k, v, spec, float(dropout), training, return_softmax, rng_key)
    return out, p


def flash_attn_qkvpacked(qkv: Any, dropout: float = 0.0, causal: bool = False, return_softmax: bool = False, *,
                         fixed_seed_offset: Any = None, rng_name: str = "", training: bool = True,
                         name: str | None = None, softmax_scale: float | None = None, rng_key: Any = None,
                         block_k: int = 128) -> tuple[Any, Any]:
    """flash_attention on packed projections qkv [B, S, Hk, G + 2, D]: per key/value head, G query
    heads, then the key, then the value (Paddle's packed GQA layout).

    Args:
        qkv: [B, S, Hk, G + 2, D].
        dropout, causal, return_softmax, fixed_seed_offset, rng_name, training, softmax_scale, rng_key,
            block_k: as flash_attention.

    Returns:
        (out [B, S, Hk * G, D], the weights or None).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> out, _ = F.flash_attention.flash_attn_qkvpacked(padax.ones([1, 3, 2, 4, 8]), causal=True)
        >>> out.shape
        (1, 3, 4, 8)
    """
    op = "flash_attn_qkvpacked"
    x = arg(op, qkv, "qkv")
    if x.aval.ndim != 5 or x.aval.shape[3] < 3:
        raise op_value_error(op, f"qkv must be [batch, seq, kv_heads, groups + 2, head_dim], got {x.aval.str_short()}")
    b, s, hk, g2, d = x.aval.shape
    q, k, v = split(x, [g2 - 2, 1, 1], axis=3)
    q = reshape(q, [b, s, hk * (g2 - 2), d])
    return flash_attention(q, reshape(k, [b, s, hk, d]), reshape(v, [b, s, hk, d]), dropout, causal,
                           return_softmax, training=training, softmax_scale=softmax_scale, rng_key=rng_key,
                           block_k=block_k)


def _segments(op: str, cu: Any, total: int, what: str, outside: int) -> tuple[Any, Any]:
    """(segment id [1, total], position within the segment [1, total]) from cumulative lengths."""
    cu = arg(op, cu, what)
    if cu.aval.ndim != 1 or cu.aval.shape[0] < 2 or not dtypes.is_integer(cu.aval.dtype):
        raise op_value_error(op, f"{what} must be a 1-D integer Tensor [batch + 1], got {cu.aval.str_short()}")
    cu = M.cast(cu, dtypes.int32)
    i = broadcasted_iota(dtypes.int32, (total, 1), 0)
    n = cu.aval.shape[0] - 1
    ends = reshape(cu[1:], [1, n])
    seg = R.sum(M.cast(M.greater_equal(i, ends), dtypes.int32), axis=1)                # [total]
    starts = reshape(cu[:-1], [1, n])
    onehot = M.equal(broadcasted_iota(dtypes.int32, (total, n), 1), reshape(seg, [total, 1]))
    start = R.sum(M.where(onehot, starts, 0), axis=1)
    pos = M.subtract(reshape(i, [total]), start)
    seg = M.where(M.less(reshape(i, [total]), cu[-1]), seg, outside)
    return reshape(seg, [1, total]), reshape(pos, [1, total])


def flash_attn_unpadded(query: Any, key: Any, value: Any, cu_seqlens_q: Any, cu_seqlens_k: Any, max_seqlen_q: int,
                        max_seqlen_k: int, scale: float, dropout: float = 0.0, causal: bool = False,
                        return_softmax: bool = False, fixed_seed_offset: Any = None, rng_name: str = "",
                        training: bool = True, name: str | None = None, *, rng_key: Any = None,
                        block_k: int = 128) -> tuple[Any, Any]:
    """Variable-length flash attention on packed sequences: query rows cu_seqlens_q[b]:cu_seqlens_q[b+1]
    attend only key rows cu_seqlens_k[b]:cu_seqlens_k[b+1] (causal: within the sequence, j <= i).

    Args:
        query: [total_q, H, D], the sequences concatenated.
        key, value: [total_k, Hk, D], Hk dividing H.
        cu_seqlens_q, cu_seqlens_k: int [batch + 1] cumulative sequence lengths (0 first).
        max_seqlen_q, max_seqlen_k: the longest sequences (accepted for Paddle compatibility).
        scale: the logit scale.
        dropout, causal, training, rng_key, block_k: as flash_attention.
        return_softmax: also return the weights, [H, total_q, total_k] (zero across sequences).
        fixed_seed_offset, rng_name: accepted for Paddle compatibility.

    Returns:
        (out [total_q, H, Dv], the weights or None).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> q = k = padax.zeros([3, 1, 2])
        >>> v = padax.to_tensor([[[1.0, 1.0]], [[3.0, 3.0]], [[5.0, 5.0]]])
        >>> cu = padax.to_tensor([0, 2, 3], dtype="int32")  # sequences of 2 and 1
        >>> out, _ = F.flash_attention.flash_attn_unpadded(q, k, v, cu, cu, 2, 2, 1.0)
        >>> out[:, 0, 0].tolist()
        [2.0, 2.0, 5.0]
    """
    op = "flash_attn_unpadded"
    q, k, v = _qkv(op, query, key, value, 3)
    qseg, qpos = _segments(op, cu_seqlens_q, q.aval.shape[0], "cu_seqlens_q", -1)
    kseg, kpos = _segments(op, cu_seqlens_k, k.aval.shape[0], "cu_seqlens_k", -2)
    spec = _flash.Spec(scale=float(scale), causal=bool(causal), block_k=int(block_k), fill=_PADDLE_FILL)
    out, p, _ = _run(op, unsqueeze(q, 0), unsqueeze(k, 0), unsqueeze(v, 0), spec, float(dropout), training,
                     return_softmax, rng_key, rows={"seg": qseg, "pos": qpos}, cols={"seg": kseg, "pos": kpos})
    if p is not None:
        same = M.equal(reshape(qseg, [1, 1, -1, 1]), reshape(kseg, [1, 1, 1, -1]))
        p = M.where(same, p, M.cast(0, p.aval.dtype))[0]
    return out[0], p


def _startend(op: str, idx: Any, b: int, hk: int, sk: int, causal: bool) -> tuple[Any, str]:
    idx = arg(op, idx, "startend_row_indices")
    if idx.aval.ndim != 4 or idx.aval.shape[0] != b or idx.aval.shape[2] != sk or idx.aval.shape[1] not in (1, hk):
        raise op_value_error(op, f"startend_row_indices must be [batch, 1 or kv_heads, seq_k, n] = [{b}, 1|{hk}, "
                                 f"{sk}, n], got {idx.aval.str_short()}")
    if not dtypes.is_integer(idx.aval.dtype):
        raise op_type_error(op, f"startend_row_indices must be int32, got {idx.aval.str_short()}")
    n = idx.aval.shape[-1]
    kinds = {(True, 1): "causal1", (True, 2): "causal2", (False, 2): "bi2", (False, 4): "bi4"}
    if (causal, n) not in kinds:
        raise op_value_error(op, f"startend_row_indices' last axis must be {'1 or 2' if causal else '2 or 4'} when "
                                 f"causal is {causal}, got {n}")
    return M.cast(idx, dtypes.int32), kinds[(causal, n)]


def flashmask_attention(query: Any, key: Any, value: Any, startend_row_indices: Any = None, *, dropout: float = 0.0,
                        causal: bool = False, window_size: Any = None, return_softmax_lse: bool = False,
                        return_seed_offset: bool = False, fixed_seed_offset: Any = None, rng_name: str = "",
                        training: bool = True, name: str | None = None, softmax_scale: float | None = None,
                        block_mask: Any = None, rng_key: Any = None, block_k: int = 128) -> Any:
    """FlashMask attention: softmax(q k^T * scale + M) v with M given column-wise by start/end rows
    (for key j, a range of query rows that may not see it), applied blockwise without a dense mask.

    startend_row_indices [B, Hk|1, Sk, n] (int32): causal with n=1 masks rows >= [0], n=2 rows in
    [[0], [1]); bidirectional with n=2 masks rows >= [0] and rows < [1], n=4 rows in [[0], [1]) and in
    [[2], [3]). window_size w or (left, right) keeps keys i - left..i (causal) or i - left..i + right.

    Args:
        query: [B, Sq, H, D].
        key, value: [B, Sk, Hk, D].
        startend_row_indices: the column-wise mask, or None.
        dropout, causal, training, softmax_scale, rng_key, block_k: as flash_attention.
        window_size: sliding-window attention (not with startend_row_indices).
        return_softmax_lse: also return the row log-sum-exp [B, H, Sq] (float32).
        return_seed_offset: also return a [2] int64 seed/offset (zeros: padax's randomness is keyed).
        fixed_seed_offset, rng_name: accepted for Paddle compatibility.
        block_mask: not supported (Paddle's 128 x 128 block mask); must be None.

    Returns:
        out [B, Sq, H, Dv], or a tuple (out, lse?, seed_offset?) with the requested extras.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> q = k = padax.zeros([1, 3, 1, 2])
        >>> v = padax.to_tensor([[[[1.0, 1.0]], [[3.0, 3.0]], [[5.0, 5.0]]]])
        >>> idx = padax.to_tensor([[[[2], [3], [3]]]], dtype="int32")  # key 0 unseen from row 2 on
        >>> F.flashmask_attention(q, k, v, idx, causal=True)[0, :, 0, 0].tolist()
        [1.0, 2.0, 4.0]
    """
    op = "flashmask_attention"
    q, k, v = _qkv(op, query, key, value, 4)
    if block_mask is not None:
        raise op_value_error(op, "block_mask is not supported by padax (pass the mask as startend_row_indices)")
    fm, kind = None, None
    window = None
    if window_size is not None:
        if startend_row_indices is not None:
            raise op_value_error(op, "window_size cannot be combined with startend_row_indices")
        left, right = (window_size, window_size) if isinstance(window_size, int) else window_size
        window = (int(left), 0 if causal else int(right))
    elif startend_row_indices is not None:
        fm, kind = _startend(op, startend_row_indices, q.aval.shape[0], k.aval.shape[2], k.aval.shape[1], causal)
    spec = _flash.Spec(scale=_scale(q, softmax_scale), causal=bool(causal), window=window, block_k=int(block_k),
                       fill=_PADDLE_FILL, flashmask=kind)
    out, _, lse = _run(op, q, k, v, spec, float(dropout), training, False, rng_key, fm=fm)
    extras = []
    if return_softmax_lse:
        extras.append(M.cast(lse, dtypes.float32))
    if return_seed_offset:
        extras.append(zeros([2], dtypes.int64))
    return (out, *extras) if extras else out


def flash_attention_with_sparse_mask(query: Any, key: Any, value: Any, attn_mask_start_row_indices: Any,
                                     attn_mask_start_row: int = 0, dropout_p: float = 0.0, is_causal: bool = False,
                                     return_softmax: bool = False, return_softmax_lse: bool = False,
                                     return_seed_offset: bool = False, training: bool = True,
                                     name: str | None = None, *, rng_key: Any = None, block_k: int = 128) -> Any:
    """Attention with a column-wise sparse mask (Paddle 2.6/3.0's name for FlashMask's one-index form):
    key j is hidden from query rows >= attn_mask_start_row_indices[b, h, j] (and, if causal, rows < j).

    Args:
        query: [B, Sq, H, D].
        key, value: [B, Sk, Hk, D].
        attn_mask_start_row_indices: int32 [B, Hk|1, Sk] start rows, or None (plain attention).
        attn_mask_start_row: a lower bound of the start rows (a speed hint in Paddle; unused).
        dropout_p, is_causal, training, rng_key, block_k: as flash_attention's dropout, causal, ...
        return_softmax: not supported by the kernel; must be False.
        return_softmax_lse, return_seed_offset: as flashmask_attention.

    Returns:
        out [B, Sq, H, Dv], or a tuple with the requested extras.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> q = k = padax.zeros([1, 3, 1, 2])
        >>> v = padax.to_tensor([[[[1.0, 1.0]], [[3.0, 3.0]], [[5.0, 5.0]]]])
        >>> idx = padax.to_tensor([[[2, 3, 3]]], dtype="int32")
        >>> fa = F.flash_attention.flash_attention_with_sparse_mask
        >>> fa(q, k, v, idx, is_causal=True)[0, :, 0, 0].tolist()
        [1.0, 2.0, 4.0]
    """
    op = "flash_attention_with_sparse_mask"
    if return_softmax:
        raise op_value_error(op, "return_softmax is not supported (the weights are never materialised)")
    idx = None
    if attn_mask_start_row_indices is not None:
        idx = arg(op, attn_mask_start_row_indices, "attn_mask_start_row_indices")
        if idx.aval.ndim != 3:
            raise op_value_error(op, f"attn_mask_start_row_indices must be [batch, heads, seq_k], got "
                                     f"{idx.aval.str_short()}")
        idx = unsqueeze(idx, -1)
        if not is_causal:                                  # bidirectional: rows >= start, and no rows < 0
            idx = concat([idx, zeros(list(idx.aval.shape), idx.aval.dtype)], axis=-1)
    return flashmask_attention(query, key, value, idx, dropout=dropout_p, causal=bool(is_causal),
                               return_softmax_lse=return_softmax_lse,
                               return_seed_offset=return_seed_offset, training=training, rng_key=rng_key,
                               block_k=block_k)


class _CallableModule(types.ModuleType):
    """This module, callable as its namesake function (padax.nn.functional.flash_attention(q, k, v))."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return flash_attention(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
