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
    """The function a closed jaxpr computes: flat arguments -> list of outputs."""
    return lambda *args: eval_jaxpr(closed_jaxpr.jaxpr, closed_jaxpr.consts, *args)


__all__ = ["ClosedJaxpr", "Jaxpr", "JaxprEqn", "Literal", "Var", "Primitive", "jaxpr_as_fun", "primitives"]
