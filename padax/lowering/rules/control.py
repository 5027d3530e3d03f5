"""Lowering of control flow: `cond` -> stablehlo.case, `while` and `scan` -> stablehlo.while.

Bodies are emitted inline with `lower_jaxpr_body`. Case branches read the
operands from the enclosing block; while loops carry their consts along with
the loop state (as XLA expects loop-invariant values to be passed).

A scan is a while loop over a step counter whose state is (counter, consts,
carry, xs, ys buffers): each step reads `xs[i]` with a dynamic slice and writes
`ys[i]` with a dynamic update slice (`i` counts down for `reverse`). With
`unroll=u` each loop iteration emits `u` steps; the `length % u` remaining steps
are emitted after the loop.

A body with an ordered side effect (padax.core.effects) gets the module's
ordering token: case branches start from it and return it, loops carry it.
"""
from __future__ import annotations

import numpy as np

from padax.core.abstract import ShapedArray
from padax.core.effects import has_ordered, jaxpr_effects
from padax.functional.lax.control import cond_p, scan_p, while_p
from padax.lowering._mlir import hlo, ir
from padax.lowering.mlir import aval_to_ir_type, full_like_aval, ir_constant, lower_jaxpr_body, register_lowering
from padax.lowering.rules.elementwise import compare


def _ordered(*jaxprs) -> bool:
    """Whether any of these bodies has an ordered side effect (the loop or case then carries the token)."""
    return any(has_ordered(jaxpr_effects(j)) for j in jaxprs)


@register_lowering(cond_p)
def _cond(ctx, index, *ops, branches):
    mctx = ctx.module_ctx
    ordered = _ordered(*branches)
    out_types = [aval_to_ir_type(a) for a in ctx.avals_out] + ([hlo.TokenType.get()] if ordered else [])
    case = hlo.CaseOp(out_types, index, len(branches))
    token_in = mctx.token
    for i, b in enumerate(branches):
        block = case.regions[i].blocks.append()
        with ir.InsertionPoint(block):
            mctx.token = token_in  # every branch starts from the token before the case
            outs = lower_jaxpr_body(mctx, b.jaxpr, [], list(ops))
            hlo.return_(list(outs) + ([mctx.token] if ordered else []))
    results = list(case.results)
    mctx.token = results.pop() if ordered else token_in
    return results


@register_lowering(while_p)
def _while(ctx, *args, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    mctx = ctx.module_ctx
    ordered = _ordered(cond_jaxpr, body_jaxpr)
    state = list(args) + ([mctx.token] if ordered else [])
    types = [aval_to_ir_type(a) for a in ctx.avals_in] + ([hlo.TokenType.get()] if ordered else [])
    loop = hlo.WhileOp(types, state)
    n_fixed = cond_nconsts + body_nconsts
    n = len(args)

    cond_block = loop.regions[0].blocks.append(*types)
    with ir.InsertionPoint(cond_block):
        xs = list(cond_block.arguments)
        if ordered:
            mctx.token = xs[n]
        (pred,) = lower_jaxpr_body(mctx, cond_jaxpr.jaxpr, [], xs[:cond_nconsts] + xs[n_fixed:n])
        hlo.return_([pred])

    body_block = loop.regions[1].blocks.append(*types)
    with ir.InsertionPoint(body_block):
        xs = list(body_block.arguments)
        if ordered:
            mctx.token = xs[n]
        new = lower_jaxpr_body(mctx, body_jaxpr.jaxpr, [], xs[cond_nconsts:n])
        hlo.return_(xs[:n_fixed] + list(new) + ([mctx.token] if ordered else []))
    results = list(loop.results)
    if ordered:
        mctx.token = results.pop()
    return results[n_fixed:]


def _i32(v: int) -> ir.Value:
    return ir_constant(np.int32(v))


def _scan_step(ctx, jaxpr, i, consts, carry, xs, ys, *, length, reverse, x_avals, y_avals):
    """Emit one step at (int32 scalar) step `i`; returns the new carry and ys buffers."""
    idx = hlo.subtract(_i32(length - 1), i) if reverse else i
    zero = _i32(0)
    x_t = []
    for x, a in zip(xs, x_avals):
        starts = [idx] + [zero] * len(a.shape)
        sl = hlo.dynamic_slice(x, starts, ir.DenseI64ArrayAttr.get([1] + list(a.shape)))
        x_t.append(hlo.reshape(aval_to_ir_type(a), sl))
    outs = lower_jaxpr_body(ctx.module_ctx, jaxpr, [], list(consts) + list(carry) + x_t)
    nk = len(carry)
    new_ys = []
    for buf, y, a in zip(ys, outs[nk:], y_avals):
        upd = hlo.reshape(aval_to_ir_type(ShapedArray((1,) + a.shape, a.dtype)), y)
        new_ys.append(hlo.dynamic_update_slice(buf, upd, [idx] + [zero] * len(a.shape)))
    return list(outs[:nk]), new_ys


@register_lowering(scan_p)
def _scan(ctx, *args, jaxpr, num_consts, num_carry, length, reverse, unroll):
    mctx = ctx.module_ctx
    nc, nk = num_consts, num_carry
    consts, carry, xs = list(args[:nc]), list(args[nc:nc + nk]), list(args[nc + nk:])
    j = jaxpr.jaxpr
    x_avals = [v.aval for v in j.invars[nc + nk:]]
    y_avals = [v.aval for v in j.outvars[nk:]]
    ys_out_avals = ctx.avals_out[nk:]
    if length == 0:
        return carry + [full_like_aval(0, a) for a in ys_out_avals]
    ys = [full_like_aval(0, a) for a in ys_out_avals]
    step = dict(length=length, reverse=reverse, x_avals=x_avals, y_avals=y_avals)
    unroll = max(1, min(int(unroll), length))
    n_main = (length // unroll) * unroll
    n_fixed = 1 + nc
    ordered = _ordered(jaxpr)
    state = [_i32(0)] + consts + carry + xs + ys + ([mctx.token] if ordered else [])
    n_state = len(state) - ordered
    types = [v.type for v in state]
    loop = hlo.WhileOp(types, state)

    cond_block = loop.regions[0].blocks.append(*types)
    with ir.InsertionPoint(cond_block):
        pred = compare(cond_block.arguments[0], _i32(n_main), "LT", np.dtype(np.int32))
        hlo.return_([pred])

    body_block = loop.regions[1].blocks.append(*types)
    with ir.InsertionPoint(body_block):
        a = list(body_block.arguments)
        if ordered:
            mctx.token = a[n_state]
        i, c, k = a[0], a[1:n_fixed], a[n_fixed:n_fixed + nk]
        x, y = a[n_fixed + nk:n_fixed + nk + len(xs)], a[n_fixed + nk + len(xs):n_state]
        for u in range(unroll):
            iu = hlo.add(i, _i32(u)) if u else i
            k, y = _scan_step(ctx, j, iu, c, k, x, y, **step)
        hlo.return_([hlo.add(i, _i32(unroll))] + list(c) + list(k) + list(x) + list(y)
                    + ([mctx.token] if ordered else []))

    res = list(loop.results)
    if ordered:
        mctx.token = res.pop()
    carry = res[n_fixed:n_fixed + nk]
    ys = res[n_fixed + nk + len(xs):]
    for r in range(n_main, length):  # the steps left over by unrolling
        carry, ys = _scan_step(ctx, j, _i32(r), consts, carry, xs, ys, **step)
    return carry + ys
