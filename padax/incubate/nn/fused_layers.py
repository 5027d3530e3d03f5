"""Paddle's fused layers (`paddle.incubate.nn`): FusedLinear, FusedDropoutAdd, FusedBiasDropoutResidualLayerNorm,
FusedMultiHeadAttention, FusedFeedForward and FusedTransformerEncoderLayer, with Paddle's constructor
arguments, parameter names and layouts (a Paddle state_dict loads into them), on the compositions in
padax.incubate.nn.functional."""
from __future__ import annotations

from typing import Any

from padax.core.errors import op_value_error
from padax.incubate.nn.functional.fused_dropout_add import fused_dropout_add
from padax.incubate.nn.functional.fused_matmul_bias import fused_linear
from padax.incubate.nn.functional.fused_transformer import (
    fused_bias_dropout_residual_layer_norm,
    fused_feedforward,
    fused_multi_head_attention,
)
from padax.nn import Layer
from padax.nn.initializer import Constant
from padax.nn.layer.transformer import _attr_list

__all__ = ["FusedBiasDropoutResidualLayerNorm", "FusedDropoutAdd", "FusedFeedForward", "FusedLinear",
           "FusedMultiHeadAttention", "FusedTransformerEncoderLayer"]


def _positive(cls: str, **sizes: int) -> None:
    for k, v in sizes.items():
        if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
            raise op_value_error(cls, f"{k} must be a positive integer, got {v!r}")


def _single_rank(cls: str, nranks: int) -> None:
    if nranks != 1:
        raise op_value_error(cls, f"nranks={nranks}: tensor-parallel splitting is not supported here (shard the "
                                  "layer's parameters with padax.sharding instead); use nranks=1")


def _norm_params(layer: Layer, pre: bool, size: int, pre_names: tuple, post_names: tuple, pre_attrs: tuple,
                 post_attrs: tuple) -> None:
    """Create the layer norm's scale (ones) and bias before the block (pre) or after it, and set the other
    pair of names to None, as Paddle's fused layers do."""
    names, unused, attrs = (pre_names, post_names, pre_attrs) if pre else (post_names, pre_names, post_attrs)
    setattr(layer, names[0], layer.create_parameter([size], attr=attrs[0], default_initializer=Constant(1.0)))
    setattr(layer, names[1], layer.create_parameter([size], attr=attrs[1], is_bias=True))
    for n in unused:
        setattr(layer, n, None)


class FusedLinear(Layer):
    """y = x @ weight + bias, weight [in_features, out_features] ([out, in] with transpose_weight).

    Examples:
        >>> import padax
        >>> from padax.incubate.nn import FusedLinear
        >>> FusedLinear(3, 2)(padax.ones([4, 3])).shape
        (4, 2)
    """

    def __init__(self, in_features: int, out_features: int, weight_attr: Any = None, bias_attr: Any = None,
                 transpose_weight: bool = False, name: str | None = None) -> None:
        super().__init__()
        _positive("FusedLinear", in_features=in_features, out_features=out_features)
        shape = [out_features, in_features] if transpose_weight else [in_features, out_features]
        self.weight = self.create_parameter(shape, attr=weight_attr)
        self.bias = self.create_parameter([out_features], attr=bias_attr, is_bias=True)
        self.transpose_weight, self.name = bool(transpose_weight), name

    def forward(self, input: Any) -> Any:  # noqa: A002
        return fused_linear(input, self.weight, self.bias, self.transpose_weight)


class FusedDropoutAdd(Layer):
    """dropout(x, p) + y, active in training mode.

    Examples:
        >>> import padax
        >>> from padax.incubate.nn import FusedDropoutAdd
        >>> layer = FusedDropoutAdd(p=0.5)
        >>> _ = layer.eval()
        >>> layer(padax.ones([2]), padax.ones([2])).tolist()
        [2.0, 2.0]
    """

    def __init__(self, p: float = 0.5, mode: str = "upscale_in_train", name: str | None = None) -> None:
        super().__init__()
        self.p, self.mode, self.name = p, mode, name

    def forward(self, x: Any, y: Any) -> Any:
        return fused_dropout_add(x, y, p=self.p, training=self.training, mode=self.mode)

    def extra_repr(self) -> str:
        return f"p={self.p}, mode={self.mode}"


class FusedBiasDropoutResidualLayerNorm(Layer):
    """layer_norm(residual + dropout(x + linear_bias)): parameters linear_bias, ln_scale, ln_bias ([embed_dim]).

    Examples:
        >>> import padax
        >>> from padax.incubate.nn import FusedBiasDropoutResidualLayerNorm
        >>> FusedBiasDropoutResidualLayerNorm(4)(padax.ones([2, 4]), padax.ones([2, 4])).shape
        (2, 4)
    """

    def __init__(self, embed_dim: int, dropout_rate: float = 0.5, weight_attr: Any = None, bias_attr: Any = None,
                 epsilon: float = 1e-5, name: str | None = None) -> None:
        super().__init__()
        _positive("FusedBiasDropoutResidualLayerNorm", embed_dim=embed_dim)
        self.embed_dim = embed_dim
        self.linear_bias = self.create_parameter([embed_dim], attr=bias_attr, is_bias=True)
        self.ln_scale = self.create_parameter([embed_dim], attr=weight_attr, default_initializer=Constant(1.0))
        self.ln_bias = self.create_parameter([embed_dim], attr=bias_attr, is_bias=True)
        self.dropout_rate, self._epsilon, self.name = dropout_rate, epsilon, name

    def forward(self, x: Any, residual: Any) -> Any:
        return fused_bias_dropout_residual_layer_norm(x, residual, self.linear_bias, self.ln_scale, self.ln_bias,
                                                      self.dropout_rate, self._epsilon, training=self.training)


class FusedMultiHeadAttention(Layer):
    """Self-attention with Paddle's fused layout: qkv_weight [3, num_heads, head_dim, embed_dim] and qkv_bias
    [3, num_heads, head_dim] (or [embed_dim, 3 * embed_dim] and [3 * embed_dim] with transpose_qkv_wb),
    linear_weight [embed_dim, embed_dim], linear_bias [embed_dim], and a layer norm after the residual add
    (ln_scale, ln_bias) or, with normalize_before, before the attention (pre_ln_scale, pre_ln_bias).

    Returns:
        layer(query, key=None, value=None, attn_mask=None, cache=None): [batch, seq_len, embed_dim] (self
        attention: key and value are query; with cache, (out, new cache)).

    Examples:
        >>> import padax
        >>> from padax.incubate.nn import FusedMultiHeadAttention
        >>> attn = FusedMultiHeadAttention(8, 2, dropout_rate=0.0, attn_dropout_rate=0.0)
        >>> attn.qkv_weight.shape, attn(padax.ones([2, 3, 8])).shape
        ((3, 2, 4, 8), (2, 3, 8))
    """

    def __init__(self, embed_dim: int, num_heads: int, dropout_rate: float = 0.5, attn_dropout_rate: float = 0.5,
                 kdim: int | None = None, vdim: int | None = None, normalize_before: bool = False,
                 need_weights: bool = False, qkv_weight_attr: Any = None, qkv_bias_attr: Any = None,
                 linear_weight_attr: Any = None, linear_bias_attr: Any = None, pre_ln_scale_attr: Any = None,
                 pre_ln_bias_attr: Any = None, ln_scale_attr: Any = None, ln_bias_attr: Any = None,
                 epsilon: float = 1e-5, nranks: int = 1, ring_id: int = -1, transpose_qkv_wb: bool = False,
                 name: str | None = None) -> None:
        super().__init__()
        cls = "FusedMultiHeadAttention"
        _positive(cls, embed_dim=embed_dim, num_heads=num_heads)
        _single_rank(cls, nranks)
        if embed_dim % num_heads:
            raise op_value_error(cls, f"embed_dim ({embed_dim}) must be divisible by num_heads ({num_heads})")
        if need_weights:
            raise op_value_error(cls, "need_weights=True is not supported (as in Paddle)")
        self.normalize_before, self._epsilon, self._ring_id = bool(normalize_before), epsilon, ring_id
        self.embed_dim, self.num_heads, self.head_dim = embed_dim, num_heads, embed_dim // num_heads
        self.kdim, self.vdim, self.need_weights = kdim, vdim, need_weights
        self.transpose_qkv_wb = bool(transpose_qkv_wb)
        if self.transpose_qkv_wb:
            w_shape, b_shape = [embed_dim, 3 * embed_dim], [3 * embed_dim]
        else:
            w_shape, b_shape = [3, num_heads, self.head_dim, embed_dim], [3, num_heads, self.head_dim]
        self.qkv_weight = self.create_parameter(w_shape, attr=qkv_weight_attr)
        self.qkv_bias = self.create_parameter(b_shape, attr=qkv_bias_attr, is_bias=True)
        self.linear_weight = self.create_parameter([embed_dim, embed_dim], attr=linear_weight_attr)
        self.linear_bias = self.create_parameter([embed_dim], attr=linear_bias_attr, is_bias=True)
        _norm_params(self, self.normalize_before, embed_dim, ("pre_ln_scale", "pre_ln_bias"), ("ln_scale", "ln_bias"),
                     (pre_ln_scale_attr, pre_ln_bias_attr), (ln_scale_attr, ln_bias_attr))
        self.dropout_rate, self.attn_dropout_rate, self.name = dropout_rate, attn_dropout_rate, name

    def forward(self, query: Any, key: Any = None, value: Any = None, attn_mask: Any = None,
                cache: Any = None) -> Any:
        return fused_multi_head_attention(
            query, self.qkv_weight, self.linear_weight, self.normalize_before, self.pre_ln_scale, self.pre_ln_bias,
            self.ln_scale, self.ln_bias, self._epsilon, self.qkv_bias, self.linear_bias, cache, attn_mask,
            self.dropout_rate, self.attn_dropout_rate, self._epsilon, training=self.training,
            num_heads=self.num_heads, transpose_qkv_wb=self.transpose_qkv_wb)

    def extra_repr(self) -> str:
        return (f"embed_dim={self.embed_dim}, num_heads={self.num_heads}, dropout_rate={self.dropout_rate}, "
                f"attn_dropout_rate={self.attn_dropout_rate}, epsilon={self._epsilon}, "
                f"normalize_before={self.normalize_before}")


class FusedFeedForward(Layer):
    """The transformer's feed-forward block with Paddle's fused parameters: _linear1_weight [d_model,
    dim_feedforward], _linear1_bias, _linear2_weight [dim_feedforward, d_model], _linear2_bias, and the layer
    norm after the residual add (_ln2_scale, _ln2_bias) or, with normalize_before, before the block (_ln1_*).

    Examples:
        >>> import padax
        >>> from padax.incubate.nn import FusedFeedForward
        >>> FusedFeedForward(8, 16, dropout_rate=0.0)(padax.ones([2, 3, 8])).shape
        (2, 3, 8)
    """

    def __init__(self, d_model: int, dim_feedforward: int, dropout_rate: float = 0.1, epsilon: float = 1e-05,
                 activation: str = "relu", act_dropout_rate: float | None = None, normalize_before: bool = False,
                 linear1_weight_attr: Any = None, linear1_bias_attr: Any = None, linear2_weight_attr: Any = None,
                 linear2_bias_attr: Any = None, ln1_scale_attr: Any = None, ln1_bias_attr: Any = None,
                 ln2_scale_attr: Any = None, ln2_bias_attr: Any = None, nranks: int = 1, ring_id: int = -1,
                 name: str | None = None) -> None:
        super().__init__()
        cls = "FusedFeedForward"
        _positive(cls, d_model=d_model, dim_feedforward=dim_feedforward)
        _single_rank(cls, nranks)
        self._d_model, self._dim_feedforward = d_model, dim_feedforward
        self._dropout_rate = dropout_rate
        self._act_dropout_rate = dropout_rate if act_dropout_rate is None else act_dropout_rate
        self._act_method, self._normalize_before = activation, bool(normalize_before)
        self._epsilon, self._ring_id = epsilon, ring_id
        self._linear1_weight = self.create_parameter([d_model, dim_feedforward], attr=linear1_weight_attr)
        self._linear1_bias = self.create_parameter([dim_feedforward], attr=linear1_bias_attr, is_bias=True)
        self._linear2_weight = self.create_parameter([dim_feedforward, d_model], attr=linear2_weight_attr)
        self._linear2_bias = self.create_parameter([d_model], attr=linear2_bias_attr, is_bias=True)
        _norm_params(self, self._normalize_before, d_model, ("_ln1_scale", "_ln1_bias"), ("_ln2_scale", "_ln2_bias"),
                     (ln1_scale_attr, ln1_bias_attr), (ln2_scale_attr, ln2_bias_attr))
        self.name = name

    def forward(self, src: Any, cache: Any = None) -> Any:
        return fused_feedforward(
            src, self._linear1_weight, self._linear2_weight, self._linear1_bias, self._linear2_bias,
            self._ln1_scale, self._ln1_bias, self._ln2_scale, self._ln2_bias,
            dropout1_rate=self._act_dropout_rate, dropout2_rate=self._dropout_rate, activation=self._act_method,
            ln1_epsilon=self._epsilon, ln2_epsilon=self._epsilon, pre_layer_norm=self._normalize_before,
            training=self.training)

    def extra_repr(self) -> str:
        return (f"d_model={self._d_model}, dim_feedforward={self._dim_feedforward}, dropout_rate="
                f"{self._dropout_rate}, activation={self._act_method}, normalize_before={self._normalize_before}")


class FusedTransformerEncoderLayer(Layer):
    """A transformer encoder layer as Paddle's fused one: `fused_attn` (FusedMultiHeadAttention) then `ffn`
    (FusedFeedForward); weight_attr/bias_attr may be a list of two, for the attention and the feed-forward.

    Examples:
        >>> import padax
        >>> from padax.incubate.nn import FusedTransformerEncoderLayer
        >>> enc = FusedTransformerEncoderLayer(8, 2, 16, dropout_rate=0.0)
        >>> enc(padax.ones([2, 3, 8])).shape
        (2, 3, 8)
    """

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int, dropout_rate: float = 0.1,
                 activation: str = "relu", attn_dropout_rate: float | None = None,
                 act_dropout_rate: float | None = None, normalize_before: bool = False, weight_attr: Any = None,
                 bias_attr: Any = None) -> None:
        super().__init__()
        _positive("FusedTransformerEncoderLayer", d_model=d_model, nhead=nhead, dim_feedforward=dim_feedforward)
        attn_dropout_rate = dropout_rate if attn_dropout_rate is None else attn_dropout_rate
        act_dropout_rate = dropout_rate if act_dropout_rate is None else act_dropout_rate
        self.normalize_before = bool(normalize_before)
        w, b = _attr_list(weight_attr, 2), _attr_list(bias_attr, 2)
        self.fused_attn = FusedMultiHeadAttention(
            d_model, nhead, dropout_rate=dropout_rate, attn_dropout_rate=attn_dropout_rate,
            normalize_before=self.normalize_before, qkv_weight_attr=w[0], qkv_bias_attr=b[0],
            linear_weight_attr=w[0], linear_bias_attr=b[0], pre_ln_scale_attr=w[0], pre_ln_bias_attr=b[0],
            ln_scale_attr=w[0], ln_bias_attr=b[0])
        self.ffn = FusedFeedForward(
            d_model, dim_feedforward, dropout_rate=dropout_rate, activation=activation,
            act_dropout_rate=act_dropout_rate, normalize_before=self.normalize_before, linear1_weight_attr=w[1],
            linear1_bias_attr=b[1], linear2_weight_attr=w[1], linear2_bias_attr=b[1])

    def forward(self, src: Any, src_mask: Any = None, cache: Any = None) -> Any:
        if cache is None:
            return self.ffn(self.fused_attn(src, attn_mask=src_mask))
        out, new_cache = self.fused_attn(src, attn_mask=src_mask, cache=cache)
        return self.ffn(out), new_cache
