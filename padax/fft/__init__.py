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

from padax.fft._helpers import fftfreq, fftshift, ifftshift, rfftfreq
from padax.fft._transforms import (fft, fft2, fftn, hfft, hfft2, hfftn, ifft, ifft2, ifftn, ihfft, ihfft2, ihfftn,
                                   irfft, irfft2, irfftn, rfft, rfft2, rfftn)

__all__ = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2", "hfft2",
           "ihfft2", "fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn", "fftfreq", "rfftfreq",
           "fftshift", "ifftshift"]
