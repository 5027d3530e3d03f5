"""Lowering of `ffi_call_p` to XLA's typed-FFI custom call.

`stablehlo.custom_call @<target>(operands) {api_version = 4, backend_config = {attributes}}` with
row-major layouts, so XLA calls the registered handler directly (no Python on the hot path). The
target must be registered with XLA for the program's platform (padax.ffi.register_ffi_target, or one
of jaxlib's own); that is checked here, so an unknown name fails when the program is lowered, with
padax's message, rather than when it runs. Attributes become MLIR attributes as in jax: Python
int -> i64, float -> f64, bool -> i1, str -> string, numpy scalars keep their dtype, numpy arrays
become dense elements, np.dtype a type attribute, dicts dictionaries and tuples/lists arrays.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from padax.core.errors import PadaxError
from padax.functional.lax.ffi import HashableArray, ffi_call_p
from padax.lowering._mlir import hlo, ir
from padax.lowering.mlir import aval_to_ir_type, dtype_to_ir_type, register_lowering
from padax.runtime import ffi_targets
from padax.runtime.backend import default_platform


class FfiTargetError(PadaxError, ValueError):
    """An ffi_call names a custom-call target that is not registered for the program's platform."""


def _scalar_type(dtype) -> ir.Type:
    return dtype_to_ir_type(np.dtype(dtype))


def _scalar_attr(v: Any, dtype) -> ir.Attribute:
    t = _scalar_type(dtype)
    if isinstance(t, ir.IntegerType):
        return ir.IntegerAttr.get(t, int(v))
    return ir.FloatAttr.get(t, float(v))


def ir_attribute(name: str, target: str, v: Any) -> ir.Attribute:
    """The MLIR attribute for FFI attribute `name` = v."""
    if isinstance(v, HashableArray):
        v = v.val
    if isinstance(v, (bool, np.bool_)):
        return _scalar_attr(bool(v), np.bool_)
    if isinstance(v, int):
        return _scalar_attr(v, np.int64)
    if isinstance(v, float):
        return _scalar_attr(v, np.float64)
    if isinstance(v, (str, bytes)):
        return ir.StringAttr.get(v)
    if isinstance(v, np.dtype) or (isinstance(v, type) and issubclass(v, np.generic)):
        return ir.TypeAttr.get(_scalar_type(np.dtype(v)))
    if isinstance(v, np.generic):
        return _scalar_attr(v, v.dtype)
    if isinstance(v, np.ndarray):
        a = np.ascontiguousarray(v)
        return ir.DenseElementsAttr.get(a, type=_scalar_type(a.dtype), shape=a.shape)
    if isinstance(v, dict):
        return ir.DictAttr.get({str(k): ir_attribute(f"{name}.{k}", target, x) for k, x in v.items()})
    if isinstance(v, (tuple, list)):
        return ir.ArrayAttr.get([ir_attribute(name, target, x) for x in v])
    raise TypeError(f"ffi_call({target!r}): attribute {name}={v!r} has type {type(v).__name__}, which has no "
                    "FFI form; use int, float, bool, str, a numpy scalar or array, a dtype, a dict or a tuple")


def _layout(aval) -> ir.Attribute:
    """Row-major (XLA lists dimensions minor to major)."""
    return ir.DenseIntElementsAttr.get(np.arange(aval.ndim - 1, -1, -1, dtype=np.int64), type=ir.IndexType.get())


def check_target(target_name: str) -> None:
    platform = default_platform()
    if not ffi_targets.is_registered(target_name, platform):
        known = sorted(ffi_targets.registered_names())
        raise FfiTargetError(
            f"ffi_call: no FFI target {target_name!r} is registered for the {platform} platform. Register the "
            f"handler first with padax.ffi.register_ffi_target({target_name!r}, padax.ffi.pycapsule(lib.fn), "
            f"platform={platform!r}). Targets registered through padax: {known or 'none'}")


@register_lowering(ffi_call_p)
def _ffi_call(ctx, *operands, target_name, result_avals, vmap_method, input_output_aliases, attributes,
              has_side_effect):
    check_target(target_name)
    results = [aval_to_ir_type(a) for a in result_avals]
    kwargs = {}
    if input_output_aliases:
        kwargs["output_operand_aliases"] = ir.ArrayAttr.get([
            hlo.OutputOperandAlias.get(output_tuple_indices=[o] if len(results) > 1 else [],
                                       operand_index=i, operand_tuple_indices=[])
            for i, o in input_output_aliases])
    op = hlo.CustomCallOp(
        results, list(operands), target_name,
        has_side_effect=bool(has_side_effect),
        backend_config=ir.DictAttr.get({k: ir_attribute(k, target_name, v) for k, v in attributes}),
        api_version=ir.IntegerAttr.get(ir.IntegerType.get_signless(32), 4),
        operand_layouts=ir.ArrayAttr.get([_layout(a) for a in ctx.avals_in]),
        result_layouts=ir.ArrayAttr.get([_layout(a) for a in result_avals]),
        **kwargs)
    return list(op.results)
