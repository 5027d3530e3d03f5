"""The checkified program: the original equations plus an error state updated at every site.

The state is an int32 code (the first failed site, -1: none) and each site's payload (the
values its message needs); it travels through jit calls, cond branches and while/scan loops.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

import padax.numpy as pnp
from padax.checkify._sites import CALLS, CONTROL, Site, is_float
from padax.checkify._strip import custom_params_without_checks, without_checks
from padax.core.abstract import ShapedArray
from padax.core.jaxpr import ClosedJaxpr, Jaxpr, Literal, eval_jaxpr
from padax.functional.lax.checks import check_p
from padax.functional.lax.control import cond_p, scan_p, while_p
from padax.interpreters.jaxpr_util import hoist as _hoist, join_consts as _join_consts
from padax.transforms.staging import trace_flat


class State:
    """The error value while the program runs: code and every site's payload (arrays of the trace)."""

    def __init__(self, code, payloads: list):
        self.code = code
        self.payloads = payloads

    def flat(self) -> list:
        return [self.code] + [x for p in self.payloads for x in p]

    @staticmethod
    def from_flat(flat: Sequence[Any], sites: Sequence[Site]) -> "State":
        flat = list(flat)
        payloads, i = [], 1
        for s in sites:
            n = len(s.payload_avals)
            payloads.append(flat[i:i + n])
            i += n
        return State(flat[0], payloads)

    def fail(self, site_id: int, failed, payload: Sequence[Any]) -> None:
        first = pnp.logical_and(failed, self.code < 0)
        self.code = pnp.where(first, np.int32(site_id), self.code)
        self.payloads[site_id] = [pnp.where(first, pnp.asarray(new, dtype=old.dtype), old)
                                  for new, old in zip(payload, self.payloads[site_id])]


def initial_state(sites: Sequence[Site]) -> State:
    """No failure yet: code -1 and zero payloads."""
    payloads = [[pnp.zeros(a.shape, dtype=a.dtype) for a in s.payload_avals] for s in sites]
    return State(pnp.asarray(-1, dtype=np.int32), payloads)


class Checker:
    """Runs a program's equations on traced values (inside checkify's jit), updating the error
    state at every site; `ids` maps an equation (by id) to its site number."""

    def __init__(self, sites: list, ids: dict):
        self.sites = sites
        self.ids = ids

    def run(self, jaxpr: Jaxpr, consts: Sequence[Any], args: Sequence[Any], state: State) -> list:
        env: dict = {}
        nan_of: dict = {}

        def read(v):
            return v.val if type(v) is Literal else env[v]

        def has_nan(v):
            if type(v) is Literal or not is_float(v.aval):
                return None
            if v not in nan_of:
                nan_of[v] = pnp.any(pnp.isnan(env[v]))
            return nan_of[v]

        for v, x in zip(jaxpr.constvars, consts):
            env[v] = x
        for v, x in zip(jaxpr.invars, args):
            env[v] = x
        for eqn in jaxpr.eqns:
            ins = [read(v) for v in eqn.invars]
            name = eqn.primitive.name
            if name in CALLS:
                closed = eqn.params[CALLS[name]]
                outs = self.run(closed.jaxpr, closed.consts, ins, state)
                if name.startswith("custom_"):  # keep the derivative rule: the checked copy only finds errors
                    outs = eqn.primitive.bind(*ins, **custom_params_without_checks(eqn))
            elif name in CONTROL:
                outs = getattr(self, "_" + name)(eqn, ins, state)
            elif eqn.primitive is check_p:
                outs = []
                sid = self.ids.get(id(eqn))
                if sid is not None:
                    self._user(sid, eqn, ins, state)
            else:
                outs = eqn.primitive.bind(*ins, **eqn.params)
                outs = list(outs) if eqn.primitive.multiple_results else [outs]
                sid = self.ids.get(id(eqn))
                if sid is not None:
                    self._automatic(sid, eqn, ins, outs, state, env, has_nan)
            for v, x in zip(eqn.outvars, outs):
                env[v] = x
        return [read(v) for v in jaxpr.outvars]

    # automatic and user checks
    def _user(self, sid: int, eqn, ins, state: State) -> None:
        pred, fmt = ins[0], ins[1:]
        nb = eqn.params["batch_ndim"]
        if not nb:
            state.fail(sid, pnp.logical_not(pred), fmt)
            return
        bad = pnp.logical_not(pred).reshape(-1)
        flat = pnp.argmax(bad.astype(np.int32))
        batch_shape = pnp.asarray(pred).shape[:nb]
        idx = pnp.unravel_index(flat, batch_shape) if nb > 1 else (flat,)
        values = [f[tuple(idx)] for f in fmt]
        state.fail(sid, pnp.any(bad), [flat] + values)

    def _automatic(self, sid: int, eqn, ins, outs, state: State, env, has_nan) -> None:
        site = self.sites[sid]
        if site.kind == "nan":
            out_nan = None
            for v, o in zip(eqn.outvars, outs):
                if is_float(v.aval):
                    env[v] = o
                    n = has_nan(v)
                    out_nan = n if out_nan is None else pnp.logical_or(out_nan, n)
            in_nan = [has_nan(v) for v in eqn.invars]
            in_nan = [n for n in in_nan if n is not None]
            failed = out_nan if not in_nan else pnp.logical_and(out_nan, pnp.logical_not(pnp.any(pnp.stack(in_nan))))
            state.fail(sid, failed, [])
        elif site.kind == "div":
            state.fail(sid, pnp.any(pnp.equal(ins[1], 0)), [])
        else:
            self._bounds(sid, eqn, ins, state)

    def _bounds(self, sid: int, eqn, ins, state: State) -> None:
        """Out-of-bounds start indices (index vectors of a gather/scatter, scalars of a dynamic
        slice/update): the first bad index, its operand axis and that axis's size."""
        shape = np.array(eqn.invars[0].aval.shape, np.int64)
        axes, sizes, starts = _starts(eqn, ins, shape)
        if starts is None or not len(axes):
            return
        upper = shape[axes] - sizes[axes]
        oob = pnp.logical_or(starts < 0, starts > pnp.asarray(upper)).reshape(-1)
        first = pnp.argmax(oob.astype(np.int32))
        axis = pnp.asarray(axes)[first % len(axes)]
        state.fail(sid, pnp.any(oob), [starts.reshape(-1)[first], axis, pnp.asarray(shape)[axis]])

    # control flow: the error state travels through the bodies
    def _checked_body(self, closed: ClosedJaxpr, n_front: int, in_avals, what: str):
        """A traced function (front args, state..., rest) -> (state..., outputs) checking `closed`."""
        sites = self.sites
        n_state = len(initial_state_avals(sites))

        def body(*xs):
            front, st, rest = xs[:n_front], xs[n_front:n_front + n_state], xs[n_front + n_state:]
            state = State.from_flat(st, sites)
            outs = self.run(closed.jaxpr, closed.consts, list(front) + list(rest), state)
            return state.flat() + list(outs)

        avals = list(in_avals[:n_front]) + initial_state_avals(sites) + list(in_avals[n_front:])
        return trace_flat(body, avals, what)

    def _cond(self, eqn, ins, state: State) -> list:
        branches = eqn.params["branches"]
        in_avals = [v.aval for v in eqn.invars[1:]]
        checked = [self._checked_body(b, 0, in_avals, "checkify of cond") for b in branches]
        joined, consts = _join_consts(checked)
        outs = cond_p.bind(ins[0], *consts, *state.flat(), *ins[1:], branches=tuple(joined))
        n = len(state.flat())
        new = State.from_flat(outs[:n], self.sites)
        state.code, state.payloads = new.code, new.payloads
        return outs[n:]

    def _while(self, eqn, ins, state: State) -> list:
        """The loop carries the error state; cond_fun's checks run on the initial carry and after
        every step (on each carry cond_fun sees), the loop's own cond_fun ignores the state."""
        p = eqn.params
        ncc, nbc = p["cond_nconsts"], p["body_nconsts"]
        cc, bc, carry = ins[:ncc], ins[ncc:ncc + nbc], ins[ncc + nbc:]
        cond_j, body_j = p["cond_jaxpr"], p["body_jaxpr"]
        sites = self.sites
        state_avals = initial_state_avals(sites)
        n_state = len(state_avals)
        avals = [v.aval for v in eqn.invars]
        cc_avals, bc_avals, carry_avals = avals[:ncc], avals[ncc:ncc + nbc], avals[ncc + nbc:]

        self.run(cond_j.jaxpr, cond_j.consts, list(cc) + list(carry), state)  # cond_fun on the initial carry

        def body(*xs):
            c_consts, b_consts = xs[:ncc], xs[ncc:ncc + nbc]
            st, new_carry = xs[ncc + nbc:ncc + nbc + n_state], xs[ncc + nbc + n_state:]
            inner = State.from_flat(st, sites)
            outs = self.run(body_j.jaxpr, body_j.consts, list(b_consts) + list(new_carry), inner)
            self.run(cond_j.jaxpr, cond_j.consts, list(c_consts) + list(outs), inner)
            return inner.flat() + list(outs)

        def cond(*xs):
            return eval_jaxpr(without_checks(cond_j.jaxpr), cond_j.consts,
                              *(list(xs[:ncc]) + list(xs[ncc + n_state:])))

        body_closed = trace_flat(body, cc_avals + bc_avals + state_avals + carry_avals, "checkify of while body")
        cond_closed = trace_flat(cond, cc_avals + state_avals + carry_avals, "checkify of while cond")
        outs = while_p.bind(*cond_closed.consts, *cc, *body_closed.consts, *cc, *bc, *state.flat(), *carry,
                            cond_jaxpr=_hoist(cond_closed), body_jaxpr=_hoist(body_closed),
                            cond_nconsts=len(cond_closed.consts) + ncc,
                            body_nconsts=len(body_closed.consts) + ncc + nbc)
        new = State.from_flat(outs[:n_state], sites)
        state.code, state.payloads = new.code, new.payloads
        return outs[n_state:]

    def _scan(self, eqn, ins, state: State) -> list:
        p = eqn.params
        nc, nk = p["num_consts"], p["num_carry"]
        n_state = len(state.flat())
        in_avals = [v.aval for v in p["jaxpr"].jaxpr.invars]
        body = self._checked_body(p["jaxpr"], nc, in_avals, "checkify of scan body")
        outs = scan_p.bind(*body.consts, *ins[:nc], *state.flat(), *ins[nc:], jaxpr=_hoist(body),
                           num_consts=len(body.consts) + nc, num_carry=n_state + nk, length=p["length"],
                           reverse=p["reverse"], unroll=p["unroll"])
        new = State.from_flat(outs[:n_state], self.sites)
        state.code, state.payloads = new.code, new.payloads
        return outs[n_state:]


def _starts(eqn, ins, shape: np.ndarray):
    """(operand axes the start indices address, window size along every operand axis, the start
    indices with one index vector per row, or None when there are none) of an indexing equation."""
    name, p = eqn.primitive.name, eqn.params
    if name in ("dynamic_slice", "dynamic_update_slice"):
        first = 1 if name == "dynamic_slice" else 2
        sizes = (np.array(p["slice_sizes"], np.int64) if name == "dynamic_slice"
                 else np.array(eqn.invars[1].aval.shape, np.int64))
        axes = np.arange(len(shape), dtype=np.int64)
        starts = pnp.stack([pnp.asarray(i).astype(np.int64) for i in ins[first:]]) if len(shape) else None
        return axes, sizes, starts
    starts = pnp.asarray(ins[1]).astype(np.int64)
    if name == "gather":
        return (np.array(p["dimension_numbers"].start_index_map, np.int64),
                np.array(p["slice_sizes"], np.int64), starts)
    dn = p["dimension_numbers"]  # a scatter: the window is the updates' window dims, 1 elsewhere
    sizes, window = [], iter(dn.update_window_dims)
    for d in range(len(shape)):
        unit = d in dn.inserted_window_dims or d in dn.operand_batching_dims
        sizes.append(1 if unit else eqn.invars[2].aval.shape[next(window)])
    return np.array(dn.scatter_dims_to_operand_dims, np.int64), np.array(sizes, np.int64), starts


def initial_state_avals(sites: Sequence[Site]) -> list[ShapedArray]:
    """The avals of the flat state (code, then every site's payload)."""
    return [ShapedArray((), np.dtype(np.int32))] + [a for s in sites for a in s.payload_avals]
