"""jax.numpy's window functions: bartlett, blackman, hamming, hanning and kaiser."""
from __future__ import annotations

from typing import Any

import numpy as np

import padax.numpy as pnp
from padax.numpy import _dtypes as D
from padax.numpy._ufunclike import i0
from padax.numpy._util import static_int, to_inexact


def _window(op: str, M: Any, fn) -> Any:
    m = static_int(op, M, "M")
    dt = D.default_float()
    if m < 1:
        return pnp.zeros((0,), dt)
    if m == 1:
        return pnp.ones((1,), dt)
    n = np.arange(1 - m, m, 2, dtype=np.float64)
    return pnp.asarray(fn(n, m).astype(dt))


def bartlett(M: int) -> Any:
    """The Bartlett (triangular) window of M points.

    Args:
        M: the number of points.

    Returns:
        A 1-D array of the default float dtype, peak 1 in the middle.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.bartlett(5).tolist()
        [0.0, 0.5, 1.0, 0.5, 0.0]
    """
    return _window("bartlett", M, lambda n, m: np.where(n <= 0, 1 + n / (m - 1), 1 - n / (m - 1)))


def blackman(M: int) -> Any:
    """The Blackman window of M points.

    Args:
        M: the number of points.

    Returns:
        A 1-D array of the default float dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> import numpy as np
        >>> np.round(pnp.blackman(3), 4).tolist()
        [-0.0, 1.0, -0.0]
    """
    return _window("blackman", M, lambda n, m: 0.42 + 0.5 * np.cos(np.pi * n / (m - 1))
                   + 0.08 * np.cos(2 * np.pi * n / (m - 1)))


def hamming(M: int) -> Any:
    """The Hamming window of M points.

    Args:
        M: the number of points.

    Returns:
        A 1-D array of the default float dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> import numpy as np
        >>> np.round(pnp.hamming(3), 4).tolist()
        [0.08, 1.0, 0.08]
    """
    return _window("hamming", M, lambda n, m: 0.54 + 0.46 * np.cos(np.pi * n / (m - 1)))


def hanning(M: int) -> Any:
    """The Hann window of M points.

    Args:
        M: the number of points.

    Returns:
        A 1-D array of the default float dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.hanning(5).tolist()
        [0.0, 0.5, 1.0, 0.5, 0.0]
    """
    return _window("hanning", M, lambda n, m: 0.5 + 0.5 * np.cos(np.pi * n / (m - 1)))


def kaiser(M: int, beta: Any) -> Any:
    """The Kaiser window of M points with shape parameter beta (differentiable in beta).

    Args:
        M: the number of points.
        beta: the shape parameter (0: rectangular; larger: narrower).

    Returns:
        A 1-D array of the default float dtype (or beta's floating dtype).

    Examples:
        >>> import padax.numpy as pnp
        >>> import numpy as np
        >>> np.round(pnp.kaiser(3, 2.0), 4).tolist()
        [0.4387, 1.0, 0.4387]
    """
    m = static_int("kaiser", M, "M")
    b = to_inexact(beta)
    if m < 1:
        return pnp.zeros((0,), b.dtype)
    if m == 1:
        return pnp.ones((1,), b.dtype)
    alpha = (m - 1) / 2.0
    r = pnp.asarray(((np.arange(m) - alpha) / alpha).astype(b.dtype))
    return i0(b * pnp.sqrt(pnp.clip(1 - r * r, 0, None))) / i0(b)


__all__ = ["bartlett", "blackman", "hamming", "hanning", "kaiser"]
