"""jax.numpy's discrete calculus: trapezoid (integration), gradient (central differences) and unwrap
(phase jumps removed)."""
from __future__ import annotations

import builtins
import math
from typing import Any, Sequence

import padax.numpy as pnp
from padax import lax
from padax.core.errors import op_value_error
from padax.numpy._util import promote_inexact, to_array


def trapezoid(y: Any, x: Any = None, dx: Any = 1.0, axis: int = -1) -> Any:
    """Integral of y along `axis` by the trapezoidal rule (samples at x, or spaced dx apart).

    Args:
        y: the sampled values.
        x: the sample points (1-D along axis, or y's shape); None: spacing dx.
        dx: the spacing when x is None.
        axis: the axis to integrate over.

    Returns:
        A floating array without `axis`.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.trapezoid(pnp.array([1.0, 2.0, 3.0])).tolist(), pnp.trapezoid(pnp.array([1.0, 1.0]), dx=2.0).tolist()
        (4.0, 2.0)
    """
    if x is None:
        ya, d = promote_inexact(y, dx)
        ya = pnp.moveaxis(ya, axis, -1)
        return pnp.sum(ya[..., 1:] + ya[..., :-1], axis=-1) * 0.5 * d
    ya, xa = promote_inexact(y, x)
    ya = pnp.moveaxis(ya, axis, -1)
    d = pnp.diff(xa) if xa.ndim == 1 else pnp.diff(pnp.moveaxis(xa, axis, -1), axis=-1)
    return pnp.sum(d * (ya[..., 1:] + ya[..., :-1]), axis=-1) * 0.5


def _gradient_axis(f: Any, h: Any, ax: int) -> Any:
    n = f.shape[ax]
    if n < 2:
        raise op_value_error("gradient", f"each differentiated axis needs at least 2 samples, got {f.shape}")

    def sl(a, lo, hi):
        return lax.slice_in_dim(a, lo, hi, axis=ax)

    up = sl(f, 1, 2) - sl(f, 0, 1)
    low = sl(f, n - 1, n) - sl(f, n - 2, n - 1)
    if h.ndim == 0:
        inner = (sl(f, 2, n) - sl(f, 0, n - 2)) * 0.5 / h
        return pnp.concatenate([up / h, inner, low / h], axis=ax)
    shape = [1] * f.ndim
    shape[ax] = n
    hx = pnp.reshape(h, tuple(shape))
    up = up / (sl(hx, 1, 2) - sl(hx, 0, 1))
    low = low / (sl(hx, n - 1, n) - sl(hx, n - 2, n - 1))
    d1 = sl(hx, 1, n - 1) - sl(hx, 0, n - 2)
    d2 = sl(hx, 2, n) - sl(hx, 1, n - 1)
    inner = (-d2 / (d1 * (d1 + d2)) * sl(f, 0, n - 2) + (d2 - d1) / (d1 * d2) * sl(f, 1, n - 1)
             + d1 / (d2 * (d1 + d2)) * sl(f, 2, n))
    return pnp.concatenate([up, inner, low], axis=ax)


def gradient(f: Any, *varargs: Any, axis: int | Sequence[int] | None = None, edge_order: int | None = None) -> Any:
    """Numerical gradient of sampled f: central differences inside, one-sided (first order) at the edges.

    Args:
        f: the samples.
        varargs: the spacing: nothing (1), one scalar for all axes, or one scalar / 1-D coordinates per axis.
        axis: the axis or axes to differentiate along (None: all).
        edge_order: 1 (None) only, as jax.

    Returns:
        One array of f's shape for one axis, else a list of them.

    Examples:
        >>> import padax.numpy as pnp
        >>> pnp.gradient(pnp.array([1.0, 2.0, 4.0, 7.0])).tolist()
        [1.0, 1.5, 2.5, 3.0]
    """
    if edge_order not in (None, 1):
        raise op_value_error("gradient", f"only edge_order=1 is supported (as jax), got {edge_order}")
    (fa,) = promote_inexact(f)
    if axis is None:
        axes = tuple(builtins.range(fa.ndim))
    elif isinstance(axis, (list, tuple)):
        axes = tuple(builtins.int(a) % fa.ndim for a in axis)
    else:
        axes = (builtins.int(axis) % fa.ndim,)
    if len(varargs) == 0:
        hs = [pnp.ones((), fa.dtype)] * len(axes)
    elif len(varargs) == 1 and to_array(varargs[0]).ndim == 0:
        hs = [to_array(varargs[0], fa.dtype)] * len(axes)
    elif len(varargs) == len(axes):
        hs = [to_array(v, fa.dtype) for v in varargs]
    else:
        raise op_value_error("gradient", f"give one spacing, or one per axis ({len(axes)}), got {len(varargs)}")
    out = [_gradient_axis(fa, h, ax) for h, ax in zip(hs, axes)]
    return out[0] if len(out) == 1 else out


def unwrap(p: Any, discont: Any = None, axis: int = -1, period: Any = 2 * math.pi) -> Any:
    """Unwrap phases: shift jumps larger than discont by multiples of period so that p becomes continuous.

    Args:
        p: the phases.
        discont: the largest jump left alone (default and minimum: period / 2).
        axis: the axis along which to unwrap.
        period: the period of the phase (2 pi).

    Returns:
        A floating array of p's shape.

    Examples:
        >>> import padax.numpy as pnp
        >>> import numpy as np
        >>> np.round(pnp.unwrap(pnp.array([0.0, 4.0, 8.0])), 4).tolist()
        [0.0, -2.2832, -4.5664]
    """
    (pa,) = promote_inexact(p)
    per = to_array(period, pa.dtype)
    half = per / 2
    disc = half if discont is None else pnp.maximum(to_array(discont, pa.dtype), half)
    dd = pnp.diff(pa, axis=axis)
    ddmod = pnp.remainder(dd + half, per) - half
    ddmod = pnp.where(pnp.logical_and(pnp.equal(ddmod, -half), dd > 0), half, ddmod)
    corr = pnp.where(pnp.abs(dd) < disc, 0, ddmod - dd)
    ax = axis % pa.ndim
    n = pa.shape[ax]
    head = lax.slice_in_dim(pa, 0, 1, axis=ax)
    tail = lax.slice_in_dim(pa, 1, n, axis=ax) + pnp.cumsum(corr, axis=ax)
    return pnp.concatenate([head, tail], axis=ax)


__all__ = ["trapezoid", "gradient", "unwrap"]
