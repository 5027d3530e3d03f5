"""scipy.linalg's special matrices. Those built from arrays (block_diag, circulant, companion,
convolution_matrix, fiedler, fiedler_companion, hankel, leslie, toeplitz) are padax ops
(traceable, differentiable); those built from a size alone (dft, hadamard, helmert, hilbert,
invhilbert, pascal, invpascal) are computed exactly on the host, in the default float dtype
(int64 for the integer ones)."""
from __future__ import annotations

from math import comb
from typing import Any

import numpy as np

import padax.numpy as pnp
from padax.core.errors import op_value_error
from padax.dtypes import default_complex_dtype, default_float_dtype


def _vector(op: str, a: Any, min_size: int = 1) -> Any:
    a = pnp.asarray(a)
    if a.ndim != 1 or a.shape[0] < min_size:
        raise op_value_error(f"padax.scipy.linalg.{op}", f"needs a 1-D array of at least {min_size} "
                                                         f"element(s), got shape {tuple(a.shape)}")
    return a


def _size(op: str, n: Any) -> int:
    if int(n) != n or n < 0:
        raise op_value_error(f"padax.scipy.linalg.{op}", f"n must be a non-negative integer, got {n!r}")
    return int(n)


def _float(x: np.ndarray) -> Any:
    return pnp.asarray(x.astype(default_float_dtype()))


def companion(a: Any) -> Any:
    """The companion matrix of the polynomial with coefficients a (highest first, a[0] != 0):
    first row -a[1:] / a[0], ones on the subdiagonal; its eigenvalues are the roots.

    Args:
        a: 1-D polynomial coefficients, highest degree first (at least 2, a[0] != 0).

    Returns:
        The (N - 1, N - 1) companion matrix for N = len(a).

    Examples:
        >>> import padax
        >>> from padax.scipy import linalg
        >>> linalg.companion(padax.to_tensor([1.0, -3.0, 2.0])).tolist()  # x**2 - 3x + 2: eigenvalues 1 and 2
        [[3.0, -2.0], [1.0, 0.0]]
    """
    a = _vector("companion", a, 2)
    n = a.shape[0] - 1
    first = -a[1:] / a[0]
    return pnp.concatenate([first[None, :], pnp.eye(n - 1, n, dtype=first.dtype)], axis=0)


def convolution_matrix(a: Any, n: int, mode: str = "full") -> Any:
    """The matrix A with A @ v = numpy.convolve(a, v, mode) for every v of length n.

    Args:
        a: the 1-D kernel, length m.
        n: the length of the vectors it will multiply (a positive int).
        mode: 'full' (default, m + n - 1 rows), 'same' (max(m, n) rows) or 'valid' (max(m, n) - min(m, n) + 1 rows), as
            numpy.convolve.

    Returns:
        A 2-D array with n columns, dtype of `a`.

    Examples:
        >>> import padax
        >>> from padax.scipy import linalg
        >>> linalg.convolution_matrix(padax.to_tensor([1, 2]), 3).tolist()  # A @ v == convolve([1, 2], v)
        [[1, 0, 0], [2, 1, 0], [0, 2, 1], [0, 0, 2]]
    """
    op = "padax.scipy.linalg.convolution_matrix"
    a = _vector("convolution_matrix", a)
    if int(n) != n or n <= 0:
        raise op_value_error(op, f"n must be a positive integer, got {n!r}")
    if mode not in ("full", "same", "valid"):
        raise op_value_error(op, f"mode must be 'full', 'same' or 'valid', got {mode!r}")
    m, n = a.shape[0], int(n)
    rows = m + n - 1
    i = np.arange(rows)[:, None]
    j = np.arange(n)[None, :]
    k = i - j
    full = pnp.where(pnp.asarray((k >= 0) & (k < m)), a[np.clip(k, 0, m - 1)], 0).astype(a.dtype)
    trim = min(m, n) - 1
    if mode == "same":
        start = trim // 2
        return full[start:start + max(m, n)]
    if mode == "valid":
        return full[trim:rows - trim]
    return full


def dft(n: int, scale: str | None = None, *, dtype: Any = None) -> Any:
    """The n-point DFT matrix W[j, k] = exp(-2 pi i j k / n), scaled by 1/sqrt(n) ('sqrtn')
    or 1/n ('n') if asked.

    Args:
        n: the size (a non-negative int).
        scale: None (default, no scaling), 'sqrtn' or 'n'.
        dtype: the complex output dtype; None means the default complex dtype (complex64).

    Returns:
        The (n, n) complex DFT matrix.

    Examples:
        >>> import padax
        >>> from padax.scipy import linalg
        >>> F = linalg.dft(4)
        >>> row = F[1]  # exp(-2 pi i k / 4) for k = 0..3: 1, -i, -1, i
        >>> padax.real(row).tolist(), padax.imag(row).tolist()
        ([1.0, 0.0, -1.0, 0.0], [0.0, -1.0, 0.0, 1.0])
    """
    n = _size("dft", n)
    if scale not in (None, "sqrtn", "n"):
        raise op_value_error("padax.scipy.linalg.dft", f"scale must be None, 'sqrtn' or 'n', got {scale!r}")
    jk = np.outer(np.arange(n), np.arange(n)) % max(n, 1)
    w = np.exp(-2j * np.pi * jk / max(n, 1))
    if scale == "sqrtn":
        w = w / np.sqrt(n)
    elif scale == "n":
        w = w / n
    return pnp.asarray(w.astype(dtype or default_complex_dtype()))


def fiedler(a: Any) -> Any:
    """The symmetric Fiedler matrix F[i, j] = |a[i] - a[j]|.

    Args:
        a: 1-D array.

    Returns:
        The symmetric (N, N) matrix for N = len(a), dtype of `a`.

    Examples:
        >>> import padax
        >>> from padax.scipy import linalg
        >>> linalg.fiedler(padax.to_tensor([1, 4, 12])).tolist()  # |a_i - a_j|
        [[0, 3, 11], [3, 0, 8], [11, 8, 0]]
    """
    a = _vector("fiedler", a, 0)
    return pnp.abs(a[:, None] - a[None, :])


def fiedler_companion(a: Any) -> Any:
    """Fiedler's pentadiagonal companion matrix of the polynomial a (highest first): same
    eigenvalues as companion(a).

    Args:
        a: 1-D polynomial coefficients, highest degree first (at least 2, a[0] != 0).

    Returns:
        The (N - 1, N - 1) matrix for N = len(a).

    Examples:
        >>> import padax
        >>> from padax.scipy import linalg
        >>> linalg.fiedler_companion(padax.to_tensor([1.0, -3.0, 2.0])).tolist()  # same eigenvalues as companion: 1, 2
        [[3.0, -2.0], [1.0, 0.0]]
    """
    a = _vector("fiedler_companion", a, 2)
    a = a / a[0]
    n = a.shape[0] - 1
    if n == 1:
        return -a[1:].reshape(1, 1)
    c = pnp.zeros((n, n), a.dtype)
    sub_r, sub_c = np.arange(3, n, 2), np.arange(1, n - 2, 2)
    c = c.at[sub_r, sub_c].set(1)
    c = c.at[np.arange(2, n, 2), np.arange(1, n - 1, 2)].set(-a[3::2])
    c = c.at[np.arange(0, n - 2, 2), np.arange(2, n, 2)].set(1)
    c = c.at[np.arange(0, n - 1, 2), np.arange(1, n, 2)].set(-a[2::2])
    c = c.at[0, 0].set(-a[1])
    return c.at[1, 0].set(1)


def hadamard(n: int, dtype: Any = int) -> Any:
    """Sylvester's Hadamard matrix of order n (a power of 2): entries +-1, H H^T = n I.

    Args:
        n: the order, a positive power of 2.
        dtype: the output dtype; the default `int` gives int64.

    Returns:
        The (n, n) matrix of +1/-1 entries.

    Examples:
        >>> from padax.scipy import linalg
        >>> linalg.hadamard(4).tolist()
        [[1, 1, 1, 1], [1, -1, 1, -1], [1, 1, -1, -1], [1, -1, -1, 1]]
    """
    n = _size("hadamard", n)
    if n < 1 or n & (n - 1):
        raise op_value_error("padax.scipy.linalg.hadamard", f"n must be a positive power of 2, got {n}")
    h = np.ones((1, 1), np.int64)
    while h.shape[0] < n:
        h = np.block([[h, h], [h, -h]])
    return pnp.asarray(h, dtype=np.int64 if dtype is int else dtype)


def hankel(c: Any, r: Any = None) -> Any:
    """The Hankel matrix with first column c and last row r (r[0] ignored; zeros by
    default): H[i, j] = c[i + j] while i + j < len(c), else r[i + j - len(c) + 1].

    Args:
        c: the first column (flattened if not 1-D).
        r: the last row (r[0] ignored); None means zeros.

    Returns:
        A 2-D array of shape (len(c), len(r)) in the promoted dtype.

    Examples:
        >>> import padax
        >>> from padax.scipy import linalg
        >>> linalg.hankel(padax.to_tensor([1, 2, 3]), padax.to_tensor([3, 4, 5])).tolist()  # constant anti-diagonals
        [[1, 2, 3], [2, 3, 4], [3, 4, 5]]
    """
    c = pnp.asarray(c).reshape(-1)
    r = pnp.zeros_like(c) if r is None else pnp.asarray(r).reshape(-1)
    dt = pnp.result_type(c.dtype, r.dtype)
    vals = pnp.concatenate([c.astype(dt), r[1:].astype(dt)])
    return vals[np.arange(c.shape[0])[:, None] + np.arange(r.shape[0])[None, :]]


def helmert(n: int, full: bool = False) -> Any:
    """The (n-1, n) Helmert matrix (rows orthonormal and orthogonal to the ones vector), or
    the full orthogonal (n, n) one with the normalised ones row first.

    Args:
        n: the size (a non-negative int).
        full: return the full (n, n) matrix instead of the (n - 1, n) one.

    Returns:
        A 2-D array in the default float dtype.

    Examples:
        >>> from padax.scipy import linalg
        >>> linalg.helmert(3).tolist()  # orthonormal rows orthogonal to ones(3)
        [[0.7071, -0.7071, 0.0], [0.4082, 0.4082, -0.8165]]
    """
    n = _size("helmert", n)
    h = np.tril(np.ones((n, n)), -1) - np.diag(np.arange(n))
    d = np.arange(n) * np.arange(1, n + 1)
    if n:
        h[0], d[0] = 1, n
    h = h / np.sqrt(d)[:, None]
    return _float(h if full else h[1:])


def hilbert(n: int) -> Any:
    """The Hilbert matrix H[i, j] = 1 / (i + j + 1).

    Args:
        n: the size (a non-negative int).

    Returns:
        The (n, n) matrix in the default float dtype.

    Examples:
        >>> from padax.scipy import linalg
        >>> linalg.hilbert(3).tolist()  # 1 / (i + j + 1)
        [[1.0, 0.5, 0.3333], [0.5, 0.3333, 0.25], [0.3333, 0.25, 0.2]]
    """
    n = _size("hilbert", n)
    i = np.arange(n)
    return _float(1.0 / (i[:, None] + i[None, :] + 1))


def invhilbert(n: int, exact: bool = False) -> Any:
    """The exact inverse of hilbert(n) (closed form in binomials); int64 with `exact`
    (representable up to n = 14), floats otherwise.

    Args:
        n: the size (a non-negative int; at most 14 with `exact`).
        exact: return int64 entries instead of floats.

    Returns:
        The (n, n) inverse, int64 with `exact`, else the default float dtype.

    Examples:
        >>> from padax.scipy import linalg
        >>> linalg.invhilbert(3).tolist()
        [[9.0, -36.0, 30.0], [-36.0, 192.0, -180.0], [30.0, -180.0, 180.0]]
    """
    n = _size("invhilbert", n)
    if exact and n > 14:
        raise op_value_error("padax.scipy.linalg.invhilbert", f"exact entries overflow int64 for n > 14, got {n}")
    out = np.empty((n, n), dtype=object)
    for i in range(n):
        for j in range(i + 1):
            s = i + j
            out[i, j] = out[j, i] = ((-1) ** s * (s + 1) * comb(n + i, n - j - 1) * comb(n + j, n - i - 1)
                                     * comb(s, i) ** 2)
    return pnp.asarray(out.astype(np.int64)) if exact else _float(out.astype(np.float64))


def _pascal_exact(n: int, kind: str) -> np.ndarray:
    lower = np.array([[comb(i, j) for j in range(n)] for i in range(n)], dtype=object)
    if kind == "lower":
        return lower
    if kind == "upper":
        return lower.T
    return np.array([[comb(i + j, i) for j in range(n)] for i in range(n)], dtype=object)


def _kind(op: str, kind: Any) -> str:
    kind = "symmetric" if kind is None else kind
    if kind not in ("symmetric", "lower", "upper"):
        raise op_value_error(f"padax.scipy.linalg.{op}", f"kind must be 'symmetric', 'lower' or 'upper', "
                                                         f"got {kind!r}")
    return kind


def pascal(n: int, kind: str | None = None, exact: bool = True) -> Any:
    """The Pascal matrix of binomial coefficients (symmetric, lower or upper): int64 with
    `exact` (representable up to n = 34 for the symmetric kind), floats otherwise.

    Args:
        n: the size (a non-negative int).
        kind: 'symmetric' (default when None), 'lower' or 'upper'.
        exact: return int64 entries (default) instead of floats.

    Returns:
        The (n, n) matrix, int64 with `exact`, else the default float dtype.

    Examples:
        >>> from padax.scipy import linalg
        >>> linalg.pascal(4).tolist()  # binomial coefficients
        [[1, 1, 1, 1], [1, 2, 3, 4], [1, 3, 6, 10], [1, 4, 10, 20]]
        >>> linalg.pascal(3, kind="lower").tolist()
        [[1, 0, 0], [1, 1, 0], [1, 2, 1]]
    """
    n, kind = _size("pascal", n), _kind("pascal", kind)
    p = _pascal_exact(n, kind)
    if exact:
        if n and max(p.ravel()) >= 2 ** 63:
            raise op_value_error("padax.scipy.linalg.pascal", f"exact entries overflow int64 for n = {n}")
        return pnp.asarray(p.astype(np.int64))
    return _float(p.astype(np.float64))


def invpascal(n: int, kind: str | None = None, exact: bool = True) -> Any:
    """The exact inverse of pascal(n, kind): int64 with `exact`, floats otherwise.

    Args:
        n: the size (a non-negative int).
        kind: 'symmetric' (default when None), 'lower' or 'upper'.
        exact: return int64 entries (default) instead of floats.

    Returns:
        The (n, n) inverse, int64 with `exact`, else the default float dtype.

    Examples:
        >>> from padax.scipy import linalg
        >>> linalg.invpascal(3).tolist()
        [[3, -3, 1], [-3, 5, -2], [1, -2, 1]]
    """
    n, kind = _size("invpascal", n), _kind("invpascal", kind)
    if kind == "symmetric":
        # inverse of L L^T is L^-T L^-1, with L^-1 the lower Pascal matrix with alternating signs
        li = _pascal_exact(n, "lower") * np.array([[(-1) ** (i - j) for j in range(n)] for i in range(n)],
                                                  dtype=object)
        p = li.T.dot(li)
    else:
        p = _pascal_exact(n, kind) * np.array([[(-1) ** (i - j) for j in range(n)] for i in range(n)],
                                              dtype=object)
    if exact:
        if n and max(abs(v) for v in p.ravel()) >= 2 ** 63:
            raise op_value_error("padax.scipy.linalg.invpascal", f"exact entries overflow int64 for n = {n}")
        return pnp.asarray(p.astype(np.int64))
    return _float(p.astype(np.float64))


def leslie(f: Any, s: Any) -> Any:
    """The Leslie matrix: fecundity coefficients f in the first row, survival coefficients s
    (len(f) - 1 of them) on the subdiagonal.

    Args:
        f: 1-D fecundity coefficients, length n.
        s: 1-D survival coefficients, length n - 1.

    Returns:
        The (n, n) matrix in the promoted dtype.

    Examples:
        >>> import padax
        >>> from padax.scipy import linalg
        >>> linalg.leslie(padax.to_tensor([0.1, 2.0, 1.0]), padax.to_tensor([0.2, 0.8])).tolist()  # fecundity, survival
        [[0.1, 2.0, 1.0], [0.2, 0.0, 0.0], [0.0, 0.8, 0.0]]
    """
    f, s = _vector("leslie", f), _vector("leslie", s)
    if s.shape[0] != f.shape[0] - 1:
        raise op_value_error("padax.scipy.linalg.leslie", f"len(s) must be len(f) - 1, got {s.shape[0]} and "
                                                          f"{f.shape[0]}")
    dt = pnp.result_type(f.dtype, s.dtype)
    n = f.shape[0]
    out = pnp.zeros((n, n), dt).at[0].set(f.astype(dt))
    return out.at[np.arange(1, n), np.arange(n - 1)].set(s.astype(dt))


def block_diag(*arrs: Any) -> Any:
    """The block-diagonal matrix of the given 2-D (or 1-D / scalar: one row) blocks.

    Args:
        *arrs: the blocks: 2-D arrays, or 1-D arrays / scalars taken as one row.

    Returns:
        A 2-D array of the summed block shapes in the promoted dtype ((1, 0) for no blocks).

    Examples:
        >>> import padax
        >>> from padax.scipy import linalg
        >>> linalg.block_diag(padax.to_tensor([[1.0]]), padax.to_tensor([[2.0, 3.0], [4.0, 5.0]])).tolist()
        [[1.0, 0.0, 0.0], [0.0, 2.0, 3.0], [0.0, 4.0, 5.0]]
    """
    if not arrs:
        return pnp.zeros((1, 0))
    blocks = [pnp.atleast_2d(pnp.asarray(a)) for a in arrs]
    dt = pnp.result_type(*[b.dtype for b in blocks])
    rows = sum(b.shape[0] for b in blocks)
    cols = sum(b.shape[1] for b in blocks)
    out = pnp.zeros((rows, cols), dt)
    r = c = 0
    for b in blocks:
        out = out.at[r:r + b.shape[0], c:c + b.shape[1]].set(b.astype(dt))
        r, c = r + b.shape[0], c + b.shape[1]
    return out


def toeplitz(c: Any, r: Any = None) -> Any:
    """The Toeplitz matrix with first column c and first row r (default conj(c)).

    Args:
        c: the first column (flattened if not 1-D).
        r: the first row (its first entry is ignored); None means conj(c).

    Returns:
        A 2-D array of shape (len(c), len(r)).

    Examples:
        >>> import padax
        >>> from padax.scipy import linalg
        >>> linalg.toeplitz(padax.to_tensor([1, 2, 3]), padax.to_tensor([1, 4, 5])).tolist()  # first column, first row
        [[1, 4, 5], [2, 1, 4], [3, 2, 1]]
    """
    c = pnp.asarray(c).reshape(-1)
    r = pnp.conj(c) if r is None else pnp.asarray(r).reshape(-1)
    vals = pnp.concatenate([c[::-1], r[1:].astype(pnp.result_type(c.dtype, r.dtype))])
    i = np.arange(c.shape[0])[:, None]
    j = np.arange(r.shape[0])[None, :]
    return vals[c.shape[0] - 1 - i + j]


def circulant(c: Any) -> Any:
    """The circulant matrix with first column c.

    Args:
        c: the first column (flattened if not 1-D).

    Returns:
        A square 2-D array of shape (len(c), len(c)).

    Examples:
        >>> import padax
        >>> from padax.scipy import linalg
        >>> linalg.circulant(padax.to_tensor([1, 2, 3])).tolist()  # each column is the previous one rolled down
        [[1, 3, 2], [2, 1, 3], [3, 2, 1]]
    """
    c = pnp.asarray(c).reshape(-1)
    n = c.shape[0]
    idx = (np.arange(n)[:, None] - np.arange(n)[None, :]) % n
    return c[idx]
