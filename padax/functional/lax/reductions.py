"""Reductions over axes: sum, prod, max, min, and, or; argmax/argmin (cumulative ops elsewhere)."""
from __future__ import annotations

import numpy as np

from padax.core import dtypes
from padax.core.abstract import ShapedArray, get_aval
from padax.core.ad_util import Zero, deflinear, defzero_jvp
from padax.core.errors import op_type_error, op_value_error
from padax.core.primitive import Primitive
from padax.functional._arrays import asarray, static_int, static_ints
from padax.functional._docs import LAX_IMPORTS, example_doc
from padax.functional.lax.cumulative import cumprod
from padax.functional.lax.elementwise import div, eq, mul
from padax.functional.lax.structural import broadcast_in_dim, convert_element_type, pad, reshape, transpose

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


# name -> (what it reduces with, the example's operand, its result over axis 1, over both axes)
_EXAMPLES = {
    "reduce_sum": ("The sum", "[[1, 5, 2], [4, 0, 3]]", "[8, 7]", "15"),
    "reduce_prod": ("The product", "[[1, 5, 2], [4, 0, 3]]", "[10, 0]", "0"),
    "reduce_max": ("The maximum (NaN if any element is NaN)", "[[1, 5, 2], [4, 0, 3]]", "[5, 4]", "5"),
    "reduce_min": ("The minimum (NaN if any element is NaN)", "[[1, 5, 2], [4, 0, 3]]", "[1, 0]", "0"),
    "reduce_and": ("Logical AND of bools (bitwise AND of integers)", "[[True, False], [True, True]]",
                   "[False, True]", "False"),
    "reduce_or": ("Logical OR of bools (bitwise OR of integers)", "[[True, False], [False, False]]",
                  "[True, False]", "True"),
}


def _reducer(prim: Primitive):
    def fn(x, axes):
        return prim.bind(x, axes=tuple(sorted(static_ints(prim.name, axes, "axes"))))
    what, operand, by_row, total = _EXAMPLES[prim.name]
    fn.__name__ = fn.__qualname__ = prim.name
    fn.__doc__ = example_doc(
        f"{what} of `x` over `axes`, which are removed from the shape (lax level).",
        [(f"x = padax.to_tensor({operand})", ""),
         (f"lax.{prim.name}(x, (1,)).tolist(), lax.{prim.name}(x, (0, 1)).tolist()", f"({by_row}, {total})")],
        imports=LAX_IMPORTS, args="x: an array.\n        axes: the axes to reduce (a sequence of ints).",
        returns="An array of x's dtype and x's shape without `axes`.")
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
        a = static_int(prim.name, axis, "axis")
        if not -ndim <= a < ndim:
            raise op_value_error(prim.name, f"axis {axis} is out of range for {x.aval.str_short()}")
        return prim.bind(x, axes=(a % ndim,), index_dtype=dtypes.canonicalize(index_dtype))
    fn.__name__ = fn.__qualname__ = prim.name
    fn.__doc__ = example_doc(
        f"Index of the first {prim.name[3:]}imum along `axis`; the first NaN wins (lax level).",
        [("x = padax.to_tensor([[1.0, 5.0, 5.0], [float('nan'), 0.0, 3.0]])", ""),
         (f"lax.{prim.name}(x, 1).tolist(), lax.{prim.name}(x, 1, 'int64').dtype",
          f"({'[1, 0]' if prim.name == 'argmax' else '[0, 0]'}, dtype('int64'))")],
        imports=LAX_IMPORTS, returns="An `index_dtype` array of x's shape without `axis`.",
        args=("x: a real array (not complex) whose `axis` is not empty.\n        axis: the axis to search.\n"
              "        index_dtype: the integer dtype of the result."))
    return fn


argmax = _arg_wrapper(argmax_p)
argmin = _arg_wrapper(argmin_p)

__all__ += ["argmax", "argmin"]


# ---- differentiation and batching ----------------------------------------------------------
# Rules bind lax ops on plain values (they run on the parent trace). Structural helpers are
# imported inside the rules: structural.py may itself use reductions in its own rules.


def _kept(ndim: int, axes) -> tuple[int, ...]:
    return tuple(i for i in range(ndim) if i not in axes)


def _expand_to(y, aval: ShapedArray, axes):
    """Broadcast a reduced result back over the reduced axes of `aval`'s shape."""
    return broadcast_in_dim(y, aval.shape, _kept(aval.ndim, axes))


def _reduce_sum_transpose(ct, x, *, axes):
    if type(ct) is Zero:
        return [None]
    return [_expand_to(ct, x.aval, axes)]


def _exclusive_cumprod(x, axis: int, reverse: bool):
    """Product of the elements strictly before (after, if reverse) each one along `axis`."""
    nd = get_aval(x).ndim
    cfg = [(0, 0, 0)] * nd
    cfg[axis] = (-1, 1, 0) if reverse else (1, -1, 0)
    return pad(cumprod(x, axis, reverse), 1, cfg)


def _product_of_others(x, axes):
    """For each element, the product of the other elements of its reduction group.

    Built from exclusive cumulative products in both directions, so it stays exact when
    the group contains zeros (no division by x).
    """
    a = get_aval(x)
    if len(axes) == 1:
        ax = axes[0]
        return mul(_exclusive_cumprod(x, ax, False), _exclusive_cumprod(x, ax, True))
    kept = _kept(a.ndim, axes)
    perm = kept + tuple(axes)
    grouped_shape = tuple(a.shape[i] for i in kept) + (int(np.prod([a.shape[i] for i in axes])),)
    xg = reshape(transpose(x, perm), grouped_shape)
    last = len(grouped_shape) - 1
    og = mul(_exclusive_cumprod(xg, last, False), _exclusive_cumprod(xg, last, True))
    og = reshape(og, tuple(a.shape[i] for i in perm))
    return transpose(og, tuple(int(i) for i in np.argsort(perm)))


def _reduce_prod_jvp(primals, tangents, *, axes):
    (x,), (t,) = primals, tangents
    x = asarray(x)
    out = reduce_prod_p.bind(x, axes=axes)
    if not axes:
        return out, t
    return out, reduce_sum_p.bind(mul(t, _product_of_others(x, axes)), axes=axes)


def _chooser_jvp(prim: Primitive):
    """max/min: the tangent at the extremum's location; ties share it equally (as jax does)."""
    def rule(primals, tangents, *, axes):
        (x,), (t,) = primals, tangents
        x = asarray(x)
        out = prim.bind(x, axes=axes)
        a = get_aval(x)
        hits = convert_element_type(eq(x, _expand_to(out, a, axes)), a.dtype)
        weights = div(hits, _expand_to(reduce_sum_p.bind(hits, axes=axes), a, axes))
        return out, reduce_sum_p.bind(mul(t, weights), axes=axes)
    return rule


deflinear(reduce_sum_p, _reduce_sum_transpose)
reduce_prod_p.jvp_rule = _reduce_prod_jvp
reduce_max_p.jvp_rule = _chooser_jvp(reduce_max_p)
reduce_min_p.jvp_rule = _chooser_jvp(reduce_min_p)
for _p in (reduce_and_p, reduce_or_p, argmax_p, argmin_p):
    defzero_jvp(_p)


def _axes_in_batched(axes, bdim: int) -> tuple[int, ...]:
    """Operand axes of the unbatched op renumbered for an operand with a batch axis at `bdim`."""
    return tuple(a + (a >= bdim) for a in axes)


def _reduce_batch(prim: Primitive):
    def rule(args, dims, **params):
        (x,), (d,) = args, dims
        axes = params["axes"]
        new_axes = _axes_in_batched(axes, d)
        out_dim = d - sum(a < d for a in new_axes)
        return prim.bind(x, **{**params, "axes": new_axes}), out_dim
    return rule


for _p in (*reduce_primitives.values(), argmax_p, argmin_p):
    _p.batch_rule = _reduce_batch(_p)
del _p
