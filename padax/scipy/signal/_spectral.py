"""Spectral analysis with scipy.signal's conventions: detrend, stft, istft, welch.

Segments are taken with padax.signal.frame (one gather), windowed, detrended and transformed
with padax.fft; scalings, boundary extensions and time/frequency grids follow scipy's
_spectral_helper, so results agree with scipy to rounding.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from padax import dtypes, fft as _fft, numpy as pnp
from padax.core.errors import op_value_error
from padax.numpy._util import to_array
from padax.scipy.signal._windows import window_array
from padax.scipy.special._base import inexact_args
from padax.signal import frame, overlap_add


def detrend(data: Any, axis: int = -1, type: str = "linear", bp: Any = 0, overwrite_data: bool = False) -> Any:
    """data minus its mean ('constant') or its least-squares line ('linear') along `axis`.

    Args:
        data: the input array (integers become float32).
        axis: the axis to detrend along (default the last).
        type: 'linear' (default) or 'constant' ('l' / 'c' also accepted).
        bp: breakpoints; only 0 (none) is supported.
        overwrite_data: accepted for scipy compatibility; ignored.

    Returns:
        An array shaped like `data`.

    Examples:
        >>> import padax
        >>> from padax.scipy import signal
        >>> signal.detrend(padax.to_tensor([1.0, 3.0, 2.0, 4.0])).tolist()  # minus the least-squares line 0.9 + 0.8 t
        [-0.3, 0.9, -0.9, 0.3]
    """
    if type not in ("linear", "l", "constant", "c"):
        raise op_value_error("detrend", f"type must be 'linear' or 'constant', got {type!r}")
    if not np.all(np.asarray(bp) == 0):
        raise op_value_error("detrend", "breakpoints (bp) are not supported")
    x, = inexact_args("detrend", data)
    if type in ("constant", "c"):
        return x - pnp.mean(x, axis=axis, keepdims=True)
    x = pnp.moveaxis(x, axis, -1)
    n = x.shape[-1]
    t = pnp.arange(n, dtype=x.dtype) - (n - 1) / 2.0
    denom = pnp.sum(t * t)
    slope = pnp.sum(x * t, axis=-1, keepdims=True) / pnp.where(denom > 0, denom, 1.0)
    out = x - pnp.mean(x, axis=-1, keepdims=True) - slope * t
    return pnp.moveaxis(out, -1, axis)


def _window(op: str, window: Any, nperseg: Any, length: int, dtype):
    """(window array, nperseg) as scipy's _triage_segments: a named window of nperseg points (256 by
    default, at most the input length) or a given array, which fixes nperseg."""
    if isinstance(window, (str, tuple)):
        if nperseg is None:
            nperseg = 256
        nperseg = int(nperseg)
        if nperseg > length:
            nperseg = length
        if nperseg < 1:
            raise op_value_error(op, f"nperseg must be a positive integer, got {nperseg}")
        win = window_array(window, nperseg)
    else:
        win = np.asarray(window, dtype=np.float64)
        if win.ndim != 1:
            raise op_value_error(op, "window must be 1-d")
        if length < win.shape[0]:
            raise op_value_error(op, f"the window is longer than the input ({win.shape[0]} > {length})")
        if nperseg is not None and int(nperseg) != win.shape[0]:
            raise op_value_error(op, "the value specified for nperseg differs from the length of the window")
        nperseg = win.shape[0]
    return win, nperseg


def _real_dtype(dt):
    return np.dtype(np.float32) if np.dtype(dt) in (np.float32, np.complex64) else np.dtype(np.float64)


def _spectral(op: str, x: Any, fs: float, window: Any, nperseg: Any, noverlap: Any, nfft: Any, detrend_type: Any,
              return_onesided: bool, scaling: str, axis: int, mode: str, boundary: Any, padded: bool):
    x, = inexact_args(op, x) if not dtypes.is_complex(to_array(x).dtype) else (to_array(x),)
    axis = int(axis) % max(x.ndim, 1)
    x = pnp.moveaxis(x, axis, -1)
    win_np, nperseg = _window(op, window, nperseg, x.shape[-1], x.dtype)
    noverlap = nperseg // 2 if noverlap is None else int(noverlap)
    nfft = nperseg if nfft is None else int(nfft)
    if nfft < nperseg:
        raise op_value_error(op, f"nfft ({nfft}) must be at least nperseg ({nperseg})")
    if noverlap >= nperseg:
        raise op_value_error(op, f"noverlap ({noverlap}) must be less than nperseg ({nperseg})")
    nstep = nperseg - noverlap
    rdt = _real_dtype(x.dtype)
    if boundary is not None:
        ext = {"zeros": "constant", "even": "reflect", "constant": "edge"}.get(boundary)
        if boundary == "odd":
            edge_l, edge_r = x[..., :1], x[..., -1:]
            left = 2 * edge_l - pnp.flip(x[..., 1:nperseg // 2 + 1], axis=-1)
            right = 2 * edge_r - pnp.flip(x[..., -(nperseg // 2) - 1:-1], axis=-1)
            x = pnp.concatenate([left, x, right], axis=-1)
        elif ext is None:
            raise op_value_error(op, f"unknown boundary option {boundary!r}")
        else:
            x = pnp.pad(x, [(0, 0)] * (x.ndim - 1) + [(nperseg // 2, nperseg // 2)], mode=ext)
    if padded:
        nadd = (-(x.shape[-1] - nperseg) % nstep) % nperseg
        x = pnp.pad(x, [(0, 0)] * (x.ndim - 1) + [(0, nadd)])
    segs = pnp.swapaxes(frame(x, nperseg, nstep, axis=-1), -1, -2)          # [..., n_segments, nperseg]
    if detrend_type:
        if callable(detrend_type):
            segs = detrend_type(segs)
        else:
            segs = detrend(segs, axis=-1, type=detrend_type)
    win = pnp.asarray(win_np, dtype=rdt)
    segs = segs * win
    onesided = return_onesided and not dtypes.is_complex(x.dtype)
    spec = _fft.rfft(segs, n=nfft, axis=-1) if onesided else _fft.fft(segs, n=nfft, axis=-1)
    if scaling == "density":
        scale = 1.0 / (fs * float(np.sum(win_np * win_np)))
    elif scaling == "spectrum":
        scale = 1.0 / float(np.sum(win_np)) ** 2
    else:
        raise op_value_error(op, f"scaling must be 'density' or 'spectrum', got {scaling!r}")
    if mode == "stft":
        spec = spec * float(np.sqrt(scale))
    else:
        spec = pnp.real(pnp.conj(spec) * spec) * scale
        if onesided:
            inner = slice(1, -1) if nfft % 2 == 0 else slice(1, None)
            mult = np.ones(spec.shape[-1])
            mult[inner] = 2.0
            spec = spec * pnp.asarray(mult, dtype=rdt)
    freqs = np.fft.rfftfreq(nfft, 1.0 / fs) if onesided else np.fft.fftfreq(nfft, 1.0 / fs)
    n_seg = spec.shape[-2]
    time = np.arange(nperseg / 2, nperseg / 2 + n_seg * nstep, nstep)[:n_seg] / float(fs)
    if boundary is not None:
        time = time - (nperseg / 2) / fs
    spec = pnp.swapaxes(spec, -1, -2)                                         # [..., freqs, segments]
    return pnp.asarray(freqs, dtype=rdt), pnp.asarray(time, dtype=rdt), spec, axis


def stft(x: Any, fs: float = 1.0, window: Any = "hann", nperseg: int = 256, noverlap: Any = None, nfft: Any = None,
         detrend: Any = False, return_onesided: bool = True, boundary: Any = "zeros", padded: bool = True,
         axis: int = -1, scaling: str = "spectrum") -> tuple[Any, Any, Any]:
    """scipy.signal.stft: (frequencies, segment times, Zxx); Zxx has the frequencies in place of `axis`
    and the segments as its last axis (as scipy's).

    Args:
        x: the signal (real or complex).
        fs: the sampling frequency (default 1.0).
        window: a window name, a (name, params...) tuple, a number (Kaiser beta) or a 1-D array of weights (default
            'hann').
        nperseg: the segment length (default 256, or the window's length; at most the input length).
        noverlap: the overlap between segments; None means nperseg // 2.
        nfft: the FFT length (>= nperseg); None means nperseg.
        detrend: False (default), 'constant', 'linear' or a callable applied to each segment.
        return_onesided: return only the non-negative frequencies for real input (default True).
        boundary: extend the signal at both ends by nperseg // 2: 'zeros' (default), 'even', 'odd', 'constant' or None.
        padded: zero-pad the end so the last segment is complete (default True).
        axis: the time axis of x (default the last).
        scaling: 'spectrum' (default) or 'psd'.

    Returns:
        The tuple (frequencies, segment times, Zxx).

    Examples:
        >>> import numpy as np
        >>> import padax
        >>> from padax.scipy import signal
        >>> x = padax.to_tensor(np.sin(2 * np.pi * 0.25 * np.arange(16)))  # a tone at a quarter of the sample rate
        >>> f, t, Z = signal.stft(x, nperseg=8)
        >>> f.tolist(), Z.shape
        ([0.0, 0.125, 0.25, 0.375, 0.5], (5, 5))
        >>> np.round(np.abs(np.asarray(Z[:, 2])), 4).tolist()  # a middle frame peaks at 0.25, as scipy
        [0.0, 0.25, 0.5, 0.25, 0.0]
    """
    f, t, z, ax = _spectral("stft", x, fs, window, nperseg, noverlap, nfft, detrend, return_onesided,
                            "density" if scaling == "psd" else scaling, axis, "stft", boundary, padded)
    if ax != to_array(x).ndim - 1:
        z = pnp.moveaxis(z, -2, ax)
    return f, t, z


def istft(Zxx: Any, fs: float = 1.0, window: Any = "hann", nperseg: Any = None, noverlap: Any = None,
          nfft: Any = None, input_onesided: bool = True, boundary: bool = True, time_axis: int = -1,
          freq_axis: int = -2, scaling: str = "spectrum") -> tuple[Any, Any]:
    """scipy.signal.istft: (times, x), inverting stft by windowed overlap-add (least squares).

    Args:
        Zxx: the STFT, with at least two dimensions.
        fs: the sampling frequency (default 1.0).
        window: a window name, a (name, params...) tuple, a number (Kaiser beta) or a 1-D array of weights (default
            'hann').
        nperseg: the segment length; None means 2 * (n_freqs - 1) (n_freqs if not input_onesided).
        noverlap: the overlap between segments; None means nperseg // 2.
        nfft: the FFT length (>= nperseg); None derives it from Zxx.
        input_onesided: Zxx holds only the non-negative frequencies (default True).
        boundary: the stft was computed with a boundary extension, which is removed (default True).
        time_axis, freq_axis: the axes of Zxx holding segments and frequencies (default -1 and -2).
        scaling: 'spectrum' (default) or 'psd', as in the stft.

    Returns:
        The tuple (times, x).

    Examples:
        >>> import numpy as np
        >>> import padax
        >>> from padax.scipy import signal
        >>> x = padax.to_tensor(np.sin(2 * np.pi * 0.25 * np.arange(16)))
        >>> _, _, Z = signal.stft(x, nperseg=8)
        >>> t, y = signal.istft(Z, nperseg=8)
        >>> np.round(np.asarray(y[:6]), 4).tolist()  # the signal comes back
        [0.0, 1.0, 0.0, -1.0, 0.0, 1.0]
    """
    z = to_array(Zxx)
    if z.ndim < 2:
        raise op_value_error("istft", f"Zxx must have at least two dimensions, got shape {z.shape}")
    time_axis, freq_axis = int(time_axis) % z.ndim, int(freq_axis) % z.ndim
    if time_axis == freq_axis:
        raise op_value_error("istft", "time_axis and freq_axis must differ")
    n_seg = z.shape[time_axis]
    n_default = 2 * (z.shape[freq_axis] - 1) if input_onesided else z.shape[freq_axis]
    nperseg = n_default if nperseg is None else int(nperseg)
    if nperseg < 1:
        raise op_value_error("istft", f"nperseg must be a positive integer, got {nperseg}")
    if nfft is None:
        nfft = nperseg if input_onesided and nperseg == n_default + 1 else n_default
    elif int(nfft) < nperseg:
        raise op_value_error("istft", f"nfft ({nfft}) must be at least nperseg ({nperseg})")
    nfft = int(nfft)
    noverlap = nperseg // 2 if noverlap is None else int(noverlap)
    if noverlap >= nperseg:
        raise op_value_error("istft", f"noverlap ({noverlap}) must be less than nperseg ({nperseg})")
    nstep = nperseg - noverlap
    z = pnp.moveaxis(z, (freq_axis, time_axis), (-2, -1))
    seg = _fft.irfft(z, n=nfft, axis=-2) if input_onesided else _fft.ifft(z, n=nfft, axis=-2)
    seg = seg[..., :nperseg, :]
    if isinstance(window, (str, tuple)):
        win_np = window_array(window, nperseg)
    else:
        win_np = np.asarray(window, dtype=np.float64)
        if win_np.shape != (nperseg,):
            raise op_value_error("istft", f"the window must have length nperseg ({nperseg})")
    if scaling == "spectrum":
        seg = seg * float(np.sum(win_np))
    elif scaling == "psd":
        seg = seg * float(np.sqrt(fs * np.sum(win_np ** 2)))
    else:
        raise op_value_error("istft", f"scaling must be 'spectrum' or 'psd', got {scaling!r}")
    rdt = _real_dtype(seg.dtype)
    win = pnp.asarray(win_np, dtype=rdt)
    x = overlap_add(seg * win[:, None], nstep, axis=-1)
    norm = overlap_add(pnp.broadcast_to((win * win)[:, None], (nperseg, n_seg)), nstep, axis=-1)
    if boundary:
        h = nperseg // 2
        x, norm = x[..., h:x.shape[-1] - h], norm[h:norm.shape[-1] - h]
    x = x / pnp.where(norm > 1e-10, norm, 1.0)
    if input_onesided and dtypes.is_complex(x.dtype):
        x = pnp.real(x)
    if x.ndim > 1 and time_axis != z.ndim - 1:
        target = time_axis - 1 if freq_axis < time_axis else time_axis
        x = pnp.moveaxis(x, -1, target)
    times = pnp.asarray(np.arange(x.shape[0]) / float(fs), dtype=rdt)     # (scipy's: the length of axis 0)
    return times, x


def _median_bias(n: int) -> float:
    ii = 2 * np.arange(1.0, (n - 1) // 2 + 1)
    return float(1 + np.sum(1.0 / (ii + 1) - 1.0 / ii))


def welch(x: Any, fs: float = 1.0, window: Any = "hann", nperseg: Any = None, noverlap: Any = None, nfft: Any = None,
          detrend: Any = "constant", return_onesided: bool = True, scaling: str = "density", axis: int = -1,
          average: str = "mean") -> tuple[Any, Any]:
    """scipy.signal.welch: (frequencies, power spectral density averaged over segments).

    Args:
        x: the signal (real or complex).
        fs: the sampling frequency (default 1.0).
        window: a window name, a (name, params...) tuple, a number (Kaiser beta) or a 1-D array of weights (default
            'hann').
        nperseg: the segment length (default 256, or the window's length; at most the input length).
        noverlap: the overlap between segments; None means nperseg // 2.
        nfft: the FFT length (>= nperseg); None means nperseg.
        detrend: 'constant' (default), 'linear', False or a callable applied to each segment.
        return_onesided: return only the non-negative frequencies for real input (default True).
        scaling: 'density' (default, V**2/Hz) or 'spectrum' (V**2).
        axis: the time axis of x (default the last).
        average: 'mean' (default) or 'median' over segments.

    Returns:
        The tuple (frequencies, Pxx); Pxx has the frequencies in place of `axis`.

    Examples:
        >>> import numpy as np
        >>> import padax
        >>> from padax.scipy import signal
        >>> x = padax.to_tensor(np.sin(2 * np.pi * 0.25 * np.arange(16)))
        >>> f, pxx = signal.welch(x, nperseg=8)
        >>> f.tolist(), np.round(np.asarray(pxx), 4).tolist()  # the power sits at f = 0.25, as scipy
        ([0.0, 0.125, 0.25, 0.375, 0.5], [0.0, 0.6667, 2.6667, 0.6667, 0.0])
    """
    if average not in ("mean", "median"):
        raise op_value_error("welch", f"average must be 'mean' or 'median', got {average!r}")
    f, _, p, ax = _spectral("welch", x, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling,
                            axis, "psd", None, False)
    if average == "mean":
        p = pnp.mean(p, axis=-1)
    else:
        p = pnp.median(p, axis=-1) / _median_bias(p.shape[-1])
    if ax != to_array(x).ndim - 1:
        p = pnp.moveaxis(p, -1, ax)
    return f, p


__all__ = ["detrend", "stft", "istft", "welch"]
