"""IIR filters: butter (design, on the host: the coefficients depend only on static
parameters), and lfilter / sosfilt (filtering, a lax.scan over time, differentiable in the
signal and the coefficients, batched over the other axes)."""
from __future__ import annotations

from typing import Any

import numpy as np

from padax import dtypes, lax, numpy as pnp
from padax.core.errors import op_value_error
from padax.numpy._util import to_array
from padax.scipy.special._base import inexact_args

_BTYPES = {"low": "lowpass", "lowpass": "lowpass", "l": "lowpass", "lp": "lowpass",
           "high": "highpass", "highpass": "highpass", "h": "highpass", "hp": "highpass",
           "band": "bandpass", "bandpass": "bandpass", "bp": "bandpass", "pass": "bandpass",
           "bandstop": "bandstop", "bs": "bandstop", "stop": "bandstop"}


def _prod(v):
    return np.prod(v) if len(v) else 1.0


def _buttap(n: int):
    m = np.arange(-n + 1, n, 2)
    return np.array([]), -np.exp(1j * np.pi * m / (2 * n)), 1.0


def _lp2lp(z, p, k, wo):
    return z * wo, p * wo, k * wo ** (len(p) - len(z))


def _lp2hp(z, p, k, wo):
    degree = len(p) - len(z)
    k = k * np.real(_prod(-z) / _prod(-p))
    return np.append(wo / z, np.zeros(degree)), wo / p, k


def _lp2bp(z, p, k, wo, bw):
    degree = len(p) - len(z)
    zl, pl = z * bw / 2, p * bw / 2
    zb = np.concatenate((zl + np.sqrt(zl ** 2 - wo ** 2), zl - np.sqrt(zl ** 2 - wo ** 2)))
    pb = np.concatenate((pl + np.sqrt(pl ** 2 - wo ** 2), pl - np.sqrt(pl ** 2 - wo ** 2)))
    return np.append(zb, np.zeros(degree)), pb, k * bw ** degree


def _lp2bs(z, p, k, wo, bw):
    degree = len(p) - len(z)
    zh, ph = (bw / 2) / z, (bw / 2) / p
    zb = np.concatenate((zh + np.sqrt(zh ** 2 - wo ** 2), zh - np.sqrt(zh ** 2 - wo ** 2)))
    pb = np.concatenate((ph + np.sqrt(ph ** 2 - wo ** 2), ph - np.sqrt(ph ** 2 - wo ** 2)))
    zb = np.append(zb, np.full(degree, 1j * wo))
    zb = np.append(zb, np.full(degree, -1j * wo))
    return zb, pb, k * np.real(_prod(-z) / _prod(-p))


def _bilinear(z, p, k, fs):
    degree = len(p) - len(z)
    fs2 = 2.0 * fs
    zz, pz = (fs2 + z) / (fs2 - z), (fs2 + p) / (fs2 - p)
    return np.append(zz, -np.ones(degree)), pz, k * np.real(_prod(fs2 - z) / _prod(fs2 - p))


def _poly(roots) -> np.ndarray:
    c = np.poly(roots) if len(roots) else np.array([1.0])
    return np.real(c) if np.allclose(np.imag(c), 0) else c


def _pairs(roots):
    """Roots (an even number) grouped in conjugate pairs and pairs of reals."""
    roots = np.asarray(roots, complex)
    cplx = roots[np.imag(roots) > 1e-12]
    real = np.sort(np.real(roots[np.abs(np.imag(roots)) <= 1e-12]))
    return [(r, np.conj(r)) for r in cplx] + [(real[i], real[i + 1]) for i in range(0, len(real), 2)]


def _zpk2sos(z, p, k) -> np.ndarray:
    """Second-order sections. z and p are padded with roots at the origin to one even length (which
    leaves the transfer function unchanged), pole pairs are taken from the unit circle outwards and
    each gets the nearest remaining zero pair; the sharpest section comes last, as in scipy."""
    n = 2 * ((max(len(z), len(p)) + 1) // 2)
    z = np.concatenate([np.asarray(z, complex), np.zeros(n - len(z))])
    p = np.concatenate([np.asarray(p, complex), np.zeros(n - len(p))])
    pole_pairs = sorted(_pairs(p), key=lambda pr: -np.abs(pr[0]))
    zero_pairs = _pairs(z)
    sections = []
    for pr in pole_pairs:
        j = int(np.argmin([abs(zr[0] - pr[0]) for zr in zero_pairs]))
        zr = zero_pairs.pop(j)
        sections.append(np.r_[np.real(np.poly(zr)), np.real(np.poly(pr))])
    sos = np.array(sections[::-1])
    sos[0, :3] *= k
    return sos


def butter(N: int, Wn: Any, btype: str = "low", analog: bool = False, output: str = "ba", fs: Any = None) -> Any:
    """Butterworth filter design: (b, a), (z, p, k) or second-order sections (numpy arrays),
    with Wn relative to the Nyquist frequency (or in the units of `fs`).

    Args:
        N: the filter order (a positive int).
        Wn: the critical frequency, or [low, high] for band filters; relative to Nyquist (0 < Wn < 1) unless fs is given
            (or rad/s if analog).
        btype: 'low' (default), 'high', 'band' or 'bandstop' (scipy's aliases also accepted).
        analog: design an analog filter instead of a digital one.
        output: 'ba' (default), 'zpk' or 'sos'.
        fs: the sampling frequency that Wn is measured in; None means Wn is relative to Nyquist.

    Returns:
        numpy arrays: (b, a), (z, p, k) or sos of shape (n_sections, 6).

    Examples:
        >>> import numpy as np
        >>> from padax.scipy import signal
        >>> b, a = signal.butter(2, 0.5)  # 2nd-order low-pass at half the Nyquist frequency
        >>> np.round(np.asarray(b), 4).tolist(), np.round(np.asarray(a), 4).tolist()  # as scipy
        ([0.2929, 0.5858, 0.2929], [1.0, 0.0, 0.1716])
    """
    if int(N) != N or N < 1:
        raise op_value_error("butter", f"the order N must be a positive integer, got {N!r}")
    kind = _BTYPES.get(btype)
    if kind is None:
        raise op_value_error("butter", f"unknown btype {btype!r}")
    if output not in ("ba", "zpk", "sos"):
        raise op_value_error("butter", f"output must be 'ba', 'zpk' or 'sos', got {output!r}")
    wn = np.atleast_1d(np.asarray(Wn, dtype=np.float64))
    if fs is not None:
        if analog:
            raise op_value_error("butter", "fs cannot be given for an analog filter")
        wn = 2 * wn / fs
    if kind in ("bandpass", "bandstop") and wn.size != 2:
        raise op_value_error("butter", f"a {kind} filter needs two critical frequencies, got {Wn!r}")
    if kind in ("lowpass", "highpass") and wn.size != 1:
        raise op_value_error("butter", f"a {kind} filter needs one critical frequency, got {Wn!r}")
    if not analog and (np.any(wn <= 0) or np.any(wn >= 1)):
        raise op_value_error("butter", f"digital critical frequencies must be in (0, 1) (relative to Nyquist), "
                                       f"got {Wn!r}")
    z, p, k = _buttap(int(N))
    if analog:
        warped = wn
    else:
        fs_ = 2.0
        warped = 2 * fs_ * np.tan(np.pi * wn / fs_)
    if kind == "lowpass":
        z, p, k = _lp2lp(z, p, k, warped[0])
    elif kind == "highpass":
        z, p, k = _lp2hp(z, p, k, warped[0])
    else:
        bw, wo = warped[1] - warped[0], np.sqrt(warped[0] * warped[1])
        z, p, k = (_lp2bp if kind == "bandpass" else _lp2bs)(z, p, k, wo, bw)
    if not analog:
        z, p, k = _bilinear(z, p, k, 2.0)
    if output == "zpk":
        return z, p, k
    if output == "ba":
        return k * _poly(z), _poly(p)
    return _zpk2sos(z, p, k)


def _time_last(x, axis):
    return pnp.moveaxis(x, axis, 0)


def lfilter(b: Any, a: Any, x: Any, axis: int = -1, zi: Any = None) -> Any:
    """y = filter(b, a, x) along `axis` (direct form II transposed); with `zi` (the initial
    state, shape (..., max(len(a), len(b)) - 1) with the filtered axis replaced), (y, zf).

    Args:
        b: the 1-D numerator coefficients.
        a: the 1-D denominator coefficients (a[0] != 0; everything is divided by it).
        x: the input signal (integers become float32).
        axis: the axis to filter along (default the last).
        zi: the initial filter state; None starts at rest.

    Returns:
        y, shaped like x; or the tuple (y, zf) when zi is given.

    Examples:
        >>> import padax
        >>> from padax.scipy import signal
        >>> x = padax.to_tensor([1.0, 0.0, 0.0, 0.0])
        >>> signal.lfilter(padax.to_tensor([1.0]), padax.to_tensor([1.0, -0.5]), x).tolist()  # y[n] = x[n] + y[n-1] / 2
        [1.0, 0.5, 0.25, 0.125]
    """
    b, a = to_array(b), to_array(a)
    if b.ndim != 1 or a.ndim != 1:
        raise op_value_error("lfilter", f"b and a must be 1-d, got shapes {b.shape} and {a.shape}")
    x, = inexact_args("lfilter", x)
    dt = pnp.result_type(x, b, a)
    if not (dtypes.is_floating(dt) or dtypes.is_complex(dt)):
        dt = x.dtype
    x, b, a = x.astype(dt), b.astype(dt), a.astype(dt)
    n = max(a.shape[0], b.shape[0])
    b = pnp.pad(b, (0, n - b.shape[0])) / a[0]
    a = pnp.pad(a, (0, n - a.shape[0])) / a[0]
    xt = _time_last(x, axis)                                     # [T, ...]
    batch = xt.shape[1:]
    state = pnp.zeros(batch + (n - 1,), dtype=dt) if zi is None else \
        pnp.moveaxis(pnp.broadcast_to(to_array(zi).astype(dt), _zi_shape(x, axis, n - 1)), axis, -1)

    def step(z, xn):
        y = b[0] * xn + (z[..., 0] if n > 1 else 0.0)
        if n > 1:
            nxt = b[1:] * xn[..., None] - a[1:] * y[..., None]
            shifted = pnp.concatenate([z[..., 1:], pnp.zeros(z.shape[:-1] + (1,), dtype=dt)], axis=-1)
            z = shifted + nxt
        return z, y

    zf, yt = lax.scan(step, state, xt)
    y = pnp.moveaxis(yt, 0, axis)
    if zi is None:
        return y
    return y, pnp.moveaxis(zf, -1, axis)


def _zi_shape(x, axis, order):
    shape = list(x.shape)
    shape[axis] = order
    return tuple(shape)


def sosfilt(sos: Any, x: Any, axis: int = -1, zi: Any = None) -> Any:
    """x filtered by the cascade of second-order sections `sos` (n_sections, 6) along `axis`;
    with `zi` (shape (n_sections, ..., 2, ...) as scipy's), (y, zf).

    Args:
        sos: the second-order sections, shape (n_sections, 6).
        x: the input signal (integers become float32).
        axis: the axis to filter along (default the last).
        zi: the initial state; None starts at rest.

    Returns:
        y, shaped like x; or the tuple (y, zf) when zi is given.

    Examples:
        >>> import padax
        >>> from padax.scipy import signal
        >>> sos = signal.butter(2, 0.5, output="sos")
        >>> signal.sosfilt(sos, padax.to_tensor([1.0, 0.0, 0.0, 0.0])).tolist()  # the impulse response, as scipy
        [0.2929, 0.5858, 0.2426, -0.1005]
    """
    sos = to_array(sos)
    if sos.ndim != 2 or sos.shape[1] != 6:
        raise op_value_error("sosfilt", f"sos must have shape (n_sections, 6), got {sos.shape}")
    x, = inexact_args("sosfilt", x)
    dt = pnp.result_type(x, sos)
    if not (dtypes.is_floating(dt) or dtypes.is_complex(dt)):
        dt = x.dtype
    x, sos = x.astype(dt), sos.astype(dt)
    sos = sos / sos[:, 3:4]
    n_sec = sos.shape[0]
    xt = _time_last(x, axis)
    batch = xt.shape[1:]
    z_axis = axis % x.ndim + 1  # the state's axis for x's `axis` (after the sections axis)
    if zi is None:
        state = pnp.zeros((n_sec,) + batch + (2,), dtype=dt)
    else:
        zi = to_array(zi).astype(dt)
        want = (n_sec,) + x.shape[:axis % x.ndim] + (2,) + x.shape[axis % x.ndim + 1:]
        if tuple(zi.shape) != want:
            raise op_value_error("sosfilt", f"zi must have shape {want} for x of shape {tuple(x.shape)}, axis={axis} "
                                            f"and {n_sec} sections; got {tuple(zi.shape)}")
        state = pnp.moveaxis(zi, z_axis, -1)

    def step(z, xn):
        out_states = []
        v = xn
        for s in range(n_sec):
            b0, b1, b2, _, a1, a2 = (sos[s, i] for i in range(6))
            zs = z[s]
            y = b0 * v + zs[..., 0]
            z0 = b1 * v - a1 * y + zs[..., 1]
            z1 = b2 * v - a2 * y
            out_states.append(pnp.stack([z0, z1], axis=-1))
            v = y
        return pnp.stack(out_states, axis=0), v

    zf, yt = lax.scan(step, state, xt)
    y = pnp.moveaxis(yt, 0, axis)
    if zi is None:
        return y
    return y, pnp.moveaxis(zf, -1, z_axis)


__all__ = ["butter", "lfilter", "sosfilt"]
