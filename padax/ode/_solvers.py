"""The Runge-Kutta steppers of padax.ode, on flat 1-D state vectors.

A stepper advances `y' = g(t, y)` by one step of size h: `step(g, t, y, f0, h)` with
f0 = g(t, y) returns (y1, error estimate or None, f1 = g(t + h, y1), ok). Explicit methods
come from a Butcher tableau; the L-stable Kvaerno methods are ESDIRKs whose implicit stage
equations are solved by a simplified Newton iteration inside `padax.lax.custom_root`, so
their derivatives come from the implicit-function rule, not from the Newton iterations.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from padax.ode import _tableaus as T


def _combine(y: Any, h: Any, weights, ks: list) -> Any:
    """y + h * sum_j weights[j] * ks[j], skipping zero weights."""
    acc = None
    for w, k in zip(weights, ks):
        if w != 0.0:
            term = k * float(w)
            acc = term if acc is None else acc + term
    return y if acc is None else y + h * acc


class AbstractSolver:
    """A one-step method. `order` is the order of its solution, `error_order` the order of
    its embedded error estimate (None: no estimate, so only constant step sizes).

    Examples:
        >>> from padax import ode
        >>> [(type(s).__name__, s.order, s.error_order) for s in (ode.Euler(), ode.Dopri5(), ode.Kvaerno5())]
        [('Euler', 1, None), ('Dopri5', 5, 4), ('Kvaerno5', 5, 4)]
        >>> ode.Kvaerno5().implicit
        True
    """

    order: int = 1
    error_order: int | None = None
    implicit: bool = False

    def step(self, g: Callable, t: Any, y: Any, f0: Any, h: Any):
        raise TypeError(f"{type(self).__name__} is abstract; use a concrete solver such as padax.ode.Dopri5()")

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def __eq__(self, other) -> bool:
        return type(self) is type(other)

    def __hash__(self) -> int:
        return hash(type(self))


class ExplicitRK(AbstractSolver):
    """An explicit Runge-Kutta method given by its tableau."""

    tableau: dict = {}

    def step(self, g, t, y, f0, h):
        tab = self.tableau
        ks = [f0]
        for row, c in zip(tab["a_lower"], tab["c"]):
            ks.append(g(t + float(c) * h, _combine(y, h, row, ks)))
        b = tab["b_sol"]
        fsal = len(b) == len(ks) and b[-1] == 0.0 and tuple(b[:-1]) == tuple(tab["a_lower"][-1]) \
            and tab["c"][-1] == 1.0
        if fsal:
            y1, f1 = _combine(y, h, tab["a_lower"][-1], ks[:-1]), ks[-1]
        else:
            y1 = _combine(y, h, b, ks)
            f1 = g(t + h, y1)
        err = None
        if "b_error" in tab:
            err = _combine(y * 0, h, tab["b_error"], ks)
        return y1, err, f1, True


class Euler(ExplicitRK):
    """Forward Euler (order 1, constant step sizes).

    Examples:
        >>> import padax
        >>> from padax import ode
        >>> term = ode.ODETerm(lambda t, y, args: -y)
        >>> sol = ode.solve(term, ode.Euler(), 0.0, 1.0, 0.1, padax.to_tensor(1.0))  # ten steps of 0.1
        >>> round(float(sol.ys[0]), 6)  # exp(-1) = 0.367879; first order: (1 - 0.1) ** 10
        0.348678
    """
    order = 1
    tableau = {"a_lower": (), "b_sol": (1.0,), "c": ()}


class Heun(ExplicitRK):
    """Heun's method (order 2, embedded Euler error estimate).

    Examples:
        >>> import padax
        >>> from padax import ode
        >>> term = ode.ODETerm(lambda t, y, args: -y)
        >>> sol = ode.solve(term, ode.Heun(), 0.0, 1.0, 0.1, padax.to_tensor(1.0))  # ten steps of 0.1
        >>> round(float(sol.ys[0]), 6)  # exp(-1) = 0.367879; second order
        0.368541
    """
    order, error_order, tableau = 2, 1, T.HEUN


class Midpoint(ExplicitRK):
    """The explicit midpoint method (order 2, embedded Euler error estimate).

    Examples:
        >>> import padax
        >>> from padax import ode
        >>> term = ode.ODETerm(lambda t, y, args: -y)
        >>> sol = ode.solve(term, ode.Midpoint(), 0.0, 1.0, 0.1, padax.to_tensor(1.0))  # ten steps of 0.1
        >>> round(float(sol.ys[0]), 6)  # exp(-1) = 0.367879; second order
        0.368541
    """
    order, error_order, tableau = 2, 1, T.MIDPOINT


class RK4(ExplicitRK):
    """The classical fourth-order Runge-Kutta method (constant step sizes).

    Examples:
        >>> import padax
        >>> from padax import ode
        >>> term = ode.ODETerm(lambda t, y, args: -y)
        >>> sol = ode.solve(term, ode.RK4(), 0.0, 1.0, 0.1, padax.to_tensor(1.0))  # ten steps of 0.1
        >>> round(float(sol.ys[0]), 6)  # exp(-1) = 0.367879; fourth order
        0.36788
    """
    order = 4
    tableau = {"a_lower": ((0.5,), (0.0, 0.5), (0.0, 0.0, 1.0)), "b_sol": (1 / 6, 1 / 3, 1 / 3, 1 / 6),
               "c": (0.5, 0.5, 1.0)}


class Bosh3(ExplicitRK):
    """Bogacki-Shampine 3(2), first same as last.

    Examples:
        >>> import padax
        >>> from padax import ode
        >>> term = ode.ODETerm(lambda t, y, args: -y)
        >>> sol = ode.solve(term, ode.Bosh3(), 0.0, 1.0, 0.1, padax.to_tensor(1.0))  # ten steps of 0.1
        >>> round(float(sol.ys[0]), 6)  # exp(-1) = 0.367879; third order
        0.367863
    """
    order, error_order, tableau = 3, 2, T.BOSH3


class Dopri5(ExplicitRK):
    """Dormand-Prince 5(4), first same as last (the method of scipy's RK45 and jax's odeint).

    Examples:
        >>> import padax
        >>> from padax import ode
        >>> term = ode.ODETerm(lambda t, y, args: -y)
        >>> sol = ode.solve(term, ode.Dopri5(), 0.0, 1.0, 0.1, padax.to_tensor(1.0))  # ten steps of 0.1
        >>> round(float(sol.ys[0]), 6)  # exp(-1) = 0.367879; fifth order
        0.36788
    """
    order, error_order, tableau = 5, 4, T.DOPRI5


class Tsit5(ExplicitRK):
    """Tsitouras 5(4), first same as last.

    Examples:
        >>> import padax
        >>> from padax import ode
        >>> term = ode.ODETerm(lambda t, y, args: -y)
        >>> sol = ode.solve(term, ode.Tsit5(), 0.0, 1.0, 0.1, padax.to_tensor(1.0))  # ten steps of 0.1
        >>> round(float(sol.ys[0]), 6)  # exp(-1) = 0.367879; fifth order
        0.36788
    """
    order, error_order, tableau = 5, 4, T.TSIT5


class Dopri8(ExplicitRK):
    """Dormand-Prince 8(7) with 14 stages (scipy's DOP853 family).

    Examples:
        >>> import padax
        >>> from padax import ode
        >>> term = ode.ODETerm(lambda t, y, args: -y)
        >>> sol = ode.solve(term, ode.Dopri8(), 0.0, 1.0, 0.1, padax.to_tensor(1.0))  # ten steps of 0.1
        >>> round(float(sol.ys[0]), 6)  # exp(-1) = 0.367879; eighth order
        0.36788
    """
    order, error_order, tableau = 8, 7, T.DOPRI8


class _ESDIRK(AbstractSolver):
    """A stiffly accurate ESDIRK (explicit first stage, constant diagonal gamma).

    Each implicit stage solves k = g(t + c h, base + h gamma k) by simplified Newton with
    the matrix I - h gamma J, J = dg/dy at the step's start; the stage solve is wrapped in
    custom_root so derivatives use the implicit-function theorem.
    """

    implicit = True
    tableau: dict = {}
    newton_iterations: int = 12
    newton_rtol: float = 1e-3

    def step(self, g, t, y, f0, h):
        import padax.numpy as pnp
        from padax.functional.lax.solves import custom_root
        from padax.transforms.implicit import dense_solve
        from padax.linalg import inv
        from padax.transforms.ad import jacfwd

        tab = self.tableau
        gamma = float(tab["a_diagonal"][1])
        n = y.shape[0]
        jac = jacfwd(lambda z: g(t, z))(y)
        m_inv = inv(pnp.eye(n, dtype=y.dtype) - (h * gamma) * jac)
        ks = [f0]
        ok = True
        for row, pred, c in zip(tab["a_lower"], tab["a_predictor"], tab["c"]):
            base = _combine(y, h, row, ks)
            tc = t + float(c) * h
            guess = _combine(y * 0, 1.0, pred, ks)

            def residual(k, base=base, tc=tc):
                return k - g(tc, base + (h * gamma) * k)

            def newton(res_fn, k0):
                import padax.lax as lax

                def body(_, k):
                    return k - m_inv @ res_fn(k)
                return lax.fori_loop(0, self.newton_iterations, body, k0)

            k = custom_root(residual, guess, newton, lambda lin, rhs: dense_solve(lin, rhs))
            scale = 1e-6 + pnp.abs(k).max()
            ok = ok & (pnp.abs(residual(k)).max() <= self.newton_rtol * scale)
            ks.append(k)
        y1 = _combine(y, h, tab["b_sol"], ks)
        err = _combine(y * 0, h, tab["b_error"], ks)
        return y1, err, ks[-1], ok


class Kvaerno3(_ESDIRK):
    """Kvaerno's 3(2) ESDIRK: A-L stable, stiffly accurate, for stiff systems.

    Examples:
        >>> import padax
        >>> from padax import ode
        >>> term = ode.ODETerm(lambda t, y, args: -y)
        >>> sol = ode.solve(term, ode.Kvaerno3(), 0.0, 1.0, 0.1, padax.to_tensor(1.0))  # ten steps of 0.1
        >>> round(float(sol.ys[0]), 6)  # exp(-1) = 0.367879; implicit, third order
        0.36787
    """
    order, error_order, tableau = 3, 2, T.KVAERNO3


class Kvaerno5(_ESDIRK):
    """Kvaerno's 5(4) ESDIRK: A-L stable, stiffly accurate, for stiff systems.

    Examples:
        >>> import padax
        >>> from padax import ode
        >>> term = ode.ODETerm(lambda t, y, args: -y)
        >>> sol = ode.solve(term, ode.Kvaerno5(), 0.0, 1.0, 0.1, padax.to_tensor(1.0))  # ten steps of 0.1
        >>> round(float(sol.ys[0]), 6)  # exp(-1) = 0.367879; implicit, fifth order
        0.36788
    """
    order, error_order, tableau = 5, 4, T.KVAERNO5


def _check_tableaus() -> None:
    """Row sums of every tableau equal its nodes (catches a mistyped coefficient at import)."""
    for tab in (T.HEUN, T.MIDPOINT, T.BOSH3, T.DOPRI5, T.TSIT5, T.DOPRI8):
        assert np.allclose([sum(r) for r in tab["a_lower"]], tab["c"], atol=1e-12)
    for tab in (T.KVAERNO3, T.KVAERNO5):
        d = tab["a_diagonal"]
        assert np.allclose([sum(r) + d[i + 1] for i, r in enumerate(tab["a_lower"])], tab["c"], atol=1e-12)


_check_tableaus()
