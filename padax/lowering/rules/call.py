"""Lowering of `jit` and `remat` equations (the sub-jaxpr is emitted inline) and of `name` (the identity)."""
from __future__ import annotations

from padax.functional.lax.call import jit_p, name_p, remat_p
from padax.lowering.mlir import lower_jaxpr_body, register_lowering


@register_lowering(jit_p)
def _jit(ctx, *args, jaxpr, name, donated):
    return lower_jaxpr_body(ctx.module_ctx, jaxpr.jaxpr, [], list(args))


@register_lowering(remat_p)
def _remat(ctx, *args, jaxpr, policy):
    return lower_jaxpr_body(ctx.module_ctx, jaxpr.jaxpr, [], list(args))


@register_lowering(name_p)
def _name(ctx, x, *, name):
    return x
