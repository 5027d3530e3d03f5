"""Window functions (scipy.signal.get_window): computed on the host with numpy (they depend only
on static sizes and parameters) and returned as padax arrays of the default float dtype."""
from __future__ import annotations

from typing import Any

import numpy as np

from padax import numpy as pnp
from padax.core.errors import op_value_error
from padax.numpy import _dtypes as D

_COSINE_SUMS = {
    "hann": (0.5, 0.5), "hamming": (0.54, 0.46), "blackman": (0.42, 0.50, 0.08),
    "nuttall": (0.3635819, 0.4891775, 0.1365995, 0.0106411),
    "blackmanharris": (0.35875, 0.48829, 0.14128, 0.01168),
    "flattop": (0.21557895, 0.41663158, 0.277263158, 0.083578947, 0.006947368),
}
_ALIASES = {"hanning": "hann", "han": "hann", "hamm": "hamming", "ham": "hamming", "black": "blackman",
            "blk": "blackman", "nutl": "nuttall", "nut": "nuttall", "blackharr": "blackmanharris",
            "bkh": "blackmanharris", "flat": "flattop", "flt": "flattop", "box": "boxcar", "ones": "boxcar",
            "rect": "boxcar", "rectangular": "boxcar", "tri": "triang", "triangle": "triang", "bart": "bartlett",
            "brt": "bartlett", "cos": "cosine", "halfcosine": "cosine", "bman": "bohman", "bmn": "bohman",
            "par": "parzen", "parz": "parzen", "pa": "parzen", "tuk": "tukey", "tuky": "tukey", "gauss": "gaussian",
            "gss": "gaussian", "ksr": "kaiser", "exp": "exponential", "poisson": "exponential",
            "general gaussian": "general_gaussian", "general_gauss": "general_gaussian", "ggs": "general_gaussian"}


def _symmetric(name: str, m: int, *params: float) -> np.ndarray:
    """The symmetric window of m points."""
    n = np.arange(m, dtype=np.float64)
    if name in _COSINE_SUMS:
        fac = np.linspace(-np.pi, np.pi, m)
        return sum(a * np.cos(k * fac) for k, a in enumerate(_COSINE_SUMS[name]))
    if name == "boxcar":
        return np.ones(m)
    if name == "triang":
        k = np.arange(1, (m + 1) // 2 + 1, dtype=np.float64)
        if m % 2 == 0:
            w = (2 * k - 1.0) / m
            return np.r_[w, w[::-1]]
        w = 2 * k / (m + 1.0)
        return np.r_[w, w[-2::-1]]
    if name == "bartlett":
        return np.where(n <= (m - 1) / 2.0, 2.0 * n / (m - 1), 2.0 - 2.0 * n / (m - 1))
    if name == "cosine":
        return np.sin(np.pi / m * (n + 0.5))
    if name == "bohman":
        fac = np.abs(np.linspace(-1, 1, m)[1:-1])
        return np.r_[0.0, (1 - fac) * np.cos(np.pi * fac) + np.sin(np.pi * fac) / np.pi, 0.0]
    if name == "parzen":
        k = np.arange(-(m - 1) / 2.0, (m - 1) / 2.0 + 0.5, 1.0)
        a = k[k < -(m - 1) / 4.0]
        b = k[np.abs(k) <= (m - 1) / 4.0]
        wa = 2 * (1 - np.abs(a) / (m / 2.0)) ** 3.0
        wb = 1 - 6 * (np.abs(b) / (m / 2.0)) ** 2.0 + 6 * (np.abs(b) / (m / 2.0)) ** 3.0
        return np.r_[wa, wb, wa[::-1]]
    if name == "tukey":
        alpha = params[0] if params else 0.5
        if alpha <= 0:
            return np.ones(m)
        if alpha >= 1:
            return _symmetric("hann", m)
        width = int(np.floor(alpha * (m - 1) / 2.0))
        n1, n2, n3 = n[:width + 1], n[width + 1:m - width - 1], n[m - width - 1:]
        w1 = 0.5 * (1 + np.cos(np.pi * (-1 + 2.0 * n1 / alpha / (m - 1))))
        w3 = 0.5 * (1 + np.cos(np.pi * (-2.0 / alpha + 1 + 2.0 * n3 / alpha / (m - 1))))
        return np.r_[w1, np.ones(n2.shape), w3]
    if name == "gaussian":
        if not params:
            raise op_value_error("get_window", "the 'gaussian' window needs a std: ('gaussian', std)")
        k = n - (m - 1.0) / 2.0
        return np.exp(-k ** 2 / (2 * params[0] ** 2))
    if name == "general_gaussian":
        if len(params) < 2:
            raise op_value_error("get_window", "the 'general_gaussian' window needs (p, sig)")
        k = n - (m - 1.0) / 2.0
        return np.exp(-0.5 * np.abs(k / params[1]) ** (2 * params[0]))
    if name == "kaiser":
        if not params:
            raise op_value_error("get_window", "the 'kaiser' window needs a beta: ('kaiser', beta)")
        alpha = (m - 1) / 2.0
        return np.i0(params[0] * np.sqrt(1 - ((n - alpha) / alpha) ** 2.0)) / np.i0(params[0])
    if name == "exponential":
        center = params[0] if len(params) > 0 and params[0] is not None else (m - 1) / 2.0
        tau = params[1] if len(params) > 1 else 1.0
        return np.exp(-np.abs(n - center) / tau)
    raise op_value_error("get_window", f"unknown window type {name!r}")


def window_array(window: Any, nx: int, fftbins: bool = True) -> np.ndarray:
    """The window as a float64 numpy array (periodic when fftbins, as for spectral analysis)."""
    if isinstance(window, (int, float, np.floating)) and not isinstance(window, bool):
        window = ("kaiser", float(window))
    if isinstance(window, tuple):
        name, params = window[0], tuple(window[1:])
    elif isinstance(window, str):
        name, params = window, ()
    else:
        raise op_value_error("get_window", f"window must be a name, a (name, param...) tuple or a number, "
                                           f"got {type(window).__name__}")
    name = _ALIASES.get(str(name).lower(), str(name).lower())
    nx = int(nx)
    if nx < 0:
        raise op_value_error("get_window", f"the window length must be non-negative, got {nx}")
    if nx <= 1:
        return np.ones(nx)
    if name == "exponential" and fftbins and params and params[0] is not None:
        raise op_value_error("get_window", "a non-symmetric exponential window cannot have a center")
    m = nx + 1 if fftbins else nx
    w = _symmetric(name, m, *params)
    return w[:-1] if fftbins else w


def get_window(window: Any, Nx: int, fftbins: bool = True) -> Any:
    """A window of Nx points: a name ('hann', 'hamming', 'blackman', 'boxcar', 'triang', 'bartlett',
    'cosine', 'bohman', 'parzen', 'nuttall', 'blackmanharris', 'flattop'), a tuple with parameters
    (('tukey', alpha), ('gaussian', std), ('general_gaussian', p, sig), ('kaiser', beta),
    ('exponential', center, tau)) or a number (a Kaiser beta). Periodic when fftbins, else symmetric.

    Args:
        window: the window: a name, a (name, params...) tuple or a number, as above.
        Nx: the number of points.
        fftbins: periodic window (default True); False gives a symmetric one.

    Returns:
        A 1-D array of Nx points in the default float dtype.

    Examples:
        >>> from padax.scipy import signal
        >>> signal.get_window("hann", 4).tolist()  # periodic (fftbins=True), as scipy
        [0.0, 0.5, 1.0, 0.5]
    """
    return pnp.asarray(window_array(window, Nx, fftbins), dtype=D.default_float())


__all__ = ["get_window", "window_array"]
