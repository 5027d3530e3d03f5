"""Cumulative (inclusive scan) primitives along one axis: cumsum, cumprod, cummax, cummin."""
from __future__ import annotations

from padax.core import dtypes
from padax.core.abstract import ShapedArray
from padax.core.ad_util import Zero, deflinear, instantiate
from padax.core.errors import op_type_error, op_value_error
from padax.core.primitive import Primitive
from padax.functional._arrays import asarray, static_int
from padax.functional._docs import LAX_IMPORTS, example_doc
from padax.functional.lax import elementwise
from padax.functional.lax.elementwise import add, mul
from padax.functional.lax.structural import pad
from padax.interpreters.ad import jvp_flat

cumulative_primitives: dict[str, Primitive] = {}


def _cum_prim(name: str, ordered: bool) -> Primitive:
    """sum/prod take numbers (bool has no in-dtype running sum); max/min need an order."""
    prim = Primitive(name)

    @prim.def_abstract_eval
    def _abstract(x: ShapedArray, *, axis: int, reverse: bool) -> ShapedArray:
        if not 0 <= axis < x.ndim:
            raise op_value_error(name, f"axis {axis} is out of range for {x.str_short()}")
        if ordered and dtypes.is_complex(x.dtype):
            raise op_type_error(name, f"complex operands have no order, got {x.str_short()}")
        if not ordered and x.dtype == dtypes.bool_:
            raise op_type_error(name, f"expected a numeric operand, got {x.str_short()}")
        return x

    cumulative_primitives[name] = prim
    return prim


cumsum_p = _cum_prim("cumsum", ordered=False)
cumprod_p = _cum_prim("cumprod", ordered=False)
cummax_p = _cum_prim("cummax", ordered=True)
cummin_p = _cum_prim("cummin", ordered=True)


# name -> its example's results on [1, 3, 2, 4], forward and reversed
_EXAMPLES = {"cumsum": ("[1, 4, 6, 10]", "[10, 9, 6, 4]"), "cumprod": ("[1, 3, 6, 24]", "[24, 24, 8, 4]"),
             "cummax": ("[1, 3, 3, 4]", "[4, 4, 4, 4]"), "cummin": ("[1, 1, 1, 1]", "[1, 2, 2, 4]")}


def _wrapper(prim: Primitive):
    def fn(x, axis: int = 0, reverse: bool = False):
        x = asarray(x)
        ndim = x.aval.ndim
        a = static_int(prim.name, axis, "axis")
        if not -ndim <= a < ndim:
            raise op_value_error(prim.name, f"axis {axis} is out of range for {x.aval.str_short()}")
        return prim.bind(x, axis=a % ndim, reverse=bool(reverse))
    forward, backward = _EXAMPLES[prim.name]
    fn.__name__ = fn.__qualname__ = prim.name
    fn.__doc__ = example_doc(
        f"Inclusive running {prim.name[3:]} along `axis` (from the end when `reverse`) (lax level).",
        [("x = padax.to_tensor([1, 3, 2, 4])", ""),
         (f"lax.{prim.name}(x).tolist(), lax.{prim.name}(x, reverse=True).tolist()", f"({forward}, {backward})")],
        imports=LAX_IMPORTS, returns="An array of x's shape and dtype.",
        args=(f"x: an array{'' if prim.name in ('cummax', 'cummin') else ' of numbers'}.\n"
              "        axis: the axis to scan (negative counts from the end).\n"
              "        reverse: scan from the last element to the first."))
    return fn


cumsum, cumprod, cummax, cummin = (_wrapper(p) for p in (cumsum_p, cumprod_p, cummax_p, cummin_p))

__all__ = ["cumsum", "cumprod", "cummax", "cummin"]


# ---- differentiation and batching ----------------------------------------------------------
# cumsum is linear. cumprod tangents solve a first-order linear recurrence along the axis
# (`_linear_scan`), which needs no division and no gather: exact with zeros.


def _cumsum_transpose(ct, x, *, axis, reverse):
    if type(ct) is Zero:
        return [None]
    return [cumsum_p.bind(ct, axis=axis, reverse=not reverse)]


def _shift(x, by: int, axis: int, reverse: bool, fill):
    """Move `x` `by` steps along `axis` in the scan's direction; vacated entries get `fill`."""
    cfg = [(0, 0, 0)] * x.aval.ndim
    cfg[axis] = (-by, by, 0) if reverse else (by, -by, 0)
    return pad(x, fill, cfg)


def _linear_scan(a, b, axis: int, reverse: bool):
    """d with d[i] = a[i] * d[i-1] + b[i] along `axis` (i-1 -> i+1 when reverse), d[-1] = 0.

    Hillis-Steele doubling in ceil(log2 n) steps; linear in `b` (the tangent), `a` is a primal.
    """
    n = a.aval.shape[axis]
    w = 1
    while w < n:
        b = add(b, mul(a, _shift(b, w, axis, reverse, 0)))
        if 2 * w < n:
            a = mul(a, _shift(a, w, axis, reverse, 1))
        w *= 2
    return b


def _cumprod_jvp(primals, tangents, *, axis, reverse):
    x, t = asarray(primals[0]), asarray(tangents[0])
    out = cumprod_p.bind(x, axis=axis, reverse=reverse)
    # d out[i] = x[i] * d out[i-1] + out[i-1] * t[i]
    b = mul(t, _shift(out, 1, axis, reverse, 1))
    return out, _linear_scan(x, b, axis, reverse)


def _cumchooser_jvp(combine: str):
    """As jax: the tangent of an associative scan of the pairwise max/min, whose rule splits a tie
    evenly between the two (so tied elements share the tangent in the scan's tree proportions)."""
    def rule(primals, tangents, *, axis, reverse):
        from padax.functional.lax.associative import associative_scan  # load cycle: associative -> reductions -> here
        x, t = asarray(primals[0]), asarray(tangents[0])
        (out,), (t_out,) = jvp_flat(
            lambda v: [associative_scan(getattr(elementwise, combine), v, reverse=reverse, axis=axis)], [x], [t])
        return out, instantiate(t_out)
    return rule


deflinear(cumsum_p, _cumsum_transpose)
cumprod_p.jvp_rule = _cumprod_jvp
cummax_p.jvp_rule = _cumchooser_jvp("max")
cummin_p.jvp_rule = _cumchooser_jvp("min")


def _cum_batch(prim: Primitive):
    def rule(args, dims, *, axis, reverse):
        (x,), (d,) = args, dims
        return prim.bind(x, axis=axis + (axis >= d), reverse=reverse), d
    return rule


for _p in cumulative_primitives.values():
    _p.batch_rule = _cum_batch(_p)
del _p
