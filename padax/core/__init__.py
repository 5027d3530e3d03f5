"""IR and tracing machinery: avals, primitives, traces/tracers, jaxprs, pytrees."""
from padax.core.abstract import ShapedArray
from padax.core.jaxpr import ClosedJaxpr, Jaxpr, JaxprEqn, Literal, Var, eval_jaxpr, pp_jaxpr
from padax.core.primitive import Primitive
from padax.core.trace import (EvalTrace, Trace, Tracer, current_trace, new_trace,
                              set_current_trace)
