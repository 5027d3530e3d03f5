"""The jaxpr IR and primitives, for custom interpreters (like `jax.extend.core`).

    closed = padax.make_jaxpr(f)(x)
    for eqn in closed.jaxpr.eqns:          # JaxprEqn: primitive, invars, outvars, params
        ...eqn.primitive.bind(*vals, **eqn.params)...

An equation's inputs are `Var`s or `Literal`s (constants inlined into the
program: read `.val`); `closed.consts` (alias `literals`) are the values of the
jaxpr's constvars.
"""
from __future__ import annotations

from typing import Any, Callable

from padax.core.jaxpr import ClosedJaxpr, Jaxpr, JaxprEqn, Literal, Var, eval_jaxpr  # noqa: F401
from padax.core.primitive import Primitive  # noqa: F401
from padax.extend import primitives  # noqa: F401


def jaxpr_as_fun(closed_jaxpr: ClosedJaxpr) -> Callable[..., list[Any]]:
    """The function a closed jaxpr computes: flat arguments -> list of outputs.

    Args:
        closed_jaxpr: a ClosedJaxpr (from `padax.make_jaxpr`).

    Returns:
        A function of the jaxpr's inputs returning the list of its outputs.

    Examples:
        >>> import padax
        >>> from padax.extend.core import jaxpr_as_fun
        >>> closed = padax.make_jaxpr(lambda x: padax.sin(x) * 2.0)(padax.to_tensor([1.0, 2.0]))
        >>> [y.tolist() for y in jaxpr_as_fun(closed)(padax.to_tensor([0.0, 1.0]))]
        [[0.0, 1.68294]]
    """
    return lambda *args: eval_jaxpr(closed_jaxpr.jaxpr, closed_jaxpr.consts, *args)


__all__ = ["ClosedJaxpr", "Jaxpr", "JaxprEqn", "Literal", "Var", "Primitive", "jaxpr_as_fun", "primitives"]
