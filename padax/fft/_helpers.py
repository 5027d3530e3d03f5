"""padax.fft's helpers: the sample frequencies (fftfreq, rfftfreq) and the shifts that put the
zero frequency in the middle (fftshift, ifftshift)."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from padax import dtypes, lax
from padax.core.errors import op_type_error, op_value_error
from padax.core.trace import Tracer
from padax.fft._checks import _axis, _int_seq, _length
from padax.functional._arrays import asarray
from padax.functional._checks import placed, write_out


def _freq_dtype(op: str, dtype: Any):
    dt = dtypes.default_float_dtype() if dtype is None else dtypes.canonicalize_dtype(dtypes.to_dtype(dtype))
    if not dtypes.is_inexact(dt):
        raise op_type_error(op, f"dtype must be a floating or complex type, got {dt.name}")
    return dt


def _spacing(op: str, d: Any) -> float:
    if isinstance(d, Tracer):
        raise op_type_error(op, f"d must be known while tracing, got a traced array {d.aval.str_short()}")
    d = float(d)
    if d == 0:
        raise op_value_error(op, "d (the sample spacing) must be non-zero")
    return d


def fftfreq(n: int, d: float = 1.0, dtype: Any = None, name: str | None = None, *, out: Any = None,
            device: Any = None, requires_grad: bool = False):
    """Sample frequencies of an n-point fft with sample spacing d, in cycles per unit of d:
    [0, 1, ..., (n-1)//2, -(n//2), ..., -1] / (d * n). float32 unless `dtype` says otherwise.

    Args:
        n: number of points of the transform (a positive Python int).
        d: sample spacing (non-zero); frequencies come out in cycles per unit of d.
        dtype: floating or complex output dtype; None means the default float dtype (float32).
        device: where to place the result; None keeps the default device.
        requires_grad: accepted for Paddle compatibility and ignored (gradients come from padax.grad).

    Returns:
        A 1-D array of n frequencies.

    Examples:
        >>> import padax
        >>> padax.fft.fftfreq(4).tolist()
        [0.0, 0.25, -0.5, -0.25]
        >>> padax.fft.fftfreq(5, d=0.5).tolist()
        [0.0, 0.4, 0.8, -0.8, -0.4]
    """
    if out is not None:
        result = fftfreq(
            n=n, d=d, dtype=dtype, name=name, device=device, requires_grad=requires_grad)
        return write_out(out, result, "fft.fftfreq")
    if device is not None:
        return placed(fftfreq(n, d, dtype), device)
    n = _length("fftfreq", n, "n")
    dt = _freq_dtype("fftfreq", dtype)
    k = np.concatenate([np.arange(0, (n - 1) // 2 + 1), np.arange(-(n // 2), 0)])
    return asarray(k / (_spacing("fftfreq", d) * n), dt)


def rfftfreq(n: int, d: float = 1.0, dtype: Any = None, name: str | None = None, *, out: Any = None,
             device: Any = None, requires_grad: bool = False):
    """Sample frequencies of an n-point rfft: [0, 1, ..., n//2] / (d * n).

    Args:
        n: number of points of the transform (a positive Python int).
        d: sample spacing (non-zero); frequencies come out in cycles per unit of d.
        dtype: floating or complex output dtype; None means the default float dtype (float32).
        device: where to place the result; None keeps the default device.
        requires_grad: accepted for Paddle compatibility and ignored (gradients come from padax.grad).

    Returns:
        A 1-D array of n//2 + 1 frequencies.

    Examples:
        >>> import padax
        >>> padax.fft.rfftfreq(4).tolist()
        [0.0, 0.25, 0.5]
    """
    if out is not None:
        result = rfftfreq(
            n=n, d=d, dtype=dtype, name=name, device=device, requires_grad=requires_grad)
        return write_out(out, result, "fft.rfftfreq")
    if device is not None:
        return placed(rfftfreq(n, d, dtype), device)
    n = _length("rfftfreq", n, "n")
    dt = _freq_dtype("rfftfreq", dtype)
    return asarray(np.arange(0, n // 2 + 1) / (_spacing("rfftfreq", d) * n), dt)


def _roll(x, shift: int, axis: int):
    size = x.aval.shape[axis]
    if size == 0:
        return x
    k = shift % size
    if k == 0:
        return x
    return lax.concatenate([lax.slice_in_dim(x, size - k, size, axis=axis),
                            lax.slice_in_dim(x, 0, size - k, axis=axis)], axis)


def _shift(op: str, x, axes, sign: int):
    x = asarray(x)
    ndim = x.aval.ndim
    axes = list(range(ndim)) if axes is None else [_axis(op, a, ndim) for a in _int_seq(op, axes, "axes")]
    for a in axes:
        n = x.aval.shape[a]
        x = _roll(x, sign * (n // 2), a)
    return x


def fftshift(x: Any, axes: int | Sequence[int] | None = None, name: str | None = None):
    """Move the zero frequency to the centre: roll each of `axes` (default all) by size//2.

    Args:
        x: input array.
        axes: axis or axes to roll; None means all axes.

    Returns:
        An array of the same shape and dtype as `x`.

    Examples:
        >>> import padax
        >>> padax.fft.fftshift(padax.fft.fftfreq(5)).tolist()
        [-0.4, -0.2, 0.0, 0.2, 0.4]
    """
    return _shift("fftshift", x, axes, 1)


def ifftshift(x: Any, axes: int | Sequence[int] | None = None, name: str | None = None):
    """Undo fftshift: roll each of `axes` (default all) by -(size//2).

    Args:
        x: input array.
        axes: axis or axes to roll; None means all axes.

    Returns:
        An array of the same shape and dtype as `x`.

    Examples:
        >>> import padax
        >>> f = padax.fft.fftshift(padax.fft.fftfreq(5))
        >>> padax.fft.ifftshift(f).tolist()
        [0.0, 0.2, 0.4, -0.4, -0.2]
    """
    return _shift("ifftshift", x, axes, -1)
