"""padax.ode against scipy.integrate.solve_ivp (RK45/DOP853 for non-stiff, Radau for stiff
problems) and closed forms; gradients by the adjoint, through the steps and by finite
differences; events, dense output, errors, SDEs."""
import numpy as np
import pytest
from scipy.integrate import solve_ivp

import padax
import padax.numpy as pnp
import padax.ode as ode


def _stack(parts):
    """np.stack for the numpy reference solves (fast), pnp.stack for padax."""
    if all(isinstance(v, (np.ndarray, np.generic, float)) for v in parts):
        return np.stack(parts)
    return pnp.stack(parts)


def lotka(t, y, th):
    return _stack([th[0] * y[0] - th[1] * y[0] * y[1], -th[2] * y[1] + th[3] * y[0] * y[1]])


def robertson(t, y, k):
    return _stack([-k[0] * y[0] + k[2] * y[1] * y[2], k[0] * y[0] - k[1] * y[1] ** 2 - k[2] * y[1] * y[2],
                      k[1] * y[1] ** 2])


def brusselator(t, y, ab):
    a, b = ab[0], ab[1]
    return _stack([a + y[0] ** 2 * y[1] - (b + 1) * y[0], b * y[0] - y[0] ** 2 * y[1]])


def _ref(f, args, t0, t1, y0, ts, method="DOP853"):
    fn = lambda t, y: f(t, y, np.asarray(args))  # noqa: E731
    return solve_ivp(fn, (t0, t1), y0, method=method, t_eval=ts, rtol=1e-12, atol=1e-12).y.T


TH = np.array([1.5, 1.0, 3.0, 1.0])
TS = np.linspace(0.0, 4.0, 9)
Y0 = np.array([1.0, 1.0])


@pytest.mark.parametrize("solver,tol", [(ode.Dopri5(), 1e-6), (ode.Tsit5(), 1e-6), (ode.Dopri8(), 1e-8),
                                        (ode.Bosh3(), 1e-4), (ode.Heun(), 1e-3)])
def test_adaptive_explicit_lotka_volterra(solver, tol):
    ref = _ref(lotka, TH, 0.0, 4.0, Y0, TS)
    rtol = 1e-10 if solver.order >= 5 else 1e-7
    sol = padax.jit(lambda y0, th: ode.solve(ode.ODETerm(lotka), solver, 0.0, 4.0, 0.01, y0, th,
                                             saveat=ode.SaveAt(ts=TS),
                                             stepsize_controller=ode.PIDController(rtol=rtol, atol=rtol),
                                             max_steps=20000))(Y0, TH)
    assert int(sol.result) == 0
    np.testing.assert_allclose(np.asarray(sol.ys), ref, rtol=0, atol=tol)
    np.testing.assert_allclose(np.asarray(sol.ts), TS)


@pytest.mark.parametrize("solver,n,tol", [(ode.Euler(), 4000, 2e-2), (ode.Midpoint(), 400, 2e-3),
                                          (ode.Heun(), 400, 2e-3), (ode.RK4(), 100, 1e-5)])
def test_constant_step_convergence(solver, n, tol):
    ref = _ref(lotka, TH, 0.0, 2.0, Y0, [2.0])[0]
    run = padax.jit(lambda dt0: ode.solve(lotka, solver, 0.0, 2.0, dt0, Y0, TH, max_steps=2 * n + 2).ys[0])
    err = np.abs(np.asarray(run(np.float64(2.0 / n))) - ref).max()
    assert err < tol
    # halving the step reduces the error by about 2^order
    err2 = np.abs(np.asarray(run(np.float64(1.0 / n))) - ref).max()
    assert 0.6 * 2 ** solver.order < err / err2 < 1.6 * 2 ** solver.order


def test_robertson_stiff_kvaerno5_against_radau():
    k = np.array([0.04, 3e7, 1e4])
    y0 = np.array([1.0, 0.0, 0.0])
    ts = np.array([1e-2, 1.0, 10.0, 100.0])
    ref = _ref(robertson, k, 0.0, 100.0, y0, ts, method="Radau")
    sol = padax.jit(lambda y0, k: ode.solve(ode.ODETerm(robertson), ode.Kvaerno5(), 0.0, 100.0, 1e-4, y0, k,
                                            saveat=ode.SaveAt(ts=ts), max_steps=500,
                                            stepsize_controller=ode.PIDController(rtol=1e-6, atol=1e-9)))(y0, k)
    assert int(sol.result) == 0 and int(sol.stats["num_steps"]) < 100
    np.testing.assert_allclose(np.asarray(sol.ys), ref, rtol=1e-5, atol=1e-9)
    # an explicit solver cannot do it in the same budget, and says so
    bad = padax.jit(lambda y0, k: ode.solve(ode.ODETerm(robertson), ode.Tsit5(), 0.0, 100.0, 1e-4, y0, k,
                                            saveat=ode.SaveAt(ts=ts), max_steps=100,
                                            stepsize_controller=ode.PIDController(rtol=1e-6, atol=1e-9)))(y0, k)
    assert int(bad.result) == 1 and "maximum number" in bad.message
    assert np.isinf(np.asarray(bad.ts)[-1])


@pytest.mark.slow
def test_van_der_pol_mu_1000_kvaerno3():
    def vdp(t, y, mu):
        return _stack([y[1], mu * (1 - y[0] ** 2) * y[1] - y[0]])
    ref = _ref(vdp, 1000.0, 0.0, 3000.0, np.array([2.0, 0.0]), [3000.0], method="Radau")[0]
    sol = padax.jit(lambda: ode.solve(vdp, ode.Kvaerno5(), 0.0, 3000.0, 1e-3, np.array([2.0, 0.0]),
                                      np.float64(1000.0),
                                      stepsize_controller=ode.PIDController(rtol=1e-7, atol=1e-9),
                                      max_steps=5000))()
    assert int(sol.result) == 0
    np.testing.assert_allclose(np.asarray(sol.ys[0])[0], ref[0], rtol=1e-4)


@pytest.mark.slow
def test_brusselator_backwards_in_time_and_dense_output():
    ab = np.array([1.0, 3.0])
    y0 = np.array([1.5, 3.0])
    sol = padax.jit(lambda y0, ab: ode.solve(brusselator, ode.Tsit5(), 0.0, 5.0, 0.01, y0, ab,
                                             saveat=ode.SaveAt(t0=True, t1=True, dense=True),
                                             stepsize_controller=ode.PIDController(rtol=1e-10, atol=1e-10),
                                             max_steps=1000))(y0, ab)
    ts = np.array([0.3, 1.7, 2.5, 4.9])
    ref = _ref(brusselator, ab, 0.0, 5.0, y0, ts)
    np.testing.assert_allclose(np.asarray(sol.evaluate(ts)), ref, atol=1e-5)   # 3rd-order Hermite between steps
    np.testing.assert_allclose(np.asarray(sol.evaluate(2.5)), ref[2], atol=1e-5)
    y5 = np.asarray(sol.ys[-1])
    back = padax.jit(lambda y5, ab: ode.solve(brusselator, ode.Tsit5(), 5.0, 0.0, -0.01, y5, ab,
                                              stepsize_controller=ode.PIDController(rtol=1e-10, atol=1e-10),
                                              max_steps=1000))(y5, ab)
    np.testing.assert_allclose(np.asarray(back.ys[0]), y0, atol=1e-6)


def test_event_terminates_at_zero_crossing():
    def fall(t, y, g):
        return pnp.stack([y[1], -g])
    ev = ode.Event(lambda t, y, args: y[0])
    sol = padax.jit(lambda g: ode.solve(fall, ode.Dopri5(), 0.0, 10.0, 0.01, np.array([10.0, 0.0]), g, event=ev,
                                        saveat=ode.SaveAt(t1=True, ts=np.array([1.0, 5.0])),
                                        stepsize_controller=ode.PIDController(rtol=1e-8, atol=1e-8),
                                        max_steps=500))(np.float64(9.81))
    t_hit = np.sqrt(2 * 10.0 / 9.81)
    assert int(sol.result) == 4 and sol.message == "terminated by an event"
    np.testing.assert_allclose(float(sol.t1), t_hit, rtol=1e-7)
    np.testing.assert_allclose(np.asarray(sol.ys)[0], [10.0 - 9.81 / 2, -9.81], rtol=1e-8)
    # the event time is differentiable (implicit function theorem): t* = sqrt(2 h / g)
    t_of_g = padax.grad(lambda g: ode.solve(fall, ode.Dopri5(), 0.0, 10.0, 0.01, np.array([10.0, 0.0]), g,
                                            event=ev, stepsize_controller=ode.PIDController(rtol=1e-8, atol=1e-8),
                                            max_steps=500).t1)
    np.testing.assert_allclose(float(padax.jit(t_of_g)(np.float64(9.81))), -t_hit / (2 * 9.81), rtol=1e-6)
    assert np.isinf(np.asarray(sol.ts)[1])
    np.testing.assert_allclose(np.asarray(sol.ys)[2], [0.0, -9.81 * t_hit], atol=1e-6)


def test_odeint_matches_scipy_and_adjoint_gradients():
    def f(y, t, a, b):
        return pnp.stack([a * y[0] - b * y[0] * y[1], -3.0 * y[1] + y[0] * y[1]])
    ys = ode.odeint(f, Y0, TS, np.float64(1.5), np.float64(1.0))
    np.testing.assert_allclose(np.asarray(ys), _ref(lotka, TH, 0.0, 4.0, Y0, TS), atol=1e-6)

    def loss(y0, a, t):
        return (ode.odeint(f, y0, t, a, np.float64(1.0)) ** 2).sum()
    g = padax.jit(padax.grad(loss, argnums=(0, 1, 2)))(Y0, np.float64(1.5), TS)
    loss = padax.jit(loss)
    eps = 1e-6
    fd_a = (loss(Y0, np.float64(1.5 + eps), TS) - loss(Y0, np.float64(1.5 - eps), TS)) / (2 * eps)
    fd_y = [(loss(Y0 + eps * e, np.float64(1.5), TS) - loss(Y0 - eps * e, np.float64(1.5), TS)) / (2 * eps)
            for e in np.eye(2)]
    dt = np.zeros_like(TS)
    dt[4] = eps
    fd_t = (loss(Y0, np.float64(1.5), TS + dt) - loss(Y0, np.float64(1.5), TS - dt)) / (2 * eps)
    np.testing.assert_allclose(float(g[1]), float(fd_a), rtol=1e-5)
    np.testing.assert_allclose(np.asarray(g[0]), np.asarray(fd_y), rtol=1e-5)
    np.testing.assert_allclose(float(g[2][4]), float(fd_t), rtol=1e-4)


def test_backsolve_gradient_with_respect_to_a_scalar_initial_state():
    # the adjoint's custom_vjp used to rebuild the vector field from the traced y0 of the outer grad
    # (a leaked-tracer error for a 0-d y0); d y(1) / d y0 = exp(-k) for y' = -k y
    def y1(y0, k):
        return ode.solve(ode.ODETerm(lambda t, y, a: -a * y), ode.Dopri5(), 0.0, 1.0, 0.1, y0, k,
                         stepsize_controller=ode.PIDController(rtol=1e-7, atol=1e-9),
                         adjoint=ode.BacksolveAdjoint()).ys[0]
    g0, gk = padax.grad(y1, argnums=(0, 1))(padax.to_tensor(2.0), padax.to_tensor(0.5))
    np.testing.assert_allclose(float(g0), np.exp(-0.5), rtol=1e-5)
    np.testing.assert_allclose(float(gk), -2.0 * np.exp(-0.5), rtol=1e-5)   # d/dk 2 exp(-k)


@pytest.mark.slow
def test_direct_and_backsolve_adjoints_agree():
    def loss(th, adjoint):
        sol = ode.solve(lotka, ode.Dopri5(), 0.0, 2.0, 0.05, Y0, th, saveat=ode.SaveAt(ts=np.array([1.0, 2.0])),
                        stepsize_controller=ode.PIDController(rtol=1e-9, atol=1e-9), adjoint=adjoint,
                        max_steps=256)
        return (sol.ys ** 2).sum()
    g_direct = padax.jit(padax.grad(lambda th: loss(th, ode.DirectAdjoint())))(TH)
    g_back = padax.jit(padax.grad(lambda th: loss(th, ode.BacksolveAdjoint())))(TH)
    np.testing.assert_allclose(np.asarray(g_direct), np.asarray(g_back), rtol=1e-5)
    # d/dth0 of sum |y(t)|^2 for Lotka-Volterra from a tight finite difference (scipy DOP853)
    eps = 1e-5
    fd = [(np.sum(_ref(lotka, TH + eps * e, 0.0, 2.0, Y0, [1.0, 2.0]) ** 2)
           - np.sum(_ref(lotka, TH - eps * e, 0.0, 2.0, Y0, [1.0, 2.0]) ** 2)) / (2 * eps) for e in np.eye(4)]
    np.testing.assert_allclose(np.asarray(g_direct), fd, rtol=1e-5)


@pytest.mark.slow
def test_implicit_solver_gradient_through_steps():
    def loss(k):
        sol = ode.solve(robertson, ode.Kvaerno3(), 0.0, 1.0, 1e-3, np.array([1.0, 0.0, 0.0]), k,
                        stepsize_controller=ode.PIDController(rtol=1e-7, atol=1e-10), max_steps=300)
        return sol.ys[0, 0] + 1e4 * sol.ys[0, 1]
    k = np.array([0.04, 3e7, 1e4])
    g = padax.jit(padax.grad(loss))(k)
    jloss = padax.jit(loss)
    for i, eps in enumerate([1e-6, 1e2, 1e-2]):
        e = np.zeros(3)
        e[i] = eps
        fd = (jloss(k + e) - jloss(k - e)) / (2 * eps)
        np.testing.assert_allclose(float(g[i]), float(fd), rtol=2e-3)


def test_vmap_batch_of_small_odes_and_pytree_state():
    def decay(t, y, rate):
        return {"a": -rate * y["a"], "b": rate * y["a"]}
    rates = np.linspace(0.1, 2.0, 16)
    solve = padax.jit(padax.vmap(lambda r: ode.solve(decay, ode.Tsit5(), 0.0, 1.0, 0.1,
                                                       {"a": np.float64(1.0), "b": np.float64(0.0)}, r,
                                                       stepsize_controller=ode.PIDController(1e-9, 1e-9),
                                                       max_steps=128).ys))
    ys = solve(rates)
    np.testing.assert_allclose(np.asarray(ys["a"])[:, 0], np.exp(-rates), rtol=1e-7)
    np.testing.assert_allclose(np.asarray(ys["b"])[:, 0], 1 - np.exp(-rates), rtol=1e-7)


def test_bad_input_names_the_problem():
    with pytest.raises(ValueError, match="dt0"):
        ode.solve(lotka, ode.Dopri5(), 0.0, 1.0, -0.1, Y0, TH)
    with pytest.raises(ValueError, match="monotonic"):
        ode.solve(lotka, ode.Dopri5(), 0.0, 1.0, 0.1, Y0, TH, saveat=ode.SaveAt(ts=np.array([0.5, 0.2])))
    with pytest.raises(ValueError, match="monotonic"):
        ode.odeint(lambda y, t: -y, Y0, np.array([0.0, 1.0, 0.5]))
    with pytest.raises(TypeError, match="pytree|shape"):
        ode.solve(lambda t, y, a: y[:1], ode.Dopri5(), 0.0, 1.0, 0.1, Y0, None)
    with pytest.raises(ValueError, match="no error estimate"):
        ode.solve(lotka, ode.RK4(), 0.0, 1.0, 0.1, Y0, TH, stepsize_controller=ode.PIDController())
    sol = ode.solve(lambda t, y, a: y / (1.0 - t), ode.Dopri5(), 0.0, 2.0, 0.1, np.array([1.0]), None,
                    stepsize_controller=ode.PIDController(), max_steps=4000)
    assert int(sol.result) in (2, 3)
    nan = ode.solve(lambda t, y, a: y * pnp.nan, ode.Euler(), 0.0, 1.0, 0.1, np.array([1.0]), None)
    assert int(nan.result) == 3 and "NaN" in nan.message


def test_sde_euler_maruyama_and_milstein_on_geometric_brownian_motion():
    mu, sigma, n = 0.5, 0.4, 400
    key = padax.random.key(3)
    dW = ode.brownian_increments(key, 0.0, 1.0, n, (2000,), dtype="float64")
    W = np.cumsum(np.asarray(dW), axis=0)[-1]
    exact = np.exp((mu - sigma ** 2 / 2) + sigma * W)
    errs = {}
    for method in ("euler_maruyama", "milstein"):
        ts, ys = ode.sdeint(lambda t, y, a: mu * y, lambda t, y, a: sigma * y, np.ones(2000), 0.0, 1.0, n,
                            dW=dW, method=method)
        assert ys.shape == (n + 1, 2000)
        errs[method] = np.abs(np.asarray(ys[-1]) - exact).mean()
    assert errs["milstein"] < 0.5 * errs["euler_maruyama"] and errs["milstein"] < 2e-3
    _, ys = ode.sdeint(lambda t, y, a: mu * y, lambda t, y, a: sigma * y, np.ones(4000), 0.0, 1.0, 50, key=key)
    np.testing.assert_allclose(np.asarray(ys[-1]).mean(), np.exp(mu), rtol=0.03)
