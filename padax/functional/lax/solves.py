"""Implicitly differentiated solves: `custom_linear_solve` and `custom_root` (jax.lax's
signatures and meaning).

`custom_linear_solve(matvec, b, solve, transpose_solve, symmetric, has_aux)` solves
A x = b with the user's `solve`, and differentiates the *solution*, not the solver:
dx = A^{-1} (db - dA x) forward, and the cotangent of b is the solution of A^T y = x_bar
(by `transpose_solve`) in reverse mode. It is the primitive `custom_linear_solve`, whose
params are the traced programs (matvec, vecmat, solve, transpose_solve; each const-free,
its captured values passed as leading operands) and their const counts.

`custom_root(f, initial_guess, solve, tangent_solve, has_aux)` finds x with f(x) = 0
with `solve(f, initial_guess)` and differentiates it by the implicit function theorem:
dx = -(df/dx)^{-1} (df/dtheta) dtheta, where theta are the values f closes over and
`tangent_solve(g, y)` solves the linear system g(x) = y. The solver itself is never
differentiated (its loop leaves no residuals), and the rule differentiates again, so
higher derivatives work in both modes.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from padax.core import dtypes
from padax.core.abstract import ShapedArray, get_aval
from padax.core.ad_util import Zero, is_undefined, tangent_aval
from padax.core.errors import op_type_error
from padax.core.jaxpr import eval_jaxpr
from padax.core.primitive import Primitive
from padax.functional.lax.control.common import _avals_str, _operand, _same_type, _trace_user
from padax.functional.lax.elementwise import sub
from padax.functional.lax.structural import batch_size, bdim_to_front
from padax.interpreters.ad import backward_pass, instantiate_tangent, jvp_flat
from padax.interpreters.batching import batch_jaxpr
from padax.interpreters.jaxpr_util import hoist
from padax.runtime import tree as tree_util

linear_solve_p = Primitive("custom_linear_solve", multiple_results=True)

__all__ = ["custom_linear_solve"]  # custom_root, built on custom_jvp and linearize, is in padax/transforms/solves.py

_MATVEC, _VECMAT, _SOLVE, _TRANSPOSE_SOLVE = range(4)


def _split(args: Sequence[Any], const_lengths: tuple[int, ...]) -> tuple[list[list], list]:
    groups, pos = [], 0
    for n in const_lengths:
        groups.append(list(args[pos:pos + n]))
        pos += n
    return groups, list(args[pos:])


@linear_solve_p.def_abstract_eval
def _linear_solve_abstract(*avals, jaxprs, const_lengths):
    _, b = _split(avals, const_lengths)
    outs = jaxprs[_SOLVE].out_avals
    if len(outs) < len(b) or not all(_same_type(a, o) for a, o in zip(b, outs)):
        raise op_type_error("custom_linear_solve", f"solve returns {_avals_str(outs)} for b {_avals_str(b)}")
    return [o.update(weak_type=False) if i < len(b) else o for i, o in enumerate(outs)]


@linear_solve_p.def_impl
def _linear_solve_impl(*args, jaxprs, const_lengths):
    groups, b = _split(args, const_lengths)
    return eval_jaxpr(jaxprs[_SOLVE].jaxpr, [], *groups[_SOLVE], *b)


def _solve_bind(groups: list[list], b: Sequence[Any], jaxprs, const_lengths) -> list:
    return linear_solve_p.bind(*[c for g in groups for c in g], *b, jaxprs=jaxprs, const_lengths=const_lengths)


def _linear_solve_jvp(primals, tangents, *, jaxprs, const_lengths):
    """x = A^{-1} b  =>  dx = A^{-1} (db - dA x); the solver's own closures get no tangent."""
    outs = linear_solve_p.bind(*primals, jaxprs=jaxprs, const_lengths=const_lengths)
    groups, b = _split(primals, const_lengths)
    t_groups, tb = _split(tangents, const_lengths)
    n = len(b)
    x = outs[:n]
    rhs = list(tb)
    if any(type(t) is not Zero for t in t_groups[_MATVEC]):
        matvec = jaxprs[_MATVEC]
        _, dax = jvp_flat(lambda *c: eval_jaxpr(matvec.jaxpr, [], *c, *x), groups[_MATVEC], t_groups[_MATVEC])
        rhs = [r if type(d) is Zero else (sub(instantiate_tangent(r, get_aval(bb)), d))
               for r, d, bb in zip(rhs, dax, b)]
    zeros_aux = [Zero(tangent_aval(get_aval(o))) for o in outs[n:]]
    if all(type(r) is Zero for r in rhs):
        return outs, [Zero(tangent_aval(get_aval(o))) for o in x] + zeros_aux
    rhs = [instantiate_tangent(r, get_aval(bb)) for r, bb in zip(rhs, b)]
    x_dot = _solve_bind(groups, rhs, jaxprs, const_lengths)[:n]
    return outs, list(x_dot) + zeros_aux


def _transposed(jaxprs: tuple, const_lengths: tuple) -> tuple[tuple, tuple]:
    m, v, s, t = jaxprs
    cm, cv, cs, ct = const_lengths
    return (v, m, t, s), (cv, cm, ct, cs)


def _linear_solve_transpose(cts, *args, jaxprs, const_lengths):
    """The cotangent of b solves A^T y = x_bar (with transpose_solve)."""
    groups, b = _split(args, const_lengths)
    if any(is_undefined(c) for g in groups for c in g):
        raise TypeError("custom_linear_solve is linear in b only: it cannot be transposed with respect to "
                        "values matvec or solve close over")
    if jaxprs[_TRANSPOSE_SOLVE] is None:
        raise TypeError("custom_linear_solve: reverse-mode differentiation (grad/vjp) needs transpose_solve "
                        "(or symmetric=True); pass transpose_solve=lambda vecmat, b: ... that solves A^T x = b")
    n = len(b)
    ct_x = cts[:n]
    if all(type(c) is Zero for c in ct_x):
        return [None] * len(args)
    ct_x = [instantiate_tangent(c, aval_of_undef(bb)) for c, bb in zip(ct_x, b)]
    tj, tl = _transposed(jaxprs, const_lengths)
    tg = [groups[_VECMAT], groups[_MATVEC], groups[_TRANSPOSE_SOLVE], groups[_SOLVE]]
    ct_b = _solve_bind(tg, ct_x, tj, tl)[:n]
    return [None] * sum(const_lengths) + list(ct_b)


def aval_of_undef(x: Any) -> ShapedArray:
    return x.aval if is_undefined(x) else get_aval(x)


def _linear_solve_batch(axis, args, dims, *, jaxprs, const_lengths):
    """Batch every program; b and x are batched (on axis 0) whenever anything is."""
    size = batch_size(args, dims)
    groups, b = _split(args, const_lengths)
    d_groups, d_b = _split(dims, const_lengths)
    b = [bdim_to_front(x, d, size) for x, d in zip(b, d_b)]
    new_groups, new_jaxprs, new_lengths = [], [], []
    for j, g, dg in zip(jaxprs, groups, d_groups):
        cs = [bdim_to_front(c, d, size) if d is not None else c for c, d in zip(g, dg)]
        if j is None:
            new_groups.append(cs)
            new_jaxprs.append(None)
            new_lengths.append(len(cs))
            continue
        bj, _ = batch_jaxpr(axis, j, size, [d is not None for d in dg] + [True] * len(b),
                             [True] * len(j.out_avals))
        new_groups.append(list(bj.consts) + cs)
        new_jaxprs.append(hoist(bj))
        new_lengths.append(len(bj.consts) + len(cs))
    outs = _solve_bind(new_groups, b, tuple(new_jaxprs), tuple(new_lengths))
    return outs, [0] * len(outs)


linear_solve_p.jvp_rule = _linear_solve_jvp
linear_solve_p.transpose_rule = _linear_solve_transpose
linear_solve_p.batch_rule_takes_trace = True
linear_solve_p.batch_rule = _linear_solve_batch


def _check_same(op: str, what: str, got_tree, got_avals, tree, avals) -> None:
    if got_tree != tree:
        raise op_type_error(op, f"{what} must have the structure of b {tree}, got {got_tree}")
    if not all(_same_type(a, g) for a, g in zip(avals, got_avals)):
        raise op_type_error(op, f"{what} must have b's shapes and dtypes {_avals_str(avals)}, got "
                                f"{_avals_str(got_avals)}")


def solution_and_aux(op: str, what: str, out: Any, has_aux: bool) -> tuple[Any, Any]:
    """A user solver's result as (solution, aux): with has_aux it must already be a pair, else aux is ()."""
    if not has_aux:
        return out, ()
    if not isinstance(out, (tuple, list)) or len(out) != 2:
        raise op_type_error(op, f"{what} must return a pair (solution, aux) when has_aux=True, got "
                                f"{type(out).__name__}")
    return out


def custom_linear_solve(matvec: Callable, b: Any, solve: Callable, transpose_solve: Callable | None = None,
                        symmetric: bool = False, has_aux: bool = False) -> Any:
    """Solve `matvec(x) == b` with `solve(matvec, b)`, differentiated implicitly (jax.lax's signature).

    Derivatives come from the linear system, not from the solver's steps: the solver may be any
    (iterative, non-differentiable) routine.

    Args:
        matvec: a linear function mapping b's structure to itself.
        b: the right-hand side: a floating array or pytree of them.
        solve: solve(matvec, b) returns x.
        transpose_solve: transpose_solve(vecmat, b) solves the transposed system (for reverse mode).
        symmetric: A == A^T, so `solve` serves for both.
        has_aux: the solves return (x, aux), and so does this function; aux is not differentiated.

    Returns:
        x, a tree like `b` (and aux with `has_aux`).

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> a = padax.to_tensor([[2.0, 1.0], [1.0, 3.0]])
        >>> solve = lambda matvec, b: padax.linalg.solve(a, b)
        >>> lax.custom_linear_solve(lambda x: a @ x, padax.to_tensor([3.0, 5.0]), solve, symmetric=True).tolist()
        [0.8, 1.4]
        >>> padax.grad(lambda b: lax.custom_linear_solve(lambda x: a @ x, b, solve, symmetric=True).sum())(
        ...     padax.to_tensor([3.0, 5.0])).tolist()       # A^-T @ ones
        [0.4, 0.2]
    """
    op = "custom_linear_solve"
    for name, fn in (("matvec", matvec), ("solve", solve)):
        if not callable(fn):
            raise TypeError(f"{op}: {name} must be callable, got {type(fn).__name__}")
    b_leaves, tree = tree_util.flatten(b)
    b_leaves = [_operand(x, op) for x in b_leaves]
    avals = [get_aval(x) for x in b_leaves]
    for a in avals:
        if not dtypes.is_inexact(a.dtype):
            raise op_type_error(op, f"b must hold floating or complex arrays, got {a.str_short()}")
    in_tree = tree_util.structure((b,))
    mv, mv_tree = _trace_user(matvec, in_tree, avals, f"{op} matvec")
    _check_same(op, "matvec's output", mv_tree, mv.out_avals, tree, avals)
    if symmetric and transpose_solve is None:
        transpose_solve = solve

    def traced_solve(fn: Callable, lin: Callable, what: str):
        def call(bb):
            return solution_and_aux(op, what, fn(lin, bb), has_aux)
        closed, (x_tree, aux_tree) = _trace_user(call, in_tree, avals, f"{op} {what}", pair=True)
        _check_same(op, f"{what}'s solution", x_tree, closed.out_avals[:len(avals)], tree, avals)
        return closed, aux_tree

    sv, aux_tree = traced_solve(solve, matvec, "solve")
    vm = ts = None
    if transpose_solve is not None:
        if symmetric:
            vecmat, vm = matvec, mv
        else:
            def vecmat(y):  # matvec's transpose: its traced (linear) jaxpr run backwards
                cts = backward_pass(mv.jaxpr, mv.consts, tree_util.leaves(y))
                return tree.unflatten([instantiate_tangent(c, a) for c, a in zip(cts, avals)])
            vm, _ = _trace_user(vecmat, in_tree, avals, f"{op} vecmat")
        ts, _ = traced_solve(transpose_solve, vecmat, "transpose_solve")
    closeds = (mv, vm, sv, ts)
    consts = [list(c.consts) if c is not None else [] for c in closeds]
    jaxprs = tuple(hoist(c) if c is not None else None for c in closeds)
    outs = linear_solve_p.bind(*[x for g in consts for x in g], *b_leaves, jaxprs=jaxprs,
                               const_lengths=tuple(len(g) for g in consts))
    x = tree.unflatten(outs[:len(b_leaves)])
    if has_aux:
        return x, aux_tree.unflatten(outs[len(b_leaves):])
    return x


# ---- custom_root -------------------------------------------------------------------------------------
