"""`checkpoint` (alias `recompute`): trade compute for memory in reverse mode.

Inside a checkpointed function, reverse mode saves only the function's
inputs (policy `nothing_saveable`, the default) or also the outputs of
matrix products (`dots_saveable`); every other intermediate the backward
pass needs is recomputed from them there.
"""
from __future__ import annotations

import functools
from typing import Any, Callable

from padax.core import tree as tree_util
from padax.core.ad_util import Zero, instantiate
from padax.core.jaxpr import ClosedJaxpr, Jaxpr, Literal, Var, dce_jaxpr, eval_jaxpr
from padax.core.trace import set_current_trace
from padax.functional._arrays import aval_of
from padax.functional.lax.call import remat_p
from padax.transforms.jit_primitive import hoist_consts
from padax.transforms.staging import aval_of as arg_aval, trace_flat


class SavePolicy:
    """Which intermediates reverse mode may keep: a name and a predicate on equations."""

    __slots__ = ("name", "saveable")

    def __init__(self, name: str, saveable: Callable):
        self.name = name
        self.saveable = saveable

    def __repr__(self) -> str:
        return self.name


nothing_saveable = SavePolicy("nothing_saveable", lambda eqn: False)
everything_saveable = SavePolicy("everything_saveable", lambda eqn: True)
dots_saveable = SavePolicy("dots_saveable", lambda eqn: eqn.primitive.name == "dot_general")
checkpoint_dots = dots_saveable


class checkpoint_policies:  # noqa: N801  (a namespace, as jax.checkpoint_policies)
    nothing_saveable = nothing_saveable
    everything_saveable = everything_saveable
    dots_saveable = dots_saveable
    checkpoint_dots = dots_saveable


def checkpoint(fun: Callable, *, policy: SavePolicy | None = None, prevent_cse: bool = True,
               static_argnums: tuple[int, ...] = ()) -> Callable:
    """Recompute `fun`'s intermediates in the backward pass instead of storing them."""
    policy = policy or nothing_saveable
    static = (static_argnums,) if isinstance(static_argnums, int) else tuple(static_argnums)

    @functools.wraps(fun)
    def wrapped(*args):
        svals = {i: args[i] for i in static}
        dyn = [a for i, a in enumerate(args) if i not in svals]
        leaves, in_tree = tree_util.flatten(tuple(dyn))
        store: list = []

        def flat(*xs):
            it = iter(in_tree.unflatten(xs))
            full = [svals[i] if i in svals else next(it) for i in range(len(args))]
            out_leaves, out_tree = tree_util.flatten(fun(*full))
            store.append(out_tree)
            return out_leaves

        closed = trace_flat(flat, [arg_aval(x) for x in leaves], "checkpoint tracing")
        outs = remat_p.bind(*closed.consts, *leaves, jaxpr=hoist_consts(closed), policy=policy)
        return store[0].unflatten(outs)

    return wrapped


recompute = checkpoint


def _remat_jvp(primals, tangents, *, jaxpr, policy):
    """jvp of a remat call is a remat call of the jvp program (so partial eval sees it whole).
    Only nonzero tangents become inputs: a zero tangent must not turn into recomputed work."""
    from padax.transforms.ad import _jvp_flat
    n = len(primals)
    nz = [type(t) is not Zero for t in tangents]
    ts = [t for t in tangents if type(t) is not Zero]

    def jvp_fn(*pt):
        it = iter(pt[n:])
        tans = [next(it) if z else t for z, t in zip(nz, tangents)]
        outs, touts = _jvp_flat(lambda *xs: eval_jaxpr(jaxpr.jaxpr, [], *xs), pt[:n], tans)
        return list(outs) + [instantiate(t) for t in touts]

    jvp_closed = trace_flat(jvp_fn, [aval_of(x) for x in list(primals) + ts], "checkpoint jvp tracing")
    outs = remat_p.bind(*jvp_closed.consts, *primals, *ts, jaxpr=hoist_consts(jvp_closed), policy=policy)
    k = len(jaxpr.out_avals)
    return outs[:k], outs[k:]


def _needed_recompute(known: Jaxpr, targets: list, saveable: Callable) -> tuple[list, list]:
    """Equations of `known` that rebuild `targets` from saveable values; and those values."""
    producer = {}
    for eqn in known.eqns:
        for v in eqn.outvars:
            producer[v] = eqn
    inputs = set(known.invars) | set(known.constvars)
    needed_eqns, saved, seen = [], [], set()

    def visit(v):
        if type(v) is not Var or v in seen:
            return
        seen.add(v)
        eqn = producer.get(v)
        if v in inputs or eqn is None or saveable(eqn):
            saved.append(v)
            return
        for u in eqn.invars:
            visit(u)
        if eqn not in needed_eqns:
            needed_eqns.append(eqn)

    for t in targets:
        visit(t)
    order = {id(e): i for i, e in enumerate(known.eqns)}
    needed_eqns.sort(key=lambda e: order[id(e)])
    return needed_eqns, saved


def _remat_partial_eval(trace, args, unknowns, *, jaxpr, policy):
    """Known outputs now; the unknown part recomputes what the policy does not save."""
    from padax.transforms.ad import partial_eval_jaxpr
    known, unknown, out_unknowns, num_res = partial_eval_jaxpr(jaxpr, unknowns)
    kj = known.jaxpr
    n_known_out = len(kj.outvars) - num_res
    res_vars = kj.outvars[n_known_out:]
    recompute_eqns, saved_vars = _needed_recompute(kj, list(res_vars), policy.saveable)
    # known program: known outputs + the saved values
    saved_program = dce_jaxpr(Jaxpr(kj.constvars, kj.invars, kj.outvars[:n_known_out] + saved_vars, kj.eqns))
    known_args = [a for a, u in zip(args, unknowns) if not u]
    with set_current_trace(trace.parent):
        kouts = eval_jaxpr(saved_program, known.consts, *known_args)
    known_outs, saved_vals = kouts[:n_known_out], kouts[n_known_out:]
    # unknown program: (saved..., unknown inputs...) -> recompute residuals, then the unknown part
    uj = unknown.jaxpr
    u_res, u_ins = uj.invars[:num_res], uj.invars[num_res:]
    new_saved = [Var(v.aval) for v in saved_vars]
    sub = dict(zip(saved_vars, new_saved))

    def rename(v):
        return v if type(v) is Literal else sub.get(v, v)

    # the unknown program reads its residual inputs from the saved or recomputed values
    sub.update((r_u, rename(src)) for r_u, src in zip(u_res, res_vars))
    rebuilt = [e.replace(invars=[rename(v) for v in e.invars]) for e in recompute_eqns]
    body_eqns = rebuilt + [e.replace(invars=[rename(v) for v in e.invars]) for e in uj.eqns]
    body = Jaxpr([], new_saved + u_ins, [rename(v) for v in uj.outvars], body_eqns)
    staged_in = saved_vals + [a for a, u in zip(args, unknowns) if u]
    outs_u = trace.stage(remat_p, staged_in, dict(jaxpr=ClosedJaxpr(body, []), policy=policy))
    ki, ui = iter(known_outs), iter(outs_u)
    return [next(ui) if u else next(ki) for u in out_unknowns]


def _remat_transpose(cts, *args, jaxpr, policy):
    """Transpose the linear part; the non-linear recomputation runs forward first."""
    from padax.core.ad_util import is_undefined
    from padax.transforms.ad import backward_pass
    lin = [is_undefined(a) for a in args]
    j = jaxpr.jaxpr
    consts = [a for a, l in zip(args, lin) if not l]
    cvars = [v for v, l in zip(j.invars, lin) if not l]
    lvars = [v for v, l in zip(j.invars, lin) if l]
    program = Jaxpr(cvars, lvars, j.outvars, j.eqns)
    cts_lin = iter(backward_pass(program, consts, list(cts)))
    return [next(cts_lin) if l else None for l in lin]


def _remat_batch(args, dims, *, jaxpr, policy):
    from padax.core.batching_util import batch_size, bdim_to_front
    from padax.transforms.batching import vmap
    size = batch_size(args, dims)
    xs = [bdim_to_front(x, d, size) for x, d in zip(args, dims)]
    batched = trace_flat(vmap(lambda *a: eval_jaxpr(jaxpr.jaxpr, [], *a)), [aval_of(x) for x in xs],
                         "vmap of checkpoint tracing")
    outs = remat_p.bind(*batched.consts, *xs, jaxpr=hoist_consts(batched), policy=policy)
    return outs, [0] * len(outs)


remat_p.jvp_rule = _remat_jvp
remat_p.partial_eval_rule = _remat_partial_eval
remat_p.transpose_rule = _remat_transpose
remat_p.batch_rule = _remat_batch
