"""Tensor-parallel layers (Megatron's column/row split) as ordinary layers whose parameters carry shardings.

Parameters hold their global value: ColumnParallelLinear's weight is the
whole [in_features, out_features] matrix, split by columns over the 'mp'
axis of fleet's mesh (Paddle's weight is the local [in, out/mp] block).
`forward` is the plain formula with sharding constraints on its input and
output; XLA's SPMD partitioner turns them into Megatron's communication
(an all-reduce after a row-parallel product, an all-gather for
gather_output). Batches stay split over the data axes (dp, sharding).
"""
from __future__ import annotations

from typing import Any, Sequence

from padax.distributed.fleet import _state, layout
from padax.functional import _arrays
from padax.functional.manipulation import unsqueeze as _unsqueeze
from padax.nn.functional import cross_entropy as _cross_entropy, embedding as _embedding, linear as _linear
from padax.nn.initializer import Constant as _Constant, XavierNormal as _XavierNormal
from padax.nn.layer.layers import Layer
from padax.runtime.sharding import Mesh, NamedSharding, PartitionSpec


def mp_context(layer: str, mp_group: Any) -> tuple[Mesh, str, tuple[str, ...], int]:
    """(mesh, tensor-parallel axis, data axes, mp degree) from fleet.init's hybrid mesh."""
    if _state.hcg is None:
        raise RuntimeError(f"{layer}: call fleet.init(is_collective=True, strategy=...) first; tensor-parallel "
                           "layers split their parameters over the 'mp' axis of fleet's mesh")
    hcg = _state.hcg
    axis = str(mp_group) if mp_group is not None else "mp"
    if axis not in hcg.mesh.axis_names:
        raise ValueError(f"{layer}: mp_group {axis!r} is not an axis of fleet's mesh {dict(hcg.mesh.shape)}")
    return hcg.mesh, axis, hcg.data_axes, hcg.mesh.shape[axis]


def check_divisible(layer: str, what: str, size: int, degree: int) -> None:
    """A clear error when dimension `what` of `layer` cannot be split evenly over the mp axis."""
    if size % degree:
        raise ValueError(f"{layer}: {what} ({size}) is not divisible by mp_degree ({degree}); tensor parallelism "
                         f"splits it evenly over the 'mp' axis")


def activation_sharding(mesh: Mesh, shape: Sequence[int], data_axes: Sequence[str], *, batch_dim: int = 0,
                        split: dict | None = None) -> NamedSharding:
    """The layout of an activation: `batch_dim` over the data axes (where it divides), and each
    {dim: axis} of `split` over that mesh axis."""
    ndim = len(shape)
    spec: list[Any] = [None] * ndim
    live = layout.live_axes(mesh, data_axes)
    if ndim and live and shape[batch_dim % ndim] % layout.axes_product(mesh, live) == 0:
        spec[batch_dim % ndim] = layout.spec_entry(live)
    for d, axis in (split or {}).items():
        if ndim and mesh.shape[axis] > 1 and shape[d % ndim] % mesh.shape[axis] == 0:
            spec[d % ndim] = axis
    return NamedSharding(mesh, PartitionSpec(*spec))


class _MPLayer(Layer):
    """Shared parts: the mesh context and laying out parameters and activations."""

    def _setup(self, mp_group: Any) -> None:
        self._mesh, self._mp_axis, self._data_axes, self.world_size = mp_context(type(self).__name__, mp_group)
        self.is_mp = self.world_size > 1
        self._layouts: tuple = ()

    def _place(self, name: str, spec: Sequence[Any]) -> None:
        """Lay parameter `name` out as `spec` on the mesh, and remember it (restore_layouts)."""
        self._layouts = self._layouts + ((name, tuple(spec)),)
        value = getattr(self, name)
        if value is not None:
            setattr(self, name, layout.lay_out(value, NamedSharding(self._mesh, PartitionSpec(*spec))))

    def restore_layouts(self) -> None:
        """Lay this layer's parameters out again as constructed (after set_state_dict loaded plain values)."""
        for name, spec in self._layouts:
            value = getattr(self, name)
            if value is not None and not layout.is_traced(value):
                setattr(self, name, layout.lay_out(value, NamedSharding(self._mesh, PartitionSpec(*spec))))

    def set_state_dict(self, state_dict: Any, use_structured_name: bool = True, strict: bool = True):
        out = super().set_state_dict(state_dict, use_structured_name, strict)
        for sub in [self] + list(self.sublayers()):
            restore = getattr(sub, "restore_layouts", None)
            if restore is not None:
                restore()
        return out

    def _act(self, x: Any, split_last: bool = False, batch_dim: int = 0, seq_dim: int | None = None) -> Any:
        split = {}
        if split_last:
            split[-1] = self._mp_axis
        if seq_dim is not None:
            split[seq_dim] = self._mp_axis
        return layout.lay_out(x, activation_sharding(self._mesh, _arrays.aval_of(x).shape, self._data_axes,
                                                     batch_dim=batch_dim, split=split))


class ColumnParallelLinear(_MPLayer):
    """y = x @ W + b with W's columns (and b) split over 'mp'; gather_output=False leaves y split
    along its last dimension (the input a RowParallelLinear(input_is_parallel=True) expects).

    Args:
        in_features, out_features: the weight's shape; out_features must divide by the mp degree.
        weight_attr: ParamAttr or initializer of the weight [in_features, out_features].
        has_bias: add a bias (split like the columns); None or False means no bias, as in Paddle.
        gather_output: return y whole; False leaves it split along the last dimension over 'mp'.
        fuse_matmul_bias: accepted for Paddle compatibility (XLA fuses the bias add itself).
        mp_group: the tensor-parallel mesh axis of fleet's mesh (default 'mp'); needs `fleet.init` first.

    Returns:
        The layer; calling it maps [..., in_features] to [..., out_features].

    Examples:
        >>> import padax
        >>> from padax.distributed import fleet
        >>> from padax.distributed.fleet import meta_parallel as mpu
        >>> fleet.init(is_collective=True, strategy=fleet.DistributedStrategy())
        >>> layer = mpu.ColumnParallelLinear(4, 6, has_bias=True, gather_output=True)  # columns split over 'mp'
        >>> layer
        ColumnParallelLinear(in_features=4, out_features=6, mp_degree=1, gather_output=True)
        >>> layer(padax.ones([2, 4])).shape
        (2, 6)
    """

    def __init__(self, in_features: int, out_features: int, weight_attr: Any = None, has_bias: bool | None = None,
                 gather_output: bool = True, fuse_matmul_bias: bool = False, mp_group: Any = None,
                 name: str | None = None) -> None:
        super().__init__()
        self._setup(mp_group)
        check_divisible(name or "ColumnParallelLinear", "out_features", out_features, self.world_size)
        self.in_features, self.out_features, self.gather_output, self._name = in_features, out_features, \
            gather_output, name
        self.weight = self.create_parameter([in_features, out_features], attr=weight_attr)
        self.bias = self.create_parameter([out_features], attr=_Constant(0.0), is_bias=True) if has_bias else None
        self._place("weight", [None, self._mp_axis])
        self._place("bias", [self._mp_axis])

    def forward(self, x: Any) -> Any:
        y = _linear(x, self.weight, self.bias)
        return self._act(y, split_last=not self.gather_output)

    def extra_repr(self) -> str:
        return f"in_features={self.in_features}, out_features={self.out_features}, mp_degree={self.world_size}, " \
               f"gather_output={self.gather_output}"


class RowParallelLinear(_MPLayer):
    """y = x @ W + b with W's rows split over 'mp': each device multiplies its slice of x's last
    dimension, and the partial products are summed (XLA's all-reduce); b is replicated.

    Args:
        in_features, out_features: the weight's shape; in_features must divide by the mp degree.
        weight_attr: ParamAttr or initializer of the weight [in_features, out_features].
        has_bias: add a replicated bias.
        input_is_parallel: the input already comes split along its last dimension (a ColumnParallelLinear with
            gather_output=False); otherwise it is split here.
        fuse_matmul_bias: accepted for Paddle compatibility (XLA fuses the bias add itself).
        mp_group: the tensor-parallel mesh axis of fleet's mesh (default 'mp'); needs `fleet.init` first.

    Returns:
        The layer; calling it maps [..., in_features] to [..., out_features], replicated over 'mp'.

    Examples:
        >>> import padax
        >>> from padax.distributed import fleet
        >>> from padax.distributed.fleet import meta_parallel as mpu
        >>> fleet.init(is_collective=True, strategy=fleet.DistributedStrategy())
        >>> col = mpu.ColumnParallelLinear(4, 6, has_bias=True, gather_output=False)
        >>> row = mpu.RowParallelLinear(6, 3, input_is_parallel=True)  # rows split over 'mp', partial sums added
        >>> x = padax.ones([2, 4])
        >>> y = row(col(x))
        >>> y.shape, bool(padax.allclose(y, (x @ col.weight + col.bias) @ row.weight + row.bias, atol=1e-5))
        ((2, 3), True)
    """

    def __init__(self, in_features: int, out_features: int, weight_attr: Any = None, has_bias: bool = True,
                 input_is_parallel: bool = False, fuse_matmul_bias: bool = False, mp_group: Any = None,
                 name: str | None = None) -> None:
        super().__init__()
        self._setup(mp_group)
        check_divisible(name or "RowParallelLinear", "in_features", in_features, self.world_size)
        self.in_features, self.out_features, self.input_is_parallel, self._name = in_features, out_features, \
            input_is_parallel, name
        self.weight = self.create_parameter([in_features, out_features], attr=weight_attr)
        self.bias = self.create_parameter([out_features], attr=_Constant(0.0), is_bias=True) if has_bias else None
        self._place("weight", [self._mp_axis, None])
        self._place("bias", [None])

    def forward(self, x: Any) -> Any:
        x = self._act(x, split_last=True)
        return self._act(_linear(x, self.weight, self.bias))

    def extra_repr(self) -> str:
        return f"in_features={self.in_features}, out_features={self.out_features}, mp_degree={self.world_size}, " \
               f"input_is_parallel={self.input_is_parallel}"


class VocabParallelEmbedding(_MPLayer):
    """An embedding table [num_embeddings, embedding_dim] split by rows (the vocabulary) over 'mp'.

    Args:
        num_embeddings: the vocabulary size; must divide by the mp degree.
        embedding_dim: the size of each embedding vector.
        weight_attr: ParamAttr or initializer of the table (default XavierNormal).
        mp_group: the tensor-parallel mesh axis of fleet's mesh (default 'mp'); needs `fleet.init` first.

    Returns:
        The layer; calling it on int ids [...] gives [..., embedding_dim].

    Examples:
        >>> import padax
        >>> from padax.distributed import fleet
        >>> from padax.distributed.fleet import meta_parallel as mpu
        >>> fleet.init(is_collective=True, strategy=fleet.DistributedStrategy())
        >>> emb = mpu.VocabParallelEmbedding(10, 4)  # vocabulary rows split over 'mp'
        >>> out = emb(padax.to_tensor([[1, 2, 3]]))
        >>> out.shape, bool(padax.allclose(out[0, 0], emb.weight[1]))
        ((1, 3, 4), True)
    """

    def __init__(self, num_embeddings: int, embedding_dim: int, weight_attr: Any = None, mp_group: Any = None,
                 name: str | None = None) -> None:
        super().__init__()
        self._setup(mp_group)
        check_divisible(name or "VocabParallelEmbedding", "num_embeddings", num_embeddings, self.world_size)
        self.num_embeddings, self.embedding_dim, self._name = num_embeddings, embedding_dim, name
        self.weight = self.create_parameter([num_embeddings, embedding_dim], attr=weight_attr,
                                            default_initializer=_XavierNormal())
        self._place("weight", [self._mp_axis, None])

    def forward(self, x: Any) -> Any:
        return self._act(_embedding(x, self.weight))

    def extra_repr(self) -> str:
        return f"num_embeddings={self.num_embeddings}, embedding_dim={self.embedding_dim}, " \
               f"mp_degree={self.world_size}"


class ParallelCrossEntropy(_MPLayer):
    """Softmax cross entropy of logits split over 'mp' along the class dimension (the output of a
    ColumnParallelLinear with gather_output=False); per-example loss with a trailing 1, as Paddle.

    Args:
        mp_group: the tensor-parallel mesh axis of fleet's mesh (default 'mp'); needs `fleet.init` first.
        ignore_index: label value whose loss is 0.

    Returns:
        The layer; `loss(logits, label)` gives the per-example loss with a trailing dimension of 1.

    Examples:
        >>> import padax
        >>> from padax.distributed import fleet
        >>> from padax.distributed.fleet import meta_parallel as mpu
        >>> fleet.init(is_collective=True, strategy=fleet.DistributedStrategy())
        >>> logits = padax.to_tensor([[2.0, 0.0, 0.0]])  # the class dimension may be split over 'mp'
        >>> loss = mpu.ParallelCrossEntropy()(logits, padax.to_tensor([[0]]))
        >>> round(float(loss[0, 0]), 4)  # -log(e**2 / (e**2 + 2))
        0.2395
    """

    def __init__(self, mp_group: Any = None, name: str | None = None, ignore_index: int = -100) -> None:
        super().__init__()
        self._setup(mp_group)
        self.ignore_index, self._name = ignore_index, name

    def forward(self, input: Any, label: Any) -> Any:  # noqa: A002
        logits = self._act(input, split_last=True)
        loss = _cross_entropy(logits, label, ignore_index=self.ignore_index, reduction="none")
        if _arrays.aval_of(loss).ndim == _arrays.aval_of(logits).ndim - 1:
            loss = _unsqueeze(loss, -1)
        return loss
