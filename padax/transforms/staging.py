"""Tracing Python functions into jaxprs: `make_jaxpr`, `eval_shape`, and the trace jit uses."""
from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from padax.core import dtypes
from padax.core.abstract import ShapedArray, get_aval
from padax.interpreters.staging import JaxprTrace, JaxprTracer, flat_fun, trace_flat  # noqa: F401 (re-exported)
from padax.runtime import tree as tree_util
from padax.runtime.array import Tensor
from padax.runtime.sharding import resolve_sharding


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
        if dtype is None:
            raise ValueError("ShapeDtypeStruct: dtype must be given")
        self.shape = tuple(int(d) for d in shape)
        self.dtype = dtypes.canonicalize(dtypes.to_dtype(dtype))
        self.weak_type = weak_type
        if sharding is not None:
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
