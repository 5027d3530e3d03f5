"""Gather and scatter: XLA's general indexed reads and indexed updates.

Indices always carry their index vector in the last dimension (as in
jax.lax). `mode` says what out-of-bounds indices do: 'clip' clamps them so
the whole window is in bounds, 'fill' (gather) returns `fill_value` for a
window that is not entirely in bounds and 'drop' (scatter) skips such a
window, 'promise_in_bounds' leaves it to XLA (gathers clamp, scatters drop).
"""
from __future__ import annotations

import enum
import math
from typing import Any, NamedTuple, Sequence

import numpy as np

from padax.core import dtypes
from padax.core.abstract import ShapedArray, get_aval
from padax.core.ad_util import Zero, add_tangents, is_undefined, tangent_aval, zeros_like_aval
from padax.core.errors import op_type_error, op_value_error
from padax.core.primitive import Primitive
from padax.functional._arrays import asarray, full
from padax.functional._docs import LAX_IMPORTS, example_doc
from padax.functional.lax.elementwise import add, div, eq, max as _max, mul
from padax.functional.lax.structural import (
    batch_size,
    bdim_to_front,
    broadcast_in_dim,
    convert_element_type,
    iota,
    moveaxis,
    reshape,
    select,
)


class GatherScatterMode(enum.Enum):
    """How gather/scatter treat out-of-bounds indices: clamp them (CLIP), fill the result / drop the
    update (FILL_OR_DROP, named 'fill' or 'drop'), or trust they are in bounds (PROMISE_IN_BOUNDS).

    Args:
        value: 'clip', 'fill' or 'promise_in_bounds' (GatherScatterMode(value)); `from_any(mode, default)`
            also takes a member, 'drop', or None (giving `default`).

    Returns:
        The GatherScatterMode member.

    Examples:
        >>> from padax import lax
        >>> mode = lax.GatherScatterMode
        >>> mode.from_any('drop', default=None), mode.from_any(None, default=mode.CLIP)
        (GatherScatterMode.FILL_OR_DROP, GatherScatterMode.CLIP)
    """
    CLIP = "clip"
    FILL_OR_DROP = "fill"
    PROMISE_IN_BOUNDS = "promise_in_bounds"

    def __repr__(self) -> str:
        return f"GatherScatterMode.{self.name}"

    @staticmethod
    def from_any(mode: Any, default: "GatherScatterMode") -> "GatherScatterMode":
        if mode is None:
            return default
        if isinstance(mode, GatherScatterMode):
            return mode
        if isinstance(mode, str):
            m = mode.lower()
            if m == "clip":
                return GatherScatterMode.CLIP
            if m in ("fill", "drop"):
                return GatherScatterMode.FILL_OR_DROP
            if m == "promise_in_bounds":
                return GatherScatterMode.PROMISE_IN_BOUNDS
        raise ValueError(f"unknown gather/scatter mode {mode!r}; expected 'clip', 'fill', 'drop' "
                         "or 'promise_in_bounds'")


class GatherDimensionNumbers(NamedTuple):
    """How operand, indices and output dimensions of a gather relate (XLA's Gather).

    Args:
        offset_dims: output dimensions that hold the slice's (uncollapsed) dimensions.
        collapsed_slice_dims: operand dimensions of slice size 1 that the output drops.
        start_index_map: which operand dimension each component of an index vector starts.
        operand_batching_dims, start_indices_batching_dims: operand and indices dimensions gathered in
            lockstep (default: none).

    Returns:
        An immutable named tuple of those five tuples of ints.

    Examples:
        >>> from padax import lax
        >>> dn = lax.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))
        >>> dn.operand_batching_dims
        ()
    """
    offset_dims: tuple[int, ...]
    collapsed_slice_dims: tuple[int, ...]
    start_index_map: tuple[int, ...]
    operand_batching_dims: tuple[int, ...] = ()
    start_indices_batching_dims: tuple[int, ...] = ()


class ScatterDimensionNumbers(NamedTuple):
    """How operand, indices and updates dimensions of a scatter relate (XLA's Scatter).

    Args:
        update_window_dims: updates dimensions that hold a window of the operand.
        inserted_window_dims: operand dimensions of window size 1 that updates leave out.
        scatter_dims_to_operand_dims: which operand dimension each component of an index vector starts.
        operand_batching_dims, scatter_indices_batching_dims: operand and indices dimensions scattered in
            lockstep (default: none).

    Returns:
        An immutable named tuple of those five tuples of ints.

    Examples:
        >>> from padax import lax
        >>> dn = lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
        ...                                  scatter_dims_to_operand_dims=(0,))
        >>> dn.scatter_dims_to_operand_dims
        (0,)
    """
    update_window_dims: tuple[int, ...]
    inserted_window_dims: tuple[int, ...]
    scatter_dims_to_operand_dims: tuple[int, ...]
    operand_batching_dims: tuple[int, ...] = ()
    scatter_indices_batching_dims: tuple[int, ...] = ()


# ---- shared checks -------------------------------------------------------------------

def _check_dims(op: str, where: str, name: str, dims: Sequence[int], rank: int,
                sorted_: bool = True) -> None:
    if len(set(dims)) != len(dims):
        raise op_value_error(op, f"{name} {tuple(dims)} must not repeat ({where})")
    if sorted_ and list(dims) != sorted(dims):
        raise op_value_error(op, f"{name} {tuple(dims)} must be sorted ({where})")
    for d in dims:
        if not 0 <= d < rank:
            raise op_value_error(op, f"{name} {tuple(dims)}: dimension {d} is out of range "
                                     f"[0, {rank}) ({where})")


def _check_disjoint(op: str, where: str, n1: str, d1, n2: str, d2) -> None:
    if set(d1) & set(d2):
        raise op_value_error(op, f"{n1} {tuple(d1)} and {n2} {tuple(d2)} must be disjoint ({where})")


def _check_indices(op: str, where: str, indices: ShapedArray) -> None:
    if not dtypes.is_integer(indices.dtype):
        raise op_type_error(op, f"indices must have an integer dtype, got {indices.str_short()}")
    if indices.ndim < 1:
        raise op_value_error(op, "indices need at least one dimension: the last one holds the "
                                 f"index vector ({where})")


def _check_batching(op: str, where: str, operand: ShapedArray, indices: ShapedArray,
                    operand_bdims, indices_bdims, indices_bname: str) -> None:
    _check_dims(op, where, "operand_batching_dims", operand_bdims, operand.ndim)
    _check_dims(op, where, indices_bname, indices_bdims, indices.ndim, sorted_=False)
    if indices.ndim - 1 in indices_bdims:
        raise op_value_error(op, f"{indices_bname} {tuple(indices_bdims)} cannot contain the index "
                                 f"vector dimension {indices.ndim - 1} ({where})")
    if len(operand_bdims) != len(indices_bdims):
        raise op_value_error(op, f"operand_batching_dims {tuple(operand_bdims)} and {indices_bname} "
                                 f"{tuple(indices_bdims)} must have equal lengths ({where})")
    osz = tuple(operand.shape[d] for d in operand_bdims)
    isz = tuple(indices.shape[d] for d in indices_bdims)
    if osz != isz:
        raise op_type_error(op, f"operand batching dimensions have sizes {osz} but indices batching "
                                f"dimensions have sizes {isz} ({where})")


# ---- gather ---------------------------------------------------------------------------

gather_p = Primitive("gather")


@gather_p.def_abstract_eval
def _gather_abstract(operand, indices, *, dimension_numbers, slice_sizes, indices_are_sorted,
                     unique_indices, mode, fill_value):
    op = "gather"
    dn = dimension_numbers
    where = f"operand {operand.str_short()}, indices {indices.str_short()}"
    _check_indices(op, where, indices)
    out_rank = len(dn.offset_dims) + indices.ndim - 1
    _check_dims(op, where, "offset_dims", dn.offset_dims, out_rank)
    if len(dn.start_index_map) != indices.shape[-1]:
        raise op_type_error(op, f"start_index_map {tuple(dn.start_index_map)} has "
                                f"{len(dn.start_index_map)} entries but the index vector (last "
                                f"dimension of indices) has size {indices.shape[-1]} ({where})")
    _check_dims(op, where, "start_index_map", dn.start_index_map, operand.ndim, sorted_=False)
    _check_dims(op, where, "collapsed_slice_dims", dn.collapsed_slice_dims, operand.ndim)
    _check_batching(op, where, operand, indices, dn.operand_batching_dims,
                    dn.start_indices_batching_dims, "start_indices_batching_dims")
    _check_disjoint(op, where, "collapsed_slice_dims", dn.collapsed_slice_dims,
                    "operand_batching_dims", dn.operand_batching_dims)
    _check_disjoint(op, where, "start_index_map", dn.start_index_map,
                    "operand_batching_dims", dn.operand_batching_dims)
    if len(slice_sizes) != operand.ndim:
        raise op_value_error(op, f"slice_sizes {tuple(slice_sizes)} must have one entry per operand "
                                 f"dimension ({where})")
    n_window = operand.ndim - len(dn.collapsed_slice_dims) - len(dn.operand_batching_dims)
    if len(dn.offset_dims) != n_window:
        raise op_value_error(op, f"every operand dimension must be an offset dimension, collapsed "
                                 f"or batching: offset_dims {tuple(dn.offset_dims)}, "
                                 f"collapsed_slice_dims {tuple(dn.collapsed_slice_dims)}, "
                                 f"operand_batching_dims {tuple(dn.operand_batching_dims)} ({where})")
    for i, (s, d) in enumerate(zip(slice_sizes, operand.shape)):
        if not 0 <= s <= d:
            raise op_value_error(op, f"slice_sizes[{i}] = {s} is out of range [0, {d}] ({where})")
    for d in dn.collapsed_slice_dims:
        if slice_sizes[d] != 1:
            raise op_value_error(op, f"collapsed dimension {d} must have slice size 1, got "
                                     f"{slice_sizes[d]} ({where})")
    for d in dn.operand_batching_dims:
        if slice_sizes[d] > 1:
            raise op_value_error(op, f"batching dimension {d} must have slice size 0 or 1, got "
                                     f"{slice_sizes[d]} ({where})")
    window = iter(s for i, s in enumerate(slice_sizes)
                  if i not in dn.collapsed_slice_dims and i not in dn.operand_batching_dims)
    batch = iter(indices.shape[:-1])
    shape = tuple(next(window) if i in dn.offset_dims else next(batch) for i in range(out_rank))
    return ShapedArray(shape, operand.dtype, operand.weak_type)


def default_fill_value(dtype: np.dtype):
    """What an out-of-bounds gather window holds in 'fill' mode (jax's defaults)."""
    if dtypes.is_inexact(dtype):
        return _NAN
    if dtype == dtypes.bool_:
        return True
    info = np.iinfo(dtype)
    return int(info.max) if dtypes.is_unsigned(dtype) else int(info.min)


# One NaN object, so that equal params compare equal (NaN != NaN) and cache keys hit.
_NAN = float("nan")


def _canonical_fill(value):
    if isinstance(value, (np.generic, np.ndarray)):
        value = np.asarray(value).item()
    if isinstance(value, complex) and value.imag == 0:
        value = value.real
    if isinstance(value, float) and math.isnan(value):
        return _NAN
    return value


def _tuple(xs) -> tuple[int, ...]:
    return tuple(int(x) for x in xs)


def _gather_dnums(dn) -> GatherDimensionNumbers:
    if not isinstance(dn, tuple):
        raise op_type_error("gather", f"dimension_numbers must be a GatherDimensionNumbers, got {dn!r}")
    return GatherDimensionNumbers(*(_tuple(x) for x in dn))


def _scatter_dnums(dn) -> ScatterDimensionNumbers:
    if not isinstance(dn, tuple):
        raise TypeError(f"scatter: dimension_numbers must be a ScatterDimensionNumbers, got {dn!r}")
    return ScatterDimensionNumbers(*(_tuple(x) for x in dn))


def gather(operand, start_indices, dimension_numbers: GatherDimensionNumbers, slice_sizes,
           *, indices_are_sorted: bool = False, unique_indices: bool = False, mode=None,
           fill_value=None):
    """Gather slices of `operand` at `start_indices` (XLA Gather).

    Args:
        operand: the array to read.
        start_indices: integer start indices (index vectors along the last axis).
        dimension_numbers: a GatherDimensionNumbers.
        slice_sizes: the size of the slice taken at each start, per operand dimension.
        indices_are_sorted, unique_indices: promises that let XLA go faster.
        mode: 'promise_in_bounds' (the default), 'clip' (clamp starts into bounds) or 'fill'
            (out-of-bounds slices are `fill_value`: NaN for inexact dtypes, else the dtype's max).
        fill_value: the value of out-of-bounds slices in 'fill' mode.

    Returns:
        An array of operand's dtype.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> x = padax.to_tensor([[1, 2], [3, 4], [5, 6]])
        >>> dn = lax.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))
        >>> lax.gather(x, padax.to_tensor([[2], [0]]), dn, (1, 2)).tolist()       # rows 2 and 0
        [[5, 6], [1, 2]]
        >>> lax.gather(x, padax.to_tensor([[5], [0]]), dn, (1, 2), mode='fill', fill_value=-1).tolist()
        [[-1, -1], [1, 2]]
    """
    operand, start_indices = asarray(operand), asarray(start_indices)
    mode = GatherScatterMode.from_any(mode, GatherScatterMode.PROMISE_IN_BOUNDS)
    if mode is GatherScatterMode.FILL_OR_DROP:
        dt = operand.aval.dtype
        fill_value = _canonical_fill(default_fill_value(dt) if fill_value is None
                                     else np.asarray(fill_value).astype(dt))
    else:
        fill_value = None
    return gather_p.bind(operand, start_indices, dimension_numbers=_gather_dnums(dimension_numbers),
                         slice_sizes=_tuple(slice_sizes), indices_are_sorted=bool(indices_are_sorted),
                         unique_indices=bool(unique_indices), mode=mode, fill_value=fill_value)


# ---- scatter --------------------------------------------------------------------------

def _scatter_abstract_rule(name: str):
    def _abstract(operand, indices, updates, *, dimension_numbers, indices_are_sorted,
                  unique_indices, mode):
        dn = dimension_numbers
        where = (f"operand {operand.str_short()}, indices {indices.str_short()}, "
                 f"updates {updates.str_short()}")
        _check_indices(name, where, indices)
        if operand.dtype != updates.dtype:
            raise op_type_error(name, f"operand and updates must have the same dtype ({where})")
        _check_dims(name, where, "update_window_dims", dn.update_window_dims, updates.ndim)
        _check_dims(name, where, "inserted_window_dims", dn.inserted_window_dims, operand.ndim)
        _check_batching(name, where, operand, indices, dn.operand_batching_dims,
                        dn.scatter_indices_batching_dims, "scatter_indices_batching_dims")
        _check_disjoint(name, where, "inserted_window_dims", dn.inserted_window_dims,
                        "operand_batching_dims", dn.operand_batching_dims)
        n = len(dn.update_window_dims) + len(dn.inserted_window_dims) + len(dn.operand_batching_dims)
        if n != operand.ndim:
            raise op_value_error(name, f"update_window_dims {tuple(dn.update_window_dims)}, "
                                       f"inserted_window_dims {tuple(dn.inserted_window_dims)} and "
                                       f"operand_batching_dims {tuple(dn.operand_batching_dims)} must "
                                       f"account for the operand's {operand.ndim} dimensions ({where})")
        sd = dn.scatter_dims_to_operand_dims
        if len(sd) != indices.shape[-1]:
            raise op_type_error(name, f"scatter_dims_to_operand_dims {tuple(sd)} has {len(sd)} entries "
                                      f"but the index vector (last dimension of indices) has size "
                                      f"{indices.shape[-1]} ({where})")
        _check_dims(name, where, "scatter_dims_to_operand_dims", sd, operand.ndim, sorted_=False)
        _check_disjoint(name, where, "scatter_dims_to_operand_dims", sd,
                        "operand_batching_dims", dn.operand_batching_dims)
        if updates.ndim != len(dn.update_window_dims) + indices.ndim - 1:
            raise op_type_error(name, f"updates must have rank len(update_window_dims) + rank(indices) "
                                      f"- 1 = {len(dn.update_window_dims) + indices.ndim - 1} ({where})")
        scatter_sizes = tuple(d for i, d in enumerate(updates.shape) if i not in dn.update_window_dims)
        if scatter_sizes != indices.shape[:-1]:
            raise op_type_error(name, f"the scatter dimensions of updates have sizes {scatter_sizes} but "
                                      f"the indices' batch dimensions have sizes {indices.shape[:-1]} "
                                      f"({where})")
        window_operand_dims = [d for d in range(operand.ndim)
                               if d not in dn.inserted_window_dims and d not in dn.operand_batching_dims]
        for ud, od in zip(dn.update_window_dims, window_operand_dims):
            if updates.shape[ud] > operand.shape[od]:
                raise op_type_error(name, f"update window dimension {ud} has size {updates.shape[ud]}, "
                                          f"larger than operand dimension {od} of size "
                                          f"{operand.shape[od]} ({where})")
        return ShapedArray(operand.shape, operand.dtype, operand.weak_type)
    return _abstract


scatter_primitives: dict[str, Primitive] = {}


def _scatter_prim(name: str) -> Primitive:
    prim = Primitive(name)
    prim.def_abstract_eval(_scatter_abstract_rule(name))
    scatter_primitives[name] = prim
    return prim


scatter_p = _scatter_prim("scatter")          # replace
scatter_add_p = _scatter_prim("scatter_add")
scatter_mul_p = _scatter_prim("scatter_mul")
scatter_min_p = _scatter_prim("scatter_min")
scatter_max_p = _scatter_prim("scatter_max")


def _scatter_fn(prim: Primitive, what: str):
    def fn(operand, scatter_indices, updates, dimension_numbers: ScatterDimensionNumbers, *,
           indices_are_sorted: bool = False, unique_indices: bool = False, mode=None):
        mode = GatherScatterMode.from_any(mode, GatherScatterMode.FILL_OR_DROP)
        return prim.bind(asarray(operand), asarray(scatter_indices), asarray(updates),
                         dimension_numbers=_scatter_dnums(dimension_numbers),
                         indices_are_sorted=bool(indices_are_sorted),
                         unique_indices=bool(unique_indices), mode=mode)
    indices, updates, result = _SCATTER_EXAMPLES[prim.name]
    fn.__name__ = fn.__qualname__ = prim.name
    fn.__doc__ = example_doc(
        f"Scatter `updates` into `operand` at `scatter_indices`, {what} (XLA Scatter).",
        [("dn = lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),\n"
          "                                 scatter_dims_to_operand_dims=(0,))", ""),
         (f"x, idx = padax.to_tensor([1.0, 2.0, 3.0, 4.0]), padax.to_tensor({indices})", ""),
         (f"lax.{prim.name}(x, idx, padax.to_tensor({updates}), dn).tolist()", result)],
        imports=LAX_IMPORTS, returns="A new array of operand's shape and dtype.",
        args=("operand: the array to update.\n"
              "        scatter_indices: integer start indices (index vectors along the last axis).\n"
              "        updates: the values, laid out as `dimension_numbers` says.\n"
              "        dimension_numbers: a ScatterDimensionNumbers.\n"
              "        indices_are_sorted, unique_indices: promises that let XLA go faster.\n"
              "        mode: 'drop' (the default: out-of-bounds updates are skipped), 'clip' or\n"
              "            'promise_in_bounds' (a GatherScatterMode or its name)."))
    return fn


# name -> its example's indices, updates and result (on the operand [1.0, 2.0, 3.0, 4.0])
_SCATTER_EXAMPLES = {
    "scatter": ("[[0], [2], [9]]", "[10.0, 20.0, 30.0]", "[10.0, 2.0, 20.0, 4.0]"),
    "scatter_add": ("[[1], [3], [1]]", "[10.0, 20.0, 30.0]", "[1.0, 42.0, 3.0, 24.0]"),
    "scatter_mul": ("[[1], [3], [1]]", "[10.0, 20.0, 30.0]", "[1.0, 600.0, 3.0, 80.0]"),
    "scatter_min": ("[[1], [3], [1]]", "[0.0, 5.0, -1.0]", "[1.0, -1.0, 3.0, 4.0]"),
    "scatter_max": ("[[1], [3], [1]]", "[10.0, 20.0, 30.0]", "[1.0, 30.0, 3.0, 20.0]"),
}


scatter = _scatter_fn(scatter_p, "replacing the values there (index 9 is out of bounds: dropped)")
scatter_add = _scatter_fn(scatter_add_p, "adding (repeated indices accumulate)")
scatter_mul = _scatter_fn(scatter_mul_p, "multiplying")
scatter_min = _scatter_fn(scatter_min_p, "keeping the minimum")
scatter_max = _scatter_fn(scatter_max_p, "keeping the maximum")

__all__ = ["GatherScatterMode", "GatherDimensionNumbers", "ScatterDimensionNumbers", "gather",
           "scatter", "scatter_add", "scatter_mul", "scatter_min", "scatter_max"]


# ---- differentiation and batching ----------------------------------------------------------
# Index operands never carry tangents. gather is linear in its operand and scatter_add in
# operand and updates; their transposes are each other (with the dimension numbers mapped
# across). The other scatters get jvp rules built from these linear pieces; see each rule.


def _gather_dnums_of_scatter(dn: ScatterDimensionNumbers) -> GatherDimensionNumbers:
    """The gather reading back, per update element, the operand element a scatter writes."""
    return GatherDimensionNumbers(
        offset_dims=dn.update_window_dims, collapsed_slice_dims=dn.inserted_window_dims,
        start_index_map=dn.scatter_dims_to_operand_dims, operand_batching_dims=dn.operand_batching_dims,
        start_indices_batching_dims=dn.scatter_indices_batching_dims)


def _scatter_dnums_of_gather(dn: GatherDimensionNumbers) -> ScatterDimensionNumbers:
    """The scatter writing each gathered element back where a gather read it."""
    return ScatterDimensionNumbers(
        update_window_dims=dn.offset_dims, inserted_window_dims=dn.collapsed_slice_dims,
        scatter_dims_to_operand_dims=dn.start_index_map, operand_batching_dims=dn.operand_batching_dims,
        scatter_indices_batching_dims=dn.start_indices_batching_dims)


def _update_slice_sizes(operand_shape, updates_shape, dn: ScatterDimensionNumbers) -> tuple[int, ...]:
    """Per operand dim, the extent of one update window (1 on inserted and batching dims)."""
    sizes, it = [], iter(dn.update_window_dims)
    for d in range(len(operand_shape)):
        if d in dn.inserted_window_dims or d in dn.operand_batching_dims:
            sizes.append(1)
        else:
            sizes.append(int(updates_shape[next(it)]))
    return tuple(sizes)


def _gather_back(x, indices, updates_shape, dn: ScatterDimensionNumbers, mode, indices_are_sorted,
                 unique_indices, fill_value=0):
    """Read `x` (operand-shaped) at every element position a scatter writes: updates-shaped.

    Windows the scatter would drop (mode 'drop') read `fill_value`, so they contribute nothing.
    """
    # XLA's scatter skips out-of-bounds windows even when in bounds was promised: read them as fill
    gmode = GatherScatterMode.FILL_OR_DROP if mode is GatherScatterMode.PROMISE_IN_BOUNDS else mode
    fill = _canonical_fill(fill_value) if gmode is GatherScatterMode.FILL_OR_DROP else None
    return gather_p.bind(x, indices, dimension_numbers=_gather_dnums_of_scatter(dn),
                         slice_sizes=_update_slice_sizes(get_aval(x).shape, updates_shape, dn),
                         indices_are_sorted=indices_are_sorted, unique_indices=unique_indices,
                         mode=gmode, fill_value=fill)


def _zeros(aval: ShapedArray):
    return zeros_like_aval(aval.strip_weak_type())


def _tangent_or_zeros(t, primal):
    return zeros_like_aval(tangent_aval(get_aval(primal))) if type(t) is Zero else t


def _gather_jvp(primals, tangents, *, dimension_numbers, slice_sizes, indices_are_sorted,
                unique_indices, mode, fill_value):
    operand, indices = primals
    params = dict(dimension_numbers=dimension_numbers, slice_sizes=slice_sizes,
                  indices_are_sorted=indices_are_sorted, unique_indices=unique_indices, mode=mode)
    out = gather_p.bind(operand, indices, fill_value=fill_value, **params)
    t = tangents[0]
    if type(t) is Zero:
        return out, Zero(tangent_aval(get_aval(out)))
    # a filled (out-of-bounds) window is a constant: its tangent is zero, not the fill value
    t_fill = 0 if mode is GatherScatterMode.FILL_OR_DROP else None
    return out, gather_p.bind(t, indices, fill_value=t_fill, **params)


def _gather_transpose(ct, operand, indices, *, dimension_numbers, slice_sizes, indices_are_sorted,
                      unique_indices, mode, fill_value):
    if is_undefined(indices):
        raise TypeError("gather: cannot transpose with respect to the indices")
    if type(ct) is Zero or not is_undefined(operand):
        return [None, None]
    aval = operand.aval
    if get_aval(ct).dtype != aval.dtype:
        ct = convert_element_type(ct, aval.dtype)
    # 'fill' windows read nothing from the operand, and the matching scatter mode drops them;
    # XLA's gather clamps windows when in bounds was only promised, so clamp them here too
    smode = GatherScatterMode.CLIP if mode is GatherScatterMode.PROMISE_IN_BOUNDS else mode
    ct_op = scatter_add_p.bind(_zeros(aval), indices, ct,
                               dimension_numbers=_scatter_dnums_of_gather(dimension_numbers),
                               indices_are_sorted=indices_are_sorted, unique_indices=unique_indices,
                               mode=smode)
    return [ct_op, None]


def _scatter_params(dimension_numbers, indices_are_sorted, unique_indices, mode):
    return dict(dimension_numbers=dimension_numbers, indices_are_sorted=indices_are_sorted,
                unique_indices=unique_indices, mode=mode)


def _scatter_add_jvp(primals, tangents, **params):
    operand, indices, updates = primals
    t_op, _, t_up = tangents
    out = scatter_add_p.bind(operand, indices, updates, **params)
    if type(t_op) is Zero and type(t_up) is Zero:
        return out, Zero(tangent_aval(get_aval(out)))
    return out, scatter_add_p.bind(_tangent_or_zeros(t_op, operand), indices,
                                   _tangent_or_zeros(t_up, updates), **params)


def _scatter_add_transpose(ct, operand, indices, updates, *, dimension_numbers, indices_are_sorted,
                           unique_indices, mode):
    if is_undefined(indices):
        raise TypeError("scatter_add: cannot transpose with respect to the indices")
    if type(ct) is Zero:
        return [None, None, None]
    ct_op = ct if is_undefined(operand) else None
    ct_up = None
    if is_undefined(updates):
        ct_up = _gather_back(ct, indices, updates.aval.shape, dimension_numbers, mode,
                             indices_are_sorted, unique_indices)
    return [ct_op, None, ct_up]


def _scatter_jvp(primals, tangents, *, dimension_numbers, indices_are_sorted, unique_indices, mode):
    """Overwriting scatter. With `unique_indices` it is linear in (operand, updates) jointly.

    Otherwise which of several updates to one element wins is up to XLA, so the winners are made
    explicit: scatter 1-based update ids, gather them back, and keep only each update element
    whose own id came back. Primal and tangent are then rebuilt from the same winners (a scatter
    of zeros to clear the written elements, plus a scatter_add of the winning updates), so they
    stay consistent even on backends where the winner varies between runs.
    """
    operand, indices, updates = primals
    t_op, _, t_up = tangents
    params = _scatter_params(dimension_numbers, indices_are_sorted, unique_indices, mode)
    if unique_indices:
        out = scatter_p.bind(operand, indices, updates, **params)
        if type(t_op) is Zero and type(t_up) is Zero:
            return out, Zero(tangent_aval(get_aval(out)))
        return out, scatter_p.bind(_tangent_or_zeros(t_op, operand), indices,
                                   _tangent_or_zeros(t_up, updates), **params)
    dn = dimension_numbers
    op_aval, up_aval = get_aval(operand), get_aval(updates)
    ids_shape = tuple(1 if i in dn.update_window_dims else s for i, s in enumerate(up_aval.shape))
    n_ids = math.prod(ids_shape)
    id_dtype = dtypes.uint32 if n_ids < np.iinfo(np.uint32).max else dtypes.uint64
    ids = add(reshape(iota(id_dtype, n_ids), ids_shape), 1)
    ids = broadcast_in_dim(ids, up_aval.shape, tuple(range(up_aval.ndim)))
    scattered = scatter_p.bind(full(op_aval.shape, 0, id_dtype), indices, ids, **params)
    winner = eq(ids, _gather_back(scattered, indices, up_aval.shape, dn, mode, indices_are_sorted,
                                  False, fill_value=0))
    zeros_up = _zeros(up_aval)

    def rebuild(x, u):
        cleared = scatter_p.bind(x, indices, zeros_up, **params)
        if u is None:
            return cleared
        return scatter_add_p.bind(cleared, indices, select(winner, u, zeros_up), **params)

    out = rebuild(operand, updates)
    if type(t_op) is Zero and type(t_up) is Zero:
        return out, Zero(tangent_aval(get_aval(out)))
    t_out = rebuild(_tangent_or_zeros(t_op, operand), None if type(t_up) is Zero else t_up)
    return out, t_out


def _scatter_transpose(ct, operand, indices, updates, *, dimension_numbers, indices_are_sorted,
                       unique_indices, mode):
    """The operand's cotangent is ct with the overwritten elements cleared; the updates' one is ct
    read back at the written elements (only defined for unique indices: otherwise the losers'
    cotangents depend on which update XLA let win, which the jvp rule handles instead)."""
    if is_undefined(indices):
        raise TypeError("scatter: cannot transpose with respect to the indices")
    if type(ct) is Zero:
        return [None, None, None]
    params = _scatter_params(dimension_numbers, indices_are_sorted, unique_indices, mode)
    up_aval = updates.aval if is_undefined(updates) else get_aval(updates)
    ct_op = ct_up = None
    if is_undefined(operand):
        ct_op = scatter_p.bind(ct, indices, _zeros(up_aval), **params)
    if is_undefined(updates):
        if not unique_indices:
            raise TypeError("scatter: transposing with respect to the updates needs "
                                      "unique_indices=True (differentiate with grad/vjp instead, "
                                      "which handles repeated indices)")
        ct_up = _gather_back(ct, indices, up_aval.shape, dimension_numbers, mode,
                             indices_are_sorted, unique_indices)
    return [ct_op, None, ct_up]


def _scatter_mul_jvp(primals, tangents, *, dimension_numbers, indices_are_sorted, unique_indices, mode):
    """Product rule: d out[p] = d x[p] * P[p] + x[p] * sum_k d y_k * prod_{j != k} y_j over the
    updates k hitting p. The products of the other updates are formed without dividing by zero:
    from the product of the nonzero updates hitting p and how many zero updates hit p."""
    operand, indices, updates = primals
    t_op, _, t_up = tangents
    params = _scatter_params(dimension_numbers, indices_are_sorted, unique_indices, mode)
    out = scatter_mul_p.bind(operand, indices, updates, **params)
    if type(t_op) is Zero and type(t_up) is Zero:
        return out, Zero(tangent_aval(get_aval(out)))
    t_out = Zero(tangent_aval(get_aval(out)))
    if type(t_op) is not Zero:
        t_out = scatter_mul_p.bind(t_op, indices, updates, **params)
    if type(t_up) is not Zero:
        op_aval, up_aval = get_aval(operand), get_aval(updates)
        dt = op_aval.dtype
        if unique_indices:
            weighted = t_up
        else:
            dn = dimension_numbers
            zeros_up = _zeros(up_aval)
            ones_up = full(up_aval.shape, 1, dt)
            is_zero = eq(updates, zeros_up)
            nonzero = select(is_zero, ones_up, updates)
            prod_nz = scatter_mul_p.bind(full(op_aval.shape, 1, dt), indices, nonzero, **params)
            n_zero = scatter_add_p.bind(_zeros(op_aval), indices, convert_element_type(is_zero, dt),
                                        **params)
            back = lambda x: _gather_back(x, indices, up_aval.shape, dn, mode, indices_are_sorted, False)
            prod_g, nz_g = back(prod_nz), back(n_zero)
            others = select(is_zero, select(eq(nz_g, ones_up), prod_g, zeros_up),
                            select(eq(nz_g, zeros_up), div(prod_g, nonzero), zeros_up))
            weighted = mul(t_up, others)
        term = mul(operand, scatter_add_p.bind(_zeros(op_aval), indices, weighted, **params))
        t_out = add_tangents(t_out, term)
    return out, t_out


def _scatter_mul_transpose(ct, operand, indices, updates, *, dimension_numbers, indices_are_sorted,
                           unique_indices, mode):
    """Linear only in the operand (updates fixed): multiplying by the scattered products is its
    own transpose."""
    if is_undefined(updates) or is_undefined(indices):
        raise TypeError("scatter_mul: transposition is defined only with respect to the "
                                  "operand (it is not linear in the updates)")
    if type(ct) is Zero or not is_undefined(operand):
        return [None, None, None]
    params = _scatter_params(dimension_numbers, indices_are_sorted, unique_indices, mode)
    return [scatter_mul_p.bind(ct, indices, updates, **params), None, None]


def _scatter_extremal_jvp(prim):
    def rule(primals, tangents, *, dimension_numbers, indices_are_sorted, unique_indices, mode):
        """Tangent of the winning value; ties between the operand and updates (or among updates)
        share it equally, i.e. the tangent is the mean of the tied inputs' tangents (as in jax)."""
        operand, indices, updates = primals
        t_op, _, t_up = tangents
        params = _scatter_params(dimension_numbers, indices_are_sorted, unique_indices, mode)
        out = prim.bind(operand, indices, updates, **params)
        if type(t_op) is Zero and type(t_up) is Zero:
            return out, Zero(tangent_aval(get_aval(out)))
        dn = dimension_numbers
        op_aval, up_aval = get_aval(operand), get_aval(updates)
        dt = op_aval.dtype
        back = lambda x, fill: _gather_back(x, indices, up_aval.shape, dn, mode, indices_are_sorted,
                                            unique_indices, fill_value=fill)
        # dropped windows read NaN, which equals nothing: they are never winners
        won = eq(updates, back(out, default_fill_value(dt)))
        kept = convert_element_type(eq(operand, out), dt)
        count = scatter_add_p.bind(kept, indices, convert_element_type(won, dt), **params)
        count = _max(count, full(op_aval.shape, 1, dt))
        op_coef = div(kept, count)
        up_coef = select(won, div(full(up_aval.shape, 1, dt), back(count, 1)), _zeros(up_aval))
        t_out = Zero(tangent_aval(get_aval(out)))
        if type(t_op) is not Zero:
            t_out = mul(t_op, op_coef)
        if type(t_up) is not Zero:
            term = scatter_add_p.bind(_zeros(op_aval), indices, mul(t_up, up_coef), **params)
            t_out = add_tangents(t_out, term)
        return out, t_out
    return rule


# -- batching: the vmapped axis becomes a window dimension when only the operand (and maybe the
# updates) are batched, and an operand/indices batching dimension (XLA's batching dims) when the
# indices are batched together with the operand.

def _shift(dims, by: int = 1) -> tuple[int, ...]:
    return tuple(int(d) + by for d in dims)


def _gather_batch(args, dims, *, dimension_numbers, slice_sizes, indices_are_sorted, unique_indices,
                  mode, fill_value):
    operand, indices = args
    od, idd = dims
    dn = dimension_numbers
    if idd is None:  # a full-size window along the batch axis
        operand = moveaxis(operand, od, 0)
        size = get_aval(operand).shape[0]
        new = GatherDimensionNumbers(
            offset_dims=(0,) + _shift(dn.offset_dims), collapsed_slice_dims=_shift(dn.collapsed_slice_dims),
            start_index_map=_shift(dn.start_index_map), operand_batching_dims=_shift(dn.operand_batching_dims),
            start_indices_batching_dims=dn.start_indices_batching_dims)
        out = gather_p.bind(operand, indices, dimension_numbers=new, slice_sizes=(size,) + tuple(slice_sizes),
                            indices_are_sorted=indices_are_sorted, unique_indices=unique_indices,
                            mode=mode, fill_value=fill_value)
        return out, 0
    indices = moveaxis(indices, idd, 0)
    if od is None:  # one more batch dimension of the indices (and of the output)
        new = dn._replace(offset_dims=_shift(dn.offset_dims),
                          start_indices_batching_dims=_shift(dn.start_indices_batching_dims))
        out = gather_p.bind(operand, indices, dimension_numbers=new, slice_sizes=tuple(slice_sizes),
                            indices_are_sorted=False, unique_indices=False, mode=mode,
                            fill_value=fill_value)
        return out, 0
    operand = moveaxis(operand, od, 0)
    new = GatherDimensionNumbers(
        offset_dims=_shift(dn.offset_dims), collapsed_slice_dims=_shift(dn.collapsed_slice_dims),
        start_index_map=_shift(dn.start_index_map),
        operand_batching_dims=(0,) + _shift(dn.operand_batching_dims),
        start_indices_batching_dims=(0,) + _shift(dn.start_indices_batching_dims))
    out = gather_p.bind(operand, indices, dimension_numbers=new, slice_sizes=(1,) + tuple(slice_sizes),
                        indices_are_sorted=False, unique_indices=unique_indices, mode=mode,
                        fill_value=fill_value)
    return out, 0


def _scatter_batch(prim):
    def rule(args, dims, *, dimension_numbers, indices_are_sorted, unique_indices, mode):
        operand, indices, updates = args
        od, idd, ud = dims
        dn = dimension_numbers
        size = batch_size(args, dims)
        operand = bdim_to_front(operand, od, size)
        updates = bdim_to_front(updates, ud, size)
        if idd is None:  # the batch axis is one more window dimension of operand and updates
            new = ScatterDimensionNumbers(
                update_window_dims=(0,) + _shift(dn.update_window_dims),
                inserted_window_dims=_shift(dn.inserted_window_dims),
                scatter_dims_to_operand_dims=_shift(dn.scatter_dims_to_operand_dims),
                operand_batching_dims=_shift(dn.operand_batching_dims),
                scatter_indices_batching_dims=dn.scatter_indices_batching_dims)
        else:  # the batch axis pairs operand and indices elements (XLA batching dims)
            indices = moveaxis(indices, idd, 0)
            new = ScatterDimensionNumbers(
                update_window_dims=_shift(dn.update_window_dims),
                inserted_window_dims=_shift(dn.inserted_window_dims),
                scatter_dims_to_operand_dims=_shift(dn.scatter_dims_to_operand_dims),
                operand_batching_dims=(0,) + _shift(dn.operand_batching_dims),
                scatter_indices_batching_dims=(0,) + _shift(dn.scatter_indices_batching_dims))
        out = prim.bind(operand, indices, updates, dimension_numbers=new,
                        indices_are_sorted=indices_are_sorted and idd is None,
                        unique_indices=unique_indices, mode=mode)
        return out, 0
    return rule


gather_p.jvp_rule = _gather_jvp
gather_p.transpose_rule = _gather_transpose
gather_p.batch_rule = _gather_batch
scatter_add_p.jvp_rule = _scatter_add_jvp
scatter_add_p.transpose_rule = _scatter_add_transpose
scatter_p.jvp_rule = _scatter_jvp
scatter_p.transpose_rule = _scatter_transpose
scatter_mul_p.jvp_rule = _scatter_mul_jvp
scatter_mul_p.transpose_rule = _scatter_mul_transpose
scatter_min_p.jvp_rule = _scatter_extremal_jvp(scatter_min_p)
scatter_max_p.jvp_rule = _scatter_extremal_jvp(scatter_max_p)
for _prim in scatter_primitives.values():
    _prim.batch_rule = _scatter_batch(_prim)
