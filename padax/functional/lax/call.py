"""`jit_p`: a call of a closed sub-program (what a nested `jit` stages out).

Params: `jaxpr` (a ClosedJaxpr with no consts: captured values are passed
as leading arguments), `name`, `donated` (one bool per argument).
Its eager impl is installed by `padax.transforms.jit`.
"""
from __future__ import annotations

from padax.core.primitive import Primitive

jit_p = Primitive("jit", multiple_results=True)


@jit_p.def_abstract_eval
def _jit_abstract_eval(*avals, jaxpr, name, donated):
    return jaxpr.out_avals


# `remat`: a call whose intermediates are recomputed in the backward pass instead of saved.
# Params: `jaxpr` (const-free ClosedJaxpr), `policy` (a hashable saveable-policy object or None).
remat_p = Primitive("remat", multiple_results=True)


@remat_p.def_abstract_eval
def _remat_abstract_eval(*avals, jaxpr, policy):
    return jaxpr.out_avals


@remat_p.def_impl
def _remat_impl(*args, jaxpr, policy):
    from padax.core.jaxpr import eval_jaxpr
    return eval_jaxpr(jaxpr.jaxpr, [], *args)
