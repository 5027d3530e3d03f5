"""dot_general: contraction over given dims with batch dims (matmul, einsum, tensordot)."""
from __future__ import annotations

from padax.core import dtypes
from padax.core.abstract import ShapedArray
from padax.core.errors import op_type_error
from padax.core.primitive import Primitive

dot_general_p = Primitive("dot_general")


@dot_general_p.def_abstract_eval
def _dot_general_abstract(lhs, rhs, *, dimension_numbers, preferred_element_type=None):
    (lc, rc), (lb, rb) = dimension_numbers
    if len(lc) != len(rc) or len(lb) != len(rb):
        raise op_type_error("dot_general", f"contracting/batch dims {dimension_numbers} do not pair up")
    for a, b in list(zip(lc, rc)) + list(zip(lb, rb)):
        if not (0 <= a < lhs.ndim and 0 <= b < rhs.ndim) or lhs.shape[a] != rhs.shape[b]:
            raise op_type_error("dot_general", f"incompatible shapes {lhs.str_short()} and "
                                               f"{rhs.str_short()} for dimension_numbers {dimension_numbers}")
    if lhs.dtype != rhs.dtype:
        raise op_type_error("dot_general", f"operands must have the same dtype, got "
                                           f"{lhs.str_short()} and {rhs.str_short()}")
    batch = tuple(lhs.shape[i] for i in lb)
    lfree = tuple(d for i, d in enumerate(lhs.shape) if i not in lc and i not in lb)
    rfree = tuple(d for i, d in enumerate(rhs.shape) if i not in rc and i not in rb)
    out_dtype = lhs.dtype if preferred_element_type is None else preferred_element_type
    return ShapedArray(batch + lfree + rfree, out_dtype, lhs.weak_type and rhs.weak_type)


def dot_general(lhs, rhs, dimension_numbers, preferred_element_type=None):
    """Contract `lhs` and `rhs`: dimension_numbers = ((lhs_contract, rhs_contract), (lhs_batch, rhs_batch))."""
    (lc, rc), (lb, rb) = dimension_numbers
    dn = ((tuple(lc), tuple(rc)), (tuple(lb), tuple(rb)))
    return dot_general_p.bind(lhs, rhs, dimension_numbers=dn, preferred_element_type=preferred_element_type)


def dot(lhs, rhs, preferred_element_type=None):
    """Vector/matrix product contracting lhs's last dim with rhs's first (jax.lax.dot)."""
    return dot_general(lhs, rhs, (((lhs.aval.ndim - 1,), (0,)), ((), ())), preferred_element_type)


__all__ = ["dot_general", "dot"]
