"""Convolution and correlation (scipy.signal.convolve, correlate, fftconvolve, convolve2d,
correlate2d): direct N-d convolutions through XLA's conv, FFT ones through padax.fft."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from padax import dtypes, fft as _fft, lax, numpy as pnp
from padax.core.errors import op_value_error
from padax.numpy._util import to_array
from padax.scipy.special._base import inexact_args

_MODES = ("full", "same", "valid")


def _check_mode(op: str, mode: str) -> None:
    if mode not in _MODES:
        raise op_value_error(op, f"mode must be one of {_MODES}, got {mode!r}")


def _arrays(op: str, in1: Any, in2: Any):
    a, b = to_array(in1), to_array(in2)
    if a.ndim != b.ndim:
        raise op_value_error(op, f"in1 and in2 must have the same number of dimensions, got {a.ndim} and {b.ndim}")
    dt = pnp.result_type(a, b)
    if not (dtypes.is_floating(dt) or dtypes.is_complex(dt)):
        a, b = inexact_args(op, a, b)
    else:
        a, b = a.astype(dt), b.astype(dt)
    return a, b


def _swap_for_valid(op: str, a, b):
    """In 'valid' mode one input must be at least as large as the other in every dimension;
    convolution commutes, so the larger one goes first."""
    if all(sa >= sb for sa, sb in zip(a.shape, b.shape)):
        return a, b
    if all(sb >= sa for sa, sb in zip(a.shape, b.shape)):
        return b, a
    raise op_value_error(op, f"in 'valid' mode one input must be at least as large as the other in every "
                             f"dimension, got shapes {a.shape} and {b.shape}")


def _centered(full, shape: Sequence[int]):
    start = [(f - s) // 2 for f, s in zip(full.shape, shape)]
    return lax.slice(full, start, [st + s for st, s in zip(start, shape)])


def _conv_real(a, b, padding):
    """Full-dimensional convolution of real a by b (b flipped: XLA's conv correlates)."""
    nd = a.ndim
    lhs = pnp.reshape(a, (1, 1) + a.shape)
    rhs = pnp.reshape(pnp.flip(b, axis=tuple(range(nd))), (1, 1) + b.shape)
    out = lax.conv_general_dilated(lhs, rhs, (1,) * nd, padding)
    return pnp.reshape(out, out.shape[2:])


def _conv(a, b, padding):
    if dtypes.is_complex(a.dtype):
        ar, ai, br, bi = pnp.real(a), pnp.imag(a), pnp.real(b), pnp.imag(b)
        re = _conv_real(ar, br, padding) - _conv_real(ai, bi, padding)
        im = _conv_real(ar, bi, padding) + _conv_real(ai, br, padding)
        return lax.complex(re, im)
    return _conv_real(a, b, padding)


def _convolve_direct(op: str, a, b, mode: str):
    if a.ndim == 0:
        return a * b
    if mode == "valid":
        a, b = _swap_for_valid(op, a, b)
        return _conv(a, b, [(0, 0)] * a.ndim)
    full = _conv(a, b, [(s - 1, s - 1) for s in b.shape])
    return full if mode == "full" else _centered(full, a.shape)


def fftconvolve(in1: Any, in2: Any, mode: str = "full", axes: Any = None) -> Any:
    """Convolution through the FFT (over `axes`, all by default; the others broadcast).

    Args:
        in1, in2: arrays with the same number of dimensions (integers become float32).
        mode: 'full' (default, every overlap), 'same' (in1's shape, centred) or 'valid' (only full overlaps).
        axes: the axes to convolve over; None means all (the others broadcast).

    Returns:
        An array in the promoted floating/complex dtype, shaped by `mode`.

    Examples:
        >>> import padax
        >>> from padax.scipy import signal
        >>> signal.fftconvolve(padax.to_tensor([1.0, 2.0, 3.0]), padax.to_tensor([0.0, 1.0, 0.5]), mode="same").tolist()
        [1.0, 2.5, 4.0]
    """
    _check_mode("fftconvolve", mode)
    a, b = _arrays("fftconvolve", in1, in2)
    if a.ndim == 0:
        return a * b
    axes = tuple(range(a.ndim)) if axes is None else tuple(int(x) % a.ndim for x in np.atleast_1d(axes))
    if mode == "valid" and not all(sa >= sb for i, (sa, sb) in enumerate(zip(a.shape, b.shape)) if i in axes):
        a, b = _swap_for_valid("fftconvolve", a, b)
    full_shape = [a.shape[i] + b.shape[i] - 1 for i in axes]
    fft_shape = [int(2 ** np.ceil(np.log2(n))) if n > 64 else n for n in full_shape]
    if dtypes.is_complex(a.dtype):
        prod = _fft.fftn(a, s=fft_shape, axes=axes) * _fft.fftn(b, s=fft_shape, axes=axes)
        out = _fft.ifftn(prod, s=fft_shape, axes=axes)
    else:
        prod = _fft.rfftn(a, s=fft_shape, axes=axes) * _fft.rfftn(b, s=fft_shape, axes=axes)
        out = _fft.irfftn(prod, s=fft_shape, axes=axes)
    shape = [max(sa, sb) for sa, sb in zip(a.shape, b.shape)]      # (the other axes broadcast)
    for i, n in zip(axes, full_shape):
        shape[i] = n
    start = [0] * out.ndim
    out = lax.slice(out, start, shape)
    if mode == "full":
        return out
    target = list(out.shape)
    for i in axes:
        target[i] = a.shape[i] if mode == "same" else a.shape[i] - b.shape[i] + 1
    return _centered(out, target)


def convolve(in1: Any, in2: Any, mode: str = "full", method: str = "auto") -> Any:
    """N-d convolution of in1 and in2 (mode 'full', 'same' or 'valid'; method 'direct', 'fft' or
    'auto' = direct).

    Args:
        in1, in2: arrays with the same number of dimensions (integers become float32).
        mode: 'full' (default, every overlap), 'same' (in1's shape, centred) or 'valid' (only full overlaps).
        method: 'auto' (default, same as 'direct'), 'direct' or 'fft'.

    Returns:
        An array in the promoted floating/complex dtype, shaped by `mode`.

    Examples:
        >>> import padax
        >>> from padax.scipy import signal
        >>> signal.convolve(padax.to_tensor([1.0, 2.0, 3.0]), padax.to_tensor([0.0, 1.0, 0.5])).tolist()  # as scipy
        [0.0, 1.0, 2.5, 4.0, 1.5]
    """
    _check_mode("convolve", mode)
    if method not in ("auto", "direct", "fft"):
        raise op_value_error("convolve", f"method must be 'auto', 'direct' or 'fft', got {method!r}")
    if method == "fft":
        return fftconvolve(in1, in2, mode)
    a, b = _arrays("convolve", in1, in2)
    return _convolve_direct("convolve", a, b, mode)


def correlate(in1: Any, in2: Any, mode: str = "full", method: str = "auto") -> Any:
    """N-d cross-correlation: the convolution of in1 with in2 reversed and conjugated.

    Args:
        in1, in2: arrays with the same number of dimensions (integers become float32).
        mode: 'full' (default, every overlap), 'same' (in1's shape, centred) or 'valid' (only full overlaps).
        method: 'auto' (default, same as 'direct'), 'direct' or 'fft'.

    Returns:
        An array in the promoted floating/complex dtype, shaped by `mode`.

    Examples:
        >>> import padax
        >>> from padax.scipy import signal
        >>> signal.correlate(padax.to_tensor([1.0, 2.0, 3.0]), padax.to_tensor([0.0, 1.0, 0.5])).tolist()  # as scipy
        [0.5, 2.0, 3.5, 3.0, 0.0]
    """
    _check_mode("correlate", mode)
    a, b = _arrays("correlate", in1, in2)
    rev = pnp.flip(pnp.conj(b) if dtypes.is_complex(b.dtype) else b, axis=tuple(range(b.ndim)))
    if mode == "valid" and not all(sa >= sb for sa, sb in zip(a.shape, b.shape)):
        # scipy swaps the inputs: correlate(in2, in1) reversed and conjugated
        out = correlate(b, a, "valid", method)
        out = pnp.flip(out, axis=tuple(range(out.ndim)))
        return pnp.conj(out) if dtypes.is_complex(out.dtype) else out
    return convolve(a, rev, mode, method)


_BOUNDARY = {"fill": "constant", "wrap": "wrap", "symm": "symmetric"}


def convolve2d(in1: Any, in2: Any, mode: str = "full", boundary: str = "fill", fillvalue: Any = 0) -> Any:
    """2-d convolution with scipy's boundary handling ('fill' with fillvalue, 'wrap', 'symm').

    Args:
        in1, in2: 2-D arrays (integers become float32).
        mode: 'full' (default, every overlap), 'same' (in1's shape, centred) or 'valid' (only full overlaps).
        boundary: 'fill' (default, pad with fillvalue), 'wrap' (circular) or 'symm' (mirror).
        fillvalue: the padding value for boundary='fill' (default 0).

    Returns:
        An array in the promoted floating/complex dtype, shaped by `mode`.

    Examples:
        >>> import padax
        >>> from padax.scipy import signal
        >>> a = padax.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> signal.convolve2d(a, padax.to_tensor([[0.0, 1.0], [1.0, 0.0]])).tolist()  # as scipy
        [[0.0, 1.0, 2.0], [1.0, 5.0, 4.0], [3.0, 4.0, 0.0]]
    """
    _check_mode("convolve2d", mode)
    if boundary not in _BOUNDARY:
        raise op_value_error("convolve2d", f"boundary must be 'fill', 'wrap' or 'symm', got {boundary!r}")
    a, b = _arrays("convolve2d", in1, in2)
    if a.ndim != 2:
        raise op_value_error("convolve2d", f"in1 and in2 must be 2-d, got shapes {a.shape} and {b.shape}")
    if mode == "valid":
        a, b = _swap_for_valid("convolve2d", a, b)
        return _conv(a, b, [(0, 0), (0, 0)])
    pad = [(s - 1, s - 1) for s in b.shape]
    kw = {"constant_values": fillvalue} if boundary == "fill" else {}
    padded = pnp.pad(a, pad, mode=_BOUNDARY[boundary], **kw)
    full = _conv(padded, b, [(0, 0), (0, 0)])
    return full if mode == "full" else _centered(full, a.shape)


def correlate2d(in1: Any, in2: Any, mode: str = "full", boundary: str = "fill", fillvalue: Any = 0) -> Any:
    """2-d cross-correlation with scipy's boundary handling.

    Args:
        in1, in2: 2-D arrays (integers become float32).
        mode: 'full' (default, every overlap), 'same' (in1's shape, centred) or 'valid' (only full overlaps).
        boundary: 'fill' (default, pad with fillvalue), 'wrap' (circular) or 'symm' (mirror).
        fillvalue: the padding value for boundary='fill' (default 0).

    Returns:
        An array in the promoted floating/complex dtype, shaped by `mode`.

    Examples:
        >>> import padax
        >>> from padax.scipy import signal
        >>> a = padax.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> signal.correlate2d(a, padax.to_tensor([[1.0, 2.0]]), mode="same").tolist()  # as scipy
        [[5.0, 2.0], [11.0, 4.0]]
    """
    a, b = _arrays("correlate2d", in1, in2)
    rev = pnp.flip(pnp.conj(b) if dtypes.is_complex(b.dtype) else b, axis=(0, 1))
    if mode == "valid" and not all(sa >= sb for sa, sb in zip(a.shape, b.shape)):
        out = correlate2d(b, a, "valid", boundary, fillvalue)
        out = pnp.flip(out, axis=(0, 1))
        return pnp.conj(out) if dtypes.is_complex(out.dtype) else out
    if mode != "same":
        return convolve2d(a, rev, mode, boundary, fillvalue)
    # scipy centres 'same' correlations at kernel index n // 2 (convolutions at (n - 1) // 2)
    full = convolve2d(a, rev, "full", boundary, fillvalue)
    start = [n // 2 for n in b.shape]
    return lax.slice(full, start, [st + n for st, n in zip(start, a.shape)])


__all__ = ["convolve", "correlate", "fftconvolve", "convolve2d", "correlate2d"]
