"""Collapsed Taylor mode: sums over directions of K-th directional derivatives, without
computing the K-th coefficient for each direction.

Operators like the Laplacian, sum_i d^2 f / dx_i^2, are sums over directions v_d of the
second Taylor coefficient of f(x + t v_d). Plain Taylor mode (vmap of jet) carries one
second-order coefficient per direction; but every Taylor rule is *linear* in its top
coefficient, with a coefficient that depends on the primal only:

    y_K = f'(x0) x_K + (a function of x_1 .. x_{K-1})

so the sum over directions of y_K needs only the sum of the x_K: one array instead of
one per direction (Dangel et al., "Collapsing Taylor mode automatic differentiation",
2024; the "forward Laplacian" of Li et al., 2023). A `CollapsedTracer` carries the
primal, the lower coefficients with a leading direction axis, and the summed top
coefficient. Each primitive runs its ordinary Taylor rule under vmap over the
directions with a zero top coefficient (summing the result) and adds its jvp applied
to the summed top. jit, remat and custom_vjp calls are inlined so the collapse reaches
inside them; other primitives with bodies (cond, scan, while, custom_jvp) use their
Taylor rules per direction, which is exact, only not collapsed within the body.

At order 2 (Laplacians) elementwise primitives with one operand carrying a series are
collapsed further (the forward Laplacian): y_2 = f'(x) x_2 + c(x) x_1^2 pointwise, so
the summed top is f'(x) top + c(x) sum_d x_{1,d}^2, with f'(x) and c(x) read off the
Taylor rule applied once, at the primal's shape, to the series (1, 0). No second-order
term is formed per direction; the first-order ones are f'(x) x_{1,d}.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from padax.core import dtypes
from padax.core.abstract import ShapedArray, get_aval
from padax.core.ad_util import Zero, tangent_aval
from padax.core.jaxpr import eval_jaxpr
from padax.core.trace import Trace, Tracer, new_trace, set_current_trace, trace_state
from padax.functional._arrays import full
from padax.functional.lax.elementwise import mul
from padax.functional.lax.reductions import reduce_sum
from padax.functional.lax.structural import bdim_to_front
from padax.transforms.batching import vmap
from padax.transforms.jet import _missing_rule_error, taylor_rules
from padax.transforms.jet_rules._common import tadd, tmul


class CollapsedTracer(Tracer):
    __slots__ = ("primal", "lower", "top")

    def __init__(self, trace: "CollapsedTrace", primal: Any, lower: list, top: Any):
        self._trace = trace
        self._tape = None  # (the dygraph tape's entry: set on a tracer that needs a gradient)
        self.primal = primal
        self.lower = lower    # K-1 coefficients, each None or with a leading direction axis
        self.top = top        # the K-th coefficient summed over directions, or None

    @property
    def aval(self) -> ShapedArray:
        return get_aval(self.primal)


class CollapsedTrace(Trace):
    __slots__ = ("parent", "order", "num_directions")
    description = "collapsed Taylor mode tracing"

    def __init__(self, parent: Trace, order: int, num_directions: int):
        super().__init__()
        self.parent = parent
        self.order = order
        self.num_directions = num_directions

    def lift(self, x: Any) -> tuple[Any, list, Any]:
        if isinstance(x, CollapsedTracer) and x._trace is self:
            return x.primal, x.lower, x.top
        return x, [None] * (self.order - 1), None

    def process_primitive(self, prim, args, params):
        primals, lowers, tops = [], [], []
        for a in args:
            p, lo, tp = self.lift(a)
            primals.append(p)
            lowers.append(lo)
            tops.append(tp)
        has_lower = [any(t is not None for t in lo) for lo in lowers]
        if not any(has_lower) and all(t is None for t in tops):
            with set_current_trace(self.parent):
                return prim.bind(*primals, **params)
        if prim.inline_jaxpr_param is not None:  # evaluate the body under this trace: the collapse reaches inside
            body = params[prim.inline_jaxpr_param]
            return eval_jaxpr(body.jaxpr, body.consts, *args)
        rule = taylor_rules.get(prim)
        if rule is None:
            raise _missing_rule_error(prim)
        with set_current_trace(self.parent):
            if self.order == 2 and prim.taylor_pointwise and sum(has_lower) == 1 and _same_shapes(primals):
                out, lower_out, top_out = self._apply_pointwise(prim, rule, primals, lowers, tops, has_lower, params)
            else:
                out, lower_out, top_out = self._apply(prim, rule, primals, lowers, tops, has_lower, params)
        if prim.multiple_results:
            return [self._wrap(o, lo, tp) for o, lo, tp in zip(out, lower_out, top_out)]
        return self._wrap(out[0], lower_out[0], top_out[0])

    def _apply(self, prim, rule, primals, lowers, tops, has_lower, params):
        K = self.order
        n_out = None
        out = None
        lower_out, top_out = None, None
        if any(has_lower):
            idx = [(i, k) for i, lo in enumerate(lowers) for k, t in enumerate(lo) if t is not None]
            store: list = []

            def per_direction(*flat):
                series = [[None] * K for _ in primals]
                for (i, k), t in zip(idx, flat):
                    series[i][k] = t
                o, s = rule(list(primals), series, **params)
                outs = list(o) if prim.multiple_results else [o]
                ss = list(s) if prim.multiple_results and s is not None else [s] * (1 if not prim.multiple_results
                                                                                    else len(outs))
                pattern = [[t is not None for t in si] if si is not None else [False] * K for si in ss]
                store.append(pattern)
                lower_terms = [t for si in ss if si is not None for t in si[:K - 1] if t is not None]
                top_terms = [si[K - 1] for si in ss if si is not None and si[K - 1] is not None]
                return outs, lower_terms, top_terms

            # the top terms come out with the directions last, where summing them is a contiguous reduction
            outs, lower_terms, top_terms = vmap(per_direction, in_axes=0, out_axes=(None, 0, -1))(
                *[lowers[i][k] for i, k in idx])
            pattern = store[0]
            n_out = len(outs)
            out = outs
            lo_it, top_it = iter(lower_terms), iter(top_terms)
            lower_out = [[None] * (K - 1) for _ in range(n_out)]
            top_out = [None] * n_out
            for j, pat in enumerate(pattern):
                for k, present in enumerate(pat[:K - 1]):
                    if present:
                        lower_out[j][k] = next(lo_it)
                if pat[K - 1]:
                    t = next(top_it)
                    top_out[j] = reduce_sum(t, (get_aval(t).ndim - 1,))
        if any(t is not None for t in tops):
            tangents = [Zero(tangent_aval(get_aval(p))) if t is None else t for p, t in zip(primals, tops)]
            o, t_lin = prim.jvp_rule(list(primals), tangents, **params)
            outs = list(o) if prim.multiple_results else [o]
            t_lin = list(t_lin) if prim.multiple_results else [t_lin]
            if out is None:
                out, n_out = outs, len(outs)
                lower_out = [[None] * (K - 1) for _ in range(n_out)]
                top_out = [None] * n_out
            for j, t in enumerate(t_lin):
                if type(t) is not Zero:
                    top_out[j] = tadd(top_out[j], t)
        return out, lower_out, top_out

    def _apply_pointwise(self, prim, rule, primals, lowers, tops, has_lower, params):
        """Order 2, one operand i with first-order terms x1 (directions first): the forward
        Laplacian step (see the module docstring). Other operands may carry a summed top only."""
        i = has_lower.index(True)
        x1 = lowers[i][0]
        unit = [[_ones_like(q), None] if j == i else [None, None] for j, q in enumerate(primals)]
        out, s = rule(list(primals), unit, **params)
        d1, c2 = (None, None) if s is None else s        # f'(x) and the second-order coefficient c(x)
        lower = None if d1 is None else mul(bdim_to_front(d1, None, self.num_directions), x1)
        top = tmul(c2, None if c2 is None else reduce_sum(mul(x1, x1), (0,)))
        others = [j for j, t in enumerate(tops) if t is not None and j != i]
        if others:      # an operand without first-order terms but with a summed top: its jvp
            tangents = [Zero(tangent_aval(get_aval(q))) if t is None else t for q, t in zip(primals, tops)]
            _, t_lin = prim.jvp_rule(list(primals), tangents, **params)
            top = tadd(top, None if type(t_lin) is Zero else t_lin)
        elif tops[i] is not None:
            top = tadd(top, tmul(d1, tops[i]))
        return [out], [[lower]], [top]

    def _wrap(self, p: Any, lower: list, top: Any) -> Any:
        if not dtypes.is_inexact(get_aval(p).dtype) or (all(t is None for t in lower) and top is None):
            return p
        return CollapsedTracer(self, p, lower, top)


def _ones_like(x: Any) -> Any:
    a = get_aval(x)
    return full(a.shape, 1, a.dtype)


def _same_shapes(primals: Sequence[Any]) -> bool:
    """Elementwise operands of one shape (no implicit broadcasting of a scalar operand)."""
    return len({get_aval(p).shape for p in primals}) == 1


def collapsed_jet(fun: Callable, primals: Sequence[Any], lower: Sequence[Sequence[Any]], top: Sequence[Any],
                  order: int, num_directions: int) -> tuple[list, list, list]:
    """Flat collapsed Taylor mode: `fun(*xs) -> list of arrays`.

    `lower[i]` holds the K-1 lower coefficients of input i, each None or with a leading
    axis of `num_directions`; `top[i]` the K-th coefficient summed over the directions
    (or None). Returns (outputs, their lower coefficients, their summed top coefficients).
    """
    trace = CollapsedTrace(trace_state.trace, order, num_directions)
    with new_trace(trace):
        ins = [CollapsedTracer(trace, p, list(lo), tp) if any(t is not None for t in lo) or tp is not None else p
               for p, lo, tp in zip(primals, lower, top)]
        outs = fun(*ins)
        triples = [trace.lift(o) for o in outs]
    return [a for a, _, _ in triples], [b for _, b, _ in triples], [c for _, _, c in triples]
