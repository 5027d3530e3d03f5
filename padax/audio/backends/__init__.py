"""`padax.audio.backends`: the audio file readers. 'wave_backend' (PCM-16 WAV, standard library) is always
there; 'soundfile' is listed when the soundfile package is installed (it reads FLAC, OGG, other WAVs)."""
from __future__ import annotations

import importlib.util
from typing import Any

import numpy as np

import padax
from padax.audio.backends import wave_backend
from padax.audio.backends.wave_backend import AudioInfo

_current = {"name": "wave_backend"}


def list_available_backends() -> list[str]:
    """The names `set_backend` accepts.

    Returns:
        ['soundfile', 'wave_backend'] when soundfile is installed, else ['wave_backend'].

    Examples:
        >>> import padax
        >>> "wave_backend" in padax.audio.backends.list_available_backends()
        True
    """
    found = ["soundfile"] if importlib.util.find_spec("soundfile") is not None else []
    return found + ["wave_backend"]


def get_current_backend() -> str:
    """The name of the backend `padax.audio.load/save/info` use.

    Returns:
        'wave_backend' (the default) or 'soundfile'.

    Examples:
        >>> import padax
        >>> padax.audio.backends.get_current_backend()
        'wave_backend'
    """
    return _current["name"]


def set_backend(backend_name: str) -> None:
    """Choose the backend of `padax.audio.load/save/info`.

    Args:
        backend_name: one of `list_available_backends()`.

    Returns:
        None.

    Examples:
        >>> import padax
        >>> padax.audio.backends.set_backend("wave_backend")
    """
    if backend_name not in list_available_backends():
        raise NotImplementedError(f"set_backend: {backend_name!r} is not available; available: "
                                  f"{list_available_backends()}")
    _current["name"] = backend_name


def _sf():
    import soundfile  # optional dependency: only when the user picked the soundfile backend
    return soundfile


def info(filepath: Any) -> AudioInfo:
    """Sample rate, length, channels and sample width of an audio file (the current backend's reader).

    Args:
        filepath: a path or a binary file object.

    Returns:
        An AudioInfo.

    Examples:
        >>> import os, tempfile, padax
        >>> path = os.path.join(tempfile.mkdtemp(), "a.wav")
        >>> padax.audio.backends.save(path, padax.zeros([2, 40]), 8000)
        >>> padax.audio.backends.info(path).num_channels
        2
    """
    if _current["name"] == "wave_backend":
        return wave_backend.info(filepath)
    i = _sf().info(filepath)
    bits = {"PCM_16": 16, "PCM_24": 24, "PCM_32": 32, "PCM_U8": 8, "PCM_S8": 8, "FLOAT": 32, "DOUBLE": 64}
    return AudioInfo(i.samplerate, i.frames, i.channels, bits.get(i.subtype, 0), i.subtype)


def load(filepath: Any, frame_offset: int = 0, num_frames: int = -1, normalize: bool = True,
         channels_first: bool = True) -> tuple[Any, int]:
    """Read an audio file with the current backend (see `wave_backend.load` for the arguments).

    Args:
        filepath: a path or a binary file object.
        frame_offset: the first frame to read (default 0).
        num_frames: how many frames (default -1: to the end).
        normalize: floats in [-1, 1) (default True) or the raw integer values (as float32).
        channels_first: [channels, time] (default) or [time, channels].

    Returns:
        (waveform, sample_rate).

    Examples:
        >>> import os, tempfile, padax
        >>> path = os.path.join(tempfile.mkdtemp(), "a.wav")
        >>> padax.audio.backends.save(path, padax.zeros([1, 40]), 8000)
        >>> padax.audio.backends.load(path)[0].shape
        (1, 40)
    """
    if _current["name"] == "wave_backend":
        return wave_backend.load(filepath, frame_offset, num_frames, normalize, channels_first)
    data, sr = _sf().read(filepath, start=frame_offset, frames=num_frames, dtype="float32" if normalize else "int16",
                          always_2d=True)
    data = np.asarray(data, np.float32)
    return padax.to_tensor(np.ascontiguousarray(data.T if channels_first else data)), sr


def save(filepath: Any, src: Any, sample_rate: int, channels_first: bool = True, encoding: str | None = None,
         bits_per_sample: int | None = 16) -> None:
    """Write a 2-D waveform with the current backend (see `wave_backend.save` for the arguments).

    Args:
        filepath: the path.
        src: the waveform [channels, time] (or [time, channels] with channels_first=False).
        sample_rate: samples per second.
        channels_first: the layout of src (default True).
        encoding: the soundfile subtype (e.g. 'PCM_16'); unused by the wave backend.
        bits_per_sample: 16 (default) or None.

    Returns:
        None.

    Examples:
        >>> import os, tempfile, padax
        >>> path = os.path.join(tempfile.mkdtemp(), "a.wav")
        >>> padax.audio.backends.save(path, padax.zeros([1, 40]), 8000)
    """
    if _current["name"] == "wave_backend":
        return wave_backend.save(filepath, src, sample_rate, channels_first, encoding, bits_per_sample)
    audio = np.asarray(src)
    _sf().write(filepath, audio.T if channels_first else audio, int(sample_rate),
                subtype=encoding or ("PCM_16" if bits_per_sample in (None, 16) else None))


__all__ = ["AudioInfo", "get_current_backend", "info", "list_available_backends", "load", "save", "set_backend"]
