"""Programs and derivative rules with their checks taken out: what runs where checkify has already
evaluated the checks (a while loop's cond_fun, the call of a custom-derivative function that keeps
its rules), and what the rules of such a function compute."""
from __future__ import annotations

from typing import Any, Callable, Sequence

from padax import tree as tree_util
from padax.core.ad_util import Zero, instantiate
from padax.core.jaxpr import ClosedJaxpr, Jaxpr, eval_jaxpr
from padax.functional.lax.checks import check_p
from padax.transforms.custom import _Hashable
from padax.transforms.staging import arg_aval as aval_of, trace_flat


def without_checks(jaxpr: Jaxpr) -> Jaxpr:
    """`jaxpr` without its check equations, also inside the programs its equations hold (what
    runs where the checks were already evaluated: a while loop's cond_fun, a custom-derivative
    function's primal)."""
    eqns, changed = [], False
    for e in jaxpr.eqns:
        if e.primitive is check_p:
            changed = True
            continue
        params = {k: strip_checks(v) for k, v in e.params.items()}
        if any(params[k] is not v for k, v in e.params.items()):
            e, changed = e.replace(params=params), True
        eqns.append(e)
    return Jaxpr(jaxpr.constvars, jaxpr.invars, jaxpr.outvars, eqns) if changed else jaxpr


def strip_checks(value: Any) -> Any:
    """A param value with the checks taken out of the programs in it (the same object if none)."""
    if isinstance(value, ClosedJaxpr):
        j = without_checks(value.jaxpr)
        return value if j is value.jaxpr else ClosedJaxpr(j, value.consts)
    if isinstance(value, Jaxpr):
        return without_checks(value)
    if isinstance(value, tuple) and value and isinstance(value[0], (Jaxpr, ClosedJaxpr)):
        new = tuple(strip_checks(v) for v in value)
        return value if all(a is b for a, b in zip(new, value)) else new
    return value


def custom_params_without_checks(eqn) -> dict:
    """A custom_jvp/custom_vjp call's params with no checks left in its primal program or its
    rules: the checked copy of the primal found the errors, and checks in derivative rules are
    not made into errors (as in jax; check the derivative with checkify(grad(f)) instead)."""
    p = dict(eqn.params, call_jaxpr=strip_checks(eqn.params["call_jaxpr"]))
    if eqn.primitive.name == "custom_jvp_call":
        p["jvp_fn"] = _Hashable(_jvp_without_checks(p["jvp_fn"].fn))
    else:
        p["fwd"] = _Hashable(_fwd_without_checks(p["fwd"].fn))
        p["bwd"] = _Hashable(_bwd_without_checks(p["bwd"].fn))
    return p


def _run_without_checks(flat: Callable, args: Sequence[Any], what: str) -> list:
    """`flat(*args)` (a list of arrays) computed from its traced program with the checks removed."""
    closed = trace_flat(flat, [aval_of(a) for a in args], what)
    return list(eval_jaxpr(without_checks(closed.jaxpr), closed.consts, *args))


def _jvp_without_checks(rule: Callable) -> Callable:

    def jvp(primals, tangents):
        n, n_out = len(primals), []

        def flat(*xs):
            outs, t_outs = rule(list(xs[:n]), list(xs[n:]))
            n_out.append(len(outs))
            return list(outs) + [instantiate(t) for t in t_outs]
        res = _run_without_checks(flat, list(primals) + [instantiate(t) for t in tangents], "checkify of a jvp rule")
        return res[:n_out[0]], res[n_out[0]:]
    return jvp


def _fwd_without_checks(fwd: Callable) -> Callable:
    def run(primals):
        meta = []

        def flat(*xs):
            outs, res = fwd(list(xs))
            res_leaves, res_tree = tree_util.flatten(res)
            meta.append((len(outs), res_tree))
            return list(outs) + res_leaves
        vals = _run_without_checks(flat, list(primals), "checkify of a custom_vjp fwd")
        n, res_tree = meta[0]
        return vals[:n], res_tree.unflatten(vals[n:])
    return run


def _bwd_without_checks(bwd: Callable) -> Callable:

    def run(res, cts):
        res_leaves, res_tree = tree_util.flatten(res)
        k, zeros = len(res_leaves), []

        def flat(*xs):
            out = list(bwd(res_tree.unflatten(list(xs[:k])), list(xs[k:])))
            zeros.append([o if type(o) is Zero else None for o in out])
            return [o for o in out if type(o) is not Zero]
        vals = iter(_run_without_checks(flat, res_leaves + list(cts), "checkify of a custom_vjp bwd"))
        return [z if z is not None else next(vals) for z in zeros[0]]
    return run
