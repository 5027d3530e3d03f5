"""The one gateway to jaxlib's MLIR bindings (private module paths live here only)."""
from __future__ import annotations

import io

from jaxlib.mlir import ir  # noqa: F401  (re-exported)
from jaxlib.mlir.dialects import chlo, func, stablehlo as hlo  # noqa: F401
from jaxlib.mlir._mlir_libs import _chlo, _jax_mlir_ext, _stablehlo


def make_context() -> ir.Context:
    """An MLIR context with func, StableHLO, CHLO (and sdy) dialects loaded."""
    ctx = ir.Context()
    registry = ir.DialectRegistry()
    _jax_mlir_ext.register_dialects(registry)
    ctx.append_dialect_registry(registry)
    ctx.load_all_available_dialects()
    _stablehlo.register_dialect(ctx)
    _chlo.register_dialect(ctx)
    return ctx


def module_to_bytecode(module: ir.Module) -> bytes:
    out = io.BytesIO()
    module.operation.write_bytecode(out)
    return out.getvalue()
