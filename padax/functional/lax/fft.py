"""fft: XLA's discrete Fourier transform over the trailing dimensions of an array.

One primitive with a `fft_type` parameter, mirroring XLA's Fft op:

- "FFT":   complex -> complex, forward (unscaled), over the trailing len(fft_lengths) dims;
- "IFFT":  complex -> complex, inverse (scaled by 1/prod(fft_lengths));
- "RFFT":  real -> complex; the last dim n becomes n//2 + 1 (the non-redundant half of a
           real signal's Hermitian-symmetric spectrum);
- "IRFFT": complex -> real; the input's last dim must be n//2 + 1 for the output length
           n = fft_lengths[-1] (scaled by 1/prod(fft_lengths)).

`fft_lengths` holds 1 to 3 sizes, the shape of the transformed trailing dims of the
(real-space) signal. Everything Paddle-level (padding/cropping to `n`, arbitrary axes,
normalisation modes, more than three axes) lives in `padax.fft`.

All four transforms are linear maps (RFFT/IRFFT are R-linear between real and complex
spaces), so the jvp applies the primitive to the tangent. Transposes use padax's
convention for complex values, the same one `real`/`imag`/`complex` follow: the pairing
<a, b> = Re(sum(a * b)) without conjugation.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from padax.core.abstract import ShapedArray, get_aval
from padax.core.ad_util import Zero, deflinear
from padax.core.errors import op_type_error, op_value_error
from padax.core.primitive import Primitive
from padax.functional._arrays import asarray
from padax.functional.lax.elementwise import complex as lax_complex, conj, imag, mul, real
from padax.functional.lax.structural import broadcast_in_dim, moveaxis, pad

fft_p = Primitive("fft")

FFT_TYPES = ("FFT", "IFFT", "RFFT", "IRFFT")
_TO_COMPLEX = {np.dtype(np.float32): np.dtype(np.complex64), np.dtype(np.float64): np.dtype(np.complex128)}
_TO_REAL = {c: r for r, c in _TO_COMPLEX.items()}


@fft_p.def_abstract_eval
def _fft_abstract(x: ShapedArray, *, fft_type: str, fft_lengths: tuple[int, ...]) -> ShapedArray:
    op = "fft"
    where = f"{x.str_short()} with fft_type {fft_type} and fft_lengths {fft_lengths}"
    if fft_type not in FFT_TYPES:
        raise op_value_error(op, f"fft_type must be one of {', '.join(FFT_TYPES)}, got {fft_type!r}")
    d = len(fft_lengths)
    if not 1 <= d <= 3:
        raise op_value_error(op, f"fft_lengths must hold 1 to 3 sizes (XLA transforms at most 3 "
                                 f"trailing dims at once), got {where}")
    if any(n < 1 for n in fft_lengths):
        raise op_value_error(op, f"fft_lengths must be positive, got {where}")
    if x.ndim < d:
        raise op_type_error(op, f"the operand needs at least {d} dims, got {where}")
    lead, trailing = x.shape[:-d], tuple(x.shape[-d:])
    if fft_type == "RFFT":
        if x.dtype not in _TO_COMPLEX:
            raise op_type_error(op, f"RFFT needs a float32 or float64 operand, got {where}")
        if trailing != tuple(fft_lengths):
            raise op_type_error(op, f"the trailing dims {trailing} must equal fft_lengths ({where})")
        return ShapedArray(lead + trailing[:-1] + (fft_lengths[-1] // 2 + 1,), _TO_COMPLEX[x.dtype])
    if x.dtype not in _TO_REAL:
        raise op_type_error(op, f"{fft_type} needs a complex64 or complex128 operand, got {where}")
    if fft_type == "IRFFT":
        expect = tuple(fft_lengths[:-1]) + (fft_lengths[-1] // 2 + 1,)
        if trailing != expect:
            raise op_type_error(op, f"IRFFT needs trailing dims {expect} (the last one n//2 + 1 for "
                                    f"n = {fft_lengths[-1]}), got {where}")
        return ShapedArray(lead + tuple(fft_lengths), _TO_REAL[x.dtype])
    if trailing != tuple(fft_lengths):
        raise op_type_error(op, f"the trailing dims {trailing} must equal fft_lengths ({where})")
    return ShapedArray(x.shape, x.dtype)


def fft(x, fft_type: str, fft_lengths: Sequence[int]):
    """XLA's Fft op (lax level): transform the trailing len(fft_lengths) dims of `x`.

    No padding, type promotion or normalisation options here (see `padax.fft` for those).

    Args:
        x: complex for "FFT"/"IFFT"/"IRFFT", real for "RFFT".
        fft_type: "FFT", "IFFT", "RFFT" or "IRFFT" (case-insensitive).
        fft_lengths: the transform's lengths (for IRFFT, of the real output).

    Returns:
        A complex array (real for IRFFT); RFFT keeps n // 2 + 1 entries of the last dim.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> lax.fft(padax.to_tensor([1.0, 2.0, 3.0, 4.0]), 'RFFT', (4,)).tolist()
        [(10+0j), (-2+2j), (-2+0j)]
        >>> lax.fft(padax.to_tensor([10 + 0j, -2 + 2j, -2 + 0j]), 'IRFFT', (4,)).tolist()
        [1.0, 2.0, 3.0, 4.0]
    """
    x = asarray(x)
    if isinstance(fft_type, str):
        fft_type = fft_type.upper()
    lengths = (int(fft_lengths),) if np.ndim(fft_lengths) == 0 else tuple(int(n) for n in fft_lengths)
    return fft_p.bind(x, fft_type=fft_type, fft_lengths=lengths)


__all__ = ["fft"]


# ---- differentiation and batching ----------------------------------------------------------
#
# With F[k, j] = exp(-2 pi i k j / n) (symmetric, so F^T = F), per transformed dim:
#   FFT x = F x, IFFT x = conj(F) x / n: both symmetric matrices, each its own transpose.
#   RFFT x = (F x)[:m], m = n//2 + 1, for real x. For a complex cotangent c:
#     <c, RFFT x> = Re(sum_k c_k sum_j F_kj x_j) = sum_j x_j Re((F^T c_pad)_j),
#   so RFFT^T c = Re(FFT(c zero-padded to n)) (computed with an IRFFT in one dim, see below).
#   IRFFT z = (1/n) Re(sum_{k<m} w_k z_k exp(+2 pi i k j / n)) with w = 1 for the k = 0 term
#   (and k = n/2 when n is even: the terms with no mirror image) and 2 for the others,
#   since the input stands for the whole Hermitian spectrum. For a real cotangent g:
#     <g, IRFFT z> = Re(sum_k z_k (w_k / n) sum_j g_j exp(+2 pi i k j / n)),
#   so IRFFT^T g = (w / n) * conj(RFFT g).
# In several dims the same holds with n -> prod(fft_lengths) and the halving on the last dim.


def _half_weights(n: int, dtype) -> np.ndarray:
    """1 for the self-mirrored terms of a half spectrum (k = 0, and k = n/2 for even n), 2 else."""
    w = np.full(n // 2 + 1, 2.0, dtype=dtype)
    w[0] = 1.0
    if n % 2 == 0:
        w[-1] = 1.0
    return w


def _scale_last_dim(x, weights: np.ndarray):
    """x * weights along x's last dim (weights: a host vector, cast to x's dtype)."""
    a = get_aval(x)
    w = asarray(weights.astype(a.dtype), a.dtype)
    return mul(x, broadcast_in_dim(w, a.shape, (a.ndim - 1,)))


def _rfft_transpose_value(ct, fft_lengths):
    n, m = fft_lengths[-1], get_aval(ct).shape[-1]
    if len(fft_lengths) == 1:
        # Re(F^T c) = n * IRFFT(conj(c) / w): IRFFT's weights w cancel, leaving each stored bin
        # counted once. The imaginary parts of the self-mirrored bins (which IRFFT must ignore)
        # are zeroed, so the half spectrum is a valid one on every backend.
        real_dt = _TO_REAL[get_aval(ct).dtype]
        inv_w = (n / _half_weights(n, np.float64)).astype(real_dt)
        inv_w_im = np.where(_half_weights(n, np.float64) == 1.0, 0.0, -inv_w).astype(real_dt)
        z = lax_complex(_scale_last_dim(real(ct), inv_w), _scale_last_dim(imag(ct), inv_w_im))
        return fft_p.bind(z, fft_type="IRFFT", fft_lengths=fft_lengths)
    # several dims: the leading inverse transforms would break the Hermitian layout IRFFT
    # assumes, so transpose the plain formula instead: Re(FFT(c zero-padded to n))
    cfg = [(0, 0, 0)] * get_aval(ct).ndim
    cfg[-1] = (0, n - m, 0)
    padded = pad(ct, 0, cfg)
    return real(fft_p.bind(padded, fft_type="FFT", fft_lengths=fft_lengths))


def _irfft_transpose_value(ct, fft_lengths):
    n = fft_lengths[-1]
    spec = fft_p.bind(ct, fft_type="RFFT", fft_lengths=fft_lengths)
    real_dt = get_aval(ct).dtype
    w = _half_weights(n, real_dt) / np.asarray(int(np.prod(fft_lengths)), real_dt)
    return _scale_last_dim(conj(spec), w.astype(real_dt))


def _fft_transpose(ct, x, *, fft_type, fft_lengths):
    if type(ct) is Zero:
        return [None]
    if fft_type == "RFFT":
        return [_rfft_transpose_value(ct, fft_lengths)]
    if fft_type == "IRFFT":
        return [_irfft_transpose_value(ct, fft_lengths)]
    return [fft_p.bind(ct, fft_type=fft_type, fft_lengths=fft_lengths)]


def _fft_batch(args, dims, *, fft_type, fft_lengths):
    """The transform acts on trailing dims: a batch dim in front of them stays where it is;
    one among them moves to the front."""
    (x,), (d,) = args, dims
    ndim = get_aval(x).ndim
    if d >= ndim - len(fft_lengths):
        x, d = moveaxis(x, d, 0), 0
    return fft_p.bind(x, fft_type=fft_type, fft_lengths=fft_lengths), d


deflinear(fft_p, _fft_transpose)
fft_p.batch_rule = _fft_batch
