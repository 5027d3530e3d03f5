"""Taylor mode: `jet(fun, primals, series)` pushes truncated Taylor polynomials through `fun`.

A `JetTrace` is an interpreter of the IR like jvp and vmap: each value carries its
primal and its Taylor coefficients of orders 1..K, and each primitive maps input
polynomials to output polynomials with its *Taylor rule* (`taylor_rules`, registered
by `padax.transforms.jet_rules`). Internally the coefficients are normalised
(x(t) = x0 + x1 t + x2 t^2 + ...); the public `jet` takes and returns derivatives
(x(t) = x0 + x1 t + x2 t^2 / 2! + ...), as `jax.experimental.jet` does.

Inside a rule a zero coefficient is `None` (and a wholly zero series is `None` for
the value), so terms that are known to vanish cost nothing. The K-th order output
costs O(K^2) elementwise work per primitive instead of the 2^K of nested jvps.
"""
from __future__ import annotations

import math
from typing import Any, Callable, Sequence

import numpy as np

from padax.core import dtypes
from padax.core.abstract import ShapedArray, get_aval
from padax.core.ad_util import tangent_aval
from padax.core.errors import MissingRuleError
from padax.core.jaxpr import ClosedJaxpr, eval_jaxpr
from padax.core.source_info import user_location
from padax.core.trace import Trace, Tracer, new_trace, set_current_trace, trace_state
from padax.runtime import tree as tree_util

Series = list  # K coefficients (orders 1..K), each an array or None (a zero coefficient)

# primitive -> rule(primals, series, **params) -> (primal_out, series_out); `series[i]` is a
# list of K coefficients (None = zero) and series_out is such a list, or None when the whole
# output series is zero (a list of them for multiple-result primitives).
taylor_rules: dict[Any, Callable] = {}
# primitive -> why it has no Taylor rule (said in the error when jet meets it)
no_taylor_rule: dict[Any, str] = {}


def def_taylor(prim, rule: Callable) -> Callable:
    """Register `rule` as prim's Taylor rule."""
    taylor_rules[prim] = rule
    return rule


def def_no_taylor(prim, reason: str) -> None:
    """Record that prim has no Taylor rule, and why (jet reports the reason)."""
    no_taylor_rule[prim] = reason


def _missing_rule_error(prim) -> MissingRuleError:
    reason = no_taylor_rule.get(prim)
    if reason is not None:
        return MissingRuleError(f"jet: primitive '{prim.name}' has no Taylor rule: {reason}{user_location()}")
    return MissingRuleError(
        f"jet: primitive '{prim.name}' has no Taylor rule{user_location()}. Register one with "
        "padax.transforms.jet.def_taylor(prim, rule), or build the operation from primitives that have one.")


class JetTracer(Tracer):
    __slots__ = ("primal", "terms")

    def __init__(self, trace: "JetTrace", primal: Any, terms: Series):
        self._trace = trace
        self._tape = None  # (the dygraph tape's entry: set on a tracer that needs a gradient)
        self.primal = primal
        self.terms = terms

    @property
    def aval(self) -> ShapedArray:
        return get_aval(self.primal)


class JetTrace(Trace):
    __slots__ = ("parent", "order")
    description = "jet (Taylor mode) tracing"

    def __init__(self, parent: Trace, order: int):
        super().__init__()
        self.parent = parent
        self.order = order

    def lift(self, x: Any) -> tuple[Any, Series | None]:
        if isinstance(x, JetTracer) and x._trace is self:
            return x.primal, x.terms
        return x, None

    def process_primitive(self, prim, args, params):
        primals, series = [], []
        for a in args:
            p, s = self.lift(a)
            primals.append(p)
            series.append(s)
        if all(s is None for s in series):
            with set_current_trace(self.parent):
                return prim.bind(*primals, **params)
        rule = taylor_rules.get(prim)
        if rule is None:
            raise _missing_rule_error(prim)
        k = self.order
        full = [s if s is not None else [None] * k for s in series]
        with set_current_trace(self.parent):
            out, out_series = rule(primals, full, **params)
        if prim.multiple_results:
            if out_series is None:
                return list(out)
            return [self._wrap(o, s) for o, s in zip(out, out_series)]
        return self._wrap(out, out_series)

    def _wrap(self, p: Any, s: Series | None) -> Any:
        if s is None or all(t is None for t in s) or not dtypes.is_inexact(get_aval(p).dtype):
            return p
        return JetTracer(self, p, list(s))


def jet_flat(fun: Callable, primals: Sequence[Any], series: Sequence[Series | None],
             order: int) -> tuple[list, list]:
    """Normalised Taylor mode on flat lists: `fun(*xs) -> list`. Returns (primal outs, series
    outs) with None for a zero series and None entries for zero coefficients."""
    if order == 0:
        return _order0(fun, primals)
    trace = JetTrace(trace_state.trace, order)
    with new_trace(trace):
        ins = [JetTracer(trace, p, list(s)) if s is not None and any(t is not None for t in s) else p
               for p, s in zip(primals, series)]
        outs = fun(*ins)
        pairs = [trace.lift(o) for o in outs]
    return [p for p, _ in pairs], [s for _, s in pairs]


def _order0(fun: Callable, primals: Sequence[Any]) -> tuple[list, list]:
    outs = list(fun(*primals))
    return outs, [None] * len(outs)


def jet_normalized(fun: Callable, primals: Sequence[Any], series: Sequence[Series | None]) -> tuple[list, list]:
    """`jet_flat` with the order read off the series (an all-None series list means order 0)."""
    orders = {len(s) for s in series if s is not None}
    order = orders.pop() if orders else 0
    if order == 0:
        return _order0(fun, primals)
    return jet_flat(fun, primals, series, order)


def _factorial_scale(terms: Series, inverse: bool) -> Series:
    out = []
    for k, t in enumerate(terms, 1):
        if t is None or k == 1:
            out.append(t)
            continue
        f = math.factorial(k)
        out.append(mul(t, 1.0 / f if inverse else float(f)))
    return out


def _known_zero(t: Any) -> bool:
    """A host value (numpy or Python number) that is all zeros: known at trace time, so the term
    is symbolically zero and costs nothing downstream."""
    if isinstance(t, (Tracer,)) or not isinstance(t, (np.ndarray, np.generic, bool, int, float, complex)):
        return False
    return not np.any(t)


def _check_term(p: Any, t: Any, i: int, k: int) -> Any:
    pa = get_aval(p)
    if isinstance(t, (bool, int, float, complex)) and not isinstance(t, Tracer):
        t = asarray(t, pa.dtype)
    elif not isinstance(t, Tracer):
        t = asarray(t)
    ta = get_aval(t)
    if ta.shape != pa.shape or ta.dtype != pa.dtype:
        raise TypeError(f"jet: term {k} of argument {i} has {ta.str_short()} but its primal has "
                        f"{pa.str_short()}; they must match in shape and dtype{user_location()}")
    return t


def jet(fun: Callable, primals: Sequence[Any], series: Sequence[Sequence[Any]],
        factorial_scaled: bool = True) -> tuple[Any, Any]:
    """Taylor-mode higher-order differentiation (the signature of jax.experimental.jet).

    `primals` holds one value per positional argument of `fun` and `series` one list of K
    terms per argument: x(t) = x0 + x1 t + x2 t^2/2! + ... + xK t^K/K!. Returns
    `(fun(*primals), terms_out)` where `terms_out` has the structure of the output with
    each leaf replaced by its K output terms, in the same (derivative) scaling. With
    `factorial_scaled=False` terms are plain Taylor coefficients (no factorials).
    Arguments may be pytrees; each term then has the argument's structure. Every
    differentiable padax primitive has a Taylor rule, including control flow and jit.

    Args:
        fun: the function.
        primals: one value per positional argument.
        series: per argument, a list of K input terms.
        factorial_scaled: terms are derivatives (True) or plain Taylor coefficients (False).

    Returns:
        A tuple (fun(*primals), terms_out), each output leaf replaced by its K terms.

    Examples:
        >>> import padax
        >>> x0, one, zero = padax.to_tensor(0.0), padax.to_tensor(1.0), padax.to_tensor(0.0)
        >>> y, terms = padax.jet(padax.sin, (x0,), ([one, zero, zero],))    # x(t) = t
        >>> float(y), [float(t) for t in terms]                             # sin, cos, -sin, -cos at 0
        (0.0, [1.0, 0.0, -1.0])
    """
    if not isinstance(primals, (tuple, list)) or not isinstance(series, (tuple, list)):
        raise TypeError("jet: primals and series must be tuples or lists (one entry per positional argument)")
    if len(primals) != len(series):
        raise ValueError(f"jet: got {len(primals)} primals but {len(series)} series; give one list of terms "
                         f"per argument{user_location()}")
    for i, s in enumerate(series):
        if not isinstance(s, (tuple, list)):
            raise TypeError(f"jet: series[{i}] must be a list of terms (one per order), got {type(s).__name__}")
    orders = {len(s) for s in series}
    if len(orders) > 1:
        raise ValueError(f"jet: terms have inconsistent lengths for different arguments: "
                         f"{[len(s) for s in series]}{user_location()}")
    order = orders.pop() if orders else 0
    p_leaves, s_leaves = [], []
    for i, (p, terms) in enumerate(zip(primals, series)):
        leaves, tree = tree_util.flatten(p)
        per_term = []
        for k, t in enumerate(terms, 1):
            t_leaves, t_tree = tree_util.flatten(t)
            if t_tree != tree:
                raise TypeError(f"jet: term {k} of argument {i} has structure {t_tree} but the primal has "
                                f"{tree}{user_location()}")
            per_term.append(t_leaves)
        for j, leaf in enumerate(leaves):
            leaf = leaf if isinstance(leaf, Tracer) else asarray(leaf)
            p_leaves.append(leaf)
            if not dtypes.is_inexact(get_aval(leaf).dtype):
                s_leaves.append(None)  # integer/bool inputs have no Taylor terms
                continue
            ts = [_check_term(leaf, per_term[k][j], i, k + 1) for k in range(order)]
            ts = [None if _known_zero(per_term[k][j]) else t for k, t in enumerate(ts)]
            s_leaves.append(_factorial_scale(ts, inverse=True) if factorial_scaled else ts)
    # (jit's fast path is not the place for these trees: flatten the function instead)
    in_trees = [tree_util.structure(p) for p in primals]
    store: list = []

    def flat(*xs):
        args, pos = [], 0
        for tr in in_trees:
            args.append(tr.unflatten(xs[pos:pos + tr.num_leaves]))
            pos += tr.num_leaves
        out_leaves, out_tree = tree_util.flatten(fun(*args))
        store.append(out_tree)
        return out_leaves

    if order == 0:
        outs, out_series = _order0(flat, p_leaves)
    else:
        outs, out_series = jet_flat(flat, p_leaves, s_leaves, order)
    out_tree = store[0]
    terms_out = []
    for o, s in zip(outs, out_series):
        oa = get_aval(o)
        s = list(s) if s is not None else [None] * order
        if factorial_scaled:
            s = _factorial_scale(s, inverse=False)
        zero_aval = oa.strip_weak_type()
        terms_out.append([zeros_like_aval(zero_aval) if t is None else t for t in s])
    return out_tree.unflatten(outs), out_tree.unflatten(terms_out)


# ---- jets of sub-programs (control flow, jit, remat, shard_map) ---------------------------------

def jet_jaxpr(closed: ClosedJaxpr, order: int, in_nz: Sequence[bool],
              instantiate: Sequence[bool]) -> tuple[ClosedJaxpr, list[bool]]:
    """The jet of a jaxpr as a jaxpr: (primals..., K terms of each `in_nz` input...) ->
    (outputs..., K terms of each flagged output...).

    Outputs in `instantiate` always get terms (zeros where the series vanishes); integer
    outputs never do. Returns (ClosedJaxpr, output flags).
    """
    avals = closed.in_avals
    in_nz = [bool(nz) and dtypes.is_inexact(a.dtype) for a, nz in zip(avals, in_nz)]
    n = len(avals)
    store: list = []

    def f(*args):
        it = iter(args[n:])
        series = [[next(it) for _ in range(order)] if nz else None for nz in in_nz]
        outs, out_series = jet_flat(lambda *xs: eval_jaxpr(closed.jaxpr, closed.consts, *xs),
                                    list(args[:n]), series, order)
        flags, extra = [], []
        for o, s, inst in zip(outs, out_series, instantiate):
            oa = get_aval(o)
            nz = dtypes.is_inexact(oa.dtype) and (inst or s is not None)
            flags.append(nz)
            if nz:
                extra += [instantiate_tangent(t, oa) for t in (s if s is not None else [None] * order)]
        store.append(flags)
        return list(outs) + extra

    t_avals = [tangent_aval(a) for a, nz in zip(avals, in_nz) if nz for _ in range(order)]
    traced = trace_flat(f, list(avals) + t_avals, "jet of a sub-program")
    return traced, store[0]


def series_nonzero(series: Series | None) -> bool:
    return series is not None and any(t is not None for t in series)


def instantiated_terms(series: Sequence[Series], avals: Sequence[ShapedArray], nz: Sequence[bool]) -> list:
    """The terms of the flagged operands, flat (operand-major), zeros where a term is None."""
    return [instantiate_tangent(t, a) for s, a, z in zip(series, avals, nz) if z for t in s]


def split_terms(flat: Sequence[Any], nz: Sequence[bool], order: int) -> list[Series | None]:
    """Inverse of `instantiated_terms` for outputs: K terms for each flagged output, else None."""
    it = iter(flat)
    return [[next(it) for _ in range(order)] if z else None for z in nz]


from padax.core.ad_util import zeros_like_aval
from padax.functional._arrays import asarray
from padax.functional.lax.elementwise import mul
from padax.interpreters.ad import instantiate_tangent
from padax.transforms import jet_rules as _jet_rules  # noqa: E402,F401  (registers the rules)
from padax.transforms.staging import trace_flat
