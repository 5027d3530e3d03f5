"""`padax.fft`: Paddle's discrete Fourier transforms (paddle.fft.*), on one `fft` primitive.

Every transform here is the lax-level `fft` (XLA's Fft op over trailing dims) plus the
bookkeeping Paddle's signatures ask for:

- `n` / `s` zero-pad or crop the input along each transformed axis first (for the
  complex-to-real transforms, the half spectrum is resized to n//2 + 1);
- `axis` / `axes` may name any axes: they are moved to the end, transformed, moved back;
  more than three axes are done in several passes (the transform is separable);
- `norm` picks where the 1/N goes: "backward" (default: none forward, 1/N on the inverse),
  "ortho" (1/sqrt(N) both ways) or "forward" (1/N forward, none on the inverse);
- complex-to-complex transforms accept real and integer inputs (promoted to complex64,
  or complex128 for float64); real-input transforms (rfft*, ihfft*) reject complex input;
  bool, integer, float16 and bfloat16 inputs compute in float32/complex64.

hfft/ihfft treat the signal, not the spectrum, as Hermitian: hfft is a forward
transform of a half-stored Hermitian signal (real result), ihfft its inverse.
"""
from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from padax import lax
from padax.core import dtypes
from padax.core.errors import op_type_error, op_value_error
from padax.core.trace import Tracer
from padax.functional._arrays import asarray, is_array
from padax.functional._checks import no_out, placed
from padax.functional.lax.fft import fft_p

__all__ = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2", "hfft2",
           "ihfft2", "fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn", "fftfreq", "rfftfreq",
           "fftshift", "ifftshift"]

_NORMS = ("backward", "ortho", "forward")
_SWAPPED = {"backward": "forward", "ortho": "ortho", "forward": "backward"}
_MAX_AXES_PER_OP = 3  # XLA's Fft transforms at most three trailing dims


# ---- argument checks ---------------------------------------------------------------------------

def _check_norm(op: str, norm: Any) -> str:
    if norm is None:
        return "backward"
    if norm not in _NORMS:
        raise op_value_error(op, f"unexpected norm {norm!r}; it must be one of 'backward', 'ortho', 'forward'")
    return norm


def _static_int(op: str, v: Any, what: str) -> int:
    if isinstance(v, Tracer):
        raise op_type_error(op, f"{what} must be known while tracing, got a traced array {v.aval.str_short()}; "
                                "pass a Python int (static_argnums for jit arguments)")
    if isinstance(v, bool) or not (isinstance(v, (int, np.integer)) or (is_array(v) and v.ndim == 0)):
        raise op_type_error(op, f"{what} must be an integer, got {type(v).__name__}: {v!r}")
    return int(v)


def _length(op: str, v: Any, what: str) -> int:
    n = _static_int(op, v, what)
    if n < 1:
        raise op_value_error(op, f"{what} must be positive (the number of points to transform), got {n}")
    return n


def _int_seq(op: str, v: Any, what: str) -> list:
    if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
        return [v]
    if isinstance(v, Tracer):
        _static_int(op, v, what)
    if is_array(v):
        return [int(a) for a in np.asarray(v).reshape(-1)]
    if not isinstance(v, (list, tuple)):
        raise op_type_error(op, f"{what} must be a sequence of ints, got {type(v).__name__}: {v!r}")
    return list(v)


def _axis(op: str, a: Any, ndim: int) -> int:
    a = _static_int(op, a, "axis")
    if not -ndim <= a < ndim:
        raise op_value_error(op, f"axis {a} is out of range for an input of rank {ndim}")
    return a % ndim


def _axes_and_sizes(op: str, x, s: Any, axes: Any, ndim_required: int | None = None):
    """Canonical (axes, requested sizes or None per axis), NumPy/Paddle rules: with `s` but no
    `axes`, the last len(s) axes; with neither, all axes."""
    ndim = x.aval.ndim
    if s is not None:
        s = [_length(op, d, "each entry of s") for d in _int_seq(op, s, "s")]
    if axes is None:
        axes = list(range(ndim - len(s), ndim)) if s is not None else list(range(ndim))
        if s is not None and len(s) > ndim:
            raise op_value_error(op, f"s {tuple(s)} has more entries than the input has axes "
                                     f"({x.aval.str_short()})")
    else:
        axes = [_axis(op, a, ndim) for a in _int_seq(op, axes, "axes")]
    if len(set(axes)) != len(axes):
        raise op_value_error(op, f"axes {tuple(axes)} repeat an axis")
    if ndim_required is not None:
        if len(axes) != ndim_required:
            raise op_value_error(op, f"needs exactly {ndim_required} axes, got axes {tuple(axes)}")
        if s is not None and len(s) != ndim_required:
            raise op_value_error(op, f"s needs exactly {ndim_required} entries, got {tuple(s)}")
    if s is not None and len(s) != len(axes):
        raise op_value_error(op, f"s {tuple(s)} and axes {tuple(axes)} must have the same length")
    if not axes:
        raise op_value_error(op, f"needs at least one axis to transform, got an input {x.aval.str_short()}")
    return axes, (s if s is not None else [None] * len(axes))


def _as_complex(x):
    """Input of a complex-to-complex or complex-to-real transform as complex64/complex128."""
    dt = x.aval.dtype
    if dtypes.is_complex(dt):
        return x
    target = dtypes.complex128 if dt == dtypes.float64 else dtypes.complex64
    return lax.convert_element_type(x, dtypes.canonicalize(target))


def _as_real(op: str, x):
    """Input of a real-to-complex transform as float32/float64; complex input is an error."""
    dt = x.aval.dtype
    if dtypes.is_complex(dt):
        raise op_type_error(op, f"expects a real input, got {x.aval.str_short()} (use fft/fftn for complex input)")
    if dt in (dtypes.float32, dtypes.float64):
        return x
    return lax.convert_element_type(x, dtypes.float32)


# ---- the transforms ----------------------------------------------------------------------------

def _resize(x, axis: int, n: int):
    """Zero-pad or crop `x` to length n along `axis` (at the end, as NumPy and Paddle do)."""
    size = x.aval.shape[axis]
    if size == n:
        return x
    cfg = [(0, 0, 0)] * x.aval.ndim
    cfg[axis] = (0, n - size, 0)
    return lax.pad(x, 0, cfg)


def _on_trailing(x, fft_type: str, axes: Sequence[int], lengths: Sequence[int]):
    """One fft primitive over `axes` (at most three), moved to the end in the given order and back."""
    nd = x.aval.ndim
    rest = [i for i in range(nd) if i not in axes]
    perm = rest + list(axes)
    y = lax.transpose(x, perm)
    y = fft_p.bind(y, fft_type=fft_type, fft_lengths=tuple(int(n) for n in lengths))
    return lax.transpose(y, [perm.index(i) for i in range(nd)])


def _c2c(x, axes: Sequence[int], inverse: bool):
    kind = "IFFT" if inverse else "FFT"
    axes = list(axes)
    while axes:
        chunk, axes = axes[-_MAX_AXES_PER_OP:], axes[:-_MAX_AXES_PER_OP]
        x = _on_trailing(x, kind, chunk, [x.aval.shape[a] for a in chunk])
    return x


def _r2c(x, axes: Sequence[int]):
    """Real-to-complex over `axes`; the last listed axis keeps its first n//2 + 1 frequencies."""
    tail, head = list(axes[-_MAX_AXES_PER_OP:]), list(axes[:-_MAX_AXES_PER_OP])
    x = _on_trailing(x, "RFFT", tail, [x.aval.shape[a] for a in tail])
    return _c2c(x, head, inverse=False)


def _c2r(x, axes: Sequence[int], n_last: int):
    """Complex-to-real (inverse) over `axes`, whose last listed axis holds a half spectrum for
    n_last output points."""
    tail, head = list(axes[-_MAX_AXES_PER_OP:]), list(axes[:-_MAX_AXES_PER_OP])
    x = _c2c(x, head, inverse=True)
    lengths = [x.aval.shape[a] for a in tail[:-1]] + [n_last]
    return _on_trailing(x, "IRFFT", tail, lengths)


def _scale(x, norm: str, n_total: int, inverse: bool):
    """Apply the normalisation; XLA's inverse transforms already divide by n_total."""
    if inverse:
        factor = {"backward": 1.0, "ortho": math.sqrt(n_total), "forward": float(n_total)}[norm]
    else:
        factor = {"backward": 1.0, "ortho": 1.0 / math.sqrt(n_total), "forward": 1.0 / n_total}[norm]
    if factor == 1.0:
        return x
    c = asarray(factor, x.aval.dtype)
    return lax.mul(x, lax.broadcast_in_dim(c, x.aval.shape, ()))


def _fftn_c2c(op: str, x, s, axes, norm, inverse: bool, ndim_required=None):
    x = asarray(x)
    norm = _check_norm(op, norm)
    axes, sizes = _axes_and_sizes(op, x, s, axes, ndim_required)
    x = _as_complex(x)
    for a, n in zip(axes, sizes):
        if n is not None:
            x = _resize(x, a, n)
    out = _c2c(x, axes, inverse)
    return _scale(out, norm, math.prod(x.aval.shape[a] for a in axes), inverse)


def _fftn_r2c(op: str, x, s, axes, norm, onesided_inverse: bool, ndim_required=None):
    """rfftn (forward), or with onesided_inverse ihfftn: conj of the r2c transform, scaled as an
    inverse."""
    x = asarray(x)
    norm = _check_norm(op, norm)
    axes, sizes = _axes_and_sizes(op, x, s, axes, ndim_required)
    x = _as_real(op, x)
    for a, n in zip(axes, sizes):
        if n is not None:
            x = _resize(x, a, n)
    n_total = math.prod(x.aval.shape[a] for a in axes)
    out = _r2c(x, axes)
    if onesided_inverse:
        return lax.conj(_scale(out, _SWAPPED[norm], n_total, inverse=False))
    return _scale(out, norm, n_total, inverse=False)


def _fftn_c2r(op: str, x, s, axes, norm, hermitian_forward: bool, ndim_required=None):
    """irfftn, or with hermitian_forward hfftn: the c2r transform of conj(x), scaled as a forward
    transform."""
    x = asarray(x)
    norm = _check_norm(op, norm)
    axes, sizes = _axes_and_sizes(op, x, s, axes, ndim_required)
    x = _as_complex(x)
    last = axes[-1]
    if sizes[-1] is None:
        n_last = 2 * (x.aval.shape[last] - 1)
        if n_last < 1:
            raise op_value_error(op, f"cannot infer the output length from a half spectrum of "
                                     f"{x.aval.shape[last]} point(s) along axis {last}; pass n (or s)")
    else:
        n_last = sizes[-1]
    for a, n in zip(axes[:-1], sizes[:-1]):
        if n is not None:
            x = _resize(x, a, n)
    x = _resize(x, last, n_last // 2 + 1)
    if hermitian_forward:
        x = lax.conj(x)
    n_total = math.prod(x.aval.shape[a] for a in axes[:-1]) * n_last
    out = _c2r(x, axes, n_last)
    return _scale(out, _SWAPPED[norm] if hermitian_forward else norm, n_total, inverse=True)


# ---- one dimension -----------------------------------------------------------------------------

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
    no_out("fft.fft", out)
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
    no_out("fft.ifft", out)
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
    no_out("fft.rfft", out)
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
    no_out("fft.irfft", out)
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
    no_out("fft.hfft", out)
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
    no_out("fft.ihfft", out)
    s, axes = _one(n, axis)
    return _fftn_r2c("ihfft", x, s, axes, norm, onesided_inverse=True)


# ---- two dimensions ----------------------------------------------------------------------------

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
    no_out("fft.fft2", out)
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
    no_out("fft.ifft2", out)
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
    no_out("fft.rfft2", out)
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
    no_out("fft.irfft2", out)
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
    no_out("fft.hfft2", out)
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
    no_out("fft.ihfft2", out)
    return _fftn_r2c("ihfft2", x, s, axes, norm, onesided_inverse=True, ndim_required=2)


# ---- N dimensions ------------------------------------------------------------------------------

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
    no_out("fft.fftn", out)
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
    no_out("fft.ifftn", out)
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
    no_out("fft.rfftn", out)
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
    no_out("fft.irfftn", out)
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
    no_out("fft.hfftn", out)
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
    no_out("fft.ihfftn", out)
    return _fftn_r2c("ihfftn", x, s, axes, norm, onesided_inverse=True)


# ---- helpers: sample frequencies and shifts ----------------------------------------------------

def _freq_dtype(op: str, dtype: Any):
    dt = dtypes.default_float_dtype() if dtype is None else dtypes.canonicalize(dtypes.to_dtype(dtype))
    if not dtypes.is_inexact(dt):
        raise op_type_error(op, f"dtype must be a floating or complex type, got {dt.name}")
    return dt


def _spacing(op: str, d: Any) -> float:
    if isinstance(d, Tracer):
        raise op_type_error(op, f"d must be known while tracing, got a traced array {d.aval.str_short()}")
    d = float(d)
    if d == 0:
        raise op_value_error(op, "d (the sample spacing) must be non-zero")
    return d


def fftfreq(n: int, d: float = 1.0, dtype: Any = None, name: str | None = None, *, out: Any = None,
            device: Any = None, requires_grad: bool = False):
    """Sample frequencies of an n-point fft with sample spacing d, in cycles per unit of d:
    [0, 1, ..., (n-1)//2, -(n//2), ..., -1] / (d * n). float32 unless `dtype` says otherwise.

    Args:
        n: number of points of the transform (a positive Python int).
        d: sample spacing (non-zero); frequencies come out in cycles per unit of d.
        dtype: floating or complex output dtype; None means the default float dtype (float32).
        device: where to place the result; None keeps the default device.
        requires_grad: accepted for Paddle compatibility and ignored (gradients come from padax.grad).

    Returns:
        A 1-D array of n frequencies.

    Examples:
        >>> import padax
        >>> padax.fft.fftfreq(4).tolist()
        [0.0, 0.25, -0.5, -0.25]
        >>> padax.fft.fftfreq(5, d=0.5).tolist()
        [0.0, 0.4, 0.8, -0.8, -0.4]
    """
    no_out("fft.fftfreq", out)
    if device is not None:
        return placed(fftfreq(n, d, dtype), device)
    n = _length("fftfreq", n, "n")
    dt = _freq_dtype("fftfreq", dtype)
    k = np.concatenate([np.arange(0, (n - 1) // 2 + 1), np.arange(-(n // 2), 0)])
    return asarray(k / (_spacing("fftfreq", d) * n), dt)


def rfftfreq(n: int, d: float = 1.0, dtype: Any = None, name: str | None = None, *, out: Any = None,
             device: Any = None, requires_grad: bool = False):
    """Sample frequencies of an n-point rfft: [0, 1, ..., n//2] / (d * n).

    Args:
        n: number of points of the transform (a positive Python int).
        d: sample spacing (non-zero); frequencies come out in cycles per unit of d.
        dtype: floating or complex output dtype; None means the default float dtype (float32).
        device: where to place the result; None keeps the default device.
        requires_grad: accepted for Paddle compatibility and ignored (gradients come from padax.grad).

    Returns:
        A 1-D array of n//2 + 1 frequencies.

    Examples:
        >>> import padax
        >>> padax.fft.rfftfreq(4).tolist()
        [0.0, 0.25, 0.5]
    """
    no_out("fft.rfftfreq", out)
    if device is not None:
        return placed(rfftfreq(n, d, dtype), device)
    n = _length("rfftfreq", n, "n")
    dt = _freq_dtype("rfftfreq", dtype)
    return asarray(np.arange(0, n // 2 + 1) / (_spacing("rfftfreq", d) * n), dt)


def _roll(x, shift: int, axis: int):
    size = x.aval.shape[axis]
    if size == 0:
        return x
    k = shift % size
    if k == 0:
        return x
    return lax.concatenate([lax.slice_in_dim(x, size - k, size, axis=axis),
                            lax.slice_in_dim(x, 0, size - k, axis=axis)], axis)


def _shift(op: str, x, axes, sign: int):
    x = asarray(x)
    ndim = x.aval.ndim
    axes = list(range(ndim)) if axes is None else [_axis(op, a, ndim) for a in _int_seq(op, axes, "axes")]
    for a in axes:
        n = x.aval.shape[a]
        x = _roll(x, sign * (n // 2), a)
    return x


def fftshift(x: Any, axes: int | Sequence[int] | None = None, name: str | None = None):
    """Move the zero frequency to the centre: roll each of `axes` (default all) by size//2.

    Args:
        x: input array.
        axes: axis or axes to roll; None means all axes.

    Returns:
        An array of the same shape and dtype as `x`.

    Examples:
        >>> import padax
        >>> padax.fft.fftshift(padax.fft.fftfreq(5)).tolist()
        [-0.4, -0.2, 0.0, 0.2, 0.4]
    """
    return _shift("fftshift", x, axes, 1)


def ifftshift(x: Any, axes: int | Sequence[int] | None = None, name: str | None = None):
    """Undo fftshift: roll each of `axes` (default all) by -(size//2).

    Args:
        x: input array.
        axes: axis or axes to roll; None means all axes.

    Returns:
        An array of the same shape and dtype as `x`.

    Examples:
        >>> import padax
        >>> f = padax.fft.fftshift(padax.fft.fftfreq(5))
        >>> padax.fft.ifftshift(f).tolist()
        [0.0, 0.2, 0.4, -0.4, -0.2]
    """
    return _shift("ifftshift", x, axes, -1)
