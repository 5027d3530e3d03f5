"""`padax.audio`: Paddle's audio library (paddle.audio).

`functional` (mel scale, filter banks, dB, DCT, windows), `features` (Spectrogram, MelSpectrogram,
LogMelSpectrogram, MFCC layers: differentiable and jittable), `backends` (WAV load/save/info through the
standard library; soundfile when installed) and `datasets` (ESC50, TESS from local files).
"""
from padax.audio import backends, datasets, features, functional
from padax.audio.backends import info, load, save

__all__ = ["backends", "datasets", "features", "functional", "info", "load", "save"]
