"""Lowering of `custom_linear_solve`: the solve program is emitted inline."""
from __future__ import annotations

from padax.functional.lax.solves import _SOLVE, _split, linear_solve_p
from padax.lowering.mlir import lower_jaxpr_body, register_lowering


@register_lowering(linear_solve_p)
def _linear_solve(ctx, *args, jaxprs, const_lengths):
    groups, b = _split(args, const_lengths)
    return lower_jaxpr_body(ctx.module_ctx, jaxprs[_SOLVE].jaxpr, [], groups[_SOLVE] + b)
