"""Activations and softmax with Paddle's signatures.

Softmax-type functions subtract the maximum before exponentiating, and compute
float16/bfloat16 inputs in float32 before casting back.
"""
from __future__ import annotations

import math as _pymath
from typing import Any

from padax.core import dtypes
from padax.functional import math as M
from padax.functional import reduction as R
from padax.functional._arrays import asarray, canonicalize_axis, full
from padax.functional.lax.custom import stop_gradient_p
from padax.functional.math import sigmoid, tanh  # noqa: F401  (also public here, as in Paddle)
from padax.nn.functional._util import float_input

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
    xf, dt = float_input(x)
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
    xf, dt = float_input(x)
    bx = M.multiply(xf, beta)
    soft = M.divide(M.log1p(M.exp(M.minimum(bx, threshold))), beta)
    return M.cast(M.where(M.greater_than(bx, threshold), xf, soft), dt)


def log_sigmoid(x: Any, name: str | None = None) -> Any:
    """log(sigmoid(x)) = -softplus(-x), stable for large |x|."""
    xf, dt = float_input(x)
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
