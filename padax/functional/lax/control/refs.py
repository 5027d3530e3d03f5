"""Ref discharge rules of cond, while and scan: refs their functions close over become loop state.

A `cond`, `while` or `scan` whose functions read or write refs made outside them (or make refs of
their own) is bound as its pure form (padax/interpreters/discharge.py, `bind_with_refs`): each ref
operand arrives as the array it holds; the refs become extra carried values of a loop (extra
operands and outputs of a cond), and their final values are written back after it. The primitives'
other rules (jvp, partial eval, transpose, vmap, lowering) therefore never meet a ref.
"""
from __future__ import annotations

from typing import Any, Sequence

from padax.core.jaxpr import ClosedJaxpr, eval_jaxpr
from padax.core.ref import AbstractRef
from padax.functional.lax.control.common import _strengthen_outputs
from padax.functional.lax.control.cond import cond_p
from padax.functional.lax.control.loops import scan_p, while_p
from padax.interpreters.discharge import discharge_jaxpr, discharge_rules, shared_refs_ok
from padax.interpreters.jaxpr_util import hoist, join_consts
from padax.interpreters.staging import trace_flat


def _is_ref(aval: Any) -> bool:
    return type(aval) is AbstractRef


class _RefSlots:
    """The distinct refs among some operands (one slot per ref; an operand given twice by
    `bind_discharged` carries the very same value object) and the value each slot holds."""

    def __init__(self, vals: Sequence[Any], avals: Sequence[Any]):
        self.slot_of: dict[int, int] = {}  # operand position -> slot
        self.values: list = []
        self.avals: list = []
        ids: dict[int, int] = {}
        for i, (v, a) in enumerate(zip(vals, avals)):
            if _is_ref(a):
                k = ids.get(id(v))
                if k is None:
                    k = ids[id(v)] = len(self.values)
                    self.values.append(v)
                    self.avals.append(a.inner_aval)
                self.slot_of[i] = k


def _pure(closed: ClosedJaxpr) -> tuple[ClosedJaxpr, list[int]]:
    return discharge_jaxpr(closed)


def _run_pure(pure: ClosedJaxpr, ref_pos: list[int], args: Sequence[Any], n_out: int,
              slots: "_RefSlots", state: list, positions: Sequence[int]) -> list:
    """Evaluate a discharged function; write its final ref values into `state` (by slot)."""
    outs = eval_jaxpr(pure.jaxpr, pure.consts, *args)
    for k, f in zip(ref_pos, outs[n_out:]):
        state[slots.slot_of[positions[k]]] = f
    return outs[:n_out]


def _while_discharge(in_avals, out_avals, *args, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    cn, bn = cond_nconsts, body_nconsts
    carry = list(args[cn + bn:])
    n_carry = len(carry)
    slots = _RefSlots(args[:cn + bn], in_avals[:cn + bn])
    n_s = len(slots.values)
    cond_pure, cond_refs = _pure(cond_jaxpr)
    body_pure, body_refs = _pure(body_jaxpr)
    plain_c = [i for i in range(cn) if i not in slots.slot_of]
    plain_b = [cn + j for j in range(bn) if cn + j not in slots.slot_of]

    def operands(plain_vals, plain_pos, state, lo, hi):
        it = iter(plain_vals)
        return [state[slots.slot_of[i]] if i in slots.slot_of else next(it) for i in range(lo, hi)]

    def new_cond(*xs):
        pc, state, c = xs[:len(plain_c)], list(xs[len(plain_c):len(plain_c) + n_s]), xs[len(plain_c) + n_s:]
        ins = operands(pc, plain_c, state, 0, cn) + list(c)
        scratch = list(state)
        return _run_pure(cond_pure, cond_refs, ins, 1, slots, scratch, range(cn))

    def new_body(*xs):
        pb, state, c = xs[:len(plain_b)], list(xs[len(plain_b):len(plain_b) + n_s]), xs[len(plain_b) + n_s:]
        ins = operands(pb, plain_b, state, cn, cn + bn) + list(c)
        outs = _run_pure(body_pure, body_refs, ins, n_carry, slots, state, [cn + j for j in range(bn)])
        return state + outs

    carry_avals = slots.avals + [a for a in in_avals[cn + bn:]]
    c_closed = trace_flat(new_cond, [in_avals[i] for i in plain_c] + carry_avals, "while_loop cond_fun (refs)")
    b_closed = trace_flat(new_body, [in_avals[i] for i in plain_b] + carry_avals, "while_loop body_fun (refs)")
    b_closed = _strengthen_outputs(b_closed, carry_avals)
    outs = while_p.bind(*c_closed.consts, *[args[i] for i in plain_c], *b_closed.consts,
                        *[args[i] for i in plain_b], *slots.values, *carry,
                        cond_jaxpr=hoist(c_closed), body_jaxpr=hoist(b_closed),
                        cond_nconsts=len(c_closed.consts) + len(plain_c),
                        body_nconsts=len(b_closed.consts) + len(plain_b))
    final = outs[:n_s]
    new_ins = [final[slots.slot_of[i]] if i in slots.slot_of else None for i in range(len(args))]
    return new_ins, outs[n_s:]


def _scan_discharge(in_avals, out_avals, *args, jaxpr, num_consts, num_carry, length, reverse, unroll):
    nc = num_consts
    slots = _RefSlots(args[:nc], in_avals[:nc])
    n_s = len(slots.values)
    pure, refs = _pure(jaxpr)
    plain = [i for i in range(nc) if i not in slots.slot_of]
    n_x = len(args) - nc - num_carry
    n_out = len(out_avals)

    def new_body(*xs):
        p = iter(xs[:len(plain)])
        state = list(xs[len(plain):len(plain) + n_s])
        rest = xs[len(plain) + n_s:]
        consts = [state[slots.slot_of[i]] if i in slots.slot_of else next(p) for i in range(nc)]
        outs = _run_pure(pure, refs, consts + list(rest), n_out, slots, state, range(nc))
        return state + outs[:num_carry] + outs[num_carry:]

    x_avals = [a.update(shape=a.shape[1:]) for a in in_avals[nc + num_carry:]]
    carry_avals = slots.avals + list(in_avals[nc:nc + num_carry])
    closed = trace_flat(new_body, [in_avals[i] for i in plain] + carry_avals + x_avals, "scan body f (refs)")
    n_new_carry = n_s + num_carry
    targets = carry_avals + [a for a in closed.out_avals[n_new_carry:]]
    closed = _strengthen_outputs(closed, targets)
    outs = scan_p.bind(*closed.consts, *[args[i] for i in plain], *slots.values, *args[nc:],
                       jaxpr=hoist(closed), num_consts=len(closed.consts) + len(plain),
                       num_carry=n_new_carry, length=length, reverse=reverse, unroll=unroll)
    assert n_x >= 0
    final = outs[:n_s]
    new_ins = [final[slots.slot_of[i]] if i in slots.slot_of else None for i in range(len(args))]
    return new_ins, outs[n_s:]


def _cond_discharge(in_avals, out_avals, index, *args, branches):
    slots = _RefSlots(args, in_avals[1:])
    n_s = len(slots.values)
    plain = [i for i in range(len(args)) if i not in slots.slot_of]
    n_out = len(out_avals)
    closeds = []
    for b in branches:
        pure, refs = _pure(b)

        def branch(*xs, pure=pure, refs=refs):
            p = iter(xs[:len(plain)])
            state = list(xs[len(plain):])
            ins = [state[slots.slot_of[i]] if i in slots.slot_of else next(p) for i in range(len(args))]
            outs = _run_pure(pure, refs, ins, n_out, slots, state, range(len(args)))
            return outs + state

        closeds.append(trace_flat(branch, [in_avals[1 + i] for i in plain] + slots.avals, "cond branch (refs)"))
    targets = list(out_avals) + slots.avals
    targets = [t.update(weak_type=all(c.out_avals[k].weak_type for c in closeds)) for k, t in enumerate(targets)]
    closeds = [_strengthen_outputs(c, targets) for c in closeds]
    joined, consts = join_consts(closeds)
    outs = cond_p.bind(index, *consts, *[args[i] for i in plain], *slots.values, branches=tuple(joined))
    final = outs[n_out:]
    new_ins = [None] + [final[slots.slot_of[i]] if i in slots.slot_of else None for i in range(len(args))]
    return new_ins, outs[:n_out]


def install() -> None:
    discharge_rules[while_p] = _while_discharge
    discharge_rules[scan_p] = _scan_discharge
    discharge_rules[cond_p] = _cond_discharge
    shared_refs_ok.update((while_p, scan_p, cond_p))
