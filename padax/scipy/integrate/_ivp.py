"""scipy's `solve_ivp` on top of padax.ode.solve."""
from __future__ import annotations

import dataclasses
from typing import Any, Callable

import padax.numpy as pnp
from padax import ode, tree as tree_util
from padax.core.errors import op_value_error

_METHODS = {"RK45": "Dopri5", "RK23": "Bosh3", "DOP853": "Dopri8", "Radau": "Kvaerno5", "BDF": "Kvaerno5",
            "LSODA": "Kvaerno5", "Tsit5": "Tsit5"}


@dataclasses.dataclass
class OdeResult:
    """scipy's fields: t, y (shape (n, len(t)) as scipy), status (0 success, -1 failure,
    1 terminated by an event), success, nfev-like step counts, message, t_events.

    Args:
        t: the output times.
        y: the solution at those times, shape (n, len(t)) as scipy.
        status: 0 success, -1 failure, 1 terminated by an event.
        success: status >= 0.
        nsteps: the number of solver steps taken.
        t_events: the event time (NaN if it did not fire), or None without events.

    Examples:
        >>> import padax
        >>> from padax.scipy import integrate
        >>> sol = integrate.solve_ivp(lambda t, y: -2.0 * y, (0.0, 1.0), padax.to_tensor([1.0, 2.0]))
        >>> sol.t.tolist(), int(sol.status)  # without t_eval: the two ends of t_span
        ([0.0, 1.0], 0)
        >>> sol.y.tolist()  # exp(-2) * [1, 2] = [0.1353, 0.2707] within rtol=1e-3
        [[1.0, 0.1356], [2.0, 0.2711]]
    """

    t: Any
    y: Any
    status: Any
    success: Any
    nsteps: Any
    t_events: Any = None


tree_util.register_node(OdeResult, lambda r: ((r.t, r.y, r.status, r.success, r.nsteps, r.t_events), None),
                        lambda _, ch: OdeResult(*ch))


def solve_ivp(fun: Callable, t_span: Any, y0: Any, method: str = "RK45", t_eval: Any = None, args: tuple = (),
              rtol: float = 1e-3, atol: float = 1e-6, first_step: float | None = None, max_step: float | None = None,
              events: Callable | None = None, max_steps: int = 4096) -> OdeResult:
    """Solve dy/dt = fun(t, y, *args) over t_span = (t0, t1) (scipy's signature; y0 a 1-D
    array). Methods map to padax.ode solvers: RK45 -> Dopri5, RK23 -> Bosh3, DOP853 ->
    Dopri8, and the stiff Radau/BDF/LSODA -> the L-stable Kvaerno5. `events` is one
    terminating event function event(t, y, *args). Differentiable through the steps.

    Args:
        fun: the right-hand side fun(t, y, *args), returning an array like y.
        t_span: (t0, t1).
        y0: the initial state, a 1-D array (integers become float32).
        method: 'RK45' (default), 'RK23', 'DOP853', 'Radau', 'BDF', 'LSODA' or 'Tsit5'.
        t_eval: times at which to store the solution; None stores t0 and t1.
        args: extra arguments passed to fun (and events).
        rtol, atol: relative and absolute tolerances of the step-size controller.
        first_step: the initial step; None lets the solver choose.
        max_step: the largest step allowed; None means no limit.
        events: one terminating event function event(t, y, *args).
        max_steps: the step limit (padax's; a fixed bound so the loop can be compiled).

    Returns:
        An OdeResult.

    Examples:
        >>> import padax
        >>> from padax.scipy import integrate
        >>> sol = integrate.solve_ivp(lambda t, y: -y, (0.0, 1.0), padax.to_tensor([1.0]),
        ...                           t_eval=padax.to_tensor([0.5, 1.0]), rtol=1e-8, atol=1e-10)
        >>> sol.y.tolist(), bool(sol.success)  # exp(-0.5), exp(-1)
        ([[0.60653, 0.36788]], True)
    """
    if method not in _METHODS:
        raise op_value_error("padax.scipy.integrate.solve_ivp", f"method must be one of {sorted(_METHODS)}, got "
                                                                 f"{method!r}")
    solver = getattr(ode, _METHODS[method])()
    t0, t1 = t_span
    y0 = pnp.asarray(y0)
    if not pnp.issubdtype(y0.dtype, pnp.floating):
        y0 = y0.astype(pnp.float32)
    saveat = ode.SaveAt(ts=t_eval) if t_eval is not None else ode.SaveAt(t0=True, t1=True)
    event = None if events is None else ode.Event(lambda t, y, a: events(t, y, *a))
    sol = ode.solve(lambda t, y, a: fun(t, y, *a), solver, t0, t1, first_step, y0, tuple(args), saveat=saveat,
                    stepsize_controller=ode.PIDController(rtol=rtol, atol=atol, dtmax=max_step), event=event,
                    max_steps=max_steps)
    status = pnp.where(sol.result == 0, 0, pnp.where(sol.result == 4, 1, -1))
    t_events = None if events is None else pnp.where(sol.result == 4, sol.t1, pnp.nan)
    return OdeResult(t=sol.ts, y=pnp.moveaxis(sol.ys, 0, -1), status=status, success=status >= 0,
                     nsteps=sol.stats["num_steps"], t_events=t_events)
