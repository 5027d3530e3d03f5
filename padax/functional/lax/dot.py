"""dot_general: contraction over given dims with batch dims (matmul, einsum, tensordot)."""
from __future__ import annotations

import numpy as np

from padax.core import dtypes
from padax.core.abstract import ShapedArray
from padax.core.errors import op_type_error, op_value_error
from padax.core.primitive import Primitive
from padax.functional._arrays import asarray

dot_general_p = Primitive("dot_general")


def check_preferred_element_type(op: str, in_dtype, preferred) -> None:
    """A result dtype must be of the inputs' kind (or floating for integer inputs) and no narrower."""
    if dtypes.is_integer(in_dtype) and dtypes.is_floating(preferred):
        ok = True
    elif dtypes.is_integer(in_dtype):
        ok = dtypes.is_integer(preferred) and (dtypes.is_unsigned(in_dtype) or not dtypes.is_unsigned(preferred))
    elif dtypes.is_floating(in_dtype):
        ok = dtypes.is_floating(preferred)
    elif dtypes.is_complex(in_dtype):
        ok = dtypes.is_complex(preferred)
    else:
        ok = in_dtype == preferred
    if not ok or preferred.itemsize < in_dtype.itemsize:
        raise op_type_error(op, f"preferred_element_type {preferred.name} is not compatible with "
                                f"inputs of dtype {in_dtype.name} (it must be of the same kind, or "
                                "floating for integer inputs, and at least as wide)")


@dot_general_p.def_abstract_eval
def _dot_general_abstract(lhs, rhs, *, dimension_numbers, preferred_element_type=None):
    op = "dot_general"
    (lc, rc), (lb, rb) = dimension_numbers
    where = f"lhs {lhs.str_short()}, rhs {rhs.str_short()}, dimension_numbers {dimension_numbers}"
    if len(lc) != len(rc):
        raise op_type_error(op, f"lhs and rhs must have the same number of contracting dimensions, "
                                f"got {lc} and {rc} ({where})")
    if len(lb) != len(rb):
        raise op_type_error(op, f"lhs and rhs must have the same number of batch dimensions, "
                                f"got {lb} and {rb} ({where})")
    for side, aval, c, b in (("lhs", lhs, lc, lb), ("rhs", rhs, rc, rb)):
        dims = tuple(c) + tuple(b)
        if any(not 0 <= d < aval.ndim for d in dims):
            raise op_value_error(op, f"{side} contracting/batch dimensions {dims} are out of range for "
                                     f"rank {aval.ndim} ({where})")
        if len(set(dims)) != len(dims):
            raise op_value_error(op, f"{side} contracting/batch dimensions {dims} repeat a dimension "
                                     f"({where})")
    for kind, ld, rd in (("contracting", lc, rc), ("batch", lb, rb)):
        ls, rs = tuple(lhs.shape[d] for d in ld), tuple(rhs.shape[d] for d in rd)
        if ls != rs:
            raise op_type_error(op, f"{kind} dimensions must have equal sizes, got {ls} for lhs "
                                    f"dims {ld} and {rs} for rhs dims {rd} ({where})")
    if lhs.dtype != rhs.dtype:
        raise op_type_error(op, f"operands must have the same dtype, got "
                                f"{lhs.str_short()} and {rhs.str_short()}")
    batch = tuple(lhs.shape[i] for i in lb)
    lfree = tuple(d for i, d in enumerate(lhs.shape) if i not in lc and i not in lb)
    rfree = tuple(d for i, d in enumerate(rhs.shape) if i not in rc and i not in rb)
    out_dtype = lhs.dtype
    if preferred_element_type is not None:
        out_dtype = np.dtype(preferred_element_type)
        check_preferred_element_type(op, lhs.dtype, out_dtype)
    return ShapedArray(batch + lfree + rfree, out_dtype, lhs.weak_type and rhs.weak_type)


def _preferred(dtype):
    return None if dtype is None else dtypes.canonicalize(dtype)


def dot_general(lhs, rhs, dimension_numbers, preferred_element_type=None):
    """Contract `lhs` and `rhs`: dimension_numbers = ((lhs_contract, rhs_contract), (lhs_batch, rhs_batch)).

    The result holds the batch dims, then lhs's free dims, then rhs's free dims.
    """
    (lc, rc), (lb, rb) = dimension_numbers
    dn = ((tuple(int(d) for d in lc), tuple(int(d) for d in rc)),
          (tuple(int(d) for d in lb), tuple(int(d) for d in rb)))
    return dot_general_p.bind(asarray(lhs), asarray(rhs), dimension_numbers=dn,
                              preferred_element_type=_preferred(preferred_element_type))


def dot(lhs, rhs, preferred_element_type=None):
    """Vector/matrix product contracting lhs's last dim with rhs's first (jax.lax.dot)."""
    lhs, rhs = asarray(lhs), asarray(rhs)
    return dot_general(lhs, rhs, (((lhs.aval.ndim - 1,), (0,)), ((), ())), preferred_element_type)


__all__ = ["dot_general", "dot"]
