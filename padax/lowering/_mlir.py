"""The one gateway to jaxlib's MLIR bindings (private module paths live here only)."""
from __future__ import annotations

import io

from jaxlib.mlir import ir  # noqa: F401  (re-exported)
from jaxlib.mlir._mlir_libs import _chlo, _jax_mlir_ext, _stablehlo
from jaxlib.mlir.dialects import chlo, func, stablehlo as hlo  # noqa: F401


def make_context() -> ir.Context:
    """An MLIR context with func, StableHLO and CHLO dialects loaded (Shardy's on demand: `sdy_dialect`)."""
    ctx = ir.Context()
    registry = ir.DialectRegistry()
    _jax_mlir_ext.register_dialects(registry)
    ctx.append_dialect_registry(registry)
    ctx.load_all_available_dialects()
    _stablehlo.register_dialect(ctx)
    _chlo.register_dialect(ctx)
    return ctx


_sdy_module = None
_sdy_contexts: dict = {}  # id -> context with the sdy dialect registered (contexts live per thread)


def sdy_dialect():
    """jaxlib's Shardy (`sdy`) dialect module, registered in the current context.

    Imported on first use (~5 ms): only SPMD programs need it.
    """
    global _sdy_module
    if _sdy_module is None:
        from jaxlib.mlir.dialects import sdy
        _sdy_module = sdy
    ctx = ir.Context.current
    if _sdy_contexts.get(id(ctx)) is not ctx:
        _sdy_module.register_dialect(ctx)
        _sdy_contexts[id(ctx)] = ctx
    return _sdy_module


def module_to_bytecode(module: ir.Module) -> bytes:
    out = io.BytesIO()
    module.operation.write_bytecode(out)
    return out.getvalue()
