"""`padax.scipy.signal`: scipy.signal's convolutions, windows, spectral analysis and IIR filters
(convolve, correlate, fftconvolve, convolve2d, correlate2d, get_window, detrend, stft, istft,
welch, butter, lfilter, sosfilt) on padax arrays: differentiable, jittable, batched."""
from padax.scipy.signal._convolve import convolve, convolve2d, correlate, correlate2d, fftconvolve  # noqa: F401
from padax.scipy.signal._filters import butter, lfilter, sosfilt  # noqa: F401
from padax.scipy.signal._spectral import detrend, istft, stft, welch  # noqa: F401
from padax.scipy.signal._windows import get_window  # noqa: F401

__all__ = ["convolve", "correlate", "fftconvolve", "convolve2d", "correlate2d", "get_window", "detrend", "stft",
           "istft", "welch", "butter", "lfilter", "sosfilt"]
