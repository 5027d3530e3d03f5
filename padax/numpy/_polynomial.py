"""jax.numpy's polynomials (coefficients highest power first): polyval, polyadd/polysub/polymul/polydiv,
polyder/polyint, poly, roots, polyfit, and the Vandermonde matrix vander."""
from __future__ import annotations

import builtins
from typing import Any

import numpy as np

import padax.numpy as pnp
from padax.core.errors import op_value_error
from padax.numpy import _dtypes as D
from padax.numpy._util import eager_values, promote, promote_inexact, static_int, to_array


def polyval(p: Any, x: Any, *, unroll: int = 16) -> Any:
    """The polynomial with coefficients p (highest degree first) at x, by Horner's rule.

    Args:
        p: 1-D coefficients (or (deg + 1, ...) batches broadcast against x).
        x: the points.
        unroll: unused (jax's scan unrolling; padax unrolls the loop fully).

    Returns:
        An array of x's (broadcast) shape, floating.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.polyval(pnp.array([1.0, 0.0, -1.0]), pnp.array([0.0, 2.0])).tolist()
        [-1.0, 3.0]
    """
    pa, xa = promote_inexact(p, x)
    if pa.ndim == 0:
        raise TypeError(f"polyval: p must be an array of coefficients (at least 1-D), got a scalar {pa.dtype} "
                        "(for a constant polynomial pass [c])")
    y = pnp.zeros(pnp.broadcast_shapes(pa.shape[1:], xa.shape), dtype=xa.dtype)
    for i in builtins.range(pa.shape[0]):
        y = y * xa + pa[i]
    return y


def _pad_front(a: Any, n: int) -> Any:
    return pnp.concatenate([pnp.zeros((n - a.shape[0],), a.dtype), a]) if a.shape[0] < n else a


def _coefficients(op: str, *arrays: Any, inexact: bool = False) -> tuple[Any, ...]:
    """Coefficient arrays promoted together (to floating where `inexact`); a scalar is a constant polynomial,
    more than 1-D is refused."""
    out = (promote_inexact if inexact else promote)(*(pnp.atleast_1d(to_array(a)) for a in arrays))
    if any(a.ndim != 1 for a in out):
        raise op_value_error(op, "coefficients must be 1-D, got " + " and ".join(a.aval.str_short() for a in out))
    return tuple(out)


def polyadd(a1: Any, a2: Any) -> Any:
    """Sum of two polynomials (coefficients highest degree first).

    Args:
        a1, a2: 1-D coefficient arrays.

    Returns:
        A 1-D array as long as the longer input.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.polyadd(pnp.array([1, 2]), pnp.array([1, 0, 0])).tolist()
        [1, 1, 2]
    """
    a, b = _coefficients("polyadd", a1, a2)
    n = builtins.max(a.shape[0], b.shape[0])
    return _pad_front(a, n) + _pad_front(b, n)


def polysub(a1: Any, a2: Any) -> Any:
    """Difference of two polynomials (coefficients highest degree first).

    Args:
        a1, a2: 1-D coefficient arrays.

    Returns:
        A 1-D array as long as the longer input.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.polysub(pnp.array([1, 2]), pnp.array([1, 0, 0])).tolist()
        [-1, 1, 2]
    """
    a, b = _coefficients("polysub", a1, a2)
    n = builtins.max(a.shape[0], b.shape[0])
    return _pad_front(a, n) - _pad_front(b, n)


def _trim_leading(op: str, a: Any) -> Any:
    nz = np.flatnonzero(eager_values(op, a))
    return a[nz[0]:] if nz.size else a[:1]


def polymul(a1: Any, a2: Any, *, trim_leading_zeros: bool = False) -> Any:
    """Product of two polynomials (coefficients highest degree first).

    Args:
        a1, a2: 1-D coefficient arrays.
        trim_leading_zeros: drop leading zero coefficients first (eager only).

    Returns:
        A 1-D floating array of length len(a1) + len(a2) - 1.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.polymul(pnp.array([1.0, 1.0]), pnp.array([1.0, -1.0])).tolist()
        [1.0, 0.0, -1.0]
    """
    a, b = _coefficients("polymul", a1, a2, inexact=True)
    if trim_leading_zeros:
        a, b = _trim_leading("polymul", a), _trim_leading("polymul", b)
    if a.shape[0] == 0 or b.shape[0] == 0:
        return pnp.zeros((1,), a.dtype)
    return pnp.convolve(a, b)


def polyder(p: Any, m: int = 1) -> Any:
    """The m-th derivative of a polynomial (coefficients highest degree first).

    Args:
        p: 1-D coefficients.
        m: the order of the derivative (>= 0).

    Returns:
        A 1-D floating array, m shorter than p (at least empty).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.polyder(pnp.array([1.0, 1.0, 1.0, 1.0]), 2).tolist()
        [6.0, 2.0]
    """
    m = static_int("polyder", m, "m")
    if m < 0:
        raise op_value_error("polyder", f"the order of the derivative must be >= 0, got {m}")
    (pa,) = _coefficients("polyder", p, inexact=True)
    for _ in builtins.range(m):
        n = pa.shape[0]
        if n == 0:
            break
        pa = pa[:-1] * pnp.arange(n - 1, 0, -1, dtype=pa.dtype)
    return pa


def polyint(p: Any, m: int = 1, k: Any = None) -> Any:
    """The m-th antiderivative of a polynomial, with integration constants k.

    Args:
        p: 1-D coefficients (highest degree first).
        m: the number of integrations (>= 0).
        k: the constants, one per integration (a scalar: the same for all; default 0).

    Returns:
        A 1-D floating array, m longer than p.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.polyint(pnp.array([3.0, 2.0, 1.0]), k=5.0).tolist()
        [1.0, 1.0, 1.0, 5.0]
    """
    m = static_int("polyint", m, "m")
    if m < 0:
        raise op_value_error("polyint", f"the order of the antiderivative must be >= 0, got {m}")
    (pa,) = _coefficients("polyint", p, inexact=True)
    ks = pnp.zeros((m,), pa.dtype) if k is None else pnp.ravel(to_array(k, pa.dtype))
    if ks.shape[0] == 1 and m > 1:
        ks = pnp.broadcast_to(ks, (m,))
    if ks.shape[0] != m:
        raise op_value_error("polyint", f"k must have one constant per integration ({m}), got {ks.shape[0]}")
    for i in builtins.range(m):
        n = pa.shape[0]
        pa = pnp.concatenate([pa / pnp.arange(n, 0, -1, dtype=pa.dtype), ks[i:i + 1]])
    return pa


def polydiv(u: Any, v: Any, *, trim_leading_zeros: bool = False) -> Any:
    """Quotient and remainder of polynomial division u / v (coefficients highest degree first).

    Args:
        u, v: 1-D coefficients; v's leading coefficient must be nonzero.
        trim_leading_zeros: drop the remainder's leading (near-)zeros (eager only); else it has len(u) entries.

    Returns:
        (quotient, remainder), floating.

    Examples:
        >>> import padax.numpy as pnp
        >>> q, r = pnp.polydiv(pnp.array([1.0, 0.0, -1.0]), pnp.array([1.0, 1.0]))
        >>> q.tolist(), r.tolist()
        ([1.0, -1.0], [0.0, 0.0, 0.0])
    """
    ua, va = _coefficients("polydiv", u, v, inexact=True)
    m, n = ua.shape[0] - 1, va.shape[0] - 1
    scale = 1.0 / va[0]
    r = [ua[i] for i in builtins.range(m + 1)]
    q = []
    for k in builtins.range(m - n + 1):
        d = scale * r[k]
        q.append(d)
        for j in builtins.range(n + 1):
            r[k + j] = r[k + j] - d * va[j]
    qa = pnp.stack(q) if q else pnp.zeros((1,), ua.dtype)
    ra = pnp.stack(r)
    if trim_leading_zeros:
        rv = eager_values("polydiv", ra)
        nz = np.flatnonzero(~np.isclose(rv, 0, rtol=0, atol=np.finfo(rv.dtype).eps * 64))
        ra = ra[nz[0]:] if nz.size else ra[-1:]
    return qa, ra


def poly(seq_of_zeros: Any) -> Any:
    """Coefficients (highest degree first, leading 1) of the monic polynomial with the given roots.

    Args:
        seq_of_zeros: 1-D roots, or a square matrix (its eigenvalues are the roots).

    Returns:
        A 1-D array of len(roots) + 1 coefficients (complex for a matrix).

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.poly(pnp.array([1.0, 2.0])).tolist()
        [1.0, -3.0, 2.0]
    """
    z = to_array(seq_of_zeros)
    if z.ndim == 2 and z.shape[0] == z.shape[1] and z.shape[0] > 0:
        z = pnp.linalg.eigvals(z)
    elif z.ndim != 1:
        raise op_value_error("poly", f"expected 1-D roots or a square matrix, got {z.aval.str_short()}")
    (z,) = promote_inexact(z)
    a = pnp.ones((1,), z.dtype)
    for i in builtins.range(z.shape[0]):
        a = pnp.convolve(a, pnp.stack([pnp.ones((), z.dtype), -z[i]]))
    return a


def roots(p: Any, *, strip_zeros: bool = True) -> Any:
    """Roots of a polynomial (coefficients highest degree first): the companion matrix's eigenvalues.

    Args:
        p: 1-D coefficients.
        strip_zeros: drop leading zeros and turn trailing zeros into zero roots (eager only); without it
            (jit-able), p's leading coefficient must be nonzero.

    Returns:
        A 1-D complex array of the roots (in no particular order).

    Examples:
        >>> import padax.numpy as pnp
        >>> sorted(pnp.real(pnp.roots(pnp.array([1.0, -3.0, 2.0]))).tolist())
        [1.0, 2.0]
    """
    (pa,) = promote_inexact(p)
    if pa.ndim != 1:
        raise op_value_error("roots", f"p must be 1-D, got {pa.aval.str_short()}")
    trailing = 0
    if strip_zeros:
        nz = np.flatnonzero(eager_values("roots", pa))
        if nz.size == 0:
            return pnp.zeros((0,), D.default_complex() if D.kind(pa.dtype) < 3 else pa.dtype)
        trailing = pa.shape[0] - 1 - builtins.int(nz[-1])
        pa = pa[builtins.int(nz[0]):builtins.int(nz[-1]) + 1]
    n = pa.shape[0] - 1
    cdt = np.dtype(D.complex128) if pa.dtype == D.float64 or pa.dtype == D.complex128 else np.dtype(D.complex64)
    if n < 1:
        r = pnp.zeros((0,), cdt)
    else:
        top = -pa[1:] / pa[0]
        comp = pnp.concatenate([top[None, :], pnp.eye(n - 1, n, dtype=pa.dtype)], axis=0)
        r = pnp.astype(pnp.linalg.eigvals(comp), cdt)
    return pnp.concatenate([r, pnp.zeros((trailing,), cdt)]) if trailing else r


def polyfit(x: Any, y: Any, deg: int, rcond: float | None = None, full: bool = False, w: Any = None,
            cov: bool | str = False) -> Any:
    """Least-squares polynomial fit of degree deg to the points (x, y).

    Args:
        x: 1-D sample points.
        y: their values, 1-D or (len(x), K) for K fits at once.
        deg: the degree of the polynomial.
        rcond: relative cutoff for small singular values (default len(x) * eps).
        full: also return (residuals, rank, singular values, rcond).
        w: weights applied to the unsquared residuals.
        cov: also return the coefficients' covariance (True: scaled by the residuals, 'unscaled': not).

    Returns:
        The deg + 1 coefficients (highest degree first; (deg + 1, K) for 2-D y), or the tuples above.

    Examples:
        >>> import padax.numpy as pnp
        >>> import numpy as np
        >>> np.round(pnp.polyfit(pnp.array([0.0, 1.0, 2.0, 3.0]), pnp.array([1.0, 3.0, 5.0, 7.0]), 1), 4).tolist()
        [2.0, 1.0]
    """
    deg = static_int("polyfit", deg, "deg")
    if deg < 0:
        raise op_value_error("polyfit", f"deg must be >= 0, got {deg}")
    xa, ya = promote_inexact(x, y)
    order = deg + 1
    if rcond is None:
        rcond = xa.shape[0] * builtins.float(np.finfo(xa.dtype).eps)
    lhs = vander(xa, order)
    rhs = ya
    if w is not None:
        wa = to_array(w, xa.dtype)
        lhs = lhs * wa[:, None]
        rhs = rhs * (wa if rhs.ndim == 1 else wa[:, None])
    scale = pnp.sqrt(pnp.sum(lhs * lhs, axis=0))
    lhs = lhs / scale
    c, resids, rank, s = pnp.linalg.lstsq(lhs, rhs, rcond)
    c = c / (scale if c.ndim == 1 else scale[:, None])
    if full:
        return c, resids, rank, s, pnp.asarray(rcond, dtype=xa.dtype)
    if cov:
        vbase = pnp.linalg.inv(pnp.matmul(lhs.T, lhs)) / pnp.outer(scale, scale)
        if cov == "unscaled":
            fac = pnp.ones((), xa.dtype)
        else:
            if xa.shape[0] <= order:
                raise op_value_error("polyfit", "the fit needs more points than coefficients to scale the "
                                                "covariance (pass cov='unscaled')")
            fac = resids / (xa.shape[0] - order)
        if c.ndim == 1:
            return c, vbase * pnp.reshape(fac, ())
        return c, vbase[:, :, None] * fac
    return c


def vander(x: Any, N: int | None = None, increasing: bool = False) -> Any:
    """Vandermonde matrix: columns are powers of x (decreasing, or increasing).

    Args:
        x: 1-D array.
        N: the number of columns (default len(x)).
        increasing: powers 0, 1, ... left to right (default: N - 1 down to 0).

    Returns:
        A (len(x), N) array of x's dtype.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.vander(pnp.array([2, 3]), 3).tolist()
        [[4, 2, 1], [9, 3, 1]]
    """
    xa = to_array(x)
    if xa.ndim != 1:
        raise op_value_error("vander", f"x must be 1-D, got {xa.aval.str_short()}")
    n = xa.shape[0] if N is None else static_int("vander", N, "N")
    if n < 0:
        raise op_value_error("vander", f"N must be non-negative, got {n}")
    cols = [pnp.ones_like(xa)] if n else []
    for _ in builtins.range(1, n):
        cols.append(cols[-1] * xa)
    if not increasing:
        cols = cols[::-1]
    return pnp.stack(cols, axis=1) if cols else pnp.zeros((xa.shape[0], 0), xa.dtype)


__all__ = ["polyval", "polyadd", "polysub", "polymul", "polyder", "polyint", "polydiv", "poly", "roots", "polyfit", "vander"]
