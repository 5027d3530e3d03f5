"""Mel scale conversions, filter banks, decibels and the DCT: the pieces of audio feature extraction.

A float argument gives a float (computed with `math`); an array gives an array built from padax ops, so
it is differentiable and jittable. Matrix builders compute on the host in float64 and return `dtype`.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

import padax

_F_SP = 200.0 / 3                     # Slaney's linear part: 200/3 Hz per mel
_MIN_LOG_HZ = 1000.0
_MIN_LOG_MEL = _MIN_LOG_HZ / _F_SP
_LOGSTEP = math.log(6.4) / 27.0


def _is_scalar(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def hz_to_mel(freq: Any, htk: bool = False) -> Any:
    """Frequencies in Hz to mels (Slaney's scale, linear below 1 kHz and logarithmic above; or HTK's).

    Args:
        freq: a float or an array of frequencies in Hz.
        htk: use the HTK formula 2595 * log10(1 + f / 700) (default False: Slaney).

    Returns:
        The mels: a float for a float, else an array of freq's shape.

    Examples:
        >>> import padax
        >>> round(padax.audio.functional.hz_to_mel(1000.0), 6)
        15.0
        >>> padax.audio.functional.hz_to_mel(padax.to_tensor([0.0, 500.0])).tolist()
        [0.0, 7.5]
    """
    if _is_scalar(freq):
        if htk:
            return 2595.0 * math.log10(1.0 + freq / 700.0)
        if freq >= _MIN_LOG_HZ:
            return _MIN_LOG_MEL + math.log(freq / _MIN_LOG_HZ + 1e-10) / _LOGSTEP
        return freq / _F_SP
    freq = padax.asarray(freq)
    if htk:
        return 2595.0 * padax.log10(1.0 + freq / 700.0)
    linear = freq / _F_SP
    log_part = _MIN_LOG_MEL + padax.log(freq / _MIN_LOG_HZ + 1e-10) / _LOGSTEP
    return padax.where(freq > _MIN_LOG_HZ, log_part, linear)


def mel_to_hz(mel: Any, htk: bool = False) -> Any:
    """Mels to frequencies in Hz: the inverse of `hz_to_mel`.

    Args:
        mel: a float or an array of mels.
        htk: use the HTK formula (default False: Slaney).

    Returns:
        Hz: a float for a float, else an array of mel's shape.

    Examples:
        >>> import padax
        >>> round(padax.audio.functional.mel_to_hz(15.0), 3)
        1000.0
        >>> padax.audio.functional.mel_to_hz(padax.to_tensor([0.0, 7.5])).tolist()
        [0.0, 500.0]
    """
    if _is_scalar(mel):
        if htk:
            return 700.0 * (10.0 ** (mel / 2595.0) - 1.0)
        if mel >= _MIN_LOG_MEL:
            return _MIN_LOG_HZ * math.exp(_LOGSTEP * (mel - _MIN_LOG_MEL))
        return _F_SP * mel
    mel = padax.asarray(mel)
    if htk:
        return 700.0 * (10.0 ** (mel / 2595.0) - 1.0)
    log_part = _MIN_LOG_HZ * padax.exp(_LOGSTEP * (mel - _MIN_LOG_MEL))
    return padax.where(mel > _MIN_LOG_MEL, log_part, _F_SP * mel)


def _mel_frequencies_np(n_mels: int, f_min: float, f_max: float, htk: bool) -> np.ndarray:
    mels = np.linspace(hz_to_mel(float(f_min), htk), hz_to_mel(float(f_max), htk), n_mels)
    if htk:
        return 700.0 * (10.0 ** (mels / 2595.0) - 1.0)
    return np.where(mels > _MIN_LOG_MEL, _MIN_LOG_HZ * np.exp(_LOGSTEP * (mels - _MIN_LOG_MEL)), _F_SP * mels)


def mel_frequencies(n_mels: int = 64, f_min: float = 0.0, f_max: float = 11025.0, htk: bool = False,
                    dtype: Any = "float32") -> Any:
    """n_mels frequencies (Hz) evenly spaced on the mel scale between f_min and f_max.

    Args:
        n_mels: how many (default 64).
        f_min: the lowest frequency in Hz (default 0).
        f_max: the highest frequency in Hz (default 11025).
        htk: use the HTK mel formula (default False).
        dtype: the result's dtype (default float32).

    Returns:
        An array [n_mels] in Hz.

    Examples:
        >>> import padax
        >>> padax.audio.functional.mel_frequencies(3, 0.0, 1000.0).tolist()
        [0.0, 500.0, 1000.0]
    """
    return padax.to_tensor(_mel_frequencies_np(n_mels, f_min, f_max, htk), dtype=dtype)


def fft_frequencies(sr: int, n_fft: int, dtype: Any = "float32") -> Any:
    """The centre frequency (Hz) of each bin of a one-sided FFT of n_fft points at sample rate sr.

    Args:
        sr: the sample rate.
        n_fft: the FFT size.
        dtype: the result's dtype (default float32).

    Returns:
        An array [n_fft // 2 + 1] from 0 to sr / 2.

    Examples:
        >>> import padax
        >>> padax.audio.functional.fft_frequencies(16000, 4).tolist()
        [0.0, 4000.0, 8000.0]
    """
    return padax.to_tensor(np.linspace(0, float(sr) / 2, int(1 + n_fft // 2)), dtype=dtype)


def compute_fbank_matrix(sr: int, n_fft: int, n_mels: int = 64, f_min: float = 0.0, f_max: float | None = None,
                         htk: bool = False, norm: Any = "slaney", dtype: Any = "float32") -> Any:
    """The mel filter bank: triangular filters, evenly spaced in mels, that map FFT bins to mel bands.

    Args:
        sr: the sample rate.
        n_fft: the FFT size.
        n_mels: the number of mel bands (default 64).
        f_min: the lowest frequency in Hz (default 0).
        f_max: the highest frequency in Hz (default None: sr / 2).
        htk: use the HTK mel formula (default False).
        norm: 'slaney' (default: each filter scaled to about constant energy), a number p (each filter
            divided by its p-norm), or None.
        dtype: the result's dtype (default float32).

    Returns:
        An array [n_mels, n_fft // 2 + 1].

    Examples:
        >>> import padax
        >>> fb = padax.audio.functional.compute_fbank_matrix(sr=16000, n_fft=64, n_mels=8)
        >>> fb.shape
        (8, 33)
    """
    f_max = float(sr) / 2 if f_max is None else f_max
    fftfreqs = np.linspace(0, float(sr) / 2, int(1 + n_fft // 2))
    mel_f = _mel_frequencies_np(n_mels + 2, f_min, f_max, htk)
    fdiff = np.diff(mel_f)
    ramps = mel_f[:, None] - fftfreqs[None, :]
    lower = -ramps[:n_mels] / fdiff[:n_mels, None]
    upper = ramps[2:n_mels + 2] / fdiff[1:n_mels + 1, None]
    weights = np.maximum(0.0, np.minimum(lower, upper))
    if norm == "slaney":
        weights = weights * (2.0 / (mel_f[2:n_mels + 2] - mel_f[:n_mels]))[:, None]
    elif isinstance(norm, (int, float)) and not isinstance(norm, bool):
        size = np.sum(np.abs(weights) ** norm, axis=-1, keepdims=True) ** (1.0 / norm)
        weights = weights / np.maximum(size, 1e-12)
    return padax.to_tensor(weights, dtype=dtype)


def power_to_db(spect: Any, ref_value: float = 1.0, amin: float = 1e-10, top_db: float | None = 80.0) -> Any:
    """A power spectrogram in decibels: 10 * log10(max(spect, amin) / ref_value), floored top_db below the peak.

    Args:
        spect: a power spectrogram (amplitude squared), any shape.
        ref_value: the reference power (default 1.0).
        amin: the smallest power considered (default 1e-10), so the log stays finite.
        top_db: the floor, in dB below the maximum over the whole array (default 80); None: no floor.

    Returns:
        An array of spect's shape, in dB.

    Examples:
        >>> import padax
        >>> padax.audio.functional.power_to_db(padax.to_tensor([1.0, 10.0, 100.0]), top_db=None).tolist()
        [0.0, 10.0, 20.0]
    """
    if amin <= 0:
        raise ValueError("power_to_db: amin must be strictly positive")
    if ref_value <= 0:
        raise ValueError("power_to_db: ref_value must be strictly positive")
    spect = padax.asarray(spect)
    log_spec = 10.0 * padax.log10(padax.maximum(spect, padax.full_like(spect, amin)))
    log_spec = log_spec - 10.0 * math.log10(max(ref_value, amin))
    if top_db is not None:
        if top_db < 0:
            raise ValueError("power_to_db: top_db must be non-negative")
        log_spec = padax.maximum(log_spec, log_spec.max() - top_db)
    return log_spec


def create_dct(n_mfcc: int, n_mels: int, norm: str | None = "ortho", dtype: Any = "float32") -> Any:
    """The DCT-II matrix that maps n_mels log-mel energies to n_mfcc cepstral coefficients.

    Args:
        n_mfcc: the number of coefficients.
        n_mels: the number of mel bands.
        norm: 'ortho' (default: orthonormal basis) or None (unscaled, times 2).
        dtype: the result's dtype (default float32).

    Returns:
        An array [n_mels, n_mfcc] (multiply log-mels [..., n_mels] by it).

    Examples:
        >>> import padax
        >>> padax.audio.functional.create_dct(n_mfcc=2, n_mels=4).shape
        (4, 2)
    """
    n = np.arange(n_mels, dtype=np.float64)
    k = np.arange(n_mfcc, dtype=np.float64)[:, None]
    dct = np.cos(math.pi / float(n_mels) * (n + 0.5) * k)
    if norm is None:
        dct = dct * 2.0
    elif norm == "ortho":
        dct[0] *= 1.0 / math.sqrt(2.0)
        dct = dct * math.sqrt(2.0 / float(n_mels))
    else:
        raise ValueError(f"create_dct: norm must be 'ortho' or None, got {norm!r}")
    return padax.to_tensor(dct.T, dtype=dtype)
