"""MultiHeadAttention, TransformerEncoderLayer/Encoder, TransformerDecoderLayer/Decoder and Transformer with
Paddle's signatures, sublayer names (q_proj, k_proj, v_proj, out_proj, linear1, norm1, ...) and semantics:
post-norm by default (normalize_before=True for pre-norm), additive float masks or boolean/int keep-masks,
and the incremental-decoding caches (MultiHeadAttention.Cache / StaticCache, gen_cache)."""
from __future__ import annotations

import collections
import copy
from typing import Any

import numpy as np

from padax import dtypes
from padax.core.errors import op_type_error as _op_type_error, op_value_error as _op_value_error
from padax.functional import creation, lax_api as lax, manipulation, math as M
from padax.functional._arrays import aval_of
from padax.functional.linalg_basic import matmul
from padax.nn import functional as F
from padax.nn.layer._calls import check_input
from padax.nn.layer.common import Dropout, Linear
from padax.nn.layer.container import LayerList
from padax.nn.layer.layers import Layer, config_ints
from padax.nn.layer.norm_other import LayerNorm
from padax.nn.param_attr import ParamAttr


def _attr_list(attr: Any, n: int) -> list[Any]:
    """One ParamAttr (or False) per sublayer group, as Paddle's _convert_param_attr_to_list."""
    if isinstance(attr, (list, tuple)):
        if len(attr) != n:
            raise ValueError(f"length of param_attr should be {n} when it is a list/tuple, got {len(attr)}")
        return [(None if a else False) if isinstance(a, bool) else a for a in attr]
    if isinstance(attr, bool):
        return [None if attr else False] * n
    attr = ParamAttr._to_attr(attr)
    out = []
    for i in range(n):
        a = copy.copy(attr)
        if attr is not None and getattr(attr, "name", None):
            a.name = f"{attr.name}_{i}"
        out.append(a)
    return out


def _convert_attention_mask(attn_mask: Any, dtype: Any) -> Any:
    """A boolean or integer keep-mask becomes additive (0 where kept, -1e9 where masked); a float mask is cast."""
    if attn_mask is None:
        return None
    mdt = aval_of(attn_mask).dtype
    if mdt == dtype:
        return attn_mask
    if mdt == np.bool_ or dtypes.is_integer(mdt):
        return M.multiply(M.subtract(M.cast(attn_mask, dtype), 1.0), 1e9)
    return M.cast(attn_mask, dtype)


class MultiHeadAttention(Layer):
    """Scaled dot-product attention over num_heads heads with input projections q_proj/k_proj/v_proj (from
    embed_dim/kdim/vdim) and out_proj. Returns out, plus the attention weights when need_weights, plus the
    updated cache when one is given.

    Args:
        embed_dim: the size of queries and outputs; num_heads must divide it.
        dropout: the dropout rate of the attention weights in training mode.
        kdim, vdim: the sizes of keys and values (default embed_dim).
        need_weights: also return the attention weights [batch, num_heads, query_len, key_len].

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> mha = padax.nn.MultiHeadAttention(embed_dim=8, num_heads=2)
        >>> x = padax.ones([2, 5, 8])  # [batch, seq, embed_dim]
        >>> mha(x).shape
        (2, 5, 8)
        >>> out, weights = padax.nn.MultiHeadAttention(8, 2, need_weights=True)(x, x, x)
        >>> weights.shape, weights.sum(axis=-1)[0, 0].tolist()
        ((2, 2, 5, 5), [1.0, 1.0, 1.0, 1.0, 1.0])
    """

    Cache = collections.namedtuple("Cache", ["k", "v"])
    StaticCache = collections.namedtuple("StaticCache", ["k", "v"])
    # padax's fixed-size self-attention cache for compiled decoding (not in Paddle): keys/values preallocated
    # to [batch, heads, max_length, head_dim], `length` (an int32 scalar) positions of them filled
    PreallocatedCache = collections.namedtuple("PreallocatedCache", ["k", "v", "length"])

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0, kdim: int | None = None,
                 vdim: int | None = None, need_weights: bool = False, weight_attr: Any = None,
                 bias_attr: Any = None) -> None:
        super().__init__()
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(f"MultiHeadAttention: embed_dim and num_heads must be positive, got {embed_dim}, "
                             f"{num_heads}")
        if embed_dim % num_heads:
            raise ValueError(f"MultiHeadAttention: embed_dim ({embed_dim}) must be divisible by num_heads "
                             f"({num_heads})")
        self.embed_dim, self.num_heads = config_ints(self, embed_dim=embed_dim, num_heads=num_heads)
        self.kdim = int(kdim) if kdim is not None else self.embed_dim
        self.vdim = int(vdim) if vdim is not None else self.embed_dim
        self.dropout, self.need_weights = dropout, bool(need_weights)
        self.head_dim = self.embed_dim // self.num_heads
        self.q_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.k_proj = Linear(self.kdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.v_proj = Linear(self.vdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.out_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)

    def _heads(self, x: Any) -> Any:
        """[batch, seq, embed] -> [batch, heads, seq, head_dim]."""
        b, s = aval_of(x).shape[:2]
        return manipulation.transpose(manipulation.reshape(x, [b, s, self.num_heads, self.head_dim]), [0, 2, 1, 3])

    def compute_kv(self, key: Any, value: Any) -> tuple[Any, Any]:
        """The projected keys and values, [batch, heads, seq, head_dim]."""
        return self._heads(self.k_proj(key)), self._heads(self.v_proj(value))

    def gen_cache(self, key: Any, value: Any = None, type: Any = Cache, *,  # noqa: A002 (Paddle's name)
                  max_length: int | None = None) -> Any:
        """StaticCache: the projected key/value (cross attention over a fixed memory); Cache with value None:
        empty keys/values to grow step by step (self attention); Cache(key, value) otherwise.

        PreallocatedCache (padax's, for jit-compiled decoding, where shapes are fixed): zeros of
        [batch, heads, max_length, head_dim] (batch and dtype from `key`) and length 0. Each call with it
        writes the new keys/values at positions length.. (lax.dynamic_update_slice) and returns the
        cache with length advanced; the queries attend causally: query i of the call (absolute position
        length + i) sees keys 0 .. length + i, and attn_mask, if given, is added on top (broadcast to
        [batch, heads, query_len, max_length]). Writing past max_length is not checked (under jit the
        length is traced; lax.dynamic_update_slice clamps the start, overwriting the last positions).

        Examples:
            >>> import padax
            >>> _ = padax.seed(0)
            >>> mha = padax.nn.MultiHeadAttention(8, 2)
            >>> x = padax.randn([1, 3, 8])
            >>> cache = mha.gen_cache(x, type=mha.PreallocatedCache, max_length=6)
            >>> out, cache = mha(x, cache=cache)
            >>> cache.k.shape, int(cache.length)
            ((1, 2, 6, 4), 3)
        """
        if type is MultiHeadAttention.PreallocatedCache:
            if max_length is None or value is not None:
                raise _op_value_error("MultiHeadAttention.gen_cache", "a PreallocatedCache takes max_length "
                                                                      "(and no value)")
            b = aval_of(key).shape[0]
            empty = creation.zeros([b, self.num_heads, int(max_length), self.head_dim], aval_of(key).dtype)
            return self.PreallocatedCache(empty, empty, creation.zeros([], "int32"))
        if type is MultiHeadAttention.StaticCache:
            return self.StaticCache(*self.compute_kv(key, value if value is not None else key))
        if value is None:
            b = aval_of(key).shape[0]
            empty = creation.zeros([b, self.num_heads, 0, self.head_dim], aval_of(key).dtype)
            return self.Cache(empty, empty)
        return self.Cache(key, value)

    def forward(self, query: Any, key: Any = None, value: Any = None, attn_mask: Any = None,
                cache: Any = None) -> Any:
        check_input(self, query, ndims=(3,), axis=-1, size=self.embed_dim, floating=True,
                    layout="[batch, seq, embed_dim]")
        key = query if key is None else key
        value = query if value is None else value
        q = self._heads(self.q_proj(query))
        if isinstance(cache, self.StaticCache):
            k, v = cache.k, cache.v
        else:
            check_input(self, key, ndims=(3,), axis=-1, size=self.kdim, layout="key [batch, seq, kdim]")
            check_input(self, value, ndims=(3,), axis=-1, size=self.vdim, layout="value [batch, seq, vdim]")
            k, v = self.compute_kv(key, value)
        if isinstance(cache, self.Cache):
            k = manipulation.concat([cache.k, k], axis=2)
            v = manipulation.concat([cache.v, v], axis=2)
            cache = self.Cache(k, v)
        elif isinstance(cache, self.PreallocatedCache):
            k, v, cache, keep = _write_preallocated(cache, k, v, aval_of(q).shape[2])
            attn_mask = keep if attn_mask is None else M.add(
                _convert_attention_mask(keep, aval_of(q).dtype), _convert_attention_mask(attn_mask, aval_of(q).dtype))
        product = matmul(M.multiply(q, self.head_dim ** -0.5), k, transpose_y=True)
        if attn_mask is not None:
            product = M.add(product, _convert_attention_mask(attn_mask, aval_of(product).dtype))
        weights = F.softmax(product)
        if self.dropout:
            weights = F.dropout(weights, self.dropout, training=self.training, mode="upscale_in_train")
        out = manipulation.transpose(matmul(weights, v), [0, 2, 1, 3])
        b, s = aval_of(out).shape[:2]
        out = self.out_proj(manipulation.reshape(out, [b, s, self.embed_dim]))
        outs = [out]
        if self.need_weights:
            outs.append(weights)
        if cache is not None:
            outs.append(cache)
        return out if len(outs) == 1 else tuple(outs)


def _write_preallocated(cache: Any, k: Any, v: Any, s: int) -> tuple[Any, Any, Any, Any]:
    """Write s new keys/values into a PreallocatedCache at its length; the full keys, values, the new cache and
    the causal keep-mask [s, max_length] (key j visible to query i iff j <= length + i)."""
    length = M.cast(cache.length, "int32")
    zero = creation.zeros([], "int32")
    k_all = lax.dynamic_update_slice(cache.k, M.cast(k, aval_of(cache.k).dtype), [zero, zero, length, zero])
    v_all = lax.dynamic_update_slice(cache.v, M.cast(v, aval_of(cache.v).dtype), [zero, zero, length, zero])
    max_length = aval_of(cache.k).shape[2]
    keep = M.less_equal(manipulation.unsqueeze(creation.arange(max_length, dtype="int32"), 0),
                        M.add(manipulation.unsqueeze(creation.arange(s, dtype="int32"), 1), length))
    return k_all, v_all, type(cache)(k_all, v_all, M.add(length, s)), keep


def _check_sizes(cls: str, d_model: int, nhead: int, dim_feedforward: int) -> None:
    for what, v in (("d_model", d_model), ("nhead", nhead), ("dim_feedforward", dim_feedforward)):
        if v <= 0:
            raise ValueError(f"{cls}: {what} must be positive, got {v}")


def _start_block(layer: Layer, config: dict) -> tuple[float, float]:
    """The checks and settings an encoder or decoder layer starts with; its attention and activation
    dropout rates (each defaulting to `dropout`)."""
    name = type(layer).__name__
    _check_sizes(name, config["d_model"], config["nhead"], config["dim_feedforward"])
    if not hasattr(F, config["activation"]):
        raise ValueError(f"{name}: unknown activation {config['activation']!r}")
    layer._config = config
    layer.normalize_before = bool(config["normalize_before"])
    rate = config["dropout"]
    return (rate if config["attn_dropout"] is None else config["attn_dropout"],
            rate if config["act_dropout"] is None else config["act_dropout"])


class TransformerEncoderLayer(Layer):
    """Self attention then a feed-forward block (linear1 -> activation -> dropout -> linear2), each with a
    residual, dropout and LayerNorm (after, or before with normalize_before).

    Args:
        d_model: the feature size.
        nhead: the number of attention heads (dividing d_model).
        dim_feedforward: the hidden size of the feed-forward block.
        dropout: the dropout rate after attention and feed-forward (and their defaults).
        activation: the feed-forward activation, e.g. 'relu' or 'gelu'.
        attn_dropout: the rate on the attention weights (None: dropout).
        act_dropout: the rate after the activation (None: dropout).
        normalize_before: LayerNorm before each block (pre-norm) instead of after.
        weight_attr, bias_attr: ParamAttr or initializer of the linear layers (or a list per block);
            bias_attr=False drops biases.
        layer_norm_eps: the LayerNorms' epsilon.

    Returns:
        layer(src, src_mask=None, cache=None): src [B, S, d_model] -> the same shape; with cache, (output, new cache).

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> layer = padax.nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0)
        >>> layer(padax.ones([2, 5, 8])).shape
        (2, 5, 8)
    """

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int, dropout: float = 0.1,
                 activation: str = "relu", attn_dropout: float | None = None, act_dropout: float | None = None,
                 normalize_before: bool = False, weight_attr: Any = None, bias_attr: Any = None,
                 layer_norm_eps: float = 1e-05) -> None:
        config = dict(d_model=d_model, nhead=nhead, dim_feedforward=dim_feedforward, dropout=dropout,
                      activation=activation, attn_dropout=attn_dropout, act_dropout=act_dropout,
                      normalize_before=normalize_before, weight_attr=weight_attr, bias_attr=bias_attr,
                      layer_norm_eps=layer_norm_eps)
        super().__init__()
        attn_dropout, act_dropout = _start_block(self, config)
        w, b = _attr_list(weight_attr, 2), _attr_list(bias_attr, 2)
        self.self_attn = MultiHeadAttention(d_model, nhead, dropout=attn_dropout, weight_attr=w[0], bias_attr=b[0])
        self.linear1 = Linear(d_model, dim_feedforward, w[1], bias_attr=b[1])
        self.dropout = Dropout(act_dropout, mode="upscale_in_train")
        self.linear2 = Linear(dim_feedforward, d_model, w[1], bias_attr=b[1])
        self.norm1 = LayerNorm(d_model, layer_norm_eps)
        self.norm2 = LayerNorm(d_model, layer_norm_eps)
        self.dropout1 = Dropout(dropout, mode="upscale_in_train")
        self.dropout2 = Dropout(dropout, mode="upscale_in_train")
        self.activation = getattr(F, activation)

    def forward(self, src: Any, src_mask: Any = None, cache: Any = None) -> Any:
        src_mask = _convert_attention_mask(src_mask, aval_of(src).dtype)
        residual = src
        if self.normalize_before:
            src = self.norm1(src)
        if cache is None:
            src = self.self_attn(src, src, src, src_mask)
        else:
            src, cache = self.self_attn(src, src, src, src_mask, cache)
        src = M.add(residual, self.dropout1(src))
        if not self.normalize_before:
            src = self.norm1(src)
        residual = src
        if self.normalize_before:
            src = self.norm2(src)
        src = self.linear2(self.dropout(self.activation(self.linear1(src))))
        src = M.add(residual, self.dropout2(src))
        if not self.normalize_before:
            src = self.norm2(src)
        return src if cache is None else (src, cache)

    def gen_cache(self, src: Any) -> Any:
        """An empty incremental self-attention cache for src's batch."""
        return self.self_attn.gen_cache(src, type=MultiHeadAttention.Cache)


def _stack(op: str, layer: Any, cls: type, num_layers: Any) -> LayerList:
    """`layer` then num_layers - 1 fresh layers of its configuration (new weights), as Paddle does."""
    if not isinstance(layer, cls):
        raise _op_type_error(op, f"the layer to stack must be a padax.nn.{cls.__name__}, got {type(layer).__name__}")
    if isinstance(num_layers, bool) or not isinstance(num_layers, (int, np.integer)) or num_layers < 1:
        raise _op_value_error(op, f"num_layers must be a positive int, got {num_layers!r}")
    return LayerList([layer if i == 0 else type(layer)(**layer._config) for i in range(int(num_layers))])


class TransformerEncoder(Layer):
    """num_layers encoder layers (the first is `encoder_layer`, the others new ones with its configuration and
    fresh weights, as Paddle), then the optional `norm`.

    Args:
        encoder_layer: a TransformerEncoderLayer, the first layer and the template of the others.
        num_layers: the number of layers.
        norm: a layer applied to the last output (e.g. LayerNorm), or None.

    Returns:
        layer(src, src_mask=None, cache=None): src [B, S, d_model] -> the same shape; with cache, (output, new caches).

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> enc = padax.nn.TransformerEncoder(padax.nn.TransformerEncoderLayer(8, 2, 16), num_layers=2)
        >>> len(enc.layers), enc.eval()(padax.ones([2, 5, 8])).shape
        (2, (2, 5, 8))
    """

    def __init__(self, encoder_layer: Layer, num_layers: int, norm: Layer | None = None) -> None:
        super().__init__()
        self.layers = _stack("TransformerEncoder", encoder_layer, TransformerEncoderLayer, num_layers)
        (self.num_layers,) = config_ints(self, num_layers=num_layers)
        self.norm = norm

    def forward(self, src: Any, src_mask: Any = None, cache: Any = None) -> Any:
        src_mask = _convert_attention_mask(src_mask, aval_of(src).dtype)
        out, new_caches = src, []
        for i, layer in enumerate(self.layers):
            if cache is None:
                out = layer(out, src_mask=src_mask)
            else:
                out, c = layer(out, src_mask=src_mask, cache=cache[i])
                new_caches.append(c)
        if self.norm is not None:
            out = self.norm(out)
        return out if cache is None else (out, new_caches)

    def gen_cache(self, src: Any) -> list[Any]:
        return [layer.gen_cache(src) for layer in self.layers]


class TransformerDecoderLayer(Layer):
    """Self attention, cross attention over `memory`, then the feed-forward block, each with a residual,
    dropout and LayerNorm (norm1, norm2, norm3).

    Args:
        d_model: the feature size.
        nhead: the number of attention heads (dividing d_model).
        dim_feedforward: the hidden size of the feed-forward block.
        dropout: the dropout rate after attention and feed-forward (and their defaults).
        activation: the feed-forward activation, e.g. 'relu' or 'gelu'.
        attn_dropout: the rate on the attention weights (None: dropout).
        act_dropout: the rate after the activation (None: dropout).
        normalize_before: LayerNorm before each block (pre-norm) instead of after.
        weight_attr, bias_attr: ParamAttr or initializer of the linear layers (or a list per block);
            bias_attr=False drops biases.
        layer_norm_eps: the LayerNorms' epsilon.

    Returns:
        layer(tgt, memory, tgt_mask=None, memory_mask=None, cache=None): tgt [B, T, d_model], memory [B, S, d_model]
        -> [B, T, d_model]; with cache, (output, new cache).

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> layer = padax.nn.TransformerDecoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0)
        >>> layer(padax.ones([2, 4, 8]), padax.ones([2, 6, 8])).shape  # (tgt, memory)
        (2, 4, 8)
    """

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int, dropout: float = 0.1,
                 activation: str = "relu", attn_dropout: float | None = None, act_dropout: float | None = None,
                 normalize_before: bool = False, weight_attr: Any = None, bias_attr: Any = None,
                 layer_norm_eps: float = 1e-05) -> None:
        config = dict(d_model=d_model, nhead=nhead, dim_feedforward=dim_feedforward, dropout=dropout,
                      activation=activation, attn_dropout=attn_dropout, act_dropout=act_dropout,
                      normalize_before=normalize_before, weight_attr=weight_attr, bias_attr=bias_attr,
                      layer_norm_eps=layer_norm_eps)
        super().__init__()
        attn_dropout, act_dropout = _start_block(self, config)
        w, b = _attr_list(weight_attr, 3), _attr_list(bias_attr, 3)
        self.self_attn = MultiHeadAttention(d_model, nhead, dropout=attn_dropout, weight_attr=w[0], bias_attr=b[0])
        self.cross_attn = MultiHeadAttention(d_model, nhead, dropout=attn_dropout, weight_attr=w[1],
                                             bias_attr=b[1])
        self.linear1 = Linear(d_model, dim_feedforward, w[2], bias_attr=b[2])
        self.dropout = Dropout(act_dropout, mode="upscale_in_train")
        self.linear2 = Linear(dim_feedforward, d_model, w[2], bias_attr=b[2])
        self.norm1 = LayerNorm(d_model, layer_norm_eps)
        self.norm2 = LayerNorm(d_model, layer_norm_eps)
        self.norm3 = LayerNorm(d_model, layer_norm_eps)
        self.dropout1 = Dropout(dropout, mode="upscale_in_train")
        self.dropout2 = Dropout(dropout, mode="upscale_in_train")
        self.dropout3 = Dropout(dropout, mode="upscale_in_train")
        self.activation = getattr(F, activation)

    def forward(self, tgt: Any, memory: Any, tgt_mask: Any = None, memory_mask: Any = None,
                cache: Any = None) -> Any:
        tgt_mask = _convert_attention_mask(tgt_mask, aval_of(tgt).dtype)
        memory_mask = _convert_attention_mask(memory_mask, aval_of(memory).dtype)
        residual = tgt
        if self.normalize_before:
            tgt = self.norm1(tgt)
        if cache is None:
            tgt = self.self_attn(tgt, tgt, tgt, tgt_mask, None)
        else:
            tgt, incremental = self.self_attn(tgt, tgt, tgt, tgt_mask, cache[0])
        tgt = M.add(residual, self.dropout1(tgt))
        if not self.normalize_before:
            tgt = self.norm1(tgt)
        residual = tgt
        if self.normalize_before:
            tgt = self.norm2(tgt)
        if cache is None:
            tgt = self.cross_attn(tgt, memory, memory, memory_mask, None)
        else:
            tgt, static = self.cross_attn(tgt, memory, memory, memory_mask, cache[1])
        tgt = M.add(residual, self.dropout2(tgt))
        if not self.normalize_before:
            tgt = self.norm2(tgt)
        residual = tgt
        if self.normalize_before:
            tgt = self.norm3(tgt)
        tgt = self.linear2(self.dropout(self.activation(self.linear1(tgt))))
        tgt = M.add(residual, self.dropout3(tgt))
        if not self.normalize_before:
            tgt = self.norm3(tgt)
        return tgt if cache is None else (tgt, (incremental, static))

    def gen_cache(self, memory: Any) -> tuple[Any, Any]:
        """(an empty self-attention Cache, the cross-attention StaticCache of `memory`)."""
        return (self.self_attn.gen_cache(memory, type=MultiHeadAttention.Cache),
                self.cross_attn.gen_cache(memory, memory, type=MultiHeadAttention.StaticCache))


class TransformerDecoder(Layer):
    """num_layers decoder layers (fresh copies of `decoder_layer`'s configuration), then the optional norm.

    Args:
        decoder_layer: a TransformerDecoderLayer, the first layer and the template of the others.
        num_layers: the number of layers.
        norm: a layer applied to the last output, or None.

    Returns:
        layer(tgt, memory, tgt_mask=None, memory_mask=None, cache=None): -> [B, T, d_model]; with cache,
        (output, new caches).

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> dec = padax.nn.TransformerDecoder(padax.nn.TransformerDecoderLayer(8, 2, 16), num_layers=2)
        >>> len(dec.layers), dec.eval()(padax.ones([2, 4, 8]), padax.ones([2, 6, 8])).shape
        (2, (2, 4, 8))
    """

    def __init__(self, decoder_layer: Layer, num_layers: int, norm: Layer | None = None) -> None:
        super().__init__()
        self.layers = _stack("TransformerDecoder", decoder_layer, TransformerDecoderLayer, num_layers)
        (self.num_layers,) = config_ints(self, num_layers=num_layers)
        self.norm = norm

    def forward(self, tgt: Any, memory: Any, tgt_mask: Any = None, memory_mask: Any = None,
                cache: Any = None) -> Any:
        tgt_mask = _convert_attention_mask(tgt_mask, aval_of(tgt).dtype)
        memory_mask = _convert_attention_mask(memory_mask, aval_of(memory).dtype)
        out, new_caches = tgt, []
        for i, layer in enumerate(self.layers):
            if cache is None:
                out = layer(out, memory, tgt_mask=tgt_mask, memory_mask=memory_mask, cache=None)
            else:
                out, c = layer(out, memory, tgt_mask=tgt_mask, memory_mask=memory_mask, cache=cache[i])
                new_caches.append(c)
        if self.norm is not None:
            out = self.norm(out)
        return out if cache is None else (out, new_caches)

    def gen_cache(self, memory: Any, do_zip: bool = False) -> list[Any]:
        cache = [layer.gen_cache(memory) for layer in self.layers]
        return list(zip(*cache)) if do_zip else cache


def _split_attr(attr: Any) -> tuple[Any, Any]:
    """Paddle's Transformer: a list of 1, 2 or 3 attrs spread over the encoder's 2 and decoder's 3 groups."""
    if not isinstance(attr, (list, tuple)):
        return attr, attr
    if len(attr) == 1:
        return [attr[0]] * 2, [attr[0]] * 3
    if len(attr) == 2:
        return list(attr), [attr[0], attr[0], attr[-1]]
    if len(attr) == 3:
        return [attr[0], attr[-1]], list(attr)
    raise ValueError(f"Transformer: weight_attr/bias_attr lists must have 1, 2 or 3 entries, got {len(attr)}")


class Transformer(Layer):
    """Encoder-decoder Transformer (Vaswani et al.) with Paddle's defaults (d_model 512, 8 heads, 6 + 6 layers,
    feed-forward 2048, dropout 0.1), final LayerNorms on both stacks; custom_encoder/custom_decoder replace
    them.

    Args:
        d_model: the feature size.
        nhead: the number of attention heads (dividing d_model).
        dim_feedforward: the hidden size of the feed-forward block.
        num_encoder_layers, num_decoder_layers: the depth of each stack.
        dropout: the dropout rate after attention and feed-forward (and their defaults).
        activation: the feed-forward activation, e.g. 'relu' or 'gelu'.
        attn_dropout: the rate on the attention weights (None: dropout).
        act_dropout: the rate after the activation (None: dropout).
        normalize_before: LayerNorm before each block (pre-norm) instead of after.
        weight_attr, bias_attr: ParamAttr or initializer of the linear layers (or a list per block);
            bias_attr=False drops biases.
        custom_encoder, custom_decoder: layers used in place of the built stacks.

    Returns:
        layer(src, tgt, src_mask=None, tgt_mask=None, memory_mask=None): src [B, S, d_model], tgt [B, T, d_model]
        -> [B, T, d_model].

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> model = padax.nn.Transformer(8, 2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=16)
        >>> mask = model.generate_square_subsequent_mask(3)
        >>> mask.tolist()
        [[0.0, -inf, -inf], [0.0, 0.0, -inf], [0.0, 0.0, 0.0]]
        >>> type(model.encoder).__name__, len(model.decoder.layers)
        ('TransformerEncoder', 1)
    """

    def __init__(self, d_model: int = 512, nhead: int = 8, num_encoder_layers: int = 6, num_decoder_layers: int = 6,
                 dim_feedforward: int = 2048, dropout: float = 0.1, activation: str = "relu",
                 attn_dropout: float | None = None, act_dropout: float | None = None, normalize_before: bool = False,
                 weight_attr: Any = None, bias_attr: Any = None, custom_encoder: Layer | None = None,
                 custom_decoder: Layer | None = None) -> None:
        super().__init__()
        _check_sizes("Transformer", d_model, nhead, dim_feedforward)
        enc_w, dec_w = _split_attr(weight_attr)
        enc_b, dec_b = _split_attr(bias_attr)
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            layer = TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout, activation, attn_dropout,
                                            act_dropout, normalize_before, enc_w, enc_b)
            self.encoder = TransformerEncoder(layer, num_encoder_layers, LayerNorm(d_model))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            layer = TransformerDecoderLayer(d_model, nhead, dim_feedforward, dropout, activation, attn_dropout,
                                            act_dropout, normalize_before, dec_w, dec_b)
            self.decoder = TransformerDecoder(layer, num_decoder_layers, LayerNorm(d_model))
        self.d_model, self.nhead = int(d_model), int(nhead)

    def forward(self, src: Any, tgt: Any, src_mask: Any = None, tgt_mask: Any = None,
                memory_mask: Any = None) -> Any:
        src_mask = _convert_attention_mask(src_mask, aval_of(src).dtype)
        memory = self.encoder(src, src_mask=src_mask)
        tgt_mask = _convert_attention_mask(tgt_mask, aval_of(tgt).dtype)
        memory_mask = _convert_attention_mask(memory_mask, aval_of(memory).dtype)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask)

    def generate_square_subsequent_mask(self, length: int) -> Any:
        """[length, length] additive causal mask: 0 on and below the diagonal, -inf above."""
        full = creation.full([int(length), int(length)], -np.inf, dtypes.default_float_dtype())
        return creation.triu(full, 1)
