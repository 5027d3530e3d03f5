"""Batch normalisation with Paddle's signature and statistics (biased batch variance, momentum 0.9).

Paddle updates running_mean/running_var in place; padax arrays are immutable, so
`batch_norm` returns the output only and `batch_norm_with_stats` also returns the
updated statistics (the BatchNorm layers use it and store them on the layer).
"""
from __future__ import annotations

from typing import Any

from padax import dtypes, stop_gradient
from padax.core.errors import op_type_error, op_value_error
from padax.functional import math as M, reduction as R
from padax.functional._arrays import asarray
from padax.functional.manipulation import reshape
from padax.lax import pmean as _pmean

_FORMATS = ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC")

# Installed by padax.static: `static_test_alias(train_value, eval_fn)` records, when train_value is a static
# Variable, that a test clone of its Program uses eval_fn()'s value instead (None: padax.static not loaded).
static_test_alias: Any = None


def _channel_axis(data_format: str, ndim: int) -> int:
    if data_format not in _FORMATS:
        raise op_value_error("batch_norm", f"data_format must be one of {_FORMATS}, got {data_format!r}")
    return 1 if data_format[1] == "C" else ndim - 1


def batch_norm_with_stats(x: Any, running_mean: Any, running_var: Any, weight: Any = None, bias: Any = None,
                          training: bool = False, momentum: float = 0.9, epsilon: float = 1e-05,
                          data_format: str = "NCHW", use_global_stats: bool | None = None,
                          axis_name: Any = None) -> tuple[Any, Any, Any]:
    """(output, new running_mean, new running_var). With batch statistics (training, unless
    use_global_stats), the running ones become momentum * old + (1 - momentum) * batch (biased variance);
    otherwise they are returned unchanged. `axis_name`: average the statistics over that mapped axis
    (vmap/shard_map), as SyncBatchNorm does across devices.

    Args:
        x: [N, C, ...] (or channels last), rank 2 to 5.
        running_mean, running_var: [C] running statistics.
        weight, bias: [C] scale and shift, or None.
        training: normalise with the batch statistics (True) or the running ones.
        momentum: the weight of the old running statistics in their update.
        epsilon: added to the variance.
        data_format: 'NC', 'NCL', 'NCHW', 'NCDHW' or a channels-last form.
        use_global_stats: force the running (True) or batch (False) statistics; None follows `training`.
        axis_name: a vmap/shard_map axis over which the batch statistics are averaged (None: none).

    Returns:
        (output of x's shape and dtype, new running_mean, new running_var).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.to_tensor([[1.0], [3.0]])  # [N=2, C=1]
        >>> mean0, var0 = padax.zeros([1]), padax.ones([1])
        >>> out, mean, var = F.batch_norm_with_stats(x, mean0, var0, training=True, momentum=0.9, data_format="NC")
        >>> out.tolist(), mean.tolist(), var.tolist()
        ([[-1.0], [1.0]], [0.2], [1.0])
    """
    x = asarray(x)
    if not dtypes.is_floating(x.aval.dtype):
        raise op_type_error("batch_norm", f"expected a floating-point input, got {x.aval.str_short()}")
    if x.aval.ndim < 2:
        raise op_value_error("batch_norm", f"expected an input of rank >= 2, got {x.aval.str_short()}")
    nd = x.aval.ndim
    c_axis = _channel_axis(data_format, nd)
    channels = x.aval.shape[c_axis]
    for what, t in (("running_mean", running_mean), ("running_var", running_var), ("weight", weight),
                    ("bias", bias)):
        if t is not None and tuple(asarray(t).aval.shape) != (channels,):
            raise op_value_error("batch_norm", f"{what} must have shape [{channels}] for {channels} channels "
                                 f"(input {x.aval.str_short()}, data_format {data_format}), got "
                                 f"{asarray(t).aval.str_short()}")
    use_batch = training if use_global_stats is None else not use_global_stats
    out_dtype = x.aval.dtype
    xc = M.cast(x, dtypes.float32) if out_dtype in (dtypes.float16, dtypes.bfloat16) else x
    bshape = [channels if i == c_axis else 1 for i in range(nd)]
    axes = [i for i in range(nd) if i != c_axis]
    if use_batch:
        mean = R.mean(xc, axis=axes)
        if axis_name is not None:
            mean = _pmean(mean, axis_name)
        centred = M.subtract(xc, reshape(mean, bshape))
        var = R.mean(M.square(centred), axis=axes)
        if axis_name is not None:
            var = _pmean(var, axis_name)
        new_mean = _running(running_mean, stop_gradient(mean), momentum)
        new_var = _running(running_var, stop_gradient(var), momentum)
    else:
        mean, var = M.cast(running_mean, xc.aval.dtype), M.cast(running_var, xc.aval.dtype)
        centred = M.subtract(xc, reshape(mean, bshape))
        new_mean, new_var = running_mean, running_var
    out = M.multiply(centred, reshape(M.rsqrt(M.add(var, epsilon)), bshape))
    if weight is not None:
        out = M.multiply(out, reshape(M.cast(weight, out.aval.dtype), bshape))
    if bias is not None:
        out = M.add(out, reshape(M.cast(bias, out.aval.dtype), bshape))
    out = M.cast(out, out_dtype)
    if use_batch and static_test_alias is not None:  # a static Program's test clone normalises by the running ones
        static_test_alias(out, lambda: batch_norm_with_stats(x, running_mean, running_var, weight, bias, False, momentum,
                                                             epsilon, data_format, None, axis_name)[0])
    return out, new_mean, new_var


def _running(old: Any, batch: Any, momentum: float) -> Any:
    old = asarray(old)
    return M.cast(M.add(M.multiply(old, momentum), M.multiply(M.cast(batch, old.aval.dtype), 1.0 - momentum)),
                  old.aval.dtype)


def batch_norm(x: Any, running_mean: Any, running_var: Any, weight: Any = None, bias: Any = None,
               training: bool = False, momentum: float = 0.9, epsilon: float = 1e-05, data_format: str = "NCHW",
               use_global_stats: bool | None = None, name: str | None = None) -> Any:
    """Normalise each channel by batch statistics (training) or the running ones (eval), then scale by weight
    and shift by bias. The running statistics are not updated here (arrays are immutable): use
    batch_norm_with_stats, or the BatchNorm layers, which keep them.

    Args:
        x: [N, C, ...] (or channels last), rank 2 to 5.
        running_mean, running_var: [C] running statistics.
        weight, bias: [C] scale and shift, or None.
        training: normalise with the batch statistics (True) or the running ones.
        momentum: the weight of the old running statistics in their update.
        epsilon: added to the variance.
        data_format: 'NC', 'NCL', 'NCHW', 'NCDHW' or a channels-last form.
        use_global_stats: force the running (True) or batch (False) statistics; None follows `training`.

    Returns:
        A Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.to_tensor([[1.0], [3.0]])  # [N=2, C=1]
        >>> F.batch_norm(x, padax.zeros([1]), padax.ones([1]), training=True, data_format="NC").tolist()
        [[-1.0], [1.0]]
        >>> F.batch_norm(x, padax.to_tensor([1.0]), padax.to_tensor([4.0]), epsilon=0.0, data_format="NC").tolist()
        [[0.0], [1.0]]
    """
    return batch_norm_with_stats(x, running_mean, running_var, weight, bias, training, momentum, epsilon,
                                 data_format, use_global_stats)[0]
