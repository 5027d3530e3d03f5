"""`closure_convert` (a function's closed-over traced values made explicit arguments) and
`custom_gradient` (TensorFlow-style custom gradients, on custom_vjp)."""
from __future__ import annotations

import functools
from typing import Any, Callable

from padax.core.jaxpr import eval_jaxpr
from padax.core.source_info import user_location
from padax.core.trace import Tracer
from padax.runtime import tree as tree_util
from padax.transforms.custom import custom_vjp
from padax.transforms.staging import arg_aval, trace_flat


def closure_convert(fun: Callable, *example_args: Any) -> tuple[Callable, list]:
    """`(converted, consts)` with `converted(*args, *consts) == fun(*args)` (jax's signature).

    `fun` is traced at the shapes and dtypes of `example_args`; the values it closes over
    that are traced by an enclosing transformation (the ones that may carry derivatives or
    a batch axis) are hoisted into `consts`; concrete closed-over values stay inside.
    Custom derivative rules need this: their residuals must be explicit arrays.
    """
    leaves, in_tree = tree_util.flatten(example_args)
    store: list = []

    def flat(*xs):
        out = fun(*in_tree.unflatten(xs))
        out_leaves, out_tree = tree_util.flatten(out)
        store.append(out_tree)
        return out_leaves

    closed = trace_flat(flat, [arg_aval(x) for x in leaves], "closure_convert tracing")
    out_tree = store[0]
    hoist = [isinstance(c, Tracer) for c in closed.consts]
    hoisted = [c for c, h in zip(closed.consts, hoist) if h]
    kept = [c for c, h in zip(closed.consts, hoist) if not h]
    n_args = len(example_args)
    name = getattr(fun, "__name__", "fun")

    def converted(*args_and_consts):
        args, consts = args_and_consts[:n_args], args_and_consts[n_args:]
        if len(consts) != len(hoisted):
            raise TypeError(f"closure_convert({name}): expected {n_args} arguments and {len(hoisted)} hoisted "
                            f"constants, got {len(args_and_consts)} values in all{user_location()}")
        a_leaves, a_tree = tree_util.flatten(tuple(args))
        if a_tree != in_tree:
            raise TypeError(f"closure_convert({name}): arguments {a_tree} do not match the example arguments "
                            f"{in_tree}{user_location()}")
        it_h, it_k = iter(consts), iter(kept)
        all_consts = [next(it_h) if h else next(it_k) for h in hoist]
        return out_tree.unflatten(eval_jaxpr(closed.jaxpr, all_consts, *a_leaves))

    converted.__name__ = f"closure_convert({name})"
    return converted, hoisted


class _Rule:
    """A residual holding a closure-converted backward rule: the consts are its pytree children."""

    __slots__ = ("fn", "consts")

    def __init__(self, fn: Callable, consts: list):
        self.fn = fn
        self.consts = consts


tree_util.register_node(_Rule, lambda r: (r.consts, r.fn), lambda fn, consts: _Rule(fn, list(consts)))


def custom_gradient(fun: Callable) -> Callable:
    """TensorFlow-style custom gradients: `fun(*args)` returns `(value, grad_fn)` where
    `grad_fn(cotangent_of_value)` returns the cotangents of the arguments (a tuple, or a
    single value for a one-argument function). Built on custom_vjp, so it composes with
    jit, vmap and grad (reverse mode; like any custom_vjp, not forward mode)."""

    @functools.wraps(fun)
    def wrapped(*args):
        def primal(*a):
            return fun(*a)[0]

        def fwd(*a):
            res = fun(*a)
            if not isinstance(res, tuple) or len(res) != 2 or not callable(res[1]):
                raise TypeError(f"custom_gradient {getattr(fun, '__name__', 'fun')}: the function must return "
                                f"(value, grad_fn){user_location()}")
            out, rule = res
            converted, consts = closure_convert(rule, out)
            return out, _Rule(converted, consts)

        def bwd(residual, ct):
            cts = residual.fn(ct, *residual.consts)
            if not isinstance(cts, (tuple, list)):
                cts = (cts,)
            return tuple(cts)

        f = custom_vjp(primal)
        f.defvjp(fwd, bwd)
        return f(*args)

    return wrapped
