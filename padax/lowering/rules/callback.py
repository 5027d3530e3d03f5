"""Lowering of host callbacks to XLA's Python-callback custom call.

jaxlib registers the CPU target `xla_ffi_python_cpu_callback` (typed FFI; GPU
programs use `xla_ffi_python_gpu_callback`, which padax has not been tried with):
its attribute `index` picks the Python function among those handed to the
compiler with the module (`ModuleContext.host_callbacks`, passed on by
padax/lowering/compile.py). An ordered callback takes the module's ordering
token as its first operand and returns the next token first
(padax/core/effects.py); the Python side sees None for it.
"""
from __future__ import annotations

import numpy as np

from padax.functional.lax.callback import debug_callback_p, io_callback_p, pure_callback_p
from padax.lowering._mlir import hlo, ir
from padax.lowering.mlir import LoweringError, aval_to_ir_type, register_lowering
from padax.runtime.backend import default_platform
from padax.runtime.host_callbacks import host_entry

_TARGETS = {"cpu": "xla_ffi_python_cpu_callback", "cuda": "xla_ffi_python_gpu_callback",
            "rocm": "xla_ffi_python_gpu_callback"}


def _target() -> str:
    platform = default_platform()
    if platform not in _TARGETS:
        raise LoweringError(f"host callbacks are not available on the {platform} backend")
    return _TARGETS[platform]


def _layout(aval) -> ir.Attribute:
    """Row-major (XLA lists dimensions minor to major)."""
    return ir.DenseIntElementsAttr.get(np.arange(aval.ndim - 1, -1, -1, dtype=np.int64),
                                       type=ir.IndexType.get())


def _emit(ctx, operands, *, callback, result_avals, batch_ndim, ordered: bool, side_effect: bool):
    mctx = ctx.module_ctx
    if mctx.num_partitions > 1:
        raise LoweringError(f"{callback.name}: host callbacks are only supported in single-device programs; "
                            "call it outside the multi-device (sharded) program")
    avals = list(result_avals)

    def run(args):
        return callback.run(args, avals, batch_ndim)

    index = mctx.add_host_callback(host_entry(run, ordered))
    result_types = [aval_to_ir_type(a) for a in avals]
    operand_layouts = [_layout(a) for a in ctx.avals_in]
    result_layouts = [_layout(a) for a in avals]
    if ordered:
        if mctx.token is None:
            raise LoweringError(f"{callback.name}: an ordered callback was lowered without the program's "
                                "ordering token (a padax bug: the enclosing program did not thread it)")
        operands = [mctx.token] + list(operands)
        result_types = [hlo.TokenType.get()] + result_types
        empty = ir.DenseIntElementsAttr.get(np.zeros((0,), np.int64), type=ir.IndexType.get())
        operand_layouts = [empty] + operand_layouts
        result_layouts = [empty] + result_layouts
    op = hlo.CustomCallOp(
        result_types, list(operands), _target(),
        has_side_effect=side_effect,
        backend_config=ir.DictAttr.get({"index": ir.IntegerAttr.get(ir.IntegerType.get_unsigned(64), index)}),
        api_version=ir.IntegerAttr.get(ir.IntegerType.get_signless(32), 4),
        operand_layouts=ir.ArrayAttr.get(operand_layouts),
        result_layouts=ir.ArrayAttr.get(result_layouts))
    results = list(op.results)
    if ordered:
        mctx.token = results.pop(0)
    return results


@register_lowering(debug_callback_p)
def _debug_callback(ctx, *args, callback, result_avals, ordered, batch_ndim):
    return _emit(ctx, args, callback=callback, result_avals=result_avals, batch_ndim=batch_ndim,
                 ordered=ordered, side_effect=True)


@register_lowering(io_callback_p)
def _io_callback(ctx, *args, callback, result_avals, ordered, batch_ndim):
    return _emit(ctx, args, callback=callback, result_avals=result_avals, batch_ndim=batch_ndim,
                 ordered=ordered, side_effect=True)


@register_lowering(pure_callback_p)
def _pure_callback(ctx, *args, callback, result_avals, vmap_method, batch_ndim):
    return _emit(ctx, args, callback=callback, result_avals=result_avals, batch_ndim=batch_ndim,
                 ordered=False, side_effect=False)
