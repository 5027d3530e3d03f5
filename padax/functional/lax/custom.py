"""Primitives behind custom differentiation rules and stop_gradient.

* `custom_jvp_call`: runs `call_jaxpr`; under jvp the user's rule `jvp_fn` is used.
* `custom_vjp_call`: runs `call_jaxpr`; under jvp it runs the user's `fwd` and emits
  `custom_lin`, a linear primitive whose transpose calls the user's `bwd`.
* `stop_gradient`: identity whose tangent is zero.
The jvp/transpose/batch rules that need the transformation machinery are
installed by `padax.transforms.custom`.
"""
from __future__ import annotations

from typing import Any

from padax.core import dtypes
from padax.core.abstract import get_aval
from padax.core.ad_util import Zero, tangent_aval
from padax.core.errors import MissingRuleError
from padax.core.jaxpr import eval_jaxpr
from padax.core.primitive import Primitive
from padax.core.source_info import user_location
from padax.functional._arrays import asarray
from padax.runtime import tree as tree_util

custom_jvp_call_p = Primitive("custom_jvp_call", multiple_results=True)
custom_vjp_call_p = Primitive("custom_vjp_call", multiple_results=True)
custom_vjp_call_p.inline_jaxpr_param = "call_jaxpr"  # Taylor mode evaluates the primal program inline
custom_lin_p = Primitive("custom_lin", multiple_results=True)
stop_gradient_p = Primitive("stop_gradient")
stop_gradient_p.blocks_gradient = True  # (its result is a constant on the dygraph tape too)

__all__ = ["stop_gradient"]
# their lowering inlines the primal program and reads no other param (the rules are Python functions)
custom_jvp_call_p.lowering_params = custom_vjp_call_p.lowering_params = ("call_jaxpr",)


def _call_abstract(*avals, call_jaxpr, **params):
    return call_jaxpr.out_avals


def _call_impl(*args, call_jaxpr, **params):
    return eval_jaxpr(call_jaxpr.jaxpr, call_jaxpr.consts, *args)


for _p in (custom_jvp_call_p, custom_vjp_call_p):
    _p.def_abstract_eval(_call_abstract)
    _p.def_impl(_call_impl)


@custom_lin_p.def_abstract_eval
def _custom_lin_abstract(*avals, num_res, out_avals, bwd, out_tree, diff):
    return list(out_avals)


def forward_mode_error() -> MissingRuleError:
    """What evaluating `custom_lin` means: forward mode was applied to a custom_vjp function."""
    return MissingRuleError("can't apply forward-mode autodiff (jvp, jacfwd, linearize's jvp function) to a "
                            "custom_vjp function: it only has a reverse-mode rule. Use grad/vjp/jacrev, or define "
                            "the function with custom_jvp (which gives both modes).")


@custom_lin_p.def_impl
def _custom_lin_impl(*args, **params):
    raise forward_mode_error()


@stop_gradient_p.def_abstract_eval
def _stop_gradient_abstract(x):
    return x


@stop_gradient_p.def_impl
def _stop_gradient_impl(x):
    return x


def stop_gradient(x: Any) -> Any:
    """Identity in the forward pass; blocks gradients.

    Args:
        x: an array or a pytree of arrays (integer and bool leaves pass through).

    Returns:
        `x`, treated as a constant by differentiation.

    Examples:
        >>> import padax
        >>> from padax import lax
        >>> padax.grad(lambda x: x * lax.stop_gradient(x))(padax.to_tensor(3.0)).tolist()   # not 2x = 6
        3.0
    """
    def one(leaf):
        if not dtypes.is_inexact(get_aval(leaf).dtype):
            return leaf
        return stop_gradient_p.bind(asarray(leaf))
    return tree_util.map(one, x)



def _stop_gradient_jvp(primals, tangents):
    (x,) = primals
    out = stop_gradient_p.bind(x)
    return out, Zero(tangent_aval(get_aval(x)))


stop_gradient_p.jvp_rule = _stop_gradient_jvp
stop_gradient_p.batch_rule = lambda args, dims: (stop_gradient_p.bind(args[0]), dims[0])


# ---- not_differentiable: identity whose derivative is refused ------------------------------------
# Marks an input (a Bessel order, say) along which a function has no derivative rule: a zero
# tangent passes (the derivative is taken with respect to other inputs), a non-zero one raises.
not_differentiable_p = Primitive("not_differentiable")


@not_differentiable_p.def_abstract_eval
def _not_differentiable_abstract(x, *, message):
    return x


@not_differentiable_p.def_impl
def _not_differentiable_impl(x, *, message):
    return x


def _not_differentiable_jvp(primals, tangents, *, message):
    if type(tangents[0]) is not Zero:
        raise TypeError(f"{message}{user_location()}")
    return not_differentiable_p.bind(primals[0], message=message), Zero(tangent_aval(get_aval(primals[0])))


not_differentiable_p.jvp_rule = _not_differentiable_jvp
not_differentiable_p.batch_rule = lambda args, dims, *, message: (
    not_differentiable_p.bind(args[0], message=message), dims[0])


def not_differentiable(x, message: str):
    """x itself; differentiating through it with a non-zero tangent raises TypeError(message)."""
    return not_differentiable_p.bind(asarray(x), message=str(message))
