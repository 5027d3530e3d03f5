"""Activations and softmax with Paddle's signatures.

Softmax-type functions subtract the maximum before exponentiating, and compute
float16/bfloat16 inputs in float32 before casting back.
"""
from __future__ import annotations

import math as _pymath
from typing import Any

from padax import custom_jvp, dtypes, lax
from padax.amp.policy import float32_inputs as _float32_inputs
from padax.core.errors import op_value_error
from padax.functional import math as M, reduction as R
from padax.functional._arrays import asarray, canonicalize_axis, full
from padax.functional._checks import (
    no_out,  # noqa: F401  (a public name of this module, kept)
    write_out as _write_out,
)
from padax.functional.indexed import take_along
from padax.functional.lax.custom import stop_gradient_p
from padax.functional.manipulation import reshape, split
from padax.functional.math import sigmoid, tanh  # noqa: F401  (also public here, as in Paddle)
from padax.nn.functional._util import float_input
from padax.random import _samplers
from padax.random._state import next_key as _next_key

# ---- activations -------------------------------------------------------------------------

def _clamp(x: Any, lo: float, hi: float) -> Any:
    """x clipped to [lo, hi] with Paddle's gradient: 0 where x touches a bound (clip's max/min
    would give 0.5 there); NaN passes through."""
    x = asarray(x)
    lo_v, hi_v = full(x.aval.shape, lo, x.aval.dtype), full(x.aval.shape, hi, x.aval.dtype)
    return M.where(M.less_equal(x, lo), lo_v, M.where(M.greater_equal(x, hi), hi_v, x))


def relu(x: Any, name: str | None = None) -> Any:
    """x where x > 0, else 0 (as in Paddle, the gradient at 0 is 0 and NaN becomes 0).

    Args:
        x: a Tensor.

    Returns:
        A Tensor of x's shape (and dtype, for a float x).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.relu(padax.to_tensor([-2.0, 0.0, 3.0])).tolist()
        [0.0, 0.0, 3.0]
    """
    x = asarray(x)
    return _relu(x) if dtypes.is_inexact(x.aval.dtype) else _relu_value(x)


def _relu_value(x: Any) -> Any:
    zero = full(x.aval.shape, 0, x.aval.dtype)
    return M.where(M.greater_than(x, zero), x, zero)  # NaN becomes 0, as in Paddle's kernel


# The gradient as a product with the mask x > 0 (0 at x == 0, as Paddle's): the transpose of a select would
# keep whole gradients alive longer in sharded (ZeRO-3) steps (tests/sharding/test_fleet.py)
_relu = custom_jvp(_relu_value)


@_relu.defjvp
def _relu_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    positive = M.greater_than(x, full(x.aval.shape, 0, x.aval.dtype))
    return _relu(x), M.multiply(t, positive.astype(t.dtype))


def relu6(x: Any, name: str | None = None) -> Any:
    """min(max(x, 0), 6).

    Args:
        x: a Tensor.

    Returns:
        A Tensor of x's shape (and dtype, for a float x).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.relu6(padax.to_tensor([-2.0, 3.0, 8.0])).tolist()
        [0.0, 3.0, 6.0]
    """
    return _clamp(x, 0, 6)


def leaky_relu(x: Any, negative_slope: float = 0.01, name: str | None = None) -> Any:
    """x where x >= 0, else negative_slope * x.

    Args:
        x: a Tensor.
        negative_slope: the slope for x < 0.

    Returns:
        A Tensor of x's shape (and dtype, for a float x).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.leaky_relu(padax.to_tensor([-2.0, 3.0]), negative_slope=0.1).tolist()
        [-0.2, 3.0]
    """
    x = asarray(x)
    return M.where(M.greater_equal(x, 0), x, M.multiply(x, negative_slope))


def elu(x: Any, alpha: float = 1.0, name: str | None = None) -> Any:
    """x where x > 0, else alpha * (exp(x) - 1).

    Args:
        x: a Tensor.
        alpha: the scale of the negative branch.

    Returns:
        A Tensor of x's shape (and dtype, for a float x).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.elu(padax.to_tensor([-1.0, 2.0]), alpha=1.0).tolist()
        [-0.6321, 2.0]
    """
    x = asarray(x)
    return M.where(M.greater_than(x, 0), x, M.multiply(M.expm1(x), alpha))


def gelu(x: Any, approximate: bool | str = False, name: str | None = None) -> Any:
    """x * Phi(x) with the exact erf form, or the tanh approximation when `approximate` is True or
    'tanh' ('none' and False mean exact, as in Paddle).

    Args:
        x: a Tensor (integers are computed in the default float dtype).
        approximate: True or 'tanh' for the tanh approximation; False or 'none' for the exact erf form.

    Returns:
        A Tensor of x's shape; float (integer inputs become the default float dtype).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.to_tensor([-1.0, 0.0, 1.0])
        >>> F.gelu(x).tolist()
        [-0.1587, 0.0, 0.8413]
        >>> F.gelu(x, approximate=True).tolist()
        [-0.1588, 0.0, 0.8412]
    """
    if isinstance(approximate, str):
        if approximate not in ("tanh", "none"):
            raise op_value_error("gelu", f"approximate must be True, False, 'tanh' or 'none', got {approximate!r}")
        approximate = approximate == "tanh"
    xf, dt = float_input(x)
    if approximate:
        inner = M.multiply(M.add(xf, M.multiply(M.multiply(M.square(xf), xf), 0.044715)),
                           _pymath.sqrt(2.0 / _pymath.pi))
        out = M.multiply(M.multiply(xf, 0.5), M.add(M.tanh(inner), 1.0))
    else:
        out = M.multiply(M.multiply(xf, 0.5), M.add(M.erf(M.multiply(xf, 1.0 / _pymath.sqrt(2.0))), 1.0))
    return M.cast(out, dt)


def silu(x: Any, inplace: bool = False, name: str | None = None) -> Any:
    """x * sigmoid(x).

    Args:
        x: a Tensor (integers are computed in the default float dtype).
        inplace: accepted for Paddle compatibility (padax arrays are immutable).

    Returns:
        A Tensor of x's shape; float (integer inputs become the default float dtype).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.silu(padax.to_tensor([-1.0, 0.0, 2.0])).tolist()
        [-0.2689, 0.0, 1.7616]
    """
    x = M.cast(x, dtypes.default_float_dtype()) if not dtypes.is_inexact(asarray(x).aval.dtype) else asarray(x)
    return M.multiply(x, M.sigmoid(x))


def swish(x: Any, name: str | None = None) -> Any:
    """x * sigmoid(x) (the same as silu).

    Args:
        x: a Tensor.

    Returns:
        A Tensor of x's shape; float (integer inputs become the default float dtype).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.swish(padax.to_tensor([-1.0, 0.0, 2.0])).tolist()
        [-0.2689, 0.0, 1.7616]
    """
    return silu(x)


def softplus(x: Any, beta: float = 1, threshold: float = 20, name: str | None = None) -> Any:
    """log(1 + exp(beta * x)) / beta, linear where beta * x > threshold.

    Args:
        x: a Tensor (integers are computed in the default float dtype).
        beta: the sharpness; larger values approach relu.
        threshold: above this beta * x the result is x itself.

    Returns:
        A Tensor of x's shape; float (integer inputs become the default float dtype).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.softplus(padax.to_tensor([-1.0, 0.0, 30.0])).tolist()
        [0.3133, 0.6931, 30.0]
        >>> F.softplus(padax.to_tensor([1.0]), beta=2.0).tolist()
        [1.0635]
    """
    x, = _float32_inputs("softplus", x)  # Paddle's AMP black list: float32
    xf, dt = float_input(x)
    bx = M.multiply(xf, beta)
    above = M.greater_than(bx, threshold)
    soft = M.divide(M.log1p(M.exp(M.where(above, full(bx.aval.shape, 0, bx.aval.dtype), bx))), beta)
    return M.cast(M.where(above, xf, soft), dt)


def log_sigmoid(x: Any, name: str | None = None) -> Any:
    """log(sigmoid(x)) = -softplus(-x), stable for large |x|.

    Args:
        x: a Tensor (integers are computed in the default float dtype).

    Returns:
        A Tensor of x's shape; float (integer inputs become the default float dtype).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.log_sigmoid(padax.to_tensor([-100.0, 0.0, 2.0])).tolist()
        [-100.0, -0.6931, -0.1269]
    """
    xf, dt = float_input(x)
    out = M.subtract(M.minimum(xf, 0), M.log1p(M.exp(M.neg(M.abs(xf)))))
    return M.cast(out, dt)


def hardsigmoid(x: Any, slope: float = 0.1666667, offset: float = 0.5, name: str | None = None) -> Any:
    """clip(slope * x + offset, 0, 1).

    Args:
        x: a Tensor.
        slope, offset: the line slope * x + offset clipped to [0, 1] (Paddle's defaults 1/6 and 0.5).

    Returns:
        A Tensor of x's shape (and dtype, for a float x).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.hardsigmoid(padax.to_tensor([-4.0, 0.0, 1.5, 4.0])).tolist()
        [0.0, 0.5, 0.75, 1.0]
    """
    x = asarray(x)
    return _clamp(M.add(M.multiply(x, slope), offset), 0, 1)


def hardswish(x: Any, name: str | None = None) -> Any:
    """x * relu6(x + 3) / 6.

    Args:
        x: a Tensor.

    Returns:
        A Tensor of x's shape (and dtype, for a float x).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.hardswish(padax.to_tensor([-1.0, 1.0, 4.0])).tolist()
        [-0.3333, 0.6667, 4.0]
    """
    x = asarray(x)
    return M.divide(M.multiply(x, relu6(M.add(x, 3))), 6)


def mish(x: Any, name: str | None = None) -> Any:
    """x * tanh(softplus(x)).

    Args:
        x: a Tensor.

    Returns:
        A Tensor of x's shape (and dtype, for a float x).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.mish(padax.to_tensor([-1.0, 0.0, 1.0])).tolist()
        [-0.3034, 0.0, 0.8651]
    """
    x = asarray(x)
    return M.multiply(x, M.tanh(softplus(x)))


def celu(x: Any, alpha: float = 1.0, name: str | None = None) -> Any:
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1)).

    Args:
        x: a Tensor (integers are computed in the default float dtype).
        alpha: the scale of the negative branch; must be nonzero.

    Returns:
        A Tensor of x's shape; float (integer inputs become the default float dtype).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.celu(padax.to_tensor([-1.0, 2.0]), alpha=2.0).tolist()
        [-0.7869, 2.0]
    """
    if alpha == 0:
        raise op_value_error("celu", "alpha must be nonzero")
    x = _float(x)
    return M.where(M.greater_than(x, 0), x, M.multiply(M.expm1(M.divide(x, alpha)), alpha))


def selu(x: Any, scale: float = 1.0507009873554804934193349852946,
         alpha: float = 1.6732632423543772848170429916717, name: str | None = None) -> Any:
    """scale * (x where x > 0, else alpha * (exp(x) - 1)).

    Args:
        x: a Tensor (integers are computed in the default float dtype).
        scale, alpha: the constants of the self-normalising network (their defaults).

    Returns:
        A Tensor of x's shape; float (integer inputs become the default float dtype).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.selu(padax.to_tensor([-1.0, 0.0, 1.0])).tolist()
        [-1.1113, 0.0, 1.0507]
    """
    x = _float(x)
    return M.multiply(M.where(M.greater_than(x, 0), x, M.multiply(M.expm1(x), alpha)), scale)


def hardtanh(x: Any, min: float = -1.0, max: float = 1.0, name: str | None = None) -> Any:
    """clip(x, min, max).

    Args:
        x: a Tensor.
        min, max: the clip bounds.

    Returns:
        A Tensor of x's shape (and dtype, for a float x).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.hardtanh(padax.to_tensor([-3.0, 0.5, 3.0])).tolist()
        [-1.0, 0.5, 1.0]
        >>> F.hardtanh(padax.to_tensor([-3.0, 0.5, 3.0]), min=0.0, max=2.0).tolist()
        [0.0, 0.5, 2.0]
    """
    return _clamp(x, min, max)


def hardshrink(x: Any, threshold: float = 0.5, name: str | None = None) -> Any:
    """x where |x| >= threshold, else 0 (Paddle's kernel keeps |x| == threshold).

    Args:
        x: a Tensor.
        threshold: values with |x| < threshold become 0.

    Returns:
        A Tensor of x's shape (and dtype, for a float x).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.hardshrink(padax.to_tensor([-1.0, 0.3, 0.6])).tolist()
        [-1.0, 0.0, 0.6]
    """
    x = asarray(x)
    return M.where(M.greater_equal(M.abs(x), threshold), x, M.multiply(x, 0))


def softshrink(x: Any, threshold: float = 0.5, name: str | None = None) -> Any:
    """x - threshold above threshold, x + threshold below -threshold, else 0.

    Args:
        x: a Tensor.
        threshold: a non-negative width of the zero band; the rest moves towards 0 by it.

    Returns:
        A Tensor of x's shape (and dtype, for a float x).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.softshrink(padax.to_tensor([-1.0, 0.3, 0.75])).tolist()
        [-0.5, 0.0, 0.25]
    """
    if threshold < 0:
        raise op_value_error("softshrink", f"threshold must be non-negative, got {threshold}")
    x = asarray(x)
    return M.where(M.greater_than(x, threshold), M.subtract(x, threshold),
                   M.where(M.less_than(x, -threshold), M.add(x, threshold), M.multiply(x, 0)))


def tanhshrink(x: Any, name: str | None = None) -> Any:
    """x - tanh(x).

    Args:
        x: a Tensor (integers are computed in the default float dtype).

    Returns:
        A Tensor of x's shape; float (integer inputs become the default float dtype).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.tanhshrink(padax.to_tensor([-1.0, 0.0, 2.0])).tolist()
        [-0.2384, 0.0, 1.036]
    """
    x = _float(x)
    x, = _float32_inputs("tanh_shrink", x)  # Paddle's AMP black list: float32 (tanh itself is gray)
    return M.subtract(x, M.tanh(x))


def softsign(x: Any, name: str | None = None) -> Any:
    """x / (1 + |x|).

    Args:
        x: a Tensor (integers are computed in the default float dtype).

    Returns:
        A Tensor of x's shape; float (integer inputs become the default float dtype).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.softsign(padax.to_tensor([-3.0, 0.0, 1.0])).tolist()
        [-0.75, 0.0, 0.5]
    """
    x = _float(x)
    return M.divide(x, M.add(M.abs(x), 1))


def thresholded_relu(x: Any, threshold: float = 1.0, value: float = 0.0, name: str | None = None) -> Any:
    """x where x > threshold, else `value`.

    Args:
        x: a Tensor.
        threshold: values <= threshold are replaced.
        value: what replaces them.

    Returns:
        A Tensor of x's shape (and dtype, for a float x).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.thresholded_relu(padax.to_tensor([0.5, 1.0, 2.0])).tolist()
        [0.0, 0.0, 2.0]
        >>> F.thresholded_relu(padax.to_tensor([0.5, 2.0]), threshold=1.0, value=-1.0).tolist()
        [-1.0, 2.0]
    """
    x = asarray(x)
    return M.where(M.greater_than(x, threshold), x, M.add(M.multiply(x, 0), value))


def prelu(x: Any, weight: Any, data_format: str = "NCHW", name: str | None = None) -> Any:
    """x where x > 0, else weight * x; weight has 1 element or one per channel (the axis after N,
    or the last axis for a channel-last data_format).

    Args:
        weight: the slope for negative inputs: a Tensor of 1 element, or of one per channel.

    Returns:
        A Tensor of x's shape (and dtype, for a float x).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.to_tensor([[[-1.0, 2.0]], [[-3.0, -4.0]]])  # [N=2, C=1, L=2]
        >>> F.prelu(x, padax.to_tensor([0.25])).tolist()
        [[[-0.25, 2.0]], [[-0.75, -1.0]]]
        >>> F.prelu(padax.to_tensor([[-1.0, -1.0]]), padax.to_tensor([0.1, 0.5])).tolist()
        [[-0.1, -0.5]]
    """
    op = "prelu"
    x = _float(x)
    w = asarray(weight)
    if data_format not in ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC"):
        raise op_value_error(op, f"data_format {data_format!r} is not one of NC, NCL, NCHW, NCDHW, NLC, NHWC, NDHWC")
    if w.aval.size != 1:
        if x.aval.ndim < 2:
            raise op_value_error(op, f"a per-channel weight {w.aval.str_short()} needs x with a channel axis, got "
                                     f"{x.aval.str_short()}")
        c_ax = x.aval.ndim - 1 if data_format[-1] == "C" and data_format != "NC" else 1
        if w.aval.size != x.aval.shape[c_ax]:
            raise op_value_error(op, f"weight {w.aval.str_short()} must have 1 element or one per channel "
                                     f"({x.aval.shape[c_ax]}) of x {x.aval.str_short()}")
        shape = [1] * x.aval.ndim
        shape[c_ax] = w.aval.size
        w = reshape(w, shape)
    else:
        w = reshape(w, [])
    w = M.cast(w, x.aval.dtype)
    return M.where(M.greater_than(x, 0), x, M.multiply(x, w))


def rrelu(x: Any, lower: float = 1.0 / 8.0, upper: float = 1.0 / 3.0, training: bool = True,
          name: str | None = None, *, key: Any = None) -> Any:
    """x where x >= 0, else slope * x: slope ~ U(lower, upper) per element in training (from `key`,
    or padax's global seed when eager), (lower + upper) / 2 otherwise.

    Args:
        training: draw a random slope per element (True) or use the mean slope (False).
        key: a padax.random key for the slopes; None draws from padax's global seed.

    Returns:
        A float Tensor of x's shape.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.to_tensor([-3.0, 2.0])
        >>> F.rrelu(x, 0.1, 0.3, training=False).tolist()
        [-0.6, 2.0]
        >>> y = F.rrelu(x, 0.1, 0.3, key=padax.random.key(0)).tolist()
        >>> -0.9 <= y[0] <= -0.3, y[1]
        (True, 2.0)
    """
    op = "rrelu"
    if not 0 <= lower <= upper <= 1:
        raise op_value_error(op, f"need 0 <= lower <= upper <= 1, got lower={lower}, upper={upper}")
    x = _float(x)
    if training:
        key = _next_key(op) if key is None else key
        slope = _samplers.uniform(key, x.aval.shape, x.aval.dtype, lower, upper)
    else:
        slope = (lower + upper) / 2
    return M.where(M.greater_equal(x, 0), x, M.multiply(x, slope))


def glu(x: Any, axis: int = -1, name: str | None = None) -> Any:
    """a * sigmoid(b), a and b the two halves of x along `axis`.

    Args:
        x: a Tensor (integers are computed in the default float dtype).
        axis: the axis split in two halves (its size must be even).

    Returns:
        A float Tensor with `axis` halved.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.glu(padax.to_tensor([[1.0, 2.0, 0.0, 100.0]])).tolist()
        [[0.5, 2.0]]
    """
    x = _float(x)
    if x.aval.ndim == 0:
        raise op_value_error("glu", f"x must have at least 1 dimension to split in halves, got {x.aval.str_short()}")
    a = canonicalize_axis("glu", axis, x.aval.ndim)
    if x.aval.shape[a] % 2:
        raise op_value_error("glu", f"axis {a} of x {x.aval.str_short()} must have an even size")
    first, second = split(x, 2, axis=a)
    return M.multiply(first, M.sigmoid(second))


def swiglu(x: Any, y: Any = None, name: str | None = None) -> Any:
    """silu(x) * y; with y None, x's last axis is split in two halves (silu(first) * second).

    Args:
        x: a Tensor (integers are computed in the default float dtype).
        y: the gate multiplier; None splits x's last axis (of even size) into x and y.

    Returns:
        A float Tensor: x's shape, or x's with the last axis halved when y is None.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.swiglu(padax.to_tensor([1.0, -1.0]), padax.to_tensor([2.0, 2.0])).tolist()
        [1.4621, -0.5379]
        >>> F.swiglu(padax.to_tensor([1.0, 2.0])).tolist()
        [1.4621]
    """
    x = _float(x)
    if y is None:
        if x.aval.ndim == 0 or x.aval.shape[-1] % 2:
            raise op_value_error("swiglu", f"the last axis of x {x.aval.str_short()} must have an even size")
        x, y = split(x, 2, axis=-1)
    return M.multiply(silu(x), y)


def maxout(x: Any, groups: int, axis: int = 1, name: str | None = None) -> Any:
    """The max over each run of `groups` consecutive channels of a 4-D x along `axis` (1 or 3).

    Args:
        x: a 4-D Tensor, NCHW (axis 1) or NHWC (axis 3 or -1).
        groups: the run length; must divide the channels.
        axis: the channel axis, 1, 3 or -1.

    Returns:
        A Tensor of x's dtype with channels divided by `groups`.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.arange(8, dtype="float32").reshape([1, 4, 1, 2])
        >>> F.maxout(x, groups=2).tolist()
        [[[[2.0, 3.0]], [[6.0, 7.0]]]]
    """
    op = "maxout"
    x = asarray(x)
    if x.aval.ndim != 4:
        raise op_value_error(op, f"x must be 4-D, got {x.aval.str_short()}")
    a = canonicalize_axis(op, axis, x.aval.ndim)
    if a not in (1, 3):
        raise op_value_error(op, f"axis must be 1, 3 or -1, got {axis}")
    c = x.aval.shape[a]
    if groups < 1 or c % groups:
        raise op_value_error(op, f"groups={groups} must divide the {c} channels of x {x.aval.str_short()}")
    shape = list(x.aval.shape)
    grouped = reshape(x, shape[:a] + [c // groups, groups] + shape[a + 1:])
    # the first maximum of each run takes the whole gradient, as in Paddle (a max reduction splits ties)
    first = R.argmax(grouped, axis=a + 1, keepdim=True)
    return reshape(take_along(grouped, first, a + 1), shape[:a] + [c // groups] + shape[a + 1:])


def _float(x: Any) -> Any:
    x = asarray(x)
    return x if dtypes.is_inexact(x.aval.dtype) else M.cast(x, dtypes.default_float_dtype())


# ---- softmax -----------------------------------------------------------------------------

def _shifted(op: str, x: Any, axis: int, dtype: Any) -> tuple[Any, int, Any]:
    x = asarray(x)
    if dtype is not None:
        x = M.cast(x, dtype)
    xf, dt = float_input(x)
    if xf.aval.ndim == 0:
        return xf, None, dt
    a = canonicalize_axis(op, axis, xf.aval.ndim)
    # The shift cancels out of softmax/log_softmax, so its gradient is exactly zero: stop it rather
    # than differentiate through the max (a tie count and a divide per row). No guard for an
    # infinite max is needed: a row whose max is +-inf (or NaN) gives NaN with or without one.
    # Kept as dot + add + max + subtract, XLA:CPU fuses the logits' matmul with the shift.
    m = stop_gradient_p.bind(R.max(xf, axis=a, keepdim=True))
    return M.subtract(xf, m), a, dt


def softmax(x: Any, axis: int = -1, dtype: Any = None, name: str | None = None, *, out: Any = None) -> Any:
    """exp(x) / sum(exp(x)) along `axis`, computed with the maximum subtracted.

    Args:
        dtype: cast x to this dtype before the softmax (None keeps x's float dtype).
        out: must be None (Paddle's output Tensor; padax Tensors are immutable, use the returned one).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.softmax(padax.to_tensor([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]])).tolist()
        [[0.09, 0.2447, 0.6652], [0.3333, 0.3333, 0.3333]]
        >>> F.softmax(padax.to_tensor([1.0, 1.0]), dtype="float64").dtype
        dtype('float64')
    """
    x, = _float32_inputs("softmax", x)  # Paddle's AMP black list: float32
    if out is not None:
        return _write_out(out, softmax(x=x, axis=axis, dtype=dtype, name=name), "softmax")
    z, a, dt = _shifted("softmax", x, axis, dtype)
    if a is None:
        return M.cast(M.exp(M.multiply(z, 0)), dt)
    e = M.exp(z)
    return M.cast(M.divide(e, R.sum(e, axis=a, keepdim=True)), dt)


def log_softmax(x: Any, axis: int = -1, dtype: Any = None, name: str | None = None) -> Any:
    """x - logsumexp(x) along `axis`, computed with the maximum subtracted.

    Args:
        x: a Tensor (integers are computed in the default float dtype).
        axis: the axis normalised over.
        dtype: cast x to this dtype first (None keeps x's float dtype).

    Returns:
        A float Tensor of x's shape (float16/bfloat16 computed in float32 and cast back).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> F.log_softmax(padax.to_tensor([1.0, 2.0, 3.0])).tolist()
        [-2.4076, -1.4076, -0.4076]
        >>> F.log_softmax(padax.to_tensor([1000.0, 0.0])).tolist()
        [0.0, -1000.0]
    """
    x, = _float32_inputs("log_softmax", x)  # Paddle's AMP black list: float32
    z, a, dt = _shifted("log_softmax", x, axis, dtype)
    if a is None:
        return M.cast(M.multiply(z, 0), dt)
    return M.cast(M.subtract(z, M.log(R.sum(M.exp(z), axis=a, keepdim=True))), dt)


def gumbel_softmax(x: Any, temperature: float = 1.0, hard: bool = False, axis: int = -1,
                   name: str | None = None, *, key: Any = None) -> Any:
    """softmax((x + g) / temperature) with Gumbel(0, 1) noise g from `key` (or padax's global seed
    when eager); `hard` returns the one-hot of the argmax with the soft sample's gradient.

    Args:
        temperature: > 0; smaller values give samples closer to one-hot.
        key: a padax.random key for the noise; None draws from padax's global seed.

    Returns:
        A float Tensor of x's shape whose slices along `axis` sum to 1.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> logits = padax.to_tensor([[1.0, 2.0, 3.0]])
        >>> y = F.gumbel_softmax(logits, temperature=0.5, key=padax.random.key(0))
        >>> round(float(y.sum()), 5)
        1.0
        >>> F.gumbel_softmax(logits, hard=True, key=padax.random.key(0)).tolist()
        [[0.0, 1.0, 0.0]]
    """
    op = "gumbel_softmax"
    if temperature <= 0:
        raise op_value_error(op, f"temperature must be positive, got {temperature}")
    x = _float(x)
    key = _next_key(op) if key is None else key
    g = _samplers.gumbel(key, x.aval.shape, x.aval.dtype)
    y = softmax(M.divide(M.add(x, g), temperature), axis=axis)
    if not hard:
        return y
    a = canonicalize_axis(op, axis, x.aval.ndim)
    best = R.argmax(y, axis=a, keepdim=True)
    classes = lax.broadcasted_iota(best.aval.dtype, y.aval.shape, a)
    onehot = M.cast(M.equal(classes, best), y.aval.dtype)
    return M.add(M.subtract(onehot, stop_gradient_p.bind(y)), y)
