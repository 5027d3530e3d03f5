"""The arithmetic of symmetric abs-max quantization (Paddle's formulas), shared by observers, quanters and the
converted int8 layers.

With `qmax = 2**(bits - 1) - 1` and a scale `s` (the abs-max of the range):
`quant(x) = clip(round(x / s * qmax), -qmax, qmax)` and `dequant(q) = q * s / qmax`; `round` ties away from
zero, as Paddle's kernels (round_type 1). Fake quantization is dequant(quant(x)) with the straight-through
estimator for the gradient (identity).
"""
from __future__ import annotations

from typing import Any

import padax


def qmax(bits: int) -> int:
    """The largest quantized magnitude for `bits` signed bits (127 for 8)."""
    return 2 ** (int(bits) - 1) - 1


def round_away(x: Any) -> Any:
    """Round half away from zero (Paddle's quantization kernels)."""
    return padax.sign(x) * padax.floor(padax.abs(x) + 0.5)


def channel_scale(x: Any, axis: int | None) -> Any:
    """max|x| over every axis but `axis` (the whole tensor, as a [1] Tensor, when axis is None)."""
    a = padax.abs(x)
    if axis is None:
        return padax.reshape(padax.max(a), [1])
    axis = axis % x.ndim
    return padax.max(a, axis=[d for d in range(x.ndim) if d != axis])


def broadcast_scale(scale: Any, ndim: int, axis: int | None) -> Any:
    """`scale` shaped to broadcast against a rank-`ndim` tensor along `axis`."""
    if axis is None or scale.ndim == 0 or scale.size == 1:
        return padax.reshape(scale, [])
    shape = [1] * ndim
    shape[axis % ndim] = scale.shape[0]
    return padax.reshape(scale, shape)


def quantize(x: Any, scale: Any, bits: int, axis: int | None = None) -> Any:
    """The integer levels of x (float, in [-qmax, qmax]) for abs-max `scale`."""
    q = qmax(bits)
    s = padax.maximum(broadcast_scale(scale, x.ndim, axis).astype(x.dtype), 1e-9)
    return padax.clip(round_away(x / s * q), -q, q)


def fake_quant(x: Any, scale: Any, bits: int, axis: int | None = None) -> Any:
    """dequant(quant(x)): x clipped to [-s, s] and snapped to the grid of `2**(bits-1)-1` levels, with
    identity gradient (straight-through estimator)."""
    s = broadcast_scale(scale, x.ndim, axis).astype(x.dtype)
    out = quantize(x, scale, bits, axis) * s / qmax(bits)
    return x + padax.stop_gradient(out - x)
