"""`lax.custom_root`: a root found by any solver, differentiated implicitly.

It is built from transformations (custom_jvp for the derivative rule, linearize for the tangent
solve), so it lives here rather than beside `custom_linear_solve` in the op library.
"""
from __future__ import annotations

from typing import Any, Callable

from padax.core import dtypes
from padax.core.abstract import get_aval
from padax.core.ad_util import Zero, tangent_aval
from padax.core.errors import op_type_error
from padax.core.jaxpr import eval_jaxpr
from padax.functional.lax.control.common import _avals_str, _operand, _same_type, _trace_user
from padax.functional.lax.elementwise import neg
from padax.functional.lax.solves import solution_and_aux
from padax.interpreters.ad import instantiate_tangent, jvp_flat
from padax.interpreters.jaxpr_util import hoist
from padax.runtime import tree as tree_util
from padax.transforms.ad import linearize
from padax.transforms.custom import custom_jvp

__all__ = ["custom_root"]


def custom_root(f: Callable, initial_guess: Any, solve: Callable, tangent_solve: Callable,
                has_aux: bool = False) -> Any:
    """A root of `f` found by `solve(f, initial_guess)`, differentiated implicitly (jax.lax's signature).

    The values `f` closes over are the parameters the solution is differentiated with respect
    to; the derivative comes from the implicit function theorem, not from the solver's steps.

    Args:
        f: maps initial_guess's structure to itself.
        initial_guess: an array or pytree of arrays.
        solve: solve(f, initial_guess) returns x with f(x) = 0.
        tangent_solve: tangent_solve(g, y) solves g(x) = y for the linear map g = df/dx at the
            solution (for a scalar: `lambda g, y: y / g(1.0)`; in general with `custom_linear_solve`).
        has_aux: `solve` returns (solution, aux), and so does custom_root.

    Returns:
        The solution, a tree like `initial_guess` (and aux with `has_aux`).

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> newton = lambda f, x: lax.fori_loop(0, 20, lambda i, x: x - f(x) / padax.grad(f)(x), x)
        >>> sqrt = lambda c: lax.custom_root(lambda x: x * x - c, padax.to_tensor(1.0), newton,
        ...                                  lambda g, y: y / g(1.0))
        >>> sqrt(padax.to_tensor(2.0)).tolist(), padax.grad(sqrt)(padax.to_tensor(4.0)).tolist()
        (1.41421, 0.25)
    """
    op = "custom_root"
    for name, fn in (("f", f), ("solve", solve), ("tangent_solve", tangent_solve)):
        if not callable(fn):
            raise TypeError(f"{op}: {name} must be callable, got {type(fn).__name__}")
    g_leaves, tree = tree_util.flatten(initial_guess)
    g_leaves = [_operand(x, op) for x in g_leaves]
    avals = [get_aval(x) for x in g_leaves]
    in_tree = tree_util.structure((initial_guess,))
    f_closed, f_tree = _trace_user(f, in_tree, avals, f"{op} f")
    if f_tree != tree or not all(_same_type(a, o) for a, o in zip(avals, f_closed.out_avals)):
        raise op_type_error(op, f"f must map initial_guess {tree} {_avals_str(avals)} to the same structure and "
                                f"types, got {f_tree} {_avals_str(f_closed.out_avals)}")

    def run_solve(guess):
        return solution_and_aux(op, "solve", solve(f, guess), has_aux)

    s_closed, (s_tree, aux_tree) = _trace_user(run_solve, in_tree, avals, f"{op} solve", pair=True)
    n = len(avals)
    if s_tree != tree:
        raise op_type_error(op, f"solve returned a solution with structure {s_tree}, but initial_guess has "
                                f"structure {tree}")
    if not all(_same_type(a, o) for a, o in zip(avals, s_closed.out_avals[:n])):
        raise op_type_error(op, f"solve returned a solution of types {_avals_str(s_closed.out_avals[:n])}, but "
                                f"initial_guess has types {_avals_str(avals)}")

    def linearize_and_solve(x, rhs):
        _, f_jvp = linearize(f, x)
        return tangent_solve(f_jvp, rhs)

    pair_tree = tree_util.structure((initial_guess, initial_guess))
    l_closed, l_tree = _trace_user(linearize_and_solve, pair_tree, avals + avals, f"{op} tangent_solve")
    if l_tree != tree or not all(_same_type(a, o) for a, o in zip(avals, l_closed.out_avals)):
        raise op_type_error(op, f"tangent_solve must return a solution with the structure and types of "
                                f"initial_guess {tree} {_avals_str(avals)}, got {l_tree} "
                                f"{_avals_str(l_closed.out_avals)}")
    fj, sj, lj = hoist(f_closed), hoist(s_closed), hoist(l_closed)
    fc, sc, lc = list(f_closed.consts), list(s_closed.consts), list(l_closed.consts)
    nf, ns, nl = len(fc), len(sc), len(lc)

    def root(*args):
        return eval_jaxpr(sj.jaxpr, [], *args[nf:nf + ns], *args[nf + ns + nl:])

    root_fn = custom_jvp(root)

    @root_fn.defjvp
    def _root_jvp(primals, tangents):
        fcs, lcs = primals[:nf], primals[nf + ns:nf + ns + nl]
        outs = root_fn(*primals)
        sol = list(outs[:n])
        f_dot = tangents[:nf]
        zero_aux = [o * 0 for o in outs[n:]]
        if not nf:
            return outs, [instantiate_tangent(None, a) for a in avals] + zero_aux
        _, rhs = jvp_flat(lambda *c: eval_jaxpr(fj.jaxpr, [], *c, *sol), list(fcs),
                           [t if dtypes.is_inexact(get_aval(c).dtype) else Zero(tangent_aval(get_aval(c)))
                            for c, t in zip(fcs, f_dot)])
        rhs = [instantiate_tangent(r, a) for r, a in zip(rhs, avals)]
        sol_dot = eval_jaxpr(lj.jaxpr, [], *lcs, *sol, *rhs)
        return outs, [neg(s) for s in sol_dot] + zero_aux

    outs = root_fn(*fc, *sc, *lc, *g_leaves)
    sol = tree.unflatten(outs[:n])
    if has_aux:
        return sol, aux_tree.unflatten(outs[n:])
    return sol
