"""Fractional max pooling (Graham, 2015) with Paddle's window rule.

Per spatial axis of size n pooled to m with one random u in (0, 1) for every axis, window i
starts at floor(alpha (i + u)) - floor(alpha u). Without kernel_size the windows tile the axis:
alpha = n / m, u is first scaled into the range that keeps every window inside the input, and
the last window ends at n. With kernel_size k the windows overlap: alpha = (n - k) / (m - 1),
each is k long and the last one ends at n. The arithmetic is float32, as in Paddle's kernel, so
the window edges agree exactly. The windows are static (u is a Python float), and the max over
them is the adaptive pools' gather.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from padax.core.errors import op_value_error
from padax.nn.functional._util import static_ints
from padax.nn.functional.pooling import pool_input
from padax.nn.functional.pooling_adaptive import window_max
from padax.random import _samplers, _state as _global_rng

_f32 = np.float32


def _scaled_u(u: float, alpha: np.float32, n: int, m: int, k: int) -> np.float32:
    """u rescaled so that the disjoint windows stay inside the input (overlapping ones keep u)."""
    if k > 0:
        return _f32(u)
    base = n // m
    u_max1 = _f32(base + 2) / alpha - _f32(1)
    u_max2 = _f32(n + 1 - base) / alpha - _f32(m - 1)
    return _f32(u) * min(u_max1, u_max2)


def fractional_bounds(n: int, m: int, k: int, u: float) -> tuple[np.ndarray, np.ndarray]:
    """Start and end (exclusive) of the m windows over an axis of n; k = 0 for disjoint windows."""
    alpha = _f32(n - k) / _f32(m - (1 if k > 0 else 0))
    su = _scaled_u(u, alpha, n, m, k)
    i = np.arange(m + 1, dtype=_f32)
    edge = (np.floor(alpha * (i + su)) - np.floor(alpha * su)).astype(np.int64)  # the sequence starts at 0
    if k > 0:
        lo = np.append(edge[:m - 1], n - k)  # the last window ends at the input's end
        return lo, lo + k
    return edge[:m], np.append(edge[1:m], n)


def _random_u(op: str, random_u: Any) -> float:
    if random_u is None:  # Paddle draws u from its global generator: ours is padax.seed's key
        _global_rng._check_eager(f"nn.functional.{op} without random_u")
        u = float(np.asarray(_samplers.uniform(_global_rng.next_key(op), (), np.float32, 0.0, 1.0)))
        return min(max(u, 1e-6), 1 - 1e-6)
    u = float(random_u)
    if not 0 < u < 1:
        raise op_value_error(op, f"random_u must be a float in (0, 1), got {random_u!r}")
    return u


def _fractional_max(op: str, nsp: int, x: Any, output_size: Any, kernel_size: Any, random_u: Any,
                    return_mask: bool) -> Any:
    x = pool_input(op, x, nsp)
    sizes = x.aval.shape[2:]
    if isinstance(output_size, (list, tuple)):
        if len(output_size) != nsp:
            raise op_value_error(op, f"output_size {list(output_size)} needs {nsp} entries")
        out = tuple(n if o is None else int(o) for n, o in zip(sizes, output_size))
    else:
        out = static_ints(op, output_size, nsp, "output_size")
    k = (0,) * nsp if kernel_size is None else static_ints(op, kernel_size, nsp, "kernel_size", minimum=1)
    bad = [(n, m, kk) for n, m, kk in zip(sizes, out, k) if m < 1 or (kk > 0 and m < 2) or n < m - 1 + kk]
    if bad:
        raise op_value_error(op, f"input size {list(sizes)} cannot be pooled to output_size {list(out)} with "
                                 f"kernel_size {list(k) if kernel_size is not None else None}: each input size must "
                                 "be at least output_size - 1 + kernel_size")
    u = _random_u(op, random_u)
    return window_max(x, [fractional_bounds(n, m, kk, u) for n, m, kk in zip(sizes, out, k)], return_mask)


def fractional_max_pool2d(x: Any, output_size: Any, kernel_size: Any = None, random_u: float | None = None,
                          return_mask: bool = False, name: str | None = None) -> Any:
    """Fractional max pooling of x [N, C, H, W] to output_size; return_mask adds flat H*W argmax indices.
    random_u in (0, 1) fixes the window sequence (None draws it from padax.seed's global key).

    Args:
        x: a float Tensor [N, C, H, W].
        output_size: an int or 2 ints (None keeps that axis's size).
        kernel_size: None for disjoint windows tiling each axis, or an int / 2 ints
            for overlapping windows of that size.
        random_u: a float in (0, 1) fixing the window sequence; None draws it from padax's global key.
        return_mask: also return the int32 flat spatial index of each maximum.

    Returns:
        The pooled Tensor of x's dtype; with return_mask, (pooled, mask).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.arange(25, dtype="float32").reshape([1, 1, 5, 5])
        >>> F.fractional_max_pool2d(x, output_size=2, random_u=0.5).tolist()
        [[[[12.0, 14.0], [22.0, 24.0]]]]
        >>> F.fractional_max_pool2d(x, output_size=3, kernel_size=2, random_u=0.3).shape
        (1, 1, 3, 3)
    """
    return _fractional_max("fractional_max_pool2d", 2, x, output_size, kernel_size, random_u, return_mask)


def fractional_max_pool3d(x: Any, output_size: Any, kernel_size: Any = None, random_u: float | None = None,
                          return_mask: bool = False, name: str | None = None) -> Any:
    """Fractional max pooling of x [N, C, D, H, W] to output_size; the mask holds flat D*H*W indices.

    Args:
        x: a float Tensor [N, C, D, H, W].
        output_size: an int or 3 ints (None keeps that axis's size).
        kernel_size: None for disjoint windows tiling each axis, or an int / 3 ints
            for overlapping windows of that size.
        random_u: a float in (0, 1) fixing the window sequence; None draws it from padax's global key.
        return_mask: also return the int32 flat spatial index of each maximum.

    Returns:
        The pooled Tensor of x's dtype; with return_mask, (pooled, mask).

    Examples:
        >>> import padax
        >>> import padax.nn.functional as F
        >>> x = padax.arange(27, dtype="float32").reshape([1, 1, 3, 3, 3])
        >>> out, mask = F.fractional_max_pool3d(x, output_size=2, random_u=0.5, return_mask=True)
        >>> out.reshape([-1]).tolist(), mask.shape
        ([13.0, 14.0, 16.0, 17.0, 22.0, 23.0, 25.0, 26.0], (1, 1, 2, 2, 2))
    """
    return _fractional_max("fractional_max_pool3d", 3, x, output_size, kernel_size, random_u, return_mask)
