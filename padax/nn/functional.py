"""`padax.nn.functional`: activations, softmax, one_hot and losses with Paddle's signatures.

Written against the public functional API only. Softmax-type functions
subtract the maximum before exponentiating, and compute float16/bfloat16
inputs in float32 before casting back.
"""
from __future__ import annotations

import math as _pymath
from typing import Any

from padax.core import dtypes
from padax.functional import math as M
from padax.functional import reduction as R
from padax.functional._arrays import asarray, canonicalize_axis, full
from padax.functional.lax.custom import stop_gradient_p
from padax.functional.linalg_basic import matmul
from padax.functional.manipulation import squeeze, unsqueeze
from padax.functional.math import sigmoid, tanh  # noqa: F401  (also public here, as in Paddle)

_LOW = (dtypes.float16, dtypes.bfloat16)


def _float_input(x: Any) -> tuple[Any, Any]:
    """x as a float array to compute with (f16/bf16 -> f32), and the dtype to return."""
    x = asarray(x)
    dt = x.aval.dtype if dtypes.is_inexact(x.aval.dtype) else dtypes.default_float_dtype()
    return M.cast(x, dtypes.float32 if dt in _LOW else dt), dt


# ---- activations -------------------------------------------------------------------------

def relu(x: Any, name: str | None = None) -> Any:
    """max(x, 0)."""
    x = asarray(x)
    return M.maximum(x, full(x.aval.shape, 0, x.aval.dtype))


def relu6(x: Any, name: str | None = None) -> Any:
    """min(max(x, 0), 6)."""
    return M.clip(x, 0, 6)


def leaky_relu(x: Any, negative_slope: float = 0.01, name: str | None = None) -> Any:
    """x where x >= 0, else negative_slope * x."""
    x = asarray(x)
    return M.where(M.greater_equal(x, 0), x, M.multiply(x, negative_slope))


def elu(x: Any, alpha: float = 1.0, name: str | None = None) -> Any:
    """x where x > 0, else alpha * (exp(x) - 1)."""
    x = asarray(x)
    return M.where(M.greater_than(x, 0), x, M.multiply(M.expm1(x), alpha))


def gelu(x: Any, approximate: bool = False, name: str | None = None) -> Any:
    """x * Phi(x) with the exact erf form, or the tanh approximation when `approximate`."""
    xf, dt = _float_input(x)
    if approximate:
        inner = M.multiply(M.add(xf, M.multiply(M.multiply(M.square(xf), xf), 0.044715)),
                           _pymath.sqrt(2.0 / _pymath.pi))
        out = M.multiply(M.multiply(xf, 0.5), M.add(M.tanh(inner), 1.0))
    else:
        out = M.multiply(M.multiply(xf, 0.5), M.add(M.erf(M.multiply(xf, 1.0 / _pymath.sqrt(2.0))), 1.0))
    return M.cast(out, dt)


def silu(x: Any, name: str | None = None) -> Any:
    """x * sigmoid(x)."""
    x = M.cast(x, dtypes.default_float_dtype()) if not dtypes.is_inexact(asarray(x).aval.dtype) else asarray(x)
    return M.multiply(x, M.sigmoid(x))


swish = silu


def softplus(x: Any, beta: float = 1, threshold: float = 20, name: str | None = None) -> Any:
    """log(1 + exp(beta * x)) / beta, linear where beta * x > threshold."""
    xf, dt = _float_input(x)
    bx = M.multiply(xf, beta)
    soft = M.divide(M.log1p(M.exp(M.minimum(bx, threshold))), beta)
    return M.cast(M.where(M.greater_than(bx, threshold), xf, soft), dt)


def log_sigmoid(x: Any, name: str | None = None) -> Any:
    """log(sigmoid(x)) = -softplus(-x), stable for large |x|."""
    xf, dt = _float_input(x)
    out = M.subtract(M.minimum(xf, 0), M.log1p(M.exp(M.neg(M.abs(xf)))))
    return M.cast(out, dt)


def hardsigmoid(x: Any, slope: float = 0.1666667, offset: float = 0.5, name: str | None = None) -> Any:
    """clip(slope * x + offset, 0, 1)."""
    x = asarray(x)
    return M.clip(M.add(M.multiply(x, slope), offset), 0, 1)


def hardswish(x: Any, name: str | None = None) -> Any:
    """x * relu6(x + 3) / 6."""
    x = asarray(x)
    return M.divide(M.multiply(x, relu6(M.add(x, 3))), 6)


def mish(x: Any, name: str | None = None) -> Any:
    """x * tanh(softplus(x))."""
    x = asarray(x)
    return M.multiply(x, M.tanh(softplus(x)))


# ---- softmax -----------------------------------------------------------------------------

def _shifted(op: str, x: Any, axis: int, dtype: Any) -> tuple[Any, int, Any]:
    x = asarray(x)
    if dtype is not None:
        x = M.cast(x, dtype)
    xf, dt = _float_input(x)
    if xf.aval.ndim == 0:
        return xf, None, dt
    a = canonicalize_axis(op, axis, xf.aval.ndim)
    # The shift cancels out of softmax/log_softmax, so its gradient is exactly zero: stop it rather
    # than differentiate through the max (a tie count and a divide per row). No guard for an
    # infinite max is needed: a row whose max is +-inf (or NaN) gives NaN with or without one.
    # Kept as dot + add + max + subtract, XLA:CPU fuses the logits' matmul with the shift.
    m = stop_gradient_p.bind(R.max(xf, axis=a, keepdim=True))
    return M.subtract(xf, m), a, dt


def softmax(x: Any, axis: int = -1, dtype: Any = None, name: str | None = None) -> Any:
    """exp(x) / sum(exp(x)) along `axis`, computed with the maximum subtracted."""
    z, a, dt = _shifted("softmax", x, axis, dtype)
    if a is None:
        return M.cast(M.exp(M.multiply(z, 0)), dt)
    e = M.exp(z)
    return M.cast(M.divide(e, R.sum(e, axis=a, keepdim=True)), dt)


def log_softmax(x: Any, axis: int = -1, dtype: Any = None, name: str | None = None) -> Any:
    """x - logsumexp(x) along `axis`, computed with the maximum subtracted."""
    z, a, dt = _shifted("log_softmax", x, axis, dtype)
    if a is None:
        return M.cast(M.multiply(z, 0), dt)
    return M.cast(M.subtract(z, M.log(R.sum(M.exp(z), axis=a, keepdim=True))), dt)


# ---- one_hot and losses ---------------------------------------------------------------------

def _class_mask(label: Any, num_classes: int, axis: int) -> Any:
    """Boolean one-hot of integer `label`, the class axis inserted at `axis` of the result."""
    from padax import lax
    label = asarray(label)
    shape = list(label.aval.shape)
    shape.insert(axis, num_classes)
    classes = lax.broadcasted_iota(label.aval.dtype, tuple(shape), axis)
    return M.equal(classes, unsqueeze(label, axis))


def one_hot(x: Any, num_classes: int, name: str | None = None) -> Any:
    """float32 one-hot encoding of integer labels, the class axis last."""
    x = asarray(x)
    if not dtypes.is_integer(x.aval.dtype):
        raise TypeError(f"one_hot: labels must be integers, got {x.aval.str_short()}")
    return M.cast(_class_mask(x, int(num_classes), x.aval.ndim), dtypes.float32)


def _reduce_loss(op: str, loss: Any, reduction: str) -> Any:
    if reduction == "none":
        return loss
    if reduction == "sum":
        return R.sum(loss)
    if reduction == "mean":
        return R.mean(loss)
    raise ValueError(f"{op}: reduction must be 'none', 'mean' or 'sum', got {reduction!r}")


def _check_reduction(op: str, reduction: str) -> None:
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{op}: reduction must be 'none', 'mean' or 'sum', got {reduction!r}")


def _weighted_mean(loss: Any, w: Any) -> Any:
    total = R.sum(w)
    return M.divide(R.sum(loss), M.where(M.equal(total, 0), M.add(total, 1), total))


def cross_entropy(input: Any, label: Any, weight: Any = None, ignore_index: int = -100,
                  reduction: str = "mean", soft_label: bool = False, axis: int = -1,
                  use_softmax: bool = True, label_smoothing: float = 0.0, name: str | None = None) -> Any:
    """Softmax cross entropy of logits `input` against integer class labels (shape [N] or [N, 1]
    style: the class axis dropped or of size 1) or, with `soft_label`, class probabilities."""
    _check_reduction("cross_entropy", reduction)
    x, dt = _float_input(input)
    nd = x.aval.ndim
    a = canonicalize_axis("cross_entropy", axis, nd)
    c = x.aval.shape[a]
    logp = log_softmax(x, axis=a) if use_softmax else M.log(x)
    label = asarray(label)
    keep_axis = True
    if not soft_label:
        if not dtypes.is_integer(label.aval.dtype):
            raise TypeError(f"cross_entropy: hard labels must be integers, got {label.aval.str_short()}; "
                            "pass soft_label=True for probabilities")
        if label.aval.ndim == nd:
            if label.aval.shape[a] != 1:
                raise ValueError(f"cross_entropy: label of shape {list(label.aval.shape)} must have size 1 on "
                                 f"the class axis {a} of input {list(x.aval.shape)}")
            label = squeeze(label, a)
        elif label.aval.ndim == nd - 1:
            keep_axis = False
        else:
            raise ValueError(f"cross_entropy: label of shape {list(label.aval.shape)} does not match input "
                             f"of shape {list(x.aval.shape)}")
        expect = x.aval.shape[:a] + x.aval.shape[a + 1:]
        if label.aval.shape != expect:
            raise ValueError(f"cross_entropy: label of shape {list(label.aval.shape)} does not match input of "
                             f"shape {list(x.aval.shape)} (expected {list(expect)} without the class axis)")
        valid = M.not_equal(label, ignore_index)
        safe = M.where(valid, label, 0)
        onehot = M.cast(_class_mask(safe, c, a), logp.dtype)
        if label_smoothing > 0:
            onehot = M.add(M.multiply(onehot, 1.0 - label_smoothing), label_smoothing / c)
        loss = M.neg(R.sum(M.multiply(onehot, logp), axis=a))
        w = M.cast(valid, logp.dtype)
        if weight is not None:
            wb = _along(asarray(weight), a, nd)
            w = M.multiply(w, R.sum(M.multiply(M.cast(_class_mask(safe, c, a), logp.dtype), wb), axis=a))
        loss = M.multiply(loss, w)
        if reduction == "mean":
            out = _weighted_mean(loss, w)
        elif reduction == "sum":
            out = R.sum(loss)
        else:
            out = unsqueeze(loss, a) if keep_axis else loss
        return M.cast(out, dt)
    # soft labels: probabilities over the class axis
    label = M.cast(label, logp.dtype)
    if label_smoothing > 0:
        label = M.add(M.multiply(label, 1.0 - label_smoothing), label_smoothing / c)
    loss = M.neg(R.sum(M.multiply(label, logp), axis=a, keepdim=True))
    if weight is not None:
        w = R.sum(M.multiply(label, _along(asarray(weight), a, nd)), axis=a, keepdim=True)
        loss = M.multiply(loss, w)
        if reduction == "mean":
            return M.cast(_weighted_mean(loss, w), dt)
    return M.cast(_reduce_loss("cross_entropy", loss, reduction), dt)


def _along(w: Any, axis: int, nd: int) -> Any:
    """A per-class 1-D weight shaped to broadcast along `axis` of an `nd`-D array."""
    from padax.functional.manipulation import reshape
    shape = [1] * nd
    shape[axis] = w.aval.shape[0]
    return reshape(w, shape)


def nll_loss(input: Any, label: Any, weight: Any = None, ignore_index: int = -100, reduction: str = "mean",
             name: str | None = None) -> Any:
    """Negative log-likelihood of log-probabilities `input` [N, C, ...] at integer labels [N, ...]."""
    _check_reduction("nll_loss", reduction)
    x = asarray(input)
    label = asarray(label)
    if x.aval.ndim < 1:
        raise ValueError(f"nll_loss: input must have a class axis, got {x.aval.str_short()}")
    a = 1 if x.aval.ndim > 1 else 0
    c = x.aval.shape[a]
    expect = x.aval.shape[:a] + x.aval.shape[a + 1:]
    if label.aval.shape != expect:
        raise ValueError(f"nll_loss: label of shape {list(label.aval.shape)} does not match input of shape "
                         f"{list(x.aval.shape)} (expected {list(expect)})")
    valid = M.not_equal(label, ignore_index)
    safe = M.where(valid, label, 0)
    onehot = M.cast(_class_mask(safe, c, a), x.dtype)
    w = M.cast(valid, x.dtype)
    if weight is not None:
        w = M.multiply(w, R.sum(M.multiply(onehot, _along(asarray(weight), a, x.aval.ndim)), axis=a))
    loss = M.multiply(M.neg(R.sum(M.multiply(onehot, x), axis=a)), w)
    if reduction == "mean":
        return _weighted_mean(loss, w)
    return _reduce_loss("nll_loss", loss, reduction)


def mse_loss(input: Any, label: Any, reduction: str = "mean", name: str | None = None) -> Any:
    """Mean squared error (reduction 'mean', 'sum' or 'none')."""
    _check_reduction("mse_loss", reduction)
    return _reduce_loss("mse_loss", M.square(M.subtract(input, label)), reduction)


def l1_loss(input: Any, label: Any, reduction: str = "mean", name: str | None = None) -> Any:
    """Mean absolute error (reduction 'mean', 'sum' or 'none')."""
    _check_reduction("l1_loss", reduction)
    return _reduce_loss("l1_loss", M.abs(M.subtract(input, label)), reduction)


def linear(x: Any, weight: Any, bias: Any = None, name: str | None = None) -> Any:
    """x @ weight + bias, with weight of shape [in_features, out_features] (Paddle's layout)."""
    out = matmul(x, weight)
    return out if bias is None else M.add(out, bias)


__all__ = ["relu", "relu6", "leaky_relu", "elu", "gelu", "silu", "swish", "softplus", "sigmoid", "tanh",
           "log_sigmoid", "hardsigmoid", "hardswish", "mish", "softmax", "log_softmax", "one_hot",
           "cross_entropy", "nll_loss", "mse_loss", "l1_loss", "linear"]
