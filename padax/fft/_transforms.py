"""padax.fft's transforms in Paddle's signatures: fft/ifft, rfft/irfft, hfft/ihfft in one, two
(`...2`) and N (`...n`) dimensions."""
from __future__ import annotations

from typing import Any, Sequence

from padax.fft._passes import _fftn_c2c, _fftn_c2r, _fftn_r2c
from padax.functional._checks import write_out


def _one(n, axis):
    return (None if n is None else [n]), [axis]


def fft(x: Any, n: int | None = None, axis: int = -1, norm: str = "backward", name: str | None = None,
        *, out: Any = None):
    """Discrete Fourier transform along `axis`; `n` pads/crops the input first.

    Args:
        x: input array (real or integer inputs are promoted to complex64, float64 to complex128).
        n: length to zero-pad or crop the input to along `axis` before transforming; None keeps its length.
        axis: the axis to transform (default the last).
        norm: "backward" (default: no scaling forward, 1/N on the inverse), "ortho" (1/sqrt(N) both ways) or "forward"
            (1/N forward, none on the inverse).

    Returns:
        A complex array of the input's shape with `axis` resized to n.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([1.0, 2.0, 3.0, 4.0])
        >>> padax.fft.fft(x).tolist()
        [(10+0j), (-2+2j), (-2+0j), (-2-2j)]
    """
    if out is not None:
        return write_out(out, fft(x=x, n=n, axis=axis, norm=norm, name=name), "fft.fft")
    s, axes = _one(n, axis)
    return _fftn_c2c("fft", x, s, axes, norm, inverse=False)


def ifft(x: Any, n: int | None = None, axis: int = -1, norm: str = "backward", name: str | None = None,
         *, out: Any = None):
    """Inverse discrete Fourier transform along `axis` (ifft(fft(x)) == x with the same norm).

    Args:
        x: input array (real or integer inputs are promoted to complex64, float64 to complex128).
        n: length to zero-pad or crop the input to along `axis` before transforming; None keeps its length.
        axis: the axis to transform (default the last).
        norm: "backward" (default: no scaling forward, 1/N on the inverse), "ortho" (1/sqrt(N) both ways) or "forward"
            (1/N forward, none on the inverse).

    Returns:
        A complex array of the input's shape with `axis` resized to n.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([1.0, 2.0, 3.0, 4.0])
        >>> padax.fft.ifft(padax.fft.fft(x)).real().tolist()
        [1.0, 2.0, 3.0, 4.0]
    """
    if out is not None:
        return write_out(out, ifft(x=x, n=n, axis=axis, norm=norm, name=name), "fft.ifft")
    s, axes = _one(n, axis)
    return _fftn_c2c("ifft", x, s, axes, norm, inverse=True)


def rfft(x: Any, n: int | None = None, axis: int = -1, norm: str = "backward", name: str | None = None,
         *, out: Any = None):
    """Fourier transform of a real signal: only the n//2 + 1 non-negative frequencies, since the
    rest are their complex conjugates.

    Args:
        x: real input array (complex input is an error; integers and half floats compute in float32).
        n: length to zero-pad or crop the input to along `axis` before transforming; None keeps its length.
        axis: the axis to transform (default the last).
        norm: "backward" (default: no scaling forward, 1/N on the inverse), "ortho" (1/sqrt(N) both ways) or "forward"
            (1/N forward, none on the inverse).

    Returns:
        A complex array with `axis` of length n//2 + 1 (complex64, or complex128 for float64 input).

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([1.0, 2.0, 3.0, 4.0])
        >>> padax.fft.rfft(x).tolist()
        [(10+0j), (-2+2j), (-2+0j)]
    """
    if out is not None:
        return write_out(out, rfft(x=x, n=n, axis=axis, norm=norm, name=name), "fft.rfft")
    s, axes = _one(n, axis)
    return _fftn_r2c("rfft", x, s, axes, norm, onesided_inverse=False)


def irfft(x: Any, n: int | None = None, axis: int = -1, norm: str = "backward", name: str | None = None,
          *, out: Any = None):
    """Inverse of rfft: a real signal of length n (default 2 * (m - 1)) from m non-negative
    frequencies (the input is cropped/padded to n//2 + 1).

    Args:
        x: the non-negative-frequency half spectrum (promoted to complex as for fft).
        n: length of the real output along `axis`; None means 2 * (m - 1) for an input of m points (which is
            cropped/padded to n//2 + 1).
        axis: the axis to transform (default the last).
        norm: "backward" (default: no scaling forward, 1/N on the inverse), "ortho" (1/sqrt(N) both ways) or "forward"
            (1/N forward, none on the inverse).

    Returns:
        A real array with `axis` of length n.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([1.0, 2.0, 3.0, 4.0])
        >>> padax.fft.irfft(padax.fft.rfft(x)).tolist()
        [1.0, 2.0, 3.0, 4.0]
    """
    if out is not None:
        return write_out(out, irfft(x=x, n=n, axis=axis, norm=norm, name=name), "fft.irfft")
    s, axes = _one(n, axis)
    return _fftn_c2r("irfft", x, s, axes, norm, hermitian_forward=False)


def hfft(x: Any, n: int | None = None, axis: int = -1, norm: str = "backward", name: str | None = None,
         *, out: Any = None):
    """Fourier transform of a signal with Hermitian symmetry given by its first half: a real
    spectrum of length n (default 2 * (m - 1)).

    Args:
        x: half of a Hermitian signal (promoted to complex as for fft).
        n: length of the real output along `axis`; None means 2 * (m - 1) for an input of m points (which is
            cropped/padded to n//2 + 1).
        axis: the axis to transform (default the last).
        norm: "backward" (default: no scaling forward, 1/N on the inverse), "ortho" (1/sqrt(N) both ways) or "forward"
            (1/N forward, none on the inverse).

    Returns:
        A real array with `axis` of length n.

    Examples:
        >>> import padax
        >>> padax.fft.hfft(padax.to_tensor([1.0, 2.0, 3.0])).tolist()
        [8.0, -2.0, 0.0, -2.0]
    """
    if out is not None:
        return write_out(out, hfft(x=x, n=n, axis=axis, norm=norm, name=name), "fft.hfft")
    s, axes = _one(n, axis)
    return _fftn_c2r("hfft", x, s, axes, norm, hermitian_forward=True)


def ihfft(x: Any, n: int | None = None, axis: int = -1, norm: str = "backward", name: str | None = None,
          *, out: Any = None):
    """Inverse of hfft: the first n//2 + 1 points of the inverse transform of a real spectrum.

    Args:
        x: real input array (complex input is an error; integers and half floats compute in float32).
        n: length to zero-pad or crop the input to along `axis` before transforming; None keeps its length.
        axis: the axis to transform (default the last).
        norm: "backward" (default: no scaling forward, 1/N on the inverse), "ortho" (1/sqrt(N) both ways) or "forward"
            (1/N forward, none on the inverse).

    Returns:
        A complex array with `axis` of length n//2 + 1.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([1.0, 2.0, 3.0, 4.0])
        >>> padax.fft.ihfft(x).shape
        (3,)
        >>> padax.fft.hfft(padax.fft.ihfft(x), n=4).tolist()
        [1.0, 2.0, 3.0, 4.0]
    """
    if out is not None:
        return write_out(out, ihfft(x=x, n=n, axis=axis, norm=norm, name=name), "fft.ihfft")
    s, axes = _one(n, axis)
    return _fftn_r2c("ihfft", x, s, axes, norm, onesided_inverse=True)


def fft2(x: Any, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: str = "backward",
         name: str | None = None, *, out: Any = None):
    """2-D discrete Fourier transform over `axes`; `s` pads/crops those axes first.

    Args:
        x: input array (real or integer inputs are promoted to complex64, float64 to complex128).
        s: sizes to zero-pad or crop the transformed axes to first; None keeps them.
        axes: the two axes to transform (default the last two).
        norm: "backward" (default: no scaling forward, 1/N on the inverse), "ortho" (1/sqrt(N) both ways) or "forward"
            (1/N forward, none on the inverse).

    Returns:
        A complex array of the input's shape with `axes` resized to s.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> padax.fft.fft2(x).tolist()
        [[(10+0j), (-2+0j)], [(-4+0j), 0j]]
    """
    if out is not None:
        return write_out(out, fft2(x=x, s=s, axes=axes, norm=norm, name=name), "fft.fft2")
    return _fftn_c2c("fft2", x, s, axes, norm, inverse=False, ndim_required=2)


def ifft2(x: Any, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: str = "backward",
          name: str | None = None, *, out: Any = None):
    """2-D inverse discrete Fourier transform over `axes`.

    Args:
        x: input array (real or integer inputs are promoted to complex64, float64 to complex128).
        s: sizes to zero-pad or crop the transformed axes to first; None keeps them.
        axes: the two axes to transform (default the last two).
        norm: "backward" (default: no scaling forward, 1/N on the inverse), "ortho" (1/sqrt(N) both ways) or "forward"
            (1/N forward, none on the inverse).

    Returns:
        A complex array of the input's shape with `axes` resized to s.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> padax.fft.ifft2(padax.fft.fft2(x)).real().tolist()
        [[1.0, 2.0], [3.0, 4.0]]
    """
    if out is not None:
        return write_out(out, ifft2(x=x, s=s, axes=axes, norm=norm, name=name), "fft.ifft2")
    return _fftn_c2c("ifft2", x, s, axes, norm, inverse=True, ndim_required=2)


def rfft2(x: Any, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: str = "backward",
          name: str | None = None, *, out: Any = None):
    """2-D Fourier transform of a real signal; the last of `axes` keeps n//2 + 1 frequencies.

    Args:
        x: real input array (complex input is an error; integers and half floats compute in float32).
        s: sizes to zero-pad or crop the transformed axes to first; None keeps them.
        axes: the two axes to transform (default the last two).
        norm: "backward" (default: no scaling forward, 1/N on the inverse), "ortho" (1/sqrt(N) both ways) or "forward"
            (1/N forward, none on the inverse).

    Returns:
        A complex array; the last of `axes` has length s[-1]//2 + 1.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> padax.fft.rfft2(x).tolist()
        [[(10+0j), (-2+0j)], [(-4+0j), 0j]]
    """
    if out is not None:
        return write_out(out, rfft2(x=x, s=s, axes=axes, norm=norm, name=name), "fft.rfft2")
    return _fftn_r2c("rfft2", x, s, axes, norm, onesided_inverse=False, ndim_required=2)


def irfft2(x: Any, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: str = "backward",
           name: str | None = None, *, out: Any = None):
    """Inverse of rfft2: a real signal of shape `s` over `axes`.

    Args:
        x: a half spectrum (promoted to complex as for fft).
        s: output sizes along `axes`; None keeps the input's sizes, except the last axis, which becomes 2 * (m - 1).
        axes: the two axes to transform (default the last two).
        norm: "backward" (default: no scaling forward, 1/N on the inverse), "ortho" (1/sqrt(N) both ways) or "forward"
            (1/N forward, none on the inverse).

    Returns:
        A real array of shape s over `axes`.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> padax.fft.irfft2(padax.fft.rfft2(x), s=[2, 2]).tolist()
        [[1.0, 2.0], [3.0, 4.0]]
    """
    if out is not None:
        return write_out(out, irfft2(x=x, s=s, axes=axes, norm=norm, name=name), "fft.irfft2")
    return _fftn_c2r("irfft2", x, s, axes, norm, hermitian_forward=False, ndim_required=2)


def hfft2(x: Any, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: str = "backward",
          name: str | None = None, *, out: Any = None):
    """2-D transform of a half-stored Hermitian signal (a real result).

    Args:
        x: half of a Hermitian signal (promoted to complex as for fft).
        s: output sizes along `axes`; None keeps the input's sizes, except the last axis, which becomes 2 * (m - 1).
        axes: the two axes to transform (default the last two).
        norm: "backward" (default: no scaling forward, 1/N on the inverse), "ortho" (1/sqrt(N) both ways) or "forward"
            (1/N forward, none on the inverse).

    Returns:
        A real array of shape s over `axes`.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> padax.fft.hfft2(x).tolist()
        [[10.0, -2.0], [-4.0, 0.0]]
    """
    if out is not None:
        return write_out(out, hfft2(x=x, s=s, axes=axes, norm=norm, name=name), "fft.hfft2")
    return _fftn_c2r("hfft2", x, s, axes, norm, hermitian_forward=True, ndim_required=2)


def ihfft2(x: Any, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: str = "backward",
           name: str | None = None, *, out: Any = None):
    """Inverse of hfft2 on a real input: a half-stored Hermitian result.

    Args:
        x: real input array (complex input is an error; integers and half floats compute in float32).
        s: sizes to zero-pad or crop the transformed axes to first; None keeps them.
        axes: the two axes to transform (default the last two).
        norm: "backward" (default: no scaling forward, 1/N on the inverse), "ortho" (1/sqrt(N) both ways) or "forward"
            (1/N forward, none on the inverse).

    Returns:
        A complex array; the last of `axes` has length s[-1]//2 + 1.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> padax.fft.ihfft2(x).shape
        (2, 2)
        >>> padax.fft.hfft2(padax.fft.ihfft2(x), s=[2, 2]).tolist()
        [[1.0, 2.0], [3.0, 4.0]]
    """
    if out is not None:
        return write_out(out, ihfft2(x=x, s=s, axes=axes, norm=norm, name=name), "fft.ihfft2")
    return _fftn_r2c("ihfft2", x, s, axes, norm, onesided_inverse=True, ndim_required=2)


def fftn(x: Any, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm: str = "backward",
         name: str | None = None, *, out: Any = None):
    """N-D discrete Fourier transform over `axes` (all axes, or the last len(s), by default).

    Args:
        x: input array (real or integer inputs are promoted to complex64, float64 to complex128).
        s: sizes to zero-pad or crop the transformed axes to first; None keeps them.
        axes: the axes to transform; None means all axes, or the last len(s) when `s` is given.
        norm: "backward" (default: no scaling forward, 1/N on the inverse), "ortho" (1/sqrt(N) both ways) or "forward"
            (1/N forward, none on the inverse).

    Returns:
        A complex array of the input's shape with `axes` resized to s.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> padax.fft.fftn(x).tolist()
        [[(10+0j), (-2+0j)], [(-4+0j), 0j]]
    """
    if out is not None:
        return write_out(out, fftn(x=x, s=s, axes=axes, norm=norm, name=name), "fft.fftn")
    return _fftn_c2c("fftn", x, s, axes, norm, inverse=False)


def ifftn(x: Any, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm: str = "backward",
          name: str | None = None, *, out: Any = None):
    """N-D inverse discrete Fourier transform over `axes`.

    Args:
        x: input array (real or integer inputs are promoted to complex64, float64 to complex128).
        s: sizes to zero-pad or crop the transformed axes to first; None keeps them.
        axes: the axes to transform; None means all axes, or the last len(s) when `s` is given.
        norm: "backward" (default: no scaling forward, 1/N on the inverse), "ortho" (1/sqrt(N) both ways) or "forward"
            (1/N forward, none on the inverse).

    Returns:
        A complex array of the input's shape with `axes` resized to s.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> padax.fft.ifftn(padax.fft.fftn(x)).real().tolist()
        [[1.0, 2.0], [3.0, 4.0]]
    """
    if out is not None:
        return write_out(out, ifftn(x=x, s=s, axes=axes, norm=norm, name=name), "fft.ifftn")
    return _fftn_c2c("ifftn", x, s, axes, norm, inverse=True)


def rfftn(x: Any, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm: str = "backward",
          name: str | None = None, *, out: Any = None):
    """N-D Fourier transform of a real signal; the last of `axes` keeps n//2 + 1 frequencies.

    Args:
        x: real input array (complex input is an error; integers and half floats compute in float32).
        s: sizes to zero-pad or crop the transformed axes to first; None keeps them.
        axes: the axes to transform; None means all axes, or the last len(s) when `s` is given.
        norm: "backward" (default: no scaling forward, 1/N on the inverse), "ortho" (1/sqrt(N) both ways) or "forward"
            (1/N forward, none on the inverse).

    Returns:
        A complex array; the last of `axes` has length s[-1]//2 + 1.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> padax.fft.rfftn(x).tolist()
        [[(10+0j), (-2+0j)], [(-4+0j), 0j]]
    """
    if out is not None:
        return write_out(out, rfftn(x=x, s=s, axes=axes, norm=norm, name=name), "fft.rfftn")
    return _fftn_r2c("rfftn", x, s, axes, norm, onesided_inverse=False)


def irfftn(x: Any, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm: str = "backward",
           name: str | None = None, *, out: Any = None):
    """Inverse of rfftn: a real signal of shape `s` (the last entry defaults to 2 * (m - 1)).

    Args:
        x: a half spectrum (promoted to complex as for fft).
        s: output sizes along `axes`; None keeps the input's sizes, except the last axis, which becomes 2 * (m - 1).
        axes: the axes to transform; None means all axes, or the last len(s) when `s` is given.
        norm: "backward" (default: no scaling forward, 1/N on the inverse), "ortho" (1/sqrt(N) both ways) or "forward"
            (1/N forward, none on the inverse).

    Returns:
        A real array of shape s over `axes`.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> padax.fft.irfftn(padax.fft.rfftn(x), s=[2, 2]).tolist()
        [[1.0, 2.0], [3.0, 4.0]]
    """
    if out is not None:
        return write_out(out, irfftn(x=x, s=s, axes=axes, norm=norm, name=name), "fft.irfftn")
    return _fftn_c2r("irfftn", x, s, axes, norm, hermitian_forward=False)


def hfftn(x: Any, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm: str = "backward",
          name: str | None = None, *, out: Any = None):
    """N-D transform of a half-stored Hermitian signal (a real result).

    Args:
        x: half of a Hermitian signal (promoted to complex as for fft).
        s: output sizes along `axes`; None keeps the input's sizes, except the last axis, which becomes 2 * (m - 1).
        axes: the axes to transform; None means all axes, or the last len(s) when `s` is given.
        norm: "backward" (default: no scaling forward, 1/N on the inverse), "ortho" (1/sqrt(N) both ways) or "forward"
            (1/N forward, none on the inverse).

    Returns:
        A real array of shape s over `axes`.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> padax.fft.hfftn(x).tolist()
        [[10.0, -2.0], [-4.0, 0.0]]
    """
    if out is not None:
        return write_out(out, hfftn(x=x, s=s, axes=axes, norm=norm, name=name), "fft.hfftn")
    return _fftn_c2r("hfftn", x, s, axes, norm, hermitian_forward=True)


def ihfftn(x: Any, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm: str = "backward",
           name: str | None = None, *, out: Any = None):
    """Inverse of hfftn on a real input: a half-stored Hermitian result.

    Args:
        x: real input array (complex input is an error; integers and half floats compute in float32).
        s: sizes to zero-pad or crop the transformed axes to first; None keeps them.
        axes: the axes to transform; None means all axes, or the last len(s) when `s` is given.
        norm: "backward" (default: no scaling forward, 1/N on the inverse), "ortho" (1/sqrt(N) both ways) or "forward"
            (1/N forward, none on the inverse).

    Returns:
        A complex array; the last of `axes` has length s[-1]//2 + 1.

    Examples:
        >>> import padax
        >>> x = padax.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> padax.fft.ihfftn(x).shape
        (2, 2)
        >>> padax.fft.hfftn(padax.fft.ihfftn(x), s=[2, 2]).tolist()
        [[1.0, 2.0], [3.0, 4.0]]
    """
    if out is not None:
        return write_out(out, ihfftn(x=x, s=s, axes=axes, norm=norm, name=name), "fft.ihfftn")
    return _fftn_r2c("ihfftn", x, s, axes, norm, onesided_inverse=True)
