"""The `cond` primitive with its rules, and the lax-level `cond` and `switch`: one traced branch per
case, lowered to `stablehlo.case`; a batched predicate becomes a select over all branches."""
from __future__ import annotations

from typing import Any, Callable, Sequence

from padax.core import dtypes
from padax.core.abstract import get_aval
from padax.core.ad_util import Zero, is_undefined, tangent_aval, zeros_like_aval
from padax.core.effects import has_ordered, jaxpr_effects
from padax.core.errors import op_type_error, op_value_error
from padax.core.jaxpr import ClosedJaxpr, Jaxpr, Var, eval_jaxpr
from padax.core.primitive import Primitive
from padax.core.trace import set_current_trace
from padax.functional.lax.control.common import (
    _avals_str,
    _is_nonzero,
    _leaf_paths,
    _operand,
    _same_type,
    _strengthen_outputs,
    _trace_user,
)
from padax.functional.lax.elementwise import ne
from padax.functional.lax.structural import (
    batch_size,
    bdim_to_front,
    broadcast_in_dim_p,
    clamp,
    convert_element_type,
    select_n_p,
)
from padax.interpreters.ad import backward_pass, instantiate_tangent, jvp_jaxpr
from padax.interpreters.batching import batch_eval, batch_jaxpr
from padax.interpreters.discharge import bind_with_refs
from padax.interpreters.jaxpr_util import join_consts
from padax.interpreters.partial_eval import partial_eval_jaxpr
from padax.interpreters.staging import trace_flat
from padax.runtime import tree as tree_util

cond_p = Primitive("cond", multiple_results=True)


# ==== cond ========================================================================================

@cond_p.def_abstract_eval
def _cond_abstract(index, *ops, branches):
    if index.shape != () or index.dtype != dtypes.int32:
        raise op_type_error("cond", f"the branch index must be an int32 scalar, got {index.str_short()}")
    if not branches:
        raise op_value_error("cond", "needs at least one branch")
    for i, b in enumerate(branches):
        ins = b.in_avals
        if len(ins) != len(ops) or not all(_same_type(a, o) for a, o in zip(ins, ops)):
            raise op_type_error("cond", f"branch {i} takes {_avals_str(ins)} but the operands are "
                                        f"{_avals_str(ops)}")
    out0 = branches[0].out_avals
    for i, b in enumerate(branches[1:], 1):
        outs = b.out_avals
        if len(outs) != len(out0) or not all(_same_type(a, o) for a, o in zip(outs, out0)):
            raise op_type_error("cond", f"branch {i} returns {_avals_str(outs)} but branch 0 returns "
                                        f"{_avals_str(out0)}")
    return [a.update(weak_type=all(b.out_avals[k].weak_type for b in branches)) for k, a in enumerate(out0)]


def _cond_call(what: str, index: Any, fns: Sequence[Callable], names: Sequence[str],
               display: Sequence[int], operands: tuple) -> Any:
    """Trace each branch at the operands' types, check they agree, and bind `cond`."""
    leaves, in_tree = tree_util.flatten(tuple(operands))
    leaves = [_operand(x, what) for x in leaves]
    avals = [get_aval(x) for x in leaves]
    closeds, trees = [], []
    for f, name in zip(fns, names):
        if not callable(f):
            raise TypeError(f"{what}: {name} must be callable, got {type(f).__name__}")
        c, t = _trace_user(f, in_tree, avals, f"{what} {name}")
        closeds.append(c)
        trees.append(t)
    first = display[0]
    for i in display[1:]:
        if trees[i] != trees[first]:
            raise op_type_error(what, f"{names[first]} and {names[i]} must return the same tree structure, "
                                      f"got {trees[first]} and {trees[i]}")
    paths = _leaf_paths(trees[first])
    diffs = []
    for i in display[1:]:
        for k, (a, b) in enumerate(zip(closeds[first].out_avals, closeds[i].out_avals)):
            if not _same_type(a, b):
                diffs.append(f"output{paths[k]} is {a.str_short()} in {names[first]} but {b.str_short()} "
                             f"in {names[i]}")
    if diffs:
        raise op_type_error(what, "all branches must return the same types (shapes and dtypes): "
                                  + "; ".join(diffs))
    n_out = len(closeds[0].out_avals)
    targets = [closeds[0].out_avals[k].update(weak_type=all(c.out_avals[k].weak_type for c in closeds))
               for k in range(n_out)]
    closeds = [_strengthen_outputs(c, targets) for c in closeds]
    joined, consts = join_consts(closeds)
    outs = bind_with_refs(cond_p, [index, *consts, *leaves], dict(branches=tuple(joined)))
    return trees[first].unflatten(outs)


def cond(pred, true_fn: Callable, false_fn: Callable, *operands):
    """`true_fn(*operands)` if `pred` else `false_fn(*operands)`, with a traced `pred`.

    Both branches are traced (at the operands' types) and must return the same tree of
    the same types; only the chosen one runs. `pred` is a bool (or numeric, nonzero is
    true) scalar. Under vmap with a batched `pred` both branches run and are selected.

    Args:
        pred: a scalar bool or real number (may be traced).
        true_fn, false_fn: callables taking *operands and returning pytrees of matching structure and types.
        *operands: the arguments passed to the chosen branch (pytrees of arrays).

    Returns:
        The chosen branch's output pytree.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> f = lambda x: lax.cond(x > 0, lambda v: v * 2.0, lambda v: -v, x)
        >>> float(f(padax.to_tensor(3.0))), float(f(padax.to_tensor(-3.0)))
        (6.0, 3.0)
        >>> float(padax.grad(f)(padax.to_tensor(3.0)))
        2.0
    """
    pred = _operand(pred, "cond")
    a = get_aval(pred)
    if a.shape != ():
        raise op_type_error("cond", f"pred must be a scalar, got {a.str_short()}; for an elementwise "
                                    "choice use padax.where")
    if a.dtype != dtypes.bool_:
        if dtypes.is_complex(a.dtype):
            raise op_type_error("cond", f"pred must be a bool or real number, got {a.str_short()}")
        pred = ne(pred, 0)
    index = convert_element_type(pred, dtypes.int32)
    return _cond_call("cond", index, (false_fn, true_fn), ("false_fn", "true_fn"), (1, 0), operands)


def switch(index, branches: Sequence[Callable], *operands):
    """`branches[index](*operands)` with a traced integer `index`, clamped into range
    (below 0 runs the first branch, past the end the last), as jax.lax.switch does.

    Args:
        index: an integer (or bool) scalar, possibly traced.
        branches: a non-empty sequence of callables taking *operands, all returning the same tree of types.
        *operands: the arguments passed to the chosen branch (pytrees of arrays).

    Returns:
        The chosen branch's output pytree.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> branches = [lambda v: v + 1.0, lambda v: v * 10.0, lambda v: -v]
        >>> [float(lax.switch(i, branches, padax.to_tensor(2.0))) for i in range(3)]
        [3.0, 20.0, -2.0]
    """
    branches = tuple(branches)
    if not branches:
        raise op_value_error("switch", "needs at least one branch")
    index = _operand(index, "switch")
    a = get_aval(index)
    if a.shape != () or not (dtypes.is_integer(a.dtype) or a.dtype == dtypes.bool_):
        raise op_type_error("switch", f"index must be an integer scalar, got {a.str_short()}")
    if len(branches) == 1:
        return branches[0](*operands)
    if a.dtype == dtypes.bool_:
        index = convert_element_type(index, dtypes.int32)
    index = clamp(0, index, len(branches) - 1)
    index = convert_element_type(index, dtypes.int32)
    names = tuple(f"branches[{i}]" for i in range(len(branches)))
    return _cond_call("switch", index, branches, names, tuple(range(len(branches))), operands)


def _cond_jvp(primals, tangents, *, branches):
    index, ops = primals[0], primals[1:]
    in_avals = branches[0].in_avals
    nz = [_is_nonzero(t, a) for t, a in zip(tangents[1:], in_avals)]
    n_out = len(branches[0].out_avals)
    first = [jvp_jaxpr(b, nz, [False] * n_out) for b in branches]
    out_nz = [any(f[1][k] for f in first) for k in range(n_out)]
    jvps = [f[0] if f[1] == out_nz else jvp_jaxpr(b, nz, out_nz)[0] for f, b in zip(first, branches)]
    joined, consts = join_consts(jvps)
    tans = [instantiate_tangent(t, a) for t, a, z in zip(tangents[1:], in_avals, nz) if z]
    outs = cond_p.bind(index, *consts, *ops, *tans, branches=tuple(joined))
    primal_out, it = outs[:n_out], iter(outs[n_out:])
    t_out = [next(it) if z else Zero(tangent_aval(a)) for a, z in zip(branches[0].out_avals, out_nz)]
    return primal_out, t_out


def _cond_partial_eval(trace, args, unknowns, *, branches):
    """Known index: a known cond computes the known outputs and every branch's residuals
    (zeros in the slots of the other branches); an unknown cond consumes them."""
    if unknowns[0]:
        return trace.stage(cond_p, args, dict(branches=branches))
    index, ops, ops_uk = args[0], args[1:], list(unknowns[1:])
    n_out = len(branches[0].out_avals)
    splits = [partial_eval_jaxpr(b, ops_uk, False) for b in branches]
    out_uk = [any(s[2][k] for s in splits) for k in range(n_out)]
    splits = [s if s[2] == out_uk else partial_eval_jaxpr(b, ops_uk, out_uk) for s, b in zip(splits, branches)]
    n_known_out = n_out - sum(out_uk)
    res_avals = [s[0].out_avals[n_known_out:] for s in splits]
    known_avals = [get_aval(x) for x, u in zip(ops, ops_uk) if not u]

    def known_branch(i):
        k = splits[i][0]

        def f(*xs):
            outs = eval_jaxpr(k.jaxpr, k.consts, *xs)
            res = []
            for j, avals in enumerate(res_avals):
                res += outs[n_known_out:] if j == i else [zeros_like_aval(a) for a in avals]
            return outs[:n_known_out] + res
        return trace_flat(f, known_avals, "partial eval of cond")

    if n_known_out or any(res_avals) or any(jaxpr_effects(s[0]) for s in splits):
        known_joined, kconsts = join_consts([known_branch(i) for i in range(len(branches))])
        with set_current_trace(trace.parent):
            kouts = cond_p.bind(index, *kconsts, *[x for x, u in zip(ops, ops_uk) if not u],
                                branches=tuple(known_joined))
    else:
        kouts = []
    known_out, residuals = kouts[:n_known_out], kouts[n_known_out:]
    if not any(out_uk):
        return list(known_out)
    unknown_branches = []
    for i, s in enumerate(splits):
        uj, nres = s[1].jaxpr, s[3]
        invars: list[Var] = []
        for j, avals in enumerate(res_avals):
            invars += uj.invars[:nres] if j == i else [Var(a) for a in avals]
        unknown_branches.append(ClosedJaxpr(Jaxpr([], invars + uj.invars[nres:], uj.outvars, uj.eqns), []))
    uouts = trace.stage(cond_p, [index, *residuals, *[x for x, u in zip(ops, ops_uk) if u]],
                   dict(branches=tuple(unknown_branches)))
    ki, ui = iter(known_out), iter(uouts)
    return [next(ui) if u else next(ki) for u in out_uk]


def _cond_transpose(cts, index, *ops, branches):
    if is_undefined(index):
        raise TypeError("cond: cannot transpose with respect to the branch index")
    lin = [is_undefined(x) for x in ops]
    if all(type(c) is Zero for c in cts):
        return [None] * (1 + len(ops))
    out_avals = branches[0].out_avals
    ct_mask = [dtypes.is_inexact(a.dtype) for a in out_avals]
    ct_vals = [instantiate_tangent(c, a) for c, a, m in zip(cts, out_avals, ct_mask) if m]
    nonlin = [x for x, l in zip(ops, lin) if not l]
    in_avals = branches[0].in_avals
    nl_avals = [a for a, l in zip(in_avals, lin) if not l]
    ct_avals = [tangent_aval(a) for a, m in zip(out_avals, ct_mask) if m]

    def transposed(b):
        j = b.jaxpr
        tj = Jaxpr([v for v, l in zip(j.invars, lin) if not l], [v for v, l in zip(j.invars, lin) if l],
                   j.outvars, j.eqns)

        def f(*xs):
            nl, it = xs[:len(nl_avals)], iter(xs[len(nl_avals):])
            full = [next(it) if m else Zero(tangent_aval(a)) for a, m in zip(out_avals, ct_mask)]
            res = backward_pass(tj, list(nl), full)
            return [instantiate_tangent(r, v.aval) for r, v in zip(res, tj.invars)]
        return trace_flat(f, nl_avals + ct_avals, "transpose of cond")

    joined, consts = join_consts([transposed(b) for b in branches])
    outs = cond_p.bind(index, *consts, *nonlin, *ct_vals, branches=tuple(joined))
    it = iter(outs)
    return [None] + [next(it) if l else None for l in lin]


def _cond_batch(axis, args, dims, *, branches):
    size = batch_size(args, dims)
    index, ops = args[0], list(args[1:])
    idim, odims = dims[0], dims[1:]
    ops = [bdim_to_front(x, d, size) if d is not None else x for x, d in zip(ops, odims)]
    batched = [d is not None for d in odims]
    n_out = len(branches[0].out_avals)
    if idim is not None:
        # a batched predicate: run every branch and select per element
        if any(has_ordered(jaxpr_effects(b)) for b in branches):
            raise ValueError("vmap of cond/switch with a batched predicate: every branch would run for every "
                             "element, so ordered side effects (debug.print(..., ordered=True), ordered "
                             "io_callback) in the branches cannot keep their order. Use unordered ones, or "
                             "compute the predicate outside the vmap.")
        idx = bdim_to_front(index, idim, size)
        results = [batch_eval(axis, b, size, ops, batched, [True] * n_out)[0] for b in branches]
        outs = []
        for k in range(n_out):
            cases = [r[k] for r in results]
            shape = get_aval(cases[0]).shape
            which = idx if len(shape) == 1 else broadcast_in_dim_p.bind(idx, shape=shape, broadcast_dimensions=(0,))
            outs.append(select_n_p.bind(which, *cases))
        return outs, [0] * n_out
    first = [batch_jaxpr(axis, b, size, batched, [False] * n_out) for b in branches]
    out_b = [any(f[1][k] for f in first) for k in range(n_out)]
    bjs = [f[0] if f[1] == out_b else batch_jaxpr(axis, b, size, batched, out_b)[0] for f, b in zip(first, branches)]
    joined, consts = join_consts(bjs)
    outs = cond_p.bind(index, *consts, *ops, branches=tuple(joined))
    return outs, [0 if b else None for b in out_b]


cond_p.jvp_rule = _cond_jvp
cond_p.partial_eval_rule = _cond_partial_eval
cond_p.transpose_rule = _cond_transpose
cond_p.batch_rule_takes_trace = True
cond_p.batch_rule = _cond_batch
