"""Tracing Python functions into jaxprs: `make_jaxpr`, `eval_shape`, and the trace jit uses."""
from __future__ import annotations

import weakref
from typing import Any, Callable, Sequence

import numpy as np

from padax.config import config
from padax.core import tree as tree_util
from padax.core.abstract import ShapedArray, aval_of_host_value, get_aval
from padax.core.jaxpr import ClosedJaxpr, Jaxpr, JaxprEqn, Literal, Var
from padax.core.source_info import user_frame, user_location
from padax.core.trace import Trace, Tracer, check_no_leaks, escaped_tracer_error, new_trace
from padax.devices.array import Tensor


class JaxprTracer(Tracer):
    __slots__ = ("_var",)

    def __init__(self, trace: "JaxprTrace", var: Var):
        self._trace = trace
        self._var = var

    @property
    def aval(self) -> ShapedArray:
        return self._var.aval


class JaxprTrace(Trace):
    """Records every primitive applied to its tracers as an equation."""

    __slots__ = ("eqns", "invars", "constvars", "const_vals", "_const_ids", "description", "enclosing")

    def __init__(self, description: str = "jit tracing"):
        super().__init__()
        # the trace this one was started under: a loop/branch body inside shard_map or vmap finds the
        # enclosing named axes through it (parallel._static_axis_size)
        from padax.core.trace import current_trace
        self.enclosing = current_trace()
        self.eqns: list[JaxprEqn] = []
        self.invars: list[Var] = []
        self.constvars: list[Var] = []
        self.const_vals: list[Any] = []
        self._const_ids: dict[int, Var] = {}
        self.description = description

    def new_arg(self, aval: ShapedArray) -> JaxprTracer:
        v = Var(aval)
        self.invars.append(v)
        return JaxprTracer(self, v)

    def getvar(self, x: Any):
        if isinstance(x, Tracer):
            if x._trace is self:
                return x._var
            if not x._trace.is_valid:
                raise escaped_tracer_error(x, "jit")
            return self._const(x, x.aval)  # a tracer of an enclosing transformation
        if type(x) is Tensor:
            return self._const(x, x.aval)
        if isinstance(x, (bool, int, float, complex)):
            return Literal(x, aval_of_host_value(x))
        if isinstance(x, (np.ndarray, np.generic)):
            aval = aval_of_host_value(x)
            if aval.shape == ():
                return Literal(np.asarray(x, aval.dtype), aval)
            return self._const(np.asarray(x, aval.dtype), aval)
        raise TypeError(f"value of type {type(x).__name__} is not a valid array argument: {x!r}")

    def _const(self, val: Any, aval: ShapedArray) -> Var:
        v = self._const_ids.get(id(val))
        if v is None:
            v = self._const_ids[id(val)] = Var(aval)
            self.constvars.append(v)
            self.const_vals.append(val)
        return v

    def process_primitive(self, prim, args, params):
        invars = [self.getvar(a) for a in args]
        out = prim.eval_avals([v.aval for v in invars], params)
        if prim.multiple_results:
            outvars = [Var(a) for a in out]
            self.eqns.append(JaxprEqn(prim, invars, outvars, params, user_frame()))
            return [JaxprTracer(self, v) for v in outvars]
        outvar = Var(out)
        self.eqns.append(JaxprEqn(prim, invars, [outvar], params, user_frame()))
        return JaxprTracer(self, outvar)

    def to_jaxpr(self, outs: Sequence[Any]) -> ClosedJaxpr:
        for x in outs:
            if not isinstance(x, (JaxprTracer, Tracer, Tensor, bool, int, float, complex, np.ndarray, np.generic)):
                raise TypeError(f"{self.description}: the function returned a {type(x).__name__} ({x!r:.60}); a traced "
                                f"function returns arrays, numbers or pytrees (tuples, lists, dicts) of them"
                                f"{user_location()}")
        outvars = [self.getvar(x) for x in outs]
        jaxpr = Jaxpr(list(self.constvars), list(self.invars), outvars, list(self.eqns))
        return ClosedJaxpr(jaxpr, list(self.const_vals))


def trace_flat(fun: Callable[..., Sequence[Any]], in_avals: Sequence[ShapedArray],
               description: str = "jit tracing") -> ClosedJaxpr:
    """Trace `fun(*flat_args) -> flat outputs` at `in_avals` into a closed jaxpr."""
    trace = JaxprTrace(description)
    with new_trace(trace):
        args = [trace.new_arg(a) for a in in_avals]
        outs = fun(*args)
        closed = trace.to_jaxpr(outs)
    if config.check_tracer_leaks:
        ref = weakref.ref(trace)
        del trace, args, outs
        check_no_leaks(ref, description)
    return closed


def arg_aval(x: Any) -> ShapedArray:
    """The aval of a transformed function's argument (`get_aval`), with the advice for non-arrays."""
    try:
        return get_aval(x)
    except TypeError as e:
        raise TypeError(f"{e}. Mark non-array arguments static (static_argnums / static_argnames).") from None


class ShapeDtypeStruct:
    """Shape and dtype of an array without its data (what eval_shape returns), optionally with
    the sharding an argument will have (`jit(...).lower(ShapeDtypeStruct(..., sharding=s))`).

    Args:
        shape: the dimensions.
        dtype: any dtype name or object padax accepts.
        sharding: a Sharding for the array the struct stands for (optional).
        weak_type: whether it stands for a weakly typed value (a Python scalar).

    Examples:
        >>> import padax
        >>> s = padax.ShapeDtypeStruct((2, 3), 'float32')
        >>> s, s.ndim, s.size
        (ShapeDtypeStruct(shape=(2, 3), dtype=float32), 2, 6)
    """

    __slots__ = ("shape", "dtype", "weak_type", "sharding")

    def __init__(self, shape: Sequence[int], dtype: Any, *, sharding: Any = None, weak_type: bool = False):
        from padax.core import dtypes
        if dtype is None:
            raise ValueError("ShapeDtypeStruct: dtype must be given")
        self.shape = tuple(int(d) for d in shape)
        self.dtype = dtypes.canonicalize(dtypes.to_dtype(dtype))
        self.weak_type = weak_type
        if sharding is not None:
            from padax.devices.sharding import resolve_sharding
            sharding = resolve_sharding(sharding, "ShapeDtypeStruct")
        self.sharding = sharding

    @classmethod
    def like(cls, x: Any) -> "ShapeDtypeStruct":
        """The shape, dtype (and, for a Tensor on several devices, sharding) of `x`."""
        aval = get_aval(x)
        sharding = None
        if type(x) is Tensor and len(x.sharding.device_list) > 1:
            sharding = x.sharding
        return cls(aval.shape, aval.dtype, sharding=sharding, weak_type=aval.weak_type)

    def update(self, **changes: Any) -> "ShapeDtypeStruct":
        """A copy with some of shape, dtype, sharding, weak_type replaced."""
        fields = dict(shape=self.shape, dtype=self.dtype, sharding=self.sharding, weak_type=self.weak_type)
        fields.update(changes)
        return ShapeDtypeStruct(fields.pop("shape"), fields.pop("dtype"), **fields)

    @property
    def aval(self) -> ShapedArray:
        """The abstract value the struct stands for (what `get_aval` reads)."""
        return ShapedArray(self.shape, self.dtype, self.weak_type)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __eq__(self, other: Any) -> bool:
        return (isinstance(other, ShapeDtypeStruct) and self.shape == other.shape
                and self.dtype == other.dtype and self.sharding == other.sharding)

    def __hash__(self) -> int:
        return hash((self.shape, self.dtype, self.sharding))

    def __repr__(self) -> str:
        extra = f", sharding={self.sharding}" if self.sharding is not None else ""
        extra += ", weak_type=True" if self.weak_type else ""
        return f"ShapeDtypeStruct(shape={self.shape}, dtype={self.dtype.name}{extra})"


def flat_fun(fun: Callable, in_tree, out_store: list) -> Callable:
    """`fun(*args, **kwargs)` as a function of the flat leaves of (args, kwargs); it appends
    the output tree to `out_store` when called."""
    def flat(*leaves):
        args, kwargs = in_tree.unflatten(leaves)
        out = fun(*args, **kwargs)
        out_leaves, out_tree = tree_util.flatten(out)
        out_store.append(out_tree)
        return out_leaves
    return flat


def make_jaxpr(fun: Callable, static_argnums: int | Sequence[int] = (), *,
               return_shape: bool = False) -> Callable[..., Any]:
    """`make_jaxpr(f)(*args)` returns the ClosedJaxpr that `f` traces to at these args (for reading what a
    function computes; only the shapes and dtypes of the args matter).

    Args:
        fun: the function to trace.
        static_argnums: positional arguments baked into the jaxpr as Python values.
        return_shape: also return the output's ShapeDtypeStruct pytree.

    Returns:
        A function returning the ClosedJaxpr (and the shapes, with return_shape).

    Examples:
        >>> import padax
        >>> print(padax.make_jaxpr(lambda x: padax.sin(x) + 1.0)(padax.to_tensor([1.0, 2.0])))
        { lambda ; a:f32[2]. let
            b:f32[2] = sin a
            ...
          in (d,) }
    """
    static = (static_argnums,) if isinstance(static_argnums, int) else tuple(static_argnums)

    def wrapped(*args, **kwargs):
        static_vals = {i: a for i, a in enumerate(args) if i in static}
        dyn = [a for i, a in enumerate(args) if i not in static]

        def f(*dyn_args, **kw):
            it = iter(dyn_args)
            full = [static_vals[i] if i in static_vals else next(it) for i in range(len(args))]
            return fun(*full, **kw)

        leaves, in_tree = tree_util.flatten((tuple(dyn), kwargs))
        store: list = []
        closed = trace_flat(flat_fun(f, in_tree, store), [get_aval(x) for x in leaves],
                            "make_jaxpr tracing")
        if return_shape:
            shapes = store[0].unflatten(ShapeDtypeStruct(a.shape, a.dtype, weak_type=a.weak_type) for a in closed.out_avals)
            return closed, shapes
        return closed

    wrapped.__name__ = f"make_jaxpr({getattr(fun, '__name__', 'fun')})"
    return wrapped


def eval_shape(fun: Callable, *args: Any, **kwargs: Any) -> Any:
    """Output shapes/dtypes of `fun(*args)` (a pytree of ShapeDtypeStruct), without computing: the args
    may be ShapeDtypeStructs themselves.

    Args:
        fun: the function.
        *args, **kwargs: its arguments (arrays or ShapeDtypeStructs).

    Returns:
        A pytree of ShapeDtypeStruct shaped like fun's output.

    Examples:
        >>> import padax
        >>> padax.eval_shape(lambda x: x @ x.T, padax.ShapeDtypeStruct((2, 3), 'float32'))
        ShapeDtypeStruct(shape=(2, 2), dtype=float32)
    """
    leaves, in_tree = tree_util.flatten((args, kwargs))
    store: list = []
    closed = trace_flat(flat_fun(lambda *a, **k: fun(*a, **k), in_tree, store),
                        [get_aval(x) for x in leaves], "eval_shape tracing")
    return store[0].unflatten(ShapeDtypeStruct(a.shape, a.dtype, weak_type=a.weak_type) for a in closed.out_avals)


aval_of = arg_aval  # TODO(layering): old name, still imported by padax.checkify; removed once it moves
