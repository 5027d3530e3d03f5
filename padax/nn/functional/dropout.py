"""Dropout family with Paddle's signatures; the mask is drawn from `key`, else padax.nn.rng_scope's key,
else (eagerly) padax's global key. `p` is the probability of zeroing an element."""
from __future__ import annotations

from typing import Any

from padax import dtypes
from padax.core.errors import op_type_error, op_value_error
from padax.functional import math as M
from padax.functional._arrays import asarray
from padax.nn.functional._rng import next_key
from padax.random import _samplers

# Installed by padax.static: `static_test_alias(train_value, eval_fn)` records, when train_value is a static
# Variable, that a test clone of its Program uses eval_fn()'s value instead (None: padax.static not loaded).
static_test_alias: Any = None

_MODES = ("upscale_in_train", "downscale_in_infer")
_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _check_p(op: str, p: Any) -> float:
    if isinstance(p, bool) or not isinstance(p, (int, float)):
        raise op_type_error(op, f"p must be a number, got {type(p).__name__}")
    if not 0.0 <= p <= 1.0:
        raise op_value_error(op, f"p must be in [0, 1], got {p}")
    return float(p)


def _float_x(op: str, x: Any) -> Any:
    x = asarray(x)
    if not dtypes.is_floating(x.aval.dtype):
        raise op_type_error(op, f"expected a floating-point input, got {x.aval.str_short()}")
    return x


def _keep_mask(op: str, key: Any, keep: float, shape: tuple, dtype: Any) -> Any:
    """1.0 where kept (probability `keep`), else 0.0, in `dtype`."""
    key = next_key(f"padax.nn.functional.{op}") if key is None else key
    return M.cast(_samplers.bernoulli(key, keep, shape), dtype)


def _mask_shape(op: str, shape: tuple, axis: Any) -> tuple:
    if axis is None:
        return shape
    axes = [axis] if isinstance(axis, int) else list(axis)
    nd = len(shape)
    for a in axes:
        if not -nd <= a < nd:
            raise op_value_error(op, f"axis {a} is out of range for an input of rank {nd}")
    keep = {a % nd for a in axes}
    return tuple(d if i in keep else 1 for i, d in enumerate(shape))


def dropout(x: Any, p: float = 0.5, axis: Any = None, training: bool = True, inplace: bool = False,
            mode: str = "upscale_in_train", name: str | None = None, key: Any = None) -> Any:
    """Zero elements with probability p. mode 'upscale_in_train' scales kept ones by 1/(1-p) in training and
    is the identity in eval; 'downscale_in_infer' keeps them as they are and scales by (1-p) in eval.
    `axis` (int or list): one mask value is shared along the other axes. `inplace` is accepted for Paddle's
    signature (padax Tensors are immutable: the result is always new). `key`: padax's addition.

    Args:
        x: a Tensor.
        p: the probability of zeroing an element.
        axis: an int or list: the axes along which the mask varies (None: all).
        training: training mode (dropout applied) or eval mode.
        inplace: accepted for Paddle compatibility.
        mode: 'upscale_in_train' or 'downscale_in_infer'.
        key: a padax.random key for the mask (padax's addition); None uses padax.nn.rng_scope's key or the global one.

    Returns:
        A Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> y = F.dropout(padax.ones([6]), p=0.5, key=padax.random.key(0))
        >>> sorted(set(y.tolist()))
        [0.0, 2.0]
        >>> F.dropout(padax.ones([2]), p=0.5, training=False, mode="downscale_in_infer").tolist()
        [0.5, 0.5]
    """
    p = _check_p("dropout", p)
    if mode not in _MODES:
        raise op_value_error("dropout", f"mode must be one of {_MODES}, got {mode!r}")
    x = _float_x("dropout", x)
    if not training:
        return M.multiply(x, 1.0 - p) if mode == "downscale_in_infer" else x
    if p == 0.0:
        return x
    if p == 1.0:
        return M.multiply(x, 0.0)
    mask = _keep_mask("dropout", key, 1.0 - p, _mask_shape("dropout", x.aval.shape, axis), x.aval.dtype)
    out = M.multiply(x, mask)
    out = M.divide(out, 1.0 - p) if mode == "upscale_in_train" else out
    if static_test_alias is not None:  # a static Program's clone(for_test=True) computes the eval value instead
        static_test_alias(out, lambda: M.multiply(x, 1.0 - p) if mode == "downscale_in_infer" else x)
    return out


def _channel_dropout(op: str, x: Any, p: float, training: bool, data_format: str, ndim: int, key: Any) -> Any:
    formats = ("NCHW", "NHWC") if ndim == 4 else ("NCDHW", "NDHWC")
    if data_format not in formats:
        raise op_value_error(op, f"data_format must be one of {formats}, got {data_format!r}")
    x = asarray(x)
    if x.aval.ndim != ndim:
        raise op_value_error(op, f"expected a {ndim}-D input, got {x.aval.str_short()}")
    return dropout(x, p, axis=[0, 1 if data_format[1] == "C" else ndim - 1], training=training, key=key)


def dropout2d(x: Any, p: float = 0.5, training: bool = True, data_format: str = "NCHW", name: str | None = None,
              key: Any = None) -> Any:
    """Zero whole channels of a 4-D input with probability p (kept ones scaled by 1/(1-p)).

    Args:
        x: a 4-D Tensor.
        p: the probability of zeroing a channel.
        training: apply dropout (True) or return x as it is (False).
        data_format: 'NCHW' or 'NHWC'.
        key: a padax.random key for the mask (padax's addition); None uses padax.nn.rng_scope's key or the global one.

    Returns:
        A Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> y = F.dropout2d(padax.ones([1, 4, 2, 2]), p=0.5, key=padax.random.key(1))
        >>> y.sum(axis=[2, 3]).tolist()
        [[8.0, 0.0, 8.0, 8.0]]
    """
    return _channel_dropout("dropout2d", x, p, training, data_format, 4, key)


def dropout3d(x: Any, p: float = 0.5, training: bool = True, data_format: str = "NCDHW", name: str | None = None,
              key: Any = None) -> Any:
    """Zero whole channels of a 5-D input with probability p (kept ones scaled by 1/(1-p)).

    Args:
        x: a 5-D Tensor.
        p: the probability of zeroing a channel.
        training: apply dropout (True) or return x as it is (False).
        data_format: 'NCDHW' or 'NDHWC'.
        key: a padax.random key for the mask (padax's addition); None uses padax.nn.rng_scope's key or the global one.

    Returns:
        A Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> y = F.dropout3d(padax.ones([1, 4, 1, 1, 2]), p=0.5, key=padax.random.key(1))
        >>> y.sum(axis=[2, 3, 4]).tolist()
        [[4.0, 0.0, 4.0, 4.0]]
    """
    return _channel_dropout("dropout3d", x, p, training, data_format, 5, key)


def _alpha(op: str, x: Any, p: float, training: bool, mask_shape: Any, key: Any) -> Any:
    p = _check_p(op, p)
    x = _float_x(op, x)
    if not training or p == 0.0:
        return x
    alpha_p = -_SELU_ALPHA * _SELU_SCALE
    if p == 1.0:
        return M.add(M.multiply(x, 0.0), alpha_p * 0.0)
    a = ((1.0 - p) * (1.0 + p * alpha_p ** 2)) ** -0.5
    b = -a * alpha_p * p
    keep = _keep_mask(op, key, 1.0 - p, mask_shape(x.aval.shape), x.aval.dtype)
    dropped = M.add(M.multiply(x, keep), M.multiply(M.subtract(1.0, keep), alpha_p))
    return M.add(M.multiply(dropped, a), b)


def alpha_dropout(x: Any, p: float = 0.5, training: bool = True, name: str | None = None, key: Any = None) -> Any:
    """Dropout for SELU networks: dropped elements become SELU's negative saturation value, then an affine map
    keeps the mean and variance.

    Args:
        x: a float Tensor.
        p: the probability of dropping an element.
        training: apply dropout (True) or return x as it is (False).
        key: a padax.random key for the mask (padax's addition); None uses padax.nn.rng_scope's key or the global one.

    Returns:
        A Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.to_tensor([1.0, -1.0, 0.5, 2.0])
        >>> F.alpha_dropout(x, p=0.5, training=False).tolist()
        [1.0, -1.0, 0.5, 2.0]
        >>> sorted(set(F.alpha_dropout(padax.ones([8]), p=0.5, key=padax.random.key(0)).tolist()))
        [-0.7792, 1.6656]
    """
    return _alpha("alpha_dropout", x, p, training, lambda s: s, key)


def feature_alpha_dropout(x: Any, p: float = 0.5, training: bool = True, name: str | None = None,
                          key: Any = None) -> Any:
    """alpha_dropout with one mask value per (sample, channel) of an NC... input.

    Args:
        x: a float Tensor [N, C, ...].
        p: the probability of dropping a (sample, channel).
        training: apply dropout (True) or return x as it is (False).
        key: a padax.random key for the mask (padax's addition); None uses padax.nn.rng_scope's key or the global one.

    Returns:
        A Tensor of x's shape and dtype.

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> y = F.feature_alpha_dropout(padax.ones([1, 3, 2]), p=0.5, key=padax.random.key(0))
        >>> [len(set(row)) for row in y[0].tolist()]
        [1, 1, 1]
    """
    x = asarray(x)
    if x.aval.ndim < 2:
        raise op_value_error("feature_alpha_dropout", f"expected an input of rank >= 2, got {x.aval.str_short()}")
    return _alpha("feature_alpha_dropout", x, p, training, lambda s: s[:2] + (1,) * (len(s) - 2), key)
