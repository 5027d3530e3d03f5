"""Shape and dtype primitives: convert, broadcast, reshape, transpose, select, iota."""
from __future__ import annotations

import math

import numpy as np

from padax.core import dtypes
from padax.core.abstract import ShapedArray
from padax.core.errors import op_type_error, op_value_error
from padax.core.primitive import Primitive
from padax.functional._arrays import aval_of, asarray

# convert_element_type(x, new_dtype, weak_type)
convert_element_type_p = Primitive("convert_element_type")


@convert_element_type_p.def_abstract_eval
def _convert_abstract(x, *, new_dtype, weak_type):
    return ShapedArray(x.shape, new_dtype, weak_type)


# broadcast_in_dim(x, shape, broadcast_dimensions): operand dim i -> output dim bdims[i]
broadcast_in_dim_p = Primitive("broadcast_in_dim")


@broadcast_in_dim_p.def_abstract_eval
def _bid_abstract(x, *, shape, broadcast_dimensions):
    if len(broadcast_dimensions) != x.ndim:
        raise op_value_error("broadcast_in_dim", f"broadcast_dimensions {broadcast_dimensions} must "
                                                 f"have one entry per operand dim of {x.str_short()}")
    for i, d in enumerate(broadcast_dimensions):
        if not (0 <= d < len(shape)) or x.shape[i] not in (1, shape[d]):
            raise op_value_error("broadcast_in_dim", f"cannot broadcast {x.str_short()} to shape "
                                                     f"{tuple(shape)} with broadcast_dimensions {broadcast_dimensions}")
    if list(broadcast_dimensions) != sorted(broadcast_dimensions):
        raise op_value_error("broadcast_in_dim", f"broadcast_dimensions {broadcast_dimensions} must be increasing")
    return ShapedArray(tuple(shape), x.dtype, x.weak_type)


# reshape(x, new_sizes)
reshape_p = Primitive("reshape")


@reshape_p.def_abstract_eval
def _reshape_abstract(x, *, new_sizes):
    if math.prod(new_sizes) != x.size or any(d < 0 for d in new_sizes):
        raise op_value_error("reshape", f"cannot reshape {x.str_short()} ({x.size} elements) to shape "
                                        f"{tuple(new_sizes)}")
    return ShapedArray(tuple(new_sizes), x.dtype, x.weak_type)


# transpose(x, permutation)
transpose_p = Primitive("transpose")


@transpose_p.def_abstract_eval
def _transpose_abstract(x, *, permutation):
    if sorted(permutation) != list(range(x.ndim)):
        raise op_value_error("transpose", f"permutation {tuple(permutation)} is not a permutation of "
                                          f"the {x.ndim} axes of {x.str_short()}")
    return ShapedArray(tuple(x.shape[p] for p in permutation), x.dtype, x.weak_type)


# select_n(which, *cases): which is bool (2 cases) or int32; picks cases[which] elementwise
select_n_p = Primitive("select_n")


@select_n_p.def_abstract_eval
def _select_n_abstract(which, *cases):
    if not cases:
        raise op_value_error("select_n", "needs at least one case")
    c0 = cases[0]
    for c in cases[1:]:
        if c.shape != c0.shape or c.dtype != c0.dtype:
            raise op_type_error("select_n", f"cases must have equal shapes and dtypes, got "
                                            f"{', '.join(c.str_short() for c in cases)}")
    if which.shape not in ((), c0.shape):
        raise op_type_error("select_n", f"predicate {which.str_short()} must be a scalar or match "
                                        f"the cases' shape {c0.str_short()}")
    if which.dtype != dtypes.bool_ and which.dtype != dtypes.int32:
        raise op_type_error("select_n", f"predicate must be bool or int32, got {which.str_short()}")
    if which.dtype == dtypes.bool_ and len(cases) > 2:
        raise op_type_error("select_n", "a bool predicate selects between at most two cases")
    return ShapedArray(c0.shape, c0.dtype, all(c.weak_type for c in cases))


# iota(dtype, shape, dimension): counts along `dimension`
iota_p = Primitive("iota")


@iota_p.def_abstract_eval
def _iota_abstract(*, dtype, shape, dimension):
    if not 0 <= dimension < len(shape):
        raise op_value_error("iota", f"dimension {dimension} out of range for shape {shape}")
    return ShapedArray(tuple(shape), dtype, False)


# ---- lax-level wrappers -------------------------------------------------------------

def convert_element_type(x, new_dtype, weak_type: bool = False):
    """Cast to `new_dtype` (canonicalised for the x64 setting)."""
    x = asarray(x)
    new_dtype = dtypes.canonicalize(new_dtype)
    if x.aval.dtype == new_dtype and x.aval.weak_type == weak_type:
        return x
    return convert_element_type_p.bind(x, new_dtype=new_dtype, weak_type=bool(weak_type))


def broadcast_in_dim(x, shape, broadcast_dimensions):
    shape, bdims = tuple(int(d) for d in shape), tuple(int(d) for d in broadcast_dimensions)
    if aval_of(x).shape == shape and bdims == tuple(range(len(shape))):
        return x
    return broadcast_in_dim_p.bind(x, shape=shape, broadcast_dimensions=bdims)


def broadcast(x, sizes):
    """Add leading dimensions of the given sizes."""
    sizes = tuple(int(d) for d in sizes)
    return broadcast_in_dim(x, sizes + x.aval.shape, tuple(range(len(sizes), len(sizes) + x.aval.ndim)))


def reshape(x, new_sizes, dimensions=None):
    """Reshape (row-major); with `dimensions`, transpose first as jax.lax.reshape does."""
    new_sizes = tuple(int(d) for d in new_sizes)
    if dimensions is not None and tuple(dimensions) != tuple(range(x.aval.ndim)):
        x = transpose(x, dimensions)
    if x.aval.shape == new_sizes:
        return x
    return reshape_p.bind(x, new_sizes=new_sizes)


def transpose(x, permutation):
    permutation = tuple(int(p) for p in permutation)
    if permutation == tuple(range(x.aval.ndim)):
        return x
    return transpose_p.bind(x, permutation=permutation)


def select_n(which, *cases):
    return select_n_p.bind(which, *cases)


def select(pred, on_true, on_false):
    """`on_true` where pred else `on_false` (jax.lax.select)."""
    return select_n_p.bind(pred, on_false, on_true)


def iota(dtype, size: int):
    return iota_p.bind(dtype=dtypes.canonicalize(dtype), shape=(int(size),), dimension=0)


def broadcasted_iota(dtype, shape, dimension: int):
    return iota_p.bind(dtype=dtypes.canonicalize(dtype), shape=tuple(int(d) for d in shape),
                       dimension=int(dimension))


__all__ = ["convert_element_type", "broadcast_in_dim", "broadcast", "reshape", "transpose",
           "select_n", "select", "iota", "broadcasted_iota"]
