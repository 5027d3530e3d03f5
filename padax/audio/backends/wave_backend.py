"""PCM-16 WAV files through the standard library's `wave` module (Paddle's default 'wave_backend')."""
from __future__ import annotations

import io
import os
import wave
from typing import Any

import numpy as np

import padax
from padax.core.atomic_file import atomic_write as _atomic_write


class AudioInfo:
    """What `info` reports about an audio file.

    Args:
        sample_rate: samples per second.
        num_samples: frames in the file.
        num_channels: channels.
        bits_per_sample: bits of one sample.
        encoding: the encoding ('PCM_S' for WAV).

    Returns:
        The record, with those attributes.

    Examples:
        >>> from padax.audio.backends import AudioInfo
        >>> AudioInfo(16000, 10, 1, 16, "PCM_S").sample_rate
        16000
    """

    def __init__(self, sample_rate: int, num_samples: int, num_channels: int, bits_per_sample: int,
                 encoding: str) -> None:
        self.sample_rate = sample_rate
        self.num_samples = num_samples
        self.num_channels = num_channels
        self.bits_per_sample = bits_per_sample
        self.encoding = encoding

    def __repr__(self) -> str:
        return (f"AudioInfo(sample_rate={self.sample_rate}, num_samples={self.num_samples}, "
                f"num_channels={self.num_channels}, bits_per_sample={self.bits_per_sample}, "
                f"encoding={self.encoding!r})")


def _open(op: str, filepath: Any):
    try:
        # (a path is opened, and closed with the reader, by wave itself)
        return wave.open(filepath if hasattr(filepath, "read") else os.fspath(filepath), "rb")
    except wave.Error as e:
        raise NotImplementedError(f"{op}: {filepath!r} is not a PCM-16 WAV file ({e}); the wave backend reads "
                                  f"only those: install soundfile and set_backend('soundfile') for other "
                                  f"formats") from e


def info(filepath: Any) -> AudioInfo:
    """Sample rate, length, channels and sample width of a WAV file.

    Args:
        filepath: a path or a binary file object.

    Returns:
        An AudioInfo.

    Examples:
        >>> import os, tempfile, padax
        >>> path = os.path.join(tempfile.mkdtemp(), "a.wav")
        >>> padax.audio.save(path, padax.zeros([1, 80]), 8000)
        >>> padax.audio.info(path).num_samples
        80
    """
    with _open("info", filepath) as f:
        return AudioInfo(f.getframerate(), f.getnframes(), f.getnchannels(), f.getsampwidth() * 8, "PCM_S")


def load(filepath: Any, frame_offset: int = 0, num_frames: int = -1, normalize: bool = True,
         channels_first: bool = True) -> tuple[Any, int]:
    """Read a PCM-16 WAV file.

    Args:
        filepath: a path or a binary file object.
        frame_offset: the first frame to read (default 0).
        num_frames: how many frames (default -1: to the end).
        normalize: scale to [-1, 1) (divide by 2 ** 15; default True); False keeps the integer values
            (as float32, as Paddle's wave backend).
        channels_first: return [channels, time] (default) or [time, channels].

    Returns:
        (waveform float32, sample_rate).

    Examples:
        >>> import os, tempfile, padax
        >>> path = os.path.join(tempfile.mkdtemp(), "a.wav")
        >>> padax.audio.save(path, padax.full([2, 10], 0.5), 8000)
        >>> wav, sr = padax.audio.load(path)
        >>> wav.shape, sr, wav[0, 0].item()
        ((2, 10), 8000, 0.5)
    """
    with _open("load", filepath) as f:
        if f.getsampwidth() != 2:
            raise NotImplementedError(f"load: {filepath!r} has {8 * f.getsampwidth()}-bit samples; the wave "
                                      f"backend reads PCM-16 only")
        channels, sample_rate, frames = f.getnchannels(), f.getframerate(), f.getnframes()
        data = np.frombuffer(f.readframes(frames), dtype="<i2").astype(np.float32)
    if normalize:
        data = data / np.float32(2 ** 15)
    waveform = data.reshape(frames, channels)
    end = None if num_frames == -1 else frame_offset + num_frames
    waveform = waveform[frame_offset:end]
    if channels_first:
        waveform = waveform.T
    return padax.to_tensor(np.ascontiguousarray(waveform)), sample_rate


def save(filepath: Any, src: Any, sample_rate: int, channels_first: bool = True, encoding: str | None = None,
         bits_per_sample: int | None = 16) -> None:
    """Write a 2-D waveform as a PCM-16 WAV file.

    Args:
        filepath: the path.
        src: the waveform [channels, time] (or [time, channels] with channels_first=False); float32 values
            in [-1, 1) are scaled by 2 ** 15, integer values are written as they are.
        sample_rate: samples per second.
        channels_first: the layout of src (default True).
        encoding: unused (PCM-16 only).
        bits_per_sample: 16 or None (the only width the wave backend writes).

    Returns:
        None.

    Examples:
        >>> import os, tempfile, padax
        >>> path = os.path.join(tempfile.mkdtemp(), "a.wav")
        >>> padax.audio.save(path, padax.zeros([1, 16]), 16000)
        >>> padax.audio.info(path).sample_rate
        16000
    """
    audio = np.asarray(src)
    if audio.ndim != 2:
        raise ValueError(f"save: src must be 2-D ([channels, time]), got shape {audio.shape}")
    if bits_per_sample not in (None, 16):
        raise ValueError(f"save: the wave backend writes 16-bit samples only, got bits_per_sample={bits_per_sample}")
    if channels_first:
        audio = audio.T
    if np.issubdtype(audio.dtype, np.floating):
        audio = audio * (2 ** 15)
    audio = np.ascontiguousarray(audio.astype("<i2"))
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as f:
        f.setnchannels(audio.shape[1])
        f.setsampwidth(2)
        f.setframerate(int(sample_rate))
        f.writeframes(audio.tobytes())
    if hasattr(filepath, "write"):
        filepath.write(buffer.getvalue())
    else:  # all at once: a killed save never leaves half a file
        _atomic_write(os.fspath(filepath), buffer.getvalue())
