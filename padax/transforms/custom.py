"""custom_jvp / custom_vjp: user-defined derivative rules that survive jit, vmap and
higher-order differentiation; and `stop_gradient`."""
from __future__ import annotations

import functools
from typing import Any, Callable, Sequence

from padax.core import dtypes
from padax.core.abstract import get_aval
from padax.core.ad_util import Zero, instantiate, is_undefined, tangent_aval, zeros_like_aval
from padax.core.jaxpr import ClosedJaxpr, Jaxpr, eval_jaxpr
from padax.core.source_info import user_location
from padax.core.trace import EvalTrace, set_current_trace, trace_state
from padax.functional._arrays import asarray
from padax.functional.lax.custom import (
    custom_jvp_call_p,
    custom_lin_p,
    custom_vjp_call_p,
    forward_mode_error,
    stop_gradient,  # noqa: F401 (re-exported)
    stop_gradient_p,  # noqa: F401 (stop_gradient_p: importers read it here)
)
from padax.functional.lax.structural import batch_size, bdim_to_front
from padax.runtime import tree as tree_util
from padax.transforms.ad import JVPTrace, PartialEvalTrace, backward_pass
from padax.transforms.batching import vmap
from padax.transforms.jit_primitive import hoist_consts
from padax.transforms.staging import arg_aval, trace_flat


def _trace_call(fun: Callable, args: Sequence[Any], kwargs: dict | None = None):
    """Trace fun at the avals of args; returns (hoisted closed jaxpr, consts, in_tree, out_tree)."""
    leaves, in_tree = tree_util.flatten(tuple(args))
    store: list = []

    def flat(*xs):
        out = fun(*in_tree.unflatten(xs))
        out_leaves, out_tree = tree_util.flatten(out)
        store.append(out_tree)
        return out_leaves

    closed = trace_flat(flat, [arg_aval(x) for x in leaves], "custom rule tracing")
    return hoist_consts(closed), closed.consts, leaves, in_tree, store[0]


def _split_nondiff(args: tuple, nondiff: tuple[int, ...]):
    static = {i: args[i] for i in nondiff}
    dyn = tuple(a for i, a in enumerate(args) if i not in static)
    return static, dyn


def _merge(static: dict, dyn: Sequence[Any], n: int) -> list:
    it = iter(dyn)
    return [static[i] if i in static else next(it) for i in range(n)]


def _checked_tangent(rule: str, kind: str, where: str, t: Any, primal_aval: Any) -> Any:
    """A user rule's (co)tangent `t` for `primal`, checked as JAX does: same shape, and the primal's
    tangent dtype (a weakly typed Python scalar is cast). Integer primals have no tangent space: any
    value is accepted there and later replaced by a symbolic zero."""
    want = tangent_aval(primal_aval)
    if not dtypes.is_inexact(want.dtype) or isinstance(t, Zero):
        return t
    got = get_aval(t)
    if got.shape != want.shape:
        raise TypeError(f"{rule} returned a {kind} {got.str_short()} for {where}, whose {kind} must have the "
                        f"primal's shape: {want.str_short()}{user_location()}")
    if got.dtype != want.dtype:
        if got.weak_type and dtypes.is_inexact(got.dtype):
            return asarray(t, dtype=want.dtype)
        raise TypeError(f"{rule} returned a {kind} {got.str_short()} for {where}, whose {kind} must have "
                        f"dtype {want.str_short()}; cast it with .astype({want.dtype.name!r}){user_location()}")
    return t


class _Hashable:
    """Wraps a Python callable as a primitive param (hashed by identity)."""

    __slots__ = ("fn", "__weakref__")

    def __init__(self, fn):
        self.fn = fn

    def __repr__(self) -> str:
        return getattr(self.fn, "__name__", "fn")


class custom_jvp:
    """A function with a custom forward-mode rule: `@custom_jvp` then `@f.defjvp`.

    The rule `jvp(primals, tangents) -> (primal_out, tangent_out)` also gives
    reverse mode (padax transposes the linear part of what it returns).

    Args:
        fun: the function (positional arguments only).
        nondiff_argnums: arguments that are not differentiated (passed first to the rule).

    Examples:
        >>> import padax
        >>> @padax.custom_jvp
        ... def f(x):
        ...     return padax.sin(x)
        >>> @f.defjvp
        ... def f_jvp(primals, tangents):
        ...     return f(primals[0]), 10.0 * tangents[0]
        >>> float(f(padax.to_tensor(0.0))), float(padax.grad(f)(padax.to_tensor(0.0)))
        (0.0, 10.0)
    """

    def __init__(self, fun: Callable, nondiff_argnums: Sequence[int] = ()):
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.nondiff_argnums = tuple(nondiff_argnums)
        self.jvp = None

    def defjvp(self, jvp: Callable) -> Callable:
        self.jvp = jvp
        return jvp

    def defjvps(self, *tangent_fns: Callable | None) -> None:
        """One function per argument: `fn(tangent, primal_out, *primals)` -> its contribution."""
        def jvp(primals, tangents):
            out = self.fun(*primals)
            acc = None
            for fn, t in zip(tangent_fns, tangents):
                if fn is None:
                    continue
                c = fn(t, out, *primals)
                acc = c if acc is None else tree_util.map(lambda a, b: a + b, acc, c)
            return out, acc if acc is not None else tree_util.map(lambda o: o * 0, out)
        self.jvp = jvp

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if kwargs:
            raise TypeError("custom_jvp functions take positional arguments only")
        if self.jvp is None:
            raise AttributeError(f"custom_jvp {self.__name__} has no jvp rule: decorate one with @{self.__name__}.defjvp")
        trace = trace_state.trace
        if type(trace) is EvalTrace:  # no transformation: the rule plays no part
            static, _ = _split_nondiff(args, self.nondiff_argnums)
            args = tuple(a if i in static else tree_util.map(asarray, a) for i, a in enumerate(args))
            return tree_util.map(asarray, self.fun(*args))
        if type(trace) is JVPTrace:  # the rule runs on the primal values (Python control flow on them works)
            return self._jvp_now(trace, args)
        if type(trace) is PartialEvalTrace and not any(map(trace.is_unknown, tree_util.leaves(args))):
            with set_current_trace(trace.parent):  # known values (a jvp rule's primal part): computed now
                return self(*args)
        n = len(args)
        static, dyn = _split_nondiff(args, self.nondiff_argnums)
        fun = lambda *d: self.fun(*_merge(static, d, n))  # noqa: E731
        call_jaxpr, consts, leaves, in_tree, out_tree = _trace_call(fun, dyn)
        rule = self._flat_rule(static, in_tree, out_tree)
        outs = custom_jvp_call_p.bind(*consts, *leaves, call_jaxpr=call_jaxpr, jvp_fn=_Hashable(rule),
                                      num_consts=len(consts))
        return out_tree.unflatten(outs)

    def _flat_rule(self, static: dict, in_tree, out_tree=None) -> Callable:
        """The user's rule on flat primals/tangents -> (flat outs, flat tangent outs, output tree)."""
        user_jvp, nondiff, name = self.jvp, self.nondiff_argnums, self.__name__

        def rule(primals, tangents):
            p_args = in_tree.unflatten(primals)
            t_args = in_tree.unflatten([instantiate(t) for t in tangents])
            if nondiff:
                out, t_out = user_jvp(*[static[i] for i in nondiff], tuple(p_args), tuple(t_args))
            else:
                out, t_out = user_jvp(tuple(p_args), tuple(t_args))
            o_leaves, o_tree = tree_util.flatten(out)
            t_leaves, t_tree = tree_util.flatten(t_out)
            want = out_tree if out_tree is not None else o_tree
            if o_tree != want or t_tree != want:
                raise TypeError(f"custom_jvp {name}: the jvp rule must return (primal_out, tangent_out) "
                                f"with the structure of the function's output {want}; got {o_tree} and {t_tree}")
            t_leaves = [_checked_tangent(f"custom_jvp {name}: the jvp rule", "tangent", f"output {i}", t, get_aval(o))
                        for i, (o, t) in enumerate(zip(o_leaves, t_leaves))]
            if out_tree is None:
                return o_leaves, t_leaves, o_tree
            return o_leaves, t_leaves

        return rule

    def _jvp_now(self, trace, args: tuple) -> Any:
        """Under a jvp trace: call the rule on this trace's primals and tangents."""
        static, dyn = _split_nondiff(args, self.nondiff_argnums)
        leaves, in_tree = tree_util.flatten(tuple(dyn))
        pairs = [trace.lift(asarray(x)) for x in leaves]
        if all(type(t) is Zero for _, t in pairs):  # nothing to differentiate here: the enclosing trace's turn
            with set_current_trace(trace.parent):
                return self(*args)
        with set_current_trace(trace.parent):
            outs, t_outs, out_tree = self._flat_rule(static, in_tree)([p for p, _ in pairs], [t for _, t in pairs])
        t_outs = [t if dtypes.is_inexact(get_aval(o).dtype) else Zero(tangent_aval(get_aval(o)))
                  for o, t in zip(outs, t_outs)]
        return out_tree.unflatten(trace._wrap(o, t) for o, t in zip(outs, t_outs))


def _custom_jvp_call_jvp(primals, tangents, *, call_jaxpr, jvp_fn, num_consts):
    # consts (closure values of fun) are not differentiated through the custom rule
    outs, t_outs = jvp_fn.fn(list(primals[num_consts:]), list(tangents[num_consts:]))
    t_outs = [t if dtypes.is_inexact(get_aval(o).dtype) else Zero(tangent_aval(get_aval(o)))
              for o, t in zip(outs, t_outs)]
    return outs, t_outs


custom_jvp_call_p.jvp_rule = _custom_jvp_call_jvp


def _custom_jvp_call_batch(args, dims, *, call_jaxpr, jvp_fn, num_consts):
    size = batch_size(args, dims)
    xs = [bdim_to_front(x, d, size) for x, d in zip(args, dims)]
    batched_call = lambda *a: eval_jaxpr(call_jaxpr.jaxpr, [], *a)  # noqa: E731
    new_call, new_consts, _, _, _ = _trace_call(lambda *a: vmap(batched_call)(*a), xs)

    def batched_jvp(primals, tangents):
        def one(p, t):
            return jvp_fn.fn(list(p), list(t))
        # everything here is batched along axis 0 already (args were moved to the front)
        return vmap(one)(list(primals), [instantiate(t) for t in tangents])

    outs = custom_jvp_call_p.bind(*new_consts, *xs, call_jaxpr=new_call, jvp_fn=_Hashable(batched_jvp),
                                  num_consts=len(new_consts))
    return outs, [0] * len(outs)


custom_jvp_call_p.batch_rule = _custom_jvp_call_batch


class custom_vjp:
    """A function with a custom reverse-mode rule: `f.defvjp(fwd, bwd)`.

    `fwd(*args) -> (out, residuals)`; `bwd(residuals, cotangent_out) -> tuple of
    cotangents, one per (non-nondiff) argument`. Residuals may be any pytree.

    Args:
        fun: the function (positional arguments only).
        nondiff_argnums: arguments that are not differentiated (passed first to bwd).

    Examples:
        >>> import padax
        >>> @padax.custom_vjp
        ... def clip_gradient(x):
        ...     return x
        >>> clip_gradient.defvjp(lambda x: (x, None), lambda res, g: (padax.clip(g, -1.0, 1.0),))
        >>> padax.grad(lambda x: (3.0 * clip_gradient(x)).sum())(padax.to_tensor([1.0, 2.0])).tolist()
        [1.0, 1.0]
    """

    def __init__(self, fun: Callable, nondiff_argnums: Sequence[int] = ()):
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.nondiff_argnums = tuple(nondiff_argnums)
        self.fwd = None
        self.bwd = None

    def defvjp(self, fwd: Callable, bwd: Callable) -> None:
        self.fwd, self.bwd = fwd, bwd

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if kwargs:
            raise TypeError("custom_vjp functions take positional arguments only")
        if self.fwd is None:
            raise AttributeError(f"custom_vjp {self.__name__} has no rules: call {self.__name__}.defvjp(fwd, bwd)")
        n = len(args)
        static, dyn = _split_nondiff(args, self.nondiff_argnums)
        fun = lambda *d: self.fun(*_merge(static, d, n))  # noqa: E731
        call_jaxpr, consts, leaves, in_tree, out_tree = _trace_call(fun, dyn)
        name = self.__name__
        fwd, bwd, nondiff = self.fwd, self.bwd, self.nondiff_argnums
        nondiff_vals = tuple(static[i] for i in nondiff)
        leaf_avals = [get_aval(x) for x in leaves]  # bwd_fn keeps avals, not the (traced) arguments

        def fwd_fn(primals):
            out, res = fwd(*_merge(static, in_tree.unflatten(primals), n))
            o_leaves, o_tree = tree_util.flatten(out)
            if o_tree != out_tree:
                raise TypeError(f"custom_vjp {name}: fwd must return (output, residuals) with the output "
                                f"structured like the function's output {out_tree}; got {o_tree}")
            return o_leaves, res

        def bwd_fn(res, cts):
            ct = out_tree.unflatten(cts)
            got = bwd(*nondiff_vals, res, ct)
            if not isinstance(got, (tuple, list)):
                got = (got,)
            got = tuple(got)
            expected = in_tree
            try:
                g_leaves = expected.flatten_up_to(got)
            except (ValueError, TypeError):
                raise TypeError(f"custom_vjp {name}: bwd must return a tuple with one cotangent per "
                                f"differentiable argument, structured as {expected}; got "
                                f"{tree_util.structure(got)}{user_location()}") from None
            out = []
            for i, (g, xa) in enumerate(zip(g_leaves, leaf_avals)):
                if g is None:
                    out.append(Zero(tangent_aval(xa)))
                    continue
                out.append(_checked_tangent(f"custom_vjp {name}: bwd", "cotangent", f"argument {i}", g, xa))
            return out

        outs = custom_vjp_call_p.bind(*consts, *leaves, call_jaxpr=call_jaxpr, fwd=_Hashable(fwd_fn),
                                      bwd=_Hashable(bwd_fn), num_consts=len(consts))
        return out_tree.unflatten(outs)


def _custom_vjp_call_jvp(primals, tangents, *, call_jaxpr, fwd, bwd, num_consts):
    outs, res = fwd.fn(list(primals[num_consts:]))
    res_leaves, res_tree = tree_util.flatten(res)
    # only inputs with a tangent space (floating, complex) get a tangent; ints and bools pass none
    diff = tuple(dtypes.is_inexact(get_aval(p).dtype) for p in primals[num_consts:])
    ts = [instantiate(t) for t, d in zip(tangents[num_consts:], diff) if d]
    out_avals = tuple(get_aval(o) for o in outs)
    t_outs = custom_lin_p.bind(*res_leaves, *ts, num_res=len(res_leaves), out_avals=out_avals, bwd=bwd,
                               out_tree=res_tree, diff=diff)
    return outs, t_outs


custom_vjp_call_p.jvp_rule = _custom_vjp_call_jvp


def _custom_lin_transpose(cts, *args, num_res, out_avals, bwd, out_tree, diff):
    res = out_tree.unflatten(args[:num_res])
    cts = [zeros_like_aval(a) if type(c) is Zero else c for c, a in zip(cts, out_avals)]
    in_cts = list(bwd.fn(res, cts))
    return [None] * num_res + [c for c, d in zip(in_cts, diff) if d]


def _custom_lin_forward(*args, **params):
    raise forward_mode_error()


custom_lin_p.transpose_rule = _custom_lin_transpose
custom_lin_p.jvp_rule = _custom_lin_forward
custom_lin_p.batch_rule = _custom_lin_forward  # batching it means running the linear map forward


def _custom_vjp_call_batch(args, dims, *, call_jaxpr, fwd, bwd, num_consts):
    size = batch_size(args, dims)
    xs = [bdim_to_front(x, d, size) for x, d in zip(args, dims)]
    new_call, new_consts, _, _, _ = _trace_call(
        lambda *a: vmap(lambda *b: eval_jaxpr(call_jaxpr.jaxpr, [], *b))(*a), xs)

    def batched_fwd(primals):
        return vmap(lambda p: fwd.fn(list(p)))(list(primals))

    def batched_bwd(res, cts):
        return vmap(lambda r, c: bwd.fn(r, list(c)))(res, list(cts))

    outs = custom_vjp_call_p.bind(*new_consts, *xs, call_jaxpr=new_call, fwd=_Hashable(batched_fwd),
                                  bwd=_Hashable(batched_bwd), num_consts=len(new_consts))
    return outs, [0] * len(outs)


custom_vjp_call_p.batch_rule = _custom_vjp_call_batch


def _call_transpose(call_jaxpr: ClosedJaxpr, cts, args) -> list:
    """Transpose a call of a linear program: its non-linear operands become the jaxpr's consts."""
    j = call_jaxpr.jaxpr
    lin = [is_undefined(a) for a in args]
    tj = Jaxpr([v for v, l in zip(j.invars, lin) if not l], [v for v, l in zip(j.invars, lin) if l],
               j.outvars, j.eqns)
    res = iter(backward_pass(tj, [a for a, l in zip(args, lin) if not l], list(cts)))
    out = []
    for l in lin:
        if not l:
            out.append(None)
            continue
        r = next(res)
        out.append(None if type(r) is Zero else r)
    return out


# A linear function with a custom rule transposes like its own program (linear_transpose of it).
custom_jvp_call_p.transpose_rule = lambda cts, *args, call_jaxpr, jvp_fn, num_consts: \
    _call_transpose(call_jaxpr, cts, args)
custom_vjp_call_p.transpose_rule = lambda cts, *args, call_jaxpr, fwd, bwd, num_consts: \
    _call_transpose(call_jaxpr, cts, args)
