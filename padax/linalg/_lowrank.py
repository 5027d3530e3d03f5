"""padax.linalg's randomized low-rank SVDs: svd_lowrank (subspace iteration, Halko, Martinsson, Tropp
2011) and pca_lowrank (centred columns). The test matrix is drawn from padax's global key, as Paddle
draws from its generator, so they are eager conveniences like `padax.rand`."""
from __future__ import annotations

from typing import Any

from padax import dtypes, lax
from padax.core.errors import op_value_error
from padax.functional.lax import linalg as _L
from padax.functional.math import subtract
from padax.functional.reduction import mean
from padax.linalg._helpers import _matrix, _mH, _mm


def _range_finder(a: Any, q: int, niter: int) -> Any:
    """An orthonormal basis (*, M, q) of a's dominant column space: a Gaussian test matrix, then `niter`
    subspace iterations, each re-orthonormalised."""
    from padax import randn  # startup time: padax.random loads on first use, not with padax.linalg
    *batch, m, n = a.aval.shape
    g = randn(tuple(batch) + (n, q), dtype=dtypes.finfo(a.aval.dtype).dtype)
    g = lax.convert_element_type(g, a.aval.dtype)
    qm = _L.qr(_mm(a, g), full_matrices=False)[0]
    for _ in range(niter):
        z = _L.qr(_mm(_mH(a), qm), full_matrices=False)[0]
        qm = _L.qr(_mm(a, z), full_matrices=False)[0]
    return qm


def svd_lowrank(x: Any, q: int | None = None, niter: int = 2, M: Any = None, name: str | None = None):
    """An approximate rank-q SVD (U, S, V) of x - M (V, not V^H: x - M ~= U diag(S) V^H) by randomized
    subspace iteration (Halko, Martinsson, Tropp 2011); q defaults to min(6, M, N). The random test
    matrix comes from padax's global key (see `padax.seed`).

    Args:
        x: a (batch of) matrix, shape (*, M, N).
        q: the rank to approximate; None means min(6, M, N).
        niter: number of subspace iterations (default 2).
        M: an optional array subtracted from x first (broadcastable to it).

    Returns:
        The tuple (U (*, M, q), S (*, q), V (*, N, q)).

    Examples:
        >>> import numpy as np, padax
        >>> _ = padax.seed(0)
        >>> x = padax.to_tensor(np.outer([1.0, 2.0, 3.0], [1.0, 0.0, 2.0]))    # rank 1
        >>> u, s, v = padax.linalg.svd_lowrank(x, q=1)
        >>> np.round(s.numpy(), 4).tolist(), np.allclose(u @ padax.diag(s) @ v.T, x, atol=1e-5)
        ([8.3666], True)
    """
    a = _matrix("svd_lowrank", x, square=False)
    if M is not None:
        a = subtract(a, M)
    m, n = a.aval.shape[-2:]
    q = min(6, m, n) if q is None else int(q)
    if not 0 < q <= min(m, n):
        raise op_value_error("linalg.svd_lowrank", f"q must be in [1, {min(m, n)}], got {q}")
    basis = _range_finder(a, q, int(niter))
    b = _mm(_mH(basis), a)  # (*, q, N)
    s, u, vh = _L.svd(b, full_matrices=False)
    return _mm(basis, u), s, _mH(vh)


def pca_lowrank(x: Any, q: int | None = None, center: bool = True, niter: int = 2, name: str | None = None):
    """svd_lowrank of x with each column's mean subtracted first (when `center`): (U, S, V), whose V holds
    the principal directions.

    Args:
        x: a (batch of) data matrix, shape (*, M, N), one observation per row.
        q: the rank to approximate; None means min(6, M, N).
        center: subtract each column's mean first (default True).
        niter: number of subspace iterations (default 2).

    Returns:
        The tuple (U (*, M, q), S (*, q), V (*, N, q)).

    Examples:
        >>> import numpy as np, padax
        >>> _ = padax.seed(0)
        >>> x = padax.to_tensor([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]])       # points on the line y = 2x
        >>> u, s, v = padax.linalg.pca_lowrank(x, q=1)
        >>> np.round(s.numpy(), 4).tolist(), np.round(np.abs(v.numpy()[:, 0]), 4).tolist()
        ([3.1623], [0.4472, 0.8944])
    """
    a = _matrix("pca_lowrank", x, square=False)
    m, n = a.aval.shape[-2:]
    q = min(6, m, n) if q is None else q
    if center:
        a = subtract(a, mean(a, axis=-2, keepdim=True))
    return svd_lowrank(a, q, niter)
