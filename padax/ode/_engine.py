"""The stepping loop of padax.ode on a flat state vector.

Time runs internally as tau = d * t with d = sign(t1 - t0), so every solve goes forward.
Steps are shortened to land exactly on each requested output time (the "targets"). Two
drivers share one step function: `while` (a while_loop: forward and forward-mode
differentiation, unbounded step count) and `scan` (max_steps iterations with finished
steps skipped by cond: reverse-mode differentiable through the steps).
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

import padax.lax as lax
import padax.numpy as pnp
from padax import jvp, stop_gradient
from padax.ode import _config as C


def hermite(theta: Any, h: Any, y0: Any, y1: Any, f0: Any, f1: Any) -> Any:
    """Cubic Hermite interpolant at fraction theta of a step of size h."""
    t2, t3 = theta * theta, theta * theta * theta
    return (2 * t3 - 3 * t2 + 1) * y0 + (t3 - 2 * t2 + theta) * h * f0 + (3 * t2 - 2 * t3) * y1 \
        + (t3 - t2) * h * f1


def _rms(x: Any) -> Any:
    return pnp.sqrt(pnp.mean(x * x))


def initial_step(g: Callable, tau: Any, y: Any, f: Any, order: int, rtol: float, atol: float) -> Any:
    """Hairer-Norsett-Wanner's starting step size from two derivative evaluations."""
    scale = atol + pnp.abs(y) * rtol
    d0, d1 = _rms(y / scale), _rms(f / scale)
    h0 = pnp.where((d0 < 1e-5) | (d1 < 1e-5), 1e-6, 0.01 * d0 / pnp.maximum(d1, 1e-300))
    f1 = g(tau + h0, y + h0 * f)
    d2 = _rms((f1 - f) / scale) / h0
    h1 = pnp.where(pnp.maximum(d1, d2) <= 1e-15, pnp.maximum(1e-6, h0 * 1e-3),
                   (0.01 / pnp.maximum(pnp.maximum(d1, d2), 1e-300)) ** (1.0 / (order + 1)))
    return pnp.minimum(100 * h0, h1)


class Problem:
    """Everything the step function needs (static Python objects and traced arrays)."""

    def __init__(self, g, solver, controller, targets, max_steps, event_fn, dense):
        self.g, self.solver, self.controller = g, solver, controller
        self.targets, self.max_steps, self.event_fn, self.dense = targets, max_steps, event_fn, dense
        self.n_targets = targets.shape[0]
        self.adaptive = isinstance(controller, C.PIDController)


def init_state(p: Problem, tau0: Any, y0: Any, h0: Any) -> tuple:
    f0 = p.g(tau0, y0)
    ev = p.event_fn(tau0, y0) if p.event_fn is not None else pnp.zeros((), y0.dtype)
    if h0 is None:
        c = p.controller
        h0 = initial_step(p.g, stop_gradient(tau0), stop_gradient(y0), stop_gradient(f0), p.solver.error_order or p.solver.order, c.rtol, c.atol)
    i0 = pnp.asarray(0, dtype="int32")
    h0 = pnp.asarray(h0, dtype=y0.dtype) + pnp.zeros((), y0.dtype)
    # tau, y, f, h, pos, n_steps, n_accepted, n_rejected, status, event value, pi error memory
    return (tau0, y0, f0, h0, i0, i0, i0, i0, i0, ev, pnp.ones((), y0.dtype))


def done(p: Problem, s: tuple) -> Any:
    return (s[4] >= p.n_targets) | (s[8] != C.SUCCESSFUL)


def _bisect_event(p: Problem, tau, h, y0, y1, f0, f1, ev0):
    """Fraction of the step where the event function changes sign (60 bisections)."""

    c_tau, c_h, c_y0, c_y1, c_f0, c_f1, c_ev0 = stop_gradient((tau, h, y0, y1, f0, f1, ev0))

    def body(_, lohi):
        lo, hi = lohi
        mid = 0.5 * (lo + hi)
        v = p.event_fn(c_tau + mid * c_h, hermite(mid, c_h, c_y0, c_y1, c_f0, c_f1))
        left = (v * c_ev0) <= 0
        return pnp.where(left, lo, mid), pnp.where(left, mid, hi)
    z = pnp.zeros((), y0.dtype)
    _, hi = lax.fori_loop(0, 60, body, (z, z + 1))
    theta = stop_gradient(hi)

    # derivatives of the crossing by the implicit-function theorem: one Newton correction
    # whose value is zero but whose gradient is -E_p / E_theta
    def ev_at(th):
        return p.event_fn(tau + th * h, hermite(th, h, y0, y1, f0, f1))
    val, slope = jvp(ev_at, (theta,), (pnp.ones_like(theta),))
    slope = stop_gradient(slope)
    return theta - (val - stop_gradient(val)) / pnp.where(slope == 0, 1.0, slope)


def step(p: Problem, s: tuple) -> tuple[tuple, tuple]:
    """One attempted step: (new state, record). The record is (index of the target reached
    or -1, y after the step, dense segment (tau_a, tau_b, y_a, y_b, f_a, f_b))."""
    tau, y, f, h, pos, n_steps, n_acc, n_rej, status, ev, err_prev = s
    dt = y.dtype
    target = p.targets[pnp.minimum(pos, p.n_targets - 1)]
    room = target - tau
    clipped = h >= room
    h_try = pnp.where(clipped, room, h)
    y1, err, f1, ok = p.solver.step(p.g, tau, y, f, h_try)
    finite = pnp.all(pnp.isfinite(y1)) & pnp.all(pnp.isfinite(f1))
    if p.adaptive:
        c = p.controller
        k = 1.0 / (p.solver.error_order + 1)
        # the step-size choice is not differentiated (the grid is a constant for gradients)
        scale = c.atol + c.rtol * pnp.maximum(pnp.abs(y), pnp.abs(y1))
        en = _rms(stop_gradient(err / scale))
        en = pnp.where(pnp.isfinite(en), en, pnp.asarray(np.inf, dt))
        accept = ok & finite & (en <= 1.0)
        safe_en = pnp.maximum(en, 1e-10)
        factor = c.safety * safe_en ** (-k)
        if c.pcoeff:
            factor = factor * pnp.where(accept, (pnp.maximum(err_prev, 1e-4) ** (c.pcoeff * k)), 1.0)
        factor = pnp.clip(factor, c.factormin, c.factormax)
        factor = pnp.where(finite & ok, factor, pnp.where(finite, 0.5, 0.25))
        factor = pnp.where(accept, factor, pnp.minimum(factor, 1.0))
        h_next = stop_gradient(h_try * factor)
        h_next = pnp.where(accept & clipped, pnp.maximum(h_next, h), h_next)
        if c.dtmax is not None:
            h_next = pnp.minimum(h_next, c.dtmax)
        tiny = c.dtmin if c.dtmin is not None else 0.0
        underflow = (~accept) & (h_next <= pnp.maximum(tiny, 8 * np.finfo(np.dtype(dt.name)).eps
                                                        * pnp.maximum(pnp.abs(tau), 1.0)))
        bad = pnp.where(underflow, pnp.where(finite, C.DT_UNDERFLOW, C.NAN_IN_VECTOR_FIELD), C.SUCCESSFUL)
        err_new = pnp.where(accept, safe_en, err_prev)
    else:
        accept = finite
        h_next = h
        bad = pnp.where(finite, C.SUCCESSFUL, C.NAN_IN_VECTOR_FIELD)
        err_new = err_prev
    tau1 = pnp.where(clipped, target, tau + h_try)
    seg = (tau, tau1, y, y1, f, f1)
    ev1 = ev
    new_status = bad.astype("int32")
    if p.event_fn is not None:
        ev_new = p.event_fn(tau1, y1)
        crossed = accept & (ev != 0) & (ev * ev_new <= 0)
        theta = _bisect_event(p, tau, h_try, y, y1, f, f1, ev)
        tau_e = tau + theta * h_try
        y_e = hermite(theta, h_try, y, y1, f, f1)
        tau1 = pnp.where(crossed, tau_e, tau1)
        y1 = pnp.where(crossed, y_e, y1)
        f1 = pnp.where(crossed, p.g(tau_e, y_e), f1)
        clipped = clipped & ~crossed
        ev1 = pnp.where(accept, ev_new, ev)
        new_status = pnp.where(crossed, C.EVENT_OCCURRED, new_status).astype("int32")
    hit = accept & clipped
    one = pnp.asarray(1, dtype="int32")
    tau_n = pnp.where(accept, tau1, tau)
    y_n = pnp.where(accept, y1, y)
    f_n = pnp.where(accept, f1, f)
    pos_n = pnp.where(hit, pos + one, pos)
    n_steps_n = n_steps + one
    status_n = new_status
    if p.max_steps is not None:
        finished = (pos_n >= p.n_targets) | (status_n != C.SUCCESSFUL)
        status_n = pnp.where((~finished) & (n_steps_n >= p.max_steps), C.MAX_STEPS_REACHED,
                             status_n).astype("int32")
    new = (tau_n, y_n, f_n, h_next.astype(dt), pos_n, n_steps_n, n_acc + accept.astype("int32"),
           n_rej + (~accept).astype("int32"), status_n, ev1, err_new)
    record = (pnp.where(hit, pos, -one), y_n, accept, seg)
    return new, record


def run_while(p: Problem, state: tuple) -> dict:
    """Drive `step` with a while_loop; outputs are written into buffers in the carry."""
    y0 = state[1]
    n = y0.shape[0]
    dt = y0.dtype
    saved = pnp.full((p.n_targets, n), np.inf, dtype=dt)
    dense = ()
    if p.dense:
        m = p.max_steps
        dense = (pnp.full((m,), np.inf, dtype=dt), pnp.full((m,), np.inf, dtype=dt)) + \
            tuple(pnp.zeros((m, n), dtype=dt) for _ in range(4))

    def body(carry):
        s, sv, dn = carry
        s_new, (hit, y_n, accept, seg) = step(p, s)
        idx = pnp.maximum(hit, 0)
        sv = pnp.where(hit >= 0, lax.dynamic_update_slice(sv, y_n[None], (idx, 0)), sv)
        if p.dense:
            j = pnp.minimum(s[6], p.max_steps - 1)
            dn = tuple(pnp.where(accept, lax.dynamic_update_slice(buf, v.reshape((1,) + v.shape),
                                                                  (j,) + (0,) * v.ndim), buf)
                       for buf, v in zip(dn, seg))
        return s_new, sv, dn

    s, saved, dense = lax.while_loop(lambda c: ~done(p, c[0]), body, (state, saved, dense))
    return {"state": s, "saved": saved, "dense": dense}


def run_scan(p: Problem, state: tuple) -> dict:
    """Drive `step` with a scan of max_steps iterations; finished iterations are skipped."""
    y0 = state[1]
    dt = y0.dtype

    def skip(s):
        m1 = pnp.asarray(-1, dtype="int32")
        return s, (m1, s[1], pnp.asarray(False), (s[0], s[0], s[1], s[1], s[2], s[2]))

    def body(s, _):
        return lax.cond(done(p, s), skip, lambda q: step(p, q), s)

    s, (hits, ys, accepts, segs) = lax.scan(body, state, None, length=p.max_steps)
    idx = pnp.arange(p.n_targets, dtype="int32")
    match = hits[None, :] == idx[:, None]                      # (targets, steps)
    found = pnp.any(match, axis=1)
    where = pnp.argmax(match, axis=1)
    saved = pnp.where(found[:, None], ys[where], pnp.asarray(np.inf, dt))
    dense = ()
    if p.dense:
        a, b, ya, yb, fa, fb = segs
        acc = accepts[:, None]
        # rejected and skipped steps become zero-length segments, so the ends stay sorted
        dense = (a, pnp.where(accepts, b, a), ya, pnp.where(acc, yb, ya), fa, pnp.where(acc, fb, fa))
    return {"state": s, "saved": saved, "dense": dense}
