"""Lowerings of custom-rule calls (their primal program is inlined) and stop_gradient.

`custom_lin` (the tangent of a custom_vjp function) has no forward computation: reaching
the compiler means forward mode was applied to a custom_vjp function, a user error."""
from __future__ import annotations

from padax.functional.lax.custom import (
    custom_jvp_call_p,
    custom_lin_p,
    custom_vjp_call_p,
    forward_mode_error,
    not_differentiable_p,
    stop_gradient_p,
)
from padax.lowering.mlir import lower_jaxpr_body, register_lowering


def _call(ctx, *args, call_jaxpr, **params):
    # reads call_jaxpr only, as the primitives' `lowering_params` declare (their fingerprints see no other param)
    return lower_jaxpr_body(ctx.module_ctx, call_jaxpr.jaxpr, [], list(args))


register_lowering(custom_jvp_call_p, _call)
register_lowering(custom_vjp_call_p, _call)
register_lowering(stop_gradient_p, lambda ctx, x: x)


def _custom_lin(ctx, *args, **params):
    raise forward_mode_error()


register_lowering(custom_lin_p, _custom_lin)
register_lowering(not_differentiable_p, lambda ctx, x, *, message: x)
