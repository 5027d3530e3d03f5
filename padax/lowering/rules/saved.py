"""Lowering of `saved_program` equations: the saved functions are copied in and called."""
from __future__ import annotations

from padax.functional.lax.saved import saved_program_p
from padax.lowering.export import call_function, inline_portable
from padax.lowering.mlir import register_lowering


@register_lowering(saved_program_p)
def _saved_program(ctx, *args, program):
    main = inline_portable(ctx.module_ctx, program.artifact, "saved")
    return call_function(main, args, program.out_avals)
