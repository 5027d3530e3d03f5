"""`padax.ode`: ordinary and stochastic differential equations.

`odeint(func, y0, t, *args)` is jax's (Dormand-Prince, adjoint gradients); `solve(terms,
solver, t0, t1, dt0, y0, args, saveat=, stepsize_controller=, adjoint=, event=)` is
diffrax's, with explicit (Euler, Heun, Midpoint, RK4, Bosh3, Dopri5, Tsit5, Dopri8) and
L-stable implicit (Kvaerno3, Kvaerno5) solvers, dense output and terminating events;
`sdeint` integrates SDEs by Euler-Maruyama or Milstein.
"""
from padax.ode._adjoint import odeint  # noqa: F401
from padax.ode._config import (BacksolveAdjoint, ConstantStepSize, DirectAdjoint, Event, ODETerm,  # noqa: F401
                               PIDController, SaveAt)
from padax.ode._sde import brownian_increments, sdeint  # noqa: F401
from padax.ode._solve import Solution, solve  # noqa: F401
from padax.ode._solvers import (RK4, AbstractSolver, Bosh3, Dopri5, Dopri8, Euler, Heun, Kvaerno3,  # noqa: F401
                                Kvaerno5, Midpoint, Tsit5)

__all__ = ["odeint", "solve", "Solution", "ODETerm", "SaveAt", "ConstantStepSize", "PIDController",
           "DirectAdjoint", "BacksolveAdjoint", "Event", "AbstractSolver", "Euler", "Heun", "Midpoint", "RK4",
           "Bosh3", "Dopri5", "Tsit5", "Dopri8", "Kvaerno3", "Kvaerno5", "sdeint", "brownian_increments"]
