"""Shared machinery of padax.scipy.special: argument promotion, compiled elementwise kernels,
Chebyshev and polynomial evaluation, and small numeric helpers used by several families."""
from __future__ import annotations

import functools
from typing import Any, Callable, Sequence

import numpy as np

from padax import dtypes, jit, lax, numpy as pnp
from padax.core.errors import op_type_error, op_value_error
from padax.functional._arrays import aval_of
from padax.numpy import _dtypes as D
from padax.numpy._util import promote_broadcast, static_int, to_array

EULER = 0.57721566490153286061
LOG_SQRT_2PI = 0.91893853320467274178  # log(sqrt(2 pi))
_LOW_PRECISION = (dtypes.float16, dtypes.bfloat16)


def inexact_args(op: str, *args: Any) -> list[Any]:
    """The arguments as arrays of one floating dtype and one shape (numpy/jax promotion;
    integers and bools become the default float). Complex inputs are rejected."""
    arrs = [to_array(a) if not _is_weak_scalar(a) else a for a in args]
    out = promote_broadcast(op, *arrs) if len(arrs) > 1 else [to_array(arrs[0])]
    dt = out[0].aval.dtype
    if dtypes.is_complex(dt):
        raise op_type_error(op, f"expected real arguments, got {', '.join(a.aval.str_short() for a in out)}")
    if not dtypes.is_floating(dt):
        out = [lax.convert_element_type(a, D.default_float()) for a in out]
    return out


def _is_weak_scalar(a: Any) -> bool:
    return isinstance(a, (bool, int, float)) and not isinstance(a, np.generic)


def elementwise(name: str, impl: Callable, static_argnums: Sequence[int] = ()) -> Callable:
    """A compiled elementwise kernel: `impl` runs on float32/float64 arrays of one shape;
    float16/bfloat16 arguments are computed in float32 and rounded back."""
    compiled = jit(impl, static_argnums=tuple(static_argnums))

    def run(*args):
        dt = next(aval_of(a).dtype for i, a in enumerate(args) if i not in static_argnums)
        if dt in _LOW_PRECISION:
            up = [a if i in static_argnums else lax.convert_element_type(a, dtypes.float32)
                  for i, a in enumerate(args)]
            out = compiled(*up)
            return tuple(lax.convert_element_type(o, dt) for o in out) if isinstance(out, tuple) else \
                lax.convert_element_type(out, dt)
        return compiled(*args)

    run.__name__ = name
    return run


def eps(x: Any) -> float:
    return float(np.finfo(aval_of(x).dtype).eps)


def full_like(x: Any, value: float) -> Any:
    """An array shaped and typed like x (an array, tracer or host value) filled with value."""
    a = aval_of(x)
    return pnp.full(a.shape, value, dtype=a.dtype)


def _trim(coeffs: Sequence[float], dtype: np.dtype) -> tuple[float, ...]:
    """Drop trailing coefficients below the dtype's resolution (relative to the largest)."""
    cut = np.finfo(dtype).eps * 0.05 * max(abs(c) for c in coeffs)
    n = len(coeffs)
    while n > 1 and abs(coeffs[n - 1]) < cut:
        n -= 1
    return tuple(coeffs[:n])


@functools.lru_cache(maxsize=None)
def _trimmed(coeffs: tuple[float, ...], dtype: np.dtype) -> tuple[float, ...]:
    return _trim(coeffs, dtype)


def chebyshev(t: Any, coeffs: Sequence[float]) -> Any:
    """sum_k c_k T_k(t) for t in [-1, 1] by Clenshaw's recurrence (numpy's coefficient convention)."""
    c = _trimmed(tuple(coeffs), t.aval.dtype)
    t2 = t + t
    b1 = full_like(t, c[-1])
    b2 = full_like(t, 0.0)
    for ck in c[-2:0:-1]:
        b1, b2 = t2 * b1 - b2 + ck, b1
    return t * b1 - b2 + c[0]


def polyval(coeffs: Sequence[float], x: Any) -> Any:
    """sum_k coeffs[k] x**k by Horner's rule (coefficients in increasing order)."""
    acc = full_like(x, coeffs[-1])
    for c in coeffs[-2::-1]:
        acc = acc * x + c
    return acc


def stirling_correction(x: Any) -> Any:
    """lgamma(x) - ((x - 1/2) log x - x + log sqrt(2 pi)) for x >= 10 (the Stirling series)."""
    r = 1.0 / x
    r2 = r * r
    # Bernoulli numbers B_2k / (2k (2k - 1)), k = 1..8: enough for 1e-17 at x = 10
    series = (1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188, -691 / 360360, 1 / 156, -3617 / 122400)
    return r * polyval(series, r2)


def log1pmx(d: Any) -> Any:
    """log(1 + d) - d, accurate for small |d| (a series in s = d / (2 + d) for |d| < 0.5)."""
    s = d / (2.0 + d)
    s2 = s * s
    # log1p(d) = 2 atanh(s) = 2 (s + s^3/3 + ...), d = 2 s / (1 - s): the difference starts at -2s^2/(1-s)
    odd = polyval(tuple(2.0 / (2 * k + 3) for k in range(14)), s2) * s2 * s   # 2 s^3/3 + 2 s^5/5 + ...
    small = odd - 2.0 * s2 / (1.0 - s)
    safe = pnp.where(pnp.abs(d) < 0.5, 0.0, d)
    return pnp.where(pnp.abs(d) < 0.5, small, pnp.log1p(safe) - safe)


def while_loop(cond: Callable, body: Callable, init: Any) -> Any:
    return lax.while_loop(cond, body, init)


def any_true(mask: Any) -> Any:
    return lax.reduce_or(mask, tuple(range(mask.aval.ndim)))


def static_order(op: str, n: Any) -> int:
    """A non-negative Python int order (Legendre degrees and the like)."""
    v = static_int(op, n, "the order")
    if v < 0:
        raise op_value_error(op, f"the order must be non-negative, got {v}")
    return v


__all__ = ["inexact_args", "elementwise", "chebyshev", "polyval", "stirling_correction", "log1pmx"]
