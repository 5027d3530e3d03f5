"""Sorting primitives: multi-operand (lexicographic, stable) sort and top_k.

Float keys sort in numpy's order: NaNs last (all NaNs equal), -0.0 equal to
0.0; complex keys sort by real then imaginary part.
"""
from __future__ import annotations

from padax.core import dtypes
from padax.core.abstract import ShapedArray
from padax.core.errors import op_type_error, op_value_error, shapes_str
from padax.core.primitive import Primitive
from padax.functional._arrays import asarray

# sort(*operands, dimension, is_stable, num_keys): every operand permuted by the order
# of the first `num_keys` operands (compared lexicographically) along `dimension`.
sort_p = Primitive("sort", multiple_results=True)


@sort_p.def_abstract_eval
def _sort_abstract(*operands: ShapedArray, dimension: int, is_stable: bool, num_keys: int):
    if not operands:
        raise op_value_error("sort", "needs at least one operand")
    shape = operands[0].shape
    if any(o.shape != shape for o in operands[1:]):
        raise op_value_error("sort", f"operands must have equal shapes, got {shapes_str(*operands)}")
    if not 0 <= dimension < len(shape):
        raise op_value_error("sort", f"dimension {dimension} is out of range for {shapes_str(*operands)}")
    if not 1 <= num_keys <= len(operands):
        raise op_value_error("sort", f"num_keys={num_keys} must be between 1 and the number of operands "
                                     f"({len(operands)}): {shapes_str(*operands)}")
    return list(operands)


# top_k(x, k): the k largest entries along the last axis (descending; ties -> lower
# index first; NaNs count as the largest) and their int32 indices.
top_k_p = Primitive("top_k", multiple_results=True)


@top_k_p.def_abstract_eval
def _top_k_abstract(x: ShapedArray, *, k: int):
    if x.ndim == 0:
        raise op_value_error("top_k", f"needs an operand of rank >= 1, got {x.str_short()}")
    if not 0 <= k <= x.shape[-1]:
        raise op_value_error("top_k", f"k={k} must be between 0 and the last axis size of {x.str_short()}")
    if dtypes.is_complex(x.dtype):
        raise op_type_error("top_k", f"complex operands have no order, got {x.str_short()}")
    shape = x.shape[:-1] + (k,)
    return [ShapedArray(shape, x.dtype, x.weak_type), ShapedArray(shape, dtypes.int32)]


# ---- lax-level wrappers -------------------------------------------------------------

def _axis(op: str, dimension, aval: ShapedArray) -> int:
    d = int(dimension)
    if not -aval.ndim <= d < aval.ndim:
        raise op_value_error(op, f"dimension {dimension} is out of range for {aval.str_short()}")
    return d % aval.ndim


def sort(operand, dimension: int = -1, is_stable: bool = True, num_keys: int = 1):
    """Sort one array, or a tuple of equal-shaped arrays by their first `num_keys` (a tuple back)."""
    single = not isinstance(operand, (tuple, list))
    ops = [asarray(operand)] if single else [asarray(o) for o in operand]
    if not ops:
        raise op_value_error("sort", "needs at least one operand")
    out = sort_p.bind(*ops, dimension=_axis("sort", dimension, ops[0].aval),
                      is_stable=bool(is_stable), num_keys=int(num_keys))
    return out[0] if single else tuple(out)


def sort_key_val(keys, values, dimension: int = -1, is_stable: bool = True):
    """Sort `keys` along `dimension` and permute `values` the same way; returns (keys, values)."""
    k, v = sort((keys, values), dimension, is_stable, 1)
    return k, v


def top_k(operand, k: int):
    """(values, int32 indices) of the k largest entries along the last axis, largest first."""
    out = top_k_p.bind(asarray(operand), k=int(k))
    return out[0], out[1]


__all__ = ["sort", "sort_key_val", "top_k"]
