"""Cumulative (inclusive scan) primitives along one axis: cumsum, cumprod, cummax, cummin."""
from __future__ import annotations

from padax.core import dtypes
from padax.core.abstract import ShapedArray
from padax.core.errors import op_type_error, op_value_error
from padax.core.primitive import Primitive
from padax.functional._arrays import asarray

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


def _wrapper(prim: Primitive):
    def fn(x, axis: int = 0, reverse: bool = False):
        x = asarray(x)
        ndim = x.aval.ndim
        a = int(axis)
        if not -ndim <= a < ndim:
            raise op_value_error(prim.name, f"axis {axis} is out of range for {x.aval.str_short()}")
        return prim.bind(x, axis=a % ndim, reverse=bool(reverse))
    fn.__name__ = prim.name
    fn.__doc__ = (f"Inclusive running {prim.name[3:]} along `axis` (from the end when `reverse`); "
                  "same shape and dtype (lax level).")
    return fn


cumsum, cumprod, cummax, cummin = (_wrapper(p) for p in (cumsum_p, cumprod_p, cummax_p, cummin_p))

__all__ = ["cumsum", "cumprod", "cummax", "cummin"]
