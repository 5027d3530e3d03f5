"""`padax.audio.functional`: mel scale, filter banks, decibels, DCT and windows (Paddle's names)."""
from padax.audio.functional.functional import (compute_fbank_matrix, create_dct, fft_frequencies, hz_to_mel,
                                               mel_frequencies, mel_to_hz, power_to_db)
from padax.audio.functional.window import get_window

__all__ = ["compute_fbank_matrix", "create_dct", "fft_frequencies", "get_window", "hz_to_mel", "mel_frequencies",
           "mel_to_hz", "power_to_db"]
