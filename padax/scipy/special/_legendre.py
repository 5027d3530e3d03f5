"""Associated Legendre functions and spherical harmonics.

* lpmn(m, n, z): P_l^k(z) and their derivatives for all 0 <= k <= m, 0 <= l <= n (scipy's
  former lpmn; Condon-Shortley phase included), broadcast over z: shape (m+1, n+1) + z.shape.
* lpmn_values(m, n, z, is_normalized): the values only, optionally normalised as in jax.
* assoc_legendre_p_all(n, m, z, norm=False, diff_n=0): scipy's current layout,
  (diff_n+1, n+1, 2m+1) + z.shape with the negative orders last.
* sph_harm_y(n, m, theta, phi): Y_n^m with theta the polar and phi the azimuthal angle.

Values come from the stable three-term recurrence in the degree, started at P_k^k (computed
in log space for the normalised functions, so high orders do not overflow).
"""
from __future__ import annotations

from math import lgamma, log
from typing import Any

import numpy as np

from padax import dtypes, lax, numpy as pnp
from padax.core.errors import op_value_error
from padax.numpy._util import to_array
from padax.scipy.special._base import full_like, inexact_args, static_order


def _legendre_table(m: int, n: int, z):
    """Unnormalised P_l^k(z), k <= m, l <= n, as a nested list [k][l] of arrays (|z| <= 1)."""
    s = pnp.sqrt(pnp.maximum(1.0 - z * z, 0.0))
    table = []
    pkk = full_like(z, 1.0)
    for k in range(m + 1):
        if k > 0:
            pkk = -(2 * k - 1) * s * pkk          # P_k^k = -(2k-1) sqrt(1-z^2) P_{k-1}^{k-1}
        row = [full_like(z, 0.0)] * (n + 1)
        if k <= n:
            row[k] = pkk
            if k + 1 <= n:
                row[k + 1] = (2 * k + 1) * z * pkk
            for l in range(k + 2, n + 1):
                row[l] = ((2 * l - 1) * z * row[l - 1] - (l + k - 1) * row[l - 2]) / (l - k)
        table.append(row)
    return table


def _legendre_derivatives(m: int, n: int, z, table):
    """d/dz P_l^k(z) from (z^2 - 1) P' = l z P_l^k - (l + k) P_{l-1}^k; limits at |z| = 1 as scipy."""
    edge = pnp.abs(z) == 1.0
    zs = pnp.where(edge, 0.0, z)
    denom = zs * zs - 1.0
    out = []
    for k in range(m + 1):
        row = []
        for l in range(n + 1):
            prev = table[k][l - 1] if l >= 1 else full_like(z, 0.0)
            d = (l * zs * table[k][l] - (l + k) * prev) / denom
            if k == 0:
                lim = 0.5 * l * (l + 1) * pnp.power(z, float(l + 1))
            elif k == 1:
                lim = np.inf * pnp.power(z, float(l)) if l >= 1 else full_like(z, 0.0)   # sign of x**l
            elif k == 2:
                lim = -0.25 * (l + 2) * (l + 1) * l * (l - 1) * pnp.power(z, float(l + 1))
            else:
                lim = full_like(z, 0.0)
            row.append(pnp.where(edge, lim, d) if k <= l else full_like(z, 0.0))
        out.append(row)
    return out


def _stack(table):
    return pnp.stack([pnp.stack(row, axis=0) for row in table], axis=0)


def lpmn(m: int, n: int, z: Any) -> tuple[Any, Any]:
    """(P, dP/dz) of the associated Legendre functions P_l^k(z), 0 <= k <= m, 0 <= l <= n, |z| <= 1.

    Args:
        m: the largest order k, a Python int.
        n: the largest degree l, a Python int.
        z: real argument array, |z| <= 1.

    Returns:
        The tuple (P, dP/dz), each of shape (m + 1, n + 1) + z.shape, indexed [k, l].

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> p, dp = special.lpmn(0, 2, padax.to_tensor([0.5]))
        >>> p[0, :, 0].tolist()
        [1.0, 0.5, -0.125]
        >>> dp[0, :, 0].tolist()
        [0.0, 1.0, 1.5]
    """
    m, n = static_order("lpmn", m), static_order("lpmn", n)
    z, = inexact_args("lpmn", z)
    table = _legendre_table(m, n, z)
    return _stack(table), _stack(_legendre_derivatives(m, n, z, table))


def lpmn_values(m: int, n: int, z: Any, is_normalized: bool = False) -> Any:
    """P_l^k(z) for 0 <= k <= m, 0 <= l <= n; normalised (sqrt((2l+1)(l-k)! / (2 (l+k)!)) P) on request.

    Args:
        m: the largest order k, a Python int.
        n: the largest degree l, a Python int.
        z: real argument array, |z| <= 1.
        is_normalized: scale each P_l^k by the normalisation factor above.

    Returns:
        An array of shape (m + 1, n + 1) + z.shape, indexed [k, l].

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> special.lpmn_values(0, 2, padax.to_tensor([0.5]), is_normalized=False)[0, :, 0].tolist()
        [1.0, 0.5, -0.125]
    """
    m, n = static_order("lpmn_values", m), static_order("lpmn_values", n)
    z, = inexact_args("lpmn_values", z)
    vals = _stack(_legendre_table(m, n, z))
    if not is_normalized:
        return vals
    return vals * _norm_factors(m, n, z)


def _norm_factors(m: int, n: int, z):
    f = np.zeros((m + 1, n + 1))
    for k in range(m + 1):
        for l in range(k, n + 1):
            f[k, l] = np.exp(0.5 * (log((2 * l + 1) / 2.0) + lgamma(l - k + 1) - lgamma(l + k + 1)))
    return pnp.asarray(f.reshape(f.shape + (1,) * z.aval.ndim), dtype=z.aval.dtype)


def assoc_legendre_p_all(n: int, m: int, z: Any, *, branch_cut: int = 2, norm: bool = False,
                         diff_n: int = 0) -> Any:
    """scipy's assoc_legendre_p_all for real |z| <= 1: shape (diff_n+1, n+1, 2m+1) + z.shape,
    orders 0..m then -m..-1; norm=True scales by sqrt((2l+1)(l-k)! / (2 (l+k)!)).

    Args:
        n: the largest degree, a Python int.
        m: the largest order, a Python int.
        z: real argument array, |z| <= 1.
        branch_cut: only 2 (real arguments on [-1, 1]) is supported.
        norm: return the normalised functions.
        diff_n: 0 for the values, 1 to also get the derivative.

    Returns:
        An array of shape (diff_n + 1, n + 1, 2m + 1) + z.shape.

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> p = special.assoc_legendre_p_all(2, 1, padax.to_tensor(0.5))  # degrees 0..2, orders 0, 1, -1
        >>> p.shape
        (1, 3, 3)
        >>> p[0, 2].tolist()  # P_2^0, P_2^1, P_2^-1 at 0.5, as scipy
        [-0.125, -1.299, 0.2165]
    """
    n, m = static_order("assoc_legendre_p_all", n), static_order("assoc_legendre_p_all", m)
    diff_n = static_order("assoc_legendre_p_all", diff_n)
    if branch_cut != 2:
        raise op_value_error("assoc_legendre_p_all", f"only branch_cut=2 (real |z| <= 1) is supported, "
                                                     f"got {branch_cut}")
    if diff_n > 1:
        raise op_value_error("assoc_legendre_p_all", f"diff_n must be 0 or 1, got {diff_n}")
    z, = inexact_args("assoc_legendre_p_all", z)
    table = _legendre_table(m, n, z)
    layers = [table] + ([_legendre_derivatives(m, n, z, table)] if diff_n else [])
    out = []
    for layer in layers:
        cols = []
        for k in list(range(m + 1)) + list(range(-m, 0)):
            ak = abs(k)
            col = []
            for l in range(n + 1):
                if ak > l:
                    col.append(full_like(z, 0.0))
                    continue
                v = layer[ak][l]
                if k < 0:   # P_l^{-k} = (-1)^k (l-k)!/(l+k)! P_l^k
                    v = v * float((-1) ** ak * np.exp(lgamma(l - ak + 1) - lgamma(l + ak + 1)))
                if norm:
                    v = v * float(np.exp(0.5 * (np.log((2 * l + 1) / 2.0) + lgamma(l - k + 1) - lgamma(l + k + 1))))
                col.append(v)
            cols.append(pnp.stack(col, axis=0))
        out.append(pnp.stack(cols, axis=1))
    return pnp.stack(out, axis=0)


def sph_harm_y(n: Any, m: Any, theta: Any, phi: Any, diff_n: int = 0, n_max: int | None = None) -> Any:
    """The spherical harmonic Y_n^m(theta, phi) (theta polar, phi azimuthal; Condon-Shortley phase).

    n and m are integer arrays broadcast with the angles; `n_max` (a Python int) bounds n and is
    needed when n is traced.

    Args:
        n: the degree (integer array).
        m: the order (integer array); 0 where |m| > n.
        theta: the polar angle.
        phi: the azimuthal angle.
        diff_n: only 0 is supported.
        n_max: an upper bound for n, a Python int; needed only when n is traced.

    Returns:
        A complex array (complex64, or complex128 for float64 input) of the broadcast shape.

    Examples:
        >>> import padax
        >>> from padax.scipy import special
        >>> float(special.sph_harm_y(padax.to_tensor([0]), padax.to_tensor([0]), padax.to_tensor([0.3]), padax.to_tensor([0.1])).real()[0])
        0.2821
    """
    if diff_n != 0:
        raise op_value_error("sph_harm_y", f"only diff_n=0 is supported, got {diff_n}")
    n_arr, m_arr = to_array(n), to_array(m)
    if n_max is None:
        try:
            n_max = int(np.max(np.asarray(n_arr))) if n_arr.aval.size else 0
        except Exception:
            raise op_value_error("sph_harm_y", "n is traced: pass n_max (a Python int bounding n)") from None
    n_max = static_order("sph_harm_y", n_max)
    nf, mf, theta, phi = inexact_args("sph_harm_y", n_arr, m_arr, theta, phi)
    am = pnp.abs(mf)
    x = pnp.cos(theta)
    s = pnp.abs(pnp.sin(theta))
    # normalised P_m^m: (-1)^m sqrt((2m+1)/(4 pi) (2m)!) / (2^m m!) sin^m(theta), in log space
    log_pmm = (0.5 * pnp.log((2.0 * am + 1.0) / (4 * np.pi)) + 0.5 * lax.lgamma(2.0 * am + 1.0)
               - am * 0.69314718055994530942 - lax.lgamma(am + 1.0) + pnp.where(am > 0, am * pnp.log(s), 0.0))
    sign = pnp.where(pnp.remainder(am, 2.0) == 1.0, -1.0, 1.0)
    p_prev = full_like(x, 0.0)
    p_cur = sign * pnp.exp(log_pmm)            # degree l = |m|
    result = pnp.where(nf == am, p_cur, 0.0)
    for step in range(1, n_max + 1):
        l = am + step
        a = pnp.sqrt((4.0 * l * l - 1.0) / pnp.maximum(l * l - am * am, 1.0))
        b = pnp.sqrt(pnp.maximum((l - 1.0) ** 2 - am * am, 0.0) / (4.0 * (l - 1.0) ** 2 - 1.0))
        p_next = a * (x * p_cur - b * p_prev)
        p_prev, p_cur = p_cur, p_next
        result = pnp.where(nf == l, p_cur, result)
    valid = (am <= nf) & (nf >= 0)
    result = pnp.where(valid, result, 0.0)
    # negative m: Y_n^{-m} = (-1)^m conj(Y_n^m), i.e. the same magnitude times (-1)^m and e^{-i m phi}
    result = pnp.where(mf < 0, sign * result, result)
    cdt = dtypes.complex128 if result.aval.dtype == dtypes.float64 else dtypes.complex64
    angle = mf * phi
    return lax.complex(result * pnp.cos(angle), result * pnp.sin(angle)).astype(cdt)


__all__ = ["lpmn", "lpmn_values", "assoc_legendre_p_all", "sph_harm_y"]
