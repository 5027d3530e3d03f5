"""Scientific-computing workloads (issue 15): odeint with its adjoint gradient, a stiff
Robertson solve, BFGS on a 1000-dimensional Rosenbrock, 10^6 evaluations of gammainc and
i0e, and a vmapped solve of 1000 small ODEs. Peers: jax (the same algorithms where jax has
them: odeint, BFGS, special functions) and scipy in the "numpy" column (its solvers run one
problem at a time on the host)."""
from __future__ import annotations

import sys

import numpy as np

from benchmarks.harness import Unavailable, Workload

_SMOKE = "--smoke" in sys.argv  # a smoke run only checks that everything runs: small sizes

_LV_T = np.linspace(0.0, 10.0, 21)
_LV_Y0 = np.array([1.0, 1.0])
_LV_TH = np.array([1.5, 1.0, 3.0, 1.0])
_ROB_K = np.array([0.04, 3e7, 1e4])
_ROB_Y0 = np.array([1.0, 0.0, 0.0])
_ROSEN_X0 = np.zeros(50 if _SMOKE else 1000)
_N_SPECIAL = 10 ** 3 if _SMOKE else 10 ** 6
_SPECIAL_A = np.random.default_rng(0).uniform(0.1, 20.0, _N_SPECIAL)
_SPECIAL_X = np.random.default_rng(1).uniform(0.0, 30.0, _N_SPECIAL)
_BATCH_RATES = np.linspace(0.1, 2.0, 20 if _SMOKE else 1000)


def _lv(xp, y, t, th):
    return xp.stack([th[0] * y[0] - th[1] * y[0] * y[1], -th[2] * y[1] + th[3] * y[0] * y[1]])


def _rosen(xp, x):
    return xp.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1.0 - x[:-1]) ** 2)


def _robertson(xp, y, k):
    return xp.stack([-k[0] * y[0] + k[2] * y[1] * y[2], k[0] * y[0] - k[1] * y[1] ** 2 - k[2] * y[1] * y[2],
                     k[1] * y[1] ** 2])


def _jax():
    try:
        import jax
    except ImportError as e:
        raise Unavailable("jax not installed") from e
    jax.config.update("jax_enable_x64", True)
    return jax


# -- odeint on Lotka-Volterra with its gradient --------------------------------------------
def padax_odeint_grad():
    import padax
    import padax.numpy as pnp
    from padax.ode import odeint
    f = padax.jit(padax.value_and_grad(lambda th: odeint(lambda y, t, th: _lv(pnp, y, t, th), _LV_Y0, _LV_T,
                                                            th, rtol=1e-8, atol=1e-8).sum()))
    th = padax.device_put(_LV_TH)
    return lambda: f(th)[1].block_until_ready()


def jax_odeint_grad():
    jax = _jax()
    import jax.numpy as jnp
    from jax.experimental.ode import odeint
    f = jax.jit(jax.value_and_grad(lambda th: odeint(lambda y, t, th: _lv(jnp, y, t, th), jnp.asarray(_LV_Y0),
                                                        jnp.asarray(_LV_T), th, rtol=1e-8, atol=1e-8).sum()))
    th = jnp.asarray(_LV_TH)
    return lambda: f(th)[1].block_until_ready()


def scipy_odeint():
    from scipy.integrate import solve_ivp
    return lambda: solve_ivp(lambda t, y: _lv(np, y, t, _LV_TH), (0.0, 10.0), _LV_Y0, t_eval=_LV_T, rtol=1e-8,
                             atol=1e-8)


# -- the stiff Robertson problem ---------------------------------------------------------------
def padax_robertson():
    import padax
    import padax.numpy as pnp
    from padax import ode
    f = padax.jit(lambda k: ode.solve(lambda t, y, k: _robertson(pnp, y, k), ode.Kvaerno5(), 0.0, 1e3, 1e-4,
                                      _ROB_Y0, k, stepsize_controller=ode.PIDController(rtol=1e-6, atol=1e-9),
                                      max_steps=2000).ys)
    k = padax.device_put(_ROB_K)
    return lambda: f(k).block_until_ready()


def scipy_robertson():
    from scipy.integrate import solve_ivp
    return lambda: solve_ivp(lambda t, y: _robertson(np, y, _ROB_K), (0.0, 1e3), _ROB_Y0, method="Radau",
                             rtol=1e-6, atol=1e-9)


# -- BFGS on the 1000-dimensional Rosenbrock function ---------------------------------------
def padax_bfgs():
    import padax
    import padax.numpy as pnp
    from padax.scipy.optimize import minimize
    f = padax.jit(lambda x: minimize(lambda z: _rosen(pnp, z), x, method="BFGS", options={"maxiter": 100}).x)
    x0 = padax.device_put(_ROSEN_X0)
    return lambda: f(x0).block_until_ready()


def jax_bfgs():
    jax = _jax()
    import jax.numpy as jnp
    from jax.scipy.optimize import minimize
    f = jax.jit(lambda x: minimize(lambda z: _rosen(jnp, z), x, method="BFGS", options={"maxiter": 100}).x)
    x0 = jnp.asarray(_ROSEN_X0)
    return lambda: f(x0).block_until_ready()


# -- 10^6 evaluations of gammainc and i0e ---------------------------------------------------
def padax_special():
    import padax
    from padax.scipy import special
    f = padax.jit(lambda a, x: (special.gammainc(a, x), special.i0e(x)))
    a, x = padax.device_put(_SPECIAL_A), padax.device_put(_SPECIAL_X)
    return lambda: f(a, x)[1].block_until_ready()


def jax_special():
    jax = _jax()
    import jax.numpy as jnp
    from jax.scipy import special
    f = jax.jit(lambda a, x: (special.gammainc(a, x), special.i0e(x)))
    a, x = jnp.asarray(_SPECIAL_A), jnp.asarray(_SPECIAL_X)
    return lambda: f(a, x)[1].block_until_ready()


def scipy_special():
    import scipy.special as ss
    return lambda: (ss.gammainc(_SPECIAL_A, _SPECIAL_X), ss.i0e(_SPECIAL_X))


# -- a vmapped solve of 1000 small ODEs ------------------------------------------------------
def padax_batched_odes():
    import padax
    from padax import ode
    one = lambda r: ode.solve(lambda t, y, r: -r * y + pnp_sin(t), ode.Tsit5(), 0.0, 5.0, 0.1,  # noqa: E731
                              np.array([1.0, 0.5]), r,
                              stepsize_controller=ode.PIDController(rtol=1e-6, atol=1e-8), max_steps=256).ys
    f = padax.jit(padax.vmap(one))
    rates = padax.device_put(_BATCH_RATES)
    return lambda: f(rates).block_until_ready()


def pnp_sin(t):
    import padax.numpy as pnp
    return pnp.sin(t)


def scipy_batched_odes():
    from scipy.integrate import solve_ivp

    def run():
        for r in _BATCH_RATES:
            solve_ivp(lambda t, y: -r * y + np.sin(t), (0.0, 5.0), [1.0, 0.5], rtol=1e-6, atol=1e-8)
    return run


def workloads() -> list[Workload]:
    return [
        Workload("odeint_lv_grad", "odeint (Dopri5) Lotka-Volterra, 21 times, value+adjoint grad (f64)",
                 {"padax": padax_odeint_grad, "jax": jax_odeint_grad, "numpy": scipy_odeint}, target=1.05),
        Workload("robertson_stiff", "stiff Robertson to t=1e3: padax Kvaerno5 / scipy Radau (f64)",
                 {"padax": padax_robertson, "numpy": scipy_robertson}),
        Workload("bfgs_rosen_1000", "BFGS, 100 iterations on 1000-d Rosenbrock (f64)",
                 {"padax": padax_bfgs, "jax": jax_bfgs}, target=1.05),
        Workload("gammainc_i0e_1e6", "gammainc + i0e on 10^6 float64 points",
                 {"padax": padax_special, "jax": jax_special, "numpy": scipy_special}, target=1.05),
        Workload("vmap_1000_odes", "vmap(solve) Tsit5 over 1000 two-state ODEs / scipy RK45 loop (f64)",
                 {"padax": padax_batched_odes, "numpy": scipy_batched_odes}),
    ]
