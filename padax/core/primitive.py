"""Primitive: the unit of extension.

A primitive carries its rules as attributes, set next to its definition in
`padax/functional/lax/`: `abstract_eval` (avals in -> avals out, and the
shape/dtype checks), `impl` (eager; defaults to running a compiled
single-op executable), `jvp_rule`, `transpose_rule` and `batch_rule`.
Its lowering rule to StableHLO lives in `padax/lowering/rules/`.
"""
from __future__ import annotations

import sys
from typing import Any, Callable

from padax.core import trace as _trace
from padax.core.abstract import check_aval_size
from padax.core.trace import EvalTrace as _EvalTrace

# Set by padax.transforms.dispatch: runs a primitive eagerly via a cached executable.
_default_impl: Callable[..., Any] | None = None


def set_default_impl(fn: Callable[..., Any]) -> None:
    global _default_impl
    _default_impl = fn


def _created_in_padax() -> bool:
    """Whether the code creating a primitive (past any __init__) is a padax module."""
    f = sys._getframe(2)
    while f is not None and f.f_code.co_name == "__init__":
        f = f.f_back
    return f is not None and f.f_globals.get("__name__", "").startswith("padax.")


# Installed by padax.interpreters.tape once a value needs a gradient: (prim, trace, args, params) -> the
# recorded result, or NotImplemented when no operand is tracked at this level. None: no tape in use.
tape_hook: Callable[..., Any] | None = None

# Every primitive by name (the first one defined under a name), e.g. for policies that name primitives.
registry: dict[str, "Primitive"] = {}


class Primitive:
    """A named operation with its rules: the unit of extension (jax's `Primitive`).

    Set `def_impl` (eager), `def_abstract_eval` (shapes and dtypes), and as needed `def_jvp`,
    `def_transpose`, `def_batch`; a primitive compiled under jit also needs a lowering rule
    (padax/lowering/rules/). `bind` applies it under the current trace.

    Args:
        name: the primitive's name, as printed in jaxprs (registered by name).
        multiple_results: `bind` returns a list of outputs instead of one.

    Returns:
        The primitive; attach its rules with the def_* methods.

    Examples:
        >>> import padax
        >>> from padax.extend.core import Primitive
        >>> twice = Primitive('example_twice')
        >>> _ = twice.def_impl(lambda x: x * 2)
        >>> _ = twice.def_abstract_eval(lambda x: x)        # same shape and dtype
        >>> twice.bind(padax.to_tensor([1.0, 2.0])).tolist()
        [2.0, 4.0]
        >>> padax.make_jaxpr(twice.bind)(padax.to_tensor([1.0, 2.0])).eqns[0].primitive
        example_twice
    """
    multiple_results = False

    def __init__(self, name: str, *, multiple_results: bool = False):
        self.name = name
        registry.setdefault(name, self)
        self.multiple_results = multiple_results
        self._impl: Callable | None = None
        self.abstract_eval: Callable | None = None
        self.jvp_rule: Callable | None = None
        self.transpose_rule: Callable | None = None
        self.batch_rule: Callable | None = None
        # Every rule slot, declared here and written as `prim.<slot> = rule` beside the primitive (the
        # def_* decorators below set the same slots, for users extending padax):
        # (trace, args, unknowns, **params) -> outs: split into a known part run now and an unknown part
        # staged (scan, cond, jit, ...); None: an equation with an unknown input is staged whole
        self.partial_eval_rule: Callable | None = None
        # (trace, args, dims, **params) -> (out, dim): a collective over the enclosing vmap's named axis
        self.collective_batch_rule: Callable | None = None
        # the batch rule takes the BatchTrace first (bodies of control flow batch under its axis)
        self.batch_rule_takes_trace = False
        # vmap applies the batch rule even when no operand is batched (new_ref: a ref made inside a vmap is
        # batched, so that batched values may be written into it)
        self.batch_even_unbatched = False
        # differentiation applies the jvp rule even when every tangent is zero (new_ref: a ref made inside the
        # differentiated function gets a tangent ref, so that differentiated values may be written into it)
        self.jvp_even_zero = False
        # (eqn, name, binder) -> the equation's line in a printed jaxpr, in the primitive's own notation; None:
        # `outs = name[params] args`
        self.pp_rule: Callable | None = None
        # Taylor mode (padax.transforms.collapsed) may apply this elementwise primitive's Taylor rule
        # pointwise: smooth wherever defined, with no host-side checks in the rule
        self.taylor_pointwise = False
        # the param holding a sub-jaxpr that collapsed Taylor mode evaluates inline (jit, remat, custom_vjp)
        self.inline_jaxpr_param: str | None = None
        self.eager_fn: Callable | None = None  # set by padax.transforms.dispatch: the op's eager program
        # params -> frozenset of side effects (padax.core.effects); None: pure, or those of its sub-programs
        self.effects_rule: Callable | None = None
        # defined by padax and lowered by padax's own rule: its programs may be found in the persistent
        # cache by a fingerprint of their jaxpr (padax/lowering/fingerprint.py); register_lowering clears it
        # for a rule from outside padax
        self.lowering_by_padax = _created_in_padax()
        # the params its lowering reads (None: all of them); only these enter a program's fingerprint
        self.lowering_params: tuple[str, ...] | None = None

    def __repr__(self) -> str:
        return self.name

    def bind(self, *args: Any, **params: Any) -> Any:
        """Apply the primitive under the current trace (eager, staging, ...)."""
        state = _trace.trace_state
        if state.bind_policy is not None:
            args = state.bind_policy(self, args, params)
        trace = state.trace
        if type(trace) is _EvalTrace and self._impl is None:  # the eager hot path, in one call
            return _default_impl(self, args, params)  # (a tracked Tensor misses the C++ path: dispatch sees it)
        if tape_hook is not None:
            out = tape_hook(self, trace, args, params)
            if out is not NotImplemented:
                return out
        return trace.process_primitive(self, args, params)

    def eval_avals(self, avals: Any, params: dict) -> Any:
        """The result aval(s) for these operand avals: `abstract_eval` plus a size check.

        The check turns a result too large to describe (its byte count overflows int64, e.g.
        `zeros([2**40, 2**40])`) into a ValueError naming the op, instead of an abort inside XLA.
        """
        out = self.abstract_eval(*avals, **params)
        for a in (out if self.multiple_results else (out,)):
            check_aval_size(self.name, a)
        return out

    def impl(self, *args: Any, **params: Any) -> Any:
        if self._impl is not None:
            return self._impl(*args, **params)
        return _default_impl(self, args, params)

    def eager(self, args: tuple, params: dict) -> Any:
        """`impl` without repacking the arguments (what the eager trace calls)."""
        if self._impl is not None:
            return self._impl(*args, **params)
        return _default_impl(self, args, params)

    # -- rule registration (decorators) ------------------------------------
    def def_impl(self, fn: Callable) -> Callable:
        self._impl = fn
        return fn

    def def_abstract_eval(self, fn: Callable) -> Callable:
        self.abstract_eval = fn
        return fn

    def def_jvp(self, fn: Callable) -> Callable:
        self.jvp_rule = fn
        return fn

    def def_transpose(self, fn: Callable) -> Callable:
        self.transpose_rule = fn
        return fn

    def def_batch(self, fn: Callable) -> Callable:
        self.batch_rule = fn
        return fn
