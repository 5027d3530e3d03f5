"""`padax.scipy.spatial.distance`: pairwise distances (cdist, pdist-free) with scipy's metric
names; gradients stay finite where two points coincide."""
from __future__ import annotations

from typing import Any

import padax.numpy as pnp
from padax.core.errors import op_value_error

_METRICS = ("euclidean", "sqeuclidean", "cityblock", "chebyshev", "minkowski", "cosine", "correlation",
            "braycurtis", "canberra")


def _safe_sqrt(s):
    pos = s > 0
    return pnp.where(pos, pnp.sqrt(pnp.where(pos, s, 1.0)), 0.0)


def cdist(XA: Any, XB: Any, metric: str = "euclidean", *, p: float = 2.0) -> Any:
    """Distances between each row of XA (m, d) and each row of XB (n, d): an (m, n) array."""
    op = "padax.scipy.spatial.distance.cdist"
    A, B = pnp.asarray(XA), pnp.asarray(XB)
    if A.ndim != 2 or B.ndim != 2 or A.shape[1] != B.shape[1]:
        raise op_value_error(op, f"XA and XB must be 2-D with the same number of columns, got {tuple(A.shape)} "
                                 f"and {tuple(B.shape)}")
    if metric not in _METRICS:
        raise op_value_error(op, f"metric must be one of {_METRICS}, got {metric!r}")
    dt = pnp.result_type(A.dtype, B.dtype, pnp.float32)
    A, B = A.astype(dt), B.astype(dt)
    diff = A[:, None, :] - B[None, :, :]
    if metric == "sqeuclidean":
        return pnp.sum(diff * diff, axis=-1)
    if metric == "euclidean":
        return _safe_sqrt(pnp.sum(diff * diff, axis=-1))
    if metric == "cityblock":
        return pnp.sum(pnp.abs(diff), axis=-1)
    if metric == "chebyshev":
        return pnp.max(pnp.abs(diff), axis=-1)
    if metric == "minkowski":
        s = pnp.sum(pnp.abs(diff) ** p, axis=-1)
        pos = s > 0
        return pnp.where(pos, pnp.where(pos, s, 1.0) ** (1.0 / p), 0.0)
    if metric == "braycurtis":
        return pnp.sum(pnp.abs(diff), axis=-1) / pnp.sum(pnp.abs(A[:, None, :] + B[None, :, :]), axis=-1)
    if metric == "canberra":
        den = pnp.abs(A[:, None, :]) + pnp.abs(B[None, :, :])
        return pnp.sum(pnp.where(den > 0, pnp.abs(diff) / pnp.where(den > 0, den, 1.0), 0.0), axis=-1)
    if metric == "correlation":
        A = A - pnp.mean(A, axis=1, keepdims=True)
        B = B - pnp.mean(B, axis=1, keepdims=True)
    na = _safe_sqrt(pnp.sum(A * A, axis=1))
    nb = _safe_sqrt(pnp.sum(B * B, axis=1))
    return 1.0 - (A @ B.T) / (na[:, None] * nb[None, :])
