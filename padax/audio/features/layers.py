"""Audio feature layers: spectrogram, mel spectrogram, log-mel spectrogram and MFCC of waveforms [N, T].

Each is a padax.nn.Layer whose window / filter bank / DCT matrix are buffers, and whose forward is
built from padax ops (padax.signal.stft, abs, matmul, log10): differentiable, jittable and vmappable.
"""
from __future__ import annotations

from typing import Any

import padax
from padax.audio.functional import compute_fbank_matrix, create_dct, get_window, power_to_db


class Spectrogram(padax.nn.Layer):
    """The magnitude (to `power`) of the short-time Fourier transform of waveforms.

    Args:
        n_fft: the FFT size (default 512).
        hop_length: the step between frames (default 512; None: win_length // 4).
        win_length: the window length (default None: n_fft).
        window: the window's name, or a (name, *params) tuple (see `padax.audio.functional.get_window`).
        power: the exponent of the magnitude (default 1.0).
        center: pad the signal by n_fft // 2 on both sides (default True).
        pad_mode: the padding for `center` (default 'reflect').
        dtype: the window's dtype (default float32).

    Returns:
        A layer mapping x [N, T] to [N, n_fft // 2 + 1, num_frames].

    Examples:
        >>> import padax
        >>> spec = padax.audio.features.Spectrogram(n_fft=16, hop_length=8)
        >>> spec(padax.ones([2, 64])).shape
        (2, 9, 9)
    """

    def __init__(self, n_fft: int = 512, hop_length: int | None = 512, win_length: int | None = None,
                 window: Any = "hann", power: float = 1.0, center: bool = True, pad_mode: str = "reflect",
                 dtype: Any = "float32") -> None:
        super().__init__()
        if power <= 0:
            raise ValueError(f"Spectrogram: power must be > 0, got {power}")
        self.power = power
        self.n_fft = n_fft
        self.win_length = n_fft if win_length is None else win_length
        self.hop_length = hop_length
        self.center = center
        self.pad_mode = pad_mode
        self.register_buffer("fft_window", get_window(window, self.win_length, fftbins=True, dtype=dtype))

    def forward(self, x: Any) -> Any:
        """x [N, T] -> spectrogram [N, n_fft // 2 + 1, num_frames]."""
        stft = padax.signal.stft(x, n_fft=self.n_fft, hop_length=self.hop_length, win_length=self.win_length,
                                 window=self.fft_window, center=self.center, pad_mode=self.pad_mode)
        return padax.pow(padax.abs(stft), self.power)


class MelSpectrogram(padax.nn.Layer):
    """A spectrogram mapped to mel bands by the filter bank of `compute_fbank_matrix`.

    Args:
        sr: the sample rate (default 22050).
        n_fft: the FFT size (default 2048).
        hop_length: the step between frames (default 512).
        win_length: the window length (default None: n_fft).
        window: the window (default 'hann').
        power: the exponent of the magnitude (default 2.0: power).
        center: pad the signal by n_fft // 2 on both sides (default True).
        pad_mode: the padding for `center` (default 'reflect').
        n_mels: the number of mel bands (default 64).
        f_min: the lowest frequency in Hz (default 50).
        f_max: the highest frequency in Hz (default None: sr // 2).
        htk: use the HTK mel formula (default False).
        norm: the filter normalisation (default 'slaney').
        dtype: the buffers' dtype (default float32).

    Returns:
        A layer mapping x [N, T] to [N, n_mels, num_frames].

    Examples:
        >>> import padax
        >>> mel = padax.audio.features.MelSpectrogram(sr=16000, n_fft=32, hop_length=16, n_mels=8)
        >>> mel(padax.ones([1, 64])).shape
        (1, 8, 5)
    """

    def __init__(self, sr: int = 22050, n_fft: int = 2048, hop_length: int | None = 512,
                 win_length: int | None = None, window: Any = "hann", power: float = 2.0, center: bool = True,
                 pad_mode: str = "reflect", n_mels: int = 64, f_min: float = 50.0, f_max: float | None = None,
                 htk: bool = False, norm: Any = "slaney", dtype: Any = "float32") -> None:
        super().__init__()
        self._spectrogram = Spectrogram(n_fft=n_fft, hop_length=hop_length, win_length=win_length, window=window,
                                        power=power, center=center, pad_mode=pad_mode, dtype=dtype)
        self.n_mels, self.f_min, self.f_max, self.htk, self.norm = n_mels, f_min, f_max, htk, norm
        self.register_buffer("fbank_matrix", compute_fbank_matrix(
            sr=sr, n_fft=n_fft, n_mels=n_mels, f_min=f_min, f_max=sr // 2 if f_max is None else f_max, htk=htk,
            norm=norm, dtype=dtype))

    def forward(self, x: Any) -> Any:
        """x [N, T] -> mel spectrogram [N, n_mels, num_frames]."""
        return padax.matmul(self.fbank_matrix, self._spectrogram(x))


class LogMelSpectrogram(padax.nn.Layer):
    """A mel spectrogram in decibels (`power_to_db`).

    Args:
        sr: the sample rate (default 22050).
        n_fft: the FFT size (default 512).
        hop_length: the step between frames (default None: win_length // 4).
        win_length: the window length (default None: n_fft).
        window: the window (default 'hann').
        power: the exponent of the magnitude (default 2.0).
        center: pad the signal by n_fft // 2 on both sides (default True).
        pad_mode: the padding for `center` (default 'reflect').
        n_mels: the number of mel bands (default 64).
        f_min: the lowest frequency in Hz (default 50).
        f_max: the highest frequency in Hz (default None: sr // 2).
        htk: use the HTK mel formula (default False).
        norm: the filter normalisation (default 'slaney').
        ref_value: the reference power of 0 dB (default 1.0).
        amin: the smallest power considered (default 1e-10).
        top_db: the floor below the peak in dB (default None: no floor).
        dtype: the buffers' dtype (default float32).

    Returns:
        A layer mapping x [N, T] to [N, n_mels, num_frames].

    Examples:
        >>> import padax
        >>> logmel = padax.audio.features.LogMelSpectrogram(sr=16000, n_fft=32, n_mels=8)
        >>> logmel(padax.ones([1, 64])).shape
        (1, 8, 9)
    """

    def __init__(self, sr: int = 22050, n_fft: int = 512, hop_length: int | None = None,
                 win_length: int | None = None, window: Any = "hann", power: float = 2.0, center: bool = True,
                 pad_mode: str = "reflect", n_mels: int = 64, f_min: float = 50.0, f_max: float | None = None,
                 htk: bool = False, norm: Any = "slaney", ref_value: float = 1.0, amin: float = 1e-10,
                 top_db: float | None = None, dtype: Any = "float32") -> None:
        super().__init__()
        self._melspectrogram = MelSpectrogram(sr=sr, n_fft=n_fft, hop_length=hop_length, win_length=win_length,
                                              window=window, power=power, center=center, pad_mode=pad_mode,
                                              n_mels=n_mels, f_min=f_min, f_max=f_max, htk=htk, norm=norm,
                                              dtype=dtype)
        self.ref_value, self.amin, self.top_db = ref_value, amin, top_db

    def forward(self, x: Any) -> Any:
        """x [N, T] -> log-mel spectrogram [N, n_mels, num_frames]."""
        return power_to_db(self._melspectrogram(x), ref_value=self.ref_value, amin=self.amin, top_db=self.top_db)


class MFCC(padax.nn.Layer):
    """Mel-frequency cepstral coefficients: the DCT (`create_dct`, ortho) of a log-mel spectrogram.

    Args:
        sr: the sample rate (default 22050).
        n_mfcc: the number of coefficients (default 40, at most n_mels).
        n_fft: the FFT size (default 512).
        hop_length: the step between frames (default None: win_length // 4).
        win_length: the window length (default None: n_fft).
        window: the window (default 'hann').
        power: the exponent of the magnitude (default 2.0).
        center: pad the signal by n_fft // 2 on both sides (default True).
        pad_mode: the padding for `center` (default 'reflect').
        n_mels: the number of mel bands (default 64).
        f_min: the lowest frequency in Hz (default 50).
        f_max: the highest frequency in Hz (default None: sr // 2).
        htk: use the HTK mel formula (default False).
        norm: the filter normalisation (default 'slaney').
        ref_value: the reference power of 0 dB (default 1.0).
        amin: the smallest power considered (default 1e-10).
        top_db: the floor below the peak in dB (default None: no floor).
        dtype: the buffers' dtype (default float32).

    Returns:
        A layer mapping x [N, T] to [N, n_mfcc, num_frames].

    Examples:
        >>> import padax
        >>> mfcc = padax.audio.features.MFCC(sr=16000, n_mfcc=4, n_fft=32, n_mels=8)
        >>> mfcc(padax.ones([1, 64])).shape
        (1, 4, 9)
    """

    def __init__(self, sr: int = 22050, n_mfcc: int = 40, n_fft: int = 512, hop_length: int | None = None,
                 win_length: int | None = None, window: Any = "hann", power: float = 2.0, center: bool = True,
                 pad_mode: str = "reflect", n_mels: int = 64, f_min: float = 50.0, f_max: float | None = None,
                 htk: bool = False, norm: Any = "slaney", ref_value: float = 1.0, amin: float = 1e-10,
                 top_db: float | None = None, dtype: Any = "float32") -> None:
        super().__init__()
        if n_mfcc > n_mels:
            raise ValueError(f"MFCC: n_mfcc cannot be larger than n_mels: {n_mfcc} vs {n_mels}")
        self._log_melspectrogram = LogMelSpectrogram(
            sr=sr, n_fft=n_fft, hop_length=hop_length, win_length=win_length, window=window, power=power,
            center=center, pad_mode=pad_mode, n_mels=n_mels, f_min=f_min, f_max=f_max, htk=htk, norm=norm,
            ref_value=ref_value, amin=amin, top_db=top_db, dtype=dtype)
        self.register_buffer("dct_matrix", create_dct(n_mfcc=n_mfcc, n_mels=n_mels, dtype=dtype))

    def forward(self, x: Any) -> Any:
        """x [N, T] -> MFCCs [N, n_mfcc, num_frames]."""
        log_mel = self._log_melspectrogram(x)
        return padax.matmul(log_mel.transpose([0, 2, 1]), self.dct_matrix).transpose([0, 2, 1])
