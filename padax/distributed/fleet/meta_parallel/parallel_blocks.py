"""A Megatron-style tensor-parallel Transformer block, with optional sequence parallelism.

Attention: q, k, v are ColumnParallelLinear (heads split over 'mp'), the
output projection a RowParallelLinear. MLP: ColumnParallelLinear, GELU,
RowParallelLinear. With `sequence_parallel=True` the activations outside
those products (layer norms, dropout, residual sums) are split along the
sequence dimension over 'mp' too, so that each device normalises only its
slice of the sequence; XLA then all-gathers before a column-parallel
product and reduce-scatters after a row-parallel one. Inputs are
[batch, seq, hidden].
"""
from __future__ import annotations

from typing import Any

from padax.distributed.fleet import layout as _layout
from padax.distributed.fleet.meta_parallel.mp_layers import (
    ColumnParallelLinear,
    RowParallelLinear,
    _MPLayer,
    activation_sharding as _activation_sharding,
    check_divisible,
    mp_context as _mp_context,
)
from padax.functional import _arrays
from padax.nn import Dropout as _Dropout, LayerNorm as _LayerNorm
from padax.nn.functional import gelu as _gelu, scaled_dot_product_attention as _scaled_dot_product_attention

SEQ_DIM = 1


class ParallelMLP(_MPLayer):
    """GELU MLP: hidden -> ffn (columns split over 'mp') -> hidden (rows split over 'mp').

    Args:
        hidden_size: the input and output width.
        ffn_hidden_size: the inner width; must divide by the mp degree.
        mp_group: the tensor-parallel mesh axis of fleet's mesh (default 'mp'); needs `fleet.init` first.

    Returns:
        The layer, mapping [..., hidden_size] to [..., hidden_size].

    Examples:
        >>> import padax
        >>> from padax.distributed import fleet
        >>> from padax.distributed.fleet import meta_parallel as mpu
        >>> fleet.init(is_collective=True, strategy=fleet.DistributedStrategy())
        >>> mlp = mpu.ParallelMLP(4, 8)  # column- then row-parallel linear
        >>> mlp(padax.ones([2, 3, 4])).shape
        (2, 3, 4)
    """

    def __init__(self, hidden_size: int, ffn_hidden_size: int, mp_group: Any = None, name: str | None = None
                 ) -> None:
        super().__init__()
        self._setup(mp_group)
        self.fc1 = ColumnParallelLinear(hidden_size, ffn_hidden_size, has_bias=True, gather_output=False,
                                        mp_group=mp_group, name=f"{name or 'ParallelMLP'}.fc1")
        self.fc2 = RowParallelLinear(ffn_hidden_size, hidden_size, has_bias=True, input_is_parallel=True,
                                     mp_group=mp_group, name=f"{name or 'ParallelMLP'}.fc2")

    def forward(self, x: Any) -> Any:
        return self.fc2(_gelu(self.fc1(x)))


class ParallelMultiHeadAttention(_MPLayer):
    """Self-attention with the heads split over 'mp' (num_heads must be divisible by mp_degree).

    Args:
        embed_dim: the model width; must divide by `num_heads`.
        num_heads: attention heads; must divide by the mp degree.
        causal: mask out attention to later positions.
        mp_group: the tensor-parallel mesh axis of fleet's mesh (default 'mp'); needs `fleet.init` first.

    Returns:
        The layer, mapping [batch, seq, embed_dim] to the same shape.

    Examples:
        >>> import padax
        >>> from padax.distributed import fleet
        >>> from padax.distributed.fleet import meta_parallel as mpu
        >>> fleet.init(is_collective=True, strategy=fleet.DistributedStrategy())
        >>> attn = mpu.ParallelMultiHeadAttention(8, 2, causal=True)  # heads split over 'mp'
        >>> attn(padax.ones([2, 3, 8])).shape
        (2, 3, 8)
    """

    def __init__(self, embed_dim: int, num_heads: int, causal: bool = False, mp_group: Any = None,
                 name: str | None = None) -> None:
        super().__init__()
        self._setup(mp_group)
        label = name or "ParallelMultiHeadAttention"
        if embed_dim % num_heads:
            raise ValueError(f"{label}: embed_dim ({embed_dim}) is not divisible by num_heads ({num_heads})")
        check_divisible(label, "num_heads", num_heads, self.world_size)
        self.embed_dim, self.num_heads, self.causal = embed_dim, num_heads, causal
        self.q_proj = ColumnParallelLinear(embed_dim, embed_dim, has_bias=True, gather_output=False,
                                           mp_group=mp_group, name=f"{label}.q_proj")
        self.k_proj = ColumnParallelLinear(embed_dim, embed_dim, has_bias=True, gather_output=False,
                                           mp_group=mp_group, name=f"{label}.k_proj")
        self.v_proj = ColumnParallelLinear(embed_dim, embed_dim, has_bias=True, gather_output=False,
                                           mp_group=mp_group, name=f"{label}.v_proj")
        self.out_proj = RowParallelLinear(embed_dim, embed_dim, has_bias=True, input_is_parallel=True,
                                          mp_group=mp_group, name=f"{label}.out_proj")

    def _heads(self, t: Any) -> Any:
        b, s, _ = t.shape
        t = t.reshape([b, s, self.num_heads, self.embed_dim // self.num_heads])
        return self._act(t, split_last=False, seq_dim=2)  # heads (dimension 2) over 'mp'

    def forward(self, x: Any) -> Any:
        q, k, v = (self._heads(p(x)) for p in (self.q_proj, self.k_proj, self.v_proj))
        o = _scaled_dot_product_attention(q, k, v, is_causal=self.causal, training=self.training)
        o = self._act(o, seq_dim=2)
        b, s = o.shape[0], o.shape[1]
        return self.out_proj(o.reshape([b, s, self.embed_dim]))


class ParallelTransformerLayer(_MPLayer):
    """A pre-norm Transformer block: x + attn(ln1(x)), then + mlp(ln2(.)), tensor-parallel inside.

    `sequence_parallel`: layer norms, dropout and residuals run on sequence
    slices split over 'mp' (seq_len must be divisible by mp_degree).

    Args:
        d_model: the model width.
        nhead: attention heads (divisible by the mp degree).
        dim_feedforward: the MLP's inner width.
        dropout: dropout rate after attention and after the MLP.
        sequence_parallel: run norms, dropout and residuals on sequence slices split over 'mp'.
        causal: mask out attention to later positions.
        mp_group: the tensor-parallel mesh axis of fleet's mesh (default 'mp'); needs `fleet.init` first.

    Returns:
        The layer, mapping [batch, seq, d_model] to the same shape.

    Examples:
        >>> import padax
        >>> from padax.distributed import fleet
        >>> from padax.distributed.fleet import meta_parallel as mpu
        >>> fleet.init(is_collective=True, strategy=fleet.DistributedStrategy())
        >>> block = mpu.ParallelTransformerLayer(8, 2, 16)
        >>> block(padax.ones([2, 3, 8])).shape
        (2, 3, 8)
    """

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int, dropout: float = 0.0,
                 sequence_parallel: bool = False, causal: bool = False, mp_group: Any = None,
                 name: str | None = None) -> None:
        super().__init__()
        self._setup(mp_group)
        label = name or "ParallelTransformerLayer"
        self.sequence_parallel = sequence_parallel
        self.norm1 = _LayerNorm(d_model)
        self.attn = ParallelMultiHeadAttention(d_model, nhead, causal, mp_group, f"{label}.attn")
        self.norm2 = _LayerNorm(d_model)
        self.mlp = ParallelMLP(d_model, dim_feedforward, mp_group, f"{label}.mlp")
        self.dropout1 = _Dropout(dropout)
        self.dropout2 = _Dropout(dropout)
        self._label = label

    def _seq(self, x: Any) -> Any:
        if not self.sequence_parallel:
            return x
        check_divisible(self._label, "sequence length (dimension 1 of the input)", x.shape[SEQ_DIM],
                        self.world_size)
        return self._act(x, seq_dim=SEQ_DIM)

    def forward(self, x: Any) -> Any:
        x = self._seq(x)
        h = self._seq(self.norm1(x))
        x = self._seq(x + self._seq(self.dropout1(self._seq(self.attn(h)))))
        h = self._seq(self.norm2(x))
        return self._seq(x + self._seq(self.dropout2(self._seq(self.mlp(h)))))


def scatter_sequence(x: Any, seq_dim: int = 0, mp_group: Any = None) -> Any:
    """Paddle's ScatterOp: `x` split along its sequence dimension over 'mp' (the global value is unchanged).

    Args:
        x: an activation.
        seq_dim: the sequence dimension to split (0 for [seq, batch, ...]).
        mp_group: the tensor-parallel mesh axis of fleet's mesh (default 'mp'); needs `fleet.init` first.

    Returns:
        `x` with the same values, split along `seq_dim` over 'mp'.

    Examples:
        >>> import padax
        >>> from padax.distributed import fleet
        >>> from padax.distributed.fleet import meta_parallel as mpu
        >>> fleet.init(is_collective=True, strategy=fleet.DistributedStrategy())
        >>> x = padax.arange(6.0).reshape(3, 2)  # [sequence, hidden]
        >>> mpu.scatter_sequence(x).tolist()  # laid out split along the sequence; the value is unchanged
        [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]
    """
    mesh, axis, data_axes, _ = _mp_context("scatter_sequence", mp_group)
    shape = _arrays.aval_of(x).shape
    return _layout.lay_out(x, _activation_sharding(mesh, shape, data_axes, batch_dim=1 if seq_dim == 0 else 0,
                                                   split={seq_dim: axis}))


def gather_sequence(x: Any, seq_dim: int = 0, mp_group: Any = None) -> Any:
    """Paddle's GatherOp: `x` whole along its sequence dimension on every 'mp' device.

    Args:
        x: an activation split along its sequence dimension over 'mp'.
        seq_dim: the sequence dimension (0 for [seq, batch, ...], else the batch is dimension 0).
        mp_group: the tensor-parallel mesh axis of fleet's mesh (default 'mp'); needs `fleet.init` first.

    Returns:
        `x` with the same values, whole along the sequence dimension.

    Examples:
        >>> import padax
        >>> from padax.distributed import fleet
        >>> from padax.distributed.fleet import meta_parallel as mpu
        >>> fleet.init(is_collective=True, strategy=fleet.DistributedStrategy())
        >>> x = mpu.scatter_sequence(padax.arange(6.0).reshape(3, 2))
        >>> mpu.gather_sequence(x).tolist()  # whole on every 'mp' device again
        [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]
    """
    mesh, _, data_axes, _ = _mp_context("gather_sequence", mp_group)
    shape = _arrays.aval_of(x).shape
    return _layout.lay_out(x, _activation_sharding(mesh, shape, data_axes, batch_dim=1 if seq_dim == 0 else 0))
