"""What cond, while and scan share: checking operands and carries, and tracing the user's
functions into const-free ClosedJaxprs (closed-over values become leading operands)."""
from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from padax.core import dtypes, node_state
from padax.core.abstract import ShapedArray, get_aval
from padax.core.ad_util import Zero
from padax.core.errors import op_type_error
from padax.core.jaxpr import ClosedJaxpr, Jaxpr, JaxprEqn, Var
from padax.core.trace import Tracer
from padax.functional._arrays import asarray
from padax.functional.lax.structural import (
    convert_element_type,
    convert_element_type_p,
)
from padax.interpreters.staging import trace_flat
from padax.runtime import tree as tree_util
from padax.runtime.array import Tensor

# ---- jaxpr helpers ---------------------------------------------------------------------------

def _same_type(a: ShapedArray, b: ShapedArray) -> bool:
    """Shape and dtype agree (weak types may differ: they only steer promotion)."""
    return a.shape == b.shape and a.dtype == b.dtype


def _avals_str(avals: Sequence[ShapedArray]) -> str:
    return "(" + ", ".join(a.str_short() for a in avals) + ")"


def _strengthen_outputs(closed: ClosedJaxpr, targets: Sequence[ShapedArray]) -> ClosedJaxpr:
    """Weakly typed outputs whose target type is strong get a (no-op) convert to strong."""
    j = closed.jaxpr
    outs, eqns = list(j.outvars), list(j.eqns)
    changed = False
    for k, (v, t) in enumerate(zip(outs, targets)):
        if v.aval.weak_type and not t.weak_type and _same_type(v.aval, t):
            nv = Var(v.aval.update(weak_type=False))
            eqns.append(JaxprEqn(convert_element_type_p, [v], [nv],
                                 dict(new_dtype=t.dtype, weak_type=False)))
            outs[k] = nv
            changed = True
    if not changed:
        return closed
    return ClosedJaxpr(Jaxpr(j.constvars, j.invars, outs, eqns), closed.consts)


def _is_nonzero(t: Any, aval: ShapedArray) -> bool:
    return type(t) is not Zero and dtypes.is_inexact(aval.dtype)




# ---- tracing user functions ---------------------------------------------------------------------

def _operand(x: Any, what: str) -> Any:
    if isinstance(x, (Tensor, Tracer)):
        return x
    try:
        return asarray(x)
    except TypeError:
        raise op_type_error(what, f"operands must be arrays, Python scalars or numpy values, got "
                                  f"{type(x).__name__}: {x!r}") from None


def _check_out_leaf(x: Any, what: str) -> Any:
    if isinstance(x, (Tensor, Tracer, bool, int, float, complex, np.ndarray, np.generic)):
        return x
    raise op_type_error(what, f"returned a {type(x).__name__} ({x!r}) where an array was expected")


def _trace_user(fun: Callable, in_tree, in_avals: Sequence[ShapedArray], what: str, pair: bool = False):
    """Trace `fun(*in_tree.unflatten(leaves))`. Returns (ClosedJaxpr, output tree(s)).

    With `pair`, `fun` must return (carry, y): the outputs are carry leaves then y leaves,
    and the trees are returned as a pair.
    """
    store: list = []

    def flat(*xs):
        start = node_state.mark()
        args = in_tree.unflatten(xs)  # (kept alive: check_carried looks at the layers rebuilt here)
        out = fun(*args)
        node_state.check_carried(start, tree_util.leaves(out), what)
        if pair:
            if not isinstance(out, (tuple, list)) or len(out) != 2:
                raise op_type_error(what, f"the function must return a pair (carry, y), got "
                                          f"{type(out).__name__}")
            c_leaves, c_tree = tree_util.flatten(out[0])
            y_leaves, y_tree = tree_util.flatten(out[1])
            store.append((c_tree, y_tree))
            leaves = c_leaves + y_leaves
        else:
            leaves, tree = tree_util.flatten(out)
            store.append(tree)
        return [_check_out_leaf(x, what) for x in leaves]

    closed = trace_flat(flat, in_avals, f"{what} tracing")
    return closed, store[0]


class _Leaf:
    __slots__ = ()


def _leaf_paths(tree) -> list[str]:
    """Readable paths (`['a'][0]`) of a tree's leaves, in flattening order."""
    dummy = tree.unflatten([_Leaf() for _ in range(tree.num_leaves)])
    pairs, _ = tree_util.flatten_with_path(dummy)
    return [tree_util.keystr(p) for p, _ in pairs]


def _fix_carry(what: str, fn_name: str, init_name: str, trace_fn: Callable, init: list,
               init_tree) -> tuple[Any, Any, list]:
    """Trace a loop body once and settle its carry types, as jax does.

    `trace_fn(avals) -> (closed, out_carry_tree, extra)`. The body is traced at the init's
    types. A weakly typed init leaf whose body output has another dtype that it promotes to
    (a Python `0` for a float accumulator) is converted to that dtype and the body traced
    once more, the one case that needs a second trace (as in jax: the body must see the
    carry's real dtype). A weak init leaf whose output has the same dtype is made strong
    without retracing (weak types only steer promotion). Any other difference in shape or
    dtype raises a TypeError naming each differing leaf. Returns (closed, extra, init).
    """
    avals = [get_aval(x) for x in init]
    closed, out_tree, extra = trace_fn(avals)
    _check_carry_tree(what, fn_name, init_name, init_tree, out_tree)
    promoted = list(init)
    for k, (a, o) in enumerate(zip(avals, closed.out_avals)):
        if a.weak_type and a.shape == o.shape and a.dtype != o.dtype and \
                dtypes.result_type((a.dtype, True), (o.dtype, o.weak_type))[0] == o.dtype:
            promoted[k] = convert_element_type(init[k], o.dtype, weak_type=False)
    if any(p is not x for p, x in zip(promoted, init)):
        init, avals = promoted, [get_aval(x) for x in promoted]
        closed, out_tree, extra = trace_fn(avals)
        _check_carry_tree(what, fn_name, init_name, init_tree, out_tree)
    out_avals = closed.out_avals[:len(init)]
    paths = _leaf_paths(init_tree)
    diffs = [f"carry{paths[k]} is {a.str_short()} in {init_name} but {fn_name} returns {o.str_short()}"
             for k, (a, o) in enumerate(zip(avals, out_avals)) if not _same_type(a, o)]
    if diffs:
        raise op_type_error(what, f"{fn_name} must return a carry with the same types (shapes and dtypes) "
                                  f"as {init_name}: " + "; ".join(diffs))
    init = [convert_element_type(x, a.dtype, weak_type=False) if a.weak_type and not o.weak_type else x
            for x, a, o in zip(init, avals, out_avals)]
    targets = [get_aval(x) for x in init] + list(closed.out_avals[len(init):])
    return _strengthen_outputs(closed, targets), extra, init


def _check_carry_tree(what: str, fn_name: str, init_name: str, init_tree, out_tree) -> None:
    if out_tree != init_tree:
        raise op_type_error(what, f"{fn_name} must return a carry with the structure of {init_name}: "
                                  f"{init_name} is {init_tree} but {fn_name} returned {out_tree}")
