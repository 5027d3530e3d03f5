"""`jit_p`: a call of a closed sub-program (what a nested `jit` stages out).

Params: `jaxpr` (a ClosedJaxpr with no consts: captured values are passed
as leading arguments), `name`, `donated` (one bool per argument).
Its eager impl (one compiled executable per program) and its rules are installed
by `padax.transforms.jit`: under jvp, linearize, transpose and vmap a `jit`
equation becomes `jit` equations over the derived programs (the jvp'd program;
a known part run now and an unknown part over residuals; the transposed
program; the batched program), so differentiated code stays compiled.
"""
from __future__ import annotations

from padax.core.jaxpr import eval_jaxpr
from padax.core.primitive import Primitive

jit_p = Primitive("jit", multiple_results=True)


@jit_p.def_abstract_eval
def _jit_abstract_eval(*avals, jaxpr, name, donated):
    return jaxpr.out_avals


# `remat`: a call whose intermediates are recomputed in the backward pass instead of saved.
# Params: `jaxpr` (const-free ClosedJaxpr), `policy` (a hashable saveable-policy object or None).
remat_p = Primitive("remat", multiple_results=True)
jit_p.inline_jaxpr_param = remat_p.inline_jaxpr_param = "jaxpr"  # Taylor mode evaluates the body inline


@remat_p.def_abstract_eval
def _remat_abstract_eval(*avals, jaxpr, policy):
    return jaxpr.out_avals


@remat_p.def_impl
def _remat_impl(*args, jaxpr, policy):
    return eval_jaxpr(jaxpr.jaxpr, [], *args)


# `name`: the identity, naming a value for checkpoint policies (`checkpoint_name(x, "h1")`).
# Params: `name` (a string). Its tangent passes through unnamed.
name_p = Primitive("name")


@name_p.def_abstract_eval
def _name_abstract_eval(aval, *, name):
    return aval


@name_p.def_impl
def _name_impl(x, *, name):
    return x


def _name_jvp(primals, tangents, *, name):
    return name_p.bind(primals[0], name=name), tangents[0]


name_p.jvp_rule = _name_jvp
name_p.batch_rule = lambda args, dims, *, name: (name_p.bind(args[0], name=name), dims[0])
