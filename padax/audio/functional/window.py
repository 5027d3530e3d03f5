"""Window functions for spectral analysis (Paddle's paddle.audio.functional.get_window).

The windows are constants of a feature pipeline: they are computed on the host in float64 with numpy
(the formulas of scipy.signal.windows, which Paddle follows) and returned as a padax array of `dtype`.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

import padax


def _general_cosine(m: int, a: list[float]) -> np.ndarray:
    fac = np.linspace(-math.pi, math.pi, m)
    return sum(c * np.cos(k * fac) for k, c in enumerate(a))


def _bartlett(m: int) -> np.ndarray:
    n = np.arange(m, dtype=np.float64)
    return np.where(n <= (m - 1) / 2.0, 2.0 * n / (m - 1), 2.0 - 2.0 * n / (m - 1))


def _kaiser(m: int, beta: float) -> np.ndarray:
    n = np.arange(m, dtype=np.float64)
    alpha = (m - 1) / 2.0
    return np.i0(beta * np.sqrt(1 - ((n - alpha) / alpha) ** 2.0)) / np.i0(beta)


def _gaussian(m: int, std: float) -> np.ndarray:
    n = np.arange(m, dtype=np.float64) - (m - 1.0) / 2.0
    return np.exp(-(n ** 2) / (2 * std * std))


def _general_gaussian(m: int, p: float, sig: float) -> np.ndarray:
    n = np.arange(m, dtype=np.float64) - (m - 1.0) / 2.0
    return np.exp(-0.5 * np.abs(n / sig) ** (2 * p))


def _exponential(m: int, center: Any = None, tau: float = 1.0) -> np.ndarray:
    center = (m - 1) / 2 if center is None else center
    return np.exp(-np.abs(np.arange(m, dtype=np.float64) - center) / tau)


def _triang(m: int) -> np.ndarray:
    n = np.arange(1, (m + 1) // 2 + 1, dtype=np.float64)
    if m % 2 == 0:
        w = (2 * n - 1.0) / m
        return np.concatenate([w, w[::-1]])
    w = 2 * n / (m + 1.0)
    return np.concatenate([w, w[-2::-1]])


def _bohman(m: int) -> np.ndarray:
    fac = np.abs(np.linspace(-1, 1, m)[1:-1])
    w = (1 - fac) * np.cos(math.pi * fac) + 1.0 / math.pi * np.sin(math.pi * fac)
    return np.concatenate([[0.0], w, [0.0]])


def _cosine(m: int) -> np.ndarray:
    return np.sin(math.pi / m * (np.arange(m, dtype=np.float64) + 0.5))


def _tukey(m: int, alpha: float = 0.5) -> np.ndarray:
    n = np.arange(m, dtype=np.float64)
    width = int(alpha * (m - 1) / 2.0)
    n1, n2, n3 = n[:width + 1], n[width + 1:m - width - 1], n[m - width - 1:]
    w1 = 0.5 * (1 + np.cos(math.pi * (-1 + 2.0 * n1 / alpha / (m - 1))))
    w3 = 0.5 * (1 + np.cos(math.pi * (-2.0 / alpha + 1 + 2.0 * n3 / alpha / (m - 1))))
    return np.concatenate([w1, np.ones(n2.shape), w3])


def _taylor(m: int, nbar: int = 4, sll: float = 30, norm: bool = True) -> np.ndarray:
    b = 10 ** (sll / 20)
    a = math.acosh(b) / math.pi
    s2 = nbar ** 2 / (a ** 2 + (nbar - 0.5) ** 2)
    ma = np.arange(1, nbar, dtype=np.float64)
    m2 = ma * ma
    signs = np.where(np.arange(nbar - 1) % 2 == 0, 1.0, -1.0)
    fm = np.empty(nbar - 1)
    for i in range(nbar - 1):
        num = signs[i] * np.prod(1 - m2[i] / s2 / (a ** 2 + (ma - 0.5) ** 2))
        others = np.concatenate([m2[:i], m2[i + 1:]])
        fm[i] = num / (2 * np.prod(1 - m2[i] / others))

    def w_at(n):
        return 1 + 2 * np.cos(2 * math.pi * np.outer(np.atleast_1d(n) - m / 2.0 + 0.5, ma) / m) @ fm

    w = w_at(np.arange(m, dtype=np.float64))
    if norm:
        w = w / w_at((m - 1) / 2)
    return w


_WINDOWS = {
    "hamming": lambda m: _general_cosine(m, [0.54, 0.46]),
    "hann": lambda m: _general_cosine(m, [0.5, 0.5]),
    "blackman": lambda m: _general_cosine(m, [0.42, 0.50, 0.08]),
    "nuttall": lambda m: _general_cosine(m, [0.3635819, 0.4891775, 0.1365995, 0.0106411]),
    "bartlett": _bartlett, "kaiser": _kaiser, "gaussian": _gaussian, "general_gaussian": _general_gaussian,
    "exponential": _exponential, "triang": _triang, "bohman": _bohman, "cosine": _cosine, "tukey": _tukey,
    "taylor": _taylor,
}
_NEEDS_PARAMS = ("gaussian", "exponential", "kaiser", "general_gaussian")


def window_array(window: Any, win_length: int, fftbins: bool = True) -> np.ndarray:
    """The window as a float64 numpy array (see `get_window`)."""
    if isinstance(window, tuple):
        name, args = window[0], tuple(window[1:])
    elif isinstance(window, str):
        if window in _NEEDS_PARAMS:
            raise ValueError(f"get_window: the {window!r} window needs parameters: pass a tuple such as "
                             f"({window!r}, value)")
        name, args = window, ()
    else:
        raise ValueError(f"get_window: window must be a name or a (name, *params) tuple, got {type(window)}")
    if name not in _WINDOWS:
        raise ValueError(f"get_window: unknown window {name!r}; known: {sorted(_WINDOWS)}")
    if int(win_length) != win_length or win_length < 0:
        raise ValueError(f"get_window: win_length must be a non-negative int, got {win_length!r}")
    m = int(win_length)
    if m <= 1:
        return np.ones(m)
    if name == "exponential" and not fftbins and len(args) >= 1 and args[0] is not None:
        raise ValueError("get_window: a symmetric exponential window (fftbins=False) takes no center")
    if name == "tukey":
        alpha = args[0] if args else 0.5
        if alpha <= 0:
            return np.ones(m)
        if alpha >= 1.0:
            return window_array("hann", m, fftbins)
    ext = m + 1 if fftbins else m      # a periodic window is a symmetric one of m + 1 points, truncated
    w = np.asarray(_WINDOWS[name](ext, *args), np.float64)
    return w[:-1] if fftbins else w


def get_window(window: Any, win_length: int, fftbins: bool = True, dtype: Any = "float64") -> Any:
    """A window of `win_length` points by name: a taper applied to each frame before its FFT.

    Args:
        window: a name ('hamming', 'hann', 'blackman', 'nuttall', 'bartlett', 'triang', 'bohman',
            'cosine', 'tukey', 'taylor') or a tuple with parameters: ('kaiser', beta), ('gaussian', std),
            ('general_gaussian', p, sig), ('exponential', center, tau), ('tukey', alpha), ('taylor', nbar, sll).
        win_length: the number of points.
        fftbins: True (default) gives a periodic window (for spectral analysis), False a symmetric one.
        dtype: the result's dtype (default float64).

    Returns:
        A 1-D array [win_length].

    Examples:
        >>> import padax
        >>> w = padax.audio.functional.get_window("hann", 4)
        >>> [round(v, 6) for v in w.tolist()]
        [0.0, 0.5, 1.0, 0.5]
    """
    return padax.to_tensor(window_array(window, win_length, fftbins), dtype=dtype)
