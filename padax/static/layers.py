"""Paddle's static-graph layers (`paddle.static.nn.fc`, `conv2d`, `batch_norm`, `embedding`, ...) and
`create_parameter`: each makes its parameters (initial values computed now, kept by the startup program;
the program reads them by name from the scope) and records its ops into the current program."""
from __future__ import annotations

import importlib
import math
from typing import Any, Sequence

import numpy as np

import padax
import padax.nn.functional as F
from padax import dtypes
from padax.core.trace import trace_state
from padax.nn import initializer as I
from padax.nn.layer import layers as _nn_layers
from padax.nn.param_attr import ParamAttr
from padax.static.program import (
    STATE,
    ProgramTrace,
    StaticGraphError,
    Variable,
    _require_static,
    add_persistable,
    eager,
    unique_name,
)


def create_parameter(shape: Sequence[int], dtype: Any = "float32", name: str | None = None, attr: Any = None,
                     is_bias: bool = False, default_initializer: Any = None) -> Variable:
    """A parameter of the current program: its initial value is made now (by the attribute's initializer, else
    `default_initializer`, else Xavier-uniform for weights and zeros for biases) and kept by the startup program.

    Args:
        shape: its sizes (all known).
        dtype: its dtype.
        name: its name (default: the attribute's, else a generated one).
        attr: a padax.ParamAttr (name, initializer, trainable).
        is_bias: picks the default initializer (zeros).
        default_initializer: the initializer when the attribute gives none.

    Returns:
        The parameter Variable (persistable).

    Examples:
        >>> import padax
        >>> padax.enable_static()
        >>> w = padax.static.create_parameter([2, 3], "float32", name="cw",
        ...                                   default_initializer=padax.nn.initializer.Constant(0.5))
        >>> w.name, w.persistable, w.static_shape
        ('cw', True, [2, 3])
        >>> padax.disable_static()
    """
    _require_static("create_parameter")
    attr = ParamAttr._to_attr(attr)
    if attr is False:
        raise StaticGraphError("padax.static.create_parameter: attr=False means no parameter")
    shape = [int(d) for d in shape]
    if any(d < 0 for d in shape):
        raise StaticGraphError(f"padax.static.create_parameter: every size must be known, got {shape}")
    init = attr.initializer or default_initializer or (I.Constant(0.0) if is_bias else I.XavierUniform())
    pname = attr.name or name or unique_name("create_parameter") + ".w_0"
    with eager():
        value = init(shape, dtypes.to_dtype(dtype))
    return add_persistable(pname, value, "param", trainable=attr.trainable)


def _layer_parameter(init: Any, shape: list, dtype: Any, info: Any) -> Any:
    """A padax.nn Layer's new parameter: in static mode a named input of the current Program (made now, kept by
    the startup program), so the layer's forward reads it from the scope and minimize trains it."""
    if not isinstance(trace_state.trace, ProgramTrace):
        return init(shape, dtype)
    with eager():
        value = init(shape, dtype)
    return add_persistable(info.name, value, "param", trainable=info.trainable)


_nn_layers.static_parameter = _layer_parameter


def _test_alias(out: Any, eval_fn: Any) -> None:
    """Dropout's hook: a test clone of the Program computes `eval_fn()` (dropout in eval mode) where `out` was."""
    if not isinstance(out, Variable) or not isinstance(trace_state.trace, ProgramTrace):
        return
    prog = trace_state.trace.program
    test = eval_fn()
    if not isinstance(test, Variable):
        test = padax.assign(test)
    prog._test_alias[out._var] = test._var


def _assign(old: Any, new: Any) -> bool:
    """A layer's hook: assigning a new value to a persistable input of the current Program (BatchNorm's running
    statistics) records the program's update of it; the layer keeps the input."""
    prog = getattr(trace_state.trace, "program", None)
    if not isinstance(trace_state.trace, ProgramTrace) or not isinstance(old, Variable) or \
            prog._inputs.get(old._var, ("", "data"))[1] == "data":
        return False
    if isinstance(new, Variable) and new._var in prog._inputs:  # another input (tied weights): a plain assignment
        return False
    prog._set_update(old.name, new)
    return True


_nn_layers.static_assign = _assign
for _module in ("padax.nn.functional.dropout", "padax.nn.functional.norm_batch"):
    importlib.import_module(_module).static_test_alias = _test_alias


def _param(attr: Any, shape: Sequence[int], dtype: Any, default_name: str, default_init: Any,
           trainable: bool | None = None) -> Variable | None:
    attr = ParamAttr._to_attr(attr)
    if attr is False:
        return None
    init = attr.initializer or default_init
    with eager():
        value = init([int(d) for d in shape], dtypes.to_dtype(dtype))
    return add_persistable(attr.name or default_name, value, "param",
                           trainable=attr.trainable if trainable is None else trainable)


def _act(x: Any, act: str | None, where: str) -> Any:
    if act is None:
        return x
    fn = getattr(F, act, None)
    if not isinstance(act, str) or fn is None:
        raise ValueError(f"padax.static.nn.{where}: unknown activation {act!r} (a name in padax.nn.functional)")
    return fn(x)


def _real(x: Any, axis: int, where: str) -> int:
    d = x.static_shape[axis] if isinstance(x, Variable) else x.shape[axis]
    if d < 0:
        raise StaticGraphError(f"padax.static.nn.{where}: the size of axis {axis} must be known (it sizes a "
                               f"parameter), got shape {x.static_shape}")
    return int(d)


def fc(x: Any, size: int, num_flatten_dims: int = 1, weight_attr: Any = None, bias_attr: Any = None,
       activation: str | None = None, name: str | None = None) -> Variable:
    """A fully connected layer: `act(flatten(x) @ w + b)`, x's axes from `num_flatten_dims` on flattened into
    the input features (Paddle's `paddle.static.nn.fc`; weight `{name}.w_0` Xavier-uniform, bias `{name}.b_0` zeros).

    Args:
        x: a Variable (or a list of them: their layers' outputs are summed).
        size: the output features.
        num_flatten_dims: the leading axes kept; the rest are the input features.
        weight_attr, bias_attr: padax.ParamAttr (bias_attr=False: no bias).
        activation: an activation name ('relu', 'tanh', ...) or None.
        name: the layer's name prefix (default fc_N).

    Returns:
        A Variable of shape x.shape[:num_flatten_dims] + [size].

    Examples:
        >>> import padax
        >>> padax.enable_static()
        >>> x = padax.static.data("fx", [None, 2, 3], "float32")
        >>> padax.static.nn.fc(x, 4).static_shape
        [-1, 4]
        >>> padax.disable_static()
    """
    _require_static("nn.fc")
    xs = list(x) if isinstance(x, (list, tuple)) else [x]
    prefix = name or unique_name("fc")
    out = None
    for i, xi in enumerate(xs):
        nd = num_flatten_dims if num_flatten_dims >= 0 else xi.ndim + num_flatten_dims
        if not 0 < nd < xi.ndim:
            raise ValueError(f"padax.static.nn.fc: num_flatten_dims={num_flatten_dims} for an input of rank {xi.ndim}")
        in_features = int(np.prod([_real(xi, a, "fc") for a in range(nd, xi.ndim)]))
        w = _param(weight_attr, [in_features, size], xi.dtype, f"{prefix}.w_{i}", I.XavierUniform())
        lead = list(xi.shape[:nd])
        x2 = xi if xi.ndim == 2 and nd == 1 else padax.reshape(xi, [-1, in_features])
        y = padax.matmul(x2, w)
        out = y if out is None else out + y
    b = _param(bias_attr, [size], out.dtype, f"{prefix}.b_0", I.Constant(0.0))
    if b is not None:
        out = out + b
    if len(lead) != 1:
        out = padax.reshape(out, lead + [size])
    return _act(out, activation, "fc")


def _pair(v: Any, n: int = 2) -> list[int]:
    return [int(v)] * n if isinstance(v, (int, np.integer)) else [int(t) for t in v]


def conv2d(input: Any, num_filters: int, filter_size: Any, stride: Any = 1, padding: Any = 0, dilation: Any = 1,
           groups: int | None = None, param_attr: Any = None, bias_attr: Any = None, use_cudnn: bool = True,
           act: str | None = None, name: str | None = None, data_format: str = "NCHW") -> Variable:
    """A 2-D convolution layer (Paddle's `paddle.static.nn.conv2d`): filter `{name}.w_0` of shape
    [num_filters, C/groups, kh, kw] (default Normal(0, sqrt(2 / (kh*kw*C)))), bias `{name}.b_0` zeros.

    Args:
        input: [N, C, H, W] (or NHWC).
        num_filters: the output channels.
        filter_size: an int or (kh, kw).
        stride, padding, dilation, groups: as padax.nn.functional.conv2d.
        param_attr, bias_attr: padax.ParamAttr (bias_attr=False: no bias).
        act: an activation name or None.
        name: the layer's name prefix (default conv2d_N).
        data_format: 'NCHW' or 'NHWC'.

    Returns:
        The output Variable.

    Examples:
        >>> import padax
        >>> padax.enable_static()
        >>> x = padax.static.data("cx", [None, 3, 8, 8], "float32")
        >>> padax.static.nn.conv2d(x, 4, 3, padding=1).static_shape
        [-1, 4, 8, 8]
        >>> padax.disable_static()
    """
    _require_static("nn.conv2d")
    groups = 1 if groups is None else int(groups)
    channels = _real(input, 1 if data_format == "NCHW" else 3, "conv2d")
    kh, kw = _pair(filter_size)
    prefix = name or unique_name("conv2d")
    std = math.sqrt(2.0 / (kh * kw * channels))
    w = _param(param_attr, [num_filters, channels // groups, kh, kw], input.dtype, f"{prefix}.w_0",
               I.Normal(0.0, std))
    b = _param(bias_attr, [num_filters], input.dtype, f"{prefix}.b_0", I.Constant(0.0))
    out = F.conv2d(input, w, b, stride=stride, padding=padding, dilation=dilation, groups=groups,
                   data_format=data_format)
    return _act(out, act, "conv2d")


def batch_norm(input: Any, act: str | None = None, is_test: bool = False, momentum: float = 0.9,
               epsilon: float = 1e-05, param_attr: Any = None, bias_attr: Any = None, data_layout: str = "NCHW",
               in_place: bool = False, name: str | None = None, moving_mean_name: str | None = None,
               moving_variance_name: str | None = None, do_model_average_for_mean_and_var: bool = True,
               use_global_stats: bool = False) -> Variable:
    """Batch normalisation (Paddle's `paddle.static.nn.batch_norm`): in training, the batch statistics, and
    each run updates the running ones (`{name}.w_1`, `{name}.w_2`); a `clone(for_test=True)` program and
    is_test/use_global_stats use the running ones. Scale `{name}.w_0` ones, shift `{name}.b_0` zeros.

    Args:
        input: [N, C, ...] (or channels last).
        act: an activation name or None.
        is_test, use_global_stats: normalise with the running statistics.
        momentum: the weight of the old running statistics.
        epsilon: added to the variance.
        param_attr, bias_attr: padax.ParamAttr for the scale and shift.
        data_layout: 'NCHW' (channels second) or 'NHWC' (channels last).
        name: the layer's name prefix (default batch_norm_N).
        moving_mean_name, moving_variance_name: names of the running statistics.

    Returns:
        The normalised Variable.

    Examples:
        >>> import padax
        >>> padax.enable_static()
        >>> x = padax.static.data("bnx", [None, 3], "float32")
        >>> padax.static.nn.batch_norm(x).static_shape
        [-1, 3]
        >>> padax.disable_static()
    """
    _require_static("nn.batch_norm")
    channels_last = data_layout in ("NHWC", "NLC", "NDHWC")
    c = _real(input, input.ndim - 1 if channels_last else 1, "batch_norm")
    fmt = {2: "NC", 3: "NLC" if channels_last else "NCL", 4: "NHWC" if channels_last else "NCHW",
           5: "NDHWC" if channels_last else "NCDHW"}.get(input.ndim)
    if fmt is None:
        raise ValueError(f"padax.static.nn.batch_norm: input must have rank 2 to 5, got {input.ndim}")
    prefix = name or unique_name("batch_norm")
    dt = input.dtype
    scale = _param(param_attr, [c], dt, f"{prefix}.w_0", I.Constant(1.0))
    shift = _param(bias_attr, [c], dt, f"{prefix}.b_0", I.Constant(0.0))
    mean = _param(ParamAttr(name=moving_mean_name), [c], dt, f"{prefix}.w_1", I.Constant(0.0), trainable=False)
    var = _param(ParamAttr(name=moving_variance_name), [c], dt, f"{prefix}.w_2", I.Constant(1.0), trainable=False)
    test_out = F.batch_norm(input, mean, var, scale, shift, training=False, momentum=momentum, epsilon=epsilon,
                            data_format=fmt)
    if is_test or use_global_stats:
        return _act(test_out, act, "batch_norm")
    out, new_mean, new_var = F.batch_norm_with_stats(input, mean, var, scale, shift, training=True,
                                                     momentum=momentum, epsilon=epsilon, data_format=fmt)
    prog = STATE.main
    prog._set_update(mean.name, new_mean)
    prog._set_update(var.name, new_var)
    prog._test_alias[out._var] = test_out._var
    return _act(out, act, "batch_norm")


def embedding(input: Any, size: Sequence[int], is_sparse: bool = False, is_distributed: bool = False,
              padding_idx: int | None = None, param_attr: Any = None, dtype: Any = "float32") -> Variable:
    """A lookup table (Paddle's `paddle.static.nn.embedding`): rows of `{name}.w_0` [size[0], size[1]]
    (Xavier-uniform) at the integer ids of `input`; the output appends the embedding axis.

    Args:
        input: integer ids.
        size: (vocabulary size, embedding size).
        is_sparse, is_distributed: accepted for Paddle compatibility (dense gradients).
        padding_idx: an id whose row is zeros and gets no gradient.
        param_attr: a padax.ParamAttr for the table.
        dtype: the table's dtype.

    Returns:
        A Variable of shape input.shape + [size[1]].

    Examples:
        >>> import padax
        >>> padax.enable_static()
        >>> ids = padax.static.data("ids", [None, 5], "int64")
        >>> padax.static.nn.embedding(ids, [10, 3]).static_shape
        [-1, 5, 3]
        >>> padax.disable_static()
    """
    _require_static("nn.embedding")
    if len(size) != 2:
        raise ValueError(f"padax.static.nn.embedding: size must be (vocabulary, embedding size), got {size}")
    prefix = unique_name("embedding")
    w = _param(param_attr, [int(size[0]), int(size[1])], dtype, f"{prefix}.w_0", I.XavierUniform())
    if padding_idx is not None and padding_idx < 0:
        padding_idx += int(size[0])
    return F.embedding(input, w, padding_idx=padding_idx)


def layer_norm(input: Any, scale: bool = True, shift: bool = True, begin_norm_axis: int = 1,
               epsilon: float = 1e-05, param_attr: Any = None, bias_attr: Any = None, act: str | None = None,
               name: str | None = None) -> Variable:
    """Layer normalisation over the axes from `begin_norm_axis` on (Paddle's `paddle.static.nn.layer_norm`):
    scale `{name}.w_0` ones, shift `{name}.b_0` zeros, both of the normalised size.

    Args:
        input: the Variable.
        scale, shift: learn a scale / shift.
        begin_norm_axis: the first normalised axis.
        epsilon: added to the variance.
        param_attr, bias_attr: padax.ParamAttr for the scale and shift.
        act: an activation name or None.
        name: the layer's name prefix (default layer_norm_N).

    Returns:
        The normalised Variable.

    Examples:
        >>> import padax
        >>> padax.enable_static()
        >>> x = padax.static.data("lnx", [None, 4], "float32")
        >>> padax.static.nn.layer_norm(x).static_shape
        [-1, 4]
        >>> padax.disable_static()
    """
    _require_static("nn.layer_norm")
    shape = [_real(input, a, "layer_norm") for a in range(begin_norm_axis, input.ndim)]
    n = int(np.prod(shape))
    prefix = name or unique_name("layer_norm")
    w = _param(param_attr, [n], input.dtype, f"{prefix}.w_0", I.Constant(1.0)) if scale else None
    b = _param(bias_attr, [n], input.dtype, f"{prefix}.b_0", I.Constant(0.0)) if shift else None
    out = F.layer_norm(input, shape, None if w is None else padax.reshape(w, shape),
                       None if b is None else padax.reshape(b, shape), epsilon)
    return _act(out, act, "layer_norm")


__all__ = ["batch_norm", "conv2d", "conv2d_transpose", "create_parameter", "embedding", "fc", "group_norm",
           "instance_norm", "layer_norm", "prelu"]


def conv2d_transpose(input: Any, num_filters: int, output_size: Any = None, filter_size: Any = None, padding: Any = 0,
                     stride: Any = 1, dilation: Any = 1, groups: int | None = None, param_attr: Any = None,
                     bias_attr: Any = None, use_cudnn: bool = True, act: str | None = None, name: str | None = None,
                     data_format: str = "NCHW") -> Variable:
    """A transposed 2-D convolution layer (Paddle's `paddle.static.nn.conv2d_transpose`): filter `{name}.w_0` of
    shape [C, num_filters/groups, kh, kw] (Xavier-uniform), bias `{name}.b_0` zeros.

    Args:
        input: [N, C, H, W] (or NHWC).
        num_filters: the output channels.
        output_size: the output's (H, W); gives the filter size when filter_size is None (int padding).
        filter_size: an int or (kh, kw).
        padding, stride, dilation, groups: as padax.nn.functional.conv2d_transpose.
        param_attr, bias_attr: padax.ParamAttr (bias_attr=False: no bias).
        act: an activation name or None.
        name: the layer's name prefix (default conv2d_transpose_N).
        data_format: 'NCHW' or 'NHWC'.

    Returns:
        The output Variable.

    Examples:
        >>> import padax
        >>> padax.enable_static()
        >>> x = padax.static.data("tx", [None, 3, 4, 4], "float32")
        >>> padax.static.nn.conv2d_transpose(x, 2, filter_size=3, stride=2).static_shape
        [-1, 2, 9, 9]
        >>> padax.disable_static()
    """
    _require_static("nn.conv2d_transpose")
    groups = 1 if groups is None else int(groups)
    nchw = data_format == "NCHW"
    channels = _real(input, 1 if nchw else 3, "conv2d_transpose")
    if filter_size is None:
        if output_size is None or not isinstance(padding, (int, np.integer)):
            raise ValueError("padax.static.nn.conv2d_transpose: give filter_size (or output_size with an int padding)")
        spatial = [_real(input, a, "conv2d_transpose") for a in ((2, 3) if nchw else (1, 2))]
        st, dil = _pair(stride), _pair(dilation)
        filter_size = [(o - (i - 1) * s + 2 * int(padding) - 1) // d + 1
                       for o, i, s, d in zip(_pair(output_size), spatial, st, dil)]
    kh, kw = _pair(filter_size)
    prefix = name or unique_name("conv2d_transpose")
    w = _param(param_attr, [channels, num_filters // groups, kh, kw], input.dtype, f"{prefix}.w_0", I.XavierUniform())
    b = _param(bias_attr, [num_filters], input.dtype, f"{prefix}.b_0", I.Constant(0.0))
    out = F.conv2d_transpose(input, w, b, stride=stride, padding=padding, dilation=dilation, groups=groups,
                             output_size=output_size, data_format=data_format)
    return _act(out, act, "conv2d_transpose")


def group_norm(input: Any, groups: int, epsilon: float = 1e-05, param_attr: Any = None, bias_attr: Any = None,
               act: str | None = None, data_layout: str = "NCHW", name: str | None = None) -> Variable:
    """Group normalisation (Paddle's `paddle.static.nn.group_norm`): scale `{name}.w_0` ones and shift
    `{name}.b_0` zeros of the channel size.

    Args:
        input: [N, C, ...] (or channels last).
        groups: the number of channel groups.
        epsilon: added to the variance.
        param_attr, bias_attr: padax.ParamAttr (False: none).
        act: an activation name or None.
        data_layout: 'NCHW' or 'NHWC'.
        name: the layer's name prefix (default group_norm_N).

    Returns:
        The normalised Variable.

    Examples:
        >>> import padax
        >>> padax.enable_static()
        >>> x = padax.static.data("gnx", [None, 4, 3, 3], "float32")
        >>> padax.static.nn.group_norm(x, 2).static_shape
        [-1, 4, 3, 3]
        >>> padax.disable_static()
    """
    _require_static("nn.group_norm")
    c = _real(input, 1 if data_layout == "NCHW" else input.ndim - 1, "group_norm")
    prefix = name or unique_name("group_norm")
    w = _param(param_attr, [c], input.dtype, f"{prefix}.w_0", I.Constant(1.0))
    b = _param(bias_attr, [c], input.dtype, f"{prefix}.b_0", I.Constant(0.0))
    out = F.group_norm(input, groups, epsilon, w, b, data_format=data_layout)
    return _act(out, act, "group_norm")


def instance_norm(input: Any, epsilon: float = 1e-05, param_attr: Any = None, bias_attr: Any = None,
                  name: str | None = None) -> Variable:
    """Instance normalisation over each sample's channels (Paddle's `paddle.static.nn.instance_norm`): scale
    `{name}.w_0` ones and shift `{name}.b_0` zeros.

    Args:
        input: [N, C, ...].
        epsilon: added to the variance.
        param_attr, bias_attr: padax.ParamAttr (False: none).
        name: the layer's name prefix (default instance_norm_N).

    Returns:
        The normalised Variable.

    Examples:
        >>> import padax
        >>> padax.enable_static()
        >>> x = padax.static.data("inx", [None, 2, 3, 3], "float32")
        >>> padax.static.nn.instance_norm(x).static_shape
        [-1, 2, 3, 3]
        >>> padax.disable_static()
    """
    _require_static("nn.instance_norm")
    c = _real(input, 1, "instance_norm")
    prefix = name or unique_name("instance_norm")
    w = _param(param_attr, [c], input.dtype, f"{prefix}.w_0", I.Constant(1.0))
    b = _param(bias_attr, [c], input.dtype, f"{prefix}.b_0", I.Constant(0.0))
    return F.instance_norm(input, weight=w, bias=b, eps=epsilon)


def prelu(x: Any, mode: str, param_attr: Any = None, data_format: str = "NCHW", name: str | None = None) -> Variable:
    """Parametric ReLU (Paddle's `paddle.static.nn.prelu`): `x` where positive, else `alpha * x`, with `alpha`
    (`{name}.w_0`, 0.25) one number ('all'), one per channel ('channel') or one per element ('element').

    Args:
        x: the input.
        mode: 'all', 'channel' or 'element'.
        param_attr: a padax.ParamAttr for alpha.
        data_format: where the channels are ('NCHW': axis 1, else last) for mode 'channel'.
        name: the layer's name prefix (default prelu_N).

    Returns:
        A Variable shaped like x.

    Examples:
        >>> import padax
        >>> padax.enable_static()
        >>> x = padax.static.data("prx", [None, 3, 2, 2], "float32")
        >>> padax.static.nn.prelu(x, "channel").static_shape
        [-1, 3, 2, 2]
        >>> padax.disable_static()
    """
    _require_static("nn.prelu")
    if mode == "all":
        shape = [1]
    elif mode == "channel":
        if data_format in ("NCHW", "NCL", "NCDHW"):
            shape = [1, _real(x, 1, "prelu")] + [1] * (x.ndim - 2)
        else:
            shape = [1] * (x.ndim - 1) + [_real(x, x.ndim - 1, "prelu")]
    elif mode == "element":
        shape = [1] + [_real(x, a, "prelu") for a in range(1, x.ndim)]
    else:
        raise ValueError(f"padax.static.nn.prelu: mode must be 'all', 'channel' or 'element', got {mode!r}")
    alpha = _param(param_attr, shape, x.dtype, f"{name or unique_name('prelu')}.w_0", I.Constant(0.25))
    return padax.where(x > 0, x, alpha * x)
