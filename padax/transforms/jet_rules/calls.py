"""Taylor rules of the primitives that hold programs: cond, while, scan, jit, remat,
custom_jvp/custom_vjp calls and shard_map; and of those that call the host (debug
printing and checks see the primal values; host callbacks need a custom_jvp).

Each becomes the same primitive over the jet of its body: the body takes the K
coefficients of each operand with a series as extra operands (operand-major) and
returns those of its outputs. For loops, a fixed point decides which carries have a
series, as in the jvp rules. jit keeps its derived programs cached (like jvp does),
so repeated jets of a jitted function reuse one compiled program.

Also here: the call-like identities and effects (name, not_differentiable, checks, debug
and host callbacks), which pass series through, refuse them, or explain why not.
"""
from __future__ import annotations

from padax.core import dtypes
from padax.core.abstract import get_aval
from padax.core.ad_util import tangent_aval, zeros_like_aval
from padax.core.jaxpr import ClosedJaxpr, Jaxpr, Var, eval_jaxpr
from padax.core.source_info import user_location
from padax.functional.lax.call import jit_p, name_p, remat_p
from padax.functional.lax.callback import debug_callback_p, io_callback_p, pure_callback_p
from padax.functional.lax.checks import check_p
from padax.functional.lax.control import cond_p, scan_p, while_p
from padax.functional.lax.control.loops import _scan_split
from padax.functional.lax.custom import (
    custom_jvp_call_p,
    custom_lin_p,
    custom_vjp_call_p,
    not_differentiable_p,
    stop_gradient_p,
)
from padax.functional.lax.ffi import ffi_call_p
from padax.functional.lax.shard_map import shard_map_p
from padax.functional.lax.solves import linear_solve_p
from padax.functional.refs import freeze_p, new_ref_p, ref_addupdate_p, ref_get_p, ref_swap_p
from padax.interpreters.jaxpr_util import join_consts
from padax.transforms import custom as _custom  # noqa: F401  (installs the custom-call jvp rules)
from padax.transforms.jet import (
    def_no_taylor,
    def_taylor,
    instantiated_terms,
    jet_flat,
    jet_jaxpr,
    series_nonzero,
    split_terms,
)
from padax.transforms.jet_rules._common import from_jvp_rule, jet_of, linear_rule, zero_rule
from padax.transforms.jit_primitive import _bind_program, _derive, hoist_consts
from padax.transforms.shard_map import _bind, _body_fun, _trace_body


def _nonzero(series, avals) -> list[bool]:
    return [series_nonzero(s) and dtypes.is_inexact(a.dtype) for s, a in zip(series, avals)]


def _cond(primals, series, *, branches):
    index, ops = primals[0], primals[1:]
    K = len(series[0])
    in_avals = branches[0].in_avals
    nz = _nonzero(series[1:], in_avals)
    n_out = len(branches[0].out_avals)
    first = [jet_jaxpr(b, K, nz, [False] * n_out) for b in branches]
    out_nz = [any(f[1][k] for f in first) for k in range(n_out)]
    jets = [f[0] if f[1] == out_nz else jet_jaxpr(b, K, nz, out_nz)[0] for f, b in zip(first, branches)]
    joined, consts = join_consts(jets)
    terms = instantiated_terms(series[1:], in_avals, nz)
    outs = cond_p.bind(index, *consts, *ops, *terms, branches=tuple(joined))
    return outs[:n_out], split_terms(outs[n_out:], out_nz, K)


def _scan(primals, series, *, jaxpr, num_consts, num_carry, length, reverse, unroll):
    nc, nk = num_consts, num_carry
    ny = len(jaxpr.out_avals) - nk
    K = len(series[0])
    avals = [get_aval(p) for p in primals]
    const_nz, carry_nz, xs_nz = _scan_split(_nonzero(series, avals), nc, nk)
    while True:
        jj, out_nz = jet_jaxpr(jaxpr, K, const_nz + carry_nz + xs_nz, carry_nz + [False] * ny)
        new = [a or b for a, b in zip(carry_nz, out_nz[:nk])]
        if new == carry_nz:
            break
        carry_nz = new
    j = jj.jaxpr
    n_in = len(primals)
    c_v, k_v, x_v = _scan_split(j.invars[:n_in], nc, nk)
    t_v = j.invars[n_in:]
    n_ct, n_kt = sum(const_nz) * K, sum(carry_nz) * K
    ct_v, kt_v, xt_v = t_v[:n_ct], t_v[n_ct:n_ct + n_kt], t_v[n_ct + n_kt:]
    ov = j.outvars
    co, yo, to = ov[:nk], ov[nk:nk + ny], ov[nk + ny:]
    body = Jaxpr([], j.constvars + c_v + ct_v + k_v + kt_v + x_v + xt_v, co + to[:n_kt] + yo + to[n_kt:], j.eqns)
    p_c, p_k, p_x = _scan_split(primals, nc, nk)
    s_c, s_k, s_x = _scan_split(series, nc, nk)
    a_c, a_k, a_x = _scan_split(avals, nc, nk)
    tc = instantiated_terms(s_c, a_c, const_nz)
    tk = instantiated_terms(s_k, a_k, carry_nz)
    tx = instantiated_terms(s_x, a_x, xs_nz)
    outs = scan_p.bind(*jj.consts, *p_c, *tc, *p_k, *tk, *p_x, *tx, jaxpr=ClosedJaxpr(body, []),
                       num_consts=len(jj.consts) + nc + len(tc), num_carry=nk + len(tk), length=length,
                       reverse=reverse, unroll=unroll)
    carry_out, kt_out = outs[:nk], outs[nk:nk + n_kt]
    ys, yt_out = outs[nk + n_kt:nk + n_kt + ny], outs[nk + n_kt + ny:]
    return list(carry_out) + list(ys), split_terms(kt_out, carry_nz, K) + split_terms(yt_out, out_nz[nk:], K)


def _while(primals, series, *, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    ncc, nbc = cond_nconsts, body_nconsts
    K = len(series[0])
    avals = [get_aval(p) for p in primals]
    nz = _nonzero(series, avals)
    cc, bc, init = primals[:ncc], primals[ncc:ncc + nbc], primals[ncc + nbc:]
    bc_nz, carry_nz = nz[ncc:ncc + nbc], nz[ncc + nbc:]
    n = len(init)
    while True:
        jj, out_nz = jet_jaxpr(body_jaxpr, K, bc_nz + carry_nz, carry_nz)
        new = [a or b for a, b in zip(carry_nz, out_nz)]
        if new == carry_nz:
            break
        carry_nz = new
    j = jj.jaxpr
    iv = j.invars
    n_bct = sum(bc_nz) * K
    bc_v, carry_v = iv[:nbc], iv[nbc:nbc + n]
    bct_v, ct_v = iv[nbc + n:nbc + n + n_bct], iv[nbc + n + n_bct:]
    body = ClosedJaxpr(Jaxpr([], j.constvars + bc_v + bct_v + carry_v + ct_v, j.outvars, j.eqns), [])
    cj = cond_jaxpr.jaxpr
    init_avals = avals[ncc + nbc:]
    extra = [Var(tangent_aval(a)) for a, z in zip(init_avals, carry_nz) if z for _ in range(K)]
    cond = ClosedJaxpr(Jaxpr([], cj.invars + extra, cj.outvars, cj.eqns), [])
    bct = instantiated_terms(series[ncc:ncc + nbc], avals[ncc:ncc + nbc], bc_nz)
    ct = instantiated_terms(series[ncc + nbc:], init_avals, carry_nz)
    outs = while_p.bind(*cc, *jj.consts, *bc, *bct, *init, *ct, cond_jaxpr=cond, body_jaxpr=body,
                        cond_nconsts=ncc, body_nconsts=len(jj.consts) + nbc + len(bct))
    return list(outs[:n]), split_terms(outs[n:], carry_nz, K)


def _jit(primals, series, *, jaxpr, name, donated):
    K = len(series[0])
    in_avals = jaxpr.in_avals
    nz = tuple(_nonzero(series, in_avals))
    n_out = len(jaxpr.out_avals)
    program, out_nz = _derive(jaxpr, ("jet", K, nz), lambda: jet_jaxpr(jaxpr, K, nz, [False] * n_out))
    terms = instantiated_terms(series, in_avals, nz)
    outs = _bind_program(program, list(primals) + terms, f"jet_{name}")
    return list(outs[:n_out]), split_terms(outs[n_out:], out_nz, K)


def _remat(primals, series, *, jaxpr, policy):
    K = len(series[0])
    in_avals = jaxpr.in_avals
    nz = _nonzero(series, in_avals)
    n_out = len(jaxpr.out_avals)
    jj, out_nz = jet_jaxpr(jaxpr, K, nz, [False] * n_out)
    terms = instantiated_terms(series, in_avals, nz)
    outs = remat_p.bind(*jj.consts, *primals, *terms, jaxpr=hoist_consts(jj), policy=policy)
    return list(outs[:n_out]), split_terms(outs[n_out:], out_nz, K)


def _custom_vjp_call(primals, series, *, call_jaxpr, fwd, bwd, num_consts):
    """A custom_vjp rule gives reverse mode only: the Taylor series is that of the function
    itself (what jax's jet does too)."""
    return jet_of(lambda *xs: eval_jaxpr(call_jaxpr.jaxpr, [], *xs), primals, series)


def _shard_map(primals, series, *, body, mesh, in_specs, out_specs, check_rep, auto=frozenset()):
    K = len(series[0])
    blocks_in = list(body.in_avals)
    nz = _nonzero(series, [get_aval(p) for p in primals])
    n = len(primals)
    out_float = [dtypes.is_inexact(a.dtype) for a in body.out_avals]

    def jet_body(*xs):
        it = iter(xs[n:])
        ss = [[next(it) for _ in range(K)] if z else None for z in nz]
        outs, out_series = jet_flat(_body_fun(body), list(xs[:n]), ss, K)
        res = list(outs)
        for o, s, fl in zip(outs, out_series, out_float):
            if fl:
                ts = s if s is not None else [None] * K
                res += [zeros_like_aval(tangent_aval(get_aval(o))) if t is None else t for t in ts]
        return res

    t_blocks = [tangent_aval(a) for a, z in zip(blocks_in, nz) if z for _ in range(K)]
    closed = _trace_body(jet_body, mesh, blocks_in + t_blocks, "shard_map jet tracing", auto)
    nz_specs = [s for s, z in zip(in_specs, nz) if z for _ in range(K)]
    t_out_specs = [s for s, fl in zip(out_specs, out_float) if fl for _ in range(K)]
    terms = instantiated_terms(series, [get_aval(p) for p in primals], nz)
    outs = _bind(mesh, closed, list(primals) + terms, list(in_specs) + nz_specs, list(out_specs) + t_out_specs,
                 False, auto)
    n_out = len(body.out_avals)
    return list(outs[:n_out]), split_terms(outs[n_out:], out_float, K)


def_taylor(cond_p, _cond)
def_taylor(scan_p, _scan)
def_taylor(while_p, _while)
def_taylor(jit_p, _jit)
def_taylor(remat_p, _remat)
_custom_jvp_series = from_jvp_rule(custom_jvp_call_p)


def _custom_jvp_call(primals, series, *, call_jaxpr, jvp_fn, num_consts):
    """Through the user's jvp rule (see `from_jvp_rule`). Values the function closes over are
    not differentiated by that rule, so one carrying a series is an error, not a silent zero."""
    if any(series_nonzero(s) for s in series[:num_consts]):
        raise TypeError("jet of a custom_jvp function: it closes over a value that carries a Taylor "
                        "series, which its jvp rule cannot see; pass that value as an argument instead")
    return _custom_jvp_series(primals, series, call_jaxpr=call_jaxpr, jvp_fn=jvp_fn, num_consts=num_consts)


def_taylor(custom_jvp_call_p, _custom_jvp_call)
def_taylor(custom_vjp_call_p, _custom_vjp_call)
def_taylor(stop_gradient_p, zero_rule(stop_gradient_p))
def_no_taylor(custom_lin_p, "it is the linear part of a custom_vjp function, of which only the transpose (the "
                            "user's bwd) is known; take the jet of the function itself")


def _not_differentiable(primals, series, *, message):
    """Only reached when the operand carries a series: the derivative is refused."""
    raise TypeError(f"{message}{user_location()}")


def_taylor(name_p, linear_rule(name_p))
def_taylor(not_differentiable_p, _not_differentiable)


def _install_effects() -> None:
    """Checks and debug callbacks see the primal values and have no outputs to expand; host
    functions (pure_callback, io_callback) are opaque, like in their jvp rules."""
    def_taylor(check_p, zero_rule(check_p))
    def_taylor(debug_callback_p, zero_rule(debug_callback_p))
    for p, kind in ((pure_callback_p, "pure_callback"), (io_callback_p, "io_callback")):
        def_no_taylor(p, f"padax cannot see inside a host function ({kind}); wrap the function that calls it "
                         "in padax.custom_jvp with a derivative rule, and jet goes through that rule")


_install_effects()
def_no_taylor(ffi_call_p, "padax cannot see inside a native kernel (padax.ffi); wrap the function that calls it in "
                          "padax.custom_jvp with a derivative rule, and jet goes through that rule")


def _install_shard_map() -> None:
    def_taylor(shard_map_p, _shard_map)


_install_shard_map()


def _install_solves() -> None:
    def_taylor(linear_solve_p, from_jvp_rule(linear_solve_p))


_install_solves()


for _p in (new_ref_p, ref_get_p, ref_swap_p, ref_addupdate_p, freeze_p):
    def_no_taylor(_p, "Taylor mode does not carry mutable array refs; read the ref (ref[...]) outside the "
                      "function passed to jet and pass the array in")
