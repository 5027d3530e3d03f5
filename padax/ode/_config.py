"""Configuration objects of padax.ode.solve: terms, what to save, step-size control,
how to differentiate, events, and the result codes."""
from __future__ import annotations

import dataclasses
from typing import Any, Callable

# result codes, as in Solution.result
SUCCESSFUL, MAX_STEPS_REACHED, DT_UNDERFLOW, NAN_IN_VECTOR_FIELD, EVENT_OCCURRED = 0, 1, 2, 3, 4
MESSAGES = {
    SUCCESSFUL: "successful",
    MAX_STEPS_REACHED: "the maximum number of solver steps was reached (raise max_steps)",
    DT_UNDERFLOW: "the step size became too small to make progress (the problem may be stiff or singular; "
                  "try an implicit solver such as Kvaerno5)",
    NAN_IN_VECTOR_FIELD: "the vector field returned NaN or inf",
    EVENT_OCCURRED: "terminated by an event",
}


@dataclasses.dataclass(frozen=True)
class ODETerm:
    """dy/dt = vector_field(t, y, args) (diffrax's argument order).

    Args:
        vector_field: `vector_field(t, y, args)` giving dy/dt (diffrax's order).

    Returns:
        The term, for `solve`.

    Examples:
        >>> import padax
        >>> from padax import ode
        >>> term = ode.ODETerm(lambda t, y, args: -args * y)
        >>> float(term.vector_field(0.0, padax.to_tensor(2.0), 3.0))
        -6.0
        >>> sol = ode.solve(term, ode.Dopri5(), 0.0, 1.0, 0.1, padax.to_tensor(1.0), args=1.0)
        >>> round(float(sol.ys[0]), 4)  # y(1) = exp(-1)
        0.3679
    """

    vector_field: Callable


@dataclasses.dataclass(frozen=True)
class SaveAt:
    """Which values the solution keeps: the start `t0`, the end `t1`, the times `ts`, and/or
    a `dense` interpolant (Solution.evaluate). Defaults to t1 only.

    Args:
        t0, t1: keep the state at the start / end.
        ts: times to keep the state at (an array).
        dense: keep a dense interpolant for Solution.evaluate.

    Examples:
        >>> import padax
        >>> from padax import ode
        >>> term = ode.ODETerm(lambda t, y, args: -y)
        >>> saveat = ode.SaveAt(t0=True, ts=padax.to_tensor([0.5]), t1=True)
        >>> sol = ode.solve(term, ode.Dopri5(), 0.0, 1.0, 0.1, padax.to_tensor(1.0), saveat=saveat)
        >>> sol.ts.tolist(), sol.ys.tolist()  # exp(-t) at t = 0, 0.5, 1
        ([0.0, 0.5, 1.0], [1.0, 0.6065, 0.3679])
    """

    t0: bool = False
    t1: bool = False
    ts: Any = None
    dense: bool = False

    def __post_init__(self):
        if not (self.t0 or self.t1 or self.ts is not None or self.dense):
            object.__setattr__(self, "t1", True)


@dataclasses.dataclass(frozen=True)
class ConstantStepSize:
    """Steps of exactly dt0 (the last step shortened to land on t1 or on a saved time).

    Examples:
        >>> import padax
        >>> from padax import ode
        >>> term = ode.ODETerm(lambda t, y, args: -y)
        >>> sol = ode.solve(term, ode.RK4(), 0.0, 1.0, 0.25, padax.to_tensor(1.0), stepsize_controller=ode.ConstantStepSize())
        >>> int(sol.stats["num_steps"]), round(float(sol.ys[0]), 4)
        (4, 0.3679)
    """


@dataclasses.dataclass(frozen=True)
class PIDController:
    """Adaptive steps from the embedded error estimate: a step is accepted when the RMS of
    error / (atol + rtol * |y|) is at most 1; the next step is scaled by
    safety * err^(-1/(error_order+1)) (clipped to [factormin, factormax]) and, with
    `pcoeff`, by err_prev^(pcoeff/(error_order+1)) (a PI controller).

    Args:
        rtol, atol: the relative and absolute error tolerances.
        pcoeff: the proportional coefficient (0: an I controller).
        safety, factormin, factormax: the step-size factor's safety margin and bounds.
        dtmin, dtmax: bounds on the step size (None: unbounded).

    Examples:
        >>> import padax
        >>> from padax import ode
        >>> term = ode.ODETerm(lambda t, y, args: -y)
        >>> sol = ode.solve(term, ode.Dopri5(), 0.0, 1.0, 0.1, padax.to_tensor(1.0),
        ...                 stepsize_controller=ode.PIDController(rtol=1e-6, atol=1e-8))
        >>> int(sol.stats["num_steps"]), round(float(sol.ys[0]), 5)  # a few adaptive steps to exp(-1)
        (5, 0.36788)
    """

    rtol: float = 1e-3
    atol: float = 1e-6
    pcoeff: float = 0.0
    safety: float = 0.9
    factormin: float = 0.2
    factormax: float = 10.0
    dtmin: float | None = None
    dtmax: float | None = None


@dataclasses.dataclass(frozen=True)
class DirectAdjoint:
    """Discretise-then-optimise: reverse mode differentiates through the solver's steps
    (a fixed-length loop of max_steps steps, finished steps skipped).

    Examples:
        >>> import padax
        >>> from padax import ode
        >>> term = ode.ODETerm(lambda t, y, args: -y)
        >>> y1 = lambda y0: ode.solve(term, ode.Dopri5(), 0.0, 1.0, 0.1, y0, adjoint=ode.DirectAdjoint()).ys[0]
        >>> round(float(padax.grad(y1)(padax.to_tensor(2.0))), 4)  # d y(1) / d y0 = exp(-1)
        0.3679
    """


@dataclasses.dataclass(frozen=True)
class BacksolveAdjoint:
    """Optimise-then-discretise: reverse mode solves the continuous adjoint equations
    backwards in time (memory independent of the number of steps).

    Examples:
        >>> import padax
        >>> from padax import ode
        >>> term = ode.ODETerm(lambda t, y, k: -k * y)
        >>> y1 = lambda k: ode.solve(term, ode.Dopri5(), 0.0, 1.0, 0.1, padax.to_tensor(1.0), args=k,
        ...                          adjoint=ode.BacksolveAdjoint()).ys[0]
        >>> round(float(padax.grad(y1)(padax.to_tensor(1.0))), 4)  # d/dk exp(-k) at k = 1
        -0.3679
    """


@dataclasses.dataclass(frozen=True)
class Event:
    """Terminate the solve where `cond_fn(t, y, args)` (a scalar) changes sign; the time is
    located on the step's Hermite interpolant by bisection.

    Args:
        cond_fn: `cond_fn(t, y, args)`, a scalar; the solve stops where it changes sign.

    Returns:
        The event, for `solve(..., event=)`.

    Examples:
        >>> import math
        >>> import padax
        >>> from padax import ode
        >>> term = ode.ODETerm(lambda t, y, args: -y)
        >>> sol = ode.solve(term, ode.Tsit5(), 0.0, 3.0, 0.1, padax.to_tensor(1.0), event=ode.Event(lambda t, y, args: y - 0.5))
        >>> round(float(sol.ts[0]), 5), round(math.log(2), 5), sol.message  # stops where exp(-t) = 1/2
        (0.69315, 0.69315, ...)
    """

    cond_fn: Callable
