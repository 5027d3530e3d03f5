"""padax.linalg's matrix exponential: scaling and squaring with a degree-13 Pade approximant (Higham
2005), differentiated through the approximant and the squarings (exact Frechet derivatives)."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from padax import dtypes, lax
from padax.functional._arrays import full
from padax.functional.lax.control import cond, scan
from padax.linalg._helpers import _eye_like, _matrix, _mm
from padax.linalg._solve import solve

_PADE13 = (64764752532480000.0, 32382376266240000.0, 7771770303897600.0, 1187353796428800.0,
           129060195264000.0, 10559470521600.0, 670442572800.0, 33522128640.0, 1323241920.0, 40840800.0,
           960960.0, 16380.0, 182.0, 1.0)


_THETA13 = 5.371920351148152  # the 1-norm up to which Pade 13 is accurate in double precision


_MAX_SQUARINGS = 64            # 1-norms up to ~1e20; beyond, the squarings would lose all accuracy


def _expm_pade(a: Any) -> Any:
    """exp(a) by scaling and squaring: a / 2^s has 1-norm <= theta_13, then Pade 13, then s squarings."""
    dt = a.aval.dtype
    shape = a.aval.shape
    real = dtypes.finfo(dt).dtype if dtypes.is_complex(dt) else dt
    norm1 = lax.reduce_max(lax.reduce_sum(lax.abs(a), (a.aval.ndim - 2,)), (a.aval.ndim - 2,))
    s = lax.max(lax.ceil(lax.div(lax.log(lax.div(norm1, full(norm1.aval.shape, _THETA13, real))),
                                 full(norm1.aval.shape, math.log(2.0), real))), full(norm1.aval.shape, 0, real))
    s = lax.select(lax.is_finite(s), s, full(s.aval.shape, 0, real))
    scale = lax.convert_element_type(lax.exp2(lax.neg(s)), dt)
    a = lax.mul(a, lax.broadcast_in_dim(scale, shape, tuple(range(scale.aval.ndim))))
    eye = _eye_like(shape, dt)
    b = _PADE13
    a2 = _mm(a, a)
    a4 = _mm(a2, a2)
    a6 = _mm(a4, a2)

    def lin(*terms):
        out = None
        for coef, mat in terms:
            t = lax.mul(mat, full(shape, coef, dt))
            out = t if out is None else lax.add(out, t)
        return out

    u = _mm(a, lax.add(_mm(a6, lin((b[13], a6), (b[11], a4), (b[9], a2))),
                       lin((b[7], a6), (b[5], a4), (b[3], a2), (b[1], eye))))
    v = lax.add(_mm(a6, lin((b[12], a6), (b[10], a4), (b[8], a2))),
                lin((b[6], a6), (b[4], a4), (b[2], a2), (b[0], eye)))
    r = solve(lax.sub(v, u), lax.add(v, u))
    # undo the scaling with s squarings per matrix: a fixed-length scan whose steps past the
    # largest s are skipped by a cond, so reverse mode differentiates it (a loop with a traced
    # trip count would not be transposable); beyond _MAX_SQUARINGS the result is NaN
    sb = lax.broadcast_in_dim(lax.convert_element_type(s, np.int32), shape, tuple(range(s.aval.ndim)))
    steps = lax.reduce_max(lax.convert_element_type(s, np.int32), tuple(range(s.aval.ndim)))

    def square(r, i):  # square each matrix as many times as its own s says
        def step(r):
            return lax.select(lax.lt(full(shape, 0, np.int32) + i, sb), _mm(r, r), r)
        return cond(lax.lt(i, steps), step, lambda r: r, r), None

    r, _ = scan(square, r, lax.iota(np.int32, _MAX_SQUARINGS))
    too_big = lax.gt(sb, full(shape, _MAX_SQUARINGS, np.int32))
    return lax.select(too_big, full(shape, np.nan, dt), r)


def _expm(a: Any) -> Any:
    """exp(a); differentiated through the Pade approximant and the squarings (as jax does), which
    gives exact Frechet derivatives of the computed value in forward and reverse mode."""
    return _expm_pade(a)


def matrix_exp(x: Any, name: str | None = None) -> Any:
    """The matrix exponential exp(x) of a (batch of) square float or complex matrices.

    Args:
        x: a (batch of) square float or complex matrix, shape (*, M, M).

    Returns:
        exp(x), same shape and dtype.

    Examples:
        >>> import padax
        >>> padax.linalg.matrix_exp(padax.to_tensor([[0.0, 1.0], [0.0, 0.0]])).tolist()
        [[1.0, 1.0], [0.0, 1.0]]
        >>> padax.linalg.matrix_exp(padax.to_tensor([[1.0, 0.0], [0.0, 2.0]])).tolist()
        [[2.7183, 0.0], [0.0, 7.3891]]
    """
    x = _matrix("matrix_exp", x)
    if x.aval.shape[-1] == 0:
        return x
    return _expm(x)
