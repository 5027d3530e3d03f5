"""Common layers with Paddle's names, signatures, default initializers and weight layouts:
Linear, Bilinear, Identity, Flatten, Unflatten, Embedding, Dropout, Dropout2D/3D, AlphaDropout,
FeatureAlphaDropout."""
from __future__ import annotations

from typing import Any

from padax.functional import manipulation
from padax.nn.functional.common import bilinear, linear
from padax.nn.functional.dropout import _check_p, alpha_dropout, dropout, dropout2d, dropout3d, feature_alpha_dropout
from padax.nn.functional.input import embedding
from padax.nn.layer._calls import check_input
from padax.nn.layer.layers import Layer, config_ints


def _name_str(name: str | None) -> str:
    return f", name={name}" if name else ""


class Identity(Layer):
    """Returns its input (extra constructor arguments are ignored, as in Paddle).

    Args:
        args, kwargs: ignored.

    Returns:
        layer(input): input, unchanged.

    Examples:
        >>> import padax
        >>> padax.nn.Identity(54, unused_argument=1)(padax.to_tensor([1.0, 2.0])).tolist()
        [1.0, 2.0]
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()

    def forward(self, input: Any) -> Any:  # noqa: A002
        return input


class Linear(Layer):
    """y = x @ weight + bias, weight [in_features, out_features] (XavierUniform), bias [out_features] (zeros).

    Args:
        weight_attr, bias_attr: a ParamAttr or initializer for the parameters; bias_attr=False drops the bias.

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> layer = padax.nn.Linear(3, 2)
        >>> layer.weight.shape, layer.bias.shape, layer(padax.ones([4, 3])).shape
        ((3, 2), (2,), (4, 2))
        >>> const = padax.nn.Linear(3, 2, weight_attr=padax.nn.initializer.Constant(0.5), bias_attr=False)
        >>> const(padax.ones([1, 3])).tolist()
        [[1.5, 1.5]]
    """

    def __init__(self, in_features: int, out_features: int, weight_attr: Any = None, bias_attr: Any = None,
                 name: str | None = None) -> None:
        super().__init__()
        self.in_features, self.out_features = config_ints(self, in_features=in_features, out_features=out_features)
        self.name = name
        self.weight = self.create_parameter([in_features, out_features], attr=weight_attr)
        self.bias = self.create_parameter([out_features], attr=bias_attr, is_bias=True)

    def forward(self, input: Any) -> Any:  # noqa: A002
        check_input(self, input, axis=-1, size=self.in_features, floating=True, layout="[..., in_features]")
        return linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return f"in_features={self.in_features}, out_features={self.out_features}, dtype={self.weight.dtype}" \
               f"{_name_str(self.name)}"


class Bilinear(Layer):
    """out = x1^T W x2 + b per output feature: weight [out, in1, in2] (XavierUniform), bias [1, out] (zeros).

    Args:
        in1_features, in2_features: the sizes of the two inputs' last axes.
        out_features: the output size.
        weight_attr, bias_attr: a ParamAttr or initializer; bias_attr=False drops the bias.

    Returns:
        layer(x1, x2): [N, in1_features], [N, in2_features] -> [N, out_features].

    Examples:
        >>> import padax
        >>> init = padax.nn.initializer.Constant(1.0)
        >>> layer = padax.nn.Bilinear(2, 3, 4, weight_attr=init)
        >>> layer.weight.shape
        (4, 2, 3)
        >>> layer(padax.ones([1, 2]), padax.ones([1, 3])).tolist()
        [[6.0, 6.0, 6.0, 6.0]]
    """

    def __init__(self, in1_features: int, in2_features: int, out_features: int, weight_attr: Any = None,
                 bias_attr: Any = None, name: str | None = None) -> None:
        super().__init__()
        self._in1_features, self._in2_features, self._out_features = in1_features, in2_features, out_features
        self._name = name
        self.weight = self.create_parameter([out_features, in1_features, in2_features], attr=weight_attr)
        self.bias = self.create_parameter([1, out_features], attr=bias_attr, is_bias=True)

    def forward(self, x1: Any, x2: Any) -> Any:
        check_input(self, x1, ndims=(2,), axis=1, size=self._in1_features, floating=True, layout="[N, in1_features]")
        check_input(self, x2, ndims=(2,), axis=1, size=self._in2_features, floating=True, layout="[N, in2_features]")
        return bilinear(x1, x2, self.weight, self.bias)

    def extra_repr(self) -> str:
        return f"in1_features={self._in1_features}, in2_features={self._in2_features}, " \
               f"out_features={self._out_features}, dtype={self.weight.dtype}{_name_str(self._name)}"


class Flatten(Layer):
    """Flattens axes start_axis..stop_axis into one.

    Args:
        start_axis, stop_axis: the first and last axes merged (inclusive).

    Returns:
        layer(input): a Tensor -> the same elements with those axes merged.

    Examples:
        >>> import padax
        >>> padax.nn.Flatten()(padax.ones([2, 3, 4])).shape
        (2, 12)
        >>> padax.nn.Flatten(start_axis=0, stop_axis=1)(padax.ones([2, 3, 4])).shape
        (6, 4)
    """

    def __init__(self, start_axis: int = 1, stop_axis: int = -1) -> None:
        super().__init__()
        self.start_axis, self.stop_axis = start_axis, stop_axis

    def forward(self, input: Any) -> Any:  # noqa: A002
        return manipulation.flatten(input, self.start_axis, self.stop_axis)


class Unflatten(Layer):
    """Splits axis `axis` into `shape`.

    Args:
        axis: the axis split.
        shape: the sizes it is split into (their product is its size).

    Returns:
        layer(input): a Tensor -> the same elements with `axis` replaced by `shape`.

    Examples:
        >>> import padax
        >>> padax.nn.Unflatten(axis=1, shape=[2, 3])(padax.ones([4, 6])).shape
        (4, 2, 3)
    """

    def __init__(self, axis: int, shape: Any, name: str | None = None) -> None:
        super().__init__()
        self.axis, self.shape, self.name = axis, tuple(shape), name

    def forward(self, input: Any) -> Any:  # noqa: A002
        return manipulation.unflatten(input, self.axis, list(self.shape))

    def extra_repr(self) -> str:
        return f"axis={self.axis}, shape={list(self.shape)}{_name_str(self.name)}"


class Embedding(Layer):
    """A lookup table weight [num_embeddings, embedding_dim] (XavierUniform); the padding_idx row starts at
    zero and its positions output zeros. `sparse` is accepted; gradients are dense. An id outside
    [0, num_embeddings) raises eagerly; under jit it reads the nearest row and checkify's index_checks
    report it (see F.embedding).

    Args:
        num_embeddings, embedding_dim: the table's shape.
        padding_idx: an id (negative counts from the end) whose row is zero and whose positions output zeros.
        max_norm: rescale looked-up rows whose norm_type-norm exceeds it (None: no limit).
        norm_type: the p of that norm.
        sparse: accepted for Paddle compatibility (gradients are dense).
        weight_attr: a ParamAttr or initializer of the table.
        _weight: an existing [num_embeddings, embedding_dim] table to use; _freeze: make it non-trainable.
        scale_grad_by_freq: divide each row's gradient by how often its id occurs in the batch.
        device, dtype: where and in which float dtype the table is created (None: the defaults).

    Returns:
        layer(x): integer ids -> a Tensor x.shape + [embedding_dim].

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> emb = padax.nn.Embedding(10, 3, padding_idx=0)
        >>> emb.weight.shape
        (10, 3)
        >>> out = emb(padax.to_tensor([[0, 4, 9]]))
        >>> out.shape, out[0, 0].tolist()
        ((1, 3, 3), [0.0, 0.0, 0.0])
    """

    def __init__(self, num_embeddings: int, embedding_dim: int, padding_idx: int | None = None,
                 max_norm: float | None = None, norm_type: float = 2.0, sparse: bool = False,
                 weight_attr: Any = None, name: str | None = None, *, _weight: Any = None,
                 _freeze: bool = False, scale_grad_by_freq: bool = False, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        if num_embeddings <= 0 or embedding_dim <= 0:
            raise ValueError(f"Embedding: num_embeddings and embedding_dim must be positive, got "
                             f"{num_embeddings}, {embedding_dim}")
        if padding_idx is not None and not -num_embeddings <= padding_idx < num_embeddings:
            raise ValueError(f"Embedding: padding_idx must be in [-{num_embeddings}, {num_embeddings}), "
                             f"got {padding_idx}")
        self._num_embeddings, self._embedding_dim = num_embeddings, embedding_dim
        self._padding_idx = None if padding_idx is None else padding_idx % num_embeddings
        self._max_norm, self._norm_type, self._sparse, self._name = max_norm, norm_type, sparse, name
        self._scale_grad_by_freq = scale_grad_by_freq
        if _weight is not None:
            if tuple(_weight.shape) != (num_embeddings, embedding_dim):
                raise ValueError(f"Embedding: _weight has shape {list(_weight.shape)}, expected "
                                 f"{[num_embeddings, embedding_dim]}")
            self.add_parameter("weight", _weight)
        else:
            self.weight = self.create_parameter([num_embeddings, embedding_dim], attr=weight_attr, dtype=dtype,
                                                device=device)
        if self._padding_idx is not None:
            self.weight = self.weight.at[self._padding_idx].set(0.0)
        if _freeze:
            self.freeze("weight")

    @property
    def padding_idx(self) -> int | None:
        return self._padding_idx

    def forward(self, x: Any) -> Any:
        return embedding(x, self.weight, self._padding_idx, self._max_norm, self._norm_type, self._sparse,
                         self._scale_grad_by_freq)

    def extra_repr(self) -> str:
        s = f"{self._num_embeddings}, {self._embedding_dim}"
        if self._padding_idx is not None:
            s += f", padding_idx={self._padding_idx}"
        return s + f", sparse={self._sparse}{_name_str(self._name)}"


class Dropout(Layer):
    """Zeroes elements with probability p in training mode (F.dropout; randomness from padax.nn.rng_scope's
    key, else padax's global key).

    Args:
        p: the probability of zeroing an element.
        axis: the axes along which the mask varies (None: every element).
        mode: 'upscale_in_train' (kept values scaled by 1 / (1 - p) in training) or 'downscale_in_infer'.

    Examples:
        >>> import padax
        >>> drop = padax.nn.Dropout(p=0.5)
        >>> with padax.nn.rng_scope(padax.random.key(0)):
        ...     y = drop(padax.ones([8]))
        >>> sorted(set(y.tolist())), drop.eval()(padax.ones([2])).tolist()
        ([0.0, 2.0], [1.0, 1.0])
    """

    def __init__(self, p: float = 0.5, inplace: bool = False, axis: Any = None, mode: str = "upscale_in_train",
                 name: str | None = None) -> None:
        super().__init__()
        _check_p("Dropout", p)
        self.p, self.axis, self.mode, self.name, self.inplace = p, axis, mode, name, inplace

    def forward(self, input: Any) -> Any:  # noqa: A002
        return dropout(input, self.p, axis=self.axis, training=self.training, mode=self.mode)

    def extra_repr(self) -> str:
        return f"p={self.p}, axis={self.axis}, mode={self.mode}{_name_str(self.name)}, inplace={self.inplace}"


class Dropout2D(Layer):
    """Zeroes whole channels of a 4-D input with probability p in training mode.

    Args:
        p: the probability of zeroing a channel.
        data_format: 'NCHW' or 'NHWC'.

    Returns:
        layer(input): a 4-D Tensor -> the same shape (input itself in eval mode).

    Examples:
        >>> import padax
        >>> drop = padax.nn.Dropout2D(p=0.5)
        >>> with padax.nn.rng_scope(padax.random.key(1)):
        ...     y = drop(padax.ones([1, 4, 2, 2]))
        >>> y.sum(axis=[2, 3]).tolist()
        [[0.0, 8.0, 0.0, 8.0]]
    """

    def __init__(self, p: float = 0.5, data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__()
        _check_p("Dropout2D", p)
        self.p, self.data_format, self.name = p, data_format, name

    def forward(self, input: Any) -> Any:  # noqa: A002
        check_input(self, input, ndims=(4,), layout=f"({self.data_format})")
        return dropout2d(input, self.p, self.training, self.data_format)

    def extra_repr(self) -> str:
        return f"p={self.p}, data_format={self.data_format}{_name_str(self.name)}"


class Dropout3D(Layer):
    """Zeroes whole channels of a 5-D input with probability p in training mode.

    Args:
        p: the probability of zeroing a channel.
        data_format: 'NCDHW' or 'NDHWC'.

    Returns:
        layer(input): a 5-D Tensor -> the same shape (input itself in eval mode).

    Examples:
        >>> import padax
        >>> drop = padax.nn.Dropout3D(p=0.5)
        >>> with padax.nn.rng_scope(padax.random.key(1)):
        ...     y = drop(padax.ones([1, 4, 1, 1, 2]))
        >>> y.shape, y.sum(axis=[2, 3, 4]).tolist()
        ((1, 4, 1, 1, 2), [[0.0, 4.0, 0.0, 4.0]])
    """

    def __init__(self, p: float = 0.5, data_format: str = "NCDHW", name: str | None = None) -> None:
        super().__init__()
        _check_p("Dropout3D", p)
        self.p, self.data_format, self.name = p, data_format, name

    def forward(self, input: Any) -> Any:  # noqa: A002
        check_input(self, input, ndims=(5,), layout=f"({self.data_format})")
        return dropout3d(input, self.p, self.training, self.data_format)

    def extra_repr(self) -> str:
        return f"p={self.p}, data_format={self.data_format}{_name_str(self.name)}"


class AlphaDropout(Layer):
    """Alpha dropout for SELU networks (keeps mean and variance) in training mode.

    Args:
        p: the probability of dropping an element.

    Returns:
        layer(input): a float Tensor -> the same shape (input itself in eval mode).

    Examples:
        >>> import padax
        >>> drop = padax.nn.AlphaDropout(p=0.5)
        >>> with padax.nn.rng_scope(padax.random.key(0)):
        ...     y = drop(padax.ones([8]))
        >>> sorted(set(y.tolist())), drop.eval()(padax.ones([2])).tolist()
        ([-0.7792, 1.6656], [1.0, 1.0])
    """

    def __init__(self, p: float = 0.5, name: str | None = None) -> None:
        super().__init__()
        _check_p("AlphaDropout", p)
        self.p, self.name = p, name

    def forward(self, input: Any) -> Any:  # noqa: A002
        return alpha_dropout(input, self.p, self.training)

    def extra_repr(self) -> str:
        return f"p={self.p}{_name_str(self.name)}"


class FeatureAlphaDropout(AlphaDropout):
    """Alpha dropout with one mask value per (sample, channel).

    Args:
        p: the probability of dropping a (sample, channel).

    Returns:
        layer(input): a float [N, C, ...] Tensor -> the same shape (input itself in eval mode).

    Examples:
        >>> import padax
        >>> drop = padax.nn.FeatureAlphaDropout(p=0.5)
        >>> with padax.nn.rng_scope(padax.random.key(0)):
        ...     y = drop(padax.ones([1, 3, 2]))
        >>> [len(set(row)) for row in y[0].tolist()]
        [1, 1, 1]
    """

    def forward(self, input: Any) -> Any:  # noqa: A002
        return feature_alpha_dropout(input, self.p, self.training)
