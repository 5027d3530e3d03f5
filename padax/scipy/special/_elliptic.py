"""Complete elliptic integrals ellipk(m) and ellipe(m) (parameter m = k**2, m <= 1) through
Carlson's symmetric integrals: K(m) = R_F(0, 1-m, 1), E(m) = R_F(0, 1-m, 1) - m/3 R_D(0, 1-m, 1),
each by the duplication theorem (a vectorised while loop) and its fifth-order Taylor tail."""
from __future__ import annotations

from typing import Any

import numpy as np

from padax import custom_jvp, dtypes, lax, numpy as pnp
from padax.scipy.special._base import any_true, elementwise, full_like, inexact_args, while_loop

_TOL = {np.dtype(np.float64): 0.0015, np.dtype(np.float32): 0.02}   # ~ (eps / 3) ** (1/6) of Carlson


def _carlson(x, y, z):
    """(R_F(x, y, z), R_D(x, y, z)) for x, y, z >= 0 (at most one zero; z > 0 for R_D)."""
    tol = _TOL[np.dtype(x.aval.dtype)]

    def cond(c):
        return (c[0] < 100) & any_true(c[-1])

    def body(c):
        i, x, y, z, total, fac, busy = c
        sx, sy, sz = pnp.sqrt(x), pnp.sqrt(y), pnp.sqrt(z)
        lam = sx * (sy + sz) + sy * sz
        total = pnp.where(busy, total + fac / (sz * (z + lam)), total)
        nx, ny, nz = 0.25 * (x + lam), 0.25 * (y + lam), 0.25 * (z + lam)
        x, y, z = pnp.where(busy, nx, x), pnp.where(busy, ny, y), pnp.where(busy, nz, z)
        fac = pnp.where(busy, 0.25 * fac, fac)
        mean = 0.2 * (x + y + 3.0 * z)
        dev = pnp.maximum(pnp.maximum(pnp.abs(mean - x), pnp.abs(mean - y)), pnp.abs(mean - z)) / mean
        return i + 1, x, y, z, total, fac, busy & (dev > tol)

    init = (lax.convert_element_type(np.int32(0), dtypes.int32), x, y, z, full_like(x, 0.0), full_like(x, 1.0),
            full_like(x, 1.0) > 0)
    _, x, y, z, total, fac, _ = while_loop(cond, body, init)
    # R_F tail
    a = (x + y + z) / 3.0
    dx, dy = 1.0 - x / a, 1.0 - y / a
    dz = -(dx + dy)
    e2 = dx * dy - dz * dz
    e3 = dx * dy * dz
    rf = (1.0 + (e2 / 24.0 - 0.1 - 3.0 / 44.0 * e3) * e2 + e3 / 14.0) / pnp.sqrt(a)
    # R_D tail
    ad = 0.2 * (x + y + 3.0 * z)
    dx, dy, dz = (ad - x) / ad, (ad - y) / ad, (ad - z) / ad
    ea = dx * dy
    eb = dz * dz
    ec = ea - eb
    ed = ea - 6.0 * eb
    ee = ed + ec + ec
    c1, c2, c3, c4 = 3.0 / 14.0, 1.0 / 6.0, 9.0 / 22.0, 3.0 / 26.0
    c5, c6 = 0.25 * c3, 1.5 * c4
    poly = 1.0 + ed * (-c1 + c5 * ed - c6 * dz * ee) + dz * (c2 * ee + dz * (-c3 * ec + dz * c4 * ea))
    rd = 3.0 * total + fac * poly / (ad * pnp.sqrt(ad))
    return rf, rd


def _ellip_impl(m, which: int):
    ok = m < 1.0
    y = pnp.where(ok, 1.0 - m, 0.5)
    rf, rd = _carlson(full_like(m, 0.0), y, full_like(m, 1.0))
    if which == 0:
        out = pnp.where(ok, rf, pnp.where(m == 1.0, np.inf, np.nan))
    else:
        out = pnp.where(ok, rf - m / 3.0 * rd, pnp.where(m == 1.0, 1.0, np.nan))
    return pnp.where(pnp.isnan(m), np.nan, pnp.where(m == -np.inf, np.inf if which else 0.0, out))


_ellip_kernel = elementwise("ellip", _ellip_impl, static_argnums=(1,))


@custom_jvp
def _ellipk(m):
    return _ellip_kernel(m, 0)


@custom_jvp
def _ellipe(m):
    return _ellip_kernel(m, 1)


@_ellipk.defjvp
def _ellipk_jvp(primals, tangents):
    (m,), (t,) = primals, tangents
    k, e = _ellipk(m), _ellipe(m)
    ms = pnp.where(m == 0, 0.5, m)
    d = pnp.where(m == 0, np.pi / 8, (e - (1.0 - ms) * k) / (2.0 * ms * (1.0 - ms)))
    return k, d * t


@_ellipe.defjvp
def _ellipe_jvp(primals, tangents):
    (m,), (t,) = primals, tangents
    k, e = _ellipk(m), _ellipe(m)
    ms = pnp.where(m == 0, 0.5, m)
    d = pnp.where(m == 0, -np.pi / 8, (e - k) / (2.0 * ms))
    return e, d * t


def ellipk(m: Any) -> Any:
    """The complete elliptic integral of the first kind K(m), m <= 1 (parameter m = k**2).

    Args:
        m: the parameter m = k**2 (m <= 1).

    Returns:
        An array of the same shape (float32 for integer input, else the input's floating dtype).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.ellipk(padax.to_tensor([0.0, 0.5])).tolist()
        [1.5708, 1.8541]
    """
    m, = inexact_args("ellipk", m)
    return _ellipk(m)


def ellipe(m: Any) -> Any:
    """The complete elliptic integral of the second kind E(m), m <= 1.

    Args:
        m: the parameter m = k**2 (m <= 1).

    Returns:
        An array of the same shape (float32 for integer input, else the input's floating dtype).

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.ellipe(padax.to_tensor([0.0, 0.5])).tolist()
        [1.5708, 1.3506]
    """
    m, = inexact_args("ellipe", m)
    return _ellipe(m)


__all__ = ["ellipk", "ellipe"]
