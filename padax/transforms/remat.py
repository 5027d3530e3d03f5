"""`checkpoint` (alias `recompute`): trade compute for memory in reverse mode.

Inside a checkpointed function, reverse mode saves only the function's
inputs (policy `nothing_saveable`, the default) or also what a policy allows:
the outputs of matrix products (`dots_saveable`,
`dots_with_no_batch_dims_saveable`), values named with `checkpoint_name`
(`save_only_these_names`, `save_any_names_but_these`, ...), or what a function
`policy(prim, *avals, **params) -> bool` accepts; every other intermediate the
backward pass needs is recomputed from them there. `print_saved_residuals`
lists what reverse mode would keep.
"""
from __future__ import annotations

import functools
import inspect
from typing import Any, Callable, Sequence

from padax.core import node_state
from padax.core.abstract import get_aval
from padax.core.ad_util import Zero, instantiate, is_undefined
from padax.core.jaxpr import ClosedJaxpr, Jaxpr, JaxprEqn, Literal, Var, dce_jaxpr, eval_jaxpr
from padax.core.trace import new_trace, set_current_trace
from padax.functional._arrays import asarray
from padax.functional.lax.call import name_p, remat_p
from padax.functional.lax.structural import batch_size, bdim_to_front
from padax.interpreters.ad import jvp_flat
from padax.interpreters.discharge import bind_with_refs, discharge_jaxpr, discharge_rules
from padax.runtime import tree as tree_util
from padax.transforms.ad import backward_pass, linearize_flat, partial_eval_jaxpr
from padax.transforms.batching import vmap
from padax.transforms.jit_primitive import hoist_consts
from padax.transforms.staging import JaxprTrace, JaxprTracer, arg_aval, flat_fun, trace_flat


class SavePolicy:
    """Which intermediates reverse mode may keep: a name and a predicate on equations."""

    __slots__ = ("name", "saveable")

    def __init__(self, name: str, saveable: Callable):
        self.name = name
        self.saveable = saveable

    def __repr__(self) -> str:
        return self.name

    def __call__(self, prim, *avals, **params) -> bool:
        """jax's policy signature: whether an output of `prim` on these avals may be saved."""
        return self.saveable(JaxprEqn(prim, [Var(a) for a in avals], [], params))


def _is_dot(eqn) -> bool:
    return eqn.primitive.name == "dot_general"


def _is_unbatched_dot(eqn) -> bool:
    return _is_dot(eqn) and not any(eqn.params["dimension_numbers"][1])


def _name_of(eqn) -> str | None:
    return eqn.params["name"] if eqn.primitive is name_p else None


nothing_saveable = SavePolicy("nothing_saveable", lambda eqn: False)
everything_saveable = SavePolicy("everything_saveable", lambda eqn: True)
dots_saveable = SavePolicy("dots_saveable", _is_dot)
checkpoint_dots = dots_saveable
dots_with_no_batch_dims_saveable = SavePolicy("dots_with_no_batch_dims_saveable", _is_unbatched_dot)
checkpoint_dots_with_no_batch_dims = dots_with_no_batch_dims_saveable


def save_only_these_names(*names: str) -> SavePolicy:
    """Save only values named (checkpoint_name) with one of `names`."""
    keep = frozenset(names)
    return SavePolicy(f"save_only_these_names{tuple(names)}", lambda eqn: _name_of(eqn) in keep)


def save_any_names_but_these(*names: str) -> SavePolicy:
    """Save every named value except those named with one of `names`."""
    drop = frozenset(names)
    return SavePolicy(f"save_any_names_but_these{tuple(names)}",
                      lambda eqn: eqn.primitive is name_p and _name_of(eqn) not in drop)


def save_anything_except_these_names(*names: str) -> SavePolicy:
    """Save every intermediate except values named with one of `names`."""
    drop = frozenset(names)
    return SavePolicy(f"save_anything_except_these_names{tuple(names)}", lambda eqn: _name_of(eqn) not in drop)


def save_from_both_policies(policy_1: Callable, policy_2: Callable) -> SavePolicy:
    """Save what either policy saves."""
    a, b = as_policy(policy_1), as_policy(policy_2)
    return SavePolicy(f"save_from_both_policies({a!r}, {b!r})", lambda eqn: a.saveable(eqn) or b.saveable(eqn))


def offload_dot_with_no_batch_dims(offload_src: str, offload_dst: str) -> SavePolicy:
    """Keep unbatched matmul outputs for the backward pass. jax moves them to host memory
    (`offload_dst`); padax keeps them where they are, which on CPU is the same memory."""
    return SavePolicy(f"offload_dot_with_no_batch_dims({offload_src!r}, {offload_dst!r})", _is_unbatched_dot)


def save_and_offload_only_these_names(*, names_which_can_be_saved: Sequence[str],
                                      names_which_can_be_offloaded: Sequence[str], offload_src: str,
                                      offload_dst: str) -> SavePolicy:
    """Keep values with either set of names (the offloaded ones stay where they are, as in
    offload_dot_with_no_batch_dims)."""
    keep = frozenset(names_which_can_be_saved) | frozenset(names_which_can_be_offloaded)
    return SavePolicy(f"save_and_offload_only_these_names{tuple(sorted(keep))}", lambda eqn: _name_of(eqn) in keep)


def as_policy(policy: Any) -> SavePolicy:
    """A SavePolicy, or jax's form: a function `policy(prim, *avals, **params) -> bool`."""
    if policy is None:
        return nothing_saveable
    if isinstance(policy, SavePolicy):
        return policy
    if not callable(policy):
        raise TypeError(f"checkpoint: policy must be a checkpoint policy or a function "
                        f"policy(prim, *avals, **params) -> bool, got {policy!r}")
    name = getattr(policy, "__name__", repr(policy))
    return SavePolicy(name, lambda eqn: bool(policy(eqn.primitive, *[v.aval for v in eqn.invars], **eqn.params)))


class checkpoint_policies:  # noqa: N801  (a namespace, as jax.checkpoint_policies)
    """The save policies `checkpoint(policy=...)` takes, as jax.checkpoint_policies names them.

    Examples:
        >>> import padax
        >>> from padax.ad_checkpoint import checkpoint_policies
        >>> checkpoint_policies.dots_saveable, checkpoint_policies.save_only_these_names('hidden')
        (dots_saveable, save_only_these_names('hidden',))
    """
    nothing_saveable = nothing_saveable
    everything_saveable = everything_saveable
    dots_saveable = dots_saveable
    checkpoint_dots = dots_saveable
    dots_with_no_batch_dims_saveable = dots_with_no_batch_dims_saveable
    checkpoint_dots_with_no_batch_dims = dots_with_no_batch_dims_saveable
    save_only_these_names = staticmethod(save_only_these_names)
    save_any_names_but_these = staticmethod(save_any_names_but_these)
    save_anything_except_these_names = staticmethod(save_anything_except_these_names)
    save_from_both_policies = staticmethod(save_from_both_policies)
    offload_dot_with_no_batch_dims = staticmethod(offload_dot_with_no_batch_dims)
    save_and_offload_only_these_names = staticmethod(save_and_offload_only_these_names)


def checkpoint_name(x: Any, name: str) -> Any:
    """`x` (a pytree of arrays) named `name` for checkpoint policies such as save_only_these_names.

    Args:
        x: an array or a pytree of arrays.
        name: the name policies refer to.

    Returns:
        `x`'s values (the name lives in the program).

    Examples:
        >>> import padax
        >>> from padax.ad_checkpoint import checkpoint, checkpoint_name, checkpoint_policies, saved_residuals
        >>> def g(x):
        ...     return padax.sin(checkpoint_name(padax.sin(x), 'y'))
        >>> g_keep_y = checkpoint(g, policy=checkpoint_policies.save_only_these_names('y'))
        >>> [what for _, what in saved_residuals(g_keep_y, padax.to_tensor([1.0, 2.0]))]
        ['from the argument x', "named 'y' from ..."]
    """
    return tree_util.map(lambda leaf: name_p.bind(asarray(leaf), name=name), x)


def checkpoint(fun: Callable | None = None, *, policy: Any = None, prevent_cse: bool = True,
               static_argnums: int | tuple[int, ...] = ()) -> Callable:
    """Recompute `fun`'s intermediates in the backward pass instead of storing them (alias `remat`).

    Args:
        fun: the function (omit it to get a decorator).
        policy: which intermediates may be kept instead (see checkpoint_policies); default none.
        prevent_cse: accepted for jax's signature (padax does not read it).
        static_argnums: positional arguments that are Python values, not arrays.

    Returns:
        A function with fun's signature and values.

    Examples:
        >>> import padax
        >>> from padax.ad_checkpoint import checkpoint, saved_residuals
        >>> f = lambda x: padax.sin(padax.sin(x))
        >>> x = padax.to_tensor([1.0, 2.0])
        >>> len(saved_residuals(f, x)), [what for _, what in saved_residuals(checkpoint(f), x)]
        (2, ['from the argument x'])
        >>> padax.grad(lambda x: checkpoint(f)(x).sum())(x).tolist()     # the same gradient
        [0.36004, -0.25564]
    """
    if fun is None:
        return functools.partial(checkpoint, policy=policy, prevent_cse=prevent_cse, static_argnums=static_argnums)
    policy = as_policy(policy)
    static = (static_argnums,) if isinstance(static_argnums, int) else tuple(static_argnums)

    @functools.wraps(fun)
    def wrapped(*args, **kwargs):
        svals = {i: args[i] for i in static}
        dyn = [a for i, a in enumerate(args) if i not in svals]
        leaves, in_tree = tree_util.flatten((tuple(dyn), kwargs))
        store: list = []

        def flat(*xs):
            dyn_args, kw = in_tree.unflatten(xs)
            it = iter(dyn_args)
            full = [svals[i] if i in svals else next(it) for i in range(len(args))]
            start = node_state.mark()
            out_leaves, out_tree = tree_util.flatten(fun(*full, **kw))
            # state that layers among the arguments updated (BatchNorm's statistics): extra outputs
            state = node_state.updates((tuple(dyn), kwargs), (dyn_args, kw), start, lambda v, *_: v)
            store.append((out_tree, state))
            return out_leaves + [v for *_, v in state]

        closed = trace_flat(flat, [arg_aval(x) for x in leaves], "checkpoint tracing")
        outs = bind_with_refs(remat_p, [*closed.consts, *leaves], dict(jaxpr=hoist_consts(closed), policy=policy))
        out_tree, state = store[0]
        node_state.write([(p, o, name, v) for (p, o, name, _), v in zip(state, outs[out_tree.num_leaves:])])
        return out_tree.unflatten(outs[:out_tree.num_leaves])

    return wrapped


recompute = remat = checkpoint


def _argument_names(fun: Callable, args: tuple, kwargs: dict) -> list[str]:
    """A name per leaf of (args, kwargs): the parameter name plus the leaf's tree path."""
    try:
        bound = inspect.signature(fun).bind(*args, **kwargs)
        named = list(bound.arguments.items())
    except (TypeError, ValueError):
        named = [(f"args[{i}]", a) for i, a in enumerate(args)] + list(kwargs.items())
    names = []
    for pname, value in named:
        names += [pname + tree_util.keystr(path) for path, _ in tree_util.flatten_with_path(value)[0]]
    return names


def saved_residuals(fun: Callable, *args: Any, **kwargs: Any) -> list[tuple[Any, str]]:
    """What reverse mode of `fun` at these arguments keeps for the backward pass.

    Args:
        fun: the function.
        args, kwargs: its arguments.

    Returns:
        A list of (aval, where it comes from), one per saved value.

    Examples:
        >>> import padax
        >>> from padax.ad_checkpoint import saved_residuals
        >>> [(aval.str_short(), what) for aval, what in saved_residuals(padax.sin, padax.to_tensor([1.0, 2.0]))]
        [('f32[2]', 'output of cos from ...')]
    """
    leaves, in_tree = tree_util.flatten((args, kwargs))
    names = _argument_names(fun, args, kwargs)
    trace = JaxprTrace("saved_residuals tracing")
    with new_trace(trace):
        ins = [trace.new_arg(arg_aval(x)) for x in leaves]
        _, linear, _, _ = linearize_flat(flat_fun(fun, in_tree, []), ins)
    arg_index = {t._var: i for i, t in enumerate(ins)}
    eqn_index = {v: (i, eqn) for i, eqn in enumerate(trace.eqns) for v in eqn.outvars}
    found = []  # (order key, aval, description): arguments first, then in program order
    for r in linear.consts:
        v = r._var if isinstance(r, JaxprTracer) and r._trace is trace else None
        if v in arg_index:
            found.append(((0, arg_index[v]), v.aval, f"from the argument {names[arg_index[v]]}"))
        elif v in eqn_index:
            i, eqn = eqn_index[v]
            where = f" from {eqn.source_info}" if eqn.source_info is not None else ""
            what = f"named {eqn.params['name']!r}" if eqn.primitive is name_p else f"output of {eqn.primitive.name}"
            found.append(((1, i), v.aval, what + where))
        else:
            found.append(((2, 0), get_aval(r), "from a constant"))
    found.sort(key=lambda t: t[0])
    return [(aval, what) for _, aval, what in found]


def print_saved_residuals(fun: Callable, *args: Any, **kwargs: Any) -> None:
    """Print what reverse mode of `fun` keeps for the backward pass, one value a line.

    Lines read like `f32[5,4] from the argument W1` or `f32[5] output of sin from file.py:6 (g)`.

    Args:
        fun: the function.
        args, kwargs: its arguments.

    Examples:
        >>> import padax
        >>> from padax.ad_checkpoint import checkpoint, print_saved_residuals
        >>> print_saved_residuals(checkpoint(lambda x: padax.sin(padax.sin(x))), padax.to_tensor([1.0, 2.0]))
        f32[2] from the argument x
    """
    for aval, what in saved_residuals(fun, *args, **kwargs):
        print(aval.str_short(), what)


def _remat_jvp(primals, tangents, *, jaxpr, policy):
    """jvp of a remat call is a remat call of the jvp program (so partial eval sees it whole).
    Only nonzero tangents become inputs: a zero tangent must not turn into recomputed work."""
    n = len(primals)
    nz = [type(t) is not Zero for t in tangents]
    ts = [t for t in tangents if type(t) is not Zero]

    def jvp_fn(*pt):
        it = iter(pt[n:])
        tans = [next(it) if z else t for z, t in zip(nz, tangents)]
        outs, touts = jvp_flat(lambda *xs: eval_jaxpr(jaxpr.jaxpr, [], *xs), pt[:n], tans)
        return list(outs) + [instantiate(t) for t in touts]

    jvp_closed = trace_flat(jvp_fn, [get_aval(x) for x in list(primals) + ts], "checkpoint jvp tracing")
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
    lin = [is_undefined(a) for a in args]
    j = jaxpr.jaxpr
    consts = [a for a, l in zip(args, lin) if not l]
    cvars = [v for v, l in zip(j.invars, lin) if not l]
    lvars = [v for v, l in zip(j.invars, lin) if l]
    program = Jaxpr(cvars, lvars, j.outvars, j.eqns)
    cts_lin = iter(backward_pass(program, consts, list(cts)))
    return [next(cts_lin) if l else None for l in lin]


def _remat_batch(args, dims, *, jaxpr, policy):
    size = batch_size(args, dims)
    xs = [bdim_to_front(x, d, size) for x, d in zip(args, dims)]
    batched = trace_flat(vmap(lambda *a: eval_jaxpr(jaxpr.jaxpr, [], *a)), [get_aval(x) for x in xs],
                         "vmap of checkpoint tracing")
    outs = remat_p.bind(*batched.consts, *xs, jaxpr=hoist_consts(batched), policy=policy)
    return outs, [0] * len(outs)


remat_p.jvp_rule = _remat_jvp
remat_p.partial_eval_rule = _remat_partial_eval
remat_p.transpose_rule = _remat_transpose
remat_p.batch_rule = _remat_batch


def _remat_discharge(in_avals, out_avals, *args, jaxpr, policy):
    """A checkpointed function that reads, writes or makes refs: a checkpoint of its pure form."""
    pure, ref_pos = discharge_jaxpr(jaxpr)
    outs = remat_p.bind(*pure.consts, *args, jaxpr=hoist_consts(pure), policy=policy)
    n = len(out_avals)
    new = [None] * len(args)
    for k, i in enumerate(ref_pos):
        new[i] = outs[n + k]
    return new, outs[:n]


discharge_rules[remat_p] = _remat_discharge
