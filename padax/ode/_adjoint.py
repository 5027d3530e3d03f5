"""Continuous-adjoint (optimise-then-discretise) gradients of ODE solves, and jax's
`odeint` on top of them.

The forward solve is a custom_vjp whose backward pass integrates the adjoint system
  dy/dt = f(t, y, p),  da/dt = -a^T df/dy,  dp_bar/dt = -a^T df/dp
backwards through the saved times, restarting y from the saved forward states and adding
each saved state's cotangent to a. Memory does not grow with the number of steps.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

import padax.lax as lax
import padax.numpy as pnp
from padax import closure_convert, custom_vjp, dtypes, tree as tree_util, vjp, vmap
from padax.core.errors import op_value_error
from padax.core.trace import Tracer
from padax.flatten_util import ravel_pytree
from padax.functional._arrays import aval_of
from padax.ode import _config as C
from padax.ode._solve import flat_field, integrate_flat
from padax.ode._solvers import Dopri5


def _inexact(x: Any) -> bool:
    return dtypes.is_inexact(np.dtype(x.dtype)) if hasattr(x, "dtype") else isinstance(x, float)


def _flat_params(leaves: list, dt) -> tuple[Any, Callable]:
    """Inexact leaves concatenated into one vector of dtype dt, and the inverse."""
    idx = [i for i, x in enumerate(leaves) if _inexact(x)]
    shapes = [tuple(np.shape(leaves[i])) for i in idx]
    sizes = [int(np.prod(s)) for s in shapes]
    if not idx:
        return pnp.zeros((0,), dtype=dt), lambda v: [None] * len(leaves)
    vec = pnp.concatenate([pnp.asarray(leaves[i]).astype(dt).reshape(-1) for i in idx])

    def unflat(v):
        out = [None] * len(leaves)
        pos = 0
        for i, s, n in zip(idx, shapes, sizes):
            out[i] = v[pos:pos + n].reshape(s).astype(leaves[i].dtype)
            pos += n
        return out

    def set_params(v):
        new = list(leaves)
        for i, val in zip(idx, unflat(v)):
            if val is not None:
                new[i] = val
        return new
    unflat.set_params = set_params
    return vec, unflat


def _solve_times(field: Callable, y0: Any, args: Any, times: Any, solver, controller, dt0, max_steps):
    """custom_vjp solve of y' = field(t, y, args) through `times` (times[0] = t0); returns
    (states at times[1:] as (len-1, n) flat rows, info [status, steps, accepted, rejected],
    unravel)."""

    y_flat0, unravel, _ = flat_field(field, y0, args)
    dt = y_flat0.dtype
    # the custom_vjp's forward and backward rebuild the field from y0's structure only: a concrete stand-in,
    # since y0 itself may be a tracer of an outer transformation (grad with respect to y0)
    y0_like = tree_util.map(lambda x: np.zeros(np.shape(x), aval_of(x).dtype), y0)
    times = pnp.asarray(times, dtype=dt).reshape(-1)
    conv, consts = closure_convert(lambda t, y, a: field(t, y, a), times[0], y0, args)
    arg_leaves, arg_tree = tree_util.flatten((args, list(consts)))
    arg_leaves = [pnp.asarray(x) for x in arg_leaves]

    def rebuild(leaves):
        a, cs = arg_tree.unflatten(leaves)
        return a, cs

    def forward(y0_flat, tms, leaves):
        a, cs = rebuild(leaves)
        _, _, g = flat_field(lambda t, y, aa: conv(t, y, aa, *cs), y0_like, a)
        inner = tms[1:-1] if tms.shape[0] > 2 else None
        out, _, _ = integrate_flat(g, tms[0], tms[-1], y0_flat, inner, solver, controller, dt0, max_steps, "while")
        s = out["state"]
        info = pnp.stack([s[8], s[5], s[6], s[7]]).astype(dt)
        return out["saved"], info

    def primal(y0_flat, tms, leaves):
        return forward(y0_flat, tms, leaves)

    def fwd(y0_flat, tms, leaves):
        saved, info = forward(y0_flat, tms, leaves)
        return (saved, info), (saved, y0_flat, tms, leaves)

    def bwd(res, cts):
        saved, y0f, tms, leaves = res
        ct_saved = cts[0]
        n = y0f.shape[0]
        pvec, unflat = _flat_params(leaves, dt)
        npar = pvec.shape[0]

        def f_flat(t, y, pv):
            a, cs = rebuild(unflat.set_params(pv) if npar else leaves)
            _, _, g = flat_field(lambda tt, yy, aa: conv(tt, yy, aa, *cs), y0_like, a)
            return g(t, y)

        def aug(t, z):
            y, adj = z[:n], z[n:2 * n]
            fy, pull = vjp(lambda yy, pp: f_flat(t, yy, pp), y, pvec)
            gy, gp = pull(adj)
            return pnp.concatenate([fy, -gy, -gp])

        def interval(carry, inp):
            adj, pbar = carry
            t_hi, t_lo, y_hi, ct_hi = inp
            adj = adj + ct_hi
            t_ct = pnp.sum(ct_hi * f_flat(t_hi, y_hi, pvec))
            z0 = pnp.concatenate([y_hi, adj, pbar])
            out, _, _ = integrate_flat(aug, t_hi, t_lo, z0, None, solver, controller, dt0, max_steps, "while")
            z1 = out["state"][1]
            return (z1[n:2 * n], z1[2 * n:]), t_ct

        m = saved.shape[0]
        rev = pnp.arange(m - 1, -1, -1)
        xs = (tms[1:][rev], tms[:-1][rev], saved[rev], ct_saved[rev])
        (adj, pbar), t_cts = lax.scan(interval, (pnp.zeros((n,), dt), pnp.zeros((npar,), dt)), xs)
        t0_ct = -pnp.sum(adj * f_flat(tms[0], y0f, pvec))
        ct_times = pnp.concatenate([t0_ct.reshape(1), t_cts[::-1]])
        return adj, ct_times, unflat(pbar)

    fn = custom_vjp(primal)
    fn.defvjp(fwd, bwd)
    saved, info = fn(y_flat0, times, arg_leaves)
    return saved, info, unravel


def backsolve(field, y0, args, t0, t1, ts, solver, controller, dt0, max_steps):
    """The BacksolveAdjoint path of padax.ode.solve: (saved rows for ts + t1, state-like tuple)."""
    parts = [pnp.asarray(t0).reshape(1).astype("float64")]
    if ts is not None:
        parts.append(pnp.asarray(ts).reshape(-1).astype("float64"))
    parts.append(pnp.asarray(t1).reshape(1).astype("float64"))
    y_flat = tree_util.leaves(y0)
    dt = pnp.result_type(*[pnp.asarray(v).dtype for v in y_flat])
    times = pnp.concatenate([p.astype(dt) for p in parts])
    saved, info, _ = _solve_times(field, y0, args, times, solver, controller, dt0, max_steps)
    i = info.astype("int32")
    state = (None, saved[-1], None, None, None, i[1], i[2], i[3], i[0])
    return saved, state


def odeint(func: Callable, y0: Any, t: Any, *args: Any, rtol: float = 1.4e-8, atol: float = 1.4e-8,
           mxstep: float = np.inf, hmax: float = np.inf) -> Any:
    """States of dy/dt = func(y, t, *args) at the times t (jax.experimental.ode's signature):
    adaptive Dormand-Prince 5(4), reverse-mode gradients (for y0, t and args) by the adjoint
    method. Returns y0's pytree with a leading axis of len(t).

    Args:
        func: the vector field `func(y, t, *args)` (y a pytree).
        y0: the initial state (pytree).
        t: 1-D strictly monotonic array of times; t[0] is the initial time.
        *args: extra arguments of `func` (differentiable).
        rtol, atol: relative and absolute error tolerances.
        mxstep: most steps between two output times (inf: no limit).
        hmax: largest step size (inf: no limit).

    Returns:
        y0's pytree with a leading axis of len(t): the states at the times `t`.

    Examples:
        >>> import padax
        >>> from padax import ode
        >>> ys = ode.odeint(lambda y, t: -y, padax.to_tensor(1.0), padax.to_tensor([0.0, 0.5, 1.0]))
        >>> ys.tolist()  # exp(-t)
        [1.0, 0.60653, 0.36788]
    """
    tt = pnp.asarray(t)
    if tt.ndim != 1 or tt.shape[0] < 1:
        raise op_value_error("padax.ode.odeint", f"t must be a 1-D array of times, got shape {tuple(tt.shape)}")
    if not isinstance(t, Tracer):
        arr = np.asarray(t, dtype=np.float64)
        if arr.size > 1 and not (np.all(np.diff(arr) > 0) or np.all(np.diff(arr) < 0)):
            raise op_value_error("padax.ode.odeint", f"t must be strictly monotonic, got {arr.tolist()[:8]}")
    for name, v in (("rtol", rtol), ("atol", atol)):
        if not v > 0:
            raise op_value_error("padax.ode.odeint", f"{name} must be positive, got {v}")
    if tt.shape[0] == 1:
        return tree_util.map(lambda v: pnp.asarray(v)[None], y0)
    controller = C.PIDController(rtol=rtol, atol=atol, dtmax=None if hmax == np.inf else hmax)
    max_steps = None if mxstep == np.inf else int(mxstep)
    field = lambda s, y, a: func(y, s, *a)  # noqa: E731
    leaves = tree_util.leaves(y0)
    dt = pnp.result_type(*[pnp.asarray(v).dtype for v in leaves])
    if not dtypes.is_inexact(np.dtype(dt)):
        dt = pnp.float32
    y0 = tree_util.map(lambda v: pnp.asarray(v).astype(dt), y0)
    saved, info, unravel = _solve_times(field, y0, tuple(args), tt.astype(dt), Dopri5(), controller, None, max_steps)
    rows = pnp.concatenate([ravel_pytree(y0)[0][None], saved], axis=0)
    return vmap(unravel)(rows)
