"""Reductions over axes: sum, prod, max, min, and, or (argmax/argmin/cumulative elsewhere)."""
from __future__ import annotations

from padax.core import dtypes
from padax.core.abstract import ShapedArray
from padax.core.errors import op_type_error, op_value_error
from padax.core.primitive import Primitive

reduce_primitives: dict[str, Primitive] = {}


def _reduce_prim(name: str, accepts_bool: bool = True, only_bool_int: bool = False) -> Primitive:
    prim = Primitive(name)

    @prim.def_abstract_eval
    def _abstract(x: ShapedArray, *, axes: tuple[int, ...]) -> ShapedArray:
        if any(not 0 <= a < x.ndim for a in axes) or len(set(axes)) != len(axes):
            raise op_value_error(name, f"axes {axes} out of range or repeated for {x.str_short()}")
        if only_bool_int and not (x.dtype == dtypes.bool_ or dtypes.is_integer(x.dtype)):
            raise op_type_error(name, f"expected a bool or integer operand, got {x.str_short()}")
        shape = tuple(d for i, d in enumerate(x.shape) if i not in axes)
        return ShapedArray(shape, x.dtype, x.weak_type)

    reduce_primitives[name] = prim
    return prim


reduce_sum_p = _reduce_prim("reduce_sum")
reduce_prod_p = _reduce_prim("reduce_prod")
reduce_max_p = _reduce_prim("reduce_max")
reduce_min_p = _reduce_prim("reduce_min")
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
