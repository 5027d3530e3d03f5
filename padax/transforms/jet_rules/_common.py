"""Building blocks of Taylor rules.

Coefficient arithmetic where None stands for a zero coefficient (so known zeros cost
nothing), and the rule families most primitives use:

* `linear_rule`: a primitive linear in its floating operands maps each coefficient.
* `locally_linear_rule`: a primitive whose derivative is a locally constant linear map
  (selections, permutations, max/min away from ties): each coefficient goes through
  the primitive's own jvp rule at the primal point.
* `bilinear_rule`: mul, dot_general, conv: the Cauchy product of the two series.
* `from_jvp_rule`: any primitive from its jvp rule. With y(t) = f(x(t)),
  y'(t) = jvp(f)(x(t), x'(t)): the jet of the jvp rule at order K-1 gives the
  coefficients of y', and y_k = y'_{k-1} / k. Exact for every primitive whose jvp
  rule is built from primitives with Taylor rules (custom_jvp uses the user's rule).
* `zero_rule`: outputs with no Taylor series (integers, comparisons, stop_gradient).

Non-smooth primitives (abs at 0, max/min at ties, floor at integers, ...) have no
Taylor series at those points. With concrete values (eager `jet`) the rules check
and raise an error naming the primitive; under jit they follow the jvp's convention.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from padax.core import dtypes
from padax.core.abstract import get_aval
from padax.core.ad_util import Zero, tangent_aval
from padax.core.errors import op_value_error
from padax.core.trace import Tracer
from padax.functional._arrays import full
from padax.functional.lax import elementwise as E
from padax.transforms.jet import _order0, jet_flat, jet_normalized

# ---- coefficient arithmetic (None = zero) --------------------------------------------------------

def zeros_like(x: Any) -> Any:
    a = get_aval(x)
    return full(a.shape, 0, a.dtype)


def inst(t: Any, like: Any) -> Any:
    """The coefficient `t`, or zeros shaped and typed like `like` when it is None."""
    return zeros_like(like) if t is None else t


def tadd(a: Any, b: Any) -> Any:
    if a is None:
        return b
    if b is None:
        return a
    return E.add(a, b)


def tsub(a: Any, b: Any) -> Any:
    if b is None:
        return a
    if a is None:
        return E.neg(b)
    return E.sub(a, b)


def tneg(a: Any) -> Any:
    return None if a is None else E.neg(a)


def tscale(a: Any, c: float) -> Any:
    """a * c for a Python number c."""
    if a is None or c == 0:
        return None
    if c == 1:
        return a
    if c == -1:
        return E.neg(a)
    return E.mul(a, c)


def tmul(a: Any, b: Any) -> Any:
    if a is None or b is None:
        return None
    return E.mul(a, b)


def tdiv(a: Any, b: Any) -> Any:
    return None if a is None else E.div(a, b)


def tsum(items: Sequence[Any]) -> Any:
    acc = None
    for x in items:
        acc = tadd(acc, x)
    return acc


def series_mul(u: Sequence[Any], w: Sequence[Any], op: Callable = E.mul, first: int = 0) -> list:
    """Cauchy product of two full coefficient lists (index 0 = primal), coefficients `first`..K
    (first=1 when the caller has the primal product already)."""
    K = len(u) - 1
    out = []
    for k in range(first, K + 1):
        terms = [op(u[j], w[k - j]) for j in range(k + 1) if u[j] is not None and w[k - j] is not None]
        out.append(tsum(terms))
    return out


def square_coefficient(u: Sequence[Any], k: int) -> Any:
    """Coefficient k of the Cauchy square of u, each cross term computed once (2 u_j u_{k-j})."""
    acc = tscale(tsum([tmul(u[j], u[k - j]) for j in range((k + 1) // 2)]), 2.0)
    if k % 2 == 0:
        acc = tadd(acc, tmul(u[k // 2], u[k // 2]))
    return acc


def series_square(u: Sequence[Any], first: int = 0) -> list:
    """Cauchy square of a full coefficient list, coefficients `first`..K."""
    return [square_coefficient(u, k) for k in range(first, len(u))]


def increments(u: Sequence[Any]) -> list:
    """[None, 1 x_1, 2 x_2, ..., K x_K]: the coefficients of x'(t), shifted (what `ode_coefficient` takes)."""
    return [None] + [tscale(t, j) for j, t in enumerate(u[1:], 1)]


def ode_coefficient(du: Sequence[Any], c: Sequence[Any], k: int) -> Any:
    """The k-th coefficient of y given y' = c(t) x'(t): (1/k) sum_{j=1..k} (j x_j) c_{k-j},
    with du = increments(x's coefficients)."""
    return tscale(tsum([tmul(du[j], c[k - j]) for j in range(1, k + 1)]), 1.0 / k)


def deriv_series(u: Sequence[Any], c: Sequence[Any]) -> list:
    """y_1..y_K of y' = c(t) x'(t), given x's coefficients u[0..K] and c's c[0..K-1]."""
    K = len(u) - 1
    du = increments(u)
    return [ode_coefficient(du, c, k) for k in range(1, K + 1)]


def all_none(s: Sequence[Any] | None) -> bool:
    return s is None or all(t is None for t in s)


def normalize(s: Sequence[Any] | None) -> list | None:
    return None if all_none(s) else list(s)


def jet_of(fun: Callable, primals: Sequence[Any], series: Sequence[Sequence[Any] | None]) -> tuple[list, list]:
    """Nested Taylor mode of `fun(*xs) -> list` (the order is the series' length; may be 0)."""
    return jet_normalized(fun, primals, series)


# ---- rule families ---------------------------------------------------------------------------------

def _per_output(outs_by_order: list, n_out: int) -> list:
    """[order][output] -> [output][order] (None stays None)."""
    return [normalize([None if o is None else o[i] for o in outs_by_order]) for i in range(n_out)]


def linear_rule(prim, linear_args: Callable[[int, Any], bool] | None = None) -> Callable:
    """A primitive jointly linear in its floating operands (or those `linear_args(i, x)` picks):
    each coefficient is the primitive applied to the operands' coefficients."""
    def rule(primals, series, **params):
        out = prim.bind(*primals, **params)
        K = len(series[0])
        lin = [dtypes.is_inexact(get_aval(p).dtype) if linear_args is None else linear_args(i, p)
               for i, p in enumerate(primals)]
        for p, s, l in zip(primals, series, lin):
            if not l and not all_none(s):
                raise op_value_error(f"jet of {prim.name}", "the operation is linear only in some operands, "
                                     "and another operand carries a Taylor series")
        outs = []
        for k in range(K):
            if all(s[k] is None for s, l in zip(series, lin) if l):
                outs.append(None)
                continue
            outs.append(prim.bind(*[inst(s[k], p) if l else p for p, s, l in zip(primals, series, lin)],
                                  **params))
        if prim.multiple_results:
            return out, _per_output(outs, len(out))
        return out, normalize(outs)
    return rule


def zero_rule(prim) -> Callable:
    """No Taylor series for the outputs (integer or piecewise-constant results)."""
    def rule(primals, series, **params):
        return prim.bind(*primals, **params), None
    return rule


def checked(rule: Callable, check: Callable) -> Callable:
    """`rule` preceded by `check(primals, series, **params)` on concrete values (see `concrete`)."""
    def wrapped(primals, series, **params):
        if concrete(primals, series):
            check(primals, series, **params)
        return rule(primals, series, **params)
    return wrapped


def locally_linear_rule(prim) -> Callable:
    """The primitive's jvp rule maps each coefficient (valid where its derivative is locally
    constant: selections, permutations, extrema away from ties)."""
    def rule(primals, series, **params):
        K = len(series[0])
        out, outs = None, []
        for k in range(K):
            tangents = [Zero(tangent_aval(get_aval(p))) if s[k] is None else s[k] for p, s in zip(primals, series)]
            if all(type(t) is Zero for t in tangents):
                outs.append(None)
                continue
            o, t = prim.jvp_rule(list(primals), tangents, **params)
            out = o
            if prim.multiple_results:
                outs.append([None if type(x) is Zero else x for x in t])
            else:
                outs.append(None if type(t) is Zero else t)
        if out is None:
            out = prim.bind(*primals, **params)
        if prim.multiple_results:
            return out, _per_output(outs, len(out))
        return out, normalize(outs)
    return rule


def bilinear_rule(prim) -> Callable:
    """v_k = sum_j op(x_j, y_{k-j}) for a primitive bilinear in its two operands."""
    def rule(primals, series, **params):
        (x, y), (xs, ys) = primals, series
        out = prim.bind(x, y, **params)
        op = lambda a, b: prim.bind(a, b, **params)  # noqa: E731
        u, w = [x] + list(xs), [y] + list(ys)
        return out, normalize(series_mul(u, w, op, first=1))
    return rule


def from_jvp_rule(prim, jvp: Callable | None = None) -> Callable:
    """A Taylor rule from a jvp rule: y' = jvp(x, x'), so the jet of the jvp rule at order
    K-1 gives y'_0..y'_{K-1} and y_k = y'_{k-1} / k."""
    def rule(primals, series, **params):
        jvp_fn = jvp if jvp is not None else prim.jvp_rule
        K = len(series[0])
        n = len(primals)
        avals = [get_aval(p) for p in primals]
        diff = [dtypes.is_inexact(a.dtype) and not all_none(s) for a, s in zip(avals, series)]
        v0 = [inst(s[0], p) for p, s, d in zip(primals, series, diff) if d]
        v_series = [[tscale(s[m], m + 1) for m in range(1, K)] for s, d in zip(series, diff) if d]
        x_series = [list(s[:K - 1]) if d else None for s, d in zip(series, diff)]

        def g(*args):
            xs, it = args[:n], iter(args[n:])
            tangents = [next(it) if d else Zero(tangent_aval(a)) for d, a in zip(diff, avals)]
            out, t_out = jvp_fn(list(xs), tangents, **params)
            if prim.multiple_results:
                return list(out) + list(t_out)
            return [out, t_out]

        if K == 1:
            res, res_series = _order0(g, list(primals) + v0)
        else:
            res, res_series = jet_flat(g, list(primals) + v0, x_series + v_series, K - 1)
        n_out = len(res) // 2
        outs = res[:n_out]
        series_out = []
        for t0, ts in zip(res[n_out:], res_series[n_out:]):
            if type(t0) is Zero:
                series_out.append(None)
                continue
            dy = [t0] + (list(ts) if ts is not None else [None] * (K - 1))
            series_out.append(normalize([tscale(dy[k - 1], 1.0 / k) for k in range(1, K + 1)]))
        if prim.multiple_results:
            return outs, series_out
        return outs[0], series_out[0]
    return rule


def deriv_rule(prim, fprime: Callable) -> Callable:
    """A unary primitive from its derivative: y' = f'(x) x', with f'(x(t)) by a nested jet."""
    def rule(primals, series, **params):
        (x,), (xs,) = primals, series
        K = len(xs)
        out = prim.bind(x, **params)
        (c0,), (cs,) = jet_of(lambda z: [fprime(z)], [x], [list(xs[:K - 1]) if K > 1 else None])
        c = [c0] + (list(cs) if cs is not None else [None] * (K - 1))
        return out, normalize(deriv_series([x] + list(xs), c))
    return rule


# ---- non-smooth points --------------------------------------------------------------------------------

def concrete(primals: Sequence[Any], series: Sequence[Sequence[Any]]) -> bool:
    """Every primal and coefficient is a concrete value (eager jet), so the rule can look at it."""
    vals = list(primals) + [t for s in series for t in s if t is not None]
    return not any(isinstance(v, Tracer) for v in vals)


def host(x: Any) -> np.ndarray:
    return np.asarray(x)


def nonzero_terms(x: Any, s: Sequence[Any]) -> np.ndarray:
    """Where any coefficient of the series is nonzero (elementwise)."""
    mask = np.zeros(np.shape(host(x)), bool)
    for t in s:
        if t is not None:
            mask |= host(t) != 0
    return mask


def differing_terms(xs: Sequence[Any], ys: Sequence[Any], shape) -> np.ndarray:
    """Where two series differ in some coefficient (elementwise)."""
    mask = np.zeros(shape, bool)
    for a, b in zip(xs, ys):
        if a is None and b is None:
            continue
        av = host(a) if a is not None else 0
        bv = host(b) if b is not None else 0
        mask |= np.broadcast_to(np.asarray(av != bv), shape)
    return mask


def not_smooth(op: str, mask: np.ndarray, where: str) -> None:
    """Raise if `mask` marks any element: the Taylor series of `op` is undefined there."""
    n = int(np.count_nonzero(mask))
    if n:
        raise op_value_error(f"jet of {op}", f"{op} is not smooth {where} ({n} element(s) of the input), so "
                             "its Taylor series is undefined there; move the expansion point off it, or use "
                             "a smooth function")
