"""padax.fft's transforms on the `fft` primitive: resize each axis to n, move the axes to the end and
transform at most three per pass, then scale by `norm` (complex-to-complex, real-to-complex,
complex-to-real)."""
from __future__ import annotations

import math
from typing import Sequence

from padax import lax
from padax.core.errors import op_value_error
from padax.fft._checks import _MAX_AXES_PER_OP, _SWAPPED, _as_complex, _as_real, _axes_and_sizes, _check_norm
from padax.functional._arrays import asarray
from padax.functional.lax.fft import fft_p


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
