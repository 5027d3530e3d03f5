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
fft.__doc__ = """One-dimensional discrete Fourier transform along `axis` (`n` pads or crops).

    Examples:
        >>> import padax.numpy as pnp
        >>> y = pnp.fft.fft(pnp.array([1.0, 2.0, 3.0, 4.0]))
        >>> pnp.real(y).tolist(), pnp.imag(y).tolist()
        ([10.0, -2.0, -2.0, -2.0], [0.0, 2.0, 0.0, -2.0])
        >>> pnp.real(pnp.fft.fft(pnp.array([1.0, 2.0, 3.0, 4.0]), norm="ortho")).tolist()  # scaled by 1/sqrt(n)
        [5.0, -1.0, -1.0, -1.0]
        >>> pnp.real(pnp.fft.fft(pnp.array([1.0, 2.0, 3.0, 4.0]), n=2)).tolist()  # cropped to 2 samples
        [3.0, -1.0]
    """
ifft = _one("ifft")
ifft.__doc__ = """Inverse of `fft`.

    Examples:
        >>> import padax.numpy as pnp
        >>> y = pnp.fft.ifft(pnp.array([10.0, -2 + 2j, -2.0, -2 - 2j]))
        >>> pnp.real(y).tolist(), pnp.imag(y).tolist()
        ([1.0, 2.0, 3.0, 4.0], [0.0, 0.0, 0.0, 0.0])
    """
rfft = _one("rfft")
rfft.__doc__ = """Transform of a real signal: the n//2 + 1 non-negative frequency terms.

    Examples:
        >>> import padax.numpy as pnp
        >>> y = pnp.fft.rfft(pnp.array([1.0, 2.0, 3.0, 4.0]))
        >>> pnp.real(y).tolist(), pnp.imag(y).tolist()
        ([10.0, -2.0, -2.0], [0.0, 2.0, 0.0])
    """
irfft = _one("irfft")
irfft.__doc__ = """Inverse of `rfft` (real output of length n, default 2 * (m - 1)).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.fft.irfft(pnp.array([10.0, -2 + 2j, -2.0])).tolist()
        [1.0, 2.0, 3.0, 4.0]
    """
hfft = _one("hfft")
hfft.__doc__ = """Transform of a signal with Hermitian symmetry, given by its first half (real output).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.fft.hfft(pnp.array([1.0, 2j, 3.0])).tolist()
        [4.0, 2.0, 4.0, -6.0]
    """
ihfft = _one("ihfft")
ihfft.__doc__ = """Inverse of `hfft` for a real signal.

    Examples:
        >>> import padax.numpy as pnp
        >>> y = pnp.fft.ihfft(pnp.array([1.0, 2.0, 3.0, 4.0]))
        >>> pnp.real(y).tolist(), pnp.imag(y).tolist()
        ([2.5, -0.5, -0.5], [0.0, -0.5, 0.0])
    """
fftn = _many("fftn")
fftn.__doc__ = """N-dimensional transform over `axes` (all, or the last len(s)).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.real(pnp.fft.fftn(pnp.array([[1.0, 2.0], [3.0, 4.0]]))).tolist()
        [[10.0, -2.0], [-4.0, 0.0]]
    """
ifftn = _many("ifftn")
ifftn.__doc__ = """Inverse of `fftn`.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.real(pnp.fft.ifftn(pnp.array([[10.0, -2.0], [-4.0, 0.0]]))).tolist()
        [[1.0, 2.0], [3.0, 4.0]]
    """
rfftn = _many("rfftn")
rfftn.__doc__ = """N-dimensional transform of a real signal (last axis halved).

    Examples:
        >>> import padax.numpy as pnp
        >>> y = pnp.fft.rfftn(pnp.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))
        >>> y.shape, pnp.real(y).tolist(), pnp.imag(y).tolist()
        ((2, 2), [[21.0, -3.0], [-9.0, 0.0]], [[0.0, 1.7321], [0.0, 0.0]])
    """
irfftn = _many("irfftn")
irfftn.__doc__ = """Inverse of `rfftn`.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.fft.irfftn(pnp.array([[10.0, -2.0], [-4.0, 0.0]]), s=(2, 2)).tolist()
        [[1.0, 2.0], [3.0, 4.0]]
    """
hfftn = _many("hfftn")
hfftn.__doc__ = """N-dimensional `hfft` (as scipy.fft.hfftn; NumPy and jax.numpy have none).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.fft.hfftn(pnp.array([[1.0, 2.0], [3.0, 4.0]])).tolist()
        [[10.0, -2.0], [-4.0, 0.0]]
    """
ihfftn = _many("ihfftn")
ihfftn.__doc__ = """N-dimensional `ihfft` (as scipy.fft.ihfftn; NumPy and jax.numpy have none).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.real(pnp.fft.ihfftn(pnp.array([[1.0, 2.0], [3.0, 4.0]]))).tolist()
        [[2.5, -0.5], [-1.0, 0.0]]
    """
fft2 = _many("fft2", (-2, -1))
fft2.__doc__ = """Two-dimensional transform over the last two axes.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.real(pnp.fft.fft2(pnp.array([[1.0, 2.0], [3.0, 4.0]]))).tolist()
        [[10.0, -2.0], [-4.0, 0.0]]
    """
ifft2 = _many("ifft2", (-2, -1))
ifft2.__doc__ = """Inverse of `fft2`.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.real(pnp.fft.ifft2(pnp.array([[10.0, -2.0], [-4.0, 0.0]]))).tolist()
        [[1.0, 2.0], [3.0, 4.0]]
    """
rfft2 = _many("rfft2", (-2, -1))
rfft2.__doc__ = """Two-dimensional transform of a real signal.

    Examples:
        >>> import padax.numpy as pnp
        >>> y = pnp.fft.rfft2(pnp.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))
        >>> y.shape, pnp.real(y).tolist()
        ((2, 2), [[21.0, -3.0], [-9.0, 0.0]])
    """
irfft2 = _many("irfft2", (-2, -1))
irfft2.__doc__ = """Inverse of `rfft2`.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.fft.irfft2(pnp.array([[10.0, -2.0], [-4.0, 0.0]])).tolist()
        [[1.0, 2.0], [3.0, 4.0]]
    """


_ONE_ARGS = """    Args:
        x: the signal (integer and bool inputs compute in the default floating dtype).
        n: the number of samples transformed along `axis`: the input is cropped or zero-padded to it
            (default: the input's length; for the Hermitian inverses see the summary).
        axis: the axis transformed (default -1).
        norm: "backward" (default: only the inverse transform divides by n), "ortho" (both divide by
            sqrt(n)) or "forward" (only the forward transform divides by n).

"""
_MANY_ARGS = """    Args:
        x: the signal (integer and bool inputs compute in the default floating dtype).
        s: the number of samples along each transformed axis, cropped or zero-padded (default: the input's;
            2 * (m - 1) on the last axis of the real-output inverses irfft2/irfftn and of hfftn).
        axes: the axes transformed (default: the last len(s) axes, or all; the last two for the 2-D names).
        norm: "backward" (default), "ortho" or "forward", as for `fft`.

"""
for _f in (fft, ifft, rfft, irfft, hfft, ihfft):
    _f.__doc__ = _f.__doc__.replace("    Examples:", _ONE_ARGS + "    Examples:", 1)
for _f in (fftn, ifftn, rfftn, irfftn, hfftn, ihfftn, fft2, ifft2, rfft2, irfft2):
    _f.__doc__ = _f.__doc__.replace("    Examples:", _MANY_ARGS + "    Examples:", 1)
del _f

def fftfreq(n: builtins.int, /, *, d: builtins.float = 1.0, dtype: Any = None, device: Any = None) -> Any:
    """Sample frequencies of an n-point transform with spacing d (default floating dtype).

    Args:
        n: the transform length.
        d: the sample spacing (the frequencies are in cycles per unit of d).
        dtype: the result dtype (None: the default float).
        device: the device to put the result on.

    Returns:
        A 1-D array of length n: 0, 1, ..., then the negative frequencies, divided by n * d.

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

    Args:
        n: the transform length.
        d: the sample spacing (the frequencies are in cycles per unit of d).
        dtype: the result dtype (None: the default float).
        device: the device to put the result on.

    Returns:
        A 1-D array of length n // 2 + 1: 0, 1, ..., n // 2, divided by n * d.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.fft.rfftfreq(4).tolist()
        [0.0, 0.25, 0.5]
    """
    dt = D.default_float() if dtype is None else D.canonicalize(dtype)
    return put_on(_pf().rfftfreq(n, d, dtype=dt), device)


def fftshift(x: Any, /, *, axes: Any = None) -> Any:
    """Move the zero frequency to the centre (roll each axis by size // 2).

    Args:
        x: an array.
        axes: an int, a tuple of ints, or None (all axes).

    Returns:
        An array of x's shape and dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.fft.fftshift(pnp.fft.fftfreq(5)).tolist()
        [-0.4, -0.2, 0.0, 0.2, 0.4]
    """
    return _pf().fftshift(x, axes=axes)


def ifftshift(x: Any, /, *, axes: Any = None) -> Any:
    """Undo `fftshift`.

    Args:
        x: an array.
        axes: an int, a tuple of ints, or None (all axes).

    Returns:
        An array of x's shape and dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.fft.ifftshift(pnp.fft.fftshift(pnp.fft.fftfreq(5))).tolist()
        [0.0, 0.2, 0.4, -0.4, -0.2]
    """
    return _pf().ifftshift(x, axes=axes)


__all__ = ["fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft", "hfftn", "ihfftn",
           "fft2", "ifft2", "rfft2", "irfft2", "fftfreq", "rfftfreq", "fftshift", "ifftshift"]
