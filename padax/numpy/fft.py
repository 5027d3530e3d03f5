"""`padax.numpy.fft`: the Array API standard's `fft` extension (plus NumPy's 2-D variants).

Thin adapters over `padax.fft` (imported when first called) with the
standard's keyword-only signatures; integer and bool inputs compute in the
default floating dtype, and sample frequencies default to it too.
"""
from __future__ import annotations

import builtins
import importlib
from typing import Any, Sequence

from padax.numpy import _dtypes as D
from padax.numpy._util import put_on, to_inexact


def _pf():
    return importlib.import_module("padax.fft")


def _one(name: str):
    def fn(x: Any, /, *, n: builtins.int | None = None, axis: builtins.int = -1, norm: str = "backward") -> Any:
        return getattr(_pf(), name)(to_inexact(x), n=n, axis=axis, norm=norm)
    fn.__name__ = fn.__qualname__ = name
    return fn


def _many(name: str, default_axes: Any = None):
    def fn(x: Any, /, *, s: Sequence[builtins.int] | None = None, axes: Sequence[builtins.int] | None = default_axes,
           norm: str = "backward") -> Any:
        return getattr(_pf(), name)(to_inexact(x), s=s, axes=axes, norm=norm)
    fn.__name__ = fn.__qualname__ = name
    return fn


fft = _one("fft")
fft.__doc__ = "One-dimensional discrete Fourier transform along `axis` (`n` pads or crops)."
ifft = _one("ifft")
ifft.__doc__ = "Inverse of `fft`."
rfft = _one("rfft")
rfft.__doc__ = "Transform of a real signal: the n//2 + 1 non-negative frequency terms."
irfft = _one("irfft")
irfft.__doc__ = "Inverse of `rfft` (real output of length n, default 2 * (m - 1))."
hfft = _one("hfft")
hfft.__doc__ = "Transform of a signal with Hermitian symmetry, given by its first half (real output)."
ihfft = _one("ihfft")
ihfft.__doc__ = "Inverse of `hfft` for a real signal."
fftn = _many("fftn")
fftn.__doc__ = "N-dimensional transform over `axes` (all, or the last len(s))."
ifftn = _many("ifftn")
ifftn.__doc__ = "Inverse of `fftn`."
rfftn = _many("rfftn")
rfftn.__doc__ = "N-dimensional transform of a real signal (last axis halved)."
irfftn = _many("irfftn")
irfftn.__doc__ = "Inverse of `rfftn`."
hfftn = _many("hfftn")
hfftn.__doc__ = "N-dimensional `hfft`."
ihfftn = _many("ihfftn")
ihfftn.__doc__ = "N-dimensional `ihfft`."
fft2 = _many("fft2", (-2, -1))
fft2.__doc__ = "Two-dimensional transform over the last two axes."
ifft2 = _many("ifft2", (-2, -1))
ifft2.__doc__ = "Inverse of `fft2`."
rfft2 = _many("rfft2", (-2, -1))
rfft2.__doc__ = "Two-dimensional transform of a real signal."
irfft2 = _many("irfft2", (-2, -1))
irfft2.__doc__ = "Inverse of `rfft2`."


def fftfreq(n: builtins.int, /, *, d: builtins.float = 1.0, dtype: Any = None, device: Any = None) -> Any:
    """Sample frequencies of an n-point transform with spacing d (default floating dtype).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.fft.fftfreq(4).tolist()
        [0.0, 0.25, -0.5, -0.25]
        >>> pnp.fft.fftfreq(4, d=0.5).tolist()
        [0.0, 0.5, -1.0, -0.5]
    """
    dt = D.default_float() if dtype is None else D.canonicalize(dtype)
    return put_on(_pf().fftfreq(n, d, dtype=dt), device)


def rfftfreq(n: builtins.int, /, *, d: builtins.float = 1.0, dtype: Any = None, device: Any = None) -> Any:
    """Non-negative sample frequencies of an n-point real transform with spacing d.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.fft.rfftfreq(4).tolist()
        [0.0, 0.25, 0.5]
    """
    dt = D.default_float() if dtype is None else D.canonicalize(dtype)
    return put_on(_pf().rfftfreq(n, d, dtype=dt), device)


def fftshift(x: Any, /, *, axes: Any = None) -> Any:
    """Move the zero frequency to the centre (roll each axis by size // 2).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.fft.fftshift(pnp.fft.fftfreq(5)).tolist()
        [-0.4, -0.2, 0.0, 0.2, 0.4]
    """
    return _pf().fftshift(x, axes=axes)


def ifftshift(x: Any, /, *, axes: Any = None) -> Any:
    """Undo `fftshift`.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.fft.ifftshift(pnp.fft.fftshift(pnp.fft.fftfreq(5))).tolist()
        [0.0, 0.2, 0.4, -0.4, -0.2]
    """
    return _pf().ifftshift(x, axes=axes)


__all__ = ["fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft", "hfftn", "ihfftn",
           "fft2", "ifft2", "rfft2", "irfft2", "fftfreq", "rfftfreq", "fftshift", "ifftshift"]
