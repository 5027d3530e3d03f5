"""Normalisations with Paddle's signatures: layer_norm, rms_norm, group_norm, instance_norm,
local_response_norm and normalize (batch_norm lives with the BatchNorm layers).

Statistics are computed in float32 for float16/bfloat16 inputs, with the biased variance
(mean of squared deviations), and the result is cast back to the input's dtype.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from padax import dtypes
from padax.amp.policy import float32_inputs as _float32_inputs
from padax.core.errors import op_value_error
from padax.functional import math as M, reduction as R
from padax.functional._arrays import canonicalize_axis
from padax.functional._checks import (
    arg,
    no_out,  # noqa: F401  (a public name of this module, kept)
    write_out as _write_out,
)
from padax.functional.lax.windowed import reduce_window_sum
from padax.functional.manipulation import reshape
from padax.nn.functional._util import FORMATS, LOW_PRECISION, vector_norm


def _compute(x: Any) -> tuple[Any, Any]:
    """x in the dtype to compute statistics with, and the dtype to return."""
    dt = x.aval.dtype
    if not dtypes.is_floating(dt):
        dt = dtypes.default_float_dtype()
    return M.cast(x, dtypes.float32 if dt in LOW_PRECISION else dt), dt


def _standardize(x: Any, axes: tuple[int, ...], eps: float) -> Any:
    mean = R.mean(x, axis=list(axes), keepdim=True)
    centered = M.subtract(x, mean)
    var = R.mean(M.square(centered), axis=list(axes), keepdim=True)
    return M.multiply(centered, M.rsqrt(M.add(var, eps)))


def _affine(op: str, y: Any, weight: Any, bias: Any, shape: Sequence[int], bshape: Sequence[int]) -> Any:
    """y * weight + bias, each given with `shape` elements and broadcast as `bshape`."""
    for what, p in (("weight", weight), ("bias", bias)):
        if p is None:
            continue
        p = arg(op, p, what)
        if p.aval.size != int(np.prod(shape)):
            raise op_value_error(op, f"{what} {p.aval.str_short()} must have {list(shape)} elements")
        p = reshape(M.cast(p, y.aval.dtype), list(bshape))
        y = M.multiply(y, p) if what == "weight" else M.add(y, p)
    return y


def _normalized_shape(op: str, x: Any, normalized_shape: Any) -> tuple[int, ...]:
    shape = (int(normalized_shape),) if isinstance(normalized_shape, int) else tuple(int(s) for s in normalized_shape)
    nd = x.aval.ndim
    if not shape or len(shape) > nd or tuple(x.aval.shape[nd - len(shape):]) != shape:
        raise op_value_error(op, f"normalized_shape {list(shape)} must be the trailing dimensions of x "
                                 f"{x.aval.str_short()}")
    return shape


def layer_norm(x: Any, normalized_shape: Any, weight: Any = None, bias: Any = None, epsilon: float = 1e-05,
               name: str | None = None) -> Any:
    """Standardise x over its trailing `normalized_shape` dimensions, then scale and shift.

    Args:
        x: a Tensor.
        normalized_shape: an int or the list of trailing dimensions normalised together.
        weight, bias: scale and shift with prod(normalized_shape) elements, or None.
        epsilon: added to the variance.

    Returns:
        A Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.to_tensor([[1.0, 2.0, 3.0], [0.0, 0.0, 6.0]])
        >>> F.layer_norm(x, normalized_shape=[3]).tolist()
        [[-1.2247, 0.0, 1.2247], [-0.7071, -0.7071, 1.4142]]
        >>> F.layer_norm(x, [3], weight=padax.full([3], 2.0), bias=padax.ones([3]))[0].tolist()
        [-1.4495, 1.0, 3.4495]
    """
    x, = _float32_inputs("layer_norm", x)  # Paddle's AMP black list: float32
    op = "layer_norm"
    x = arg(op, x, "x")
    shape = _normalized_shape(op, x, normalized_shape)
    xf, dt = _compute(x)
    axes = tuple(range(x.aval.ndim - len(shape), x.aval.ndim))
    y = _affine(op, _standardize(xf, axes, epsilon), weight, bias, shape, shape)
    return M.cast(y, dt)


def rms_norm(input: Any, normalized_shape: Any, weight: Any = None, eps: float = 1e-05,
             name: str | None = None) -> tuple[Any, Any]:
    """x / sqrt(mean(x**2) + eps) * weight over the trailing `normalized_shape` dimensions.
    Returns (out, invvar) as Paddle does: invvar is the float32 1/rms of each of the flattened rows.

    Args:
        input: a Tensor.
        normalized_shape: an int or the list of trailing dimensions normalised together.
        weight: a scale of normalized_shape, or None.
        eps: added to the mean square.

    Returns:
        (out of input's shape and dtype, invvar: float32 1/rms per flattened row).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> out, invvar = F.rms_norm(padax.to_tensor([[3.0, 4.0]]), normalized_shape=[2], eps=0.0)
        >>> out.tolist(), invvar.tolist()
        ([[0.8485, 1.1314]], [0.2828])
    """
    op = "rms_norm"
    x = arg(op, input, "input")
    shape = _normalized_shape(op, x, normalized_shape)
    xf, dt = _compute(x)
    axes = list(range(x.aval.ndim - len(shape), x.aval.ndim))
    inv = M.rsqrt(M.add(R.mean(M.square(xf), axis=axes, keepdim=True), eps))
    y = _affine(op, M.multiply(xf, inv), weight, None, shape, shape)
    rows = int(np.prod(x.aval.shape[:x.aval.ndim - len(shape)]))
    return M.cast(y, dt), M.cast(reshape(inv, [rows]), dtypes.float32)


def _channel_axis(op: str, x: Any, data_format: str, formats: Sequence[str]) -> int:
    if data_format not in formats:
        raise op_value_error(op, f"data_format must be one of {list(formats)}, got {data_format!r}")
    if x.aval.ndim != len(data_format):
        raise op_value_error(op, f"x {x.aval.str_short()} does not match data_format {data_format!r}")
    return x.aval.ndim - 1 if data_format[-1] == "C" else 1


_ALL_FORMATS = tuple(f for pair in FORMATS.values() for f in pair)


def group_norm(x: Any, num_groups: int, epsilon: float = 1e-05, weight: Any = None, bias: Any = None,
               data_format: str = "NCHW", name: str | None = None) -> Any:
    """Standardise each group of num_groups channel groups over its channels and spatial positions.

    Args:
        x: [N, C, ...] (or channels last).
        num_groups: the number of groups (dividing C).
        epsilon: added to the variance.
        weight, bias: [C] scale and shift, or None.
        data_format: e.g. 'NCHW' or 'NHWC'.

    Returns:
        A Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.to_tensor([[[1.0], [3.0], [10.0], [20.0]]])  # [N=1, C=4, L=1]
        >>> F.group_norm(x, num_groups=2, data_format="NCL").reshape([-1]).tolist()
        [-1.0, 1.0, -1.0, 1.0]
    """
    x, = _float32_inputs("group_norm", x)  # Paddle's AMP black list: float32
    op = "group_norm"
    x = arg(op, x, "x")
    c_ax = _channel_axis(op, x, data_format, _ALL_FORMATS)
    c = x.aval.shape[c_ax]
    if num_groups < 1 or c % num_groups:
        raise op_value_error(op, f"num_groups={num_groups} must divide the {c} channels of {x.aval.str_short()}")
    xf, dt = _compute(x)
    shape = list(x.aval.shape)
    grouped = shape[:c_ax] + [num_groups, c // num_groups] + shape[c_ax + 1:]
    g = reshape(xf, grouped)
    axes = tuple(a for a in range(1, len(grouped)) if a != c_ax)
    y = reshape(_standardize(g, axes, epsilon), shape)
    bshape = [1] * len(shape)
    bshape[c_ax] = c
    return M.cast(_affine(op, y, weight, bias, [c], bshape), dt)


def instance_norm(x: Any, running_mean: Any = None, running_var: Any = None, weight: Any = None, bias: Any = None,
                  use_input_stats: bool = True, momentum: float = 0.9, eps: float = 1e-05,
                  data_format: str = "NCHW", name: str | None = None) -> Any:
    """Standardise each (sample, channel) over its spatial positions, then scale and shift per channel.
    With use_input_stats=False the given running statistics are used instead.

    Args:
        x: [N, C, ...] (NC, NCL, NCHW or NCDHW).
        running_mean, running_var: [C] statistics used when use_input_stats is False.
        weight, bias: [C] scale and shift, or None.
        use_input_stats: normalise by each instance's own statistics.
        momentum: accepted for Paddle compatibility (nothing is updated).
        eps: added to the variance.
        data_format: 'NC', 'NCL', 'NCHW' or 'NCDHW'.

    Returns:
        A Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.to_tensor([[[1.0, 3.0], [0.0, 10.0]]])  # [N=1, C=2, L=2]
        >>> F.instance_norm(x, data_format="NCL").tolist()
        [[[-1.0, 1.0], [-1.0, 1.0]]]
    """
    op = "instance_norm"
    x = arg(op, x, "x")
    _channel_axis(op, x, data_format, ("NC", "NCL", "NCHW", "NCDHW"))
    xf, dt = _compute(x)
    c = x.aval.shape[1]
    bshape = [1, c] + [1] * (x.aval.ndim - 2)
    if use_input_stats:
        y = _standardize(xf, tuple(range(2, x.aval.ndim)), eps)
    else:
        if running_mean is None or running_var is None:
            raise op_value_error(op, "use_input_stats=False needs running_mean and running_var")
        mean = reshape(M.cast(arg(op, running_mean, "running_mean"), xf.aval.dtype), bshape)
        var = reshape(M.cast(arg(op, running_var, "running_var"), xf.aval.dtype), bshape)
        y = M.multiply(M.subtract(xf, mean), M.rsqrt(M.add(var, eps)))
    return M.cast(_affine(op, y, weight, bias, [c], bshape), dt)


def local_response_norm(x: Any, size: int, alpha: float = 0.0001, beta: float = 0.75, k: float = 1.0,
                        data_format: str = "NCHW", name: str | None = None) -> Any:
    """x / (k + alpha * mean of x**2 over `size` neighbouring channels, zero padded) ** beta.

    Args:
        x: a Tensor of rank 3 or more, channels on axis 1 (or last).
        size: the number of neighbouring channels.
        alpha, beta, k: the constants of the formula.
        data_format: e.g. 'NCHW' or 'NHWC'.

    Returns:
        A Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.ones([1, 3, 1, 1])
        >>> F.local_response_norm(x, size=3, alpha=3.0, beta=1.0, k=1.0).reshape([-1]).tolist()
        [0.3333, 0.25, 0.3333]
    """
    op = "local_response_norm"
    x = arg(op, x, "x")
    if x.aval.ndim < 3:
        raise op_value_error(op, f"x must be at least 3-D, got {x.aval.str_short()}")
    if data_format not in _ALL_FORMATS:
        raise op_value_error(op, f"data_format must be one of {list(_ALL_FORMATS)}, got {data_format!r}")
    c_ax = x.aval.ndim - 1 if data_format[-1] == "C" else 1
    xf, dt = _compute(x)
    nd = x.aval.ndim
    dims = [1] * nd
    dims[c_ax] = size
    pads = [(0, 0)] * nd
    pads[c_ax] = (size // 2, (size - 1) // 2)
    total = reduce_window_sum(M.square(xf), dims, [1] * nd, pads)
    div = M.pow(M.add(M.multiply(total, alpha / size), k), beta)
    return M.cast(M.divide(xf, div), dt)


def normalize(x: Any, p: float = 2, axis: int = 1, epsilon: float = 1e-12, out: Any = None,
              name: str | None = None) -> Any:
    """x / max(||x||_p along axis, epsilon).

    Args:
        x: a Tensor.
        p: the order of the norm.
        axis: the axis normalised.
        epsilon: the lower bound on the norm.
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Returns:
        A Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.normalize(padax.to_tensor([[3.0, 4.0], [0.0, 0.0]])).tolist()
        [[0.6, 0.8], [0.0, 0.0]]
        >>> F.normalize(padax.to_tensor([[3.0, 4.0]]), p=1, axis=-1).tolist()
        [[0.4286, 0.5714]]
    """
    op = "normalize"
    if out is not None:
        return _write_out(out, normalize(x=x, p=p, axis=axis, epsilon=epsilon, name=name), op)
    x = arg(op, x, "x")
    xf, dt = _compute(x)
    a = canonicalize_axis(op, axis, max(x.aval.ndim, 1))
    norm = vector_norm(xf, float(p), a, keepdim=True)
    return M.cast(M.divide(xf, M.maximum(norm, epsilon)), dt)
