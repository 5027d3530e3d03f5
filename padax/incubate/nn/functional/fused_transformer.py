"""Paddle's fused transformer blocks (fused_multi_head_attention, fused_feedforward,
fused_bias_dropout_residual_layer_norm) as compositions of padax ops, with Paddle's weight layouts: XLA fuses
them, and jit, grad and vmap see through them."""
from __future__ import annotations

from typing import Any

import padax
from padax.core.errors import op_value_error
from padax.nn import functional as F
from padax.nn.layer.transformer import _convert_attention_mask

__all__ = ["fused_bias_dropout_residual_layer_norm", "fused_feedforward", "fused_multi_head_attention"]


def _drop(x: Any, p: float, training: bool, mode: str) -> Any:
    return x if float(p) == 0.0 else F.dropout(x, float(p), training=training, mode=mode)


def _ln(x: Any, scale: Any, bias: Any, eps: float) -> Any:
    return F.layer_norm(x, x.shape[-1:], scale, bias, eps)


def _linear(x: Any, w: Any, b: Any) -> Any:
    out = padax.matmul(x, w)
    return out if b is None else out + b


def _epilogue(h: Any, residual: Any, p: float, training: bool, mode: str, add_residual: bool, post_ln: bool,
              scale: Any, bias: Any, eps: float) -> Any:
    """dropout, the residual add, then the post layer norm: the common tail of the fused blocks."""
    out = _drop(h, p, training, mode)
    if add_residual:
        out = residual + out
    return _ln(out, scale, bias, eps) if post_ln else out


def _rank3(op: str, x: Any) -> Any:
    x = padax.asarray(x)
    if x.ndim != 3:
        raise op_value_error(op, f"x must be [batch, seq_len, embed_dim], got {x.dtype}{list(x.shape)}")
    return x


def fused_bias_dropout_residual_layer_norm(x: Any, residual: Any, bias: Any = None, ln_scale: Any = None,
                                           ln_bias: Any = None, dropout_rate: float = 0.5, ln_epsilon: float = 1e-5,
                                           training: bool = True, mode: str = "upscale_in_train",
                                           name: str | None = None) -> Any:
    """layer_norm(residual + dropout(x + bias)) over the last axis.

    Args:
        x, residual: [..., E] Tensors.
        bias: [E] or None; ln_scale, ln_bias: the layer norm's [E] weight and bias, or None.
        dropout_rate, training, mode: the dropout's (see padax.nn.functional.dropout).
        ln_epsilon: the layer norm's epsilon.

    Returns:
        x's shape and dtype.

    Examples:
        >>> import padax
        >>> from padax.incubate.nn.functional import fused_bias_dropout_residual_layer_norm
        >>> out = fused_bias_dropout_residual_layer_norm(padax.to_tensor([[1.0, 3.0]]), padax.zeros([1, 2]),
        ...                                              dropout_rate=0.0)
        >>> [round(v, 3) for v in out[0].tolist()]
        [-1.0, 1.0]
    """
    x = padax.asarray(x)
    if bias is not None:
        x = x + bias
    return _ln(padax.asarray(residual) + _drop(x, dropout_rate, training, mode), ln_scale, ln_bias, ln_epsilon)


def fused_multi_head_attention(x: Any, qkv_weight: Any, linear_weight: Any, pre_layer_norm: bool = False,
                               pre_ln_scale: Any = None, pre_ln_bias: Any = None, ln_scale: Any = None,
                               ln_bias: Any = None, pre_ln_epsilon: float = 1e-05, qkv_bias: Any = None,
                               linear_bias: Any = None, cache_kv: Any = None, attn_mask: Any = None,
                               dropout_rate: float = 0.5, attn_dropout_rate: float = 0.5, ln_epsilon: float = 1e-05,
                               training: bool = True, mode: str = "upscale_in_train", ring_id: int = -1,
                               add_residual: bool = True, num_heads: int = -1, transpose_qkv_wb: bool = False,
                               name: str | None = None) -> Any:
    """Paddle's fused self-attention block: (pre layer norm), qkv projection, scaled-dot-product attention with
    an additive mask and attention dropout, output projection, dropout, residual add, (post layer norm).

    Args:
        x: [batch, seq_len, embed_dim].
        qkv_weight: [3, num_heads, head_dim, embed_dim] (or [embed_dim, 3 * embed_dim] with transpose_qkv_wb).
        linear_weight: [embed_dim, embed_dim], applied as x @ linear_weight.
        pre_layer_norm: layer norm before attention (pre_ln_scale/pre_ln_bias) instead of after it
            (ln_scale/ln_bias).
        qkv_bias: [3, num_heads, head_dim] (or [3 * embed_dim]) or None; linear_bias: [embed_dim] or None.
        cache_kv: [2, batch, num_heads, cache_len, head_dim] keys and values of earlier steps, or None.
        attn_mask: broadcastable to [batch, num_heads, seq_len, seq_len + cache_len]: additive float, or a
            bool/int keep-mask.
        dropout_rate, attn_dropout_rate: the output's and the attention weights' dropout.
        add_residual: add x back before the post norm.
        num_heads: needed with transpose_qkv_wb (the layout does not carry it).

    Returns:
        [batch, seq_len, embed_dim], or (out, new cache_kv) when cache_kv is given.

    Examples:
        >>> import padax
        >>> from padax.incubate.nn.functional import fused_multi_head_attention
        >>> x = padax.ones([1, 2, 4])
        >>> out = fused_multi_head_attention(x, padax.zeros([3, 2, 2, 4]), padax.eye(4), dropout_rate=0.0,
        ...                                  attn_dropout_rate=0.0, ln_scale=padax.ones([4]), ln_bias=padax.zeros([4]))
        >>> out.shape
        (1, 2, 4)
    """
    op = "fused_multi_head_attention"
    x = _rank3(op, x)
    b, s, e = x.shape
    qkv_weight = padax.asarray(qkv_weight)
    if transpose_qkv_wb:
        if num_heads <= 0:
            raise op_value_error(op, "num_heads must be given (> 0) with transpose_qkv_wb=True")
        if qkv_weight.ndim != 2 or qkv_weight.shape[0] != e or qkv_weight.shape[1] % (3 * num_heads):
            raise op_value_error(op, f"qkv_weight must be [embed_dim={e}, 3 * num_heads * head_dim] with "
                                     f"transpose_qkv_wb, got {list(qkv_weight.shape)}")
        heads, hd = num_heads, qkv_weight.shape[1] // (3 * num_heads)
    else:
        if qkv_weight.ndim != 4 or qkv_weight.shape[0] != 3 or qkv_weight.shape[3] != e:
            raise op_value_error(op, f"qkv_weight must be [3, num_heads, head_dim, embed_dim={e}], got "
                                     f"{list(qkv_weight.shape)}")
        heads, hd = qkv_weight.shape[1], qkv_weight.shape[2]
    residual = x
    h = _ln(x, pre_ln_scale, pre_ln_bias, pre_ln_epsilon) if pre_layer_norm else x
    w2d = qkv_weight if transpose_qkv_wb else qkv_weight.reshape([3 * heads * hd, e]).T
    qkv = _linear(h, w2d, None if qkv_bias is None else padax.asarray(qkv_bias).reshape([3 * heads * hd]))
    qkv = qkv.reshape([b, s, 3, heads, hd]).transpose([2, 0, 3, 1, 4])     # [3, B, H, S, D]
    q, k, v = qkv[0] * (hd ** -0.5), qkv[1], qkv[2]
    if cache_kv is not None:
        cache_kv = padax.asarray(cache_kv)
        if cache_kv.ndim != 5 or cache_kv.shape[0] != 2 or tuple(cache_kv.shape[1:3]) != (b, heads) \
                or cache_kv.shape[4] != hd:
            raise op_value_error(op, f"cache_kv must be [2, batch={b}, num_heads={heads}, cache_len, "
                                     f"head_dim={hd}], got {list(cache_kv.shape)}")
        k = padax.concat([cache_kv[0], k], axis=2)
        v = padax.concat([cache_kv[1], v], axis=2)
    scores = padax.matmul(q, k, transpose_y=True)
    if attn_mask is not None:
        scores = scores + _convert_attention_mask(padax.asarray(attn_mask), scores.dtype)
    weights = _drop(F.softmax(scores, axis=-1), attn_dropout_rate, training, mode)
    ctx = padax.matmul(weights, v).transpose([0, 2, 1, 3]).reshape([b, s, heads * hd])
    out = _epilogue(_linear(ctx, linear_weight, linear_bias), residual, dropout_rate, training, mode, add_residual,
                    not pre_layer_norm, ln_scale, ln_bias, ln_epsilon)
    return out if cache_kv is None else (out, padax.stack([k, v]))


def fused_feedforward(x: Any, linear1_weight: Any, linear2_weight: Any, linear1_bias: Any = None,
                      linear2_bias: Any = None, ln1_scale: Any = None, ln1_bias: Any = None, ln2_scale: Any = None,
                      ln2_bias: Any = None, dropout1_rate: float = 0.5, dropout2_rate: float = 0.5,
                      activation: str = "relu", ln1_epsilon: float = 1e-05, ln2_epsilon: float = 1e-05,
                      pre_layer_norm: bool = False, training: bool = True, mode: str = "upscale_in_train",
                      ring_id: int = -1, add_residual: bool = True, name: str | None = None) -> Any:
    """Paddle's fused feed-forward block: (pre layer norm 1), linear2(dropout1(act(linear1(x)))), dropout2,
    residual add, (post layer norm 2).

    Args:
        x: [..., d_model].
        linear1_weight: [d_model, dim_feedforward]; linear2_weight: [dim_feedforward, d_model]; biases or None.
        ln1_scale, ln1_bias: the pre norm's (pre_layer_norm=True); ln2_scale, ln2_bias: the post norm's.
        dropout1_rate: after the activation; dropout2_rate: after linear2.
        activation: 'relu' or 'gelu' (any padax.nn.functional activation name).

    Returns:
        x's shape.

    Examples:
        >>> import padax
        >>> from padax.incubate.nn.functional import fused_feedforward
        >>> out = fused_feedforward(padax.ones([1, 2, 4]), padax.ones([4, 8]), padax.zeros([8, 4]),
        ...                         dropout1_rate=0.0, dropout2_rate=0.0, ln2_scale=padax.ones([4]))
        >>> out.shape
        (1, 2, 4)
    """
    op = "fused_feedforward"
    x = padax.asarray(x)
    act = getattr(F, str(activation), None)
    if act is None or not callable(act):
        raise op_value_error(op, f"unknown activation {activation!r}")
    residual = x
    h = _ln(x, ln1_scale, ln1_bias, ln1_epsilon) if pre_layer_norm else x
    h = _linear(_drop(act(_linear(h, linear1_weight, linear1_bias)), dropout1_rate, training, mode), linear2_weight,
                linear2_bias)
    return _epilogue(h, residual, dropout2_rate, training, mode, add_residual, not pre_layer_norm, ln2_scale,
                     ln2_bias, ln2_epsilon)
