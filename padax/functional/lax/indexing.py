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
from padax.core.abstract import ShapedArray
from padax.core.errors import op_type_error, op_value_error
from padax.core.primitive import Primitive
from padax.functional._arrays import asarray


class GatherScatterMode(enum.Enum):
    """How gather/scatter treat out-of-bounds indices."""
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
    """How operand, indices and output dimensions of a gather relate (XLA's Gather)."""
    offset_dims: tuple[int, ...]
    collapsed_slice_dims: tuple[int, ...]
    start_index_map: tuple[int, ...]
    operand_batching_dims: tuple[int, ...] = ()
    start_indices_batching_dims: tuple[int, ...] = ()


class ScatterDimensionNumbers(NamedTuple):
    """How operand, indices and updates dimensions of a scatter relate (XLA's Scatter)."""
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
        raise TypeError(f"gather: dimension_numbers must be a GatherDimensionNumbers, got {dn!r}")
    return GatherDimensionNumbers(*(_tuple(x) for x in dn))


def _scatter_dnums(dn) -> ScatterDimensionNumbers:
    if not isinstance(dn, tuple):
        raise TypeError(f"scatter: dimension_numbers must be a ScatterDimensionNumbers, got {dn!r}")
    return ScatterDimensionNumbers(*(_tuple(x) for x in dn))


def gather(operand, start_indices, dimension_numbers: GatherDimensionNumbers, slice_sizes,
           *, indices_are_sorted: bool = False, unique_indices: bool = False, mode=None,
           fill_value=None):
    """Gather slices of `operand` at `start_indices` (XLA Gather; default mode 'promise_in_bounds')."""
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
    fn.__name__ = prim.name
    fn.__doc__ = (f"Scatter `updates` into `operand` at `scatter_indices`, {what} "
                  "(XLA Scatter; default mode 'drop': out-of-bounds windows are skipped).")
    return fn


scatter = _scatter_fn(scatter_p, "replacing the values there")
scatter_add = _scatter_fn(scatter_add_p, "adding (repeated indices accumulate)")
scatter_mul = _scatter_fn(scatter_mul_p, "multiplying")
scatter_min = _scatter_fn(scatter_min_p, "keeping the minimum")
scatter_max = _scatter_fn(scatter_max_p, "keeping the maximum")

__all__ = ["GatherScatterMode", "GatherDimensionNumbers", "ScatterDimensionNumbers", "gather",
           "scatter", "scatter_add", "scatter_mul", "scatter_min", "scatter_max"]
