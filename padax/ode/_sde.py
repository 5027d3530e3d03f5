"""Stochastic differential equations dy = f(t, y) dt + g(t, y) dW with diagonal noise:
Euler-Maruyama (strong order 1/2) and Milstein (strong order 1), fixed steps, driven by a
Brownian path sampled from padax.random; differentiable in y0 and args (pathwise)."""
from __future__ import annotations

from typing import Any, Callable

import padax.lax as lax
import padax.numpy as pnp
import padax.random as pr
from padax import jvp
from padax.core.errors import op_value_error


def brownian_increments(key: Any, t0: float, t1: float, num_steps: int, shape: tuple, dtype: Any = None) -> Any:
    """Increments dW of a standard Brownian motion on num_steps equal steps of [t0, t1]:
    an array of shape (num_steps, *shape), each entry N(0, (t1 - t0) / num_steps).

    Args:
        key: a padax.random key.
        t0, t1: the time interval.
        num_steps: number of equal steps.
        shape: the shape of one increment.
        dtype: a float dtype (default: the default float dtype).

    Returns:
        An array (num_steps, *shape) of increments, each N(0, (t1 - t0) / num_steps).

    Examples:
        >>> import padax
        >>> from padax import ode
        >>> dW = ode.brownian_increments(padax.random.key(0), 0.0, 1.0, 1000, (2,))
        >>> dW.shape  # each entry N(0, 1 / 1000)
        (1000, 2)
        >>> [round(v, 1) for v in (dW ** 2).sum(0).tolist()]  # the quadratic variation is about t1 - t0
        [1.0, 1.0]
    """
    dt = (t1 - t0) / num_steps
    z = pr.normal(key, (num_steps,) + tuple(shape), dtype=dtype) if dtype is not None \
        else pr.normal(key, (num_steps,) + tuple(shape))
    return z * pnp.sqrt(pnp.abs(pnp.asarray(dt, dtype=z.dtype)))


def sdeint(drift: Callable, diffusion: Callable, y0: Any, t0: float, t1: float, num_steps: int, key: Any = None,
           args: Any = None, *, method: str = "euler_maruyama", dW: Any = None) -> tuple[Any, Any]:
    """Solve dy = drift(t, y, args) dt + diffusion(t, y, args) * dW (elementwise, diagonal
    noise) on num_steps equal steps. Give a padax.random key (or the increments dW
    yourself). Returns (ts of shape (num_steps + 1,), ys of shape (num_steps + 1, *y0.shape)).

    Args:
        drift: `drift(t, y, args)`.
        diffusion: `diffusion(t, y, args)`, multiplied elementwise with dW (diagonal noise).
        y0: the initial state (an array).
        t0, t1: the time interval.
        num_steps: number of equal steps.
        key: a padax.random key for the Brownian increments (not needed when `dW` is given).
        args: passed to drift and diffusion.
        method: 'euler_maruyama' or 'milstein'.
        dW: the increments yourself, shape (num_steps, *y0.shape).

    Returns:
        A tuple (ts of shape (num_steps + 1,), ys of shape (num_steps + 1, *y0.shape)).

    Examples:
        >>> import padax
        >>> from padax import ode
        >>> dW = ode.brownian_increments(padax.random.key(0), 0.0, 1.0, 100, (1,))
        >>> ts, ys = ode.sdeint(lambda t, y, a: 0.0 * y, lambda t, y, a: 1.0 + 0.0 * y, padax.to_tensor([0.0]),
        ...                     0.0, 1.0, 100, dW=dW)  # dy = dW: y(1) is the Brownian motion's end point
        >>> ts.shape, ys.shape, bool(padax.allclose(ys[-1], dW.sum(0), atol=1e-6))
        ((101,), (101, 1), True)
    """
    op = "padax.ode.sdeint"
    if method not in ("euler_maruyama", "milstein"):
        raise op_value_error(op, f"method must be 'euler_maruyama' or 'milstein', got {method!r}")
    if not isinstance(num_steps, int) or num_steps < 1:
        raise op_value_error(op, f"num_steps must be a positive int, got {num_steps!r}")
    y0 = pnp.asarray(y0)
    if not pnp.issubdtype(y0.dtype, pnp.floating):
        y0 = y0.astype(pnp.float32)
    if dW is None:
        if key is None:
            raise op_value_error(op, "give a padax.random key (or the Brownian increments dW)")
        dW = brownian_increments(key, t0, t1, num_steps, y0.shape, y0.dtype)
    dW = pnp.asarray(dW, dtype=y0.dtype)
    if tuple(dW.shape) != (num_steps,) + tuple(y0.shape):
        raise op_value_error(op, f"dW must have shape {(num_steps,) + tuple(y0.shape)}, got {tuple(dW.shape)}")
    h = (t1 - t0) / num_steps
    ts = t0 + h * pnp.arange(num_steps + 1, dtype=y0.dtype)

    def step(y, inp):
        t, dw = inp
        f = drift(t, y, args)
        g = diffusion(t, y, args)
        y_new = y + f * h + g * dw
        if method == "milstein":
            # d g_i / d y_i along the diffusion: (dg/dy . g)_i is exact for diagonal noise
            _, gdg = jvp(lambda yy: diffusion(t, yy, args), (y,), (g,))
            y_new = y_new + 0.5 * gdg * (dw * dw - h)
        return y_new, y_new

    _, ys = lax.scan(step, y0, (ts[:-1], dW))
    return ts, pnp.concatenate([y0[None], ys], axis=0)
