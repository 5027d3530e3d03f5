"""Lowering of conv_general_dilated to stablehlo.convolution."""
from __future__ import annotations

import numpy as np

from padax.functional.lax.conv import conv_general_dilated_p
from padax.lowering._mlir import hlo, ir
from padax.lowering.mlir import aval_to_ir_type, full_like_aval, register_lowering
from padax.lowering.rules.dot import precision_config


@register_lowering(conv_general_dilated_p)
def _conv_general_dilated(ctx, lhs, rhs, *, window_strides, padding, lhs_dilation, rhs_dilation,
                          dimension_numbers, feature_group_count, batch_group_count,
                          preferred_element_type, precision=None):
    out_aval = ctx.aval_out
    if out_aval.size == 0:
        return full_like_aval(0, out_aval)
    lspec, rspec, ospec = dimension_numbers
    dnums = hlo.ConvDimensionNumbers.get(
        input_batch_dimension=lspec[0], input_feature_dimension=lspec[1],
        input_spatial_dimensions=list(lspec[2:]),
        kernel_output_feature_dimension=rspec[0], kernel_input_feature_dimension=rspec[1],
        kernel_spatial_dimensions=list(rspec[2:]),
        output_batch_dimension=ospec[0], output_feature_dimension=ospec[1],
        output_spatial_dimensions=list(ospec[2:]))
    i64 = ir.IntegerType.get_signless(64)
    pads = np.asarray(padding, np.int64).reshape(len(window_strides), 2)
    return hlo.convolution(
        aval_to_ir_type(out_aval), lhs, rhs, dnums,
        ir.IntegerAttr.get(i64, feature_group_count), ir.IntegerAttr.get(i64, batch_group_count),
        window_strides=ir.DenseI64ArrayAttr.get(list(window_strides)),
        padding=ir.DenseIntElementsAttr.get(pads),
        lhs_dilation=ir.DenseI64ArrayAttr.get(list(lhs_dilation)),
        rhs_dilation=ir.DenseI64ArrayAttr.get(list(rhs_dilation)),
        window_reversal=ir.DenseBoolArrayAttr.get([False] * len(window_strides)),
        precision_config=precision_config(precision))
