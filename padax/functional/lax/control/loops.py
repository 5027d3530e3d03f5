"""The `while` and `scan` primitives with their rules, and the lax-level `while_loop`, `fori_loop`,
`scan` and `map`. `while` lowers to `stablehlo.while`; `scan` to a while over an index that reads
`xs` and writes `ys` with dynamic (update) slices. fori_loop with static bounds runs as a scan, so
reverse mode differentiates it; a while_loop is forward-mode only (its trip count is known at run time)."""
from __future__ import annotations

import operator
from typing import Any, Callable

import numpy as np

from padax.core import dtypes
from padax.core.abstract import get_aval
from padax.core.ad_util import Zero, add_tangents, is_undefined, tangent_aval, zeros_like_aval
from padax.core.errors import op_type_error, op_value_error
from padax.core.jaxpr import ClosedJaxpr, Jaxpr, Literal, Var, eval_jaxpr
from padax.core.primitive import Primitive
from padax.core.trace import set_current_trace
from padax.functional._arrays import asarray, result_dtype
from padax.functional.lax.control.common import (
    _avals_str,
    _check_carry_tree,
    _fix_carry,
    _is_nonzero,
    _leaf_paths,
    _operand,
    _same_type,
    _trace_user,
)
from padax.functional.lax.elementwise import add, lt
from padax.functional.lax.reductions import reduce_or_p
from padax.functional.lax.structural import (
    batch_size,
    bdim_to_front,
    broadcast_in_dim_p,
    concatenate,
    convert_element_type,
    moveaxis,
    reshape,
    select_n_p,
    slice_in_dim,
)
from padax.interpreters.ad import backward_pass, instantiate_tangent, jvp_jaxpr
from padax.interpreters.batching import batch_flat, batch_jaxpr
from padax.interpreters.discharge import bind_with_refs
from padax.interpreters.jaxpr_util import dce, deps, hoist
from padax.interpreters.partial_eval import partial_eval_jaxpr
from padax.interpreters.staging import trace_flat
from padax.runtime import tree as tree_util

while_p = Primitive("while", multiple_results=True)
scan_p = Primitive("scan", multiple_results=True)



# ==== while =======================================================================================

_WHILE_REVERSE_MSG = (
    "reverse-mode differentiation (grad/vjp/jacrev) of while_loop is not supported: its trip count "
    "is only known at run time, so the loop cannot be run backwards. Use padax.lax.scan with a fixed "
    "length, or fori_loop with static Python int bounds (which runs as a scan and is differentiable "
    "in reverse mode). Forward mode (jvp/jacfwd) of while_loop works.")


@while_p.def_abstract_eval
def _while_abstract(*args, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    cc = args[:cond_nconsts]
    bc = args[cond_nconsts:cond_nconsts + body_nconsts]
    init = args[cond_nconsts + body_nconsts:]
    c_in = list(cc) + list(init)
    if len(cond_jaxpr.in_avals) != len(c_in) or not all(_same_type(a, b) for a, b in zip(cond_jaxpr.in_avals, c_in)):
        raise op_type_error("while", f"cond_jaxpr takes {_avals_str(cond_jaxpr.in_avals)} but gets {_avals_str(c_in)}")
    outs = cond_jaxpr.out_avals
    if len(outs) != 1 or outs[0].shape != () or outs[0].dtype != dtypes.bool_:
        raise op_type_error("while_loop", f"cond_fun must return a bool scalar, got {_avals_str(outs)}")
    b_in = list(bc) + list(init)
    if len(body_jaxpr.in_avals) != len(b_in) or not all(_same_type(a, b) for a, b in zip(body_jaxpr.in_avals, b_in)):
        raise op_type_error("while", f"body_jaxpr takes {_avals_str(body_jaxpr.in_avals)} but gets {_avals_str(b_in)}")
    b_out = body_jaxpr.out_avals
    if len(b_out) != len(init) or not all(_same_type(a, b) for a, b in zip(b_out, init)):
        raise op_type_error("while", f"body_jaxpr returns {_avals_str(b_out)} for the carry {_avals_str(init)}")
    return list(init)


def while_loop(cond_fun: Callable, body_fun: Callable, init_val):
    """Repeat `val = body_fun(val)` while `cond_fun(val)`; returns the final `val`.

    `init_val` is any pytree of arrays; `body_fun` must return the same tree of the same
    types. Differentiable in forward mode only (the trip count is dynamic): for reverse
    mode use `scan` or `fori_loop` with static bounds.

    Args:
        cond_fun: val -> a bool scalar.
        body_fun: val -> val, keeping the tree structure and the types.
        init_val: the initial loop value (a pytree of arrays or Python scalars).

    Returns:
        The final loop value, with init_val's structure.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> float(lax.while_loop(lambda c: c[0] < 5, lambda c: (c[0] + 1, c[1] * 2.0), (0, padax.to_tensor(1.0)))[1])
        32.0
    """
    if not callable(cond_fun) or not callable(body_fun):
        raise TypeError("while_loop: cond_fun and body_fun must be callable")
    leaves, tree = tree_util.flatten(init_val)
    leaves = [_operand(x, "while_loop") for x in leaves]
    in_tree = tree_util.structure((init_val,))

    def trace_body(avals):
        closed, out_tree = _trace_user(body_fun, in_tree, avals, "while_loop body_fun")
        return closed, out_tree, None

    body, _, leaves = _fix_carry("while_loop", "body_fun", "init_val", trace_body, leaves, tree)
    avals = [get_aval(x) for x in leaves]
    cond_closed, c_tree = _trace_user(cond_fun, in_tree, avals, "while_loop cond_fun")
    c_out = cond_closed.out_avals
    if c_tree.num_leaves != 1 or c_out[0].shape != () or c_out[0].dtype != dtypes.bool_:
        raise op_type_error("while_loop", f"cond_fun must return a bool scalar, got {_avals_str(c_out)}")
    outs = bind_with_refs(while_p, [*cond_closed.consts, *body.consts, *leaves],
                          dict(cond_jaxpr=hoist(cond_closed), body_jaxpr=hoist(body),
                               cond_nconsts=len(cond_closed.consts), body_nconsts=len(body.consts)))
    return tree.unflatten(outs)


def fori_loop(lower, upper, body_fun: Callable, init_val, *, unroll: int | bool | None = None):
    """`val = body_fun(i, val)` for i in [lower, upper); returns the final `val`.

    With Python int bounds the trip count is static and the loop runs as a `scan` (so it
    is differentiable in reverse mode, and `unroll` applies); with traced bounds it is a
    `while_loop` (forward-mode differentiable only).

    Args:
        lower, upper: the integer bounds (Python ints for a static loop, or integer scalar arrays).
        body_fun: (i, val) -> val, keeping the tree structure and the types.
        init_val: the initial loop value (a pytree).
        unroll: iterations per compiled loop step (static bounds only), as in scan.

    Returns:
        The final loop value, with init_val's structure.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> float(lax.fori_loop(0, 5, lambda i, acc: acc + i, padax.to_tensor(0.0)))
        10.0
    """
    static = all(isinstance(b, (int, np.integer)) and not isinstance(b, (bool, np.bool_)) for b in (lower, upper))
    init_tree = tree_util.flatten(init_val)[1]

    def checked_body(i, x):  # checked here, so the message speaks of init_val, not of the loop's (i, val) carry
        out = body_fun(i, x)
        _check_carry_tree("fori_loop", "body_fun", "init_val", init_tree, tree_util.flatten(out)[1])
        return out

    if static:
        lo, hi = int(lower), int(upper)
        big = [b for b in (lo, hi) if not -2 ** 63 <= b < 2 ** 63]
        if big:
            raise op_value_error("fori_loop", f"bound {big[0]} does not fit the int64 loop index")
        if hi - lo > MAX_SCAN_LENGTH:
            raise op_value_error("fori_loop", f"the static bounds [{lo}, {hi}) give {hi - lo} steps, more than a "
                                              f"compiled loop can count (at most 2**31 - 1 = {MAX_SCAN_LENGTH}: the "
                                              "step counter is int32)")
        i0 = asarray(lo)

        def step(carry, _):
            i, x = carry
            return (add(i, 1), checked_body(i, x)), None

        (_, out), _ = scan(step, (i0, init_val), None, length=max(hi - lo, 0),
                           unroll=1 if unroll is None else unroll)
        return out
    if unroll not in (None, 1, False):
        raise op_value_error("fori_loop", "unroll needs static (Python int) lower and upper bounds")
    lo, hi = _operand(lower, "fori_loop"), _operand(upper, "fori_loop")
    for b in (lo, hi):
        ba = get_aval(b)
        if ba.shape != () or not dtypes.is_integer(ba.dtype):
            raise op_type_error("fori_loop", f"lower and upper must be integer scalars, got {ba.str_short()}")
    dt, weak = result_dtype(lo, hi)
    lo, hi = convert_element_type(lo, dt, weak), convert_element_type(hi, dt, weak)

    def cond_fun(c):
        return lt(c[0], c[1])

    def body(c):
        i, u, x = c
        return add(i, 1), u, checked_body(i, x)

    return while_loop(cond_fun, body, (lo, hi, init_val))[2]


def _while_jvp(primals, tangents, *, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    ncc, nbc = cond_nconsts, body_nconsts
    cc, bc, init = primals[:ncc], primals[ncc:ncc + nbc], primals[ncc + nbc:]
    avals = [get_aval(p) for p in primals]
    nz = [_is_nonzero(t, a) for t, a in zip(tangents, avals)]
    bc_nz, carry_nz = nz[ncc:ncc + nbc], nz[ncc + nbc:]
    n = len(init)
    while True:
        jv, out_nz = jvp_jaxpr(body_jaxpr, bc_nz + carry_nz, carry_nz)
        new = [a or b for a, b in zip(carry_nz, out_nz)]
        if new == carry_nz:
            break
        carry_nz = new
    j, consts = jv.jaxpr, jv.consts
    n_bct = sum(bc_nz)
    iv = j.invars
    bc_v, carry_v, bct_v, ct_v = iv[:nbc], iv[nbc:nbc + n], iv[nbc + n:nbc + n + n_bct], iv[nbc + n + n_bct:]
    body = ClosedJaxpr(Jaxpr([], j.constvars + bc_v + bct_v + carry_v + ct_v, j.outvars, j.eqns), [])
    cj = cond_jaxpr.jaxpr
    init_avals = avals[ncc + nbc:]
    ct_extra = [Var(tangent_aval(a)) for a, z in zip(init_avals, carry_nz) if z]
    cond = ClosedJaxpr(Jaxpr([], cj.invars + ct_extra, cj.outvars, cj.eqns), [])
    bct = [instantiate_tangent(t, a) for t, a, z in zip(tangents[ncc:ncc + nbc], avals[ncc:ncc + nbc], bc_nz) if z]
    ct = [instantiate_tangent(t, a) for t, a, z in zip(tangents[ncc + nbc:], init_avals, carry_nz) if z]
    outs = while_p.bind(*cc, *consts, *bc, *bct, *init, *ct, cond_jaxpr=cond, body_jaxpr=body,
                        cond_nconsts=ncc, body_nconsts=len(consts) + nbc + n_bct)
    it = iter(outs[n:])
    return outs[:n], [next(it) if z else Zero(tangent_aval(a)) for a, z in zip(init_avals, carry_nz)]


def _while_partial_eval(trace, args, unknowns, *, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    """Known carries run in a known loop now; the loop is also staged whole for the unknown
    ones (so `linearize` works). Transposing that staged loop raises: see `_while_transpose`."""
    params = dict(cond_jaxpr=cond_jaxpr, body_jaxpr=body_jaxpr, cond_nconsts=cond_nconsts,
                  body_nconsts=body_nconsts)
    ncc, nbc = cond_nconsts, body_nconsts
    cc_uk, bc_uk, carry_uk = unknowns[:ncc], unknowns[ncc:ncc + nbc], list(unknowns[ncc + nbc:])
    if any(cc_uk):
        return trace.stage(while_p, args, params)
    while True:
        out_uk = deps(body_jaxpr.jaxpr, bc_uk + carry_uk)
        new = [a or b for a, b in zip(carry_uk, out_uk)]
        if new == carry_uk:
            break
        carry_uk = new
    known = [not u for u in carry_uk]
    cj, c_used = dce(cond_jaxpr.jaxpr, [True])
    if all(carry_uk) or any(u and used for u, used in zip(carry_uk, c_used[ncc:])):
        return trace.stage(while_p, args, params)
    bj, _ = dce(body_jaxpr.jaxpr, known)
    kb = Jaxpr([], [v for v, u in zip(bj.invars, bc_uk + carry_uk) if not u], bj.outvars, bj.eqns)
    kc = Jaxpr([], cj.invars[:ncc] + [v for v, u in zip(cj.invars[ncc:], carry_uk) if not u], cj.outvars, cj.eqns)
    known_args = list(args[:ncc]) + [a for a, u in zip(args[ncc:], bc_uk + carry_uk) if not u]
    with set_current_trace(trace.parent):
        kouts = while_p.bind(*known_args, cond_jaxpr=ClosedJaxpr(kc, []), body_jaxpr=ClosedJaxpr(kb, []),
                             cond_nconsts=ncc, body_nconsts=sum(not u for u in bc_uk))
    staged = trace.stage(while_p, args, params)
    ki = iter(kouts)
    return [s if u else next(ki) for s, u in zip(staged, carry_uk)]


def _while_transpose(cts, *args, **params):
    raise ValueError(_WHILE_REVERSE_MSG)


def _while_batch(axis, args, dims, *, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    size = batch_size(args, dims)
    ncc, nbc = cond_nconsts, body_nconsts
    b = [d is not None for d in dims]
    cc_b, bc_b, carry_b = b[:ncc], b[ncc:ncc + nbc], list(b[ncc + nbc:])
    n = len(carry_b)
    while True:
        _, out_b = batch_jaxpr(axis, body_jaxpr, size, bc_b + carry_b, carry_b)
        new = [x or y for x, y in zip(carry_b, out_b)]
        if new == carry_b:
            break
        carry_b = new
    _, (pred_b,) = batch_jaxpr(axis, cond_jaxpr, size, cc_b + carry_b, [False])
    if pred_b:
        carry_b = [True] * n
    body_b, _ = batch_jaxpr(axis, body_jaxpr, size, bc_b + carry_b, carry_b)
    cond_b, _ = batch_jaxpr(axis, cond_jaxpr, size, cc_b + carry_b, [False])
    cc = [bdim_to_front(x, d, size) if d is not None else x for x, d in zip(args[:ncc], dims[:ncc])]
    bc = [bdim_to_front(x, d, size) if d is not None else x
          for x, d in zip(args[ncc:ncc + nbc], dims[ncc:ncc + nbc])]
    carry = [bdim_to_front(x, d, size) if cb else x
             for x, d, cb in zip(args[ncc + nbc:], dims[ncc + nbc:], carry_b)]
    if not pred_b:
        outs = while_p.bind(*cond_b.consts, *cc, *body_b.consts, *bc, *carry, cond_jaxpr=hoist(cond_b),
                            body_jaxpr=hoist(body_b), cond_nconsts=len(cond_b.consts) + ncc,
                            body_nconsts=len(body_b.consts) + nbc)
        return outs, [0 if x else None for x in carry_b]
    # a batched predicate: loop while any element is active; finished elements keep their carry
    cc_avals = [get_aval(x) for x in cc]
    bc_avals = [get_aval(x) for x in bc]
    carry_avals = [get_aval(x) for x in carry]

    def any_cond(*xs):
        (pred,) = eval_jaxpr(cond_b.jaxpr, cond_b.consts, *xs)
        return [reduce_or_p.bind(pred, axes=(0,))]

    def masked_body(*xs):
        c, bcs, carry_in = xs[:ncc], xs[ncc:ncc + nbc], xs[ncc + nbc:]
        (pred,) = eval_jaxpr(cond_b.jaxpr, cond_b.consts, *c, *carry_in)
        new = eval_jaxpr(body_b.jaxpr, body_b.consts, *bcs, *carry_in)
        out = []
        for old, nw in zip(carry_in, new):
            shape = get_aval(old).shape
            which = pred if len(shape) == 1 else broadcast_in_dim_p.bind(pred, shape=shape, broadcast_dimensions=(0,))
            out.append(select_n_p.bind(which, old, nw))
        return out

    new_cond = trace_flat(any_cond, cc_avals + carry_avals, "vmap of while_loop")
    new_body = trace_flat(masked_body, cc_avals + bc_avals + carry_avals, "vmap of while_loop")
    outs = while_p.bind(*new_cond.consts, *cc, *new_body.consts, *cc, *bc, *carry,
                        cond_jaxpr=hoist(new_cond), body_jaxpr=hoist(new_body),
                        cond_nconsts=len(new_cond.consts) + ncc,
                        body_nconsts=len(new_body.consts) + ncc + nbc)
    return outs, [0] * n


while_p.jvp_rule = _while_jvp
while_p.partial_eval_rule = _while_partial_eval
while_p.transpose_rule = _while_transpose
while_p.batch_rule_takes_trace = True
while_p.batch_rule = _while_batch


# ==== scan ========================================================================================

def _scan_split(seq, num_consts: int, num_carry: int):
    return (list(seq[:num_consts]), list(seq[num_consts:num_consts + num_carry]),
            list(seq[num_consts + num_carry:]))


@scan_p.def_abstract_eval
def _scan_abstract(*args, jaxpr, num_consts, num_carry, length, reverse, unroll):
    consts, carry, xs = _scan_split(args, num_consts, num_carry)
    for x in xs:
        if x.ndim == 0 or x.shape[0] != length:
            raise op_value_error("scan", f"every xs operand needs a leading axis of the scan length {length}, "
                                         f"got {_avals_str(xs)}")
    expected = consts + carry + [x.update(shape=x.shape[1:]) for x in xs]
    ins = jaxpr.in_avals
    if len(ins) != len(expected) or not all(_same_type(a, b) for a, b in zip(ins, expected)):
        raise op_type_error("scan", f"the body takes {_avals_str(ins)} but gets {_avals_str(expected)}")
    outs = jaxpr.out_avals
    if len(outs) < num_carry or not all(_same_type(a, b) for a, b in zip(outs[:num_carry], carry)):
        raise op_type_error("scan", f"the body returns {_avals_str(outs)} for the carry {_avals_str(carry)}")
    if unroll < 1:
        raise op_value_error("scan", f"unroll must be >= 1, got {unroll}")
    return list(carry) + [y.update(shape=(length,) + y.shape) for y in outs[num_carry:]]


MAX_SCAN_LENGTH = 2 ** 31 - 1  # the compiled loop's step counter is int32


def _scan_length(length: Any) -> int:
    """`length` as a non-negative int the compiled loop can count to; a float, a bool or a value
    beyond the int32 step counter is refused (int(3.5) would silently run 3 steps)."""
    if isinstance(length, (bool, np.bool_)) or isinstance(length, (float, np.floating)):
        raise op_type_error("scan", f"length must be an int, got {type(length).__name__} {length!r}")
    try:
        n = operator.index(length)
    except TypeError:
        raise op_type_error("scan", f"length must be an int, got {type(length).__name__} {length!r}") from None
    if n < 0:
        raise op_value_error("scan", f"length must be non-negative, got {n}")
    if n > MAX_SCAN_LENGTH:
        raise op_value_error("scan", f"length {n} is more steps than a compiled loop can count (at most "
                                     f"2**31 - 1 = {MAX_SCAN_LENGTH}: the step counter is int32)")
    return n


def scan(f: Callable, init, xs=None, length: int | None = None, reverse: bool = False,
         unroll: int | bool = 1):
    """Loop `carry, y = f(carry, x)` over the leading axis of `xs`; returns (carry, stacked ys).

    `init`, `xs` and the ys are pytrees; `xs=None` with `length` gives `x=None`. With
    `reverse=True` the elements are visited last to first (ys keep their positions).
    `unroll` steps are emitted per loop iteration in the compiled program (`True` unrolls
    fully). Differentiable in forward and reverse mode (residuals are saved per step).

    Args:
        f: (carry, x) -> (carry, y); the carry keeps its structure and types.
        init: the initial carry (a pytree).
        xs: a pytree of arrays sharing a leading axis, or None (then `length` is required).
        length: the number of steps; checked against xs's leading axis when both are given.
        reverse: visit the elements from last to first.
        unroll: a positive int, or True (fully) / False (1).

    Returns:
        (final carry, ys), where each leaf of ys stacks the per-step y along a new leading axis.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> def step(carry, x):
        ...     carry = carry + x
        ...     return carry, carry * 10.0
        ...
        >>> total, partial = lax.scan(step, padax.to_tensor(0.0), padax.to_tensor([1.0, 2.0, 3.0]))
        >>> float(total), partial.tolist()
        (6.0, [10.0, 30.0, 60.0])
    """
    if not callable(f):
        raise TypeError(f"scan: f must be callable, got {type(f).__name__}")
    init_leaves, init_tree = tree_util.flatten(init)
    init_leaves = [_operand(x, "scan") for x in init_leaves]
    xs_leaves, xs_tree = tree_util.flatten(xs)
    xs_leaves = [_operand(x, "scan") for x in xs_leaves]
    lengths = set()
    paths = _leaf_paths(xs_tree)
    for p, x in zip(paths, xs_leaves):
        a = get_aval(x)
        if a.ndim == 0:
            raise op_value_error("scan", f"xs{p} is a scalar ({a.str_short()}); every xs leaf needs a "
                                         "leading axis to scan over")
        lengths.add(a.shape[0])
    if length is not None:
        length = _scan_length(length)
        if lengths and lengths != {length}:
            raise op_value_error("scan", f"length={length} does not match the leading axes of xs "
                                         f"{sorted(lengths)}")
    elif len(lengths) > 1:
        detail = ", ".join(f"xs{p}: {get_aval(x).shape[0]}" for p, x in zip(paths, xs_leaves))
        raise op_value_error("scan", f"the xs leaves have different leading axis sizes: {detail}")
    elif not lengths:
        raise op_value_error("scan", "needs xs with a leading axis, or length= when xs is None")
    else:
        length = lengths.pop()
    if unroll is True:
        unroll = max(length, 1)
    elif unroll is False:
        unroll = 1
    unroll = int(unroll)
    if unroll < 1:
        raise op_value_error("scan", f"unroll must be a positive int or a bool, got {unroll}")
    x_avals = [get_aval(x).update(shape=get_aval(x).shape[1:]) for x in xs_leaves]
    in_tree = tree_util.structure((init, xs))
    n_carry = len(init_leaves)

    def trace_body(avals):
        closed, (c_tree, y_tree) = _trace_user(lambda c, x: f(c, x), in_tree, list(avals) + x_avals,
                                               "scan body f", pair=True)
        return closed, c_tree, y_tree

    body, y_tree, init_leaves = _fix_carry("scan", "f", "init", trace_body, init_leaves, init_tree)
    outs = bind_with_refs(scan_p, [*body.consts, *init_leaves, *xs_leaves],
                          dict(jaxpr=hoist(body), num_consts=len(body.consts), num_carry=n_carry, length=length,
                               reverse=bool(reverse), unroll=unroll))
    return init_tree.unflatten(outs[:n_carry]), y_tree.unflatten(outs[n_carry:])


def _vmap_leading(f: Callable, xs: Any, size: int) -> Any:
    """`vmap(f)(xs)` over the leading axis of every leaf of `xs` (the batches of `map(batch_size=)`)."""
    leaves, tree = tree_util.flatten(xs)
    store: list = []

    def flat(*ls):
        out_leaves, out_tree = tree_util.flatten(f(tree_util.unflatten(tree, ls)))
        store.append(out_tree)
        return out_leaves

    outs, _ = batch_flat(flat, size, leaves, [True] * len(leaves))
    return tree_util.unflatten(store[0], outs)


def map(f: Callable, xs, *, batch_size: int | None = None):
    """`f` applied to each slice along the leading axis of `xs` (a pytree); results stacked.

    A scan without a carry: one compiled loop rather than a vmap, so memory stays at one
    slice's worth of intermediates. With `batch_size`, each loop step vmaps `f` over that many
    slices (the remainder runs as one last vmapped batch), as jax.lax.map.

    Args:
        f: a function of one slice (a pytree matching xs without the leading axis).
        xs: a pytree of arrays sharing a leading axis.
        batch_size: if given, the number of slices vmapped per loop step.

    Returns:
        A pytree of f's outputs stacked along a new leading axis.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> lax.map(lambda row: row.sum(), padax.to_tensor([[1.0, 2.0], [3.0, 4.0]])).tolist()
        [3.0, 7.0]
    """
    if batch_size is None:
        _, ys = scan(lambda c, x: ((), f(x)), (), xs)
        return ys
    b = int(batch_size)
    if b < 1:
        raise op_value_error("map", f"batch_size must be a positive integer, got {batch_size!r}")
    leaves, tree = tree_util.flatten(xs)
    n = get_aval(leaves[0]).shape[0]
    full_n = (n // b) * b
    parts = []
    if full_n:
        blocks = tree_util.unflatten(tree, [reshape(slice_in_dim(x, 0, full_n, 1, 0),
                                                    (n // b, b) + get_aval(x).shape[1:]) for x in leaves])
        _, ys = scan(lambda c, x: ((), _vmap_leading(f, x, b)), (), blocks)
        parts.append(tree_util.map(lambda y: reshape(y, (full_n,) + get_aval(y).shape[2:]), ys))
    if full_n < n:
        rest = tree_util.unflatten(tree, [slice_in_dim(x, full_n, n, 1, 0) for x in leaves])
        parts.append(_vmap_leading(f, rest, n - full_n))
    if len(parts) == 1:
        return parts[0]
    return tree_util.map(lambda a, c: concatenate([a, c], 0), parts[0], parts[1])


def _scan_jvp(primals, tangents, *, jaxpr, num_consts, num_carry, length, reverse, unroll):
    nc, nk = num_consts, num_carry
    n_in = len(primals)
    ny = len(jaxpr.out_avals) - nk
    avals = [get_aval(p) for p in primals]
    nz = [_is_nonzero(t, a) for t, a in zip(tangents, avals)]
    const_nz, carry_nz, xs_nz = _scan_split(nz, nc, nk)
    while True:
        jv, out_nz = jvp_jaxpr(jaxpr, const_nz + carry_nz + xs_nz, carry_nz + [False] * ny)
        new = [a or b for a, b in zip(carry_nz, out_nz[:nk])]
        if new == carry_nz:
            break
        carry_nz = new
    ys_nz = out_nz[nk:]
    j, consts = jv.jaxpr, jv.consts
    c_v, k_v, x_v = _scan_split(j.invars[:n_in], nc, nk)
    t_v = j.invars[n_in:]
    n_ct, n_kt = sum(const_nz), sum(carry_nz)
    ct_v, kt_v, xt_v = t_v[:n_ct], t_v[n_ct:n_ct + n_kt], t_v[n_ct + n_kt:]
    ov = j.outvars
    co, yo, to = ov[:nk], ov[nk:nk + ny], ov[nk + ny:]
    cto, yto = to[:n_kt], to[n_kt:]
    body = Jaxpr([], j.constvars + c_v + ct_v + k_v + kt_v + x_v + xt_v, co + cto + yo + yto, j.eqns)
    p_c, p_k, p_x = _scan_split(primals, nc, nk)
    t_c, t_k, t_x = _scan_split(tangents, nc, nk)
    a_c, a_k, a_x = _scan_split(avals, nc, nk)
    tc = [instantiate_tangent(t, a) for t, a, z in zip(t_c, a_c, const_nz) if z]
    tk = [instantiate_tangent(t, a) for t, a, z in zip(t_k, a_k, carry_nz) if z]
    tx = [instantiate_tangent(t, a) for t, a, z in zip(t_x, a_x, xs_nz) if z]
    outs = scan_p.bind(*consts, *p_c, *tc, *p_k, *tk, *p_x, *tx, jaxpr=ClosedJaxpr(body, []),
                       num_consts=len(consts) + nc + n_ct, num_carry=nk + n_kt, length=length,
                       reverse=reverse, unroll=unroll)
    carry_out, kt_out = outs[:nk], iter(outs[nk:nk + n_kt])
    ys, yt_out = outs[nk + n_kt:nk + n_kt + ny], iter(outs[nk + n_kt + ny:])
    y_avals = [get_aval(y) for y in ys]
    t_carry = [next(kt_out) if z else Zero(tangent_aval(a)) for a, z in zip(a_k, carry_nz)]
    t_ys = [next(yt_out) if z else Zero(tangent_aval(a)) for a, z in zip(y_avals, ys_nz)]
    return list(carry_out) + list(ys), t_carry + t_ys


def _scan_partial_eval(trace, args, unknowns, *, jaxpr, num_consts, num_carry, length, reverse, unroll):
    """Split the body (fixed point on unknown carries): a known scan runs now, giving the
    known outputs and residuals stacked per step; an unknown scan consuming the residuals as
    xs is staged. Residuals that are loop-invariant (known consts) are passed as consts, and
    residuals that are known xs are forwarded instead of copied."""
    nc, nk = num_consts, num_carry
    ny = len(jaxpr.out_avals) - nk
    const_uk, carry_uk, xs_uk = _scan_split(unknowns, nc, nk)
    while True:
        known, unknown, out_uk, num_res = partial_eval_jaxpr(jaxpr, const_uk + carry_uk + xs_uk,
                                                             carry_uk + [False] * ny)
        new = [a or b for a, b in zip(carry_uk, out_uk[:nk])]
        if new == carry_uk:
            break
        carry_uk = new
    c_args, k_args, x_args = _scan_split(args, nc, nk)
    kc_args = [a for a, u in zip(c_args, const_uk) if not u]
    kk_args = [a for a, u in zip(k_args, carry_uk) if not u]
    kx_args = [a for a, u in zip(x_args, xs_uk) if not u]
    n_kc, n_kk = len(kc_args), len(kk_args)
    kj = known.jaxpr
    n_kout = len(kj.outvars) - num_res
    res_vars = kj.outvars[n_kout:]
    const_pos = {v: i for i, v in enumerate(kj.constvars)}
    kc_pos = {v: i for i, v in enumerate(kj.invars[:n_kc])}
    kx_pos = {v: i for i, v in enumerate(kj.invars[n_kc + n_kk:])}
    varying = deps(Jaxpr([], kj.invars, res_vars, kj.eqns), [False] * n_kc + [True] * (len(kj.invars) - n_kc))
    # each residual: ("inv", value) loop-invariant, ("fwd", index) a known xs, ("out", None) stacked output
    kinds, hoist = [], []
    for v, vary in zip(res_vars, varying):
        if type(v) is Literal:
            kinds.append(("inv", v.val))
        elif v in const_pos:
            kinds.append(("inv", known.consts[const_pos[v]]))
        elif v in kc_pos:
            kinds.append(("inv", kc_args[kc_pos[v]]))
        elif v in kx_pos:
            kinds.append(("fwd", kx_pos[v]))
        elif not vary:
            kinds.append(("inv", None))  # computed from consts only: computed once, before the loop
            hoist.append(v)
        else:
            kinds.append(("out", None))
    if hoist:
        hj, _ = dce(Jaxpr(kj.constvars, kj.invars, hoist, kj.eqns), [True] * len(hoist), keep_effects=False)
        with set_current_trace(trace.parent):
            hoisted = iter(eval_jaxpr(hj, known.consts, *kc_args, *[None] * (len(kj.invars) - n_kc)))
        kinds = [(k, next(hoisted)) if k == "inv" and val is None else (k, val) for k, val in kinds]
    stacked_out = [v for v, (k, _) in zip(res_vars, kinds) if k == "out"]
    body_k = Jaxpr([], kj.constvars + kj.invars, kj.outvars[:n_kout] + stacked_out, kj.eqns)
    with set_current_trace(trace.parent):
        kouts = scan_p.bind(*known.consts, *kc_args, *kk_args, *kx_args, jaxpr=ClosedJaxpr(body_k, []),
                            num_consts=len(known.consts) + n_kc, num_carry=n_kk, length=length,
                            reverse=reverse, unroll=unroll)
    k_carry, k_ys, stacked = kouts[:n_kk], kouts[n_kk:n_kout], iter(kouts[n_kout:])
    inv_vals, stacked_vals = [], []
    for kind, val in kinds:
        if kind == "inv":
            inv_vals.append(val)
        elif kind == "fwd":
            stacked_vals.append(kx_args[val])
        else:
            stacked_vals.append(next(stacked))
    if not any(out_uk):
        return list(k_carry) + list(k_ys)
    uj = unknown.jaxpr
    r_v, u_in = uj.invars[:num_res], uj.invars[num_res:]
    n_uc, n_uk = sum(const_uk), sum(carry_uk)
    uc_v, uk_v, ux_v = _scan_split(u_in, n_uc, n_uk)
    inv_v = [v for v, (k, _) in zip(r_v, kinds) if k == "inv"]
    st_v = [v for v, (k, _) in zip(r_v, kinds) if k != "inv"]
    body_u = Jaxpr([], inv_v + uc_v + uk_v + st_v + ux_v, uj.outvars, uj.eqns)
    u_args = (inv_vals + [a for a, u in zip(c_args, const_uk) if u] + [a for a, u in zip(k_args, carry_uk) if u]
              + stacked_vals + [a for a, u in zip(x_args, xs_uk) if u])
    uouts = trace.stage(scan_p, u_args, dict(jaxpr=ClosedJaxpr(body_u, []), num_consts=len(inv_v) + n_uc,
                                               num_carry=n_uk, length=length, reverse=reverse, unroll=unroll))
    ku, kk = iter(uouts[:n_uk]), iter(k_carry)
    yu, yk = iter(uouts[n_uk:]), iter(k_ys)
    carry_out = [next(ku) if u else next(kk) for u in carry_uk]
    ys_out = [next(yu) if u else next(yk) for u in out_uk[nk:]]
    return carry_out + ys_out


def _scan_transpose(cts, *args, jaxpr, num_consts, num_carry, length, reverse, unroll):
    """A linear scan transposes into a scan running the other way: the carry holds the
    carries' cotangents and the accumulated cotangents of linear consts; residuals (the
    non-linear consts and xs) are read as before; the xs' cotangents are stacked."""
    nc, nk = num_consts, num_carry
    if all(type(c) is Zero for c in cts):
        return [None] * len(args)
    consts, carry, xs = _scan_split(args, nc, nk)
    j = jaxpr.jaxpr
    c_v, k_v, x_v = _scan_split(j.invars, nc, nk)
    c_lin = [is_undefined(x) for x in consts]
    x_lin = [is_undefined(x) for x in xs]
    y_avals = [v.aval for v in j.outvars[nk:]]
    y_mask = [dtypes.is_inexact(a.dtype) for a in y_avals]
    nl_c = [x for x, l in zip(consts, c_lin) if not l]
    nl_x = [x for x, l in zip(xs, x_lin) if not l]
    lin_c_avals = [tangent_aval(v.aval) for v, l in zip(c_v, c_lin) if l]
    k_avals = [v.aval for v in k_v]
    ct_carry = [instantiate_tangent(c, a) for c, a in zip(cts[:nk], k_avals)]
    ct_ys = [instantiate_tangent(c, a.update(shape=(length,) + a.shape)) for c, a, m in zip(cts[nk:], y_avals, y_mask) if m]
    tj = Jaxpr([v for v, l in zip(c_v, c_lin) if not l] + [v for v, l in zip(x_v, x_lin) if not l],
               [v for v, l in zip(c_v, c_lin) if l] + k_v + [v for v, l in zip(x_v, x_lin) if l],
               j.outvars, j.eqns)
    n_nlc, n_lc, n_nlx = len(nl_c), len(lin_c_avals), len(nl_x)

    def body(*a):
        nlc, acc = a[:n_nlc], a[n_nlc:n_nlc + n_lc]
        ctk = a[n_nlc + n_lc:n_nlc + n_lc + nk]
        rest = a[n_nlc + n_lc + nk:]
        nlx, it = rest[:n_nlx], iter(rest[n_nlx:])
        full = list(ctk) + [next(it) if m else Zero(tangent_aval(av)) for av, m in zip(y_avals, y_mask)]
        res = backward_pass(tj, list(nlc) + list(nlx), full)
        r_c, r_k, r_x = res[:n_lc], res[n_lc:n_lc + nk], res[n_lc + nk:]
        new_acc = [add_tangents(s, r) for s, r in zip(acc, r_c)]
        lin_x_vars = tj.invars[n_lc + nk:]
        return (new_acc + [instantiate_tangent(r, av) for r, av in zip(r_k, k_avals)]
                + [instantiate_tangent(r, v.aval) for r, v in zip(r_x, lin_x_vars)])

    in_avals = ([v.aval for v, l in zip(c_v, c_lin) if not l] + lin_c_avals + k_avals
                + [v.aval for v, l in zip(x_v, x_lin) if not l] + [a for a, m in zip(y_avals, y_mask) if m])
    traced = trace_flat(body, in_avals, "transpose of scan")
    acc0 = [zeros_like_aval(a) for a in lin_c_avals]
    outs = scan_p.bind(*traced.consts, *nl_c, *acc0, *ct_carry, *nl_x, *ct_ys, jaxpr=hoist(traced),
                       num_consts=len(traced.consts) + n_nlc, num_carry=n_lc + nk, length=length,
                       reverse=not reverse, unroll=unroll)
    ct_c, ct_init, ct_x = iter(outs[:n_lc]), outs[n_lc:n_lc + nk], iter(outs[n_lc + nk:])
    return ([next(ct_c) if l else None for l in c_lin] + list(ct_init)
            + [next(ct_x) if l else None for l in x_lin])


def _scan_batch(axis, args, dims, *, jaxpr, num_consts, num_carry, length, reverse, unroll):
    """Batch the body; xs carry their batch on axis 1 (axis 0 is the scan axis), and so do ys."""
    size = batch_size(args, dims)
    nc, nk = num_consts, num_carry
    ny = len(jaxpr.out_avals) - nk
    b = [d is not None for d in dims]
    const_b, carry_b, xs_b = _scan_split(b, nc, nk)
    while True:
        bj, out_b = batch_jaxpr(axis, jaxpr, size, const_b + carry_b + xs_b, carry_b + [False] * ny)
        new = [x or y for x, y in zip(carry_b, out_b[:nk])]
        if new == carry_b:
            break
        carry_b = new
    c_a, k_a, x_a = _scan_split(args, nc, nk)
    c_d, k_d, x_d = _scan_split(dims, nc, nk)
    consts = [bdim_to_front(x, d, size) if d is not None else x for x, d in zip(c_a, c_d)]
    carry = [bdim_to_front(x, d, size) if cb else x for x, d, cb in zip(k_a, k_d, carry_b)]
    xs = [moveaxis(x, d, 1) if d is not None else x for x, d in zip(x_a, x_d)]
    outs = scan_p.bind(*bj.consts, *consts, *carry, *xs, jaxpr=hoist(bj), num_consts=len(bj.consts) + nc,
                       num_carry=nk, length=length, reverse=reverse, unroll=unroll)
    return outs, [0 if x else None for x in carry_b] + [1 if y else None for y in out_b[nk:]]


scan_p.jvp_rule = _scan_jvp
scan_p.partial_eval_rule = _scan_partial_eval
scan_p.transpose_rule = _scan_transpose
scan_p.batch_rule_takes_trace = True
scan_p.batch_rule = _scan_batch
