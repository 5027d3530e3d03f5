"""Batching: the vmap interpreter, which carries a batch axis alongside each value.

Each primitive's `batch_rule(args, dims, **params)` maps it over the batch; `batch_jaxpr` batches a
sub-jaxpr (the bodies of control flow, jit, remat and custom derivatives) under an enclosing vmap's
axis. The user API `vmap` is in padax/transforms/batching.py.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from padax.core.abstract import ShapedArray, get_aval
from padax.core.errors import missing_rule
from padax.core.jaxpr import ClosedJaxpr, eval_jaxpr
from padax.core.trace import Trace, Tracer, new_trace, set_current_trace, trace_state
from padax.interpreters import hooks
from padax.interpreters.staging import trace_flat


class BatchTracer(Tracer):
    __slots__ = ("val", "bdim")

    def __init__(self, trace: "BatchTrace", val: Any, bdim: int | None):
        self._trace = trace
        self._tape = None  # (the dygraph tape's entry: set on a tracer that needs a gradient)
        self.val = val
        self.bdim = bdim

    @property
    def aval(self) -> ShapedArray:
        a = get_aval(self.val)
        if self.bdim is None:
            return a
        return a.update(shape=a.shape[:self.bdim] + a.shape[self.bdim + 1:])


class BatchTrace(Trace):
    __slots__ = ("parent", "axis_size", "axis_name", "spmd_axis_name", "redirect")
    description = "vmap tracing"

    def __init__(self, parent: Trace, axis_size: int, axis_name: Any = None, spmd_axis_name: Any = None):
        super().__init__()
        self.parent = parent
        self.axis_size = axis_size
        self.axis_name = axis_name
        self.spmd_axis_name = spmd_axis_name
        self.redirect = None  # concrete Tensors updated in place with this trace's values (ad.redirect)

    def lift(self, x: Any) -> tuple[Any, int | None]:
        if isinstance(x, BatchTracer) and x._trace is self:
            return x.val, x.bdim
        if self.redirect is not None:
            hit = self.redirect.get(id(x))
            if hit is not None and hit[0]() is x:
                return hit[1].val, hit[1].bdim
        return x, None

    def process_primitive(self, prim, args, params):
        vals, dims = [], []
        for a in args:
            v, d = self.lift(a)
            vals.append(v)
            dims.append(d)
        collective = prim.collective_batch_rule
        if collective is not None and names_axis(params.get("axis_name"), self.axis_name):
            with set_current_trace(self.parent):
                out, out_dim = collective(self, vals, dims, **params)
        elif all(d is None for d in dims) and not prim.batch_even_unbatched:
            with set_current_trace(self.parent):
                return prim.bind(*vals, **params)
        else:
            rule = prim.batch_rule
            if rule is None:
                raise missing_rule(prim, "batch_rule", "vmap", "prim.batch_rule = rule(args, dims, **params)")
            with set_current_trace(self.parent):
                if prim.batch_rule_takes_trace:  # control flow: bodies batch under this axis
                    out, out_dim = rule(self, vals, dims, **params)
                else:
                    out, out_dim = rule(vals, dims, **params)
        if prim.multiple_results:
            return [BatchTracer(self, o, d) if d is not None else o for o, d in zip(out, out_dim)]
        return BatchTracer(self, out, out_dim) if out_dim is not None else out


def names_axis(requested: Any, name: Any) -> bool:
    if name is None or requested is None:
        return False
    if isinstance(requested, (tuple, list)):
        return name in requested
    return requested == name


def batch_flat(fun: Callable[..., Sequence[Any]], size: int, args: Sequence[Any], batched: Sequence[bool],
               instantiate: Sequence[bool] | bool = True, axis_name: Any = None,
               spmd_axis_name: Any = None) -> tuple[list, list[bool]]:
    """Run a function of flat arrays under vmap, operands batched on axis 0 where `batched`.

    Outputs that come out batched, or are marked in `instantiate`, are returned with the batch on
    axis 0; the others unbatched. Returns (outputs, which are batched).
    """
    bt = BatchTrace(trace_state.trace, size, axis_name, spmd_axis_name)
    with new_trace(bt):
        ins = [BatchTracer(bt, x, 0) if b else x for x, b in zip(args, batched)]
        outs = fun(*ins)
        pairs = [bt.lift(o) for o in outs]
    if isinstance(instantiate, bool):
        instantiate = [instantiate] * len(pairs)
    res, flags = [], []
    for (v, d), inst in zip(pairs, instantiate):
        if d is None and not inst:
            res.append(v)
            flags.append(False)
        else:
            res.append(hooks.bdim_to_front(v, d, size))
            flags.append(True)
    return res, flags


def batch_eval(axis: BatchTrace, closed: ClosedJaxpr, size: int, args: Sequence[Any], batched: Sequence[bool],
               instantiate: Sequence[bool]) -> tuple[list, list[bool]]:
    """Evaluate a jaxpr under vmap (`batch_flat`) inside the enclosing vmap `axis`: the body is batched
    under the same axis name, so collectives in it (psum over that name) see the batch."""
    return batch_flat(lambda *xs: eval_jaxpr(closed.jaxpr, closed.consts, *xs), size, args, batched,
                      instantiate, axis.axis_name, axis.spmd_axis_name)


def batch_jaxpr(axis, closed: ClosedJaxpr, size: int, batched: Sequence[bool],
                 instantiate: Sequence[bool]) -> tuple[ClosedJaxpr, list[bool]]:
    """The batched jaxpr (inputs batched on axis 0 where `batched`) and its batched outputs."""
    avals = [a.update(shape=(size,) + a.shape) if b else a for a, b in zip(closed.in_avals, batched)]
    store: list = []

    def f(*args):
        outs, flags = batch_eval(axis, closed, size, args, batched, instantiate)
        store.append(flags)
        return outs

    traced = trace_flat(f, avals, "vmap of control flow")
    return traced, store[0]
