"""`padax.signal`: Paddle's frame, overlap_add, stft and istft.

frame slices overlapping windows with one gather; overlap_add sums them back with one
scatter-add (each other's transposes, so both differentiate and vmap); stft/istft are Paddle's
definitions built on them and padax.fft. Inputs may have any number of leading batch axes.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from padax import dtypes, fft as _fft, numpy as pnp
from padax.core.errors import op_value_error
from padax.core.trace import Tracer
from padax.numpy._util import to_array


def _positive_int(op: str, what: str, v: Any) -> int:
    if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or v <= 0:
        raise op_value_error(op, f"{what} must be a positive integer, got {v!r}")
    return int(v)


def _frame_index(frame_length: int, hop_length: int, n_frames: int) -> np.ndarray:
    return np.arange(frame_length)[:, None] + hop_length * np.arange(n_frames)[None, :]


def frame(x: Any, frame_length: int, hop_length: int, axis: int = -1, name: str | None = None) -> Any:
    """Overlapping frames of x: shape [..., frame_length, num_frames] (axis=-1) or
    [num_frames, frame_length, ...] (axis=0), num_frames = 1 + (len - frame_length) // hop_length.

    Args:
        x: the input; frames are cut along its last (axis=-1) or first (axis=0) axis.
        frame_length: the length of each frame (a positive int, at most the axis length).
        hop_length: the step between frame starts (a positive int).
        axis: -1 (default) or 0.

    Returns:
        The frames, dtype of `x`, in the layout above.

    Examples:
        >>> import padax
        >>> x = padax.arange(6).astype('float32')
        >>> padax.signal.frame(x, frame_length=4, hop_length=2).tolist()
        [[0.0, 2.0], [1.0, 3.0], [2.0, 4.0], [3.0, 5.0]]
    """
    if axis not in (0, -1):
        raise op_value_error("frame", f"axis must be 0 or -1, got {axis}")
    frame_length = _positive_int("frame", "frame_length", frame_length)
    hop_length = _positive_int("frame", "hop_length", hop_length)
    x = to_array(x)
    if x.ndim < 1:
        raise op_value_error("frame", "x must have at least one dimension")
    n = x.shape[axis]
    if frame_length > n:
        raise op_value_error("frame", f"frame_length ({frame_length}) must not exceed the sequence length ({n})")
    idx = _frame_index(frame_length, hop_length, 1 + (n - frame_length) // hop_length)
    if axis == -1:
        return x[..., idx]
    return x[idx.T]


def overlap_add(x: Any, hop_length: int, axis: int = -1, name: str | None = None) -> Any:
    """The inverse layout of `frame`: frames [..., frame_length, num_frames] (axis=-1) or
    [num_frames, frame_length, ...] (axis=0) added at steps of hop_length into a sequence of
    length (num_frames - 1) * hop_length + frame_length.

    Args:
        x: the frames, at least 2-D, in `frame`'s layout.
        hop_length: the step between frame starts (a positive int).
        axis: -1 (default) or 0, as in `frame`.

    Returns:
        The summed sequence, dtype of `x`.

    Examples:
        >>> import padax
        >>> frames = padax.ones([4, 2])
        >>> padax.signal.overlap_add(frames, hop_length=2).tolist()
        [1.0, 1.0, 2.0, 2.0, 1.0, 1.0]
    """
    if axis not in (0, -1):
        raise op_value_error("overlap_add", f"axis must be 0 or -1, got {axis}")
    hop_length = _positive_int("overlap_add", "hop_length", hop_length)
    x = to_array(x)
    if x.ndim < 2:
        raise op_value_error("overlap_add", f"x must have at least two dimensions, got shape {x.shape}")
    if axis == -1:
        frame_length, n_frames = x.shape[-2], x.shape[-1]
        idx = _frame_index(frame_length, hop_length, n_frames)
        out = pnp.zeros(x.shape[:-2] + ((n_frames - 1) * hop_length + frame_length,), dtype=x.dtype)
        return out.at[..., idx].add(x)
    n_frames, frame_length = x.shape[0], x.shape[1]
    idx = _frame_index(frame_length, hop_length, n_frames)
    out = pnp.zeros(((n_frames - 1) * hop_length + frame_length,) + x.shape[2:], dtype=x.dtype)
    return out.at[idx.T].add(x)


def _padded_window(op: str, window: Any, win_length: int, n_fft: int, dtype: Any) -> Any:
    if window is None:
        window = pnp.ones((win_length,), dtype=dtype)
    else:
        window = to_array(window)
        if window.ndim != 1 or window.shape[0] != win_length:
            raise op_value_error(op, f"window must be 1-D of size win_length ({win_length}), got shape {window.shape}")
    if win_length < n_fft:
        left = (n_fft - win_length) // 2
        window = pnp.pad(window, (left, n_fft - win_length - left))
    return window


def stft(x: Any, n_fft: int, hop_length: int | None = None, win_length: int | None = None, window: Any = None,
         center: bool = True, pad_mode: str = "reflect", normalized: bool = False, onesided: bool | None = None,
         name: str | None = None) -> Any:
    """The short-time Fourier transform of x [..., seq_length]: complex [..., n_fft//2 + 1, num_frames]
    (onesided, real x) or [..., n_fft, num_frames].

    Args:
        x: the signal [..., seq_length], real or complex.
        n_fft: the FFT size (a positive int, at most seq_length).
        hop_length: the step between frames; None means n_fft // 4.
        win_length: the window length (<= n_fft); None means n_fft.
        window: a 1-D window of win_length points, centred and zero-padded to n_fft; None means ones.
        center: pad x by n_fft // 2 on both sides first (default True).
        pad_mode: "reflect" (default) or "constant", for `center`.
        normalized: scale by 1/sqrt(n_fft) (the "ortho" norm).
        onesided: keep only n_fft//2 + 1 frequencies; None means True for real x and window.

    Returns:
        A complex array of the shape above.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([1.0, 0.0, -1.0, 0.0, 1.0, 0.0, -1.0, 0.0])
        >>> spec = padax.signal.stft(x, n_fft=4, hop_length=2, center=False)
        >>> spec.shape
        (3, 3)
        >>> spec.abs().tolist()
        [[0.0, 0.0, 0.0], [2.0, 2.0, 2.0], [0.0, 0.0, 0.0]]
    """
    x = to_array(x)
    n_fft = _positive_int("stft", "n_fft", n_fft)
    hop_length = n_fft // 4 if hop_length is None else _positive_int("stft", "hop_length", hop_length)
    win_length = n_fft if win_length is None else _positive_int("stft", "win_length", win_length)
    if x.ndim < 1:
        raise op_value_error("stft", "x must have at least one dimension")
    if not 0 < n_fft <= x.shape[-1]:
        raise op_value_error("stft", f"n_fft must be in (0, seq_length ({x.shape[-1]})], got {n_fft}")
    if win_length > n_fft:
        raise op_value_error("stft", f"win_length must be in (0, n_fft ({n_fft})], got {win_length}")
    complex_in = dtypes.is_complex(x.dtype)
    real_dt = {np.dtype(np.complex64): np.dtype(np.float32), np.dtype(np.complex128): np.dtype(np.float64)}.get(
        np.dtype(x.dtype), x.dtype)
    w = _padded_window("stft", window, win_length, n_fft, real_dt)
    if center:
        if pad_mode not in ("reflect", "constant"):
            raise op_value_error("stft", f'pad_mode must be "reflect" or "constant", got {pad_mode!r}')
        p = n_fft // 2
        x = pnp.pad(x, [(0, 0)] * (x.ndim - 1) + [(p, p)], mode=pad_mode)
    frames = pnp.swapaxes(frame(x, n_fft, hop_length, axis=-1), -1, -2) * w     # [..., num_frames, n_fft]
    complex_frames = complex_in or dtypes.is_complex(w.dtype)
    if onesided is None:
        onesided = not complex_frames
    if complex_frames and onesided:
        raise op_value_error("stft", "onesided must be False for a complex input or window")
    norm = "ortho" if normalized else "backward"
    out = _fft.rfft(frames, axis=-1, norm=norm) if onesided else _fft.fft(frames, axis=-1, norm=norm)
    return pnp.swapaxes(out, -1, -2)


def istft(x: Any, n_fft: int, hop_length: int | None = None, win_length: int | None = None, window: Any = None,
          center: bool = True, normalized: bool = False, onesided: bool = True, length: int | None = None,
          return_complex: bool = False, name: str | None = None) -> Any:
    """The inverse of `stft` (the least-squares estimate for a modified STFT) from complex x
    [..., n_fft//2 + 1 (onesided) or n_fft, num_frames]; the window must satisfy the nonzero
    overlap-add (NOLA) condition.

    Args:
        x: the complex STFT [..., n_fft//2 + 1 (onesided) or n_fft, num_frames].
        n_fft: the FFT size (a positive int).
        hop_length: the step between frames; None means n_fft // 4.
        win_length: the window length (<= n_fft); None means n_fft.
        window: a 1-D window of win_length points; None means ones.
        center: the stft padded the signal by n_fft // 2, which is removed (default True).
        normalized: the stft used the "ortho" norm.
        onesided: x holds n_fft//2 + 1 frequencies (default True).
        length: the output length; None keeps all reconstructed samples.
        return_complex: return a complex signal (needs onesided=False).

    Returns:
        The signal [..., length]: real (float32 for complex64 input), or complex with return_complex.

    Examples:
        >>> import padax
        >>> x = padax.sin(padax.arange(16).astype('float32'))
        >>> window = padax.ones([8])
        >>> spec = padax.signal.stft(x, n_fft=8, hop_length=2, window=window)
        >>> y = padax.signal.istft(spec, n_fft=8, hop_length=2, window=window, length=16)
        >>> bool(padax.allclose(y, x, atol=1e-5))
        True
    """
    x = to_array(x)
    n_fft = _positive_int("istft", "n_fft", n_fft)
    hop_length = n_fft // 4 if hop_length is None else _positive_int("istft", "hop_length", hop_length)
    win_length = n_fft if win_length is None else _positive_int("istft", "win_length", win_length)
    if x.ndim < 2 or not dtypes.is_complex(x.dtype):
        raise op_value_error("istft", f"x must be a complex array [..., fft_size, num_frames], got {x.dtype} "
                                      f"of shape {x.shape}")
    if not 0 < hop_length <= win_length <= n_fft:
        raise op_value_error("istft", f"need 0 < hop_length ({hop_length}) <= win_length ({win_length}) <= "
                                      f"n_fft ({n_fft})")
    expected = n_fft // 2 + 1 if onesided else n_fft
    if x.shape[-2] != expected:
        raise op_value_error("istft", f"x.shape[-2] must be {expected} (n_fft={n_fft}, onesided={onesided}), "
                                      f"got {x.shape[-2]}")
    n_frames = x.shape[-1]
    real_dt = np.dtype(np.float32) if np.dtype(x.dtype) == np.complex64 else np.dtype(np.float64)
    w = _padded_window("istft", window, win_length, n_fft, real_dt)
    spec = pnp.swapaxes(x, -1, -2)                                               # [..., num_frames, fft]
    norm = "ortho" if normalized else "backward"
    if return_complex:
        if onesided:
            raise op_value_error("istft", "onesided must be False when return_complex is True")
        frames = _fft.ifft(spec, axis=-1, norm=norm)
    else:
        if dtypes.is_complex(w.dtype):
            raise op_value_error("istft", "the window must be real when return_complex is False")
        if not onesided:
            spec = spec[..., :n_fft // 2 + 1]
        frames = _fft.irfft(spec, n=n_fft, axis=-1, norm=norm)
    out = overlap_add(pnp.swapaxes(frames * w, -1, -2), hop_length, axis=-1)
    envelope = overlap_add(pnp.broadcast_to((w * w)[:, None], (n_fft, n_frames)), hop_length, axis=-1)
    start = n_fft // 2 if center else 0
    if length is None:
        stop = envelope.shape[-1] - (n_fft // 2 if center else 0)
    else:
        stop = start + int(length)
    out, envelope = out[..., start:stop], envelope[start:stop]
    if not isinstance(envelope, Tracer) and envelope.size and float(pnp.min(pnp.abs(envelope))) < 1e-11:
        raise op_value_error("istft", "the nonzero overlap-add (NOLA) condition fails for this window and "
                                      "hop_length (see scipy.signal.check_NOLA)")
    return out / envelope


__all__ = ["frame", "overlap_add", "stft", "istft"]
