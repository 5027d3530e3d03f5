"""`padax.extend`: the pieces of padax's IR for tools built on it (like `jax.extend`).

`padax.extend.core` has the jaxpr classes (`Jaxpr`, `ClosedJaxpr`, `JaxprEqn`,
`Var`, `Literal`), `Primitive` and `jaxpr_as_fun`, for interpreters that walk
what `padax.make_jaxpr` returns; the primitives themselves are `padax.lax.*_p`.
"""
from padax.extend import core  # noqa: F401
