"""Batch normalisation layers with Paddle's names, parameters (weight, bias, _mean, _variance) and defaults.

In training mode a BatchNorm layer normalises with the batch statistics and stores
the updated running ones on itself (`self._mean = ...`), as Paddle does in place.
Inside jit/grad/vmap the layer is the copy rebuilt from the model passed in; the
transformation writes the new statistics back to that model (docs/nn_state.md).
"""
from __future__ import annotations

from typing import Any

from padax import dtypes
from padax.nn import functional as F
from padax.nn.functional.norm_batch import batch_norm_with_stats
from padax.nn.initializer import Constant
from padax.nn.layer._calls import check_input
from padax.nn.layer.layers import Layer, config_ints
from padax.nn.param_attr import ParamAttr


class _BatchNormBase(Layer):
    _ranks: tuple[int, ...] = (2, 3, 4, 5)
    _formats: tuple[str, ...] = ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC")

    def __init__(self, num_features: int, momentum: float = 0.9, epsilon: float = 1e-05, weight_attr: Any = None,
                 bias_attr: Any = None, data_format: str = "NCHW", use_global_stats: bool | None = None,
                 name: str | None = None, axis_name: Any = None) -> None:
        super().__init__()
        if data_format not in self._formats:
            raise ValueError(f"{type(self).__name__}: data_format must be one of {self._formats}, "
                             f"got {data_format!r}")
        (self._num_features,) = config_ints(self, num_features=num_features)
        self._momentum, self._epsilon = float(momentum), float(epsilon)
        self._data_format, self._use_global_stats, self._name = data_format, use_global_stats, name
        self._axis_name = axis_name
        shape = [self._num_features]
        default = dtypes.default_float_dtype()   # float16 models keep float32 statistics, as Paddle's
        dtype = dtypes.float32 if default == dtypes.float16 else default
        self.weight = self.create_parameter(shape, attr=weight_attr, dtype=dtype, default_initializer=Constant(1.0))
        self.bias = self.create_parameter(shape, attr=bias_attr, dtype=dtype, is_bias=True)
        for stat, value in (("_mean", 0.0), ("_variance", 1.0)):
            attr = ParamAttr(name=None if name is None else f"{name}{stat}", initializer=Constant(value),
                             trainable=False)
            setattr(self, stat, self.create_parameter(shape, attr=attr, dtype=dtype))

    def _channel_axis(self, ndim: int) -> int:
        return 1 if self._data_format[1] == "C" else ndim - 1

    def forward(self, input: Any) -> Any:  # noqa: A002
        check_input(self, input, ndims=self._ranks, layout=f"({self._data_format})", floating=True)
        nd = len(input.shape)
        check_input(self, input, axis=self._channel_axis(nd), size=self._num_features,
                    layout=f"({self._data_format})")
        fmt = ("NCHW" if self._data_format[1] == "C" else "NHWC") if nd > 2 else "NC"
        out, mean, var = batch_norm_with_stats(input, self._mean, self._variance, self.weight, self.bias,
                                               self.training, self._momentum, self._epsilon, fmt,
                                               self._use_global_stats, self._axis_name)
        if self.training and self._use_global_stats is not True:
            self._mean, self._variance = mean, var
        return out

    def extra_repr(self) -> str:
        s = f"num_features={self._num_features}, momentum={self._momentum}, epsilon={self._epsilon}"
        if self._data_format not in ("NCHW", "NCL", "NC", "NCDHW"):
            s += f", data_format={self._data_format}"
        return s + (f", name={self._name}" if self._name is not None else "")


class BatchNorm1D(_BatchNormBase):
    """Batch norm over [N, C] or [N, C, L] inputs (data_format 'NCL'; 'NC' and 'NLC' accepted).

    Args:
        num_features: the number of channels C.
        momentum: the weight of the old running statistics in their update.
        epsilon: added to the variance.
        weight_attr, bias_attr: ParamAttr or initializer of the scale (ones) and shift (zeros);
            False drops that parameter.
        data_format: 'NC', 'NCL' or 'NLC'.
        use_global_stats: use the running statistics in training too (True) or batch ones in eval (False);
            None follows the mode.

    Returns:
        layer(input): [N, C] or [N, C, L] -> the normalised Tensor of its shape (training mode also updates the running
        statistics _mean and _variance).

    Examples:
        >>> import padax
        >>> bn = padax.nn.BatchNorm1D(2)
        >>> x = padax.to_tensor([[1.0, 0.0], [3.0, 0.0]])
        >>> bn(x).tolist()
        [[-1.0, 0.0], [1.0, 0.0]]
        >>> bn._mean.tolist(), bn._variance.tolist()
        ([0.2, 0.0], [1.0, 0.9])
        >>> bn.eval()(x).tolist()
        [[0.8, 0.0], [2.8, 0.0]]
    """

    _ranks = (2, 3)
    _formats = ("NC", "NCL", "NLC")

    def __init__(self, num_features: int, momentum: float = 0.9, epsilon: float = 1e-05, weight_attr: Any = None,
                 bias_attr: Any = None, data_format: str = "NCL", use_global_stats: bool | None = None,
                 name: str | None = None) -> None:
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format, use_global_stats,
                         name)

    def _channel_axis(self, ndim: int) -> int:
        return 1 if self._data_format != "NLC" or ndim == 2 else 2


class BatchNorm2D(_BatchNormBase):
    """Batch norm over [N, C, H, W] inputs ('NHWC' accepted).

    Args:
        num_features: the number of channels C.
        momentum: the weight of the old running statistics in their update.
        epsilon: added to the variance.
        weight_attr, bias_attr: ParamAttr or initializer of the scale (ones) and shift (zeros);
            False drops that parameter.
        data_format: 'NCHW' or 'NHWC'.
        use_global_stats: use the running statistics in training too (True) or batch ones in eval (False);
            None follows the mode.
        axis_name: a vmap/shard_map axis over which the batch statistics are averaged (padax's addition).

    Returns:
        layer(input): [N, C, H, W] -> the normalised Tensor of its shape (training mode also updates the running
        statistics _mean and _variance).

    Examples:
        >>> import padax
        >>> bn = padax.nn.BatchNorm2D(3)
        >>> [name for name, _ in bn.named_parameters()], [name for name, _ in bn.named_buffers()]
        (['weight', 'bias', '_mean', '_variance'], [])
        >>> y = bn(padax.arange(24, dtype="float32").reshape([2, 3, 2, 2]))
        >>> y.shape, y[0, 0, 0].tolist()
        ((2, 3, 2, 2), [-1.2288, -1.065])
    """

    _ranks = (4,)
    _formats = ("NCHW", "NHWC")


class BatchNorm3D(_BatchNormBase):
    """Batch norm over [N, C, D, H, W] inputs ('NDHWC' accepted).

    Args:
        num_features: the number of channels C.
        momentum: the weight of the old running statistics in their update.
        epsilon: added to the variance.
        weight_attr, bias_attr: ParamAttr or initializer of the scale (ones) and shift (zeros);
            False drops that parameter.
        data_format: 'NCDHW' or 'NDHWC'.
        use_global_stats: use the running statistics in training too (True) or batch ones in eval (False);
            None follows the mode.

    Returns:
        layer(input): [N, C, D, H, W] -> the normalised Tensor of its shape (training mode also updates the running
        statistics _mean and _variance).

    Examples:
        >>> import padax
        >>> bn = padax.nn.BatchNorm3D(2)
        >>> bn(padax.ones([1, 2, 2, 2, 2])).shape
        (1, 2, 2, 2, 2)
    """

    _ranks = (5,)
    _formats = ("NCDHW", "NDHWC")

    def __init__(self, num_features: int, momentum: float = 0.9, epsilon: float = 1e-05, weight_attr: Any = None,
                 bias_attr: Any = None, data_format: str = "NCDHW", use_global_stats: bool | None = None,
                 name: str | None = None) -> None:
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format, use_global_stats,
                         name)


class SyncBatchNorm(_BatchNormBase):
    """BatchNorm whose batch statistics are averaged over the mapped axis `axis_name` (a vmap/shard_map axis,
    padax's addition); with axis_name None (one device) it equals BatchNorm.

    Args:
        num_features: the number of channels C.
        momentum: the weight of the old running statistics in their update.
        epsilon: added to the variance.
        weight_attr, bias_attr: ParamAttr or initializer of the scale (ones) and shift (zeros);
            False drops that parameter.
        data_format: e.g. 'NCHW' or 'NHWC'.
        axis_name: a vmap/shard_map axis over which the batch statistics are averaged (padax's addition).

    Returns:
        layer(input): [N, C, ...] -> the normalised Tensor of its shape (training mode also updates the running
        statistics _mean and _variance).

    Examples:
        >>> import padax
        >>> bn = padax.nn.SyncBatchNorm(1)  # one device: the same as BatchNorm
        >>> bn(padax.to_tensor([[[[1.0]]], [[[3.0]]]])).reshape([-1]).tolist()
        [-1.0, 1.0]
    """

    _formats = ("NCHW", "NHWC", "NCL", "NLC", "NCDHW", "NDHWC", "NC")

    def __init__(self, num_features: int, momentum: float = 0.9, epsilon: float = 1e-05, weight_attr: Any = None,
                 bias_attr: Any = None, data_format: str = "NCHW", name: str | None = None,
                 axis_name: Any = None) -> None:
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format, None, name,
                         axis_name)

    @classmethod
    def convert_sync_batchnorm(cls, layer: Layer, axis_name: Any = None) -> Layer:
        """`layer` with every BatchNorm*D (itself or a sublayer) replaced by a SyncBatchNorm with its values."""
        if isinstance(layer, _BatchNormBase) and not isinstance(layer, SyncBatchNorm):
            fmt = layer._data_format
            new = cls(layer._num_features, layer._momentum, layer._epsilon, data_format=fmt, name=layer._name,
                      axis_name=axis_name)
            for n in ("weight", "bias", "_mean", "_variance"):
                setattr(new, n, getattr(layer, n))
                new.__dict__["_param_info"][n] = layer.__dict__["_param_info"][n]
            new.training = layer.training  # (an attribute assignment: the cached tree structure is redone)
            return new
        for name, sub in list(layer.named_children()):
            layer.add_sublayer(name, cls.convert_sync_batchnorm(sub, axis_name))
        return layer


class BatchNorm(_BatchNormBase):
    """Paddle's older BatchNorm(num_channels, act=None, ...): batch norm of a rank 2-5 input, then `act`.

    Args:
        act: an activation name applied after the normalisation (e.g. 'relu'), or None.
        param_attr, bias_attr: ParamAttr or initializer of the scale (ones) and the shift (zeros).

    Examples:
        >>> import padax
        >>> bn = padax.nn.BatchNorm(1, act="relu")
        >>> bn(padax.to_tensor([[1.0], [3.0]])).tolist()
        [[0.0], [1.0]]
    """

    def __init__(self, num_channels: int, act: str | None = None, is_test: bool = False, momentum: float = 0.9,
                 epsilon: float = 1e-05, param_attr: Any = None, bias_attr: Any = None, dtype: str = "float32",
                 data_layout: str = "NCHW", in_place: bool = False, moving_mean_name: str | None = None,
                 moving_variance_name: str | None = None, do_model_average_for_mean_and_var: bool = True,
                 use_global_stats: bool = False, trainable_statistics: bool = False) -> None:
        if act is not None and not hasattr(F, act):
            raise ValueError(f"BatchNorm: unknown activation {act!r}")
        super().__init__(num_channels, momentum, epsilon, param_attr, bias_attr, data_layout,
                         True if use_global_stats else None)
        self._act = act

    def forward(self, input: Any) -> Any:  # noqa: A002
        out = super().forward(input)
        return getattr(F, self._act)(out) if self._act else out
