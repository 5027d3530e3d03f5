"""`padax.audio.features`: Spectrogram, MelSpectrogram, LogMelSpectrogram and MFCC layers (Paddle's)."""
from padax.audio.features.layers import MFCC, LogMelSpectrogram, MelSpectrogram, Spectrogram

__all__ = ["LogMelSpectrogram", "MFCC", "MelSpectrogram", "Spectrogram"]
