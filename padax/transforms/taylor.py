"""`padax.taylor`: Taylor-mode conveniences on top of `padax.jet`.

* `derivatives(f, x, order, direction=None)`: f(x), f'(x), ..., f^(K)(x) along a direction
  (the input itself for a scalar x) in one Taylor-mode pass.
* `ode_coefficients(f, y0, order, t0=None)`: the Taylor coefficients of the solution of
  y' = f(y) (or f(y, t) with a start time t0) around its initial value, by the
  recurrence y_{k+1} = [f(y(t))]_k / (k + 1), each step one jet of f.
* `evaluate(coefficients, h)`: the truncated series sum_k c_k h^k.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from padax.core import dtypes
from padax.core.errors import op_type_error, op_value_error
from padax.functional._arrays import asarray, aval_of, full
from padax.functional.lax.elementwise import mul
from padax.runtime import tree as tree_util
from padax.transforms.jet import jet, jet_normalized

__all__ = ["jet", "derivatives", "ode_coefficients", "evaluate"]


def _zeros_like(x: Any) -> Any:
    a = aval_of(x)
    return full(a.shape, 0, a.dtype)


def _check_order(op: str, order: int) -> int:
    if isinstance(order, bool) or not isinstance(order, int) or order < 0:
        raise op_value_error(op, f"order must be a non-negative int, got {order!r}")
    return order


def derivatives(f: Callable, x: Any, order: int, direction: Any = None) -> list:
    """[f(x), D f(x)[v], D^2 f(x)[v, v], ..., D^K f(x)[v, ..., v]] in one Taylor-mode pass.

    `x` may be a pytree; `direction` (v, shaped like x) defaults to ones for a scalar x, so
    for f: R -> R this is [f(x), f'(x), ..., f^(K)(x)]. Each entry has f's output structure.

    Args:
        f: the function.
        x: the point (a pytree).
        order: the highest order K (>= 0).
        direction: v, shaped like x (default ones, only for a single scalar x).

    Returns:
        A list of K + 1 values shaped like f's output: f(x), then the directional derivatives of order 1..K.

    Examples:
        >>> import padax
        >>> from padax import taylor
        >>> [float(d) for d in taylor.derivatives(padax.exp, padax.to_tensor(0.0), 3)]
        [1.0, 1.0, 1.0, 1.0]
    """
    _check_order("derivatives", order)
    leaves = tree_util.leaves(x)
    if direction is None:
        if len(leaves) != 1 or aval_of(leaves[0]).shape != ():
            raise op_type_error("derivatives", "direction is required unless x is a single scalar")
        a = aval_of(asarray(leaves[0]))
        direction = tree_util.structure(x).unflatten([full((), 1, a.dtype)])
    zeros = tree_util.map(lambda v: _zeros_like(asarray(v)), x)
    out, terms = jet(f, (x,), ([direction] + [zeros] * (order - 1) if order else [],))
    o_leaves, o_tree = tree_util.flatten(out)
    t_lists = o_tree.flatten_up_to(terms)
    return [out] + [o_tree.unflatten([t[k] for t in t_lists]) for k in range(order)]


def ode_coefficients(f: Callable, y0: Any, order: int, t0: Any = None) -> list:
    """Taylor coefficients [y_0, y_1, ..., y_K] of the solution of y' = f(y) with y(t0) = y0,
    so y(t0 + h) ~ sum_k y_k h^k (and y^(k)(t0) = k! y_k). With `t0` given, f is called as
    f(y, t) (non-autonomous). `y0` may be a pytree of floating arrays; f returns its structure.

    Args:
        f: the vector field, f(y) (or f(y, t) when `t0` is given).
        y0: the initial state (a pytree of floating arrays).
        order: the highest coefficient K.
        t0: the initial time for a non-autonomous f; None for f(y).

    Returns:
        A list [y_0, ..., y_K] of coefficients shaped like y0.

    Examples:
        >>> import padax
        >>> from padax import taylor
        >>> [float(c) for c in taylor.ode_coefficients(lambda y: -y * y, padax.to_tensor(1.0), 3)]   # 1/(1+t)
        [1.0, -1.0, 1.0, -1.0]
    """
    _check_order("ode_coefficients", order)
    y_leaves, tree = tree_util.flatten(y0)
    y_leaves = [asarray(y) for y in y_leaves]
    for y in y_leaves:
        if not dtypes.is_inexact(aval_of(y).dtype):
            raise op_type_error("ode_coefficients", f"y0 must hold floating arrays, got {aval_of(y).str_short()}")
    n = len(y_leaves)
    timed = t0 is not None
    t = asarray(t0) if timed else None

    def flat(*zs):
        ys = tree.unflatten(zs[:n])
        out = f(ys, zs[n]) if timed else f(ys)
        o_leaves, o_tree = tree_util.flatten(out)
        if o_tree != tree:
            raise op_type_error("ode_coefficients", f"f must return the structure of y0 {tree}, got {o_tree}")
        return o_leaves

    coeffs = [list(y_leaves)]
    for k in range(order):
        series = [[c[i] for c in coeffs[1:]] if k else None for i in range(n)]
        primals = list(y_leaves)
        if timed:
            primals.append(t)
            series.append(([full(aval_of(t).shape, 1, aval_of(t).dtype)] + [None] * (k - 1)) if k else None)
        outs, out_series = jet_normalized(flat, primals, series)
        nxt = []
        for o, s, y in zip(outs, out_series, y_leaves):
            fk = o if k == 0 else (s[k - 1] if s is not None else None)
            nxt.append(_zeros_like(y) if fk is None else mul(fk, 1.0 / (k + 1)))
        coeffs.append(nxt)
    return [tree.unflatten(c) for c in coeffs]


def evaluate(coefficients: Sequence[Any], h: Any) -> Any:
    """sum_k coefficients[k] * h**k (Horner's rule; coefficients are pytrees of one structure).

    Args:
        coefficients: the Taylor coefficients c_0..c_K (pytrees of one structure).
        h: the step.

    Returns:
        sum_k c_k h^k, with the coefficients' structure.

    Examples:
        >>> from padax import taylor
        >>> taylor.evaluate([1.0, 2.0, 3.0], 2.0)                # 1 + 2*2 + 3*2**2
        17.0
    """
    if not coefficients:
        raise op_value_error("taylor.evaluate", "needs at least one coefficient")
    acc = coefficients[-1]
    for c in reversed(coefficients[:-1]):
        acc = tree_util.map(lambda a, b: a * h + b, acc, c)
    return acc
