"""`padax.ode.solve`: diffrax-style ODE solving on pytrees, with dense output, events and
two ways of differentiating (through the steps, or by the continuous adjoint)."""
from __future__ import annotations

import dataclasses
from typing import Any, Callable

import numpy as np

import padax
import padax.numpy as pnp
from padax import tree as tree_util, vmap
from padax.core.errors import op_type_error, op_value_error
from padax.core.trace import Tracer
from padax.flatten_util import ravel_pytree
from padax.ode import _config as C, _engine as E
from padax.ode._solvers import AbstractSolver

_OP = "padax.ode.solve"


@dataclasses.dataclass
class Solution:
    """The result of `solve`: `ts`/`ys` (saved times and states, leading axis = time; times
    a solve did not reach, e.g. after an event, hold inf), `stats` (num_steps,
    num_accepted_steps, num_rejected_steps), `result` (0 success, 1 max steps reached,
    2 step size underflow, 3 NaN in the vector field, 4 event) and `message`;
    `evaluate(t)` interpolates (with SaveAt(dense=True)).

    Args:
        ts, ys: saved times and states (leading axis = time; unreached times hold inf).
        stats: {'num_steps', 'num_accepted_steps', 'num_rejected_steps'}.
        result: 0 success, 1 max steps reached, 2 step size underflow, 3 NaN in the vector field, 4 event.
        direction, dense_segments, unravel: internal state for `evaluate` (dense output).

    Returns:
        The solution (made by `solve`; a pytree).

    Examples:
        >>> import padax
        >>> from padax import ode
        >>> term = ode.ODETerm(lambda t, y, args: -y)
        >>> sol = ode.solve(term, ode.Dopri5(), 0.0, 1.0, 0.1, padax.to_tensor(1.0), saveat=ode.SaveAt(t1=True, dense=True))
        >>> int(sol.result), sol.message, round(float(sol.ys[0]), 4)
        (0, 'successful', 0.3679)
        >>> round(float(sol.evaluate(0.5)), 4)  # the dense interpolant: exp(-0.5)
        0.6065
    """

    t0: Any
    t1: Any
    ts: Any
    ys: Any
    stats: dict
    result: Any
    direction: Any = None
    dense_segments: Any = None
    unravel: Callable | None = None

    @property
    def message(self) -> str:
        return C.MESSAGES[int(np.asarray(self.result))]

    def evaluate(self, t: Any) -> Any:
        """The state at time(s) t from the dense output (cubic Hermite on each step)."""
        if self.dense_segments is None:
            raise op_value_error("Solution.evaluate", "the solve was not asked for dense output: pass "
                                                      "saveat=padax.ode.SaveAt(dense=True)")
        a, b, ya, yb, fa, fb = self.dense_segments
        tt = pnp.asarray(t, dtype=a.dtype)
        tau = tt * self.direction
        idx = pnp.clip(pnp.searchsorted(b, tau.reshape(-1)), 0, b.shape[0] - 1)
        h = b[idx] - a[idx]
        theta = pnp.where(h > 0, (tau.reshape(-1) - a[idx]) / pnp.where(h > 0, h, 1.0), 0.0)
        out = E.hermite(theta[:, None], h[:, None], ya[idx], yb[idx], fa[idx] * self.direction,
                        fb[idx] * self.direction)
        out = out.reshape(tt.shape + (ya.shape[-1],))
        if tt.ndim == 0:
            return self.unravel(out)
        return vmap(self.unravel)(out)


_FIELDS = ("t0", "t1", "ts", "ys", "stats", "result", "direction", "dense_segments")
tree_util.register_node(Solution, lambda s: (tuple(getattr(s, f) for f in _FIELDS), s.unravel),
                        lambda unravel, ch: Solution(*ch, unravel=unravel))


def _is_concrete(x: Any) -> bool:
    return not isinstance(x, Tracer)


def _check_times(t0, t1, ts, dt0) -> None:
    if not all(_is_concrete(v) for v in (t0, t1)):
        return
    t0f, t1f = float(np.asarray(t0)), float(np.asarray(t1))
    d = 1.0 if t1f >= t0f else -1.0
    if dt0 is not None and _is_concrete(dt0) and float(np.asarray(dt0)) * d <= 0 and t0f != t1f:
        raise op_value_error(_OP, f"dt0={float(np.asarray(dt0))} must be nonzero and have the sign of t1 - t0 "
                                  f"(t0={t0f}, t1={t1f})")
    if ts is not None and _is_concrete(ts):
        arr = np.asarray(ts, dtype=np.float64).reshape(-1)
        if arr.size and (np.any(np.diff(arr) * d < 0) or (arr[0] - t0f) * d < 0 or (t1f - arr[-1]) * d < 0):
            raise op_value_error(_OP, f"saveat.ts must be monotonic in the direction of integration and lie "
                                      f"within [t0, t1] = [{t0f}, {t1f}]; got {arr.tolist()[:8]}")


def flat_field(vector_field: Callable, y0: Any, args: Any, op: str = _OP):
    """(y0 as a flat vector, unravel, g(t, yflat) -> flat dy/dt) with a structure check."""
    y_flat, unravel = ravel_pytree(y0)
    y_tree = tree_util.structure(y0)

    def g(t, yf):
        out = vector_field(t, unravel(yf), args)
        o_tree = tree_util.structure(out)
        if o_tree != y_tree:
            raise op_type_error(op, f"the vector field returned a pytree {o_tree}, but y0 is {y_tree}")
        for a, b in zip(tree_util.leaves(out), tree_util.leaves(y0)):
            if tuple(a.shape) != tuple(np.shape(b)):
                raise op_type_error(op, f"the vector field returned shape {tuple(a.shape)} for a state of "
                                        f"shape {tuple(np.shape(b))}")
        return ravel_pytree(out)[0].astype(yf.dtype)
    return y_flat, unravel, g


def integrate_flat(g: Callable, t0: Any, t1: Any, y0: Any, ts: Any, solver: AbstractSolver, controller: Any,
                   dt0: Any, max_steps: int | None, driver: str, dense: bool = False,
                   event_fn: Callable | None = None) -> tuple[dict, Any, Any]:
    """Solve y' = g(t, y) for flat y from t0 to t1, stopping at the times ts (+ t1).
    Returns (engine output, direction, targets in internal time)."""
    dt = y0.dtype
    t0 = pnp.asarray(t0, dtype=dt)
    t1 = pnp.asarray(t1, dtype=dt)
    d = pnp.where(t1 >= t0, 1.0, -1.0).astype(dt)
    if _is_concrete(t0) and _is_concrete(t1):
        d = 1.0 if float(t1) >= float(t0) else -1.0

    def gi(tau, y):
        return d * g(d * tau, y)
    ev = None if event_fn is None else (lambda tau, y: event_fn(d * tau, y))
    targets = (t1 * d).reshape(1) if ts is None else pnp.concatenate([pnp.asarray(ts, dtype=dt).reshape(-1) * d,
                                                                       (t1 * d).reshape(1)])
    p = E.Problem(gi, solver, controller, targets, max_steps, ev, dense)
    h0 = None if dt0 is None else pnp.abs(pnp.asarray(dt0, dtype=dt))
    state = E.init_state(p, t0 * d, y0, h0)
    out = (E.run_scan if driver == "scan" else E.run_while)(p, state)
    return out, d, targets


def _check_solver(solver: Any, controller: Any, dt0: Any) -> None:
    if not isinstance(solver, AbstractSolver):
        raise op_type_error(_OP, f"solver must be a padax.ode solver such as padax.ode.Dopri5(), got "
                                 f"{type(solver).__name__}")
    if isinstance(controller, C.PIDController):
        if solver.error_order is None:
            raise op_value_error(_OP, f"{solver!r} has no error estimate; use stepsize_controller="
                                      f"padax.ode.ConstantStepSize()")
    elif isinstance(controller, C.ConstantStepSize):
        if dt0 is None:
            raise op_value_error(_OP, "ConstantStepSize needs dt0")
    else:
        raise op_type_error(_OP, f"stepsize_controller must be ConstantStepSize() or PIDController(...), got "
                                 f"{type(controller).__name__}")


def solve(terms: Any, solver: AbstractSolver, t0: Any, t1: Any, dt0: Any, y0: Any, args: Any = None, *,
          saveat: C.SaveAt = C.SaveAt(t1=True), stepsize_controller: Any = C.ConstantStepSize(),
          adjoint: Any = C.DirectAdjoint(), event: C.Event | None = None,
          max_steps: int | None = 4096) -> Solution:
    """Solve dy/dt = terms.vector_field(t, y, args) from t0 to t1 (diffrax's signature).

    y0 and the vector field's output are matching pytrees. Runs under jit/vmap; reverse
    mode differentiates through the steps (DirectAdjoint, needs a finite max_steps) or by
    the continuous adjoint (BacksolveAdjoint: SaveAt t0/t1/ts only, no events).

    Args:
        terms: an ODETerm, or a function f(t, y, args).
        solver: a solver instance (Dopri5(), Tsit5(), Kvaerno5(), ...).
        t0, t1: start and end times.
        dt0: the first step size (None lets an adaptive controller choose).
        y0: the initial state (pytree).
        args: passed to the vector field.
        saveat: which times to save (SaveAt).
        stepsize_controller: ConstantStepSize() or PIDController(rtol, atol, ...).
        adjoint: DirectAdjoint() (differentiate through the steps) or BacksolveAdjoint() (continuous adjoint).
        event: an Event that ends the solve early.
        max_steps: most steps (None only without DirectAdjoint or dense output).

    Returns:
        A `Solution` (ts, ys, stats, result, evaluate).

    Examples:
        >>> import padax
        >>> from padax import ode
        >>> term = ode.ODETerm(lambda t, y, args: -y)
        >>> sol = ode.solve(term, ode.Dopri5(), 0.0, 1.0, 0.1, padax.to_tensor(1.0),
        ...                 stepsize_controller=ode.PIDController(rtol=1e-6, atol=1e-8))
        >>> round(float(sol.ys[0]), 4)  # y(1) = exp(-1)
        0.3679
    """
    field = terms.vector_field if isinstance(terms, C.ODETerm) else terms
    if not callable(field):
        raise op_type_error(_OP, f"terms must be a padax.ode.ODETerm or a function f(t, y, args), got "
                                 f"{type(terms).__name__}")
    _check_solver(solver, stepsize_controller, dt0)
    _check_times(t0, t1, saveat.ts, dt0)
    if isinstance(adjoint, C.DirectAdjoint) and max_steps is None:
        raise op_value_error(_OP, "DirectAdjoint differentiates through a loop of max_steps steps; give an int "
                                  "max_steps (or use BacksolveAdjoint())")
    if saveat.dense and max_steps is None:
        raise op_value_error(_OP, "dense output keeps every step: give an int max_steps")
    y_flat, unravel, g = flat_field(field, y0, args)
    n_ts = 0 if saveat.ts is None else int(np.size(np.shape(saveat.ts)) and np.shape(saveat.ts)[0])
    if isinstance(adjoint, C.BacksolveAdjoint):
        if saveat.dense or event is not None:
            raise op_value_error(_OP, "BacksolveAdjoint supports SaveAt(t0/t1/ts) without dense output or events")
        # read at call time: padax.ode._adjoint imports this module
        saved, state = padax.ode._adjoint.backsolve(field, y0, args, t0, t1, saveat.ts, solver, stepsize_controller,
                                                     dt0, max_steps)
        d = None
        dense = None
    else:
        ev = None
        if event is not None:
            ev = lambda t, yf: event.cond_fn(t, unravel(yf), args)  # noqa: E731
        out, d, _ = integrate_flat(g, t0, t1, y_flat, saveat.ts, solver, stepsize_controller, dt0, max_steps,
                                   "scan", saveat.dense, ev)
        saved, state = out["saved"], out["state"]
        dense = out["dense"] if saveat.dense else None
    return _assemble(saveat, t0, t1, y_flat, unravel, saved, state, n_ts, d, dense)


def _assemble(saveat, t0, t1, y_flat, unravel, saved, state, n_ts, d, dense) -> Solution:
    dt = y_flat.dtype
    status = state[8]
    t_end = state[0] * (d if d is not None else 1.0) if d is not None else pnp.asarray(t1, dtype=dt)
    ts_parts, ys_parts = [], []
    if saveat.t0:
        ts_parts.append(pnp.asarray(t0, dtype=dt).reshape(1))
        ys_parts.append(y_flat[None])
    if saveat.ts is not None:
        ts = pnp.asarray(saveat.ts, dtype=dt).reshape(-1)
        reached = pnp.all(pnp.isfinite(saved[:n_ts]), axis=1)
        ts_parts.append(pnp.where(reached, ts, np.inf))
        ys_parts.append(saved[:n_ts])
    if saveat.t1:
        ts_parts.append(t_end.reshape(1))
        ys_parts.append(state[1][None])
    ts_all = pnp.concatenate(ts_parts) if ts_parts else None
    ys_all = vmap(unravel)(pnp.concatenate(ys_parts, axis=0)) if ys_parts else None
    stats = {"num_steps": state[5], "num_accepted_steps": state[6], "num_rejected_steps": state[7]}
    d = pnp.asarray(1.0 if d is None else d, dtype=dt)
    return Solution(t0=pnp.asarray(t0, dtype=dt), t1=t_end, ts=ts_all, ys=ys_all, stats=stats, result=status, direction=d,
                    dense_segments=dense, unravel=unravel)
