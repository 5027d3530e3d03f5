"""Reductions over axes: sum, prod, max, min, and, or; argmax/argmin (cumulative ops elsewhere)."""
from __future__ import annotations

import numpy as np

from padax.core import dtypes
from padax.core.abstract import ShapedArray
from padax.core.errors import op_type_error, op_value_error
from padax.core.primitive import Primitive
from padax.functional._arrays import asarray

reduce_primitives: dict[str, Primitive] = {}


def _reduce_prim(name: str, accepts_bool: bool = True, only_bool_int: bool = False,
                 ordered: bool = False) -> Primitive:
    prim = Primitive(name)

    @prim.def_abstract_eval
    def _abstract(x: ShapedArray, *, axes: tuple[int, ...]) -> ShapedArray:
        if any(not 0 <= a < x.ndim for a in axes) or len(set(axes)) != len(axes):
            raise op_value_error(name, f"axes {axes} out of range or repeated for {x.str_short()}")
        if only_bool_int and not (x.dtype == dtypes.bool_ or dtypes.is_integer(x.dtype)):
            raise op_type_error(name, f"expected a bool or integer operand, got {x.str_short()}")
        if ordered and dtypes.is_complex(x.dtype):
            raise op_type_error(name, f"complex operands have no order, got {x.str_short()}")
        shape = tuple(d for i, d in enumerate(x.shape) if i not in axes)
        return ShapedArray(shape, x.dtype, x.weak_type)

    reduce_primitives[name] = prim
    return prim


reduce_sum_p = _reduce_prim("reduce_sum")
reduce_prod_p = _reduce_prim("reduce_prod")
reduce_max_p = _reduce_prim("reduce_max", ordered=True)
reduce_min_p = _reduce_prim("reduce_min", ordered=True)
reduce_and_p = _reduce_prim("reduce_and", only_bool_int=True)
reduce_or_p = _reduce_prim("reduce_or", only_bool_int=True)


def _reducer(prim: Primitive):
    def fn(x, axes):
        return prim.bind(x, axes=tuple(sorted(int(a) for a in axes)))
    fn.__name__ = prim.name
    fn.__doc__ = f"`{prim.name}` over the given axes (lax level)."
    return fn


reduce_sum, reduce_prod, reduce_max, reduce_min, reduce_and, reduce_or = (
    _reducer(p) for p in (reduce_sum_p, reduce_prod_p, reduce_max_p, reduce_min_p, reduce_and_p, reduce_or_p))

__all__ = ["reduce_sum", "reduce_prod", "reduce_max", "reduce_min", "reduce_and", "reduce_or"]


# ---- argmax / argmin ----------------------------------------------------------------
# argmax(x, axes=(axis,), index_dtype): index of the first maximum; NaN counts as the
# maximum (and as the minimum for argmin), so the first NaN wins, as in numpy.

def _arg_prim(name: str) -> Primitive:
    prim = Primitive(name)

    @prim.def_abstract_eval
    def _abstract(x: ShapedArray, *, axes: tuple[int, ...], index_dtype) -> ShapedArray:
        if len(axes) != 1 or not 0 <= axes[0] < x.ndim:
            raise op_value_error(name, f"axes {axes} must name exactly one axis of {x.str_short()}")
        if x.shape[axes[0]] == 0:
            raise op_value_error(name, f"axis {axes[0]} of {x.str_short()} is empty")
        if not dtypes.is_integer(index_dtype):
            raise op_type_error(name, f"index_dtype must be an integer type, got {np.dtype(index_dtype).name}"
                                      f" (operand {x.str_short()})")
        if dtypes.is_complex(x.dtype):
            raise op_type_error(name, f"complex operands have no order, got {x.str_short()}")
        if x.shape[axes[0]] - 1 > dtypes.iinfo(index_dtype).max:
            raise op_value_error(name, f"index_dtype {np.dtype(index_dtype).name} cannot index axis "
                                       f"{axes[0]} of {x.str_short()}")
        return ShapedArray(tuple(d for i, d in enumerate(x.shape) if i != axes[0]), index_dtype)

    return prim


argmax_p = _arg_prim("argmax")
argmin_p = _arg_prim("argmin")


def _arg_wrapper(prim: Primitive):
    def fn(x, axis: int, index_dtype=dtypes.int32):
        x = asarray(x)
        ndim = x.aval.ndim
        a = int(axis)
        if not -ndim <= a < ndim:
            raise op_value_error(prim.name, f"axis {axis} is out of range for {x.aval.str_short()}")
        return prim.bind(x, axes=(a % ndim,), index_dtype=dtypes.canonicalize(index_dtype))
    fn.__name__ = prim.name
    fn.__doc__ = (f"Index (of `index_dtype`) of the first {prim.name[3:]}imum along `axis`; "
                  "the first NaN wins (lax level).")
    return fn


argmax = _arg_wrapper(argmax_p)
argmin = _arg_wrapper(argmin_p)

__all__ += ["argmax", "argmin"]
