"""Lowering of dot_general."""
from __future__ import annotations

from padax.functional.lax.dot import dot_general_p
from padax.lowering._mlir import hlo, ir
from padax.lowering.mlir import aval_to_ir_type, register_lowering


def precision_config(precision):
    """A (lhs, rhs) pair of padax.lax.Precision as StableHLO's precision_config (None: the default)."""
    if precision is None:
        return None
    return ir.ArrayAttr.get([hlo.PrecisionAttr.get(p.name) for p in precision])


@register_lowering(dot_general_p)
def _dot_general(ctx, lhs, rhs, *, dimension_numbers, preferred_element_type=None, precision=None):
    (lc, rc), (lb, rb) = dimension_numbers
    dnums = hlo.DotDimensionNumbers.get(lhs_batching_dimensions=list(lb), rhs_batching_dimensions=list(rb),
                                        lhs_contracting_dimensions=list(lc),
                                        rhs_contracting_dimensions=list(rc))
    return hlo.dot_general(aval_to_ir_type(ctx.aval_out), lhs, rhs, dnums,
                           precision_config=precision_config(precision))
